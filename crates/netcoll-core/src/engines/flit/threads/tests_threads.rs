//! Parallel runs (par.rs): the same figures, bit for bit, for every thread count; the
//! `threads` key; the runs that stay on one thread.

use super::config::FlitConfig;
use super::sim::{simulate_on, simulate_traffic, FlitResult};
use crate::topology::Topology;

fn cfg(pairs: &[(&str, &str)]) -> FlitConfig {
    FlitConfig::from_pairs(pairs.iter().copied()).unwrap()
}

/// Runs `pairs` with `threads = t`.
fn run(pairs: &[(&str, &str)], t: usize) -> FlitResult {
    let mut c = cfg(pairs);
    c.threads = t;
    simulate_traffic(&c).unwrap()
}

/// Everything but the thread count must be equal (floats compared bit for bit).
fn assert_same(a: &FlitResult, b: &FlitResult, what: &str) {
    let strip = |r: &FlitResult| FlitResult {
        threads: 0,
        ..r.clone()
    };
    assert_eq!(
        strip(a),
        strip(b),
        "{what}: threads {} vs {}",
        a.threads,
        b.threads
    );
    assert_eq!(
        a.avg_packet_latency.to_bits(),
        b.avg_packet_latency.to_bits()
    );
}

#[test]
fn threads_give_identical_figures_on_small_networks() {
    let cases: &[&[(&str, &str)]] = &[
        // Latency mode on a mesh, near saturation: contention at every border.
        &[
            ("k", "6"),
            ("injection_rate", "0.3"),
            ("sample_period", "300"),
        ],
        // Torus with BookSim's DOR: random half-way ties drawn per router.
        &[
            ("topology", "torus"),
            ("k", "6"),
            ("injection_rate", "0.35"),
            ("sample_period", "300"),
        ],
        // Wormhole with 8-flit packets, the other allocators, a fixed run.
        &[
            ("k", "5"),
            ("packet_size", "8"),
            ("injection_rate", "0.25"),
            ("injection_rate_uses_flits", "1"),
            ("vc_allocator", "greedy"),
            ("sw_allocator", "separable_input_first"),
            ("sim_type", "fixed"),
            ("sim_cycles", "1500"),
        ],
        &[
            ("k", "5"),
            ("vc_allocator", "separable_input_first"),
            ("speculative", "1"),
            ("injection_rate", "0.3"),
            ("sim_type", "batch"),
            ("batch_size", "50"),
        ],
        // An irregular network under up*/down* (stateful routing carried by the flits).
        &[
            ("topology", "netcoll"),
            (
                "netcoll_topology",
                "irregular:switches=12,ports=8,nodes=36,seed=5",
            ),
            ("routing_function", "updown"),
            ("injection_rate", "0.15"),
            ("sample_period", "300"),
        ],
        // Saturated: the run stops at latency_thres at the same cycle.
        &[
            ("k", "4"),
            ("injection_rate", "0.9"),
            ("sample_period", "200"),
        ],
    ];
    for case in cases {
        let one = run(case, 1);
        assert_eq!(one.threads, 1);
        assert!(one.packets_delivered > 0, "{case:?}");
        for t in [2, 3, 7] {
            let many = run(case, t);
            // Partitions of ceil(routers / t) routers: 36 routers in 7 threads make 6.
            assert!(many.threads > 1 && many.threads <= t, "{case:?}");
            assert_same(&one, &many, &format!("{case:?}"));
        }
    }
}

#[test]
fn threads_report_the_same_deadlock() {
    let topo = Topology::from_spec("torus:4x4").unwrap();
    let mut c = cfg(super::tests::HEAVY_TORUS);
    c.num_vcs = 1;
    c.dateline = false;
    c.threads = 1;
    let one = simulate_on(&topo, &c).unwrap();
    let d = one
        .deadlock
        .clone()
        .expect("1 VC without datelines deadlocks");
    assert!(!d.wait_cycle.is_empty());
    c.threads = 4;
    let four = simulate_on(&topo, &c).unwrap();
    assert_eq!(four.threads, 4);
    assert_same(&one, &four, "deadlock");
}

#[test]
fn threads_key_is_parsed_checked_and_automatic_by_size() {
    assert_eq!(cfg(&[("threads", "3")]).threads, 3);
    assert_eq!(FlitConfig::default().threads, 0);
    let e = FlitConfig::from_pairs([("threads", "5000")])
        .and_then(|c| c.validate())
        .unwrap_err()
        .to_string();
    assert!(e.contains("threads = 5000"), "{e}");
    assert!(FlitConfig::from_pairs([("threads", "two")]).is_err());
    // Automatic: one thread below par::AUTO_MIN_ROUTERS routers.
    let small = run(
        &[("k", "4"), ("sim_type", "fixed"), ("sim_cycles", "50")],
        0,
    );
    assert_eq!(small.threads, 1);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let big = run(
        &[
            ("k", "32"),
            ("injection_rate", "0.01"),
            ("sim_type", "fixed"),
            ("warmup_cycles", "0"),
            ("sim_cycles", "20"),
        ],
        0,
    );
    assert_eq!(big.threads, cores);
}

#[test]
fn runs_that_need_the_packet_table_stay_on_one_thread() {
    // Virtual cut-through reads packet sizes; multicast traffic reacts to each arrival.
    let vct = run(
        &[
            ("k", "4"),
            ("flow_control", "vct"),
            ("packet_size", "4"),
            ("sim_type", "fixed"),
            ("sim_cycles", "200"),
        ],
        4,
    );
    assert_eq!(vct.threads, 1);
    let mc = run(
        &[
            ("k", "4"),
            ("traffic", "multicast"),
            ("injection_rate", "0.05"),
            ("sim_type", "fixed"),
            ("sim_cycles", "200"),
        ],
        4,
    );
    assert_eq!(mc.threads, 1);
    assert!(mc.packets_delivered > 0);
}
