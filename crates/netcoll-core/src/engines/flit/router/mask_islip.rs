//! iSLIP (BookSim's default allocator) on the mask router's router-local masks
//! (mask_router.rs), one iteration, for VC and switch allocation: the same matchings and
//! pointer moves as the general stages (vc_masks.rs, sw_alloc.rs), which
//! tests_mask_router.rs compares them with.

use super::{pick, Stages, LOCAL};
use crate::engines::flit::vc_masks::grant_conflicts;

impl<const C: bool, const NV: usize, const NP: usize> Stages<'_, C, NV, NP> {
    /// iSLIP's matching of the requesting local input VCs `reqs` (router of first port
    /// `p0`, `n` local VCs) with the free output VCs; grants the matches and returns them.
    #[inline(always)]
    pub(super) fn match_vcs(&mut self, p0: usize, n: usize, reqs: u64) -> u64 {
        let p0v = p0 * self.nv();
        if reqs & (reqs - 1) == 0 {
            // A lone requester has no conflicts: it takes the candidate nearest its pointer.
            let i = reqs.trailing_zeros() as usize;
            let cand = self.candidates(p0, i);
            if cand == 0 {
                return 0;
            }
            let o = pick(cand, self.aptr[p0v + i] as usize);
            self.grant_vc(p0, n, i, o);
            return reqs;
        }
        // Candidates, and the outputs asked for by more than one requester.
        let (mut asked, mut conflicts) = (0u64, 0u64);
        let mut bits = reqs;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let cand = self.candidates(p0, i);
            self.cand[i] = cand;
            conflicts |= asked & cand;
            asked |= cand;
        }
        // Grant: a conflict output grants the requester nearest its pointer only.
        let gptr = &*self.gptr;
        grant_conflicts(self.cand, reqs, conflicts, |o| gptr[p0v + o] as usize);
        // Accept: every requester takes the grant nearest its pointer.
        let (mut bits, mut granted) = (reqs, 0);
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let grants = self.cand[i];
            if grants != 0 {
                let o = pick(grants, self.aptr[p0v + i] as usize);
                self.grant_vc(p0, n, i, o);
                granted |= 1 << i;
            }
        }
        granted
    }

    /// iSLIP's grant and accept over the requesting VCs `reqd` (local numbers), which ask
    /// for the local outputs `outs`.
    #[inline(always)]
    pub(super) fn islip_switch(
        &mut self,
        r: usize,
        p0: usize,
        np: usize,
        mut reqd: u64,
        outs: u64,
    ) {
        let nv = self.nv();
        while reqd != 0 {
            let b = reqd.trailing_zeros() as usize;
            reqd &= reqd - 1;
            let o = (self.vcs[p0 * nv + b].out_port as usize - p0) & (LOCAL - 1);
            self.by_out[o] |= 1 << b;
        }
        // Grant: every requested output picks an input port: the port of the first VC of
        // its mask from its pointer's port's first VC on (round the mask).
        // With at most 8 ports, the grants by input port are bytes of one word.
        let byte_grants = NP != 0 && NP <= 8;
        let (mut ins, mut granted) = (0u64, 0u64);
        let mut bits = outs;
        while bits != 0 {
            let o = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let i = self
                .split(pick(self.by_out[o], self.out_rr[p0 + o] as usize * nv))
                .0;
            if byte_grants {
                granted |= 1 << (i * 8 + o);
            } else {
                self.grants[i] |= 1 << o;
            }
            ins |= 1 << i;
        }
        // Accept: every granted input port picks an output and sends its VC for it.
        while ins != 0 {
            let i = ins.trailing_zeros() as usize;
            ins &= ins - 1;
            let grants = if byte_grants {
                granted >> (i * 8) & 0xff
            } else {
                std::mem::take(&mut self.grants[i])
            };
            let o = pick(grants, self.sa_aptr[p0 + i] as usize);
            self.send_port(r, p0, np, i, o);
        }
        self.clear_outputs(outs);
    }
}
