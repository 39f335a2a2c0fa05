//! The general stages' switch requests on port masks (sw_alloc.rs's fast path, without
//! priorities): one pass over a router's candidate VCs (holding an output VC and a flit)
//! tests each for eligibility (front flit ready, a credit on its output VC) and keeps, per
//! mask word, the eligible VCs (`mr.sa_elig`), per local output the requesting input ports
//! (the columns, `mr.sa_cols`) and, when the allocator reads them, per input port the outputs it requests
//! (`mr.sa_rows`). Nothing is written per request beyond these bits.
//!
//! * The VC carrying input `i`'s request for output `o` is the first eligible VC of port
//!   `i` wanting `o` from the port's VC offset (BookSim's `_sw_rr_offset`; without
//!   priorities no later VC supersedes it): the pass keeps per output its eligible VCs
//!   (`mr.sa_vcs`, `wpr` words each), and only the matched pairs pick theirs
//!   ([`Network::carrying_vc`]: one rotate, no scan).
//! * When no two eligible VCs share an input port or an output port (a mesh's routers below
//!   saturation, nearly always), iSLIP and the separable allocators grant and accept every
//!   request and move both pointers of each pair (xbar_match.rs's `match_disjoint`): the
//!   VCs send without the arbitration ([`Network::send_disjoint`]).
//!
//! tests_mask_router.rs compares this path with the VC-by-VC requests on the request
//! matrix (`mr.sa_fast` off).

use super::allocator::next;
use super::mask_state::LOCAL;
use super::network::{Network, ACTIVE};
use super::vc_masks::split_vc;

/// Candidate VCs from which a router's switch requests are built without a branch per VC
/// (`Network::sa_dense_min`): fewer than 16 candidates, as on a mesh's routers below
/// saturation, keep their branches.
pub const DENSE_REQUESTS: usize = 16;

/// A router's switch requests on port masks: the outputs asked for, the inputs asking,
/// and the eligible VCs (each input port's at most one when `disjoint`).
#[derive(Clone, Copy)]
pub(super) struct PortRequests {
    pub outs: u64,
    pub ins: u64,
    pub eligible: usize,
}

impl PortRequests {
    /// Whether no two eligible VCs share an input port or an output port: as many eligible
    /// VCs as inputs asking and as outputs asked for (one VC alone shares nothing).
    #[inline(always)]
    pub fn disjoint(&self) -> bool {
        self.eligible <= 1
            || (self.eligible == self.ins.count_ones() as usize
                && self.eligible == self.outs.count_ones() as usize)
    }
}

impl Network<'_> {
    /// The switch requests of router `r` on port masks (see the module comment); with
    /// `ROWS` also the rows. The caller clears the columns and the rows
    /// ([`Network::clear_port_requests`]).
    #[inline(always)]
    pub(super) fn port_requests<const ROWS: bool>(&mut self, r: usize) -> PortRequests {
        if self.va.held_on {
            // Only separable input-first takes the holders by port (sw_held.rs), with rows.
            debug_assert!(ROWS, "the holders by output port build the rows");
            return self.held_requests(r);
        }
        if self.dense_requests(r) {
            self.port_requests_of::<ROWS, true>(r)
        } else {
            self.port_requests_of::<ROWS, false>(r)
        }
    }

    /// Whether router `r` has at least `sa_dense_min` candidate VCs (holding an output VC
    /// and a flit): its requests are then built without a branch per VC.
    #[inline(always)]
    fn dense_requests(&self, r: usize) -> bool {
        let k = r * self.wpr;
        let (held, occ) = (
            &self.va.holding[k..k + self.wpr],
            &self.occ[k..k + self.wpr],
        );
        let n: u32 = held
            .iter()
            .zip(occ)
            .map(|(h, o)| (h & o).count_ones())
            .sum();
        n as usize >= self.sa_dense_min
    }

    /// [`Network::port_requests`], without a branch per VC when `DENSE`.
    #[inline(always)]
    fn port_requests_of<const ROWS: bool, const DENSE: bool>(&mut self, r: usize) -> PortRequests {
        // A port's VCs are a power of two in most runs: a VC's port is then a shift.
        let nv = self.nv;
        if nv & (nv - 1) == 0 {
            let s = nv.trailing_zeros();
            self.port_requests_by::<ROWS, DENSE>(r, |local| local >> s)
        } else {
            self.port_requests_by::<ROWS, DENSE>(r, |local| local / nv)
        }
    }

    /// [`Network::port_requests`] with `port_of` the input port of a local VC number.
    /// `DENSE`: every candidate's eligibility is a 0 or 1 shifted into the masks, with no
    /// branch on it. At saturation (src/examples/singleconfig: 48 candidates a cycle, 41
    /// eligible) whether a VC is eligible follows no pattern the branch predictor can learn;
    /// where candidates are few (a mesh below saturation) the branches are cheaper.
    #[inline(always)]
    fn port_requests_by<const ROWS: bool, const DENSE: bool>(
        &mut self,
        r: usize,
        port_of: impl Fn(usize) -> usize,
    ) -> PortRequests {
        let (nv, wpr, now) = (self.nv, self.wpr, self.now);
        let p0 = self.pstart[r] as usize;
        let np = self.pstart[r + 1] as usize - p0;
        let k = r * wpr;
        let apply = self.va.fresh_apply();
        let va = &mut self.va;
        let (held, occ) = (&va.holding[k..k + wpr], &self.occ[k..k + wpr]);
        let fresh = &mut va.fresh[..wpr];
        let (vcs, credits) = (&self.vcs[p0 * nv..(p0 + np) * nv], &self.credits[..]);
        let mr = &mut *self.mr;
        if mr.sa_vcs.len() < LOCAL * wpr {
            mr.sa_vcs.resize(LOCAL * wpr, 0);
        }
        let (elig, cols, rows) = (&mut mr.sa_elig[..wpr], &mut mr.sa_cols, &mut mr.sa_rows);
        let by_out = &mut mr.sa_vcs[..];
        let (mut outs, mut ins, mut n) = (0u64, 0u64, 0usize);
        for w in 0..wpr {
            // The VCs granted this cycle are skipped (`VaState::fresh`) and unmarked.
            let f = std::mem::take(&mut fresh[w]);
            let mut bits = held[w] & occ[w] & !if apply { f } else { 0 };
            let mut e = 0u64;
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let local = 64 * w + b;
                let x = &vcs[local];
                let go = x.out_port as usize;
                let one = if DENSE {
                    // Every operand evaluated (`&`, no short cut); a VC not holding a
                    // routed output VC reads no credit past the end.
                    let credit = go.wrapping_mul(nv).wrapping_add(x.out_vc as usize);
                    let has = credits.get(credit).is_some_and(|&c| c != 0);
                    ((x.state == ACTIVE) & x.ready_by(now) & has) as u64
                } else {
                    if x.state != ACTIVE
                        || !x.ready_by(now)
                        || credits[go * nv + x.out_vc as usize] == 0
                    {
                        continue;
                    }
                    1
                };
                let (i, o) = (port_of(local) & 63, go.wrapping_sub(p0) & 63);
                e |= one << b;
                by_out[o * wpr + w] |= one << b;
                cols[o] |= one << i;
                if ROWS {
                    rows[i] |= one << o;
                }
                (ins, outs) = (ins | one << i, outs | one << o);
                n += one as usize;
            }
            elig[w] = e;
        }
        PortRequests {
            outs,
            ins,
            eligible: n,
        }
    }

    /// The VC carrying local input `i`'s request for local output `o` at the router whose
    /// first port is `p0`: the first of the port's eligible VCs wanting `o` (`mr.sa_vcs`,
    /// after [`Network::port_requests`]) from its VC offset.
    #[inline(always)]
    pub(super) fn carrying_vc(&self, p0: usize, i: usize, o: usize) -> usize {
        let (nv, wpr) = (self.nv, self.wpr);
        let port_vcs = word_bits(&self.mr.sa_vcs[o * wpr..(o + 1) * wpr], i * nv, nv);
        debug_assert!(port_vcs != 0, "a matched input has a VC for its output");
        super::allocator::rotate_pick(port_vcs, self.in_rr[p0 + i] as usize)
    }

    /// Clears the eligible VCs by output (`mr.sa_vcs`) of the outputs `outs` that
    /// [`Network::port_requests`] left (when the requests were on port masks).
    #[inline]
    pub(super) fn clear_vc_masks(&mut self, mut outs: u64) {
        if !self.mr.sa_on_masks {
            return;
        }
        let (wpr, mr) = (self.wpr, &mut *self.mr);
        while outs != 0 {
            let o = outs.trailing_zeros() as usize;
            outs &= outs - 1;
            // Only the words with eligible VCs were written (and no memset call).
            for w in 0..wpr {
                if mr.sa_elig[w] != 0 {
                    mr.sa_vcs[o * wpr + w] = 0;
                }
            }
        }
    }

    /// Every request of router `r` is granted and accepted: no two share an input or an
    /// output port (`req.disjoint()`), so each input port has one eligible VC, and the
    /// eligible VCs (`mr.sa_elig`) are in port order. The pointers of each pair move past
    /// it (output: past the input; input: past the output and the VC), and the VCs send in
    /// port order; the requests are cleared.
    #[inline(always)]
    pub(super) fn send_disjoint<const ROWS: bool>(&mut self, r: usize, req: PortRequests) {
        debug_assert!(req.disjoint());
        let (nv, wpr) = (self.nv, self.wpr);
        let p0 = self.pstart[r] as usize;
        let np = self.pstart[r + 1] as usize - p0;
        for w in 0..wpr {
            let mut bits = self.mr.sa_elig[w];
            while bits != 0 {
                let local = 64 * w + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let (i, v) = split_vc(local, nv);
                let gi = p0 + i;
                let o = (self.vcs[gi * nv + v].out_port as usize - p0) & 63;
                self.mr.sa_cols[o] = 0;
                // The output's one eligible VC is in this word.
                self.mr.sa_vcs[o * wpr + w] = 0;
                if ROWS {
                    self.mr.sa_rows[i & 63] = 0;
                }
                self.out_rr[p0 + o] = next(i, np) as u16;
                self.sa_aptr[gi] = next(o, np) as u16;
                self.in_rr[gi] = next(v, nv) as u8;
                self.traverse(r, gi, v);
            }
        }
    }

    /// Clears the rows of the inputs `ins` and (`outs`) the columns that
    /// [`Network::port_requests`] or the VC-by-VC requests left.
    #[inline]
    pub(super) fn clear_port_requests(&mut self, mut ins: u64, mut outs: u64) {
        while ins != 0 {
            let i = ins.trailing_zeros() as usize;
            ins &= ins - 1;
            self.mr.sa_rows[i] = 0;
        }
        while outs != 0 {
            let o = outs.trailing_zeros() as usize;
            outs &= outs - 1;
            self.mr.sa_cols[o] = 0;
        }
    }
}

/// Bits `start..start + n` (`n <= 64`) of the bit set `words`, as the low bits of a word.
#[inline(always)]
pub(super) fn word_bits(words: &[u64], start: usize, n: usize) -> u64 {
    let (w, off) = (start / 64, start % 64);
    let mut x = words[w] >> off;
    if off + n > 64 {
        x |= words[w + 1] << (64 - off);
    }
    if n < 64 {
        x & ((1 << n) - 1)
    } else {
        x
    }
}

/// Words `2c` and `2c + 1` of the bit set `words` as one `u128` (the second 0 past the
/// end): a router's VC masks two words at a time, so that a loop over their bits ends (a
/// branch mispredicted) once per 128 VCs, not once per 64.
#[inline(always)]
pub(super) fn word_pair(words: &[u64], c: usize) -> u128 {
    let hi = words.get(2 * c + 1).map_or(0, |&w| w as u128);
    words[2 * c] as u128 | hi << 64
}
