//! Prints simulated cycles per second of the flit engine (8x8 and 16x16 mesh, uniform,
//! 1-flit packets, 4 VCs x 8 flits), measured in CPU time of this process.
use netcoll_core::engines::flit::{simulate_traffic, FlitConfig};
use std::time::Instant;

fn main() {
    for (k, loads, cycles) in [
        (8, [0.05, 0.2, 0.35], 20000u64),
        (16, [0.05, 0.1, 0.18], 5000),
    ] {
        for load in loads {
            let c = FlitConfig::from_pairs([
                ("k", k.to_string().as_str()),
                ("injection_rate", load.to_string().as_str()),
                ("sim_type", "fixed"),
                ("warmup_cycles", (cycles / 10).to_string().as_str()),
                ("sim_cycles", cycles.to_string().as_str()),
            ])
            .unwrap();
            let t = Instant::now();
            let r = simulate_traffic(&c).unwrap();
            let s = t.elapsed().as_secs_f64();
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
