//! Allocators in the router: hand-worked cases where BookSim's iSLIP allocators (one
//! iteration) lose a match that greedy or max-size make; islip on the request matrix
//! (router/alloc/) against its fast paths; every allocator carrying load.

use super::channel::Flit;
use super::config::FlitConfig;
use super::network::{Network, Packet, ACTIVE, NONE};
use crate::topology::{Peer, Topology};

/// Global indices of the router-to-router ports of router `r`.
fn link_ports(topo: &Topology, net: &Network, r: usize) -> Vec<usize> {
    (0..topo.num_ports(r))
        .filter(|&p| matches!(topo.peer(r, p), Peer::Switch { .. }))
        .map(|p| net.pstart[r] as usize + p)
        .collect()
}

/// Puts a one-flit packet to endpoint `dst` into input VC `vc` of global port `gi`.
fn put(net: &mut Network, gi: usize, vc: u8, dst: u32) -> usize {
    let pkt = net.packets.len() as u32;
    net.packets.push(Packet {
        dst,
        size: 1,
        tag: NONE,
        worm: NONE,
        ..Packet::default()
    });
    let flit = Flit::new(pkt, dst, 0, true, true);
    net.arrive(gi as u32, vc, flit);
    gi * net.nv + vc as usize
}

/// Two heads at the centre of a 3x3 mesh, on different input ports, both routed east: how
/// many hold an output VC after the first and after the second VA cycle.
fn two_heads_one_port(allocator: &str) -> (usize, usize) {
    let topo = Topology::from_spec("mesh:3x3").unwrap();
    let c = FlitConfig::from_pairs([("vc_allocator", allocator)]).unwrap();
    let mut net = Network::new(&topo, &c).unwrap();
    let ins = link_ports(&topo, &net, 4);
    let ivcs: Vec<usize> = ins[..2].iter().map(|&gi| put(&mut net, gi, 0, 5)).collect();
    let active = |net: &Network| ivcs.iter().filter(|&&v| net.vcs[v].state == ACTIVE).count();
    net.route_and_allocate_vcs(4); // routing (routing_delay = 1)
    net.now = 1;
    net.route_and_allocate_vcs(4);
    let first = active(&net);
    net.now = 2;
    net.route_and_allocate_vcs(4);
    (first, active(&net))
}

#[test]
fn islip_vc_allocation_grants_one_of_two_heads_per_cycle_where_greedy_grants_both() {
    // iSLIP: all four free output VCs grant the same (lowest) requester, which accepts one;
    // the other head waits a cycle. Greedy hands out two VCs at once.
    assert_eq!(two_heads_one_port("islip"), (1, 2));
    assert_eq!(two_heads_one_port("greedy"), (2, 2));
}

/// Input A holds VC0 -> output Y and VC1 -> output X, input B holds VC0 -> X (X < Y, A < B
/// in port order): flits that cross the switch in one cycle.
fn crossed_requests(allocator: &str) -> u32 {
    let topo = Topology::from_spec("mesh:3x3").unwrap();
    let c = FlitConfig::from_pairs([("sw_allocator", allocator)]).unwrap();
    let mut net = Network::new(&topo, &c).unwrap();
    let p = link_ports(&topo, &net, 4);
    let (x, y, a, b) = (p[0], p[1], p[2], p[3]);
    for (gi, vc, out) in [(a, 0u8, y), (a, 1, x), (b, 0, x)] {
        let ivc = put(&mut net, gi, vc, 0);
        net.set_waiting(4, ivc, false);
        net.vcs[ivc].state = ACTIVE;
        net.set_holding(4, ivc, true);
        net.vcs[ivc].out_port = out as u32;
        net.vcs[ivc].out_vc = vc;
        net.owner[out * net.nv + vc as usize] = ivc as u32;
    }
    // Every traversal returns a credit upstream.
    let before = net.sent.credits.len();
    net.allocate_switch(4);
    (net.sent.credits.len() - before) as u32
}

#[test]
fn islip_switch_allocation_wastes_a_grant_that_max_size_uses() {
    // iSLIP: X and Y both grant A (nearest their pointers), A accepts X; Y's grant is lost
    // and B, which only wants X, waits. BookSim's separable_input_first loses it too (A's
    // arbiter picks X, the first output from its pointer); max_size matches A -> Y and
    // B -> X.
    assert_eq!(crossed_requests("islip"), 1);
    assert_eq!(crossed_requests("separable_input_first"), 1);
    assert_eq!(crossed_requests("separable_output_first"), 1);
    assert_eq!(crossed_requests("max_size"), 2);
}

/// `f` on the simulation of `pairs` as a one-thread fixed run of 1,200 cycles after 100 of
/// warm-up, not yet run (`f` sets the path to test, runs it and reads what it needs).
pub(super) fn fixed_run<R>(pairs: &[(&str, &str)], f: impl FnOnce(super::sim::Sim) -> R) -> R {
    let fixed = [
        ("sim_type", "fixed"),
        ("warmup_cycles", "100"),
        ("sim_cycles", "1200"),
        ("threads", "1"),
    ];
    let all: Vec<(&str, &str)> = pairs.iter().chain(&fixed).copied().collect();
    let c = FlitConfig::from_pairs(all).unwrap();
    let topo = c.build_topology().unwrap();
    f(super::sim::Sim::new(&topo, &c).unwrap())
}

/// Every figure of a one-thread fixed run as JSON; `general`: `islip` runs on the request
/// matrix (router/alloc/) instead of its fast paths.
fn run_json(pairs: &[(&str, &str)], general: bool) -> String {
    fixed_run(pairs, |mut sim| {
        sim.net.va.book.general = general;
        serde_json::to_string(&sim.simulate()).unwrap()
    })
}

#[test]
fn islip_on_the_request_matrix_matches_its_fast_paths() {
    // The mask router (4 VCs), the grant table (16 VCs: 80 per router), the mask VC
    // allocator with the general switch (a torus with dateline classes), virtual
    // cut-through: the same figures, bit for bit.
    // With `alloc_iters` > 1 the fast paths are the grant table and the switch's masks.
    let cases: [&[(&str, &str)]; 8] = [
        &[("k", "4"), ("injection_rate", "0.9"), ("alloc_iters", "2")],
        &[
            ("k", "4"),
            ("num_vcs", "16"),
            ("injection_rate", "0.8"),
            ("alloc_iters", "3"),
        ],
        &[
            ("topology", "torus"),
            ("k", "4"),
            ("injection_rate", "0.7"),
            ("alloc_iters", "2"),
        ],
        &[("k", "4"), ("injection_rate", "0.35")],
        &[("k", "4"), ("injection_rate", "0.9")],
        &[("k", "4"), ("num_vcs", "16"), ("injection_rate", "0.8")],
        &[
            ("topology", "torus"),
            ("k", "4"),
            ("injection_rate", "0.6"),
            ("torus_routing", "dateline"),
        ],
        &[
            ("k", "4"),
            ("injection_rate", "0.5"),
            ("packet_size", "4"),
            ("injection_rate_uses_flits", "1"),
            ("flow_control", "virtual_cut_through"),
            ("vc_buf_size", "4"),
        ],
    ];
    for case in cases {
        let (fast, general) = (run_json(case, false), run_json(case, true));
        assert!(fast.contains("\"flit_hops\""), "{fast}");
        assert_eq!(fast, general, "{case:?}");
    }
}

/// The accepted rate and mean latency of a 4x4 mesh run with the given allocators.
fn rate_and_latency(vc: &str, sw: &str, iters: &str, rate: &str) -> (f64, f64) {
    let json = run_json(
        &[
            ("k", "4"),
            ("injection_rate", rate),
            ("vc_allocator", vc),
            ("sw_allocator", sw),
            ("alloc_iters", iters),
        ],
        false,
    );
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    (
        v["accepted_rate"].as_f64().unwrap(),
        v["avg_packet_latency"].as_f64().unwrap(),
    )
}

#[test]
fn every_allocator_carries_the_offered_load() {
    use super::alloc_registry::{SW_ALLOCATORS, VC_ALLOCATORS};
    for name in VC_ALLOCATORS.names() {
        let sw = if SW_ALLOCATORS.names().any(|n| n == name) {
            name
        } else {
            "islip"
        };
        for iters in ["1", "3"] {
            let (acc, lat) = rate_and_latency(name, sw, iters, "0.3");
            assert!((acc - 0.3).abs() < 0.02, "{name} x{iters}: accepted {acc}");
            assert!(lat > 10.0 && lat < 40.0, "{name} x{iters}: latency {lat}");
        }
    }
}

#[test]
fn more_islip_iterations_match_more_near_saturation() {
    // Past saturation, a second iteration fills in matches the first lost: more flits
    // are accepted (4x4 mesh, uniform traffic, offered 0.9).
    let (one, _) = rate_and_latency("islip", "islip", "1", "0.9");
    let (two, _) = rate_and_latency("islip", "islip", "2", "0.9");
    assert!(two > one + 0.005, "1 iteration {one}, 2 iterations {two}");
    // max_size finds a maximum matching: at least as much as iSLIP with one iteration.
    let (max, _) = rate_and_latency("max_size", "max_size", "1", "0.9");
    assert!(max > one, "max_size {max}, islip {one}");
}

#[test]
fn random_and_stateful_allocators_give_the_same_figures_on_any_thread_count() {
    // PIM's draws are per router and stage, the wavefront's diagonal and max-size's first
    // input per router: a partitioned run makes the same choices as a serial one.
    use super::sim::simulate_traffic;
    for alloc in ["pim(2)", "wavefront", "max_size", "loa"] {
        let run = |threads: usize| {
            let mut c = FlitConfig::from_pairs([
                ("k", "6"),
                ("injection_rate", "0.35"),
                ("sample_period", "300"),
                ("vc_allocator", alloc),
                ("sw_allocator", alloc),
            ])
            .unwrap();
            c.threads = threads;
            let r = simulate_traffic(&c).unwrap();
            (
                r.avg_packet_latency.to_bits(),
                r.accepted_rate.to_bits(),
                r.flit_hops,
            )
        };
        assert_eq!(run(1), run(3), "{alloc}");
    }
}
