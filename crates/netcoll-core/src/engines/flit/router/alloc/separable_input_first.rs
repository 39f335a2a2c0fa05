//! BookSim's `separable_input_first` with its round-robin arbiters (`arb_type =
//! round_robin`, the only one netcoll accepts):
//!
//! 1. every input with requests picks one output: highest `in_pri`, ties to the first from
//!    its arbiter's pointer;
//! 2. every output picked by some inputs grants one: highest `out_pri`, ties to the first
//!    from its arbiter's pointer.
//!
//! One pass, no iterations (BookSim's separable allocators ignore `alloc_iters`). Both
//! arbiters of a match move their pointer past the winner; the others keep theirs.

use super::{best_from, Matching, Requests, State, NONE};

pub fn allocate(reqs: &Requests, st: &mut State, m: &mut Matching) {
    let (n_in, n_out) = (reqs.inputs(), reqs.outputs());
    // The input arbiters' picks.
    let mut pick = m.take_scratch(n_in);
    for (i, p) in pick.iter_mut().enumerate() {
        let ptr = st.in_ptr[i] as usize;
        let best = best_from(
            reqs.of_input(i).iter(),
            |r| r.o as usize,
            ptr,
            n_out,
            |r| Some(r.in_pri),
        );
        if let Some(o) = best {
            *p = o as u32;
        }
    }
    for o in 0..n_out {
        if reqs.output_count(o) == 0 {
            continue;
        }
        let ptr = st.out_ptr[o] as usize;
        let best = best_from(
            reqs.of_output(o),
            |r| r.i as usize,
            ptr,
            n_in,
            |r| (pick[r.i as usize] == o as u32).then_some(r.out_pri),
        );
        if let Some(i) = best {
            m.set(i, o);
            st.in_ptr[i] = ((o + 1) % n_out) as u16;
            st.out_ptr[o] = ((i + 1) % n_in) as u16;
        }
    }
    debug_assert!(pick.iter().all(|&p| p == NONE || (p as usize) < n_out));
    m.put_scratch(pick);
}
