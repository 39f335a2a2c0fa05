//! The step engine's schedule replay as it was before per-link queues (commit 9f587e2,
//! `engines/step/sched.rs`, less its up-front work refusal): every step sorts all waiting
//! packet copies and tries each. Kept verbatim as the reference the queue-based engine must
//! equal exactly; quadratic in the packet count, so only for small cases.

use netcoll_core::engines::step::sched::Timing;
use netcoll_core::engines::step::PortModel;
use netcoll_core::routing::Routing;
use netcoll_core::schedule::{OpKind, Schedule};
use netcoll_core::topology::Topology;
use std::collections::HashMap;

/// What the old engine reported (the fields of `SchedResult`).
#[derive(Debug, PartialEq, Eq)]
pub struct Replay {
    pub steps: u32,
    pub rank_done: Vec<u32>,
    pub hops: u64,
    pub per_step: Vec<u64>,
    pub link_use: Vec<u32>,
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
) -> Result<Replay, String> {
    if s.placement()
        .iter()
        .any(|&e| e as usize >= topo.num_endpoints())
    {
        return Err("placement".into());
    }
    let mut r = Run::new(s, topo, routing, ports, timing);
    r.start();
    let mut res = Replay {
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
            return Err(format!("the schedule cannot progress at step {step}: {stuck} ops never complete (a dependency cycle or a receive whose send never happens)"));
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
    fn step(&mut self, step: u32, res: &mut Replay) -> u64 {
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
