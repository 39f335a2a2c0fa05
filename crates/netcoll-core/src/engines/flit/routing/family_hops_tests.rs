//! The fast paths of the flit engine's family routing against the general path: the hop
//! tables (family_hops.rs) and `dragonfly_port`'s arithmetic give the ports of
//! `crate::routing`'s family routing on every router pair of random and BookSim's shipped
//! instances, and a power-of-two draw is the remainder's.

use super::family_hops::{DragonflyHops, FatTreeHops};
use super::{splitmix64, FlitAdaptive};
use crate::routing::{dragonfly_port, Routing, RoutingKind};
use crate::topology::{Family, LinkClass, Topology};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Random dragonflies (several p, a, h, g and arrangements, some with parallel global
/// links between groups), plus BookSim's dragonflynew with k = 4 (runfiles/dragonflyconfig).
fn dragonflies() -> Vec<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(34);
    let mut specs = vec!["dragonfly:p=4,a=8,h=4".to_string()];
    while specs.len() < 24 {
        let (p, a, h) = (
            rng.random_range(1..4),
            rng.random_range(1..7),
            rng.random_range(1..4),
        );
        let m = a * h;
        // A divisor of a*h other groups: g = a*h + 1 is the balanced one.
        let divisors: Vec<usize> = (1..=m).filter(|d| m % d == 0).collect();
        let g = divisors[rng.random_range(0..divisors.len())] + 1;
        let arrangement = ["absolute", "relative", "circulant"][rng.random_range(0..3)];
        specs.push(format!(
            "dragonfly:p={p},a={a},h={h},g={g},arrangement={arrangement}"
        ));
    }
    specs
}

#[test]
fn dragonfly_hops_are_the_family_routings() {
    let mut parallel = 0;
    for spec in dragonflies() {
        let topo = Topology::from_spec(&spec).unwrap();
        let Family::Dragonfly(p) = topo.family() else {
            unreachable!()
        };
        parallel += (p.multiplicity() > 1) as usize;
        let general = Routing::new(&topo, RoutingKind::Shortest, None).unwrap();
        let table = DragonflyHops::of(p).expect("small instances get the table");
        for at in 0..topo.num_switches() {
            for to in (0..topo.num_switches()).filter(|&to| to != at) {
                let step = general.next(&topo, at, to, 0).unwrap();
                let want = (
                    step.via.port,
                    topo.link_class(step.via.link) == LinkClass::Global,
                );
                assert_eq!(table.hop(at, to), want, "{spec}: {at} -> {to}");
                let (port, global) = dragonfly_port(p, at, to);
                assert_eq!((port as u32, global), want, "{spec}: {at} -> {to}");
            }
        }
    }
    assert!(parallel > 3, "the instances include parallel global links");
}

#[test]
fn a_dragonfly_past_the_table_limits_routes_by_arithmetic() {
    // a = 32, h = 16: 16,416 routers of 545 entries each.
    let p = crate::params::DragonflyParams {
        p: 16,
        a: 32,
        h: 16,
        g: 513,
        arrangement: crate::params::Arrangement::Absolute,
    };
    assert!(DragonflyHops::of(&p).is_none());
    let small = crate::params::DragonflyParams {
        a: 16,
        h: 8,
        g: 129,
        ..p.clone()
    };
    assert!(DragonflyHops::of(&small).is_some());
    // Ports past a byte: radix 259.
    let wide = crate::params::DragonflyParams {
        p: 200,
        a: 50,
        h: 10,
        g: 2,
        ..p
    };
    assert!(DragonflyHops::of(&wide).is_none());
}

#[test]
fn fat_tree_hops_are_the_family_routings() {
    let mut rng = ChaCha8Rng::seed_from_u64(33);
    // BookSim's fattree_config (k = 4, n = 3), then random k, levels and tapers.
    let mut specs = vec!["fattree:k=4,levels=3".to_string()];
    while specs.len() < 16 {
        let (k, levels, taper) = (
            rng.random_range(2..6),
            rng.random_range(1..5),
            rng.random_range(1..3),
        );
        specs.push(format!("fattree:k={k},levels={levels},taper={taper}"));
    }
    for spec in specs {
        let topo = Topology::from_spec(&spec).unwrap();
        let Family::FatTree(p) = topo.family() else {
            unreachable!()
        };
        let general = Routing::new(&topo, RoutingKind::Nca, None).unwrap();
        let hops = FatTreeHops::of(p);
        let leaves = (p.levels - 1) * p.per_level()..topo.num_switches();
        for at in 0..topo.num_switches() {
            for dest in leaves.clone().filter(|&d| d != at) {
                let step = general.next(&topo, at, dest, 0).unwrap();
                match hops.hop(at, dest) {
                    Ok(down) => {
                        assert!(!step.up, "{spec}: {at} -> {dest} goes up");
                        assert_eq!(down, step.via.port, "{spec}: {at} -> {dest}");
                    }
                    Err(up_base) => {
                        assert!(step.up, "{spec}: {at} -> {dest} goes down");
                        // The general path hashes one of the k up ports; the engine draws.
                        let up = step.via.port.wrapping_sub(up_base);
                        assert!(up < p.k as u32, "{spec}: {at} -> {dest} up port");
                    }
                }
            }
        }
    }
}

#[test]
fn a_power_of_two_draw_is_the_remainder() {
    let topo = Topology::from_spec("fattree:k=4,levels=3").unwrap();
    let ad = FlitAdaptive::of(&topo, RoutingKind::Nca, 7)
        .unwrap()
        .unwrap();
    for n in 0..10_000u64 {
        for bound in [1usize, 2, 3, 4, 5, 8, 48, 64, 264, 1 << 20] {
            let want = (splitmix64(ad.key ^ n) % bound as u64) as usize;
            assert_eq!(ad.draw(n, bound), want, "draw {n} below {bound}");
        }
    }
}
