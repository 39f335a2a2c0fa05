//! Every traffic pattern against its destination map worked by hand from BookSim's
//! traffic.cpp (small node counts), the random ones by the set and the shares of their
//! destinations, and BookSim's node-count rules.

use super::config::{DigitArgs, Pattern};
use super::patterns::{Geometry, Rule};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

fn geometry(nodes: usize, k: usize, n: usize) -> Geometry<'static> {
    Geometry {
        nodes,
        shape: &[],
        netcoll_shape: false,
        k,
        n,
        xr: 1,
        perm_seed: 0,
    }
}

fn rule(p: &Pattern, g: &Geometry) -> Rule {
    Rule::new(p, g, &mut ChaCha8Rng::seed_from_u64(1)).unwrap()
}

/// The destinations of sources 0..nodes (deterministic patterns).
fn map(p: Pattern, nodes: usize, k: usize, n: usize) -> Vec<usize> {
    let r = rule(&p, &geometry(nodes, k, n));
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    (0..nodes)
        .map(|s| r.dest(s, nodes as u32, &mut rng))
        .collect()
}

/// How often each destination of `src` comes up in `draws` draws.
fn shares(p: Pattern, g: &Geometry, src: usize, draws: usize) -> BTreeMap<usize, f64> {
    let r = rule(&p, g);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut seen = BTreeMap::new();
    for _ in 0..draws {
        *seen
            .entry(r.dest(src, g.nodes as u32, &mut rng))
            .or_insert(0.0) += 1.0;
    }
    seen.values_mut().for_each(|c| *c /= draws as f64);
    seen
}

fn near(x: f64, want: f64) -> bool {
    (x - want).abs() < 0.01
}

#[test]
fn bit_permutations_on_sixteen_nodes() {
    // transpose: the low two bits become the high two (0b0001 -> 0b0100).
    let t = map(Pattern::Transpose, 16, 4, 2);
    assert_eq!(t, [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15]);
    // bitcomp: every bit flipped.
    assert_eq!(
        map(Pattern::Bitcomp, 16, 4, 2),
        (0..16).rev().collect::<Vec<_>>()
    );
    // bitrev: b3 b2 b1 b0 -> b0 b1 b2 b3 (0001 -> 1000, 0011 -> 1100, 1011 -> 1101).
    let r = map(Pattern::Bitrev, 16, 4, 2);
    assert_eq!(r, [0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15]);
    // shuffle: rotate left by one (1000 -> 0001, 0111 -> 1110).
    let s = map(Pattern::Shuffle, 16, 4, 2);
    assert_eq!(s, [0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15]);
    assert_eq!(map(Pattern::Bitrev, 1, 1, 1), [0]);
    // BookSim's rules: a power of two, an even one for transpose.
    for p in [
        Pattern::Bitrev,
        Pattern::Shuffle,
        Pattern::Bitcomp,
        Pattern::Transpose,
    ] {
        let e = Rule::new(&p, &geometry(12, 4, 2), &mut ChaCha8Rng::seed_from_u64(0));
        assert!(e.is_err_and(|e| e.to_string().contains("power-of-two node count, not 12")));
    }
    assert!(Rule::new(
        &Pattern::Transpose,
        &geometry(32, 4, 2),
        &mut ChaCha8Rng::seed_from_u64(0)
    )
    .is_err());
}

#[test]
fn digit_permutations() {
    let d = DigitArgs::default();
    // tornado, k = 8, n = 1: +((8 + 1) / 2 - 1) = +3 mod 8.
    assert_eq!(map(Pattern::Tornado(d), 8, 8, 1), [3, 4, 5, 6, 7, 0, 1, 2]);
    // k = 5: +2 mod 5 per digit; source 7 = (2, 1) -> (4, 3) = 19, 24 = (4, 4) -> (1, 1) = 6.
    let t = map(Pattern::Tornado(d), 25, 5, 2);
    assert_eq!((t[7], t[24], t[0]), (19, 6, 12));
    // neighbor, 4 x 4: +1 in both digits, wrapping: 5 = (1,1) -> (2,2) = 10, 15 -> 0.
    let nb = map(Pattern::Neighbor(d), 16, 4, 2);
    assert_eq!((nb[0], nb[5], nb[15], nb[3]), (5, 10, 0, 4));
    // Arguments override the keys: tornado({4,2}) on 16 nodes with k = 8 set.
    let args = DigitArgs {
        k: Some(4),
        n: Some(2),
        xr: None,
    };
    assert_eq!(map(Pattern::Tornado(args), 16, 8, 2)[5], 10);
    // xr multiplies the radix: k = 2, xr = 2 is radix 4.
    let mut g = geometry(16, 2, 2);
    g.xr = 2;
    let r = rule(&Pattern::Neighbor(d), &g);
    assert_eq!(r.dest(5, 16, &mut ChaCha8Rng::seed_from_u64(0)), 10);
    // The digits must not address more nodes than exist (BookSim would send off the net).
    let e = Rule::new(
        &Pattern::Tornado(d),
        &geometry(32, 8, 2),
        &mut ChaCha8Rng::seed_from_u64(0),
    );
    assert!(e.is_err_and(|e| e.to_string().contains("addresses 64 nodes")));
    // A netcoll grid without arguments follows the grid (4 x 2 here).
    let shaped = Geometry {
        shape: &[4, 2],
        netcoll_shape: true,
        ..geometry(8, 8, 2)
    };
    let r = rule(&Pattern::Neighbor(d), &shaped);
    assert_eq!(r.dest(3, 8, &mut ChaCha8Rng::seed_from_u64(0)), 4);
}

/// BookSim's own permutations, printed by a harness around BookSim's rng.c running
/// traffic.cpp's `randomize` (/work/peers/h32traffic/randperm_ref.c: `randperm_ref 16 0`,
/// `randperm_ref 8 7`).
#[test]
fn randperm_is_booksims_permutation() {
    let want16 = [2, 8, 6, 1, 0, 11, 4, 5, 3, 14, 10, 7, 15, 12, 9, 13];
    assert_eq!(map(Pattern::Randperm(None), 16, 4, 2), want16);
    assert_eq!(
        map(Pattern::Randperm(Some(7)), 8, 8, 1),
        [0, 5, 6, 1, 3, 7, 4, 2]
    );
    let mut g = geometry(8, 8, 1);
    g.perm_seed = 7;
    let r = rule(&Pattern::Randperm(None), &g);
    assert_eq!(r.dest(1, 8, &mut ChaCha8Rng::seed_from_u64(0)), 5);
}

#[test]
fn random_patterns_draw_booksims_destinations() {
    let g64 = geometry(64, 8, 2);
    // diagonal: the next node one time in three, else the source.
    let s = shares(Pattern::Diagonal, &g64, 63, 60_000);
    assert_eq!(s.keys().copied().collect::<Vec<_>>(), [0, 63]);
    assert!(near(s[&0], 1.0 / 3.0), "{s:?}");
    // asymmetric on 16: source 11 -> 3 or 11, evenly.
    let s = shares(Pattern::Asymmetric, &geometry(16, 4, 2), 11, 40_000);
    assert_eq!(s.keys().copied().collect::<Vec<_>>(), [3, 11]);
    assert!(near(s[&3], 0.5), "{s:?}");
    // taper64: half to the 3 x 3 block around the source (wrapping mod 64), half uniform.
    let s = shares(Pattern::Taper64, &g64, 0, 200_000);
    for d in [55, 56, 57, 63, 0, 1, 7, 8, 9] {
        assert!(near(s[&d], 0.5 / 9.0 + 0.5 / 64.0), "{d}: {s:?}");
    }
    assert!(near(s[&30], 0.5 / 64.0), "{s:?}");
    assert!(Rule::new(
        &Pattern::Taper64,
        &geometry(16, 4, 2),
        &mut ChaCha8Rng::seed_from_u64(0)
    )
    .is_err());
    // badperm_yarc, 4 x 4: a random node of column src / 4 (source 6 -> 1, 5, 9, 13).
    let s = shares(
        Pattern::BadpermYarc(DigitArgs::default()),
        &geometry(16, 4, 2),
        6,
        40_000,
    );
    assert_eq!(s.keys().copied().collect::<Vec<_>>(), [1, 5, 9, 13]);
    // bad_dragon, k = 2: groups of 2k k = 8 nodes; the source's next group, uniformly.
    let s = shares(
        Pattern::BadDragon(DigitArgs::default()),
        &geometry(32, 2, 2),
        3,
        40_000,
    );
    assert_eq!(
        s.keys().copied().collect::<Vec<_>>(),
        (8..16).collect::<Vec<_>>()
    );
    let s = shares(
        Pattern::BadDragon(DigitArgs::default()),
        &geometry(32, 2, 2),
        29,
        40_000,
    );
    assert_eq!(
        s.keys().copied().collect::<Vec<_>>(),
        (0..8).collect::<Vec<_>>()
    );
    // background: uniform over the nodes not listed.
    let s = shares(
        Pattern::Background(vec![1, 2]),
        &geometry(4, 2, 2),
        0,
        30_000,
    );
    assert_eq!(s.keys().copied().collect::<Vec<_>>(), [0, 3]);
    assert!(near(s[&0], 0.5));
}

#[test]
fn hotspots_with_weights() {
    let g = geometry(64, 8, 2);
    let hs = |nodes: Vec<i64>, rates: Vec<u32>| Pattern::Hotspot { nodes, rates };
    let s = shares(hs(vec![0, 63], vec![1, 3]), &g, 5, 80_000);
    assert!(near(s[&0], 0.25) && near(s[&63], 0.75), "{s:?}");
    let s = shares(hs(vec![0, 27, 63], vec![1, 2, 1]), &g, 5, 80_000);
    assert!(near(s[&27], 0.5) && near(s[&63], 0.25), "{s:?}");
    // One hot spot takes every packet; a negative one is a node drawn once.
    assert_eq!(shares(hs(vec![9], vec![5]), &g, 5, 100).keys().count(), 1);
    assert_eq!(shares(hs(vec![-1], vec![1]), &g, 5, 100).keys().count(), 1);
    let e = Rule::new(
        &hs(vec![64], vec![1]),
        &g,
        &mut ChaCha8Rng::seed_from_u64(0),
    );
    assert!(e.is_err_and(|e| e.to_string().contains("node 64 is out of range")));
}
