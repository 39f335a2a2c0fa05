//! BookSim's k-ary n-tree (`fattree`, networks/fattree.cpp), wired port for port.
//!
//! Routers are numbered level by level from the top (`id = level * k^(n-1) + pos`). Every
//! router's down ports come first (`0..k`), its up ports after (`k..2k`); the top level has
//! only down ports. The leaves' down ports are the endpoints: endpoint `e` sits on leaf
//! `e / k`, port `e % k`. Down port `q` of router (level, pos) meets up port `k + q'` of
//! router (level+1, pos') with, for `span = k^(n-1-level)` and `branch = span / k`,
//! `pos' = (pos / span) * span + q * branch + pos % branch` and `q' = (pos % span) / branch`
//! (BookSim's "neighborhood" arithmetic). With `taper` R a leaf hosts `R*k` endpoints, so the
//! leaves' up ports start at `R*k`.

use super::mesh_torus::port;
use super::{Family, LinkClass, Topology, TopologyBuilder};
use crate::error::Result;
use crate::params::FatTreeParams;
use crate::spec::TopologySpec;

pub fn build(p: &FatTreeParams) -> Result<Topology> {
    let (k, n, per_level) = (p.k, p.levels, p.per_level());
    let ports = (0..n).flat_map(|level| {
        let ports = match (level == 0, level == n - 1) {
            (true, true) => p.leaf_endpoints(),
            (true, false) => k,
            (false, false) => 2 * k,
            (false, true) => p.leaf_endpoints() + k,
        };
        std::iter::repeat_n(ports, per_level)
    });
    let mut b = TopologyBuilder::new(ports)?;
    for level in 0..n - 1 {
        let child_up = if level + 1 == n - 1 {
            p.leaf_endpoints()
        } else {
            k
        };
        for pos in 0..per_level {
            for q in 0..k {
                let (child, q2) = child_of(k, n, level, pos, q);
                b.link_classed(
                    port((level + 1) * per_level + child, child_up + q2),
                    port(level * per_level + pos, q),
                    LinkClass::Tree,
                )?;
            }
        }
    }
    let leaves = (n - 1) * per_level;
    for e in 0..p.endpoints() {
        let leaf = e / p.leaf_endpoints();
        b.endpoint(port(leaves + leaf, e % p.leaf_endpoints()))?;
    }
    let spec = TopologySpec::FatTree(p.clone());
    b.finish(spec.canonical(), Family::FatTree(p.clone()), Vec::new())
}

/// The router (position on level `level + 1`) and its up-port index that down port `q` of
/// router (level, pos) reaches.
pub fn child_of(k: usize, levels: usize, level: usize, pos: usize, q: usize) -> (usize, usize) {
    let span = k.pow((levels - 1 - level) as u32);
    let branch = span / k;
    let child = (pos / span) * span + q * branch + pos % branch;
    (child, (pos % span) / branch)
}
