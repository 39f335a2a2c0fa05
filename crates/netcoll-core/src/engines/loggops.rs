//! The LogGOPS engine: LogGOPSim's discrete-event model of a GOAL schedule, event for event.
//!
//! Hoefler, Schneider, Lumsdaine, "LogGOPSim - Simulating Large-Scale Applications in the
//! LogGOPS Model" (HPDC 2010), as implemented in LogGOPSim.cpp (spcl/LogGOPSim): every rank
//! has CPUs (`o`, `O` and `calc` are charged there: `nexto`) and NICs (the send gap `g`,
//! `G` per byte: `nextgs`, and the receive gap: `nextgr`). A send occupies the CPU for
//! `o + (s-1)O` and the NIC for `g + (s-1)G`; its message arrives `o + L` after the send
//! started; the receiver charges `o + max((s-1)O, (s-1)G)` and `g + (s-1)G`. Messages of at
//! most `S` bytes are eager (the send is done when issued); larger ones are rendezvous (the
//! send is done when the receive matches). Matching is MPI-like, in order, on (source, tag),
//! with wildcards. A rank's finish time is the latest time any of its CPUs is busy.
//!
//! The event order reproduces the original exactly: a priority queue on (time, insertion
//! stamp), newly executable ops ordered by type (send, recv, calc) with libstdc++'s unstable
//! `std::sort` as LogGOPSim does (`loggops_sort`), root ops in file order, dependants in statement order, and unsigned 64-bit wrap-around where the
//! original computes `(size - 1)` for empty messages. The default parameters are LogGOPSim's.

use super::loggops_graph::DepGraph;
use super::loggops_match::{Entry, Matcher};
use super::loggops_queue::{EventQueue, Head};
use crate::error::{Error, Result};
use crate::schedule::formats::goal::{Goal, GoalKind, GoalOp, ANY};

/// LogGOPS parameters, in LogGOPSim's units (any time unit; LogGOPSim's default is ns).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LogGops {
    pub l: u64,
    pub o: u64,
    pub g: u64,
    pub big_g: u64,
    pub big_o: u64,
    /// Messages larger than `s` bytes use the rendezvous protocol.
    pub s: u64,
}

impl Default for LogGops {
    fn default() -> Self {
        LogGops {
            l: 2500,
            o: 1500,
            g: 1000,
            big_g: 6,
            big_o: 0,
            s: 65535,
        }
    }
}

impl LogGops {
    /// Sets parameter `name` (`L`, `o`, `g`, `G`, `O`, `S`; case matters as in LogGOPSim).
    pub fn set(&mut self, name: &str, value: u64) -> Result<()> {
        let slot = match name {
            "L" => &mut self.l,
            "o" => &mut self.o,
            "g" => &mut self.g,
            "G" => &mut self.big_g,
            "O" => &mut self.big_o,
            "S" => &mut self.s,
            _ => {
                return Err(Error::Spec(format!(
                    "unknown LogGOPS parameter '{name}': use L, o, g, G, O or S"
                )))
            }
        };
        *slot = value;
        Ok(())
    }
}

/// Finish time of every rank.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LogGopsResult {
    /// The largest finish time.
    pub time: u64,
    pub rank_times: Vec<u64>,
    /// Events processed (LogGOPSim's "Events" counts ops plus messages).
    pub events: u64,
    /// Queue statistics per rank (LogGOPSim's `--qstat`), when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qstat: Option<QueueStats>,
}

/// LogGOPSim's `--qstat` figures per rank: the longest posted-receive (rq) and unexpected
/// (uq) queues seen before a match attempt, and how often a receive found its message
/// already waiting (uq hit) or had to wait (uq miss), and a message found its receive posted
/// (rq hit) or had to wait (rq miss). LogGOPSim also writes the search depth of every
/// match, which the hashed matcher does not have.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct QueueStats {
    pub rq_max: Vec<u32>,
    pub uq_max: Vec<u32>,
    pub rq_hits: Vec<u64>,
    pub rq_misses: Vec<u64>,
    pub uq_hits: Vec<u64>,
    pub uq_misses: Vec<u64>,
}

impl QueueStats {
    fn new(n: usize) -> Self {
        QueueStats {
            rq_max: vec![0; n],
            uq_max: vec![0; n],
            rq_hits: vec![0; n],
            rq_misses: vec![0; n],
            uq_hits: vec![0; n],
            uq_misses: vec![0; n],
        }
    }
}

/// Run options beyond the LogGOPS parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Collect [`QueueStats`].
    pub qstat: bool,
}

/// Bytes of engine state per event beyond the schedule itself (the queue's slot per event
/// and the dependency graph's counters per op), for the memory guard and docs/formats.md.
pub const BYTES_PER_EVENT: u64 = super::loggops_queue::BYTES_PER_EVENT + 12;

/// Simulates `goal` under `p`; a schedule that cannot finish (an unmatched message, a
/// dependency cycle) is reported with the ranks and ops left waiting.
pub fn simulate(goal: &Goal, p: &LogGops) -> Result<LogGopsResult> {
    Sim::new(goal, *p, None, Options::default())?.run()
}

/// [`simulate`] with [`Options`].
pub fn simulate_with(goal: &Goal, p: &LogGops, opt: Options) -> Result<LogGopsResult> {
    Sim::new(goal, *p, None, opt)?.run()
}

/// The number of hops a message from rank `a` to rank `b` crosses.
pub type HopCount<'a> = &'a dyn Fn(u32, u32) -> u64;

/// [`simulate`] with L per hop: a message from `a` to `b` takes `L * hops(a, b)` on the wire
/// instead of `L` (LogGOPSim's model is topology-free; this is netcoll's extension, chosen in
/// `--sim hops=1`: docs/formats.md). Everything else is LogGOPSim's.
pub fn simulate_routed(
    goal: &Goal,
    p: &LogGops,
    hops: HopCount<'_>,
    opt: Options,
) -> Result<LogGopsResult> {
    Sim::new(goal, *p, Some(hops), opt)?.run()
}

struct Sim<'a> {
    goal: &'a Goal,
    p: LogGops,
    hops: Option<HopCount<'a>>,
    graph: DepGraph,
    queue: EventQueue,
    events: u64,
    cpus: usize,
    nics: usize,
    /// Per rank and CPU (`r * cpus + c`): when the CPU is free.
    nexto: Vec<u64>,
    /// Per rank and NIC (`r * nics + n`): when the NIC can receive, and send.
    nextgr: Vec<u64>,
    nextgs: Vec<u64>,
    matcher: Matcher,
    stats: Option<QueueStats>,
    touched: Vec<u32>,
}

/// `(size - 1) * x` in LogGOPSim's unsigned 64-bit arithmetic.
fn per_byte(size: u64, x: u64) -> u64 {
    size.wrapping_sub(1).wrapping_mul(x)
}

impl<'a> Sim<'a> {
    fn new(goal: &'a Goal, p: LogGops, hops: Option<HopCount<'a>>, opt: Options) -> Result<Self> {
        let n = goal.ranks.len();
        let ops = goal.ranks.iter().flat_map(|r| r.ops.iter());
        let (cpus, nics) = ops.fold((1, 1), |(c, n), o| {
            (c.max(o.cpu as usize + 1), n.max(o.nic as usize + 1))
        });
        let wildcards = (goal.ranks.iter().flat_map(|r| r.ops.iter()))
            .any(|o| o.kind == GoalKind::Recv && (o.peer == ANY || o.tag == ANY));
        let num_ops = goal.num_ops() as u64;
        let events = num_ops + goal.num_sends() as u64;
        if events >= u32::MAX as u64 {
            return Err(Error::Spec(format!(
                "{events} events: the LogGOPS engine takes at most 2^32 - 1 ops and messages"
            )));
        }
        crate::guard::check_items("the LogGOPS engine's event queue", events, 4)?;
        Ok(Sim {
            goal,
            p,
            hops,
            graph: DepGraph::new(goal)?,
            queue: EventQueue::with_capacity(events as usize),
            events: num_ops,
            cpus,
            nics,
            nexto: vec![0; n * cpus],
            nextgr: vec![0; n * nics],
            nextgs: vec![0; n * nics],
            matcher: Matcher::new(n, wildcards),
            stats: opt.qstat.then(|| QueueStats::new(n)),
            touched: Vec::new(),
        })
    }

    fn run(mut self) -> Result<LogGopsResult> {
        for host in 0..self.goal.ranks.len() as u32 {
            self.issue_ready(host, true);
        }
        while let Some(ev) = self.queue.head() {
            let gate = self.gate(ev);
            if gate > ev.time {
                self.queue.wait(gate);
                continue;
            }
            self.queue.ran();
            if ev.msg {
                self.message(ev);
            } else {
                match self.op(ev).kind {
                    GoalKind::Calc => self.calc(ev),
                    GoalKind::Send => self.send(ev),
                    GoalKind::Recv => self.recv(ev),
                }
            }
            let mut hosts = std::mem::take(&mut self.touched);
            if hosts.len() > 1 {
                hosts.sort_unstable();
                hosts.dedup();
            }
            for &h in &hosts {
                self.issue_ready(h, false);
            }
            hosts.clear();
            self.touched = hosts;
        }
        self.check_finished()?;
        let rank_times: Vec<u64> = (self.nexto.chunks(self.cpus))
            .map(|cpus| cpus.iter().copied().max().unwrap_or(0))
            .collect();
        Ok(LogGopsResult {
            time: rank_times.iter().copied().max().unwrap_or(0),
            rank_times,
            events: self.events,
            qstat: self.stats,
        })
    }

    fn op(&self, ev: Head) -> &'a GoalOp {
        &self.goal.ranks[ev.host as usize].ops[ev.offset as usize]
    }

    /// When the CPU and NIC the event needs are free (LogGOPSim re-queues it until then):
    /// a send waits for its CPU and sending NIC, a message for the receiver's CPU and
    /// receiving NIC (numbered as in the send), a calc for its CPU; a receive never waits.
    fn gate(&self, ev: Head) -> u64 {
        let op = self.op(ev);
        if ev.msg {
            let h = op.peer;
            return self.nexto[self.cpu(h, op)].max(self.nextgr[self.nic(h, op)]);
        }
        match op.kind {
            GoalKind::Send => {
                self.nexto[self.cpu(ev.host, op)].max(self.nextgs[self.nic(ev.host, op)])
            }
            GoalKind::Calc => self.nexto[self.cpu(ev.host, op)],
            GoalKind::Recv => 0,
        }
    }

    fn cpu(&self, host: u32, op: &GoalOp) -> usize {
        host as usize * self.cpus + op.cpu as usize
    }

    fn nic(&self, host: u32, op: &GoalOp) -> usize {
        host as usize * self.nics + op.nic as usize
    }

    /// Queues the ops of `host` that became executable, sends first, then receives, then
    /// calcs, in LogGOPSim's order; ops of one kind, CPU and NIC in a row share a block.
    fn issue_ready(&mut self, host: u32, initial: bool) {
        let mut ready = self.graph.take_ready(host);
        let ops = &self.goal.ranks[host as usize].ops;
        super::loggops_sort::std_sort(&mut ready, &|a: &u32, b: &u32| {
            (ops[*a as usize].kind as u8) < (ops[*b as usize].kind as u8)
        });
        let class = |i: &u32| {
            let op = &ops[*i as usize];
            (op.kind as u8, op.cpu, op.nic)
        };
        for run in ready.chunk_by(|a, b| class(a) == class(b)) {
            let op = &ops[run[0] as usize];
            let free = self.nexto[self.cpu(host, op)];
            let time = match op.kind {
                GoalKind::Send => free.max(self.nextgs[self.nic(host, op)]),
                GoalKind::Recv | GoalKind::Calc => free,
            };
            self.queue
                .push(if initial { 0 } else { time }, host, false, run);
        }
        self.graph.give_back(host, ready);
    }

    fn calc(&mut self, ev: Head) {
        let op = self.op(ev);
        let c = self.cpu(ev.host, op);
        self.nexto[c] = ev.time.wrapping_add(op.size);
        self.graph.started(ev.host, ev.offset);
        self.graph.done(ev.host, ev.offset);
        self.touched.push(ev.host);
    }

    fn send(&mut self, ev: Head) {
        let op = self.op(ev);
        let (c, n) = (self.cpu(ev.host, op), self.nic(ev.host, op));
        let p = self.p;
        self.graph.started(ev.host, ev.offset);
        self.touched.push(ev.host);
        self.nexto[c] = (ev.time.wrapping_add(p.o)).wrapping_add(per_byte(op.size, p.big_o));
        self.nextgs[n] = (ev.time.wrapping_add(p.g)).wrapping_add(per_byte(op.size, p.big_g));
        let arrival = (ev.time.wrapping_add(p.o)).wrapping_add(self.latency(ev.host, op.peer));
        self.queue.push(arrival, ev.host, true, &[ev.offset]);
        self.events += 1;
        if op.size <= p.s {
            self.graph.done(ev.host, ev.offset);
        }
    }

    /// L, or L per hop of the route from `a` to `b`.
    fn latency(&self, a: u32, b: u32) -> u64 {
        match self.hops {
            Some(h) => self.p.l.wrapping_mul(h(a, b)),
            None => self.p.l,
        }
    }

    fn recv(&mut self, ev: Head) {
        let (h, op) = (ev.host, self.op(ev));
        self.graph.started(h, ev.offset);
        self.touched.push(h);
        let recv = Entry {
            src: op.peer,
            tag: op.tag,
            offset: ev.offset,
        };
        let uq = self.matcher.lengths(h).1;
        let found = self.matcher.post_recv(h, recv);
        if let Some(s) = &mut self.stats {
            let h = h as usize;
            s.uq_max[h] = s.uq_max[h].max(uq);
            *(if found.is_some() {
                &mut s.uq_hits[h]
            } else {
                &mut s.uq_misses[h]
            }) += 1;
        }
        if let Some(m) = found {
            if op.size > self.p.s {
                self.rendezvous_done(m.src, m.offset, ev.time, op);
            }
            self.graph.done(h, ev.offset);
        }
    }

    /// The receive matched a rendezvous message: its send is done now, and the sender's CPU
    /// and NIC are busy at least until now (LogGOPSim's own shortcut, charged to the CPU and
    /// NIC numbers of `op`, the event that matched).
    fn rendezvous_done(&mut self, sender: u32, send_offset: u32, time: u64, op: &GoalOp) {
        self.graph.done(sender, send_offset);
        self.touched.push(sender);
        let (c, n) = (self.cpu(sender, op), self.nic(sender, op));
        self.nexto[c] = self.nexto[c].max(time);
        self.nextgs[n] = self.nextgs[n].max(time);
    }

    /// The message of send `ev.offset` of rank `ev.host` arrives at the send's peer.
    fn message(&mut self, ev: Head) {
        let (src, send) = (ev.host, self.op(ev));
        let h = send.peer;
        let (c, n) = (self.cpu(h, send), self.nic(h, send));
        let p = self.p;
        let busy = per_byte(send.size, p.big_o).max(per_byte(send.size, p.big_g));
        self.nexto[c] = ev.time.wrapping_add(p.o).wrapping_add(busy);
        self.nextgr[n] = (ev.time.wrapping_add(p.g)).wrapping_add(per_byte(send.size, p.big_g));
        let msg = Entry {
            src,
            tag: send.tag,
            offset: ev.offset,
        };
        let rq = self.matcher.lengths(h).0;
        let found = self.matcher.arrive(h, msg);
        if let Some(s) = &mut self.stats {
            let h = h as usize;
            s.rq_max[h] = s.rq_max[h].max(rq);
            *(if found.is_some() {
                &mut s.rq_hits[h]
            } else {
                &mut s.rq_misses[h]
            }) += 1;
        }
        if let Some(m) = found {
            if send.size > p.s {
                self.rendezvous_done(src, ev.offset, ev.time, send);
            }
            self.graph.done(h, m.offset);
            self.touched.push(h);
        }
    }

    /// Every op must have run and every queue be empty, else the schedule deadlocked.
    fn check_finished(&self) -> Result<()> {
        for (r, rank) in self.goal.ranks.iter().enumerate() {
            if let Some(i) = self.graph.first_blocked(r as u32) {
                return Err(Error::Invalid(format!(
                    "deadlock: rank {r} {} ({}) never becomes executable: its dependencies never complete",
                    rank.name(i),
                    rank.ops[i as usize].kind.name()
                )));
            }
            let (posted, unexpected) = self.matcher.leftovers(r as u32);
            if let Some(w) = posted {
                return Err(Error::Invalid(format!(
                    "deadlock: rank {r} {} waits for a message from {} with tag {} that is never sent",
                    rank.name(w.offset),
                    peer_name(w.src),
                    peer_name(w.tag)
                )));
            }
            if let Some(w) = unexpected {
                let sender = &self.goal.ranks[w.src as usize];
                return Err(Error::Invalid(format!(
                    "rank {} {} sends to rank {r} with tag {}, which never receives it",
                    w.src,
                    sender.name(w.offset),
                    peer_name(w.tag)
                )));
            }
        }
        Ok(())
    }
}

fn peer_name(x: u32) -> String {
    if x == ANY {
        "any".into()
    } else {
        x.to_string()
    }
}

/// Hops between ranks on the endpoints `placement` of `topo` under `routing`, for
/// [`simulate_routed`]: the routed switch-to-switch links, at least 1 (ranks on one switch
/// still cross it, so a topology-free run is the network where every pair is one hop apart).
pub fn route_hops<'a>(
    topo: &'a crate::Topology,
    routing: &'a crate::routing::Routing,
    placement: &'a [u32],
) -> Result<impl Fn(u32, u32) -> u64 + 'a> {
    let n = topo.num_endpoints();
    if let Some(&e) = placement.iter().find(|&&e| e as usize >= n) {
        return Err(Error::Spec(format!(
            "a rank sits on endpoint {e}, but {} has {n} endpoints: give a larger --topo",
            topo.name()
        )));
    }
    Ok(move |a: u32, b: u32| {
        let (a, b) = (
            placement[a as usize] as usize,
            placement[b as usize] as usize,
        );
        let (sa, sb) = (topo.endpoint_switch(a), topo.endpoint_switch(b));
        (routing.walk(topo, sa, sb).count() as u64).max(1)
    })
}
