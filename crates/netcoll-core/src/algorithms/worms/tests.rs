use super::header::{id_bits, Reachability, UpRule};
use super::phases::{assign, PhaseRule};
use super::*;
use crate::algorithms::{build, Params};
use crate::topology::{Family, PortRef, TopologyBuilder};
use proptest::prelude::*;

/// A network consistent with everything seed 003 says of its Fig. 14(a) (printed only as a
/// picture): switches 1..10, root 6, two processors on each switch (p_{i,1} = endpoint
/// 2(i-1), p_{i,2} = 2(i-1)+1), levels 6 | 4 1 5 10 | 7 2 8 3 | 9, a down link 1 -> 4 inside
/// level 1 (Fig. 17: switch 1 reaches switch 4's nodes), switch 2 below 1 and 5. Switch 0 is
/// an idle leaf so that the paper's switch numbers are ours. `link_4_7` adds the link of the
/// Fig. 17(b) variation.
fn fig14(link_4_7: bool) -> Topology {
    let mut b = TopologyBuilder::new(std::iter::repeat_n(8, 11)).unwrap();
    for s in 1..=10u32 {
        for p in 0..2 {
            b.endpoint(PortRef { switch: s, port: p }).unwrap();
        }
    }
    let mut next_port = [2u32; 11];
    let mut links = vec![
        (6, 4),
        (6, 1),
        (6, 5),
        (6, 10),
        (1, 4),
        (1, 7),
        (1, 2),
        (4, 8),
        (5, 3),
        (5, 2),
        (3, 9),
        (9, 0),
    ];
    if link_4_7 {
        links.push((4, 7));
    }
    for (x, y) in links {
        let px = PortRef {
            switch: x,
            port: next_port[x as usize],
        };
        let py = PortRef {
            switch: y,
            port: next_port[y as usize],
        };
        next_port[x as usize] += 1;
        next_port[y as usize] += 1;
        b.link(px, py).unwrap();
    }
    b.finish(
        "fig14".into(),
        Family::File {
            path: "fig14".into(),
        },
        Vec::new(),
    )
    .unwrap()
}

fn p(switch: u32, j: u32) -> u32 {
    2 * (switch - 1) + (j - 1)
}

/// The Fig. 14 multicast: source p_{10,1}, both processors of every switch but 10 and 6.
fn fig14_request<'a>(t: &'a Topology, algo_params: &[&str]) -> AlgoRequest<'a> {
    let mut req = AlgoRequest::new(t, CollectiveKind::Multicast);
    req.root = p(10, 1);
    req.targets = [1, 2, 3, 4, 5, 7, 8, 9]
        .iter()
        .flat_map(|&s| [p(s, 1), p(s, 2)])
        .collect();
    let mut items = vec!["ud-root=6"];
    items.extend_from_slice(algo_params);
    req.params = Params::parse(&items).unwrap();
    req
}

/// Rounds as (sender, switches covered) for comparison with the paper's text.
fn rounds_of(m: &Mcast, plans: &[WormPlan], rule: PhaseRule) -> Vec<Vec<(u32, Vec<u32>)>> {
    assign(m, plans, rule)
        .into_iter()
        .map(|r| {
            r.into_iter()
                .map(|(s, w)| (s, plans[w].drops.iter().map(|d| d.0).collect()))
                .collect()
        })
        .collect()
}

#[test]
fn fig14_pocs() {
    let t = fig14(false);
    let req = fig14_request(&t, &[]);
    let m = Mcast::from_request(&req).unwrap();
    assert_eq!(m.ud.levels()[6], 0);
    // Fig. 14(d): <5,3,9>, <1,7>, <4,8>, <2>, and the source's own chain <10>.
    assert_eq!(
        m.pocs(),
        vec![vec![5, 3, 9], vec![1, 7], vec![4, 8], vec![2], vec![10]]
    );
    let plans = plan_worms(&m, Shape::Path);
    let chains: Vec<Vec<u32>> = plans
        .iter()
        .map(|w| w.drops.iter().map(|d| d.0).collect())
        .collect();
    assert_eq!(chains, vec![vec![5, 3, 9], vec![1, 7], vec![4, 8], vec![2]]);
    assert_eq!(
        plans[0].dests(),
        vec![p(5, 1), p(5, 2), p(3, 1), p(3, 2), p(9, 1), p(9, 2)]
    );
}

#[test]
fn fig15_greedy_and_fig16_less_greedy() {
    let t = fig14(false);
    let req = fig14_request(&t, &[]);
    let m = Mcast::from_request(&req).unwrap();
    let src = p(10, 1);
    let path = plan_worms(&m, Shape::Path);
    // Fig. 15(b): 2 steps; in step 2 the source covers 1 and 7, one destination on 5 covers
    // 4 and 8, the other destination on 5 covers 2.
    assert_eq!(
        rounds_of(&m, &path, PhaseRule::Greedy),
        vec![
            vec![(src, vec![5, 3, 9])],
            vec![(src, vec![1, 7]), (p(5, 1), vec![4, 8]), (p(5, 2), vec![2])],
        ]
    );
    // Fig. 16(b): the same but a destination on switch 3 covers 2.
    assert_eq!(
        rounds_of(&m, &path, PhaseRule::LessGreedy)[1],
        vec![(src, vec![1, 7]), (p(5, 1), vec![4, 8]), (p(3, 1), vec![2])]
    );
    let ssr = plan_worms(&m, Shape::Ssr);
    // Fig. 15(a): 3 steps; 5 first, then the source and each destination on 5 cover 3, 9, 1.
    let g = rounds_of(&m, &ssr, PhaseRule::Greedy);
    assert_eq!(g.len(), 3);
    assert_eq!(g[0], vec![(src, vec![5])]);
    assert_eq!(
        g[1],
        vec![(src, vec![3]), (p(5, 1), vec![9]), (p(5, 2), vec![1])]
    );
    // Fig. 16(a): 4 steps; the source and one destination on 5 cover 3 and 9; then the
    // source covers 1 and one destination on 5 covers 7, and so on.
    let lg = rounds_of(&m, &ssr, PhaseRule::LessGreedy);
    assert_eq!(lg.len(), 4);
    assert_eq!(lg[1], vec![(src, vec![3]), (p(5, 1), vec![9])]);
    assert_eq!(&lg[2][..2], &[(src, vec![1]), (p(5, 1), vec![7])]);
}

#[test]
fn fig14_schedules_and_figures() {
    let t = fig14(false);
    let cases = [
        ("worm-path", "phases=greedy", 4, 2),
        ("worm-path", "phases=less-greedy", 4, 2),
        ("worm-ssr", "phases=greedy", 8, 3),
        ("worm-ssr", "phases=less-greedy", 8, 4),
    ];
    for (algo, phases, worms, nphases) in cases {
        let req = fig14_request(&t, &[phases]);
        let s = build(algo, &req).unwrap();
        let f = figures(&s);
        assert_eq!((f.worms, f.phases), (worms, nphases), "{algo} {phases}");
    }
    let s = build("worm-tree", &fig14_request(&t, &[])).unwrap();
    let f = figures(&s);
    assert_eq!((f.worms, f.phases, f.header_bits), (1, 1, 20 + 1));
    // One copy per switch with destinations, plus 6 (the turn) and 10 -> 6: the tree worm
    // of Fig. 17(a) crosses each of the 9 links it needs once.
    assert_eq!(f.link_traversals, 9);
}

#[test]
fn path_header_encoding_fig12() {
    let t = fig14(false);
    let req = fig14_request(&t, &[]);
    let m = Mcast::from_request(&req).unwrap();
    let h = drop_header(&m, &plan_worms(&m, Shape::Path)[0]);
    // Destinations sit on ports 0 and 1 of every switch: 8-bit strings 11000000.
    assert_eq!(h.to_text(), "1 | s5 11000000 | s3 11000000 | s9 11000000");
    // Tag bit + 3 * (4-bit switch id of 11 switches + 8 port bits).
    assert_eq!(id_bits(11), 4);
    assert_eq!(h.bits(11), 1 + 3 * 12);
    let w = route_drop_worm(&m, p(10, 1), &plan_worms(&m, Shape::Path)[0]).unwrap();
    // 10 up to 6, down to 5, 3, 9: drops at 5, 3 and 9.
    assert_eq!(w.route, vec![10, 6, 5, 3, 9]);
    assert_eq!(w.hops[0].out_ports.len(), 1);
    let at5 = &w.hops[2];
    assert_eq!((at5.switch, at5.out_ports.len()), (5, 3));
}

#[test]
fn fig17b_header_modification_delivers_once() {
    // With the extra link 4-7, switch 7 is reachable from 6 through 1 and through 4. The
    // restricted strings put 4's nodes on 6's port to 1 (its highest down port reaching
    // them, as the paper's footnote assumes); at 1 the port to 7 keeps 7's nodes, so the
    // copy sent to 4 no longer names them (s5.3.2).
    let t = fig14(true);
    let mut req = AlgoRequest::new(&t, CollectiveKind::Multicast);
    req.root = p(10, 1);
    req.targets = vec![p(4, 1), p(4, 2), p(7, 1), p(7, 2)];
    req.params = Params::parse(&["ud-root=6"]).unwrap();
    let m = Mcast::from_request(&req).unwrap();
    let reach = Reachability::new(&t, &m.ud);
    let port_6_to_4 = 2;
    let port_6_to_1 = 3;
    assert!(reach.restricted[6][port_6_to_4].is_zero());
    assert!(reach.restricted[6][port_6_to_1].get(p(4, 1)));
    let w = tree_worm(&m, UpRule::First).unwrap();
    assert_eq!(w.route, vec![10, 6, 1, 4, 7]);
    assert_eq!(w.hops[3].switch, 4);
    assert_eq!(w.hops[3].out_ports, vec![0, 1]); // 4 delivers and does not forward to 7
    assert!(build("worm-tree", &req).unwrap().verify().ok);
}

#[test]
fn ni_kbinomial_meets_theorem_3() {
    let t = fig14(false);
    for packets in [1u32, 3, 8] {
        let mut req = fig14_request(&t, &[]);
        req.packets = packets;
        req.bytes = 128 * packets as u64;
        let s = build("ni-kbinomial", &req).unwrap();
        let f = figures(&s);
        let (_, steps) = crate::models::kbinomial::kbinomial_optimal(17, packets as u64).unwrap();
        assert_eq!(f.phases, steps, "packets {packets}");
        assert_eq!(f.worms, 0);
        // The 16 tree edges are unicasts; an up*/down* route is at most up to the root and
        // down again (levels 0..3 here), so at most 6 links each.
        let routed = figures_routed(&s, &t, 6).unwrap();
        assert_eq!(routed.unicasts, 16);
        assert!(routed.link_traversals > 0 && routed.link_traversals <= 16 * 6);
    }
}

#[test]
fn bad_parameters_are_one_line_errors() {
    let t = fig14(false);
    for (algo, set) in [
        ("worm-path", "phases=fast"),
        ("worm-ssr", "ud-root=99"),
        ("ni-kbinomial", "k=0"),
        ("worm-tree", "phases=greedy"),
    ] {
        let mut req = fig14_request(&t, &[]);
        req.params = Params::parse(&[set]).unwrap();
        let e = build(algo, &req).unwrap_err().to_string();
        assert!(!e.contains('\n') && !e.is_empty(), "{e}");
    }
}

#[test]
fn empty_and_broadcast() {
    let t = Topology::from_spec("irregular:switches=8,ports=8,nodes=32,seed=3").unwrap();
    for algo in ["worm-ssr", "worm-path", "worm-tree", "ni-kbinomial"] {
        let mut req = AlgoRequest::new(&t, CollectiveKind::Multicast);
        req.root = 5;
        req.targets = vec![5];
        let f = figures(&build(algo, &req).unwrap());
        assert_eq!((f.worms, f.unicasts), (0, 0), "{algo}");
        let mut req = AlgoRequest::new(&t, CollectiveKind::Broadcast);
        req.root = 7;
        assert!(build(algo, &req).unwrap().verify().ok, "{algo}");
    }
}

#[test]
fn regular_networks_under_updown() {
    for spec in ["mesh:4x4", "torus:5x3", "hypercube:4", "ibt:8x8:b=4"] {
        let t = Topology::from_spec(spec).unwrap();
        let n = t.num_endpoints() as u32;
        for algo in ["worm-ssr", "worm-path", "worm-tree", "ni-kbinomial"] {
            let mut req = AlgoRequest::new(&t, CollectiveKind::Multicast);
            req.root = n / 2;
            req.targets = (0..n).filter(|r| r % 3 == 1).collect();
            let s = build(algo, &req).unwrap();
            if algo != "ni-kbinomial" {
                assert_eq!(
                    check_all(&t, 0, &s),
                    figures(&s).link_traversals,
                    "{spec} {algo}"
                );
            }
        }
    }
}

/// Checks every worm of a schedule against the network, independently of the builder.
fn check_all(t: &Topology, ud_root: usize, s: &Schedule) -> u64 {
    let ud = UpDown::new(t, ud_root).unwrap();
    let mut links = 0;
    for m in s.messages() {
        let w = m.worm.as_ref().expect("every message is a worm");
        let eps: Vec<u32> = w.dests.iter().map(|&r| s.placement()[r as usize]).collect();
        let src = s.placement()[m.src as usize];
        let cost = replay::check_tree(t, &ud, src, &eps, &w.hops).unwrap();
        links += u64::from(cost.links);
        assert_eq!(w.route.len(), w.hops.len());
    }
    links
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Over random irregular networks, roots, destination sets and placements: every worm
    /// is a legal up*/down* route reaching each of its destinations exactly once, every
    /// schedule verifies, path worms never outnumber SSR worms, and the tree is one worm
    /// visiting each switch at most once on its way down.
    #[test]
    fn worms_are_legal_and_exactly_once(
        switches in 2usize..24, ports in 4usize..10, fill in 0.2f64..0.6, conn in 0.5f64..1.0,
        seed in 0u64..1000, ud_root_pick in 0usize..100, ndest_pick in 0.0f64..1.0,
        dseed in 0u64..1000,
    ) {
        let nodes = ((switches * ports) as f64 * fill).max(2.0) as usize;
        let spec = format!(
            "irregular:switches={switches},ports={ports},nodes={nodes},conn={conn:.2},seed={seed}");
        let Ok(t) = Topology::from_spec(&spec) else { return Ok(()) };
        let n = t.num_endpoints() as u32;
        let ud_root = ud_root_pick % switches;
        // A random destination set and a random root, from dseed.
        let mut order: Vec<u32> = (0..n).collect();
        let mut x = dseed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        for i in (1..order.len()).rev() {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            order.swap(i, (x >> 33) as usize % (i + 1));
        }
        let k = ((n - 1) as f64 * ndest_pick) as usize + 1;
        let mut req = AlgoRequest::new(&t, CollectiveKind::Multicast);
        req.root = order[0];
        req.targets = order[1..k.min(n as usize)].to_vec();
        let mut counts = Vec::new();
        for (algo, phases) in [("worm-ssr", "greedy"), ("worm-ssr", "less-greedy"),
                               ("worm-path", "greedy"), ("worm-path", "less-greedy"),
                               ("worm-tree", ""), ("ni-kbinomial", ""), ("worm-tree", "cover")] {
            let mut items = vec![format!("ud-root={ud_root}")];
            if phases == "cover" {
                items.push("up=cover".to_string());
            } else if !phases.is_empty() {
                items.push(format!("phases={phases}"));
            }
            req.params = Params::parse(&items).unwrap();
            let s = build(algo, &req).unwrap();
            let f = figures(&s);
            if algo != "ni-kbinomial" {
                prop_assert_eq!(check_all(&t, ud_root, &s), f.link_traversals);
            }
            counts.push(f);
        }
        prop_assert!(counts[2].worms <= counts[0].worms);
        prop_assert_eq!(counts[0].worms, counts[1].worms);
        prop_assert!(counts[0].phases <= counts[1].phases);
        prop_assert!(counts[2].phases <= counts[3].phases);
        prop_assert!(counts[4].worms <= 1 && counts[4].phases <= 1);
        prop_assert!(counts[6].worms <= 1 && counts[6].phases <= 1);
        let nd = req.targets.len() as u64;
        prop_assert!(counts[5].unicasts == nd);
        if nd > 0 {
            // The tree's down part visits each switch at most once.
            let s = build("worm-tree", &req).unwrap();
            let w = s.messages()[0].worm.as_ref().unwrap();
            let ud = UpDown::new(&t, ud_root).unwrap();
            let mut down_seen = vec![false; switches];
            let mut went_down = vec![false; w.hops.len()];
            for (i, h) in w.hops.iter().enumerate().skip(1) {
                let par = &w.hops[h.parent as usize];
                went_down[i] = went_down[h.parent as usize]
                    || !ud.is_up(par.switch as usize, h.switch as usize);
                if went_down[i] {
                    prop_assert!(!std::mem::replace(&mut down_seen[h.switch as usize], true));
                }
            }
        }
    }
}

#[test]
fn worm_trees_survive_json() {
    let t = fig14(false);
    for algo in ["worm-path", "worm-tree"] {
        let s = build(algo, &fig14_request(&t, &[])).unwrap();
        let text = s.to_json();
        assert!(text.contains("\"hops\"") && text.contains("\"header_bits\""));
        assert_eq!(Schedule::from_json(&text).unwrap(), s);
    }
}

#[test]
fn estimates_hand_worked_and_the_r_trend() {
    let t = fig14(false);
    let est = |algo: &str, set: &[&str], c: &Costs| {
        estimate_cycles(&build(algo, &fig14_request(&t, set)).unwrap(), c)
    };
    let d = Costs::default();
    // Tree: one phase, longest branch 10-6-1-4-8 (4 links + ejection) at 3 cycles a hop.
    assert_eq!(est("worm-tree", &[], &d), 4000 + 5 * 3 + 128);
    // Path, Greedy: 10-6-5-3-9, then the longest of 10-6-1-7 and 5-6-4-8.
    assert_eq!(
        est("worm-path", &["phases=greedy"], &d),
        (4000 + 15 + 128) + (4000 + 12 + 128)
    );
    // NI k-binomial: 17 participants, one packet: 5 steps.
    assert_eq!(est("ni-kbinomial", &[], &d), 1000 + 5 * (1000 + 128) + 1000);
    // s6.4.1: as R = t_hs / t_ns grows the NI scheme overtakes the path-based one; at
    // R = 0.5 the path-based scheme is ahead.
    let r = |t_ns: u64| Costs {
        t_ns,
        t_nr: t_ns,
        ..Costs::default()
    };
    assert!(est("ni-kbinomial", &[], &r(200)) < est("worm-path", &[], &r(200)));
    assert!(est("ni-kbinomial", &[], &r(2000)) > est("worm-path", &[], &r(2000)));
    // The tree worm is best throughout (s6.4).
    for c in [r(200), r(1000), r(2000)] {
        assert!(est("worm-tree", &[], &c) < est("ni-kbinomial", &[], &c));
    }
}

#[test]
fn show_lists_worms_and_headers() {
    let t = fig14(false);
    let req = fig14_request(&t, &["phases=greedy"]);
    let s = show(&req, "worm-path").unwrap();
    assert_eq!(s.worms.len(), 4);
    assert_eq!(
        s.worms[0].header,
        "1 | s5 11000000 | s3 11000000 | s9 11000000"
    );
    assert_eq!(s.worms[0].route, vec![10, 6, 5, 3, 9]);
    assert_eq!(s.figures.phases, 2);
    let s = show(&fig14_request(&t, &[]), "worm-tree").unwrap();
    assert_eq!(s.worms[0].header.len(), "up=1 | ".len() + 20);
    assert!(show(&fig14_request(&t, &[]), "ni-kbinomial").is_err());
}

#[test]
fn two_32_port_switches_need_one_path_worm() {
    // s6.4.4: with 32-port switches (two switches for 32 nodes) the path-based multicast
    // needs exactly one worm and one phase, like the tree-based one.
    for seed in 1..20u64 {
        let t = Topology::from_spec(&format!(
            "irregular:switches=2,ports=32,nodes=32,conn=0.8,seed={seed}"
        ))
        .unwrap();
        let mut req = AlgoRequest::new(&t, CollectiveKind::Multicast);
        req.root = (seed % 32) as u32;
        req.targets = (0..32u32)
            .filter(|&r| (u64::from(r) * 7 + seed) % 3 == 0)
            .collect();
        for algo in ["worm-path", "worm-tree"] {
            let f = figures(&build(algo, &req).unwrap());
            assert_eq!((f.worms, f.phases), (1, 1), "{algo} seed {seed}");
        }
    }
}

#[test]
fn switch_decoding_functions_per_switch() {
    use super::header::{DropDecoder, SwitchDecoder, TreeDecoder};
    let t = fig14(false);
    let req = fig14_request(&t, &[]);
    let m = Mcast::from_request(&req).unwrap();
    let plan = &plan_worms(&m, Shape::Path)[0]; // <5,3,9>
    let header = drop_header(&m, plan);
    let dec = DropDecoder {
        topo: &t,
        ud: &m.ud,
        header: &header,
    };
    let mut out = Vec::new();
    // At switch 10 (no match) the worm heads for 5: up to 6, on 10's port 2.
    dec.decode(
        10,
        &DropState {
            next: 0,
            down: false,
        },
        &mut out,
    );
    assert_eq!(out.len(), 1);
    assert_eq!((out[0].0, out[0].1.next), (2, 0));
    // At 5 (a match): both processors (ports 0 and 1), then on towards 3, pair stripped.
    out.clear();
    dec.decode(
        5,
        &DropState {
            next: 0,
            down: true,
        },
        &mut out,
    );
    let ports: Vec<u32> = out.iter().map(|o| o.0).collect();
    assert_eq!(&ports[..2], &[0, 1]);
    assert_eq!(out[2].1.next, 1);
    // The bit-string decoder at switch 6 with the whole set: one copy per down port that
    // leads to destinations, each header cut to that port's restricted string.
    let reach = Reachability::new(&t, &m.ud);
    let tdec = TreeDecoder {
        topo: &t,
        ud: &m.ud,
        reach: &reach,
        up_rule: UpRule::First,
    };
    out.clear();
    let mut tout = Vec::new();
    tdec.decode(6, &tree_header(&m), &mut tout);
    let total: u32 = tout.iter().map(|(_, h)| h.dests.count()).sum();
    assert_eq!(total, 16); // every destination on exactly one port
    assert!(tout.iter().all(|(_, h)| !h.up));
    // At 10 the set is not below: up, header unchanged.
    tout.clear();
    tdec.decode(10, &tree_header(&m), &mut tout);
    assert_eq!(tout.len(), 1);
    assert!(tout[0].1.up);
}
