//! The synthetic traffic patterns by BookSim's `traffic` names, as BookSim's traffic-pattern
//! factory keys them: a name, optionally with a parenthesised argument (`hotspot({0,5})`),
//! maps to a constructor of the pattern; traffic.rs draws the destinations.
//! Adding a pattern: its variant and destination rule in traffic.rs, one line here.

use super::config::Pattern;
use super::config_values::parse_list;
use super::registry::Registry;
use crate::error::Result;
use crate::spec_err;

/// Builds a pattern from the text between its name's parentheses (None: no parentheses).
pub type PatternCtor = fn(Option<&str>) -> Result<Pattern>;

pub const TRAFFIC_PATTERNS: Registry<PatternCtor> = Registry {
    key: "traffic",
    entries: &[
        ("uniform", |a| plain(a, "uniform", Pattern::Uniform)),
        ("transpose", |a| plain(a, "transpose", Pattern::Transpose)),
        ("bitcomp", |a| plain(a, "bitcomp", Pattern::Bitcomp)),
        ("neighbor", |a| plain(a, "neighbor", Pattern::Neighbor)),
        ("neighbour", |a| plain(a, "neighbor", Pattern::Neighbor)),
        ("hotspot", hotspot),
        ("multicast", |a| plain(a, "multicast", Pattern::Multicast)),
    ],
};

/// The pattern of a `traffic` value: `name` or `name(args)`.
pub fn parse_pattern(v: &str) -> Result<Pattern> {
    let (name, args) = match v.split_once('(') {
        Some((n, rest)) => (n.trim(), Some(rest.trim_end().trim_end_matches(')'))),
        None => (v.trim(), None),
    };
    let ctor = TRAFFIC_PATTERNS.get(name)?;
    ctor(args)
}

fn plain(args: Option<&str>, name: &str, p: Pattern) -> Result<Pattern> {
    match args {
        None => Ok(p),
        Some(a) => spec_err!("traffic = {name}({a}): {name} takes no arguments"),
    }
}

fn hotspot(args: Option<&str>) -> Result<Pattern> {
    let nodes = parse_list("traffic", args.unwrap_or(""))?;
    if nodes.is_empty() {
        return spec_err!("traffic = hotspot needs at least one node, as hotspot({{0,5}})");
    }
    Ok(Pattern::Hotspot(nodes))
}
