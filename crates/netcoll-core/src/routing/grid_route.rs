//! Routes on a k-ary n-mesh or torus in closed form, without building the network: a
//! five-hop route on mesh:4096x4096 should not cost the 3 GB of the whole network.
//!
//! It reproduces exactly what [`super::Routing`] does on the built network (tested pair by
//! pair): dimension order with the + way on ties and dateline classes on a torus, and, for
//! minimal routing, the same hops with class 0 (the lowest distance-reducing port is the
//! dimension-order one on a grid). Port, link and channel ids follow `topology::mesh_torus`:
//! port `2i` is + in dimension `i`, `2i+1` is -, and the links are numbered dimension by
//! dimension, router by router, each from its - end (a) to its + end (b).

use super::{Hop, RoutingKind};
use crate::error::Result;
use crate::spec_err;

/// The route from endpoint `src` to `dst` on the grid `dims`, hop by hop; None when `kind`
/// has no closed form here (only dimension order and minimal routing have one).
pub fn grid_route(
    dims: &[usize],
    wrap: bool,
    src: usize,
    dst: usize,
    kind: RoutingKind,
) -> Result<Option<Vec<Hop>>> {
    let n: usize = dims.iter().product();
    if src >= n || dst >= n {
        let bad = if src >= n { src } else { dst };
        return spec_err!(
            "endpoint {bad} is out of range: the network has {n} endpoints, 0 to {}",
            n - 1
        );
    }
    if !matches!(kind, RoutingKind::Dor | RoutingKind::Shortest) {
        return Ok(None);
    }
    let grid = Grid { dims, wrap, n };
    let mut hops = Vec::new();
    let (mut at, mut stride) = (src, 1usize);
    for (dim, &k) in dims.iter().enumerate() {
        let target = (dst / stride) % k;
        let mut class = 0u8;
        loop {
            let c = (at / stride) % k;
            if c == target {
                break;
            }
            let plus = if wrap {
                (target + k - c) % k <= (c + k - target) % k
            } else {
                target > c
            };
            let crosses = wrap && ((plus && c == k - 1) || (!plus && c == 0));
            class |= u8::from(crosses);
            let to = grid.step(at, dim, stride, plus);
            let (link, forward) = if plus {
                (grid.link_id(dim, stride, at), true)
            } else {
                (grid.link_id(dim, stride, to), false)
            };
            hops.push(Hop {
                from: at as u32,
                port: (2 * dim + usize::from(!plus)) as u32,
                to: to as u32,
                link: link as u32,
                channel: (2 * link + usize::from(!forward)) as u32,
                vc_class: if kind == RoutingKind::Dor { class } else { 0 },
                up: false,
            });
            at = to;
        }
        stride *= k;
    }
    Ok(Some(hops))
}

struct Grid<'a> {
    dims: &'a [usize],
    wrap: bool,
    n: usize,
}

impl Grid<'_> {
    /// The router one step + or - along `dim` from `x` (wrapping on a torus).
    fn step(&self, x: usize, dim: usize, stride: usize, plus: bool) -> usize {
        let k = self.dims[dim];
        let c = (x / stride) % k;
        match (plus, c) {
            (true, c) if c + 1 < k => x + stride,
            (true, c) => x - c * stride,
            (false, 0) => x + (k - 1) * stride,
            (false, _) => x - stride,
        }
    }

    /// Id of the link from router `x` (its - end) to its + neighbour in `dim`.
    fn link_id(&self, dim: usize, stride: usize, x: usize) -> usize {
        let before: usize = self.dims[..dim]
            .iter()
            .map(|&k| self.links_per_dim(k))
            .sum();
        if self.wrap {
            return before + x;
        }
        // Routers on the last coordinate of `dim` have no + link: skip those below x.
        let k = self.dims[dim];
        let block = stride * k;
        let (q, c, r) = (x / block, (x / stride) % k, x % stride);
        let skipped = q * stride + if c == k - 1 { r } else { 0 };
        before + x - skipped
    }

    fn links_per_dim(&self, k: usize) -> usize {
        if self.wrap {
            self.n
        } else {
            self.n - self.n / k
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::Routing;
    use crate::topology::Topology;

    #[test]
    fn matches_the_built_network_pair_by_pair() {
        for spec in [
            "mesh:4x3",
            "torus:4x3",
            "torus:2x5",
            "mesh:3x2x2",
            "torus:6",
            "mesh:5",
        ] {
            let topo = Topology::from_spec(spec).unwrap();
            let (dims, wrap) = (topo.shape().to_vec(), spec.starts_with("torus"));
            for kind in [RoutingKind::Dor, RoutingKind::Shortest] {
                let r = Routing::new(&topo, kind, None).unwrap();
                for s in 0..topo.num_endpoints() {
                    for d in 0..topo.num_endpoints() {
                        let built = r.route_endpoints(&topo, s, d).unwrap();
                        let closed = grid_route(&dims, wrap, s, d, kind).unwrap().unwrap();
                        assert_eq!(built, closed, "{spec} {kind:?} {s}->{d}");
                    }
                }
            }
        }
    }

    #[test]
    fn routes_a_huge_mesh_without_building_it() {
        let hops = grid_route(&[4096, 4096], false, 0, 5, RoutingKind::Dor)
            .unwrap()
            .unwrap();
        assert_eq!(hops.len(), 5);
        let e = grid_route(&[4, 4], false, 0, 16, RoutingKind::Dor).unwrap_err();
        assert!(e.to_string().contains("16 endpoints, 0 to 15"), "{e}");
    }
}
