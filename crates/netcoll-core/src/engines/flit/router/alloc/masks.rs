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

use super::requests::bits;
use super::{Kind, Matching, Requests, State, NONE};

/// The first set bit of `mask` (not empty, bits below the arbiter's width only) at or
/// after `ptr`, wrapping: a round-robin arbiter's pick. A pointer at or past the width
/// picks the lowest bit, as the list path's scan does.
#[inline]
fn first_at_or_after(mask: u128, ptr: usize) -> usize {
    debug_assert!(mask != 0);
    let hi = if ptr < 128 { mask & (!0u128 << ptr) } else { 0 };
    (if hi != 0 { hi } else { mask }).trailing_zeros() as usize
}

/// One pass of arbiters: every `x` in `active` whose row `rows[x] & allowed` is not empty
/// picks its first bit `y` from `ptr[x]`; sets bit `x` of `to[y]` (the picks naming `y`)
/// and returns the `y`s picked.
#[inline]
fn arbitrate(active: u128, rows: &[u128], allowed: u128, ptr: &[u16], to: &mut [u128]) -> u128 {
    let mut picked = 0;
    for x in bits(active) {
        let row = rows[x] & allowed;
        if row != 0 {
            let y = first_at_or_after(row, ptr[x] as usize);
            to[y] |= 1 << x;
            picked |= 1 << y;
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

/// [`super::allocate`] on masks (`m` reset).
pub fn allocate(kind: Kind, iters: u32, reqs: &Requests, st: &mut State, m: &mut Matching) {
    let n = reqs.inputs().max(reqs.outputs());
    let mut to = std::mem::take(&mut m.masks);
    if to.len() < n {
        to.resize(n, 0);
    }
    match kind {
        Kind::SeparableInputFirst => separable_input_first(reqs, st, m, &mut to),
        Kind::SeparableOutputFirst => separable_output_first(reqs, st, m, &mut to),
        Kind::Islip => islip(reqs, iters, st, m, &mut to),
        Kind::Select => select(reqs, iters, st, m, &mut to),
        _ => unreachable!("Requests::masks_apply admits only the round-robin allocators"),
    }
    debug_assert!(to.iter().all(|&t| t == 0));
    m.masks = to;
}

/// Every input picks an output; every output picked grants one of its pickers. Both
/// pointers of a match move.
fn separable_input_first(reqs: &Requests, st: &mut State, m: &mut Matching, to: &mut [u128]) {
    let outs = arbitrate(reqs.in_any, &reqs.rows, !0, st.in_ptr, to);
    for o in bits(outs) {
        let i = first_at_or_after(std::mem::take(&mut to[o]), st.out_ptr[o] as usize);
        set(i, o, true, st, m);
    }
}

/// Every output picks an input; every input picked accepts one of its pickers.
fn separable_output_first(reqs: &Requests, st: &mut State, m: &mut Matching, to: &mut [u128]) {
    let ins = arbitrate(reqs.out_any, &reqs.cols, !0, st.out_ptr, to);
    for i in bits(ins) {
        let o = first_at_or_after(std::mem::take(&mut to[i]), st.in_ptr[i] as usize);
        set(i, o, true, st, m);
    }
}

/// iSLIP: rounds of grants (free outputs pick among free inputs) and accepts (each
/// granted input takes one grant); pointers move on the first round's matches. A round
/// without grants ends it (no grant, no match).
fn islip(reqs: &Requests, iters: u32, st: &mut State, m: &mut Matching, to: &mut [u128]) {
    let (mut free_in, mut free_out) = (!0u128, !0u128);
    for iter in 0..iters {
        let outs = reqs.out_any & free_out;
        let granted = arbitrate(outs, &reqs.cols, free_in, st.out_ptr, to);
        if granted == 0 {
            break;
        }
        for i in bits(granted) {
            let o = first_at_or_after(std::mem::take(&mut to[i]), st.in_ptr[i] as usize);
            set(i, o, iter == 0, st, m);
            free_in &= !(1 << i);
            free_out &= !(1 << o);
        }
    }
}

/// select (select.rs's rules, priorities all equal): as iSLIP, but an output keeps its
/// grant from an earlier round where it grants nobody new, and every input holding
/// grants accepts, matched already or not. `to[i]` holds the outputs whose grant names
/// input `i` throughout.
fn select(reqs: &Requests, iters: u32, st: &mut State, m: &mut Matching, to: &mut [u128]) {
    let mut grants = m.take_scratch(reqs.outputs());
    let (mut free_in, mut free_out) = (!0u128, !0u128);
    let mut holders = 0u128;
    for iter in 0..iters {
        for o in bits(reqs.out_any & free_out) {
            let asks = reqs.cols[o] & free_in;
            if asks == 0 {
                continue;
            }
            let i = first_at_or_after(asks, st.out_ptr[o] as usize);
            let old = grants[o];
            if old != NONE {
                to[old as usize] &= !(1 << o);
            }
            grants[o] = i as u32;
            to[i] |= 1 << o;
            holders |= 1 << i;
        }
        for i in bits(holders) {
            if to[i] == 0 {
                continue;
            }
            let o = first_at_or_after(to[i], st.in_ptr[i] as usize);
            set(i, o, iter == 0, st, m);
            free_in &= !(1 << i);
            free_out &= !(1 << o);
        }
    }
    for i in bits(holders) {
        to[i] = 0;
    }
    m.put_scratch(grants);
}
