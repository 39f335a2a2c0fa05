//! BookSim's crossbar (router/xbar.rs) against BookSim 2 (28f4329), side by side: speedups,
//! output buffers and held switch connections on an 8x8 mesh, dimension-order routing,
//! uniform traffic, 4 VCs x 4 flits, 4-flit packets, `sample_period = 10000`, seed 0.
//! BookSim's figures come from its own runs of the same keys (`booksim FILE`), listed in
//! docs/validation.md; netcoll's are within 2% of each.

use super::tests_credits::mesh8 as booksim_mesh8;
use super::{simulate_traffic, FlitConfig, FlitResult};

/// The mesh above at `rate` flits per node and cycle, with `extra`.
fn mesh8(rate: &str, extra: &[(&str, &str)]) -> FlitResult {
    let mut keys = vec![
        ("num_vcs", "4"),
        ("vc_buf_size", "4"),
        ("packet_size", "4"),
        ("injection_rate_uses_flits", "1"),
        ("sample_period", "10000"),
        ("injection_rate", rate),
    ];
    keys.extend_from_slice(extra);
    booksim_mesh8(&keys)
}

/// Latency within 3% of BookSim's.
fn assert_near(r: &FlitResult, booksim: f64, what: &str) {
    super::tests_credits::assert_near(r, booksim, 0.03, what);
}

#[test]
fn input_and_output_speedups_match_booksim() {
    // Without a speedup: BookSim 54.02 at 0.35.
    assert_near(&mesh8("0.35", &[("input_speedup", "2")]), 46.889, "is 2");
    assert_near(&mesh8("0.35", &[("output_speedup", "2")]), 49.370, "os 2");
    // Output buffers of 2 flits hold the switch back a little.
    let obuf = [("output_speedup", "2"), ("output_buffer_size", "2")];
    assert_near(&mesh8("0.35", &obuf), 50.883, "os 2, buffers of 2");
}

#[test]
fn internal_speedup_runs_the_stages_in_steps_as_booksim() {
    // Without a speedup: BookSim 40.07 at 0.2; each hop loses a cycle or so.
    assert_near(&mesh8("0.2", &[("internal_speedup", "2.0")]), 27.011, "2.0");
    assert_near(&mesh8("0.2", &[("internal_speedup", "1.7")]), 30.519, "1.7");
    let all = [
        ("input_speedup", "2"),
        ("output_speedup", "2"),
        ("internal_speedup", "2.0"),
    ];
    // Near saturation, every speedup at once.
    assert_near(&mesh8("0.45", &all), 101.949, "all 2 at 0.45");
    let wtc = [
        ("wait_for_tail_credit", "1"),
        ("input_speedup", "2"),
        ("internal_speedup", "1.7"),
    ];
    assert_near(&mesh8("0.35", &wtc), 37.103, "tail credit, is 2, 1.7");
}

#[test]
fn held_switch_connections_match_booksim() {
    let long = [
        ("hold_switch_for_packet", "1"),
        ("packet_size", "20"),
        ("vc_buf_size", "8"),
    ];
    assert_near(&mesh8("0.3", &long), 124.935, "20-flit packets held");
    let sif = [
        ("hold_switch_for_packet", "1"),
        ("input_speedup", "2"),
        ("vc_allocator", "separable_input_first"),
        ("sw_allocator", "separable_input_first"),
    ];
    assert_near(&mesh8("0.3", &sif), 44.194, "separable, held, is 2");
}

#[test]
fn speedups_out_of_range_are_refused_with_the_range() {
    let refused = |k: &str, v: &str| {
        let mut c = FlitConfig::default();
        let e = c.set(k, v).err().map(|e| e.to_string());
        let e = e.unwrap_or_else(|| panic!("{k} = {v} accepted"));
        assert!(e.contains(k) && e.contains("use "), "{e}");
    };
    refused("input_speedup", "0");
    refused("input_speedup", "-1");
    refused("output_speedup", "65");
    refused("internal_speedup", "0.5");
    refused("internal_speedup", "nan");
    refused("output_buffer_size", "0");
    let mut c = FlitConfig::default();
    c.set("internal_speedup", "2").unwrap();
    c.set("vc_alloc_delay", "2").unwrap();
    let e = c.validate().unwrap_err().to_string();
    assert!(e.contains("one-cycle stages"), "{e}");
    // 5 ports x 16 crossbar inputs is more than a router's 64.
    let mut c = FlitConfig::default();
    c.set("input_speedup", "16").unwrap();
    let e = simulate_traffic(&c).unwrap_err().to_string();
    assert!(e.contains("at most 64 crossbar inputs"), "{e}");
}
