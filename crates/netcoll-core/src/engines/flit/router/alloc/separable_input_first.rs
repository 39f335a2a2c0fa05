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

use super::{arbitrate_inputs, arbitrate_outputs, match_and_move, Matching, Requests, State};

pub fn allocate(reqs: &Requests, st: &mut State, m: &mut Matching) {
    let (mut pick, mut grant) = m.take_scratches(reqs.inputs(), reqs.outputs());
    arbitrate_inputs(reqs, st.in_ptr, |_| true, &mut pick);
    // Each output's arbiter among the inputs that picked it.
    let picked = |r: &super::Request| pick[r.i as usize] == u32::from(r.o);
    arbitrate_outputs(reqs, st.out_ptr, |_| true, picked, &mut grant);
    for (o, &i) in grant.iter().enumerate() {
        if i != super::NONE {
            match_and_move(i as usize, o, st, m);
        }
    }
    m.put_scratches((pick, grant));
}
