use super::closed::valid_shapes;
use super::*;
use crate::algorithms::{build, find, Params};
use crate::schedule::Counts;
use crate::topology::Topology;
use proptest::prelude::*;

fn req<'a>(t: &'a Topology, kind: CollectiveKind, params: &[&str]) -> AlgoRequest<'a> {
    let mut r = AlgoRequest::new(t, kind);
    r.params = Params::parse(params).unwrap();
    r
}

fn closed(name: &str, t: &Topology, params: &[&str]) -> serde_json::Value {
    let r = req(t, CollectiveKind::AlltoallBroadcast, params);
    let a = find(r.kind, name).unwrap();
    r.params.check_known(name, a.params).unwrap();
    (a.closed_form.unwrap())(&r).unwrap()
}

fn num(v: &serde_json::Value, key: &str) -> u64 {
    v[key].as_u64().unwrap_or_else(|| panic!("no {key} in {v}"))
}

/// Builds (and so verifies) the schedule, and checks that the closed form gives exactly its
/// counts: unicast messages and packets, aggregate DOR hops of both, steps.
fn check_against_closed(name: &str, spec: &str, params: &[&str], kind: CollectiveKind) {
    let t = Topology::from_spec(spec).unwrap();
    let mut r = req(&t, kind, params);
    r.bytes = 8;
    r.packets = 2;
    let s = build(name, &r).unwrap_or_else(|e| panic!("{name} {spec} {params:?}: {e}"));
    let c = Counts::of(&s);
    let h = schedule_hops(&s, &t).unwrap();
    let f = (find(kind, name).unwrap().closed_form.unwrap())(&r).unwrap();
    let got = (c.messages, h.aggregate_hops, c.packets, h.packet_hops);
    let want = (
        num(&f, "messages"),
        num(&f, "aggregate_hops"),
        num(&f, "packets"),
        num(&f, "packet_hops"),
    );
    assert_eq!(got, want, "{name} {spec} {params:?}: {f}");
    assert_eq!(
        c.max_step.map_or(0, |m| m + 1) as u64,
        num(&f, "steps"),
        "{spec} {params:?}"
    );
}

#[test]
fn tree_baseline_of_the_32_ary_2_mesh_is_2703360_hops() {
    let t = Topology::from_spec("mesh:32x32").unwrap();
    let f = closed("tree-multicast", &t, &[]);
    assert_eq!(num(&f, "aggregate_hops"), 2_703_360);
    assert_eq!(num(&f, "messages"), 1024 * 1023);
    assert_eq!(num(&f, "steps"), 10);
}

#[test]
fn all_at_once_sums_are_the_sums_of_all_pair_distances() {
    // Sum over ordered pairs of a k-ary 2-mesh: 2 k^2 (k^3 - k) / 3; torus: 2 k^2 * k * (k^2/4).
    for k in [2u64, 4, 8, 16, 32, 256] {
        let mesh = Topology::from_spec(&format!("mesh:{k}x{k}")).unwrap();
        let f = closed("all-at-once", &mesh, &[]);
        assert_eq!(num(&f, "messages"), k * k * (k * k - 1));
        assert_eq!(
            num(&f, "aggregate_hops"),
            2 * k * k * (k * k * k - k) / 3,
            "k={k}"
        );
        let torus = Topology::from_spec(&format!("torus:{k}x{k}")).unwrap();
        let f = closed("all-at-once", &torus, &[]);
        assert_eq!(
            num(&f, "aggregate_hops"),
            2 * k * k * k * (k * k / 4),
            "k={k}"
        );
    }
    // The 256-ary 2-mesh: 4.29e9 unicasts.
    let t = Topology::from_spec("mesh:256x256").unwrap();
    assert_eq!(
        num(&closed("all-at-once", &t, &[]), "messages"),
        4_294_901_760
    );
}

#[test]
fn best_group_of_the_16_ary_2_mesh_has_32_nodes() {
    let t = Topology::from_spec("mesh:16x16").unwrap();
    let f = closed("hnc", &t, &[]);
    assert_eq!(num(&f, "group_size"), 32, "{f}");
    // And it is the best of all sizes from 2 to 128 (Fig. 6).
    let mut best = (u64::MAX, 0);
    for m in [2u64, 4, 8, 16, 32, 64, 128] {
        for a in [1u64, 2, 4, 8, 16] {
            if m % a != 0 || m / a > 16 {
                continue;
            }
            let g = format!("group={a}x{}", m / a);
            let h = num(&closed("hnc", &t, &[&g]), "aggregate_hops");
            best = best.min((h, m));
        }
    }
    assert_eq!(best.1, 32);
}

#[test]
fn the_2x2_mesh_of_fig_3_by_hand() {
    // Groups are the two rows; b: 4 one-hop unicasts; d: 2; e: 2; f: 4 (1 -> 3, 2 -> 4, ...).
    let t = Topology::from_spec("mesh:2x2").unwrap();
    let f = closed("hnc", &t, &["group=2x1"]);
    assert_eq!((num(&f, "messages"), num(&f, "aggregate_hops")), (12, 12));
    assert_eq!(num(&f, "steps"), 4);
    let tree = closed("tree-multicast", &t, &[]);
    assert_eq!(
        (num(&tree, "messages"), num(&tree, "aggregate_hops")),
        (12, 12)
    );
    let aao = closed("all-at-once", &t, &[]);
    assert_eq!(
        (num(&aao, "messages"), num(&aao, "aggregate_hops")),
        (12, 16)
    );
    check_against_closed(
        "hnc",
        "mesh:2x2",
        &["group=2x1"],
        CollectiveKind::AlltoallBroadcast,
    );
}

#[test]
fn closed_forms_equal_built_schedules_for_the_baselines() {
    for spec in [
        "mesh:2x2",
        "mesh:3x5",
        "mesh:4x4",
        "mesh:6x4",
        "mesh:8x8",
        "torus:4x4",
        "torus:5x3",
        "torus:6x6",
        "mesh:4x2x3",
        "torus:2x4x2",
        "mesh:7",
    ] {
        for name in ["tree-multicast", "all-at-once"] {
            check_against_closed(name, spec, &[], CollectiveKind::AlltoallBroadcast);
            check_against_closed(
                name,
                spec,
                &["steps=phase"],
                CollectiveKind::AlltoallBroadcast,
            );
        }
    }
}

#[test]
fn closed_forms_equal_built_schedules_for_hnc_settings() {
    let settings: &[&[&str]] = &[
        &[],
        &["base=all-at-once"],
        &["receiver=intermediate"],
        &["receiver=intermediate", "base=all-at-once"],
        &["encode=all"],
        &["mode=combine"],
        &["mode=combine", "base=all-at-once"],
        &["place=corner"],
        &["place=center", "base=all-at-once"],
        &["inner=auto"],
        &["step_e=scatter-allgather"],
        &["step_e=pipelined"],
        &["step_e=scatter-allgather", "receiver=intermediate"],
        &[
            "step_e=pipelined",
            "receiver=intermediate",
            "base=all-at-once",
        ],
        &["step_e=scatter-allgather", "mode=combine"],
        &["step_e=pipelined", "mode=combine", "place=corner"],
        &["step_e=pipelined", "inner=auto", "place=center"],
    ];
    for spec in [
        "mesh:4x4",
        "torus:4x4",
        "mesh:6x4",
        "torus:6x3",
        "mesh:8x8",
        "mesh:4x2x2",
    ] {
        for s in settings {
            check_against_closed("hnc", spec, s, CollectiveKind::AlltoallBroadcast);
        }
    }
    check_against_closed(
        "hnc",
        "mesh:8x8",
        &["group=4x4", "inner=2x2"],
        CollectiveKind::Allgather,
    );
    check_against_closed(
        "hnc",
        "torus:8x4",
        &["group=8x2", "inner=2x2", "base=all-at-once"],
        CollectiveKind::Allgather,
    );
}

#[test]
fn bad_settings_get_one_line_errors() {
    let t = Topology::from_spec("mesh:4x4").unwrap();
    let r = |p: &[&str]| {
        build("hnc", &req(&t, CollectiveKind::AlltoallBroadcast, p))
            .unwrap_err()
            .to_string()
    };
    assert!(
        r(&["group=3x4"]).contains("does not divide"),
        "{}",
        r(&["group=3x4"])
    );
    assert!(r(&["group=4x4"]).contains("at least 2 groups"));
    assert!(r(&["group=1x1"]).contains("at least 2 nodes"));
    assert!(r(&["group=4"]).contains("not a shape"));
    assert!(r(&["place=4x0", "group=2x2"]).contains("outside a group"));
    assert!(r(&["base=ring"]).contains("tree or all-at-once"));
    assert!(r(&["encode=all", "receiver=intermediate"]).contains("encode=all"));
    let ring = Topology::from_spec("hypercube:4").unwrap();
    assert!(
        build("hnc", &AlgoRequest::new(&ring, CollectiveKind::Allgather))
            .unwrap_err()
            .to_string()
            .contains("meshes and tori")
    );
    let tiny = Topology::from_spec("mesh:3").unwrap();
    let e = build("hnc", &req(&tiny, CollectiveKind::Allgather, &["group=1"])).unwrap_err();
    assert!(e.to_string().contains("at least 2 nodes"), "{e}");
    let mut few = req(&t, CollectiveKind::AlltoallBroadcast, &[]);
    few.p = 8;
    few.placement.truncate(8);
    assert!(build("hnc", &few)
        .unwrap_err()
        .to_string()
        .contains("whole network"));
}

#[test]
fn schedules_decode_under_any_placement_of_ranks() {
    let t = Topology::from_spec("torus:4x4").unwrap();
    let mut r = req(&t, CollectiveKind::AlltoallBroadcast, &["group=2x2"]);
    r.placement = (0..16).map(|i| (i * 7) % 16).collect();
    assert!(build("hnc", &r).is_ok());
}

#[test]
fn paper_scale_closed_form_for_the_256_ary_2_mesh() {
    let t = Topology::from_spec("mesh:256x256").unwrap();
    for base in ["base=tree", "base=all-at-once"] {
        let f = closed("hnc", &t, &[base]);
        assert!(num(&f, "aggregate_hops") > 0);
        assert!(f["group"].is_string());
    }
}

fn setting() -> impl Strategy<Value = Vec<&'static str>> {
    (
        (
            prop_oneof![Just("base=tree"), Just("base=all-at-once")],
            prop_oneof![
                Just("step_e=tree"),
                Just("step_e=scatter-allgather"),
                Just("step_e=pipelined")
            ],
        ),
        prop_oneof![
            Just("receiver=corresponding"),
            Just("receiver=intermediate")
        ],
        prop_oneof![Just("mode=code"), Just("mode=combine")],
        prop_oneof![
            Just("place=auto"),
            Just("place=corner"),
            Just("place=center")
        ],
        any::<bool>(),
    )
        .prop_map(|((b, e), r, m, p, all)| {
            if all && m == "mode=code" {
                vec![b, "encode=all", m, p]
            } else {
                vec![b, r, m, p, e]
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Any size, group shape, placement and setting: the schedule verifies (decoding
    /// included) and its counts equal the closed form.
    #[test]
    fn every_hnc_schedule_verifies(
        dims in prop::collection::vec(2usize..=6, 1..=3),
        torus in any::<bool>(),
        pick in 0usize..1000,
        offs in prop::collection::vec(0usize..6, 3),
        set in setting(),
        inner in any::<bool>(),
    ) {
        let n: usize = dims.iter().product();
        prop_assume!((4..=72).contains(&n));
        let spec = format!("{}:{}", if torus { "torus" } else { "mesh" }, plan::show(&dims));
        let region = Net { dims: dims.clone(), torus, rank_at: vec![] }.region();
        let shapes = valid_shapes(&region);
        prop_assume!(!shapes.is_empty());
        let shape = &shapes[pick % shapes.len()];
        let group = format!("group={}", plan::show(shape));
        let place: Vec<usize> = shape.iter().zip(&offs).map(|(&s, &o)| o % s).collect();
        let place = format!("place={}", plan::show(&place));
        let mut params: Vec<&str> = set.clone();
        params.push(&group);
        if pick % 2 == 0 {
            params.retain(|p| !p.starts_with("place"));
            params.push(&place);
        }
        if inner {
            params.push("inner=auto");
        }
        check_against_closed("hnc", &spec, &params, CollectiveKind::AlltoallBroadcast);
    }
}

#[test]
fn every_node_encoding_generates_as_many_packets_as_fig_4() {
    // s3: "The total number of generated packets in the variation is equal to that in the
    // algorithm in Fig. 4": (d) + (e) of Fig. 4 against (d) of the variant, one packet a block.
    for (spec, group) in [
        ("mesh:8x8", "group=4x2"),
        ("torus:6x4", "group=3x2"),
        ("mesh:16x16", "group=8x4"),
    ] {
        let t = Topology::from_spec(spec).unwrap();
        let fig4 = closed("hnc", &t, &[group]);
        let all = closed("hnc", &t, &[group, "encode=all"]);
        let p = |v: &serde_json::Value, ph: &str| num(&v["phases"][ph], "packets");
        assert_eq!(p(&fig4, "d") + p(&fig4, "e"), p(&all, "d"), "{spec}");
        // ... while its hops are larger: inter-group unicasts replace intra-group delivery.
        assert!(num(&all, "aggregate_hops") > num(&fig4, "aggregate_hops"));
    }
}

#[test]
fn recursion_and_the_intermediate_receiver_never_cost_hops() {
    for k in [8, 16, 32] {
        let t = Topology::from_spec(&format!("mesh:{k}x{k}")).unwrap();
        let plain = num(&closed("hnc", &t, &[]), "aggregate_hops");
        let rec = closed("hnc", &t, &["inner=auto"]);
        assert!(num(&rec, "aggregate_hops") <= plain);
        let inter = num(
            &closed("hnc", &t, &["receiver=intermediate"]),
            "aggregate_hops",
        );
        assert!(inter < plain, "k={k}");
    }
}

#[test]
fn under_four_nodes_auto_is_a_single_group() {
    for spec in ["mesh:2", "mesh:3", "torus:3", "mesh:2x1x1"] {
        let Ok(t) = Topology::from_spec(spec) else {
            continue;
        };
        check_against_closed("hnc", spec, &[], CollectiveKind::Allgather);
        let f = closed("hnc", &t, &[]);
        let tree = closed("tree-multicast", &t, &[]);
        assert_eq!(num(&f, "groups"), 1);
        assert_eq!(
            num(&f, "aggregate_hops"),
            num(&tree, "aggregate_hops"),
            "{spec}"
        );
    }
}

/// Packets injected by the busiest rank (a message to k destinations injects k copies).
fn busiest_sender(s: &crate::schedule::Schedule) -> u64 {
    let mut sent = vec![0u64; s.placement().len()];
    for m in s.messages() {
        sent[m.src as usize] += m.packets as u64 * s.dests(m).len() as u64;
    }
    sent.into_iter().max().unwrap_or(0)
}

#[test]
fn better_step_e_variants_relieve_the_intermediate() {
    // 16x16 mesh, the paper's 8x4 groups: under the paper's step (e) each intermediate sends
    // the (G-1)(M-1) = 7 x 31 pieces once per tree level (5), 1,085 packets plus its share of
    // (b), (d), (f): 1,340 in all; scatter-allgather sends each piece once (busiest rank 472),
    // pipelined at most twice (689).
    let t = Topology::from_spec("mesh:16x16").unwrap();
    let run = |e: &str| {
        let mut r = req(&t, CollectiveKind::AlltoallBroadcast, &["group=8x4", e]);
        r.bytes = 16;
        busiest_sender(&build("hnc", &r).unwrap())
    };
    let (tree, sa, pipe) = (
        run("step_e=tree"),
        run("step_e=scatter-allgather"),
        run("step_e=pipelined"),
    );
    assert!(tree >= 7 * 31 * 5, "{tree}");
    assert_eq!((tree, sa, pipe), (1340, 472, 689));
    assert!(
        sa * 2 < tree && pipe * 3 < tree * 2,
        "tree {tree}, sa {sa}, pipelined {pipe}"
    );
}

#[test]
fn step_e_is_checked() {
    let t = Topology::from_spec("mesh:4x4").unwrap();
    let e = build("hnc", &req(&t, CollectiveKind::Allgather, &["step_e=ring"]))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("use tree, scatter-allgather or pipelined"),
        "{e}"
    );
    let e = build(
        "hnc",
        &req(
            &t,
            CollectiveKind::Allgather,
            &["step_e=pipelined", "encode=all"],
        ),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("encode=all"), "{e}");
}
