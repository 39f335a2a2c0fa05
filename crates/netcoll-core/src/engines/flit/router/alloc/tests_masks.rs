//! The mask path (masks.rs) against the list path: on random request matrices, pointers,
//! iteration counts and priorities, over several cycles of one reused [`Requests`], the
//! same matchings and the same pointers; and the predicate that chooses between them.

use super::{allocate, allocate_lists, masks, splitmix64, Draws, Kind, Matching, Requests, State};
use proptest::prelude::*;

const KINDS: [Kind; 4] = [
    Kind::Islip,
    Kind::Select,
    Kind::SeparableInputFirst,
    Kind::SeparableOutputFirst,
];

/// One side's state: pointers and the matching of the last call.
struct Side {
    in_ptr: Vec<u16>,
    out_ptr: Vec<u16>,
    word: u32,
    draws: u32,
    m: Matching,
}

impl Side {
    fn new(in_ptr: Vec<u16>, out_ptr: Vec<u16>) -> Side {
        Side {
            in_ptr,
            out_ptr,
            word: 0,
            draws: 0,
            m: Matching::default(),
        }
    }

    /// Runs `kind` on `reqs` on the masks (`masks`) or on the lists.
    fn run(&mut self, kind: Kind, iters: u32, reqs: &mut Requests, masks: bool) {
        let mut st = State {
            in_ptr: &mut self.in_ptr,
            out_ptr: &mut self.out_ptr,
            word: &mut self.word,
            draws: Draws {
                key: 7,
                n: &mut self.draws,
            },
        };
        self.m.reset(reqs.inputs(), reqs.outputs());
        if masks {
            masks::allocate(kind, iters, reqs, &mut st, &mut self.m);
        } else {
            reqs.ensure_views();
            allocate_lists(kind, iters, reqs, &mut st, &mut self.m);
        }
    }

    fn state(&self) -> (&[u32], &[u32], &[u16], &[u16]) {
        (
            &self.m.in_match,
            &self.m.out_match,
            &self.in_ptr,
            &self.out_ptr,
        )
    }
}

/// A draw from `seed`'s stream (`n` counts the draws) below `m`.
fn draw(seed: u64, n: &mut u64, m: u64) -> u64 {
    *n += 1;
    splitmix64(seed ^ n.wrapping_mul(0x9e37_79b9)) % m
}

/// Fills `reqs` with a random `n_in` x `n_out` matrix: each pair asked with probability
/// `density` percent, added in a shuffled order; priorities `pri` for all, or (`None`) a
/// random one of 0..3 for each side of each request.
fn fill(reqs: &mut Requests, dims: (usize, usize), density: u64, pri: Option<i32>, seed: u64) {
    let (n_in, n_out) = dims;
    let mut n = 0;
    let mut pairs: Vec<(usize, usize)> = (0..n_in)
        .flat_map(|i| (0..n_out).map(move |o| (i, o)))
        .filter(|_| draw(seed, &mut n, 100) < density)
        .collect();
    for k in (1..pairs.len()).rev() {
        pairs.swap(k, draw(seed, &mut n, k as u64 + 1) as usize);
    }
    reqs.clear(n_in, n_out);
    for (i, o) in pairs {
        let (ip, op) = match pri {
            Some(p) => (p, p),
            None => (draw(seed, &mut n, 3) as i32, draw(seed, &mut n, 3) as i32),
        };
        reqs.add(i, o, ip, op);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn masks_and_lists_agree(
        n_in in 1usize..=128,
        n_out in 1usize..=128,
        density in 0u64..=100,
        iters in 1u32..=4,
        kind in 0usize..4,
        pri in -2i32..=2,
        cycles in 1usize..=4,
        seed in any::<u64>(),
    ) {
        let kind = KINDS[kind];
        let mut n = 0;
        let in_ptr: Vec<u16> = (0..n_in).map(|_| draw(seed, &mut n, n_out as u64) as u16).collect();
        let out_ptr: Vec<u16> = (0..n_out).map(|_| draw(seed, &mut n, n_in as u64) as u16).collect();
        let mut on_masks = Side::new(in_ptr.clone(), out_ptr.clone());
        let mut on_lists = Side::new(in_ptr, out_ptr);
        let mut reqs = Requests::default();
        for c in 0..cycles {
            // The matrix shrinks and grows across cycles: the masks of the last one must
            // not leak into the next.
            let dims = if c % 2 == 0 { (n_in, n_out) } else { (n_in / 2 + 1, n_out / 2 + 1) };
            let dims = (dims.0.min(n_in), dims.1.min(n_out));
            fill(&mut reqs, dims, density, Some(pri), seed.wrapping_add(c as u64));
            // Pointers stay below their arbiter's width, as in a router.
            for side in [&mut on_masks, &mut on_lists] {
                side.in_ptr.iter_mut().for_each(|p| *p %= dims.1 as u16);
                side.out_ptr.iter_mut().for_each(|p| *p %= dims.0 as u16);
            }
            prop_assert!(reqs.masks_apply(kind));
            on_masks.run(kind, iters, &mut reqs, true);
            on_lists.run(kind, iters, &mut reqs, false);
            prop_assert_eq!(on_masks.state(), on_lists.state(), "cycle {}", c);
        }
    }

    #[test]
    fn priorities_or_wide_matrices_take_the_lists(
        wide in any::<bool>(),
        kind in 0usize..4,
        iters in 1u32..=3,
        seed in any::<u64>(),
    ) {
        let kind = KINDS[kind];
        let (n, pri) = if wide { (129, Some(0)) } else { (24, None) };
        let mut reqs = Requests::default();
        fill(&mut reqs, (n, n), 30, pri, seed);
        // Mixed priorities (with overwhelming likelihood at 30% of 24 x 24) or 129 wide.
        prop_assert!(!reqs.masks_apply(kind));
        let mut general = Side::new(vec![0; n], vec![0; n]);
        general.run(kind, iters, &mut reqs, false);
        let mut chosen = Side::new(vec![0; n], vec![0; n]);
        let mut st = State {
            in_ptr: &mut chosen.in_ptr,
            out_ptr: &mut chosen.out_ptr,
            word: &mut chosen.word,
            draws: Draws { key: 7, n: &mut chosen.draws },
        };
        allocate(kind, iters, &mut reqs, &mut st, &mut chosen.m);
        prop_assert_eq!(chosen.state(), general.state());
    }
}

#[test]
fn other_allocators_and_the_test_switch_take_the_lists() {
    let mut reqs = Requests::default();
    reqs.clear(4, 4);
    reqs.add(1, 2, 0, 0);
    assert!(reqs.masks_apply(Kind::Islip));
    for kind in [
        Kind::Pim,
        Kind::MaxSize,
        Kind::Loa,
        Kind::Wavefront { skip_diags: false },
    ] {
        assert!(!reqs.masks_apply(kind), "{kind:?}");
    }
    reqs.lists_only = true;
    assert!(!reqs.masks_apply(Kind::Islip));
}
