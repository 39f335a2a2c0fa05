//! The round-robin allocators (islip, select, separable_input_first,
//! separable_output_first) on the request masks of [`Requests`], taken where
//! [`Requests::masks_apply`] holds: the matrix is at most 128 wide and every request has
//! the same priorities. Then each arbiter of the list path (`best_from`, `first_from`)
//! picks the first eligible request at or after its pointer, wrapping: here the first set
//! bit of a mask at or after the pointer. Same matching, same pointer moves, no sort, no
//! views (tests.rs checks the two paths against each other on random matrices).
//!
//! Every allocator is one or more rounds of two arbiter passes: one side's arbiters each
//! pick one request ([`arbitrate`], which also transposes the picks), the other side's
//! arbiters each choose among the picks naming them.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

use super::{Kind, Matching, Requests, State, NONE};

/// A mask word: `u64` for matrices up to 64 wide (the common case: half the work of a
/// `u128`), `u128` up to 128. [`Requests`] keeps `u128`s; a `u64` reads their low half.
pub(super) trait Word:
    Copy
    + PartialEq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + Not<Output = Self>
{
    const ZERO: Self;
    /// The word holding bit `x` alone.
    fn bit(x: usize) -> Self;
    /// The bits at or above `x` (none for `x` past the word).
    fn from_bit(x: usize) -> Self;
    fn low(v: u128) -> Self;
    fn lowest(self) -> usize;
    fn without_lowest(self) -> Self;
    /// The mask path's scratch of this word ([`Matching`]).
    fn scratch(m: &mut Matching) -> &mut Vec<Self>;
}

macro_rules! word {
    ($t:ty, $field:ident) => {
        impl Word for $t {
            const ZERO: Self = 0;
            #[inline(always)]
            fn bit(x: usize) -> Self {
                1 << x
            }
            #[inline(always)]
            fn from_bit(x: usize) -> Self {
                (!0 as $t).checked_shl(x as u32).unwrap_or(0)
            }
            #[inline(always)]
            fn low(v: u128) -> Self {
                v as $t
            }
            #[inline(always)]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            fn scratch(m: &mut Matching) -> &mut Vec<Self> {
                &mut m.$field
            }
        }
    };
}
word!(u64, masks64);
word!(u128, masks128);

/// The set bits of `m`, lowest first.
#[inline(always)]
fn bits<W: Word>(mut m: W) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != W::ZERO).then(|| {
            let b = m.lowest();
            m = m.without_lowest();
            b
        })
    })
}

/// The first set bit of `mask` (not empty, bits below the arbiter's width only) at or
/// after `ptr`, wrapping: a round-robin arbiter's pick. A pointer at or past the width
/// picks the lowest bit, as the list path's scan does.
#[inline(always)]
fn first_at_or_after<W: Word>(mask: W, ptr: usize) -> usize {
    debug_assert!(mask != W::ZERO);
    let hi = mask & W::from_bit(ptr);
    if hi != W::ZERO { hi } else { mask }.lowest()
}

/// [`first_at_or_after`] on a router's 128-bit mask of input VCs (the grouped VC
/// allocator's output arbiters, va_grouped.rs).
#[inline(always)]
pub fn first_at_or_after_128(mask: u128, ptr: usize) -> usize {
    first_at_or_after(mask, ptr)
}

/// One pass of arbiters: every `x` in `active` whose row `rows[x] & allowed` is not empty
/// picks its first bit `y` from `ptr[x]`; sets bit `x` of `to[y]` (the picks naming `y`)
/// and returns the `y`s picked.
#[inline(always)]
fn arbitrate<W: Word>(active: W, rows: &[u128], allowed: W, ptr: &[u16], to: &mut [W]) -> W {
    let mut picked = W::ZERO;
    for x in bits(active) {
        let row = W::low(rows[x]) & allowed;
        if row != W::ZERO {
            let y = first_at_or_after(row, ptr[x] as usize);
            to[y] |= W::bit(x);
            picked |= W::bit(y);
        }
    }
    picked
}

/// Matches input `i` with output `o`; on `moves`, both arbiters' pointers move past the
/// match.
#[inline]
fn set(i: usize, o: usize, moves: bool, st: &mut State, m: &mut Matching) {
    m.set(i, o);
    if moves {
        st.in_ptr[i] = super::allocator_next(o, m.out_match.len());
        st.out_ptr[o] = super::allocator_next(i, m.in_match.len());
    }
}

/// [`super::allocate`] on masks (`m` reset): on `u64`s where the matrix fits.
pub fn allocate(kind: Kind, iters: u32, reqs: &Requests, st: &mut State, m: &mut Matching) {
    if let Kind::Wavefront { skip_diags } = kind {
        return super::wavefront::allocate_masks(reqs, skip_diags, st, m);
    }
    if reqs.inputs().max(reqs.outputs()) <= 64 {
        allocate_on::<u64>(kind, iters, reqs, st, m)
    } else {
        allocate_on::<u128>(kind, iters, reqs, st, m)
    }
}

fn allocate_on<W: Word>(kind: Kind, iters: u32, reqs: &Requests, st: &mut State, m: &mut Matching) {
    let n = reqs.inputs().max(reqs.outputs());
    let mut to = std::mem::take(W::scratch(m));
    if to.len() < n {
        to.resize(n, W::ZERO);
    }
    match kind {
        Kind::SeparableInputFirst => separable(reqs, true, st, m, &mut to),
        Kind::SeparableOutputFirst => separable(reqs, false, st, m, &mut to),
        Kind::Islip => islip(reqs, iters, st, m, &mut to),
        Kind::Select => select(reqs, iters, st, m, &mut to),
        _ => unreachable!("Requests::masks_apply admits only the round-robin allocators"),
    }
    debug_assert!(to.iter().all(|&t| t == W::ZERO));
    *W::scratch(m) = to;
}

/// separable_input_first (`input_first`): every input picks an output, every output
/// picked grants one of its pickers; separable_output_first: the same with the sides
/// swapped. Both pointers of a match move.
fn separable<W: Word>(
    reqs: &Requests,
    input_first: bool,
    st: &mut State,
    m: &mut Matching,
    to: &mut [W],
) {
    let (any, rows, ptr) = if input_first {
        (reqs.in_any, &reqs.rows, &*st.in_ptr)
    } else {
        (reqs.out_any, &reqs.cols, &*st.out_ptr)
    };
    let picked = arbitrate(W::low(any), rows, !W::ZERO, ptr, to);
    for y in bits(picked) {
        let ptr = if input_first {
            st.out_ptr[y]
        } else {
            st.in_ptr[y]
        };
        let x = first_at_or_after(std::mem::replace(&mut to[y], W::ZERO), ptr as usize);
        let (i, o) = if input_first { (x, y) } else { (y, x) };
        set(i, o, true, st, m);
    }
}

/// iSLIP: rounds of grants (free outputs pick among free inputs) and accepts (each
/// granted input takes one grant); pointers move on the first round's matches. A round
/// without grants ends it (no grant, no match).
fn islip<W: Word>(reqs: &Requests, iters: u32, st: &mut State, m: &mut Matching, to: &mut [W]) {
    let (mut free_in, mut free_out) = (!W::ZERO, !W::ZERO);
    for iter in 0..iters {
        let outs = W::low(reqs.out_any) & free_out;
        let granted = arbitrate(outs, &reqs.cols, free_in, st.out_ptr, to);
        if granted == W::ZERO {
            break;
        }
        for i in bits(granted) {
            let o = first_at_or_after(
                std::mem::replace(&mut to[i], W::ZERO),
                st.in_ptr[i] as usize,
            );
            set(i, o, iter == 0, st, m);
            free_in &= !W::bit(i);
            free_out &= !W::bit(o);
        }
    }
}

/// select (select.rs's rules, priorities all equal): as iSLIP, but an output keeps its
/// grant from an earlier round where it grants nobody new, and every input holding
/// grants accepts, matched already or not. `to[i]` holds the outputs whose grant names
/// input `i` throughout.
fn select<W: Word>(reqs: &Requests, iters: u32, st: &mut State, m: &mut Matching, to: &mut [W]) {
    let mut grants = m.take_scratch(reqs.outputs());
    let (mut free_in, mut free_out) = (!W::ZERO, !W::ZERO);
    let mut holders = W::ZERO;
    for iter in 0..iters {
        for o in bits(W::low(reqs.out_any) & free_out) {
            let asks = W::low(reqs.cols[o]) & free_in;
            if asks == W::ZERO {
                continue;
            }
            let i = first_at_or_after(asks, st.out_ptr[o] as usize);
            let old = grants[o];
            if old != NONE {
                to[old as usize] &= !W::bit(o);
            }
            grants[o] = i as u32;
            to[i] |= W::bit(o);
            holders |= W::bit(i);
        }
        for i in bits(holders) {
            if to[i] == W::ZERO {
                continue;
            }
            let o = first_at_or_after(to[i], st.in_ptr[i] as usize);
            set(i, o, iter == 0, st, m);
            free_in &= !W::bit(i);
            free_out &= !W::bit(o);
        }
    }
    for i in bits(holders) {
        to[i] = W::ZERO;
    }
    m.put_scratch(grants);
}
