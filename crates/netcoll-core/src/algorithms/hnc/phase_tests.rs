//! `steps=phase`: one communication step per phase of HNC (seed 000 s3, Fig. 4).

use super::*;
use crate::algorithms::{build, Params};
use crate::schedule::{Counts, OpKind};
use crate::topology::Topology;
use proptest::prelude::*;

fn req<'a>(t: &'a Topology, params: &[&str]) -> AlgoRequest<'a> {
    let mut r = AlgoRequest::new(t, CollectiveKind::AlltoallBroadcast);
    r.params = Params::parse(params).unwrap();
    r
}

/// Unicast messages (a message to k destinations counts k) per step of a built schedule.
fn messages_per_step(s: &Schedule) -> Vec<u64> {
    let mut out = Vec::new();
    for g in 0..s.num_ops() {
        let op = s.op(s.op_ref(g));
        if let OpKind::Send { msg, .. } = op.kind {
            let st = op.step.expect("every HNC send has a step") as usize;
            if out.len() <= st {
                out.resize(st + 1, 0);
            }
            out[st] += s.dests(s.message(msg)).len() as u64;
        }
    }
    out
}

/// The closed form's phases, in the order they run, as unicast message counts.
fn closed_phases(t: &Topology, params: &[&str]) -> Vec<(&'static str, u64)> {
    let r = req(t, params);
    let (region, _, mut calc, level) = plan(&r).unwrap();
    calc.hnc_phases(&region, &level)
        .into_iter()
        .filter(|(_, f)| f.steps > 0)
        .map(|(n, f)| (n, f.messages))
        .collect()
}

#[test]
fn the_2x2_mesh_of_fig_3_has_four_steps_by_hand() {
    // b: 4 one-hop unicasts; d: 2 (d1^d2 and d3^d4 between the intermediates); e: 2; f: 4.
    let t = Topology::from_spec("mesh:2x2").unwrap();
    let s = build("hnc", &req(&t, &["group=2x1", "steps=phase"])).unwrap();
    assert_eq!(messages_per_step(&s), vec![4, 2, 2, 4]);
    // The 4x4 mesh with 2x2 groups: a tree inside a 2x2 group takes 2 levels, so by level
    // there are 2 (b) + 2 (d, on the 2x2 grid of intermediates) + 2 (e) + 1 (f) = 7 steps;
    // by phase 4: b 16 x 3 = 48, d 4 x 3 = 12, e 4 x 3 groups x 3 members = 36, f 16 x 3 = 48.
    let t = Topology::from_spec("mesh:4x4").unwrap();
    let level = build("hnc", &req(&t, &["group=2x2"])).unwrap();
    assert_eq!(messages_per_step(&level).len(), 7);
    let s = build("hnc", &req(&t, &["group=2x2", "steps=phase"])).unwrap();
    assert_eq!(messages_per_step(&s), vec![48, 12, 36, 48]);
    let f = hnc_closed(&req(&t, &["group=2x2", "steps=phase"])).unwrap();
    assert_eq!(f["steps"], 4);
}

#[test]
fn steps_is_checked() {
    let t = Topology::from_spec("mesh:4x4").unwrap();
    let e = build("hnc", &req(&t, &["steps=tree"]))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("steps=tree is unknown: use level or phase"),
        "{e}"
    );
    assert!(!e.contains('\n'));
}

fn setting() -> impl Strategy<Value = Vec<&'static str>> {
    (
        prop_oneof![Just("base=tree"), Just("base=all-at-once")],
        prop_oneof![
            Just(vec!["receiver=corresponding"]),
            Just(vec!["receiver=intermediate"]),
            Just(vec!["mode=combine"]),
            Just(vec!["encode=all"]),
        ],
        any::<bool>(),
    )
        .prop_map(|(b, mut v, inner)| {
            v.push(b);
            if inner {
                v.push("inner=auto");
            }
            v
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Any size, group and setting: numbering by phase changes only the steps. The schedule
    /// verifies, has the same counts as by level, and its steps carry exactly the messages
    /// of the closed form's phases, in order.
    #[test]
    fn phase_steps_are_the_closed_form_phases(
        dims in prop::collection::vec(2usize..=6, 1..=3),
        torus in any::<bool>(),
        pick in 0usize..1000,
        set in setting(),
    ) {
        let n: usize = dims.iter().product();
        prop_assume!((4..=72).contains(&n));
        let spec = format!("{}:{}", if torus { "torus" } else { "mesh" }, plan::show(&dims));
        let t = Topology::from_spec(&spec).unwrap();
        let region = Net { dims: dims.clone(), torus, rank_at: vec![] }.region();
        let shapes = closed::valid_shapes(&region);
        prop_assume!(!shapes.is_empty());
        let group = format!("group={}", plan::show(&shapes[pick % shapes.len()]));
        let mut params = set.clone();
        params.push(&group);
        let level = build("hnc", &req(&t, &params)).unwrap();
        let phases = closed_phases(&t, &params);
        params.push("steps=phase");
        let s = build("hnc", &req(&t, &params)).unwrap();
        let (a, b) = (Counts::of(&level), Counts::of(&s));
        prop_assert_eq!((a.messages, a.packets), (b.messages, b.packets));
        let want: Vec<u64> = phases.iter().map(|p| p.1).collect();
        prop_assert_eq!(messages_per_step(&s), want, "{} {:?} {:?}", spec, params, phases);
        let f = hnc_closed(&req(&t, &params)).unwrap();
        prop_assert_eq!(f["steps"].as_u64().unwrap(), phases.len() as u64);
    }
}

fn closed_of(spec: &str, params: &[&str]) -> serde_json::Value {
    let t = Topology::from_spec(spec).unwrap();
    hnc_closed(&req(&t, params)).unwrap()
}

#[test]
fn compact_groups_are_the_best_size_in_the_squarest_shape() {
    // s4.3: the 16-ary 2-mesh's best size is 32; "our recommendation configuration is 8 x 4
    // or 4 x 8" (longest path 10 against 16 for 16x2); 8x4 has fewer hops (32,480 vs 35,040).
    let f = closed_of("mesh:16x16", &["group=compact"]);
    assert_eq!(
        (f["group"].as_str(), f["group_size"].as_u64()),
        (Some("8x4"), Some(32))
    );
    assert_eq!(closed_of("mesh:16x16", &[])["group"], "16x2");
    // The 32-ary 2-mesh: auto picks 32x4 (128 nodes); the squarest 128-node shape is 16x8 or
    // 8x16 (longest path 22 against 34).
    let f = closed_of("mesh:32x32", &["group=compact"]);
    assert_eq!(f["group_size"], 128);
    assert!(f["group"] == "16x8" || f["group"] == "8x16", "{f}");
    let t = Topology::from_spec("mesh:4x4").unwrap();
    let mut r = AlgoRequest::new(&t, CollectiveKind::ManyToAll);
    r.sources = vec![0, 5];
    r.params = Params::parse(&["group=compact"]).unwrap();
    let e = build("hnc", &r).unwrap_err().to_string();
    assert!(
        e.contains("group=compact is for the all-to-all broadcast"),
        "{e}"
    );
}

#[test]
fn paper_groups_are_the_papers_8x4() {
    for spec in [
        "mesh:8x8",
        "mesh:16x16",
        "mesh:32x32",
        "torus:16x8",
        "mesh:256x256",
    ] {
        let f = closed_of(spec, &["group=paper"]);
        assert_eq!(
            (f["group"].as_str(), f["group_size"].as_u64()),
            (Some("8x4"), Some(32))
        );
    }
    // Where 8x4 does not tile, the error says so and names the alternatives.
    for spec in ["mesh:4x4", "mesh:12x8", "mesh:8x8x8"] {
        let t = Topology::from_spec(spec).unwrap();
        let e = hnc_closed(&req(&t, &["group=paper"]))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("group=paper is the paper's 8x4") && e.contains("compact"),
            "{e}"
        );
    }
    // Many-to-all takes it as a fixed shape.
    let t = Topology::from_spec("mesh:16x16").unwrap();
    let mut r = AlgoRequest::new(&t, CollectiveKind::ManyToAll);
    r.sources = vec![0, 5, 77];
    r.params = Params::parse(&["group=paper"]).unwrap();
    assert!(build("hnc", &r).is_ok());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Any mesh or torus: `group=compact` has auto's group size, and no shape of that size has
    /// a shorter longest path.
    #[test]
    fn compact_groups_keep_the_auto_size(
        dims in prop::collection::vec(2usize..=8, 1..=3),
        torus in any::<bool>(),
    ) {
        let n: usize = dims.iter().product();
        prop_assume!((4..=128).contains(&n));
        let spec = format!("{}:{}", if torus { "torus" } else { "mesh" }, plan::show(&dims));
        let region = Net { dims: dims.clone(), torus, rank_at: vec![] }.region();
        prop_assume!(!closed::valid_shapes(&region).is_empty());
        let auto = closed_of(&spec, &[]);
        let paper = closed_of(&spec, &["group=compact"]);
        prop_assert_eq!(&auto["group_size"], &paper["group_size"]);
        let shape = |v: &serde_json::Value| -> Vec<usize> {
            v["group"].as_str().unwrap().split('x').map(|x| x.parse().unwrap()).collect()
        };
        let mine = closed::longest_path(&region, &shape(&paper));
        let size = paper["group_size"].as_u64().unwrap() as usize;
        for s in closed::valid_shapes(&region) {
            if s.iter().product::<usize>() == size {
                prop_assert!(mine <= closed::longest_path(&region, &s), "{} {:?}", spec, s);
            }
        }
        prop_assert!(auto["aggregate_hops"].as_u64() <= paper["aggregate_hops"].as_u64());
    }
}
