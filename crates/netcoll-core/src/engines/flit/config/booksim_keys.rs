//! The BookSim 2 keys that netcoll's `FlitConfig` has no field for (the keys of
//! `booksim_config.cpp`, and those of its shipped runfiles in `src/examples`). Each is one of:
//!
//! * *output only*: it changes what BookSim prints or writes (watch files, power files,
//!   activity traces), never the simulated network; accepted and ignored;
//! * *inert here*: it only matters for a feature that is off (the read/write VC ranges
//!   without `use_read_write`, the burst parameters without `injection_process = on_off`,
//!   the concentration geometry of cmesh/flatfly); accepted and ignored;
//! * *default only*: netcoll implements BookSim's default behaviour; the key is accepted at
//!   that value and refused at any other, with one line naming the key and why.
//!
//! Keys of neither BookSim nor netcoll are refused by `FlitConfig::set` (config.rs).

use crate::error::Result;
use crate::spec_err;

/// Keys that change only BookSim's printed or written output.
const OUTPUT_ONLY: &[&str] = &[
    "print_activity",
    "print_csv_results",
    "viewer_trace",
    "watch_file",
    "watch_flits",
    "watch_packets",
    "watch_transactions",
    "watch_out",
    "stats_out",
    "sent_packets_out",
    "deadlock_warn_timeout",
    "pair_stats",
    "power_output_file",
    "tech_file",
    "channel_width",
    "channel_sweep",
];

/// Keys that only matter for a feature that is off (its switch is a default-only key).
const INERT: &[&str] = &[
    // use_read_write = 0: every packet is of one type, so these never apply.
    "write_fraction",
    "read_request_begin_vc",
    "read_request_end_vc",
    "write_request_begin_vc",
    "write_request_end_vc",
    "read_reply_begin_vc",
    "read_reply_end_vc",
    "write_reply_begin_vc",
    "write_reply_end_vc",
    "read_request_subnet",
    "read_reply_subnet",
    "write_request_subnet",
    "write_reply_subnet",
    "read_request_size",
    "write_request_size",
    "read_reply_size",
    "write_reply_size",
    // injection_process = bernoulli: the on/off process's parameters.
    "burst_alpha",
    "burst_beta",
    "burst_r1",
    // The single-router `topology = single` (x, y, xr, yr: link_latency.rs reads them).
    "in_ports",
    "out_ports",
    // Random permutation traffic (not implemented) and link failures (link_failures = 0).
    "perm_seed",
    "fail_seed",
];

/// (key, BookSim's default, what netcoll does) for the keys accepted only at the default.
const DEFAULT_ONLY: &[(&str, &str, &str)] = &[
    ("subnets", "1", "netcoll simulates one physical network"),
    ("link_failures", "0", "netcoll does not fail links"),
    ("channel_file", "", "channel lengths come from the topology"),
    (
        "router",
        "iq",
        "netcoll's router is BookSim's input-queued router",
    ),
    ("output_delay", "0", "output queueing delay is not modelled"),
    ("internal_speedup", "1", "the crossbar runs at link speed"),
    ("output_buffer_size", "-1", "there are no output buffers"),
    ("noq", "0", "next-hop output queueing is not implemented"),
    (
        "spec_check_elig",
        "1",
        "speculation is BookSim's default speculation",
    ),
    (
        "spec_check_cred",
        "1",
        "speculation is BookSim's default speculation",
    ),
    (
        "spec_mask_by_reqs",
        "0",
        "speculation is BookSim's default speculation",
    ),
    (
        "spec_sw_allocator",
        "prio",
        "speculation is BookSim's default speculation",
    ),
    ("buf_size", "-1", "every VC has its own vc_buf_size buffer"),
    (
        "buffer_policy",
        "private",
        "every VC has its own vc_buf_size buffer",
    ),
    (
        "private_bufs",
        "-1",
        "every VC has its own vc_buf_size buffer",
    ),
    (
        "private_buf_size",
        "1",
        "every VC has its own vc_buf_size buffer",
    ),
    (
        "private_buf_start_vc",
        "-1",
        "every VC has its own vc_buf_size buffer",
    ),
    (
        "private_buf_end_vc",
        "-1",
        "every VC has its own vc_buf_size buffer",
    ),
    (
        "max_held_slots",
        "-1",
        "every VC has its own vc_buf_size buffer",
    ),
    (
        "feedback_aging_scale",
        "1",
        "the feedback buffer policy is not implemented",
    ),
    (
        "feedback_offset",
        "0",
        "the feedback buffer policy is not implemented",
    ),
    (
        "vc_busy_when_full",
        "0",
        "VC allocation ignores credits (BookSim's default)",
    ),
    (
        "vc_prioritize_empty",
        "0",
        "VC allocation has no priorities (BookSim's default)",
    ),
    (
        "vc_priority_donation",
        "0",
        "VC allocation has no priorities (BookSim's default)",
    ),
    (
        "vc_shuffle_requests",
        "0",
        "VC allocation requests are not shuffled",
    ),
    (
        "hold_switch_for_packet",
        "0",
        "the switch is allocated flit by flit",
    ),
    (
        "input_speedup",
        "1",
        "each input port has one crossbar input",
    ),
    (
        "output_speedup",
        "1",
        "each output port has one crossbar output",
    ),
    (
        "st_prepare_delay",
        "0",
        "switch traversal is st_final_delay",
    ),
    ("arb_type", "round_robin", "the arbiters are round-robin"),
    ("classes", "1", "traffic has one class"),
    ("class_priority", "0", "traffic has one class"),
    ("packet_size_rate", "1", "packets have one size"),
    ("injection_process", "bernoulli", "injection is Bernoulli"),
    ("priority", "none", "packets have no priorities"),
    ("batch_count", "1", "a batch run sends one batch"),
    (
        "max_outstanding_requests",
        "0",
        "requests are not limited (no request/reply traffic)",
    ),
    ("use_read_write", "0", "traffic has no request/reply pairs"),
    ("measure_stats", "1", "the one traffic class is measured"),
    (
        "include_queuing",
        "1",
        "packet latency counts source queueing",
    ),
    (
        "sim_count",
        "1",
        "one simulation per run (sweep loads with the CLI instead)",
    ),
    ("sim_power", "0", "the power model is not implemented"),
    (
        "acc_warmup_thres",
        "0.05",
        "warm-up uses warmup_thres for latency and throughput",
    ),
];

/// What a BookSim key without a `FlitConfig` field does.
pub enum BooksimOnly {
    /// Not a BookSim key either.
    Unknown,
    /// Accepted, changes nothing in the simulated network.
    Accepted,
    /// Stands for a netcoll key and value (`vct = 1` is `flow_control = vct`).
    Means(&'static str, &'static str),
}

/// Classifies a BookSim key that has no `FlitConfig` field; an error when netcoll does not
/// implement its value. `warmup_thres` is the configuration's (`acc_warmup_thres` may
/// equal it).
pub fn booksim_only(key: &str, v: &str, warmup_thres: f64) -> Result<BooksimOnly> {
    if OUTPUT_ONLY.contains(&key) || INERT.contains(&key) {
        return Ok(BooksimOnly::Accepted);
    }
    let Some(&(_, default, why)) = DEFAULT_ONLY.iter().find(|d| d.0 == key) else {
        return match key {
            "vct" if flag_on(key, v)? => Ok(BooksimOnly::Means("flow_control", "vct")),
            "vct" => Ok(BooksimOnly::Means("flow_control", "wormhole")),
            _ => Ok(BooksimOnly::Unknown),
        };
    };
    let same_thres = key == "acc_warmup_thres" && same_value(v, &warmup_thres.to_string());
    if same_value(v, default) || same_thres {
        return Ok(BooksimOnly::Accepted);
    }
    let shown = if default.is_empty() { "empty" } else { default };
    spec_err!("{key} = {v} is not supported: {why} (BookSim's default, {key} = {shown})")
}

fn flag_on(key: &str, v: &str) -> Result<bool> {
    match v {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => spec_err!("{key} = {v}: expected 0 or 1"),
    }
}

/// Equal as numbers when both are numbers (`1.0` is `1`), else as text.
fn same_value(a: &str, b: &str) -> bool {
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

/// Every key this module accepts (for the key listing).
pub fn booksim_only_keys() -> impl Iterator<Item = &'static str> {
    OUTPUT_ONLY
        .iter()
        .chain(INERT)
        .copied()
        .chain(DEFAULT_ONLY.iter().map(|d| d.0))
        .chain(["vct"])
}
