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
//! left unmatched with the VCs left free (router/alloc/islip.rs's rules). A group of one
//! (most: a router serves a requester or two a cycle) is granted every candidate and takes
//! the one nearest its accept pointer, so it is served as it is found to be alone, with no
//! sorting or grouping; a requester without candidates takes no part at all.
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
use super::network::{Network, IDLE, NONE, VC_WAIT};
use super::sw_ports::word_pair;
use super::va_state::{PortRequest, MASK_VCS};
use super::vc_masks::{grant_conflicts, split_vc};

/// Requesters from which separable input-first VC allocation runs without a branch per
/// requester (`Network::va_dense_min`).
pub const DENSE_VA: usize = 8;

/// Mask words of the VCs picked in [`Network::input_first_vcs_dense`]: routers of up to
/// 256 VCs.
const DENSE_WORDS: usize = 4;

/// `x mod n` for `x < 2n`.
#[inline(always)]
fn wrap(x: usize, n: usize) -> usize {
    if x >= n {
        x - n
    } else {
        x
    }
}

impl Network<'_> {
    /// Whether iSLIP VC allocation may run on per-port masks: every port's VCs fit a mask
    /// (`mask_limit`, which tests set to 0 to run the grant table instead) and a head asks
    /// for VCs of one port (not a route set's).
    pub(super) fn va_ports_apply(&self) -> bool {
        self.nv <= self.va.mask_limit.min(MASK_VCS) && !self.sets.routes()
    }

    /// iSLIP VC allocation (`iters` iterations) at router `r` on per-port masks: routes its
    /// idle input VCs and gathers those ready for VC allocation that have candidates (a
    /// requester without any takes no part in the matching), in increasing local input VC
    /// order, with the ports they ask for. Most ports are asked for by one requester: it
    /// takes its candidate nearest its accept pointer, with no grouping (`accept_alone`);
    /// the others go by port (`islip_shared_ports`).
    pub(super) fn islip_vcs_ports(&mut self, r: usize, iters: u32) {
        let p0 = self.pstart[r] as usize;
        let mut reqs = std::mem::take(&mut self.va.port_reqs);
        // The ports asked for (bit `port % 64`) and those asked for more than once.
        let mut ports = (0u64, 0u64);
        let n = if self.va.fused_gather && self.rep.table.visits() == 0 {
            // A slot per VC of the router and a spare: every requester is written, and
            // counted only when it asks (`gather_fused`).
            let slots = (self.pstart[r + 1] as usize - p0) * self.nv + 1;
            if reqs.len() < slots {
                reqs.resize(slots, PortRequest::new(0, 0, 0));
            }
            self.gather_fused(r, &mut reqs, &mut ports)
        } else {
            reqs.clear();
            for w in 0..self.wpr {
                let mut bits = self.ready_requests(r, w);
                while bits != 0 {
                    let i = 64 * w + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    self.push_port_request(&mut reqs, &mut ports, p0, i);
                }
            }
            reqs.len()
        };
        let shared = ports.1;
        if shared == 0 {
            for &q in &reqs[..n] {
                self.accept_alone(r, q);
            }
        } else {
            self.islip_shared_ports(r, &reqs[..n], shared, iters);
        }
        self.va.port_reqs = reqs;
    }

    /// The fused gather of [`Network::islip_vcs_ports`] (no worms: routing a VC changes
    /// nothing another VC's request reads, so each is routed and read in one pass, where
    /// `ready_requests` routes the word first, then reads its requests: a second
    /// data-dependent loop). Whether a requester is ready and waiting and whether it has a
    /// candidate follow no pattern, so each is written to the next slot of `reqs` (sized
    /// for every VC of the router and a spare) and counted only when it asks, and its port
    /// marked by a mask that is 0 when it does not: no branch per requester but the
    /// routing of an idle one. Returns the requests written.
    #[inline(always)]
    fn gather_fused(
        &mut self,
        r: usize,
        reqs: &mut [PortRequest],
        (asked, shared): &mut (u64, u64),
    ) -> usize {
        let p0 = self.pstart[r] as usize;
        let p0v = p0 * self.nv;
        let mut n = 0;
        for w in 0..self.wpr {
            let mut bits = self.wait_bits[r * self.wpr + w];
            while bits != 0 {
                let i = 64 * w + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let ivc = p0v + i;
                if self.vcs[ivc].state == IDLE {
                    self.route_local_by::<true>(ivc, r, i);
                }
                let v = &self.vcs[ivc];
                let waits = v.ready_by(self.now) & (v.state == VC_WAIT);
                let (go, cand) = self.port_request(ivc);
                let cand = if waits { cand } else { 0 };
                // Wrapping: a VC that does not wait may have no port (`cand` is 0).
                let port = go.wrapping_sub(p0);
                let b = ((cand != 0) as u64) << (port % 64);
                *shared |= *asked & b;
                *asked |= b;
                reqs[n] = PortRequest::new(port, i, cand);
                n += (cand != 0) as usize;
            }
        }
        n
    }

    /// Adds the request of local input VC `i` (waiting for an output VC, ready) of the
    /// router whose first port is `p0` to `reqs` when it has candidates, and its port to
    /// the ports asked for and (when asked for already) those shared (`ports`).
    #[inline(always)]
    fn push_port_request(
        &self,
        reqs: &mut Vec<PortRequest>,
        (asked, shared): &mut (u64, u64),
        p0: usize,
        i: usize,
    ) {
        let (go, cand) = self.port_request(p0 * self.nv + i);
        if cand == 0 {
            return;
        }
        let port = go - p0;
        let b = 1u64 << (port % 64);
        *shared |= *asked & b;
        *asked |= b;
        reqs.push(PortRequest::new(port, i, cand));
    }

    /// A requester alone at its port (`q`, of router `r`) is granted every candidate: it
    /// takes the one nearest its accept pointer. (A worm's branches may have taken VCs
    /// since its candidates were read, `ready_requests`: they are read again.)
    #[inline(always)]
    fn accept_alone(&mut self, r: usize, q: PortRequest) {
        let go = self.pstart[r] as usize + q.port();
        let cand = q.cand & self.va.out_free[go];
        if cand != 0 {
            self.accept_vc(r, q.input(), go, cand, true);
        }
    }

    /// [`Network::islip_vcs_ports`] where some port (bit of `shared`) is asked for by
    /// several of the requesters `reqs`: those alone at their port as there, the others by
    /// port in groups of increasing input VC (`islip_port_group`); a group of more than 64
    /// sends them to the grant table. (The groups' ports and VCs are apart, so the order in
    /// which they are matched changes nothing.)
    fn islip_shared_ports(&mut self, r: usize, reqs: &[PortRequest], shared: u64, iters: u32) {
        let mut groups = std::mem::take(&mut self.va.port_groups);
        groups.clear();
        let mut sorted = true;
        for &q in reqs {
            if shared & 1 << (q.port() % 64) == 0 {
                self.accept_alone(r, q);
                continue;
            }
            sorted &= groups.last().is_none_or(|g: &PortRequest| g.key < q.key);
            groups.push(q);
        }
        if !sorted {
            groups.sort_unstable_by_key(|q| q.key);
        }
        let runs = || groups.chunk_by(|a, b| a.port() == b.port());
        if runs().all(|g| g.len() <= 64) {
            for g in runs() {
                match g {
                    [q] => self.accept_alone(r, *q),
                    _ => self.islip_port_group(r, g, iters),
                }
            }
        } else {
            let mut ids = std::mem::take(&mut self.va.reqs);
            ids.clear();
            ids.extend(groups.iter().map(|q| q.input() as u32));
            ids.sort_unstable();
            self.islip_vcs_on(r, &ids, iters);
            self.va.reqs = ids;
        }
        self.va.port_groups = groups;
    }

    /// Whether the separable VC allocators run on per-port masks (module comment): the
    /// per-port masks apply, every request has priority 0 (`priority = none`: plain
    /// round-robin arbiters) and the request matrix is not asked for (`book.general`,
    /// which tests set to compare the two).
    pub(super) fn separable_ports_apply(&self) -> bool {
        !self.va.book.general && self.prio == Priority::None && self.va_ports_apply()
    }

    /// BookSim's separable_input_first VC allocation at router `r` on per-port masks
    /// (module comment): without a branch per requester where they are many
    /// (`input_first_vcs_dense`).
    pub(super) fn input_first_vcs_ports(&mut self, r: usize) {
        if self.dense_va(r) {
            if self.grouped_va_applies() {
                self.input_first_vcs_grouped(r);
            } else {
                self.input_first_vcs_dense(r);
            }
        } else {
            let words = self.ready_words(r);
            self.input_first_vcs_sparse(r, &words);
            self.va.ready = words;
        }
    }

    /// Whether separable input-first VC allocation at router `r` runs without a branch
    /// per requester: at least `va_dense_min` input VCs wait, the router has at most
    /// `64 * DENSE_WORDS` VCs, no cut-through and no multidestination worms.
    #[inline]
    fn dense_va(&self, r: usize) -> bool {
        let k = r * self.wpr;
        let waiting: u32 = self.wait_bits[k..k + self.wpr]
            .iter()
            .map(|w| w.count_ones())
            .sum();
        let n = (self.pstart[r + 1] - self.pstart[r]) as usize * self.nv;
        waiting as usize >= self.va_dense_min
            && n <= 64 * DENSE_WORDS
            && !self.is_vct()
            && self.rep.table.visits() == 0
    }

    /// [`Network::input_first_vcs_ports`] requester by requester.
    fn input_first_vcs_sparse(&mut self, r: usize, words: &[u64]) {
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
            self.grant_input_first(r, i, o);
        }
        self.va.touched = touched;
    }

    /// [`Network::input_first_vcs_ports`] without a branch per requester, for routers of
    /// at most `64 * DENSE_WORDS` VCs without cut-through (`dense_va`): at saturation
    /// (src/examples/singleconfig: 38 requesters a cycle, 28 with a candidate, 6 granted)
    /// whether a requester is ready, whether it has a candidate, and whether it is the
    /// first to pick its VC follow no pattern the branch predictor learns. The idle VCs
    /// (waiting, not routed: no worms run) are routed first, in local order; then one pass
    /// over the routed ones makes each requester's pick a key `distance from the VC's
    /// grant pointer << 16 | requester` (not ready or no candidate: no key) and every VC
    /// picked keeps the least (`va.grant`, NONE when not picked, so the first pick needs
    /// no test); the VCs picked are a mask, granted in VC order (the grants touch apart
    /// records, so their order changes nothing). The masks are read two words at a time
    /// ([`word_pair`]): a loop over a router's bits ends, mispredicted, once per 128 VCs.
    fn input_first_vcs_dense(&mut self, r: usize) {
        let (nv, wpr, now) = (self.nv, self.wpr, self.now);
        let p0 = self.pstart[r] as usize;
        let p0v = p0 * nv;
        let n = (self.pstart[r + 1] as usize - p0) * nv;
        let k = r * wpr;
        let pairs = wpr.div_ceil(2);
        self.route_idle_vcs(r);
        let mut picked = [0u64; DENSE_WORDS];
        for c in 0..pairs {
            let (wait, routed) = (&self.wait_bits[k..k + wpr], &self.va.routed[k..k + wpr]);
            let mut bits = word_pair(wait, c) & word_pair(routed, c);
            while bits != 0 {
                let i = 128 * c + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let ivc = p0v + i;
                let ready = self.vcs[ivc].ready_by(now);
                let (go, cand) = self.port_request(ivc);
                // An empty mask picks its start: a VC of the port, left unchanged.
                let base = (go - p0) * nv;
                let o = base + self.nearest_in_port(ivc, base, cand);
                let d = wrap(i + n - self.va.gptr[p0v + o] as usize, n);
                let asks = ready & (cand != 0);
                let key = if asks { (d << 16 | i) as u32 } else { NONE };
                let g = &mut self.va.grant[o];
                *g = (*g).min(key);
                picked[o / 64] |= (asks as u64) << (o % 64);
            }
        }
        for c in 0..pairs {
            let mut bits = word_pair(&picked, c);
            while bits != 0 {
                let o = 128 * c + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let key = std::mem::replace(&mut self.va.grant[o], NONE);
                self.grant_input_first(r, (key & 0xffff) as usize, o);
            }
        }
    }

    /// Routes router `r`'s idle input VCs (waiting, not routed: no worms run), in local
    /// order, before the dense and grouped passes read any request.
    pub(super) fn route_idle_vcs(&mut self, r: usize) {
        let (nv, wpr) = (self.nv, self.wpr);
        let p0v = self.pstart[r] as usize * nv;
        let k = r * wpr;
        for c in 0..wpr.div_ceil(2) {
            let (wait, routed) = (&self.wait_bits[k..k + wpr], &self.va.routed[k..k + wpr]);
            let mut idle = word_pair(wait, c) & !word_pair(routed, c);
            while idle != 0 {
                let i = 128 * c + idle.trailing_zeros() as usize;
                idle &= idle - 1;
                self.route_local(p0v + i, r, i);
            }
        }
    }

    /// Local input VC `i` of router `r` is granted local output VC `o` by separable
    /// input-first allocation: both pointers move past the match.
    #[inline(always)]
    pub(super) fn grant_input_first(&mut self, r: usize, i: usize, o: usize) {
        let nv = self.nv;
        let p0 = self.pstart[r] as usize;
        let p0v = p0 * nv;
        let n = (self.pstart[r + 1] as usize - p0) * nv;
        self.va.gptr[p0v + o] = next(i, n) as u16;
        self.va.aptr[p0v + i] = next(o, n) as u16;
        let (port, ov) = split_vc(o, nv);
        self.take_vc_local(r, i, p0v + i, p0 + port, ov);
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
        // The run-wide test first: the other is a coin toss at saturation.
        if self.is_vct() && cand != 0 {
            return (go, self.candidates_from(ivc, go));
        }
        (go, cand)
    }

    /// Of the VCs `mask` of the port whose first router-local VC is `base`, the one input
    /// VC `ivc` (global) takes by its round-robin pointer (a local output VC number): the
    /// first from the pointer within the port's VCs, else the port's first.
    #[inline]
    pub(super) fn nearest_in_port(&self, ivc: usize, base: usize, mask: u64) -> usize {
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
        let port = group[0].port();
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
                group.partition_point(|q| (q.input() as u32) < g)
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
                self.accept_vc(r, group[j].input(), go, grants, iter == 0);
                unmatched &= !(1 << j);
            }
        }
    }

    /// Local input VC `i` of router `r` accepts, of the VCs `grants` of global output port
    /// `go`, the one nearest its accept pointer (a local output VC number: from the
    /// pointer within the port's VCs, else the port's first); both pointers move past the
    /// match on a first iteration.
    #[inline(always)]
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
        self.take_vc_local(r, i, ivc, go, ov);
    }
}

#[cfg(test)]
#[path = "tests_va_separable.rs"]
mod tests;

#[cfg(test)]
#[path = "tests_va_ports.rs"]
mod tests_islip;
