//! The schedule front end of the step engine: any [`Schedule`], timed in steps.
//!
//! Semantics (chosen here; the IR leaves timing to engines):
//! - Every packet of every message travels from its source rank's switch to each destination
//!   rank's switch along the route of a [`Routing`] (one copy per destination; a multi-send is
//!   as many unicasts). One hop takes one step; a directed link carries one packet per step;
//!   a packet that reaches a switch in step `t` may leave it in step `t + 1`. Ranks on the same
//!   switch exchange a packet in one step without using a link.
//! - Compute ops take no time: they complete when their dependencies do.
//! - A send op issues in the first step after its dependencies complete (with
//!   `timing = steps`, also not before step `op.step + 1`, the op's own round). Its packets
//!   are injected as links allow, lowest packet first, destinations in order; it completes in
//!   the step its last packet leaves. Under one-port a rank injects at most one packet per step
//!   (packets in transit through a switch are not limited by the port model).
//! - A receive completes when all its packets have arrived and its dependencies are complete.
//! - Parallel links between two switches form a trunk: a packet whose routed link is taken
//!   this step uses a free parallel one.
//! - When several packets want one link in the same step, the one that has waited longest
//!   goes first, then the one created first (by op order); the result is deterministic.
//!
//! Reported: `steps` (the step of the last completion = the step at which every rank holds
//! everything it receives), each rank's finishing step, transmissions per step and per
//! directed link.
//!
//! Cost: packets wait in per-trunk queues ([`super::queues`]), so a step touches only what
//! moves (and each queue whose head cannot): O(copies x hops x log) time for the whole replay,
//! memory O(1) per send op until its copies leave and O(1) per copy in flight. A replay of more
//! than 10^9 link crossings (about a minute) is refused up front, as is one whose copies, all
//! in flight at once, would not fit in memory.

use super::queues::{Queues, StepOut};
use super::{LinkLatency, PortModel};
use crate::error::Result;
use crate::routing::{Routing, RoutingKind};
use crate::schedule::{OpKind, Schedule};
use crate::topology::Topology;
use crate::{invalid, spec_err};
use serde::Serialize;

/// Whether the ops' own `step` fields bound their start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Timing {
    /// Dependencies only.
    Deps,
    /// Dependencies and each op's `step` (an op without one is bound by dependencies only).
    Steps,
}

impl Timing {
    pub fn parse(s: &str) -> Result<Timing> {
        match s {
            "deps" => Ok(Timing::Deps),
            "steps" => Ok(Timing::Steps),
            _ => spec_err!("timing={s} is not a timing: use deps or steps"),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct SchedResult {
    pub steps: u32,
    /// Step at which each rank completes its last op.
    pub rank_done: Vec<u32>,
    /// Packet hops (link transmissions).
    pub hops: u64,
    pub per_step: Vec<u64>,
    #[serde(skip)]
    pub link_use: Vec<u32>,
}

impl SchedResult {
    pub fn link_summary(&self) -> (u64, u32) {
        let used = self.link_use.iter().filter(|&&u| u > 0).count() as u64;
        (used, self.link_use.iter().copied().max().unwrap_or(0))
    }
}

struct Run<'a> {
    s: &'a Schedule,
    timing: Timing,
    done: Done,
    waiting: Vec<u32>,
    dep_time: Vec<u32>,
    dependents: Vec<Vec<usize>>,
    /// Receives: packets still to arrive and the last arrival step.
    missing: Vec<u32>,
    arrived_at: Vec<u32>,
    recvs: RecvIndex,
    /// Send ops: packet copies not yet injected.
    unsent: Vec<u64>,
    /// Packet copies created so far (the creation order of the next one).
    created: u64,
    net: Queues<'a>,
}

/// A receive op: its rank, op and packet range.
#[derive(Clone, Copy)]
struct Recv {
    rank: u32,
    g: usize,
    a: u32,
    b: u32,
}

/// The receive ops of each (message, rank), in op order: per message a run of [`Recv`]s
/// sorted by rank (no hashing per arrival).
struct RecvIndex {
    start: Vec<usize>,
    recvs: Vec<Recv>,
}

impl RecvIndex {
    fn new(messages: usize, mut list: Vec<(u32, Recv)>) -> Self {
        list.sort_unstable_by_key(|&(m, r)| (m, r.rank, r.g));
        let mut start = vec![0; messages + 1];
        for &(m, _) in &list {
            start[m as usize + 1] += 1;
        }
        for i in 0..messages {
            start[i + 1] += start[i];
        }
        RecvIndex {
            start,
            recvs: list.into_iter().map(|(_, r)| r).collect(),
        }
    }

    fn of(&self, msg: u32, rank: u32) -> &[Recv] {
        let run = &self.recvs[self.start[msg as usize]..self.start[msg as usize + 1]];
        let lo = run.partition_point(|r| r.rank < rank);
        let hi = lo + run[lo..].partition_point(|r| r.rank == rank);
        &run[lo..hi]
    }
}

/// Each op's completion step, and the completions not yet propagated to dependents.
struct Done {
    at: Vec<Option<u32>>,
    count: usize,
    newly: Vec<(usize, u32)>,
}

impl Done {
    fn complete(&mut self, g: usize, t: u32) {
        if self.at[g].is_none() {
            self.at[g] = Some(t);
            self.count += 1;
            self.newly.push((g, t));
        }
    }
}

/// Runs a schedule on `topo` in steps, every link taking one step.
pub fn run(
    s: &Schedule,
    topo: &Topology,
    routing: &Routing,
    ports: PortModel,
    timing: Timing,
) -> Result<SchedResult> {
    run_with_latency(s, topo, routing, ports, timing, LinkLatency::default())
}

/// Runs a schedule on `topo` in steps, each link taking its class's steps (`lat`).
pub fn run_with_latency(
    s: &Schedule,
    topo: &Topology,
    routing: &Routing,
    ports: PortModel,
    timing: Timing,
    lat: LinkLatency,
) -> Result<SchedResult> {
    if s.placement()
        .iter()
        .any(|&e| e as usize >= topo.num_endpoints())
    {
        return spec_err!(
            "the schedule places ranks on endpoints {} does not have",
            topo.name()
        );
    }
    check_size(s, topo, routing)?;
    let mut r = Run::new(s, topo, routing, ports, timing, lat);
    r.start();
    let mut res = SchedResult {
        steps: 0,
        rank_done: vec![0; s.p() as usize],
        hops: 0,
        per_step: Vec::new(),
        link_use: vec![0; 2 * topo.num_links()],
    };
    let total = s.num_ops();
    let mut out = StepOut::default();
    let mut step = 0u32;
    while r.done.count < total {
        step += 1;
        r.net.step(step, &mut res.link_use, &mut out);
        r.account(step, &out);
        r.settle();
        if r.net.is_idle() && r.done.count < total {
            let stuck = total - r.done.count;
            return invalid!("the schedule cannot progress at step {step}: {stuck} ops never complete (a dependency cycle or a receive whose send never happens)");
        }
        res.hops += out.moved;
        res.per_step.push(out.moved);
    }
    for (g, d) in r.done.at.iter().enumerate() {
        let t = d.unwrap_or(0);
        let rank = s.op_ref(g).rank as usize;
        res.rank_done[rank] = res.rank_done[rank].max(t);
        res.steps = res.steps.max(t);
    }
    res.per_step.truncate(res.steps as usize);
    Ok(res)
}

/// Link crossings of packet copies a replay may make (about 0.1 us each with the queues):
/// beyond it a run takes minutes.
const WORK_LIMIT: f64 = 1e9;
/// Bytes per packet copy in flight (its slot and its place in a lane).
const FLIGHT_BYTES: u64 = 64;
/// (send, destination) pairs whose routes are walked to estimate the mean hops.
const SAMPLE: u64 = 4096;

/// Refuses up front a replay that will not fit in memory (every packet copy in flight at
/// once, the worst case) or would take minutes (copies x their mean route length).
fn check_size(s: &Schedule, topo: &Topology, routing: &Routing) -> Result<()> {
    let (mut copies, mut pairs) = (0u64, 0u64);
    for_each_send(s, |_, (a, b), dests| {
        copies += (b - a) as u64 * dests.len() as u64;
        pairs += dests.len() as u64;
    });
    check_tables(s, topo, routing)?;
    let hops = mean_hops(s, topo, routing, pairs.div_ceil(SAMPLE).max(1));
    let work = copies as f64 * hops;
    if work > WORK_LIMIT {
        return Err(crate::error::Error::TooLarge(format!(
            "the step engine's replay of this schedule moves {copies} packet copies over about \
             {hops:.1} links each ({work:.1e} link crossings), more than the {WORK_LIMIT:.0e} it \
             allows (a minute or more): use fewer --packets, or the flit or loggops engine"
        )));
    }
    crate::guard::check_items(
        "the step engine's replay of this schedule (every packet copy in flight)",
        copies,
        FLIGHT_BYTES,
    )
}

/// BFS steps shortest routing may spend on its per-destination tables (about 2 ns each):
/// beyond it a run takes minutes.
const TABLE_WORK_LIMIT: f64 = 1e10;

/// Refuses up front what shortest routing's tables would cost: one BFS and one table of a
/// u32 per switch for every distinct destination switch (a binomial broadcast on
/// mesh:1024x1024 asks for a million tables of a million switches, 4 TB, and hung).
fn check_tables(s: &Schedule, topo: &Topology, routing: &Routing) -> Result<()> {
    if routing.kind() != RoutingKind::Shortest {
        return Ok(());
    }
    let n = topo.num_switches();
    let mut seen = vec![false; n];
    let mut tables = 0u64;
    for_each_send(s, |_, _, dests| {
        for &d in dests {
            let sw = topo.endpoint_switch(s.placement()[d as usize] as usize);
            tables += u64::from(!std::mem::replace(&mut seen[sw], true));
        }
    });
    let work = tables as f64 * (n + 2 * topo.num_links()) as f64;
    let bytes = tables.saturating_mul(n as u64 * 4);
    if work > TABLE_WORK_LIMIT {
        return Err(crate::error::Error::TooLarge(format!(
            "shortest routing builds one BFS table per destination switch: {tables} tables \
             over {n} switches ({work:.1e} BFS steps, {}), more than the \
             {TABLE_WORK_LIMIT:.0e} it allows: use --sim routing=dor (mesh, torus, \
             hypercube) or a smaller network",
            crate::guard::gigabytes(bytes)
        )));
    }
    crate::guard::check("shortest routing's per-destination tables", bytes)
}

/// Calls `f(source rank, packet range, destinations)` for every send op.
fn for_each_send(s: &Schedule, mut f: impl FnMut(u32, (u32, u32), &[u32])) {
    for g in 0..s.num_ops() {
        if let OpKind::Send { msg, packets } = s.op(s.op_ref(g)).kind {
            let m = s.message(msg);
            f(m.src, packets.resolve(m.packets), s.dests(m));
        }
    }
}

/// Route length per packet copy, averaged over every `stride`-th (send, destination) pair
/// weighted by its packets (deterministic).
fn mean_hops(s: &Schedule, topo: &Topology, routing: &Routing, stride: u64) -> f64 {
    let switch = |rank: u32| topo.endpoint_switch(s.placement()[rank as usize] as usize);
    let (mut k, mut weight, mut sum) = (0u64, 0f64, 0f64);
    for_each_send(s, |src, (a, b), dests| {
        for &d in dests {
            if k % stride == 0 {
                let hops = routing.walk(topo, switch(src), switch(d)).count();
                weight += (b - a) as f64;
                sum += (b - a) as f64 * hops as f64;
            }
            k += 1;
        }
    });
    if weight > 0.0 {
        sum / weight
    } else {
        0.0
    }
}

impl<'a> Run<'a> {
    fn new(
        s: &'a Schedule,
        topo: &'a Topology,
        routing: &'a Routing,
        ports: PortModel,
        timing: Timing,
        lat: LinkLatency,
    ) -> Self {
        let n = s.num_ops();
        let mut waiting = vec![0u32; n];
        let mut dependents = vec![Vec::new(); n];
        let mut missing = vec![0u32; n];
        let mut recvs = Vec::new();
        for g in 0..n {
            let at = s.op_ref(g);
            let op = s.op(at);
            for d in s.deps(op) {
                waiting[g] += 1;
                dependents[s.global(*d)].push(g);
            }
            if let OpKind::Recv { msg, packets } = op.kind {
                let (a, b) = packets.resolve(s.message(msg).packets);
                missing[g] = b - a;
                recvs.push((
                    msg,
                    Recv {
                        rank: at.rank,
                        g,
                        a,
                        b,
                    },
                ));
            }
        }
        Run {
            s,
            timing,
            done: Done {
                at: vec![None; n],
                count: 0,
                newly: Vec::new(),
            },
            waiting,
            dep_time: vec![0; n],
            dependents,
            missing,
            arrived_at: vec![0; n],
            recvs: RecvIndex::new(s.messages().len(), recvs),
            unsent: vec![0; n],
            created: 0,
            net: Queues::new(s, topo, routing, ports, lat),
        }
    }

    fn start(&mut self) {
        for g in 0..self.s.num_ops() {
            if self.waiting[g] == 0 {
                self.become_ready(g);
            }
        }
        self.settle();
    }

    /// All dependencies of `g` are complete (at `dep_time[g]`).
    fn become_ready(&mut self, g: usize) {
        let at = self.s.op_ref(g);
        let op = self.s.op(at);
        let t = self.dep_time[g];
        match op.kind {
            OpKind::Compute { .. } => self.done.complete(g, t),
            OpKind::Recv { .. } => {
                if self.missing[g] == 0 {
                    self.done.complete(g, t.max(self.arrived_at[g]));
                }
            }
            OpKind::Send { msg, packets } => {
                let m = self.s.message(msg);
                let (a, b) = packets.resolve(m.packets);
                let mut ready = t + 1;
                if let (Timing::Steps, Some(st)) = (self.timing, op.step) {
                    ready = ready.max(st + 1);
                }
                let copies = (b - a) as u64 * self.s.dests(m).len() as u64;
                if copies == 0 {
                    self.done.complete(g, t);
                    return;
                }
                self.net
                    .add_send(g as u32, msg, (a, b), self.created, ready);
                self.created += copies;
                self.unsent[g] = copies;
            }
        }
    }

    /// Propagates completions to dependents until nothing changes.
    fn settle(&mut self) {
        while let Some((g, t)) = self.done.newly.pop() {
            for i in 0..self.dependents[g].len() {
                let h = self.dependents[g][i];
                self.dep_time[h] = self.dep_time[h].max(t);
                self.waiting[h] -= 1;
                if self.waiting[h] == 0 {
                    self.become_ready(h);
                }
            }
        }
    }

    /// Books what step `step` moved: sends whose last copy left, then arrivals (both in the
    /// order the copies moved, which fixes the order of later creations).
    fn account(&mut self, step: u32, out: &StepOut) {
        for &g in &out.injected {
            let g = g as usize;
            self.unsent[g] -= 1;
            if self.unsent[g] == 0 {
                let t = self.dep_time[g].max(step);
                self.done.complete(g, t);
            }
        }
        for &(msg, packet, rank) in &out.arrived {
            self.arrive(msg, packet, rank, step);
        }
    }

    fn arrive(&mut self, msg: u32, packet: u32, rank: u32, step: u32) {
        for &Recv { g, a, b, .. } in self.recvs.of(msg, rank) {
            if packet < a || packet >= b {
                continue;
            }
            self.missing[g] -= 1;
            self.arrived_at[g] = self.arrived_at[g].max(step);
            if self.missing[g] == 0 && self.waiting[g] == 0 {
                let t = self.dep_time[g].max(step);
                self.done.complete(g, t);
            }
        }
    }
}
