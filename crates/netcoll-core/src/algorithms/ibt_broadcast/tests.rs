use super::protocol::Kind;
use super::*;
use crate::algorithms::Params;
use crate::engines::step::sched::{self, Timing};
use crate::routing::{Routing, RoutingKind};
use proptest::prelude::*;

fn outcome(spec: &str, kind: Kind, root: u32, k: u32, sets: &[&str]) -> Outcome {
    let t = Topology::from_spec(spec).unwrap();
    let p = Params::parse(sets).unwrap();
    simulate(&t, kind, root, k, &p, false).unwrap().0
}

fn steps(spec: &str, kind: Kind, root: u32, k: u32, sets: &[&str]) -> u32 {
    outcome(spec, kind, root, k, sets).result.steps
}

/// Formula (4), exactly: the ring broadcast with opposite orders (Int(pn) = 1: left torus link
/// reversed) on rings of even size, and on every line of 2-D and 3-D tori, from any root.
#[test]
fn formula_4_exactly_on_tori() {
    for n in [2u32, 4, 6, 8, 10, 16, 32, 64] {
        for k in [1u32, 2, 3, 5, 8, 31, 32, 33] {
            let s = steps(&format!("torus:{n}"), Kind::Line, 0, k, &["pattern=1"]);
            assert_eq!(
                s as u64,
                formulas::ring_line(n as u64, k as u64),
                "n={n} k={k}"
            );
        }
    }
    for (spec, n) in [("torus:8x8", 8u64), ("torus:12x12", 12), ("torus:6x6x6", 6)] {
        let t = Topology::from_spec(spec).unwrap();
        let d = t.shape().len();
        for dim in 0..d {
            for root in [0u32, 5, 13] {
                for k in [1u32, 4, 7, 32] {
                    let p =
                        Params::parse(&["pattern=1".to_string(), format!("dim={dim}")]).unwrap();
                    let s = simulate(&t, Kind::Line, root, k, &p, false)
                        .unwrap()
                        .0
                        .result
                        .steps;
                    assert_eq!(
                        s as u64,
                        formulas::ring_line(n, k as u64),
                        "{spec} dim {dim} root {root} k {k}"
                    );
                }
            }
        }
    }
}

/// With no pattern the search reports the best; on a ring the favourable patterns are the odd
/// ones (one torus link in each order) and the others pay for the overlap.
#[test]
fn ring_search_prefers_opposite_orders() {
    let o = outcome("torus:16", Kind::Line, 3, 8, &[]);
    assert_eq!(o.result.steps as u64, formulas::ring_line(16, 8));
    assert_eq!(o.setup.patterns, vec![1]);
    assert_eq!(o.tried.len(), 8);
    assert!(o
        .tried
        .iter()
        .filter(|t| t.0[0] % 2 == 0)
        .all(|t| t.2 > o.result.steps));
}

/// Table 1 of seed 004 (iBT(64^2; b), k = 32): the cells this reading of the line broadcast
/// reproduces exactly, and the others pinned as they come out (see docs/ibt-broadcast.md).
#[test]
fn table_1_line_broadcast() {
    // (b, T_x(s=0), T_x(s=1)) from forward=order, best of Int(pn) in 0..7; paper: 23/23,
    // 24/23, 23/32, 22/22.
    for (b, t0, t1) in [
        ("6", 22, 24),
        ("14", 21, 23),
        ("4,16", 23, 23),
        ("8,24", 21, 22),
    ] {
        let spec = format!("ibt:64x64:b={b}");
        assert_eq!(steps(&spec, Kind::Line, 0, 32, &[]), t0, "{spec} s=0");
        assert_eq!(steps(&spec, Kind::Line, 1, 32, &[]), t1, "{spec} s=1");
    }
}

/// The torus multi-colour spanning trees take one step more than formulas (5) and (6): the
/// nodes of the hyperplane x_i = s_i get colour i over one more hop (rule 4) after the
/// d(n-1)-hop dimension-ordered part the formulas count.
#[test]
fn trees_are_formulas_5_and_6_plus_the_hyperplane_hop() {
    for (spec, group, n, d) in [
        ("torus:8x8", "all", 8u64, 2u64),
        ("torus:16x16", "all", 16, 2),
        ("torus:6x6x6", "all", 6, 3),
        ("torus:6x6x6", "rect", 6, 2),
    ] {
        for k in [1u32, 4, 8, 13, 32] {
            let g = format!("group={group}");
            let s = steps(spec, Kind::Trees, 0, k, &[g.as_str()]) as u64;
            let f = if group == "rect" {
                formulas::torus_trees_rect(n, k as u64)
            } else {
                formulas::torus_trees_all(n, d, k as u64)
            };
            assert_eq!(s, f + 1, "{spec} {group} k={k}");
        }
    }
}

#[test]
fn rectangular_and_global_reports() {
    let t = Topology::from_spec("ibt:16x16:b=4").unwrap();
    let v = report(
        &t,
        Kind::Rect,
        0,
        8,
        &Params::parse(&["pattern=1", "k1=4"]).unwrap(),
    )
    .unwrap();
    assert_eq!(v["metric"], "T_xy");
    assert_eq!(v["split"], serde_json::json!([4, 4]));
    assert!(v["steps"].as_u64().unwrap() >= v["lower_bound"].as_u64().unwrap());
    let alpha = v["alpha"].as_f64().unwrap();
    let t_torus = formulas::torus_trees_rect(16, 8) as f64;
    assert!((alpha - (1.0 - v["steps"].as_f64().unwrap() / t_torus)).abs() < 1e-12);
    let g = report(&t, Kind::Global, 5, 8, &Params::default()).unwrap();
    assert_eq!(g["metric"], "T_all");
    assert_eq!(g["tried"].as_array().unwrap().len(), 4);
}

#[test]
fn bad_requests_are_one_line_errors() {
    let t = Topology::from_spec("mesh:4x4").unwrap();
    let e = simulate(&t, Kind::Line, 0, 4, &Params::default(), false)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("tori and interlaced bypass tori"), "{e}");
    let t = Topology::from_spec("torus:4x4").unwrap();
    for (sets, want) in [
        (&["dim=2"][..], "dim=2 is out of range"),
        (&["pattern=16"], "0 to 15"),
        (&["dim2=0"], "equals dim"),
        (&["tie=x"], "tie rule"),
        (&["k1=9"], "exceeds"),
    ] {
        let kind = if sets[0].starts_with("dim2") || sets[0].starts_with("k1") {
            Kind::Rect
        } else {
            Kind::Line
        };
        let e = simulate(&t, kind, 0, 4, &Params::parse(sets).unwrap(), false)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains(want), "{sets:?}: {e}");
        assert!(!e.contains('\n'));
    }
    let big = Topology::from_spec("torus:72x72").unwrap();
    let req = AlgoRequest::new(&big, CollectiveKind::Broadcast);
    let e = crate::algorithms::build("global", &req)
        .unwrap_err()
        .to_string();
    assert!(e.contains("--engine step"), "{e}");
}

/// Hand-worked: the step engine runs a schedule; the linear broadcast on the path 0-1-2-3
/// sends to 1 (step 1), to 2 (steps 2-3), to 3 (steps 3-5; each send waits for the previous
/// one to leave, the link 0->1 is free again in step 3).
#[test]
fn schedule_front_end_hand_worked() {
    let t = Topology::from_spec("mesh:4").unwrap();
    let req = AlgoRequest::new(&t, CollectiveKind::Broadcast);
    let s = crate::algorithms::build("linear", &req).unwrap();
    let r = Routing::new(&t, RoutingKind::Dor, None).unwrap();
    let res = sched::run(&s, &t, &r, PortModel::AllPort, Timing::Deps).unwrap();
    assert_eq!(res.steps, 5);
    assert_eq!(res.rank_done, vec![3, 1, 3, 5]);
    assert_eq!(res.hops, 6);
    assert_eq!(res.per_step, vec![1, 1, 2, 1, 1]);
}

const NETS: &[&str] = &[
    "torus:4x4",
    "torus:6x6",
    "torus:4x4x4",
    "ibt:8x8:b=4",
    "ibt:12x12:b=4,8",
    "ibt:8x8:b=6",
    "ibt:6x6x6:b=3",
    "torus:5x5",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, .. ProptestConfig::default() })]

    /// Every broadcast verifies, never beats the lower bounds, and the schedule front end
    /// replays its schedule (each op at its own step) in exactly the protocol's steps.
    #[test]
    fn every_broadcast_verifies(net in 0..NETS.len(), kind in 0..4usize, root in 0u32..1000, k in 1u32..7,
                                pattern in 0u8..16, fifo in any::<bool>(), one_port in proptest::bool::weighted(0.2)) {
        let t = Topology::from_spec(NETS[net]).unwrap();
        let kind = [Kind::Line, Kind::Rect, Kind::Global, Kind::Trees][kind];
        let mut req = AlgoRequest::new(&t, CollectiveKind::Broadcast);
        req.root = root % t.num_switches() as u32;
        req.packets = k;
        let mut sets = vec![format!("pattern={pattern}")];
        if kind == Kind::Trees { sets.clear(); }
        if fifo { sets.push("forward=fifo".into()); }
        if one_port { sets.push("ports=one".into()); }
        req.params = Params::parse(&sets).unwrap();
        let s = crate::algorithms::build(kind.name(), &req).unwrap();
        let v = report(&t, kind, req.root, k, &req.params).unwrap();
        let steps = v["steps"].as_u64().unwrap() as u32;
        prop_assert!(steps >= v["lower_bound"].as_u64().unwrap() as u32);
        prop_assert!(v["lower_bound"].as_u64().unwrap() >= v["eccentricity"].as_u64().unwrap());
        prop_assert_eq!(s.verify().counts.messages as u64, v["sends"].as_u64().unwrap());
        let r = Routing::new(&t, RoutingKind::Shortest, None).unwrap();
        let ports = if one_port { PortModel::OnePort } else { PortModel::AllPort };
        let replay = sched::run(&s, &t, &r, ports, Timing::Steps).unwrap();
        prop_assert_eq!(replay.steps, steps);
    }
}
