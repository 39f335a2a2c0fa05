//! The streaming path against the schedule path: on every round program (the classic and
//! InterCom families, every collective they implement) the streaming verifier's verdict is
//! the schedule verifier's, and the streamed figures are the built schedule's.

use super::{schedule_by, stream_figures};
use crate::algorithms::{build, registry, AlgoRequest, Params};
use crate::engines::analytic::{analyze, Analysis, Machine};
use crate::routing::{Routing, RoutingKind};
use crate::schedule::CollectiveKind;
use crate::topology::Topology;

/// The streamed figures `got` equal the built schedule's `want`: counts, hops, steps and
/// conflicts exactly, the round-rule time to a relative 1e-12.
fn assert_equal_figures(got: &serde_json::Value, want: &Analysis, at: &str) {
    let want = serde_json::to_value(want).unwrap();
    for k in [
        "ranks",
        "messages",
        "packets",
        "bytes",
        "aggregate_hops",
        "max_hops",
        "steps",
        "max_conflict",
    ] {
        assert_eq!(got[k], want[k], "{at}: {k}");
    }
    let (a, b) = (
        got["times"]["hockney_rounds"].as_f64().unwrap(),
        want["times"]["hockney_rounds"].as_f64().unwrap(),
    );
    assert!((a - b).abs() <= 1e-12 * b.abs(), "{at}: {a} vs {b}");
}

const HYBRIDS: &[&[&str]] = &[&[], &["dims=3x4", "strategy=SSCC"], &["dims=mesh"]];

#[test]
fn streaming_equals_the_schedule_on_every_round_program() {
    let m = Machine {
        gamma: 3e-9,
        ..Machine::default()
    };
    let mut checked = 0;
    for spec in ["mesh:4x4", "mesh:3x5", "torus:3x4", "mesh:2x3", "mesh:2x2"] {
        let t = Topology::from_spec(spec).unwrap();
        let routing = Routing::new(&t, RoutingKind::Dor, None).unwrap();
        let programs = registry()
            .iter()
            .filter(|a| matches!(a.family, "classic" | "intercom"));
        for a in programs {
            let params: &[&[&str]] = if a.name == "intercom-hybrid" {
                HYBRIDS
            } else {
                &[&[]]
            };
            for (&kind, &params) in a
                .kinds
                .iter()
                .flat_map(|k| params.iter().map(move |p| (k, p)))
            {
                let mut req = AlgoRequest::new(&t, kind);
                (req.bytes, req.packets, req.root) = (1000, 3, t.num_endpoints() as u32 / 2);
                if kind == CollectiveKind::Multicast {
                    req.targets = vec![0, t.num_endpoints() as u32 - 1];
                }
                req.params = Params::parse(params).unwrap();
                let at = format!("{} {params:?} {kind:?} on {spec}", a.name);
                let built = build(a.name, &req);
                let streamed = stream_figures(a.name, &req, &routing, &m);
                match (built, streamed) {
                    (Ok(s), Ok(v)) => {
                        assert_eq!(v["method"], "stream", "{at}");
                        assert_eq!(v["verified"], true, "{at}");
                        let want = analyze(&s, &t, &routing, &m).unwrap();
                        assert_equal_figures(&v, &want, &at);
                        checked += 1;
                    }
                    (Err(b), Err(s)) => assert_eq!(b.to_string(), s.to_string(), "{at}"),
                    (b, s) => panic!("{at}: built {:?}, streamed {:?}", b.err(), s.err()),
                }
            }
        }
    }
    assert!(checked > 150, "{checked} programs compared");
}

#[test]
fn auto_builds_small_schedules_and_streams_large_ones() {
    let m = Machine::default();
    let t = Topology::from_spec("mesh:4x4").unwrap();
    let routing = Routing::new(&t, RoutingKind::Dor, None).unwrap();
    let req = AlgoRequest::new(&t, CollectiveKind::Allreduce);
    let small = schedule_by("auto", "ring", &req, &routing, &m).unwrap();
    assert_eq!(small["method"], "schedule");
    assert!(small["times"]["hockney"].as_f64().is_some());
    let forced = schedule_by("stream", "ring", &req, &routing, &m).unwrap();
    assert_eq!(
        (forced["method"].clone(), forced["verified"].clone()),
        ("stream".into(), true.into())
    );
    assert_eq!(forced["messages"], small["messages"]);
    assert!(forced["times"]["hockney"].is_null());
    let big = Topology::from_spec("mesh:24x24").unwrap();
    let routing = Routing::new(&big, RoutingKind::Dor, None).unwrap();
    let req = AlgoRequest::new(&big, CollectiveKind::Allgather);
    let v = schedule_by("auto", "ring", &req, &routing, &m).unwrap();
    assert_eq!(v["method"], "stream");
    assert_eq!(v["messages"], 576 * 575);
    // No per-step form: sized by its closed form.
    let v = schedule_by("auto", "all-at-once", &req, &routing, &m).unwrap();
    assert_eq!(
        (v["method"].clone(), v["messages"].clone()),
        ("stream".into(), (576 * 575).into())
    );
    let e = schedule_by("stream", "hnc", &req, &routing, &m).unwrap_err();
    assert!(e.to_string().contains("use --method schedule"), "{e}");
    let e = schedule_by("lazy", "ring", &req, &routing, &m).unwrap_err();
    assert!(e.to_string().contains("auto, schedule, stream"), "{e}");
}
