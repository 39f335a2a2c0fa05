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
//! The masks then give the rows and the eligible VCs by output exactly as the per-VC pass
//! does, so the allocator, `carrying_vc` and `send_disjoint` read them unchanged. With a
//! power-of-two VC count the rows are gathered in lanes (each input port's `nv` bits of a
//! mask word; output `o` sets bit `o % nv` of lane chunk `o / nv`: a shift and an OR per
//! output and word, no pass per request); other counts transpose the columns. Every word
//! the requests leave is written afresh for each router, so none is cleared after the
//! allocation. The predicate (`Network::decide_held_requests`, once a run, before any
//! grant): BookSim's separable_input_first switch allocator on port masks (no priorities),
//! no crossbar, no route sets, routers of at most `HELD_WORDS` mask words that the mask
//! router does not run (it keeps its own masks). Every place that sets or clears a VC's
//! `holding` bit on these paths keeps the masks (`take_vc_local`, `grant_local`,
//! `traverse`); worms never hold output VCs this way. tests_sw_held.rs
//! `held_requests_match_the_per_vc_pass` and `held_rows_match_on_every_lane_shape` compare
//! the figures with the per-VC pass.

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

    /// The switch requests of router `r` from the holders by output port for separable
    /// input-first allocation: the rows, the eligible VCs by output and by word, the
    /// fresh marks cleared. Every word it leaves is written afresh in each call (the rows
    /// of the inputs asking, the eligible VCs of every output of the router, the eligible
    /// VCs by word), so nothing is cleared after it (`mr.sa_cols` is scratch here).
    pub(super) fn held_requests(&mut self, r: usize) -> super::sw_ports::PortRequests {
        debug_assert!(self.wpr <= HELD_WORDS);
        // The words a router's masks take are a constant in each copy: its loops unrolled.
        match self.wpr {
            1 => self.held_requests_in::<1>(r),
            2 => self.held_requests_in::<2>(r),
            3 => self.held_requests_in::<3>(r),
            _ => self.held_requests_in::<HELD_WORDS>(r),
        }
    }

    /// [`Network::held_requests`] for routers of `W` mask words: each output's eligible
    /// VCs (`mr.sa_vcs`, every output's written), then, for a power-of-two VC count, the
    /// rows gathered in lanes ([`lane_rows`]); other counts transpose the columns
    /// ([`rows_by_columns`]).
    #[inline(always)]
    fn held_requests_in<const W: usize>(&mut self, r: usize) -> super::sw_ports::PortRequests {
        let (nv, now) = (self.nv, self.now);
        let p0 = self.pstart[r] as usize;
        let np = self.pstart[r + 1] as usize - p0;
        let apply = self.va.fresh_apply();
        // A holder granted before this cycle is ready (the fresh ones are skipped).
        let ready_known = self.va.delay == 0 || (self.va.delay == 1 && apply);
        let mut avail = [0u64; W];
        for (w, a) in avail.iter_mut().enumerate() {
            let f = std::mem::take(&mut self.va.fresh[w]);
            *a = self.occ[r * W + w] & !if apply { f } else { 0 };
        }
        let (vcs, credits, down) = (&self.vcs[p0 * nv..], &self.credits[..], &self.down);
        let held = &self.va.held_by_out[p0 * W..(p0 + np) * W];
        let mr = &mut *self.mr;
        if mr.sa_vcs.len() < LOCAL * W {
            mr.sa_vcs.resize(LOCAL * W, 0);
        }
        let by_out = &mut mr.sa_vcs[..np * W];
        // The holders with a flit; on an ejection port with the ready cycle known these
        // are the eligible ones (`ride`), elsewhere their credits are read below.
        let (mut outs, mut elig, mut slow) = (0u64, [0u64; W], 0u64);
        for (o, (h, e_out)) in held
            .chunks_exact(W)
            .zip(by_out.chunks_exact_mut(W))
            .enumerate()
        {
            let ride = ready_known & (down[p0 + o].ivc & DOWN_EJECT != 0);
            let keep = 0u64.wrapping_sub(ride as u64);
            let mut any = 0u64;
            for w in 0..W {
                let e = h[w] & avail[w];
                e_out[w] = e;
                elig[w] |= e & keep;
                any |= e;
            }
            outs |= ((any & keep != 0) as u64) << o;
            slow |= (!ride as u64) << o;
        }
        while slow != 0 {
            let o = slow.trailing_zeros() as usize;
            slow &= slow - 1;
            let go = p0 + o;
            let mut any = 0u64;
            for (w, e_out) in by_out[o * W..(o + 1) * W].iter_mut().enumerate() {
                let e = eligible_among(*e_out, &vcs[64 * w..], credits, go * nv, now);
                *e_out = e;
                elig[w] |= e;
                any |= e;
            }
            outs |= ((any != 0) as u64) << o;
        }
        let ports = PortFold::new(nv);
        let by_out = &mr.sa_vcs[..np * W];
        let ins = if !ports.lanes_fit(np) {
            rows_by_columns(by_out, (np, W), &ports, &mut mr.sa_cols, &mut mr.sa_rows)
        } else if nv == 8 {
            lane_rows::<W>(by_out, np, &ports, PortFold::byte_flags, &mut mr.sa_rows)
        } else {
            lane_rows::<W>(by_out, np, &ports, |e| ports.flags(e), &mut mr.sa_rows)
        };
        mr.sa_elig[..W].copy_from_slice(&elig);
        // Counted once (no popcount instruction in the baseline target: a dozen each).
        let n: u32 = elig.iter().map(|e| e.count_ones()).sum();
        super::sw_ports::PortRequests {
            outs,
            ins,
            eligible: n as usize,
        }
    }
}

/// Lane chunks of the outputs at most for which [`lane_rows`] serves (a router's outputs
/// in chunks of `nv`: singleconfig's 10 ports of 8 VCs take two).
const LANE_CHUNKS: usize = 2;

/// The rows of a router's requests (`rows[i]`: the outputs input `i` asks for, written for
/// every input) from its eligible VCs by output (`by_out`, `W` words each, `np` outputs),
/// for a power-of-two VC count: each input port's `nv` bits of a mask word are a lane, in
/// which output `o` sets bit `o % nv` of chunk `o / nv` (`acc[chunk][word]`: the word's
/// VCs folded onto their ports' first bits by `fold`, shifted, one OR per output and
/// word); a row is its port's lanes side by side. Returns the inputs asking.
#[inline(always)]
fn lane_rows<const W: usize>(
    by_out: &[u64],
    np: usize,
    ports: &PortFold,
    fold: impl Fn(u64) -> u64,
    rows: &mut [u64; LOCAL],
) -> u64 {
    let nv = ports.nv;
    let (vshift, pshift) = (nv.trailing_zeros(), ports.per_word.trailing_zeros());
    let mut acc = [[0u64; W]; LANE_CHUNKS];
    for (o, e) in by_out.chunks_exact(W).take(np).enumerate() {
        let (lane, s) = (&mut acc[(o >> vshift) % LANE_CHUNKS], o & (nv - 1));
        for w in 0..W {
            lane[w] |= fold(e[w]) << s;
        }
    }
    let lane_mask = if nv == 64 { !0 } else { (1u64 << nv) - 1 };
    let mut ins = 0u64;
    for (i, row_out) in rows.iter_mut().enumerate().take(np) {
        let (w, j) = ((i >> pshift) % W, i & (ports.per_word - 1));
        let mut row = 0u64;
        // Chunks past the router's outputs are zero (their shifts may wrap).
        for (c, a) in acc.iter().enumerate() {
            let part = a[w].wrapping_shr((j * nv) as u32) & lane_mask;
            row |= part.wrapping_shl((c * nv) as u32);
        }
        *row_out = row;
        ins |= ((row != 0) as u64) << i;
    }
    ins
}

/// [`lane_rows`] for any VC count: each output's column (its asking inputs, into
/// `cols`), then the rows of the inputs asking as the columns transposed.
#[inline(never)]
fn rows_by_columns(
    by_out: &[u64],
    (np, wpr): (usize, usize),
    ports: &PortFold,
    cols: &mut [u64; LOCAL],
    rows: &mut [u64; LOCAL],
) -> u64 {
    let mut ins = 0u64;
    for (o, col_out) in cols.iter_mut().enumerate().take(np) {
        let col = (0..wpr).fold(0, |c, w| c | ports.of(by_out[o * wpr + w], w));
        *col_out = col;
        ins |= col;
    }
    let mut bits = ins;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        rows[i] = (0..np).fold(0, |row, o| row | (cols[o] >> i & 1) << o);
    }
    ins
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
        // Built once per router and cycle: no division, the ports' first bits doubled.
        let mut firsts = 1u64;
        let mut span = nv;
        while span < 64 {
            firsts |= firsts << span;
            span *= 2;
        }
        PortFold {
            nv,
            per_word: 64 >> nv.trailing_zeros(),
            firsts,
        }
    }

    /// Whether [`lane_rows`] serves a router of `np` ports: a power-of-two VC count, the
    /// outputs in at most `LANE_CHUNKS` chunks of `nv`.
    #[inline(always)]
    fn lanes_fit(&self, np: usize) -> bool {
        self.per_word > 0 && np <= LANE_CHUNKS * self.nv
    }

    /// [`PortFold::flags`] for 8 VCs a port: a byte's bits onto its top bit (its low
    /// seven added to 0x7f carry into it), moved to its first.
    #[inline(always)]
    fn byte_flags(e: u64) -> u64 {
        let low = 0x7f7f_7f7f_7f7f_7f7f_u64;
        (((e & low).wrapping_add(low) | e) & !low) >> 7
    }

    /// The VCs `e` of a mask word folded onto their ports' first bits (bit `g * nv` set
    /// when port `g` of the word has one), for a power-of-two VC count.
    #[inline(always)]
    fn flags(&self, e: u64) -> u64 {
        let nv = self.nv;
        if nv == 8 {
            PortFold::byte_flags(e)
        } else {
            let mut t = e;
            let mut s = nv / 2;
            while s > 0 {
                t |= t >> s;
                s /= 2;
            }
            t & self.firsts
        }
    }

    /// The ports of the VCs `e` of mask word `w`.
    #[inline(always)]
    fn of(&self, e: u64, w: usize) -> u64 {
        let nv = self.nv;
        let gathered = if nv == 8 {
            // Each byte's flag to its bit.
            byte_flags_to_bits(self.flags(e))
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
            let t = self.flags(e);
            (0..self.per_word).fold(0u64, |c, g| c | (t >> (g * nv) & 1) << g)
        };
        // Word `w` starts at port `w * per_word` (below 64: a router has at most 64 ports).
        debug_assert!(w * self.per_word < 64);
        gathered << ((w * self.per_word) & 63)
    }
}
