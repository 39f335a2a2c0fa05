//! BookSim's `select` (`SelAlloc`): iSLIP with priorities, `alloc_iters` iterations.
//!
//! * grant: every unmatched output with requests grants, among its unmatched requesting
//!   inputs, the one of highest `out_pri`, ties going to the first from its grant pointer;
//! * accept: every input with requests accepts, among the outputs whose grant names it,
//!   the one of highest `in_pri`, ties going to the first from its accept pointer;
//! * pointers move only on a match of the first iteration, as iSLIP's.
//!
//! As BookSim's, the grants are kept from one iteration to the next (an output that finds
//! no unmatched requester keeps its last grant) and the accept phase also runs at inputs
//! matched already: with `alloc_iters` above 1, an input granted two outputs in the first
//! iteration may take the other one in a later iteration if nobody else asked for it,
//! leaving its first output unused this cycle. The stages read the matching by input,
//! as BookSim's router does, so that is what a run sees.

use super::{arbitrate_inputs, arbitrate_outputs, Matching, Requests, State};

pub fn allocate(reqs: &Requests, iters: u32, st: &mut State, m: &mut Matching) {
    let (mut grants, mut accept) = m.take_scratches(reqs.outputs(), reqs.inputs());
    for iter in 0..iters {
        let free = |o| m.out_free(o);
        let asks = |r: &super::Request| m.in_free(r.i as usize);
        arbitrate_outputs(reqs, st.out_ptr, free, asks, &mut grants);
        accept.fill(super::NONE);
        let granted = |r: &super::Request| grants[r.o as usize] == u32::from(r.i);
        arbitrate_inputs(reqs, st.in_ptr, granted, &mut accept);
        for (i, &o) in accept.iter().enumerate() {
            if o == super::NONE {
                continue;
            }
            if iter == 0 {
                super::match_and_move(i, o as usize, st, m);
            } else {
                m.set(i, o as usize);
            }
        }
    }
    m.put_scratches((grants, accept));
}
