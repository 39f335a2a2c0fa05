use super::*;
use crate::topology::metrics::Bfs;
use proptest::prelude::*;

fn topo(s: &str) -> Topology {
    Topology::from_spec(s).unwrap()
}

fn path(t: &Topology, r: &Routing, a: usize, b: usize) -> Vec<u32> {
    let mut p = vec![a as u32];
    p.extend(r.route(t, a, b).iter().map(|h| h.to));
    p
}

#[test]
fn dor_mesh_goes_x_then_y() {
    let t = topo("mesh:4x4");
    let r = Routing::new(&t, RoutingKind::Dor, None).unwrap();
    // (0,0) -> (2,3): x to 2 first, then y.
    assert_eq!(path(&t, &r, 0, 2 + 3 * 4), vec![0, 1, 2, 6, 10, 14]);
    assert_eq!(path(&t, &r, 14, 0), vec![14, 13, 12, 8, 4, 0]);
}

#[test]
fn dor_torus_takes_the_short_way_and_the_dateline_class() {
    let t = topo("torus:5x4");
    let r = Routing::new(&t, RoutingKind::Dor, None).unwrap();
    // x: 4 -> 1 goes + over the wrap (2 hops, class 1 from the crossing on).
    let hops = r.route(&t, 4, 1);
    assert_eq!(path(&t, &r, 4, 1), vec![4, 0, 1]);
    assert_eq!(
        hops.iter().map(|h| h.vc_class).collect::<Vec<_>>(),
        vec![1, 1]
    );
    // Then in y the class starts again at 0: (4,0) -> (1,1): 4,0,1 then 6.
    let hops = r.route(&t, 4, 6);
    assert_eq!(
        hops.iter().map(|h| h.vc_class).collect::<Vec<_>>(),
        vec![1, 1, 0]
    );
    // Ties (distance k/2 in y, k=4) go the + way: (0,0) -> (0,2) via y=1.
    assert_eq!(path(&t, &r, 0, 10), vec![0, 5, 10]);
}

#[test]
fn hypercube_is_e_cube() {
    let t = topo("hypercube:4");
    let r = Routing::new(&t, RoutingKind::Dor, None).unwrap();
    assert_eq!(path(&t, &r, 0b0000, 0b1011), vec![0, 1, 3, 11]);
}

#[test]
fn dor_is_refused_off_the_grid_families() {
    let t = topo("ibt:16x16:b=4");
    let e = Routing::new(&t, RoutingKind::Dor, None)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("use --routing shortest"), "{e}");
}

/// Every deterministic routing here is minimal where it should be: DOR and shortest on the
/// grid families, shortest everywhere.
#[test]
fn routes_are_minimal() {
    for (spec, kinds) in [
        ("mesh:5x4", &[RoutingKind::Dor, RoutingKind::Shortest][..]),
        ("torus:5x4x3", &[RoutingKind::Dor, RoutingKind::Shortest]),
        ("torus:2x6", &[RoutingKind::Dor, RoutingKind::Shortest]),
        ("hypercube:5", &[RoutingKind::Dor, RoutingKind::Shortest]),
        ("ibt:16x16:b=4", &[RoutingKind::Shortest]),
        (
            "irregular:switches=16,ports=8,nodes=48,seed=5",
            &[RoutingKind::Shortest],
        ),
    ] {
        let t = topo(spec);
        let n = t.num_switches();
        let mut bfs = Bfs::new(n);
        for &k in kinds {
            let r = Routing::new(&t, k, None).unwrap();
            for a in 0..n {
                let dist = bfs.distances(&t, a).to_vec();
                for (b, &d) in dist.iter().enumerate() {
                    let hops = r.route(&t, a, b);
                    assert_eq!(hops.len() as u32, d, "{spec} {k:?} {a}->{b}");
                    assert_eq!(hops.last().map_or(a as u32, |h| h.to), b as u32);
                }
            }
        }
    }
}

fn deadlock_free(spec: &str, kind: RoutingKind, vcs: u32, rule: VcRule) -> DeadlockReport {
    let t = topo(spec);
    let r = Routing::new(&t, kind, None).unwrap();
    check_deadlock(&t, &r, vcs, rule).unwrap()
}

#[test]
fn dependency_check_knows_the_classic_answers() {
    use RoutingKind::*;
    assert!(deadlock_free("mesh:6x6", Dor, 1, VcRule::Auto).deadlock_free);
    assert!(deadlock_free("hypercube:5", Dor, 1, VcRule::Auto).deadlock_free);
    assert!(deadlock_free("torus:6x6", Dor, 2, VcRule::Auto).deadlock_free);
    assert!(deadlock_free("torus:5x5x5", Dor, 4, VcRule::Dateline).deadlock_free);
    let ring = deadlock_free("torus:6x6", Dor, 1, VcRule::Auto);
    assert!(!ring.deadlock_free);
    // The cycle is a ring in one dimension: every channel leads to the next one.
    assert!(ring.cycle.len() >= 2);
    for w in ring.cycle.windows(2) {
        assert_eq!(w[0].to, w[1].from);
    }
    assert_eq!(ring.cycle.last().unwrap().to, ring.cycle[0].from);
    // Two VCs used without the dateline discipline do not help.
    assert!(!deadlock_free("torus:6x6", Dor, 2, VcRule::Any).deadlock_free);
    // Distance classes with as many VCs as the diameter + 1 are always deadlock-free.
    assert!(deadlock_free("torus:6x6", Shortest, 7, VcRule::Hop).deadlock_free);
    assert!(!deadlock_free("torus:6x6", Shortest, 1, VcRule::Auto).deadlock_free);
}

/// Forward BFS over (switch, phase) states: the shortest legal up*/down* route length.
fn legal_distance(t: &Topology, u: &UpDown, src: usize, dst: usize) -> u32 {
    let n = t.num_switches();
    let mut dist = vec![u32::MAX; 2 * n];
    dist[2 * src] = 0;
    let mut q = std::collections::VecDeque::from([2 * src]);
    while let Some(s) = q.pop_front() {
        let (v, ph) = (s / 2, s % 2);
        if v == dst {
            return dist[s];
        }
        for nb in t.neighbours(v) {
            let w = nb.switch as usize;
            let up = u.is_up(v, w);
            if up && ph == 1 {
                continue;
            }
            let next = 2 * w + usize::from(!up);
            if dist[next] == u32::MAX {
                dist[next] = dist[s] + 1;
                q.push_back(next);
            }
        }
    }
    u32::MAX
}

#[test]
fn updown_levels_follow_the_paper_rule() {
    let t = topo("irregular:switches=8,ports=8,nodes=32,conn=0.8,seed=3");
    let r = Routing::new(&t, RoutingKind::UpDown, Some(6)).unwrap();
    let u = r.updown().unwrap();
    assert_eq!(u.levels()[6], 0);
    for l in t.links() {
        let (a, b) = (l.a.switch as usize, l.b.switch as usize);
        // Exactly one direction is up, and it points at the nearer-to-root (or lower-id) end.
        assert_ne!(u.is_up(a, b), u.is_up(b, a));
        let up_end = if u.is_up(a, b) { b } else { a };
        let other = a + b - up_end;
        assert!((u.levels()[up_end], up_end) < (u.levels()[other], other));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Over many random irregular networks: every up*/down* route is legal (no up after a
    /// down), minimal among legal routes, and the routing is deadlock-free with one VC.
    #[test]
    fn updown_is_legal_minimal_and_deadlock_free(
        switches in 2usize..20, ports in 4usize..9, seed in 0u64..10_000, conn in 0.6f64..1.0,
    ) {
        let nodes = switches * (ports / 2).max(1);
        let spec = format!("irregular:switches={switches},ports={ports},nodes={nodes},conn={conn:.2},seed={seed}");
        let Ok(t) = Topology::from_spec(&spec) else { return Ok(()) };
        let root = (seed as usize) % switches;
        let r = Routing::new(&t, RoutingKind::UpDown, Some(root)).unwrap();
        let u = r.updown().unwrap();
        for a in 0..switches {
            for b in 0..switches {
                let hops = r.route(&t, a, b);
                let first_down = hops.iter().position(|h| !h.up).unwrap_or(hops.len());
                prop_assert!(hops[first_down..].iter().all(|h| !h.up), "{spec}: up after down");
                prop_assert_eq!(hops.len() as u32, legal_distance(&t, u, a, b));
                prop_assert_eq!(hops.last().map_or(a as u32, |h| h.to), b as u32);
            }
        }
        let rep = check_deadlock(&t, &r, 1, VcRule::Single).unwrap();
        prop_assert!(rep.deadlock_free, "{spec}: {:?}", rep.cycle);
    }
}
