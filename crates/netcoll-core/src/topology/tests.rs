use super::*;
use proptest::prelude::*;

fn topo(s: &str) -> Topology {
    Topology::from_spec(s).unwrap()
}

#[test]
fn grid_families_have_the_textbook_counts() {
    for (spec, switches, links, degree) in [
        ("mesh:8x8", 64, 112, (2, 4)),
        ("torus:8x8x8", 512, 1536, (6, 6)),
        ("torus:2x2", 4, 8, (4, 4)),
        ("hypercube:6", 64, 192, (6, 6)),
        ("ibt:64x64:b=8,24", 4096, 3 * 4096, (6, 6)),
        ("ibt:12x12x12:b=3", 1728, 4 * 1728, (8, 8)),
    ] {
        let t = topo(spec);
        assert_eq!(t.num_switches(), switches, "{spec}");
        assert_eq!(t.num_endpoints(), switches, "{spec}");
        assert_eq!(t.num_links(), links, "{spec}");
        let degs: Vec<usize> = (0..switches).map(|s| t.degree(s)).collect();
        assert_eq!(
            (*degs.iter().min().unwrap(), *degs.iter().max().unwrap()),
            degree,
            "{spec}"
        );
        assert_eq!(t.name(), spec);
    }
}

#[test]
fn coordinates_round_trip_and_ports_follow_booksim() {
    let t = topo("torus:4x3");
    assert_eq!(t.coords(7), Some(vec![3, 1]));
    assert_eq!(index_of(&[3, 1], t.shape()), 7);
    // Port 0 is +x, port 1 is -x, port 2 is +y, port 3 is -y, port 4 the endpoint.
    let nb = |s, p| match t.peer(s, p) {
        Peer::Switch { switch, .. } => switch,
        other => panic!("{other:?}"),
    };
    assert_eq!((nb(7, 0), nb(7, 1), nb(7, 2), nb(7, 3)), (4, 6, 11, 3));
    assert_eq!(t.peer(7, 4), Peer::Endpoint(7));
}

#[test]
fn ibt_bypass_follows_the_species_rule() {
    // iBT(8^2; b=<4>): species (x+y) mod 2; species 0 bypasses in x, species 1 in y.
    let t = topo("ibt:8x8:b=4");
    let bypass = |s: usize| match t.peer(s, 4) {
        Peer::Switch { switch, .. } => t.coords(switch as usize).unwrap(),
        other => panic!("{other:?}"),
    };
    assert_eq!(bypass(index_of(&[1, 1], t.shape())), vec![5, 1]); // species 0: x + 4
    assert_eq!(bypass(index_of(&[1, 2], t.shape())), vec![1, 6]); // species 1: y + 4
    assert_eq!(bypass(index_of(&[6, 2], t.shape())), vec![2, 2]); // wraps: 6 + 4 = 10 = 2
}

#[test]
fn ibt_rejects_schemes_that_do_not_close() {
    for s in [
        "ibt:10x10:b=4,8",
        "ibt:9x9:b=4",
        "ibt:64x64:b=6,24",
        "ibt:8x8:b=8",
        "ibt:8x8:b=0",
    ] {
        assert!(Topology::from_spec(s).is_err(), "{s}");
    }
}

#[test]
fn irregular_reports_impossible_port_budgets() {
    for s in [
        "irregular:switches=8,ports=4,nodes=32",
        "irregular:switches=8,ports=2,nodes=8,conn=0.5",
        "irregular:switches=0,ports=4,nodes=1",
    ] {
        let e = Topology::from_spec(s).expect_err(s).to_string();
        assert!(!e.contains('\n') && e.contains(s), "{e}");
    }
}

#[test]
fn irregular_paper_default_is_connected_with_the_right_counts() {
    let t = topo("irregular:switches=8,ports=8,nodes=32,conn=0.8,seed=3");
    assert_eq!(t.num_switches(), 8);
    assert_eq!(t.num_endpoints(), 32);
    // (8*8 - 32) * 0.8 = 25.6 -> 25 ports -> 12 links.
    assert_eq!(t.num_links(), 12);
}

#[test]
fn file_format_round_trips_and_reports_errors() {
    let t = topo("irregular:switches=6,ports=6,nodes=12,seed=9");
    let json = file::to_json(&t);
    let back = file::from_json(&json, "mem").unwrap();
    assert_eq!(back.links(), t.links());
    assert_eq!(back.endpoints(), t.endpoints());
    assert_eq!(file::to_json(&back), json);
    let cases = [
        ("{", "not a valid"),
        (
            r#"{"format":"x","version":1,"switches":[],"endpoints":[],"links":[]}"#,
            "format 'x'",
        ),
        (
            r#"{"format":"netcoll-topology","version":1,"switches":[{"ports":1},{"ports":1}],"endpoints":[[0,0]],"links":[]}"#,
            "disconnected",
        ),
        (
            r#"{"format":"netcoll-topology","version":1,"switches":[{"ports":1}],"endpoints":[[0,0],[0,0]],"links":[]}"#,
            "used twice",
        ),
        (
            r#"{"format":"netcoll-topology","version":1,"switches":[{"ports":2},{"ports":2}],"endpoints":[[0,0]],"links":[[0,1,0,2]]}"#,
            "same switch",
        ),
        (
            r#"{"format":"netcoll-topology","version":1,"switches":[{"ports":2},{"ports":2}],"endpoints":[[0,0]],"links":[[0,1,1,5]]}"#,
            "not port 5",
        ),
    ];
    for (text, needle) in cases {
        let e = file::from_json(text, "bad.json").err().unwrap().to_string();
        assert!(e.contains(needle) && !e.contains('\n'), "{e}");
    }
    let e = file::load("/no/such/file.json").err().unwrap().to_string();
    assert!(e.contains("cannot read topology file"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Generator invariants over many parameter sets and seeds: the right number of hosts and
    /// links, each port used at most once (the builder refuses otherwise), no self links,
    /// connected (the builder refuses otherwise), and the same seed gives the same network.
    #[test]
    fn irregular_generator_invariants(
        switches in 1usize..40, ports in 2usize..17, host_share in 0.05f64..0.7,
        conn in 0.0f64..=1.0, seed in any::<u64>(),
    ) {
        let nodes = ((switches * ports) as f64 * host_share).ceil() as usize;
        let spec = format!("irregular:switches={switches},ports={ports},nodes={nodes},conn={conn},seed={seed}");
        let Ok(parsed) = crate::spec::TopologySpec::parse(&spec) else { return Ok(()) };
        let t = Topology::from_parsed(&parsed).unwrap();
        let crate::spec::TopologySpec::Irregular(p) = parsed else { unreachable!() };
        prop_assert_eq!(t.num_endpoints(), nodes);
        prop_assert_eq!(t.num_switches(), switches);
        prop_assert!(t.num_links() <= p.num_links());
        // Fewer links only when the last free ports all sit on one switch.
        if t.num_links() < p.num_links() {
            let mut free_on = std::collections::HashSet::new();
            for s in 0..switches {
                for q in 0..ports {
                    if t.peer(s, q) == Peer::Open { free_on.insert(s); }
                }
            }
            prop_assert!(free_on.len() <= 1);
        }
        for l in t.links() {
            prop_assert_ne!(l.a.switch, l.b.switch);
        }
        let again = Topology::from_spec(&spec).unwrap();
        prop_assert_eq!(file::to_json(&again), file::to_json(&t));
    }
}

#[test]
fn different_seeds_give_different_networks() {
    let nets: std::collections::HashSet<String> = (0..20)
        .map(|seed| {
            file::to_json(&topo(&format!(
                "irregular:switches=8,ports=8,nodes=32,seed={seed}"
            )))
        })
        .collect();
    assert!(nets.len() >= 19);
}
