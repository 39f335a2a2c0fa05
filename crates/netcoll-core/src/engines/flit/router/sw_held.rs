//! The general stages' switch requests from the VCs holding an output VC, kept by output
//! port as they are granted and released (`VaState::held_by_out`), instead of read VC by
//! VC each cycle (sw_ports.rs). At saturation a wide router has most of its VCs holding an
//! output VC (src/examples/singleconfig: one 10-port router of 80 VCs, 48 candidates a
//! cycle, 6 of which send): the per-VC pass read each candidate's record for its output
//! port, VC, state, ready cycle and credit. Here a candidate's output port is known from
//! the mask it sits in, and whether it is eligible is a mask operation:
//!
//! * it holds a flit (`occ`) and was not granted this cycle (`VaState::fresh`);
//! * with a VA delay of at most one cycle (the fresh grants skipped, or speculative) a
//!   VC granted before this cycle is ready; with a longer one its ready cycle is read;
//! * an ejection port takes no credit: every holder may bid; on a port to a router each
//!   holder's output VC credit is read.
//!
//! The masks then give the columns, the rows and the eligible VCs by output exactly as the
//! per-VC pass does, so the allocators, `carrying_vc` and `send_disjoint` read them
//! unchanged. The predicate (`Network::decide_held_requests`, once a run, before any
//! grant): BookSim's separable_input_first switch allocator on port masks (no priorities),
//! no crossbar, no route sets, routers of at most `HELD_WORDS` mask words that the mask
//! router does not run (it keeps its own masks). Every place that sets or clears a VC's
//! `holding` bit on these paths keeps the masks (`take_vc_local`, `grant_local`,
//! `traverse`); worms never hold output VCs this way. tests_sw_ports.rs
//! `held_requests_match_the_per_vc_pass` compares the figures with the per-VC pass.

use super::config::SwAllocator;
use super::mask_state::{HELD_WORDS, LOCAL};
use super::network::Network;
use super::types::byte_flags_to_bits;
use super::wiring::DOWN_EJECT;

impl Network<'_> {
    /// Decides, once a run and before any VC is granted, whether it keeps the holders by
    /// output port (see the module comment).
    pub(super) fn decide_held_requests(&mut self) {
        self.va.held_decided = true;
        let on = self.va.held_enabled
            && !self.xb.on
            && self.cfg.sw_allocator == SwAllocator::SeparableInputFirst
            && self.sa_ports_apply()
            && self.sa_masks_apply()
            && !self.sets.routes()
            && self.wpr <= HELD_WORDS
            && !self.mask_router_applies();
        if on {
            self.va.held_by_out = vec![0; self.port_router.len() * self.wpr];
        }
        self.va.held_on = on;
    }

    /// Local input VC `local` of router `r` holds an output VC of global output port `go`
    /// now (a grant), or (`held` false) no more (its tail left).
    #[inline(always)]
    pub(super) fn note_held(&mut self, r: usize, local: usize, go: usize, held: bool) {
        if !self.va.held_on {
            return;
        }
        let wpr = self.wpr;
        debug_assert!(go >= self.pstart[r] as usize && go < self.pstart[r + 1] as usize);
        let w = &mut self.va.held_by_out[go * wpr + local / 64];
        let bit = 1u64 << (local % 64);
        if held {
            *w |= bit;
        } else {
            *w &= !bit;
        }
    }

    /// The switch requests of router `r` from the holders by output port, as
    /// [`Network::port_requests`] builds them (the columns, with `ROWS` the rows, the
    /// eligible VCs by output and by word, the fresh marks cleared).
    pub(super) fn held_requests<const ROWS: bool>(
        &mut self,
        r: usize,
    ) -> super::sw_ports::PortRequests {
        let (nv, wpr, now) = (self.nv, self.wpr, self.now);
        let p0 = self.pstart[r] as usize;
        let np = self.pstart[r + 1] as usize - p0;
        let k = r * wpr;
        let apply = self.va.fresh_apply();
        // A holder granted before this cycle is ready (the fresh ones are skipped).
        let ready_known = self.va.delay == 0 || (self.va.delay == 1 && apply);
        let mut avail = [0u64; HELD_WORDS];
        for (w, a) in avail.iter_mut().enumerate().take(wpr) {
            let f = std::mem::take(&mut self.va.fresh[w]);
            *a = self.occ[k + w] & !if apply { f } else { 0 };
        }
        let (vcs, credits, down) = (&self.vcs[p0 * nv..], &self.credits[..], &self.down);
        let ports = PortFold::new(nv);
        let held = &self.va.held_by_out;
        let mr = &mut *self.mr;
        if mr.sa_vcs.len() < LOCAL * wpr {
            mr.sa_vcs.resize(LOCAL * wpr, 0);
        }
        let (mut outs, mut ins) = (0u64, 0u64);
        let mut elig = [0u64; HELD_WORDS];
        for o in 0..np {
            let go = p0 + o;
            let free_ride = ready_known & (down[go].ivc & DOWN_EJECT != 0);
            let mut col = 0u64;
            for w in 0..wpr {
                let mut e = held[go * wpr + w] & avail[w];
                if !free_ride {
                    e = eligible_among(e, &vcs[64 * w..], credits, go * nv, now);
                }
                mr.sa_vcs[o * wpr + w] = e;
                elig[w] |= e;
                col |= ports.of(e, w);
            }
            mr.sa_cols[o] = col;
            (outs, ins) = (outs | ((col != 0) as u64) << o, ins | col);
        }
        if ROWS {
            // The rows are the columns transposed.
            let mut bits = ins;
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let mut row = 0u64;
                for o in 0..np {
                    row |= (mr.sa_cols[o] >> i & 1) << o;
                }
                mr.sa_rows[i] = row;
            }
        }
        mr.sa_elig[..wpr].copy_from_slice(&elig[..wpr]);
        // Counted once (no popcount instruction in the baseline target: a dozen each).
        let n: u32 = elig[..wpr].iter().map(|e| e.count_ones()).sum();
        super::sw_ports::PortRequests {
            outs,
            ins,
            eligible: n as usize,
        }
    }
}

/// The VCs of `held` (bits of the mask word whose first VC record is `vcs[0]`) that may
/// bid: ready now, with a credit on their output VC (whose port's first credit is
/// `credits[c0]`).
#[inline(never)]
fn eligible_among(
    held: u64,
    vcs: &[super::types::Vc],
    credits: &[u16],
    c0: usize,
    now: u64,
) -> u64 {
    let (mut e, mut bits) = (held, held);
    while bits != 0 {
        let b = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let x = &vcs[b];
        debug_assert_eq!(x.state, super::network::ACTIVE);
        if !x.ready_by(now) || credits[c0 + x.out_vc as usize] == 0 {
            e &= !(1 << b);
        }
    }
    e
}

/// The input ports of a mask word's VCs (bit `i` for port `i`) without a branch per VC,
/// for a power-of-two VC count up to 64: each port's bits are folded onto its first, then
/// gathered (a multiply for 8 VCs a port, the common case); other counts go VC by VC.
#[derive(Clone, Copy)]
struct PortFold {
    nv: usize,
    /// Ports a mask word holds (power-of-two counts), else 0.
    per_word: usize,
    /// Bit 0 of every port's group of a word (power-of-two counts), else 0.
    firsts: u64,
}

impl PortFold {
    fn new(nv: usize) -> PortFold {
        if !(nv.is_power_of_two() && nv <= 64) {
            return PortFold {
                nv,
                per_word: 0,
                firsts: 0,
            };
        }
        let per_word = 64 / nv;
        PortFold {
            nv,
            per_word,
            firsts: (0..per_word).fold(0u64, |m, g| m | 1 << (g * nv)),
        }
    }

    /// The ports of the VCs `e` of mask word `w`.
    #[inline(always)]
    fn of(&self, e: u64, w: usize) -> u64 {
        let nv = self.nv;
        let gathered = if nv == 8 {
            // A byte's bits onto its top bit (its low seven added to 0x7f carry into it),
            // then each byte's flag to its bit.
            let low = 0x7f7f_7f7f_7f7f_7f7f_u64;
            let tops = ((e & low).wrapping_add(low) | e) & !low;
            byte_flags_to_bits(tops >> 7)
        } else if self.per_word == 0 {
            let mut col = 0u64;
            let mut bits = e;
            while bits != 0 {
                let local = 64 * w + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                col |= 1 << ((local / nv) & 63);
            }
            return col;
        } else {
            let mut t = e;
            let mut s = nv / 2;
            while s > 0 {
                t |= t >> s;
                s /= 2;
            }
            t &= self.firsts;
            (0..self.per_word).fold(0u64, |c, g| c | (t >> (g * nv) & 1) << g)
        };
        // Word `w` starts at port `w * per_word` (below 64: a router has at most 64 ports).
        debug_assert!(w * self.per_word < 64);
        gathered << ((w * self.per_word) & 63)
    }
}
