//! The analytic engine: counts, routed hops, rounds and model times of any schedule on a
//! routed topology, without simulating packets. Semantics: docs/analytic.md.
//!
//! - *Counts*: unicast messages (a multi-send to k counts k), NI messages, packets, bytes.
//! - *Aggregate hops*: the sum over unicast messages of the routed path length (switch-to-
//!   switch links) between the endpoints of the placed ranks.
//! - *Rounds*: the round of a message is the `step` of its (first) send op; where a send has
//!   no step, rounds are derived from the dependencies (a send is in the round after the last
//!   message it waits for). `steps` is the number of rounds.
//! - *Hockney rounds* (InterCom's rule, seed 001 s2): per round, `alpha + max over messages of
//!   (conflict x bytes x beta) + gamma x (largest combine bytes of a rank in the round)`; a
//!   rank sending k unicasts in one round (a multi-send to k included) pays them in turn,
//!   `k alpha + sum of (conflict x bytes x beta)`,
//!   where a message's conflict factor is the largest number of the round's messages that
//!   share a directed link of its route.
//! - *List-scheduled times* under four models (Hockney with the same conflict factors,
//!   postal, the seed-002 multi-send model, LogGP): every rank has a send port, a receive port
//!   and a processor, each running its ops of that class in issue order; an op starts when
//!   its dependencies are done and its port is free; a receive is done when its packets have
//!   arrived plus the model's receive overhead, and a receive port takes one message at a time
//!   (a receive ends no earlier than the previous one plus its own transfer time). If issue order contradicts the dependencies,
//!   ports serve ops in dependency order instead (reported as `issue_order: false`).

pub use super::analysis::{check_machine, Analysis, ClassCosts, ClassHops, Machine, Times};
use super::analysis::{combine_bytes, msg_bytes};
use super::analytic_classes::RouteCosts;
use super::list_schedule::{dest_positions, list_time, ListInputs, Model};
#[cfg(test)]
use super::list_schedule::{multisend_packets, PACKET_LOOP_MAX};
use super::op_graph::{Graph, Paths};
use crate::error::Result;
use crate::routing::Routing;
use crate::schedule::{Counts, OpKind, Schedule};
use crate::topology::Topology;

/// Analyses `s` on `topo` routed by `routing` with machine `m`.
pub fn analyze(s: &Schedule, topo: &Topology, routing: &Routing, m: &Machine) -> Result<Analysis> {
    check_machine(m)?;
    let counts = Counts::of(s);
    let paths = Paths::new(s, topo, routing)?;
    let graph = Graph::new(s);
    let (order, issue_order) = match graph.order(s, true) {
        Some(o) => (o, true),
        None => (
            graph
                .order(s, false)
                .expect("the verifier proved it acyclic"),
            false,
        ),
    };
    let rounds = Rounds::new(s, &graph, &order);
    let conflict = paths.conflicts(&rounds.msg_round, topo.num_links());
    let costs = RouteCosts::new(&paths, topo, m)?;
    let lt = ListInputs {
        graph: &graph,
        order: &order,
        paths: &paths,
        conflict: &conflict,
        costs: &costs,
        dest_at: dest_positions(s),
    };
    let times = Times {
        hockney_rounds: hockney_rounds(s, &lt, &rounds, m),
        hockney: list_time(s, &lt, Model::Hockney, m),
        postal: list_time(s, &lt, Model::Postal, m),
        multisend_us: list_time(s, &lt, Model::Multisend, m),
        loggp: list_time(s, &lt, Model::LogGP, m),
    };
    let mut hops_by_class = ClassHops::default();
    for p in 0..paths.hops.len() {
        hops_by_class.route(topo, paths.channels(p));
    }
    Ok(Analysis {
        ranks: s.p(),
        messages: counts.messages,
        ni_messages: counts.ni_messages,
        packets: counts.packets,
        bytes: counts.bytes,
        aggregate_hops: paths.hops.iter().map(|&h| h as u64).sum(),
        max_hops: paths.hops.iter().copied().max().unwrap_or(0),
        steps: rounds.steps,
        steps_from_schedule: rounds.from_schedule,
        max_conflict: conflict.iter().copied().max().unwrap_or(0),
        hops_by_class,
        issue_order,
        times,
    })
}

/// Ops above which [`analyze_sized`] leaves out the list-scheduled times. Their dependency
/// graph, port orders and per-op times cost about a minute and twice the schedule's memory
/// at 33 M ops (an all-to-all broadcast on 4,096 ranks), and at 2 M ops (the same on 1,024
/// ranks) 1.5-1.9 s, more than building and verifying the schedule (the per-step figures:
/// 0.2 s).
pub const LIST_SCHEDULED_OPS: usize = 1 << 20;

/// How [`analyze_sized`] analysed a schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// Every figure, the four list-scheduled times included ([`analyze`]).
    Full,
    /// Round by round from the ops' steps, list-scheduled times NaN
    /// (`engines::schedule_rounds`).
    Steps,
}

impl Depth {
    /// The `method` an analysis reports: `schedule`, or `schedule-per-step`.
    pub fn method(self) -> &'static str {
        match self {
            Depth::Full => "schedule",
            Depth::Steps => "schedule-per-step",
        }
    }
}

/// [`analyze`] up to [`LIST_SCHEDULED_OPS`] ops; above, the figures of
/// [`super::schedule_rounds::analyze_steps`] when every send and compute op has a step (else
/// [`analyze`] still).
pub fn analyze_sized(
    s: &Schedule,
    topo: &Topology,
    routing: &Routing,
    m: &Machine,
) -> Result<(Analysis, Depth)> {
    if s.num_ops() > LIST_SCHEDULED_OPS {
        if let Some(a) = super::schedule_rounds::analyze_steps(s, topo, routing, m)? {
            return Ok((a, Depth::Steps));
        }
    }
    Ok((analyze(s, topo, routing, m)?, Depth::Full))
}

/// Rounds of messages and compute ops.
struct Rounds {
    msg_round: Vec<u32>,
    /// Round of every compute op (global index; unused for others).
    op_round: Vec<u32>,
    steps: u32,
    from_schedule: bool,
}

impl Rounds {
    fn new(s: &Schedule, graph: &Graph, order: &[u32]) -> Rounds {
        let from_schedule = s
            .ops
            .iter()
            .all(|op| !matches!(op.kind, OpKind::Send { .. }) || op.step.is_some());
        // after[g]: rounds that must be complete before op g.
        let mut after = vec![0u32; s.num_ops()];
        let mut op_round = vec![0u32; s.num_ops()];
        let mut msg_round = vec![u32::MAX; s.messages().len()];
        for &g in order {
            let g = g as usize;
            let op = &s.ops[g];
            let mut a = 0;
            for &u in graph.preds(g) {
                let u = u as usize;
                let extra = u32::from(matches!(s.ops[u].kind, OpKind::Send { .. }));
                let x = match s.ops[u].kind {
                    OpKind::Send { .. } => op_round[u],
                    _ => after[u],
                };
                a = a.max(x + extra);
            }
            after[g] = a;
            op_round[g] = match (op.kind.clone(), from_schedule) {
                (OpKind::Send { .. }, true) => op.step.unwrap_or(0),
                (OpKind::Send { .. }, false) => a,
                (_, true) => op.step.unwrap_or(a.saturating_sub(1)),
                _ => a.saturating_sub(1),
            };
            if let OpKind::Send { msg, .. } = op.kind {
                let r = &mut msg_round[msg as usize];
                *r = (*r).min(op_round[g]);
            }
        }
        // Rounds are renumbered densely so that `steps` counts rounds with messages.
        let mut used: Vec<u32> = msg_round.clone();
        used.sort_unstable();
        used.dedup();
        let dense = |r: u32| used.partition_point(|&x| x < r) as u32;
        let msg_round: Vec<u32> = msg_round.iter().map(|&r| dense(r)).collect();
        for (g, op) in s.ops.iter().enumerate() {
            if let OpKind::Compute { .. } = op.kind {
                op_round[g] = dense(op_round[g]).min(used.len().saturating_sub(1) as u32);
            }
        }
        Rounds {
            msg_round,
            op_round,
            steps: used.len() as u32,
            from_schedule,
        }
    }
}

/// InterCom's round rule (see the module docs).
fn hockney_rounds(s: &Schedule, lt: &ListInputs, rounds: &Rounds, m: &Machine) -> f64 {
    let n = rounds.steps as usize;
    // A rank's unicasts of one round go out one after another (one port): a sender costs
    // k alpha + the sum of its k (conflict x bytes x beta); with one message per sender this
    // is InterCom's alpha + conflict x n x beta. Per link class, each unicast's alpha and
    // beta are its route's (`analytic_classes`).
    let mut sends: Vec<(u32, u32, f64)> = Vec::with_capacity(lt.paths.hops.len());
    for (msg, &r) in rounds.msg_round.iter().enumerate() {
        let bytes = msg_bytes(s, msg as u32);
        let src = s.message(msg as u32).src;
        for p in lt.paths.of(msg as u32) {
            sends.push((r, src, lt.costs.of(p).time(m, lt.conflict[p], bytes)));
        }
    }
    sends.sort_unstable_by_key(|x| (x.0, x.1));
    let mut bw = vec![0f64; n];
    for group in sends.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
        let t: f64 = group.iter().map(|x| x.2).sum();
        let r = group[0].0 as usize;
        bw[r] = bw[r].max(t);
    }
    // Largest combine work of one rank in each round.
    let mut work: Vec<(u32, u32, u64)> = Vec::new();
    for r in 0..s.p() {
        let base = s.rank_start[r as usize] as usize;
        for i in 0..s.ops(r).len() {
            let b = combine_bytes(s, base + i);
            if b > 0 && n > 0 {
                work.push((rounds.op_round[base + i], r, b));
            }
        }
    }
    work.sort_unstable();
    let mut comb = vec![0u64; n];
    for group in work.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
        let total: u64 = group.iter().map(|w| w.2).sum();
        let r = group[0].0 as usize;
        comb[r] = comb[r].max(total);
    }
    (0..n).map(|r| bw[r] + comb[r] as f64 * m.gamma).sum()
}

#[cfg(test)]
#[path = "analytic_tests.rs"]
mod tests;
