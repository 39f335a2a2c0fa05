//! The mask router (mask_router.rs) against the general stages (vc_masks.rs, sw_alloc.rs):
//! the same run on both paths gives the same figures, bit for bit.

use super::config::FlitConfig;
use super::sim::Sim;

/// Every figure of a run as JSON, on the mask path or (`masks = false`) on the general
/// stages in every partition; and whether the mask path applied (with inline routing when
/// `inline` is asked for).
fn figures(pairs: &[(&str, &str)], masks: bool, inline: bool) -> (String, bool) {
    let c = FlitConfig::from_pairs(pairs.iter().copied()).unwrap();
    let topo = c.build_topology().unwrap();
    let mut sim = Sim::new(&topo, &c).unwrap();
    let applies = sim.net.mask_router_applies() && (!inline || sim.net.inline_routing());
    sim.net.mr.enabled = masks;
    if let Some(w) = sim.net.workers.as_mut() {
        w.nets.iter_mut().for_each(|n| n.mr.enabled = masks);
    }
    (serde_json::to_string(&sim.simulate()).unwrap(), applies)
}

fn assert_paths_agree(cases: &[&[(&str, &str)]]) {
    assert_paths_agree_inline(cases, false)
}

/// The two paths agree, and (`inline`) the mask path routes inline.
fn assert_paths_agree_inline(cases: &[&[(&str, &str)]], inline: bool) {
    let fixed = [
        ("sim_type", "fixed"),
        ("warmup_cycles", "100"),
        ("sim_cycles", "1200"),
    ];
    for case in cases {
        let pairs: Vec<(&str, &str)> = case.iter().chain(&fixed).copied().collect();
        let (a, applies) = figures(&pairs, true, inline);
        let (b, _) = figures(&pairs, false, false);
        assert!(
            applies,
            "the mask path (inline: {inline}) must apply to {case:?}"
        );
        assert!(a.contains("\"flit_hops\""), "{a}");
        assert_eq!(a, b, "{case:?}");
    }
}

#[test]
fn mask_router_matches_the_general_stages_on_meshes() {
    assert_paths_agree(&[
        &[("k", "8"), ("injection_rate", "0.2")],
        // Past saturation: VA conflicts, lost switch grants, VCs waiting for credits.
        &[("k", "8"), ("injection_rate", "0.6")],
        &[
            ("k", "8"),
            ("injection_rate", "0.3"),
            ("traffic", "transpose"),
        ],
        &[("k", "4"), ("n", "3"), ("injection_rate", "0.4")],
        // Wormhole packets over several VCs and shallow buffers.
        &[
            ("k", "6"),
            ("injection_rate", "0.4"),
            ("packet_size", "5"),
            ("injection_rate_uses_flits", "1"),
            ("num_vcs", "2"),
            ("vc_buf_size", "2"),
        ],
        // Virtual cut-through: VA asks for room for the whole packet.
        &[
            ("k", "6"),
            ("injection_rate", "0.5"),
            ("packet_size", "4"),
            ("injection_rate_uses_flits", "1"),
            ("flow_control", "virtual_cut_through"),
            ("vc_buf_size", "4"),
        ],
        // Speculative VA (switch bids in the grant's cycle) and other delays.
        &[("k", "6"), ("injection_rate", "0.4"), ("speculative", "1")],
        &[
            ("k", "6"),
            ("injection_rate", "0.3"),
            ("routing_delay", "0"),
            ("vc_alloc_delay", "2"),
            ("credit_delay", "2"),
        ],
        &[
            ("k", "6"),
            ("injection_rate", "0.3"),
            ("routing_delay", "2"),
        ],
        // More routers than the route table takes: DOR in closed form.
        &[("k", "33"), ("injection_rate", "0.02")],
        // Two threads: each partition runs its routers on its own path.
        &[("k", "8"), ("injection_rate", "0.3"), ("threads", "2")],
    ]);
}

#[test]
fn mask_router_matches_the_general_stages_on_tori_and_irregular_networks() {
    // Both torus DORs routed inline (torus.rs); the general stages route BookSim's by the
    // same code (its half-way ties drawn per router in the same order) and the dateline's
    // by `crate::routing`.
    assert_paths_agree_inline(
        &[
            // Even radices: half-way ties, drawn at random.
            &[("topology", "torus"), ("k", "8"), ("injection_rate", "0.3")],
            &[
                ("topology", "torus"),
                ("k", "4"),
                ("n", "3"),
                ("injection_rate", "0.5"),
                ("use_noc_latency", "1"),
                ("threads", "2"),
            ],
            &[("topology", "torus"), ("k", "5"), ("injection_rate", "0.4")],
            &[
                ("topology", "torus"),
                ("k", "6"),
                ("injection_rate", "0.4"),
                ("torus_routing", "dateline"),
                ("threads", "2"),
            ],
            &[
                ("topology", "torus"),
                ("k", "5"),
                ("n", "3"),
                ("injection_rate", "0.3"),
                ("torus_routing", "dateline"),
            ],
        ],
        true,
    );
    assert_paths_agree(&[
        // Up*/down* on an irregular network: routing state carried by the flits.
        &[
            ("topology", "netcoll"),
            (
                "netcoll_topology",
                "irregular:switches=12,ports=8,nodes=36,seed=5",
            ),
            ("routing_function", "updown"),
            ("injection_rate", "0.15"),
        ],
    ]);
}

#[test]
fn mask_router_matches_the_general_stages_on_anynet() {
    let dir = std::env::temp_dir().join(format!("netcoll_mask_router_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let net = dir.join("ring.net");
    std::fs::write(
        &net,
        "router 0 node 0 node 1 router 1 router 3\nrouter 1 node 2 node 3 router 2\n\
         router 2 node 4 node 5 router 3 router 0\nrouter 3 node 6 node 7\n",
    )
    .unwrap();
    let file = net.to_string_lossy().to_string();
    let result = std::panic::catch_unwind(|| {
        assert_paths_agree(&[
            &[
                ("topology", "anynet"),
                ("routing_function", "min"),
                ("network_file", &file),
                ("injection_rate", "0.3"),
            ],
            &[
                ("topology", "anynet"),
                ("routing_function", "up_down"),
                ("network_file", &file),
                ("injection_rate", "0.2"),
            ],
        ])
    });
    let _ = std::fs::remove_dir_all(&dir);
    result.unwrap();
}

#[test]
fn mask_router_matches_the_general_stages_with_separable_input_first() {
    let both = [
        ("vc_allocator", "separable_input_first"),
        ("sw_allocator", "separable_input_first"),
    ];
    let fat_tree = [
        ("topology", "fattree"),
        ("k", "4"),
        ("n", "3"),
        ("routing_function", "nca"),
        ("num_vcs", "4"),
        ("vc_buf_size", "16"),
        ("injection_rate_uses_flits", "1"),
    ];
    let with = |base: &[(&'static str, &'static str)], more: &[(&'static str, &'static str)]| {
        base.iter().chain(more).copied().collect::<Vec<_>>()
    };
    let cases = [
        // BookSim's src/examples/fattree_config (held connections, single-flit packets:
        // off the crossbar) at its load and past it; NCA routes before the stages.
        super::tests::FATTREE_CONFIG.to_vec(),
        with(
            &with(&fat_tree, &both),
            &[("routing_delay", "0"), ("injection_rate", "0.9")],
        ),
        with(
            &with(&fat_tree, &both),
            &[("injection_rate", "0.5"), ("packet_size", "3")],
        ),
        // Either allocator alone, on meshes past saturation (VC and switch conflicts).
        with(&both, &[("k", "8"), ("injection_rate", "0.6")]),
        vec![
            ("k", "8"),
            ("injection_rate", "0.5"),
            ("vc_allocator", "separable_input_first"),
            ("num_vcs", "2"),
        ],
        vec![
            ("k", "6"),
            ("injection_rate", "0.4"),
            ("sw_allocator", "separable_input_first"),
            ("packet_size", "4"),
            ("injection_rate_uses_flits", "1"),
            ("vc_buf_size", "2"),
        ],
        with(
            &both,
            &[("topology", "torus"), ("k", "5"), ("injection_rate", "0.5")],
        ),
    ];
    let cases: Vec<&[(&str, &str)]> = cases.iter().map(|c| c.as_slice()).collect();
    assert_paths_agree(&cases);
}

#[test]
fn mask_router_stays_off_where_the_general_stages_differ() {
    let applies = |pairs: &[(&str, &str)]| {
        let c = FlitConfig::from_pairs(pairs.iter().copied()).unwrap();
        let topo = c.build_topology().unwrap();
        let applies = Sim::new(&topo, &c).unwrap().net.mask_router_applies();
        applies
    };
    assert!(applies(&[("k", "8")]));
    assert!(!applies(&[("k", "8"), ("vc_allocator", "greedy")]));
    assert!(applies(&[
        ("k", "8"),
        ("sw_allocator", "separable_input_first")
    ]));
    // Separable allocators with priorities (arbiters by priority), or output-first.
    assert!(!applies(&[
        ("k", "8"),
        ("sw_allocator", "separable_input_first"),
        ("priority", "age")
    ]));
    assert!(!applies(&[
        ("k", "8"),
        ("vc_allocator", "separable_output_first")
    ]));
    // 5 ports x 16 VCs: more than a mask of 64 holds.
    assert!(!applies(&[("k", "8"), ("num_vcs", "16")]));
}

/// Every figure of a one-thread run with iSLIP VC allocation on its fastest path (`Fast`),
/// on the grant table (`GrantTable`: `mask_limit = 0`) or on the request matrix
/// (`Matrix`: router/alloc/); and whether the per-port masks (va_ports.rs) applied.
#[derive(Clone, Copy)]
enum VaPath {
    Fast,
    GrantTable,
    Matrix,
}

fn va_figures(pairs: &[(&str, &str)], path: VaPath) -> (String, bool) {
    super::alloc_tests::fixed_run(pairs, |mut sim| {
        let ports = sim.net.va_ports_apply();
        match path {
            VaPath::Fast => {}
            VaPath::GrantTable => sim.net.va.mask_limit = 0,
            VaPath::Matrix => sim.net.va.book.general = true,
        }
        (serde_json::to_string(&sim.simulate()).unwrap(), ports)
    })
}

#[test]
fn per_port_va_masks_match_the_grant_table_and_the_request_matrix() {
    // Several iterations, routers of 80 and more VCs, request/reply classes on VC ranges,
    // virtual cut-through, the shipped mesh and fat-tree runfiles' router: the per-port
    // masks, the grant table and the request matrix give the same figures, bit for bit.
    let mesh16 = [("k", "4"), ("num_vcs", "16"), ("injection_rate", "0.8")];
    let cases: Vec<Vec<(&str, &str)>> = vec![
        // One iteration on 80 VCs a router (past the one-word masks).
        mesh16.to_vec(),
        [&mesh16[..], &[("alloc_iters", "2")]].concat(),
        [
            &mesh16[..],
            &[("alloc_iters", "3"), ("wait_for_tail_credit", "1")],
        ]
        .concat(),
        // 4 VCs (20 a router, within one word) with 2 and 4 iterations.
        vec![("k", "4"), ("injection_rate", "0.9"), ("alloc_iters", "2")],
        vec![
            ("k", "4"),
            ("injection_rate", "0.9"),
            ("alloc_iters", "4"),
            ("packet_size", "3"),
        ],
        // 20 VCs a port (100 a router), long packets on shallow buffers.
        vec![
            ("k", "4"),
            ("num_vcs", "20"),
            ("vc_buf_size", "2"),
            ("packet_size", "6"),
            ("injection_rate", "0.3"),
            ("alloc_iters", "4"),
        ],
        // Virtual cut-through: a VC is asked for only with room for the whole packet.
        vec![
            ("k", "4"),
            ("num_vcs", "16"),
            ("injection_rate", "0.5"),
            ("packet_size", "4"),
            ("injection_rate_uses_flits", "1"),
            ("flow_control", "virtual_cut_through"),
            ("vc_buf_size", "4"),
            ("alloc_iters", "2"),
        ],
        // Dateline classes on a torus (VC ranges per class), 16 VCs, 3 iterations.
        vec![
            ("topology", "torus"),
            ("k", "4"),
            ("num_vcs", "16"),
            ("injection_rate", "0.7"),
            ("torus_routing", "dateline"),
            ("alloc_iters", "3"),
        ],
        // runfiles/meshconfig's router at a load past saturation.
        vec![
            ("k", "8"),
            ("num_vcs", "16"),
            ("vc_buf_size", "8"),
            ("wait_for_tail_credit", "1"),
            ("alloc_iters", "2"),
            ("credit_delay", "2"),
            ("routing_delay", "0"),
            ("injection_rate", "0.45"),
        ],
        // runfiles/ftreeconfig: request/reply classes on overlapping VC ranges, 128 VCs a
        // router, nca routing.
        super::tests_sw_ports::FTREECONFIG_ROUTER.to_vec(),
    ];
    for case in &cases {
        let (fast, applies) = va_figures(case, VaPath::Fast);
        assert!(applies, "the per-port masks must apply to {case:?}");
        assert!(fast.contains("\"flit_hops\""), "{fast}");
        let (table, _) = va_figures(case, VaPath::GrantTable);
        assert_eq!(fast, table, "grant table: {case:?}");
        let (matrix, _) = va_figures(case, VaPath::Matrix);
        assert_eq!(fast, matrix, "request matrix: {case:?}");
    }
}
