//! The general stages' switch allocation on its fast paths (sw_ports.rs: requests on port
//! masks, disjoint requests sent without arbitration, the carrying VC looked up for matched
//! pairs only; the round-robin allocators on port masks) against the VC-by-VC requests on
//! the request matrix (`mr.sa_fast` off): the same run on both gives the same figures, bit
//! for bit.

use super::sw_ports::PortRequests;

/// Every figure of a one-thread run with the general stages' switch allocation on its fast
/// paths (`fast`) or VC by VC on the request matrix; and whether the requests on port masks
/// served it (not the mask router, not the crossbar).
fn sa_figures(pairs: &[(&str, &str)], fast: bool) -> (String, bool) {
    super::alloc_tests::fixed_run(pairs, |mut sim| {
        let applies = sim.net.sa_masks_apply() && !sim.net.mask_router_applies() && !sim.net.xb.on;
        sim.net.mr.sa_fast = fast;
        (serde_json::to_string(&sim.simulate()).unwrap(), applies)
    })
}

/// The two paths agree on `case`; returns whether the fast path served it.
fn assert_sa_paths_agree(case: &[(&str, &str)]) -> bool {
    let (fast, applies) = sa_figures(case, true);
    assert!(fast.contains("\"flit_hops\""), "{fast}");
    let general = sa_figures(case, false).0;
    assert_eq!(
        fast, general,
        "{case:?} (requests on port masks: {applies})"
    );
    applies
}

/// runfiles/ftreeconfig's router at a load past its file's: request/reply classes on
/// overlapping VC ranges, 128 VCs a router, nca routing, waiting for tail credits, two
/// iterations (also the per-port VC allocator's case, tests_mask_router.rs).
pub(super) const FTREECONFIG_ROUTER: &[(&str, &str)] = &[
    ("topology", "fattree"),
    ("k", "4"),
    ("n", "3"),
    ("routing_function", "nca"),
    ("num_vcs", "16"),
    ("use_read_write", "1"),
    ("read_request_begin_vc", "0"),
    ("read_request_end_vc", "5"),
    ("write_reply_begin_vc", "2"),
    ("write_reply_end_vc", "7"),
    ("read_reply_begin_vc", "8"),
    ("read_reply_end_vc", "12"),
    ("write_request_begin_vc", "10"),
    ("write_request_end_vc", "15"),
    ("wait_for_tail_credit", "1"),
    ("alloc_iters", "2"),
    ("routing_delay", "0"),
    ("traffic", "bitcomp"),
    ("injection_rate", "0.4"),
];

/// src/examples/singleconfig's router: 10 ports, 8 VCs, separable input-first VA and SA,
/// saturated.
pub(super) const SINGLECONFIG_ROUTER: &[(&str, &str)] = &[
    ("topology", "fly"),
    ("k", "10"),
    ("n", "1"),
    ("num_vcs", "8"),
    ("vc_allocator", "separable_input_first"),
    ("sw_allocator", "separable_input_first"),
    ("routing_function", "dest_tag"),
    ("injection_rate", "1.0"),
    ("routing_delay", "0"),
];

/// The shipped configurations the general switch allocation serves: src/examples/
/// singleconfig's router (10 ports, 8 VCs, separable input-first, saturated),
/// runfiles/meshconfig's (iSLIP, 2 iterations, 16 VCs, waiting for tail credits) and
/// runfiles/ftreeconfig's (128 VCs a router on request/reply VC ranges).
const SHIPPED_GENERAL_SA: [&[(&str, &str)]; 3] = [
    SINGLECONFIG_ROUTER,
    &[
        ("k", "8"),
        ("num_vcs", "16"),
        ("wait_for_tail_credit", "1"),
        ("alloc_iters", "2"),
        ("credit_delay", "2"),
        ("routing_delay", "0"),
        ("injection_rate", "0.45"),
    ],
    FTREECONFIG_ROUTER,
];

#[test]
fn general_switch_allocation_fast_paths_match_the_request_matrix() {
    for case in SHIPPED_GENERAL_SA {
        assert!(
            assert_sa_paths_agree(case),
            "the switch requests on port masks must apply to {case:?}"
        );
    }
    // Wide ports (the most VCs a run takes): 64 VCs a port (a port's VCs fill a mask
    // word) and 40 (ports straddle words, no power of two), long packets on shallow
    // buffers.
    for vcs in ["64", "40"] {
        let case = [
            ("k", "3"),
            ("num_vcs", vcs),
            ("alloc_iters", "2"),
            ("packet_size", "9"),
            ("vc_buf_size", "3"),
            ("injection_rate", "0.6"),
            ("injection_rate_uses_flits", "1"),
        ];
        assert!(assert_sa_paths_agree(&case), "{case:?}");
    }
}

#[test]
fn general_switch_allocation_fast_paths_match_on_random_routers() {
    // Random routers: every allocator BookSim names for the switch (the round-robin ones on
    // port masks, the others on the request matrix from requests on port masks), VC counts
    // from 1 to 64 (a mask word), ports straddling words, long packets on shallow buffers,
    // several iterations, speculation, VCT, waiting for tail credits.
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(35);
    let allocators = [
        "islip",
        "separable_input_first",
        "separable_output_first",
        "wavefront",
        "select",
        "max_size",
        "pim",
        "loa",
    ];
    let mut applied = 0;
    let runs = 16;
    for _ in 0..runs {
        let topo = ["mesh", "torus", "fly"][rng.random_range(0..3)];
        let k = if topo == "fly" { "6" } else { "4" };
        // A torus's dateline classes need two VCs.
        let top = if rng.random_bool(0.3) { 64 } else { 20 };
        let vcs = rng
            .random_range(usize::from(topo == "torus") + 1..=top)
            .to_string();
        let sw = allocators[rng.random_range(0..allocators.len())];
        let va = allocators[rng.random_range(0..3)];
        let iters = rng.random_range(1..=3).to_string();
        // Virtual cut-through needs a buffer to hold a whole packet.
        let vct = rng.random_bool(0.2);
        let size = rng.random_range(1..=12);
        let buf = if vct { 12 } else { rng.random_range(2..=8) }.to_string();
        let size = size.to_string();
        let rate = format!("{:.2}", rng.random_range(0.05..0.9));
        let mut case = vec![
            ("topology", topo),
            ("k", k),
            ("num_vcs", &vcs),
            ("sw_allocator", sw),
            ("vc_allocator", va),
            ("alloc_iters", &iters),
            ("packet_size", &size),
            ("vc_buf_size", &buf),
            ("injection_rate", &rate),
            ("injection_rate_uses_flits", "1"),
        ];
        let flags = [
            ("wait_for_tail_credit", rng.random_bool(0.4)),
            ("speculative", rng.random_bool(0.3)),
        ];
        finish_case(&mut case, topo, &flags);
        if vct {
            case.push(("flow_control", "virtual_cut_through"));
        }
        applied += usize::from(assert_sa_paths_agree(&case));
    }
    assert!(
        applied >= runs / 2,
        "the fast paths served {applied} random cases of {runs}"
    );
}

#[test]
fn disjoint_requests_share_no_port() {
    let req = |ins: u64, outs: u64, eligible: usize| PortRequests {
        outs,
        ins,
        eligible,
    };
    // One VC alone, and one VC per input to distinct outputs.
    assert!(req(0b100, 0b1, 1).disjoint());
    assert!(req(0b101, 0b110, 2).disjoint());
    // Two inputs for one output; one input for two outputs; two VCs of one input for one
    // output.
    assert!(!req(0b11, 0b1, 2).disjoint());
    assert!(!req(0b1, 0b11, 2).disjoint());
    assert!(!req(0b1, 0b1, 2).disjoint());
}

/// Every figure of a one-thread run with the switch requests and the separable input-first
/// VC allocation built without a branch per VC everywhere (`dense`) or nowhere.
fn dense_figures(pairs: &[(&str, &str)], dense: bool) -> String {
    super::alloc_tests::fixed_run(pairs, |mut sim| {
        let min = if dense { 0 } else { usize::MAX };
        sim.net.sa_dense_min = min;
        sim.net.va_dense_min = min;
        // The per-VC pass (not the holders by port, tests_sw_held.rs).
        sim.net.va.held_enabled = false;
        serde_json::to_string(&sim.simulate()).unwrap()
    })
}

/// The branch-free switch requests (sw_ports.rs, `DENSE_REQUESTS`) and separable
/// input-first VC allocation (va_ports.rs, `DENSE_VA`) give the figures of the branching
/// ones: on the shipped routers and on random fly, mesh and torus routers with separable
/// input-first allocators (1-64 VCs, long packets, speculation, tail credits, loads up to
/// saturation).
#[test]
fn dense_request_paths_match_the_branching_ones() {
    use rand::{Rng, SeedableRng};
    for case in SHIPPED_GENERAL_SA {
        assert_eq!(
            dense_figures(case, true),
            dense_figures(case, false),
            "{case:?}"
        );
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(36);
    for _ in 0..12 {
        let topo = ["mesh", "torus", "fly"][rng.random_range(0..3)];
        let k = if topo == "fly" { "6" } else { "4" };
        let vcs = rng
            .random_range(usize::from(topo == "torus") + 1..=40)
            .to_string();
        let alloc = ["separable_input_first", "islip"][usize::from(rng.random_bool(0.2))];
        let drawn = Drawn::new(&mut rng);
        let allocators = (alloc, "separable_input_first");
        let mut case = random_case((topo, k, &vcs), allocators, &drawn);
        let flags = [
            ("wait_for_tail_credit", rng.random_bool(0.4)),
            ("speculative", rng.random_bool(0.3)),
            ("routing_delay", rng.random_bool(0.5)),
        ];
        finish_case(&mut case, topo, &flags);
        assert_eq!(
            dense_figures(&case, true),
            dense_figures(&case, false),
            "{case:?}"
        );
    }
}

/// A random case's packet size (1-6 flits), buffer depth (2-8 flits) and load (0.2-1.0
/// flits per cycle and node), drawn in that order.
pub(super) struct Drawn {
    size: String,
    buf: String,
    rate: String,
}

impl Drawn {
    pub(super) fn new(rng: &mut impl rand::Rng) -> Drawn {
        Drawn {
            size: rng.random_range(1..=6).to_string(),
            buf: rng.random_range(2..=8).to_string(),
            rate: format!("{:.2}", rng.random_range(0.2..1.0)),
        }
    }
}

/// A random case's keys: the topology, its size and VCs, the switch and VC allocators
/// (`(sw, va)`) and the drawn packet size, buffer depth and load in flits.
pub(super) fn random_case<'a>(
    (topo, k, vcs): (&'a str, &'a str, &'a str),
    (sw, va): (&'a str, &'a str),
    d: &'a Drawn,
) -> Vec<(&'a str, &'a str)> {
    vec![
        ("topology", topo),
        ("k", k),
        ("num_vcs", vcs),
        ("sw_allocator", sw),
        ("vc_allocator", va),
        ("packet_size", &d.size),
        ("vc_buf_size", &d.buf),
        ("injection_rate", &d.rate),
        ("injection_rate_uses_flits", "1"),
    ]
}

/// Completes a random case: the fly's keys (one stage, `dest_tag`), then each flag drawn
/// on, set to 1.
pub(super) fn finish_case<'a>(
    case: &mut Vec<(&'a str, &'a str)>,
    topo: &str,
    flags: &[(&'a str, bool)],
) {
    if topo == "fly" {
        case.extend([("n", "1"), ("routing_function", "dest_tag")]);
    }
    for &(key, on) in flags {
        if on {
            case.push((key, "1"));
        }
    }
}
