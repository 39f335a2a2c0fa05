//! The per-step figures of a built schedule against the full analysis.

use super::*;
use crate::algorithms::{find, parse_collective, parse_sources, AlgoRequest, Params};
use crate::engines::aggregate::assert_equal_figures;
use crate::engines::analytic::{analyze, analyze_sized, Depth};
use crate::plan::tune::routing_for;
use crate::schedule::{CollectiveKind, ScheduleBuilder};

fn built(op: &str, algo: &str, topo: &str, params: &[&str]) -> (Schedule, Topology) {
    let t = Topology::from_spec(topo).unwrap();
    let mut req = AlgoRequest::new(&t, parse_collective(op).unwrap());
    req.params = Params::parse(params).unwrap();
    if req.kind == CollectiveKind::ManyToAll {
        req.sources = parse_sources("random:5,seed=3", req.p).unwrap();
    }
    let s = (find(req.kind, algo).unwrap().build)(&req).unwrap();
    (s, t)
}

fn check(op: &str, algo: &str, topo: &str, params: &[&str]) {
    let (s, t) = built(op, algo, topo, params);
    let r = routing_for(&t, "auto").unwrap();
    let m = Machine::default();
    let want = analyze(&s, &t, &r, &m).unwrap();
    let at = format!("{op} {algo} {topo} {params:?}");
    // Routes stored, and every round walked twice (nothing stored).
    for cap in [ROUND_CHANNELS, 0] {
        let got = figures_by_steps(&s, &t, &r, &m, cap).unwrap().expect(&at);
        assert_equal_figures(&got, &want, &at);
        assert_eq!((got.ni_messages, got.ranks), (want.ni_messages, want.ranks));
        assert!(
            got.times.hockney.is_nan() && got.times.loggp.is_nan(),
            "{at}"
        );
    }
}

#[test]
fn per_step_figures_equal_the_full_analysis() {
    check("allgather", "all-at-once", "mesh:4x4", &[]);
    check("allgather", "tree-multicast", "mesh:4x3", &[]);
    check("alltoall_broadcast", "all-at-once", "torus:4x4", &[]);
    check(
        "alltoall_broadcast",
        "tree-multicast",
        "mesh:8x4",
        &["steps=phase"],
    );
    check("many_to_all", "tree-multicast", "mesh:6x4", &[]);
    check("many_to_all", "all-at-once", "mesh:6x4", &[]);
    check("allreduce", "ring", "mesh:4x4", &[]);
    check("allreduce", "rabenseifner", "mesh:4x2", &[]);
    check("bcast", "binomial", "mesh:5x3", &[]);
}

/// HNC's encode and decode ops carry no step (their rounds come from the dependencies), so
/// its schedules are analysed in full whatever their size; so is a schedule of stepless sends.
#[test]
fn an_op_without_a_step_leaves_the_schedule_to_the_full_analysis() {
    let (s, t) = built("allgather", "hnc", "mesh:8x4", &["group=4x2"]);
    let r = routing_for(&t, "auto").unwrap();
    let m = Machine::default();
    assert!(analyze_steps(&s, &t, &r, &m).unwrap().is_none());
    let mut b = ScheduleBuilder::new(CollectiveKind::Broadcast, 4, 0);
    let piece = b.block(0, 0);
    for to in 1..4 {
        let send = b.send(0, &[to], std::slice::from_ref(&piece), &[]);
        b.recv(to, send, &[]);
    }
    let s = b.build().unwrap();
    let t = Topology::from_spec("mesh:2x2").unwrap();
    let r = routing_for(&t, "auto").unwrap();
    assert!(analyze_steps(&s, &t, &r, &m).unwrap().is_none());
    let (a, depth) = analyze_sized(&s, &t, &r, &m).unwrap();
    assert_eq!((depth, a.times.hockney.is_nan()), (Depth::Full, false));
}
