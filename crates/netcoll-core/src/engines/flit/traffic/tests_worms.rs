//! Switch replication of multidestination worms and the NI model: hand-worked cycle counts
//! on tiny networks, and property tests over random multicasts on random irregular networks.

use super::params::parse_settings;
use super::schedule::{run_schedule, ScheduleResult};
use crate::algorithms::Params;
use crate::algorithms::{build, AlgoRequest};
use crate::schedule::{CollectiveKind, Schedule, ScheduleBuilder, Worm, WormHop};
use crate::topology::{Peer, Topology};
use proptest::prelude::*;

/// Local port of switch `s` leading to `to`.
fn port(t: &Topology, s: usize, to: Peer) -> u32 {
    (0..t.num_ports(s))
        .find(|&p| match (t.peer(s, p), to) {
            (Peer::Endpoint(a), Peer::Endpoint(b)) => a == b,
            (Peer::Switch { switch: a, .. }, Peer::Switch { switch: b, .. }) => a == b,
            _ => false,
        })
        .expect("adjacent") as u32
}

fn sw(s: u32) -> Peer {
    Peer::Switch {
        switch: s,
        port: 0,
        link: 0,
    }
}

/// On a 3x3 mesh, rank 4 (the centre) multicasts one message to 1, 3 and 5: as a worm
/// replicated at switch 4 to its ports towards switches 1, 3, 5 (then ejected there), or
/// (`worm = false`) as an NI multi-send of three unicast copies.
fn centre_multicast(t: &Topology, bytes: u64, worm: bool, header_bits: u32) -> Schedule {
    let mut b = ScheduleBuilder::new(CollectiveKind::Multicast, 9, 4).packetization(bytes, 0);
    let data = b.block(4, 0);
    let dests = [1u32, 3, 5];
    let m = b.message(4, &dests, std::slice::from_ref(&data));
    if worm {
        let mut hops = vec![WormHop {
            switch: 4,
            parent: WormHop::SOURCE,
            in_port: port(t, 4, Peer::Endpoint(4)),
            out_ports: dests.iter().map(|&d| port(t, 4, sw(d))).collect(),
        }];
        hops[0].out_ports.sort();
        let order: Vec<u32> = hops[0]
            .out_ports
            .iter()
            .map(|&p| match t.peer(4, p as usize) {
                Peer::Switch { switch, .. } => switch,
                _ => unreachable!(),
            })
            .collect();
        for &d in &order {
            hops.push(WormHop {
                switch: d,
                parent: 0,
                in_port: port(t, d as usize, sw(4)),
                out_ports: vec![port(t, d as usize, Peer::Endpoint(d))],
            });
        }
        b.set_worm(
            m,
            Worm {
                dests: dests.to_vec(),
                route: std::iter::once(4).chain(order).collect(),
                hops,
                header_bits,
            },
        );
    }
    let s = b.send_msg(m, crate::schedule::PacketRange::ALL, &[]);
    for d in dests {
        b.recv(d, s, &[]);
    }
    b.build().unwrap()
}

fn run(t: &Topology, s: &Schedule, pairs: &[(&str, &str)]) -> ScheduleResult {
    let (cfg, par) = parse_settings(pairs.iter().copied()).unwrap();
    run_schedule(t, s, &cfg, &par).unwrap()
}

#[test]
fn a_worm_replicated_to_three_ports_arrives_like_one_unicast() {
    let t = Topology::from_spec("mesh:3x3").unwrap();
    // One flit (16 bytes), default pipeline: one hop is 12 cycles (docs/flit.md). Switch 4
    // routes the worm (1 cycle), gives each of the three branches an output VC in the same
    // cycle, and the three outputs grant the one input in the same cycle: every copy
    // leaves together and each destination has it after 12 cycles.
    let r = run(&t, &centre_multicast(&t, 16, true, 0), &[]);
    assert_eq!((r.cycles, r.packets, r.worm_messages), (12, 3, 1));
    // The NI multi-send sends three copies, one flit per cycle: 12, 13, 14.
    let r = run(&t, &centre_multicast(&t, 16, false, 0), &[]);
    assert_eq!((r.cycles, r.packets, r.worm_messages), (14, 3, 0));
    // Four flits: 3 more cycles for the worm; the multi-send's copies queue at the NI,
    // 4 cycles each: 15, 19, 23.
    assert_eq!(run(&t, &centre_multicast(&t, 64, true, 0), &[]).cycles, 15);
    assert_eq!(run(&t, &centre_multicast(&t, 64, false, 0), &[]).cycles, 23);
    // A 129-bit header is two 128-bit flits more: 12 + 2.
    assert_eq!(
        run(&t, &centre_multicast(&t, 16, true, 129), &[]).cycles,
        14
    );
    // With 1-byte flits: 16 payload flits and ceil(20 / 8) = 3 header flits: 12 + 18.
    let one = [("flit_bytes", "1"), ("vc_buf_size", "19")];
    let r = run(&t, &centre_multicast(&t, 16, true, 20), &one);
    assert_eq!(r.cycles, 12 + 18);
    // Chunks of 4 flits change nothing without contention (the buffer drains behind).
    let r = run(
        &t,
        &centre_multicast(&t, 16, true, 20),
        &[
            ("flit_bytes", "1"),
            ("vc_buf_size", "19"),
            ("chunk_flits", "4"),
        ],
    );
    assert_eq!(r.cycles, 12 + 18);
}

#[test]
fn worms_larger_than_the_input_buffer_are_refused() {
    let t = Topology::from_spec("mesh:3x3").unwrap();
    let (cfg, par) = parse_settings([("vc_buf_size", "4")]).unwrap();
    let e = run_schedule(&t, &centre_multicast(&t, 80, true, 0), &cfg, &par)
        .unwrap_err()
        .to_string();
    assert!(e.contains("vc_buf_size") && !e.contains('\n'), "{e}");
    // Exactly the buffer size is fine.
    let (cfg, par) = parse_settings([("vc_buf_size", "5")]).unwrap();
    assert_eq!(
        run_schedule(&t, &centre_multicast(&t, 80, true, 0), &cfg, &par)
            .unwrap()
            .cycles,
        16
    );
}

#[test]
fn a_blocked_branch_does_not_hold_up_the_others() {
    // Rank 4's worm to 1, 3, 5 (64 flits) while rank 0 sends 64 flits to rank 1: the copy
    // to 1 shares switch 1's ejection port with rank 0's packet, the copies to 3 and 5 do
    // not and arrive as if alone (12 + 63 cycles).
    let t = Topology::from_spec("mesh:3x3").unwrap();
    let mut b =
        ScheduleBuilder::new(CollectiveKind::AlltoallBroadcast, 9, 0).packetization(1024, 0);
    let data = b.block(4, 0);
    let other = b.block(0, 0);
    let m = b.message(4, &[1, 3, 5], std::slice::from_ref(&data));
    let w = centre_multicast(&t, 16, true, 0).messages()[0]
        .worm
        .clone()
        .unwrap();
    b.set_worm(m, *w);
    let s = b.send_msg(m, crate::schedule::PacketRange::ALL, &[]);
    b.set_round(Some(0));
    b.recv(3, s, &[]);
    b.recv(5, s, &[]);
    b.set_round(Some(1));
    b.recv(1, s, &[]);
    b.set_round(None);
    let s2 = b.send(0, &[1], &[other], &[]);
    b.recv(1, s2, &[]);
    let sch = b.build().unwrap();
    let r = run(&t, &sch, &[("vc_buf_size", "64")]);
    assert!(r.deadlock.is_none());
    assert_eq!(r.packets, 4);
    assert_eq!(r.step_times[0], (0, 75));
    // The shared ejection port alternates between the two packets.
    assert!(r.step_times[1].1 > 120, "{:?}", r.step_times);
}

/// One multicast of `algo` on a random irregular network, run on the flit engine.
fn multicast_on(spec: &str, algo: &str, root: u32, targets: Vec<u32>, bytes: u64, packets: u32) {
    let t = Topology::from_spec(spec).unwrap();
    let mut req = AlgoRequest::new(&t, CollectiveKind::Multicast);
    req.root = root;
    req.targets = targets;
    req.bytes = bytes;
    req.packets = packets;
    req.params = Params::parse::<&str>(&[]).unwrap();
    let s = build(algo, &req).unwrap();
    let (cfg, par) = parse_settings([
        ("routing_function", "updown"),
        ("vc_buf_size", "40"),
        ("num_vcs", "2"),
        ("flit_bytes", "4"),
        ("t_hs", "20"),
        ("t_ns", "10"),
        ("t_nr", "10"),
        ("t_hr", "20"),
        ("ni_fpfs", "1"),
        ("ni_serial", "1"),
        ("io_bus_mb_s", "266"),
    ])
    .unwrap();
    let r = run_schedule(&t, &s, &cfg, &par).unwrap();
    assert!(r.deadlock.is_none(), "{spec} {algo}: deadlock");
    // Every destination copy of every packet arrived exactly once (the run only ends when
    // every receive has all its packets, and `packets` counts every arrival).
    let copies: u64 = s
        .messages()
        .iter()
        .map(|m| s.dests(m).len() as u64 * m.packets as u64)
        .sum();
    assert_eq!(r.packets, copies, "{spec} {algo}");
    let worms = s.messages().iter().filter(|m| m.worm.is_some()).count() as u64;
    assert_eq!(r.worm_messages, worms, "{spec} {algo}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn every_worm_copy_arrives_once_without_deadlock(
        seed in 0u64..1000,
        shape in 0usize..3,
        set_seed in 0u64..1000,
        m in 1usize..20,
        algo in 0usize..4,
        packets in 1u32..3,
    ) {
        let (s, p, n) = [(8, 8, 32), (4, 16, 32), (16, 8, 64)][shape];
        let spec = format!("irregular:switches={s},ports={p},nodes={n},seed={seed}");
        let mut rng = set_seed;
        let mut pick = || { rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407); (rng >> 33) as u32 % n as u32 };
        let root = pick();
        let targets: Vec<u32> = (0..m).map(|_| pick()).collect::<std::collections::BTreeSet<_>>().into_iter().collect();
        let algo = ["worm-path", "worm-tree", "worm-ssr", "ni-kbinomial"][algo];
        multicast_on(&spec, algo, root, targets, 128, packets);
    }
}

#[test]
fn fpfs_forwarding_skips_the_host_at_intermediate_nodes() {
    // Relay 0 -> 1 -> 3 on a 2x2 mesh: host forwarding pays t_nr + t_hr + t_hs + t_ns at
    // rank 1, FPFS only t_nr + t_ns.
    let t = Topology::from_spec("mesh:2x2").unwrap();
    let mut b = ScheduleBuilder::new(CollectiveKind::Broadcast, 4, 0).packetization(16, 0);
    let data = b.block(0, 0);
    let s1 = b.send(0, &[1], std::slice::from_ref(&data), &[]);
    let r1 = b.recv(1, s1, &[]);
    let s2 = b.send(1, &[3], &[data], &[r1]);
    b.recv(3, s2, &[]);
    let s = b.build().unwrap();
    let o = [
        ("t_hs", "100"),
        ("t_ns", "10"),
        ("t_nr", "20"),
        ("t_hr", "200"),
    ];
    let host = run(&t, &s, &o);
    // Leg 1: 100 + 10 + 12, rank 1: 20 + 200, leg 2: 100 + 10 + 12, rank 3: 20 + 200.
    assert_eq!(host.cycles, 2 * (110 + 12 + 220));
    let mut f = o.to_vec();
    f.push(("ni_fpfs", "1"));
    let fpfs = run(&t, &s, &f);
    // Rank 1's NI forwards 20 cycles after the arrival, paying t_ns: 110 + 12 + 20 + 10 + 12
    // + 220 at rank 3.
    assert_eq!(fpfs.cycles, 110 + 12 + 20 + 10 + 12 + 220);
    // 266 MB/s at 5 ns is 1.33 bytes per cycle: 16 bytes take 13 cycles each way.
    f.push(("io_bus_mb_s", "266"));
    assert_eq!(
        run(&t, &s, &f).cycles,
        110 + 13 + 12 + 20 + 10 + 12 + 220 + 13
    );
}

#[test]
fn a_serial_ni_pays_t_ns_per_copy() {
    let t = Topology::from_spec("mesh:3x3").unwrap();
    let o = [("t_hs", "100"), ("t_ns", "10")];
    // Parallel model: one t_ns for the multi-send, copies leave the NI a cycle apart.
    assert_eq!(
        run(&t, &centre_multicast(&t, 16, false, 0), &o).cycles,
        110 + 14
    );
    let mut s = o.to_vec();
    s.push(("ni_serial", "1"));
    // Serial NI: three copies take 30 cycles of NI time before any is queued.
    assert_eq!(
        run(&t, &centre_multicast(&t, 16, false, 0), &s).cycles,
        130 + 14
    );
    // A worm is one copy.
    assert_eq!(
        run(&t, &centre_multicast(&t, 16, true, 0), &s).cycles,
        110 + 12
    );
}

#[test]
fn fpfs_copies_of_one_packet_pay_the_host_once() {
    // Rank 0 sends the same block to 1 and to 2 as two messages (an NI-based tree's root).
    let t = Topology::from_spec("mesh:2x2").unwrap();
    let mut b = ScheduleBuilder::new(CollectiveKind::Broadcast, 4, 0).packetization(16, 0);
    let data = b.block(0, 0);
    let s1 = b.send(0, &[1], std::slice::from_ref(&data), &[]);
    let s2 = b.send(0, &[2], std::slice::from_ref(&data), &[]);
    b.recv(1, s1, &[]);
    b.recv(2, s2, &[]);
    let s3 = b.send(0, &[3], &[data], &[]);
    b.recv(3, s3, &[]);
    let s = b.build().unwrap();
    let o = [("t_hs", "100"), ("t_ns", "10"), ("ni_serial", "1")];
    // Host sends: 100 each, one after the other; the NI then pays 10 per copy. The third
    // copy (two hops, 17 cycles) leaves the NI at 330.
    assert_eq!(run(&t, &s, &o).cycles, 300 + 10 + 17);
    // FPFS: the host hands the packet over once (100); the NI sends three copies, 10 each.
    let mut f = o.to_vec();
    f.push(("ni_fpfs", "1"));
    assert_eq!(run(&t, &s, &f).cycles, 100 + 30 + 17);
}
