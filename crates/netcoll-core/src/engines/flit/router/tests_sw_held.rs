//! The switch requests from the holders kept by output port (sw_held.rs) against the
//! per-VC pass (sw_ports.rs): the same run on both gives the same figures, bit for bit.

use super::tests_sw_ports::{finish_case, random_case, Drawn, SINGLECONFIG_ROUTER};

/// Every figure of a one-thread run with the holders kept by output port (`held`) or not,
/// and whether they served it.
fn held_figures(pairs: &[(&str, &str)], held: bool) -> (String, bool) {
    super::alloc_tests::fixed_run(pairs, |mut sim| {
        sim.net.va.held_enabled = held;
        sim.net.decide_held_requests();
        let on = sim.net.va.held_on;
        (serde_json::to_string(&sim.simulate()).unwrap(), on)
    })
}

/// The two paths agree on `case`; returns whether the holders by port served it.
fn assert_held_agrees(case: &[(&str, &str)]) -> bool {
    let (held, on) = held_figures(case, true);
    assert!(held.contains("\"flit_hops\""), "{held}");
    let (per_vc, off) = held_figures(case, false);
    assert!(!off, "held_enabled off keeps the per-VC pass");
    assert_eq!(held, per_vc, "{case:?} (holders by port: {on})");
    on
}

/// src/examples/singleconfig's router (ejection ports only), then random mesh, torus and
/// fly routers with separable input-first switch allocation, mostly of over 64 VCs (the
/// general stages): ports to routers (credits read), long packets on shallow buffers,
/// speculation (no VA delay), a VA delay of two cycles (ready cycles read), waiting for
/// tail credits, every VC allocator that grants on these paths (iSLIP and the separable
/// ones; at most 64 VCs and two iterations: the one-word grants of vc_masks.rs).
#[test]
fn held_requests_match_the_per_vc_pass() {
    use rand::{Rng, SeedableRng};
    assert!(assert_held_agrees(SINGLECONFIG_ROUTER));
    let mut rng = rand::rngs::StdRng::seed_from_u64(37);
    let (mut served, runs) = (0, 14);
    for _ in 0..runs {
        let topo = ["mesh", "torus", "fly"][rng.random_range(0..3)];
        let k = if topo == "fly" { "6" } else { "4" };
        let vcs = rng.random_range(8..=40).to_string();
        let va =
            ["islip", "separable_input_first", "separable_output_first"][rng.random_range(0..3)];
        let drawn = Drawn::new(&mut rng);
        let mut case = random_case((topo, k, &vcs), ("separable_input_first", va), &drawn);
        if rng.random_bool(0.3) {
            case.push(("alloc_iters", "2"));
        }
        let delay = rng.random_range(0..3);
        if delay == 1 {
            case.push(("vc_alloc_delay", "2"));
        }
        let flags = [
            ("speculative", delay == 0),
            ("wait_for_tail_credit", rng.random_bool(0.4)),
        ];
        finish_case(&mut case, topo, &flags);
        served += usize::from(assert_held_agrees(&case));
    }
    assert!(
        served >= runs / 2,
        "the holders by port served {served} random cases of {runs}"
    );
}

/// The rows of the holders by port on every shape they take (sw_held.rs) on routers of
/// over 64 VCs (the mask router serves the smaller): lanes of 8 VCs (the byte fold, two
/// lane chunks) and of 16 and 32 VCs a port (one chunk; two, three and four mask words a
/// router), the columns transposed where lanes do not serve (4 VCs on 20 ports: more than
/// two chunks; 24 and 48 VCs: no power of two), on single routers (ejection ports only)
/// and on meshes (ports to routers: each holder's credit read), below
/// and past saturation.
#[test]
fn held_rows_match_on_every_lane_shape() {
    let shapes = [
        ("fly", "12", "1", "8"),
        ("mesh", "2", "4", "8"),
        ("mesh", "4", "2", "16"),
        ("mesh", "3", "2", "32"),
        ("fly", "6", "1", "32"),
        ("fly", "8", "1", "32"),
        ("fly", "20", "1", "4"),
        ("mesh", "4", "2", "24"),
        ("mesh", "3", "2", "48"),
    ];
    for (topo, k, n, vcs) in shapes {
        for rate in ["0.3", "1.0"] {
            let mut case = vec![
                ("topology", topo),
                ("k", k),
                ("n", n),
                ("num_vcs", vcs),
                ("sw_allocator", "separable_input_first"),
                ("vc_allocator", "separable_input_first"),
                ("packet_size", "2"),
                ("vc_buf_size", "4"),
                ("injection_rate", rate),
                ("injection_rate_uses_flits", "1"),
            ];
            if topo == "fly" {
                case.push(("routing_function", "dest_tag"));
            }
            assert!(
                assert_held_agrees(&case),
                "the holders by port serve {case:?}"
            );
        }
    }
}
