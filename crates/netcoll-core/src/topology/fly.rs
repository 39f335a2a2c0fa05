//! BookSim 2's k-ary n-fly (`fly`, its networks/fly.cpp), one stage: a single `k x k`
//! crossbar with node `i` on port `i` (BookSim's `singleconfig`, k = 10, n = 1). BookSim's
//! multistage fly (n > 1) injects at stage 0 and ejects at stage n-1; netcoll's endpoints
//! attach at one port each, so the spec refuses n > 1 (spec.rs).

use super::mesh_torus::port;
use super::{Family, Topology, TopologyBuilder};
use crate::error::Result;
use crate::spec::TopologySpec;

pub fn build(k: usize, n: usize) -> Result<Topology> {
    debug_assert_eq!(n, 1, "the spec parser refuses multistage flies");
    let mut b = TopologyBuilder::new([k])?;
    for i in 0..k {
        b.endpoint(port(0, i))?;
    }
    b.finish(
        TopologySpec::Fly { k, n }.canonical(),
        Family::Fly { k, n },
        Vec::new(),
    )
}
