//! The crossbar's plain-port path (xbar.rs `plain_requests`, one crossbar input and output
//! per port, its bidders from the bid masks of xbar_bids.rs) against its general path
//! (lane tables, any speedup, every VC record and credit read each step): the same run on
//! both gives the same figures, bit for bit, on random crossbar configurations and on the
//! crossbar keys of BookSim's shipped dragonfly and fat-tree files. The random ones reach
//! every way a VC stops bidding: no credit (small buffers, credits back after the tail),
//! a ready cycle ahead (VC allocation delays), a full output buffer, held connections.

use super::super::alloc_tests::fixed_run;
use rand::{Rng, SeedableRng};

use super::super::xbar_state::Xbar;

/// Every figure of a one-thread fixed run as JSON, with a fast path on or off (`path`
/// sets it on the crossbar and returns whether it applies as `Sim::new` left it); and
/// whether it applied.
fn figures(pairs: &[(&str, &str)], on: bool, path: fn(&mut Xbar, bool) -> bool) -> (String, bool) {
    fixed_run(pairs, |mut sim| {
        let applies = path(&mut sim.net.xb, on);
        (serde_json::to_string(&sim.simulate()).unwrap(), applies)
    })
}

/// A fast path (`path`, named `what`) gives every figure of `case` as its general path.
fn assert_fast_path_agrees(case: &[(&str, &str)], what: &str, path: fn(&mut Xbar, bool) -> bool) {
    let (a, applies) = figures(case, true, path);
    let (b, _) = figures(case, false, path);
    assert!(applies, "the {what} must apply to {case:?}");
    assert!(a.contains("\"flit_hops\""), "{a}");
    assert_eq!(a, b, "{case:?}");
}

/// The plain-port path against the general crossbar path.
fn assert_paths_agree(case: &[(&str, &str)]) {
    assert_fast_path_agrees(case, "plain-port path", |xb, plain| {
        let applies = xb.on && xb.plain_ports();
        xb.plain = plain;
        applies
    });
}

/// BookSim's src/examples/fattree_config: held connections, separable_input_first.
const FAT_TREE: &[(&str, &str)] = super::super::tests::FATTREE_CONFIG;

/// The crossbar keys of BookSim's runfiles/dragonflyconfig on a small dragonfly (internal
/// speedup 1.7, islip with 4 iterations; channels of 10 and 100 cycles), without its load.
const DRAGONFLY: &[(&str, &str)] = &[
    ("topology", "dragonflynew"),
    ("k", "2"),
    ("n", "1"),
    ("routing_function", "min"),
    ("internal_speedup", "1.7"),
    ("vc_allocator", "islip"),
    ("sw_allocator", "islip"),
    ("alloc_iters", "4"),
    ("num_vcs", "3"),
    ("vc_buf_size", "256"),
    ("credit_delay", "2"),
    ("routing_delay", "0"),
];

/// The dragonfly runfile's crossbar keys at injection rate `rate`.
fn dragonfly_at(rate: &'static str) -> Vec<(&'static str, &'static str)> {
    DRAGONFLY
        .iter()
        .chain(&[("injection_rate", rate)])
        .copied()
        .collect()
}

#[test]
fn plain_ports_match_the_general_crossbar_on_shipped_files() {
    // BookSim's src/examples/fattree_config (held connections, separable_input_first) and
    // runfiles/dragonflyconfig (internal speedup 1.7, islip with 4 iterations).
    // Two-flit packets keep the run on the crossbar (single flits leave it, below).
    let case: Vec<_> = FAT_TREE
        .iter()
        .chain(&[("packet_size", "2")])
        .copied()
        .collect();
    assert_paths_agree(&case);
    let case: Vec<_> = DRAGONFLY
        .iter()
        .chain(&[("injection_rate", "0.2")])
        .copied()
        .collect();
    assert_paths_agree(&case);
}

#[test]
fn plain_ports_match_the_general_crossbar_on_random_configurations() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(34);
    let pick =
        |rng: &mut rand::rngs::StdRng, xs: &[&'static str]| xs[rng.random_range(0..xs.len())];
    for _ in 0..14 {
        // Held connections or an internal speedup (or both), long and short packets,
        // bounded output buffers, both crossbar allocators, loads up to saturation.
        let hold = pick(&mut rng, &["0", "1"]);
        let internal = if hold == "0" {
            pick(&mut rng, &["1.5", "1.7", "2.0"])
        } else {
            pick(&mut rng, &["1.0", "1.0", "1.3", "2.0"])
        };
        let sw = pick(&mut rng, &["islip", "separable_input_first"]);
        let iters = if sw == "islip" {
            pick(&mut rng, &["1", "2", "4"])
        } else {
            "1"
        };
        // A VC allocation delay above 1 (VCs not ready for several steps) only without an
        // internal speedup, as the model allows.
        let va_delay = if internal == "1.0" {
            pick(&mut rng, &["1", "2", "3"])
        } else {
            "1"
        };
        // Single-flit packets leave a crossbar that only holds (`Xbar::hold_only`).
        let sizes: &[&'static str] = if hold == "1" && internal == "1.0" {
            &["2", "4", "10"]
        } else {
            &["1", "4", "10"]
        };
        let case: Vec<(&str, &str)> = vec![
            ("k", pick(&mut rng, &["3", "4"])),
            ("n", "2"),
            ("hold_switch_for_packet", hold),
            ("internal_speedup", internal),
            ("sw_allocator", sw),
            ("alloc_iters", iters),
            ("num_vcs", pick(&mut rng, &["2", "4", "8"])),
            ("vc_buf_size", pick(&mut rng, &["2", "4", "8"])),
            ("packet_size", pick(&mut rng, sizes)),
            ("injection_rate_uses_flits", "1"),
            ("output_buffer_size", pick(&mut rng, &["-1", "2", "6"])),
            ("injection_rate", pick(&mut rng, &["0.2", "0.45", "0.8"])),
            ("speculative", pick(&mut rng, &["0", "1"])),
            ("vc_alloc_delay", va_delay),
            ("wait_for_tail_credit", pick(&mut rng, &["0", "0", "1"])),
            ("seed", pick(&mut rng, &["1", "2", "3"])),
        ];
        assert_paths_agree(&case);
    }
}

/// Unbounded output buffers sending straight into the wheel (`direct`, xbar_out.rs) and
/// credit messages sent as their slots are freed (`cred_direct`, xbar_credits.rs) against
/// both FIFO queues.
fn assert_out_paths_agree(case: &[(&str, &str)]) {
    assert_fast_path_agrees(case, "direct output buffers", |xb, direct| {
        let applies = xb.direct;
        xb.direct = direct;
        xb.cred_direct &= direct;
        applies
    });
}

#[test]
fn direct_output_buffers_and_credits_match_the_queues() {
    // The dragonfly runfile's keys (channels of 10 and 100 cycles), at its load and past
    // saturation.
    for rate in ["0.2", "0.9"] {
        assert_out_paths_agree(&dragonfly_at(rate));
    }
    // Meshes of one-cycle channels (a wheel of a few cycles: backed-up ports wait in the
    // queue) with internal, output and input speedups, up to saturation.
    let mut rng = rand::rngs::StdRng::seed_from_u64(35);
    let pick =
        |rng: &mut rand::rngs::StdRng, xs: &[&'static str]| xs[rng.random_range(0..xs.len())];
    for _ in 0..10 {
        let internal = pick(&mut rng, &["1.0", "1.5", "2.0", "3.0"]);
        // Switch allocation delays other than 1 only without an internal speedup, as the
        // model allows.
        let sa_delay = if internal == "1.0" {
            pick(&mut rng, &["0", "1", "2"])
        } else {
            "1"
        };
        let case: Vec<(&str, &str)> = vec![
            ("k", pick(&mut rng, &["3", "4"])),
            ("n", "2"),
            ("internal_speedup", internal),
            ("output_speedup", pick(&mut rng, &["1", "2"])),
            ("hold_switch_for_packet", pick(&mut rng, &["0", "0", "1"])),
            ("sw_alloc_delay", sa_delay),
            ("num_vcs", pick(&mut rng, &["2", "4"])),
            ("vc_buf_size", pick(&mut rng, &["4", "16", "64"])),
            ("packet_size", pick(&mut rng, &["1", "4"])),
            ("injection_rate_uses_flits", "1"),
            ("injection_rate", pick(&mut rng, &["0.3", "0.6", "0.95"])),
            ("wait_for_tail_credit", pick(&mut rng, &["0", "1"])),
            ("seed", pick(&mut rng, &["1", "2"])),
            // Two crossbar inputs a port: a port may free two slots in one step (one
            // credit message).
            ("input_speedup", pick(&mut rng, &["1", "2"])),
        ];
        // Neither speedup: no output buffers (draw again).
        if case[2].1 == "1.0" && case[3].1 == "1" {
            continue;
        }
        assert_out_paths_agree(&case);
    }
}

/// Every figure of a one-thread fixed run as JSON, with the crossbar kept on (`keep`) or as
/// `Sim::new` left it; and whether `Sim::new` left it.
fn left_figures(pairs: &[(&str, &str)], keep: bool) -> (String, bool) {
    fixed_run(pairs, |mut sim| {
        let left = !sim.net.xb.on;
        sim.net.xb.on |= keep;
        (serde_json::to_string(&sim.simulate()).unwrap(), left)
    })
}

#[test]
fn single_flit_packets_leave_a_crossbar_that_only_holds_with_the_same_figures() {
    let mesh: &[(&str, &str)] = &[
        ("k", "4"),
        ("hold_switch_for_packet", "1"),
        ("num_vcs", "2"),
        ("vc_buf_size", "2"),
        ("injection_rate", "0.7"),
    ];
    for case in [FAT_TREE, mesh] {
        let (a, left) = left_figures(case, false);
        let (b, _) = left_figures(case, true);
        assert!(left, "{case:?} leaves the crossbar");
        assert!(a.contains("\"flit_hops\""), "{a}");
        assert_eq!(a, b, "{case:?}");
    }
    // Longer packets, or a speedup beside the held connections, keep it.
    let stays = |more: &[(&'static str, &'static str)]| {
        let case: Vec<_> = mesh.iter().chain(more).copied().collect();
        !left_figures(&case, false).1
    };
    assert!(stays(&[("packet_size", "2")]));
    assert!(stays(&[("internal_speedup", "1.5")]));
    assert!(stays(&[("output_speedup", "2")]));
}

/// Routers with nothing for their switch skipping its call (`Xbar::skip_idle`, xbar.rs
/// `switch_idle`, with an internal speedup) against the full call, on the dragonfly
/// runfile's keys and on random crossbars: held connections, input and output speedups
/// (the general path, which clears the VC allocation's marks), the plain path (which
/// skips the VCs they mark), speculation.
#[test]
fn idle_routers_skipping_the_switch_match_the_full_call() {
    let skip = |xb: &mut Xbar, on: bool| {
        let applies = xb.on && xb.skip_idle && xb.several;
        xb.skip_idle = on;
        applies
    };
    for rate in ["0.2", "0.9"] {
        assert_fast_path_agrees(&dragonfly_at(rate), "idle skip", skip);
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(36);
    let pick =
        |rng: &mut rand::rngs::StdRng, xs: &[&'static str]| xs[rng.random_range(0..xs.len())];
    for _ in 0..12 {
        let case: Vec<(&str, &str)> = vec![
            ("k", pick(&mut rng, &["3", "4"])),
            ("n", "2"),
            ("internal_speedup", pick(&mut rng, &["1.3", "1.5", "2.0"])),
            ("input_speedup", pick(&mut rng, &["1", "1", "2"])),
            ("output_speedup", pick(&mut rng, &["1", "1", "2"])),
            ("hold_switch_for_packet", pick(&mut rng, &["0", "1"])),
            ("num_vcs", pick(&mut rng, &["2", "4"])),
            ("vc_buf_size", pick(&mut rng, &["2", "8"])),
            ("packet_size", pick(&mut rng, &["1", "2", "4"])),
            ("injection_rate_uses_flits", "1"),
            ("injection_rate", pick(&mut rng, &["0.2", "0.5", "0.9"])),
            ("speculative", pick(&mut rng, &["0", "1"])),
            ("seed", pick(&mut rng, &["1", "2"])),
        ];
        assert_fast_path_agrees(&case, "idle skip", skip);
    }
}
