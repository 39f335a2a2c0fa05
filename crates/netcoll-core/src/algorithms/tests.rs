use super::*;
use crate::topology::Topology;

#[test]
fn registry_names_are_unique_per_collective() {
    for kind in CollectiveKind::ALL {
        let mut names: Vec<_> = for_kind(kind).map(|a| a.name).collect();
        let n = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), n, "{kind:?}");
    }
}

#[test]
fn build_checks_the_request() {
    let t = Topology::from_spec("mesh:3x3").unwrap();
    let mut req = AlgoRequest::new(&t, CollectiveKind::Broadcast);
    assert!(build("linear", &req).unwrap().verify().ok);
    req.root = 9;
    assert!(build("linear", &req)
        .unwrap_err()
        .to_string()
        .contains("root 9"));
    req.root = 0;
    req.params = Params::parse(&["k=3"]).unwrap();
    let e = build("linear", &req).unwrap_err().to_string();
    assert!(e.contains("takes no parameters"), "{e}");
    req.params = Params::default();
    req.placement = vec![0, 1, 2, 3, 4, 5, 6, 7, 7];
    assert!(build("linear", &req).is_err());
    let e = build("teleport", &AlgoRequest::new(&t, CollectiveKind::Broadcast)).unwrap_err();
    assert!(e.to_string().contains("choose one of linear"), "{e}");
}

#[test]
fn bad_multicast_targets_are_refused_before_any_builder_runs() {
    // An out-of-range target once reached intercom-mst's engine and panicked there.
    for spec in ["mesh:8", "irregular:switches=4,ports=8,nodes=8,seed=1"] {
        let t = Topology::from_spec(spec).unwrap();
        for a in for_kind(CollectiveKind::Multicast) {
            for (targets, want) in [(vec![9], "target 9 is out of range"), (vec![2, 2], "twice")] {
                let mut req = AlgoRequest::new(&t, CollectiveKind::Multicast);
                req.targets = targets;
                let e = build(a.name, &req).unwrap_err().to_string();
                assert!(e.contains(want), "{} on {spec}: {e}", a.name);
            }
        }
    }
    let t = Topology::from_spec("mesh:4").unwrap();
    let mut req = AlgoRequest::new(&t, CollectiveKind::Broadcast);
    req.targets = vec![1];
    let e = build("linear", &req).unwrap_err().to_string();
    assert!(e.contains("--dests applies to multicast only"), "{e}");
}

mod classic_cases {
    use super::super::*;
    use crate::schedule::Counts;
    use crate::topology::Topology;
    use CollectiveKind::*;

    fn counts(kind: CollectiveKind, name: &str, p: u32, root: u32) -> Counts {
        let t = Topology::from_spec("mesh:8x5").unwrap();
        let mut req = AlgoRequest::new(&t, kind);
        req.p = p;
        // A scrambled placement: rank i on endpoint (7 i + 3) mod 40.
        req.placement = (0..p).map(|i| (7 * i + 3) % 40).collect();
        req.root = root;
        let s = build(name, &req).unwrap_or_else(|e| panic!("{name} {kind:?} p={p}: {e}"));
        Counts::of(&s)
    }

    fn steps(c: &Counts) -> u32 {
        c.max_step.map_or(0, |s| s + 1)
    }

    #[test]
    fn every_classic_schedule_verifies_for_many_sizes_and_roots() {
        let sizes = [
            1u32, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 16, 17, 23, 31, 32, 37, 40,
        ];
        for a in registry().iter().filter(|a| a.family == "classic") {
            for &kind in a.kinds {
                for &p in &sizes {
                    let roots: Vec<u32> = if kind.is_rooted() {
                        vec![0, p / 2, p - 1]
                    } else {
                        vec![0]
                    };
                    for root in roots {
                        counts(kind, a.name, p, root);
                    }
                }
            }
        }
    }

    #[test]
    fn binomial_broadcast_on_8() {
        let c = counts(Broadcast, "binomial", 8, 0);
        assert_eq!((c.messages, steps(&c)), (7, 3));
        let c = counts(Broadcast, "binomial", 5, 3);
        assert_eq!((c.messages, steps(&c)), (4, 3));
    }

    #[test]
    fn halving_tree_sends_farthest_half_first() {
        let e = super::super::classic_tree::halving_tree(8);
        let firsts: Vec<(u32, u32, u32)> = e.iter().map(|e| (e.parent, e.child, e.round)).collect();
        assert_eq!(
            firsts,
            vec![
                (0, 4, 0),
                (0, 2, 1),
                (4, 6, 1),
                (0, 1, 2),
                (2, 3, 2),
                (4, 5, 2),
                (6, 7, 2)
            ]
        );
    }

    #[test]
    fn ring_allgather_on_5() {
        let c = counts(Allgather, "ring", 5, 0);
        assert_eq!((c.messages, steps(&c)), (20, 4));
        // The same bytes as an all-to-all broadcast.
        assert_eq!(counts(AlltoallBroadcast, "ring", 5, 0).messages, 20);
    }

    #[test]
    fn rabenseifner_on_8_and_7() {
        // 3 halving + 3 doubling steps of 8 messages; each message half, quarter, eighth.
        let c = counts(Allreduce, "rabenseifner", 8, 0);
        assert_eq!((c.messages, steps(&c)), (48, 6));
        assert_eq!(c.compute_ops, 24);
        // p = 7: 3 extras fold onto 0..3, p' = 4: 3 + 2*2*4 + 3 messages, 2 + 2 + 2 steps.
        let c = counts(Allreduce, "rabenseifner", 7, 0);
        assert_eq!((c.messages, steps(&c)), (3 + 16 + 3, 6));
    }

    #[test]
    fn hand_counted_sizes() {
        let t = |k, n, p| {
            let c = counts(k, n, p, 0);
            (c.messages, steps(&c))
        };
        assert_eq!(t(Allgather, "bruck", 5), (15, 3));
        assert_eq!(t(Allgather, "recursive-doubling", 8), (24, 3));
        assert_eq!(t(Allgather, "recursive-doubling", 6), (2 + 8 + 2, 4));
        assert_eq!(t(Allgather, "all-at-once", 4), (12, 3));
        assert_eq!(t(ReduceScatter, "ring", 5), (20, 4));
        assert_eq!(t(ReduceScatter, "recursive-halving", 8), (24, 3));
        assert_eq!(t(Allreduce, "ring", 4), (24, 6));
        assert_eq!(t(Allreduce, "recursive-doubling", 5), (1 + 8 + 1, 4));
        assert_eq!(t(Broadcast, "scatter-allgather", 8), (7 + 56, 3 + 7));
        assert_eq!(t(Scatter, "binomial", 8), (7, 3));
        assert_eq!(t(Gather, "binomial", 6), (5, 3));
        assert_eq!(t(Reduce, "binomial", 8), (7, 3));
        assert_eq!(t(Reduce, "linear", 4), (3, 3));
        // Binomial scatter moves p/2 + 2(p/4) + 4(p/8) blocks: 12 on 8 ranks.
        let c = counts(Scatter, "binomial", 8, 0);
        assert_eq!(c.bytes, 12 * 128);
    }
}
