//! The input-queued virtual-channel router. Per cycle and per active router:
//!
//! 1. routing (RC): an idle input VC with a head flit at its front is routed; it may bid for
//!    an output VC `routing_delay` cycles later;
//! 2. VC allocation (VA): a routed head takes a free output VC of its class on its output
//!    port (round-robin over input VCs and over output VCs); under virtual cut-through only
//!    if the downstream buffer holds the whole packet. Its flits bid for the switch
//!    `vc_alloc_delay` cycles later (the same cycle when speculative);
//! 3. switch allocation (SA), separable input-first: each input port picks one of its ready
//!    VCs with a credit (round-robin), each output port grants one requesting input port
//!    (round-robin); pointers move only on grants (iSLIP, one iteration);
//! 4. switch and link traversal: a granted flit leaves its buffer now and reaches the next
//!    input buffer `sw_alloc_delay + st_final_delay + channel_latency` cycles later; the
//!    freed slot's credit reaches the upstream router `credit_delay + channel_latency` later.

use super::allocator::round_robin;
use super::channel::Event;
use super::network::{In, Network, Out, ACTIVE, IDLE, NONE, VC_WAIT};
use super::replicate::REPL;

impl Network<'_> {
    /// Runs every active router; routers left without flits leave the active set.
    pub(super) fn routers(&mut self) {
        let mut list = std::mem::take(&mut self.active);
        list.retain(|&r| {
            self.router(r as usize);
            let keep = self.router_flits[r as usize] > 0;
            self.in_active[r as usize] = keep;
            keep
        });
        self.active = list;
    }

    fn router(&mut self, r: usize) {
        self.route_and_allocate_vcs(r);
        self.allocate_switch(r);
    }

    /// Visits the input VCs needing RC or VA (a bit set per router), round-robin from the
    /// VC after the last one granted.
    fn route_and_allocate_vcs(&mut self, r: usize) {
        if self.router_waiting[r] == 0 {
            return;
        }
        let nv = self.nv;
        let p0 = self.pstart[r] as usize;
        let n_ivc = (self.pstart[r + 1] as usize - p0) * nv;
        let start = self.router_rr[r] as usize;
        for pass in 0..2 {
            for w in 0..self.wpr {
                let lo = w * 64;
                let from_start = if start <= lo {
                    !0u64
                } else if start >= lo + 64 {
                    0
                } else {
                    !0u64 << (start - lo)
                };
                let mut bits = self.wait_bits[r * self.wpr + w]
                    & if pass == 0 { from_start } else { !from_start };
                while bits != 0 {
                    let local = lo + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let ivc = p0 * nv + local;
                    if self.state[ivc] == IDLE {
                        self.route(ivc, r);
                    }
                    if self.ready[ivc] <= self.now && self.allocate_vc(ivc) {
                        self.router_rr[r] = ((local + 1) % n_ivc) as u16;
                    }
                }
            }
        }
    }

    /// Routing computation for the head flit at the front of `ivc` at router `r`.
    fn route(&mut self, ivc: usize, r: usize) {
        let f = self.front(ivc);
        debug_assert!(f.head, "an idle VC must have a head flit at its front");
        let pkt = self.packets[f.pkt as usize];
        if pkt.worm != NONE {
            return self.start_replication(ivc, f.pkt);
        }
        let dst_sw = self.topo.endpoint_switch(pkt.dst as usize);
        if r == dst_sw {
            self.out_port[ivc] = self.ep_port[pkt.dst as usize];
            self.class[ivc] = u8::MAX; // ejection: any VC
        } else {
            let step = self
                .routing
                .next(self.topo, r, dst_sw, pkt.rstate)
                .expect("not at the destination");
            self.out_port[ivc] = self.pstart[r] + step.via.port;
            self.class[ivc] = self.hop_class(pkt.vclass, step.vc_class);
            self.packets[f.pkt as usize].rstate = step.state;
        }
        self.state[ivc] = VC_WAIT;
        self.ready[ivc] = self.now + self.cfg.routing_delay as u64;
    }

    /// VC range a routed input VC may take on its output port.
    pub(super) fn vc_range(&self, ivc: usize) -> (usize, usize) {
        match self.class[ivc] {
            u8::MAX => (0, self.nv),
            c => (
                self.class_lo[c as usize] as usize,
                self.class_hi[c as usize] as usize,
            ),
        }
    }

    fn allocate_vc(&mut self, ivc: usize) -> bool {
        if self.state[ivc] == REPL {
            return self.allocate_branches(ivc);
        }
        let go = self.out_port[ivc] as usize;
        let (lo, hi) = self.vc_range(ivc);
        let need = if self.is_vct() {
            self.packets[self.front(ivc).pkt as usize].size
        } else {
            0
        };
        let base = go * self.nv;
        let pick = round_robin(self.va_rr[go] as usize, hi - lo, |k| {
            let o = base + lo + k;
            self.owner[o] == NONE && self.credits[o] >= need
        });
        let Some(k) = pick else {
            return false;
        };
        self.owner[base + lo + k] = ivc as u32;
        self.va_rr[go] = ((k + 1) % (hi - lo)) as u8;
        self.out_vc[ivc] = (lo + k) as u8;
        self.state[ivc] = ACTIVE;
        self.set_waiting(self.port_router[ivc / self.nv] as usize, ivc, false);
        self.ready[ivc] = if self.cfg.speculative {
            self.now
        } else {
            self.now + self.cfg.vc_alloc_delay as u64
        };
        true
    }

    fn allocate_switch(&mut self, r: usize) {
        let nv = self.nv;
        let p0 = self.pstart[r] as usize;
        let nports = self.pstart[r + 1] as usize - p0;
        let mut outs = 0u64;
        for i in 0..nports {
            let gi = p0 + i;
            if self.port_occ[gi] == 0 {
                continue;
            }
            let base = gi * nv;
            let pick = round_robin(self.in_rr[gi] as usize, nv, |v| {
                let ivc = base + v;
                if self.state[ivc] == REPL {
                    return self.replicating_ready(ivc);
                }
                self.len[ivc] > 0
                    && self.state[ivc] == ACTIVE
                    && self.ready[ivc] <= self.now
                    && self.credits[self.out_port[ivc] as usize * nv + self.out_vc[ivc] as usize]
                        > 0
            });
            if let Some(v) = pick {
                self.req_vc[i] = v as u8;
                let mut want = if self.state[base + v] == REPL {
                    // A replicating worm bids on every output a branch can use.
                    self.replicating_requests(base + v, p0)
                } else {
                    1 << (self.out_port[base + v] as usize - p0)
                };
                outs |= want;
                while want != 0 {
                    let o = want.trailing_zeros() as usize;
                    want &= want - 1;
                    self.out_req[o] |= 1 << i;
                }
            }
        }
        while outs != 0 {
            let o = outs.trailing_zeros() as usize;
            outs &= outs - 1;
            let go = p0 + o;
            let reqs = std::mem::take(&mut self.out_req[o]);
            let i = rotate_pick(reqs, self.out_rr[go] as usize);
            let v = self.req_vc[i] as usize;
            self.in_rr[p0 + i] = ((v + 1) % nv) as u8;
            self.out_rr[go] = ((i + 1) % nports) as u16;
            if self.state[(p0 + i) * nv + v] == REPL {
                self.traverse_branch(r, (p0 + i) * nv + v, go);
            } else {
                self.traverse(r, p0 + i, v);
            }
        }
    }

    /// A granted flit leaves input VC `v` of global input port `gi`.
    fn traverse(&mut self, r: usize, gi: usize, v: usize) {
        let nv = self.nv;
        let ivc = gi * nv + v;
        let go = self.out_port[ivc] as usize;
        let ov = self.out_vc[ivc];
        let flit = self.pop(ivc);
        self.router_flits[r] -= 1;
        self.last_move = self.now;
        let c = &self.cfg;
        let now = self.now;
        match self.in_from[gi] {
            In::Ni(ep) => {
                let at = now + (c.credit_delay + c.injection_latency) as u64;
                self.wheel.push(at, Event::NiCredit { ep, vc: v as u8 });
            }
            In::Link(gu) => {
                let at = now + (c.credit_delay + c.channel_latency) as u64;
                self.wheel.push(
                    at,
                    Event::Credit {
                        port: gu,
                        vc: v as u8,
                    },
                );
            }
            In::Open => unreachable!("flits never enter an open port"),
        }
        let st = (c.sw_alloc_delay + c.st_final_delay) as u64;
        match self.out_to[go] {
            Out::Link { input, .. } => {
                self.credits[go * nv + ov as usize] -= 1;
                self.flit_hops += 1;
                if flit.head {
                    self.packets[flit.pkt as usize].hops += 1;
                }
                let at = now + st + c.channel_latency as u64;
                self.wheel.push(
                    at,
                    Event::Flit {
                        port: input,
                        vc: ov,
                        flit,
                    },
                );
            }
            Out::Eject(ep) => {
                let at = now + st + (c.ejection_latency + c.ni_read_delay) as u64;
                self.wheel.push(at, Event::Eject { ep, flit });
            }
            Out::Open => unreachable!("routing never leaves by an open port"),
        }
        self.chan_flits[go] += 1;
        if flit.tail {
            self.owner[go * nv + ov as usize] = NONE;
            self.state[ivc] = IDLE;
            if self.len[ivc] > 0 {
                self.set_waiting(r, ivc, true);
            }
        }
    }
}

/// The first set bit of `mask` at or after `start`, wrapping (`mask` is not empty).
#[inline]
fn rotate_pick(mask: u64, start: usize) -> usize {
    let hi = if start < 64 {
        mask & (!0u64 << start)
    } else {
        0
    };
    if hi != 0 {
        hi.trailing_zeros() as usize
    } else {
        mask.trailing_zeros() as usize
    }
}
