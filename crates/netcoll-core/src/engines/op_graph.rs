//! The analytic engine's view of a schedule as a graph: the routed path of every (message,
//! destination) pair with its conflict factor, and every op's predecessors (dependencies and
//! the sends a receive waits for) with topological orders.

use crate::error::Result;
use crate::routing::Routing;
use crate::schedule::{OpKind, Schedule};
use crate::topology::Topology;

/// Routed paths of every (message, destination) pair, flat: path `i` of message `msg` is
/// `first[msg] + i`, its channels `chan[cstart[path]..cstart[path+1]]`.
pub(super) struct Paths {
    first: Vec<u32>,
    pub(super) hops: Vec<u32>,
    cstart: Vec<u32>,
    chan: Vec<u32>,
}

impl Paths {
    pub(super) fn new(s: &Schedule, topo: &Topology, routing: &Routing) -> Result<Paths> {
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
                p.reserve(route.len(), s.messages().len())?;
                p.chan.extend(route.iter().map(|h| h.channel));
                p.cstart.push(p.chan.len() as u32);
            }
        }
        p.first.push(p.hops.len() as u32);
        Ok(p)
    }

    /// Room for `extra` more channels, growing as a Vec would (doubling) but asking the
    /// memory guard first: the routes of a million messages of 1,000 hops are 4 GB.
    fn reserve(&mut self, extra: usize, messages: usize) -> Result<()> {
        let need = self.chan.len() + extra;
        if need <= self.chan.capacity() {
            return Ok(()); // the common case: no message text built
        }
        if need > u32::MAX as usize {
            return Err(crate::error::Error::TooLarge(format!(
                "the routes of the schedule's {messages} messages cross more than 2^32 \
                 channels; use a smaller network or fewer messages"
            )));
        }
        let what = format!("the routes of the schedule's {messages} messages");
        crate::guard::reserve(&mut self.chan, extra, &what)
    }

    pub(super) fn of(&self, msg: u32) -> std::ops::Range<usize> {
        self.first[msg as usize] as usize..self.first[msg as usize + 1] as usize
    }

    pub(super) fn channels(&self, path: usize) -> &[u32] {
        &self.chan[self.cstart[path] as usize..self.cstart[path + 1] as usize]
    }

    /// Conflict factor of every path: the largest number of paths of the same round sharing
    /// a directed channel of it (1 for a path alone or of no hops).
    pub(super) fn conflicts(&self, msg_round: &[u32], links: usize) -> Vec<u32> {
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
    pub(super) fn new(s: &Schedule) -> Graph {
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

    pub(super) fn preds(&self, g: usize) -> &[u32] {
        &self.preds[self.start[g] as usize..self.start[g + 1] as usize]
    }

    pub(super) fn sends_of(&self, msg: u32) -> &[u32] {
        &self.sends
            [self.sends_start[msg as usize] as usize..self.sends_start[msg as usize + 1] as usize]
    }

    /// A topological order of the ops; with `ports`, each rank's ops of one class (send,
    /// receive, compute) also follow their issue order. None if that is impossible.
    pub(super) fn order(&self, s: &Schedule, ports: bool) -> Option<Vec<u32>> {
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
