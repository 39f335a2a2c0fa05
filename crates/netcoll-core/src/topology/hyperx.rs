//! HyperX (Ahn et al. 2009) and, through it, the flattened butterfly: routers on a grid, each
//! linked to every router that differs from it in exactly one coordinate, `trunk` links per
//! pair. Router ids are mixed-radix coordinates, dimension 0 fastest. Ports: the `t`
//! endpoints first, then dimension by dimension `(S-1)*trunk` ports; in dimension `d` the
//! router at coordinate `x` is reached over ports `base_d + j*trunk + copy`, `j = x` if
//! `x < own`, else `x - 1` (BookSim's flatfly order).

use super::mesh_torus::port;
use super::{coords_of, index_of, Family, Topology, TopologyBuilder};
use crate::error::Result;
use crate::params::HammingParams;
use crate::spec::TopologySpec;

pub fn build(p: &HammingParams) -> Result<Topology> {
    build_hamming(
        p,
        TopologySpec::HyperX(p.clone()),
        Family::HyperX(p.clone()),
    )
}

pub(super) fn build_hamming(
    p: &HammingParams,
    spec: TopologySpec,
    family: Family,
) -> Result<Topology> {
    let mut b = TopologyBuilder::new(std::iter::repeat_n(p.radix(), p.routers()))?;
    for r in 0..p.routers() {
        let coords = coords_of(r, &p.dims);
        for (d, &own) in coords.iter().enumerate() {
            for x in own + 1..p.dims[d] {
                let mut other = coords.clone();
                other[d] = x;
                let s = index_of(&other, &p.dims);
                for copy in 0..p.trunk {
                    b.link(
                        port(r, dim_port(p, d, own, x, copy)),
                        port(s, dim_port(p, d, x, own, copy)),
                    )?;
                }
            }
        }
    }
    for e in 0..p.endpoints() {
        b.endpoint(port(e / p.t, e % p.t))?;
    }
    b.finish(spec.canonical(), family, p.dims.clone())
}

/// The port of a router at coordinate `own` in dimension `d` towards coordinate `to`.
pub fn dim_port(p: &HammingParams, d: usize, own: usize, to: usize, copy: usize) -> usize {
    let base = p.t
        + p.dims[..d]
            .iter()
            .map(|&s| (s - 1) * p.trunk)
            .sum::<usize>();
    let j = if to < own { to } else { to - 1 };
    base + j * p.trunk + copy
}
