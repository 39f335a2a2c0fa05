//! The VC allocators' state: pointers live in the VC records (types.rs); here the masks of
//! free output VCs per port and of VCs per class, the VA delay, and the scratch of both VC
//! allocators (vc_masks.rs on bit masks, vc_alloc.rs's grant table). Plain data, so that the
//! network holds it without importing the allocators.

use super::alloc::Book;
use super::config::FlitConfig;
use super::types::NONE;

/// Local VC numbers a mask router may have.
pub const MASK_VCS: usize = 64;

/// Routers of at most this many VCs take the grouped VC allocation pass (va_grouped.rs: a
/// port's requesters are one 128-bit mask).
pub const GROUPED_VCS: usize = 128;

/// Words per global output port in `VaState::req_by_out`: plain requesters (two words of
/// a router's VCs), then own ones.
pub const REQ_WORDS: usize = 4;

/// The VC allocators' pointers, masks and scratch.
pub struct VaState {
    /// Cycles from a VC allocation to the first switch bid (0 when speculative).
    pub delay: u64,
    /// Per global output port (`num_vcs <= 64`): bit v set when output VC v has no owner.
    pub out_free: Vec<u64>,
    /// Per router, as many words as its wait set: bit set when the local input VC holds an
    /// output VC (state ACTIVE): set where a VC allocator grants, cleared where a tail
    /// leaves (`Network::traverse`, and a worm's last branch may leave a stale bit, which
    /// the switch allocators skip). The switch allocators look at these VCs only.
    pub holding: Vec<u64>,
    /// Likewise: the local input VCs routed and waiting for an output VC (state VC_WAIT),
    /// kept where a VC is routed and where a VC allocator grants.
    pub routed: Vec<u64>,
    /// The router being run (its `wpr` words): the input VCs its VC allocator granted this
    /// cycle, zero between routers (the switch allocator takes the words as it scans,
    /// `take_fresh`). Without speculation their flits bid from the next cycle on, so the
    /// switch allocator skips them ([`VaState::fresh_apply`]).
    pub fresh: Vec<u64>,
    /// Whether the switch allocator skips the VCs granted this cycle (`fresh`); tests turn
    /// it off to compare with the full scan.
    pub skip_fresh: bool,
    /// Whether the per-port iSLIP VC allocator routes and reads its requesters in one pass
    /// (va_ports.rs, runs without worms); tests turn it off to compare with the two passes.
    pub fused_gather: bool,
    /// Per global VC: the iSLIP VC allocator's accept pointer (as an input VC) and grant
    /// pointer (as an output VC), router-local VC numbers.
    pub aptr: Vec<u16>,
    pub gptr: Vec<u16>,
    /// Per VC class (index `u8::MAX`: any VC, for ejection): the VCs the class may use.
    pub class_mask: Box<[u64; 256]>,
    /// Per router-local VC number: its port and VC (`num_vcs <= 64`).
    pub split: [(u8, u8); MASK_VCS],
    /// Routers with more VCs than this use the grant table (`MASK_VCS`; tests lower it to
    /// check both allocators against each other).
    pub mask_limit: usize,
    /// Scratch of the mask allocator: every requester's candidates (router-local outputs).
    pub cand: [u64; MASK_VCS],
    /// Scratch of the grant-table allocator (routers over 64 VCs, `separable_input_first`):
    /// requesting input VCs, the grant per local output VC with its round-robin distance,
    /// the outputs granted this cycle.
    pub reqs: Vec<u32>,
    pub grant: Vec<u32>,
    pub grant_d: Vec<u16>,
    pub touched: Vec<u32>,
    /// Scratch of the per-port VC allocators (va_ports.rs): per word of a router's wait
    /// set, its input VCs ready for VC allocation; the iSLIP requests with candidates, and
    /// those of ports asked for by several, by port.
    pub ready: Vec<u64>,
    pub port_reqs: Vec<PortRequest>,
    pub port_groups: Vec<PortRequest>,
    /// BookSim's allocators on a request matrix (router/alloc/): their per-router state
    /// and scratch, for both the VC and the switch allocator.
    pub book: Book,
    /// The VCs holding an output VC by output port (sw_held.rs): per global output port,
    /// `wpr` words of its router's local input VCs; empty unless `held_on`. Beside
    /// `holding`, which a grant and a tail's traversal keep with it.
    pub held_by_out: Vec<u64>,
    /// This run keeps `held_by_out` (decided once, before the first grant:
    /// `held_decided`); tests switch it off with `held_enabled`.
    pub held_on: bool,
    pub held_decided: bool,
    pub held_enabled: bool,
    /// The grouped separable input-first VC allocator (va_grouped.rs): per global output
    /// port, `REQ_WORDS` words of its router's routed input VCs that pick the port's first
    /// free VC (two words) and of those that pick by their own pointer or class (two);
    /// empty unless `grouped_on`. Per router-local output VC, its pickers (scratch, zero
    /// between routers; the last slot takes the picks of requesters that ask for none).
    pub req_by_out: Vec<u64>,
    pub pickers: Box<[u128; GROUPED_VCS + 1]>,
    /// This run keeps `req_by_out` (decided once, after `held_on`: `grouped_decided`);
    /// tests switch it off with `grouped` to compare with the dense pass.
    pub grouped_on: bool,
    pub grouped_decided: bool,
    pub grouped: bool,
}

impl VaState {
    pub fn new(
        cfg: &FlitConfig,
        (routers, ports, max_ports): (usize, usize, usize),
        lo: &[u8],
        hi: &[u8],
    ) -> VaState {
        let nv = cfg.num_vcs;
        let all = if nv <= MASK_VCS { all_vcs(nv) } else { 0 };
        let mut split = [(0, 0); MASK_VCS];
        for (l, s) in split.iter_mut().enumerate() {
            *s = ((l / nv.max(1)) as u8, (l % nv.max(1)) as u8);
        }
        let mut va = VaState {
            delay: if cfg.speculative {
                0
            } else {
                cfg.vc_alloc_delay as u64
            },
            out_free: vec![all; ports],
            holding: vec![0; routers * (max_ports * nv).div_ceil(64)],
            routed: vec![0; routers * (max_ports * nv).div_ceil(64)],
            fresh: vec![0; (max_ports * nv).div_ceil(64)],
            skip_fresh: true,
            fused_gather: true,
            aptr: vec![0; ports * nv],
            gptr: vec![0; ports * nv],
            class_mask: Box::new([0; 256]),
            split,
            mask_limit: MASK_VCS,
            cand: [0; MASK_VCS],
            reqs: Vec::new(),
            grant: vec![NONE; max_ports * nv],
            grant_d: vec![0; max_ports * nv],
            touched: Vec::new(),
            ready: Vec::new(),
            port_reqs: Vec::new(),
            port_groups: Vec::new(),
            book: Book::new(routers, cfg.seed),
            held_by_out: Vec::new(),
            held_on: false,
            held_decided: false,
            held_enabled: true,
            req_by_out: Vec::new(),
            pickers: Box::new([0; GROUPED_VCS + 1]),
            grouped_on: false,
            grouped_decided: false,
            grouped: true,
        };
        va.set_classes(lo, hi, nv);
        va
    }

    /// Whether the switch allocator may skip the input VCs granted an output VC this
    /// cycle: a grant makes the front flit bid `delay` cycles later (`take_vc_local`), so
    /// with a VA delay (not speculative) none of them is eligible in this cycle's switch
    /// allocation.
    #[inline(always)]
    pub fn fresh_apply(&self) -> bool {
        self.skip_fresh && self.delay > 0
    }

    /// Marks local input VC bit `bit` of word `w` of the router being run as granted
    /// this cycle (always: a test here would cost more than the mark).
    #[inline(always)]
    pub fn mark_fresh(&mut self, w: usize, bit: u64) {
        self.fresh[w] |= bit;
    }

    /// Takes word `w` of `fresh` (leaving it zero for the next router): the VCs the switch
    /// allocator may skip, none unless [`VaState::fresh_apply`].
    #[inline(always)]
    pub fn take_fresh(&mut self, w: usize, apply: bool) -> u64 {
        let f = std::mem::take(&mut self.fresh[w]);
        if apply {
            f
        } else {
            0
        }
    }

    /// Clears `fresh` where the switch allocator does not read it (the crossbar, worms):
    /// only the words written (a word-by-word test: a plain fill is a `memset` call).
    #[inline(never)]
    pub fn clear_fresh(&mut self) {
        for f in self.fresh.iter_mut() {
            if *f != 0 {
                *f = 0;
            }
        }
    }

    /// Class `c` may use VCs `lo[c]..hi[c]`; `u8::MAX` any VC.
    pub fn set_classes(&mut self, lo: &[u8], hi: &[u8], nv: usize) {
        if nv > MASK_VCS {
            return;
        }
        self.class_mask.fill(0);
        for (c, (&l, &h)) in lo.iter().zip(hi).enumerate() {
            self.class_mask[c] = all_vcs(h as usize) & !all_vcs(l as usize);
        }
        self.class_mask[u8::MAX as usize] = all_vcs(nv);
    }
}

/// A VC request of the per-port iSLIP VC allocator (va_ports.rs): `local output port << 32
/// | local input VC` (so that requests sort by port, then input VC), and the port's VCs it
/// may take.
#[derive(Clone, Copy)]
pub struct PortRequest {
    pub key: u64,
    pub cand: u64,
}

impl PortRequest {
    #[inline(always)]
    pub fn new(port: usize, input: usize, cand: u64) -> PortRequest {
        PortRequest {
            key: (port as u64) << 32 | input as u64,
            cand,
        }
    }

    /// The router-local output port asked for.
    #[inline(always)]
    pub fn port(&self) -> usize {
        (self.key >> 32) as usize
    }

    /// The router-local input VC asking.
    #[inline(always)]
    pub fn input(&self) -> usize {
        self.key as u32 as usize
    }
}

/// The mask of VCs `0..n` (`n <= 64`).
#[inline]
pub fn all_vcs(n: usize) -> u64 {
    if n >= 64 {
        !0
    } else {
        (1u64 << n) - 1
    }
}

#[cfg(test)]
#[path = "tests_general_fast.rs"]
mod tests_general_fast;
