//! The schedule executor behind `run_schedule` (schedule.rs) and the multicast load
//! runs of mcload.rs: the ops of one schedule *instance* react to their packets'
//! arrivals and to timed events. Many instances may run at once on one network: they share
//! a [`Shared`] context (one event heap ordered by (cycle, instance, event), and each
//! endpoint's host processor, NI sending side and NI receiving side, so that instances
//! contend for them under `ni_serial = 1`), and each labels its packets from its own tag
//! offset. See schedule.rs for the NI model.
//!
//! Here: the instance's state and its op lifecycle (start, host part, completion,
//! dependencies); `build` lays the schedule's messages out as network packets and tags;
//! `ni_model` moves a send's packets through its NI into the network and an arriving
//! packet to the receives listening for it; `barrier` holds ops for `sync_steps = 1`.

mod barrier;
mod build;
mod ni_model;

use super::network::{Network, NONE};
use super::params::ScheduleParams;
use super::steplat::{StepLatency, StepLog};
use crate::schedule::{ComputeOp, MsgId, OpKind, PacketRange, Schedule};
use barrier::Barrier;
use build::Csr;
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
    /// Per message: packets on the network (1 with `whole_messages`), after the NI split
    /// every schedule packet into `split` network packets of at most `max_packet_flits`.
    npk: Vec<u32>,
    split: Vec<u32>,
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

impl<S: Deref<Target = Schedule> + Clone> Exec<S> {
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
        self.barrier.parked_step()
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

    /// The network packets of a schedule packet range of message `msg` (every schedule
    /// packet is `split` network packets; `whole_messages`: all of them).
    fn network_range(&self, msg: MsgId, packets: PacketRange) -> (u32, u32) {
        let (m, np) = (self.s.message(msg), self.npk[msg as usize]);
        if self.par.whole_messages == 1 {
            return (0, np);
        }
        let (a, b) = packets.resolve(m.packets);
        let k = self.split[msg as usize];
        (a * k, b * k)
    }

    /// The largest network packet, in flits, and the most network packets the NI made of
    /// one schedule packet.
    pub fn packet_sizes(&self) -> (u64, u32) {
        let flits = self.flits.iter().copied().max().unwrap_or(0);
        (flits as u64, self.split.iter().copied().max().unwrap_or(1))
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
}
