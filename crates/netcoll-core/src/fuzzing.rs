//! The bodies of the fuzz targets (`fuzz/`, cargo-fuzz): each takes arbitrary bytes, feeds
//! them to one parser of user input and checks what must hold whatever the input. A parser may
//! refuse the input (an error is the right answer to garbage); it must never panic, and what it
//! accepts must survive its own round trip. `tests/fuzz_corpus.rs` runs the same bodies over
//! the corpus and seeded mutations of it in `cargo test`, so CI exercises them without
//! libFuzzer (docs/errors.md, "Fuzzing").

use crate::engines::flit::{cfgfile, FlitConfig};
use crate::schedule::formats::goal::Goal;
use crate::schedule::formats::msccl::Msccl;
use crate::spec::TopologySpec;

/// Inputs longer than this are cut (the parsers' own size limits are tested elsewhere).
const MAX_INPUT: usize = 1 << 16;

fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(&data[..data.len().min(MAX_INPUT)]).ok()
}

/// Topology spec strings (`--topo`): a spec that parses has a canonical form that parses to
/// the same spec.
pub fn spec(data: &[u8]) {
    let Some(s) = text(data) else { return };
    if let Ok(parsed) = TopologySpec::parse(s) {
        let canonical = parsed.canonical();
        let again = TopologySpec::parse(&canonical)
            .unwrap_or_else(|e| panic!("canonical spec {canonical:?} of {s:?} is refused: {e}"));
        assert_eq!(again, parsed, "{s:?} -> {canonical:?} changes the spec");
    }
}

/// BookSim 2 configuration files (`netcoll sim --booksim`): the statements that parse are
/// applied over the defaults and the result validated, as `netcoll sim` does before it
/// builds anything; a parsed statement's line and column lie inside the text.
pub fn booksim_config(data: &[u8]) {
    let Some(s) = text(data) else { return };
    let Ok(statements) = cfgfile::parse(s, "fuzz.cfg") else {
        return;
    };
    let lines = s.split('\n').count();
    for st in &statements {
        assert!(
            st.line >= 1 && st.line <= lines,
            "{st:?} lies outside the text"
        );
        assert!(st.column >= 1, "{st:?} has no column");
    }
    let pairs = statements
        .iter()
        .map(|st| (st.key.as_str(), st.value.as_str()));
    if let Ok(cfg) = FlitConfig::from_pairs(pairs) {
        let _ = cfg.validate();
    }
}

/// LogGOPSim GOAL schedules (`netcoll verify`, `simulate --engine loggops`): an accepted file
/// written back as GOAL text parses again, with the same ranks and ops.
pub fn goal(data: &[u8]) {
    let Some(s) = text(data) else { return };
    let Ok(g) = Goal::parse(s, "fuzz.goal") else {
        return;
    };
    let written = g.to_text();
    let again = Goal::parse(&written, "written.goal")
        .unwrap_or_else(|e| panic!("GOAL text netcoll wrote is refused: {e}\n{written}"));
    assert_eq!(again.num_ranks(), g.num_ranks());
    assert_eq!(again.num_ops(), g.num_ops());
}

/// msccl-tools XML (`netcoll verify`): an accepted file is lowered to a schedule (or refused
/// with a reason) without a panic.
pub fn msccl(data: &[u8]) {
    let Some(s) = text(data) else { return };
    let Ok(x) = Msccl::parse(s, "fuzz.xml") else {
        return;
    };
    let _ = crate::schedule::formats::msccl_lower::lower(&x, None, 0, 1);
}

/// XML nesting (`netcoll verify` on a deep file): the data picks a depth, a tag and a tail;
/// the file is refused by the nesting limit or parsed, never a stack overflow.
pub fn xml_depth(data: &[u8]) {
    let Some((&[hi, lo], rest)) = data.split_first_chunk::<2>() else {
        return;
    };
    let depth = usize::from(u16::from_be_bytes([hi, lo]));
    let tail = String::from_utf8_lossy(rest);
    let doc = "<algo>".repeat(depth) + &tail + &"</algo>".repeat(depth);
    // The opening tags come before the tail, so no tail can hide them from the limit.
    let refused = crate::schedule::formats::xml_limits::check(&doc, "fuzz.xml").is_err();
    let limit = crate::schedule::formats::xml_limits::MAX_DEPTH;
    assert!(
        refused || depth <= limit,
        "a file {depth} deep passed the nesting limit"
    );
    let _ = Msccl::parse(&doc, "fuzz.xml");
}

/// A fuzz target's body.
pub type Target = fn(&[u8]);

/// The targets by name (the fuzz targets' file names).
pub const TARGETS: [(&str, Target); 5] = [
    ("spec", spec),
    ("booksim_config", booksim_config),
    ("goal", goal),
    ("msccl", msccl),
    ("xml_depth", xml_depth),
];
