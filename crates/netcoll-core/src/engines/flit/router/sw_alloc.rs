//! Switch allocation: which input VCs send a flit through the crossbar this cycle (at most
//! one flit per input port and per output port; no speedup). A VC is eligible when it holds
//! an output VC, its front flit is past the VA stage (`ready <= now`) and its output VC has
//! a credit.
//!
//! * `islip` (BookSim 2's default `sw_allocator`): iSLIP over ports with one iteration. An
//!   input port requests every output port one of its eligible VCs wants; per (input,
//!   output) pair the request carries the VC of the highest priority (`Network::vc_pri`,
//!   `priority`), ties going to the VC nearest the port's VC round-robin offset
//!   (BookSim's `_sw_rr_offset` and `Supersedes`). Each output grants the requesting input nearest its grant
//!   pointer, each input accepts the grant nearest its accept pointer; on an accepted grant
//!   both pointers move past the match and the input's VC offset past the winning VC.
//! * `separable_input_first` (netcoll's earlier allocator): each input port puts forward one
//!   eligible VC (the highest priority, ties round-robin), each output port grants one
//!   requesting input (round-robin).

use super::allocator::{next, rotate_pick, round_robin};
use super::class_types::Priority;
use super::config::SwAllocator;
use super::network::{Network, ACTIVE};
use super::types::REPL;

impl Network<'_> {
    pub(super) fn allocate_switch(&mut self, r: usize) {
        if self.rep.table.visits() > 0 {
            // Runs with multidestination worms: a replicating input VC bids on several
            // outputs at once, which only the input-first allocator models.
            return self.input_first_switch(r);
        }
        match self.cfg.sw_allocator {
            SwAllocator::Islip => self.islip_switch(r),
            SwAllocator::SeparableInputFirst => self.input_first_switch(r),
        }
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

    fn islip_switch(&mut self, r: usize) {
        let nv = self.nv;
        let p0 = self.pstart[r] as usize;
        let nports = self.pstart[r + 1] as usize - p0;
        let mp = self.out_req.len();
        let (mut outs, mut ins) = (0u64, 0u64);
        let held = &self.va.holding[r * self.wpr..(r + 1) * self.wpr];
        for i in 0..nports {
            let gi = p0 + i;
            let mask = bits_at(held, i * nv, nv);
            if mask == 0 {
                continue;
            }
            let base = gi * nv;
            let off = self.in_rr[gi] as usize;
            let mut want = 0u64;
            // VCs in round-robin order from the offset: the first VC asking for an output
            // carries that (input, output) request.
            let upper = !0u64 << off;
            for mut bits in [mask & upper, mask & !upper] {
                while bits != 0 {
                    let v = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let ivc = base + v;
                    let og = self.vcs[ivc].out_port as usize;
                    // `holding` may keep a VC whose tail has left (mask_router.rs).
                    if self.vcs[ivc].state != ACTIVE
                        || self.vcs[ivc].len == 0
                        || !self.vcs[ivc].ready_by(self.now)
                        || self.credits[og * nv + self.vcs[ivc].out_vc as usize] == 0
                    {
                        continue;
                    }
                    let o = og - p0;
                    if want & (1 << o) == 0 {
                        want |= 1 << o;
                        self.sa_req_vc[i * mp + o] = v as u8;
                        self.out_req[o] |= 1 << i;
                    } else if self.prio != Priority::None {
                        // BookSim's `Supersedes`: a higher priority takes the request over
                        // (ties stay with the VC nearest the offset, visited first).
                        let held = base + self.sa_req_vc[i * mp + o] as usize;
                        if self.vc_pri(ivc) > self.vc_pri(held) {
                            self.sa_req_vc[i * mp + o] = v as u8;
                        }
                    }
                }
            }
            if want != 0 {
                outs |= want;
                ins |= 1 << i;
            }
        }
        // Grant: every requested output picks an input.
        while outs != 0 {
            let o = outs.trailing_zeros() as usize;
            outs &= outs - 1;
            let reqs = std::mem::take(&mut self.out_req[o]);
            let i = rotate_pick(reqs, self.out_rr[p0 + o] as usize);
            self.sa_grants[i] |= 1 << o;
        }
        // Accept: every granted input picks an output; the flit goes.
        while ins != 0 {
            let i = ins.trailing_zeros() as usize;
            ins &= ins - 1;
            let grants = std::mem::take(&mut self.sa_grants[i]);
            if grants == 0 {
                continue;
            }
            let gi = p0 + i;
            let o = rotate_pick(grants, self.sa_aptr[gi] as usize);
            let v = self.sa_req_vc[i * mp + o] as usize;
            self.out_rr[p0 + o] = next(i, nports) as u16;
            self.sa_aptr[gi] = next(o, nports) as u16;
            self.in_rr[gi] = next(v, nv) as u8;
            self.traverse(r, gi, v);
        }
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
            let eligible = |v: usize| {
                let ivc = base + v;
                if self.vcs[ivc].state == REPL {
                    return self.replicating_ready(ivc);
                }
                self.sa_eligible(ivc)
            };
            let mut pick = round_robin(self.in_rr[gi] as usize, nv, eligible);
            if let (Some(first), true) = (pick, self.prio != Priority::None) {
                // The highest priority goes forward, ties to the VC nearest the offset.
                let mut best = (first, self.vc_pri(base + first));
                for k in 1..nv {
                    let v = (first + k) % nv;
                    if eligible(v) && self.vc_pri(base + v) > best.1 {
                        best = (v, self.vc_pri(base + v));
                    }
                }
                pick = Some(best.0);
            }
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

/// The `n` bits (`n <= 64`) from bit `at` of the bit set `words`.
#[inline]
fn bits_at(words: &[u64], at: usize, n: usize) -> u64 {
    let (w, off) = (at / 64, at % 64);
    let mut x = words[w] >> off;
    if off + n > 64 && w + 1 < words.len() {
        x |= words[w + 1] << (64 - off);
    }
    if n >= 64 {
        x
    } else {
        x & ((1 << n) - 1)
    }
}
