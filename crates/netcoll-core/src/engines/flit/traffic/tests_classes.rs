//! Traffic classes, request/reply traffic and priorities (classes.rs, class_ni.rs) against
//! BookSim 2 (28f4329) on an 8x8 mesh, side by side: BookSim's figures are the means of its
//! runs with seeds 0-2 of the same keys (`booksim FILE seed=S`), listed in
//! docs/validation.md; netcoll's are the means of seeds 0-2.

use super::{simulate_traffic, FlitConfig, FlitResult};

/// An 8x8 mesh with dimension-order routing, 4 VCs of 8 flits, uniform traffic, BookSim's
/// defaults otherwise, and `extra`.
fn mesh8(extra: &[(&str, &str)], seed: u64) -> FlitResult {
    let mut c = FlitConfig::booksim();
    let seed = seed.to_string();
    let base = [
        ("topology", "mesh"),
        ("k", "8"),
        ("n", "2"),
        ("routing_function", "dor"),
        ("num_vcs", "4"),
        ("vc_buf_size", "8"),
        ("traffic", "uniform"),
        ("seed", seed.as_str()),
    ];
    for (k, v) in base.iter().chain(extra) {
        c.set(k, v).unwrap_or_else(|e| panic!("{k} = {v}: {e}"));
    }
    simulate_traffic(&c).unwrap()
}

/// Means over seeds 0-2 of every class's (latency, accepted rate), class by class (the
/// overall figures for a single-class run).
fn means(extra: &[(&str, &str)]) -> Vec<(f64, f64)> {
    let runs: Vec<FlitResult> = (0..3).map(|s| mesh8(extra, s)).collect();
    for r in &runs {
        assert!(!r.unstable, "{extra:?}: unstable");
        assert_eq!(r.misdelivered, 0);
    }
    let points = |r: &FlitResult| -> Vec<(f64, f64)> {
        if r.classes.is_empty() {
            vec![(r.avg_packet_latency, r.accepted_rate)]
        } else {
            let c = r.classes.iter();
            c.map(|c| (c.avg_packet_latency, c.accepted_rate)).collect()
        }
    };
    let all: Vec<Vec<(f64, f64)>> = runs.iter().map(points).collect();
    (0..all[0].len())
        .map(|c| {
            let n = all.len() as f64;
            let lat = all.iter().map(|p| p[c].0).sum::<f64>() / n;
            let acc = all.iter().map(|p| p[c].1).sum::<f64>() / n;
            (lat, acc)
        })
        .collect()
}

/// The request/reply keys of the validation runs: requests on VCs 0-1, replies on 2-3;
/// reads of 1 flit answered by 4, writes of 4 answered by 1.
const RW: &[(&str, &str)] = &[
    ("use_read_write", "1"),
    ("read_request_begin_vc", "0"),
    ("read_request_end_vc", "1"),
    ("write_request_begin_vc", "0"),
    ("write_request_end_vc", "1"),
    ("read_reply_begin_vc", "2"),
    ("read_reply_end_vc", "3"),
    ("write_reply_begin_vc", "2"),
    ("write_reply_end_vc", "3"),
    ("read_request_size", "1"),
    ("read_reply_size", "4"),
    ("write_request_size", "4"),
    ("write_reply_size", "1"),
];

fn with(
    base: &[(&'static str, &'static str)],
    more: &[(&'static str, &'static str)],
) -> Vec<(&'static str, &'static str)> {
    base.iter().chain(more).copied().collect()
}

/// netcoll's (latency, accepted) against BookSim's: within 3% and 5%.
fn assert_close(got: (f64, f64), booksim: (f64, f64), what: &str) {
    let dl = got.0 / booksim.0 - 1.0;
    let da = got.1 / booksim.1 - 1.0;
    println!("{what}: netcoll {got:?}, BookSim {booksim:?}");
    assert!(
        dl.abs() <= 0.03 && da.abs() <= 0.05,
        "{what}: netcoll {got:?} against BookSim's {booksim:?} ({:+.1}% latency, {:+.1}% \
         accepted)",
        100.0 * dl,
        100.0 * da
    );
}

#[test]
fn request_reply_traffic_matches_booksim() {
    // BookSim: 35.947 / 0.0990 at 0.02 requests per node per cycle, 43.496 / 0.3004 at 0.06.
    for (rate, booksim) in [("0.02", (35.947, 0.0990)), ("0.06", (43.496, 0.3004))] {
        let m = means(&with(RW, &[("injection_rate", rate)]));
        assert_eq!(m.len(), 1, "one class: requests and replies together");
        assert_close(m[0], booksim, &format!("use_read_write at {rate}"));
    }
}

#[test]
fn two_classes_with_priorities_match_booksim() {
    // Class 0: 1-flit packets at 0.06, priority 1; class 1: 4-flit packets at 0.05,
    // priority 0. BookSim: 35.748 / 0.0604 and 42.510 / 0.2000.
    let m = means(&[
        ("classes", "2"),
        ("injection_rate", "{0.06,0.05}"),
        ("packet_size", "{1,4}"),
        ("priority", "class"),
        ("class_priority", "{1,0}"),
    ]);
    assert_close(m[0], (35.748, 0.0604), "class 0");
    assert_close(m[1], (42.510, 0.2000), "class 1");
}

#[test]
fn age_priority_near_saturation_matches_booksim() {
    // 0.40 flits per node per cycle, about 93% of saturation: BookSim 54.260 / 0.4001.
    let m = means(&[("priority", "age"), ("injection_rate", "0.40")]);
    assert_close(m[0], (54.260, 0.4001), "priority = age at 0.40");
}

/// A 4x4 mesh batch run of `extra` (one seed).
fn batch4(extra: &[(&str, &str)]) -> FlitResult {
    let base = [
        ("topology", "mesh"),
        ("k", "4"),
        ("n", "2"),
        ("num_vcs", "4"),
        ("sim_type", "batch"),
        ("batch_size", "50"),
        ("injection_rate", "0.05"),
    ];
    let c = FlitConfig::from_pairs(base.iter().chain(extra).copied()).unwrap();
    simulate_traffic(&c).unwrap()
}

#[test]
fn every_request_is_answered_once() {
    let rw = with(RW, &[("write_fraction", "0.3")]);
    let r = batch4(&rw);
    assert!(!r.unstable);
    assert_eq!(r.misdelivered, 0);
    assert_eq!(r.packets_generated, 16 * 50, "requests");
    assert_eq!(
        r.packets_delivered,
        2 * 16 * 50,
        "each request and its reply"
    );
    // One outstanding request per node: the same traffic, slower.
    let one = batch4(&with(&rw, &[("max_outstanding_requests", "1")]));
    assert_eq!(one.packets_delivered, 2 * 16 * 50);
    assert!(one.cycles > r.cycles, "{} <= {}", one.cycles, r.cycles);
}

#[test]
fn class_priority_favours_the_higher_class_as_in_booksim() {
    // Two equal classes (2-flit packets at 0.09 each, 0.36 flits per node per cycle in
    // all, about 85% of saturation): the one with the higher class_priority wins at the NI
    // and in switch allocation. BookSim: 44.279 / 0.1799 against 48.778 / 0.1803.
    let pairs = |prio: &'static str| {
        [
            ("classes", "2"),
            ("injection_rate", "0.09"),
            ("packet_size", "2"),
            ("priority", "class"),
            ("class_priority", prio),
        ]
    };
    let m = means(&pairs("{1,0}"));
    assert_close(m[0], (44.279, 0.1799), "class 0 (priority 1)");
    assert_close(m[1], (48.778, 0.1803), "class 1 (priority 0)");
    assert!(m[0].0 < 0.95 * m[1].0, "{m:?}");
    // Equal priorities: the classes are alike.
    let r = mesh8(&pairs("{0,0}"), 1);
    let (a, b) = (
        r.classes[0].avg_packet_latency,
        r.classes[1].avg_packet_latency,
    );
    assert!((a / b - 1.0).abs() < 0.05, "{a:.1} against {b:.1}");
}

#[test]
fn read_write_vc_keys_without_read_write_change_nothing() {
    // BookSim's shipped runfiles set the ranges with use_read_write = 0 (flatflyconfig).
    let keys = [
        ("read_request_begin_vc", "0"),
        ("read_request_end_vc", "5"),
        ("read_reply_begin_vc", "8"),
        ("read_reply_end_vc", "12"),
        ("read_request_size", "3"),
        ("write_fraction", "0.9"),
    ];
    let plain = batch4(&[]);
    let with_keys = batch4(&keys);
    assert_eq!(plain, with_keys);
}

fn refusal(pairs: &[(&str, &str)]) -> String {
    let cfg = FlitConfig::from_pairs(pairs.iter().copied());
    match cfg.and_then(|c| c.validate()) {
        Ok(()) => panic!("{pairs:?} was accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_class_keys_are_refused_with_the_rule() {
    let e = refusal(&[("classes", "2"), ("injection_rate", "{0.1,0.2,0.3}")]);
    assert!(
        e.contains("injection_rate has 3 values but classes = 2"),
        "{e}"
    );
    let e = refusal(&[("classes", "3"), ("class_priority", "{1,0}")]);
    assert!(e.contains("class_priority has 2 values"), "{e}");
    let e = refusal(&[("packet_size", "{1,4}")]);
    assert!(e.contains("classes = 1"), "{e}");
    // BookSim's default ranges need 16 VCs.
    let e = refusal(&[("use_read_write", "1"), ("num_vcs", "4")]);
    assert!(
        e.contains("read_request_begin_vc = 0, read_request_end_vc = 5"),
        "{e}"
    );
    assert!(e.contains("< num_vcs (4)"), "{e}");
    let e = refusal(&with(
        RW,
        &[("write_reply_begin_vc", "3"), ("write_reply_end_vc", "2")],
    ));
    assert!(
        e.contains("write_reply_begin_vc = 3, write_reply_end_vc = 2"),
        "{e}"
    );
    let e = refusal(&[("priority", "oldest")]);
    assert!(e.contains("priority = oldest: use none, class, age"), "{e}");
    let e = refusal(&[("priority", "local_age")]);
    assert!(e.contains("local_age is not implemented"), "{e}");
    let e = refusal(&[("use_read_write", "{1,0}")]);
    assert!(
        e.contains("one value of use_read_write for every class"),
        "{e}"
    );
    let e = refusal(&[("classes", "0")]);
    assert!(e.contains("classes = 0: use 1 to 255"), "{e}");
}

/// The figures of docs/validation.md's table (`cargo test --release -p netcoll-core --lib
/// validation_table -- --ignored --nocapture`).
#[test]
#[ignore]
fn validation_table() {
    for rate in ["0.02", "0.04", "0.06"] {
        println!(
            "rw {rate}: {:?}",
            means(&with(RW, &[("injection_rate", rate)]))
        );
    }
    for rate in ["{0.03,0.05}", "{0.06,0.05}"] {
        let m = means(&[
            ("classes", "2"),
            ("injection_rate", rate),
            ("packet_size", "{1,4}"),
            ("priority", "class"),
            ("class_priority", "{1,0}"),
        ]);
        println!("two classes {rate}: {m:?}");
    }
    for rate in ["0.36", "0.40"] {
        println!(
            "age {rate}: {:?}",
            means(&[("priority", "age"), ("injection_rate", rate)])
        );
        println!("none {rate}: {:?}", means(&[("injection_rate", rate)]));
    }
}
