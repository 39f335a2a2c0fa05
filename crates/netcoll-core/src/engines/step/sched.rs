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

use super::PortModel;
use crate::error::Result;
use crate::routing::Routing;
use crate::schedule::{OpKind, Schedule};
use crate::topology::Topology;
use crate::{invalid, spec_err};
use serde::Serialize;
use std::collections::HashMap;

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

/// A packet on its way from a send op to one destination.
struct Flight {
    send: usize,
    msg: u32,
    packet: u32,
    dest_rank: u32,
    at: u32,
    dest: u32,
    state: u8,
    /// First step in which it may move.
    ready: u32,
    injected: bool,
}

struct Run<'a> {
    s: &'a Schedule,
    topo: &'a Topology,
    routing: &'a Routing,
    ports: PortModel,
    timing: Timing,
    done: Vec<Option<u32>>,
    waiting: Vec<u32>,
    dep_time: Vec<u32>,
    dependents: Vec<Vec<usize>>,
    /// Receives: packets still to arrive and the last arrival step.
    missing: Vec<u32>,
    arrived_at: Vec<u32>,
    recv_index: HashMap<(u32, u32), Vec<usize>>,
    unsent: Vec<u32>,
    flights: Vec<Flight>,
    active: Vec<usize>,
    newly_done: Vec<(usize, u32)>,
}

/// Runs a schedule on `topo` in steps.
pub fn run(
    s: &Schedule,
    topo: &Topology,
    routing: &Routing,
    ports: PortModel,
    timing: Timing,
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
    check_work(s)?;
    let mut r = Run::new(s, topo, routing, ports, timing);
    r.start();
    let mut res = SchedResult {
        steps: 0,
        rank_done: vec![0; s.p() as usize],
        hops: 0,
        per_step: Vec::new(),
        link_use: vec![0; 2 * topo.num_links()],
    };
    let total = s.num_ops();
    let mut step = 0u32;
    while r.done.iter().filter(|d| d.is_some()).count() < total {
        step += 1;
        let moved = r.step(step, &mut res);
        r.settle();
        let complete = r.done.iter().all(Option::is_some);
        if r.active.is_empty() && !complete {
            let stuck = r.done.iter().filter(|d| d.is_none()).count();
            return invalid!("the schedule cannot progress at step {step}: {stuck} ops never complete (a dependency cycle or a receive whose send never happens)");
        }
        res.per_step.push(moved);
    }
    for (g, d) in r.done.iter().enumerate() {
        let t = d.unwrap_or(0);
        let rank = s.op_ref(g).rank as usize;
        res.rank_done[rank] = res.rank_done[rank].max(t);
        res.steps = res.steps.max(t);
    }
    res.per_step.truncate(res.steps as usize);
    Ok(res)
}

/// Work limit of a replay, in packet tries (about 25 ns each): beyond it a run takes minutes.
const WORK_LIMIT: u64 = 1_500_000_000;

/// Refuses up front a replay that would take minutes. Every step tries each waiting packet
/// again, so a send of n packet copies (packets x destinations) that leave one per step
/// costs about n^2 / 2 tries.
fn check_work(s: &Schedule) -> Result<()> {
    let mut work = 0u64;
    let mut largest = 0u64;
    for g in 0..s.num_ops() {
        if let OpKind::Send { msg, packets } = s.op(s.op_ref(g)).kind {
            let m = s.message(msg);
            let (a, b) = packets.resolve(m.packets);
            let copies = (b - a) as u64 * s.dests(m).len() as u64;
            largest = largest.max(copies);
            work = work.saturating_add(copies.saturating_mul(copies) / 2);
        }
    }
    if work > WORK_LIMIT {
        return Err(crate::error::Error::TooLarge(format!(
            "the step engine's replay of this schedule takes about {:.1e} packet tries (a send \
             of {largest} packet copies waits one step per packet), more than the {:.0e} it \
             allows (a minute or more): use fewer --packets, or the flit or loggops engine",
            work as f64, WORK_LIMIT as f64
        )));
    }
    Ok(())
}

impl<'a> Run<'a> {
    fn new(
        s: &'a Schedule,
        topo: &'a Topology,
        routing: &'a Routing,
        ports: PortModel,
        timing: Timing,
    ) -> Self {
        let n = s.num_ops();
        let mut waiting = vec![0u32; n];
        let mut dependents = vec![Vec::new(); n];
        let mut missing = vec![0u32; n];
        let mut recv_index: HashMap<(u32, u32), Vec<usize>> = HashMap::new();
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
                recv_index.entry((msg, at.rank)).or_default().push(g);
            }
        }
        Run {
            s,
            topo,
            routing,
            ports,
            timing,
            done: vec![None; n],
            waiting,
            dep_time: vec![0; n],
            dependents,
            missing,
            arrived_at: vec![0; n],
            recv_index,
            unsent: vec![0; n],
            flights: Vec::new(),
            active: Vec::new(),
            newly_done: Vec::new(),
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
            OpKind::Compute { .. } => self.complete(g, t),
            OpKind::Recv { .. } => {
                if self.missing[g] == 0 {
                    self.complete(g, t.max(self.arrived_at[g]));
                }
            }
            OpKind::Send { msg, packets } => {
                let m = self.s.message(msg);
                let (a, b) = packets.resolve(m.packets);
                let mut ready = t + 1;
                if let (Timing::Steps, Some(st)) = (self.timing, op.step) {
                    ready = ready.max(st + 1);
                }
                let from = self.switch_of(m.src);
                for packet in a..b {
                    for &d in self.s.dests(m) {
                        self.active.push(self.flights.len());
                        self.flights.push(Flight {
                            send: g,
                            msg,
                            packet,
                            dest_rank: d,
                            at: from,
                            dest: self.switch_of(d),
                            state: 0,
                            ready,
                            injected: false,
                        });
                        self.unsent[g] += 1;
                    }
                }
                if self.unsent[g] == 0 {
                    self.complete(g, t);
                }
            }
        }
    }

    fn switch_of(&self, rank: u32) -> u32 {
        self.topo
            .endpoint_switch(self.s.placement()[rank as usize] as usize) as u32
    }

    fn complete(&mut self, g: usize, t: u32) {
        if self.done[g].is_none() {
            self.done[g] = Some(t);
            self.newly_done.push((g, t));
        }
    }

    /// Propagates completions to dependents until nothing changes.
    fn settle(&mut self) {
        while let Some((g, t)) = self.newly_done.pop() {
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

    /// Moves every packet that can move in `step`; returns the number of transmissions.
    fn step(&mut self, step: u32, res: &mut SchedResult) -> u64 {
        let mut order: Vec<usize> = self
            .active
            .iter()
            .copied()
            .filter(|&f| self.flights[f].ready <= step)
            .collect();
        order.sort_by_key(|&f| (self.flights[f].ready, f));
        let mut busy: HashMap<u32, ()> = HashMap::new();
        let mut injected: HashMap<u32, ()> = HashMap::new();
        let mut moved = 0u64;
        let mut finished = Vec::new();
        for f in order {
            let fl = &self.flights[f];
            let src_rank = self.s.message(fl.msg).src;
            if !fl.injected && self.ports == PortModel::OnePort && injected.contains_key(&src_rank)
            {
                continue;
            }
            let next = self
                .routing
                .next(self.topo, fl.at as usize, fl.dest as usize, fl.state);
            let (to, state) = match next {
                None => (fl.at, fl.state),
                Some(st) => {
                    let Some(ch) = self.free_channel(fl.at, st.via.switch, st.via.link, &busy)
                    else {
                        continue;
                    };
                    busy.insert(ch, ());
                    res.link_use[ch as usize] += 1;
                    res.hops += 1;
                    moved += 1;
                    (st.via.switch, st.state)
                }
            };
            let first = !fl.injected;
            let fl = &mut self.flights[f];
            fl.at = to;
            fl.state = state;
            fl.ready = step + 1;
            fl.injected = true;
            if first {
                injected.insert(src_rank, ());
                let g = fl.send;
                self.unsent[g] -= 1;
                if self.unsent[g] == 0 {
                    let t = self.dep_time[g].max(step);
                    self.complete(g, t.max(step));
                }
            }
            if to == self.flights[f].dest {
                finished.push(f);
            }
        }
        if !finished.is_empty() {
            let done: std::collections::HashSet<usize> = finished.iter().copied().collect();
            self.active.retain(|a| !done.contains(a));
        }
        for f in finished {
            let (msg, packet, rank) = (
                self.flights[f].msg,
                self.flights[f].packet,
                self.flights[f].dest_rank,
            );
            self.arrive(msg, packet, rank, step);
        }
        moved
    }

    /// The routed link's channel if free this step, else a free parallel link to the same
    /// switch (parallel links form one trunk), else none.
    fn free_channel(&self, at: u32, to: u32, link: u32, busy: &HashMap<u32, ()>) -> Option<u32> {
        let ch = self.topo.channel(link, at);
        if !busy.contains_key(&ch) {
            return Some(ch);
        }
        self.topo
            .neighbours(at as usize)
            .iter()
            .filter(|nb| nb.switch == to)
            .map(|nb| self.topo.channel(nb.link, at))
            .find(|c| !busy.contains_key(c))
    }

    fn arrive(&mut self, msg: u32, packet: u32, rank: u32, step: u32) {
        let Some(list) = self.recv_index.get(&(msg, rank)) else {
            return;
        };
        for &g in list.clone().iter() {
            let OpKind::Recv { packets, .. } = self.s.op(self.s.op_ref(g)).kind else {
                continue;
            };
            let (a, b) = packets.resolve(self.s.message(msg).packets);
            if packet < a || packet >= b {
                continue;
            }
            self.missing[g] -= 1;
            self.arrived_at[g] = self.arrived_at[g].max(step);
            if self.missing[g] == 0 && self.waiting[g] == 0 {
                let t = self.dep_time[g].max(step);
                self.complete(g, t);
            }
        }
    }
}
