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

use super::metrics::{counts, finish, Bfs, Metrics};
use super::{DragonflyParams, FatTreeParams, HammingParams, LinkClass, Topology};
use crate::error::Result;
use crate::spec::TopologySpec;
use rayon::prelude::*;

/// Radix, cables and bisection of a built network.
pub fn network_extras(m: &mut Metrics, topo: &Topology) {
    m.radix = (0..topo.num_switches())
        .map(|s| topo.num_ports(s) as u32)
        .max()
        .unwrap_or(0);
    m.cables.clear();
    for l in 0..topo.num_links() {
        let name = match topo.link_class(l as u32) {
            LinkClass::Local => "local",
            LinkClass::Global => "global",
            LinkClass::Tree => "tree",
        };
        *m.cables.entry(name.into()).or_insert(0) += 1;
    }
    m.bisection_links = bisection(topo.family_spec().as_ref());
}

/// Radix, cables and bisection of a mesh, torus or hypercube from its spec (never built).
pub fn grid_extras(m: &mut Metrics, spec: &TopologySpec) {
    m.radix = match spec {
        TopologySpec::Mesh(d) | TopologySpec::Torus(d) => 2 * d.len() as u32 + 1,
        _ => m.degree_max + 1,
    };
    m.cables = [("local".to_string(), m.links)].into_iter().collect();
    m.bisection_links = bisection(Some(spec));
}

fn bisection(spec: Option<&TopologySpec>) -> Option<u64> {
    let halves = |s: u64| (s / 2) * s.div_ceil(2);
    Some(match spec? {
        TopologySpec::Mesh(d) | TopologySpec::Torus(d) => {
            let n: u64 = d.iter().map(|&k| k as u64).product();
            let k = *d.iter().max()? as u64;
            let wrap = matches!(spec?, TopologySpec::Torus(_)) && k > 2;
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
pub fn fattree_closed_form(p: &FatTreeParams) -> Metrics {
    let (k, n) = (p.k as u128, p.levels as u32);
    let leaves = k.pow(n - 1);
    let per_leaf = p.leaf_endpoints() as u128;
    let from_one_leaf: u128 = (1..n).map(|h| 2 * h as u128 * (k.pow(h) - k.pow(h - 1))).sum();
    let total = leaves * per_leaf * per_leaf * from_one_leaf;
    let links = (n as u128 - 1) * leaves * k;
    let degrees = match n {
        1 => (0, 0),
        2 => (k as u32, k as u32),
        _ => (k as u32, 2 * k as u32),
    };
    finish(
        (
            (leaves * per_leaf) as u64,
            p.routers() as u64,
            links as u64,
        ),
        degrees,
        2 * (n - 1),
        total,
        "closed form".into(),
    )
}

/// HyperX: two routers are as many hops apart as coordinates they differ in; a pair differs
/// in dimension `d` in `(S_d - 1)/S_d` of all ordered pairs.
pub fn hamming_closed_form(p: &HammingParams) -> Metrics {
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
    finish(
        ((n * t) as u64, n as u64, links as u64),
        (degree, degree),
        p.dims.len() as u32,
        router_total * t * t,
        "closed form".into(),
    )
}

/// A dragonfly whose arrangement depends only on group differences (relative, circulant) is
/// invariant under rotating the groups: the `a` routers of group 0 stand for all. BookSim's
/// absolute arrangement is not, and gets one BFS per router (2,064 BFS of 2,064 routers for
/// the p=8, a=16, h=8 machine: well under a second on one core).
pub fn dragonfly_by_symmetry(topo: &Topology, p: &DragonflyParams) -> Result<Metrics> {
    if p.arrangement == crate::params::Arrangement::Absolute {
        let mut m = super::metrics::metrics_all_pairs(topo)?;
        m.method = "one BFS per router".into();
        return Ok(m);
    }
    let n = topo.num_switches();
    let weight = topo.endpoints_per_switch();
    let results: Vec<(u32, u128)> = (0..p.a)
        .into_par_iter()
        .map_init(|| Bfs::new(n), |bfs, s| bfs.run(topo, s, &weight))
        .collect();
    let diameter = results.iter().map(|r| r.0).max().unwrap_or(0);
    let per = p.p as u128;
    let total = results.iter().map(|r| r.1).sum::<u128>() * per * p.g as u128;
    let (c, d) = counts(topo);
    Ok(finish(c, d, diameter, total, format!("symmetry ({} BFS)", p.a)))
}
