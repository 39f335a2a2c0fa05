//! BookSim's `loa` (lonely output allocator):
//!
//! 1. count: the requests every output has;
//! 2. request: every input asks for one output, its requested output with the fewest
//!    requests, ties to the first from its request pointer;
//! 3. grant: every output grants the first input asking for it from its grant pointer.
//!
//! Each pointer of a match moves on by one (not past the match: BookSim's rule). One pass.

use super::{first_from, Matching, Requests, State};

pub fn allocate(reqs: &Requests, st: &mut State, m: &mut Matching) {
    let (n_in, n_out) = (reqs.inputs(), reqs.outputs());
    let mut asks = m.take_scratch(n_in);
    for (i, ask) in asks.iter_mut().enumerate() {
        let ptr = st.in_ptr[i] as usize;
        let lonely = reqs
            .of_input(i)
            .iter()
            .map(|r| r.o as usize)
            .min_by_key(|&o| (reqs.output_count(o), (o + n_out - ptr) % n_out));
        if let Some(o) = lonely {
            *ask = o as u32;
        }
    }
    for o in 0..n_out {
        if reqs.output_count(o) == 0 {
            continue;
        }
        let ptr = st.out_ptr[o] as usize;
        let Some(r) = first_from(
            reqs.of_output(o),
            |r| r.i as usize,
            ptr,
            |r| asks[r.i as usize] == o as u32,
        ) else {
            continue;
        };
        let i = r.i as usize;
        m.set(i, o);
        st.in_ptr[i] = ((st.in_ptr[i] as usize + 1) % n_out) as u16;
        st.out_ptr[o] = ((st.out_ptr[o] as usize + 1) % n_in) as u16;
    }
    m.put_scratch(asks);
}
