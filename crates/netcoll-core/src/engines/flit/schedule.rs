//! Schedule-driven execution: a [`Schedule`] runs on the flit network. An op starts when
//! its dependencies are done:
//!
//! * a send pays the host and NI send overheads (`t_hs + t_ns`, seed 003 s6.2), then queues
//!   its packets at the source NI, and is done. A message with a multidestination worm
//!   (and its replication tree) is one worm packet per packet, replicated by the switches
//!   (replicate.rs), with `ceil(header_bits / (8 * flit_bytes))` header flits; any other
//!   message is one copy per destination (an NI multi-send);
//! * a receive is done `t_nr + t_hr` after the last of its packets has arrived (or when it
//!   becomes ready, if they arrived earlier);
//! * a compute op (XOR encode/decode, reduce) takes `compute_base + compute_per_flit *
//!   flits of its output` cycles (seed 000 s5.6's XOR overhead); a copy takes
//!   `compute_base + copy_per_flit * flits`.
//!
//! The NI model of seed 003 s6.2 (all off by default): `io_bus_mb_s` adds the host <-> NI
//! DMA time of one packet to every host send and receive; `ni_fpfs = 1` makes a send that
//! depends on a receive at the same rank an NI forward (First-Packet-First-Served, s4.2.2):
//! it starts when the NI holds the packet (`t_nr` after its arrival) and pays only `t_ns`;
//! `ni_serial = 1` makes each rank's host and NI serial: sends occupy the host for `t_hs`
//! (+ DMA) and the NI's sending side for `t_ns` per packet copy, arriving packets its
//! receiving side for `t_nr` each (the two sides overlap, as in s4.3.2's step model).
//!
//! The execution time is the cycle the last op is done. Messages split into the schedule's
//! packets; a packet of `b` bytes is `ceil(b / flit_bytes)` flits (at least one).

use super::config::{FlitConfig, FlowControl};
use super::deadlock::Deadlock;
use super::network::{Network, NONE};
use super::steplat::{StepLatency, StepLog};
use super::worms::load_worms;
use crate::error::Result;
use crate::schedule::{ComputeOp, OpKind, Schedule};
use crate::topology::Topology;
use crate::{invalid, spec_err};
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

#[derive(Debug, Clone, Serialize)]
pub struct ScheduleParams {
    pub flit_bytes: u64,
    pub t_hs: u64,
    pub t_ns: u64,
    pub t_hr: u64,
    pub t_nr: u64,
    pub compute_base: u64,
    pub compute_per_flit: u64,
    pub copy_per_flit: u64,
    /// Header bits of every unicast packet (worms carry their own `header_bits`).
    pub unicast_header_bits: u64,
    /// Host I/O bus bandwidth in MB/s (0: infinitely fast), and the cycle time in ps that
    /// converts it to cycles (seed 003 s6.2: 266 MB/s, 5 ns).
    pub io_bus_mb_s: u64,
    pub cycle_ps: u64,
    /// NIs forward packets of a receive to the sends depending on it (FPFS).
    pub ni_fpfs: u64,
    /// Host and NI processors handle one overhead at a time.
    pub ni_serial: u64,
    /// 1: the packets of every schedule step travel on their own block of VCs (`vclass.rs`;
    /// seed 000's deadlock avoidance by VC assignment per step); 0: any VC.
    pub vc_per_step: u64,
    /// Step VC classes with `vc_per_step = 1` (0: as many as fit, `num_vcs / routing
    /// classes`); step `s` uses class `s mod step_vc_classes`.
    pub step_vc_classes: u64,
    /// 1: a barrier between steps: no op of step `s` starts before every op of the earlier
    /// steps is done (seed 000 s5.1: "the execution time of a broadcast is the sum of the
    /// maximum latency of all sequential steps"); 0: ops start when their dependencies are
    /// done.
    pub sync_steps: u64,
    /// 1: every message travels as one packet of all its flits (the schedule's packet split
    /// is ignored; s6.5's combined messages); 0: the schedule's packets.
    pub whole_messages: u64,
}

impl Default for ScheduleParams {
    fn default() -> Self {
        ScheduleParams {
            flit_bytes: 16,
            t_hs: 0,
            t_ns: 0,
            t_hr: 0,
            t_nr: 0,
            compute_base: 0,
            compute_per_flit: 1,
            copy_per_flit: 0,
            unicast_header_bits: 0,
            io_bus_mb_s: 0,
            cycle_ps: 5000,
            ni_fpfs: 0,
            ni_serial: 0,
            vc_per_step: 0,
            step_vc_classes: 0,
            sync_steps: 0,
            whole_messages: 0,
        }
    }
}

impl ScheduleParams {
    /// Sets a schedule key; returns Ok(false) if the key is not one of them.
    /// Cycles to move `bytes` over the host I/O bus (0 when it is not modelled).
    pub fn dma(&self, bytes: u64) -> u64 {
        if self.io_bus_mb_s == 0 {
            0
        } else {
            (bytes * 1_000_000).div_ceil(self.io_bus_mb_s * self.cycle_ps)
        }
    }

    pub fn set(&mut self, key: &str, value: &str) -> Result<bool> {
        let slot = match key {
            "flit_bytes" => &mut self.flit_bytes,
            "t_hs" => &mut self.t_hs,
            "t_ns" => &mut self.t_ns,
            "t_hr" => &mut self.t_hr,
            "t_nr" => &mut self.t_nr,
            "compute_base" => &mut self.compute_base,
            "compute_per_flit" => &mut self.compute_per_flit,
            "copy_per_flit" => &mut self.copy_per_flit,
            "unicast_header_bits" => &mut self.unicast_header_bits,
            "io_bus_mb_s" => &mut self.io_bus_mb_s,
            "cycle_ps" => &mut self.cycle_ps,
            "ni_fpfs" => &mut self.ni_fpfs,
            "ni_serial" => &mut self.ni_serial,
            "vc_per_step" => &mut self.vc_per_step,
            "step_vc_classes" => &mut self.step_vc_classes,
            "sync_steps" => &mut self.sync_steps,
            "whole_messages" => &mut self.whole_messages,
            _ => return Ok(false),
        };
        *slot = match value.trim().parse() {
            Ok(v) => v,
            Err(_) => return spec_err!("{key} = {value}: expected a whole number of cycles/bytes"),
        };
        if self.flit_bytes == 0 || self.cycle_ps == 0 {
            return spec_err!("flit_bytes and cycle_ps must be at least 1");
        }
        if self.ni_fpfs > 1 || self.ni_serial > 1 {
            return spec_err!("ni_fpfs and ni_serial are 0 or 1");
        }
        if self.vc_per_step > 1 || self.sync_steps > 1 || self.whole_messages > 1 {
            return spec_err!(
                "{key} = {value}: vc_per_step, sync_steps, whole_messages are 0 or 1"
            );
        }
        Ok(true)
    }
}

/// Network and schedule settings from `key=value` pairs (both kinds of keys).
pub fn parse_settings<'a>(
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<(FlitConfig, ScheduleParams)> {
    let (mut cfg, mut par) = (FlitConfig::default(), ScheduleParams::default());
    for (k, v) in pairs {
        if !par.set(k, v)? {
            cfg.set(k, v)?;
        }
    }
    Ok((cfg, par))
}

#[derive(Debug, Clone, Serialize)]
pub struct ScheduleResult {
    /// Execution time: the cycle the last op is done.
    pub cycles: u64,
    pub verified: bool,
    pub avg_packet_latency: f64,
    pub avg_network_latency: f64,
    pub packets: u64,
    pub flit_hops: u64,
    /// For schedules with rounds: (round, cycle its last op is done).
    pub step_times: Vec<(u32, u64)>,
    /// Messages that travelled as switch-replicated worms.
    pub worm_messages: u64,
    pub deadlock: Option<Deadlock>,
    /// Per step with packets: their count and maximum packet / network latency (steplat.rs).
    pub step_latency: Vec<StepLatency>,
    /// Seed 000 s5.1's "sum of the maximum latency of all sequential steps", with BookSim's
    /// packet latency (creation to arrival) and with its network latency (injection to
    /// arrival).
    pub sum_step_max_packet_latency: u64,
    pub sum_step_max_network_latency: u64,
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
enum Due {
    Done(u32),
    /// A send's host part is over: it goes to the NI.
    Host(u32),
    Inject(u32),
    /// One packet of a send leaves a serial NI.
    InjectOne(u32, u32),
    /// A receive's packets are all in its NI (FPFS forwards may start).
    NiHas(u32),
}

struct Exec<'s> {
    s: &'s Schedule,
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
    /// Per key: the receiving rank.
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
    host_free: Vec<u64>,
    /// Serial NI: when its sending and its receiving sides are free (they overlap, as in
    /// the FPFS step model of s4.3.2, where a node receives while it sends).
    ni_free: Vec<u64>,
    nr_free: Vec<u64>,
    heap: BinaryHeap<Reverse<(u64, Due)>>,
    done: usize,
    finish: u64,
    done_at: Vec<u64>,
    /// Step VC classes in use (1: every packet on class 0).
    step_classes: u32,
    barrier: Barrier,
    steplog: StepLog,
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

impl<'s> Exec<'s> {
    fn new(
        s: &'s Schedule,
        par: &ScheduleParams,
        vct_limit: Option<usize>,
        roots: Vec<u32>,
        buf: usize,
    ) -> Result<Exec<'s>> {
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
                key_rank.push(s.dests(m)[di as usize]);
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
        let ranks = s.placement().len();
        Ok(Exec {
            s,
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
            host_free: vec![0; ranks],
            ni_free: vec![0; ranks],
            nr_free: vec![0; ranks],
            heap: BinaryHeap::new(),
            done: 0,
            finish: 0,
            done_at: vec![0; n],
            step_classes: 1,
            barrier: Barrier::new(s, par.sync_steps == 1),
            steplog: StepLog::new(tags as usize),
        })
    }

    fn start(&mut self, g: u32, t: u64) {
        let op = self.s.op(self.s.op_ref(g as usize));
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
                    self.ni_send(g, t);
                } else if first != NONE {
                    match self.host_at[first as usize] {
                        Some(h) => self.ni_send(g, t.max(h)),
                        None => self.waiting_host[first as usize].push(g),
                    }
                } else {
                    let rank = self.s.op_ref(g as usize).rank as usize;
                    let cost = p.t_hs + p.dma(self.packet_bytes[msg as usize]);
                    let begin = if p.ni_serial == 1 {
                        t.max(self.host_free[rank])
                    } else {
                        t
                    };
                    self.host_free[rank] = begin + cost;
                    self.heap.push(Reverse((begin + cost, Due::Host(g))));
                }
            }
            OpKind::Recv { .. } => self.check_recv(g),
            OpKind::Compute { op: c, .. } => {
                let bytes = self.s.value(op).len() as u64 * self.s.bytes_per_block();
                let fl = bytes.div_ceil(p.flit_bytes);
                let per = if c == ComputeOp::Copy {
                    p.copy_per_flit
                } else {
                    p.compute_per_flit
                };
                self.heap
                    .push(Reverse((t + p.compute_base + per * fl, Due::Done(g))));
            }
        }
    }

    /// A send's host part is over: it and the NI copies waiting for it go to the NI.
    fn host_done(&mut self, g: u32, t: u64) {
        self.host_at[g as usize] = Some(t);
        self.ni_send(g, t);
        for w in std::mem::take(&mut self.waiting_host[g as usize]) {
            self.ni_send(w, t);
        }
    }

    /// A send reaches its NI at `t`: it pays `t_ns` (per copy when the NI is serial) and
    /// its packets are queued.
    fn ni_send(&mut self, g: u32, t: u64) {
        let at = self.s.op_ref(g as usize);
        let OpKind::Send { msg, packets } = self.s.op(at).kind else {
            unreachable!()
        };
        let p = &self.par;
        if p.ni_serial == 0 {
            self.heap.push(Reverse((t + p.t_ns, Due::Inject(g))));
            return;
        }
        // A serial NI handles the packets one by one, `t_ns` per copy of each; a host send's
        // packets come over the I/O bus one after another (the first one's DMA was paid by
        // the host part), so packet i is in the NI i DMA times after the first.
        let m = self.s.message(msg);
        let copies = if self.roots[msg as usize] != NONE {
            1
        } else {
            self.s.dests(m).len() as u64
        };
        let (a, b) = packets.resolve(m.packets);
        let first = self.copy_of[g as usize];
        let (from, a0) = if self.forward[g as usize] {
            (t, b) // a forward: the NI holds its packets
        } else if first != NONE {
            let OpKind::Send {
                msg: fmsg,
                packets: fp,
            } = self.s.op(self.s.op_ref(first as usize)).kind
            else {
                unreachable!()
            };
            let fm = self.s.message(fmsg);
            (
                self.host_at[first as usize].unwrap_or(t),
                fp.resolve(fm.packets).0,
            )
        } else {
            (t, a)
        };
        let dma = p.dma(self.packet_bytes[msg as usize]);
        let rank = at.rank as usize;
        for pkt in a..b {
            let avail = (from + dma * pkt.saturating_sub(a0) as u64).max(t);
            let end = avail.max(self.ni_free[rank]) + self.par.t_ns * copies;
            self.ni_free[rank] = end;
            self.heap.push(Reverse((end, Due::InjectOne(g, pkt))));
        }
    }

    /// The NI of the receiving rank of `key` takes a packet that arrived at `t`; returns
    /// when it holds it (after `t_nr`).
    fn ni_receive(&mut self, key: usize, t: u64) -> u64 {
        let rank = self.key_rank[key] as usize;
        if self.par.ni_serial == 1 {
            let at = t.max(self.nr_free[rank]) + self.par.t_nr;
            self.nr_free[rank] = at;
            at
        } else {
            t + self.par.t_nr
        }
    }

    /// A receive whose packets are all in the NI releases the sends the NI forwards.
    fn ni_has(&mut self, g: u32, t: u64) {
        for i in self.dependents.range(g as usize) {
            let d = self.dependents.items[i];
            if self.forward[d as usize] {
                self.remaining[d as usize] -= 1;
                if self.remaining[d as usize] == 0 {
                    self.start(d, t);
                }
            }
        }
    }

    fn check_recv(&mut self, g: u32) {
        let gi = g as usize;
        if let Some(t) = self.ready[gi] {
            if self.got[gi] == self.need[gi] {
                let msg = match self.s.op(self.s.op_ref(gi)).kind {
                    OpKind::Recv { msg, .. } => msg as usize,
                    _ => unreachable!(),
                };
                let host = self.par.dma(self.packet_bytes[msg]) + self.par.t_hr;
                let at = t.max(self.last[gi] + host);
                self.heap.push(Reverse((at, Due::Done(g))));
                self.got[gi] = u32::MAX; // scheduled once
            }
        }
    }

    fn complete(&mut self, g: u32, t: u64) {
        self.done += 1;
        self.finish = self.finish.max(t);
        self.done_at[g as usize] = t;
        let step = self.s.op(self.s.op_ref(g as usize)).step;
        for r in self.barrier.done(step) {
            self.start(r, t);
        }
        for i in self.dependents.range(g as usize) {
            let d = self.dependents.items[i];
            if self.forward[d as usize] {
                continue; // released by `ni_has`
            }
            self.remaining[d as usize] -= 1;
            if self.remaining[d as usize] == 0 {
                self.start(d, t);
            }
        }
    }

    /// Queues the send's packets (or only packet `one`) at its NI; the send is done with
    /// its last packet.
    fn inject(&mut self, g: u32, one: Option<u32>, net: &mut Network) {
        let at = self.s.op_ref(g as usize);
        let op = self.s.op(at);
        let OpKind::Send { msg, packets } = op.kind else {
            unreachable!()
        };
        let vclass = op.step.map_or(0, |st| st % self.step_classes) as u8;
        let m = self.s.message(msg);
        let np = self.npk[msg as usize];
        let (a, b) = if np == m.packets {
            packets.resolve(m.packets)
        } else {
            (0, np)
        };
        let last = b;
        let (a, b) = one.map_or((a, b), |p| (p, p + 1));
        let pl = self.s.placement();
        let src = pl[m.src as usize] as usize;
        let dests = self.s.dests(m);
        let root = self.roots[msg as usize];
        for pkt in a..b {
            if root != NONE {
                let tag = self.base[msg as usize] + pkt;
                // Every destination's copy carries `tag + dest_index * packets` (worms.rs).
                for di in 0..dests.len() as u32 {
                    self.steplog.created(tag + di * np, op.step, net.now);
                }
                net.create_worm(src, root, self.flits[msg as usize], tag);
                continue;
            }
            for (di, &d) in dests.iter().enumerate() {
                let tag = self.base[msg as usize] + di as u32 * np + pkt;
                let (to, f) = (pl[d as usize] as usize, self.flits[msg as usize]);
                self.steplog.created(tag, op.step, net.now);
                net.create_in_class(src, to, f, tag, vclass);
            }
        }
        if b == last {
            self.complete(g, net.now);
        }
    }

    fn arrival(&mut self, tag: u32, t: u64) {
        let key = self.key_of_tag[tag as usize] as usize;
        let m = self.msg_of_key[key] as usize;
        let pkt = (tag - self.base[m]) % self.npk[m];
        let t = self.ni_receive(key, t);
        for i in self.listeners.range(key) {
            let g = self.listeners.items[i] as usize;
            let (a, b) = self.range[g];
            if (a..b).contains(&pkt) && self.got[g] != u32::MAX {
                self.got[g] += 1;
                self.last[g] = self.last[g].max(t);
                if self.got[g] == self.need[g] && !self.ni_fired[g] {
                    self.ni_fired[g] = true;
                    let at = self.last[g];
                    self.heap.push(Reverse((at, Due::NiHas(g as u32))));
                }
                self.check_recv(g as u32);
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

/// Runs `s` on `topo` and returns its execution time in cycles.
pub fn run_schedule(
    topo: &Topology,
    s: &Schedule,
    cfg: &FlitConfig,
    par: &ScheduleParams,
) -> Result<ScheduleResult> {
    if let Some(&bad) = s
        .placement()
        .iter()
        .find(|&&e| e as usize >= topo.num_endpoints())
    {
        return invalid!(
            "the schedule places a rank on endpoint {bad}, beyond {}",
            topo.name()
        );
    }
    let mut cfg = cfg.clone();
    cfg.injection_rate = 0.0;
    let mut net = Network::new(topo, &cfg)?;
    net.log_arrivals = true;
    net.log_latency = true;
    net.measuring = true;
    let vct = (cfg.flow_control == FlowControl::CutThrough).then_some(cfg.vc_buf_size);
    let roots = load_worms(&mut net, s)?;
    let worm_messages = roots.iter().filter(|&&r| r != NONE).count() as u64;
    let mut ex = Exec::new(s, par, vct, roots, cfg.vc_buf_size)?;
    if par.vc_per_step == 1 {
        let k = match par.step_vc_classes {
            0 => (net.nv / net.route_classes.max(1) as usize).max(1),
            k => k as usize,
        };
        net.set_step_classes(k)?;
        ex.step_classes = k as u32;
    }
    for g in 0..s.num_ops() as u32 {
        if ex.remaining[g as usize] == 0 {
            ex.start(g, 0);
        }
    }
    let n = s.num_ops();
    let mut deadlock = None;
    let (mut arrivals, mut lats) = (Vec::new(), Vec::new());
    loop {
        // Arrivals first, so that an op can react in the cycle its packets arrive.
        net.deliver();
        std::mem::swap(&mut arrivals, &mut net.arrivals);
        std::mem::swap(&mut lats, &mut net.arrival_lat);
        for (&(tag, t), &lat) in arrivals.iter().zip(&lats) {
            ex.steplog.arrived(tag, t, lat);
            ex.arrival(tag, t);
        }
        arrivals.clear();
        lats.clear();
        while let Some(&Reverse((t, due))) = ex.heap.peek() {
            if t > net.now {
                break;
            }
            ex.heap.pop();
            match due {
                Due::Done(g) => ex.complete(g, t),
                Due::Host(g) => ex.host_done(g, t),
                Due::Inject(g) => ex.inject(g, None, &mut net),
                Due::InjectOne(g, pkt) => ex.inject(g, Some(pkt), &mut net),
                Due::NiHas(g) => ex.ni_has(g, t),
            }
        }
        if ex.done == n {
            break;
        }
        let idle = net.in_flight_flits == 0 && net.wheel.is_empty() && net.ni_pending.is_empty();
        if idle {
            match ex.heap.peek() {
                // Nothing moves until the next op event: skip the silent cycles.
                Some(&Reverse((t, _))) => {
                    net.now = t;
                    continue;
                }
                None if ex.barrier.parked.iter().any(|p| !p.is_empty()) => {
                    return invalid!(
                        "sync_steps = 1 cannot run this schedule: an op of step {} waits for an \
                         op of a later step; run it with sync_steps = 0",
                        ex.barrier.open
                    )
                }
                None => {
                    return invalid!(
                        "the schedule cannot finish: {} of {n} ops wait for packets that are never sent",
                        n - ex.done
                    )
                }
            }
        }
        if net.now >= cfg.max_cycles {
            return invalid!(
                "the schedule did not finish within max_cycles = {}",
                cfg.max_cycles
            );
        }
        net.finish_cycle();
        if net.in_flight_flits > 0 && net.now - net.last_move > cfg.deadlock_cycles {
            deadlock = Some(net.diagnose());
            break;
        }
    }
    let mut steps = std::collections::BTreeMap::new();
    for g in 0..n {
        if let Some(r) = s.op(s.op_ref(g)).step {
            let e = steps.entry(r).or_insert(0u64);
            *e = (*e).max(ex.done_at[g]);
        }
    }
    let steps: Vec<(u32, u64)> = steps.into_iter().collect();
    let (step_latency, sum_p, sum_n) = ex.steplog.finish();
    Ok(ScheduleResult {
        cycles: ex.finish,
        verified: s.verify().ok,
        avg_packet_latency: net.measured.packet.mean(),
        avg_network_latency: net.measured.network.mean(),
        packets: net.delivered,
        flit_hops: net.flit_hops,
        step_times: steps,
        worm_messages,
        deadlock,
        step_latency,
        sum_step_max_packet_latency: sum_p,
        sum_step_max_network_latency: sum_n,
    })
}
