//! Delivery's one-pass path (records and rings that stay cached: no prefetch hints)
//! against its pipelined path (VC records two batches ahead, ring slots one ahead): the
//! same run on both gives the same figures, bit for bit, on BookSim's shipped fat-tree
//! and mesh keys, a dragonfly under UGAL, and random configurations (packet lengths, buffer depths,
//! tail credits, channel latencies).

use super::super::alloc_tests::fixed_run;
use rand::{Rng, SeedableRng};

/// Every figure of a one-thread fixed run as JSON, with the records and rings prefetched
/// (`hints`) or not; and whether the run chose the hints itself.
fn figures(pairs: &[(&str, &str)], hints: bool) -> (String, bool) {
    fixed_run(pairs, |mut sim| {
        let chosen = sim.net.prefetch || sim.net.prefetch_rings;
        sim.net.prefetch = hints;
        sim.net.prefetch_rings = hints;
        (serde_json::to_string(&sim.simulate()).unwrap(), chosen)
    })
}

fn assert_paths_agree(case: &[(&str, &str)]) {
    let (a, _) = figures(case, true);
    let (b, _) = figures(case, false);
    assert!(a.contains("\"flit_hops\""), "{a}");
    assert_eq!(a, b, "{case:?}");
}

#[test]
fn one_pass_delivery_matches_the_pipelined_one_on_shipped_keys() {
    // src/examples/fattree_config's and runfiles/meshconfig's keys, and a dragonfly.
    let fattree = [
        ("topology", "fattree"),
        ("k", "4"),
        ("n", "3"),
        ("routing_function", "nca"),
        ("hold_switch_for_packet", "1"),
        ("num_vcs", "4"),
        ("vc_buf_size", "16"),
        ("injection_rate", "0.6"),
        ("injection_rate_uses_flits", "1"),
    ];
    assert!(
        !figures(&fattree, false).1,
        "fattree_config takes the one-pass path"
    );
    assert_paths_agree(&fattree);
    // A smaller dragonfly (k = 2) than runfiles/dragonflyconfig's, under UGAL with
    // 4-flit packets (its 10- and 100-cycle channels spread hops over the wheel).
    let dragonfly = [
        ("topology", "dragonflynew"),
        ("k", "2"),
        ("n", "1"),
        ("routing_function", "ugal"),
        ("num_vcs", "3"),
        ("vc_buf_size", "64"),
        ("packet_size", "4"),
        ("injection_rate", "0.3"),
    ];
    assert_paths_agree(&dragonfly);
    assert_paths_agree(&[
        ("topology", "mesh"),
        ("k", "8"),
        ("n", "2"),
        ("routing_function", "dor"),
        ("num_vcs", "16"),
        ("vc_buf_size", "8"),
        ("wait_for_tail_credit", "1"),
        ("vc_allocator", "islip"),
        ("sw_allocator", "islip"),
        ("alloc_iters", "2"),
        ("injection_rate", "0.2"),
    ]);
}

#[test]
fn one_pass_delivery_matches_the_pipelined_one_on_random_configurations() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(35);
    let pick =
        |rng: &mut rand::rngs::StdRng, xs: &[&'static str]| xs[rng.random_range(0..xs.len())];
    for _ in 0..6 {
        // Packets longer than a buffer and shorter, deep and shallow buffers, loads up to
        // saturation, tail credits, long channels (hops spread over many wheel slots).
        let case = [
            ("topology", "torus"),
            ("k", pick(&mut rng, &["4", "8"])),
            ("n", "2"),
            ("routing_function", "dim_order"),
            ("num_vcs", pick(&mut rng, &["2", "4", "8"])),
            ("vc_buf_size", pick(&mut rng, &["1", "4", "64"])),
            ("packet_size", pick(&mut rng, &["1", "4", "20"])),
            ("wait_for_tail_credit", pick(&mut rng, &["0", "1"])),
            ("channel_latency", pick(&mut rng, &["1", "3", "40"])),
            ("injection_rate", pick(&mut rng, &["0.05", "0.3", "0.9"])),
            ("injection_rate_uses_flits", "1"),
        ];
        assert_paths_agree(&case);
    }
}
