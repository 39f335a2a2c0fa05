//! BookSim's flattened butterfly (`flatfly`: `k` routers per dimension, `n` dimensions,
//! concentration `c`), Kim et al. 2007: the HyperX `k^n` with `c` endpoints per router.

use super::hyperx::build_hamming;
use super::{Family, Topology};
use crate::error::Result;
use crate::params::HammingParams;
use crate::spec::TopologySpec;

pub fn build(p: &HammingParams) -> Result<Topology> {
    build_hamming(
        p,
        TopologySpec::Flatfly(p.clone()),
        Family::Flatfly(p.clone()),
    )
}
