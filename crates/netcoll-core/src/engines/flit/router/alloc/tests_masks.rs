//! The mask path (masks.rs) against the list path: on random request matrices, pointers,
//! iteration counts and priorities, over several cycles of one reused [`Requests`], the
//! same matchings and the same pointers; and the predicate that chooses between them.

use super::tests::Held;
use super::{allocate, allocate_lists, masks, splitmix64, Kind, Matching, Requests};
use proptest::prelude::*;

const KINDS: [Kind; 6] = [
    Kind::Islip,
    Kind::Select,
    Kind::SeparableInputFirst,
    Kind::SeparableOutputFirst,
    Kind::Wavefront { skip_diags: false },
    Kind::Wavefront { skip_diags: true },
];

/// One side's state: pointers and the matching of the last call.
struct Side {
    held: Held,
    m: Matching,
}

impl Side {
    fn new(in_ptr: Vec<u16>, out_ptr: Vec<u16>) -> Side {
        let mut held = Held::new(0, 0);
        (held.in_ptr, held.out_ptr) = (in_ptr, out_ptr);
        Side {
            held,
            m: Matching::default(),
        }
    }

    /// Runs `kind` on `reqs` on the masks (`masks`) or on the lists.
    fn run(&mut self, kind: Kind, iters: u32, reqs: &mut Requests, masks: bool) {
        let mut st = self.held.state();
        self.m.reset(reqs.inputs(), reqs.outputs());
        if masks {
            masks::allocate(kind, iters, reqs, &mut st, &mut self.m);
        } else {
            reqs.ensure_views();
            allocate_lists(kind, iters, reqs, &mut st, &mut self.m);
        }
    }

    /// Runs `kind` on `reqs` on the path [`allocate`] chooses.
    fn run_chosen(&mut self, kind: Kind, iters: u32, reqs: &mut Requests) {
        allocate(kind, iters, reqs, &mut self.held.state(), &mut self.m);
    }

    /// The matching, both sides' pointers and the router's word (the wavefront's diagonal).
    fn state(&self) -> (&[u32], &[u32], &[u16], &[u16], u32) {
        (
            &self.m.in_match,
            &self.m.out_match,
            &self.held.in_ptr,
            &self.held.out_ptr,
            self.held.word,
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
        kind in 0usize..KINDS.len(),
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
        // The wavefront's priority diagonal, any (it is read modulo the matrix).
        let word = draw(seed, &mut n, 256) as u32;
        (on_masks.held.word, on_lists.held.word) = (word, word);
        let mut reqs = Requests::default();
        for c in 0..cycles {
            // The matrix shrinks and grows across cycles: the masks of the last one must
            // not leak into the next.
            let dims = if c % 2 == 0 { (n_in, n_out) } else { (n_in / 2 + 1, n_out / 2 + 1) };
            let dims = (dims.0.min(n_in), dims.1.min(n_out));
            fill(&mut reqs, dims, density, Some(pri), seed.wrapping_add(c as u64));
            // Pointers stay below their arbiter's width, as in a router.
            for side in [&mut on_masks, &mut on_lists] {
                side.held.in_ptr.iter_mut().for_each(|p| *p %= dims.1 as u16);
                side.held.out_ptr.iter_mut().for_each(|p| *p %= dims.0 as u16);
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
        kind in 0usize..KINDS.len(),
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
        chosen.run_chosen(kind, iters, &mut reqs);
        prop_assert_eq!(chosen.state(), general.state());
    }
}

#[test]
fn other_allocators_and_the_test_switch_take_the_lists() {
    let mut reqs = Requests::default();
    reqs.clear(4, 4);
    reqs.add(1, 2, 0, 0);
    assert!(reqs.masks_apply(Kind::Islip));
    for kind in [Kind::Pim, Kind::MaxSize, Kind::Loa] {
        assert!(!reqs.masks_apply(kind), "{kind:?}");
    }
    reqs.lists_only = true;
    assert!(!reqs.masks_apply(Kind::Islip));
}

thread_local! {
    /// Allocations this thread ran on the masks (counted by `allocate` in test builds).
    pub(super) static ON_MASKS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Every figure of a one-thread run of BookSim's keys `kv` (fixed cycles) as JSON, with the
/// allocators on the path `allocate` chooses or (`lists`) always on the lists; and whether
/// the masks applied to some allocation.
fn run(kv: &[(&str, &str)], lists: bool) -> (String, bool) {
    use super::super::config::FlitConfig;
    use super::super::sim::Sim;
    let mut c = FlitConfig::booksim();
    let fixed = [
        ("sim_type", "fixed"),
        ("warmup_cycles", "100"),
        ("sim_cycles", "1500"),
        ("threads", "1"),
    ];
    for (k, v) in kv.iter().chain(&fixed) {
        c.set(k, v).unwrap();
    }
    let topo = c.build_topology().unwrap();
    let mut sim = Sim::new(&topo, &c).unwrap();
    sim.net.va.book.reqs.lists_only = lists;
    // islip too, not only its fast paths in the stages.
    sim.net.va.book.general = true;
    let before = ON_MASKS.with(|n| n.get());
    let json = serde_json::to_string(&sim.simulate()).unwrap();
    (json, ON_MASKS.with(|n| n.get()) > before)
}

#[test]
fn shipped_and_random_configurations_give_the_same_figures_on_both_paths() {
    // BookSim's fattree_config (4 VCs, held switch: the VC allocator takes the masks) and
    // singleconfig (one 10-port router, 80 x 80 VC matrix: u128 words; a 10 x 10 switch
    // matrix: u64), then meshes with each round-robin allocator, iterations, 16 VCs, and
    // priorities by age (the lists where they differ).
    let cases: [&[(&str, &str)]; 6] = [
        super::super::tests::FATTREE_CONFIG,
        &[
            ("topology", "fly"),
            ("k", "10"),
            ("n", "1"),
            ("num_vcs", "8"),
            ("routing_function", "dest_tag"),
            ("vc_allocator", "separable_input_first"),
            ("sw_allocator", "separable_input_first"),
            ("injection_rate", "1.0"),
            ("routing_delay", "0"),
        ],
        &[
            ("topology", "mesh"),
            ("n", "2"),
            ("routing_function", "dim_order"),
            ("k", "4"),
            ("injection_rate", "0.4"),
            ("vc_allocator", "select"),
            ("sw_allocator", "separable_output_first"),
            ("alloc_iters", "2"),
        ],
        &[
            ("topology", "mesh"),
            ("n", "2"),
            ("routing_function", "dim_order"),
            ("k", "4"),
            ("num_vcs", "16"),
            ("injection_rate", "0.45"),
            ("vc_allocator", "islip"),
            ("sw_allocator", "select"),
            ("alloc_iters", "3"),
        ],
        &[
            ("topology", "mesh"),
            ("n", "2"),
            ("routing_function", "dim_order"),
            ("k", "4"),
            ("injection_rate", "0.4"),
            ("vc_allocator", "separable_output_first"),
            ("sw_allocator", "islip"),
            ("packet_size", "4"),
        ],
        &[
            ("topology", "mesh"),
            ("n", "2"),
            ("routing_function", "dim_order"),
            ("k", "4"),
            ("injection_rate", "0.4"),
            ("vc_allocator", "separable_input_first"),
            ("sw_allocator", "select"),
            ("priority", "age"),
        ],
    ];
    for case in cases {
        let ((fast, masked), (lists, listed_masks)) = (run(case, false), run(case, true));
        assert!(fast.contains("\"flit_hops\""), "{fast}");
        assert!(masked && !listed_masks, "{case:?}");
        assert_eq!(fast, lists, "{case:?}");
    }
}
