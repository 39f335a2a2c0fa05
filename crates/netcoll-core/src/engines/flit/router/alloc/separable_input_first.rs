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

use super::{best_from, Matching, Requests, State};

pub fn allocate(reqs: &Requests, st: &mut State, m: &mut Matching) {
    let (n_in, n_out) = (reqs.inputs(), reqs.outputs());
    // The input arbiters' picks, by output.
    let mut picked: Vec<Vec<super::Request>> = vec![Vec::new(); n_out];
    for i in 0..n_in {
        let mine = reqs.of_input(i);
        let ptr = st.in_ptr[i] as usize;
        if let Some(o) = best_from(mine.iter(), |r| r.o as usize, ptr, n_out, |r| Some(r.in_pri)) {
            let r = mine.iter().find(|r| r.o as usize == o).expect("picked among them");
            picked[o].push(*r);
        }
    }
    for (o, askers) in picked.iter().enumerate() {
        let ptr = st.out_ptr[o] as usize;
        if let Some(i) = best_from(askers.iter(), |r| r.i as usize, ptr, n_in, |r| Some(r.out_pri)) {
            m.set(i, o);
            st.in_ptr[i] = ((o + 1) % n_out) as u16;
            st.out_ptr[o] = ((i + 1) % n_in) as u16;
        }
    }
}
