//! Interlaced bypass tori, iBT(n^d; b = <b1..bk>) (Zhang and Deng, seed 004 s2).
//!
//! A d-dimensional torus plus, at every node x, one bypass ring: the node's species
//! `s = (x1 + ... + xd) mod (d*k)` selects the bypass dimension `s mod d` and the bypass length
//! `b[s div d]`, and x links to x +/- L along that dimension. This is the construction that
//! reproduces Table 1 of the paper (checked in `metrics` tests).
//!
//! It is well defined when `d*k` divides every radix and every bypass length: then a node and
//! the node L hops away have the same species, so bypass links pair up into rings, and the
//! species pattern survives the torus wrap-around. Ports: the torus ports as in
//! `mesh_torus`, then `2d` = bypass +L, `2d+1` = bypass -L, then the endpoint.

use super::mesh_torus::{add_grid_links, attach_endpoints, grid_builder, port};
use super::{Family, Topology};
use crate::error::Result;
use crate::params::IbtParams;
use crate::spec::TopologySpec;

pub fn build(p: &IbtParams) -> Result<Topology> {
    let d = p.dims.len();
    let mut b = grid_builder(&p.dims, 2);
    add_grid_links(&mut b, &p.dims, true)?;
    let n: usize = p.dims.iter().product();
    let mut coords = vec![0usize; d];
    for x in 0..n {
        let (dim, len) = p.bypass_of(p.species_of(&coords));
        let stride: usize = p.dims[..dim].iter().product();
        let c = coords[dim];
        let target = x - c * stride + ((c + len) % p.dims[dim]) * stride;
        b.link(port(x, 2 * d), port(target, 2 * d + 1))?;
        increment(&mut coords, &p.dims);
    }
    attach_endpoints(&mut b, 2 * d + 2)?;
    let name = TopologySpec::Ibt(p.clone()).canonical();
    b.finish(name, Family::Ibt(p.clone()), p.dims.clone())
}

/// Advances mixed-radix coordinates by one, dimension 0 fastest.
pub(super) fn increment(coords: &mut [usize], dims: &[usize]) {
    for (c, &k) in coords.iter_mut().zip(dims) {
        *c += 1;
        if *c < k {
            return;
        }
        *c = 0;
    }
}
