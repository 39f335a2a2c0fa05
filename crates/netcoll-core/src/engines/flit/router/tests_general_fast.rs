//! The general stages' fast paths against their plain forms: the same run both ways gives
//! the same figures, bit for bit.
//!
//! * `skip_fresh`: the switch allocator skips the input VCs granted in the same cycle
//!   (`VaState::fresh`), against the full scan of the candidate VCs;
//! * `fused_gather`: the per-port iSLIP VC allocator routes and reads its requesters in one
//!   pass without a branch per requester (va_ports.rs), against routing a word's VCs
//!   before reading their requests one by one.

use crate::engines::flit::config::FlitConfig;
use crate::engines::flit::network::Network;
use crate::engines::flit::sim::Sim;

/// Every figure of a run as JSON, with the fast paths on or off (in every partition); the
/// mask router off where `general` is asked for (so that one-iteration runs take the
/// general stages too).
fn figures(pairs: &[(&str, &str)], fast: bool, general: bool) -> String {
    let c = FlitConfig::from_pairs(pairs.iter().copied()).unwrap();
    let topo = c.build_topology().unwrap();
    let mut sim = Sim::new(&topo, &c).unwrap();
    let set = |n: &mut Network| {
        n.va.skip_fresh = fast;
        n.va.fused_gather = fast;
        if general {
            n.mr.enabled = false;
        }
    };
    set(&mut sim.net);
    if let Some(w) = sim.net.workers.as_mut() {
        w.nets.iter_mut().for_each(set);
    }
    serde_json::to_string(&sim.simulate()).unwrap()
}

fn assert_fast_paths_agree(cases: &[&[(&str, &str)]], general: bool) {
    let fixed = [
        ("sim_type", "fixed"),
        ("warmup_cycles", "100"),
        ("sim_cycles", "1200"),
    ];
    for case in cases {
        let pairs: Vec<(&str, &str)> = case.iter().chain(&fixed).copied().collect();
        let (a, b) = (
            figures(&pairs, true, general),
            figures(&pairs, false, general),
        );
        assert!(a.contains("\"flit_hops\""), "{a}");
        assert_eq!(a, b, "{case:?}");
    }
}

/// BookSim's meshconfig and ftreeconfig runfiles' router (16 VCs, 8-flit buffers,
/// wait_for_tail_credit, iSLIP with two iterations: the general stages), below and past
/// saturation, with speculation (no skip) and priorities (the VC-by-VC requests).
#[test]
fn fast_paths_match_the_plain_stages() {
    let mesh = [
        ("k", "8"),
        ("num_vcs", "16"),
        ("vc_buf_size", "8"),
        ("wait_for_tail_credit", "1"),
        ("alloc_iters", "2"),
    ];
    let with = |extra: &[(&'static str, &'static str)]| -> Vec<(&str, &str)> {
        mesh.iter().chain(extra).copied().collect()
    };
    let cases = [
        with(&[("injection_rate", "0.2")]),
        with(&[("injection_rate", "0.5")]),
        with(&[("injection_rate", "0.45"), ("speculative", "1")]),
        with(&[("injection_rate", "0.4"), ("priority", "age")]),
        with(&[("injection_rate", "0.4"), ("routing_delay", "2")]),
        with(&[
            ("injection_rate", "0.5"),
            ("packet_size", "4"),
            ("injection_rate_uses_flits", "1"),
            ("num_vcs", "3"),
            ("vc_buf_size", "2"),
        ]),
        with(&[
            ("injection_rate", "0.4"),
            ("vc_allocator", "separable_input_first"),
            ("sw_allocator", "separable_input_first"),
        ]),
        vec![
            ("topology", "fattree"),
            ("k", "4"),
            ("n", "3"),
            ("routing_function", "nca"),
            ("traffic", "bitcomp"),
            ("num_vcs", "16"),
            ("wait_for_tail_credit", "1"),
            ("alloc_iters", "2"),
            ("injection_rate", "0.6"),
        ],
    ];
    let cases: Vec<&[(&str, &str)]> = cases.iter().map(|c| c.as_slice()).collect();
    assert_fast_paths_agree(&cases, false);
}

/// BookSim's dragonfly runfile's router (dragonflynew k = 4, 3 VCs, iSLIP with four
/// iterations, routing_delay 0, min routing inlined into the fused gather), below and past
/// saturation, with longer packets and a routing delay (requesters not yet ready).
#[test]
fn fast_paths_match_on_the_dragonfly_runfile() {
    let dragonfly = [
        ("topology", "dragonflynew"),
        ("k", "4"),
        ("n", "1"),
        ("routing_function", "min"),
        ("num_vcs", "3"),
        ("vc_buf_size", "256"),
        ("alloc_iters", "4"),
        ("routing_delay", "0"),
        ("internal_speedup", "1.7"),
    ];
    let with = |extra: &[(&'static str, &'static str)]| -> Vec<(&str, &str)> {
        dragonfly.iter().chain(extra).copied().collect()
    };
    let cases = [
        with(&[("injection_rate", "0.2")]),
        with(&[("injection_rate", "0.6")]),
        with(&[("injection_rate", "0.3"), ("packet_size", "4")]),
        with(&[("injection_rate", "0.4"), ("routing_delay", "1")]),
    ];
    let cases: Vec<&[(&str, &str)]> = cases.iter().map(|c| c.as_slice()).collect();
    assert_fast_paths_agree(&cases, false);
}

/// One iteration on the general stages (the mask router off): the one-word VC allocator
/// (`grant_local`) marks its grants too (and the per-port VC allocator is not used).
#[test]
fn fast_paths_match_on_one_word_routers() {
    assert_fast_paths_agree(
        &[
            &[("k", "4"), ("injection_rate", "0.6")],
            &[("k", "4"), ("injection_rate", "0.6"), ("speculative", "1")],
            &[
                ("k", "4"),
                ("injection_rate", "0.5"),
                ("packet_size", "3"),
                ("injection_rate_uses_flits", "1"),
                ("num_vcs", "2"),
            ],
        ],
        true,
    );
}
