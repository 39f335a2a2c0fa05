//! The tuner: rank every applicable algorithm and parameter choice for a collective by the
//! analytic engine's time, best first.

use crate::algorithms::{self, tuning, AlgoRequest};
use crate::engines::aggregate::analyze_rounds;
use crate::engines::analytic::{check_machine, Analysis, Machine};
use crate::error::Result;
use crate::routing::{Routing, RoutingKind};
use crate::topology::Topology;
use serde::Serialize;
use std::collections::BTreeMap;

/// `auto` is dimension order where the topology has it, else shortest paths.
pub fn routing_for(topo: &Topology, name: &str) -> Result<Routing> {
    if name.eq_ignore_ascii_case("auto") {
        return Routing::new(topo, RoutingKind::Dor, None)
            .or_else(|_| Routing::new(topo, RoutingKind::Shortest, None));
    }
    Routing::new(topo, RoutingKind::parse(name)?, None)
}

/// Figures of `algo` for `req` from its cost model: the per-step form where the ranking
/// time is the round rule (the per-step figures are the schedule's: counts, hops, steps,
/// conflicts, round-rule time) or the schedule would be large (`figures::is_small`); a
/// pipelined schedule extended from a few packets (`plan::pipeline`); else the built (and
/// so verified) schedule, as before.
pub fn evaluate(
    algo: &str,
    req: &AlgoRequest,
    routing: &Routing,
    m: &Machine,
    by: RankBy,
) -> Result<Analysis> {
    if let Some(plan) = algorithms::round_plan(algo, req)? {
        if by == RankBy::HockneyRounds || !super::figures::is_small(&plan) {
            return analyze_rounds(&plan, &req.placement, req.topo, routing, m);
        }
    }
    super::pipeline::evaluate(algo, req, routing, m)
}

/// Which time ranks the candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RankBy {
    /// InterCom's round rule with conflict factors.
    HockneyRounds,
    /// The Hockney list schedule with conflict factors.
    Hockney,
}

impl RankBy {
    pub fn parse(name: &str) -> Result<RankBy> {
        match name {
            "rounds" | "hockney-rounds" => Ok(RankBy::HockneyRounds),
            "list" | "hockney" => Ok(RankBy::Hockney),
            _ => crate::spec_err!("unknown tuning model '{name}': use rounds or list"),
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Candidate {
    pub algo: String,
    pub family: String,
    pub params: BTreeMap<String, String>,
    /// Seconds, by the ranking model.
    pub time: f64,
    pub analysis: Analysis,
}

/// A candidate that could not run here, and why.
#[derive(Clone, Debug, Serialize)]
pub struct Skipped {
    pub algo: String,
    pub params: BTreeMap<String, String>,
    pub reason: String,
}

/// Every algorithm of `req.kind` with every candidate parameter set (`req.params` is
/// ignored), analysed and sorted by time (ties by name). Those whose preconditions fail are
/// returned apart.
pub fn tune(
    req: &AlgoRequest,
    routing: &Routing,
    m: &Machine,
    by: RankBy,
) -> Result<(Vec<Candidate>, Vec<Skipped>)> {
    req.validate()?;
    check_machine(m)?;
    check_size(req)?;
    let (mut ok, mut skipped) = (Vec::new(), Vec::new());
    for algo in algorithms::for_kind(req.kind) {
        for params in tuning::candidates(algo, req) {
            let map: BTreeMap<String, String> =
                params.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
            let r = AlgoRequest {
                params,
                placement: req.placement.clone(),
                targets: req.targets.clone(),
                sources: req.sources.clone(),
                ..*req
            };
            match evaluate(algo.name, &r, routing, m, by) {
                Ok(a) => ok.push(Candidate {
                    algo: algo.name.to_string(),
                    family: algo.family.to_string(),
                    params: map,
                    time: match by {
                        RankBy::HockneyRounds => a.times.hockney_rounds,
                        RankBy::Hockney => a.times.hockney,
                    },
                    analysis: a,
                }),
                Err(e) => skipped.push(Skipped {
                    algo: algo.name.to_string(),
                    params: map,
                    reason: e.to_string(),
                }),
            }
        }
    }
    ok.sort_by(|a, b| a.time.total_cmp(&b.time).then_with(|| a.algo.cmp(&b.algo)));
    Ok((ok, skipped))
}

/// Hops one candidate routes at the least (its ranks at the network's mean distance) above
/// which the tuner refuses up front: every candidate routes at least that many, and at 7e8
/// (mesh:1024x1024) the first alone took over a minute and 4 GB.
const TUNE_HOPS_LIMIT: f64 = 2e8;

/// Refuses a network too large to tune, from the closed-form mean distance of a mesh, torus
/// or hypercube (other families would need an all-pairs search to estimate; they pass).
fn check_size(req: &AlgoRequest) -> Result<()> {
    use crate::topology::Family;
    let closed = matches!(
        req.topo.family(),
        Family::Mesh { .. } | Family::Torus { .. } | Family::Hypercube { .. }
    );
    if !closed {
        return Ok(());
    }
    let mean = crate::topology::metrics::metrics(req.topo)?.average_distance;
    let hops = req.p as f64 * mean;
    if hops > TUNE_HOPS_LIMIT {
        return Err(crate::Error::TooLarge(format!(
            "tuning on {} routes about {hops:.1e} hops per candidate ({} ranks x {mean:.0} \
             mean distance), above the tuner's limit of {TUNE_HOPS_LIMIT:.0e}: tune on a \
             smaller network or analyse one algorithm",
            req.topo.name(),
            req.p
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::CollectiveKind;

    #[test]
    fn tuner_ranks_every_allreduce_best_first() {
        let t = Topology::from_spec("mesh:4x4").unwrap();
        let mut req = AlgoRequest::new(&t, CollectiveKind::Allreduce);
        let r = routing_for(&t, "auto").unwrap();
        let m = Machine {
            alpha: 1e-5,
            beta: 1e-9,
            gamma: 0.0,
            ..Machine::default()
        };
        req.bytes = 8;
        let (c, skipped) = tune(&req, &r, &m, RankBy::HockneyRounds).unwrap();
        assert!(skipped.is_empty());
        assert!(c.windows(2).all(|w| w[0].time <= w[1].time));
        // Among the classic algorithms (other families may join the ranking):
        let classic = |c: &[Candidate]| -> Vec<String> {
            c.iter()
                .filter(|c| c.family == "classic")
                .map(|c| c.algo.clone())
                .collect()
        };
        let names = classic(&c);
        assert_eq!(names.len(), 3);
        // Short vectors: latency rules, recursive doubling (4 rounds) beats ring (30 rounds).
        assert_eq!(names[0], "recursive-doubling");
        assert_eq!(names[2], "ring");
        req.bytes = 1 << 24;
        let m = Machine { alpha: 1e-9, ..m };
        let (c, _) = tune(&req, &r, &m, RankBy::HockneyRounds).unwrap();
        assert_eq!(classic(&c).last().unwrap(), "recursive-doubling");
    }

    #[test]
    fn a_network_too_large_to_tune_is_refused_up_front_with_the_estimate() {
        let topo = Topology::from_spec("mesh:1024x1024").unwrap();
        let req = AlgoRequest::new(&topo, CollectiveKind::Broadcast);
        let routing = routing_for(&topo, "auto").unwrap();
        let m = Machine {
            alpha: 1e-5,
            beta: 1e-9,
            ..Machine::default()
        };
        let e = tune(&req, &routing, &m, RankBy::HockneyRounds)
            .unwrap_err()
            .to_string();
        assert!(e.contains("above the tuner's limit"), "{e}");
        assert!(e.contains("1048576 ranks"), "{e}");
    }
}
