use super::super::{build, AlgoRequest, Params};
use super::*;
use crate::models::{hybrid_broadcast_cost, parse_mesh};
use crate::schedule::{OpKind, Schedule};
use crate::topology::Topology;
use proptest::prelude::*;

fn linear(p: u32) -> Topology {
    Topology::from_spec(&format!("mesh:{}", p.max(2))).unwrap()
}

fn req<'a>(t: &'a Topology, kind: CollectiveKind, root: u32, params: &[&str]) -> AlgoRequest<'a> {
    let mut r = AlgoRequest::new(t, kind);
    r.root = root;
    if root == 0 && params.contains(&"p=1") {
        r.p = 1;
        r.placement = vec![0];
    }
    r.params = Params::parse(params).unwrap();
    r
}

/// Per step: (number of sends, max over directed links of the linear array of the pieces
/// crossing it), ranks on the array in rank order. The second is InterCom's "message size
/// times conflict factor".
fn rounds(s: &Schedule) -> Vec<(usize, u64)> {
    let steps = (0..s.p())
        .flat_map(|r| s.ops(r).iter().filter_map(|o| o.step))
        .max()
        .map_or(0, |m| m as usize + 1);
    let mut out = vec![(0usize, 0u64); steps];
    let p = s.p() as usize;
    for (step, slot) in out.iter_mut().enumerate() {
        let mut right = vec![0u64; p];
        let mut left = vec![0u64; p];
        for r in 0..s.p() {
            for o in s.ops(r) {
                let OpKind::Send { msg, .. } = o.kind else {
                    continue;
                };
                if o.step != Some(step as u32) {
                    continue;
                }
                slot.0 += 1;
                let m = s.message(msg);
                let size = s.payload(m).len() as u64;
                for &d in s.dests(m) {
                    let (a, b) = (r as usize, d as usize);
                    if a < b {
                        (a..b).for_each(|l| right[l] += size);
                    } else {
                        (b..a).for_each(|l| left[l] += size);
                    }
                }
            }
        }
        slot.1 = right.iter().chain(&left).copied().max().unwrap_or(0);
    }
    out
}

#[test]
fn ssmcc_2x3x5_has_the_rounds_of_9_alpha_160_30_n_beta() {
    let t = linear(30);
    let r = req(&t, Broadcast, 0, &["dims=2x3x5", "strategy=SSMCC"]);
    let s = build("intercom-hybrid", &r).unwrap();
    let rs = rounds(&s);
    assert_eq!(rs.len(), 9);
    // scatter over 2, scatter over 3 (2 groups), MST over 5 (6 groups), collects back;
    // loads in units of n/30.
    let loads: Vec<u64> = rs.iter().map(|x| x.1).collect();
    assert_eq!(loads, vec![15, 10, 10, 30, 30, 30, 10, 10, 15]);
    assert_eq!(loads.iter().sum::<u64>(), 160);
    let sends: Vec<usize> = rs.iter().map(|x| x.0).collect();
    assert_eq!(sends, vec![1, 2, 2, 6, 12, 6, 30, 30, 30]);
}

#[test]
fn table2_rows_come_out_of_the_schedules() {
    // Rounds = alpha coefficient, sum of per-round link loads = 30 * (n beta coefficient).
    for (mesh, strategy) in [
        ("2x3x5", "SSMCC"),
        ("1x30", "M"),
        ("2x15", "SMC"),
        ("5x6", "SSCC"),
        ("6x5", "SSCC"),
        ("3x10", "SSCC"),
        ("10x3", "SSCC"),
        ("2x15", "SSCC"),
        ("3x10", "SMC"),
    ] {
        let t = linear(30);
        let r = req(
            &t,
            Broadcast,
            0,
            &[&format!("dims={mesh}"), &format!("strategy={strategy}")],
        );
        let s = build("intercom-hybrid", &r).unwrap();
        let rs = rounds(&s);
        let (a, b) = hybrid_broadcast_cost(&parse_mesh(mesh).unwrap(), strategy).unwrap();
        assert_eq!(rs.len() as f64, a.to_f64(), "({mesh}, {strategy})");
        let load: u64 = rs.iter().map(|x| x.1).sum();
        assert_eq!(
            load as f64,
            (b.to_f64() * 30.0).round(),
            "({mesh}, {strategy})"
        );
    }
}

#[test]
fn mst_broadcast_on_eight_is_three_rounds_of_whole_messages() {
    let t = linear(8);
    let s = build("intercom-mst", &req(&t, Broadcast, 0, &[])).unwrap();
    assert_eq!(rounds(&s), vec![(1, 1), (2, 1), (4, 1)]);
    let s = build("intercom-long", &req(&t, Broadcast, 0, &[])).unwrap();
    // scatter: 4/8, 2/8, 1/8; then 7 bucket rounds of 1/8 each.
    let loads: Vec<u64> = rounds(&s).iter().map(|x| x.1).collect();
    assert_eq!(loads, vec![4, 2, 1, 1, 1, 1, 1, 1, 1, 1]);
}

#[test]
fn bad_requests_are_one_line_errors() {
    let t = linear(30);
    let cases: [(&[&str], &str); 4] = [
        (&["dims=2x3x4"], "product is 30"),
        (&["dims=2x3x5", "strategy=SMC"], "does not fit"),
        (&["dims=2xq"], "not a list of sizes"),
        (&["dims=mesh"], "strategy"),
    ];
    for (params, want) in cases {
        let r = req(&t, Broadcast, 0, params);
        match build("intercom-hybrid", &r) {
            Err(e) => {
                let e = e.to_string();
                assert!(e.contains(want) && !e.contains('\n'), "{params:?}: {e}");
            }
            Ok(_) if want == "strategy" => {}
            Ok(_) => panic!("{params:?} should fail"),
        }
    }
}

#[test]
fn physical_mesh_rows_and_columns() {
    let t = Topology::from_spec("mesh:4x3").unwrap();
    let r = req(&t, Broadcast, 5, &["dims=mesh", "strategy=SSCC"]);
    let s = build("intercom-hybrid", &r).unwrap();
    // scatter in rows (2) and columns (2), collect back: 3 + 2 ... rounds.
    assert_eq!(rounds(&s).len(), 2 + 2 + 2 + 3);
}

fn sizes() -> Vec<u32> {
    vec![1, 2, 3, 4, 5, 7, 8, 11, 12, 13, 16, 17, 24, 31, 32]
}

#[test]
fn every_variant_verifies_on_many_sizes_and_roots() {
    for p in sizes() {
        let t = linear(p);
        for name in [
            "intercom-mst",
            "intercom-bucket",
            "intercom-short",
            "intercom-long",
        ] {
            for kind in CollectiveKind::ALL {
                if !super::super::for_kind(kind).any(|a| a.name == name) || kind == Multicast {
                    continue;
                }
                for root in [0, p / 2, p - 1] {
                    let one: &[&str] = if p == 1 { &["p=1"] } else { &[] };
                    let mut r = req(&t, kind, root, one);
                    r.params = Params::default();
                    let s = build(name, &r);
                    assert!(
                        s.is_ok(),
                        "{name} {kind:?} p={p} root={root}: {:?}",
                        s.err()
                    );
                }
            }
        }
    }
}

/// Ordered factorisations of p (factors >= 2, at most 3).
fn factorisations(p: u32) -> Vec<Vec<u32>> {
    let mut out = vec![vec![p]];
    for a in 2..p {
        if p % a == 0 {
            out.push(vec![a, p / a]);
            for b in 2..p / a {
                if (p / a) % b == 0 {
                    out.push(vec![a, b, p / a / b]);
                }
            }
        }
    }
    out
}

#[test]
fn every_hybrid_verifies() {
    for p in [2u32, 6, 7, 8, 12, 13, 16, 18, 30] {
        let t = linear(p);
        for dims in factorisations(p) {
            let k = dims.len();
            let name = dims
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join("x");
            let strategies = [
                format!("{}M{}", "S".repeat(k - 1), "C".repeat(k - 1)),
                format!("{}{}", "S".repeat(k), "C".repeat(k)),
            ];
            for strategy in &strategies {
                for kind in [Broadcast, Reduce, Allreduce, Allgather, ReduceScatter] {
                    for root in [0, p - 1, p / 3] {
                        let r = req(
                            &t,
                            kind,
                            root,
                            &[&format!("dims={name}"), &format!("strategy={strategy}")],
                        );
                        let s = build("intercom-hybrid", &r);
                        assert!(
                            s.is_ok(),
                            "{kind:?} p={p} {name} {strategy} root={root}: {:?}",
                            s.err()
                        );
                    }
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]
    #[test]
    fn multicast_groups_on_any_subset(p in 2u32..40, seed in any::<u64>(), root_pick in any::<u32>()) {
        let t = linear(p);
        let root = root_pick % p;
        let targets: Vec<u32> = (0..p).filter(|&r| r != root && (seed >> (r % 64)) & 1 == 1).collect();
        let mut r = req(&t, Multicast, root, &[]);
        r.targets = targets;
        // a shuffled placement
        let mut place: Vec<u32> = (0..p).collect();
        place.rotate_left((seed % u64::from(p)) as usize);
        r.placement = place;
        let s = build("intercom-mst", &r);
        prop_assert!(s.is_ok(), "{:?}", s.err());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]
    /// Hybrids with 1-sized dimensions, any root and a scattered placement on a torus verify.
    #[test]
    fn hybrids_with_any_root_and_placement(pick in 0usize..64, root in any::<u32>(), mst in any::<bool>(),
                                           kind in 0usize..5, mult in 1u32..64) {
        let t = Topology::from_spec("torus:8x8").unwrap();
        let p = [24u32, 32, 36, 48, 60, 64][pick % 6];
        let facts = factorisations(p);
        let dims = &facts[pick % facts.len()];
        let mut with_one = dims.clone();
        with_one.insert(pick % (dims.len() + 1), 1);
        let k = dims.len();
        let strategy = if mst {
            format!("{}M{}", "S".repeat(k - 1), "C".repeat(k - 1))
        } else {
            format!("{}{}", "S".repeat(k), "C".repeat(k))
        };
        let name = with_one.iter().map(u32::to_string).collect::<Vec<_>>().join("x");
        let kind = [Broadcast, Reduce, Allreduce, Allgather, ReduceScatter][kind];
        let mut r = req(&t, kind, root % p, &[&format!("dims={name}"), &format!("strategy={strategy}")]);
        r.p = p;
        let m = mult | 1; // odd, so coprime with 64: a permutation
        r.placement = (0..p).map(|i| (i * m + 5) % 64).collect();
        let s = build("intercom-hybrid", &r);
        prop_assert!(s.is_ok(), "{kind:?} {name} {strategy}: {:?}", s.err());
    }
}
