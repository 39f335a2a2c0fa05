//! BookSim's iSLIP VC allocation on per-port masks, for any number of iterations and
//! routers of any width (at most 64 VCs a port): the runs the one-word masks of
//! vc_masks.rs (one iteration, at most 64 VCs a router) leave to the grant table of
//! vc_alloc.rs, which gives the same matching and is the reference.
//!
//! A waiting input VC asks for free output VCs of its class on its one output port, so the
//! matching splits by output port: the requesters of one port (a *group*) compete for its
//! VCs only, and a group's iterations never touch another group's VCs. Within a group the
//! requesters are numbered by position (in increasing local input VC order) and their
//! candidates are a mask of the port's VCs; one iteration (vc_masks.rs's rule) is
//!
//! 1. candidates: the port's free VCs of each unmatched requester's class (under virtual
//!    cut-through, with room for its packet);
//! 2. grant: an output VC asked for by several requesters grants the one nearest its grant
//!    pointer (a local input VC number: the first requester at or after it, round the
//!    router) and is struck from the others' candidates (`grant_conflicts`);
//! 3. accept: each requester takes the candidate left nearest its accept pointer (a local
//!    output VC number: within the port's VCs from the pointer, else the port's first).
//!
//! Pointers move on first-iteration matches only; later iterations match the requesters
//! left unmatched with the VCs left free (router/alloc/islip.rs's rules).
//!
//! BookSim's separable VC allocators with round-robin arbiters (every request at priority
//! 0: `priority = none`) take the same masks (`separable_ports_apply`), giving the request
//! matrix's matching and pointer moves (router/alloc/separable_*.rs) without writing it:
//!
//! * `separable_output_first` is one iteration of the above: every output VC picks the
//!   requester first from its pointer, every input VC picked accepts the VC first from
//!   its pointer, and both pointers of a match move, as iSLIP's do on a first iteration;
//! * `separable_input_first` (`input_first_vcs_ports`): every requester picks the
//!   candidate nearest its pointer (the accept rule above), then every output VC picked
//!   grants the picker nearest its pointer (round the router's input VCs: the grant
//!   table's `offer_grant`), and both pointers of a match move. A requester picks one VC,
//!   so the picks need no masks by port: one pass over the requesters.

use super::allocator::{next, pick_below_64};
use super::class_types::Priority;
use super::mask_state::PortRequest;
use super::network::{Network, NONE};
use super::va_state::MASK_VCS;
use super::vc_masks::{grant_conflicts, split_vc};

impl Network<'_> {
    /// Whether iSLIP VC allocation may run on per-port masks: every port's VCs fit a mask
    /// (`mask_limit`, which tests set to 0 to run the grant table instead) and a head asks
    /// for VCs of one port (not a route set's).
    pub(super) fn va_ports_apply(&self) -> bool {
        self.nv <= self.va.mask_limit.min(MASK_VCS) && !self.sets.routes()
    }

    /// iSLIP VC allocation (`iters` iterations) at router `r` over its requesting local
    /// input VCs `reqs` (in increasing order) on per-port masks; a group of more than 64
    /// requesters sends the router to the grant table.
    pub(super) fn islip_vcs_ports(&mut self, r: usize, reqs: &[u32], iters: u32) {
        let p0 = self.pstart[r] as usize;
        let p0v = p0 * self.nv;
        if let [i] = reqs {
            // A lone requester is granted every VC it asks for: it takes the one nearest
            // its accept pointer.
            let ivc = p0v + *i as usize;
            let (go, cand) = self.port_request(ivc);
            if cand != 0 {
                self.accept_vc(r, *i as usize, go, cand, true);
            }
            return;
        }
        let mut groups = std::mem::take(&mut self.mr.va_reqs);
        groups.clear();
        let mut sorted = true;
        for &i in reqs {
            let ivc = p0v + i as usize;
            let port = self.vcs[ivc].out_port as usize - p0;
            let key = (port as u64) << 32 | i as u64;
            sorted &= groups.last().is_none_or(|q: &PortRequest| q.key < key);
            let cand = self.port_request(ivc).1;
            groups.push(PortRequest { key, cand });
        }
        if !sorted {
            groups.sort_unstable_by_key(|q| q.key);
        }
        // Where each port's group ends, and the largest group.
        let mut ends = std::mem::take(&mut self.mr.va_ends);
        ends.clear();
        let mut widest = 0;
        for (k, q) in groups.iter().enumerate() {
            if groups.get(k + 1).is_none_or(|n| n.key >> 32 != q.key >> 32) {
                widest = widest.max(k + 1 - ends.last().copied().unwrap_or(0));
                ends.push(k + 1);
            }
        }
        if widest <= 64 {
            let mut s = 0;
            for &e in &ends {
                if e == s + 1 {
                    // Alone at its port: as a lone requester.
                    let q = groups[s];
                    let ivc = p0v + q.key as u32 as usize;
                    if q.cand != 0 {
                        let go = self.vcs[ivc].out_port as usize;
                        self.accept_vc(r, q.key as u32 as usize, go, q.cand, true);
                    }
                } else {
                    self.islip_port_group(r, &groups[s..e], iters);
                }
                s = e;
            }
        } else {
            self.islip_vcs_on(r, reqs, iters);
        }
        self.mr.va_reqs = groups;
        self.mr.va_ends = ends;
    }

    /// Whether the separable VC allocators run on per-port masks (module comment): the
    /// per-port masks apply, every request has priority 0 (`priority = none`: plain
    /// round-robin arbiters) and the request matrix is not asked for (`book.general`,
    /// which tests set to compare the two).
    pub(super) fn separable_ports_apply(&self) -> bool {
        !self.va.book.general && self.prio == Priority::None && self.va_ports_apply()
    }

    /// BookSim's separable_input_first VC allocation at router `r` on per-port masks
    /// (module comment).
    pub(super) fn input_first_vcs_ports(&mut self, r: usize) {
        let words = self.ready_words(r);
        let nv = self.nv;
        let p0 = self.pstart[r] as usize;
        let p0v = p0 * nv;
        let n = (self.pstart[r + 1] as usize - p0) * nv;
        let mut touched = std::mem::take(&mut self.va.touched);
        touched.clear();
        // Input arbiters: each requester picks one candidate; each VC picked keeps the
        // picker nearest its grant pointer.
        for (w, &word) in words.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let i = 64 * w + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let ivc = p0v + i;
                let (go, cand) = self.port_request(ivc);
                if cand != 0 {
                    let base = (go - p0) * nv;
                    let o = base + self.nearest_in_port(ivc, base, cand);
                    self.offer_grant(o, p0v + o, i as u32, n, &mut touched);
                }
            }
        }
        // Output arbiters' grants: every match moves both pointers.
        for &o in &touched {
            let o = o as usize;
            let i = std::mem::replace(&mut self.va.grant[o], NONE) as usize;
            self.va.gptr[p0v + o] = next(i, n) as u16;
            self.va.aptr[p0v + i] = next(o, n) as u16;
            let (port, ov) = split_vc(o, nv);
            self.take_vc_at(r, p0v + i, p0 + port, ov);
        }
        self.va.touched = touched;
        self.va.ready = words;
    }

    /// Routes router `r`'s idle input VCs and returns, per word of its wait set, the mask
    /// of those ready for VC allocation (`ready_requests`: every word routed before any
    /// candidates are read), in a scratch to give back to `va.ready`.
    fn ready_words(&mut self, r: usize) -> Vec<u64> {
        let mut words = std::mem::take(&mut self.va.ready);
        words.clear();
        for w in 0..self.wpr {
            words.push(self.ready_requests(r, w));
        }
        words
    }

    /// The output port of waiting input VC `ivc` (global) and its candidates there
    /// ([`Network::port_candidates`], the VCT filter only where VCs are free).
    #[inline(always)]
    fn port_request(&self, ivc: usize) -> (usize, u64) {
        let v = &self.vcs[ivc];
        let go = v.out_port as usize;
        let cand = self.va.out_free[go] & self.va.class_mask[v.class as usize];
        if cand != 0 && self.is_vct() {
            return (go, self.candidates_from(ivc, go));
        }
        (go, cand)
    }

    /// Of the VCs `mask` of the port whose first router-local VC is `base`, the one input
    /// VC `ivc` (global) takes by its round-robin pointer (a local output VC number): the
    /// first from the pointer within the port's VCs, else the port's first.
    #[inline]
    fn nearest_in_port(&self, ivc: usize, base: usize, mask: u64) -> usize {
        let a = (self.va.aptr[ivc] as usize).wrapping_sub(base);
        pick_below_64(mask, if a < self.nv { a } else { 0 })
    }

    /// The free output VCs of its port input VC `ivc` (global) may take, as a mask of the
    /// port's VCs.
    #[inline]
    pub(super) fn port_candidates(&self, ivc: usize) -> u64 {
        self.candidates_from(ivc, self.vcs[ivc].out_port as usize)
    }

    /// iSLIP's `iters` iterations among the requesters of one output port of router `r`
    /// (`group`, at most 64, in increasing input VC order; see the module comment).
    fn islip_port_group(&mut self, r: usize, group: &[PortRequest], iters: u32) {
        let nv = self.nv;
        let p0 = self.pstart[r] as usize;
        let p0v = p0 * nv;
        let port = (group[0].key >> 32) as usize;
        let (go, base) = (p0 + port, port * nv);
        let mut unmatched = if group.len() == 64 {
            !0
        } else {
            (1u64 << group.len()) - 1
        };
        for iter in 0..iters {
            // Candidates, and the VCs asked for by more than one requester.
            let free = self.va.out_free[go];
            let (mut asked, mut conflicts) = (0u64, 0u64);
            let mut bits = unmatched;
            while bits != 0 {
                let j = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let c = group[j].cand & free;
                self.va.cand[j] = c;
                conflicts |= asked & c;
                asked |= c;
            }
            if asked == 0 {
                break;
            }
            // Grant: a conflict VC grants the requester nearest its pointer only (the
            // first at or after the pointer's position among the requesters).
            let gptr = &self.va.gptr;
            grant_conflicts(&mut self.va.cand, unmatched, conflicts, |ov| {
                let g = gptr[p0v + base + ov] as u32;
                group.partition_point(|q| (q.key as u32) < g)
            });
            // Accept: every requester granted a VC takes the one nearest its pointer.
            let mut bits = unmatched;
            while bits != 0 {
                let j = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let grants = self.va.cand[j];
                if grants == 0 {
                    continue;
                }
                self.accept_vc(r, group[j].key as u32 as usize, go, grants, iter == 0);
                unmatched &= !(1 << j);
            }
        }
    }

    /// Local input VC `i` of router `r` accepts, of the VCs `grants` of global output port
    /// `go`, the one nearest its accept pointer (a local output VC number: from the
    /// pointer within the port's VCs, else the port's first); both pointers move past the
    /// match on a first iteration.
    #[inline]
    fn accept_vc(&mut self, r: usize, i: usize, go: usize, grants: u64, first: bool) {
        let nv = self.nv;
        let p0 = self.pstart[r] as usize;
        let n = (self.pstart[r + 1] as usize - p0) * nv;
        let (ivc, base) = (p0 * nv + i, (go - p0) * nv);
        let ov = self.nearest_in_port(ivc, base, grants);
        if first {
            self.va.gptr[go * nv + ov] = next(i, n) as u16;
            self.va.aptr[ivc] = next(base + ov, n) as u16;
        }
        self.take_vc_at(r, ivc, go, ov);
    }
}

#[cfg(test)]
#[path = "tests_va_separable.rs"]
mod tests;
