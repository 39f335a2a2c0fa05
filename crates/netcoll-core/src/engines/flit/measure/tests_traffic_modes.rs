//! `sim_type = throughput`, `injection_process = on_off` and the new patterns as whole runs
//! against BookSim 2 (28f4329) on the same files: an 8x8 mesh, dor, 4 VCs x 8 flits, 1-flit
//! packets, seed 0, BookSim's defaults otherwise (the figures and the side-by-side table are
//! in docs/validation.md).

use super::FlitResult;

/// The 8x8 mesh of tests_credits.rs with 4 VCs x 8 flits and `extra`.
fn mesh8(extra: &[(&str, &str)]) -> FlitResult {
    let vcs = [("num_vcs", "4"), ("vc_buf_size", "8")];
    let keys: Vec<_> = vcs.iter().chain(extra).copied().collect();
    super::tests_credits::mesh8(&keys)
}

fn within(x: f64, booksim: f64, tol: f64) -> bool {
    (x / booksim - 1.0).abs() <= tol
}

/// Beyond saturation latency mode gives up; throughput mode converges on the network's
/// throughput (BookSim: accepted 0.3955, injected 0.3959 at 0.6) and reports what entered.
#[test]
fn throughput_mode_measures_a_saturated_network() {
    let lat = mesh8(&[("injection_rate", "0.6")]);
    assert!(lat.unstable && lat.injected_rate.is_none());
    let thr = mesh8(&[("injection_rate", "0.6"), ("sim_type", "throughput")]);
    assert!(!thr.unstable, "{:?}", thr.unstable_reason);
    assert!(
        within(thr.accepted_rate, 0.3955, 0.05),
        "{}",
        thr.accepted_rate
    );
    let injected = thr
        .injected_rate
        .expect("throughput runs report injected_rate");
    assert!(within(injected, 0.3959, 0.05), "{injected}");
    // Below saturation both modes measure the same latency (BookSim 35.12 at 0.2).
    let thr = mesh8(&[("injection_rate", "0.2"), ("sim_type", "throughput")]);
    assert!(
        within(thr.avg_packet_latency, 35.12, 0.03),
        "{}",
        thr.avg_packet_latency
    );
}

/// The on/off process offers its rate in bursts (BookSim: 35.30 cycles at 0.2 with
/// alpha = beta = 0.2; 35.80 with r1 = 0.5, beta = 0.1 and alpha derived).
#[test]
fn on_off_injection_as_booksim() {
    let r = mesh8(&[
        ("injection_process", "on_off"),
        ("burst_alpha", "0.2"),
        ("burst_beta", "0.2"),
        ("injection_rate", "0.2"),
    ]);
    assert!(
        within(r.avg_packet_latency, 35.30, 0.03),
        "{}",
        r.avg_packet_latency
    );
    assert!(within(r.accepted_rate, 0.1981, 0.05), "{}", r.accepted_rate);
    let r = mesh8(&[
        ("injection_process", "on_off({-1.0,0.1,0.5})"),
        ("injection_rate", "0.2"),
    ]);
    assert!(
        within(r.avg_packet_latency, 35.80, 0.03),
        "{}",
        r.avg_packet_latency
    );
}

/// A few patterns as whole runs (BookSim: tornado 49.17, randperm 38.77, taper64 26.91,
/// hotspot({{0,63},{1,1}}) at 0.02: 43.16).
#[test]
fn patterns_as_booksim() {
    for (traffic, rate, booksim) in [
        ("tornado", "0.2", 49.17),
        ("randperm", "0.2", 38.77),
        ("taper64", "0.2", 26.91),
        ("hotspot({{0,63},{1,1}})", "0.02", 43.16),
    ] {
        let r = mesh8(&[("traffic", traffic), ("injection_rate", rate)]);
        assert!(
            !r.unstable && within(r.avg_packet_latency, booksim, 0.03),
            "{traffic}: {} against {booksim}",
            r.avg_packet_latency
        );
    }
}

/// A saturated source (Bernoulli at rate 1, every node every cycle) generates without the
/// generation wheel (`Sim::every_cycle`): the same figures as through the wheel, on
/// BookSim's single-router example and on meshes with long packets, latency and fixed runs.
#[test]
fn every_cycle_generation_matches_the_wheel() {
    let cases: [&[(&str, &str)]; 3] = [
        super::tests_sw_ports::SINGLECONFIG_ROUTER,
        &[("k", "4"), ("injection_rate", "1.0"), ("packet_size", "5")],
        &[
            ("k", "4"),
            ("injection_rate", "1.0"),
            ("traffic", "transpose"),
        ],
    ];
    for case in cases {
        let run = |fast: bool| {
            super::alloc_tests::fixed_run(case, |mut sim| {
                assert!(sim.every_cycle, "{case:?} generates every cycle");
                sim.every_cycle = fast;
                serde_json::to_string(&sim.simulate()).unwrap()
            })
        };
        assert_eq!(run(true), run(false), "{case:?}");
    }
    // Below rate 1 the wheel serves.
    let below = [("k", "4"), ("injection_rate", "0.99")];
    super::alloc_tests::fixed_run(&below, |sim| assert!(!sim.every_cycle));
}
