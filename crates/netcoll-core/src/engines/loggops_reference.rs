//! The LogGOPS engine as it was first written (test only): a line-for-line port of
//! LogGOPSim.cpp with its binary-heap re-insertion and linear list matching. The fast engine
//! (`loggops.rs`) must give the same finish times on every schedule; `loggops_tests` checks
//! that on random schedules with wildcards, dependencies, several CPUs and NICs and
//! rendezvous messages.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::loggops::LogGops;
use crate::error::{Error, Result};
use crate::schedule::formats::goal::{Goal, GoalKind, ANY};

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
        if *c == 0 {
            return; // already released: as the engine (loggops_graph.rs) does
        }
        *c -= 1;
        if *c == 0 {
            self.ready.push(d);
        }
    }
}

/// The finish times of `goal` under `p` by the reference engine.
pub(super) fn simulate(goal: &Goal, p: &LogGops) -> Result<Vec<u64>> {
    Sim::new(goal, *p).run()
}

struct Sim<'a> {
    goal: &'a Goal,
    p: LogGops,
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
    fn new(goal: &'a Goal, p: LogGops) -> Self {
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

    fn run(mut self) -> Result<Vec<u64>> {
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
        Ok(rank_times)
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

    fn latency(&self, _a: u32, _b: u32) -> u64 {
        self.p.l
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
