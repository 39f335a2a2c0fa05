//! Where InterCom's phases go. The algorithms (`mod.rs`, `hybrid.rs`) write their stages
//! once, to a [`Stages`]: the schedule [`Engine`] turns them into ops (build, verify), the
//! [`PlanStages`] into the rounds of a per-step plan (`schedule::RoundPlan`) for the analytic
//! engine's per-step path, without a schedule.
//!
//! A bucket stage is p-1 rounds of p transfers (4e9 at 65,536 ranks): where every group's
//! shares are equal (always when the units divide evenly, as the p units of the long-vector
//! algorithms over any factorisation of p do), the plan writes its first round once and
//! repeats it; otherwise it lists the rounds as the engine runs them.

use super::engine::{Engine, Phase, Transfer};
use super::prims::{bucket_collect, bucket_combine, bucket_round};
use crate::schedule::{Round, Unicast};

/// A group of ranks (a line of the logical mesh) and the units `lo..hi` it works on.
pub type Group = (Vec<u32>, u32, u32);

pub trait Stages {
    /// Units of the collective (0..units).
    fn units(&self) -> u32;
    /// Runs the rounds of `phase`, one step each, after everything so far.
    fn run(&mut self, phase: Phase);
    /// Bucket collect (`combine` false) or bucket distributed combine on every group side
    /// by side: one phase.
    fn buckets(&mut self, groups: &[Group], combine: bool) {
        self.run(bucket_phase(groups, combine));
    }
}

/// The rounds of bucket stages on `groups`, transfer by transfer.
fn bucket_phase(groups: &[Group], combine: bool) -> Phase {
    let mut ph = Phase::default();
    for (g, lo, hi) in groups {
        if combine {
            bucket_combine(&mut ph, g, *lo, *hi);
        } else {
            bucket_collect(&mut ph, g, *lo, *hi);
        }
    }
    ph
}

impl Stages for Engine<'_> {
    fn units(&self) -> u32 {
        Engine::units(self)
    }
    fn run(&mut self, phase: Phase) {
        Engine::run(self, phase)
    }

    /// Round by round, as [`bucket_phase`] orders them, without holding the whole stage.
    fn buckets(&mut self, groups: &[Group], combine: bool) {
        let rounds = groups.iter().map(|g| g.0.len()).max().unwrap_or(0);
        for t in 0..rounds.saturating_sub(1) {
            let mut round = Vec::new();
            for (g, lo, hi) in groups.iter().filter(|g| t + 1 < g.0.len()) {
                bucket_round(&mut round, g, (*lo, *hi), t, combine);
            }
            Engine::run(
                self,
                Phase {
                    rounds: vec![round],
                },
            );
        }
    }
}

/// The rounds of an InterCom algorithm by senders, receivers and sizes.
pub struct PlanStages {
    units: u32,
    pub rounds: Vec<Round>,
}

impl PlanStages {
    pub fn new(units: u32) -> PlanStages {
        PlanStages {
            units,
            rounds: Vec::new(),
        }
    }
}

fn unicast(t: &Transfer) -> Unicast {
    Unicast {
        from: t.src,
        to: t.dst,
        blocks: t.hi - t.lo,
        combine: t.combine,
    }
}

impl Stages for PlanStages {
    fn units(&self) -> u32 {
        self.units
    }

    fn run(&mut self, phase: Phase) {
        for round in phase.rounds.iter().filter(|r| !r.is_empty()) {
            self.rounds.push(Round {
                repeat: 1,
                unicasts: round.iter().map(unicast).collect(),
            });
        }
    }

    fn buckets(&mut self, groups: &[Group], combine: bool) {
        let d = groups.first().map_or(0, |g| g.0.len());
        let even = groups
            .iter()
            .all(|(g, lo, hi)| g.len() == d && (hi - lo) % d as u32 == 0);
        if !even {
            return self.run(bucket_phase(groups, combine));
        }
        // Every round: position i passes one share (all of one size) to i+1.
        let mut unicasts = Vec::new();
        for (g, lo, hi) in groups.iter().filter(|(_, lo, hi)| hi > lo) {
            let blocks = (hi - lo) / d as u32;
            unicasts.extend((0..d).map(|i| Unicast {
                from: g[i],
                to: g[(i + 1) % d],
                blocks,
                combine,
            }));
        }
        if d > 1 && !unicasts.is_empty() {
            self.rounds.push(Round {
                repeat: d as u32 - 1,
                unicasts,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::{build, AlgoRequest, Params};
    use super::super::round_plan;
    use super::*;
    use crate::engines::aggregate::{analyze_rounds, assert_equal_figures};
    use crate::engines::analytic::{analyze, Machine};
    use crate::routing::{Routing, RoutingKind};
    use crate::schedule::CollectiveKind::*;
    use crate::topology::Topology;

    /// The per-step figures of every InterCom algorithm equal the built schedule's.
    #[test]
    fn per_step_figures_equal_the_schedule() {
        let m = Machine {
            gamma: 3e-9,
            ..Machine::default()
        };
        let hybrids: &[&[&str]] = &[
            &[],
            &["dims=3x4", "strategy=SMC"],
            &["dims=3x4", "strategy=SSCC"],
            &["dims=2x2x3", "strategy=SSMCC"],
            &["dims=mesh"],
        ];
        for spec in ["mesh:3x4", "torus:4x3"] {
            let t = Topology::from_spec(spec).unwrap();
            let routing = Routing::new(&t, RoutingKind::Dor, None).unwrap();
            let names = [
                "intercom-mst",
                "intercom-bucket",
                "intercom-short",
                "intercom-long",
            ];
            let cases = names
                .iter()
                .map(|&n| (n, &[][..]))
                .chain(hybrids.iter().map(|h| ("intercom-hybrid", *h)));
            for (name, params) in cases {
                for &kind in super::super::SEVEN.iter().chain(&[Multicast]) {
                    let mut req = AlgoRequest::new(&t, kind);
                    (req.bytes, req.root) = (1000, 5);
                    req.targets = vec![1, 2, 7, 11];
                    req.params = Params::parse(params).unwrap();
                    let Ok(s) = build(name, &req) else {
                        continue; // not this algorithm's collective
                    };
                    let want = analyze(&s, &t, &routing, &m).unwrap();
                    let plan = round_plan(name, &req).unwrap().unwrap();
                    let got = analyze_rounds(&plan, &req.placement, &t, &routing, &m).unwrap();
                    let at = format!("{name} {params:?} {kind:?} on {spec}");
                    assert_equal_figures(&got, &want, &at);
                }
            }
        }
    }

    /// Equal shares are written once and repeated; unequal ones round by round, as the
    /// engine runs them.
    #[test]
    fn buckets_repeat_equal_shares_and_list_unequal_ones() {
        let groups: Vec<Group> = vec![(vec![0, 1, 2], 0, 6), (vec![3, 4, 5], 6, 12)];
        let mut s = PlanStages::new(12);
        s.buckets(&groups, true);
        assert_eq!(s.rounds.len(), 1);
        assert_eq!((s.rounds[0].repeat, s.rounds[0].unicasts.len()), (2, 6));
        assert!(s.rounds[0]
            .unicasts
            .iter()
            .all(|u| u.blocks == 2 && u.combine));
        let uneven: Vec<Group> = vec![(vec![0, 1, 2], 0, 7)];
        let mut s = PlanStages::new(7);
        s.buckets(&uneven, false);
        let mut listed = PlanStages::new(7);
        listed.run(bucket_phase(&uneven, false));
        assert_eq!(s.rounds, listed.rounds);
        assert_eq!(s.rounds.len(), 2);
    }
}
