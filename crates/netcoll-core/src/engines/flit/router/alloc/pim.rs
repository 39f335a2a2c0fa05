//! BookSim's `pim` (parallel iterative matching): `alloc_iters` iterations of
//!
//! * grant: every output draws a uniform offset over the inputs and grants the first
//!   unmatched requesting input from it (while the output is unmatched);
//! * accept: every input draws a uniform offset over the outputs and accepts the first
//!   grant from it.
//!
//! No state but the draws. BookSim draws an offset for every output and input whether it
//! has requests or not, from its one generator; netcoll draws only where a choice is
//! made, from the router's stream (the module comment of mod.rs): each choice has
//! BookSim's distribution. An iteration that matches nothing ends the allocation.

use super::{first_from, Matching, Requests, State, NONE};

pub fn allocate(reqs: &Requests, iters: u32, st: &mut State, m: &mut Matching) {
    let (n_in, n_out) = (reqs.inputs(), reqs.outputs());
    let mut grants = m.take_scratch(n_out);
    let mut granted = vec![0u32; n_in];
    for _ in 0..iters {
        grants.fill(NONE);
        granted.fill(0);
        for (o, g) in grants.iter_mut().enumerate() {
            if reqs.output_count(o) == 0 || !m.out_free(o) {
                continue;
            }
            let free = |r: &super::Request| m.in_free(r.i as usize);
            let askers = reqs.of_output(o).filter(|r| free(r)).count();
            if askers == 0 {
                continue;
            }
            let off = if askers == 1 { 0 } else { st.draws.below(n_in) };
            if let Some(r) = first_from(reqs.of_output(o), |r| r.i as usize, off, free) {
                *g = u32::from(r.i);
                granted[r.i as usize] += 1;
            }
        }
        let mut matched = false;
        for (i, &count) in granted.iter().enumerate() {
            if count == 0 {
                continue;
            }
            let off = if count == 1 { 0 } else { st.draws.below(n_out) };
            let r = first_from(
                reqs.of_input(i).iter(),
                |r| r.o as usize,
                off,
                |r| grants[r.o as usize] == i as u32,
            )
            .expect("a granted input has the grant among its requests");
            m.set(i, r.o as usize);
            matched = true;
        }
        if !matched {
            break;
        }
    }
    m.put_scratch(grants);
}
