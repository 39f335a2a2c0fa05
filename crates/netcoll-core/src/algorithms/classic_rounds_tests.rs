use super::*;
use crate::algorithms::{build, AlgoRequest};
use crate::engines::aggregate::{analyze_rounds, assert_equal_figures};
use crate::engines::analytic::{analyze, Machine};
use crate::routing::{Routing, RoutingKind};
use crate::topology::Topology;

const PLANS: [(&str, CollectiveKind); 10] = [
    ("ring", Allgather),
    ("ring", AlltoallBroadcast),
    ("ring", ReduceScatter),
    ("ring", Allreduce),
    ("bruck", Allgather),
    ("recursive-doubling", Allgather),
    ("recursive-doubling", Allreduce),
    ("recursive-halving", ReduceScatter),
    ("rabenseifner", Allreduce),
    ("scatter-allgather", Broadcast),
];

/// The per-step figures equal the built schedule's, on power-of-two and other sizes.
#[test]
fn per_step_figures_equal_the_schedule() {
    let m = Machine {
        gamma: 3e-9,
        ..Machine::default()
    };
    for spec in ["mesh:4x4", "mesh:3x5", "torus:3x4"] {
        let t = Topology::from_spec(spec).unwrap();
        let routing = Routing::new(&t, RoutingKind::Dor, None).unwrap();
        for (name, kind) in PLANS {
            assert!(has_plan(name, kind));
            let mut req = AlgoRequest::new(&t, kind);
            req.bytes = 1000;
            req.packets = 3;
            req.root = 2;
            let want = analyze(&build(name, &req).unwrap(), &t, &routing, &m).unwrap();
            let plan = plan(name, &req).unwrap();
            let got = analyze_rounds(&plan, &req.placement, &t, &routing, &m).unwrap();
            let at = format!("{name} {kind:?} on {spec}");
            assert_equal_figures(&got, &want, &at);
            assert!(got.times.hockney.is_nan());
        }
    }
}

#[test]
fn all_at_once_closed_form_equals_the_schedule() {
    for spec in ["mesh:4x4", "torus:3x4", "torus:4x4"] {
        let t = Topology::from_spec(spec).unwrap();
        let routing = Routing::new(&t, RoutingKind::Dor, None).unwrap();
        let mut req = AlgoRequest::new(&t, Allgather);
        req.packets = 3;
        let s = build("all-at-once", &req).unwrap();
        let want = analyze(&s, &t, &routing, &Machine::default()).unwrap();
        let got = closed_form("all-at-once", &req, true).unwrap();
        assert_eq!(got["aggregate_hops"], want.aggregate_hops, "{spec}");
        assert_eq!(got["messages"], want.messages, "{spec}");
        assert_eq!(got["packets"], want.packets, "{spec}");
        assert_eq!(got["bytes"], want.bytes, "{spec}");
        assert_eq!(got["max_hops"], want.max_hops, "{spec}");
        assert_eq!(got["steps"], want.steps, "{spec}");
    }
    let t = Topology::from_spec("mesh:4x4").unwrap();
    let mut req = AlgoRequest::new(&t, Allgather);
    req.p = 8;
    req.placement.truncate(8);
    assert!(
        closed_form("all-at-once", &req, true).is_none(),
        "not every router a rank"
    );
}
