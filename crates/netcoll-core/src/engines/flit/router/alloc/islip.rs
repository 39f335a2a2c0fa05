//! BookSim's `islip` (`iSLIP_Sparse`): `alloc_iters` iterations of grant and accept.
//!
//! * grant: every unmatched output with requests grants the unmatched requesting input
//!   first from its grant pointer (round-robin over input numbers);
//! * accept: every input takes the grant first from its accept pointer (round-robin over
//!   output numbers).
//!
//! Pointers move only on a match of the first iteration (the grant pointer past the input,
//! the accept pointer past the output): McKeown's rule, which keeps iSLIP starvation-free;
//! later iterations only fill in matches. An iteration that matches nothing ends the
//! allocation (the next ones would see the same requests and match nothing either).

use super::{first_from, Matching, Requests, State, NONE};

pub fn allocate(reqs: &Requests, iters: u32, st: &mut State, m: &mut Matching) {
    let (n_in, n_out) = (reqs.inputs(), reqs.outputs());
    let mut grants = m.take_scratch(n_out);
    for iter in 0..iters {
        grants.fill(NONE);
        for (o, g) in grants.iter_mut().enumerate() {
            if reqs.output_count(o) == 0 || !m.out_free(o) {
                continue;
            }
            let ptr = st.out_ptr[o] as usize;
            if let Some(r) = first_from(
                reqs.of_output(o),
                |r| r.i as usize,
                ptr,
                |r| m.in_free(r.i as usize),
            ) {
                *g = u32::from(r.i);
            }
        }
        let mut matched = false;
        for i in 0..n_in {
            let ptr = st.in_ptr[i] as usize;
            let Some(r) = first_from(
                reqs.of_input(i).iter(),
                |r| r.o as usize,
                ptr,
                |r| grants[r.o as usize] == i as u32,
            ) else {
                continue;
            };
            let o = r.o as usize;
            m.set(i, o);
            matched = true;
            if iter == 0 {
                st.out_ptr[o] = ((i + 1) % n_in) as u16;
                st.in_ptr[i] = ((o + 1) % n_out) as u16;
            }
        }
        if !matched {
            break;
        }
    }
    m.put_scratch(grants);
}
