//! `traffic = multicast`: hand-worked zero-load multicasts of both schemes, determinism, and
//! every copy of every multicast delivered exactly once on random irregular networks.

use super::config::FlitConfig;
use super::sim::{simulate_on, Sim};
use crate::topology::Topology;
use proptest::prelude::*;

fn cfg(pairs: &[(&str, &str)]) -> FlitConfig {
    let mut c =
        FlitConfig::from_pairs([("traffic", "multicast"), ("injection_rate", "0")]).unwrap();
    for (k, v) in pairs {
        c.set(k, v).unwrap();
    }
    c
}

/// One multicast on an idle network: its latency (creation to the last copy).
fn one(topo: &str, pairs: &[(&str, &str)], src: usize, dests: &[u32]) -> u64 {
    let topo = Topology::from_spec(topo).unwrap();
    let m = dests.len().to_string();
    let mut all = vec![("multicast_dests", m.as_str())];
    all.extend_from_slice(pairs);
    let mut sim = Sim::new(&topo, &cfg(&all)).unwrap();
    sim.start_multicast(src, dests).unwrap();
    let r = sim.run_multicasts(10_000).unwrap();
    assert_eq!((r.completed, r.duplicate_copies), (1, 0));
    assert_eq!(r.copies_delivered, dests.len() as u64);
    r.latency.max
}

#[test]
fn zero_load_multicast_one_hop_from_the_centre() {
    // 3x3 mesh, centre 4 to its neighbours 1, 3, 5: one unicast hop is 5h + 6 + P = 12
    // cycles for P = 1. The tree replicates at the centre switch: 12. The NI's three
    // copies leave at cycles 0, 1, 2: the last arrives at 14.
    let d = [1, 3, 5];
    assert_eq!(one("mesh:3x3", &[("multicast_scheme", "tree")], 4, &d), 12);
    assert_eq!(
        one("mesh:3x3", &[("multicast_scheme", "unicast")], 4, &d),
        14
    );
    // 4-flit packets: tree 5 + 6 + 4 = 15; the third unicast copy leaves at 8: 23.
    let p4 = [("packet_size", "4")];
    let tree = [p4[0], ("multicast_scheme", "tree")];
    let uni = [p4[0], ("multicast_scheme", "unicast")];
    assert_eq!(one("mesh:3x3", &tree, 4, &d), 15);
    assert_eq!(one("mesh:3x3", &uni, 4, &d), 23);
}

#[test]
fn zero_load_multicast_along_dor_paths() {
    // 4x4 mesh, 0 to {3, 15, 12}: DOR (x first) shares 0 -> 3 between 3 and 15 (the tree
    // replicates at switch 3 towards 3's NI and up to 15); 12 goes up from 0. Hops 3, 6, 3.
    // Tree: the farthest copy, 5 * 6 + 7 = 37. Unicast copies leave at 0, 1, 2:
    // max(22, 1 + 37, 2 + 22) = 38.
    let d = [3, 15, 12];
    assert_eq!(one("mesh:4x4", &[("multicast_scheme", "tree")], 0, &d), 37);
    assert_eq!(
        one("mesh:4x4", &[("multicast_scheme", "unicast")], 0, &d),
        38
    );
}

#[test]
fn bad_multicast_settings_are_one_line_errors() {
    let topo = Topology::from_spec("mesh:2x2").unwrap();
    let e = Sim::new(&topo, &cfg(&[("multicast_dests", "4")]))
        .err()
        .unwrap();
    assert!(e.to_string().contains("use 1 to 3"), "{e}");
    let torus = Topology::from_spec("torus:4x4").unwrap();
    let e = Sim::new(&torus, &cfg(&[])).err().unwrap();
    assert!(e.to_string().contains("one VC class"), "{e}");
    assert!(Sim::new(&torus, &cfg(&[("multicast_scheme", "unicast")])).is_ok());
    let e = Sim::new(&topo, &cfg(&[("packet_size", "16")]))
        .err()
        .unwrap();
    assert!(e.to_string().contains("vc_buf_size"), "{e}");
    assert!(FlitConfig::from_pairs([("multicast_scheme", "path")]).is_err());
    let mut c = cfg(&[("multicast_dests", "2"), ("injection_rate", "3")]);
    assert!(c.validate().is_err());
    c.set("injection_rate", "1.5").unwrap();
    assert!(
        c.validate().is_ok(),
        "the effective load may exceed 1 packet/node/cycle"
    );
}

fn load_run(topo: &Topology, scheme: &str, m: &str, seed: &str) -> super::sim::FlitResult {
    let c = cfg(&[
        ("multicast_scheme", scheme),
        ("multicast_dests", m),
        ("injection_rate", "0.3"),
        ("routing_function", "updown"),
        ("sim_type", "batch"),
        ("batch_size", "6"),
        ("packet_size", "4"),
        ("seed", seed),
    ]);
    simulate_on(topo, &c).unwrap()
}

#[test]
fn multicast_runs_are_deterministic() {
    let topo = Topology::from_spec("irregular:switches=8,ports=8,nodes=32,seed=3").unwrap();
    for scheme in ["tree", "unicast"] {
        let a = load_run(&topo, scheme, "5", "1");
        assert_eq!(a, load_run(&topo, scheme, "5", "1"));
        assert_ne!(a.cycles, load_run(&topo, scheme, "5", "2").cycles);
        let mc = a.multicast.unwrap();
        assert_eq!(mc.completed, 32 * 6);
        assert!(mc.latency.mean > 0.0 && mc.latency.p99 >= mc.latency.p50);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn every_copy_arrives_once(seed in 0u64..1000, m in 1usize..31, tree in any::<bool>(),
                               which in 0usize..3) {
        let spec = [
            "irregular:switches=8,ports=8,nodes=32",
            "irregular:switches=16,ports=8,nodes=64",
            "irregular:switches=4,ports=16,nodes=32",
        ][which];
        let topo = Topology::from_spec(&format!("{spec},seed={seed}")).unwrap();
        let scheme = if tree { "tree" } else { "unicast" };
        let r = load_run(&topo, scheme, &m.to_string(), &seed.to_string());
        prop_assert!(r.deadlock.is_none() && !r.unstable, "{:?}", r.unstable_reason);
        let mc = r.multicast.unwrap();
        let n = topo.num_endpoints() as u64;
        prop_assert_eq!(mc.created, n * 6);
        prop_assert_eq!(mc.completed, n * 6);
        prop_assert_eq!(mc.duplicate_copies, 0);
        prop_assert_eq!(mc.copies_delivered, n * 6 * m as u64);
        prop_assert_eq!(r.misdelivered, 0);
        prop_assert_eq!(r.packets_delivered, n * 6 * m as u64);
    }
}

/// A tree that uses every visit its region holds but the spare one once sent stale
/// outputs on (found by the property test: seed 0, one destination).
#[test]
fn a_tree_that_fills_its_region() {
    let topo = Topology::from_spec("irregular:switches=8,ports=8,nodes=32,seed=0").unwrap();
    let r = load_run(&topo, "tree", "1", "0");
    assert_eq!(r.multicast.unwrap().completed, 32 * 6);
}

/// Walks a tree in the worm table: every output of a visit leaves the visit's switch, every
/// switch output enters its child's switch; returns the (endpoint, destination index) pairs.
fn tree_leaves(net: &super::network::Network, visit: u32, at: u32, out: &mut Vec<(u32, u32)>) {
    use super::network::Out;
    let t = &net.rep.table;
    for o in t.start[visit as usize]..t.start[visit as usize + 1] {
        let w = t.outs[o as usize];
        assert_eq!(
            net.port_router[w.port as usize], at,
            "an output off its switch"
        );
        match net.out_to[w.port as usize] {
            Out::Eject(ep) => out.push((ep, w.tag_add)),
            Out::Link { input, .. } => {
                tree_leaves(net, w.child, net.port_router[input as usize], out)
            }
            Out::Open => panic!("a tree output on an open port"),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    #[test]
    fn trees_reach_exactly_their_destinations(seed in 0u64..1000, m in 1usize..31,
                                              mesh in any::<bool>()) {
        let spec = if mesh {
            "mesh:6x6".to_string()
        } else {
            format!("irregular:switches=8,ports=8,nodes=32,seed={seed}")
        };
        let topo = Topology::from_spec(&spec).unwrap();
        let routing = if mesh { "dor" } else { "updown" };
        let c = cfg(&[("routing_function", routing), ("multicast_dests", &m.to_string())]);
        let mut net = super::network::Network::new(&topo, &c).unwrap();
        let mut mc = super::multicast::Multicast::new(&net, m, super::config::McScheme::Tree,
                                                      1, 0.0).unwrap();
        let n = topo.num_endpoints() as u64;
        for round in 0..3u64 {
            // Distinct destinations without the source, from a seeded shuffle.
            let src = ((seed + round * 7) % n) as usize;
            let mut d: Vec<u32> = (0..n as u32).filter(|&x| x as usize != src).collect();
            let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(round);
            for i in (1..d.len()).rev() {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                d.swap(i, (x >> 33) as usize % (i + 1));
            }
            d.truncate(m);
            let root = mc.tree_for(&mut net, src, &d);
            let mut leaves = Vec::new();
            tree_leaves(&net, root, topo.endpoint_switch(src) as u32, &mut leaves);
            leaves.sort_by_key(|l| l.1);
            let want: Vec<(u32, u32)> = d.iter().enumerate().map(|(k, &e)| (e, k as u32)).collect();
            prop_assert_eq!(leaves, want);
        }
    }
}
