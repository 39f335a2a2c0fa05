//! BookSim configuration files as they are: the grammar and its errors, BookSim's defaults
//! (the torus's `use_noc_latency`), its keys without a netcoll field, `anynet` networks, and
//! the runs refused because they would measure nothing.

use super::cfgfile::parse;
use super::config::all_keys;
use super::params::booksim_settings;
use super::{simulate_traffic, FlitConfig};
use std::path::PathBuf;

fn pairs(text: &str) -> Vec<(String, String)> {
    parse(text, "t.cfg")
        .unwrap()
        .into_iter()
        .map(|s| (s.key, s.value))
        .collect()
}

fn parse_err(text: &str) -> String {
    parse(text, "t.cfg").unwrap_err().to_string()
}

#[test]
fn grammar_reads_comments_strings_and_lists() {
    let text = "// head\ntopology = mesh; /* a\n block */ k = 4;\ntraffic = hotspot({0, 5});\n\
                x = \"a;b\"; injection_rate = 1e-2;";
    let p = pairs(text);
    assert_eq!(p[0], ("topology".into(), "mesh".into()));
    assert_eq!(p[1], ("k".into(), "4".into()));
    assert_eq!(p[2], ("traffic".into(), "hotspot({0,5})".into()));
    assert_eq!(p[3], ("x".into(), "a;b".into()));
    assert_eq!(p[4], ("injection_rate".into(), "1e-2".into()));
    let st = parse("\n\n  k = 8;", "t.cfg").unwrap();
    assert_eq!((st[0].line, st[0].column), (3, 3));
}

#[test]
fn grammar_errors_name_line_and_column() {
    assert!(parse_err("k 8;").starts_with("t.cfg:1:3: expected '='"));
    assert!(parse_err("k = 8").contains("t.cfg:1:6: expected ';'"));
    assert!(parse_err("k = 8;\n/* open\n\n").starts_with("t.cfg:2:1: unterminated /*"));
    assert!(parse_err("x = \"abc;\n").starts_with("t.cfg:1:5: unterminated quote"));
    assert!(parse_err("k = 8;\ntraffic = hotspot({0,5;\n").contains("t.cfg:2:"));
    assert!(parse_err("k = ;").contains("k has no value"));
    assert!(parse_err("= 4;").contains("expected a key"));
    assert!(parse_err("k = 4 5;").contains("expected ';'"));
}

/// A fresh scratch folder under the system's temporary folder (removed on drop).
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Scratch {
        use std::sync::atomic::{AtomicU32, Ordering};
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let p = std::env::temp_dir().join(format!("netcoll-booksim-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&p).unwrap();
        Scratch(p)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn write(dir: &Scratch, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.0.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

#[test]
fn files_refuse_binary_non_utf8_and_huge_input() {
    let dir = Scratch::new();
    let none = std::iter::empty();
    let bin = write(&dir, "a.cfg", b"k = 8;\0\x01");
    let e = booksim_settings(&bin, none.clone())
        .unwrap_err()
        .to_string();
    assert!(e.contains("is binary"), "{e}");
    let latin = write(&dir, "b.cfg", b"topology = mesh; // caf\xe9\n");
    let e = booksim_settings(&latin, none.clone())
        .unwrap_err()
        .to_string();
    assert!(e.contains("not UTF-8"), "{e}");
    let big = write(&dir, "c.cfg", &vec![b' '; (2 << 20) as usize]);
    let e = booksim_settings(&big, none.clone())
        .unwrap_err()
        .to_string();
    assert!(e.contains("more than the"), "{e}");
    let bad = write(
        &dir,
        "d.cfg",
        b"topology = mesh;\nrouting_function = dor;\nnum_vcs = x;\n",
    );
    let e = booksim_settings(&bad, none).unwrap_err().to_string();
    assert!(e.contains("d.cfg:3:1: num_vcs = x"), "{e}");
}

fn from_file(text: &str, over: &[(&str, &str)]) -> crate::error::Result<FlitConfig> {
    let dir = Scratch::new();
    let p = write(&dir, "x.cfg", text.as_bytes());
    booksim_settings(&p, over.iter().copied()).map(|(c, _)| c)
}

#[test]
fn booksim_defaults_apply_to_unset_keys() {
    let c = from_file("routing_function = dim_order;", &[]).unwrap();
    assert_eq!(
        (c.topology.as_str(), c.k, c.n, c.num_vcs),
        ("torus", 8, 2, 16)
    );
    assert_eq!(
        (c.batch_size, c.vc_buf_size, c.link_latency()),
        (1000, 8, 2)
    );
    let mesh = from_file("topology = mesh; routing_function = dor;", &[]).unwrap();
    assert_eq!(mesh.link_latency(), 1);
    let plain = from_file("routing_function = dim_order; use_noc_latency = 0;", &[]).unwrap();
    assert_eq!(plain.link_latency(), 1);
    let set = from_file("routing_function = dim_order;", &[("channel_latency", "3")]).unwrap();
    assert_eq!(set.link_latency(), 3);
    let e = from_file("topology = mesh;", &[]).unwrap().build_topology();
    assert!(e
        .unwrap_err()
        .to_string()
        .contains("routing_function is not set"));
}

#[test]
fn torus_channels_take_two_cycles_by_default() {
    let run = |extra: &[(&str, &str)]| {
        let mut kv = vec![
            ("topology", "torus"),
            ("k", "4"),
            ("injection_rate", "0.02"),
            ("sim_type", "fixed"),
            ("sim_cycles", "3000"),
        ];
        kv.extend_from_slice(extra);
        simulate_traffic(&FlitConfig::from_pairs(kv).unwrap()).unwrap()
    };
    let (noc, flat) = (run(&[]), run(&[("use_noc_latency", "0")]));
    // Each router-to-router hop costs one more cycle.
    let extra = noc.avg_packet_latency - flat.avg_packet_latency;
    assert!(
        (extra - noc.avg_hops).abs() < 0.3,
        "{extra} vs {} hops",
        noc.avg_hops
    );
    assert_eq!(run(&[("channel_latency", "1")]), flat);
}

#[test]
fn shipped_runfile_keys_are_implemented_or_refused_by_name() {
    let ok = [
        ("wait_for_tail_credit", "0"),
        ("wait_for_tail_credit", "1"),
        ("internal_speedup", "1.0"),
        ("input_speedup", "1"),
        ("input_speedup", "2"),
        ("internal_speedup", "2.0"),
        ("hold_switch_for_packet", "1"),
        ("priority", "none"),
        ("watch_out", "-"),
        ("sim_count", "1"),
        ("use_read_write", "0"),
        ("read_request_begin_vc", "0"),
        ("vct", "1"),
        ("subnets", "1"),
    ];
    for (k, v) in ok {
        let mut c = FlitConfig::booksim();
        c.set(k, v).unwrap_or_else(|e| panic!("{k} = {v}: {e}"));
    }
    let mut c = FlitConfig::booksim();
    c.set("vct", "1").unwrap();
    assert_eq!(c.flow_control, super::FlowControl::CutThrough);
    for (k, v) in [
        ("input_speedup", "0"),
        ("internal_speedup", "0.5"),
        ("sim_type", "through_put"),
        ("seed", "time"),
        ("perm_seed", "time"),
    ] {
        let e = FlitConfig::booksim().set(k, v).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("{k} = {v}")) && !e.contains('\n'),
            "{e}"
        );
    }
    // BookSim's network families build with their own keys (issue 33).
    for (keys, routers) in [
        (&[("topology", "fattree"), ("k", "4"), ("n", "3")][..], 48),
        (
            &[("topology", "flatfly"), ("k", "4"), ("n", "2"), ("c", "4")],
            16,
        ),
        (&[("topology", "dragonflynew"), ("k", "2"), ("n", "1")], 36),
    ] {
        let mut c = FlitConfig::booksim();
        c.set("routing_function", "min").unwrap();
        for (k, v) in keys {
            c.set(k, v).unwrap();
        }
        assert_eq!(
            c.build_topology().unwrap().num_switches(),
            routers,
            "{keys:?}"
        );
    }
    // BookSim's adaptive routing names (adaptive.rs).
    for v in ["ugal", "valiant", "nca", "anca"] {
        FlitConfig::booksim().set("routing_function", v).unwrap();
    }
    assert!(all_keys().contains(&"wait_for_tail_credit"));
}

#[test]
fn runs_that_measure_nothing_are_refused() {
    for (kv, why) in [
        (vec![("max_cycles", "0")], "max_cycles = 0"),
        (
            vec![("sim_type", "batch"), ("batch_size", "0")],
            "batch_size = 0",
        ),
        (
            vec![("sim_type", "batch"), ("injection_rate", "0")],
            "injection_rate = 0",
        ),
        (
            vec![("sim_type", "fixed"), ("sim_cycles", "0")],
            "sim_cycles = 0",
        ),
        (vec![("latency_thres", "nan")], "latency_thres = nan"),
        (
            vec![("netcoll_topology", "ring:8")],
            "needs topology = netcoll",
        ),
    ] {
        let e = FlitConfig::from_pairs(kv)
            .and_then(|c| simulate_traffic(&c))
            .unwrap_err()
            .to_string();
        assert!(e.contains(why), "{e}");
    }
}

const ANYNET: &str = "router 0 node 0 node 1 node 2 router 1\nrouter 1 node 3 node 4 node 5\n\
                      router 2 node 6 node 7 node 8 router 1 router 0\n";

#[test]
fn anynet_builds_booksim_ports_and_routes() {
    let dir = Scratch::new();
    write(&dir, "net", ANYNET.as_bytes());
    let cfg = write(
        &dir,
        "any.cfg",
        b"topology = anynet; routing_function = min; network_file = net;\n\
          injection_rate = 0.05;",
    );
    let (c, _) = booksim_settings(&cfg, std::iter::empty()).unwrap();
    let topo = c.build_topology().unwrap();
    assert_eq!((topo.num_switches(), topo.num_endpoints()), (3, 9));
    // Router 2: nodes 6, 7, 8 on ports 0..3, then routers 0 and 1.
    assert_eq!(topo.endpoint_switch(7), 2);
    let r = simulate_traffic(&c).unwrap();
    assert!(!r.unstable && r.deadlock.is_none());
    assert!((r.accepted_rate - 0.05).abs() < 0.01, "{}", r.accepted_rate);
    // Three routers, all linked: a third of the traffic stays at its router, the rest takes
    // one router-to-router hop (BookSim prints one more, counting the ejection).
    assert!((r.avg_hops - 2.0 / 3.0).abs() < 0.05, "{}", r.avg_hops);
    let table = super::anynet::route_table(&topo);
    assert_eq!(table[2 * 3], 3, "router 2 reaches router 0 on its port 3");
}

#[test]
fn anynet_errors_name_the_line() {
    let dir = Scratch::new();
    for (text, why) in [
        (
            "router 0 node 0 router 1 5\nrouter 1 node 1\n",
            ":1: link latency 5",
        ),
        (
            "router 0 node 0\nswitch 1\n",
            ":2: a line starts with router or node",
        ),
        (
            "router 0 node 0\nrouter 1 node 0\n",
            "node 0 connects to routers 0 and 1",
        ),
        ("router 0 node x\n", "'x' is not a module id"),
        ("router 0 node 1\n", "node 0 is missing"),
    ] {
        let net = write(&dir, "net", text.as_bytes());
        let e = super::anynet::load(&net).unwrap_err().to_string();
        assert!(e.contains(why), "{e}");
    }
    let mut c = FlitConfig::booksim();
    c.set("topology", "anynet").unwrap();
    c.set("routing_function", "min").unwrap();
    let e = c.build_topology().unwrap_err().to_string();
    assert!(e.contains("needs network_file"), "{e}");
}

#[test]
fn separable_input_first_vc_allocation_delivers_every_packet() {
    let run = |va: &str| {
        let c = FlitConfig::from_pairs([
            ("topology", "mesh"),
            ("k", "4"),
            ("packet_size", "4"),
            ("injection_rate", "0.3"),
            ("sim_type", "batch"),
            ("batch_size", "50"),
            ("vc_allocator", va),
        ])
        .unwrap();
        simulate_traffic(&c).unwrap()
    };
    let (sep, islip) = (run("separable_input_first"), run("islip"));
    assert!(sep.deadlock.is_none());
    assert_eq!(sep.packets_delivered, 16 * 50);
    assert_eq!(sep, run("separable_input_first"), "deterministic");
    assert_ne!(sep.cycles, 0);
    assert_ne!(sep, islip, "a different allocator");
}
