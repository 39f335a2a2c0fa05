//! All-to-all broadcast on the flit engine with seed 000's router (s5.1): tree-based,
//! all-at-once and HNC schedules on k-ary 2-meshes; prints cycles, build and run times.
//! `cargo run --release -p netcoll-core --example hnc_flit -- 16 [key=value ...]
//! [@algo:param,param ...]` (key=value: engine keys; `@hnc:group=8x4,mode=combine`: a case).

use netcoll_core::algorithms::{build, AlgoRequest, Params};
use netcoll_core::engines::flit::{parse_settings, run_schedule};
use netcoll_core::schedule::CollectiveKind;
use netcoll_core::topology::Topology;
use std::time::Instant;

/// The paper's router (docs/hnc.md, "On the flit engine").
const PAPER: &[(&str, &str)] = &[
    ("num_vcs", "4"),
    ("flow_control", "vct"),
    ("routing_delay", "1"),
    ("speculative", "1"),
    ("sw_alloc_delay", "1"),
    ("st_final_delay", "0"),
    ("channel_latency", "1"),
    ("compute_base", "1"),
    ("compute_per_flit", "0"),
    ("flit_bytes", "16"),
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let k: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(16);
    let extra: Vec<(String, String)> = args
        .iter()
        .skip(1)
        .filter(|a| !a.starts_with('@'))
        .filter_map(|a| {
            a.split_once('=')
                .map(|(x, y)| (x.to_string(), y.to_string()))
        })
        .collect();
    let topo = Topology::from_spec(&format!("mesh:{k}x{k}")).unwrap();
    let mut cases: Vec<(String, Vec<String>)> = args
        .iter()
        .filter_map(|a| a.strip_prefix('@'))
        .map(|c| {
            let (algo, ps) = c.split_once(':').unwrap_or((c, ""));
            let ps = ps.split(',').filter(|p| !p.is_empty()).map(String::from);
            (algo.to_string(), ps.collect())
        })
        .collect();
    if cases.is_empty() {
        for (a, p) in [
            ("tree-multicast", ""),
            ("hnc", ""),
            ("all-at-once", ""),
            ("hnc", "base=all-at-once"),
        ] {
            let p = p.split(',').filter(|p| !p.is_empty()).map(String::from);
            cases.push((a.to_string(), p.collect()));
        }
    }
    for (algo, params) in &cases {
        let mut req = AlgoRequest::new(&topo, CollectiveKind::AlltoallBroadcast);
        req.bytes = 16;
        req.params = Params::parse(params).unwrap();
        let t0 = Instant::now();
        let s = build(algo, &req).unwrap();
        let built = t0.elapsed().as_secs_f64();
        let pairs = PAPER
            .iter()
            .map(|&(a, b)| (a, b))
            .chain(extra.iter().map(|(a, b)| (a.as_str(), b.as_str())));
        let (cfg, par) = parse_settings(pairs).unwrap();
        let t1 = Instant::now();
        let r = run_schedule(&topo, &s, &cfg, &par).unwrap();
        let ran = t1.elapsed().as_secs_f64();
        println!(
            "{k}x{k} {algo:<15} {:<18} cycles {:>8} packets {:>9} build {built:>6.2}s run {ran:>6.2}s ({:.0} cycles/s) deadlock {}",
            params.join(","),
            r.cycles,
            r.packets,
            r.cycles as f64 / ran,
            r.deadlock.is_some()
        );
    }
}
