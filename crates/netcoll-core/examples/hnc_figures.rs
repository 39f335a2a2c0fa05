//! Prints the aggregate hop counts of seed 000 s4 (Figs. 5, 6, 8, 9) from the closed forms,
//! with the time each takes. `cargo run --release -p netcoll-core --example hnc_figures`

use netcoll_core::algorithms::{find, AlgoRequest, Params};
use netcoll_core::schedule::CollectiveKind;
use netcoll_core::Topology;
use std::time::Instant;

fn figure(name: &str, t: &Topology, params: &[&str]) -> serde_json::Value {
    let mut r = AlgoRequest::new(t, CollectiveKind::AlltoallBroadcast);
    r.params = Params::parse(params).expect("params");
    let algo = find(r.kind, name).expect("registered");
    (algo.closed_form.expect("closed form"))(&r).expect("figure")
}

fn hops(v: &serde_json::Value) -> u64 {
    v["aggregate_hops"].as_u64().unwrap_or(0)
}

fn main() {
    for family in ["mesh", "torus"] {
        println!("\n{family}: k, tree, hnc(tree) [group], reduction, all-at-once, hnc(aao) [group], ratio, ms");
        for k in [4usize, 8, 16, 32, 64, 128, 256] {
            let t = Topology::from_spec(&format!("{family}:{k}x{k}")).expect("topology");
            let start = Instant::now();
            let tree = figure("tree-multicast", &t, &[]);
            let hnc = figure("hnc", &t, &[]);
            let aao = figure("all-at-once", &t, &[]);
            let hnc_aao = figure("hnc", &t, &["base=all-at-once"]);
            let ms = start.elapsed().as_secs_f64() * 1e3;
            println!(
                "{k:>4} {:>14} {:>12} [{}] {:>5.1}% {:>16} {:>13} [{}] {:>6.1}x {ms:.1}",
                hops(&tree),
                hops(&hnc),
                hnc["group"].as_str().unwrap_or("?"),
                100.0 * (1.0 - hops(&hnc) as f64 / hops(&tree) as f64),
                hops(&aao),
                hops(&hnc_aao),
                hnc_aao["group"].as_str().unwrap_or("?"),
                hops(&aao) as f64 / hops(&hnc_aao) as f64,
            );
        }
    }
    println!("\n2-meshes, 32-node groups (the paper's choice after s4.3): k, group, receiver, tree-based reduction, all-at-once ratio");
    for k in [16usize, 32, 64, 256] {
        let t = Topology::from_spec(&format!("mesh:{k}x{k}")).expect("topology");
        let (tree, aao) = (
            figure("tree-multicast", &t, &[]),
            figure("all-at-once", &t, &[]),
        );
        for g in ["group=8x4", "group=4x8", "group=16x2"] {
            for r in ["receiver=corresponding", "receiver=intermediate"] {
                let h = hops(&figure("hnc", &t, &[g, r]));
                let a = hops(&figure("hnc", &t, &[g, r, "base=all-at-once"]));
                println!(
                    "{k:>4} {g:>11} {r:>23} {:>5.1}% {:>7.1}x",
                    100.0 * (1.0 - h as f64 / hops(&tree) as f64),
                    hops(&aao) as f64 / a as f64
                );
            }
        }
    }
    println!("\n16-ary 2-mesh, tree base: group size, best shape, hops (Fig. 6)");
    let t = Topology::from_spec("mesh:16x16").expect("topology");
    for m in [2usize, 4, 8, 16, 32, 64, 128] {
        let best = (0..=4)
            .map(|e| 1usize << e)
            .filter(|a| m % a == 0 && m / a <= 16)
            .map(|a| {
                let g = format!("group={a}x{}", m / a);
                (hops(&figure("hnc", &t, &[&g])), g)
            })
            .min();
        if let Some((h, g)) = best {
            println!("{m:>4} {g:>12} {h:>10}");
        }
    }
}
