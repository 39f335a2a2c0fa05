//! BookSim's separable_input_first VC allocation at a busy router, grouped by output port:
//! the matching of `Network::input_first_vcs_dense` (va_ports.rs) from requester masks kept
//! by output port as VCs are routed and granted, instead of a pass over the requesters
//! each cycle.
//!
//! A requester asks for the free VCs of its class at its one output port and picks the
//! one nearest its accept pointer (a router-local output VC): the first at or after the
//! pointer within the port's VCs, else the port's first. When its class may take every VC
//! of the port and its pointer lies outside the port's VCs or on the port's first, that
//! pick is the port's first free VC, whoever asks: such a requester is *plain*, and only
//! the others (*own* picks: a pointer inside the port, left by the last grant at that
//! port, or a VC class) are looked at one by one. A waiting VC's class, port and pointer
//! do not change until it is granted, so which mask it sits in is decided once, when it is
//! routed (`note_requester`), and a grant takes it out (`drop_requester`). At saturation
//! (src/examples/singleconfig: 38 requesters a cycle at a 10-port router, 6 granted)
//! nearly all are plain.
//!
//! Per port with a free VC, the plain requesters all pick its first free VC and each own
//! requester its own pick; every VC picked grants the picker first at or after its grant
//! pointer (round the router's input VCs), moving both pointers. A grant touches only its
//! port's VCs and its requester, which asks at no other port, so ports are served one
//! after another with the figures of the dense pass, which makes every pick before any
//! grant (tests_va_separable.rs compares the two).
//!
//! The predicate (`decide_grouped_va`, once a run, before any VC is routed): separable
//! input-first VC allocation on port masks, routers of at most [`GROUPED_VCS`] VCs that the
//! mask router does not run (it keeps its own masks), no adaptive routing, route sets,
//! cut-through or worms. The routers still take the pass only where the dense pass would
//! (`dense_va`): with fewer requesters the sparse pass reads them one by one.

use super::alloc::first_at_or_after_128;
use super::config::VcAllocator;
use super::network::Network;
use super::va_state::{all_vcs, GROUPED_VCS, REQ_WORDS};

impl Network<'_> {
    /// Decides, once a run, after `decide_held_requests` and before any VC is routed,
    /// whether this run keeps the requesters by output port (see the module comment).
    pub(super) fn decide_grouped_va(&mut self) {
        self.va.grouped_decided = true;
        let on = self.va.grouped
            && self.cfg.vc_allocator == VcAllocator::SeparableInputFirst
            && self.separable_ports_apply()
            && self.wpr * 64 <= GROUPED_VCS
            && !self.mask_router_applies()
            && self.adaptive.is_none()
            && !self.sets.routes()
            && !self.is_vct()
            && self.rep.table.visits() == 0;
        if on {
            self.va.req_by_out = vec![0; self.port_router.len() * REQ_WORDS];
        }
        self.va.grouped_on = on;
    }

    /// Input VC `ivc` (global), local VC `local` of router `r`, was just routed: it joins
    /// its output port's plain or own requesters (module comment).
    #[inline(always)]
    pub(super) fn note_requester(&mut self, r: usize, local: usize, ivc: usize) {
        if !self.va.grouped_on {
            return;
        }
        let nv = self.nv;
        let v = &self.vcs[ivc];
        let go = v.out_port as usize;
        let base = (go - self.pstart[r] as usize) * nv;
        let a = (self.va.aptr[ivc] as usize).wrapping_sub(base);
        let all = all_vcs(nv);
        let whole_port = self.va.class_mask[v.class as usize] & all == all;
        let plain = whole_port & (a.wrapping_sub(1) >= nv - 1);
        let k = go * REQ_WORDS + if plain { 0 } else { 2 } + local / 64;
        self.va.req_by_out[k] |= 1 << (local % 64);
    }

    /// Local input VC `local` was granted a VC of global output port `go`: it asks no more.
    #[inline(always)]
    pub(super) fn drop_requester(&mut self, local: usize, go: usize) {
        if !self.va.grouped_on {
            return;
        }
        let k = go * REQ_WORDS + local / 64;
        let keep = !(1u64 << (local % 64));
        self.va.req_by_out[k] &= keep;
        self.va.req_by_out[k + 2] &= keep;
    }

    /// Whether router `r` takes the grouped pass: this run keeps the requesters by port.
    #[inline]
    pub(super) fn grouped_va_applies(&self) -> bool {
        self.va.grouped_on
    }

    /// Separable input-first VC allocation at router `r` grouped by output port (module
    /// comment). Its idle VCs are routed first, in local order, as in the dense pass.
    /// Whether a port is asked for, has a free VC or has own requesters follows no pattern
    /// at saturation, so the ports are read without a branch (a loop of fixed length),
    /// then the own requesters of all ports in one loop and the VCs picked in another.
    pub(super) fn input_first_vcs_grouped(&mut self, r: usize) {
        self.route_idle_vcs(r);
        let ready = self.ready_routed(r);
        let (p0, p1) = (self.pstart[r] as usize, self.pstart[r + 1] as usize);
        let nv = self.nv;
        // Router-local output VCs picked, and the requesters picking by their own pointer.
        let (mut picked, mut own) = (0u128, 0u128);
        for go in p0..p1 {
            let words = &self.va.req_by_out[go * REQ_WORDS..(go + 1) * REQ_WORDS];
            let plain = (u128::from(words[0]) | u128::from(words[1]) << 64) & ready;
            own |= (u128::from(words[2]) | u128::from(words[3]) << 64) & ready;
            let free = self.va.out_free[go];
            // The port's first free VC, when the port has one and plain requesters.
            let asks = (plain != 0) & (free != 0);
            let o = (go - p0) * nv + free.trailing_zeros() as usize;
            let slot = if asks { o } else { GROUPED_VCS };
            self.va.pickers[slot] = plain;
            picked |= u128::from(asks) << (o % GROUPED_VCS);
        }
        picked |= self.own_picks(r, own);
        while picked != 0 {
            let o = picked.trailing_zeros() as usize;
            picked &= picked - 1;
            let pickers = std::mem::take(&mut self.va.pickers[o]);
            let i = first_at_or_after_128(pickers, self.va.gptr[p0 * nv + o] as usize);
            self.grant_input_first(r, i, o);
        }
    }

    /// The own requesters `own` of router `r` each pick the free VC of their class at
    /// their port nearest their pointer, added to `va.pickers`; returns the router-local
    /// output VCs picked.
    #[inline]
    fn own_picks(&mut self, r: usize, mut own: u128) -> u128 {
        let nv = self.nv;
        let p0 = self.pstart[r] as usize;
        let p0v = p0 * nv;
        let mut picked = 0u128;
        while own != 0 {
            let i = own.trailing_zeros() as usize;
            own &= own - 1;
            let ivc = p0v + i;
            let v = &self.vcs[ivc];
            let go = v.out_port as usize;
            let cand = self.va.out_free[go] & self.va.class_mask[v.class as usize];
            let base = (go - p0) * nv;
            let o = base + self.nearest_in_port(ivc, base, cand);
            let asks = cand != 0;
            let slot = if asks { o } else { GROUPED_VCS };
            self.va.pickers[slot] |= 1 << i;
            picked |= u128::from(asks) << o;
        }
        picked
    }

    /// The routed input VCs of router `r` ready to bid for an output VC: all of them
    /// without a routing delay (a VC is ready the cycle it is routed), else those whose
    /// delay has passed.
    #[inline]
    fn ready_routed(&self, r: usize) -> u128 {
        if self.cfg.routing_delay == 0 {
            return u128::MAX;
        }
        let p0v = self.pstart[r] as usize * self.nv;
        let mut ready = 0u128;
        for w in 0..self.wpr {
            let mut bits = self.va.routed[r * self.wpr + w];
            while bits != 0 {
                let i = 64 * w + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                ready |= u128::from(self.vcs[p0v + i].ready_by(self.now)) << i;
            }
        }
        ready
    }
}
