//! BookSim's `wavefront` and `rr_wavefront`: the request matrix is swept by diagonals
//! (input + output constant modulo `max(inputs, outputs)`), starting at the priority
//! diagonal; within a diagonal by increasing output. Every request met whose input and
//! output are both still unmatched is granted (greedy on a fixed order, so the matching is
//! maximal). With priorities, one sweep per (out_pri, in_pri) pair present, highest first.
//!
//! The priority diagonal moves after every allocation that had requests: to the next
//! diagonal (`wavefront`), or past the diagonal of the first grant (`rr_wavefront`). A
//! lone request is granted at once. Not random: BookSim's starts at diagonal 0 too.

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
    let from = if skip_diags { first_diag } else { pri };
    *st.word = ((from + 1) % square) as u32;
}
