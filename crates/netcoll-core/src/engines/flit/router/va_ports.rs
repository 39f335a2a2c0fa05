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

use super::allocator::{next, pick_below_64};
use super::mask_state::PortRequest;
use super::network::Network;
use super::va_state::MASK_VCS;
use super::vc_masks::grant_conflicts;

impl Network<'_> {
    /// Whether iSLIP VC allocation may run on per-port masks: every port's VCs fit a mask
    /// (`mask_limit`, which tests set to 0 to run the grant table instead) and a head asks
    /// for VCs of one port (not a route set's).
    pub(super) fn va_ports_apply(&self) -> bool {
        self.nv <= self.va.mask_limit.min(MASK_VCS) && !self.sets.routes()
    }

    /// iSLIP VC allocation at router `r` over its requesting local input VCs `reqs` (in
    /// increasing order) on per-port masks; a group of more than 64 requesters sends the
    /// router to the grant table.
    pub(super) fn islip_vcs_ports(&mut self, r: usize, reqs: &[u32]) {
        let p0 = self.pstart[r] as usize;
        let p0v = p0 * self.nv;
        if let [i] = reqs {
            // A lone requester is granted every VC it asks for: it takes the one nearest
            // its accept pointer.
            let ivc = p0v + *i as usize;
            let cand = self.port_candidates(ivc);
            if cand != 0 {
                let go = self.vcs[ivc].out_port as usize;
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
            let cand = self.port_candidates(ivc);
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
                    self.islip_port_group(r, &groups[s..e]);
                }
                s = e;
            }
        } else {
            self.islip_vcs_on(r, reqs);
        }
        self.mr.va_reqs = groups;
        self.mr.va_ends = ends;
    }

    /// The free output VCs of its port input VC `ivc` (global) may take, as a mask of the
    /// port's VCs.
    #[inline]
    pub(super) fn port_candidates(&self, ivc: usize) -> u64 {
        self.candidates_from(ivc, self.vcs[ivc].out_port as usize)
    }

    /// iSLIP's iterations among the requesters of one output port of router `r` (`group`,
    /// at most 64, in increasing input VC order; see the module comment).
    fn islip_port_group(&mut self, r: usize, group: &[PortRequest]) {
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
        for iter in 0..self.cfg.vc_iters() {
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
        let a = (self.va.aptr[ivc] as usize).wrapping_sub(base);
        let ov = pick_below_64(grants, if a < nv { a } else { 0 });
        if first {
            self.va.gptr[go * nv + ov] = next(i, n) as u16;
            self.va.aptr[ivc] = next(base + ov, n) as u16;
        }
        self.take_vc_at(r, ivc, go, ov);
    }
}
