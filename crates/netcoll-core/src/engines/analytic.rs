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

use super::list_schedule::{dest_positions, list_time, ListInputs, Model};
#[cfg(test)]
use super::list_schedule::{multisend_packets, PACKET_LOOP_MAX};
use crate::error::Result;
use crate::models::{LogGP, MultisendParams};
use crate::routing::Routing;
use crate::schedule::{ComputeOp, Counts, OpKind, Schedule};
use crate::topology::Topology;
use serde::Serialize;

/// Machine parameters of the four models. Times: seconds for Hockney and LogGP, units of one
/// packet send for the postal model, microseconds for the multi-send model (as its paper).
#[derive(Clone, Debug)]
pub struct Machine {
    /// Start-up per message, seconds.
    pub alpha: f64,
    /// Seconds per byte.
    pub beta: f64,
    /// Seconds per byte combined (reduce, XOR).
    pub gamma: f64,
    /// Postal latency lambda, in units of one packet send (>= 1).
    pub lambda: f64,
    pub multisend: MultisendParams,
    pub loggp: LogGP,
}

impl Default for Machine {
    /// Illustrative figures: 1 us start-up, 1 GB/s, 0.1 ns/B combine; postal lambda 2; the
    /// multi-send coefficients measured in seed 002; LogGP L = 1 us, o = g = 0.2 us, G = 1 ns/B.
    fn default() -> Self {
        Machine {
            alpha: 1e-6,
            beta: 1e-9,
            gamma: 1e-10,
            lambda: 2.0,
            multisend: MultisendParams::paper(),
            loggp: LogGP::new(1e-6, 2e-7, 2e-7, 1e-9, 1).expect("valid defaults"),
        }
    }
}

/// Model times of a schedule.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Times {
    /// InterCom's round rule, seconds.
    pub hockney_rounds: f64,
    /// Hockney list schedule with conflict factors, seconds.
    pub hockney: f64,
    /// Postal model, units of one packet send.
    pub postal: f64,
    /// Seed 002 multi-send timing model, microseconds.
    pub multisend_us: f64,
    /// LogGP, seconds.
    pub loggp: f64,
}

/// What the analytic engine reports.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Analysis {
    pub ranks: u32,
    pub messages: u64,
    pub ni_messages: u64,
    pub packets: u64,
    pub bytes: u64,
    pub aggregate_hops: u64,
    pub max_hops: u32,
    pub steps: u32,
    /// Whether rounds come from the schedule's steps (else from its dependencies).
    pub steps_from_schedule: bool,
    pub max_conflict: u32,
    /// Whether ports served ops in issue order (see the module docs).
    pub issue_order: bool,
    pub times: Times,
}

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
    let lt = ListInputs {
        graph: &graph,
        order: &order,
        paths: &paths,
        conflict: &conflict,
        dest_at: dest_positions(s),
    };
    let times = Times {
        hockney_rounds: hockney_rounds(s, &paths, &rounds, &conflict, m),
        hockney: list_time(s, &lt, Model::Hockney, m),
        postal: list_time(s, &lt, Model::Postal, m),
        multisend_us: list_time(s, &lt, Model::Multisend, m),
        loggp: list_time(s, &lt, Model::LogGP, m),
    };
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

/// Checks the machine parameters (finite, non-negative; lambda >= 1).
pub fn check_machine(m: &Machine) -> Result<()> {
    for (name, v) in [("alpha", m.alpha), ("beta", m.beta), ("gamma", m.gamma)] {
        if !(v.is_finite() && v >= 0.0) {
            return crate::spec_err!("{name} = {v} must be a finite number >= 0");
        }
    }
    if !(m.lambda.is_finite() && m.lambda >= 1.0) {
        return crate::spec_err!("lambda = {} must be a finite number >= 1", m.lambda);
    }
    Ok(())
}

/// Routed paths of every (message, destination) pair, flat: path `i` of message `msg` is
/// `first[msg] + i`, its channels `chan[cstart[path]..cstart[path+1]]`.
pub(super) struct Paths {
    first: Vec<u32>,
    pub(super) hops: Vec<u32>,
    cstart: Vec<u32>,
    chan: Vec<u32>,
}

impl Paths {
    fn new(s: &Schedule, topo: &Topology, routing: &Routing) -> Result<Paths> {
        let mut p = Paths {
            first: Vec::with_capacity(s.messages().len() + 1),
            hops: Vec::new(),
            cstart: vec![0],
            chan: Vec::new(),
        };
        let place = s.placement();
        for msg in s.messages() {
            p.first.push(p.hops.len() as u32);
            let src = place[msg.src as usize] as usize;
            for &d in s.dests(msg) {
                let route = routing.route_endpoints(topo, src, place[d as usize] as usize)?;
                p.hops.push(route.len() as u32);
                p.chan.extend(route.iter().map(|h| h.channel));
                p.cstart.push(p.chan.len() as u32);
            }
        }
        p.first.push(p.hops.len() as u32);
        Ok(p)
    }

    pub(super) fn of(&self, msg: u32) -> std::ops::Range<usize> {
        self.first[msg as usize] as usize..self.first[msg as usize + 1] as usize
    }

    fn channels(&self, path: usize) -> &[u32] {
        &self.chan[self.cstart[path] as usize..self.cstart[path + 1] as usize]
    }

    /// Conflict factor of every path: the largest number of paths of the same round sharing
    /// a directed channel of it (1 for a path alone or of no hops).
    fn conflicts(&self, msg_round: &[u32], links: usize) -> Vec<u32> {
        let mut by_round: Vec<(u32, u32)> = Vec::with_capacity(self.hops.len());
        for (msg, &r) in msg_round.iter().enumerate() {
            by_round.extend(self.of(msg as u32).map(|p| (r, p as u32)));
        }
        by_round.sort_unstable();
        let mut load = vec![0u32; 2 * links];
        let mut out = vec![1u32; self.hops.len()];
        for group in by_round.chunk_by(|a, b| a.0 == b.0) {
            for &(_, p) in group {
                self.channels(p as usize)
                    .iter()
                    .for_each(|&c| load[c as usize] += 1);
            }
            for &(_, p) in group {
                let c = self
                    .channels(p as usize)
                    .iter()
                    .map(|&c| load[c as usize])
                    .max();
                out[p as usize] = c.unwrap_or(1).max(1);
            }
            for &(_, p) in group {
                self.channels(p as usize)
                    .iter()
                    .for_each(|&c| load[c as usize] -= 1);
            }
        }
        out
    }
}

/// Predecessors of every op (global index): dependencies, the sends a receive waits for.
pub(super) struct Graph {
    start: Vec<u32>,
    preds: Vec<u32>,
    /// Send ops of every message (global indices), flat by message.
    sends_start: Vec<u32>,
    sends: Vec<u32>,
}

impl Graph {
    fn new(s: &Schedule) -> Graph {
        let nm = s.messages().len();
        let mut count = vec![0u32; nm + 1];
        for op in &s.ops {
            if let OpKind::Send { msg, .. } = op.kind {
                count[msg as usize + 1] += 1;
            }
        }
        for i in 0..nm {
            count[i + 1] += count[i];
        }
        let sends_start = count.clone();
        let mut fill = count;
        let mut sends = vec![0u32; sends_start[nm] as usize];
        for (g, op) in s.ops.iter().enumerate() {
            if let OpKind::Send { msg, .. } = op.kind {
                sends[fill[msg as usize] as usize] = g as u32;
                fill[msg as usize] += 1;
            }
        }
        let mut g = Graph {
            start: vec![0],
            preds: Vec::new(),
            sends_start,
            sends,
        };
        for op in &s.ops {
            g.preds
                .extend(s.deps(op).iter().map(|d| s.global(*d) as u32));
            if let OpKind::Recv { msg, packets } = op.kind {
                let (a, b) = packets.resolve(s.message(msg).packets);
                let range =
                    g.sends_start[msg as usize] as usize..g.sends_start[msg as usize + 1] as usize;
                for &x in &g.sends[range] {
                    if overlaps(s, x as usize, a, b) {
                        g.preds.push(x);
                    }
                }
            }
            g.start.push(g.preds.len() as u32);
        }
        g
    }

    fn preds(&self, g: usize) -> &[u32] {
        &self.preds[self.start[g] as usize..self.start[g + 1] as usize]
    }

    pub(super) fn sends_of(&self, msg: u32) -> &[u32] {
        &self.sends
            [self.sends_start[msg as usize] as usize..self.sends_start[msg as usize + 1] as usize]
    }

    /// A topological order of the ops; with `ports`, each rank's ops of one class (send,
    /// receive, compute) also follow their issue order. None if that is impossible.
    fn order(&self, s: &Schedule, ports: bool) -> Option<Vec<u32>> {
        let n = s.num_ops();
        let mut indeg = vec![0u32; n];
        let mut succ_start = vec![0u32; n + 1];
        let mut edges: Vec<(u32, u32)> = Vec::with_capacity(self.preds.len() + n);
        for v in 0..n {
            edges.extend(self.preds(v).iter().map(|&u| (u, v as u32)));
        }
        if ports {
            for r in 0..s.p() {
                let base = s.rank_start[r as usize];
                let mut last = [None::<u32>; 3];
                for (i, op) in s.ops(r).iter().enumerate() {
                    let g = base + i as u32;
                    let class = class_of(&op.kind);
                    if let Some(prev) = last[class] {
                        edges.push((prev, g));
                    }
                    last[class] = Some(g);
                }
            }
        }
        for &(u, v) in &edges {
            indeg[v as usize] += 1;
            succ_start[u as usize + 1] += 1;
        }
        for i in 0..n {
            succ_start[i + 1] += succ_start[i];
        }
        let mut succ = vec![0u32; edges.len()];
        let mut fill = succ_start.clone();
        for &(u, v) in &edges {
            succ[fill[u as usize] as usize] = v;
            fill[u as usize] += 1;
        }
        let mut order: Vec<u32> = (0..n as u32).filter(|&v| indeg[v as usize] == 0).collect();
        let mut head = 0;
        while head < order.len() {
            let u = order[head] as usize;
            head += 1;
            for &v in &succ[succ_start[u] as usize..succ_start[u + 1] as usize] {
                indeg[v as usize] -= 1;
                if indeg[v as usize] == 0 {
                    order.push(v);
                }
            }
        }
        (order.len() == n).then_some(order)
    }
}

fn class_of(kind: &OpKind) -> usize {
    match kind {
        OpKind::Send { .. } => 0,
        OpKind::Recv { .. } => 1,
        OpKind::Compute { .. } => 2,
    }
}

/// Whether send op `x` injects some of packets `a..b`.
pub(super) fn overlaps(s: &Schedule, x: usize, a: u32, b: u32) -> bool {
    match s.ops[x].kind {
        OpKind::Send { msg, packets } => {
            let (c, d) = packets.resolve(s.message(msg).packets);
            c < b && a < d
        }
        _ => false,
    }
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

/// Bytes a compute op combines: one block per input piece beyond the output (copies: 0).
pub(super) fn combine_bytes(s: &Schedule, g: usize) -> u64 {
    let op = &s.ops[g];
    match op.kind {
        OpKind::Compute {
            op: ComputeOp::Copy,
            ..
        } => 0,
        OpKind::Compute { .. } => {
            let extra = s.inputs(op).len().saturating_sub(s.value(op).len());
            extra as u64 * s.bytes_per_block()
        }
        _ => 0,
    }
}

pub(super) fn msg_bytes(s: &Schedule, msg: u32) -> u64 {
    s.payload(s.message(msg)).len() as u64 * s.bytes_per_block()
}

/// InterCom's round rule (see the module docs).
fn hockney_rounds(
    s: &Schedule,
    paths: &Paths,
    rounds: &Rounds,
    conflict: &[u32],
    m: &Machine,
) -> f64 {
    let n = rounds.steps as usize;
    // A rank's unicasts of one round go out one after another (one port): a sender costs
    // k alpha + the sum of its k (conflict x bytes x beta); with one message per sender this
    // is InterCom's alpha + conflict x n x beta.
    let mut sends: Vec<(u32, u32, f64)> = Vec::with_capacity(paths.hops.len());
    for (msg, &r) in rounds.msg_round.iter().enumerate() {
        let bytes = msg_bytes(s, msg as u32) as f64;
        let src = s.message(msg as u32).src;
        for p in paths.of(msg as u32) {
            sends.push((r, src, conflict[p] as f64 * bytes * m.beta));
        }
    }
    sends.sort_unstable_by_key(|x| (x.0, x.1));
    let mut bw = vec![0f64; n];
    for group in sends.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
        let t: f64 = group.iter().map(|x| m.alpha + x.2).sum();
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
