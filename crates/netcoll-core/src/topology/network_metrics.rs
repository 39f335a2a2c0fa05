//! The metrics the network families add to distances: radix, cost (cables by link class) and
//! bisection, and the distance figures of fat-trees, HyperX / flattened butterflies and
//! dragonflies by closed form or symmetry.
//!
//! `bisection_links` is the number of links cut by the family's natural bisection, exact for
//! that partition (every router hosts endpoints, so the cut is fixed by the endpoint halves;
//! a max-flow in the tests confirms it):
//! - mesh and torus: halve the largest dimension (`N/K` links, twice that on a torus of K > 2);
//!   hypercube: `N/2`;
//! - fat-tree: the left and right halves of the leaves, `L*k/2` for `L = k^(levels-1)` leaves
//!   (k even, or one level); null for odd k, whose halves split a subtree;
//! - dragonfly: the lower `floor(g/2)` groups against the rest (for odd g not an even split
//!   of the endpoints), `floor(g/2)*ceil(g/2)` times
//!   the global links per pair of groups;
//! - HyperX and flattened butterfly: halve the dimension `S` (even sizes first, smallest cut)
//!   that cuts fewest links, `(N/S) * floor(S/2) * ceil(S/2) * trunk`.

use super::bfs::Bfs;
use super::{DragonflyParams, FatTreeParams, HammingParams, LinkClass, Topology};
use crate::spec::TopologySpec;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// Distance figures: ((endpoints, switches, links), (degree min, max), diameter, total
/// distance over ordered endpoint pairs, method).
pub struct Figures {
    pub counts: (u64, u64, u64),
    pub degrees: (u32, u32),
    pub diameter: u32,
    pub total: u128,
    pub method: String,
}

/// The figures beyond distance.
pub struct Extras {
    pub radix: u32,
    pub bisection_links: Option<u64>,
    pub cables: BTreeMap<String, u64>,
}

/// Radix, cables and bisection of a built network.
pub fn network_extras(topo: &Topology) -> Extras {
    let radix = (0..topo.num_switches())
        .map(|s| topo.num_ports(s) as u32)
        .max()
        .unwrap_or(0);
    let mut cables = BTreeMap::new();
    for l in 0..topo.num_links() {
        let name = match topo.link_class(l as u32) {
            LinkClass::Local => "local",
            LinkClass::Global => "global",
            LinkClass::Tree => "tree",
        };
        *cables.entry(name.to_string()).or_insert(0) += 1;
    }
    Extras {
        radix,
        bisection_links: bisection(topo.family_spec().as_ref()),
        cables,
    }
}

/// Radix, cables and bisection of a mesh, torus or hypercube from its spec (never built).
pub fn grid_extras(degree_max: u32, links: u64, spec: &TopologySpec) -> Extras {
    Extras {
        radix: match spec {
            TopologySpec::Mesh(d, c) | TopologySpec::Torus(d, c) => (2 * d.len() + c) as u32,
            _ => degree_max + 1,
        },
        bisection_links: bisection(Some(spec)),
        cables: [("local".to_string(), links)].into_iter().collect(),
    }
}

fn bisection(spec: Option<&TopologySpec>) -> Option<u64> {
    let halves = |s: u64| (s / 2) * s.div_ceil(2);
    Some(match spec? {
        TopologySpec::Mesh(d, _) | TopologySpec::Torus(d, _) => {
            let n: u64 = d.iter().map(|&k| k as u64).product();
            let k = *d.iter().max()? as u64;
            let wrap = matches!(spec?, TopologySpec::Torus(..)) && k > 2;
            n / k * if wrap { 2 } else { 1 }
        }
        TopologySpec::Hypercube(dim) => 1u64 << (dim - 1),
        TopologySpec::FatTree(p) if p.levels == 1 => 0,
        TopologySpec::FatTree(p) if p.k % 2 == 1 => return None,
        TopologySpec::FatTree(p) => (p.per_level() * p.k / 2) as u64,
        TopologySpec::Dragonfly(p) => halves(p.g as u64) * p.multiplicity() as u64,
        TopologySpec::Flatfly(p) | TopologySpec::HyperX(p) => {
            let n = p.routers() as u64;
            p.dims
                .iter()
                .map(|&s| {
                    let s = s as u64;
                    (s % 2, n / s * halves(s) * p.trunk as u64)
                })
                .min()?
                .1
        }
        _ => return None,
    })
}

/// A k-ary n-tree: leaves whose nearest common ancestor is `h` levels up are `2h` hops apart,
/// and each leaf has `k^h - k^(h-1)` such leaves.
pub fn fattree_closed_form(p: &FatTreeParams) -> Figures {
    let (k, n) = (p.k as u128, p.levels as u32);
    let leaves = k.pow(n - 1);
    let per_leaf = p.leaf_endpoints() as u128;
    let from_one_leaf: u128 = (1..n)
        .map(|h| 2 * h as u128 * (k.pow(h) - k.pow(h - 1)))
        .sum();
    let total = leaves * per_leaf * per_leaf * from_one_leaf;
    let links = (n as u128 - 1) * leaves * k;
    let degrees = match n {
        1 => (0, 0),
        2 => (k as u32, k as u32),
        _ => (k as u32, 2 * k as u32),
    };
    Figures {
        counts: ((leaves * per_leaf) as u64, p.routers() as u64, links as u64),
        degrees,
        diameter: 2 * (n - 1),
        total,
        method: "closed form".into(),
    }
}

/// HyperX: two routers are as many hops apart as coordinates they differ in; a pair differs
/// in dimension `d` in `(S_d - 1)/S_d` of all ordered pairs.
pub fn hamming_closed_form(p: &HammingParams) -> Figures {
    let n = p.routers() as u128;
    let t = p.t as u128;
    let router_total: u128 = p
        .dims
        .iter()
        .map(|&s| n * (n / s as u128) * (s as u128 - 1))
        .sum();
    let degree = p.dims.iter().map(|&s| (s - 1) * p.trunk).sum::<usize>() as u32;
    let links: u128 = p
        .dims
        .iter()
        .map(|&s| n * (s as u128 - 1) / 2 * p.trunk as u128)
        .sum();
    Figures {
        counts: ((n * t) as u64, n as u64, links as u64),
        degrees: (degree, degree),
        diameter: p.dims.len() as u32,
        total: router_total * t * t,
        method: "closed form".into(),
    }
}

/// A dragonfly whose arrangement depends only on group differences (relative, circulant) is
/// invariant under rotating the groups: the `a` routers of group 0 stand for all.
pub fn dragonfly_by_symmetry(topo: &Topology, p: &DragonflyParams) -> Figures {
    let n = topo.num_switches();
    let weight = topo.endpoints_per_switch();
    let results: Vec<(u32, u128)> = (0..p.a)
        .into_par_iter()
        .map_init(|| Bfs::new(n), |bfs, s| bfs.run(topo, s, &weight))
        .collect();
    let degree = (p.a - 1 + p.h) as u32;
    Figures {
        counts: (
            topo.num_endpoints() as u64,
            n as u64,
            topo.num_links() as u64,
        ),
        degrees: (degree, degree),
        diameter: results.iter().map(|r| r.0).max().unwrap_or(0),
        total: results.iter().map(|r| r.1).sum::<u128>() * p.p as u128 * p.g as u128,
        method: format!("symmetry ({} BFS)", p.a),
    }
}
