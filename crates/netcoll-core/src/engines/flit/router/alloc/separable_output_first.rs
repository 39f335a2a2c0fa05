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
    // The output arbiters' picks.
    let mut pick = m.take_scratch(n_out);
    for (o, p) in pick.iter_mut().enumerate() {
        let ptr = st.out_ptr[o] as usize;
        let best = best_from(
            reqs.of_output(o),
            |r| r.i as usize,
            ptr,
            n_in,
            |r| Some(r.out_pri),
        );
        if let Some(i) = best {
            *p = i as u32;
        }
    }
    for i in 0..n_in {
        let ptr = st.in_ptr[i] as usize;
        let best = best_from(
            reqs.of_input(i).iter(),
            |r| r.o as usize,
            ptr,
            n_out,
            |r| (pick[r.o as usize] == i as u32).then_some(r.in_pri),
        );
        if let Some(o) = best {
            m.set(i, o);
            st.in_ptr[i] = ((o + 1) % n_out) as u16;
            st.out_ptr[o] = ((i + 1) % n_in) as u16;
        }
    }
    m.put_scratch(pick);
}
