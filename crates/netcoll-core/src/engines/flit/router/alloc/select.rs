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

use super::{best_from, Matching, Requests, State};

pub fn allocate(reqs: &Requests, iters: u32, st: &mut State, m: &mut Matching) {
    let (n_in, n_out) = (reqs.inputs(), reqs.outputs());
    let mut grants = m.take_scratch(n_out);
    for iter in 0..iters {
        for (o, g) in grants.iter_mut().enumerate() {
            if reqs.output_count(o) == 0 || !m.out_free(o) {
                continue;
            }
            let ptr = st.out_ptr[o] as usize;
            let best = best_from(
                reqs.of_output(o),
                |r| r.i as usize,
                ptr,
                n_in,
                |r| m.in_free(r.i as usize).then_some(r.out_pri),
            );
            if let Some(i) = best {
                *g = i as u32;
            }
        }
        for i in 0..n_in {
            let ptr = st.in_ptr[i] as usize;
            let best = best_from(
                reqs.of_input(i).iter(),
                |r| r.o as usize,
                ptr,
                n_out,
                |r| (grants[r.o as usize] == i as u32).then_some(r.in_pri),
            );
            if let Some(o) = best {
                m.set(i, o);
                if iter == 0 {
                    st.out_ptr[o] = ((i + 1) % n_in) as u16;
                    st.in_ptr[i] = ((o + 1) % n_out) as u16;
                }
            }
        }
    }
    m.put_scratch(grants);
}
