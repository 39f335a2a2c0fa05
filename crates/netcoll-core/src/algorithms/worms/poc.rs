//! Partial ordered chains (POCs) covering a multicast set: the five steps of seed 003 Fig. 13.
//!
//! A POC is a list of switches each joined to the next by a "down" link between different
//! BFS levels (Definition 5), so every link of it goes exactly one level down and piece-wise
//! minimal up*/down* routing between consecutive switches only goes down (Theorem 4). Ties,
//! which the paper leaves open, go to the switch found first by the step-1 depth-first
//! search (neighbours in port order): that is the order the search gives the DAG.

use crate::routing::UpDown;
use crate::topology::Topology;

/// Step 1: the DAG `T` of down links between different levels, as children lists in port
/// order (parallel links merged), and the depth-first preorder number of every switch.
pub struct DownDag {
    pub children: Vec<Vec<u32>>,
    pub preorder: Vec<u32>,
}

impl DownDag {
    pub fn new(topo: &Topology, ud: &UpDown) -> DownDag {
        let n = topo.num_switches();
        let level = ud.levels();
        let children: Vec<Vec<u32>> = (0..n)
            .map(|u| {
                let mut c: Vec<u32> = Vec::new();
                for nb in topo.neighbours(u) {
                    let v = nb.switch;
                    if level[v as usize] == level[u] + 1 && !c.contains(&v) {
                        c.push(v);
                    }
                }
                c
            })
            .collect();
        let mut preorder = vec![u32::MAX; n];
        let mut next = 0;
        // Iterative DFS; children pushed in reverse so the lowest port is visited first.
        let mut stack = vec![ud.root() as u32];
        while let Some(u) = stack.pop() {
            if preorder[u as usize] != u32::MAX {
                continue;
            }
            preorder[u as usize] = next;
            next += 1;
            for &v in children[u as usize].iter().rev() {
                if preorder[v as usize] == u32::MAX {
                    stack.push(v);
                }
            }
        }
        DownDag { children, preorder }
    }

    /// Switches reachable from `u` by down links of `T` (u included), visiting each once;
    /// `enter(v)` says whether to continue below `v`.
    fn walk(&self, u: u32, seen: &mut [u32], stamp: u32, mut enter: impl FnMut(u32) -> bool) {
        let mut stack = vec![u];
        seen[u as usize] = stamp;
        while let Some(x) = stack.pop() {
            if x != u && !enter(x) {
                continue;
            }
            for &v in &self.children[x as usize] {
                if seen[v as usize] != stamp {
                    seen[v as usize] = stamp;
                    stack.push(v);
                }
            }
        }
    }
}

/// The reduced DAG `T'` on participating switches (step 3) with weights (step 4).
pub struct Reduced {
    /// `T'` children of each participating switch, in preorder.
    pub children: Vec<Vec<u32>>,
    pub weight: Vec<u64>,
}

/// Steps 3 and 4 for participating switches `rho[s] > 0` (`rho`: participating processors,
/// source included, per switch).
pub fn reduce(dag: &DownDag, rho: &[u32]) -> Reduced {
    let n = rho.len();
    let mut seen = vec![u32::MAX; n];
    let mut children = vec![Vec::new(); n];
    let mut weight = vec![0u64; n];
    for u in (0..n as u32).filter(|&u| rho[u as usize] > 0) {
        // A removed switch's parents inherit its children: u's T' children are the
        // participating switches below it with only non-participating switches between.
        let mut kids = Vec::new();
        dag.walk(u, &mut seen, 2 * u, |v| {
            let part = rho[v as usize] > 0;
            if part {
                kids.push(v);
            }
            !part
        });
        kids.sort_by_key(|&v| dag.preorder[v as usize]);
        children[u as usize] = kids;
        // Desc(u) in T' is every participating switch below u in T.
        let mut w = 0u64;
        dag.walk(u, &mut seen, 2 * u + 1, |v| {
            w += u64::from(rho[v as usize]);
            true
        });
        weight[u as usize] = w + u64::from(rho[u as usize]);
    }
    Reduced { children, weight }
}

/// Step 5: strips chains off `T'`, heaviest first; each chain follows the heaviest child still
/// in `T'`. Weights are those of step 4, computed once, as Fig. 13 prints them.
pub fn strip_chains(dag: &DownDag, red: &Reduced, rho: &[u32]) -> Vec<Vec<u32>> {
    let mut alive: Vec<bool> = rho.iter().map(|&r| r > 0).collect();
    let key = |s: u32| {
        (
            red.weight[s as usize],
            std::cmp::Reverse(dag.preorder[s as usize]),
        )
    };
    let mut chains = Vec::new();
    while let Some(p1) = (0..rho.len() as u32)
        .filter(|&s| alive[s as usize])
        .max_by_key(|&s| key(s))
    {
        let mut chain = vec![p1];
        alive[p1 as usize] = false;
        let mut at = p1;
        while let Some(next) = red.children[at as usize]
            .iter()
            .copied()
            .filter(|&c| alive[c as usize])
            .max_by_key(|&c| key(c))
        {
            alive[next as usize] = false;
            chain.push(next);
            at = next;
        }
        chains.push(chain);
    }
    chains
}

/// Fig. 13, all five steps: the POCs (as switch lists) covering the participating switches.
pub fn find_pocs(topo: &Topology, ud: &UpDown, rho: &[u32]) -> Vec<Vec<u32>> {
    let dag = DownDag::new(topo, ud);
    let red = reduce(&dag, rho);
    strip_chains(&dag, &red, rho)
}
