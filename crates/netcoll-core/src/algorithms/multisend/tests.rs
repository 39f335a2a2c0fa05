use super::super::{build, AlgoRequest, Params};
use crate::models::{multisend_lambda, postal_tree};
use crate::schedule::{CollectiveKind, Counts, OpKind, Schedule};
use crate::topology::Topology;
use proptest::prelude::*;

fn request<'a>(t: &'a Topology, p: u32, m: u32, params: &[&str]) -> AlgoRequest<'a> {
    let mut r = AlgoRequest::new(t, CollectiveKind::Broadcast);
    r.p = p;
    r.placement = (0..p).collect();
    r.packets = m;
    r.params = Params::parse(params).unwrap();
    r
}

/// Each message's (source, destinations), in order.
fn fanout(s: &Schedule) -> Vec<(u32, Vec<u32>)> {
    s.messages()
        .iter()
        .map(|m| (m.src, s.dests(m).to_vec()))
        .collect()
}

fn send_ops(s: &Schedule) -> usize {
    (0..s.p())
        .map(|r| {
            s.ops(r)
                .iter()
                .filter(|o| matches!(o.kind, OpKind::Send { .. }))
                .count()
        })
        .sum()
}

#[test]
fn four_nodes_lambda_2_is_one_multisend() {
    let t = Topology::from_spec("mesh:4").unwrap();
    let s = build("postal", &request(&t, 4, 1, &["lambda=2"])).unwrap();
    assert_eq!(fanout(&s), vec![(0, vec![1, 2, 3])]);
    let c = Counts::of(&s);
    assert_eq!((c.messages, c.ni_messages, c.multisends), (3, 1, 1));
    // Host-based unicast: three messages.
    let s = build(
        "postal",
        &request(&t, 4, 1, &["lambda=2", "primitive=unicast"]),
    )
    .unwrap();
    assert_eq!(fanout(&s), vec![(0, vec![1]), (0, vec![2]), (0, vec![3])]);
}

#[test]
fn tree_is_the_greedy_postal_tree() {
    let t = Topology::from_spec("mesh:40").unwrap();
    for lam in [1.0, 1.5, 2.0, 3.0, 7.5] {
        for n in [2u32, 5, 13, 40] {
            let s = build("postal", &request(&t, n, 1, &[&format!("lambda={lam}")])).unwrap();
            let (tree, _) = postal_tree(u64::from(n), lam).unwrap();
            let want: Vec<(u32, Vec<u32>)> = (0..n as usize)
                .filter(|&v| !tree.children[v].is_empty())
                .map(|v| {
                    (
                        v as u32,
                        tree.children[v].iter().map(|&c| c as u32).collect(),
                    )
                })
                .collect();
            let mut got = fanout(&s);
            got.sort();
            let mut want = want;
            want.sort();
            assert_eq!(got, want, "n={n} lambda={lam}");
        }
    }
}

#[test]
fn lambda_auto_follows_the_packet_size() {
    // 1536-byte packets: lambda = (t_xmit + t_recv + t_send) / t_xmit, about 7.86.
    let lam = multisend_lambda(1536, false).unwrap();
    assert!((lam - 7.86).abs() < 0.01, "{lam}");
    let t = Topology::from_spec("mesh:30").unwrap();
    let mut r = request(&t, 30, 1, &[]);
    r.bytes = 1536;
    let auto = build("postal", &r).unwrap();
    r.params = Params::parse(&[&format!("lambda={lam}")]).unwrap();
    let given = build("postal", &r).unwrap();
    assert_eq!(fanout(&auto), fanout(&given));
    // A 64 KiB message is split into 1536-byte packets automatically.
    r.params = Params::default();
    r.bytes = 65536;
    let big = build("postal", &r).unwrap();
    assert_eq!(big.messages()[0].packets, 43);
}

#[test]
fn pipelined_sends_packet_by_packet() {
    let t = Topology::from_spec("mesh:8").unwrap();
    let pipe = build("postal", &request(&t, 8, 4, &["lambda=2"])).unwrap();
    let whole = build(
        "postal",
        &request(&t, 8, 4, &["lambda=2", "pipeline=false"]),
    )
    .unwrap();
    let internal = fanout(&pipe).len();
    assert_eq!(send_ops(&pipe), 4 * internal);
    assert_eq!(send_ops(&whole), internal);
    let flat = build("multisend-flat", &request(&t, 8, 3, &[])).unwrap();
    assert_eq!(fanout(&flat), vec![(0, (1..8).collect())]);
}

#[test]
fn bad_parameters() {
    let t = Topology::from_spec("mesh:4").unwrap();
    for (params, want) in [
        (vec!["lambda=0.5"], "lambda"),
        (vec!["lambda=abc"], "must be a number"),
        (vec!["primitive=smoke"], "multisend or unicast"),
        (vec!["pipeline=maybe"], "true or false"),
    ] {
        let e = build("postal", &request(&t, 4, 2, &params))
            .unwrap_err()
            .to_string();
        assert!(e.contains(want) && !e.contains('\n'), "{e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn multicasts_verify(p in 2u32..40, mask in any::<u64>(), root in any::<u32>(), m in 1u32..4,
                         lam in 1.0f64..9.0, pipe in any::<bool>(), uni in any::<bool>(), rot in any::<u32>()) {
        let t = Topology::from_spec("torus:7x7").unwrap();
        let mut r = AlgoRequest::new(&t, CollectiveKind::Multicast);
        r.p = p;
        r.root = root % p;
        r.packets = m;
        let mut place: Vec<u32> = (0..49).collect();
        place.rotate_left((rot % 49) as usize);
        place.truncate(p as usize);
        r.placement = place;
        r.targets = (0..p).filter(|&x| (mask >> x) & 1 == 1).collect();
        let prim = if uni { "primitive=unicast" } else { "primitive=multisend" };
        r.params = Params::parse(&[&format!("lambda={lam}"), &format!("pipeline={pipe}"), prim]).unwrap();
        let s = build("postal", &r);
        prop_assert!(s.is_ok(), "{:?}", s.err());
        r.params = Params::default();
        let s = build("multisend-flat", &r);
        prop_assert!(s.is_ok(), "{:?}", s.err());
    }
}
