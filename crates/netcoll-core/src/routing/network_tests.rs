//! Routing on the network families: minimal routes are shortest (dragonfly: local, global,
//! local), the dependency check covers the adaptive routings.

use super::*;
use crate::topology::metrics::Bfs;

fn topo(s: &str) -> Topology {
    Topology::from_spec(s).unwrap()
}

#[test]
fn family_minimal_routes_reach_the_destination_on_shortest_paths() {
    for s in [
        "fattree:k=4,levels=3",
        "fattree:k=2,levels=4,taper=2",
        "flatfly:k=4,n=2,c=4",
        "hyperx:3x4x2,t=1,k=2",
        "dragonfly:p=2,a=4,h=2",
        "dragonfly:p=1,a=4,h=2,g=5,arrangement=circulant",
    ] {
        let t = topo(s);
        let dragonfly = s.starts_with("dragonfly");
        let hosts: Vec<usize> = (0..t.num_endpoints())
            .map(|e| t.endpoint_switch(e))
            .collect();
        for kind in [RoutingKind::Shortest, RoutingKind::Nca, RoutingKind::Ugal] {
            let Ok(r) = Routing::new(&t, kind, None) else {
                continue;
            };
            let mut bfs = Bfs::new(t.num_switches());
            for &a in &hosts {
                let dist = bfs.distances(&t, a).to_vec();
                for &b in &hosts {
                    let route = r.route(&t, a, b);
                    let end = route.last().map_or(a, |h| h.to as usize);
                    assert_eq!(end, b, "{s} {kind:?}");
                    if dragonfly {
                        assert!(route.len() as u32 >= dist[b] && route.len() <= 3, "{s}");
                        let globals = route
                            .iter()
                            .filter(|h| t.link_class(h.link) == crate::topology::LinkClass::Global)
                            .count();
                        assert_eq!(
                            globals,
                            usize::from(a / 4 != b / 4 && s.contains("a=4")),
                            "{s}"
                        );
                    } else {
                        assert_eq!(route.len() as u32, dist[b], "{s} {kind:?} {a}->{b}");
                    }
                }
            }
        }
    }
}

#[test]
fn valiant_goes_through_its_intermediate() {
    let t = topo("dragonfly:p=2,a=4,h=2");
    let r = Routing::new(&t, RoutingKind::Valiant, None).unwrap();
    let mut longer = 0;
    for a in 0..t.num_switches() {
        for b in 0..t.num_switches() {
            let route = r.route(&t, a, b);
            assert_eq!(route.last().map_or(a, |h| h.to as usize), b);
            // Kim et al.'s VAL: local, global, local, global, local at most, through the
            // hashed router's group, on classes 0 to 2.
            assert!(route.len() <= 5, "{a}->{b}: {route:?}");
            let group = super::minimal::ecmp_hash(a ^ 0x5a5a, b) % t.num_switches() / 4;
            assert!(group == a / 4 || route.iter().any(|h| h.to as usize / 4 == group));
            assert!(route.iter().all(|h| h.vc_class < 3));
            longer += usize::from(route.len() > 3);
            // The classes climb: never back to a lower class along a route.
            assert!(route.windows(2).all(|w| w[0].vc_class <= w[1].vc_class));
        }
    }
    assert!(longer > 0);
}

fn deadlock_free(spec: &str, kind: RoutingKind, vcs: u32) -> bool {
    let t = topo(spec);
    let r = Routing::new(&t, kind, None).unwrap();
    check_deadlock(&t, &r, vcs, VcRule::Auto)
        .unwrap()
        .deadlock_free
}

#[test]
fn dependency_check_covers_the_network_routings() {
    use RoutingKind::*;
    let df = "dragonfly:p=1,a=4,h=2";
    // Minimal dragonfly routing needs its two classes; with one VC the l-g-l chains close.
    assert!(!deadlock_free(df, Shortest, 1));
    assert!(deadlock_free(df, Shortest, 2));
    // Valiant and UGAL: Kim et al.'s three classes (the first leg, then the second's two).
    for kind in [Valiant, Ugal, UgalGlobal] {
        assert!(!deadlock_free(df, kind, 2), "{kind:?}");
        assert!(deadlock_free(df, kind, 3), "{kind:?}");
    }
    for s in ["flatfly:k=4,n=2,c=1", "hyperx:3x3x3,t=1"] {
        assert!(deadlock_free(s, Shortest, 1), "{s}");
        assert!(!deadlock_free(s, Ugal, 1), "{s}");
        assert!(deadlock_free(s, Ugal, 2), "{s}");
    }
    assert!(deadlock_free("fattree:k=4,levels=3", Nca, 1));
}

#[test]
fn adaptive_routings_are_refused_where_they_do_not_apply() {
    for (s, kind) in [
        ("fattree:k=4,levels=2", RoutingKind::Ugal),
        // Valiant runs on meshes and tori too (BookSim's valiant_mesh, valiant_torus).
        ("hypercube:4", RoutingKind::Valiant),
        ("dragonfly:p=2,a=4,h=2", RoutingKind::Nca),
    ] {
        let e = Routing::new(&topo(s), kind, None)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("needs a"), "{e}");
    }
}
