//! The grouped separable input-first VC allocation (va_grouped.rs) against the dense pass
//! (va_ports.rs): the same run on both gives the same figures, bit for bit.

use super::tests_sw_ports::{finish_case, random_case, Drawn, SINGLECONFIG_ROUTER};

/// Every figure of a one-thread run with the requesters kept by output port (`grouped`)
/// or not, the dense pass from `dense_min` requesters on (0: every router, every cycle),
/// and whether the grouped pass served it.
fn grouped_figures(pairs: &[(&str, &str)], grouped: bool, dense_min: usize) -> (String, bool) {
    super::alloc_tests::fixed_run(pairs, |mut sim| {
        sim.net.va.grouped = grouped;
        sim.net.va_dense_min = dense_min;
        sim.net.decide_held_requests();
        sim.net.decide_grouped_va();
        let on = sim.net.va.grouped_on;
        (serde_json::to_string(&sim.simulate()).unwrap(), on)
    })
}

/// The grouped pass, every cycle and mixed with the sparse pass (the default threshold),
/// agrees with the dense and sparse passes on `case`; returns whether it served it.
fn assert_grouped_agrees(case: &[(&str, &str)]) -> bool {
    let default = super::va_ports::DENSE_VA;
    let (dense, off) = grouped_figures(case, false, 0);
    assert!(!off, "grouped off keeps the dense pass");
    assert!(dense.contains("\"flit_hops\""), "{dense}");
    let (always, on) = grouped_figures(case, true, 0);
    assert_eq!(always, dense, "{case:?} (grouped: {on})");
    let (mixed, _) = grouped_figures(case, true, default);
    assert_eq!(
        mixed, dense,
        "{case:?}, from {default} requesters (grouped: {on})"
    );
    on
}

/// src/examples/singleconfig's router, then random mesh, torus and fly routers with
/// separable input-first VC allocation: up to 128 VCs a router (the grouped pass) and
/// some over (the predicate off), torus VC classes (requesters picking by class), routing
/// delays of 0 to 2 cycles (ready cycles read), long packets on shallow buffers,
/// speculation, waiting for tail credits, both switch allocators.
#[test]
fn grouped_vc_allocation_matches_the_dense_pass() {
    use rand::{Rng, SeedableRng};
    assert!(assert_grouped_agrees(SINGLECONFIG_ROUTER));
    let mut rng = rand::rngs::StdRng::seed_from_u64(38);
    let (mut served, runs) = (0, 16);
    for _ in 0..runs {
        let topo = ["mesh", "torus", "fly"][rng.random_range(0..3)];
        let k = if topo == "fly" { "6" } else { "4" };
        let vcs = rng
            .random_range(usize::from(topo == "torus") + 1..=26)
            .to_string();
        let sw = ["separable_input_first", "islip"][usize::from(rng.random_bool(0.15))];
        let drawn = Drawn::new(&mut rng);
        let mut case = random_case((topo, k, &vcs), (sw, "separable_input_first"), &drawn);
        let delay = ["0", "1", "2"][rng.random_range(0..3)];
        case.push(("routing_delay", delay));
        let flags = [
            ("speculative", rng.random_bool(0.3)),
            ("wait_for_tail_credit", rng.random_bool(0.4)),
        ];
        finish_case(&mut case, topo, &flags);
        served += usize::from(assert_grouped_agrees(&case));
    }
    assert!(
        served >= runs / 2,
        "the grouped pass served {served} random cases of {runs}"
    );
}
