//! Prints simulated cycles per second of the flit engine (8x8 and 16x16 mesh, uniform,
//! 1-flit packets, 4 VCs x 8 flits), measured in CPU time of this process.
//! `cargo run --release -p netcoll-core --example flit_speed [k load cycles]` runs one case.
use netcoll_core::engines::flit::{simulate_traffic, FlitConfig};

/// CPU time of this (single-threaded) process in seconds: the first field of
/// /proc/self/schedstat (nanoseconds on a CPU), robust to other load on a shared machine.
fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cases: Vec<(usize, Vec<f64>, u64)> = if args.len() == 3 {
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
            let c = FlitConfig::from_pairs([
                ("k", k.to_string().as_str()),
                ("injection_rate", load.to_string().as_str()),
                ("sim_type", "fixed"),
                ("warmup_cycles", (cycles / 10).to_string().as_str()),
                ("sim_cycles", cycles.to_string().as_str()),
            ])
            .unwrap();
            let t = cpu_seconds();
            let r = simulate_traffic(&c).unwrap();
            let s = (cpu_seconds() - t).max(1e-9);
            println!(
                "mesh {k}x{k} load {load}: {:.0} cycles/s, {:.1} ns/flit-hop, accepted {:.3}, latency {:.2}",
                r.cycles as f64 / s,
                s * 1e9 / r.flit_hops as f64,
                r.accepted_rate,
                r.avg_packet_latency
            );
        }
    }
}
