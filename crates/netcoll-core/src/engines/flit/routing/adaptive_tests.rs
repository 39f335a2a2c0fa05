//! The adaptive routings of adaptive.rs and the per-class channel latencies of
//! link_latency.rs, run through the engine: every packet arrives, the phases take their
//! detours, the queue-driven choice reacts to load, bad combinations are refused.

use super::{simulate_traffic, FlitConfig, FlitResult};

fn run(pairs: &[(&str, &str)]) -> crate::error::Result<FlitResult> {
    let mut c = FlitConfig::default();
    for (k, v) in [("sample_period", "500"), ("warmup_periods", "1")]
        .iter()
        .chain(pairs)
    {
        c.set(k, v)?;
    }
    simulate_traffic(&c)
}

/// BookSim's flatflyconfig (k = 4, n = 2, c = 4 on a 4x4 floor plan, its router delays)
/// with `routing`.
fn flatfly(routing: &str, rate: &str) -> FlitResult {
    run(&[
        ("credit_delay", "2"),
        ("routing_delay", "0"),
        ("warmup_periods", "3"),
        ("sample_period", "1000"),
        ("topology", "flatfly"),
        ("k", "4"),
        ("n", "2"),
        ("c", "4"),
        ("x", "4"),
        ("y", "4"),
        ("xr", "2"),
        ("yr", "2"),
        ("num_vcs", "8"),
        ("vc_buf_size", "4"),
        ("routing_function", routing),
        ("injection_rate", rate),
    ])
    .unwrap()
}

#[test]
fn flatfly_valiant_detours_ugal_stays_near_minimal_at_low_load() {
    let min = flatfly("ran_min", "0.1");
    let ugal = flatfly("ugal", "0.1");
    let val = flatfly("valiant", "0.1");
    for r in [&min, &ugal, &val] {
        assert!(!r.unstable && r.deadlock.is_none() && r.misdelivered == 0);
    }
    // Valiant goes through a random router: about one hop more; UGAL at 10% load mostly
    // minimal (BookSim: 2.58 and 3.74 routers against ran_min's 2.50).
    assert!(
        val.avg_hops > min.avg_hops + 0.8,
        "{} {}",
        val.avg_hops,
        min.avg_hops
    );
    assert!(ugal.avg_hops > min.avg_hops && ugal.avg_hops < min.avg_hops + 0.3);
    // The floor plan's channel lengths: BookSim's 15.60 cycles for ran_min (unit channels
    // gave 12.15).
    assert!(
        (min.avg_packet_latency - 15.6).abs() < 0.5,
        "{}",
        min.avg_packet_latency
    );
}

#[test]
fn ugal_reads_the_queues() {
    // On an idle network the minimal output is empty and UGAL stays minimal; at 10% load a
    // minimal output holding flits while the Valiant one is empty sends some packets round.
    let min = flatfly("ran_min", "0.005");
    let idle = flatfly("ugal", "0.005");
    let busy = flatfly("ugal", "0.1");
    assert!(
        (idle.avg_hops - min.avg_hops).abs() < 0.02,
        "{} {}",
        idle.avg_hops,
        min.avg_hops
    );
    assert!(
        busy.avg_hops > min.avg_hops + 0.03,
        "{} {}",
        busy.avg_hops,
        min.avg_hops
    );
}

fn dragonfly(routing: &str, vcs: &str) -> crate::error::Result<FlitResult> {
    run(&[
        ("topology", "dragonflynew"),
        ("k", "2"),
        ("n", "1"),
        ("num_vcs", vcs),
        ("vc_buf_size", "256"),
        ("routing_function", routing),
        ("injection_rate", "0.05"),
    ])
}

#[test]
fn dragonfly_ugal_and_valiant_deliver_with_three_phase_classes() {
    let min = dragonfly("min", "2").unwrap();
    let ugal = dragonfly("ugal", "3").unwrap();
    let val = dragonfly("valiant", "3").unwrap();
    for r in [&min, &ugal, &val] {
        assert!(!r.unstable && r.deadlock.is_none() && r.misdelivered == 0);
    }
    // Minimal: local 10, global 100, local 10 cycles of channel at most (DRAGON_LATENCY).
    assert!(min.avg_packet_latency > 100.0 && min.avg_packet_latency < 140.0);
    // Valiant crosses two global links when its intermediate group is another one.
    assert!(val.avg_packet_latency > min.avg_packet_latency + 60.0);
    assert!((ugal.avg_hops - min.avg_hops).abs() < 0.2);
    let e = dragonfly("ugal", "2").unwrap_err().to_string();
    assert!(e.contains("num_vcs >= 3"), "{e}");
    let e = dragonfly("ugal-g", "3").unwrap_err().to_string();
    assert!(e.contains("ugal-g"), "{e}");
}

/// BookSim's runfiles/dragonflyconfig (iSLIP x4, internal speedup 1.7, 3 VCs of 256 flits,
/// 1-flit packets, channels of 10 and 100 cycles) on the k = 2 dragonfly (72 nodes).
fn booksim_dragonfly(routing: &str, rate: &str) -> FlitResult {
    run(&[
        ("topology", "dragonflynew"),
        ("k", "2"),
        ("n", "1"),
        ("num_vcs", "3"),
        ("vc_buf_size", "256"),
        ("wait_for_tail_credit", "0"),
        ("vc_allocator", "islip"),
        ("sw_allocator", "islip"),
        ("alloc_iters", "4"),
        ("credit_delay", "2"),
        ("routing_delay", "0"),
        ("internal_speedup", "1.7"),
        ("warmup_periods", "3"),
        ("sample_period", "1000"),
        ("packet_size", "1"),
        ("routing_function", routing),
        ("injection_rate", rate),
    ])
    .unwrap()
}

#[test]
fn dragonfly_phases_take_one_vc_each_ejection_included() {
    // BookSim's dragonfly routings put phase c on VC c (`out_vc = f->ph`) and eject on it:
    // a minimal packet has VC 1 alone on its global link and its ejection channel, each
    // taking a packet per two router cycles. BookSim 2 (28f4329) on this configuration:
    // min 144.1 cycles at 0.7, ugal 137.0 at 0.5. Three VCs split evenly and ejection on
    // any VC gave 115.6 and 135.2 (-20% and -1.3%).
    for (routing, rate, booksim) in [("min", "0.7", 144.116), ("ugal", "0.5", 136.967)] {
        let r = booksim_dragonfly(routing, rate);
        assert!(!r.unstable && r.misdelivered == 0, "{routing}");
        let diff = r.avg_packet_latency / booksim - 1.0;
        assert!(
            diff.abs() < 0.03,
            "{routing} at {rate}: {} {diff}",
            r.avg_packet_latency
        );
    }
}

#[test]
fn dragonfly_classes_are_single_vcs_and_other_families_share() {
    use crate::topology::Topology;
    let classes = |spec: &str, routing: &str, vcs: &str| {
        let topo = Topology::from_spec(spec).unwrap();
        let mut c = FlitConfig::default();
        c.set("routing_function", routing).unwrap();
        c.set("num_vcs", vcs).unwrap();
        let net = super::network::Network::new(&topo, &c).unwrap();
        (net.class_lo.clone(), net.class_hi.clone())
    };
    let df = "dragonfly:p=2,a=4,h=2";
    // BookSim's min_dragonflynew uses VCs 0 and 1 whatever num_vcs is (more VCs serve
    // injection only); UGAL its three.
    assert_eq!(classes(df, "min", "3"), (vec![0, 1], vec![1, 2]));
    assert_eq!(classes(df, "min", "8"), (vec![0, 1], vec![1, 2]));
    assert_eq!(classes(df, "ugal", "4"), (vec![0, 1, 2], vec![1, 2, 3]));
    // The flatfly's UGAL halves stay halves.
    let ff = classes("flatfly:k=4,n=2,c=4", "ugal", "8");
    assert_eq!(ff, (vec![0, 4], vec![4, 8]));
}

#[test]
fn fat_tree_nca_spreads_over_up_ports_per_packet() {
    let ft = |routing: &str, seed: &str| {
        run(&[
            ("topology", "fattree"),
            ("k", "4"),
            ("n", "3"),
            ("num_vcs", "4"),
            ("vc_buf_size", "16"),
            ("routing_function", routing),
            ("injection_rate", "0.6"),
            ("seed", seed),
        ])
        .unwrap()
    };
    // A per-packet draw carries 0.6 flits per node (BookSim: 0.60); the per-destination
    // hash saturated at 0.40.
    let nca = ft("nca", "0");
    assert!(!nca.unstable && (nca.accepted_rate - 0.6).abs() < 0.02);
    let anca = ft("anca", "0");
    assert!(!anca.unstable);
    assert_eq!(ft("nca", "0").avg_packet_latency, nca.avg_packet_latency);
    assert_ne!(ft("nca", "7").avg_packet_latency, nca.avg_packet_latency);
}

#[test]
fn channel_classes_set_the_zero_load_latency() {
    let lat = |extra: &[(&str, &str)]| {
        let mut p = vec![
            ("topology", "fattree"),
            ("k", "2"),
            ("n", "3"),
            ("routing_function", "nca"),
            ("injection_rate", "0.001"),
        ];
        p.extend_from_slice(extra);
        run(&p).unwrap()
    };
    let base = lat(&[]);
    let slow = lat(&[("up_latency", "11"), ("down_latency", "21")]);
    // Every route goes up and down the same number of levels (avg_hops counts the
    // router-to-router hops): 10 more cycles per up hop, 20 per down hop.
    let want = base.avg_packet_latency + base.avg_hops / 2.0 * 30.0;
    assert!(
        (slow.avg_packet_latency - want).abs() < 1.0,
        "{} {want}",
        slow.avg_packet_latency
    );
}

/// With lookahead routing (`routing_delay = 0`) BookSim computes the source router's route
/// as the head leaves its NI: dragonfly UGAL reads the source router's credits then, and
/// the head keeps that phase while it queues.
#[test]
fn dragonfly_ugal_chooses_at_the_ni_under_lookahead_routing() {
    use super::adaptive::DECIDED_AT_NI;
    use super::channel::Flit;
    use super::network::Network;
    use crate::topology::Topology;
    let topo = Topology::from_spec("dragonfly:p=2,a=4,h=2").unwrap();
    let net_with = |routing: &str, delay: &str| {
        let mut c = FlitConfig::default();
        for (k, v) in [
            ("routing_function", routing),
            ("num_vcs", "3"),
            ("vc_buf_size", "256"),
            ("routing_delay", delay),
        ] {
            c.set(k, v).unwrap();
        }
        Network::new(&topo, &c).unwrap()
    };
    // Heads from endpoint 0 (router 0, group 0) to endpoint 16 (router 8, group 2).
    let states = |net: &mut Network, n: u32| -> Vec<u8> {
        (0..n)
            .map(|pkt| {
                let mut f = Flit::new(pkt, 16, 0, true, true);
                net.route_at_injection(0, &mut f);
                f.rstate()
            })
            .collect()
    };
    let mut net = net_with("ugal", "0");
    // Idle queues: minimal (phase 1) whatever the intermediate.
    assert!(states(&mut net, 200)
        .iter()
        .all(|&s| s == DECIDED_AT_NI | 1));
    // The minimal output's three VCs full: a head whose intermediate's output is another
    // one goes round (phase 0).
    let (r, to) = (net.ep_switch[0] as usize, net.ep_switch[16] as usize);
    let port = net.routing.next(net.topo, r, to, 0).unwrap().via.port;
    let g = (net.pstart[r] + port) as usize;
    net.credits[g * 3..g * 3 + 3].fill(0);
    let busy = states(&mut net, 200);
    assert!(busy.contains(&DECIDED_AT_NI) && busy.contains(&(DECIDED_AT_NI | 1)));
    // A routing delay routes at the router; minimal routing reads no state.
    for (routing, delay) in [("ugal", "1"), ("min", "0")] {
        let mut net = net_with(routing, delay);
        assert!(states(&mut net, 10).iter().all(|&s| s == 0), "{routing}");
    }
}

/// Every figure of a one-thread fixed run as JSON, with the dragonfly's minimal routing
/// inlined into the VC allocators or by the general call (`FlitAdaptive::inline_min`).
fn min_inline_json(pairs: &[(&str, &str)], inline: bool) -> String {
    super::alloc_tests::fixed_run(pairs, |mut sim| {
        let ad = sim.net.adaptive.as_mut().expect("an adaptive routing");
        assert!(ad.inline_min_hops().is_some(), "the inlined path applies");
        ad.inline_min = inline;
        serde_json::to_string(&sim.simulate()).unwrap()
    })
}

#[test]
fn inlined_dragonfly_min_routing_matches_the_general_call() {
    // The dragonfly runfile's keys (its crossbar: internal speedup 1.7, islip with 4
    // iterations) on small dragonflies, below and past saturation, and the mask router's
    // and the general stages' paths (no speedup, one and two iterations).
    for (k, rate, speedup, iters) in [
        ("2", "0.2", "1.7", "4"),
        ("2", "0.9", "1.7", "4"),
        ("3", "0.4", "1.0", "1"),
        ("3", "0.7", "1.0", "2"),
    ] {
        let case = [
            ("topology", "dragonflynew"),
            ("k", k),
            ("n", "1"),
            ("routing_function", "min"),
            ("internal_speedup", speedup),
            ("vc_allocator", "islip"),
            ("sw_allocator", "islip"),
            ("alloc_iters", iters),
            ("num_vcs", "3"),
            ("vc_buf_size", "16"),
            ("credit_delay", "2"),
            ("routing_delay", "0"),
            ("injection_rate", rate),
        ];
        let a = min_inline_json(&case, true);
        assert!(a.contains("\"flit_hops\""), "{a}");
        assert_eq!(a, min_inline_json(&case, false), "{case:?}");
    }
}
