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

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::error::{Error, Result};
use crate::schedule::formats::goal::{Goal, GoalKind, ANY};

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
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Ev {
    Send,
    Recv,
    Calc,
    Msg,
}

/// One queue element (LogGOPSim's `graph_node_properties`).
#[derive(Clone, Copy)]
struct Event {
    time: u64,
    stamp: u64,
    size: u64,
    target: u32,
    host: u32,
    offset: u32,
    tag: u32,
    proc: u8,
    nic: u8,
    kind: Ev,
}

impl PartialEq for Event {
    fn eq(&self, o: &Self) -> bool {
        (self.time, self.stamp) == (o.time, o.stamp)
    }
}
impl Eq for Event {}
impl PartialOrd for Event {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Event {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        (self.time, self.stamp).cmp(&(o.time, o.stamp))
    }
}

/// A posted receive or an unexpected message waiting to be matched.
#[derive(Clone, Copy)]
struct Waiting {
    src: u32,
    tag: u32,
    offset: u32,
}

/// Dependency counters and dependant lists of one rank (LogGOPSim's serialized graph).
struct RankGraph {
    pending: Vec<u32>,
    done_dependants: Vec<Vec<u32>>,
    start_dependants: Vec<Vec<u32>>,
    ready: Vec<u32>,
}

impl RankGraph {
    fn new(goal: &Goal, r: usize) -> Self {
        let rank = &goal.ranks[r];
        let n = rank.ops.len();
        let mut g = RankGraph {
            pending: vec![0; n],
            done_dependants: vec![Vec::new(); n],
            start_dependants: vec![Vec::new(); n],
            ready: Vec::new(),
        };
        for d in &rank.deps {
            g.pending[d.op as usize] += 1;
            let list = if d.start {
                &mut g.start_dependants
            } else {
                &mut g.done_dependants
            };
            list[d.on as usize].push(d.op);
        }
        g.ready = (0..n as u32)
            .filter(|&i| g.pending[i as usize] == 0)
            .collect();
        g
    }

    fn started(&mut self, i: u32) {
        for k in 0..self.start_dependants[i as usize].len() {
            let d = self.start_dependants[i as usize][k];
            self.release(d);
        }
    }

    fn done(&mut self, i: u32) {
        for k in 0..self.done_dependants[i as usize].len() {
            let d = self.done_dependants[i as usize][k];
            self.release(d);
        }
    }

    fn release(&mut self, d: u32) {
        let c = &mut self.pending[d as usize];
        *c -= 1;
        if *c == 0 {
            self.ready.push(d);
        }
    }
}

/// Simulates `goal` under `p`; a schedule that cannot finish (an unmatched message, a
/// dependency cycle) is reported with the ranks and ops left waiting.
pub fn simulate(goal: &Goal, p: &LogGops) -> Result<LogGopsResult> {
    Sim::new(goal, *p, None).run()
}

/// The number of hops a message from rank `a` to rank `b` crosses.
pub type HopCount<'a> = &'a dyn Fn(u32, u32) -> u64;

/// [`simulate`] with L per hop: a message from `a` to `b` takes `L * hops(a, b)` on the wire
/// instead of `L` (LogGOPSim's model is topology-free; this is netcoll's extension, chosen in
/// `--sim hops=1`: docs/formats.md). Everything else is LogGOPSim's.
pub fn simulate_routed(goal: &Goal, p: &LogGops, hops: HopCount<'_>) -> Result<LogGopsResult> {
    Sim::new(goal, *p, Some(hops)).run()
}

struct Sim<'a> {
    goal: &'a Goal,
    p: LogGops,
    hops: Option<HopCount<'a>>,
    graphs: Vec<RankGraph>,
    queue: BinaryHeap<Reverse<Event>>,
    stamp: u64,
    events: u64,
    nexto: Vec<Vec<u64>>,
    nextgr: Vec<Vec<u64>>,
    nextgs: Vec<Vec<u64>>,
    posted: Vec<Vec<Waiting>>,
    unexpected: Vec<Vec<Waiting>>,
    touched: Vec<u32>,
}

/// `(size - 1) * x` in LogGOPSim's unsigned 64-bit arithmetic.
fn per_byte(size: u64, x: u64) -> u64 {
    size.wrapping_sub(1).wrapping_mul(x)
}

impl<'a> Sim<'a> {
    fn new(goal: &'a Goal, p: LogGops, hops: Option<HopCount<'a>>) -> Self {
        let n = goal.ranks.len();
        let max_of = |f: fn(&crate::schedule::formats::goal::GoalOp) -> u8| {
            goal.ranks
                .iter()
                .flat_map(|r| r.ops.iter().map(f))
                .max()
                .unwrap_or(0) as usize
                + 1
        };
        let (cpus, nics) = (max_of(|o| o.cpu), max_of(|o| o.nic));
        Sim {
            goal,
            p,
            hops,
            graphs: (0..n).map(|r| RankGraph::new(goal, r)).collect(),
            queue: BinaryHeap::new(),
            stamp: 0,
            events: goal.num_ops() as u64,
            nexto: vec![vec![0; cpus]; n],
            nextgr: vec![vec![0; nics]; n],
            nextgs: vec![vec![0; nics]; n],
            posted: vec![Vec::new(); n],
            unexpected: vec![Vec::new(); n],
            touched: Vec::new(),
        }
    }

    fn run(mut self) -> Result<LogGopsResult> {
        for host in 0..self.goal.ranks.len() as u32 {
            self.issue_ready(host, true);
        }
        while let Some(Reverse(ev)) = self.queue.pop() {
            match ev.kind {
                Ev::Calc => self.calc(ev),
                Ev::Send => self.send(ev),
                Ev::Recv => self.recv(ev),
                Ev::Msg => self.message(ev),
            }
            let mut hosts = std::mem::take(&mut self.touched);
            hosts.sort_unstable();
            hosts.dedup();
            for &h in &hosts {
                self.issue_ready(h, false);
            }
            hosts.clear();
            self.touched = hosts;
        }
        self.check_finished()?;
        let rank_times: Vec<u64> = self
            .nexto
            .iter()
            .map(|cpus| cpus.iter().copied().max().unwrap_or(0))
            .collect();
        Ok(LogGopsResult {
            time: rank_times.iter().copied().max().unwrap_or(0),
            rank_times,
            events: self.events,
        })
    }

    /// Queues the ops of `host` that became executable, sends first, then receives, then calcs.
    fn issue_ready(&mut self, host: u32, initial: bool) {
        let h = host as usize;
        let mut ready = std::mem::take(&mut self.graphs[h].ready);
        let ops = &self.goal.ranks[h].ops;
        super::loggops_sort::std_sort(&mut ready, &|a: &u32, b: &u32| {
            (ops[*a as usize].kind as u8) < (ops[*b as usize].kind as u8)
        });
        for &i in &ready {
            let op = &ops[i as usize];
            let (kind, time) = match op.kind {
                GoalKind::Send => (
                    Ev::Send,
                    self.nexto[h][op.cpu as usize].max(self.nextgs[h][op.nic as usize]),
                ),
                GoalKind::Recv => (Ev::Recv, self.nexto[h][op.cpu as usize]),
                GoalKind::Calc => (Ev::Calc, self.nexto[h][op.cpu as usize]),
            };
            let ev = Event {
                time: if initial { 0 } else { time },
                stamp: self.stamp,
                size: op.size,
                target: op.peer,
                host,
                offset: i,
                tag: op.tag,
                proc: op.cpu,
                nic: op.nic,
                kind,
            };
            self.stamp += 1;
            self.queue.push(Reverse(ev));
        }
        ready.clear();
        if self.graphs[h].ready.is_empty() {
            self.graphs[h].ready = ready;
        }
    }

    fn calc(&mut self, mut ev: Event) {
        let (h, c) = (ev.host as usize, ev.proc as usize);
        if self.nexto[h][c] <= ev.time {
            self.nexto[h][c] = ev.time.wrapping_add(ev.size);
            self.graphs[h].started(ev.offset);
            self.graphs[h].done(ev.offset);
            self.touched.push(ev.host);
        } else {
            ev.time = self.nexto[h][c];
            self.queue.push(Reverse(ev));
        }
    }

    fn send(&mut self, mut ev: Event) {
        let (h, c, n) = (ev.host as usize, ev.proc as usize, ev.nic as usize);
        let free = self.nexto[h][c].max(self.nextgs[h][n]);
        if free > ev.time {
            ev.time = free;
            self.queue.push(Reverse(ev));
            return;
        }
        let p = self.p;
        self.graphs[h].started(ev.offset);
        self.touched.push(ev.host);
        self.nexto[h][c] = ev
            .time
            .wrapping_add(p.o)
            .wrapping_add(per_byte(ev.size, p.big_o));
        self.nextgs[h][n] = ev
            .time
            .wrapping_add(p.g)
            .wrapping_add(per_byte(ev.size, p.big_g));
        let msg = Event {
            kind: Ev::Msg,
            host: ev.target,
            target: ev.host,
            time: ev
                .time
                .wrapping_add(p.o)
                .wrapping_add(self.latency(ev.host, ev.target)),
            stamp: self.stamp,
            ..ev
        };
        self.stamp += 1;
        self.events += 1;
        self.queue.push(Reverse(msg));
        if ev.size <= p.s {
            self.graphs[h].done(ev.offset);
        }
    }

    /// L, or L per hop of the route from `a` to `b`.
    fn latency(&self, a: u32, b: u32) -> u64 {
        match self.hops {
            Some(h) => self.p.l.wrapping_mul(h(a, b)),
            None => self.p.l,
        }
    }

    fn recv(&mut self, ev: Event) {
        let h = ev.host as usize;
        self.graphs[h].started(ev.offset);
        self.touched.push(ev.host);
        match take_match(&mut self.unexpected[h], ev.target, ev.tag) {
            Some(m) => {
                if ev.size > self.p.s {
                    self.rendezvous_done(m.src, m.offset, &ev);
                }
                self.graphs[h].done(ev.offset);
            }
            None => self.posted[h].push(Waiting {
                src: ev.target,
                tag: ev.tag,
                offset: ev.offset,
            }),
        }
    }

    /// The receive matched a rendezvous message: its send is done now, and the sender's CPU
    /// and NIC are busy at least until now (LogGOPSim's own shortcut, charged to the
    /// receiving op's CPU and NIC numbers).
    fn rendezvous_done(&mut self, sender: u32, send_offset: u32, ev: &Event) {
        let s = sender as usize;
        self.graphs[s].done(send_offset);
        self.touched.push(sender);
        let (c, n) = (ev.proc as usize, ev.nic as usize);
        if let Some(x) = self.nexto[s].get_mut(c) {
            *x = (*x).max(ev.time);
        }
        if let Some(x) = self.nextgs[s].get_mut(n) {
            *x = (*x).max(ev.time);
        }
    }

    fn message(&mut self, mut ev: Event) {
        let (h, c, n) = (ev.host as usize, ev.proc as usize, ev.nic as usize);
        let free = self.nexto[h][c].max(self.nextgr[h][n]);
        if free > ev.time {
            ev.time = free;
            self.queue.push(Reverse(ev));
            return;
        }
        let p = self.p;
        let busy = per_byte(ev.size, p.big_o).max(per_byte(ev.size, p.big_g));
        self.nexto[h][c] = ev.time.wrapping_add(p.o).wrapping_add(busy);
        self.nextgr[h][n] = ev
            .time
            .wrapping_add(p.g)
            .wrapping_add(per_byte(ev.size, p.big_g));
        match take_match(&mut self.posted[h], ev.target, ev.tag) {
            Some(m) => {
                if ev.size > p.s {
                    self.rendezvous_done(ev.target, ev.offset, &ev);
                }
                self.graphs[h].done(m.offset);
                self.touched.push(ev.host);
            }
            None => self.unexpected[h].push(Waiting {
                src: ev.target,
                tag: ev.tag,
                offset: ev.offset,
            }),
        }
    }

    /// Every op must have run and every queue be empty, else the schedule deadlocked.
    fn check_finished(&self) -> Result<()> {
        for (r, g) in self.graphs.iter().enumerate() {
            let rank = &self.goal.ranks[r];
            if let Some(i) = g.pending.iter().position(|&c| c > 0) {
                return Err(Error::Invalid(format!(
                    "deadlock: rank {r} {} ({}) never becomes executable: its dependencies never complete",
                    rank.name(i as u32),
                    rank.ops[i].kind.name()
                )));
            }
            if let Some(w) = self.posted[r].first() {
                return Err(Error::Invalid(format!(
                    "deadlock: rank {r} {} waits for a message from {} with tag {} that is never sent",
                    rank.name(w.offset),
                    peer_name(w.src),
                    peer_name(w.tag)
                )));
            }
            if let Some(w) = self.unexpected[r].first() {
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

/// Removes and returns the first entry matching (source, tag), wildcards on either side.
fn take_match(list: &mut Vec<Waiting>, src: u32, tag: u32) -> Option<Waiting> {
    let i = list.iter().position(|w| {
        (src == ANY || w.src == ANY || w.src == src) && (tag == ANY || w.tag == ANY || w.tag == tag)
    })?;
    Some(list.remove(i))
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
