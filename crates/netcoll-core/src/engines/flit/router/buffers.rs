//! The input buffers of the routers: the events due each cycle applied (credits, flits
//! arriving over links and from NIs, ejections), a flit's place in its VC's ring, and the
//! per-router bit sets of input VCs that hold flits (`occ`) or need routing or VC
//! allocation (`wait_bits`), numbered as [`super::wiring::PortAt`] says.

use super::channel::{Flit, Hop};
use super::config::FlowControl;
use super::network::{Network, IDLE};

/// Arrivals per batch of [`Network::deliver`]'s prefetches (64 lines of the 512 of a
/// 32 KiB L1).
const ARRIVAL_BATCH: usize = 64;

impl Network<'_> {
    /// Applies the events due this cycle.
    pub fn deliver(&mut self) {
        let now = self.now;
        let due = self.wheel.take(now);
        // The input VC records the arrivals write are prefetched a batch ahead (the first
        // batch while the credits are applied): they are rarely in L1, even on an 8x8
        // mesh, and their misses would otherwise come one after the other.
        // The NIs' flits (a few per cycle) are prefetched with the first batch of hops.
        let (hops, n) = (&due.hops[..], due.hops.len());
        for a in &due.arrivals {
            super::types::prefetch(&self.vcs[a.port as usize * self.nv + a.vc as usize]);
        }
        self.prefetch_hops(&hops[..n.min(ARRIVAL_BATCH)]);
        // The credits borrowed once: an increment through `self.credits` would make every
        // next one reload the vector's pointer and length.
        if self.cfg.wait_for_tail_credit {
            self.credits_back_after_tails(&due.credits);
        } else {
            let credits = &mut self.credits[..];
            for &c in &due.credits {
                credits[c as usize] += 1;
            }
        }
        for a in &due.arrivals {
            self.arrive(a.port, a.vc as u8, a.flit);
        }
        for (k, batch) in hops.chunks(ARRIVAL_BATCH).enumerate() {
            let next = ((k + 1) * ARRIVAL_BATCH).min(n);
            self.prefetch_hops(&hops[next..(next + ARRIVAL_BATCH).min(n)]);
            for h in batch {
                self.arrive_at(h.ivc as usize, h.bit as usize, h.flit);
            }
        }
        for &(ep, flit) in &due.ejects {
            self.eject(ep, flit);
        }
        self.wheel.give_back(now, due);
    }

    /// Prefetches the input VC records of `hops`.
    #[inline]
    fn prefetch_hops(&self, hops: &[Hop]) {
        for h in hops {
            super::types::prefetch(&self.vcs[h.ivc as usize]);
        }
    }

    /// A flit enters an input VC buffer; its router becomes active. The traversal of this
    /// router that every arrival leads to (onwards or into the ejection channel) is counted
    /// in the flit's `hops` here, in the slot it is written to: counted on the way out, the
    /// flit would be taken apart into its fields to be copied (`eject` takes the ejection
    /// off).
    pub(super) fn arrive(&mut self, port: u32, vc: u8, flit: Flit) {
        let bit = self.port_at[port as usize].bit as usize + vc as usize;
        self.arrive_at(port as usize * self.nv + vc as usize, bit, flit);
    }

    /// [`Network::arrive`] at global input VC `ivc` of bit `bit` (see [`PortAt`]).
    #[inline(always)]
    fn arrive_at(&mut self, ivc: usize, bit: usize, flit: Flit) {
        let depth = self.depth;
        let v = &mut self.vcs[ivc];
        debug_assert!((v.len as usize) < depth, "buffer overflow: credit bug");
        if v.len == 0 {
            v.front = flit;
            v.front.hops += 1;
        } else {
            let mut slot = v.head as usize + v.len as usize - 1;
            if slot >= depth {
                slot -= depth;
            }
            let at = &mut self.ring[ivc * depth + slot];
            *at = flit;
            at.hops += 1;
        }
        v.len += 1;
        if v.len == 1 {
            self.occ[bit / 64] |= 1 << (bit % 64);
            if self.vcs[ivc].state == IDLE {
                self.set_waiting_bit(bit);
            }
            // A router with flits is active already.
            let r = self.bit_router(bit);
            self.active[r / 64] |= 1 << (r % 64);
        }
    }

    /// The router of input VC bit `bit` (see [`PortAt`]): a shift when a router's VCs fit
    /// one word (every run of the mask router), else a division.
    #[inline(always)]
    pub(super) fn bit_router(&self, bit: usize) -> usize {
        if self.wpr == 1 {
            bit / 64
        } else {
            bit / (64 * self.wpr)
        }
    }

    /// Adds `ivc` of router `r` to, or removes it from, the set needing RC/VA.
    #[inline]
    pub fn set_waiting(&mut self, r: usize, ivc: usize, on: bool) {
        let local = ivc - self.pstart[r] as usize * self.nv;
        let (w, b) = (r * self.wpr + local / 64, local % 64);
        if on {
            self.wait_bits[w] |= 1 << b;
        } else {
            self.wait_bits[w] &= !(1 << b);
        }
    }

    /// Adds the input VC of bit `bit` (see [`PortAt`]) to the set needing RC/VA.
    #[inline(always)]
    pub(super) fn set_waiting_bit(&mut self, bit: usize) {
        self.wait_bits[bit / 64] |= 1 << (bit % 64);
    }

    /// Input VC bit `bit` (see [`PortAt`]) of router `r` drained: it leaves `occ`, and the
    /// router leaves the active set when it holds no flit any more.
    #[inline(always)]
    pub(super) fn vacate(&mut self, r: usize, bit: usize) {
        let w = bit / 64;
        self.occ[w] &= !(1 << (bit % 64));
        if self.occ[w] == 0 && (self.wpr == 1 || !self.occupied(r)) {
            self.active[r / 64] &= !(1 << (r % 64));
        }
    }

    /// Whether router `r` holds flits.
    #[inline]
    pub fn occupied(&self, r: usize) -> bool {
        let w = r * self.wpr;
        self.occ[w..w + self.wpr].iter().any(|&b| b != 0)
    }

    /// Whether global input port `gi` has a VC holding flits.
    pub fn port_occupied(&self, gi: usize) -> bool {
        let lo = self.port_at[gi].bit as usize;
        (lo..lo + self.nv).any(|b| self.occ[b / 64] & 1 << (b % 64) != 0)
    }

    /// Whether router `r` has input VCs that need routing or VC allocation.
    #[inline]
    pub fn waiting(&self, r: usize) -> bool {
        let w = r * self.wpr;
        self.wait_bits[w..w + self.wpr].iter().any(|&b| b != 0)
    }

    #[inline]
    pub fn front(&self, ivc: usize) -> Flit {
        self.vcs[ivc].front
    }

    /// The `k`-th flit of input VC `ivc` from its front (`k < len`).
    #[inline]
    pub fn flit_at(&self, ivc: usize, k: usize) -> Flit {
        if k == 0 {
            return self.vcs[ivc].front;
        }
        let v = &self.vcs[ivc];
        self.ring[ivc * self.depth + (v.head as usize + k - 1) % self.depth]
    }

    #[inline]
    pub fn pop(&mut self, ivc: usize) -> Flit {
        self.pop_from(ivc, ivc / self.nv)
    }

    /// Takes the front flit of input VC `ivc` of global input port `gi`.
    #[inline]
    pub fn pop_from(&mut self, ivc: usize, gi: usize) -> Flit {
        let depth = self.depth;
        let x = &mut self.vcs[ivc];
        let f = x.front;
        if super::router::advance_front(x, &self.ring, ivc * depth, depth) == 0 {
            let bit = self.port_at[gi].bit as usize + ivc - gi * self.nv;
            self.vacate(self.bit_router(bit), bit);
        }
        f
    }

    pub fn is_vct(&self) -> bool {
        self.cfg.flow_control == FlowControl::CutThrough
    }
}
