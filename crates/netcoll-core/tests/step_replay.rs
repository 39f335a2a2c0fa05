//! The step engine's queue-based schedule replay equals the per-packet scan it replaced
//! (kept in `step_replay/reference.rs`): same steps, per-rank finishing steps, hops, per-step
//! transmissions and per-link use, on every registered algorithm that builds for a collective
//! across networks with parallel links, several ranks per switch and every routing, port model
//! and timing, at several packet counts.

#[path = "step_replay/reference.rs"]
mod reference;

use netcoll_core::algorithms::{self, parse_collective, AlgoRequest, Params};
use netcoll_core::engines::step::sched::{self, Timing};
use netcoll_core::engines::step::PortModel;
use netcoll_core::routing::{Routing, RoutingKind};
use netcoll_core::schedule::{CollectiveKind, PacketRange, ScheduleBuilder};
use netcoll_core::{Error, Topology};

/// (collective, algorithm) pairs replayed; each is tried on every network below.
const ALGOS: &[(&str, &str)] = &[
    ("bcast", "linear"),
    ("bcast", "binomial"),
    ("bcast", "scatter-allgather"),
    ("bcast", "intercom-mst"),
    ("bcast", "intercom-long"),
    ("bcast", "kbinomial"),
    ("bcast", "postal"),
    ("bcast", "multisend-flat"),
    ("multicast", "multisend-flat"),
    ("scatter", "binomial"),
    ("gather", "linear"),
    ("reduce", "binomial"),
    ("allgather", "ring"),
    ("allgather", "recursive-doubling"),
    ("allgather", "bruck"),
    ("allgather", "all-at-once"),
    ("allgather", "hnc"),
    ("allgather", "intercom-bucket"),
    ("reduce-scatter", "recursive-halving"),
    ("allreduce", "ring"),
    ("allreduce", "rabenseifner"),
    ("alltoall-broadcast", "tree-multicast"),
    ("manytoall", "hnc"),
];

/// Paths, meshes, tori (radix 2: parallel links), a hypercube, an iBT, and an irregular
/// network with three endpoints per switch (copies that never leave their switch).
const NETS: &[&str] = &[
    "mesh:5",
    "mesh:4x4",
    "torus:4x4",
    "torus:2x4",
    "torus:2x2x2",
    "hypercube:3",
    "ibt:8x8:b=4",
    "irregular:switches=6,ports=8,nodes=18,seed=2",
];

const ROUTINGS: [RoutingKind; 3] = [RoutingKind::Shortest, RoutingKind::Dor, RoutingKind::UpDown];

/// One replay setting, chosen round robin over the cases so that every combination of
/// routing, ports and timing meets many schedules.
fn setting(case: usize) -> (RoutingKind, PortModel, Timing) {
    let ports = [PortModel::AllPort, PortModel::OnePort][case % 2];
    let timing = [Timing::Deps, Timing::Steps][(case / 2) % 2];
    (ROUTINGS[(case / 4) % 3], ports, timing)
}

/// Replays one schedule on both engines and asserts they agree; Err when the schedule or the
/// routing does not build (a precondition of the algorithm or routing).
fn compare(net: &str, op: &str, algo: &str, packets: u32, case: usize) -> Result<(), String> {
    let t = Topology::from_spec(net).unwrap();
    let mut req = AlgoRequest::new(&t, parse_collective(op).unwrap());
    req.packets = packets;
    req.root = (case as u32 * 7) % req.p;
    if op == "multicast" {
        req.targets = (0..req.p)
            .filter(|r| r % 3 == 1 && *r != req.root)
            .collect();
    }
    if op == "manytoall" {
        req.sources = (0..req.p).filter(|r| r % 4 == 0).collect();
    }
    req.params = Params::default();
    let s = algorithms::build(algo, &req).map_err(|e| e.to_string())?;
    let (kind, ports, timing) = setting(case);
    let r = Routing::new(&t, kind, None).map_err(|e| e.to_string())?;
    let new = sched::run(&s, &t, &r, ports, timing);
    let old = reference::run(&s, &t, &r, ports, timing);
    let what = format!("{op} {algo} on {net}, {packets} packets, {kind:?} {ports:?} {timing:?}");
    match (new, old) {
        (Ok(n), Ok(o)) => {
            let n = reference::Replay {
                steps: n.steps,
                rank_done: n.rank_done,
                hops: n.hops,
                per_step: n.per_step,
                link_use: n.link_use,
            };
            assert_eq!(n, o, "{what}");
        }
        (Err(n), Err(o)) => assert_eq!(n.to_string(), o, "{what}"),
        (n, o) => panic!(
            "{what}: new {:?} old {:?}",
            n.map(|r| r.steps),
            o.map(|r| r.steps)
        ),
    }
    Ok(())
}

#[test]
fn queues_equal_the_per_packet_scan() {
    let mut compared = 0;
    let mut case = 0;
    for net in NETS {
        for (op, algo) in ALGOS {
            for packets in [1, 3, 8] {
                case += 1;
                compared += compare(net, op, algo, packets, case).is_ok() as usize;
            }
        }
    }
    // Most pairs build on most networks (some need a coordinate network or a power of two).
    assert!(compared > 400, "only {compared} replays compared");
}

/// Many packets through one trunk: long queues, the case the scan was quadratic in.
#[test]
fn queues_equal_the_scan_under_heavy_contention() {
    for (case, (net, op, algo)) in [
        ("mesh:4x4", "bcast", "linear"),
        ("torus:2x4", "allgather", "all-at-once"),
        (
            "irregular:switches=6,ports=8,nodes=18,seed=2",
            "bcast",
            "linear",
        ),
        ("mesh:3x3", "allreduce", "ring"),
    ]
    .into_iter()
    .enumerate()
    {
        for (i, packets) in [40, 97].into_iter().enumerate() {
            // Shortest routing (cases 0-3 of every 12), both port models and timings.
            let setting = 12 * packets as usize + (2 * case + i) % 4;
            compare(net, op, algo, packets, setting).unwrap();
        }
    }
}

/// What would take minutes is refused up front in one line that says what to do.
#[test]
fn a_replay_of_hours_is_refused_up_front() {
    let t = Topology::from_spec("mesh:64x64").unwrap();
    let mut req = AlgoRequest::new(&t, parse_collective("bcast").unwrap());
    req.packets = 65_535;
    req.bytes = 1 << 32;
    let s = algorithms::build("linear", &req).unwrap();
    let r = Routing::new(&t, RoutingKind::Shortest, None).unwrap();
    let Err(e) = sched::run(&s, &t, &r, PortModel::AllPort, Timing::Deps) else {
        panic!("a replay of 4095 x 65535 packet copies ran");
    };
    assert!(matches!(e, Error::TooLarge(_)), "{e}");
    let text = e.to_string();
    assert!(!text.contains('\n') && text.contains("--packets"), "{text}");
}

/// A schedule that cannot progress (ranks 0 and 1 each send only after receiving the other's
/// message; rank 3 waits for a message nobody sends) is reported in the same line, at the same
/// step, as before, after the copies that can move have moved.
#[test]
fn a_schedule_that_cannot_progress_is_reported_as_before() {
    let t = Topology::from_spec("mesh:4").unwrap();
    let mut b = ScheduleBuilder::new(CollectiveKind::Broadcast, 4, 0);
    let x = [b.block(0, 0)];
    let to_2 = b.message(0, &[2], &x);
    b.send_msg(to_2, PacketRange::ALL, &[]);
    b.recv_msg(2, to_2, PacketRange::ALL, &[]);
    let (m01, m10, m23) = (
        b.message(0, &[1], &x),
        b.message(1, &[0], &x),
        b.message(2, &[3], &x),
    );
    let r0 = b.recv_msg(0, m10, PacketRange::ALL, &[]);
    b.send_msg(m01, PacketRange::ALL, &[r0]);
    let r1 = b.recv_msg(1, m01, PacketRange::ALL, &[]);
    b.send_msg(m10, PacketRange::ALL, &[r1]);
    b.recv_msg(3, m23, PacketRange::ALL, &[]);
    let s = b.build().unwrap();
    let r = Routing::new(&t, RoutingKind::Shortest, None).unwrap();
    for ports in [PortModel::AllPort, PortModel::OnePort] {
        let new = sched::run(&s, &t, &r, ports, Timing::Deps).unwrap_err();
        let old = reference::run(&s, &t, &r, ports, Timing::Deps).unwrap_err();
        assert_eq!(new.to_string(), old);
        assert!(old.contains("cannot progress at step 2"), "{old}");
    }
}
