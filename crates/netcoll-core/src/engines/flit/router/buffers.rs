//! The input buffers of the routers: the events due each cycle applied (credits, flits
//! arriving over links and from NIs, ejections), a flit's place in its VC's ring, and the
//! per-router bit sets of input VCs that hold flits (`occ`) or need routing or VC
//! allocation (`wait_bits`), numbered as [`super::wiring::PortAt`] says.

use super::channel::{Flit, Hop};
use super::config::FlowControl;
use super::network::{Network, IDLE};

/// The `k`-th batch of `hops` (empty past the end).
#[inline(always)]
fn batch(hops: &[Hop], k: usize) -> &[Hop] {
    let lo = (k * ARRIVAL_BATCH).min(hops.len());
    &hops[lo..(lo + ARRIVAL_BATCH).min(hops.len())]
}

/// Arrivals per batch of [`Network::deliver`]'s prefetches: a batch's VC records are
/// fetched two batches ahead and its ring slots one batch ahead, so at most three batches'
/// lines (a few dozen of the 512 of a 32 KiB L1) are on their way at once.
const ARRIVAL_BATCH: usize = 32;

/// Ejections per batch of [`Network::deliver`]'s packet-record prefetches.
const EJECT_BATCH: usize = 32;

impl Network<'_> {
    /// Applies the events due this cycle: credits, flits from NIs, flits over links,
    /// ejections, each kind in the order it was sent (the order within a kind is the only
    /// one that matters, see [`super::channel::Due`]).
    ///
    /// Memory, not instructions, is what delivery costs on large networks: an arrival
    /// writes a VC record and, behind a VC's front flit, a slot of its ring; an ejection
    /// reads its packet's record, which was written when the packet was made, often
    /// thousands of cycles before. None of them is in a cache the hardware prefetcher can
    /// guess, and each would miss in turn. So every kind is prefetched ahead of its use:
    /// the NIs' flits and the first hops' VC records, and the first ejections' packets,
    /// while the credits are applied; then the hops in a pipeline (records two batches
    /// ahead, ring slots, whose place the record gives, one batch ahead); the ejections
    /// a batch ahead. Where the records and rings stay cached (they fit a core's L2, see
    /// [`Network::hints_records`]) the hops are applied in one pass without the hints.
    pub fn deliver(&mut self) {
        let now = self.now;
        let due = self.wheel.take(now);
        let hops = &due.hops[..];
        let hint = self.hints_records();
        if hint {
            for a in &due.arrivals {
                super::types::prefetch(&self.vcs[a.port as usize * self.nv + a.vc as usize]);
            }
            self.prefetch_records(batch(hops, 0));
        }
        self.prefetch_packets(&due.ejects[..due.ejects.len().min(EJECT_BATCH)]);
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
        if hint {
            self.prefetch_records(batch(hops, 1));
        }
        for a in &due.arrivals {
            self.arrive(a.port, a.vc as u8, a.flit);
        }
        if !hint {
            for h in hops {
                self.arrive_at(h.ivc as usize, h.bit as usize, h.flit);
            }
        }
        let rings = self.prefetch_rings;
        if rings {
            self.prefetch_ring_slots(batch(hops, 0));
        }
        let batches = if hint {
            hops.len().div_ceil(ARRIVAL_BATCH)
        } else {
            0
        };
        for k in 0..batches {
            self.prefetch_records(batch(hops, k + 2));
            if rings {
                self.prefetch_ring_slots(batch(hops, k + 1));
            }
            for h in batch(hops, k) {
                self.arrive_at(h.ivc as usize, h.bit as usize, h.flit);
            }
        }
        for (k, ejects) in due.ejects.chunks(EJECT_BATCH).enumerate() {
            let next = (k + 1) * EJECT_BATCH;
            let ahead = &due.ejects[next.min(due.ejects.len())..];
            self.prefetch_packets(&ahead[..ahead.len().min(EJECT_BATCH)]);
            for &(ep, flit) in ejects {
                self.eject(ep, flit);
            }
        }
        self.wheel.give_back(now, due);
    }

    /// Whether deliveries prefetch the VC records of the flits arriving: where the records
    /// outgrow a core's L2 (`prefetch`), or where the rings do (`prefetch_rings`: the
    /// dragonfly runfile's 380 KiB of records are evicted by its 46 MiB of rings between
    /// two arrivals at a VC). Elsewhere they stay cached, and the hints' pass over the hops
    /// cost about 8 instructions a flit (fattree_config, meshconfig).
    #[inline]
    fn hints_records(&self) -> bool {
        self.prefetch || self.prefetch_rings
    }

    /// Prefetches the input VC records of `hops`.
    #[inline]
    fn prefetch_records(&self, hops: &[Hop]) {
        for h in hops {
            super::types::prefetch(&self.vcs[h.ivc as usize]);
        }
    }

    /// Prefetches the ring slots `hops` will be written to: those of VCs that hold a flit
    /// already (an arrival at an empty VC writes its record only). Reads the records, so
    /// they should have been prefetched a while before.
    #[inline]
    fn prefetch_ring_slots(&self, hops: &[Hop]) {
        for h in hops {
            let ivc = h.ivc as usize;
            let v = &self.vcs[ivc];
            if v.len > 0 {
                let slot = self.ring_slot(v.head, v.len);
                super::types::prefetch(&self.ring[ivc * self.depth + slot]);
            }
        }
    }

    /// Prefetches the packet records of `ejects`.
    #[inline]
    fn prefetch_packets(&self, ejects: &[(u32, Flit)]) {
        for (_, f) in ejects {
            super::types::prefetch(&self.packets[f.pkt as usize]);
        }
    }

    /// The ring position of a VC's flit `len > 0` from its front, ring head `head`: where a
    /// flit arriving at a VC holding `len` flits is written to (the front flit lives in the
    /// record, the rest from `head` on).
    #[inline(always)]
    fn ring_slot(&self, head: u16, len: u16) -> usize {
        let slot = head as usize + len as usize - 1;
        if slot >= self.depth {
            slot - self.depth
        } else {
            slot
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
        let v = &mut self.vcs[ivc];
        let (head, len) = (v.head, v.len);
        debug_assert!((len as usize) < self.depth, "buffer overflow: credit bug");
        v.len = len + 1;
        // The flit is stored whole and its count raised where it lies (raised in a copy
        // first, it was stored field by field).
        if len > 0 {
            let slot = self.ring_slot(head, len);
            let at = &mut self.ring[ivc * self.depth + slot];
            *at = flit;
            at.hops += 1;
            return;
        }
        v.front = flit;
        v.front.hops += 1;
        let idle = v.state == IDLE;
        let word = &mut self.occ[bit / 64];
        let was = *word;
        *word = was | 1 << (bit % 64);
        if idle {
            self.set_waiting_bit(bit);
        }
        // A router with flits is active already: one whose word of `occ` held a VC's bit
        // holds flits.
        if was == 0 {
            let r = self.bit_router(bit);
            self.active[r / 64] |= 1 << (r % 64);
        }
    }

    /// The router of input VC bit `bit` (see [`PortAt`]): a shift when a router's words are
    /// a power of two (one word in every run of the mask router; two on an 8x8 mesh of 16
    /// VCs), else a division.
    #[inline(always)]
    pub(super) fn bit_router(&self, bit: usize) -> usize {
        match self.bit_shift {
            Some(s) => bit >> s,
            None => bit / (64 * self.wpr),
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
        debug_assert!(k < v.len as usize, "flit {k} of a VC holding {}", v.len);
        self.ring[ivc * self.depth + self.ring_slot(v.head, k as u16)]
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

#[cfg(test)]
#[path = "tests_deliver.rs"]
mod tests;
