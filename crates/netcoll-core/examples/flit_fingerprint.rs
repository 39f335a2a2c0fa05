//! Prints every figure of a battery of flit runs, one JSON line per run, so that an engine
//! change can be checked for bit-identical results: run it before and after and `diff`.
//! `cargo run --release -p netcoll-core --example flit_fingerprint > before.txt`
//! The runs cover the router's variants (allocators, flow control, speculation, delays,
//! packet sizes, traffic patterns, meshes, tori, an anynet file, multicast traffic, threads)
//! at loads below and above saturation.
use netcoll_core::engines::flit::{simulate_traffic, FlitConfig};

/// An irregular BookSim `anynet` network: four routers in a ring with a chord, two nodes each.
const ANYNET: &str = "router 0 node 0 node 1 router 1 router 3\n\
                      router 1 node 2 node 3 router 2\n\
                      router 2 node 4 node 5 router 3 router 0\n\
                      router 3 node 6 node 7\n";

fn runs(anynet: &str) -> Vec<(&'static str, Vec<(String, String)>)> {
    let fixed = "sim_type=fixed warmup_cycles=300 sim_cycles=3000";
    let list: Vec<(&str, String)> = vec![
        ("mesh8 0.05", format!("k=8 injection_rate=0.05 {fixed}")),
        ("mesh8 0.2", format!("k=8 injection_rate=0.2 {fixed}")),
        ("mesh8 0.35", format!("k=8 injection_rate=0.35 {fixed}")),
        ("mesh8 0.6 saturated", format!("k=8 injection_rate=0.6 {fixed}")),
        ("mesh16 0.1", format!("k=16 injection_rate=0.1 {fixed}")),
        ("mesh8 latency mode", "k=8 injection_rate=0.2 sim_type=latency".into()),
        ("mesh8 batch", "k=8 injection_rate=0.2 sim_type=batch batch_size=20".into()),
        ("mesh8 5 flits", format!("k=8 injection_rate=0.3 packet_size=5 injection_rate_uses_flits=1 {fixed}")),
        ("mesh8 16 flits vct", format!("k=8 injection_rate=0.2 packet_size=16 injection_rate_uses_flits=1 flow_control=virtual_cut_through vc_buf_size=16 {fixed}")),
        ("mesh8 greedy va", format!("k=8 injection_rate=0.3 vc_allocator=greedy {fixed}")),
        ("mesh8 sif va", format!("k=8 injection_rate=0.3 vc_allocator=separable_input_first {fixed}")),
        ("mesh8 sif sa", format!("k=8 injection_rate=0.3 sw_allocator=separable_input_first {fixed}")),
        ("mesh8 speculative", format!("k=8 injection_rate=0.3 speculative=1 {fixed}")),
        ("mesh8 delays", format!("k=8 injection_rate=0.2 routing_delay=0 vc_alloc_delay=2 credit_delay=2 channel_latency=3 {fixed}")),
        ("mesh8 2 vcs x 2", format!("k=8 injection_rate=0.2 num_vcs=2 vc_buf_size=2 packet_size=4 {fixed}")),
        ("mesh8 16 vcs", format!("k=8 injection_rate=0.3 num_vcs=16 {fixed}")),
        ("mesh8 transpose", format!("k=8 injection_rate=0.2 traffic=transpose {fixed}")),
        ("mesh8 hotspot", format!("k=8 injection_rate=0.05 traffic=hotspot({{{{0,9}}}}) {fixed}")),
        ("mesh 4x4x4", format!("k=4 n=3 injection_rate=0.2 {fixed}")),
        ("torus8 0.3", format!("topology=torus k=8 injection_rate=0.3 {fixed}")),
        ("torus8 dateline", format!("topology=torus k=8 injection_rate=0.3 torus_routing=dateline {fixed}")),
        ("torus8 noc latency", format!("topology=torus k=8 injection_rate=0.2 use_noc_latency=1 {fixed}")),
        ("anynet", format!("topology=anynet routing_function=min network_file={anynet} injection_rate=0.1 {fixed}")),
        ("anynet up_down", format!("topology=anynet routing_function=up_down network_file={anynet} injection_rate=0.1 {fixed}")),
        ("multicast tree", format!("k=8 traffic=multicast multicast_dests=3 injection_rate=0.15 packet_size=4 {fixed}")),
        ("multicast ni", format!("k=8 traffic=multicast multicast_dests=3 multicast_scheme=ni injection_rate=0.15 packet_size=4 {fixed}")),
        ("mesh16 threads=2", format!("k=16 injection_rate=0.1 threads=2 {fixed}")),
        ("torus8 threads=3", format!("topology=torus k=8 injection_rate=0.3 threads=3 {fixed}")),
    ];
    list.into_iter()
        .map(|(name, kv)| {
            let pairs = kv
                .split_whitespace()
                .filter_map(|p| p.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            (name, pairs)
        })
        .collect()
}

fn main() {
    let dir = std::env::temp_dir().join(format!("flit_fingerprint_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let anynet = dir.join("anynet.net");
    std::fs::write(&anynet, ANYNET).expect("the anynet file");
    for (name, pairs) in runs(&anynet.to_string_lossy()) {
        let result = FlitConfig::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .and_then(|c| simulate_traffic(&c));
        match result {
            // The scratch path differs from run to run: print the file's name alone.
            Ok(r) => println!(
                "{name}: {}",
                serde_json::to_string(&r)
                    .expect("JSON")
                    .replace(&*anynet.to_string_lossy(), "anynet.net")
            ),
            Err(e) => println!("{name}: error {e}"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
