//! BookSim's `wavefront` and `rr_wavefront`: the request matrix is swept by diagonals
//! (input + output constant modulo `max(inputs, outputs)`), starting at the priority
//! diagonal; within a diagonal by increasing output. Every request met whose input and
//! output are both still unmatched is granted (greedy on a fixed order, so the matching is
//! maximal). With priorities, one sweep per (out_pri, in_pri) pair present, highest first.
//!
//! The priority diagonal moves after every allocation that had requests: to the next
//! diagonal (`wavefront`), or past the diagonal of the first grant (`rr_wavefront`). A
//! lone request is granted at once. Not random: BookSim's starts at diagonal 0 too.
//!
//! Two paths give the same matching and diagonal: [`allocate`] sorts the request list (any
//! priorities, any width); [`allocate_masks`] buckets the requests of the masks by diagonal
//! (uniform priorities, at most 128 wide: `Requests::masks_apply`). One diagonal pairs each
//! output with one input, so its grants never conflict and their order within it does not
//! matter (the diagonal moved to is the same whichever grant is first): no sort.

use super::{Matching, Request, Requests, State};

pub fn allocate(reqs: &Requests, skip_diags: bool, st: &mut State, m: &mut Matching) {
    if reqs.is_empty() {
        return;
    }
    let square = reqs.inputs().max(reqs.outputs());
    let pri = *st.word as usize % square;
    let first_diag = if reqs.len() == 1 {
        let r = reqs.all()[0];
        m.set(r.i as usize, r.o as usize);
        r.i as usize + r.o as usize
    } else {
        // The sweep's order: priority pair (highest first), then the diagonal's distance
        // from the priority one, then the output.
        let key = |r: &Request| {
            let diag = (r.i as usize + r.o as usize + square - pri) % square;
            (std::cmp::Reverse((r.out_pri, r.in_pri)), diag, r.o)
        };
        let mut order = std::mem::take(&mut m.order);
        order.clear();
        order.extend_from_slice(reqs.all());
        order.sort_unstable_by_key(key);
        let mut first = None;
        for r in &order {
            let (i, o) = (r.i as usize, r.o as usize);
            if m.in_free(i) && m.out_free(o) {
                m.set(i, o);
                first.get_or_insert(i + o);
            }
        }
        m.order = order;
        first.expect("a sweep over requests grants the first")
    };
    move_diagonal(first_diag, skip_diags, pri, square, st);
}

/// [`allocate`] on the request masks: each request is put in its diagonal's bucket (the
/// inputs asking on it, by distance from the priority diagonal), then the buckets are swept
/// in order, granting where input and output are still free. Linear in the requests.
pub fn allocate_masks(reqs: &Requests, skip_diags: bool, st: &mut State, m: &mut Matching) {
    if reqs.is_empty() {
        return;
    }
    let square = reqs.inputs().max(reqs.outputs());
    let pri = *st.word as usize % square;
    let mut by_dist = std::mem::take(&mut m.diags);
    if by_dist.len() < square {
        by_dist.resize(square, 0);
    }
    let mut dists = 0u128;
    let mut ins = reqs.in_any;
    while ins != 0 {
        let i = ins.trailing_zeros() as usize;
        ins &= ins - 1;
        // Request (i, o) lies on diagonal i + o, at distance i + o - pri (mod square).
        let base = wrap(i + square - pri, square);
        let mut row = reqs.rows[i];
        while row != 0 {
            let o = row.trailing_zeros() as usize;
            row &= row - 1;
            let d = wrap(base + o, square);
            by_dist[d] |= 1 << i;
            dists |= 1 << d;
        }
    }
    let (mut ins, mut outs) = (reqs.in_any, reqs.out_any);
    let mut first_diag = None;
    while dists != 0 {
        let d = dists.trailing_zeros() as usize;
        dists &= dists - 1;
        let mut asking = std::mem::take(&mut by_dist[d]) & ins;
        let diag = wrap(d + pri, square);
        // One diagonal pairs each input with one output: its grants cannot conflict.
        while asking != 0 {
            let i = asking.trailing_zeros() as usize;
            asking &= asking - 1;
            let o = wrap(diag + square - i, square);
            if outs >> o & 1 != 0 {
                m.set(i, o);
                (ins, outs) = (ins & !(1 << i), outs & !(1 << o));
                first_diag.get_or_insert(diag);
            }
        }
    }
    m.diags = by_dist;
    let first_diag = first_diag.expect("a sweep over requests grants the first");
    move_diagonal(first_diag, skip_diags, pri, square, st);
}

/// `x mod n` for `x < 2n`, without a division.
#[inline(always)]
fn wrap(x: usize, n: usize) -> usize {
    if x >= n {
        x - n
    } else {
        x
    }
}

/// The priority diagonal after an allocation with requests: past the priority one
/// (`wavefront`) or past the first diagonal granted, `first_diag` (`rr_wavefront`; either
/// `i + o` or its residue: only the residue is kept).
fn move_diagonal(first_diag: usize, skip_diags: bool, pri: usize, square: usize, st: &mut State) {
    let from = if skip_diags { first_diag } else { pri };
    *st.word = ((from + 1) % square) as u32;
}
