//! BookSim 2's `topology = anynet`: a network listed in `network_file`, one line per module,
//! as `router 0 node 0 node 1 router 1` (router 0 reaches nodes 0 and 1 and router 1; a
//! router-to-router line also implies the link back). Built port for port as BookSim's
//! `AnyNet` builds it (per router: its nodes in id order, then its routers in id order), and
//! routed as its `min_anynet`: one table per router from Dijkstra over the router graph
//! (ties to the lowest router id, as BookSim's ordered set), every VC allowed.
//!
//! BookSim also reads an optional latency after a link (`router 1 10`); netcoll's channels
//! have one latency, so a weight other than 1 is refused with its line. The file is found
//! as BookSim finds it (relative to the working directory) and, failing that, relative to
//! the configuration file.

use super::cfgfile::read_text;
use crate::error::{Error, Result};
use crate::topology::{Family, PortRef, Topology, TopologyBuilder};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Largest network file read.
const MAX_NETWORK_BYTES: u64 = 64 << 20;
/// Routers up to which the routing tables (routers x routers entries) are built.
pub const MAX_ROUTERS: usize = 4096;

/// The listing: per router, its nodes and its neighbour routers (ordered by id).
#[derive(Debug, Default)]
struct Listing {
    nodes: BTreeMap<u32, BTreeSet<u32>>,
    routers: BTreeMap<u32, BTreeSet<u32>>,
    node_router: BTreeMap<u32, u32>,
}

/// Where `network_file` is: as given (BookSim: the working directory), else next to the
/// configuration file.
pub fn resolve(file: &str, config_dir: &str) -> Result<PathBuf> {
    if file.is_empty() {
        return Err(Error::Spec(
            "topology = anynet needs network_file = FILE (BookSim's anynet listing)".into(),
        ));
    }
    let direct = PathBuf::from(file);
    if direct.exists() || config_dir.is_empty() {
        return Ok(direct);
    }
    let beside = Path::new(config_dir).join(file);
    if beside.exists() {
        return Ok(beside);
    }
    Err(Error::Io(format!(
        "network_file = {file}: no such file here or in {config_dir}"
    )))
}

/// The network of an anynet listing file.
pub fn load(path: &Path) -> Result<Topology> {
    let text = read_text(path, "network file", MAX_NETWORK_BYTES)?;
    let origin = path.display().to_string();
    build(&parse(&text, &origin)?, &origin)
}

fn parse(text: &str, origin: &str) -> Result<Listing> {
    let mut l = Listing::default();
    for (no, line) in text.lines().enumerate() {
        let bad = |msg: String| Error::Spec(format!("{origin}:{}: {msg}", no + 1));
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        let id = |w: Option<&&str>| -> Result<u32> {
            let w = w.ok_or_else(|| bad("a module type without its id".into()))?;
            w.parse()
                .map_err(|_| bad(format!("'{w}' is not a module id (a whole number)")))
        };
        let head_router = match words[0] {
            "router" => true,
            "node" => false,
            w => return Err(bad(format!("a line starts with router or node, not '{w}'"))),
        };
        let head = id(words.get(1))?;
        if head_router {
            l.nodes.entry(head).or_default();
            l.routers.entry(head).or_default();
        }
        let mut i = 2;
        while i < words.len() {
            let body_router = match words[i] {
                "router" => true,
                "node" => false,
                w => return Err(bad(format!("expected router or node, found '{w}'"))),
            };
            let body = id(words.get(i + 1))?;
            i += 2;
            if let Some(w) = words.get(i).filter(|w| **w != "router" && **w != "node") {
                if *w != "1" {
                    return Err(bad(format!(
                        "link latency {w}: netcoll's channels all take channel_latency \
                         cycles, so anynet link weights other than 1 are not supported"
                    )));
                }
                i += 1;
            }
            match (head_router, body_router) {
                (false, false) => return Err(bad("a node cannot connect to a node".into())),
                (true, true) => {
                    if head == body {
                        return Err(bad(format!("router {head} linked to itself")));
                    }
                    for r in [head, body] {
                        l.nodes.entry(r).or_default();
                        l.routers.entry(r).or_default();
                    }
                    l.routers.get_mut(&head).unwrap().insert(body);
                    l.routers.get_mut(&body).unwrap().insert(head);
                }
                (hr, _) => {
                    let (router, node) = if hr { (head, body) } else { (body, head) };
                    if let Some(&r) = l.node_router.get(&node) {
                        if r != router {
                            return Err(bad(format!(
                                "node {node} connects to routers {r} and {router}: a node has \
                                 one router"
                            )));
                        }
                    }
                    l.node_router.insert(node, router);
                    l.nodes.entry(router).or_default().insert(node);
                    l.routers.entry(router).or_default();
                }
            }
        }
    }
    Ok(l)
}

fn build(l: &Listing, origin: &str) -> Result<Topology> {
    let bad = |msg: String| Error::Invalid(format!("network file {origin}: {msg}"));
    let n = l.routers.len();
    if n == 0 || l.node_router.is_empty() {
        return Err(bad("it lists no routers with nodes".into()));
    }
    if n > MAX_ROUTERS {
        return Err(bad(format!(
            "{n} routers, more than the {MAX_ROUTERS} supported"
        )));
    }
    // BookSim's traffic manager numbers nodes 0..N-1, and its routers index arrays 0..R-1.
    if let Some((i, _)) = l.routers.keys().enumerate().find(|(i, r)| *i as u32 != **r) {
        return Err(bad(format!(
            "router ids must be 0 to {}; router {i} is missing",
            n - 1
        )));
    }
    if let Some((i, _)) = l
        .node_router
        .keys()
        .enumerate()
        .find(|(i, v)| *i as u32 != **v)
    {
        return Err(bad(format!(
            "node ids must be 0 to {}; node {i} is missing",
            l.node_router.len() - 1
        )));
    }
    let ports = (0..n as u32).map(|r| l.nodes[&r].len() + l.routers[&r].len());
    let mut b = TopologyBuilder::new(ports)?;
    let port_of = |r: u32, other: u32| -> u32 {
        (l.nodes[&r].len() + l.routers[&r].iter().position(|&x| x == other).unwrap()) as u32
    };
    for (&node, &r) in &l.node_router {
        let p = l.nodes[&r].iter().position(|&x| x == node).unwrap() as u32;
        let e = b.endpoint(PortRef { switch: r, port: p })?;
        debug_assert_eq!(e, node);
    }
    for (&r, nbrs) in &l.routers {
        for &o in nbrs.iter().filter(|&&o| o > r) {
            b.link(
                PortRef {
                    switch: r,
                    port: port_of(r, o),
                },
                PortRef {
                    switch: o,
                    port: port_of(o, r),
                },
            )?;
        }
    }
    let family = Family::File {
        path: origin.to_string(),
    };
    b.finish(format!("anynet:{origin}"), family, Vec::new())
}

/// BookSim's `min_anynet` tables in the flit engine's route-table layout: entry `at * n +
/// dst` is the local output port at router `at` towards router `dst` (VC class 0, no
/// state). Dijkstra from every router over unit-weight links; ties go to the lowest router
/// id, and a distance is only replaced by a strictly shorter one, as BookSim's loop does.
pub fn route_table(topo: &Topology) -> Vec<u32> {
    let n = topo.num_switches();
    let nbrs: Vec<Vec<(u32, u32)>> = (0..n)
        .map(|s| {
            let mut v: Vec<(u32, u32)> = (0..topo.num_ports(s))
                .filter_map(|p| match topo.peer(s, p) {
                    crate::topology::Peer::Switch { switch, .. } => Some((switch, p as u32)),
                    _ => None,
                })
                .collect();
            v.sort_unstable();
            v
        })
        .collect();
    let mut table = vec![0u32; n * n];
    let mut dist = vec![u64::MAX; n];
    let mut prev = vec![u32::MAX; n];
    for start in 0..n {
        dist.fill(u64::MAX);
        prev.fill(u32::MAX);
        dist[start] = 0;
        let mut open: BTreeSet<(u64, u32)> = BTreeSet::new();
        open.insert((0, start as u32));
        let mut done = vec![false; n];
        while let Some((d, u)) = open.pop_first() {
            if done[u as usize] {
                continue;
            }
            done[u as usize] = true;
            for &(v, _) in &nbrs[u as usize] {
                let nd = d + 1;
                if nd < dist[v as usize] {
                    if dist[v as usize] != u64::MAX {
                        open.remove(&(dist[v as usize], v));
                    }
                    dist[v as usize] = nd;
                    prev[v as usize] = u;
                    open.insert((nd, v));
                }
            }
        }
        for dst in (0..n).filter(|&d| d != start && prev[d] != u32::MAX) {
            let mut hop = dst as u32;
            while prev[hop as usize] != start as u32 {
                hop = prev[hop as usize];
            }
            let port = nbrs[start]
                .iter()
                .find(|(s, _)| *s == hop)
                .map(|x| x.1)
                .expect("the first hop is a neighbour");
            table[start * n + dst] = port;
        }
    }
    table
}
