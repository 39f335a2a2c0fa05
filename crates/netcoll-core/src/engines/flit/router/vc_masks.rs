//! BookSim's iSLIP VC allocation on bit masks for routers of
//! at most 64 VCs (every port's VCs together; wider routers take the grant-table path in
//! vc_alloc.rs, which gives the same matching).
//!
//! Per output port a mask of its free output VCs is kept where owners change (`claim_vc`,
//! `release_vc`), and per VC class a mask of the VCs the class may use, so the output VCs
//! an input VC requests are one AND. Router-local VC numbers (`port * num_vcs + vc`) index
//! the masks of one router. One iSLIP iteration (see vc_alloc.rs for the rule):
//!
//! 1. every requester's candidates: the free output VCs of its class on its output port;
//! 2. grant: an output VC asked for by one requester grants it; one asked for by several
//!    (the *conflicts*, found with two masks while collecting) grants the requester nearest
//!    its grant pointer and is struck from the others' candidates;
//! 3. accept: every requester takes the candidate left nearest its accept pointer.
//!
//! A lone requester has no conflicts: it takes the candidate nearest its accept pointer.

use super::allocator::{next, rotate_pick};
use super::network::{Network, Packet, ACTIVE, IDLE, VC_WAIT};
use super::types::{Vc, REPL};
use super::va_state::MASK_VCS;

impl Network<'_> {
    /// Output VC `ov` of global output port `go` is taken by input VC `ivc` (global).
    #[inline]
    pub(super) fn claim_vc(&mut self, go: usize, ov: usize, ivc: usize) {
        self.owner[go * self.nv + ov] = ivc as u32;
        if ov < MASK_VCS {
            self.va.out_free[go] &= !(1 << ov);
        }
    }

    /// Output VC `ov` of global output port `go` is free again (its tail has left).
    #[inline]
    pub(super) fn release_vc(&mut self, go: usize, ov: usize) {
        self.owner[go * self.nv + ov] = super::network::NONE;
        if ov < MASK_VCS {
            self.va.out_free[go] |= 1 << ov;
        }
    }

    /// Marks input VC `ivc` (global) of router `r` as holding an output VC, or not.
    #[inline]
    #[cfg_attr(not(test), allow(dead_code))] // the crossbar clears its bit directly
    pub(super) fn set_holding(&mut self, r: usize, ivc: usize, on: bool) {
        let (w, b) = self.local_bit(r, ivc);
        set_bit(&mut self.va.holding[w], b, on);
    }

    /// The word (in the per-router masks) and bit of input VC `ivc` of router `r`.
    #[inline]
    fn local_bit(&self, r: usize, ivc: usize) -> (usize, usize) {
        let local = ivc - self.pstart[r] as usize * self.nv;
        (r * self.wpr + local / 64, local % 64)
    }

    /// iSLIP VC allocation at router `r`: on masks when its VCs fit, else by the grant
    /// table (vc_alloc.rs).
    pub(super) fn islip_vcs_masks(&mut self, r: usize) {
        let p0 = self.pstart[r] as usize;
        let n = (self.pstart[r + 1] as usize - p0) * self.nv;
        if n > self.va.mask_limit {
            return self.islip_vcs(r);
        }
        let reqs = self.ready_requests(r, 0);
        if reqs == 0 {
            return;
        }
        let p0v = p0 * self.nv;
        if reqs & (reqs - 1) == 0 {
            let i = reqs.trailing_zeros() as usize;
            let cand = self.candidates(p0v + i, p0);
            if cand != 0 {
                let o = rotate_pick(cand, self.va.aptr[p0v + i] as usize);
                self.grant_local(r, p0, n, i, o);
            }
            return;
        }
        // Candidates, and the outputs asked for by more than one requester.
        let (mut asked, mut conflicts) = (0u64, 0u64);
        let mut bits = reqs;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let cand = self.candidates(p0v + i, p0);
            self.va.cand[i & 63] = cand;
            conflicts |= asked & cand;
            asked |= cand;
        }
        // Grant: a conflict output grants the requester nearest its pointer only.
        let gptr = &self.va.gptr;
        grant_conflicts(&mut self.va.cand, reqs, conflicts, |o| {
            gptr[p0v + o] as usize
        });
        // Accept: every requester takes the grant nearest its pointer.
        let mut bits = reqs;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let grants = self.va.cand[i & 63];
            if grants != 0 {
                let o = rotate_pick(grants, self.va.aptr[p0v + i] as usize);
                self.grant_local(r, p0, n, i, o);
            }
        }
    }

    /// Routes the idle input VCs of word `w` of router `r`'s wait set and returns the mask
    /// of those ready for VC allocation (bit b: router-local VC `64 w + b`); replicating
    /// worms take their branches' VCs on their own. Both VC allocators start here.
    #[inline(always)]
    pub(super) fn ready_requests(&mut self, r: usize, w: usize) -> u64 {
        let p0v = self.pstart[r] as usize * self.nv + 64 * w;
        let mut bits = self.wait_bits[r * self.wpr + w];
        let mut reqs = 0;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let ivc = p0v + i;
            if self.vcs[ivc].state == IDLE {
                self.route_local(ivc, r, 64 * w + i);
            }
            let v = &self.vcs[ivc];
            if !v.ready_by(self.now) {
                continue;
            }
            if v.state == VC_WAIT {
                reqs |= 1 << i;
            } else if v.state == REPL {
                self.allocate_branches(ivc);
            }
        }
        reqs
    }

    /// [`free_candidates`] of input VC `ivc` of the router whose first port is `p0`.
    #[inline(always)]
    fn candidates(&self, ivc: usize, p0: usize) -> u64 {
        if self.sets.routes() {
            return self.sets.candidates(ivc, &self.va.out_free[p0..], self.nv);
        }
        self.candidates_from(ivc, p0)
    }

    /// [`free_candidates`] of input VC `ivc` numbered from port `p0` (a router's first, or
    /// the VC's own output port for a mask of that port's VCs).
    #[inline(always)]
    pub(super) fn candidates_from(&self, ivc: usize, p0: usize) -> u64 {
        let vct = self
            .is_vct()
            .then_some((&self.packets[..], &self.credits[..]));
        free_candidates(
            &self.vcs,
            &self.va.out_free,
            &self.va.class_mask,
            self.nv,
            ivc,
            p0,
            vct,
        )
    }

    /// Input VC `i` of router `r` takes output VC `o` (router-local numbers); both iSLIP
    /// pointers move past the match.
    #[inline(always)]
    fn grant_local(&mut self, r: usize, p0: usize, n: usize, i: usize, o: usize) {
        let p0v = p0 * self.nv;
        let (ivc, og) = (p0v + i, p0v + o);
        let (op, ov) = self.va.split[o & 63];
        self.owner[og] = ivc as u32;
        self.va.gptr[og] = next(i, n) as u16;
        self.va.aptr[ivc] = next(o, n) as u16;
        self.va.out_free[p0 + op as usize] &= !(1 << ov);
        let ready = self.now + self.va.delay;
        let v = &mut self.vcs[ivc];
        // A route set's port is the granted VC's (the same port otherwise).
        v.out_port = (p0 + op as usize) as u32;
        v.out_vc = ov;
        v.state = ACTIVE;
        v.set_ready(ready);
        self.wait_bits[r * self.wpr] &= !(1 << i);
        self.va.holding[r * self.wpr] |= 1 << i;
        self.note_held(r, i, p0 + op as usize, true);
        self.va.mark_fresh(0, 1 << i);
        self.va.routed[r * self.wpr] &= !(1 << i);
    }
}

/// iSLIP's grant for the outputs asked for by more than one requester (`conflicts`; router-
/// local numbers): each grants the requester of `reqs` nearest its grant pointer `gptr(o)`
/// and is struck from the others' candidates `cand`. The conflicts go by groups asked for
/// by the same requesters (one scan of the requesters per group: with one VC class, every
/// free VC of a port two requesters want is in one group).
#[inline(always)]
pub(super) fn grant_conflicts(
    cand: &mut [u64; MASK_VCS],
    reqs: u64,
    mut conflicts: u64,
    gptr: impl Fn(usize) -> usize,
) {
    while conflicts != 0 {
        let o = conflicts.trailing_zeros() as usize;
        // The askers of `o`; the outputs all of them ask for and no other requester does
        // have exactly these askers.
        let (mut askers, mut all, mut others) = (0u64, !0u64, 0u64);
        let mut bits = reqs;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let c = cand[i & 63];
            let asks = c >> o & 1;
            let m = asks.wrapping_neg();
            askers |= asks << i;
            all &= c | !m;
            others |= c & !m;
        }
        let group = all & !others & conflicts;
        conflicts &= !group;
        let mut bits = askers;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            cand[i & 63] &= !group;
        }
        let mut outs = group;
        while outs != 0 {
            let g = outs.trailing_zeros() as usize;
            outs &= outs - 1;
            cand[rotate_pick(askers, gptr(g)) & 63] |= 1 << g;
        }
    }
}

/// VC number `x` as (port, VC) with `nv` VCs a port: by a shift when `nv` is a power of
/// two (a division costs tens of cycles).
#[inline(always)]
pub(super) fn split_vc(x: usize, nv: usize) -> (usize, usize) {
    if nv.is_power_of_two() {
        (x >> nv.trailing_zeros(), x & (nv - 1))
    } else {
        (x / nv, x % nv)
    }
}

/// Sets or clears bit `b` of `word`.
#[inline]
fn set_bit(word: &mut u64, b: usize, on: bool) {
    if on {
        *word |= 1 << b;
    } else {
        *word &= !(1 << b);
    }
}

/// The output VCs (router-local numbers, first port `p0`) input VC `ivc` (global) requests:
/// the free VCs of its class on its output port; under virtual cut-through (`vct` given:
/// the packet table and the credits) those with room for the whole packet. Shared by the general mask allocator and
/// the mask router.
#[inline(always)]
pub(super) fn free_candidates(
    vcs: &[Vc],
    out_free: &[u64],
    class_mask: &[u64; 256],
    nv: usize,
    ivc: usize,
    p0: usize,
    vct: Option<(&[Packet], &[u16])>,
) -> u64 {
    let v = &vcs[ivc];
    let go = v.out_port as usize;
    let mut cand = out_free[go] & class_mask[v.class as usize];
    if let Some((packets, credits)) = vct {
        let need = packets[v.front.pkt as usize].size;
        let mut bits = cand;
        while bits != 0 {
            let ov = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if credits[go * nv + ov] < need {
                cand &= !(1 << ov);
            }
        }
    }
    cand << ((go - p0) * nv)
}

#[cfg(test)]
mod tests {
    use super::super::config::FlitConfig;
    use super::super::sim::Sim;

    /// Every figure of a one-thread run, with the iSLIP VC allocator on masks or (with
    /// `mask_limit = 0`) on the grant table everywhere.
    fn figures(pairs: &[(&str, &str)], masks: bool) -> String {
        let c = FlitConfig::from_pairs(pairs.iter().copied()).unwrap();
        let topo = c.build_topology().unwrap();
        let mut sim = Sim::new(&topo, &c).unwrap();
        if !masks {
            sim.net.va.mask_limit = 0;
        }
        serde_json::to_string(&sim.simulate()).unwrap()
    }

    #[test]
    fn mask_and_grant_table_allocators_match() {
        let fixed = [
            ("sim_type", "fixed"),
            ("warmup_cycles", "100"),
            ("sim_cycles", "1500"),
        ];
        let cases: [&[(&str, &str)]; 5] = [
            &[("k", "4"), ("injection_rate", "0.3")],
            &[("k", "4"), ("injection_rate", "0.8")],
            &[
                ("k", "4"),
                ("injection_rate", "0.4"),
                ("packet_size", "4"),
                ("injection_rate_uses_flits", "1"),
                ("flow_control", "virtual_cut_through"),
                ("vc_buf_size", "4"),
            ],
            &[
                ("topology", "torus"),
                ("k", "4"),
                ("injection_rate", "0.5"),
                ("torus_routing", "dateline"),
            ],
            &[
                ("k", "4"),
                ("injection_rate", "0.5"),
                ("speculative", "1"),
                ("num_vcs", "3"),
            ],
        ];
        for case in cases {
            let pairs: Vec<(&str, &str)> = case.iter().chain(&fixed).copied().collect();
            let (a, b) = (figures(&pairs, true), figures(&pairs, false));
            assert!(a.contains("\"flit_hops\""), "{a}");
            assert_eq!(a, b, "{case:?}");
        }
    }
}
