//! BookSim's `separable_input_first` allocators on the mask router's router-local masks
//! (mask_router.rs), for VC and switch allocation: the same matchings and pointer moves as
//! the general stages' port masks (va_ports.rs `input_first_vcs_ports`, sw_alloc.rs
//! `input_first_ports`), which tests_mask_router.rs compares them with.
//!
//! * VC allocation: every requester picks its candidate nearest its accept pointer (as
//!   iSLIP's accept), then every output VC picked grants the picker nearest its grant
//!   pointer (as iSLIP's grant); both pointers of a match move. Only with round-robin
//!   arbiters (`priority = none`).
//! * Switch allocation over ports (when two requests share a port): every input port picks
//!   the output nearest its pointer among those it requests, every output picked grants the
//!   input nearest its pointer among those that picked it, and the matched inputs send, in
//!   port order, their VC for the output nearest their VC offset.

use super::{pick, Stages, LOCAL};

impl<const C: bool, const NV: usize, const NP: usize> Stages<'_, C, NV, NP> {
    /// Separable input-first matching of the requesting local input VCs `reqs` (router of
    /// first port `p0`, `n` local VCs) with the free output VCs; grants the
    /// matches and returns them.
    #[inline(always)]
    pub(super) fn input_first_vcs(&mut self, p0: usize, n: usize, reqs: u64) -> u64 {
        let p0v = p0 * self.nv();
        // Input arbiters: each requester with candidates picks one; `pickers[o]` gathers
        // those of output VC `o`.
        let (mut picked, mut bits) = (0u64, reqs);
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let cand = self.candidates(p0, i);
            if cand != 0 {
                let o = pick(cand, self.aptr[p0v + i] as usize);
                self.pickers[o] |= 1 << i;
                picked |= 1 << o;
            }
        }
        // Output arbiters: every VC picked grants its picker nearest its pointer.
        let mut granted = 0u64;
        while picked != 0 {
            let o = picked.trailing_zeros() as usize;
            picked &= picked - 1;
            let pickers = std::mem::take(&mut self.pickers[o]);
            let i = pick(pickers, self.gptr[p0v + o] as usize);
            self.grant_vc(p0, n, i, o);
            granted |= 1 << i;
        }
        granted
    }

    /// Separable input-first switch allocation at router `r` over the requesting VCs
    /// `reqd` (local numbers; two share a port); the matched inputs send in port order.
    #[inline(always)]
    pub(super) fn input_first_switch(&mut self, r: usize, p0: usize, np: usize, mut reqd: u64) {
        let nv = self.nv();
        // Per output its requesting VCs (`by_out`), per input port its outputs (`rows`).
        let (mut ins, mut asked) = (0u64, 0u64);
        while reqd != 0 {
            let b = reqd.trailing_zeros() as usize;
            reqd &= reqd - 1;
            let o = (self.vcs[p0 * nv + b].out_port as usize - p0) & (LOCAL - 1);
            let i = self.split(b).0;
            self.by_out[o] |= 1 << b;
            self.rows[i] |= 1 << o;
            (ins, asked) = (ins | 1 << i, asked | 1 << o);
        }
        // Input arbiters: each port picks an output; `pickers[o]` gathers those of `o`.
        let (mut pick_of, mut outs) = ([0u8; LOCAL], 0u64);
        let mut bits = ins;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let rows = std::mem::take(&mut self.rows[i]);
            let o = pick(rows, self.sa_aptr[p0 + i] as usize);
            pick_of[i] = o as u8;
            self.pickers[o] |= 1 << i;
            outs |= 1 << o;
        }
        // Output arbiters: each output picked grants its picker nearest its pointer.
        let mut won = 0u64;
        while outs != 0 {
            let o = outs.trailing_zeros() as usize;
            outs &= outs - 1;
            won |= 1
                << pick(
                    std::mem::take(&mut self.pickers[o]),
                    self.out_rr[p0 + o] as usize,
                );
        }
        // The winners send their VC for the output nearest the port's VC offset (`send`
        // moves the pointers past each match).
        while won != 0 {
            let i = won.trailing_zeros() as usize;
            won &= won - 1;
            self.send_port(r, p0, np, i, pick_of[i] as usize);
        }
        self.clear_outputs(asked);
    }
}
