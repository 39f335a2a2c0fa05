//! Tests of the schedule runner's step keys: `vc_per_step` (seed 000 s3/s5's VC per
//! communication step), `sync_steps` (s5.1's sum of per-step maxima) and `whole_messages`
//! (s6.5's combined messages), and HNC schedules on the paper's router.

use super::network::Network;
use super::params::parse_settings;
use super::schedule::run_schedule;
use crate::algorithms::{build, AlgoRequest, Params};
use crate::schedule::{CollectiveKind, Schedule, ScheduleBuilder};
use crate::topology::Topology;

/// Seed 000 s5.1's router: 4 VCs, virtual cut-through, 3 cycles per hop (routing; VC and
/// switch allocation together; traversal), one cycle per XOR.
const PAPER: &[(&str, &str)] = &[
    ("num_vcs", "4"),
    ("flow_control", "vct"),
    ("speculative", "1"),
    ("st_final_delay", "0"),
    ("compute_base", "1"),
    ("compute_per_flit", "0"),
];

fn a2a(topo: &Topology, algo: &str, params: &[&str]) -> Schedule {
    let mut req = AlgoRequest::new(topo, CollectiveKind::AlltoallBroadcast);
    req.bytes = 16;
    req.params = Params::parse(params).unwrap();
    build(algo, &req).unwrap()
}

fn run(topo: &Topology, s: &Schedule, extra: &[(&str, &str)]) -> super::ScheduleResult {
    let (cfg, par) = parse_settings(PAPER.iter().chain(extra).copied()).unwrap();
    run_schedule(topo, s, &cfg, &par).unwrap()
}

#[test]
fn hnc_on_a_4x4_mesh_verifies_and_completes_with_every_step_key() {
    let topo = Topology::from_spec("mesh:4x4").unwrap();
    for (algo, params) in [
        ("hnc", &[][..]),
        ("hnc", &["group=2x2"][..]),
        ("hnc", &["group=2x2", "mode=combine"][..]),
        ("hnc", &["base=all-at-once"][..]),
        ("tree-multicast", &[][..]),
        ("all-at-once", &[][..]),
    ] {
        let s = a2a(&topo, algo, params);
        let mut seen = Vec::new();
        for extra in [
            &[][..],
            &[("vc_per_step", "1")][..],
            &[("sync_steps", "1")][..],
            &[("vc_per_step", "1"), ("sync_steps", "1")][..],
        ] {
            let r = run(&topo, &s, extra);
            assert!(
                r.verified && r.deadlock.is_none(),
                "{algo} {params:?} {extra:?}"
            );
            // Every node receives each of the 15 other blocks once, one flit each.
            assert_eq!(r.packets, 16 * 15, "{algo} {params:?} {extra:?}");
            assert!(r.cycles > 0);
            seen.push(r.cycles);
        }
        // A barrier between steps can only delay the end.
        assert!(seen[2] >= seen[0], "{algo} {params:?}: {seen:?}");
    }
}

#[test]
fn step_classes_on_a_torus_keep_the_dateline_inside_each_block() {
    let topo = Topology::from_spec("torus:4x4").unwrap();
    let (cfg, _) = parse_settings(PAPER.iter().copied()).unwrap();
    let mut net = Network::new(&topo, &cfg).unwrap();
    assert_eq!(net.route_classes, 2);
    net.set_step_classes(2).unwrap();
    assert_eq!(net.class_lo, vec![0, 1, 2, 3]);
    assert_eq!(net.class_hi, vec![1, 2, 3, 4]);
    assert_eq!(net.hop_class(1, 1), 3);
    assert_eq!(net.injection_range(1), (2, 4));
    // Four steps and a dateline need 8 VCs: a one-line error.
    let e = net.set_step_classes(4).unwrap_err().to_string();
    assert!(e.contains("num_vcs = 4") && !e.contains('\n'), "{e}");
    // HNC on the torus with two step blocks (the default: num_vcs / 2) completes.
    let s = a2a(&topo, "hnc", &[]);
    let r = run(&topo, &s, &[("vc_per_step", "1")]);
    assert!(r.verified && r.deadlock.is_none() && r.packets == 240);
    let e = parse_settings(
        PAPER
            .iter()
            .copied()
            .chain([("vc_per_step", "1"), ("step_vc_classes", "3")]),
    )
    .and_then(|(c, p)| run_schedule(&topo, &s, &c, &p))
    .unwrap_err();
    assert!(e.to_string().contains("step VC classes"), "{e}");
}

#[test]
fn mesh_step_classes_give_every_step_one_vc_of_four() {
    let topo = Topology::from_spec("mesh:4x4").unwrap();
    let (cfg, _) = parse_settings(PAPER.iter().copied()).unwrap();
    let mut net = Network::new(&topo, &cfg).unwrap();
    net.set_step_classes(4).unwrap();
    assert_eq!(net.class_lo, vec![0, 1, 2, 3]);
    assert_eq!(net.class_hi, vec![1, 2, 3, 4]);
    assert_eq!(net.injection_range(2), (2, 3));
    assert_eq!(net.hop_class(2, 0), 2);
}

/// Rank 0 -> 1 in step 0 and rank 2 -> 3 in step 1, independent of each other, on a 2x2
/// mesh (one hop each: 12 cycles under the default router).
fn two_steps() -> Schedule {
    let mut b = ScheduleBuilder::new(CollectiveKind::AlltoallBroadcast, 4, 0).packetization(16, 0);
    let (x, y) = (b.block(0, 0), b.block(2, 0));
    b.set_round(Some(0));
    let s0 = b.send(0, &[1], &[x], &[]);
    b.recv(1, s0, &[]);
    b.set_round(Some(1));
    let s1 = b.send(2, &[3], &[y], &[]);
    b.recv(3, s1, &[]);
    b.build().unwrap()
}

#[test]
fn sync_steps_adds_the_steps_up() {
    let topo = Topology::from_spec("mesh:2x2").unwrap();
    let s = two_steps();
    let go = |pairs: &[(&str, &str)]| {
        let (cfg, par) = parse_settings(pairs.iter().copied()).unwrap();
        run_schedule(&topo, &s, &cfg, &par).unwrap()
    };
    let free = go(&[]);
    assert_eq!(free.cycles, 12);
    let sync = go(&[("sync_steps", "1")]);
    assert_eq!(sync.cycles, 24);
    assert_eq!(sync.step_times, vec![(0, 12), (1, 24)]);
    assert!(parse_settings([("sync_steps", "2")]).is_err());
}

#[test]
fn whole_messages_send_a_message_as_one_packet() {
    let topo = Topology::from_spec("mesh:2x2").unwrap();
    // Two 16-byte blocks in one message, packets of one block: two one-flit packets.
    let mut b = ScheduleBuilder::new(CollectiveKind::AlltoallBroadcast, 4, 0).packetization(16, 16);
    let (x, y) = (b.block(0, 0), b.block(1, 0));
    let s0 = b.send(1, &[0], std::slice::from_ref(&y), &[]);
    let r0 = b.recv(0, s0, &[]);
    let s1 = b.send(0, &[3], &[x, y], &[r0]);
    b.recv(3, s1, &[]);
    let s = b.build().unwrap();
    let go = |pairs: &[(&str, &str)]| {
        let (cfg, par) = parse_settings(pairs.iter().copied()).unwrap();
        run_schedule(&topo, &s, &cfg, &par).unwrap()
    };
    let split = go(&[]);
    let whole = go(&[("whole_messages", "1")]);
    assert_eq!((split.packets, whole.packets), (3, 2));
    // One hop (12) then two hops: 17 + the second flit, either way.
    assert_eq!(split.cycles, 12 + 18);
    assert_eq!(whole.cycles, 12 + 18);
}
