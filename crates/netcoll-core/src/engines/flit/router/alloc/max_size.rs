//! BookSim's `max_size`: a maximum-size matching by shortest augmenting paths, found by a
//! breadth-first search from the unmatched inputs (taken from a rotating first input,
//! outputs in increasing order), augmenting until no path is left. The first input moves
//! by one after every allocation, for fairness. No iterations, no randomness.

use super::{Matching, Requests, State, NONE};

pub fn allocate(reqs: &Requests, st: &mut State, m: &mut Matching) {
    let n_in = reqs.inputs();
    let start = *st.word as usize % n_in.max(1);
    let mut from = m.take_scratch(reqs.outputs());
    let (mut s, mut ns) = std::mem::take(&mut m.stacks);
    while augment(reqs, start, m, &mut from, &mut s, &mut ns) {}
    m.stacks = (s, ns);
    m.put_scratch(from);
    *st.word = ((start + 1) % n_in.max(1)) as u32;
}

/// One shortest augmenting path, applied; false when there is none.
fn augment(
    reqs: &Requests,
    start: usize,
    m: &mut Matching,
    from: &mut [u32],
    s: &mut Vec<u32>,
    ns: &mut Vec<u32>,
) -> bool {
    let n_in = reqs.inputs();
    s.clear();
    s.extend(
        (0..n_in)
            .map(|k| (k + start) % n_in)
            .filter(|&i| m.in_free(i))
            .map(|i| i as u32),
    );
    from.fill(NONE);
    for _ in 0..n_in {
        ns.clear();
        for &i in s.iter() {
            for r in reqs.of_input(i as usize) {
                let j = r.o as usize;
                if m.in_match[i as usize] == j as u32 || from[j] != NONE {
                    continue;
                }
                from[j] = i;
                if m.out_free(j) {
                    flip(m, from, j);
                    return true;
                }
                ns.push(m.out_match[j]);
            }
        }
        std::mem::swap(s, ns);
    }
    false
}

/// Flips the augmenting path that ends at the unmatched output `j`.
fn flip(m: &mut Matching, from: &[u32], mut j: usize) {
    let mut i = from[j] as usize;
    m.out_match[j] = i as u32;
    while m.in_match[i] != NONE {
        let jn = m.in_match[i] as usize;
        m.in_match[i] = j as u32;
        j = jn;
        i = from[j] as usize;
        m.out_match[j] = i as u32;
    }
    m.in_match[i] = j as u32;
}
