//! Many-to-all: schedules verify, the count equals the built schedule, hand-worked cases.

use super::super::closed::valid_shapes;
use super::super::grid::Net;
use super::super::plan;
use crate::algorithms::{build, find, parse_sources, AlgoRequest, Params};
use crate::schedule::{CollectiveKind, Counts, Schedule};
use crate::topology::Topology;
use proptest::prelude::*;

use super::super::schedule_hops;

fn req<'a>(t: &'a Topology, sources: &[u32], params: &[&str]) -> AlgoRequest<'a> {
    let mut r = AlgoRequest::new(t, CollectiveKind::ManyToAll);
    r.sources = sources.to_vec();
    r.params = Params::parse(params).unwrap();
    r
}

/// The request as `name` takes it: the baselines have no parameters.
fn for_algo<'a>(name: &str, r: &AlgoRequest<'a>) -> AlgoRequest<'a> {
    AlgoRequest {
        params: if name == "hnc" {
            r.params.clone()
        } else {
            Params::default()
        },
        placement: r.placement.clone(),
        targets: r.targets.clone(),
        sources: r.sources.clone(),
        ..*r
    }
}

fn count(name: &str, r: &AlgoRequest) -> serde_json::Value {
    let r = &for_algo(name, r);
    let a = find(r.kind, name).unwrap();
    r.params.check_known(name, a.params).unwrap();
    (a.closed_form.unwrap())(r).unwrap()
}

fn num(v: &serde_json::Value, key: &str) -> u64 {
    v[key].as_u64().unwrap_or_else(|| panic!("no {key} in {v}"))
}

/// (messages, aggregate hops, steps) of the count.
fn figs(v: &serde_json::Value) -> (u64, u64, u64) {
    (
        num(v, "messages"),
        num(v, "aggregate_hops"),
        num(v, "steps"),
    )
}

/// Builds (and so verifies) the schedule and checks the count against its routed figures.
fn check(name: &str, r: &AlgoRequest) -> Schedule {
    let r = &for_algo(name, r);
    let s = build(name, r).unwrap_or_else(|e| panic!("{name} {:?}: {e}", r.sources));
    let c = Counts::of(&s);
    let h = schedule_hops(&s, r.topo).unwrap();
    let f = count(name, r);
    let got = (c.messages, h.aggregate_hops, c.packets, h.packet_hops);
    let want = (
        num(&f, "messages"),
        num(&f, "aggregate_hops"),
        num(&f, "packets"),
        num(&f, "packet_hops"),
    );
    assert_eq!(got, want, "{name} {:?} {:?}: {f}", r.sources, r.params);
    let steps = c.max_step.map_or(0, |m| m + 1) as u64;
    assert_eq!(steps, num(&f, "steps"), "{name} {:?}: {f}", r.sources);
    s
}

#[test]
fn two_sources_on_a_4x4_mesh_by_hand() {
    // Sources (0,0) and (1,0), both in group 0 of four 2x2 groups, intermediates at the
    // corners. (b) 6 unicasts, 8 hops; (d) the chain d0^d1 to 3 intermediates, 2+2+4 = 8;
    // (e) 3 deliveries of 1+1+2 = 4; (f) 12 raw unicasts, nearest source for non-sources:
    // 9 + 10 + 17 = 36. 30 unicasts, 64 hops, 4 steps.
    let t = Topology::from_spec("mesh:4x4").unwrap();
    let params = ["group=2x2", "place=0x0", "base=all-at-once"];
    let r = req(&t, &[0, 1], &params);
    check("hnc", &r);
    let f = count("hnc", &r);
    assert_eq!(figs(&f), (30, 64, 4));
    let phase = |p: &str| {
        (
            num(&f["phases"][p], "messages"),
            num(&f["phases"][p], "aggregate_hops"),
        )
    };
    assert_eq!(phase("b"), (6, 8));
    assert_eq!(phase("d"), (3, 8));
    assert_eq!(phase("e"), (9, 12));
    assert_eq!(phase("f"), (12, 36));
    assert_eq!(num(&f, "groups_with_sources"), 1);
    // All-at-once: from the corner 48 hops, from (1,0) 40; tree: 20 each (4 + 4 x 4).
    assert_eq!(figs(&count("all-at-once", &r)), (30, 88, 1));
    assert_eq!(figs(&count("tree-multicast", &r)), (30, 40, 4));
    check("all-at-once", &r);
    check("tree-multicast", &r);
}

#[test]
fn one_source_with_all_at_once_is_the_all_at_once_multicast() {
    // No chain: the source reaches its group in (b) and every other node raw in (f).
    let t = Topology::from_spec("mesh:6x4").unwrap();
    for s in 0..24 {
        let r = req(&t, &[s], &["base=all-at-once", "group=3x2"]);
        let h = count("hnc", &r);
        let a = count("all-at-once", &r);
        assert_eq!(figs(&h).1, figs(&a).1, "source {s}");
        assert!(h["phases"].get("d").is_none() && h["phases"].get("e").is_none());
    }
}

#[test]
fn every_rank_a_source_is_the_all_to_all_hnc() {
    for spec in ["mesh:8x8", "torus:6x4", "mesh:4x2x3"] {
        let t = Topology::from_spec(spec).unwrap();
        let all: Vec<u32> = (0..t.num_switches() as u32).collect();
        for set in [
            vec![],
            vec!["base=all-at-once"],
            vec!["receiver=intermediate", "place=corner"],
        ] {
            let m = count("hnc", &req(&t, &all, &set));
            let mut a = AlgoRequest::new(&t, CollectiveKind::AlltoallBroadcast);
            a.params = Params::parse(&set).unwrap();
            let want = (find(a.kind, "hnc").unwrap().closed_form.unwrap())(&a).unwrap();
            assert_eq!(figs(&m), figs(&want), "{spec} {set:?}");
            assert_eq!(m["group"], want["group"]);
        }
    }
}

#[test]
fn benefits_grow_with_the_number_of_sources_on_the_16_ary_2_mesh() {
    // Fig. 18's trend, on averages over seeds (all-at-once HNC / all-at-once multicast).
    let t = Topology::from_spec("mesh:16x16").unwrap();
    let ratio = |s: u32| -> f64 {
        let mut sum = 0.0;
        for seed in 0..4 {
            let src = parse_sources(&format!("random:{s},seed={seed}"), 256).unwrap();
            let r = req(&t, &src, &["base=all-at-once"]);
            sum += num(&count("hnc", &r), "aggregate_hops") as f64
                / num(&count("all-at-once", &r), "aggregate_hops") as f64;
        }
        sum / 4.0
    };
    let curve: Vec<f64> = [2, 8, 32, 128, 256].iter().map(|&s| ratio(s)).collect();
    assert!(curve.windows(2).all(|w| w[1] < w[0]), "{curve:?}");
    assert!(curve[0] <= 1.0 && curve[4] < 0.2, "{curve:?}");
}

#[test]
fn bad_requests_are_one_line_errors() {
    let t = Topology::from_spec("mesh:4x4").unwrap();
    let err = |sources: &[u32], params: &[&str]| -> String {
        let e = build("hnc", &req(&t, sources, params))
            .unwrap_err()
            .to_string();
        assert!(!e.contains('\n'), "{e}");
        e
    };
    assert!(err(&[], &[]).contains("at least one source"));
    assert!(err(&[3, 3], &[]).contains("source 3 is listed twice"));
    assert!(err(&[16], &[]).contains("source 16 is out of range"));
    let many: Vec<u32> = (0..17).map(|i| i % 16).collect();
    assert!(err(&many, &[]).contains("17 sources on 16 ranks"));
    assert!(err(&[1], &["inner=auto"]).contains("inner"));
    assert!(err(&[1], &["group=3x2"]).contains("does not divide"));
    let h = Topology::from_spec("hypercube:4").unwrap();
    assert!(build("hnc", &req(&h, &[1], &[]))
        .unwrap_err()
        .to_string()
        .contains("meshes and tori"));
    let mut r = req(&t, &[1], &[]);
    r.p = 8;
    r.placement = (0..8).collect();
    assert!(build("all-at-once", &r)
        .unwrap_err()
        .to_string()
        .contains("use 16 ranks"));
    let mut a = AlgoRequest::new(&t, CollectiveKind::Allgather);
    a.sources = vec![1];
    assert!(build("hnc", &a)
        .unwrap_err()
        .to_string()
        .contains("manytoall only"));
}

#[test]
fn schedules_round_trip_through_json() {
    let t = Topology::from_spec("torus:4x4").unwrap();
    let r = req(&t, &[9, 2, 5], &["group=2x2"]);
    let s = check("hnc", &r);
    let text = s.to_json();
    assert!(text.contains("\"sources\":[9,2,5]"), "{text}");
    let back = Schedule::from_json(&text).unwrap();
    assert_eq!(back.to_json(), text);
    assert!(back.verify().ok);
}

fn setting() -> impl Strategy<Value = Vec<&'static str>> {
    prop_oneof![
        Just(vec![]),
        Just(vec!["base=all-at-once"]),
        Just(vec!["receiver=intermediate"]),
        Just(vec!["receiver=intermediate", "base=all-at-once"]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Any size, shape, group, intermediate place, source set and setting: every algorithm's
    /// schedule verifies (decoding included) and the count equals it.
    #[test]
    fn every_many_to_all_schedule_verifies(
        dims in prop::collection::vec(2usize..=6, 1..=3),
        torus in any::<bool>(),
        pick in 0usize..1000,
        offs in prop::collection::vec(0usize..6, 3),
        set in setting(),
        frac in 1u32..=100,
        seed in 0u64..1000,
        placed in any::<bool>(),
    ) {
        let n: usize = dims.iter().product();
        prop_assume!((4..=72).contains(&n));
        let spec = format!("{}:{}", if torus { "torus" } else { "mesh" }, plan::show(&dims));
        let t = Topology::from_spec(&spec).unwrap();
        let count = (n as u32 * frac).div_ceil(100);
        let sources = parse_sources(&format!("random:{count},seed={seed}"), n as u32).unwrap();
        let region = Net { dims: dims.clone(), torus, rank_at: vec![] }.region();
        let shapes = valid_shapes(&region);
        let mut params: Vec<String> = set.iter().map(|s| s.to_string()).collect();
        if !shapes.is_empty() && pick % 3 != 0 {
            let shape = &shapes[pick % shapes.len()];
            let place: Vec<usize> = shape.iter().zip(&offs).map(|(&s, &o)| o % s).collect();
            params.push(format!("group={}", plan::show(shape)));
            params.push(format!("place={}", plan::show(&place)));
        }
        let params: Vec<&str> = params.iter().map(String::as_str).collect();
        let mut r = req(&t, &sources, &params);
        if placed {
            // A scrambled placement: rank i on node (5 i + 3) mod n when coprime.
            let mul = if n % 5 == 0 { 1 } else { 5 };
            r.placement = (0..n as u32).map(|i| (mul * i + 3) % n as u32).collect();
        }
        r.bytes = 8;
        r.packets = 2;
        check("hnc", &r);
        check("all-at-once", &r);
        check("tree-multicast", &r);
    }
}
