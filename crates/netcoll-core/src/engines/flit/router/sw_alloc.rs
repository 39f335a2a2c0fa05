//! Switch allocation: which input VCs send a flit through the crossbar this cycle (at most
//! one flit per input port and per output port; no speedup). A VC is eligible when it holds
//! an output VC, its front flit is past the VA stage (`ready <= now`) and its output VC has
//! a credit. The allocator's inputs and outputs are the router's ports: an input port
//! requests every output port one of its eligible VCs wants; per (input, output) pair the
//! request carries the VC nearest the port's VC round-robin offset (BookSim's
//! `_sw_rr_offset`), which moves past the VC that sends.
//!
//! * BookSim's allocators (`sw_allocator` = islip, separable_input_first,
//!   separable_output_first, wavefront, rr_wavefront, select, max_size, pim, loa; with
//!   `alloc_iters` iterations where they iterate) run on a request matrix
//!   (router/alloc/, one file each).
//! * `islip` (any iterations) runs faster on port masks (below, xbar_match.rs'
//!   `IslipRounds`, and mask_router.rs), with the same matching: each output grants the
//!   requesting input nearest its grant pointer, each input accepts the grant nearest its
//!   accept pointer; on an accepted grant both pointers move past the match. Without
//!   priorities, `separable_output_first` runs as one iSLIP iteration (the same rule) and
//!   `separable_input_first` on port masks too (xbar_match.rs), not on the request matrix
//!   (`sa_ports_apply`).
//! * Without priorities, the requests are built on port masks (sw_ports.rs): each
//!   eligible VC is a bit, and only a matched pair looks for its carrying VC (the first of
//!   the input port's eligible VCs wanting the output from the port's VC offset); when no
//!   two eligible VCs share a port, iSLIP and the separable allocators send them all
//!   without arbitration. tests_mask_router.rs compares these paths with the VC-by-VC
//!   requests on the request matrix.
//! * Runs with multidestination worms use netcoll's input-first allocator (each input port
//!   puts one VC forward, round-robin, each output port grants one input, round-robin):
//!   a replicating VC bids on several outputs at once.

use super::alloc::{allocate, draw_key, Draws, Kind, State, NONE};
use super::alloc_registry::sw_kind;
use super::allocator::{next, rotate_pick, round_robin};
use super::class_types::Priority;
use super::network::{Network, ACTIVE};
use super::types::REPL;
use super::vc_masks::split_vc;
use super::xbar_match::{separable_input_first, IslipRounds};

impl Network<'_> {
    pub(super) fn allocate_switch(&mut self, r: usize) {
        if self.rep.table.visits() > 0 {
            // Runs with multidestination worms: a replicating input VC bids on several
            // outputs at once, which only the input-first allocator models.
            self.va.clear_fresh();
            return self.input_first_switch(r);
        }
        match sw_kind(self.cfg.sw_allocator) {
            Kind::Islip if !self.va.book.general => {
                self.islip_switch(r, self.cfg.sw_iters() as usize)
            }
            // One iteration of iSLIP is separable output-first: every output grants the
            // requester nearest its pointer, every input accepts the grant nearest its
            // pointer, and both pointers move past a match.
            Kind::SeparableOutputFirst if self.sa_ports_apply() => self.islip_switch(r, 1),
            Kind::SeparableInputFirst if self.sa_ports_apply() => self.input_first_ports(r),
            kind => self.booksim_switch(r, kind),
        }
    }

    /// Whether the separable allocators run on port masks (xbar_match.rs), not on the
    /// request matrix: no priorities (their arbiters are then round-robin) and the fast
    /// paths on ([`MaskRouter::sa_fast`](super::mask_state::MaskRouter)).
    #[inline]
    pub(super) fn sa_ports_apply(&self) -> bool {
        self.mr.sa_fast && !self.va.book.general && self.prio == Priority::None
    }

    /// Whether input VC `ivc` may bid for the switch this cycle.
    #[inline]
    fn sa_eligible(&self, ivc: usize) -> bool {
        self.vcs[ivc].len > 0
            && self.vcs[ivc].state == ACTIVE
            && self.vcs[ivc].ready_by(self.now)
            && self.credits
                [self.vcs[ivc].out_port as usize * self.nv + self.vcs[ivc].out_vc as usize]
                > 0
    }

    /// Whether the switch requests are built on port masks (sw_ports.rs): without
    /// priorities the VC carrying a port's request for an output is the first eligible one
    /// from the port's VC offset, so only the matched pairs need theirs; and a port's VCs
    /// fit one word. Tests switch it off to compare with the VC-by-VC requests.
    #[inline]
    pub(super) fn sa_masks_apply(&self) -> bool {
        self.mr.sa_fast && self.prio == Priority::None && self.nv <= 64
    }

    /// The requests of router `r`'s input ports with the rows (see the module comment):
    /// per local output its requesting inputs (the columns, `mr.sa_cols`), per local input the outputs it
    /// requests (`mr.sa_rows`), and the VC carrying each request ([`Network::request_vc`]).
    /// Returns the outputs asked for and the inputs asking. Only the VCs holding an output
    /// VC with a flit are looked at (`holding` is exact here: a tail's traversal clears its
    /// bit). The caller clears them ([`Network::clear_port_requests`]).
    #[inline]
    fn switch_requests(&mut self, r: usize) -> (u64, u64) {
        let masks = self.sa_masks_apply();
        self.mr.sa_on_masks = masks;
        if masks {
            let q = self.port_requests::<true>(r);
            (q.outs, q.ins)
        } else {
            self.switch_requests_by_vc::<true>(r)
        }
    }

    /// The requests of router `r` for iSLIP and the separable allocators over ports (with
    /// the rows: `ROWS`), as [`Network::switch_requests`]: `None` when there are none, or
    /// when no two share a port and they were sent already ([`Network::send_disjoint`]).
    #[inline(always)]
    fn contested_requests<const ROWS: bool>(&mut self, r: usize) -> Option<(u64, u64)> {
        let masks = self.sa_masks_apply();
        self.mr.sa_on_masks = masks;
        let (outs, ins) = if masks {
            let q = self.port_requests::<ROWS>(r);
            if q.ins != 0 && q.disjoint() {
                self.send_disjoint::<ROWS>(r, q);
                return None;
            }
            (q.outs, q.ins)
        } else {
            self.switch_requests_by_vc::<ROWS>(r)
        };
        (ins != 0).then_some((outs, ins))
    }

    /// [`Network::switch_requests`] VC by VC, each request's carrying VC in `sa_req_vc`
    /// (priorities: a later VC may supersede the first); the rows (`mr.sa_rows`) only
    /// with `ROWS` (iSLIP reads the columns alone).
    #[inline(never)]
    fn switch_requests_by_vc<const ROWS: bool>(&mut self, r: usize) -> (u64, u64) {
        let nv = self.nv;
        let p0 = self.pstart[r] as usize;
        let mp = self.out_req.len();
        let (mut outs, mut ins) = (0u64, 0u64);
        let apply = self.va.fresh_apply();
        for w in 0..self.wpr {
            let k = r * self.wpr + w;
            let mut bits = self.va.holding[k] & self.occ[k] & !self.va.take_fresh(w, apply);
            while bits != 0 {
                let b = 64 * w + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let (i, v) = split_vc(b, nv);
                let base = (p0 + i) * nv;
                if !self.sa_eligible(base + v) {
                    continue;
                }
                let o = self.vcs[base + v].out_port as usize - p0;
                let slot = i * mp + o;
                if self.mr.sa_cols[o] >> i & 1 == 0 {
                    self.mr.sa_cols[o] |= 1 << i;
                    if ROWS {
                        self.mr.sa_rows[i] |= 1 << o;
                    }
                    self.sa_req_vc[slot] = v as u8;
                    (outs, ins) = (outs | 1 << o, ins | 1 << i);
                } else if self.supersedes(p0 + i, v, self.sa_req_vc[slot] as usize) {
                    self.sa_req_vc[slot] = v as u8;
                }
            }
        }
        (outs, ins)
    }

    /// The VC carrying local input `i`'s request for local output `o` at the router whose
    /// first port is `p0` (after [`Network::switch_requests`]). Inlined into the sends: as
    /// a call it took a third of its 54 instructions a flit on singleconfig.
    #[inline(always)]
    fn request_vc(&self, p0: usize, i: usize, o: usize) -> usize {
        if self.mr.sa_on_masks {
            self.carrying_vc(p0, i, o)
        } else {
            self.sa_req_vc[i * self.out_req.len() + o] as usize
        }
    }

    /// Whether VC `v` of global input port `gi` carries its port's request for an output
    /// rather than VC `held`, both eligible and asking for it: BookSim visits the VCs
    /// round-robin from the port's VC offset (`_sw_rr_offset`) and the first visited
    /// carries the request, unless a later one has a higher priority (its `Supersedes`).
    #[inline]
    fn supersedes(&self, gi: usize, v: usize, held: usize) -> bool {
        let (nv, off) = (self.nv, self.in_rr[gi] as usize);
        let dist = |x: usize| if x >= off { x - off } else { x + nv - off };
        let nearer = dist(v) < dist(held);
        if self.prio == Priority::None {
            return nearer;
        }
        let (p, ph) = (self.vc_pri(gi * nv + v), self.vc_pri(gi * nv + held));
        p > ph || (p == ph && nearer)
    }

    /// Switch allocation at router `r` by BookSim's allocator `kind` on a request matrix;
    /// the matched inputs send in port order.
    fn booksim_switch(&mut self, r: usize, kind: Kind) {
        let (outs, ins) = self.switch_requests(r);
        if ins == 0 && kind != Kind::MaxSize {
            return;
        }
        let p0 = self.pstart[r] as usize;
        let nports = self.pstart[r + 1] as usize - p0;
        self.va.book.reqs.clear(nports, nports);
        // In (input, output) order, so that `finish` need not sort.
        let mut ibits = ins;
        while ibits != 0 {
            let i = ibits.trailing_zeros() as usize;
            ibits &= ibits - 1;
            let mut obits = self.mr.sa_rows[i];
            while obits != 0 {
                let o = obits.trailing_zeros() as usize;
                obits &= obits - 1;
                // Both sides bid with the carrying VC's priority (0 under priority =
                // none), as BookSim's switch requests do.
                let pri = if self.prio == Priority::None {
                    0
                } else {
                    let v = self.sa_req_vc[i * self.out_req.len() + o] as usize;
                    clamp_pri(self.vc_pri((p0 + i) * self.nv + v))
                };
                self.va.book.reqs.add(i, o, pri, pri);
            }
        }
        self.clear_port_requests(0, outs);
        let book = &mut self.va.book;
        let mut st = State {
            in_ptr: &mut self.sa_aptr[p0..p0 + nports],
            out_ptr: &mut self.out_rr[p0..p0 + nports],
            word: &mut book.sa_word[r],
            draws: Draws {
                key: draw_key(book.seed, 1, r),
                n: &mut book.sa_draws[r],
            },
        };
        let iters = self.cfg.sw_iters();
        allocate(kind, iters, &mut book.reqs, &mut st, &mut book.matching);
        let nv = self.nv;
        for i in 0..nports {
            let o = self.va.book.matching.in_match[i];
            if o == NONE {
                continue;
            }
            let v = self.request_vc(p0, i, o as usize);
            self.in_rr[p0 + i] = next(v, nv) as u8;
            self.traverse(r, p0 + i, v);
        }
        self.clear_port_requests(ins, 0);
        self.clear_vc_masks(outs);
    }

    /// BookSim's separable input-first allocator over ports on masks (xbar_match.rs): every
    /// input picks the requested output nearest its pointer, every output the input nearest
    /// its pointer among those that picked it; the matched inputs send in port order.
    /// Out of line, as `islip_switch`: the request loop keeps its values in registers
    /// (inlined into the router's stages, they spill).
    #[inline(never)]
    fn input_first_ports(&mut self, r: usize) {
        let Some((outs, ins)) = self.contested_requests::<true>(r) else {
            return;
        };
        let p0 = self.pstart[r] as usize;
        let nports = self.pstart[r + 1] as usize - p0;
        let (mut in_m, mut pick) = (0u64, [0u8; 64]);
        let mr = &mut *self.mr;
        separable_input_first(
            &mr.sa_rows,
            (ins, nports, nports),
            &mut self.sa_aptr[p0..p0 + nports],
            &mut self.out_rr[p0..p0 + nports],
            &mut mr.grants,
            |i, o| {
                in_m |= 1 << i;
                pick[i] = o as u8;
            },
        );
        self.send_matched(r, p0, in_m, &pick);
        if !self.va.held_on {
            // The holders by output port write their words afresh each time (sw_held.rs).
            self.clear_port_requests(ins, outs);
            self.clear_vc_masks(outs);
        }
    }

    /// The matched inputs `in_m` of the router whose first port is `p0` send the VCs
    /// carrying their requests for their outputs `pick`, in port order.
    #[inline]
    fn send_matched(&mut self, r: usize, p0: usize, mut in_m: u64, pick: &[u8; 64]) {
        // Room for a send per input port at once, not per traversal.
        self.sent.reserve_hops(self.pstart[r + 1] as usize - p0);
        while in_m != 0 {
            let i = in_m.trailing_zeros() as usize;
            in_m &= in_m - 1;
            let v = self.request_vc(p0, i, pick[i] as usize);
            self.in_rr[p0 + i] = next(v, self.nv) as u8;
            self.traverse_reserved(r, p0 + i, v);
        }
    }

    /// iSLIP over ports on masks, `iters` iterations (router/alloc/islip.rs's rules:
    /// later iterations match among the unmatched, pointers move on first-iteration
    /// matches only); the matched inputs send in port order.
    fn islip_switch(&mut self, r: usize, iters: usize) {
        // iSLIP reads only the columns, and leaves them clear.
        let Some((outs, _)) = self.contested_requests::<false>(r) else {
            return;
        };
        let p0 = self.pstart[r] as usize;
        let nports = self.pstart[r + 1] as usize - p0;
        let ports = p0..p0 + nports;
        let rounds = IslipRounds {
            n: (nports, nports),
            iters,
        };
        let (mut in_m, mut pick) = (0u64, [0u8; 64]);
        let ptrs = (&mut self.out_rr[ports.clone()], &mut self.sa_aptr[ports]);
        rounds.run(
            &mut self.mr.sa_cols,
            outs,
            ptrs,
            &mut self.sa_grants,
            |i, o| {
                in_m |= 1 << i;
                pick[i] = o as u8;
            },
        );
        self.send_matched(r, p0, in_m, &pick);
        self.clear_vc_masks(outs);
    }

    /// Separable input-first allocation. A replicating worm's input VC (seed 003 s5.1.2)
    /// bids on every output one of its branches can use, which is why runs that carry worms
    /// use this allocator.
    fn input_first_switch(&mut self, r: usize) {
        let nv = self.nv;
        let p0 = self.pstart[r] as usize;
        let nports = self.pstart[r + 1] as usize - p0;
        let mut outs = 0u64;
        for i in 0..nports {
            let gi = p0 + i;
            if !self.port_occupied(gi) {
                continue;
            }
            let base = gi * nv;
            let pick = round_robin(self.in_rr[gi] as usize, nv, |v| {
                let ivc = base + v;
                if self.vcs[ivc].state == REPL {
                    return self.replicating_ready(ivc);
                }
                self.sa_eligible(ivc)
            });
            if let Some(v) = pick {
                self.req_vc[i] = v as u8;
                let mut want = if self.vcs[base + v].state == REPL {
                    self.replicating_requests(base + v, p0)
                } else {
                    1 << (self.vcs[base + v].out_port as usize - p0)
                };
                outs |= want;
                while want != 0 {
                    let o = want.trailing_zeros() as usize;
                    want &= want - 1;
                    self.out_req[o] |= 1 << i;
                }
            }
        }
        while outs != 0 {
            let o = outs.trailing_zeros() as usize;
            outs &= outs - 1;
            let go = p0 + o;
            let reqs = std::mem::take(&mut self.out_req[o]);
            let i = rotate_pick(reqs, self.out_rr[go] as usize);
            let v = self.req_vc[i] as usize;
            self.in_rr[p0 + i] = next(v, nv) as u8;
            self.out_rr[go] = next(i, nports) as u16;
            if self.vcs[(p0 + i) * nv + v].state == REPL {
                self.traverse_branch(r, (p0 + i) * nv + v, go);
            } else {
                self.traverse(r, p0 + i, v);
            }
        }
    }
}

/// A flit priority as an allocator's request priority: ages are negative cycle counts, so
/// only runs past 2^31 cycles (hours of simulation) would saturate and tie.
pub(super) fn clamp_pri(p: i64) -> i32 {
    p.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}
