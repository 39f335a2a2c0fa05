//! The schedule executor behind `run_schedule` (schedule.rs) and the multicast load
//! runs of mcload.rs: the ops of one schedule *instance* react to their packets'
//! arrivals and to timed events. Many instances may run at once on one network: they share
//! a [`Shared`] context (one event heap ordered by (cycle, instance, event), and each
//! endpoint's host processor, NI sending side and NI receiving side, so that instances
//! contend for them under `ni_serial = 1`), and each labels its packets from its own tag
//! offset. See schedule.rs for the NI model.

use super::network::{Network, NONE};
use super::params::ScheduleParams;
use super::steplat::{StepLatency, StepLog};
use crate::error::Result;
use crate::schedule::{ComputeOp, OpKind, Schedule};
use crate::{invalid, spec_err};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::Deref;

/// What the schedule instances running on one network share.
pub struct Shared {
    /// Timed events: (cycle, instance, event).
    pub heap: BinaryHeap<Reverse<(u64, u32, Due)>>,
    /// Per endpoint: when its host is free, and (serial NI) its sending and receiving sides
    /// (they overlap, as in the FPFS step model of s4.3.2, where a node receives while it
    /// sends).
    host_free: Vec<u64>,
    ni_free: Vec<u64>,
    nr_free: Vec<u64>,
}

impl Shared {
    pub fn new(endpoints: usize) -> Shared {
        Shared {
            heap: BinaryHeap::new(),
            host_free: vec![0; endpoints],
            ni_free: vec![0; endpoints],
            nr_free: vec![0; endpoints],
        }
    }
}

/// Lists of u32 per key in one flat array (no allocation per op on million-op schedules).
struct Csr {
    start: Vec<u32>,
    items: Vec<u32>,
}

impl Csr {
    /// From (key, item) pairs; items keep their order within a key.
    fn new(keys: usize, pairs: &[(u32, u32)]) -> Csr {
        let mut start = vec![0u32; keys + 1];
        for &(k, _) in pairs {
            start[k as usize + 1] += 1;
        }
        for k in 0..keys {
            start[k + 1] += start[k];
        }
        let mut fill = start.clone();
        let mut items = vec![0u32; pairs.len()];
        for &(k, v) in pairs {
            items[fill[k as usize] as usize] = v;
            fill[k as usize] += 1;
        }
        Csr { start, items }
    }

    #[inline]
    fn range(&self, key: usize) -> std::ops::Range<usize> {
        self.start[key] as usize..self.start[key + 1] as usize
    }
}

/// A scheduled event: an op completes, or a send's packets reach its NI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Due {
    Done(u32),
    /// A send's host part is over: it goes to the NI.
    Host(u32),
    Inject(u32),
    /// One packet of a send leaves a serial NI.
    InjectOne(u32, u32),
    /// A receive's packets are all in its NI (FPFS forwards may start).
    NiHas(u32),
}

pub struct Exec<S> {
    pub s: S,
    /// This instance's number in the shared heap, and the offset of its packet tags.
    inst: u32,
    tag0: u32,
    par: ScheduleParams,
    remaining: Vec<u32>,
    dependents: Csr,
    ready: Vec<Option<u64>>,
    /// Per receive op: packets arrived in its range, the latest arrival, the range size.
    got: Vec<u32>,
    last: Vec<u64>,
    need: Vec<u32>,
    /// Per message: first tag; tags are `base + dest_index * packets + packet`.
    base: Vec<u32>,
    /// Per message: packets on the network (1 with `whole_messages`).
    npk: Vec<u32>,
    /// Per (message, destination index) key: the receive ops listening, and the message.
    listeners: Csr,
    key_of_tag: Vec<u32>,
    msg_of_key: Vec<u32>,
    /// Per op: the packet range a receive listens to (on the network's packet numbering).
    range: Vec<(u32, u32)>,
    flits: Vec<u16>,
    /// Per message: payload bytes of one packet (for the I/O bus).
    packet_bytes: Vec<u64>,
    /// Per message: the worm visit its packets start at, NONE for unicast copies.
    roots: Vec<u32>,
    /// Per key: the receiving endpoint.
    key_rank: Vec<u32>,
    /// Per op: a send the NI forwards (FPFS); per receive: its forwarding dependents.
    forward: Vec<bool>,
    /// FPFS: a send of a packet the rank's host already handed to its NI (an earlier send
    /// of the same payload and packets) is an NI copy of that send.
    copy_of: Vec<u32>,
    /// Per send: when its host part ended; sends waiting for it (NI copies).
    host_at: Vec<Option<u64>>,
    waiting_host: Vec<Vec<u32>>,
    ni_fired: Vec<bool>,
    done: usize,
    finish: u64,
    done_at: Vec<u64>,
    /// Step VC classes in use (1: every packet on class 0).
    step_classes: u32,
    barrier: Barrier,
    /// Per-step packet latencies (steplat.rs), kept only when asked for (`log_steps`).
    steplog: Option<StepLog>,
}

/// `sync_steps = 1`: ops of step `s` wait until every op of the earlier steps is done.
#[derive(Default)]
struct Barrier {
    on: bool,
    /// Ops of each step not yet done.
    left: Vec<u32>,
    /// The lowest step with ops left: ops of steps up to it may run.
    open: usize,
    /// Ready ops of later steps, held until their step opens.
    parked: Vec<Vec<u32>>,
}

impl Barrier {
    fn new(s: &Schedule, on: bool) -> Barrier {
        if !on {
            return Barrier::default();
        }
        let mut left = Vec::new();
        for g in 0..s.num_ops() {
            if let Some(st) = s.op(s.op_ref(g)).step {
                let st = st as usize;
                if left.len() <= st {
                    left.resize(st + 1, 0);
                }
                left[st] += 1;
            }
        }
        let parked = vec![Vec::new(); left.len()];
        let mut b = Barrier {
            on,
            left,
            open: 0,
            parked,
        };
        b.advance();
        b
    }

    /// Whether an op of `step` must wait (and is parked).
    fn hold(&mut self, step: Option<u32>, g: u32) -> bool {
        match step {
            Some(st) if self.on && st as usize > self.open => {
                self.parked[st as usize].push(g);
                true
            }
            _ => false,
        }
    }

    /// An op of `step` is done; returns the ops released by the steps that open.
    fn done(&mut self, step: Option<u32>) -> Vec<u32> {
        let Some(st) = step.filter(|_| self.on) else {
            return Vec::new();
        };
        self.left[st as usize] -= 1;
        let before = self.open;
        self.advance();
        let mut out = Vec::new();
        for s in before + 1..=self.open.min(self.parked.len().saturating_sub(1)) {
            out.append(&mut self.parked[s]);
        }
        out
    }

    fn advance(&mut self) {
        while self.open < self.left.len() && self.left[self.open] == 0 {
            self.open += 1;
        }
    }
}

impl<S: Deref<Target = Schedule> + Clone> Exec<S> {
    /// An instance of `sched` whose packets are tagged from `tag0` (its tags are
    /// `tag0..tag0 + self.tags()`); `roots` per message: the worm's first visit in the
    /// network's table, NONE for unicast copies.
    pub fn new(
        sched: S,
        inst: u32,
        tag0: u32,
        par: &ScheduleParams,
        vct_limit: Option<usize>,
        roots: Vec<u32>,
        buf: usize,
    ) -> Result<Exec<S>> {
        let s: &Schedule = &sched;
        let pl = s.placement();
        let n = s.num_ops();
        let mut remaining = vec![0u32; n];
        let mut dependents = Vec::new();
        for (g, rem) in remaining.iter_mut().enumerate() {
            let op = s.op(s.op_ref(g));
            for d in s.deps(op) {
                *rem += 1;
                dependents.push((s.global(*d) as u32, g as u32));
            }
        }
        let (mut base, mut flits, mut key_base) = (Vec::new(), Vec::new(), Vec::new());
        let (mut tags, mut keys) = (0u32, 0u32);
        let (mut key_of_tag, mut packet_bytes, mut key_rank) = (Vec::new(), Vec::new(), Vec::new());
        let flit_bits = par.flit_bytes * 8;
        let mut msg_of_key = Vec::new();
        let whole = par.whole_messages == 1;
        let npk: Vec<u32> = s
            .messages()
            .iter()
            .map(|m| if whole { 1 } else { m.packets })
            .collect();
        for (mi, m) in s.messages().iter().enumerate() {
            base.push(tags);
            key_base.push(keys);
            let bytes = s.payload(m).len() as u64 * s.bytes_per_block();
            let per_packet = bytes.div_ceil(npk[mi].max(1) as u64);
            let worm = roots[mi] != NONE;
            let header_bits = match &m.worm {
                Some(w) if worm => w.header_bits as u64,
                _ => par.unicast_header_bits,
            };
            let f = per_packet.div_ceil(par.flit_bytes).max(1) + header_bits.div_ceil(flit_bits);
            if f > 65535 || vct_limit.is_some_and(|b| f as usize > b) {
                return spec_err!(
                    "packets of {f} flits do not fit (virtual cut-through needs packets <= \
                     vc_buf_size, and at most 65535 flits): use more packets or larger flit_bytes"
                );
            }
            if worm && f as usize > buf {
                return spec_err!(
                    "a worm packet of {f} flits exceeds vc_buf_size = {buf}: deadlock-free switch \
                     replication needs input buffers that hold a whole worm packet (seed 003 \
                     s5.1.2); raise vc_buf_size or use more packets"
                );
            }
            flits.push(f as u16);
            packet_bytes.push(per_packet);
            msg_of_key.extend(std::iter::repeat_n(mi as u32, s.dests(m).len()));
            for di in 0..s.dests(m).len() as u32 {
                key_of_tag.extend(std::iter::repeat_n(keys + di, npk[mi] as usize));
                key_rank.push(pl[s.dests(m)[di as usize] as usize]);
            }
            tags += s.dests(m).len() as u32 * npk[mi];
            keys += s.dests(m).len() as u32;
        }
        let mut listeners = Vec::new();
        let mut need = vec![0u32; n];
        let mut range = vec![(0u32, 0u32); n];
        for (g, nd) in need.iter_mut().enumerate() {
            let at = s.op_ref(g);
            if let OpKind::Send { packets, msg } = s.op(at).kind {
                if whole && packets.resolve(s.message(msg).packets) != (0, s.message(msg).packets) {
                    return invalid!(
                        "whole_messages = 1 needs every send to carry its whole message, but \
                         op {at:?} sends part of message {msg}: use whole_messages = 0"
                    );
                }
            }
            if let OpKind::Recv { msg, packets } = s.op(at).kind {
                let m = s.message(msg);
                let Some(di) = s.dests(m).iter().position(|&d| d == at.rank) else {
                    return invalid!("op {at:?} receives message {msg} not addressed to it");
                };
                listeners.push((key_base[msg as usize] + di as u32, g as u32));
                let (a, b) = packets.resolve(m.packets);
                range[g] = if whole { (0, u32::from(b > a)) } else { (a, b) };
                *nd = range[g].1 - range[g].0;
            }
        }
        let mut forward = vec![false; n];
        if par.ni_fpfs == 1 {
            for (g, fw) in forward.iter_mut().enumerate() {
                let at = s.op_ref(g);
                let op = s.op(at);
                *fw = matches!(op.kind, OpKind::Send { .. })
                    && s.deps(op)
                        .iter()
                        .any(|d| d.rank == at.rank && matches!(s.op(*d).kind, OpKind::Recv { .. }));
            }
        }
        let copy_of = if par.ni_fpfs == 1 {
            ni_copies(s, &forward)
        } else {
            vec![NONE; n]
        };
        let barrier = Barrier::new(s, par.sync_steps == 1);
        Ok(Exec {
            s: sched,
            inst,
            tag0,
            par: par.clone(),
            remaining,
            dependents: Csr::new(n, &dependents),
            ready: vec![None; n],
            got: vec![0; n],
            last: vec![0; n],
            need,
            base,
            npk,
            listeners: Csr::new(keys as usize, &listeners),
            key_of_tag,
            msg_of_key,
            range,
            flits,
            packet_bytes,
            roots,
            key_rank,
            forward,
            copy_of,
            host_at: vec![None; n],
            waiting_host: vec![Vec::new(); n],
            ni_fired: vec![false; n],
            done: 0,
            finish: 0,
            done_at: vec![0; n],
            step_classes: 1,
            barrier,
            steplog: None,
        })
    }

    /// Keeps per-step packet latencies from now on (seed 000's measure; single runs).
    pub fn log_steps(&mut self) {
        self.steplog = Some(StepLog::new(self.tags() as usize));
    }

    /// A packet with this instance's tag `tag` arrived at `t` with (packet latency, network
    /// latency): noted in the step log, if there is one.
    pub fn step_arrival(&mut self, tag: u32, t: u64, lat: (u64, u64)) {
        if let Some(log) = &mut self.steplog {
            log.arrived(tag - self.tag0, t, lat);
        }
    }

    /// The steps that had packets, and the sums of their maximum packet and network
    /// latencies (empty without `log_steps`).
    pub fn step_latencies(&mut self) -> (Vec<StepLatency>, u64, u64) {
        self.steplog
            .take()
            .map_or((Vec::new(), 0, 0), |log| log.finish())
    }

    /// Packet tags this instance uses (from its `tag0`).
    pub fn tags(&self) -> u32 {
        self.key_of_tag.len() as u32
    }

    /// Whether every op is done.
    pub fn finished(&self) -> bool {
        self.done == self.s.num_ops()
    }

    /// The cycle the last op was done.
    pub fn finish(&self) -> u64 {
        self.finish
    }

    pub fn ops_done(&self) -> usize {
        self.done
    }

    pub fn done_at(&self, g: usize) -> u64 {
        self.done_at[g]
    }

    /// Uses `k` step VC classes (`vc_per_step = 1`).
    pub fn set_step_classes(&mut self, k: u32) {
        self.step_classes = k;
    }

    /// Ops parked by the step barrier (an op of a step waits for one of a later step).
    pub fn parked_step(&self) -> Option<usize> {
        self.barrier
            .parked
            .iter()
            .any(|p| !p.is_empty())
            .then_some(self.barrier.open)
    }

    /// Starts the ops without dependencies at `t`.
    pub fn begin(&mut self, sh: &mut Shared, t: u64) {
        for g in 0..self.s.num_ops() as u32 {
            if self.remaining[g as usize] == 0 {
                self.start(sh, g, t);
            }
        }
    }

    fn push(&self, sh: &mut Shared, t: u64, due: Due) {
        sh.heap.push(Reverse((t, self.inst, due)));
    }

    /// Applies an event of this instance that the shared heap released at `t`.
    pub fn event(&mut self, sh: &mut Shared, due: Due, t: u64, net: &mut Network) {
        match due {
            Due::Done(g) => self.complete(sh, g, t),
            Due::Host(g) => self.host_done(sh, g, t),
            Due::Inject(g) => self.inject(sh, g, None, net),
            Due::InjectOne(g, pkt) => self.inject(sh, g, Some(pkt), net),
            Due::NiHas(g) => self.ni_has(sh, g, t),
        }
    }

    fn start(&mut self, sh: &mut Shared, g: u32, t: u64) {
        let s = self.s.clone();
        let op = s.op(s.op_ref(g as usize));
        if self.barrier.hold(op.step, g) {
            return;
        }
        self.ready[g as usize] = Some(t);
        let p = &self.par;
        match op.kind {
            OpKind::Send { msg, .. } => {
                let first = self.copy_of[g as usize];
                if self.forward[g as usize] {
                    // FPFS: the NI forwards on its own, the host is not involved.
                    self.ni_send(sh, g, t);
                } else if first != NONE {
                    match self.host_at[first as usize] {
                        Some(h) => self.ni_send(sh, g, t.max(h)),
                        None => self.waiting_host[first as usize].push(g),
                    }
                } else {
                    let ep = s.placement()[s.op_ref(g as usize).rank as usize] as usize;
                    let cost = p.t_hs + p.dma(self.packet_bytes[msg as usize]);
                    let begin = if p.ni_serial == 1 {
                        t.max(sh.host_free[ep])
                    } else {
                        t
                    };
                    sh.host_free[ep] = begin + cost;
                    self.push(sh, begin + cost, Due::Host(g));
                }
            }
            OpKind::Recv { .. } => self.check_recv(sh, g),
            OpKind::Compute { op: c, .. } => {
                let bytes = s.value(op).len() as u64 * s.bytes_per_block();
                let fl = bytes.div_ceil(p.flit_bytes);
                let per = if c == ComputeOp::Copy {
                    p.copy_per_flit
                } else {
                    p.compute_per_flit
                };
                let at = t + p.compute_base + per * fl;
                self.push(sh, at, Due::Done(g));
            }
        }
    }

    /// A send's host part is over: it and the NI copies waiting for it go to the NI.
    fn host_done(&mut self, sh: &mut Shared, g: u32, t: u64) {
        self.host_at[g as usize] = Some(t);
        self.ni_send(sh, g, t);
        for w in std::mem::take(&mut self.waiting_host[g as usize]) {
            self.ni_send(sh, w, t);
        }
    }

    /// A send reaches its NI at `t`: it pays `t_ns` (per copy when the NI is serial) and
    /// its packets are queued.
    fn ni_send(&mut self, sh: &mut Shared, g: u32, t: u64) {
        let s = self.s.clone();
        let at = s.op_ref(g as usize);
        let OpKind::Send { msg, packets } = s.op(at).kind else {
            unreachable!()
        };
        let p = &self.par;
        if p.ni_serial == 0 {
            self.push(sh, t + p.t_ns, Due::Inject(g));
            return;
        }
        // A serial NI handles the packets one by one, `t_ns` per copy of each; a host send's
        // packets come over the I/O bus one after another (the first one's DMA was paid by
        // the host part), so packet i is in the NI i DMA times after the first.
        let m = s.message(msg);
        let copies = if self.roots[msg as usize] != NONE {
            1
        } else {
            s.dests(m).len() as u64
        };
        let (a, b) = packets.resolve(m.packets);
        let first = self.copy_of[g as usize];
        let (from, a0) = if self.forward[g as usize] {
            (t, b) // a forward: the NI holds its packets
        } else if first != NONE {
            let OpKind::Send {
                msg: fmsg,
                packets: fp,
            } = s.op(s.op_ref(first as usize)).kind
            else {
                unreachable!()
            };
            let fm = s.message(fmsg);
            (
                self.host_at[first as usize].unwrap_or(t),
                fp.resolve(fm.packets).0,
            )
        } else {
            (t, a)
        };
        let dma = p.dma(self.packet_bytes[msg as usize]);
        let ep = s.placement()[at.rank as usize] as usize;
        let t_ns = p.t_ns;
        for pkt in a..b {
            let avail = (from + dma * pkt.saturating_sub(a0) as u64).max(t);
            let end = avail.max(sh.ni_free[ep]) + t_ns * copies;
            sh.ni_free[ep] = end;
            self.push(sh, end, Due::InjectOne(g, pkt));
        }
    }

    /// The NI of the receiving endpoint of `key` takes a packet that arrived at `t`;
    /// returns when it holds it (after `t_nr`).
    fn ni_receive(&mut self, sh: &mut Shared, key: usize, t: u64) -> u64 {
        let ep = self.key_rank[key] as usize;
        if self.par.ni_serial == 1 {
            let at = t.max(sh.nr_free[ep]) + self.par.t_nr;
            sh.nr_free[ep] = at;
            at
        } else {
            t + self.par.t_nr
        }
    }

    /// A receive whose packets are all in the NI releases the sends the NI forwards.
    fn ni_has(&mut self, sh: &mut Shared, g: u32, t: u64) {
        for i in self.dependents.range(g as usize) {
            let d = self.dependents.items[i];
            if self.forward[d as usize] {
                self.remaining[d as usize] -= 1;
                if self.remaining[d as usize] == 0 {
                    self.start(sh, d, t);
                }
            }
        }
    }

    fn check_recv(&mut self, sh: &mut Shared, g: u32) {
        let gi = g as usize;
        if let Some(t) = self.ready[gi] {
            if self.got[gi] == self.need[gi] {
                let msg = match self.s.op(self.s.op_ref(gi)).kind {
                    OpKind::Recv { msg, .. } => msg as usize,
                    _ => unreachable!(),
                };
                let host = self.par.dma(self.packet_bytes[msg]) + self.par.t_hr;
                let mut begin = t.max(self.last[gi]);
                if self.par.ni_serial == 1 {
                    // The host takes the message from its NI (DMA, t_hr) when it is free: a
                    // serial host does one send or receive at a time.
                    let ep = self.s.placement()[self.s.op_ref(gi).rank as usize] as usize;
                    begin = begin.max(sh.host_free[ep]);
                    sh.host_free[ep] = begin + host;
                }
                self.push(sh, begin + host, Due::Done(g));
                self.got[gi] = u32::MAX; // scheduled once
            }
        }
    }

    fn complete(&mut self, sh: &mut Shared, g: u32, t: u64) {
        self.done += 1;
        self.finish = self.finish.max(t);
        self.done_at[g as usize] = t;
        let step = self.s.op(self.s.op_ref(g as usize)).step;
        for r in self.barrier.done(step) {
            self.start(sh, r, t);
        }
        for i in self.dependents.range(g as usize) {
            let d = self.dependents.items[i];
            if self.forward[d as usize] {
                continue; // released by `ni_has`
            }
            self.remaining[d as usize] -= 1;
            if self.remaining[d as usize] == 0 {
                self.start(sh, d, t);
            }
        }
    }

    /// Queues the send's packets (or only packet `one`) at its NI; the send is done with
    /// its last packet.
    fn inject(&mut self, sh: &mut Shared, g: u32, one: Option<u32>, net: &mut Network) {
        let s = self.s.clone();
        let at = s.op_ref(g as usize);
        let op = s.op(at);
        let OpKind::Send { msg, packets } = op.kind else {
            unreachable!()
        };
        let vclass = op.step.map_or(0, |st| st % self.step_classes) as u8;
        let m = s.message(msg);
        let np = self.npk[msg as usize];
        let (a, b) = if np == m.packets {
            packets.resolve(m.packets)
        } else {
            (0, np)
        };
        let last = b;
        let (a, b) = one.map_or((a, b), |p| (p, p + 1));
        let pl = s.placement();
        let src = pl[m.src as usize] as usize;
        let dests = s.dests(m);
        let root = self.roots[msg as usize];
        let local = self.base[msg as usize];
        let base = self.tag0 + local;
        for pkt in a..b {
            if let Some(log) = &mut self.steplog {
                // Every destination's copy carries `tag + dest_index * packets` (worms.rs).
                for di in 0..dests.len() as u32 {
                    log.created(local + di * np + pkt, op.step, net.now);
                }
            }
            if root != NONE {
                net.create_worm(src, root, self.flits[msg as usize], base + pkt);
                continue;
            }
            for (di, &d) in dests.iter().enumerate() {
                let tag = base + di as u32 * np + pkt;
                let (to, f) = (pl[d as usize] as usize, self.flits[msg as usize]);
                net.create_in_class(src, to, f, tag, vclass);
            }
        }
        if b == last {
            self.complete(sh, g, net.now);
        }
    }

    /// A packet with this instance's tag `tag` (from `tag0`) arrived at `t`.
    pub fn arrival(&mut self, sh: &mut Shared, tag: u32, t: u64) {
        let tag = tag - self.tag0;
        let key = self.key_of_tag[tag as usize] as usize;
        let m = self.msg_of_key[key] as usize;
        let pkt = (tag - self.base[m]) % self.npk[m];
        let t = self.ni_receive(sh, key, t);
        for i in self.listeners.range(key) {
            let g = self.listeners.items[i] as usize;
            let (a, b) = self.range[g];
            if (a..b).contains(&pkt) && self.got[g] != u32::MAX {
                self.got[g] += 1;
                self.last[g] = self.last[g].max(t);
                if self.got[g] == self.need[g] && !self.ni_fired[g] {
                    self.ni_fired[g] = true;
                    let at = self.last[g];
                    self.push(sh, at, Due::NiHas(g as u32));
                }
                self.check_recv(sh, g as u32);
            }
        }
    }
}

/// For FPFS: per send op, the earlier host send at the same rank of the same payload and
/// packets that it copies at the NI (NONE: it pays the host overheads itself).
fn ni_copies(s: &Schedule, forward: &[bool]) -> Vec<u32> {
    let mut first = std::collections::HashMap::new();
    let mut copy_of = vec![NONE; s.num_ops()];
    for (g, c) in copy_of.iter_mut().enumerate() {
        let at = s.op_ref(g);
        let OpKind::Send { msg, .. } = s.op(at).kind else {
            continue;
        };
        if forward[g] {
            continue;
        }
        let m = s.message(msg);
        // The host pays t_hs once per message: later sends of the same payload (any
        // packets) are the NI's.
        let key = (at.rank, s.payload(m).to_vec());
        match first.entry(key) {
            std::collections::hash_map::Entry::Occupied(e) => *c = *e.get(),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(g as u32);
            }
        }
    }
    copy_of
}
