//! Golden latencies worked by hand from the pipeline model, determinism, conservation and
//! deadlock detection.

use super::config::{FlitConfig, Pattern, SimType, VcAllocator};
use super::sim::{simulate_on, Sim};
use crate::routing::{Routing, RoutingKind};
use crate::topology::Topology;
use proptest::prelude::*;

/// BookSim's src/examples/fattree_config, the keys netcoll reads (held connections,
/// separable_input_first, NCA, at its load): the fast paths' tests run it as shipped.
pub(super) const FATTREE_CONFIG: &[(&str, &str)] = &[
    ("topology", "fattree"),
    ("k", "4"),
    ("n", "3"),
    ("routing_function", "nca"),
    ("hold_switch_for_packet", "1"),
    ("vc_allocator", "separable_input_first"),
    ("sw_allocator", "separable_input_first"),
    ("num_vcs", "4"),
    ("vc_buf_size", "16"),
    ("credit_delay", "2"),
    ("routing_delay", "0"),
    ("injection_rate", "0.6"),
    ("injection_rate_uses_flits", "1"),
];

fn cfg(pairs: &[(&str, &str)]) -> FlitConfig {
    FlitConfig::from_pairs(pairs.iter().copied()).unwrap()
}

/// Sends one packet through an otherwise empty network and returns its latency (creation
/// to tail arrival) and hop count.
fn one_packet(topo: &Topology, c: &FlitConfig, src: usize, dst: usize, size: u16) -> (u64, u64) {
    let mut c = c.clone();
    c.injection_rate = 0.0;
    let mut sim = Sim::new(topo, &c).unwrap();
    sim.net.measuring = true;
    sim.net.create_packet(src, dst, size);
    while sim.net.measured_outstanding > 0 {
        sim.net.step();
        assert!(sim.net.now < 10_000, "packet never arrived");
    }
    let w = &sim.net.measured;
    assert_eq!(w.packets, 1);
    (w.packet.max(), w.hops)
}

/// The zero-load latency of the model: the injection channel, then per router the routing,
/// VC-allocation (overlapped with SA when speculative), switch-allocation and traversal
/// stages, a channel per hop, the ejection channel, and one cycle per further flit.
fn zero_load(c: &FlitConfig, hops: u64, size: u64) -> u64 {
    let va = if c.speculative { 0 } else { c.vc_alloc_delay };
    let router = (c.routing_delay + va + c.sw_alloc_delay + c.st_final_delay) as u64;
    c.injection_latency as u64
        + (hops + 1) * router
        + hops * c.channel_latency as u64
        + c.ejection_latency as u64
        + c.ni_read_delay as u64
        + (size - 1)
}

#[test]
fn zero_load_latency_under_the_default_pipeline() {
    let topo = Topology::from_spec("mesh:4x4").unwrap();
    let c = FlitConfig::default();
    // 0 -> 15 is 6 hops: 1 + 7*4 + 6*1 + 1 + 1 = 37 cycles for one flit, 15 more for 16
    // flits. BookSim 2 prints 12 and 17 for one and two hops (5h + 7), as here.
    assert_eq!(one_packet(&topo, &c, 0, 15, 1), (37, 6));
    assert_eq!(one_packet(&topo, &c, 0, 15, 16), (52, 6));
    // A packet to its own node only crosses its router: 1 + 4 + 1 + 1.
    assert_eq!(one_packet(&topo, &c, 5, 5, 1), (7, 0));
    // One hop: 1 + 2*4 + 1 + 1 + 1.
    assert_eq!(one_packet(&topo, &c, 0, 1, 1), (12, 1));
    assert_eq!(one_packet(&topo, &c, 0, 5, 1), (17, 2));
    // Speculative VA/SA saves one cycle per router: 1 + 7*3 + 6 + 1 + 1.
    let spec = cfg(&[("speculative", "1")]);
    assert_eq!(one_packet(&topo, &spec, 0, 15, 1), (30, 6));
    // Virtual cut-through does not change zero-load latency.
    let vct = cfg(&[("flow_control", "vct"), ("packet_size", "8")]);
    assert_eq!(one_packet(&topo, &vct, 0, 15, 8), (44, 6));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]
    #[test]
    fn zero_load_latency_matches_the_formula(
        torus in any::<bool>(), k in 2usize..6, src in 0usize..36, dst in 0usize..36,
        rd in 0u32..3, va in 0u32..3, sa in 0u32..3, st in 0u32..3, link in 1u32..4,
        size in 1u16..20, spec in any::<bool>(),
    ) {
        let spec_s = if torus { format!("torus:{k}x{k}") } else { format!("mesh:{k}x{k}") };
        let topo = Topology::from_spec(&spec_s).unwrap();
        let (src, dst) = (src % (k * k), dst % (k * k));
        let (rd, va, sa, st, link, size_s) = (rd.to_string(), va.to_string(), sa.to_string(),
            st.to_string(), link.to_string(), size.to_string());
        let c = cfg(&[("routing_delay", &rd), ("vc_alloc_delay", &va), ("sw_alloc_delay", &sa),
            ("st_final_delay", &st), ("channel_latency", &link), ("packet_size", &size_s),
            ("speculative", if spec { "1" } else { "0" })]);
        let hops = Routing::new(&topo, RoutingKind::Dor, None).unwrap()
            .route(&topo, src, dst).len() as u64;
        // Long packets stall on credits when the buffer round trip exceeds its depth; keep
        // the buffer deep enough for the formula to hold.
        let mut c = c;
        c.vc_buf_size = 64;
        let (lat, h) = one_packet(&topo, &c, src, dst, size);
        prop_assert_eq!(h, hops);
        prop_assert_eq!(lat, zero_load(&c, hops, size as u64));
    }
}

#[test]
fn same_seed_same_result_and_seeds_matter() {
    let topo = Topology::from_spec("mesh:4x4").unwrap();
    let c = cfg(&[
        ("injection_rate", "0.2"),
        ("sample_period", "300"),
        ("seed", "3"),
    ]);
    let a = simulate_on(&topo, &c).unwrap();
    let b = simulate_on(&topo, &c).unwrap();
    assert_eq!(a, b);
    let mut c2 = c.clone();
    c2.seed = 4;
    assert_ne!(a, simulate_on(&topo, &c2).unwrap());
}

#[test]
fn batch_mode_delivers_every_packet_once_at_its_destination() {
    for (spec, extra) in [
        ("mesh:4x4", vec![]),
        (
            "torus:4x4",
            vec![("flow_control", "vct"), ("packet_size", "4")],
        ),
        ("mesh:3x5", vec![("packet_size", "5"), ("num_vcs", "1")]),
        (
            "irregular:switches=8,ports=6,nodes=12,conn=0.75,seed=2",
            vec![("routing_function", "updown"), ("packet_size", "3")],
        ),
    ] {
        let topo = Topology::from_spec(spec).unwrap();
        let mut pairs = vec![
            ("sim_type", "batch"),
            ("batch_size", "40"),
            ("injection_rate", "0.5"),
        ];
        pairs.extend(extra);
        let r = simulate_on(&topo, &cfg(&pairs)).unwrap();
        let n = topo.num_endpoints() as u64;
        assert!(r.deadlock.is_none(), "{spec}: {:?}", r.deadlock);
        assert_eq!(r.packets_generated, 40 * n, "{spec}");
        assert_eq!(r.packets_delivered, 40 * n, "{spec}");
        assert_eq!(r.packets_measured, 40 * n, "{spec}");
        assert_eq!(r.misdelivered, 0, "{spec}");
        assert!(r.cycles > 40, "{spec}");
    }
}

#[test]
fn latency_mode_is_stable_at_low_load_and_unstable_past_saturation() {
    let topo = Topology::from_spec("mesh:8x8").unwrap();
    let low = simulate_on(&topo, &cfg(&[("injection_rate", "0.05")])).unwrap();
    assert!(!low.unstable, "{:?}", low.unstable_reason);
    // Uniform traffic on an 8x8 mesh: 5.25 hops on average (self pairs included), so the
    // mean packet latency sits a little above the zero-load 5*5.25 + 7 = 33.25.
    assert!((low.avg_hops - 5.25).abs() < 0.3, "hops {}", low.avg_hops);
    assert!(low.avg_packet_latency > 32.0 && low.avg_packet_latency < 37.0);
    assert!((low.accepted_rate - 0.05).abs() < 0.01);
    let high = simulate_on(&topo, &cfg(&[("injection_rate", "0.9")])).unwrap();
    assert!(high.unstable);
    assert!(high.deadlock.is_none());
}

/// A run stopped while draining (latency past `latency_thres`) reports the measurement
/// window's accepted rate: the drain's flits once made a saturated 8x8 mesh accept 0.9
/// flits/cycle/node, above the 0.5 its bisection allows under uniform traffic.
#[test]
fn a_run_stopped_while_draining_reports_the_windows_accepted_rate() {
    let topo = Topology::from_spec("mesh:8x8").unwrap();
    let pairs = [
        ("injection_rate", "0.8"),
        ("injection_rate_uses_flits", "1"),
        ("packet_size", "4"),
        ("sample_period", "100"),
        ("warmup_periods", "1"),
    ];
    let r = simulate_on(&topo, &cfg(&pairs)).unwrap();
    assert!(r.unstable);
    assert!(r.accepted_rate <= 0.5, "accepted {}", r.accepted_rate);
    assert!(r.accepted_rate > 0.3, "accepted {}", r.accepted_rate);
}

/// A 4x4 torus flooded with 8-flit packets into 2-flit buffers: with one VC and no
/// datelines it deadlocks.
pub(super) const HEAVY_TORUS: &[(&str, &str)] = &[
    ("topology", "torus"),
    // One-cycle channels (the pinned deadlock; BookSim's 2-cycle torus channels are
    // tested in tests_booksim.rs).
    ("use_noc_latency", "0"),
    ("sim_type", "batch"),
    ("batch_size", "200"),
    ("injection_rate", "1"),
    ("packet_size", "8"),
    ("vc_buf_size", "2"),
    ("deadlock_cycles", "200"),
];

#[test]
fn torus_dor_with_one_vc_and_no_dateline_deadlocks_and_two_vcs_do_not() {
    let topo = Topology::from_spec("torus:4x4").unwrap();
    let heavy = HEAVY_TORUS;
    let mut bad = cfg(heavy);
    bad.num_vcs = 1;
    bad.dateline = false;
    let r = simulate_on(&topo, &bad).unwrap();
    let d = r.deadlock.expect("1 VC without datelines must deadlock");
    assert!(!d.wait_cycle.is_empty());
    assert!(d.flits_in_flight > 0);
    assert!(d.cycle > d.last_move + 200);
    // The cycle closes: each link waits on the router its output leads to.
    let mut good = cfg(heavy);
    good.num_vcs = 2;
    let r = simulate_on(&topo, &good).unwrap();
    assert!(r.deadlock.is_none());
    assert_eq!(r.packets_delivered, 16 * 200);
    // One VC with datelines on is refused with a clear message.
    let mut one = cfg(heavy);
    one.num_vcs = 1;
    let e = simulate_on(&topo, &one).unwrap_err().to_string();
    assert!(e.contains("num_vcs >= 2"), "{e}");
}

#[test]
fn the_cycle_limit_stops_a_run() {
    let topo = Topology::from_spec("mesh:4x4").unwrap();
    // A batch the nodes offer in 400 cycles, but uniform traffic at rate 1 saturates the
    // mesh, so draining it takes longer than max_cycles.
    let c = cfg(&[
        ("sim_type", "batch"),
        ("batch_size", "400"),
        ("injection_rate", "1"),
        ("max_cycles", "500"),
    ]);
    let r = simulate_on(&topo, &c).unwrap();
    assert!(r.unstable);
    assert_eq!(r.cycles, 500);
    // A batch that cannot even be offered within max_cycles is refused up front.
    let long = cfg(&[
        ("sim_type", "batch"),
        ("batch_size", "100000"),
        ("max_cycles", "500"),
    ]);
    let e = simulate_on(&topo, &long).unwrap_err().to_string();
    assert!(e.contains("more than max_cycles = 500"), "{e}");
}

#[test]
fn fixed_runs_measure_the_window() {
    let topo = Topology::from_spec("mesh:4x4").unwrap();
    let c = cfg(&[
        ("sim_type", "fixed"),
        ("warmup_cycles", "200"),
        ("sim_cycles", "2000"),
        ("injection_rate", "0.1"),
    ]);
    let r = simulate_on(&topo, &c).unwrap();
    assert_eq!(r.cycles, 2200);
    assert_eq!(r.measured_cycles, 2000);
    assert!((r.accepted_rate - 0.1).abs() < 0.02, "{}", r.accepted_rate);
    assert_eq!(r.sim_type, SimType::Fixed);
}

#[test]
fn bad_keys_and_values_are_one_line_errors() {
    let mut c = FlitConfig::default();
    let e = c.set("warp_speed", "9").unwrap_err().to_string();
    assert!(e.starts_with("unsupported key 'warp_speed'") && !e.contains('\n'));
    assert!(c.set("num_vcs", "four").is_err());
    assert!(c.set("traffic", "tornadoo").is_err());
    c.set("traffic", "hotspot({0,3})").unwrap();
    for (key, bad) in [
        ("vc_allocator", "wavefrnt"),
        ("sw_allocator", "pimm"),
        ("sw_allocator", "greedy"),
        ("torus_routing", "valiant"),
        ("alloc_iters", "0"),
        ("alloc_iters", "-1"),
    ] {
        let e = c.set(key, bad).unwrap_err().to_string();
        assert!(e.contains(key) && !e.contains('\n'), "{e}");
    }
    let e = c.set("vc_allocator", "wavefrnt").unwrap_err().to_string();
    assert!(e.contains("did you mean wavefront?"), "{e}");
    let e = c.set("alloc_iters", "0").unwrap_err().to_string();
    assert!(e.contains("out of range") && e.contains("1 to 1024"), "{e}");
    for (key, bad) in [
        ("vc_allocator", "islip(0)"),
        ("sw_allocator", "separable_input_first(matrix)"),
        ("vc_allocator", "max_size(2)"),
    ] {
        let e = c.set(key, bad).unwrap_err().to_string();
        assert!(e.contains(key) && !e.contains('\n'), "{e}");
    }
    c.set("sw_allocator", "pim(3)").unwrap();
    assert_eq!((c.sw_iters(), c.vc_iters()), (3, 1));
    c.set("sw_allocator", "separable_input_first(round_robin)")
        .unwrap();
    assert_eq!(c.sw_iters(), 1);
    for (key, good) in [
        ("alloc_iters", "3"),
        ("vc_allocator", "max_size"),
        ("sw_allocator", "wavefront"),
        ("vc_allocator", "greedy"),
        ("sw_allocator", "separable_input_first"),
        ("torus_routing", "dateline"),
    ] {
        c.set(key, good).unwrap();
    }
    assert_eq!(c.vc_allocator, super::config::VcAllocator::Greedy);
    assert_eq!(c.alloc_iters, 3);
    c.injection_rate = 2.0;
    assert!(c.validate().is_err());
}

mod schedules {
    use super::super::{parse_settings, run_schedule};
    use crate::schedule::{CollectiveKind, ScheduleBuilder};
    use crate::topology::Topology;

    /// Broadcast 0 -> 1 -> 3 on a 2x2 mesh, one 16-byte block (one flit) per message.
    fn relay(bytes: u64) -> crate::schedule::Schedule {
        let mut b = ScheduleBuilder::new(CollectiveKind::Broadcast, 4, 0).packetization(bytes, 0);
        let data = b.block(0, 0);
        let s1 = b.send(0, &[1, 2], std::slice::from_ref(&data), &[]);
        let r1 = b.recv(1, s1, &[]);
        b.recv(2, s1, &[]);
        let s2 = b.send(1, &[3], &[data], &[r1]);
        b.recv(3, s2, &[]);
        b.build().unwrap()
    }

    #[test]
    fn a_relayed_broadcast_takes_two_one_hop_latencies_plus_overheads() {
        let topo = Topology::from_spec("mesh:2x2").unwrap();
        let (cfg, par) = parse_settings([]).unwrap();
        let r = run_schedule(&topo, &relay(16), &cfg, &par).unwrap();
        // One hop at zero load is 12 cycles; the multi-send's second copy (to rank 2) leaves
        // the NI a cycle after the first, so rank 1 hears at 12 and rank 3 at 24.
        assert!(r.verified);
        assert_eq!(r.cycles, 24);
        assert_eq!(r.packets, 3);
        // Overheads: send t_hs + t_ns, receive t_nr + t_hr, on both legs.
        let (cfg, par) =
            parse_settings([("t_hs", "2"), ("t_ns", "3"), ("t_nr", "4"), ("t_hr", "5")]).unwrap();
        let r = run_schedule(&topo, &relay(16), &cfg, &par).unwrap();
        assert_eq!(r.cycles, 2 * (12 + 14));
        // 64-byte blocks are 4-flit packets: 3 more cycles per leg.
        let (cfg, par) = parse_settings([]).unwrap();
        let r = run_schedule(&topo, &relay(64), &cfg, &par).unwrap();
        assert_eq!(r.cycles, 2 * 15);
        assert!(r.deadlock.is_none());
    }

    #[test]
    fn an_xor_costs_its_compute_delay() {
        let topo = Topology::from_spec("mesh:2x2").unwrap();
        let mut b =
            ScheduleBuilder::new(CollectiveKind::AlltoallBroadcast, 2, 0).packetization(32, 0);
        let (a, c) = (b.block(0, 0), b.block(1, 0));
        let s0 = b.send(0, &[1], std::slice::from_ref(&a), &[]);
        let s1 = b.send(1, &[0], std::slice::from_ref(&c), &[]);
        let r0 = b.recv(0, s1, &[]);
        let r1 = b.recv(1, s0, &[]);
        b.xor(0, &[a.clone(), c.clone()], &[r0]);
        b.xor(1, &[a, c], &[r1]);
        let s = b.build().unwrap();
        let (cfg, par) =
            parse_settings([("compute_base", "3"), ("compute_per_flit", "2")]).unwrap();
        let r = run_schedule(&topo, &s, &cfg, &par).unwrap();
        // Two-flit packets, one hop: 13 cycles; the XOR of one 32-byte piece: 3 + 2 * 2.
        assert_eq!(r.cycles, 13 + 7);
        assert!(parse_settings([("t_hs", "x")]).is_err());
    }
}

#[test]
fn registries_refuse_unknown_names_with_the_nearest() {
    let mut c = FlitConfig::default();
    for (key, bad, near) in [
        ("routing_function", "dim_ordr_torus", "dim_order_torus"),
        ("vc_allocator", "islp", "islip"),
        (
            "sw_allocator",
            "separable_input_frist",
            "separable_input_first",
        ),
        ("traffic", "transpos", "transpose"),
        ("routng_function", "dor", "routing_function"),
    ] {
        let e = c.set(key, bad).unwrap_err().to_string();
        assert!(e.contains(&format!("did you mean {near}?")), "{e}");
        assert!(!e.contains('\n'), "{e}");
    }
    // BookSim's names and the aliases reach the same entries.
    c.set("routing_function", "dim_order_mesh").unwrap();
    assert_eq!(c.routing, RoutingKind::Dor);
    c.set("routing_function", "up_down").unwrap();
    assert_eq!(c.routing, RoutingKind::UpDown);
    c.set("vc_allocator", "separable_input_first").unwrap();
    assert_eq!(c.vc_allocator, VcAllocator::SeparableInputFirst);
    c.set("traffic", "neighbour").unwrap();
    assert_eq!(c.traffic, Pattern::Neighbor(Default::default()));
    c.set("traffic", "hotspot({{1, 2}})").unwrap();
    let (nodes, rates) = (vec![1, 2], vec![1, 1]);
    assert_eq!(c.traffic, Pattern::Hotspot { nodes, rates });
    assert!(c.set("traffic", "hotspot({{1,x}})").is_err());
    assert!(c.set("traffic", "uniform(3)").is_err());
    assert_eq!(
        super::routing_registry::ROUTING_FUNCTIONS.name_of(RoutingKind::Shortest),
        Some("min")
    );
}
