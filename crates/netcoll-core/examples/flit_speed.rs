//! Prints simulated cycles per second of the flit engine (8x8 and 16x16 mesh, uniform,
//! 1-flit packets, 4 VCs x 8 flits), measured in CPU time of this process.
//! `cargo run --release -p netcoll-core --example flit_speed [k load cycles [key=value ...]]`
//! runs one case (e.g. `threads=2`); CPU time counts every thread of the process.
use netcoll_core::engines::flit::{simulate_traffic, FlitConfig};

#[path = "common/cpu.rs"]
mod cpu;
use cpu::cpu_seconds;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let extra: Vec<(String, String)> = args
        .iter()
        .skip(3)
        .filter_map(|a| a.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let cases: Vec<(usize, Vec<f64>, u64)> = if args.len() >= 3 {
        vec![(
            args[0].parse().expect("k"),
            vec![args[1].parse().expect("load")],
            args[2].parse().expect("cycles"),
        )]
    } else {
        vec![
            (8, vec![0.05, 0.2, 0.35], 20000u64),
            (16, vec![0.05, 0.1, 0.18], 5000),
        ]
    };
    for (k, loads, cycles) in cases {
        for load in loads {
            let (k, load, warm, cycles) = (
                k.to_string(),
                load.to_string(),
                (cycles / 10).to_string(),
                cycles.to_string(),
            );
            let mut pairs = vec![
                ("k", k.as_str()),
                ("injection_rate", load.as_str()),
                ("sim_type", "fixed"),
                ("warmup_cycles", warm.as_str()),
                ("sim_cycles", cycles.as_str()),
            ];
            pairs.extend(extra.iter().map(|(a, b)| (a.as_str(), b.as_str())));
            let c = FlitConfig::from_pairs(pairs).unwrap();
            let (t, wall) = (cpu_seconds(), std::time::Instant::now());
            let r = simulate_traffic(&c).unwrap();
            let s = (cpu_seconds() - t).max(1e-9);
            let w = wall.elapsed().as_secs_f64();
            println!(
                "mesh {k}x{k} load {load}, {} thread(s): {:.0} cycles/CPU-s, {:.0} cycles/wall-s \
                 ({w:.2} s), {:.1} CPU-ns/flit-hop, accepted {:.4}, latency {:.4}",
                r.threads,
                r.cycles as f64 / s,
                r.cycles as f64 / w,
                s * 1e9 / r.flit_hops as f64,
                r.accepted_rate,
                r.avg_packet_latency
            );
        }
    }
}
