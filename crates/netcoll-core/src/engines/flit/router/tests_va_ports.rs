//! iSLIP VC allocation on per-port masks (va_ports.rs: requesters alone at their port
//! served without grouping, the others by port) against the grant table (vc_alloc.rs,
//! `mask_limit = 0`), the reference: the same figures, bit for bit, on the dragonfly
//! runfile's router and on random routers of every VC count, iteration count and
//! flow control.

use super::super::alloc_tests::fixed_run;

/// Every figure of a one-thread fixed run, iSLIP VC allocation on its fastest path
/// (`fast`) or on the grant table; and whether the per-port masks served the run's
/// iSLIP (several iterations, or routers of more than 64 VCs).
fn figures(pairs: &[(&str, &str)], fast: bool) -> (String, bool) {
    fixed_run(pairs, |mut sim| {
        let ports = sim.net.va_ports_apply()
            && !sim.net.mask_router_applies()
            && (sim.net.cfg.vc_iters() > 1 || sim.net.nv * sim.net.out_req.len() > 64);
        if !fast {
            sim.net.va.mask_limit = 0;
        }
        (serde_json::to_string(&sim.simulate()).unwrap(), ports)
    })
}

/// runfiles/dragonflyconfig's iSLIP router (3 VCs, 4 iterations, internal speedup 1.7: the
/// crossbar path) on a smaller dragonfly, at a load past the runfile's. (The mesh and
/// fat-tree runfiles' routers are tests_mask_router.rs's `per_port_va_masks_...`.)
const DRAGONFLY: &[(&str, &str)] = &[
    ("topology", "dragonflynew"),
    ("k", "2"),
    ("n", "1"),
    ("routing_function", "min"),
    ("num_vcs", "3"),
    ("vc_buf_size", "256"),
    ("alloc_iters", "4"),
    ("credit_delay", "2"),
    ("routing_delay", "0"),
    ("internal_speedup", "1.7"),
    ("injection_rate", "0.6"),
];

#[test]
fn islip_on_port_masks_matches_the_grant_table_on_shipped_and_random_routers() {
    let (fast, applies) = figures(DRAGONFLY, true);
    assert!(applies, "the per-port masks must serve {DRAGONFLY:?}");
    assert!(fast.contains("\"flit_hops\""), "{fast}");
    assert_eq!(fast, figures(DRAGONFLY, false).0, "dragonfly");
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(35);
    let mut applied = 0;
    let n = 14;
    for _ in 0..n {
        let topo = ["mesh", "torus", "fly", "fattree"][rng.random_range(0..4)];
        let k = if topo == "fly" { "8" } else { "4" };
        // A torus's dateline classes need two VCs.
        let vcs = rng
            .random_range(usize::from(topo == "torus") + 1..=24)
            .to_string();
        let iters = rng.random_range(1..=4).to_string();
        let vct = rng.random_bool(0.2);
        let size = rng.random_range(1..=5).to_string();
        let buf = if vct { 8 } else { rng.random_range(2..=8) }.to_string();
        let rate = format!("{:.2}", rng.random_range(0.1..0.95));
        let mut case = vec![
            ("topology", topo),
            ("k", k),
            ("num_vcs", &vcs),
            ("alloc_iters", &iters),
            ("packet_size", &size),
            ("vc_buf_size", &buf),
            ("injection_rate", &rate),
            ("injection_rate_uses_flits", "1"),
        ];
        match topo {
            "fly" => case.extend([("n", "1"), ("routing_function", "dest_tag")]),
            "fattree" => case.extend([("n", "2"), ("routing_function", "nca")]),
            _ => {}
        }
        for (key, value, on) in [
            ("wait_for_tail_credit", "1", rng.random_bool(0.4)),
            ("speculative", "1", rng.random_bool(0.3)),
            ("internal_speedup", "1.5", rng.random_bool(0.3)),
            ("flow_control", "virtual_cut_through", vct),
        ] {
            if on {
                case.push((key, value));
            }
        }
        let (fast, applies) = figures(&case, true);
        assert!(fast.contains("\"flit_hops\""), "{fast}");
        assert_eq!(fast, figures(&case, false).0, "{case:?} (ports: {applies})");
        applied += usize::from(applies);
    }
    assert!(
        applied >= n / 2,
        "the per-port masks served {applied} random cases of {n}"
    );
}
