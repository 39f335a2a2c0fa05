//! Tests of the multicast load with software overheads (engines/flit/mcload.rs, planned by plan/multicast_load.rs): the same plans as the
//! single-multicast runs, recipients shared between concurrent multicasts, determinism,
//! exactly-once delivery, and one-line errors.

use super::{plan_load, simulate_traffic_with};
use crate::algorithms::{build, AlgoRequest};
use crate::engines::flit::{parse_settings, run_schedule, FlitConfig, ScheduleParams};
use crate::schedule::CollectiveKind;
use crate::topology::Topology;
use proptest::prelude::*;

/// Seed 003 s6.2's network and NI (as python/netcoll/reproduce/irregular.py), with the
/// overheads given.
fn s62(t_hs: u64, t_ns: u64, extra: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = [
        ("routing_function", "updown"),
        ("num_vcs", "1"),
        ("vc_buf_size", "640"),
        ("routing_delay", "1"),
        ("vc_alloc_delay", "0"),
        ("sw_alloc_delay", "0"),
        ("st_final_delay", "1"),
        ("channel_latency", "1"),
        ("ni_read_delay", "0"),
        ("flit_bytes", "1"),
        ("unicast_header_bits", "8"),
        ("io_bus_mb_s", "266"),
        ("cycle_ps", "5000"),
        ("ni_serial", "1"),
        ("traffic", "multicast"),
        ("packet_size", "128"),
        ("latency_thres", "-1"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    for (k, x) in [
        ("t_hs", t_hs),
        ("t_ns", t_ns),
        ("t_hr", t_hs),
        ("t_nr", t_ns),
    ] {
        v.push((k.into(), x.to_string()));
    }
    v.extend(extra.iter().map(|(k, x)| (k.to_string(), x.to_string())));
    v
}

fn settings(pairs: &[(String, String)]) -> (FlitConfig, ScheduleParams) {
    parse_settings(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str()))).unwrap()
}

const SCHEMES: [&str; 3] = ["ni-kbinomial", "worm-path", "worm-tree"];

/// The single-multicast run of `algo` (irregular.py's way): its execution time.
fn single(topo: &Topology, algo: &str, src: u32, dests: &[u32], pairs: &[(String, String)]) -> u64 {
    let (cfg, mut par) = settings(pairs);
    par.ni_fpfs = u64::from(algo == "ni-kbinomial");
    let mut req = AlgoRequest::new(topo, CollectiveKind::Multicast);
    req.root = src;
    req.targets = dests.to_vec();
    req.packets = cfg.multicast_packets;
    req.bytes = cfg.packet_size as u64 * cfg.multicast_packets as u64;
    let s = build(algo, &req).unwrap();
    run_schedule(topo, &s, &cfg, &par).unwrap().cycles
}

/// One multicast started at `t0` on an otherwise idle load run: its latency.
fn loaded(topo: &Topology, src: u32, dests: &[u32], t0: u64, pairs: &[(String, String)]) -> u64 {
    let (cfg, par) = settings(pairs);
    let mut run = plan_load(topo, &cfg, &par).unwrap();
    run.net.now = t0;
    run.start_to(src as usize, dests, true).unwrap();
    let r = run.run_multicasts(10_000_000).unwrap();
    assert_eq!((r.created, r.completed, r.duplicate_copies), (1, 1, 0));
    r.latency.max
}

#[test]
fn one_multicast_under_the_load_runner_takes_exactly_the_single_run_cycles() {
    let topo =
        Topology::from_spec("irregular:switches=8,ports=8,nodes=32,conn=0.8,seed=1").unwrap();
    let dests = [3u32, 9, 14, 17, 20, 25, 30];
    for algo in SCHEMES {
        for (t_hs, t_ns, packets) in [(1000, 1000, "1"), (1000, 200, "1"), (1000, 500, "4")] {
            let mut extra = vec![
                ("multicast_dests", "7"),
                ("multicast_scheme", algo),
                ("multicast_packets", packets),
            ];
            extra.push(("injection_rate", "0"));
            if packets == "4" {
                // Step barriers and per-step VCs apply per multicast as in the single run.
                extra.extend([("sync_steps", "1"), ("vc_per_step", "1"), ("num_vcs", "2")]);
            }
            let pairs = s62(t_hs, t_ns, &extra);
            let want = single(&topo, algo, 5, &dests, &pairs);
            for t0 in [0, 12_345] {
                assert_eq!(
                    loaded(&topo, 5, &dests, t0, &pairs),
                    want,
                    "{algo} t_ns={t_ns} packets={packets} at {t0}"
                );
            }
        }
    }
}

#[test]
fn two_multicasts_to_one_recipient_take_turns_at_its_ni_and_host() {
    // 1-way multicasts (one tree worm each) from 0 and 31 to 12 at the same cycle. Without
    // I/O bus time: t_hs + t_ns, the network, then t_nr at 12's NI and t_hr at its host. The
    // second packet waits for the NI's receiving side (t_nr), then for the host, busy with
    // the first message until t_nr + t_hr after the first arrival: it finishes t_hr later.
    let topo =
        Topology::from_spec("irregular:switches=8,ports=8,nodes=32,conn=0.8,seed=1").unwrap();
    let extra = [
        ("multicast_dests", "1"),
        ("multicast_scheme", "worm-tree"),
        ("injection_rate", "0"),
        ("packet_size", "8"),
        ("io_bus_mb_s", "0"),
        ("t_hr", "1000"),
        ("t_nr", "500"),
    ];
    let pairs = s62(100, 50, &extra);
    let a = single(&topo, "worm-tree", 0, &[12], &pairs);
    let b = single(&topo, "worm-tree", 31, &[12], &pairs);
    let c = single(&topo, "worm-tree", 31, &[13], &pairs);
    let (cfg, par) = settings(&pairs);
    let both = |d2: u32| {
        let mut run = plan_load(&topo, &cfg, &par).unwrap();
        run.start_to(0, &[12], true).unwrap();
        run.start_to(31, &[d2], true).unwrap();
        let r = run.run_multicasts(1_000_000).unwrap();
        (r.latency.p50, r.latency.max)
    };
    // Packet flits and hops are tiny beside t_nr, so the arrivals are within t_nr.
    assert!(a.abs_diff(b) < 500, "{a} {b}");
    assert_eq!(both(12), (a.min(b), a.min(b) + 1000));
    // To different recipients only links may be shared: at most a few packet times (9
    // flits each) on top of the single-run times, nothing like t_hr.
    let (lo, hi) = both(13);
    assert!(lo >= a.min(c) && lo <= a.min(c) + 30, "{lo} vs {a} {c}");
    assert!(hi >= a.max(c) && hi <= a.max(c) + 30, "{hi} vs {a} {c}");
}

#[test]
fn load_runs_are_deterministic_and_the_seed_matters() {
    let topo = "irregular:switches=8,ports=8,nodes=32,conn=0.8,seed=2";
    let run = |scheme: &str, seed: &str| {
        let pairs = s62(
            1000,
            500,
            &[
                ("topology", "netcoll"),
                ("netcoll_topology", topo),
                ("multicast_dests", "3"),
                ("multicast_scheme", scheme),
                ("injection_rate", "0.05"),
                ("injection_rate_uses_flits", "1"),
                ("warmup_cycles", "5000"),
                ("sim_cycles", "30000"),
                ("latency_thres", "-1"),
                ("seed", seed),
            ],
        );
        let (cfg, par) = settings(&pairs);
        simulate_traffic_with(&cfg, &par).unwrap()
    };
    for scheme in SCHEMES {
        let a = run(scheme, "7");
        assert_eq!(a, run(scheme, "7"), "{scheme}");
        let mc = a.multicast.as_ref().unwrap();
        assert!(mc.latency.count > 5 && mc.duplicate_copies == 0, "{scheme}");
        assert_ne!(a, run(scheme, "8"), "{scheme}");
    }
}

#[test]
fn bad_keys_and_values_fail_with_one_line() {
    let net = [
        ("topology", "netcoll"),
        (
            "netcoll_topology",
            "irregular:switches=4,ports=8,nodes=16,seed=1",
        ),
        ("routing_function", "updown"),
        ("traffic", "multicast"),
    ];
    let cases: &[&[(&str, &str)]] = &[
        &[("multicast_scheme", "ni")],
        &[("multicast_scheme", "bogus")],
        &[("multicast_scheme", "tree"), ("t_hs", "100")],
        &[("multicast_scheme", "worm-path"), ("ni_fpfs", "1")],
        &[
            ("multicast_scheme", "worm-tree"),
            ("multicast_packets", "0"),
        ],
        &[("multicast_scheme", "unicast"), ("multicast_packets", "2")],
        &[("multicast_scheme", "worm-tree"), ("multicast_dests", "16")],
        &[("multicast_scheme", "worm-tree"), ("t_hs", "lots")],
        &[("traffic", "uniform"), ("multicast_scheme", "ni-kbinomial")],
    ];
    for (i, extra) in cases.iter().enumerate() {
        let out = parse_settings(net.iter().chain(extra.iter()).copied())
            .and_then(|(cfg, par)| simulate_traffic_with(&cfg, &par));
        if i == 0 {
            // `ni` stays the network-level unicast scheme's alias.
            assert!(out.is_ok());
            continue;
        }
        let e = out
            .err()
            .unwrap_or_else(|| panic!("{extra:?} should fail"))
            .to_string();
        assert!(!e.contains('\n') && e.len() < 300, "{extra:?}: {e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn every_destination_receives_every_packet_once(
        seed in 0u64..1000,
        shape in 0usize..2,
        m in 1usize..16,
        scheme in 0usize..3,
        packets in 1u32..3,
        load in 0.02f64..0.2,
    ) {
        let (s, p, n) = [(8, 8, 32), (4, 16, 32)][shape];
        let spec = format!("irregular:switches={s},ports={p},nodes={n},conn=0.8,seed={seed}");
        let topo = Topology::from_spec(&spec).unwrap();
        let (m_s, pk_s, load_s, seed_s) =
            (m.to_string(), packets.to_string(), load.to_string(), seed.to_string());
        let pairs = s62(200, 100, &[
            ("multicast_dests", &m_s),
            ("multicast_scheme", SCHEMES[scheme]),
            ("multicast_packets", &pk_s),
            ("packet_size", "16"),
            ("injection_rate", &load_s),
            ("injection_rate_uses_flits", "1"),
            ("seed", &seed_s),
        ]);
        let (cfg, par) = settings(&pairs);
        let mut run = plan_load(&topo, &cfg, &par).unwrap();
        // Load for 20000 cycles, then stop creating multicasts and drain.
        let mid = run.run_multicasts_for(20_000).unwrap();
        prop_assert!(mid.created > 0);
        let r = run.run_multicasts(10_000_000).unwrap();
        prop_assert_eq!(r.completed, r.created);
        prop_assert_eq!(r.duplicate_copies, 0);
        prop_assert_eq!(r.copies_delivered, r.created * m as u64 * packets as u64);
        prop_assert_eq!(run.net.misdelivered, 0);
        prop_assert_eq!(run.net.rep.in_use(), 0);
    }
}
