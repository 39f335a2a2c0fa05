//! Hand-worked request matrices for every allocator (each outcome follows from the rules in
//! the allocator's file, step by step in the comments), and the distribution of PIM's
//! random choices.

use super::{allocate, Draws, Kind, Matching, Requests, State, NONE};

/// An allocator's state kept across calls, as a router keeps it.
pub(super) struct Held {
    pub(super) in_ptr: Vec<u16>,
    pub(super) out_ptr: Vec<u16>,
    pub(super) word: u32,
    draws: u32,
}

impl Held {
    pub(super) fn new(n_in: usize, n_out: usize) -> Held {
        Held {
            in_ptr: vec![0; n_in],
            out_ptr: vec![0; n_out],
            word: 0,
            draws: 0,
        }
    }

    /// The allocator's view of this state.
    pub(super) fn state(&mut self) -> State<'_> {
        State {
            in_ptr: &mut self.in_ptr,
            out_ptr: &mut self.out_ptr,
            word: &mut self.word,
            draws: Draws {
                key: 42,
                n: &mut self.draws,
            },
        }
    }

    /// Runs `kind` once over `reqs` ((input, output, in_pri, out_pri)); returns each
    /// input's output (NONE: none).
    fn run(&mut self, kind: Kind, iters: u32, reqs: &[(usize, usize, i32, i32)]) -> Vec<u32> {
        self.matching(kind, iters, reqs).in_match
    }

    fn matching(&mut self, kind: Kind, iters: u32, reqs: &[(usize, usize, i32, i32)]) -> Matching {
        let mut r = Requests::default();
        r.clear(self.in_ptr.len(), self.out_ptr.len());
        for &(i, o, ip, op) in reqs {
            r.add(i, o, ip, op);
        }
        let mut m = Matching::default();
        allocate(kind, iters, &mut r, &mut self.state(), &mut m);
        check_matching(&m);
        m
    }
}

/// No output is given to two inputs.
fn check_matching(m: &Matching) {
    let mut seen = vec![false; m.out_match.len()];
    for &o in &m.in_match {
        if o != NONE {
            assert!(!seen[o as usize], "output {o} matched twice: {m:?}");
            seen[o as usize] = true;
        }
    }
}

/// Requests at priority 0.
fn plain(pairs: &[(usize, usize)]) -> Vec<(usize, usize, i32, i32)> {
    pairs.iter().map(|&(i, o)| (i, o, 0, 0)).collect()
}

const N: u32 = NONE;

#[test]
fn requests_are_seen_by_input_and_by_output_in_order() {
    let mut r = Requests::default();
    r.clear(3, 3);
    for (i, o) in [(2, 0), (0, 2), (0, 0), (1, 0)] {
        r.add(i, o, 0, 0);
    }
    r.finish();
    let outs: Vec<u16> = r.of_input(0).iter().map(|q| q.o).collect();
    assert_eq!(outs, [0, 2]);
    let ins: Vec<u16> = r.of_output(0).map(|q| q.i).collect();
    assert_eq!(ins, [0, 1, 2]);
    assert_eq!(r.output_count(1), 0);
    assert!(r.find(1, 0).is_some() && r.find(1, 2).is_none());
}

#[test]
fn islip_second_iteration_fills_in_and_pointers_move_on_the_first_only() {
    // Both inputs want both outputs. Iteration 1: both outputs grant input 0 (pointers
    // at 0), which accepts output 0. Iteration 2: output 1 grants input 1, accepted.
    let reqs = plain(&[(0, 0), (0, 1), (1, 0), (1, 1)]);
    let mut one = Held::new(2, 2);
    assert_eq!(one.run(Kind::Islip, 1, &reqs), [0, N]);
    let mut two = Held::new(2, 2);
    assert_eq!(two.run(Kind::Islip, 2, &reqs), [0, 1]);
    // Only the first iteration's match moved pointers: output 0's past input 0, input
    // 0's past output 0; output 1's and input 1's stay at 0.
    assert_eq!(
        (two.out_ptr.clone(), two.in_ptr.clone()),
        (vec![1, 0], vec![1, 0])
    );
    // Next cycle, one iteration: output 0 now grants input 1, output 1 input 0.
    assert_eq!(one.run(Kind::Islip, 1, &reqs), [1, 0]);
}

#[test]
fn islip_grants_the_first_from_the_pointer_and_wraps() {
    // Output 0 asked by inputs 0 and 2, pointer at 1: grants 2. Output 1 asked by input
    // 0 only. Input 0 accepts output 1.
    let mut h = Held::new(3, 2);
    h.out_ptr[0] = 1;
    assert_eq!(
        h.run(Kind::Islip, 1, &plain(&[(0, 0), (0, 1), (2, 0)])),
        [1, N, 0]
    );
    // Output 0's pointer moves past input 2, wrapping to 0.
    assert_eq!(h.out_ptr[0], 0);
}

#[test]
fn select_takes_priorities_then_the_pointer() {
    // Output 0 is asked by inputs 0 (out_pri 0) and 1 (out_pri 5): grants 1 though input
    // 0 is first from the pointer. Input 2 asks output 1. Then one input granted two
    // outputs takes the one of higher in_pri.
    let mut h = Held::new(3, 2);
    let reqs = [(0, 0, 0, 0), (1, 0, 0, 5), (2, 1, 1, 0)];
    assert_eq!(h.run(Kind::Select, 1, &reqs), [N, 0, 1]);
    let mut h = Held::new(1, 2);
    assert_eq!(h.run(Kind::Select, 1, &[(0, 0, 0, 0), (0, 1, 3, 0)]), [1]);
}

#[test]
fn select_keeps_stale_grants_across_iterations_as_booksim_does() {
    // Input 0 asks outputs 0 and 1, input 1 output 0. Iteration 1: both outputs grant
    // input 0, which accepts output 0 (its pointer moves to 1). Iteration 2: output 1
    // finds no unmatched requester and keeps its grant to input 0; input 0's accept runs
    // again and, from pointer 1, takes output 1. iSLIP keeps input 0 on output 0.
    let reqs = plain(&[(0, 0), (0, 1), (1, 0)]);
    assert_eq!(Held::new(2, 2).run(Kind::Select, 2, &reqs), [1, N]);
    assert_eq!(Held::new(2, 2).run(Kind::Islip, 2, &reqs), [0, N]);
    assert_eq!(Held::new(2, 2).run(Kind::Select, 1, &reqs), [0, N]);
}

#[test]
fn separable_input_first_loses_a_match_then_its_pointers_find_it() {
    // Input 0 asks outputs 0 and 1, input 1 output 0. Inputs pick output 0 both; output 0
    // grants input 0. Next cycle input 0's arbiter (pointer 1) picks output 1 and output
    // 0's (pointer 1) grants input 1: both match.
    let reqs = plain(&[(0, 0), (0, 1), (1, 0)]);
    let mut h = Held::new(2, 2);
    assert_eq!(h.run(Kind::SeparableInputFirst, 1, &reqs), [0, N]);
    assert_eq!(
        (h.in_ptr.clone(), h.out_ptr.clone()),
        (vec![1, 0], vec![1, 0])
    );
    assert_eq!(h.run(Kind::SeparableInputFirst, 1, &reqs), [1, 0]);
}

#[test]
fn separable_output_first_grants_before_inputs_choose() {
    // Input 0 asks outputs 0 and 1, input 1 output 0. Output arbiters: output 0 picks
    // input 0 (pointer 0), output 1 picks input 0; input 0 accepts output 0. Input 1
    // loses. Next cycle output 0 (pointer 1) picks input 1, input 0 (pointer 1) output 1.
    let reqs = plain(&[(0, 0), (0, 1), (1, 0)]);
    let mut h = Held::new(2, 2);
    assert_eq!(h.run(Kind::SeparableOutputFirst, 1, &reqs), [0, N]);
    assert_eq!(h.run(Kind::SeparableOutputFirst, 1, &reqs), [1, 0]);
    // With priorities the output arbiter prefers out_pri, the input arbiter in_pri.
    let mut h = Held::new(2, 2);
    let reqs = [(0, 0, 0, 0), (1, 0, 0, 2), (1, 1, 4, 0)];
    assert_eq!(h.run(Kind::SeparableOutputFirst, 1, &reqs), [N, 1]);
}

#[test]
fn wavefront_sweeps_diagonals_from_the_priority_one() {
    // 3x3: input 0 asks 0 and 1, input 1 asks 0 and 2, input 2 asks 1. Diagonal 0 (i + o
    // = 0 mod 3) holds (0,0), (2,1), (1,2): all granted, a perfect matching.
    let reqs = plain(&[(0, 0), (0, 1), (1, 0), (1, 2), (2, 1)]);
    let mut h = Held::new(3, 3);
    assert_eq!(
        h.run(Kind::Wavefront { skip_diags: false }, 1, &reqs),
        [0, 2, 1]
    );
    assert_eq!(h.word, 1);
    // From diagonal 1, (1,0) and (0,1) come first; diagonal 2 then adds nothing.
    assert_eq!(
        h.run(Kind::Wavefront { skip_diags: false }, 1, &reqs),
        [1, 0, N]
    );
    assert_eq!(h.word, 2);
}

#[test]
fn rr_wavefront_moves_past_the_first_granted_diagonal() {
    // A lone request (2,2) is granted at once; wavefront's diagonal moves by one, rr's
    // past diagonal 2 + 2 = 4, to 5 mod 3 = 2.
    let reqs = plain(&[(2, 2)]);
    let mut w = Held::new(3, 3);
    w.run(Kind::Wavefront { skip_diags: false }, 1, &reqs);
    let mut rr = Held::new(3, 3);
    assert_eq!(
        rr.run(Kind::Wavefront { skip_diags: true }, 1, &reqs),
        [N, N, 2]
    );
    assert_eq!((w.word, rr.word), (1, 2));
    // No requests: the diagonal stays.
    rr.run(Kind::Wavefront { skip_diags: true }, 1, &[]);
    assert_eq!(rr.word, 2);
}

#[test]
fn max_size_augments_where_islip_stops() {
    // Input 0 asks 0 and 1, input 1 asks 0: iSLIP gives 0 -> 0 and stops; max-size
    // augments along 1 -> 0 -> 0 -> 1 to the maximum matching.
    let reqs = plain(&[(0, 0), (0, 1), (1, 0)]);
    assert_eq!(Held::new(2, 2).run(Kind::Islip, 4, &reqs), [0, N]);
    let mut h = Held::new(2, 2);
    let m = h.matching(Kind::MaxSize, 1, &reqs);
    assert_eq!((m.in_match, m.out_match), (vec![1, 0], vec![1, 0]));
    assert_eq!(h.word, 1);
    // A 4x4 with a unique perfect matching (a chain).
    let chain = plain(&[(0, 0), (0, 1), (1, 1), (1, 2), (2, 2), (2, 3), (3, 3)]);
    assert_eq!(Held::new(4, 4).run(Kind::MaxSize, 1, &chain), [0, 1, 2, 3]);
}

#[test]
fn loa_asks_the_loneliest_output_and_pointers_step_by_one() {
    // Output 0 is asked by all three inputs, output 1 by input 0 only: input 0 asks for
    // output 1 (the lonely one), inputs 1 and 2 for output 0, which grants input 1.
    let reqs = plain(&[(0, 0), (0, 1), (1, 0), (2, 0)]);
    let mut h = Held::new(3, 2);
    assert_eq!(h.run(Kind::Loa, 1, &reqs), [1, 0, N]);
    // Output 0's pointer moved by one (to input 1), not past the match (input 2).
    assert_eq!(h.out_ptr[0], 1);
    assert_eq!(h.run(Kind::Loa, 1, &reqs), [1, 0, N]);
    assert_eq!(h.run(Kind::Loa, 1, &reqs), [1, N, 0]);
}

#[test]
fn pim_draws_offsets_over_all_inputs_as_booksim_does() {
    // Output 0 is asked by inputs 0 and 1 of 4: an offset uniform on 0..4 grants the
    // first requester from it, so input 0 wins for offsets 0, 2 and 3 (3/4), input 1 for
    // offset 1 (1/4). Accept: input 0 granted by all 3 outputs takes each a third of the
    // time.
    let mut h = Held::new(4, 1);
    let reqs = plain(&[(0, 0), (1, 0)]);
    let n = 40_000;
    let wins0 = (0..n)
        .filter(|_| h.run(Kind::Pim, 1, &reqs)[0] == 0)
        .count();
    // Binomial(40000, 3/4): sd 87; 6 sd either side.
    assert!(
        (wins0 as i64 - 30_000).abs() < 520,
        "input 0 won {wins0} of {n}"
    );
    let mut h = Held::new(1, 3);
    let reqs = plain(&[(0, 0), (0, 1), (0, 2)]);
    let mut by_out = [0usize; 3];
    for _ in 0..30_000 {
        by_out[h.run(Kind::Pim, 1, &reqs)[0] as usize] += 1;
    }
    // Binomial(30000, 1/3): sd 82.
    for c in by_out {
        assert!((c as i64 - 10_000).abs() < 490, "{by_out:?}");
    }
}

#[test]
fn pim_iterates_to_a_maximal_matching() {
    // Four inputs all asking four outputs: enough iterations always match all four (each
    // iteration matches at least one more pair while one is left).
    let reqs: Vec<_> = (0..4)
        .flat_map(|i| (0..4).map(move |o| (i, o, 0, 0)))
        .collect();
    let mut h = Held::new(4, 4);
    for _ in 0..100 {
        let m = h.run(Kind::Pim, 4, &reqs);
        assert!(m.iter().all(|&o| o != NONE), "{m:?}");
    }
    // One iteration matches fewer on average: the mean is 4 (1 - (3/4)^4) ~ 2.73 for
    // the grants' distinct inputs.
    let total: usize = (0..4000)
        .map(|_| {
            h.run(Kind::Pim, 1, &reqs)
                .iter()
                .filter(|&&o| o != NONE)
                .count()
        })
        .sum();
    let mean = total as f64 / 4000.0;
    assert!((mean - 2.734).abs() < 0.05, "mean matches {mean}");
}
