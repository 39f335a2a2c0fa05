//! The input-queued virtual-channel router. Per cycle and per active router:
//!
//! 1. routing (RC): an idle input VC with a head flit at its front is routed; it may bid for
//!    an output VC `routing_delay` cycles later;
//! 2. VC allocation (VA, vc_alloc.rs): a routed head acquires a free output VC of its class
//!    (BookSim's iSLIP by default); its flits bid for the switch `vc_alloc_delay` cycles
//!    later (the same cycle when speculative);
//! 3. switch allocation (SA, sw_alloc.rs): at most one flit per input and per output port
//!    (BookSim's iSLIP over ports by default);
//! 4. switch and link traversal: a granted flit leaves its buffer now and reaches the next
//!    input buffer `sw_alloc_delay + st_final_delay + channel_latency` cycles later; the
//!    freed slot's credit reaches the upstream router `credit_delay + channel_latency` later.
//!
//! Runs with BookSim's iSLIP allocators, no multidestination worms and routers of at most 64
//! VCs take stages 1-3 in mask_router.rs (the same results, on router-local masks); the
//! stages here and in vc_alloc.rs, vc_masks.rs and sw_alloc.rs serve every other run.

use super::channel::{push_reserved, Flit, Hop};
use super::network::{Network, IDLE, NONE, VC_WAIT};
use super::types::{prefetch, Vc};
use super::wiring::DOWN_EJECT;

/// Routers ahead of the one running whose VC records are prefetched (both router paths).
pub(super) const PREFETCH_ROUTERS: usize = 2;

impl Network<'_> {
    /// Runs every active router in index order; routers left without flits leave the
    /// active set as they drain (`vacate`). (No router becomes active meanwhile: flits
    /// arrive only in `deliver`.)
    pub(super) fn routers(&mut self) {
        if !self.va.held_decided {
            self.decide_held_requests();
        }
        if !self.va.grouped_decided {
            self.decide_grouped_va();
        }
        if self.xb.on {
            return self.xbar_routers();
        }
        if self.mask_router_applies() {
            return self.mask_routers();
        }
        self.general_routers();
    }

    /// The general stages of every active router, in index order.
    pub(super) fn general_routers(&mut self) {
        for w in 0..self.active.len() {
            let mut bits = self.active[w];
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let r = w * 64 + b;
                if self.prefetch {
                    self.prefetch_router(r + PREFETCH_ROUTERS);
                }
                self.router(r);
            }
        }
    }

    /// [`prefetch_router_vcs`] on this network.
    #[inline]
    fn prefetch_router(&self, r: usize) {
        prefetch_router_vcs(&self.vcs, &self.pstart, &self.active, self.nv, r);
    }

    fn router(&mut self, r: usize) {
        self.route_and_allocate_vcs(r);
        if self.xb.on {
            // A speedup or held connections: BookSim's crossbar (xbar.rs); it takes the
            // marks of the VCs granted just now (`VaState::fresh`).
            self.xbar_switch(r);
        } else {
            // It skips the VCs granted just now and clears their marks (`VaState::fresh`).
            self.allocate_switch(r);
        }
    }

    /// Routing computation for the head flit at the front of `ivc` at router `r`. The flit
    /// carries its destination and routing state; only worms and step VC classes look at
    /// the packet table. Inlined into the allocators' loops: the route-table case is a
    /// lookup, everything else `route_step_classes`.
    #[inline(always)]
    pub(super) fn route(&mut self, ivc: usize, r: usize) {
        let local = ivc - self.pstart[r] as usize * self.nv;
        self.route_local(ivc, r, local);
    }

    /// [`Network::route`] of the input VC whose router-local number is `local` (the VC
    /// allocators' loops know it: no division per head).
    #[inline(always)]
    pub(super) fn route_local(&mut self, ivc: usize, r: usize, local: usize) {
        self.route_local_by::<false>(ivc, r, local);
    }

    /// [`Network::route_local`], with the adaptive routings' common case inlined when
    /// `INLINE_ADAPTIVE` (the per-port gather's loop, which the dragonfly runfile takes).
    #[inline(always)]
    pub(super) fn route_local_by<const INLINE_ADAPTIVE: bool>(
        &mut self,
        ivc: usize,
        r: usize,
        local: usize,
    ) {
        let f = self.front(ivc);
        debug_assert!(f.head, "an idle VC must have a head flit at its front");
        if self.rep.table.visits() > 0 && self.packets[f.pkt as usize].worm != NONE {
            return self.start_replication(ivc, f.pkt);
        }
        let dst = f.dst();
        let dst_sw = self.ep_switch[dst] as usize;
        let v = if self.adaptive.is_some() {
            if INLINE_ADAPTIVE {
                self.route_adaptive_inline(ivc, r);
            } else {
                self.route_adaptive(ivc, r);
            }
            &mut self.vcs[ivc]
        } else if r == dst_sw && self.grid.per_packet() && self.grid_detour(ivc, r, f) {
            &mut self.vcs[ivc]
        } else if r == dst_sw {
            let port = self.ep_port[dst];
            if self.sets.routes() {
                let local = (port - self.pstart[r]) as usize;
                self.sets.eject(ivc, local, self.nv);
            }
            let v = &mut self.vcs[ivc];
            v.out_port = port;
            v.class = u8::MAX; // ejection: any VC
            v
        } else if self.route_n != 0 {
            // The table's classes are hop classes already (no step classes).
            let e = self.route_table[r * self.route_n + dst_sw];
            let port = self.pstart[r] + (e & 0xffff);
            let v = &mut self.vcs[ivc];
            v.out_port = port;
            v.class = (e >> 16) as u8;
            v.front.set_rstate((e >> 24) as u8);
            v
        } else {
            self.route_step_classes(ivc, r, dst_sw, f);
            &mut self.vcs[ivc]
        };
        v.state = VC_WAIT;
        v.set_ready(self.now + self.cfg.routing_delay as u64);
        // It waits for an output VC now (`VaState::routed`).
        self.va.routed[r * self.wpr + local / 64] |= 1 << (local % 64);
        self.note_requester(r, local, ivc);
    }

    /// [`Network::route`] away from the destination router, by the routing's step and the
    /// packet's step VC class.
    #[inline(never)]
    fn route_step_classes(&mut self, ivc: usize, r: usize, dst_sw: usize, f: Flit) {
        let (port, class, state) = if self.sets.routes() {
            self.route_set(ivc, r, dst_sw, f)
        } else if self.grid.routes() {
            self.grid_step(r, dst_sw, f)
                .expect("a head away from its destination moves on")
        } else {
            self.route_step(r, dst_sw, f.rstate())
        };
        self.vcs[ivc].out_port = self.pstart[r] + port;
        let vclass = if self.step_classes > 1 {
            self.packets[f.pkt as usize].vclass
        } else {
            0
        };
        self.vcs[ivc].class = self.hop_class(vclass, class);
        self.vcs[ivc].front.set_rstate(state);
    }

    /// The routing's step from router `r` towards router `dst_sw`: (local output port, VC
    /// class, routing state after the hop).
    #[inline]
    fn route_step(&mut self, r: usize, dst_sw: usize, rstate: u8) -> (u32, u8, u8) {
        if !self.route_table.is_empty() {
            let e = self.route_table[r * self.topo.num_switches() + dst_sw];
            (e & 0xffff, (e >> 16) as u8, (e >> 24) as u8)
        } else if !self.mesh_dims.is_empty() {
            mesh_dor(&self.mesh_dims, r, dst_sw)
        } else if self.torus.booksim() {
            self.torus.step(r, dst_sw, rstate)
        } else {
            // Also the dateline torus: the mask router's closed form (torus.rs) is checked
            // against this.
            let step = self
                .routing
                .next(self.topo, r, dst_sw, rstate)
                .expect("not at the destination");
            (step.via.port, step.vc_class, step.state)
        }
    }

    /// [`Network::route_step`] of BookSim's random and credit-read grid routings
    /// (grid_random.rs), which read the packet's id and the router's credits.
    #[inline(never)]
    fn grid_step(&mut self, r: usize, dst_sw: usize, f: Flit) -> Option<(u32, u8, u8)> {
        let credits = PortCredits {
            credits: &self.credits,
            pstart: &self.pstart,
            nv: self.nv,
            depth: self.depth as u32,
        };
        let at = (r, dst_sw, f.pkt);
        self.grid
            .step(self.topo, &self.routing, &credits, at, f.rstate())
    }

    /// A head at its destination router under a two-phase routing: routed on towards its
    /// intermediate when that is still ahead (as BookSim routes it), else left to eject.
    #[inline(never)]
    fn grid_detour(&mut self, ivc: usize, r: usize, f: Flit) -> bool {
        let Some((port, class, state)) = self.grid_step(r, r, f) else {
            return false;
        };
        self.vcs[ivc].out_port = self.pstart[r] + port;
        self.vcs[ivc].class = self.hop_class(0, class);
        self.vcs[ivc].front.set_rstate(state);
        true
    }

    /// Routes a head by its route set (route_set_masks.rs): its VC mask for VC
    /// allocation, which fixes the port; meanwhile the first choice's port, any class.
    #[inline(never)]
    fn route_set(&mut self, ivc: usize, r: usize, dst_sw: usize, f: Flit) -> (u32, u8, u8) {
        let gi = ivc / self.nv;
        let injected = matches!(self.in_from[gi], super::wiring::In::Ni(_));
        let w = crate::routing::route_sets::Waiting {
            in_port: (!injected).then_some(gi as u32 - self.pstart[r]),
            in_vc: (ivc % self.nv) as u8,
            state: f.rstate(),
        };
        let (port, state) = self.sets.route(&self.routing, ivc, (r, dst_sw), w, self.nv);
        (port, u8::MAX, state)
    }

    /// Routers per row of `route_table` when the table alone routes (no step VC classes,
    /// its classes turned into hop classes), else 0.
    pub(super) fn set_route_n(&mut self) {
        let n = self.topo.num_switches();
        self.route_n = if self.route_table.is_empty() || self.step_classes > 1 {
            0
        } else {
            if self.route_classes <= 1 {
                self.route_table
                    .iter_mut()
                    .for_each(|e| *e &= !(0xff << 16));
            }
            n
        };
    }

    /// VC range a routed input VC may take on its output port.
    pub(super) fn vc_range(&self, ivc: usize) -> (usize, usize) {
        match self.vcs[ivc].class {
            u8::MAX => (0, self.nv),
            c => (
                self.class_lo[c as usize] as usize,
                self.class_hi[c as usize] as usize,
            ),
        }
    }

    /// A granted flit leaves input VC `v` of global input port `gi`: `pop_from`, the
    /// credit upstream, the flit onwards and, on its tail, the VC released, written out with
    /// the VC's record borrowed once (this runs once per flit and hop). Inlined into its
    /// callers: as a call it spent 18 of its 164 instructions a flit on fattree_config
    /// saving and restoring registers.
    #[inline]
    pub(super) fn traverse(&mut self, r: usize, gi: usize, v: usize) {
        self.sent.reserve_hop();
        self.traverse_reserved(r, gi, v);
    }

    /// [`Network::traverse`] once the caller has made room for its sends (the mask router
    /// reserves for a word's traversals at once, so no traversal tests for room).
    #[inline(always)]
    pub(super) fn traverse_reserved(&mut self, r: usize, gi: usize, v: usize) {
        let (nv, depth) = (self.nv, self.depth);
        let ivc = gi * nv + v;
        let x = &self.vcs[ivc];
        // The flit moves as it is (its traversal was counted when it arrived, `arrive`), and
        // before its record takes the next flit: copied straight from the record to the
        // send, not kept in registers across `advance_front` (field by field, spilled and
        // read back through a store the load could not forward from).
        let (go, ov, tail) = (x.out_port as usize, x.out_vc, x.front.tail);
        self.send_out(go, ov, self.vcs[ivc].front);
        let x = &mut self.vcs[ivc];
        let left = advance_front(x, &self.ring, ivc * depth, depth);
        if tail {
            x.state = IDLE;
        }
        let at = self.port_at[gi];
        let bit = at.bit as usize + v;
        if left == 0 {
            self.vacate(r, bit);
        }
        self.push_credit(at.up, v as u8);
        if tail {
            // The VC holds no output VC any more: it leaves the switch candidates.
            self.va.holding[bit / 64] &= !(1 << (bit % 64));
            self.note_held(r, bit - r * self.wpr * 64, go, false);
            self.tail_left(go, ov as usize);
            if left > 0 {
                self.set_waiting_bit(bit);
            }
        }
    }

    /// A slot of input VC `v` of global input port `gi` is free: its credit goes back to
    /// the upstream router or NI. Shared by `traverse` and a worm's freed chunks
    /// (replicate.rs). The caller has made room
    /// ([`super::channel::Sent::reserve_hop`]).
    #[inline(always)]
    pub(super) fn return_credit(&mut self, gi: usize, v: u8) {
        self.push_credit(self.port_at[gi].up, v);
    }

    /// Sends the credit of VC `v` of the input port whose VC 0's credits go to `up`
    /// ([`super::wiring::PortAt::up`]).
    #[inline(always)]
    fn push_credit(&mut self, up: u32, v: u8) {
        debug_assert!(up != u32::MAX, "flits never enter an open port");
        push_reserved(&mut self.sent.credits, up + v as u32);
    }

    /// Puts `flit` on output VC `ov` of global output port `go`: over the link to the next
    /// router (taking a credit) or down the ejection channel. The second half of a
    /// traversal, shared by the router's `traverse` and a worm's branches (replicate.rs).
    /// The flit moves as it is (its traversals are counted as it arrives, `arrive`); the
    /// caller has made room
    /// ([`super::channel::Sent::reserve_hop`]).
    #[inline(always)]
    pub(super) fn send_out(&mut self, go: usize, ov: u8, flit: Flit) {
        self.chan_flits[go] += 1;
        let down = self.down[go];
        debug_assert!(down.ivc != u32::MAX, "routing never leaves by an open port");
        if down.ivc & DOWN_EJECT == 0 {
            self.credits[go * self.nv + ov as usize] -= 1;
            let to = Hop {
                ivc: down.ivc + ov as u32,
                bit: down.bit + ov as u32,
                flit,
            };
            push_reserved(&mut self.sent.flits, to);
        } else {
            let mut flit = flit;
            self.mark_eject_vc(&mut flit, ov);
            push_reserved(&mut self.sent.ejects, (down.ivc & !DOWN_EJECT, flit));
        }
    }
}

/// The credits of a router's output ports, as BookSim's `GetUsedCredit` counts them: the
/// flits sent on the port's VCs whose credits have not come back.
struct PortCredits<'a> {
    credits: &'a [u16],
    pstart: &'a [u32],
    nv: usize,
    depth: u32,
}

impl super::grid_random::UsedCredits for PortCredits<'_> {
    fn used_credits(&self, r: usize, port: u32) -> u32 {
        let g = (self.pstart[r] + port) as usize * self.nv;
        self.credits[g..g + self.nv]
            .iter()
            .map(|&c| self.depth.saturating_sub(c as u32))
            .sum()
    }
}

/// Input VC record `x` gives up its front flit (read by the caller): the next flit, at
/// ring slot `base + head`, takes its place. Returns the flits left. Shared by `traverse`
/// and `Network::pop_from`, which clear the VC's occupancy bit when it drains (`vacate`).
#[inline(always)]
pub(super) fn advance_front(x: &mut Vc, ring: &[Flit], base: usize, depth: usize) -> u16 {
    x.len -= 1;
    let left = x.len;
    if left > 0 {
        let h = x.head as usize;
        x.front = ring[base + h];
        x.head = next_head(h, left, depth);
    }
    left
}

/// The ring position of an input VC's second flit after its front left and the flit at
/// ring position `h` took its place, `left` flits remaining: the next position, or 0 when
/// the ring is empty now, so that a VC's ring is used from its start (its first cache
/// line) whenever it drains, not all round it.
#[inline(always)]
fn next_head(h: usize, left: u16, depth: usize) -> u16 {
    if left == 1 || h + 1 == depth {
        0
    } else {
        h as u16 + 1
    }
}

/// Dimension-order routing on a mesh in closed form (`crate::routing`'s DOR without its
/// port lookup, for meshes too large for the route table): the first dimension whose
/// coordinates differ, port `2 * dim` for + and `2 * dim + 1` for -, class 0, and the DOR
/// state `(dim + 1) << 1`.
#[inline]
pub(super) fn mesh_dor(dims: &[u32], at: usize, dst: usize) -> (u32, u8, u8) {
    let (mut a, mut b) = (at as u32, dst as u32);
    for (dim, &k) in dims.iter().enumerate() {
        let (ca, cb) = (a % k, b % k);
        if ca != cb {
            let port = 2 * dim as u32 + u32::from(cb < ca);
            return (port, 0, ((dim + 1) as u8) << 1);
        }
        a /= k;
        b /= k;
    }
    unreachable!("mesh_dor is only called away from the destination")
}

/// Prefetches the VC records of router `r` if it is active (holds flits): its input VCs and
/// the output VCs its flits ask for are all in its own ports' lines. Shared by the general
/// stages and the mask router, which holds the arrays borrowed apart.
#[inline(always)]
pub(super) fn prefetch_router_vcs(vcs: &[Vc], pstart: &[u32], active: &[u64], nv: usize, r: usize) {
    if r + 1 >= pstart.len() || active[r / 64] & (1 << (r % 64)) == 0 {
        return;
    }
    let (a, b) = (pstart[r] as usize, pstart[r + 1] as usize);
    // One prefetch per cache line (records are aligned and share lines, types.rs).
    let per_line = (64 / std::mem::size_of::<Vc>()).max(1);
    let mut i = a * nv;
    while i < b * nv {
        prefetch(&vcs[i]);
        i = (i / per_line + 1) * per_line;
    }
}
