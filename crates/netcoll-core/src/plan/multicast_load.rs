//! The flit engine's multicast load with software overheads (seed 003 s6.5,
//! `multicast_scheme = ni-kbinomial | worm-path | worm-tree`): every multicast is the
//! schedule that the multicast algorithm of the scheme's name builds for its source and
//! destinations. This module supplies those schedules ([`AlgorithmPlanner`]) and is the
//! entry point for synthetic traffic that may use these schemes; the engine's load runner
//! (`engines::flit::mcload`) only runs them.

use crate::algorithms::{build, AlgoRequest};
use crate::engines::flit::mcload::{simulate_plan_load, MulticastPlanner, PlanLoad};
use crate::engines::flit::{self, FlitConfig, FlitResult, ScheduleParams};
use crate::error::Result;
use crate::schedule::{CollectiveKind, Schedule};
use crate::spec_err;
use crate::topology::Topology;

/// Builds each multicast's schedule with the named multicast algorithm.
pub struct AlgorithmPlanner<'t> {
    topo: &'t Topology,
    algo: &'static str,
}

impl<'t> AlgorithmPlanner<'t> {
    /// The planner of `cfg`'s `multicast_scheme`; an error when the scheme needs no plan.
    pub fn for_config(topo: &'t Topology, cfg: &FlitConfig) -> Result<Self> {
        match cfg.multicast_scheme.plan_algorithm() {
            Some(algo) => Ok(AlgorithmPlanner { topo, algo }),
            None => spec_err!(
                "the multicast load runner needs multicast_scheme = ni-kbinomial, worm-path or \
                 worm-tree"
            ),
        }
    }
}

impl MulticastPlanner for AlgorithmPlanner<'_> {
    fn plan(&mut self, src: u32, dests: &[u32], packets: u32, bytes: u64) -> Result<Schedule> {
        let mut req = AlgoRequest::new(self.topo, CollectiveKind::Multicast);
        req.root = src;
        req.targets = dests.to_vec();
        req.packets = packets;
        req.bytes = bytes;
        build(self.algo, &req)
    }
}

/// The load runner of `cfg` on `topo` with the algorithms' schedules (hand-worked cases and
/// tests drive it multicast by multicast).
pub fn plan_load<'t>(
    topo: &'t Topology,
    cfg: &FlitConfig,
    par: &ScheduleParams,
) -> Result<PlanLoad<'t>> {
    let planner = AlgorithmPlanner::for_config(topo, cfg)?;
    PlanLoad::new(topo, cfg, par, Box::new(planner))
}

/// Simulates synthetic traffic on `topo`: the engine's own run, or, for the schedule
/// schemes, the multicast load with each multicast planned by its algorithm.
pub fn simulate_on_with(
    topo: &Topology,
    cfg: &FlitConfig,
    par: &ScheduleParams,
) -> Result<FlitResult> {
    if cfg.multicast_scheme.plan_algorithm().is_none() {
        return flit::simulate_on_with(topo, cfg, par);
    }
    let planner = AlgorithmPlanner::for_config(topo, cfg)?;
    simulate_plan_load(topo, cfg, par, Box::new(planner))
}

/// [`simulate_on_with`] on the network the config describes.
pub fn simulate_traffic_with(cfg: &FlitConfig, par: &ScheduleParams) -> Result<FlitResult> {
    let topo = cfg.build_topology()?;
    simulate_on_with(&topo, cfg, par)
}

#[cfg(test)]
#[path = "multicast_load_tests.rs"]
mod tests;
