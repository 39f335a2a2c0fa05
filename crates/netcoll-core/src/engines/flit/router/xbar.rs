//! BookSim's crossbar (iq_router.cpp) for runs with a speedup or held switch connections:
//!
//! * `input_speedup` I: input port `i`'s VCs are interleaved over I crossbar inputs (VC `v`
//!   on input `i * I + v % I`), so a port may send up to I flits a cycle; each crossbar
//!   input carries, per output, the request of its VC nearest its offset
//!   (`_sw_rr_offset`, which starts at `k % I` and moves to `v + I` past a winner);
//! * `output_speedup` O: output port `o` has O crossbar outputs, input port `i` reaching
//!   output `o * O + i % O`, so up to O flits a cycle enter one output;
//! * `internal_speedup` S: the router's stages run `floor`-accumulated S steps a cycle
//!   (BookSim's `_partial_internal_cycles`), each step one pass of routing, VC allocation,
//!   switch allocation and traversal, a stage of one cycle ending in the step it starts and
//!   the next stage starting at the next step; flits reach the output buffer one step after
//!   their switch allocation (in the same cycle unless it was the cycle's last step), and
//!   the freed slots' credits of one step travel together;
//! * output buffers: with O > 1 or S != 1, flits wait in a FIFO per output port, one leaving
//!   per cycle (`_SendFlits`); `output_buffer_size` stops the switch granting a full
//!   buffer. With S != 1, an input port sends one credit message (the VCs one step freed)
//!   a cycle (`_SendCredits`), later ones queueing;
//! * `hold_switch_for_packet`: a VC that wins the switch for a flit that is not its
//!   packet's tail keeps the connection (its crossbar input and output) and sends a flit
//!   every step without allocation, until its tail leaves, its buffer runs dry or its
//!   output VC has no credit (then it bids again from the next step).
//!
//! The allocators run over crossbar ports (xbar_match.rs): `islip` and
//! `separable_input_first`. Without any of these keys a run never comes here.
//! One deviation, documented in docs/flit.md: flits entering one output buffer in the same
//! step (output speedup only) queue in crossbar input order, where BookSim queues them in
//! the order of its switch allocator's VC list.

use super::allocator::next;
use super::class_types::Priority;
use super::config::{Pattern, SwAllocator};
use super::network::{Network, ACTIVE, IDLE};
use super::router::advance_front;
use super::types::Vc;
use super::wiring::DOWN_EJECT;
use super::xbar_match::{islip, match_disjoint, separable_input_first};
use super::xbar_state::{out_buffer_full, Xbar, FREE};
use crate::error::Result;
use crate::spec_err;

impl Network<'_> {
    /// Refuses what the crossbar model cannot run: more than 64 crossbar ports a side, an
    /// allocator it does not implement, worms; marks the ejection ports (`Xbar::eject`).
    /// Called once the network is built.
    pub(super) fn check_xbar(&mut self, max_ports: usize) -> Result<()> {
        if !self.xb.on {
            return Ok(());
        }
        self.xb.eject = vec![0; self.down.len().div_ceil(64)];
        for (go, d) in self.down.iter().enumerate() {
            if d.ivc != u32::MAX && d.ivc & DOWN_EJECT != 0 {
                self.xb.eject[go / 64] |= 1 << (go % 64);
            }
        }
        let (is, os) = (self.xb.is, self.xb.os);
        if max_ports * is > 64 || max_ports * os > 64 {
            return spec_err!(
                "input_speedup = {is}, output_speedup = {os} on routers of {max_ports} ports: \
                 at most 64 crossbar inputs and outputs per router; lower the speedup"
            );
        }
        if self.cfg.traffic == Pattern::Multicast {
            return spec_err!(
                "traffic = multicast with a speedup or hold_switch_for_packet: replicating \
                 worms are allocated by the input-first switch without the crossbar model"
            );
        }
        if self.prio != Priority::None {
            return spec_err!(
                "priority = {:?} with a speedup or hold_switch_for_packet: the crossbar model \
                 allocates without packet priorities; use priority = none there",
                self.prio
            );
        }
        self.set_up_out_links();
        match self.cfg.sw_allocator {
            SwAllocator::Islip => Ok(()),
            SwAllocator::SeparableInputFirst if self.cfg.sw_iters() == 1 => Ok(()),
            #[allow(unreachable_patterns)]
            _ => spec_err!(
                "sw_allocator = {:?} with a speedup or hold_switch_for_packet: the crossbar \
                 model allocates with islip (any alloc_iters) or separable_input_first (one \
                 iteration)",
                self.cfg.sw_allocator
            ),
        }
    }

    /// One cycle of the routers on the crossbar path: the cycle's switch steps (the
    /// routers' clock counts steps when the internal speedup is not 1), then the output
    /// buffers and credit queues send what leaves this cycle.
    pub(super) fn xbar_routers(&mut self) {
        let cycle = self.now;
        while self.xb.acc_cycle < cycle {
            // Cycles skipped while the network was idle still advance the accumulator.
            self.xb.steps_next_cycle();
        }
        let steps = self.xb.steps_next_cycle();
        let several = self.xb.several;
        // The idle routers' test (`switch_idle`): routers of one mask word, with an internal
        // speedup (then a step's VC grants bid from the next step, and a quarter of the
        // dragonfly runfile's routers find nothing to bid; held connections without it
        // rarely do, and the test would cost more than it saves: fattree_config +1%); the
        // VCs the plain path skips as just granted.
        self.xb.idle_test = self.xb.skip_idle && several && self.wpr == 1;
        self.xb.idle_fresh = if self.xb.plain_ports() && self.va.fresh_apply() {
            !0
        } else {
            0
        };
        for s in 0..steps {
            self.xb.last_step = s + 1 == steps;
            if several {
                self.now = self.xb.step;
            }
            self.general_routers();
            self.now = cycle;
            if several {
                self.queue_step_credits();
            }
            self.xb.step += 1;
        }
        if self.xb.queued {
            self.send_output_buffers();
        }
        if several {
            self.send_credit_queues();
        }
    }

    /// Held connections, then switch allocation over the crossbar ports, at router `r`.
    /// Takes the marks of the VCs granted in this step's VC allocation (`VaState::fresh`):
    /// the plain-port path skips them where they cannot bid yet, the general path clears
    /// them. A router with nothing to send skips the call (`switch_idle`).
    #[inline(always)]
    pub(super) fn xbar_switch(&mut self, r: usize) {
        if !(self.xb.idle_test && self.switch_idle(r)) {
            self.xbar_switch_busy(r);
        }
    }

    /// Whether router `r`'s switch has nothing to do this step: no held connection and no
    /// VC holding an output VC that may bid (on the plain-port path, not one granted in
    /// this step's VC allocation where it bids from a later step: `Xbar::idle_fresh`);
    /// then it takes the marks of `VaState::fresh`, as the switch would. Routers of one
    /// mask word only (`Xbar::idle_test`). A quarter of the dragonfly runfile's calls (their
    /// VCs wait for VC allocation or were just granted): these skip the switch's call and
    /// set-up (about 160 instructions).
    #[inline(always)]
    fn switch_idle(&mut self, r: usize) -> bool {
        let bids = self.va.holding[r] & !(self.va.fresh[0] & self.xb.idle_fresh);
        if bids | self.xb.held_in[r] != 0 {
            return false;
        }
        self.va.fresh[0] = 0;
        true
    }

    /// [`Network::xbar_switch`] of a router with something to send, or with the skip off.
    #[inline(never)]
    fn xbar_switch_busy(&mut self, r: usize) {
        let (hin, hout) = (self.xb.held_in[r], self.xb.held_out[r]);
        if hin != 0 {
            self.send_held(r, hin);
        }
        let plain = self.xb.plain_ports();
        let (any, clash) = if plain {
            self.plain_requests(r, hin, hout)
        } else {
            self.va.clear_fresh();
            (self.xbar_requests(r, hin, hout), !0)
        };
        if any == 0 {
            return;
        }
        if clash == 0 {
            // No two requests share an input or an output: every allocator grants them all.
            return self.cross_disjoint(r, any);
        }
        let p0 = self.pstart[r] as usize;
        let np = self.pstart[r + 1] as usize - p0;
        let (is, os) = (self.xb.is, self.xb.os);
        let (n_in, n_out) = (np * is, np * os);
        let mut wins = std::mem::take(&mut self.xb.wins);
        wins.clear();
        let xb = &mut *self.xb;
        let (ins, outs) = (p0 * is..(p0 + np) * is, p0 * os..(p0 + np) * os);
        let req = &xb.req[..n_in];
        let (in_ptr, out_ptr) = (&mut xb.in_ptr[ins], &mut xb.out_ptr[outs]);
        let mut record = |i: usize, o: usize| wins.push((i as u8, o as u8));
        let ports = (any, n_in, n_out);
        match self.cfg.sw_allocator {
            // (Without conflicts it grants every request, as `match_disjoint` would.)
            SwAllocator::SeparableInputFirst => {
                separable_input_first(req, ports, in_ptr, out_ptr, &mut xb.by_out, &mut record)
            }
            // Without conflicts every allocator grants every request.
            _ if match_disjoint(req, ports, in_ptr, out_ptr, &mut record) => {}
            _ => {
                let scratch = (&mut xb.by_out, &mut xb.grants);
                let iters = self.cfg.sw_iters() as usize;
                islip(req, ports, out_ptr, in_ptr, iters, scratch, &mut record)
            }
        }
        let mut bits = any;
        while bits != 0 {
            let xi = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            self.xb.req[xi] = 0;
        }
        for &(xi, xo) in &wins {
            let (xi, xo) = (xi as usize, xo as usize);
            let v = self.xb.req_vc[xi * n_out + xo] as usize;
            self.xb.in_off[p0 * is + xi] = self.xb.off_after[v];
            let gi = p0
                + if plain {
                    xi
                } else {
                    self.xb.in_port[xi] as usize
                };
            let (tail, left) = self.cross(r, gi, v);
            if self.xb.hold && !tail && left > 0 {
                self.hold_connection(r, p0 * is + xi, v, xi, xo);
            }
        }
        self.xb.wins = wins;
    }

    /// The plain-port switch of router `r` when its requests (local inputs `any`) share no
    /// input and no output (`plain_requests`' clash mask is 0): every request is granted,
    /// as every allocator would (`match_disjoint`'s pointer moves), and crosses at once, in
    /// input order, without the allocator's match list.
    fn cross_disjoint(&mut self, r: usize, any: u64) {
        let p0 = self.pstart[r] as usize;
        let np = self.pstart[r + 1] as usize - p0;
        let mut bits = any;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let xb = &mut *self.xb;
            let o = xb.req[i].trailing_zeros() as usize;
            xb.req[i] = 0;
            xb.out_ptr[p0 + o] = next(i, np) as u16;
            xb.in_ptr[p0 + i] = next(o, np) as u16;
            let v = xb.req_vc[i * np + o] as usize;
            xb.in_off[p0 + i] = xb.off_after[v];
            let (tail, left) = self.cross(r, p0 + i, v);
            if self.xb.hold && !tail && left > 0 {
                self.hold_connection(r, p0 + i, v, i, o);
            }
        }
    }

    /// Crossbar input `xi` (local; global `gxi`) of router `r` keeps its connection to local
    /// output `xo` for VC `v` (`hold_switch_for_packet`).
    #[inline(always)]
    fn hold_connection(&mut self, r: usize, gxi: usize, v: usize, xi: usize, xo: usize) {
        self.xb.hold_vc[gxi] = v as u8;
        self.xb.hold_out[gxi] = xo as u8;
        self.xb.held_in[r] |= 1 << xi;
        self.xb.held_out[r] |= 1 << xo;
    }

    /// The switch requests of router `r` into `xb.req` / `xb.req_vc`: every VC holding an
    /// output VC whose front flit is ready, with a credit and room in its output buffer, off
    /// the held crossbar ports `hin` / `hout`; per (crossbar input, output) the VC nearest
    /// the input's offset. Returns the requesting local crossbar inputs. (The network's
    /// arrays are borrowed apart, so that the loop keeps them in registers.)
    #[inline(always)]
    fn xbar_requests(&mut self, r: usize, hin: u64, hout: u64) -> u64 {
        let p0 = self.pstart[r] as usize;
        let np = self.pstart[r + 1] as usize - p0;
        let nv = self.nv;
        let xb = &mut *self.xb;
        let (is, os) = (xb.is, xb.os);
        debug_assert!(xb.split.len() >= np * nv);
        let n_out = np * os;
        let now = self.now;
        let vcs = &self.vcs[p0 * nv..(p0 + np) * nv];
        let credits = &self.credits[..];
        let holding = &self.va.holding[r * self.wpr..(r + 1) * self.wpr];
        let in_off = &xb.in_off[p0 * is..(p0 + np) * is];
        let mut any = 0u64;
        for (w, &word) in holding.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let b = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let Some(go) = switch_bid(&vcs[b], credits, nv, now) else {
                    continue;
                };
                if xb.out_full(go) {
                    continue;
                }
                // Port, VC and crossbar input of local VC `b` by table (no divisions).
                let (i, v, xi) = xb.split[b];
                let (i, v, xi) = (i as usize, v as usize, xi as usize);
                let xo = (go - p0) * os + xb.out_lane[i] as usize;
                if (hin >> xi | hout >> xo) & 1 != 0 {
                    continue;
                }
                if offer(&mut xb.req, &mut xb.req_vc, (xi, xo, n_out), v, in_off, nv) {
                    any |= 1 << xi;
                }
            }
        }
        any
    }

    /// [`Network::xbar_requests`] when every port has one crossbar input and output
    /// (`Xbar::plain_ports`): crossbar input and output are the local ports, so no lane
    /// tables are read, and the held ports are looked at only when some are held. The VCs
    /// granted in this step's VC allocation are skipped where they bid from a later step
    /// (`VaState::fresh_apply`) and their marks taken. Returns the requesting local inputs
    /// and a clash mask, zero when no two requests share an input or an output.
    #[inline(always)]
    fn plain_requests(&mut self, r: usize, hin: u64, hout: u64) -> (u64, u64) {
        let p0 = self.pstart[r] as usize;
        let np = self.pstart[r + 1] as usize - p0;
        let nv = self.nv;
        let xb = &mut *self.xb;
        let now = self.now;
        let vcs = &self.vcs[p0 * nv..(p0 + np) * nv];
        let credits = &self.credits[..];
        let holding = &self.va.holding[r * self.wpr..(r + 1) * self.wpr];
        let apply = self.va.fresh_apply();
        let fresh = &mut self.va.fresh[..self.wpr];
        let bounded = xb.out_bounded();
        let in_off = &xb.in_off[p0..p0 + np];
        let split = &xb.split[..np * nv];
        let req_vc = &mut xb.req_vc[..np * np];
        let req = &mut xb.req;
        let (outq, step, cap) = (&xb.outq, xb.step, xb.out_cap);
        let held = hin | hout != 0;
        let (mut any, mut outs, mut clash) = (0u64, 0u64, 0u64);
        for (w, (&word, f)) in holding.iter().zip(fresh.iter_mut()).enumerate() {
            let skip = std::mem::take(f);
            let mut bits = if apply { word & !skip } else { word };
            while bits != 0 {
                let b = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let Some(go) = switch_bid(&vcs[b], credits, nv, now) else {
                    continue;
                };
                if bounded && out_buffer_full(outq, step, cap, go) {
                    continue;
                }
                // Local port (at most 64: `check_xbar`) and VC of local VC `b`.
                let (i, v, _) = split[b];
                let (i, v) = (i as usize & 63, v as usize);
                let o = (go - p0) & 63;
                if held && (hin >> i | hout >> o) & 1 != 0 {
                    continue;
                }
                // A new pair clashes when its input asks for another output already or its
                // output is asked for by another input.
                let (had, bit) = (req[i], 1u64 << o);
                if offer(req, req_vc, (i, o, np), v, in_off, nv) {
                    if had & bit == 0 {
                        clash |= had | outs & bit;
                    }
                    outs |= bit;
                    any |= 1 << i;
                }
            }
        }
        (any, clash)
    }

    /// The held connections `hin` (local crossbar inputs) of router `r` send their next
    /// flit, or are released (buffer dry, tail gone, no credit).
    fn send_held(&mut self, r: usize, mut hin: u64) {
        let p0 = self.pstart[r] as usize;
        let (is, nv) = (self.xb.is, self.nv);
        while hin != 0 {
            let xi = hin.trailing_zeros() as usize;
            hin &= hin - 1;
            let gxi = p0 * is + xi;
            let v = self.xb.hold_vc[gxi] as usize;
            let gi = p0 + xi / is;
            let x = &self.vcs[gi * nv + v];
            debug_assert!(x.state == ACTIVE && x.len > 0, "a held VC has flits");
            let go = x.out_port as usize;
            let sends = self.credits[go * nv + x.out_vc as usize] > 0 && !self.xb.out_full(go);
            let keep = sends && {
                let (tail, left) = self.cross(r, gi, v);
                !tail && left > 0
            };
            if !keep {
                let xo = self.xb.hold_out[gxi] as usize;
                self.xb.hold_vc[gxi] = FREE;
                self.xb.held_in[r] &= !(1 << xi);
                self.xb.held_out[r] &= !(1 << xo);
            }
        }
    }

    /// The front flit of input VC `v` of global input port `gi` crosses the switch:
    /// `Network::traverse` when nothing queues, else into its output buffer with its
    /// credit (now, or with this step's credits). Returns whether it was a tail and the
    /// flits left in the VC. Inlined into the switch's grant loop (once a flit).
    #[inline(always)]
    fn cross(&mut self, r: usize, gi: usize, v: usize) -> (bool, u16) {
        let ivc = gi * self.nv + v;
        if !self.xb.queued {
            // One step a cycle, one flit per output: it leaves as without the crossbar (and
            // a tail's VC gives up its place among the switch candidates there).
            let x = &self.vcs[ivc];
            let (tail, left) = (x.front.tail, x.len - 1);
            self.traverse(r, gi, v);
            return (tail, left);
        }
        let depth = self.depth;
        let at = self.port_at[gi];
        let bit = at.bit as usize + v;
        let x = &mut self.vcs[ivc];
        let (go, ov, flit) = (x.out_port as usize, x.out_vc, x.front);
        let tail = flit.tail;
        let left = advance_front(x, &self.ring, ivc * depth, depth);
        if tail {
            x.state = IDLE;
            // Its VC gives up its place among the switch candidates (its bit cleared
            // directly: `bit` is its place in the router's masks).
            self.va.holding[bit / 64] &= !(1 << (bit % 64));
        }
        if left == 0 {
            self.vacate(r, bit);
        }
        if self.xb.several {
            self.step_credit(gi, v);
        } else {
            self.sent.reserve_hop();
            self.return_credit(gi, v as u8);
        }
        self.enqueue(go, ov, flit);
        if tail {
            self.tail_left(go, ov as usize);
            if left > 0 {
                self.set_waiting_bit(bit);
            }
        }
        (tail, left)
    }

    /// The cycle running (the routers' clock counts steps while they run with an internal
    /// speedup).
    pub(super) fn now_cycle(&self) -> u64 {
        self.xb.acc_cycle - 1
    }

    /// Serves each port of the crossbar's busy list `busy` (`Xbar::out_busy` or
    /// `Xbar::cred_busy`) in order (`serve`: whether the port stays busy) and keeps the
    /// ones that do, as `retain` would. (Their queue fronts are not prefetched: with the
    /// direct paths, xbar_out.rs and xbar_credits.rs, few ports queue.)
    #[inline(always)]
    pub(super) fn serve_ports(
        &mut self,
        busy: fn(&mut Xbar) -> &mut Vec<u32>,
        mut serve: impl FnMut(&mut Self, usize) -> bool,
    ) {
        let mut list = std::mem::take(busy(&mut self.xb));
        let mut kept = 0;
        for k in 0..list.len() {
            let port = list[k];
            if serve(self, port as usize) {
                list[kept] = port;
                kept += 1;
            }
        }
        list.truncate(kept);
        *busy(&mut self.xb) = list;
    }
}

/// Records VC `v`'s request of crossbar input `xi` for output `xo` (of `n_out`) in `req` /
/// `req_vc`, unless a VC nearer the input's offset (`in_off[xi]`) asked first: one request
/// per (input, output). Returns whether it did.
#[inline(always)]
fn offer(
    req: &mut [u64; 64],
    req_vc: &mut [u8],
    (xi, xo, n_out): (usize, usize, usize),
    v: usize,
    in_off: &[u8],
    nv: usize,
) -> bool {
    let slot = xi * n_out + xo;
    if req[xi] >> xo & 1 != 0 {
        let off = in_off[xi] as usize;
        let old = req_vc[slot] as usize;
        let dist = |u: usize| if u >= off { u - off } else { u + nv - off };
        if dist(v) >= dist(old) {
            return false;
        }
    }
    req[xi] |= 1 << xo;
    req_vc[slot] = v as u8;
    true
}

/// The output port VC `x` bids for in the crossbar's switch requests, if it may bid: it
/// holds an output VC, its front flit is ready by `now`, and that output VC has a credit
/// (both request loops: `xbar_requests`, `plain_requests`).
#[inline(always)]
fn switch_bid(x: &Vc, credits: &[u16], nv: usize, now: u64) -> Option<usize> {
    if x.state != ACTIVE || x.len == 0 || !x.ready_by(now) {
        return None;
    }
    let go = x.out_port as usize;
    (credits[go * nv + x.out_vc as usize] != 0).then_some(go)
}

#[cfg(test)]
#[path = "xbar_tests.rs"]
mod tests;
