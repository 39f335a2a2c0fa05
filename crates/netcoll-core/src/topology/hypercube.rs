//! Binary n-cubes: router `x` links to `x ^ (1 << i)` on port `i`; the endpoint is on port `n`.

use super::mesh_torus::{attach_endpoints, port};
use super::{Family, Topology, TopologyBuilder};
use crate::error::Result;
use crate::spec::TopologySpec;

pub fn build(dim: usize) -> Result<Topology> {
    let n = 1usize << dim;
    let mut b = TopologyBuilder::new(std::iter::repeat_n(dim + 1, n))?;
    for i in 0..dim {
        for x in 0..n {
            let y = x ^ (1 << i);
            if x < y {
                b.link(port(x, i), port(y, i))?;
            }
        }
    }
    attach_endpoints(&mut b, dim)?;
    let name = TopologySpec::Hypercube(dim).canonical();
    b.finish(name, Family::Hypercube { dim }, vec![2; dim])
}
