//! The state of BookSim's crossbar model (xbar.rs): speedups, held switch connections,
//! output buffers and the per-input credit queues. Plain data, so that the network holds it
//! without importing the stages.

use std::collections::VecDeque;

use super::channel::Flit;
use super::config::FlitConfig;

/// No VC holds this crossbar input (`Xbar::hold_vc`).
pub const FREE: u8 = u8::MAX;

/// A flit in an output buffer: it leaves at the end of cycle `exit` at the earliest
/// (one flit per output port and cycle, in the order it entered).
#[derive(Debug, Clone, Copy, Default)]
pub struct Queued {
    pub flit: Flit,
    /// The output VC it holds downstream.
    pub ov: u8,
    pub exit: u32,
    /// The switch step that sent it (for `output_buffer_size`: BookSim counts a flit in
    /// the buffer from the step after its switch traversal).
    pub step: u32,
}

/// What a global output port's departing flits need, in one record (16 bytes, four a
/// cache line): where they go (`wiring::Down`), the cycles from leaving the output buffer
/// to the next input buffer or NI (the link's own extra latency included), and the first
/// cycle the buffer can send next (one flit a cycle leaves it).
#[derive(Debug, Clone, Copy, Default)]
#[repr(C, align(16))]
pub struct OutLink {
    pub ivc: u32,
    pub bit: u32,
    pub delay: u32,
    pub free: u32,
}

/// An input port's credits (xbar_credits.rs): the VCs whose slots this step freed that
/// queue (a mask), the cycle (plus one: 0 is never) it last sent a credit message, and the
/// switch step (plus one) of that message.
#[derive(Debug, Clone, Copy, Default)]
#[repr(C, align(16))]
pub struct CredPort {
    pub step: u64,
    pub sent: u32,
    pub sent_step: u32,
}

/// The departures scheduled for one cycle ahead (`Xbar::departing`): flits onto links
/// (`flit_hops`) and all flits (the deadlock watch's `last_move`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Departures {
    pub hops: u32,
    pub flits: u32,
}

/// The crossbar of every router of a run (see xbar.rs).
pub struct Xbar {
    /// Whether the run takes this path (a speedup, or held switch connections).
    pub on: bool,
    /// Crossbar inputs per input port and outputs per output port.
    pub is: usize,
    pub os: usize,
    /// Switch steps per cycle, and BookSim's `_partial_internal_cycles` accumulator (the
    /// steps of a cycle are those that bring it below 1).
    pub internal: f64,
    pub partial: f64,
    /// `internal != 1`: several (or no) steps a cycle, credits queued per step.
    pub several: bool,
    /// Cycles from a switch allocation to its flit's exit from the output buffer, less one
    /// when the allocation is in the cycle's last step (`sw_alloc_delay - 1 +
    /// max(st_final_delay, 1) - 1`).
    pub exit_delay: u64,
    /// Cycles the accumulator has been advanced through.
    pub acc_cycle: u64,
    /// Switch steps run so far: the routers' clock while `internal != 1` (ready times of
    /// VCs count steps then).
    pub step: u64,
    /// Whether the step running is the last of its cycle.
    pub last_step: bool,
    /// Flits pass through output buffers (a speedup lets several reach one output in a
    /// cycle); else a flit leaves the cycle its switch traversal ends, as without the
    /// crossbar model.
    pub queued: bool,
    pub out_cap: i64,
    pub hold: bool,
    /// The plain-port path (xbar.rs `plain_requests`): on while every port has one crossbar
    /// input and one output (`input_speedup = output_speedup = 1`: held connections or an
    /// internal speedup only); tests turn it off to compare it with the general path.
    pub plain: bool,
    /// A router with nothing for its switch in a step (no held connection, no VC that may
    /// bid) skips the switch's call and set-up (xbar.rs `switch_idle`); tests turn it off
    /// to compare with the full call.
    pub skip_idle: bool,
    /// Set each cycle (xbar.rs `xbar_routers`): whether the idle test runs (`skip_idle`,
    /// routers of one mask word), and the mask of `VaState::fresh` it ignores (all of it
    /// where the plain path skips the VCs just granted, else none).
    pub idle_test: bool,
    pub idle_fresh: u64,
    /// Per global crossbar input (`port * is + k`): the switch allocator's VC offset
    /// (BookSim's `_sw_rr_offset`), its input pointer (iSLIP accept / input arbiter).
    pub in_off: Vec<u8>,
    pub in_ptr: Vec<u16>,
    /// Per global crossbar output (`port * os + k`): its grant pointer / output arbiter.
    pub out_ptr: Vec<u16>,
    /// Held connections: per global crossbar input the VC holding it (FREE: none) and the
    /// router-local crossbar output it holds; per router, the held local crossbar inputs
    /// and outputs as masks.
    pub hold_vc: Vec<u8>,
    pub hold_out: Vec<u8>,
    pub held_in: Vec<u64>,
    pub held_out: Vec<u64>,
    /// Output buffers per global output port, and the ports whose buffer holds flits.
    pub outq: PortQueues<Queued>,
    pub out_busy: Vec<u32>,
    /// Unbounded output buffers send by departure cycle (xbar_out.rs): a flit's departure
    /// is known as it enters, so it goes straight into the wheel; tests turn it off to
    /// compare it with the buffers.
    pub direct: bool,
    /// Per global output port: where its flits go and when it can send next (`direct`).
    pub links: Vec<OutLink>,
    /// Cycles ahead the wheel takes events (`Wheel::span`), and per cycle of that span the
    /// departures scheduled for it (counted in the cycle they leave).
    pub reach: u64,
    pub departing: Vec<Departures>,
    /// The global output ports that are ejection channels, a bit each (their output VCs
    /// take no credits).
    pub eject: Vec<u64>,
    /// Credits per global input port: this step's freed VCs (a mask), the ports touched this
    /// step, and the queue of BookSim's credit objects (one leaves per cycle) when the
    /// switch runs several steps a cycle; the ports whose queue is not empty.
    pub cred: Vec<CredPort>,
    pub cred_touched: Vec<u32>,
    pub credq: PortQueues<u64>,
    pub cred_busy: Vec<u32>,
    /// A port whose queue is empty and that sent nothing yet this cycle sends a step's
    /// credits as the step ends (xbar_credits.rs); tests turn it off to compare it with
    /// the queues.
    pub cred_direct: bool,
    /// Switch allocation scratch: per local crossbar input the requested local outputs, and
    /// the VC carrying each (input, output) request.
    pub req: [u64; 64],
    pub req_vc: Vec<u8>,
    /// Per router-local VC `port * num_vcs + vc`: its port, VC and local crossbar input
    /// (`port * is + vc % is`); per local input port `i`, its crossbar output lane
    /// `i % os` (tables: the switch allocation divides nothing).
    pub split: Vec<(u8, u8, u8)>,
    pub out_lane: Vec<u8>,
    /// Per local crossbar input its port (`xi / is`); per VC `v` the offset after it wins
    /// (`(v + is) % num_vcs`).
    pub in_port: Vec<u8>,
    pub off_after: Vec<u8>,
    /// The allocators' scratch (zero between calls) and the matches of a router.
    pub by_out: [u64; 64],
    pub grants: [u64; 64],
    pub wins: Vec<(u8, u8)>,
}

impl Default for Xbar {
    fn default() -> Xbar {
        Xbar {
            on: false,
            is: 1,
            os: 1,
            internal: 1.0,
            partial: 0.0,
            several: false,
            exit_delay: 0,
            acc_cycle: 0,
            step: 0,
            last_step: true,
            queued: false,
            out_cap: -1,
            hold: false,
            plain: false,
            skip_idle: false,
            idle_test: false,
            idle_fresh: 0,
            in_off: Vec::new(),
            in_ptr: Vec::new(),
            out_ptr: Vec::new(),
            hold_vc: Vec::new(),
            hold_out: Vec::new(),
            held_in: Vec::new(),
            held_out: Vec::new(),
            outq: PortQueues::new(0),
            out_busy: Vec::new(),
            direct: false,
            links: Vec::new(),
            reach: 0,
            departing: Vec::new(),
            eject: Vec::new(),
            cred: Vec::new(),
            cred_direct: false,
            cred_touched: Vec::new(),
            credq: PortQueues::new(0),
            cred_busy: Vec::new(),
            req: [0; 64],
            req_vc: Vec::new(),
            split: Vec::new(),
            out_lane: Vec::new(),
            in_port: Vec::new(),
            off_after: Vec::new(),
            by_out: [0; 64],
            grants: [0; 64],
            wins: Vec::with_capacity(64),
        }
    }
}

impl Xbar {
    /// The crossbar of a network of `ports` global ports and routers of at most
    /// `max_ports` ports, `routers` routers; off (the default) without a speedup or held
    /// connections.
    pub fn new(cfg: &FlitConfig, ports: usize, max_ports: usize, routers: usize) -> Xbar {
        let (is, os, nv) = (cfg.input_speedup, cfg.output_speedup, cfg.num_vcs);
        let on = is > 1 || os > 1 || cfg.internal_speedup != 1.0 || cfg.hold_switch_for_packet;
        if !on {
            return Xbar::default();
        }
        let queued = os > 1 || cfg.internal_speedup != 1.0;
        let several_steps = cfg.internal_speedup != 1.0;
        Xbar {
            on,
            is,
            os,
            internal: cfg.internal_speedup,
            several: several_steps,
            // Wrapping: the delay is -1 when sw_alloc_delay is 0 (added to the cycle).
            exit_delay: (cfg.sw_alloc_delay as u64 + (cfg.st_final_delay as u64).max(1))
                .wrapping_sub(2),
            queued,
            direct: queued && cfg.output_buffer_size < 0,
            out_cap: cfg.output_buffer_size,
            hold: cfg.hold_switch_for_packet,
            plain: is == 1 && os == 1,
            skip_idle: true,
            idle_test: false,
            idle_fresh: 0,
            in_off: (0..ports * is).map(|x| (x % is) as u8).collect(),
            in_ptr: vec![0; ports * is],
            out_ptr: vec![0; ports * os],
            hold_vc: vec![FREE; ports * is],
            hold_out: vec![0; ports * is],
            held_in: vec![0; routers],
            held_out: vec![0; routers],
            outq: PortQueues::new(if queued { ports } else { 0 }),
            cred_direct: several_steps,
            cred: if several_steps {
                vec![CredPort::default(); ports]
            } else {
                Vec::new()
            },
            credq: PortQueues::new(if several_steps { ports } else { 0 }),
            req_vc: vec![0; (max_ports * is) * (max_ports * os)],
            split: (0..max_ports * nv)
                .map(|b| {
                    let (i, v) = (b / nv, b % nv);
                    (i as u8, v as u8, (i * is + v % is) as u8)
                })
                .collect(),
            out_lane: (0..max_ports).map(|i| (i % os) as u8).collect(),
            in_port: (0..max_ports * is).map(|xi| (xi / is) as u8).collect(),
            off_after: (0..nv).map(|v| ((v + is) % nv) as u8).collect(),
            ..Xbar::default()
        }
    }

    /// Whether the output buffer of global port `go` is full for the switch (only a
    /// bounded one can be).
    #[inline(always)]
    pub fn out_full(&self, go: usize) -> bool {
        self.out_bounded() && self.bounded_out_full(go)
    }

    /// Whether output buffers have a bound (`output_buffer_size`, with flits queueing).
    #[inline(always)]
    pub fn out_bounded(&self) -> bool {
        self.out_cap >= 0 && self.queued
    }

    /// [`Xbar::out_full`] of a bounded output buffer (BookSim counts a flit in it from the
    /// step after its traversal).
    #[inline]
    fn bounded_out_full(&self, go: usize) -> bool {
        out_buffer_full(&self.outq, self.step, self.out_cap, go)
    }

    /// Whether the plain-port path (one crossbar input and output per port) runs.
    #[inline(always)]
    pub fn plain_ports(&self) -> bool {
        self.plain && self.is == 1 && self.os == 1
    }

    /// Whether the crossbar serves `hold_switch_for_packet` alone (no speedup). When every
    /// packet is one flit it holds nothing (each flit is its packet's tail) and the plain
    /// router stages give the same results (xbar_tests.rs compares them), so runs of such
    /// traffic leave the crossbar (`Sim::new`).
    pub fn hold_only(&self) -> bool {
        self.on && self.hold && self.plain_ports() && !self.several && !self.queued
    }

    /// Switch steps in the next cycle: BookSim's `Router::Evaluate` adds the internal
    /// speedup to the accumulator and runs a step while it is at least 1.
    pub fn steps_next_cycle(&mut self) -> u32 {
        self.partial += self.internal;
        let mut n = 0;
        while self.partial >= 1.0 {
            self.partial -= 1.0;
            n += 1;
        }
        self.acc_cycle += 1;
        n
    }
}

/// Whether bounded output buffer `go` of `cap` flits is full at switch step `step` (BookSim
/// counts a flit in it from the step after its traversal).
#[inline(never)]
pub fn out_buffer_full(outq: &PortQueues<Queued>, step: u64, cap: i64, go: usize) -> bool {
    let now = step as u32;
    let recent = outq.count_back_while(go, |f| f.step + 1 >= now);
    (outq.len(go) - recent) as i64 >= cap
}

/// Entries of a port's queue kept in the flat array (a power of two); the rest wait in the
/// port's overflow deque.
const RING: usize = 4;

/// One FIFO queue per global port (output buffers, credit queues): each queue's first
/// [`RING`] entries sit in one flat array, so a push or pop touches one slot found by
/// index, not a deque header and then its own heap block (two cache misses a flit on
/// networks of thousands of ports). Longer queues, rare, continue in a per-port deque,
/// whose entries all come after the ring's.
pub struct PortQueues<T: Copy + Default> {
    slots: Vec<T>,
    /// Per port: the ring's first slot and its entries.
    head: Vec<u8>,
    len: Vec<u8>,
    overflow: Vec<VecDeque<T>>,
}

impl<T: Copy + Default> PortQueues<T> {
    pub fn new(ports: usize) -> PortQueues<T> {
        PortQueues {
            slots: vec![T::default(); ports * RING],
            head: vec![0; ports],
            len: vec![0; ports],
            overflow: (0..ports).map(|_| VecDeque::new()).collect(),
        }
    }

    #[inline]
    pub fn is_empty(&self, p: usize) -> bool {
        self.len[p] == 0
    }

    /// Entries queued at port `p`.
    #[inline]
    pub fn len(&self, p: usize) -> usize {
        let n = self.len[p] as usize;
        if n < RING {
            n
        } else {
            n + self.overflow[p].len()
        }
    }

    #[inline]
    pub fn push_back(&mut self, p: usize, x: T) {
        let n = self.len[p] as usize;
        if n < RING {
            let at = (self.head[p] as usize + n) & (RING - 1);
            self.slots[p * RING + at] = x;
            self.len[p] += 1;
        } else {
            self.overflow[p].push_back(x);
        }
    }

    #[inline]
    pub fn front(&self, p: usize) -> Option<T> {
        (self.len[p] != 0).then(|| self.slots[p * RING + self.head[p] as usize])
    }

    #[inline]
    pub fn pop_front(&mut self, p: usize) -> Option<T> {
        let x = self.front(p)?;
        let n = self.len[p] as usize;
        if n == RING {
            if let Some(y) = self.overflow[p].pop_front() {
                // The overflow's first entry takes the freed slot, at the ring's end.
                self.slots[p * RING + self.head[p] as usize] = y;
                self.head[p] = ((self.head[p] as usize + 1) & (RING - 1)) as u8;
                return Some(x);
            }
        }
        self.head[p] = ((self.head[p] as usize + 1) & (RING - 1)) as u8;
        self.len[p] -= 1;
        Some(x)
    }

    /// The entries of port `p` from the back, while `keep` holds: how many.
    pub fn count_back_while(&self, p: usize, keep: impl Fn(&T) -> bool) -> usize {
        let over = if self.len[p] as usize == RING {
            &self.overflow[p]
        } else {
            &VecDeque::new()
        };
        let mut n = 0;
        for x in over.iter().rev() {
            if !keep(x) {
                return n;
            }
            n += 1;
        }
        let (h, len) = (self.head[p] as usize, self.len[p] as usize);
        for k in (0..len).rev() {
            if !keep(&self.slots[p * RING + ((h + k) & (RING - 1))]) {
                return n;
            }
            n += 1;
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::{PortQueues, RING};
    use rand::{Rng, SeedableRng};
    use std::collections::VecDeque;

    /// The flat rings with their overflow behave as one deque per port, across random
    /// pushes and pops that fill queues well past the ring (the overflow path).
    #[test]
    fn port_queues_are_fifo_queues_past_the_ring() {
        let ports = 5;
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut q = PortQueues::<u64>::new(ports);
        let mut want: Vec<VecDeque<u64>> = vec![VecDeque::new(); ports];
        let mut longest = 0;
        for step in 0..20_000u64 {
            let p = rng.random_range(0..ports);
            // Phases that grow and drain, so queues reach several times the ring.
            let push = rng.random_bool(if (step / 500) % 2 == 0 { 0.7 } else { 0.3 });
            if push {
                q.push_back(p, step);
                want[p].push_back(step);
            } else {
                assert_eq!(q.pop_front(p), want[p].pop_front(), "pop at step {step}");
            }
            assert_eq!(q.len(p), want[p].len());
            assert_eq!(q.is_empty(p), want[p].is_empty());
            assert_eq!(q.front(p), want[p].front().copied());
            let cut = rng.random_range(0..=step);
            let tail = want[p].iter().rev().take_while(|&&x| x >= cut).count();
            assert_eq!(q.count_back_while(p, |&x| x >= cut), tail);
            longest = longest.max(want[p].len());
        }
        assert!(longest > 4 * RING, "the overflow path ran ({longest})");
    }
}
