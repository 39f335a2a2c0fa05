//! Link classes in the step engine's schedule front end: a packet sent in step `t` on a link
//! of latency `L` arrives at step `t + L - 1`, and a link still takes one packet per step.

use netcoll_core::algorithms::{self, parse_collective, AlgoRequest};
use netcoll_core::engines::step::sched::{self, Timing};
use netcoll_core::engines::step::{LinkLatency, PortModel};
use netcoll_core::routing::{Routing, RoutingKind};
use netcoll_core::schedule::{CollectiveKind, PacketRange, ScheduleBuilder};
use netcoll_core::Topology;

fn lat(pairs: &[(&str, u32)]) -> LinkLatency {
    let mut l = LinkLatency::default();
    for (k, v) in pairs {
        l.set(k, &v.to_string()).unwrap();
    }
    l
}

/// The extra steps of the routed path from `from` to `to` (switches): sum of `L_c - 1`.
fn extra_on_path(t: &Topology, r: &Routing, l: LinkLatency, from: usize, to: usize) -> u32 {
    let (mut at, mut state, mut extra) = (from, 0u8, 0);
    while let Some(st) = r.next(t, at, to, state) {
        let ch = t.channel(st.via.link, at as u32);
        extra += l.of(t.channel_class(ch)) - 1;
        at = st.via.switch as usize;
        state = st.state;
    }
    extra
}

/// One message of `packets` packets from rank 0 to every other rank in turn: each finishes
/// exactly the path's extra steps later than with one-step links (packets pipeline, so the
/// packet count does not change the difference).
#[test]
fn a_message_takes_its_paths_extra_steps() {
    for (net, l) in [
        (
            "dragonfly:p=2,a=4,h=2",
            lat(&[("global_latency", 10), ("local_latency", 3)]),
        ),
        (
            "fattree:k=2,levels=2",
            lat(&[("up_latency", 5), ("down_latency", 2)]),
        ),
    ] {
        let t = Topology::from_spec(net).unwrap();
        let r = Routing::new(&t, RoutingKind::Shortest, None).unwrap();
        let p = t.num_endpoints() as u32;
        let mut some_extra = false;
        for dst in 1..p {
            for packets in [1u32, 7] {
                let mut b = ScheduleBuilder::new(CollectiveKind::Broadcast, p, 0)
                    .packetization(packets as u64, 1);
                let x = [b.block(0, 0)];
                let m = b.message(0, &[dst], &x);
                b.send_msg(m, PacketRange::ALL, &[]);
                b.recv_msg(dst, m, PacketRange::ALL, &[]);
                let s = b.build().unwrap();
                let run = |l| {
                    sched::run_with_latency(&s, &t, &r, PortModel::AllPort, Timing::Deps, l)
                        .unwrap()
                };
                let (one, slow) = (run(LinkLatency::default()), run(l));
                let (a, z) = (t.endpoint_switch(0), t.endpoint_switch(dst as usize));
                let extra = extra_on_path(&t, &r, l, a, z);
                some_extra |= extra > 0;
                assert_eq!(
                    slow.steps,
                    one.steps + extra,
                    "{net} 0->{dst}, {packets} packets"
                );
                assert_eq!(slow.hops, one.hops, "{net}: latency adds no link crossings");
            }
        }
        assert!(some_extra, "{net}: no path crossed a slow link");
    }
}

/// All-one latencies are today's model exactly: every figure of every run is the same.
#[test]
fn unit_latencies_are_the_one_step_model() {
    let t = Topology::from_spec("dragonfly:p=2,a=4,h=2").unwrap();
    let r = Routing::new(&t, RoutingKind::Shortest, None).unwrap();
    let unit = lat(&[
        ("local_latency", 1),
        ("global_latency", 1),
        ("up_latency", 1),
        ("down_latency", 1),
    ]);
    for (op, algo) in [
        ("bcast", "binomial"),
        ("allgather", "ring"),
        ("allreduce", "ring"),
    ] {
        let mut req = AlgoRequest::new(&t, parse_collective(op).unwrap());
        req.packets = 4;
        let s = algorithms::build(algo, &req).unwrap();
        let a = sched::run(&s, &t, &r, PortModel::OnePort, Timing::Deps).unwrap();
        let b =
            sched::run_with_latency(&s, &t, &r, PortModel::OnePort, Timing::Deps, unit).unwrap();
        assert_eq!(
            (a.steps, a.hops, &a.per_step, &a.link_use, &a.rank_done),
            (b.steps, b.hops, &b.per_step, &b.link_use, &b.rank_done),
            "{op} {algo}"
        );
    }
}

/// Out-of-range values and unknown keys are refused in one line that gives the range.
#[test]
fn bad_latencies_are_refused_with_the_range() {
    let mut l = LinkLatency::default();
    for v in ["0", "-1", "x", "2000000"] {
        let e = l.set("global_latency", v).unwrap_err().to_string();
        assert!(e.contains("from 1 to") && !e.contains('\n'), "{e}");
    }
    assert!(l.set("glob_latency", "2").is_err());
    assert!(l.is_unit());
}
