//! BookSim's `separable_output_first` with its round-robin arbiters (`arb_type =
//! round_robin`):
//!
//! 1. every output with requests picks one input: highest `out_pri`, ties to the first
//!    from its arbiter's pointer;
//! 2. every input picked by some outputs accepts one: highest `in_pri`, ties to the first
//!    from its arbiter's pointer.
//!
//! One pass, no iterations. Both arbiters of a match move their pointer past the winner.

use super::{arbitrate_inputs, arbitrate_outputs, match_and_move, Matching, Requests, State};

pub fn allocate(reqs: &Requests, st: &mut State, m: &mut Matching) {
    let (mut pick, mut accept) = m.take_scratches(reqs.outputs(), reqs.inputs());
    arbitrate_outputs(reqs, st.out_ptr, |_| true, |_| true, &mut pick);
    // Each input's arbiter among the outputs that picked it.
    let picked = |r: &super::Request| pick[r.o as usize] == u32::from(r.i);
    arbitrate_inputs(reqs, st.in_ptr, picked, &mut accept);
    for (i, &o) in accept.iter().enumerate() {
        if o != super::NONE {
            match_and_move(i, o as usize, st, m);
        }
    }
    m.put_scratches((pick, accept));
}
