//! k-ary n-meshes and tori, any number of dimensions, any radix >= 2.
//!
//! Ports follow BookSim's convention: port `2i` goes to +1 in dimension `i`, port `2i+1` to -1,
//! and the endpoints sit on the last ports. A radix-2 torus has two parallel links per pair, as
//! in BookSim. With concentration `c` (`mesh:4x4,c=4`) every router takes `c` endpoints, on
//! ports `2n..2n+c`; endpoint `e` is on router `e / c` (BookSim's k-ary n-cube has one node
//! per router; its cmesh, cmesh.rs, numbers its nodes otherwise).

use super::{Family, PortRef, Topology, TopologyBuilder};
use crate::error::Result;
use crate::spec::TopologySpec;

pub fn build(dims: &[usize], c: usize, wrap: bool) -> Result<Topology> {
    let n: usize = dims.iter().product();
    let mut b = TopologyBuilder::new(std::iter::repeat_n(2 * dims.len() + c, n))?;
    add_grid_links(&mut b, dims, wrap)?;
    for x in 0..n {
        for i in 0..c {
            b.endpoint(port(x, 2 * dims.len() + i))?;
        }
    }
    let (spec, family) = if wrap {
        (
            TopologySpec::Torus(dims.to_vec(), c),
            Family::Torus {
                dims: dims.to_vec(),
            },
        )
    } else {
        (
            TopologySpec::Mesh(dims.to_vec(), c),
            Family::Mesh {
                dims: dims.to_vec(),
            },
        )
    };
    b.finish(spec.canonical(), family, dims.to_vec())
}

/// A builder for a grid of routers with `2 * dims + extra` network ports and one endpoint port.
pub(super) fn grid_builder(dims: &[usize], extra: usize) -> Result<TopologyBuilder> {
    let n: usize = dims.iter().product();
    TopologyBuilder::new(std::iter::repeat_n(2 * dims.len() + extra + 1, n))
}

/// Links every router to its +1 neighbour in every dimension (wrapping on a torus).
pub(super) fn add_grid_links(b: &mut TopologyBuilder, dims: &[usize], wrap: bool) -> Result<()> {
    let n: usize = dims.iter().product();
    let mut stride = 1;
    for (i, &k) in dims.iter().enumerate() {
        for x in 0..n {
            let c = (x / stride) % k;
            if c + 1 < k || wrap {
                let y = if c + 1 < k {
                    x + stride
                } else {
                    x - c * stride
                };
                b.link(port(x, 2 * i), port(y, 2 * i + 1))?;
            }
        }
        stride *= k;
    }
    Ok(())
}

/// Endpoint `i` on router `i`, port `port`.
pub(super) fn attach_endpoints(b: &mut TopologyBuilder, port_no: usize) -> Result<()> {
    for x in 0..b.num_switches() {
        b.endpoint(port(x, port_no))?;
    }
    Ok(())
}

pub(super) fn port(switch: usize, port: usize) -> PortRef {
    PortRef {
        switch: switch as u32,
        port: port as u32,
    }
}
