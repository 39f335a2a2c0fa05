//! Times one schedule's build, verification and analysis apart (what `netcoll schedule --json`
//! does in one call), for profiling the schedule core at scale.
//! `cargo run --release -p netcoll-core --example schedule_scale -- allreduce ring mesh:32x32`
//! (`analyze` after the topology adds the analytic engine; `build` stops after the build; a
//! fourth argument `stream` times the streaming path instead: build, verify and figures in
//! one pass). Many-to-all takes a quarter of the ranks as sources (`random:P/4,seed=1`, as
//! `bench scale`).

use netcoll_core::algorithms::{find, parse_collective, parse_sources, AlgoRequest};
use netcoll_core::engines::analytic::{analyze_sized, Machine};
use netcoll_core::plan::tune::routing_for;
use netcoll_core::schedule::CollectiveKind;
use netcoll_core::Topology;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [op, algo, topo, ..] = &args[..] else {
        eprintln!("usage: schedule_scale OP ALGO TOPO [analyze|build|stream]");
        std::process::exit(2);
    };
    let t = Topology::from_spec(topo).expect("topology");
    let mut req = AlgoRequest::new(&t, parse_collective(op).expect("collective"));
    if req.kind == CollectiveKind::ManyToAll {
        // As `netcoll bench scale`: a quarter of the ranks, drawn with seed 1.
        let spec = format!("random:{},seed=1", (req.p / 4).max(1));
        req.sources = parse_sources(&spec, req.p).expect("sources");
    }
    let a = find(req.kind, algo).expect("algorithm");
    if args.get(3).is_some_and(|x| x == "stream") {
        let at = Instant::now();
        let r = routing_for(&t, "auto").expect("routing");
        let m = Machine::default();
        let v = netcoll_core::plan::schedule::stream_figures(algo, &req, &r, &m);
        let v = v.expect("stream");
        let secs = at.elapsed().as_secs_f64();
        println!(
            "{op} {algo} {topo}: streamed in {secs:.2} s, {} messages",
            v["messages"]
        );
        return;
    }
    let start = Instant::now();
    let s = (a.build)(&req).expect("build");
    let built = start.elapsed().as_secs_f64();
    if args.get(3).is_some_and(|x| x == "build") {
        // Build only: the peak memory of the schedule alone.
        println!(
            "{op} {algo} {topo}: {} ops; build {built:.2} s",
            s.num_ops()
        );
        return;
    }
    let report = s.verify();
    let verified = start.elapsed().as_secs_f64() - built;
    print!(
        "{op} {algo} {topo}: {} ops, {} messages; build {built:.2} s, verify {verified:.2} s, ok {} {:?}",
        s.num_ops(),
        s.messages().len(),
        report.ok,
        report.diagnosis
    );
    if args.get(3).is_some_and(|x| x == "analyze") {
        let at = Instant::now();
        let r = routing_for(&t, "auto").expect("routing");
        let (an, depth) = analyze_sized(&s, &t, &r, &Machine::default()).expect("analysis");
        print!(
            ", analyze ({}) {:.2} s, hops {}",
            depth.method(),
            at.elapsed().as_secs_f64(),
            an.aggregate_hops
        );
    }
    println!();
}
