//! The crossbar's output buffers (xbar.rs, BookSim's `_SendFlits`): with an output speedup
//! or an internal speedup, flits cross the switch into a FIFO per output port, which sends
//! one flit a cycle, at the end of the cycle, once the flit's switch traversal is over
//! (its `exit` cycle).
//!
//! A FIFO that sends one flit a cycle, its flits entering in order of their exit cycles,
//! sends flit `k` in cycle `max(exit_k, sent_{k-1} + 1)` (and not before the cycle it
//! entered): its departure is known as it enters. So, while output buffers are unbounded
//! (`output_buffer_size = -1`, the switch never asks how full one is: `Xbar::direct`), a
//! flit goes straight into the timing wheel, due where its departure and the link's delay
//! put it, and the port keeps only the cycle it can send next (`OutLink::free`, beside
//! where its flits go, in one record: one cache line a flit instead of the queue's slot,
//! written then read back, the busy list and the link's extra latency looked up by input
//! VC). A departure further ahead than the wheel reaches (a port backed up for tens of
//! cycles) waits in the queue as before, its exit its departure. The departures are counted
//! (`flit_hops`, the deadlock watch's `last_move`) in the cycle they happen, as the queue
//! counts them. Bounded buffers keep the queue: the switch asks how many flits it holds.

use super::channel::{Event, Flit, Hop};
use super::network::Network;
use super::wiring::DOWN_EJECT;
use super::xbar_state::{Departures, OutLink, Queued};

impl Network<'_> {
    /// The output ports' records ([`OutLink`]) and the departure counts, for runs whose
    /// flits queue in output buffers; called once the network is built.
    pub(super) fn set_up_out_links(&mut self) {
        if !self.xb.queued {
            return;
        }
        let (link, eject) = self.out_delays();
        let links = self.down.iter().map(|d| OutLink {
            ivc: d.ivc,
            bit: d.bit,
            delay: if d.ivc & DOWN_EJECT != 0 {
                eject as u32
            } else {
                // A channel longer than the common latency (link classes) adds its extra.
                (link + self.wheel.flit_extra(d.ivc)) as u32
            },
            free: 0,
        });
        self.xb.links = links.collect();
        self.xb.reach = self.wheel.span();
        self.xb.departing = vec![Departures::default(); self.wheel.span() as usize];
    }

    /// Cycles from a flit's exit from its output buffer to its arrival over a link and at
    /// its NI (the delays after the switch traversal).
    fn out_delays(&self) -> (u64, u64) {
        let st = self.cfg.sw_alloc_delay as u64 + (self.cfg.st_final_delay as u64).max(1) - 1;
        (self.hop.flit_link - st, self.hop.flit_eject - st)
    }

    /// `flit` enters the output buffer of global port `go`, holding output VC `ov`
    /// downstream (its credit is taken now, as BookSim's `SendingFlit`); unbounded buffers
    /// send it straight on (module comment).
    pub(super) fn enqueue(&mut self, go: usize, ov: u8, flit: Flit) {
        self.chan_flits[go] += 1;
        // Reaches the buffer at the next step: this cycle unless this is its last step,
        // then the switch's remaining delay.
        let next = u64::from(self.xb.last_step);
        let cycle = self.now_cycle();
        let mut exit = cycle.wrapping_add(self.xb.exit_delay) + next;
        if self.xb.direct {
            let link = &mut self.xb.links[go];
            // Cycles from now: the exit (never before this cycle's end), or the port's
            // next free cycle. (32-bit cycles, compared by their wrapping difference.)
            let at_exit = (exit.wrapping_sub(cycle) as i64).max(0) as u64;
            let at_free = (link.free.wrapping_sub(cycle as u32) as i32).max(0) as u64;
            let wait = at_exit.max(at_free);
            let dep = cycle + wait;
            link.free = dep.wrapping_add(1) as u32;
            let link = *link;
            self.take_credit(go, ov, link.ivc & DOWN_EJECT != 0);
            if wait + u64::from(link.delay) < self.xb.reach {
                self.depart(link, ov, flit, dep);
                return self.count_departure(link, dep, wait);
            }
            exit = dep;
        } else {
            self.take_credit(go, ov, self.xb.eject[go / 64] >> (go % 64) & 1 != 0);
        }
        let q = &mut self.xb.outq;
        if q.is_empty(go) {
            self.xb.out_busy.push(go as u32);
        }
        q.push_back(
            go,
            Queued {
                flit,
                ov,
                exit: exit as u32,
                step: self.xb.step as u32,
            },
        );
    }

    /// A flit entering the output buffer of global port `go` takes a credit of its output
    /// VC `ov` downstream, unless the port is an ejection channel (`eject`: its VCs take
    /// none).
    #[inline(always)]
    fn take_credit(&mut self, go: usize, ov: u8, eject: bool) {
        if !eject {
            self.credits[go * self.nv + ov as usize] -= 1;
        }
    }

    /// A flit of the port `link` leaves its output buffer in cycle `cycle`: over the link or
    /// down its ejection channel.
    #[inline(always)]
    fn depart(&mut self, link: OutLink, ov: u8, flit: Flit, cycle: u64) {
        let at = cycle + u64::from(link.delay);
        if link.ivc & DOWN_EJECT == 0 {
            let to = Hop {
                ivc: link.ivc + ov as u32,
                bit: link.bit + ov as u32,
                flit,
            };
            self.wheel.push_hop(at, to);
        } else {
            let mut flit = flit;
            self.mark_eject_vc(&mut flit, ov);
            let ep = link.ivc & !DOWN_EJECT;
            self.wheel.push(at, Event::Eject { ep, flit });
        }
    }

    /// Counts a departure of the port `link` in cycle `dep`, `wait` cycles from now: now,
    /// or in that cycle (`count_departures`).
    #[inline(always)]
    fn count_departure(&mut self, link: OutLink, dep: u64, wait: u64) {
        let hop = u32::from(link.ivc & DOWN_EJECT == 0);
        if wait == 0 {
            self.flit_hops += u64::from(hop);
            self.last_move = self.now;
            return;
        }
        let d = &mut self.xb.departing[(dep & (self.xb.reach - 1)) as usize];
        d.hops += hop;
        d.flits += 1;
    }

    /// The end of a cycle: the departures scheduled for it are counted, and every output
    /// buffer whose front flit may leave sends it.
    pub(super) fn send_output_buffers(&mut self) {
        let now = self.now;
        if self.xb.direct {
            let d = std::mem::take(&mut self.xb.departing[(now & (self.xb.reach - 1)) as usize]);
            self.flit_hops += u64::from(d.hops);
            if d.flits > 0 {
                self.last_move = now;
            }
            if self.xb.out_busy.is_empty() {
                return;
            }
        }
        self.serve_ports(|xb| &mut xb.out_busy, |n, go| n.send_output_front(go));
    }

    /// The front flit of output buffer `go` leaves if it is due. Returns whether flits
    /// remain.
    #[inline(always)]
    fn send_output_front(&mut self, go: usize) -> bool {
        let now = self.now;
        let q = &mut self.xb.outq;
        // Exit cycles are kept in 32 bits, compared by their wrapping difference.
        let due = |f: &Queued| (now as u32).wrapping_sub(f.exit) as i32 >= 0;
        let Some(f) = q.front(go).filter(due) else {
            return true;
        };
        q.pop_front(go);
        let left = !q.is_empty(go);
        let link = self.xb.links[go];
        self.depart(link, f.ov, f.flit, now);
        self.count_departure(link, now, 0);
        left
    }
}
