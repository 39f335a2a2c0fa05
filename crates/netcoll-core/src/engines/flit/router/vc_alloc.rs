//! VC allocation: a routed head flit acquires an output VC of its class on its output port.
//! The allocator's inputs are the router's input VCs and its outputs the router's output
//! VCs (both numbered `port * num_vcs + vc` within the router). Every waiting input VC
//! requests every free output VC of its class on its output port (under virtual
//! cut-through, those whose downstream buffer holds the whole packet), as BookSim's router
//! does; the allocator then matches them.
//!
//! * BookSim's allocators (`vc_allocator` = islip, separable_input_first,
//!   separable_output_first, wavefront, rr_wavefront, select, max_size, pim, loa; with
//!   `alloc_iters` iterations where they iterate) run on a request matrix
//!   (router/alloc/, one file each).
//! * `islip` with one iteration (BookSim 2's default) runs faster on the VC masks
//!   (vc_masks.rs, mask_router.rs) or a grant table (below, routers of over 64 VCs), with
//!   the same matching and pointer moves: each output VC grants the requesting input VC
//!   nearest its grant pointer (round-robin), each input VC accepts the grant nearest its
//!   accept pointer; both pointers move past the match only when a grant is accepted. Two
//!   input VCs wanting the same port may thus be granted the same output VC and leave the
//!   others unused in that cycle: the conflicts BookSim's routers lose to.
//! * `greedy` (netcoll's own, not BookSim's): input VCs visited round-robin from the one
//!   after the last granted, each taking the next free output VC of its class round-robin
//!   (a maximal matching).
//!
//! A replicating worm (`replicate.rs`) is not part of the matching: each of its branches
//! takes a free VC of its output port round-robin as soon as the worm is routed.
//!
//! All only consider VCs whose routing finished (`ready <= now`).

use super::alloc::{allocate, draw_key, Draws, Kind, State};
use super::alloc_registry::vc_kind;
use super::allocator::{next, round_robin};
use super::network::{Network, ACTIVE, IDLE, NONE};
use super::sw_alloc::clamp_pri;
use super::types::REPL;
use super::vc_masks::split_vc;

impl Network<'_> {
    /// Routes the input VCs of router `r` that need it, then runs VC allocation.
    pub(super) fn route_and_allocate_vcs(&mut self, r: usize) {
        if !self.waiting(r) {
            return;
        }
        match vc_kind(self.cfg.vc_allocator) {
            None => self.greedy_vcs(r),
            Some(Kind::Islip) if !self.va.book.general => {
                self.islip_vcs_fast(r, self.cfg.vc_iters())
            }
            // separable_output_first is one iteration of iSLIP (va_ports.rs).
            Some(Kind::SeparableOutputFirst) if self.separable_ports_apply() => {
                self.islip_vcs_fast(r, 1)
            }
            Some(Kind::SeparableInputFirst) if self.separable_ports_apply() => {
                self.input_first_vcs_ports(r)
            }
            Some(kind) => self.booksim_vcs(r, kind),
        }
    }

    /// BookSim's iSLIP with `iters` iterations at router `r` on the fastest path that
    /// applies, all giving the same matching and pointer moves: one iteration on a router
    /// of at most 64 VCs on one-word masks (vc_masks.rs); else, when every port's VCs fit
    /// a mask, on per-port masks (va_ports.rs); else by the grant table (`islip_vcs_on`).
    /// Inlined: its two callers are one `match` (a call per router and cycle showed in
    /// meshconfig's profile).
    #[inline(always)]
    fn islip_vcs_fast(&mut self, r: usize, iters: u32) {
        let n = (self.pstart[r + 1] - self.pstart[r]) as usize * self.nv;
        if iters == 1 && n <= self.va.mask_limit {
            return self.islip_vcs_masks(r);
        }
        if self.va_ports_apply() {
            self.islip_vcs_ports(r, iters)
        } else {
            self.islip_vcs_iters(r, iters)
        }
    }

    /// VC allocation at router `r` by BookSim's allocator `kind` on a request matrix.
    fn booksim_vcs(&mut self, r: usize, kind: Kind) {
        let nv = self.nv;
        let p0v = self.pstart[r] as usize * nv;
        let n = (self.pstart[r + 1] as usize - self.pstart[r] as usize) * nv;
        let mut waiting = std::mem::take(&mut self.va.reqs);
        waiting.clear();
        self.collect_vc_requests(r, &mut waiting);
        self.va.book.reqs.clear(n, n);
        // Requests by the ports' masks where they fit (tests set `mask_limit` to 0).
        let masks = self.va_ports_apply();
        for &i in &waiting {
            let ivc = p0v + i as usize;
            // The output side bids with the flit's priority, the input side with 0 (what
            // BookSim's routing functions give); 0 and 0 under priority = none.
            let pri = clamp_pri(self.vc_pri(ivc));
            let base = self.vcs[ivc].out_port as usize * nv;
            if masks {
                // The free VCs of its class with room, by the port's masks (va_ports.rs).
                let mut cand = self.port_candidates(ivc);
                while cand != 0 {
                    let og = base + cand.trailing_zeros() as usize;
                    cand &= cand - 1;
                    self.va.book.reqs.add(i as usize, og - p0v, 0, pri);
                }
                continue;
            }
            let (lo, hi) = self.vc_range(ivc);
            let need = self.vc_need(ivc);
            for og in base + lo..base + hi {
                if self.owner[og] == NONE && self.credits[og] >= need {
                    self.va.book.reqs.add(i as usize, og - p0v, 0, pri);
                }
            }
        }
        // BookSim runs the allocator whenever VCs wait (max-size's first input moves then,
        // requests or not); with no requests the others change nothing.
        if !self.va.book.reqs.is_empty() || kind == Kind::MaxSize {
            let va = &mut self.va;
            let mut st = State {
                in_ptr: &mut va.aptr[p0v..p0v + n],
                out_ptr: &mut va.gptr[p0v..p0v + n],
                word: &mut va.book.va_word[r],
                draws: Draws {
                    key: draw_key(va.book.seed, 0, r),
                    n: &mut va.book.va_draws[r],
                },
            };
            let iters = self.cfg.vc_iters();
            allocate(
                kind,
                iters,
                &mut va.book.reqs,
                &mut st,
                &mut va.book.matching,
            );
            for &i in &waiting {
                let o = self.va.book.matching.in_match[i as usize];
                if o != NONE {
                    self.take_vc(r, p0v + i as usize, p0v + o as usize);
                }
            }
        }
        self.va.reqs = waiting;
    }

    /// Credits an output VC needs before it can be requested (VCT: the whole packet).
    #[inline]
    fn vc_need(&self, ivc: usize) -> u16 {
        if self.is_vct() {
            self.packets[self.front(ivc).pkt as usize].size
        } else {
            0
        }
    }

    /// Grants output VC `og` (global) to input VC `ivc` of router `r`.
    pub(super) fn take_vc(&mut self, r: usize, ivc: usize, og: usize) {
        let (go, ov) = split_vc(og, self.nv);
        self.take_vc_at(r, ivc, go, ov);
    }

    /// [`Network::take_vc`] of output VC `ov` of global output port `go`.
    #[inline]
    pub(super) fn take_vc_at(&mut self, r: usize, ivc: usize, go: usize, ov: usize) {
        let local = ivc - self.pstart[r] as usize * self.nv;
        self.take_vc_local(r, local, ivc, go, ov);
    }

    /// [`Network::take_vc_at`] by an allocator that knows the input VC's router-local
    /// number `local` as well as its global one `ivc`.
    #[inline(always)]
    pub(super) fn take_vc_local(
        &mut self,
        r: usize,
        local: usize,
        ivc: usize,
        go: usize,
        ov: usize,
    ) {
        self.claim_vc(go, ov, ivc);
        let ready = self.now + self.va.delay;
        let x = &mut self.vcs[ivc];
        x.out_vc = ov as u8;
        x.state = ACTIVE;
        x.set_ready(ready);
        // It leaves the wait set and the routed VCs and holds an output VC now.
        let (w, bit) = (r * self.wpr + local / 64, 1u64 << (local % 64));
        self.wait_bits[w] &= !bit;
        self.va.routed[w] &= !bit;
        self.va.holding[w] |= bit;
        self.note_held(r, local, go, true);
        self.drop_requester(local, go);
        // Its flit bids from `ready` on: not in this cycle's switch allocation.
        self.va.mark_fresh(local / 64, bit);
    }

    /// Routes idle input VCs and collects the local indices of those ready for VA, in
    /// increasing order.
    pub(super) fn collect_vc_requests(&mut self, r: usize, reqs: &mut Vec<u32>) {
        for w in 0..self.wpr {
            let mut bits = self.ready_requests(r, w);
            while bits != 0 {
                reqs.push((64 * w + bits.trailing_zeros() as usize) as u32);
                bits &= bits - 1;
            }
        }
    }

    /// iSLIP over input VCs and output VCs by a grant table, `alloc_iters` iterations
    /// (router/alloc/islip.rs's rules: later iterations match among the unmatched, pointers
    /// move on first-iteration matches only).
    pub(super) fn islip_vcs(&mut self, r: usize) {
        self.islip_vcs_iters(r, self.cfg.vc_iters());
    }

    /// [`Network::islip_vcs`] with `iters` iterations.
    fn islip_vcs_iters(&mut self, r: usize, iters: u32) {
        let mut reqs = std::mem::take(&mut self.va.reqs);
        reqs.clear();
        self.collect_vc_requests(r, &mut reqs);
        self.islip_vcs_on(r, &reqs, iters);
        self.va.reqs = reqs;
    }

    /// [`Network::islip_vcs`] with `iters` iterations over the requesting local input VCs
    /// `reqs` (increasing).
    pub(super) fn islip_vcs_on(&mut self, r: usize, reqs: &[u32], iters: u32) {
        let nv = self.nv;
        let p0v = self.pstart[r] as usize * nv;
        let n = (self.pstart[r + 1] as usize - self.pstart[r] as usize) * nv;
        if reqs.len() == 1 {
            // A lone requester is granted by every free VC it asks for: it takes the one
            // nearest its accept pointer (the same outcome, without the grant table).
            return self.lone_vc_request(r, p0v + reqs[0] as usize, n);
        }
        let mut touched = std::mem::take(&mut self.va.touched);
        for iter in 0..iters {
            // Grant: every free output VC picks the unmatched requester nearest its
            // pointer (a match takes the output VC, and leaves its input VC active).
            touched.clear();
            for &i in reqs {
                let ivc = p0v + i as usize;
                if self.vcs[ivc].state == ACTIVE {
                    continue;
                }
                let (lo, hi) = self.vc_range(ivc);
                let base = self.vcs[ivc].out_port as usize * nv;
                let need = self.vc_need(ivc);
                for og in base + lo..base + hi {
                    if self.owner[og] != NONE || self.credits[og] < need {
                        continue;
                    }
                    self.offer_grant(og - p0v, og, i, n, &mut touched);
                }
            }
            if touched.is_empty() {
                break;
            }
            // Accept: every input VC takes the grant nearest its pointer.
            for &i in reqs {
                let ivc = p0v + i as usize;
                let (lo, hi) = self.vc_range(ivc);
                let base = self.vcs[ivc].out_port as usize * nv;
                let aptr = self.va.aptr[ivc] as usize;
                let mut best: Option<(usize, usize)> = None;
                for og in base + lo..base + hi {
                    let o = og - p0v;
                    if self.va.grant[o] != i {
                        continue;
                    }
                    let d = wrap(o + n - aptr, n);
                    if best.is_none_or(|(_, bd)| d < bd) {
                        best = Some((og, d));
                    }
                }
                if let Some((og, _)) = best {
                    if iter == 0 {
                        self.va.gptr[og] = next(i as usize, n) as u16;
                        self.va.aptr[ivc] = next(og - p0v, n) as u16;
                    }
                    self.take_vc(r, ivc, og);
                }
            }
            for &o in &touched {
                self.va.grant[o as usize] = NONE;
            }
        }
        self.va.touched = touched;
    }

    /// Output VC `og` (router-local `o`) is asked for by input VC `i` (local): it keeps the
    /// requester nearest its grant pointer; `touched` lists the outputs asked this cycle.
    #[inline]
    pub(super) fn offer_grant(
        &mut self,
        o: usize,
        og: usize,
        i: u32,
        n: usize,
        touched: &mut Vec<u32>,
    ) {
        let d = wrap(i as usize + n - self.va.gptr[og] as usize, n);
        if self.va.grant[o] == NONE {
            touched.push(o as u32);
        } else if d >= self.va.grant_d[o] as usize {
            return;
        }
        self.va.grant[o] = i;
        self.va.grant_d[o] = d as u16;
    }

    /// The free output VC that `ivc` may take nearest its accept pointer.
    fn nearest_free_vc(&self, ivc: usize, p0v: usize, n: usize) -> Option<usize> {
        let (lo, hi) = self.vc_range(ivc);
        let base = self.vcs[ivc].out_port as usize * self.nv;
        let need = self.vc_need(ivc);
        let aptr = self.va.aptr[ivc] as usize;
        let mut best: Option<(usize, usize)> = None;
        for og in base + lo..base + hi {
            if self.owner[og] != NONE || self.credits[og] < need {
                continue;
            }
            let d = wrap(og - p0v + n - aptr, n);
            if best.is_none_or(|(_, bd)| d < bd) {
                best = Some((og, d));
            }
        }
        best.map(|b| b.0)
    }

    fn lone_vc_request(&mut self, r: usize, ivc: usize, n: usize) {
        let p0v = self.pstart[r] as usize * self.nv;
        if let Some(og) = self.nearest_free_vc(ivc, p0v, n) {
            self.va.gptr[og] = next(ivc - p0v, n) as u16;
            self.va.aptr[ivc] = next(og - p0v, n) as u16;
            self.take_vc(r, ivc, og);
        }
    }

    /// The greedy allocator: input VCs round-robin from the one after the last granted.
    fn greedy_vcs(&mut self, r: usize) {
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
                    if self.vcs[ivc].state == IDLE {
                        self.route_local(ivc, r, local);
                    }
                    if self.vcs[ivc].state == REPL {
                        if self.vcs[ivc].ready_by(self.now) && self.allocate_branches(ivc) {
                            self.router_rr[r] = ((local + 1) % n_ivc) as u16;
                        }
                        continue;
                    }
                    if self.vcs[ivc].ready_by(self.now) && self.greedy_vc(r, ivc) {
                        self.router_rr[r] = ((local + 1) % n_ivc) as u16;
                    }
                }
            }
        }
    }

    fn greedy_vc(&mut self, r: usize, ivc: usize) -> bool {
        let go = self.vcs[ivc].out_port as usize;
        let (lo, hi) = self.vc_range(ivc);
        let need = self.vc_need(ivc);
        let base = go * self.nv;
        let pick = round_robin(self.va_rr[go] as usize, hi - lo, |k| {
            let o = base + lo + k;
            self.owner[o] == NONE && self.credits[o] >= need
        });
        let Some(k) = pick else {
            return false;
        };
        self.va_rr[go] = ((k + 1) % (hi - lo)) as u8;
        self.take_vc(r, ivc, base + lo + k);
        true
    }
}

/// `x mod n` for `x < 2n` (no division in the allocator's inner loops).
#[inline]
fn wrap(x: usize, n: usize) -> usize {
    if x >= n {
        x - n
    } else {
        x
    }
}
