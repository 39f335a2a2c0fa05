//! BookSim 2's allocators (its `allocators/` folder, re-derived), on a request matrix of
//! their own: the router stages (vc_alloc.rs, sw_alloc.rs) fill a [`Requests`] with the
//! requests of one router in one cycle, [`allocate`] matches inputs with outputs, and the
//! stages act on the [`Matching`]. The VC allocator's inputs and outputs are a router's
//! input and output VCs (`port * num_vcs + vc`), the switch allocator's its ports.
//!
//! Each allocator is one file; [`Kind`] names them as BookSim's factory
//! (`Allocator::NewAllocator`) does:
//!
//! | name | file | iterations (`alloc_iters`) | random |
//! |---|---|---|---|
//! | `islip` | islip.rs | yes | no |
//! | `pim` | pim.rs | yes | every arbiter |
//! | `select` | select.rs | yes | no |
//! | `separable_input_first` | separable_input_first.rs | no | no |
//! | `separable_output_first` | separable_output_first.rs | no | no |
//! | `wavefront`, `rr_wavefront` | wavefront.rs | no | no |
//! | `max_size` | max_size.rs | no (it augments until maximum) | no |
//! | `loa` | loa.rs | no | no |
//!
//! An allocator's state is what BookSim's object keeps between cycles: a pointer per
//! input and one per output ([`State::in_ptr`], [`State::out_ptr`]: iSLIP's accept and
//! grant pointers, the separable allocators' round-robin arbiters, LOA's request and
//! grant pointers), one word per router ([`State::word`]: the wavefront's priority
//! diagonal, max-size's first input) and, for PIM, a stream of draws per router
//! ([`Draws`]: BookSim draws from its one global generator; netcoll's n-th draw at a
//! router is a hash of (seed, stage, router, n), so a run does not depend on the order
//! routers run in or on the thread count, and each draw is uniform as BookSim's).
//!
//! Requests carry BookSim's two priorities (`in_pri` for the input side's choice, `out_pri`
//! for the output side's); under `priority = none` the stages pass 0 and every arbiter is
//! plain round-robin, as BookSim's are then.
//!
//! Two paths give the same matching and pointers: the list path (the files above, on the
//! sorted request list and its by-input and by-output views; any priorities, any width)
//! and the mask path (masks.rs: islip, select and the separable allocators on per-input
//! and per-output bitmasks, each round-robin arbiter a "first set bit at or after the
//! pointer"; wavefront.rs's diagonal sweep on the same masks), chosen by
//! [`Requests::masks_apply`]: a round-robin or wavefront allocator, a matrix at most 128
//! wide, every request at the same priorities (tests_masks.rs checks the two against each
//! other).

mod islip;
mod loa;
mod masks;
mod max_size;
mod pim;
mod requests;
mod select;
mod separable_input_first;
mod separable_output_first;
mod wavefront;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_masks;

pub use masks::first_at_or_after_128;
pub use requests::{Request, Requests};

/// No match.
pub const NONE: u32 = u32::MAX;

/// The allocators, by BookSim's names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Islip,
    Pim,
    Select,
    SeparableInputFirst,
    SeparableOutputFirst,
    /// BookSim's `wavefront` (the priority diagonal moves by one each allocation) and
    /// `rr_wavefront` (it moves past the first diagonal granted).
    Wavefront {
        skip_diags: bool,
    },
    MaxSize,
    Loa,
}

/// The allocation: each input's output and each output's input ([`NONE`]: none).
#[derive(Debug, Default)]
pub struct Matching {
    pub in_match: Vec<u32>,
    pub out_match: Vec<u32>,
    /// The allocators' scratch (grants or picks; the wavefront's sweep order; max-size's
    /// search), kept to spare allocations per call.
    scratch: Vec<u32>,
    /// A second such scratch (the separable allocators' second round of arbiters).
    scratch2: Vec<u32>,
    order: Vec<Request>,
    stacks: (Vec<u32>, Vec<u32>),
    /// The mask path's scratch (masks.rs): one mask per input or output, all 0 between
    /// calls.
    masks64: Vec<u64>,
    masks128: Vec<u128>,
    /// The wavefront's mask path: per distance from the priority diagonal, the inputs
    /// asking on it (wavefront.rs); all 0 between calls.
    diags: Vec<u128>,
}

impl Matching {
    fn reset(&mut self, n_in: usize, n_out: usize) {
        self.in_match.clear();
        self.in_match.resize(n_in, NONE);
        self.out_match.clear();
        self.out_match.resize(n_out, NONE);
    }

    /// The scratch, `n` entries of [`NONE`] (give it back with [`Matching::put_scratch`]).
    fn take_scratch(&mut self, n: usize) -> Vec<u32> {
        let mut s = std::mem::take(&mut self.scratch);
        s.clear();
        s.resize(n, NONE);
        s
    }

    fn put_scratch(&mut self, s: Vec<u32>) {
        self.scratch = s;
    }

    /// Both scratches, `a` and `b` entries of [`NONE`] (give them back with
    /// [`Matching::put_scratches`]).
    fn take_scratches(&mut self, a: usize, b: usize) -> (Vec<u32>, Vec<u32>) {
        let first = self.take_scratch(a);
        let mut second = std::mem::take(&mut self.scratch2);
        second.clear();
        second.resize(b, NONE);
        (first, second)
    }

    fn put_scratches(&mut self, (a, b): (Vec<u32>, Vec<u32>)) {
        self.scratch = a;
        self.scratch2 = b;
    }

    fn set(&mut self, i: usize, o: usize) {
        self.in_match[i] = o as u32;
        self.out_match[o] = i as u32;
    }

    #[inline]
    fn in_free(&self, i: usize) -> bool {
        self.in_match[i] == NONE
    }

    #[inline]
    fn out_free(&self, o: usize) -> bool {
        self.out_match[o] == NONE
    }
}

/// A router's stream of uniform draws for one stage (see the module comment).
pub struct Draws<'a> {
    pub key: u64,
    /// The draws made so far at this router and stage.
    pub n: &'a mut u32,
}

impl Draws<'_> {
    /// BookSim's `RandomInt(m - 1)`: uniform on `0..m` (`m >= 1`).
    pub fn below(&mut self, m: usize) -> usize {
        let x = splitmix64(self.key ^ u64::from(*self.n));
        *self.n = self.n.wrapping_add(1);
        ((u128::from(x) * m as u128) >> 64) as usize
    }
}

/// The key of the draws of router `r` at one stage (`stage` tells the VC and switch
/// allocators apart) in a run of seed `seed`.
pub fn draw_key(seed: u64, stage: u64, r: usize) -> u64 {
    splitmix64(seed ^ 0xa110_c000 ^ stage << 62) ^ ((r as u64) << 32)
}

/// SplitMix64's output function: a well-mixed hash of `x`.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// What an allocator keeps from one cycle to the next at one router.
pub struct State<'a> {
    /// Per input: iSLIP's and select's accept pointer, the separable allocators' input
    /// arbiter, LOA's request pointer.
    pub in_ptr: &'a mut [u16],
    /// Per output: iSLIP's and select's grant pointer, the separable allocators' output
    /// arbiter, LOA's grant pointer.
    pub out_ptr: &'a mut [u16],
    /// The wavefront's priority diagonal, max-size's first input.
    pub word: &'a mut u32,
    /// PIM's draws.
    pub draws: Draws<'a>,
}

/// Runs allocator `kind` (`iters` iterations where it iterates) over `reqs` into `m`: on
/// the masks where [`Requests::masks_apply`] says so (the same matching and pointers,
/// faster), else on the lists.
pub fn allocate(kind: Kind, iters: u32, reqs: &mut Requests, st: &mut State, m: &mut Matching) {
    m.reset(reqs.inputs(), reqs.outputs());
    if reqs.masks_apply(kind) {
        #[cfg(test)]
        tests_masks::ON_MASKS.with(|n| n.set(n.get() + 1));
        return masks::allocate(kind, iters, reqs, st, m);
    }
    reqs.ensure_views();
    allocate_lists(kind, iters, reqs, st, m);
}

/// The list path of [`allocate`] (`reqs` finished, `m` reset).
fn allocate_lists(kind: Kind, iters: u32, reqs: &Requests, st: &mut State, m: &mut Matching) {
    match kind {
        Kind::Islip => islip::allocate(reqs, iters, st, m),
        Kind::Pim => pim::allocate(reqs, iters, st, m),
        Kind::Select => select::allocate(reqs, iters, st, m),
        Kind::SeparableInputFirst => separable_input_first::allocate(reqs, st, m),
        Kind::SeparableOutputFirst => separable_output_first::allocate(reqs, st, m),
        Kind::Wavefront { skip_diags } => wavefront::allocate(reqs, skip_diags, st, m),
        Kind::MaxSize => max_size::allocate(reqs, st, m),
        Kind::Loa => loa::allocate(reqs, st, m),
    }
}

/// One round of the input arbiters (list path): every input `i` picks, among its requests
/// that are `eligible`, the highest `in_pri`, ties to the first output from `ptr[i]`;
/// `pick[i]` becomes that output (left as it was where none is eligible).
fn arbitrate_inputs(
    reqs: &Requests,
    ptr: &[u16],
    eligible: impl Fn(&Request) -> bool,
    pick: &mut [u32],
) {
    let n_out = reqs.outputs();
    for (i, p) in pick.iter_mut().enumerate() {
        let reqs = reqs.of_input(i).iter();
        let pri = |r: &Request| eligible(r).then_some(r.in_pri);
        if let Some(o) = best_from(reqs, |r| r.o as usize, ptr[i] as usize, n_out, pri) {
            *p = o as u32;
        }
    }
}

/// One round of the output arbiters (list path), as [`arbitrate_inputs`]: every output
/// `o` with requests for which `live(o)` holds picks the eligible input of highest
/// `out_pri`, ties to the first from `ptr[o]`.
fn arbitrate_outputs(
    reqs: &Requests,
    ptr: &[u16],
    live: impl Fn(usize) -> bool,
    eligible: impl Fn(&Request) -> bool,
    pick: &mut [u32],
) {
    let n_in = reqs.inputs();
    for (o, p) in pick.iter_mut().enumerate() {
        if reqs.output_count(o) == 0 || !live(o) {
            continue;
        }
        let pri = |r: &Request| eligible(r).then_some(r.out_pri);
        let best = best_from(
            reqs.of_output(o),
            |r| r.i as usize,
            ptr[o] as usize,
            n_in,
            pri,
        );
        if let Some(i) = best {
            *p = i as u32;
        }
    }
}

/// Matches input `i` with output `o` and moves both arbiters' pointers past the match.
fn match_and_move(i: usize, o: usize, st: &mut State, m: &mut Matching) {
    m.set(i, o);
    st.in_ptr[i] = allocator_next(o, m.out_match.len());
    st.out_ptr[o] = allocator_next(i, m.in_match.len());
}

/// `(x + 1) % n` as a pointer.
#[inline]
fn allocator_next(x: usize, n: usize) -> u16 {
    (if x + 1 == n { 0 } else { x + 1 }) as u16
}

/// BookSim's round-robin arbiter's order (`RoundRobinArbiter::Supersedes`): does a request
/// at position `a` with priority `pa` beat one at `b` with `pb`, the pointer at `ptr` of
/// `n` positions? Higher priority first, then nearer the pointer.
#[inline]
pub fn supersedes(a: usize, pa: i32, b: usize, pb: i32, ptr: usize, n: usize) -> bool {
    pa > pb || (pa == pb && (a + n - ptr) % n < (b + n - ptr) % n)
}

/// The first of `items` (positions in increasing order) at or after `ptr`, wrapping, for
/// which `ok` holds: BookSim's scan of a sparse request list from a pointer.
#[inline]
pub fn first_from<'r>(
    items: impl Iterator<Item = &'r Request> + Clone,
    pos: impl Fn(&Request) -> usize,
    ptr: usize,
    mut ok: impl FnMut(&Request) -> bool,
) -> Option<&'r Request> {
    let mut wrapped = None;
    for r in items {
        if ok(r) {
            if pos(r) >= ptr {
                return Some(r);
            }
            wrapped.get_or_insert(r);
        }
    }
    wrapped
}

/// Among `items` (in increasing position), those for which `pri` gives a priority, the
/// highest, ties to the first in round-robin order from `ptr` (of `n` positions).
pub fn best_from<'r>(
    items: impl Iterator<Item = &'r Request>,
    pos: impl Fn(&Request) -> usize,
    ptr: usize,
    n: usize,
    pri: impl Fn(&Request) -> Option<i32>,
) -> Option<usize> {
    let mut best: Option<(usize, i32)> = None;
    for r in items {
        let Some(p) = pri(r) else { continue };
        let at = pos(r);
        if best.is_none_or(|(b, bp)| supersedes(at, p, b, bp, ptr, n)) {
            best = Some((at, p));
        }
    }
    best.map(|b| b.0)
}

/// What the router stages keep for the allocators of router/alloc/ (held by the VC
/// allocators' state, `VaState::book`): per router, the allocator's word and its draws for
/// each stage, and the scratch of one allocation.
#[derive(Default)]
pub struct Book {
    pub va_word: Vec<u32>,
    pub sa_word: Vec<u32>,
    pub va_draws: Vec<u32>,
    pub sa_draws: Vec<u32>,
    pub seed: u64,
    pub reqs: Requests,
    pub matching: Matching,
    /// Every router runs `islip` on the request matrix too, not on the faster paths
    /// (tests compare the two).
    pub general: bool,
}

impl Book {
    pub fn new(routers: usize, seed: u64) -> Book {
        Book {
            va_word: vec![0; routers],
            sa_word: vec![0; routers],
            va_draws: vec![0; routers],
            sa_draws: vec![0; routers],
            seed,
            ..Book::default()
        }
    }
}
