//! The network families: BookSim's wiring, closed forms against BFS, bisection against a
//! max-flow.

use super::dragonfly::{global_peer, port_to_group};
use super::metrics::{metrics, metrics_all_pairs};
use super::*;

fn topo(s: &str) -> Topology {
    Topology::from_spec(s).unwrap()
}

#[test]
fn closed_forms_and_symmetry_equal_all_pairs_bfs() {
    for s in [
        "fattree:k=2,levels=1",
        "fattree:k=2,levels=3",
        "fattree:k=3,levels=3",
        "fattree:k=4,levels=3",
        "fattree:k=4,levels=2,taper=3",
        "flatfly:k=4,n=2,c=4",
        "flatfly:k=3,n=3,c=2",
        "hyperx:4x4,t=1",
        "hyperx:2x3x5,t=2,k=2",
        "dragonfly:p=2,a=4,h=2",
        "dragonfly:p=2,a=4,h=2,arrangement=relative",
        "dragonfly:p=1,a=3,h=3,arrangement=circulant",
        "dragonfly:p=2,a=4,h=2,g=5,arrangement=circulant",
        "dragonfly:p=1,a=2,h=2,g=3,arrangement=relative",
    ] {
        let t = topo(s);
        let fast = metrics(&t).unwrap();
        let slow = metrics_all_pairs(&t).unwrap();
        assert_eq!(fast.diameter, slow.diameter, "{s}");
        assert_eq!(fast.total_distance, slow.total_distance, "{s}");
        assert_eq!(
            (fast.nodes, fast.switches, fast.links),
            (slow.nodes, slow.switches, slow.links),
            "{s}"
        );
        assert_eq!(
            (fast.degree_min, fast.degree_max),
            (slow.degree_min, slow.degree_max),
            "{s}"
        );
    }
}

#[test]
fn contract_specs_have_the_textbook_sizes() {
    for (s, nodes, routers, diameter, bisection) in [
        ("fattree:k=4,levels=3", 64, 48, 4, Some(32)),
        ("dragonfly:p=2,a=4,h=2", 72, 36, 3, Some(20)),
        ("flatfly:k=4,n=2,c=4", 64, 16, 2, Some(16)),
        ("hyperx:4x4,t=1", 16, 16, 2, Some(16)),
    ] {
        let m = metrics(&topo(s)).unwrap();
        assert_eq!(
            (m.nodes, m.routers, m.diameter, m.bisection_links),
            (nodes, routers, diameter, bisection),
            "{s}"
        );
    }
    let m = metrics(&topo("dragonfly:p=2,a=4,h=2")).unwrap();
    assert_eq!(m.cables["global"], 36); // one per pair of the 9 groups
    assert_eq!(m.cables["local"], 9 * 6);
    assert_eq!(m.radix, 2 + 3 + 2);
    let m = metrics(&topo("fattree:k=4,levels=3")).unwrap();
    assert_eq!(m.cables["tree"], 2 * 64);
}

/// BookSim's dragonflynew (networks/dragonfly.cpp): the channel that feeds global input `cnt`
/// of router `node` is output `(_input % nps) ` of router `_input / nps`, nps = 3p-1 network
/// ports; here is its formula, transcribed, against our links.
#[test]
fn absolute_dragonfly_is_booksims_dragonflynew() {
    for p in 1..=3usize {
        let (a, h) = (2 * p, p);
        let t = topo(&format!("dragonfly:p={p},a={a},h={h}"));
        let nps = 3 * p - 1;
        for node in 0..t.num_switches() {
            let (grp, r) = (node / a, node % a);
            for cnt in 0..p {
                let out = r * p + cnt;
                let input = if grp > out {
                    out * nps * a + (nps - p) * ((grp - 1) / p) + (nps - p) + grp - 1
                } else {
                    (out + 1) * nps * a + (nps - p) * (grp / p) + (nps - p) + grp
                };
                let (from, from_port) = (input / nps, p + input % nps);
                let Peer::Switch { switch, port, .. } = t.peer(node, p + a - 1 + cnt) else {
                    panic!("global port open");
                };
                assert_eq!(
                    (switch as usize, port as usize),
                    (from, from_port),
                    "p={p} node={node}"
                );
            }
        }
    }
}

/// BookSim's fattree.cpp: the up input `port` of router (level, pos) is fed by channel
/// `(level-1)*2kN + nb*span*k + port*branch*k + (pos%span)%branch*k + (pos%span)/branch`, the
/// down output `link % k` of router `link / k` (within the level-1 region).
#[test]
fn fattree_is_booksims_fattree() {
    for (k, n) in [(2usize, 3usize), (3, 3), (4, 3), (2, 4)] {
        let t = topo(&format!("fattree:k={k},levels={n}"));
        let per = k.pow(n as u32 - 1);
        for level in 1..n {
            let span = k.pow((n - level) as u32);
            let branch = span / k;
            for pos in 0..per {
                let (nb, npos) = (pos / span, pos % span);
                for port in 0..k {
                    let link =
                        nb * span * k + port * branch * k + (npos % branch) * k + npos / branch;
                    let (parent, parent_port) = (link / k, link % k);
                    let me = level * per + pos;
                    let Peer::Switch {
                        switch, port: pp, ..
                    } = t.peer(me, k + port)
                    else {
                        panic!("up port open");
                    };
                    assert_eq!(
                        (switch as usize, pp as usize),
                        ((level - 1) * per + parent, parent_port),
                        "k={k} n={n} level={level} pos={pos} port={port}"
                    );
                }
            }
        }
    }
}

#[test]
fn arrangements_are_consistent_and_invertible() {
    for arrangement in ["absolute", "relative", "circulant"] {
        for (a, h, g) in [
            (4, 2, 9),
            (4, 2, 5),
            (3, 3, 10),
            (2, 3, 7),
            (4, 2, 3),
            (2, 2, 2),
        ] {
            let spec = format!("dragonfly:p=1,a={a},h={h},g={g},arrangement={arrangement}");
            let TopologySpec::Dragonfly(p) = TopologySpec::parse(&spec).unwrap() else {
                unreachable!()
            };
            for group in 0..g {
                for t in 0..a * h {
                    let (other, t2) = global_peer(&p, group, t);
                    assert_ne!(other, group, "{spec}");
                    assert_eq!(global_peer(&p, other, t2), (group, t), "{spec}");
                    assert_eq!(port_to_group(&p, group, other, t / (g - 1)), t, "{spec}");
                }
            }
            topo(&spec); // builds: every port used once, connected
        }
    }
}

/// Unit-capacity max-flow (Edmonds-Karp) between the switches of the endpoints `lower` picks
/// and the rest: the links a cut between them must cut.
fn max_flow_between(t: &Topology, lower: impl Fn(usize) -> bool) -> u64 {
    let n = t.num_switches();
    let (src, sink) = (n, n + 1);
    let mut cap: Vec<std::collections::HashMap<usize, i64>> = vec![Default::default(); n + 2];
    let add = |cap: &mut Vec<std::collections::HashMap<usize, i64>>, a: usize, b: usize, c: i64| {
        *cap[a].entry(b).or_insert(0) += c;
        cap[b].entry(a).or_insert(0);
    };
    for l in t.links() {
        add(&mut cap, l.a.switch as usize, l.b.switch as usize, 1);
        add(&mut cap, l.b.switch as usize, l.a.switch as usize, 1);
    }
    for e in 0..t.num_endpoints() {
        let s = t.endpoint_switch(e);
        if lower(e) {
            add(&mut cap, src, s, 1 << 40);
        } else {
            add(&mut cap, s, sink, 1 << 40);
        }
    }
    let mut flow = 0;
    loop {
        let mut prev = vec![usize::MAX; n + 2];
        let mut queue = std::collections::VecDeque::from([src]);
        prev[src] = src;
        while let Some(u) = queue.pop_front() {
            let next: Vec<usize> = cap[u]
                .iter()
                .filter(|(_, &c)| c > 0)
                .map(|(&v, _)| v)
                .collect();
            for v in next {
                if prev[v] == usize::MAX {
                    prev[v] = u;
                    queue.push_back(v);
                }
            }
        }
        if prev[sink] == usize::MAX {
            return flow;
        }
        let mut v = sink;
        while v != src {
            let u = prev[v];
            *cap[u].get_mut(&v).unwrap() -= 1;
            *cap[v].get_mut(&u).unwrap() += 1;
            v = u;
        }
        flow += 1;
    }
}

#[test]
fn bisection_formulas_equal_max_flow() {
    for s in [
        "fattree:k=2,levels=3",
        "fattree:k=4,levels=3",
        "fattree:k=4,levels=2,taper=2",
        "dragonfly:p=2,a=4,h=2,g=2",
        "dragonfly:p=1,a=3,h=1",
        "dragonfly:p=2,a=2,h=3,g=4,arrangement=relative",
        "dragonfly:p=1,a=5,h=1,arrangement=circulant",
        "flatfly:k=4,n=2,c=4",
        "hyperx:6x4,t=1", // ids split the last dimension, the cheaper cut
        "hyperx:4x4,t=2,k=2",
        "mesh:4x6",
        "torus:4x6",
        "hypercube:4",
    ] {
        let t = topo(s);
        let m = metrics(&t).unwrap();
        let half = t.num_endpoints() / 2;
        assert_eq!(
            m.bisection_links,
            Some(max_flow_between(&t, |e| e < half)),
            "{s}"
        );
    }
    // With an odd number of groups the formula cuts between whole groups: floor(g/2) and
    // the rest.
    for s in [
        "dragonfly:p=2,a=4,h=2",
        "dragonfly:p=1,a=2,h=2,g=5,arrangement=relative",
        "dragonfly:p=2,a=2,h=1,g=3,arrangement=circulant",
    ] {
        let t = topo(s);
        let TopologySpec::Dragonfly(p) = TopologySpec::parse(s).unwrap() else {
            unreachable!()
        };
        let lower = |e: usize| e / (p.a * p.p) < p.g / 2;
        let m = metrics(&t).unwrap();
        assert_eq!(m.bisection_links, Some(max_flow_between(&t, lower)), "{s}");
    }
}
