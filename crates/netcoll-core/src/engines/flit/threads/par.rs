//! Parallel simulation inside one run (`threads = N`). The routers are cut into `N`
//! contiguous ranges (partitions); each partition is a [`Network`] of its own that holds
//! the state of its routers (the rest of its arrays stay untouched) and its own timing
//! wheel. The first partition, the *master*, also owns the network interfaces, the packet
//! table and the statistics. A cycle has two phases:
//!
//! 1. *compute*, every partition in parallel: apply the events due now, (the master only)
//!    inject from the NIs, run the stages of its routers. An event for a router of another
//!    partition (a flit crossing the border, a credit going back over it), and every NI
//!    credit or ejection (the master's), goes into an outbox instead of the own wheel;
//! 2. *exchange*: every outbox is emptied into the wheel of its partition (by the receiving
//!    partition's thread at the start of its next cycle, crew.rs).
//!
//! Every delay is at least one cycle, so an event is always exchanged before it is due.
//! Routers read and write only their own ports, VCs and allocator pointers; the random
//! torus tie-breaks are per router (torus.rs); the order in which events of one cycle are
//! applied changes nothing (credits add, histograms add, arrivals land in distinct VCs).
//! Hence a run gives the same figures, bit for bit, for every thread count (pinned by the
//! `threads_*` tests). Runs whose routers need the packet table (virtual cut-through reads
//! packet sizes, worms, step VC classes) or that react to each arrival in order (multicast
//! traffic, schedules) run on one thread.

use super::channel::{Event, Hop};
use super::config::FlowControl;
use super::network::Network;
use super::partition::{Partition, Workers};

/// Routers from which `threads = 0` (automatic) uses every core: smaller networks spend
/// less per cycle than the two synchronisations of a parallel cycle cost.
pub const AUTO_MIN_ROUTERS: usize = 1024;

impl<'t> Network<'t> {
    /// Whether this run can be partitioned (see the module comment).
    pub fn can_partition(&self) -> bool {
        self.cfg.flow_control == FlowControl::Wormhole
            && self.rep.table.visits() == 0
            && self.step_classes <= 1
            && !self.log_arrivals
            && !self.cfg.wait_for_tail_credit
            && !self.xb.on
            && !self.grid.per_packet()
            && !self.sets.routes()
            && self.adaptive.is_none()
    }

    /// The threads a run of this network uses for `threads` (0: automatic).
    pub fn threads_for(&self, threads: usize) -> usize {
        let routers = self.topo.num_switches();
        let want = match threads {
            0 if routers >= AUTO_MIN_ROUTERS => {
                std::thread::available_parallelism().map_or(1, |n| n.get())
            }
            0 => 1,
            n => n,
        };
        if self.can_partition() {
            want.clamp(1, routers.max(1))
        } else {
            1
        }
    }

    /// Splits the routers over `threads` partitions (this network becomes the master).
    /// Call before the first cycle.
    pub fn partition(&mut self, threads: usize) -> crate::error::Result<()> {
        let routers = self.topo.num_switches();
        if threads <= 1 || routers < 2 {
            return Ok(());
        }
        let chunk = routers.div_ceil(threads);
        let parts = routers.div_ceil(chunk);
        let what = format!(
            "{parts} partitions of the flit network of {}",
            self.topo.name()
        );
        let bytes = super::footprint::flit_footprint(self.topo, &self.cfg);
        crate::guard::check(&what, bytes.saturating_mul(parts as u64))?;
        let mut nets = Vec::with_capacity(parts - 1);
        for id in 1..parts {
            let mut w = Network::new(self.topo, &self.cfg)?;
            // The master may have left the crossbar (`Xbar::hold_only`).
            w.xb.on = self.xb.on;
            w.part = Some(Partition::new(id, chunk, parts));
            nets.push(w);
        }
        self.part = Some(Partition::new(0, chunk, parts));
        self.workers = Some(Workers { nets });
        Ok(())
    }

    /// Threads this network runs on.
    pub fn threads(&self) -> usize {
        self.workers.as_ref().map_or(1, |w| w.nets.len() + 1)
    }

    /// The end of a cycle's sends: the events sent in it (`self.sent`) enter the wheel, or,
    /// in a partitioned run, are posted one by one (`post`). A cycle that sent anything (a
    /// traversal returns a credit; an NI injects a flit) moved a flit: the deadlock watch's
    /// `last_move`, set here once instead of at every traversal and injection.
    #[inline]
    pub(super) fn end_sends(&mut self) {
        // Every flit onto a link was a hop (counted here, not in every traversal).
        self.flit_hops += self.sent.flits.len() as u64;
        if !self.sent.is_empty() {
            self.last_move = self.now;
        }
        if self.part.is_some() {
            return self.post_sent();
        }
        self.wheel.enter(self.now, &self.hop, &mut self.sent);
    }

    /// [`Network::end_sends`] of a partitioned run: every event into the own wheel or the
    /// outbox of the partition that owns its destination, each kind in the order sent.
    #[cold]
    #[inline(never)]
    fn post_sent(&mut self) {
        let mut sent = std::mem::take(&mut self.sent);
        let (now, hop) = (self.now, self.hop);
        let split = VcSplit::new(self.nv);
        for &h in &sent.flits {
            let at = now + hop.flit_link + self.wheel.flit_extra(h.ivc);
            self.post_hop(at, h, &split);
        }
        for a in &sent.injected {
            let (port, vc, flit) = (a.port, a.vc as u8, a.flit);
            self.post(now + hop.inject, Event::Flit { port, vc, flit });
        }
        let ni_base = self.wheel.ni_base();
        for &c in &sent.credits {
            if c < ni_base {
                let (port, vc) = split.of(c);
                let at = now + hop.credit_link + self.wheel.credit_extra(c);
                self.post(at, Event::Credit { port, vc });
            } else {
                let (ep, vc) = split.of(c - ni_base);
                self.post(now + hop.credit_ni, Event::NiCredit { ep, vc });
            }
        }
        for &(ep, flit) in &sent.ejects {
            self.post(now + hop.flit_eject, Event::Eject { ep, flit });
        }
        sent.flits.clear();
        sent.injected.clear();
        sent.ejects.clear();
        sent.credits.clear();
        self.sent = sent;
    }

    /// A flit over a link in a partitioned run: into the own wheel as it is (its router is
    /// its bit's), or as an event into the outbox of the partition that owns its router.
    fn post_hop(&mut self, at: u64, h: Hop, split: &VcSplit) {
        let r = self.bit_router(h.bit as usize);
        let p = self.part.as_mut().expect("a partitioned network");
        let dest = r / p.chunk;
        if dest == p.id {
            self.wheel.push_hop(at, h);
        } else {
            let ((port, vc), flit) = (split.of(h.ivc), h.flit);
            p.outbox[dest].push((at, Event::Flit { port, vc, flit }));
        }
    }

    /// An event of a partitioned run: into the own wheel, or the outbox of the partition
    /// that owns its destination.
    fn post(&mut self, at: u64, e: Event) {
        let p = self.part.as_mut().expect("a partitioned network");
        let dest = match e {
            Event::Flit { port, .. } | Event::Credit { port, .. } => {
                self.port_router[port as usize] as usize / p.chunk
            }
            Event::NiCredit { .. } | Event::Eject { .. } => 0,
        };
        if dest != p.id {
            p.outbox[dest].push((at, e));
        } else {
            self.wheel.push(at, e);
        }
    }

    /// One cycle over all partitions on the calling thread (a step outside a stretch run
    /// by crew.rs, e.g. a test stepping by hand): compute each, then exchange.
    pub(super) fn parallel_step(&mut self) {
        let mut workers = self.workers.take().expect("a partitioned network");
        self.deliver();
        self.inject();
        self.routers();
        self.end_sends();
        for w in workers.nets.iter_mut() {
            w.deliver();
            w.routers();
            w.end_sends();
        }
        let mut boxes: Vec<_> = std::iter::once(&mut *self)
            .chain(workers.nets.iter_mut())
            .map(|n| std::mem::take(&mut n.part.as_mut().expect("partitioned").outbox))
            .collect();
        let mut last_move = self.last_move;
        for (q, n) in std::iter::once(&mut *self)
            .chain(workers.nets.iter_mut())
            .enumerate()
        {
            for b in boxes.iter_mut() {
                for &(at, e) in &b[q] {
                    n.wheel.push(at, e);
                }
                b[q].clear();
            }
            last_move = last_move.max(n.last_move);
            n.now += 1;
        }
        for (n, b) in std::iter::once(&mut *self)
            .chain(workers.nets.iter_mut())
            .zip(boxes)
        {
            n.part.as_mut().expect("partitioned").outbox = b;
        }
        self.last_move = last_move;
        self.workers = Some(workers);
    }

    /// Zeroes the channel counts of every partition (a measurement starts).
    pub fn clear_channel_counts(&mut self) {
        self.sync_counters();
        self.chan_flits.iter_mut().for_each(|c| *c = 0);
    }

    /// Moves the other partitions' channel and hop counts into the master's.
    pub fn sync_counters(&mut self) {
        let Some(workers) = self.workers.as_mut() else {
            return;
        };
        for w in &mut workers.nets {
            for (m, c) in self.chan_flits.iter_mut().zip(w.chan_flits.iter_mut()) {
                *m += std::mem::take(c);
            }
            self.flit_hops += std::mem::take(&mut w.flit_hops);
        }
    }

    /// Copies the router state of the other partitions into the master's arrays, so that
    /// the master sees the whole network (deadlock diagnosis).
    pub fn gather(&mut self) {
        let Some(workers) = self.workers.as_ref() else {
            return;
        };
        let (nv, depth) = (self.nv, self.depth);
        for w in &workers.nets {
            let p = w.part.as_ref().expect("partitioned");
            let routers = self.topo.num_switches();
            let (lo, hi) = (p.id * p.chunk, ((p.id + 1) * p.chunk).min(routers));
            let ports = self.pstart[lo] as usize..self.pstart[hi] as usize;
            let vcs = ports.start * nv..ports.end * nv;
            self.ring[vcs.start * depth..vcs.end * depth]
                .copy_from_slice(&w.ring[vcs.start * depth..vcs.end * depth]);
            self.credits[vcs.clone()].copy_from_slice(&w.credits[vcs.clone()]);
            self.owner[vcs.clone()].copy_from_slice(&w.owner[vcs.clone()]);
            self.vcs[vcs.clone()].copy_from_slice(&w.vcs[vcs]);
        }
    }
}

/// Splits a global VC index into (port, VC), by a shift when the VCs per port are a power
/// of two (a division costs tens of cycles; a partitioned run splits every credit).
struct VcSplit {
    nv: u32,
    shift: Option<u32>,
}

impl VcSplit {
    fn new(nv: usize) -> VcSplit {
        VcSplit {
            nv: nv as u32,
            shift: nv.is_power_of_two().then(|| nv.trailing_zeros()),
        }
    }

    #[inline]
    fn of(&self, c: u32) -> (u32, u8) {
        match self.shift {
            Some(s) => (c >> s, (c & (self.nv - 1)) as u8),
            None => (c / self.nv, (c % self.nv) as u8),
        }
    }
}
