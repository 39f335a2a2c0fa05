//! Runs BookSim configuration files through the flit engine (as `netcoll sim --booksim`) and
//! prints each run's cycles, CPU seconds of this process and the figures an optimisation
//! must leave bit-identical: `cargo run --release -p netcoll-core --example booksim_file
//! FILE... [key=value ...]` (relative paths inside the files resolve against each file's
//! folder). For profiling one engine run without Python.
use netcoll_core::engines::flit::booksim_settings;
use netcoll_core::plan::multicast_load::simulate_traffic_with;

#[path = "common/cpu.rs"]
mod cpu;
use cpu::cpu_seconds;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (pairs, files): (Vec<&String>, Vec<&String>) = args.iter().partition(|a| a.contains('='));
    let overrides: Vec<(&str, &str)> = pairs.iter().filter_map(|a| a.split_once('=')).collect();
    for file in files {
        let t = cpu_seconds();
        let r = booksim_settings(std::path::Path::new(file), overrides.iter().copied())
            .and_then(|(cfg, par)| simulate_traffic_with(&cfg, &par));
        let s = cpu_seconds() - t;
        match r {
            Ok(r) => println!(
                "{file}: cycles={} cpu={s:.2} lat={:?} acc={:?} unstable={}",
                r.cycles, r.avg_packet_latency, r.accepted_rate, r.unstable
            ),
            Err(e) => println!("{file}: error {e}"),
        }
    }
}
