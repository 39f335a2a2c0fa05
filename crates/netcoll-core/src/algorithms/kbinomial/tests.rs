use super::super::{build, AlgoRequest, Params};
use crate::models::{fpfs_steps, kbinomial_optimal, kbinomial_steps, kbinomial_tree};
use crate::schedule::{CollectiveKind, OpKind, Schedule};
use crate::topology::Topology;
use proptest::prelude::*;

/// NI steps of a schedule: one more than its last step.
fn steps(s: &Schedule) -> u64 {
    (0..s.p())
        .flat_map(|r| s.ops(r).iter().filter_map(|o| o.step))
        .max()
        .map_or(0, |m| u64::from(m) + 1)
}

fn sends(s: &Schedule) -> usize {
    (0..s.p())
        .map(|r| {
            s.ops(r)
                .iter()
                .filter(|o| matches!(o.kind, OpKind::Send { .. }))
                .count()
        })
        .sum()
}

fn request<'a>(t: &'a Topology, p: u32, m: u32, params: &[&str]) -> AlgoRequest<'a> {
    let mut r = AlgoRequest::new(t, CollectiveKind::Broadcast);
    r.p = p;
    r.placement = (0..p).collect();
    r.packets = m;
    r.params = Params::parse(params).unwrap();
    r
}

#[test]
fn seed003_three_packets_three_destinations_5_vs_6_steps() {
    let t = Topology::from_spec("mesh:4").unwrap();
    let linear = build("kbinomial", &request(&t, 4, 3, &["k=1", "order=natural"])).unwrap();
    let binomial = build("kbinomial", &request(&t, 4, 3, &["k=2", "order=natural"])).unwrap();
    assert_eq!((steps(&linear), steps(&binomial)), (5, 6));
    // The default k is Theorem 3's: the linear tree here.
    let auto = build("kbinomial", &request(&t, 4, 3, &["order=natural"])).unwrap();
    assert_eq!(steps(&auto), 5);
    // 3 packets to 3 destinations: 9 packet copies either way.
    assert_eq!((sends(&linear), sends(&binomial)), (9, 9));
}

#[test]
fn seed003_three_packets_seven_destinations_9_steps() {
    let t = Topology::from_spec("mesh:8").unwrap();
    let s = build("kbinomial", &request(&t, 8, 3, &["k=3", "order=natural"])).unwrap();
    assert_eq!(steps(&s), 9);
    let best = build("kbinomial", &request(&t, 8, 3, &["order=natural"])).unwrap();
    assert_eq!(steps(&best), 8);
}

#[test]
fn fcfs_is_never_faster_than_fpfs_and_hand_worked() {
    // Binomial tree on 4 with 3 packets, FCFS: the source sends packets 0,1,2 to its first
    // child (steps 0-2) then to the second (3-5); the first child forwards 0,1,2 in 1-3.
    let t = Topology::from_spec("mesh:4").unwrap();
    let s = build(
        "kbinomial",
        &request(&t, 4, 3, &["k=2", "forwarding=fcfs", "order=natural"]),
    )
    .unwrap();
    assert_eq!(steps(&s), 6);
    for p in [5u32, 9, 16] {
        let t = Topology::from_spec(&format!("mesh:{p}")).unwrap();
        for k in 1..4 {
            let kk = format!("k={k}");
            let fp = build("kbinomial", &request(&t, p, 4, &[&kk])).unwrap();
            let fc = build("kbinomial", &request(&t, p, 4, &[&kk, "forwarding=fcfs"])).unwrap();
            assert!(steps(&fc) >= steps(&fp), "p={p} k={k}");
        }
    }
}

#[test]
fn bad_parameters() {
    let t = Topology::from_spec("mesh:4").unwrap();
    for (params, want) in [
        (vec!["k=0"], "out of range"),
        (vec!["forwarding=lifo"], "fpfs or fcfs"),
        (vec!["order=random"], "natural, dimension or updown"),
    ] {
        let e = build("kbinomial", &request(&t, 4, 2, &params))
            .unwrap_err()
            .to_string();
        assert!(e.contains(want) && !e.contains('\n'), "{e}");
    }
    let irr = Topology::from_spec("irregular:switches=8,ports=8,nodes=16,seed=1").unwrap();
    let mut r = AlgoRequest::new(&irr, CollectiveKind::Broadcast);
    r.params = Params::parse(&["order=dimension"]).unwrap();
    let e = build("kbinomial", &r).unwrap_err().to_string();
    assert!(e.contains("no coordinates"), "{e}");
    r.params = Params::parse(&["order=updown"]).unwrap();
    assert!(build("kbinomial", &r).is_ok());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// The schedule's FPFS steps equal the model's simulation of the same tree, are within
    /// L1 + (m-1) k, and meet it for the optimal k.
    #[test]
    fn step_counts_match_the_model(n in 1u32..70, m in 1u32..7, k in 1u32..7) {
        let t = Topology::from_spec(&format!("mesh:{}", n.max(2))).unwrap();
        let s = build("kbinomial", &request(&t, n, m, &[&format!("k={k}"), "order=natural"])).unwrap();
        let tree = kbinomial_tree(u64::from(n), k).unwrap();
        let model = fpfs_steps(&tree, u64::from(m)).unwrap();
        prop_assert_eq!(steps(&s), model);
        prop_assert!(steps(&s) <= kbinomial_steps(u64::from(n), u64::from(m), k).unwrap());
        let best = build("kbinomial", &request(&t, n, m, &["order=natural"])).unwrap();
        prop_assert_eq!(steps(&best), kbinomial_optimal(u64::from(n), u64::from(m)).unwrap().1);
    }

    /// Multicasts to any destination set, from any root, with any placement and ordering,
    /// verify (build() verifies every schedule).
    #[test]
    fn multicasts_verify(p in 2u32..33, mask in any::<u64>(), root in any::<u32>(), m in 1u32..5,
                         fcfs in any::<bool>(), rot in any::<u32>()) {
        let t = Topology::from_spec("torus:6x6").unwrap();
        let mut r = AlgoRequest::new(&t, CollectiveKind::Multicast);
        r.p = p;
        r.root = root % p;
        r.packets = m;
        let mut place: Vec<u32> = (0..36).collect();
        place.rotate_left((rot % 36) as usize);
        place.truncate(p as usize);
        r.placement = place;
        r.targets = (0..p).filter(|&x| (mask >> x) & 1 == 1).collect();
        let fw = if fcfs { "forwarding=fcfs" } else { "forwarding=fpfs" };
        for order in ["natural", "dimension", "updown"] {
            r.params = Params::parse(&[fw, &format!("order={order}")]).unwrap();
            let s = build("kbinomial", &r);
            prop_assert!(s.is_ok(), "{:?}", s.err());
        }
    }
}

/// The most packets that share a directed channel within one step, under DOR routing.
fn worst_step_contention(t: &Topology, s: &Schedule) -> usize {
    use crate::routing::{Routing, RoutingKind};
    use std::collections::HashMap;
    let routing = Routing::new(t, RoutingKind::Dor, None).unwrap();
    let mut load: HashMap<(u32, u32), usize> = HashMap::new();
    for r in 0..s.p() {
        for o in s.ops(r) {
            let (OpKind::Send { msg, .. }, Some(step)) = (&o.kind, o.step) else {
                continue;
            };
            let m = s.message(*msg);
            for &d in s.dests(m) {
                let (a, b) = (s.placement()[r as usize], s.placement()[d as usize]);
                for hop in routing.route_endpoints(t, a as usize, b as usize).unwrap() {
                    *load.entry((step, hop.channel)).or_default() += 1;
                }
            }
        }
    }
    load.values().copied().max().unwrap_or(0)
}

/// Single-packet k-binomial trees on the dimension-ordered chain never put two messages of
/// one step on the same channel (a tree edge spans only chain positions its sender covers,
/// so same-step edges are disjoint chain intervals). With m > 1 packets, pipelining makes
/// an outer edge's later packets coexist with nested inner edges, which can share channels:
/// the contention-freedom of s4.3.3 is about the tree's edges, not about the pipeline.
#[test]
fn dimension_ordered_chain_is_contention_free_on_meshes() {
    for spec in ["mesh:4x4", "mesh:8x8", "mesh:3x5", "mesh:4x4x4"] {
        let t = Topology::from_spec(spec).unwrap();
        let p = t.num_endpoints() as u32;
        for k in [1, 2, 3, 6] {
            let kk = format!("k={k}");
            let s = build("kbinomial", &request(&t, p, 1, &[&kk, "order=dimension"])).unwrap();
            assert_eq!(worst_step_contention(&t, &s), 1, "{spec} k={k}");
        }
    }
    // Ranks scattered over the mesh: rank order contends, the dimension-ordered chain
    // (which sorts by coordinates, whatever the placement) still does not.
    let t = Topology::from_spec("mesh:8x8").unwrap();
    let place: Vec<u32> = (0..64u32).map(|r| (r * 37 + 11) % 64).collect();
    let run = |order: &str| {
        let mut r = request(&t, 64, 1, &["k=2", order]);
        r.placement = place.clone();
        worst_step_contention(&t, &build("kbinomial", &r).unwrap())
    };
    assert_eq!(run("order=dimension"), 1);
    assert!(run("order=natural") > 1);
}
