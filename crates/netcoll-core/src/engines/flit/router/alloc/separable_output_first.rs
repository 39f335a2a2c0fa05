//! BookSim's `separable_output_first` with its round-robin arbiters (`arb_type =
//! round_robin`):
//!
//! 1. every output with requests picks one input: highest `out_pri`, ties to the first
//!    from its arbiter's pointer;
//! 2. every input picked by some outputs accepts one: highest `in_pri`, ties to the first
//!    from its arbiter's pointer.
//!
//! One pass, no iterations. Both arbiters of a match move their pointer past the winner.

use super::{best_from, Matching, Requests, State};

pub fn allocate(reqs: &Requests, st: &mut State, m: &mut Matching) {
    let (n_in, n_out) = (reqs.inputs(), reqs.outputs());
    // The output arbiters' picks, by input.
    let mut picked: Vec<Vec<super::Request>> = vec![Vec::new(); n_in];
    for o in 0..n_out {
        let ptr = st.out_ptr[o] as usize;
        let best = best_from(reqs.of_output(o), |r| r.i as usize, ptr, n_in, |r| Some(r.out_pri));
        if let Some(i) = best {
            let r = reqs.find(i, o).expect("picked among them");
            picked[i].push(*r);
        }
    }
    for (i, grants) in picked.iter().enumerate() {
        let ptr = st.in_ptr[i] as usize;
        if let Some(o) = best_from(grants.iter(), |r| r.o as usize, ptr, n_out, |r| Some(r.in_pri)) {
            m.set(i, o);
            st.in_ptr[i] = ((o + 1) % n_out) as u16;
            st.out_ptr[o] = ((i + 1) % n_in) as u16;
        }
    }
}
