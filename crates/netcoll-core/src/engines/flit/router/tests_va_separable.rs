//! BookSim's separable VC allocators on per-port masks (va_ports.rs) against the request
//! matrix (router/alloc/, with requests written by the ports' masks or VC by VC, on the
//! matrix's masks or its lists): the same figures, bit for bit.

use super::super::alloc_tests::fixed_run;

/// How a run allocates VCs with a separable allocator.
#[derive(Clone, Copy, Debug)]
enum Path {
    /// Per-port masks where `separable_ports_apply` holds.
    Ports,
    /// The request matrix, its requests by the ports' masks.
    Matrix,
    /// The request matrix, its requests VC by VC (`mask_limit = 0`), on its lists.
    Lists,
}

/// Every figure of a one-thread fixed run on `path`, and whether the per-port path
/// applied.
fn figures(pairs: &[(&str, &str)], path: Path) -> (String, bool) {
    fixed_run(pairs, |mut sim| {
        let ports = sim.net.separable_ports_apply();
        match path {
            Path::Ports => {}
            Path::Matrix => sim.net.va.book.general = true,
            Path::Lists => {
                sim.net.va.mask_limit = 0;
                sim.net.va.book.reqs.lists_only = true;
            }
        }
        (serde_json::to_string(&sim.simulate()).unwrap(), ports)
    })
}

/// The routers the cases run: meshes of 2 to 20 VCs (10 to 100 a router), the shipped
/// single-router and fat-tree examples' routers, VC classes, virtual cut-through.
fn routers() -> Vec<Vec<(&'static str, &'static str)>> {
    let mesh = |vcs, rate| vec![("k", "4"), ("num_vcs", vcs), ("injection_rate", rate)];
    vec![
        mesh("2", "0.6"),
        mesh("4", "0.9"),
        mesh("8", "0.5"),
        [mesh("16", "0.8"), vec![("wait_for_tail_credit", "1")]].concat(),
        [
            mesh("20", "0.4"),
            vec![("vc_buf_size", "2"), ("packet_size", "6")],
        ]
        .concat(),
        // src/examples/singleconfig: one 10-port router, 8 VCs, saturated.
        vec![
            ("topology", "fly"),
            ("k", "10"),
            ("n", "1"),
            ("num_vcs", "8"),
            ("vc_buf_size", "8"),
            ("routing_function", "dest_tag"),
            ("injection_rate", "1.0"),
            ("routing_delay", "0"),
        ],
        // src/examples/fattree_config: held switch connections (the crossbar path), nca.
        vec![
            ("topology", "fattree"),
            ("k", "4"),
            ("n", "3"),
            ("routing_function", "nca"),
            ("num_vcs", "4"),
            ("vc_buf_size", "16"),
            ("hold_switch_for_packet", "1"),
            ("credit_delay", "2"),
            ("routing_delay", "0"),
            ("injection_rate", "0.6"),
            ("injection_rate_uses_flits", "1"),
        ],
        // The crossbar path by a speedup, on a torus with dateline classes.
        vec![
            ("topology", "torus"),
            ("k", "4"),
            ("num_vcs", "6"),
            ("torus_routing", "dateline"),
            ("internal_speedup", "1.5"),
            ("injection_rate", "0.7"),
        ],
        // Virtual cut-through: a VC is asked for only with room for the whole packet.
        [
            mesh("8", "0.5"),
            vec![
                ("packet_size", "4"),
                ("injection_rate_uses_flits", "1"),
                ("flow_control", "virtual_cut_through"),
                ("vc_buf_size", "4"),
            ],
        ]
        .concat(),
    ]
}

#[test]
fn separable_vc_allocators_on_port_masks_match_the_request_matrix() {
    let iters = ["1", "2", "3", "4"];
    for (k, router) in routers().iter().enumerate() {
        for alloc in ["separable_input_first", "separable_output_first"] {
            // Every router with each allocator, iterations cycling through 1 to 4 (the
            // separable allocators ignore them, as BookSim's do).
            let it = iters[(2 * k + usize::from(alloc.ends_with("output_first"))) % 4];
            // The switch input-first with one iteration (what the crossbar path takes),
            // else by iSLIP.
            let sw = if it == "1" {
                "separable_input_first"
            } else {
                "islip"
            };
            let extra = [
                ("vc_allocator", alloc),
                ("sw_allocator", sw),
                ("alloc_iters", it),
            ];
            let case: Vec<_> = router.iter().chain(&extra).copied().collect();
            let (ports, applies) = figures(&case, Path::Ports);
            assert!(applies, "the per-port path must apply to {case:?}");
            assert!(ports.contains("\"flit_hops\""), "{ports}");
            for path in [Path::Matrix, Path::Lists] {
                assert_eq!(ports, figures(&case, path).0, "{path:?}: {case:?}");
            }
        }
    }
}

#[test]
fn separable_vc_allocators_leave_the_port_masks_where_priorities_differ() {
    // Age priorities: the arbiters are not plain round-robin; the request matrix runs.
    let applies = |pairs: &[(&str, &str)]| fixed_run(pairs, |s| s.net.separable_ports_apply());
    let plain = [("k", "4"), ("vc_allocator", "separable_output_first")];
    assert!(applies(&plain));
    assert!(!applies(&[&plain[..], &[("priority", "age")]].concat()));
}
