use super::protocol::{best, Grid, Kind, Options};
use super::*;
use crate::algorithms::Params;

fn steps(spec: &str, kind: Kind, root: u32, k: u32, sets: &[&str]) -> u32 {
    let t = Topology::from_spec(spec).unwrap();
    let p = Params::parse(sets).unwrap();
    simulate(&t, kind, root, k, &p, false)
        .unwrap()
        .0
        .result
        .steps
}

#[test]
#[ignore]
fn explore_table1() {
    for b in ["6", "14", "4,16", "8,24"] {
        let spec = format!("ibt:64x64:b={b}");
        let t = Topology::from_spec(&spec).unwrap();
        let grid = Grid::of(&t).unwrap();
        let net = PortNet::from_topology(&t);
        for tie in [
            "forward=order",
            "forward=order,relay=3",
            "forward=order,relay=1",
        ] {
            let mut row = Vec::new();
            for (kind, s) in [
                (Kind::Line, 0),
                (Kind::Line, 1),
                (Kind::Rect, 0),
                (Kind::Rect, 1),
            ] {
                let tiep: Vec<&str> = tie.split(",").collect();
                let o = Options::from_params(kind, &Params::parse(&tiep).unwrap(), 2).unwrap();
                let out = best(&grid, &net, s, 32, &o, false).unwrap();
                let per: Vec<u32> = out.tried.iter().map(|x| x.2).collect();
                row.push(format!(
                    "{}{:?}",
                    out.result.steps,
                    if kind == Kind::Line { per } else { vec![] }
                ));
            }
            println!("b={b} tie={tie}: {}", row.join(" | "));
        }
    }
}

#[test]
fn formula_4_on_rings() {
    for n in [4u32, 6, 8, 10, 16, 32, 64] {
        for k in [1u32, 2, 3, 5, 8, 31, 32] {
            let s = steps(&format!("torus:{n}"), Kind::Line, 0, k, &["pattern=1"]);
            assert_eq!(
                s as u64,
                formulas::ring_line(n as u64, k as u64),
                "n={n} k={k}"
            );
        }
    }
}

#[test]
#[ignore]
fn scale_global() {
    let t0 = std::time::Instant::now();
    let t = Topology::from_spec("ibt:1000x1000:b=8,32").unwrap();
    let t1 = t0.elapsed();
    let r = steps_of(&t, Kind::Global, 0, 32, &["pattern=1"]);
    println!("build {:?} total {:?} steps {r}", t1, t0.elapsed());
}

fn steps_of(t: &Topology, kind: Kind, root: u32, k: u32, sets: &[&str]) -> u32 {
    let p = Params::parse(sets).unwrap();
    simulate(t, kind, root, k, &p, false)
        .unwrap()
        .0
        .result
        .steps
}

#[test]
#[ignore]
fn scale_phases() {
    let t0 = std::time::Instant::now();
    let t = Topology::from_spec("ibt:1000x1000:b=8,32").unwrap();
    println!("topo {:?}", t0.elapsed());
    let grid = Grid::of(&t).unwrap();
    let net = PortNet::from_topology(&t);
    println!("portnet {:?}", t0.elapsed());
    let o = Options::from_params(Kind::Global, &Params::parse(&["pattern=1"]).unwrap(), 2).unwrap();
    let s = protocol::Setup {
        kind: Kind::Global,
        dims: o.dims.clone(),
        source: 0,
        k: 32,
        split: vec![16, 16],
        patterns: vec![1, 1],
        tie: o.tie,
        forward: o.forward,
        relay: None,
        port_model: o.port_model,
    };
    let f = protocol::protocol(&grid, &net, &s, false).unwrap();
    println!("protocol {:?}", t0.elapsed());
    let r = crate::engines::step::flood::run(&f).unwrap();
    println!("run {:?} steps {}", t0.elapsed(), r.steps);
}
