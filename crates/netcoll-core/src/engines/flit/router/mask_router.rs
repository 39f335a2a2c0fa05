//! The router's stages for the common case, on router-local bit masks: iSLIP VC allocation
//! and iSLIP switch allocation (both BookSim's defaults) or, without priorities, BookSim's
//! separable_input_first for either (mask_separable.rs), with one iteration (`alloc_iters
//! = 1`, the default; more iterations and the other allocators take the general stages,
//! router/alloc/), no multidestination worms, and
//! routers of at most 64 VCs (every port's VCs together). BookSim's mesh, torus, anynet and
//! fat-tree example runs take this path; everything else takes the general stages
//! (vc_masks.rs, sw_alloc.rs), which give the same matchings, pointer moves and traversals
//! in the same order (`tests_mask_router.rs` runs both on the same configurations).
//!
//! The active routers run a word (64 routers) at a time. The network's arrays the stages
//! touch are borrowed apart once per word (no reloads of `self.*` through `&mut self`), and
//! every router of the word runs
//!
//! 1. routing (mask_routes.rs): an idle waiting VC is routed inline by the endpoint route
//!    table (the common configuration), the route table, the closed-form mesh DOR or the
//!    torus DOR of torus.rs (other routings run `Network::route` for the
//!    word first); a router routes its idle VCs in local order, as `Network::route` would,
//!    so each router's tie draws on a torus come in the same order;
//! 2. VC allocation: the iSLIP matching of vc_masks.rs, on the router's VCs numbered
//!    locally (`port * num_vcs + vc`, as in its wait set); the routed VCs are a mask of
//!    their own (`va.routed`), so only the idle ones are visited, and with a routing delay
//!    of at most one cycle the VCs routed before this cycle request without a look;
//! 3. switch allocation: the router's eligible input VCs (output VC held, flit ready, a
//!    credit) by output port, one mask each. An output grants the input port nearest its
//!    pointer among the ports with a VC in its mask; an input accepts the granted output
//!    nearest its pointer and sends that output's VC of its port nearest its VC offset
//!    (iSLIP's request per (input, output) is the VC nearest the offset, and only an
//!    accepted pair needs it). When no two requests share an input or an output port,
//!    every request is granted and accepted: they go without the arbitration.
//!
//! A word's stages are one function per configuration (`Stages`' const parameters): the
//! common configuration with 4 VCs and 5 ports a router (a 2-D mesh: the VC arithmetic is
//! shifts and constants), with 4 VCs and any ports (anynet) or with any counts; the general
//! one with 4 VCs and 5 ports (a torus) or any counts.
//!
//! The word's traversals then run in the order decided (router by router, input ports in
//! order within a router, as the general allocator sends them): a traversal changes only
//! its own router's VCs, credits and masks, which no other router's stages read, and the
//! events it sends keep their order.

use super::allocator::{next, pick_below_64 as pick};
use super::class_types::Priority;
use super::config::{FlowControl, SwAllocator, VcAllocator};
use super::mask_routes::Routes;
use super::mask_state::LOCAL;
use super::network::{Network, Packet, ACTIVE, IDLE};
use super::router::{prefetch_router_vcs, PREFETCH_ROUTERS};
use super::types::Vc;
use super::vc_masks::free_candidates;

#[path = "mask_islip.rs"]
mod islip;
#[path = "mask_separable.rs"]
mod separable;

/// Global input ports a decided traversal can name (`sent` packs the port in 26 bits
/// beside its VC); larger networks take the general stages.
const MAX_SENT_PORTS: usize = 1 << 26;

/// What one word of routers' stages read and write, borrowed apart from the network. With
/// `C` (the common configuration: inline routing by the route table, routing and VC
/// allocation delays of one cycle, wormhole, no prefetch) the flags below are constants;
/// with `NV` non-zero (the VC count, a power of two) the VC arithmetic is shifts and masks,
/// and with `NP` non-zero every router has `NP` ports (router `r`'s first is `r * NP`).
struct Stages<'a, const C: bool, const NV: usize, const NP: usize> {
    vcs: &'a mut [Vc],
    credits: &'a [u16],
    owner: &'a mut [u32],
    pstart: &'a [u32],
    wait_bits: &'a mut [u64],
    holding: &'a mut [u64],
    routed: &'a mut [u64],
    aptr: &'a mut [u16],
    gptr: &'a mut [u16],
    out_free: &'a mut [u64],
    class_mask: &'a [u64; 256],
    split: &'a [(u8, u8); LOCAL],
    cand: &'a mut [u64; LOCAL],
    in_rr: &'a mut [u8],
    out_rr: &'a mut [u16],
    sa_aptr: &'a mut [u16],
    routes: Routes<'a>,
    packets: &'a [Packet],
    by_out: &'a mut [u64; LOCAL],
    grants: &'a mut [u64; LOCAL],
    /// Separable input-first scratch (mask_separable.rs), zero between routers: per output
    /// (VC or port) the inputs that picked it, per input port the outputs it requests.
    pickers: &'a mut [u64; LOCAL],
    rows: &'a mut [u64; LOCAL],
    /// BookSim's separable_input_first for VC / switch allocation (else iSLIP).
    sep_va: bool,
    sep_sa: bool,
    sent: &'a mut Vec<u64>,
    active: &'a [u64],
    now: u64,
    nv: usize,
    va_delay: u64,
    vct: bool,
    inline_rc: bool,
    routing_delay: u64,
    prefetch: bool,
}

impl Network<'_> {
    /// Whether this cycle's routers run on this path (checked once per cycle: a run may
    /// place worms later, and tests switch the path off).
    pub(super) fn mask_router_applies(&self) -> bool {
        // Separable input-first runs with round-robin arbiters only (no priorities).
        let round_robin = self.prio == Priority::None;
        self.mr.enabled
            && (self.cfg.vc_allocator == VcAllocator::Islip
                || (self.cfg.vc_allocator == VcAllocator::SeparableInputFirst && round_robin))
            && (self.cfg.sw_allocator == SwAllocator::Islip
                || (self.cfg.sw_allocator == SwAllocator::SeparableInputFirst && round_robin))
            && self.cfg.vc_iters() == 1
            && self.cfg.sw_iters() == 1
            && !self.va.book.general
            && self.rep.table.visits() == 0
            && !self.sets.routes()
            && self.out_req.len() * self.nv <= self.va.mask_limit.min(LOCAL)
            && self.port_router.len() < MAX_SENT_PORTS
            // Runs keeping the holders by output port take the general stages (sw_held.rs).
            && !self.va.held_on
    }

    /// Whether routing is inline on this path (route table, DOR on a large mesh, DOR on a
    /// torus).
    pub(super) fn inline_routing(&self) -> bool {
        self.route_n != 0
            || ((!self.mesh_dims.is_empty() || self.torus.routes()) && self.step_classes <= 1)
    }

    /// Runs every active router on this path (see the module comment); routers left
    /// without flits leave the active set.
    pub(super) fn mask_routers(&mut self) {
        let inline_rc = self.inline_routing();
        let nca = !inline_rc && self.nca_routes();
        if self.route_n != 0 && self.mr.ep_routes.is_empty() {
            self.build_ep_routes();
        }
        let common = self.common_configuration();
        let uniform = self.uniform_ports();
        let mut sent = std::mem::take(&mut self.mr.sent);
        for w in 0..self.active.len() {
            let word = self.active[w];
            if word == 0 {
                continue;
            }
            if nca {
                self.route_idle_nca(w, word);
            } else if !inline_rc {
                self.route_idle(w, word);
            }
            sent.clear();
            match (common, self.nv, uniform) {
                (true, 4, 5) => self.stages::<true, 4, 5>(w, word, &mut sent, inline_rc),
                (true, 4, _) => self.stages::<true, 4, 0>(w, word, &mut sent, inline_rc),
                (true, _, _) => self.stages::<true, 0, 0>(w, word, &mut sent, inline_rc),
                (false, 4, 5) => self.stages::<false, 4, 5>(w, word, &mut sent, inline_rc),
                (false, _, _) => self.stages::<false, 0, 0>(w, word, &mut sent, inline_rc),
            }
            self.sent.reserve_hops(sent.len());
            for &s in &sent {
                let (r, gi, v) = (
                    (s >> 32) as usize,
                    (s as u32 >> 6) as usize,
                    s as usize & 63,
                );
                self.traverse_reserved(r, gi, v);
            }
        }
        self.mr.sent = sent;
    }

    /// Routes the idle waiting VCs of the routers of word `w` by [`Network::route`].
    fn route_idle(&mut self, w: usize, mut word: u64) {
        while word != 0 {
            let r = w * 64 + word.trailing_zeros() as usize;
            word &= word - 1;
            let p0v = self.pstart[r] as usize * self.nv;
            // The waiting VCs not routed yet are the idle ones.
            let mut bits = self.wait_bits[r] & !self.va.routed[r];
            while bits != 0 {
                let ivc = p0v + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                debug_assert_eq!(self.vcs[ivc].state, IDLE);
                self.route(ivc, r);
            }
        }
    }

    /// The port count of every router when all have the same, else 0 (found once: the
    /// ports never change).
    fn uniform_ports(&mut self) -> usize {
        if self.mr.uniform_ports == usize::MAX {
            let np = self.pstart[1] - self.pstart[0];
            let same = self.pstart.windows(2).all(|p| p[1] - p[0] == np);
            self.mr.uniform_ports = if same { np as usize } else { 0 };
        }
        self.mr.uniform_ports
    }

    /// Whether this run is the common configuration of [`Stages`] (the route table with its
    /// endpoint table built, routing and VC allocation delays of one cycle, wormhole, no
    /// prefetch), whose stages run with those flags as constants.
    fn common_configuration(&self) -> bool {
        self.route_n != 0
            && !self.mr.ep_routes.is_empty()
            && self.cfg.routing_delay == 1
            && self.va.delay == 1
            && self.cfg.flow_control != FlowControl::CutThrough
            && !self.prefetch
    }

    /// The stages of the routers of word `w` (`C`, `NV` and `NP` as in [`Stages`];
    /// `inline_rc` as [`Network::inline_routing`]); their traversals go to `sent`. Out of
    /// line: each specialisation is a function of its own, whose registers and code layout
    /// the others do not disturb (inlined together, adding one cost the mesh 2-3%).
    #[inline(never)]
    fn stages<const C: bool, const NV: usize, const NP: usize>(
        &mut self,
        w: usize,
        mut word: u64,
        sent: &mut Vec<u64>,
        inline_rc: bool,
    ) {
        let Network {
            vcs,
            credits,
            owner,
            pstart,
            wait_bits,
            va,
            in_rr,
            out_rr,
            sa_aptr,
            route_table,
            route_n,
            mesh_dims,
            ep_switch,
            ep_port,
            torus,
            route_classes,
            packets,
            mr,
            active,
            now,
            nv,
            cfg,
            prefetch,
            ..
        } = self;
        debug_assert!(NV == 0 || NV == *nv && NV.is_power_of_two());
        let mut st = Stages::<C, NV, NP> {
            vcs,
            credits,
            owner,
            pstart,
            wait_bits,
            holding: &mut va.holding,
            routed: &mut va.routed,
            aptr: &mut va.aptr,
            gptr: &mut va.gptr,
            out_free: &mut va.out_free,
            class_mask: &va.class_mask,
            split: &va.split,
            cand: &mut va.cand,
            in_rr,
            out_rr,
            sa_aptr,
            routes: Routes {
                route_table,
                route_n: *route_n,
                ep_routes: &mr.ep_routes,
                mesh_dims,
                ep_switch,
                ep_port,
                torus,
                class_keep: if *route_classes > 1 { u8::MAX } else { 0 },
                ready: *now + cfg.routing_delay as u64,
            },
            packets,
            by_out: &mut mr.by_out,
            grants: &mut mr.grants,
            pickers: &mut mr.sa_cols,
            rows: &mut mr.sa_rows,
            sep_va: cfg.vc_allocator == VcAllocator::SeparableInputFirst,
            sep_sa: cfg.sw_allocator == SwAllocator::SeparableInputFirst,
            sent,
            active,
            now: *now,
            nv: *nv,
            va_delay: va.delay,
            vct: cfg.flow_control == FlowControl::CutThrough,
            inline_rc,
            routing_delay: cfg.routing_delay as u64,
            prefetch: *prefetch,
        };
        while word != 0 {
            let r = w * 64 + word.trailing_zeros() as usize;
            word &= word - 1;
            if !C && st.prefetch {
                prefetch_router_vcs(st.vcs, st.pstart, st.active, st.nv, r + PREFETCH_ROUTERS);
            }
            st.router(r);
        }
    }
}

impl<const C: bool, const NV: usize, const NP: usize> Stages<'_, C, NV, NP> {
    /// VCs per port: a constant when `NV` is given.
    #[inline(always)]
    fn nv(&self) -> usize {
        if NV != 0 {
            NV
        } else {
            self.nv
        }
    }

    /// The port and VC of router-local VC `b`.
    #[inline(always)]
    fn split(&self, b: usize) -> (usize, usize) {
        if NV != 0 {
            // `NV` is a power of two.
            (b >> NV.trailing_zeros(), b & (NV - 1))
        } else {
            let (i, v) = self.split[b];
            (i as usize, v as usize)
        }
    }

    /// The flags of the configuration, constants in the common one.
    #[inline(always)]
    fn inline_rc(&self) -> bool {
        C || self.inline_rc
    }

    #[inline(always)]
    fn routing_delay(&self) -> u64 {
        if C {
            1
        } else {
            self.routing_delay
        }
    }

    #[inline(always)]
    fn va_delay(&self) -> u64 {
        if C {
            1
        } else {
            self.va_delay
        }
    }

    /// The stages of router `r`. The VCs holding an output VC (`holding`, with the ones the
    /// VC allocation grants) are the switch allocation's candidates. The router's masks are
    /// read once and written once (the stages' slices may alias as far as LLVM knows, so
    /// every write through `self` would reload them).
    #[inline(always)]
    fn router(&mut self, r: usize) {
        let (p0, np) = if NP != 0 {
            debug_assert_eq!(self.pstart[r] as usize, r * NP);
            (r * NP, NP)
        } else {
            let p0 = self.pstart[r] as usize;
            (p0, self.pstart[r + 1] as usize - p0)
        };
        let wait = self.wait_bits[r];
        let mut elig = self.holding[r];
        if wait != 0 {
            let granted = self.allocate_vcs(r, p0, np, wait);
            self.wait_bits[r] = wait & !granted;
            self.holding[r] = elig | granted;
            if self.va_delay() == 0 {
                // Granted now, speculatively: at the switch this cycle (else not before
                // the next cycle).
                elig |= granted;
            }
        }
        self.allocate_switch(r, p0, np, elig);
    }

    /// Routing and iSLIP VC allocation at router `r` (vc_masks.rs's matching) over its
    /// waiting VCs `wait`; returns the local input VCs granted (and keeps `routed`).
    #[inline(always)]
    fn allocate_vcs(&mut self, r: usize, p0: usize, np: usize, wait: u64) -> u64 {
        let nv = self.nv();
        let p0v = p0 * nv;
        let mut routed = self.routed[r];
        let mut reqs =
            if self.routing_delay() == 0 || (self.inline_rc() && self.routing_delay() <= 1) {
                // Routed without a delay (inline or by `route_idle`), or before this cycle:
                // ready.
                routed
            } else {
                self.ready_among(p0v, routed)
            };
        if self.inline_rc() {
            // The waiting VCs not routed yet are idle: route them.
            let idle = wait & !routed;
            let mut bits = idle;
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                debug_assert_eq!(self.vcs[p0v + i].state, IDLE);
                self.routes.route(&mut self.vcs[p0v + i], r, p0, C);
            }
            routed |= idle;
            if self.routing_delay() == 0 {
                reqs |= idle;
            }
        }
        let granted = if reqs == 0 {
            0
        } else if self.sep_va {
            self.input_first_vcs(p0, np * nv, reqs)
        } else {
            self.match_vcs(p0, np * nv, reqs)
        };
        self.routed[r] = routed & !granted;
        granted
    }

    /// The VCs of `bits` (local numbers, first VC `p0v`) whose flit is ready now.
    #[inline(always)]
    fn ready_among(&self, p0v: usize, mut bits: u64) -> u64 {
        let mut ready = 0;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if self.vcs[p0v + i].ready_by(self.now) {
                ready |= 1 << i;
            }
        }
        ready
    }

    /// [`free_candidates`] of local input VC `i` of the router whose first port is `p0`.
    #[inline(always)]
    fn candidates(&self, p0: usize, i: usize) -> u64 {
        let vct = (!C && self.vct).then_some((self.packets, self.credits));
        let (vcs, nv) = (&*self.vcs, self.nv());
        free_candidates(
            vcs,
            self.out_free,
            self.class_mask,
            nv,
            p0 * nv + i,
            p0,
            vct,
        )
    }

    /// Local input VC `i` (first port `p0`) takes local output VC `o`; both iSLIP pointers move
    /// past the match.
    #[inline(always)]
    fn grant_vc(&mut self, p0: usize, n: usize, i: usize, o: usize) {
        let p0v = p0 * self.nv();
        let (op, ov) = self.split(o);
        self.owner[p0v + o] = (p0v + i) as u32;
        self.gptr[p0v + o] = next(i, n) as u16;
        self.aptr[p0v + i] = next(o, n) as u16;
        self.out_free[p0 + op] &= !(1 << ov);
        let ready = self.now + self.va_delay();
        let v = &mut self.vcs[p0v + i];
        v.out_vc = ov as u8;
        v.state = ACTIVE;
        v.set_ready(ready);
    }

    /// iSLIP switch allocation at router `r` over the candidates `elig` (see the module
    /// comment); the accepted traversals go to `sent`.
    #[inline(always)]
    fn allocate_switch(&mut self, r: usize, p0: usize, np: usize, elig: u64) {
        let (nv, now) = (self.nv(), self.now);
        let p0v = p0 * nv;
        // Requests: the eligible VCs, and whether two share an input or an output port.
        let (mut reqd, mut ins, mut outs, mut shared) = (0u64, 0u64, 0u64, 0u64);
        let mut bits = elig;
        while bits != 0 {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let v = &self.vcs[p0v + b];
            if v.state != ACTIVE {
                // Its tail left by the general stages: it holds no output VC any more.
                self.holding[r] &= !(1 << b);
                continue;
            }
            // Granted before this cycle (or now, speculatively): ready unless the VA
            // delay is longer.
            if v.len == 0 || (self.va_delay() > 1 && !v.ready_by(now)) {
                continue;
            }
            let go = v.out_port as usize;
            if self.credits[go * nv + v.out_vc as usize] == 0 {
                continue;
            }
            let (i, o) = (1u64 << self.split(b).0, 1u64 << ((go - p0) & (LOCAL - 1)));
            shared |= (ins & i) | (outs & o);
            (reqd, ins, outs) = (reqd | 1 << b, ins | i, outs | o);
        }
        if shared == 0 {
            // One request per input and per output port: each is granted and accepted.
            while reqd != 0 {
                let b = reqd.trailing_zeros() as usize;
                reqd &= reqd - 1;
                let o = self.vcs[p0v + b].out_port as usize - p0;
                self.send(r, p0, np, b, o);
            }
        } else if self.sep_sa {
            self.input_first_switch(r, p0, np, reqd);
        } else {
            self.islip_switch(r, p0, np, reqd, outs);
        }
    }

    /// Local input port `i` of router `r` (first port `p0`, `np` ports) wins local output
    /// `o`: it sends its requesting VC for `o` (in `by_out`) nearest its VC offset.
    #[inline(always)]
    fn send_port(&mut self, r: usize, p0: usize, np: usize, i: usize, o: usize) {
        let nv = self.nv();
        let vmask = if nv >= 64 { !0 } else { (1u64 << nv) - 1 };
        let v = pick(
            self.by_out[o] >> (i * nv) & vmask,
            self.in_rr[p0 + i] as usize,
        );
        self.send(r, p0, np, i * nv + v, o);
    }

    /// Clears the requesting VCs by output (`by_out`) of the outputs `outs`.
    #[inline(always)]
    fn clear_outputs(&mut self, mut outs: u64) {
        while outs != 0 {
            let o = outs.trailing_zeros() as usize;
            outs &= outs - 1;
            self.by_out[o] = 0;
        }
    }

    /// Local input VC `b` of router `r` wins local output `o`: the iSLIP pointers move past
    /// the match, the traversal is noted, and a tail gives up its VC's place among the
    /// switch candidates.
    #[inline(always)]
    fn send(&mut self, r: usize, p0: usize, np: usize, b: usize, o: usize) {
        let (i, v) = self.split(b);
        let gi = p0 + i;
        self.out_rr[p0 + o] = next(i, np) as u16;
        self.sa_aptr[gi] = next(o, np) as u16;
        self.in_rr[gi] = if NV != 0 {
            (v + 1) % NV
        } else {
            next(v, self.nv)
        } as u8;
        if self.vcs[p0 * self.nv() + b].front.tail {
            self.holding[r] &= !(1 << b);
        }
        self.sent
            .push((r as u64) << 32 | (gi as u64) << 6 | v as u64);
    }
}
