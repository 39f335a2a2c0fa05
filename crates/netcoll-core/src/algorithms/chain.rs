//! Orderings of the participants of a tree multicast (seed 003 s4.3.3, Fig. 10): the tree
//! is built on an ordered chain whose first node is the source. A contention-free ordering
//! keeps the tree's messages on disjoint links.
//!
//! - `natural`: rank order;
//! - `dimension`: the dimension-ordered chain of k-ary n-cubes (coordinates of the rank's
//!   switch, dimension 0 most significant: dimension-order routing corrects dimension 0
//!   first, so messages between earlier and later chain segments use disjoint links);
//! - `updown`: switches in depth-first preorder of the BFS spanning tree from switch 0 (the
//!   tree up*/down* routing is built on), so consecutive chain segments sit in subtrees.
//!   This is a minimal-contention heuristic: no contention-free ordering exists for
//!   up*/down* routing (seed 003 s4.3.3).
//!
//! Every ordering is then rotated so the source comes first (the chain is cyclic around it).

use super::AlgoRequest;
use crate::error::Result;
use crate::spec_err;
use crate::topology::Topology;

/// The ranks taking part: every rank (broadcast) or the root plus the targets (multicast).
pub fn participants(req: &AlgoRequest) -> Vec<u32> {
    if req.kind == crate::schedule::CollectiveKind::Multicast {
        let mut g: Vec<u32> = req
            .targets
            .iter()
            .copied()
            .filter(|&t| t != req.root)
            .collect();
        g.push(req.root);
        g
    } else {
        (0..req.p).collect()
    }
}

/// The `order` parameter's chain of `participants`, source first.
pub fn chain(req: &AlgoRequest, order: &str) -> Result<Vec<u32>> {
    let mut ranks = participants(req);
    let topo = req.topo;
    let switch = |r: u32| topo.endpoint_switch(req.placement[r as usize] as usize);
    match order {
        "natural" => ranks.sort_unstable(),
        "dimension" => {
            if topo.shape().is_empty() {
                return spec_err!(
                    "order=dimension needs a mesh, torus or hypercube, but {} has no coordinates: use order=updown or natural",
                    topo.name()
                );
            }
            ranks.sort_by_key(|&r| {
                let mut c = topo.coords(switch(r)).unwrap_or_default();
                c.push(req.placement[r as usize] as usize);
                (c, r)
            });
        }
        "updown" => {
            let pre = preorder(topo);
            ranks.sort_by_key(|&r| (pre[switch(r)], r));
        }
        other => return spec_err!("order={other} is unknown: use natural, dimension or updown"),
    }
    let at = ranks.iter().position(|&r| r == req.root).unwrap_or(0);
    ranks.rotate_left(at);
    Ok(ranks)
}

/// The default ordering: dimension-ordered on coordinate families, up*/down* otherwise.
pub fn default_order(topo: &Topology) -> &'static str {
    if topo.shape().is_empty() {
        "updown"
    } else {
        "dimension"
    }
}

/// Depth-first preorder number of each switch in the BFS spanning tree from switch 0
/// (neighbours in port order; unreachable switches last).
fn preorder(topo: &Topology) -> Vec<usize> {
    let n = topo.num_switches();
    let mut parent = vec![usize::MAX; n];
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut queue = std::collections::VecDeque::new();
    if n > 0 {
        parent[0] = 0;
        queue.push_back(0);
    }
    while let Some(s) = queue.pop_front() {
        for nb in topo.neighbours(s) {
            let t = nb.switch as usize;
            if parent[t] == usize::MAX {
                parent[t] = s;
                children[s].push(t);
                queue.push_back(t);
            }
        }
    }
    let mut pre = vec![usize::MAX; n];
    let mut next = 0;
    let mut stack = if n > 0 { vec![0] } else { vec![] };
    while let Some(s) = stack.pop() {
        pre[s] = next;
        next += 1;
        stack.extend(children[s].iter().rev());
    }
    pre
}
