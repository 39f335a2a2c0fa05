//! BookSim's concentrated mesh, its one-stage fly and its mesh and torus routings that
//! choose per packet (grid_random.rs) or by route sets (route_set_masks.rs), run as
//! BookSim's files give them; figures against BookSim 2 (28f4329) where it has them.

use super::{simulate_traffic, FlitConfig};

/// A configuration from BookSim's defaults and `kv` (as a BookSim file would give them).
fn booksim(kv: &[(&str, &str)]) -> FlitConfig {
    let mut c = FlitConfig::booksim();
    for (k, v) in kv {
        c.set(k, v).unwrap();
    }
    c
}

/// BookSim's src/examples/cmeshconfig, key by key.
const CMESHCONFIG: &[(&str, &str)] = &[
    ("topology", "cmesh"),
    ("k", "4"),
    ("n", "2"),
    ("c", "4"),
    ("xr", "2"),
    ("yr", "2"),
    ("x", "4"),
    ("y", "4"),
    ("routing_function", "dor_no_express"),
    ("traffic", "bitcomp"),
    ("use_read_write", "0"),
    ("batch_size", "2000"),
];

#[test]
fn cmeshconfig_runs_as_booksim_ships_it_and_agrees_with_booksim() {
    let r = simulate_traffic(&booksim(CMESHCONFIG)).unwrap();
    assert_eq!((r.topology.as_str(), r.nodes), ("cmesh:k=4", 64));
    // BookSim 2: 36.075 cycles, 0.0999 packets per node per cycle.
    let lat = (r.avg_packet_latency - 36.075) / 36.075;
    let acc = (r.accepted_rate - 0.0999) / 0.0999;
    assert!(lat.abs() < 0.03, "latency {}", r.avg_packet_latency);
    assert!(acc.abs() < 0.05, "accepted {}", r.accepted_rate);
    assert!(!r.unstable && r.misdelivered == 0);
}

#[test]
fn cmesh_geometry_keys_are_checked_as_booksim_asserts_them() {
    for (key, value, says) in [
        ("x", "8", "x = y"),
        ("xr", "1", "xr = yr"),
        ("c", "2", "c = 4"),
        ("n", "3", "n = 2"),
    ] {
        let mut kv = CMESHCONFIG.to_vec();
        kv.push((key, value));
        let e = booksim(&kv).build_topology().unwrap_err().to_string();
        assert!(e.contains(says), "{key} = {value}: {e}");
    }
    let mut kv = CMESHCONFIG.to_vec();
    kv.extend([("x", "2"), ("y", "2")]);
    let e = booksim(&kv).build_topology().unwrap_err().to_string();
    assert!(e.contains("set x = y = k"), "{e}");
}

#[test]
fn cmesh_express_routings_run_and_use_their_vc_halves() {
    for routing in ["dor", "xy_yx", "xy_yx_no_express"] {
        let mut kv = CMESHCONFIG.to_vec();
        kv.extend([("routing_function", routing), ("traffic", "uniform")]);
        let r = simulate_traffic(&booksim(&kv)).unwrap();
        assert!(!r.unstable && r.deadlock.is_none(), "{routing}");
        assert!(
            (r.accepted_rate - 0.1).abs() < 0.01,
            "{routing}: {}",
            r.accepted_rate
        );
    }
    // Express links shorten the long trips: dor's hops are fewer than dor_no_express's.
    let hops = |routing| {
        let mut kv = CMESHCONFIG.to_vec();
        kv.extend([("routing_function", routing), ("traffic", "uniform")]);
        simulate_traffic(&booksim(&kv)).unwrap().avg_hops
    };
    assert!(hops("dor") < hops("dor_no_express") - 0.05);
}

#[test]
fn singleconfig_saturates_and_is_unstable_as_in_booksim() {
    let c = booksim(&[
        ("topology", "fly"),
        ("k", "10"),
        ("n", "1"),
        ("num_vcs", "8"),
        ("vc_buf_size", "8"),
        ("vc_allocator", "separable_input_first"),
        ("sw_allocator", "separable_input_first"),
        ("routing_function", "dest_tag"),
        ("traffic", "uniform"),
        ("injection_rate", "1.0"),
        ("sample_period", "100000"),
        ("routing_delay", "0"),
        ("vc_alloc_delay", "1"),
        ("sw_alloc_delay", "1"),
        ("st_final_delay", "1"),
    ]);
    let r = simulate_traffic(&c).unwrap();
    assert!(r.unstable, "BookSim reports singleconfig unstable");
    // BookSim accepts 0.626 packets per node per cycle in its one sample period.
    assert!(
        (r.accepted_rate - 0.626).abs() < 0.05 * 0.626,
        "{}",
        r.accepted_rate
    );
}

/// An 8x8 mesh (or torus) under uniform traffic with `routing` and `vcs` VCs.
fn grid(topology: &str, routing: &str, vcs: &str, rate: &str) -> super::sim::FlitResult {
    let c = booksim(&[
        ("topology", topology),
        ("k", "8"),
        ("n", "2"),
        ("routing_function", routing),
        ("num_vcs", vcs),
        ("traffic", "uniform"),
        ("injection_rate", rate),
    ]);
    simulate_traffic(&c).unwrap()
}

#[test]
fn minimal_routings_take_minimal_paths_and_valiant_twice_as_far() {
    let dor = grid("mesh", "dim_order", "6", "0.1").avg_hops;
    for routing in [
        "xy_yx",
        "adaptive_xy_yx",
        "romm",
        "min_adapt",
        "planar_adapt",
    ] {
        let r = grid("mesh", routing, "6", "0.1");
        assert!(!r.unstable && r.deadlock.is_none(), "{routing}");
        // Every packet takes a minimal path: the mean hop count is DOR's (same traffic).
        assert!(
            (r.avg_hops - dor).abs() < 0.05,
            "{routing}: {} hops",
            r.avg_hops
        );
    }
    // Valiant: two minimal trips (about 2 x 16/3 router hops on 8x8, plus the ejection).
    let v = grid("mesh", "valiant", "6", "0.05").avg_hops;
    assert!(v > 1.9 * dor && v < 2.1 * dor, "{v} against {dor}");
    let t = grid("torus", "valiant", "8", "0.05");
    assert!(!t.unstable && t.deadlock.is_none());
    let m = grid("torus", "min_adapt", "8", "0.2");
    assert!(!m.unstable && m.deadlock.is_none());
}

#[test]
fn routings_refuse_what_they_do_not_apply_to_and_too_few_vcs() {
    let refused = |topology, routing, vcs| {
        let c = booksim(&[
            ("topology", topology),
            ("k", "4"),
            ("n", "2"),
            ("routing_function", routing),
            ("num_vcs", vcs),
        ]);
        simulate_traffic(&c).unwrap_err().to_string()
    };
    assert!(refused("torus", "romm", "4").contains("mesh"));
    assert!(refused("torus", "planar_adapt", "6").contains("mesh"));
    assert!(refused("mesh", "dor_no_express", "4").contains("cmesh"));
    assert!(refused("mesh", "xy_yx", "1").contains("num_vcs >= 2"));
    assert!(refused("torus", "min_adapt", "2").contains("num_vcs >= 4"));
    assert!(refused("mesh", "planar_adapt", "2").contains("num_vcs >= 3"));
    assert!(refused("fattree", "dest_tag", "4").contains("fly"));
}

#[test]
fn concentrated_mesh_spec_runs() {
    let c = booksim(&[
        ("topology", "netcoll"),
        ("netcoll_topology", "mesh:4x4,c=4"),
        ("routing_function", "dim_order"),
        ("num_vcs", "4"),
        ("injection_rate", "0.05"),
    ]);
    let r = simulate_traffic(&c).unwrap();
    assert_eq!(r.nodes, 64);
    assert!(!r.unstable && (r.accepted_rate - 0.05).abs() < 0.006);
}
