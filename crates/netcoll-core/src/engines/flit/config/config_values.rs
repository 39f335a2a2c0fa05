//! Reading one value of a configuration key: numbers, 0/1 flags, quoted words, node lists
//! and traffic patterns, each with a one-line error naming the key.

use super::config_enums::Pattern;
use crate::error::Result;
use crate::spec_err;

pub(super) fn num<T: std::str::FromStr>(key: &str, v: &str) -> Result<T> {
    v.trim()
        .parse()
        .map_err(|_| crate::error::Error::Spec(format!("{key} = {v}: {}", expected::<T>(v))))
}

/// What a value of type `T` must be, for the message about `v`: unsigned integer keys name
/// their range (so `k = -4`, `seed = 1.5` and `k = 10^23` are told what is wrong).
fn expected<T>(v: &str) -> String {
    let max = match std::any::type_name::<T>() {
        "u8" => u8::MAX as u64,
        "u16" => u16::MAX as u64,
        "u32" => u32::MAX as u64,
        "u64" | "usize" => u64::MAX,
        _ => return "expected a number".into(),
    };
    let digits = v.trim().trim_start_matches('+');
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        format!("out of range: use 0 to {max}")
    } else {
        format!("expected a whole number from 0 to {max}")
    }
}

pub(super) fn flag(key: &str, v: &str) -> Result<bool> {
    match v.trim() {
        "0" | "false" => Ok(false),
        "1" | "true" => Ok(true),
        _ => spec_err!("{key} = {v}: expected 0 or 1"),
    }
}

pub(super) fn unquote(v: &str) -> &str {
    v.trim().trim_matches('"').trim_matches('\'')
}

fn parse_list(key: &str, v: &str) -> Result<Vec<usize>> {
    let inner = v.trim().trim_start_matches('{').trim_end_matches('}');
    inner
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| num(key, s))
        .collect()
}

pub(super) fn parse_pattern(v: &str) -> Result<Pattern> {
    let v = unquote(v);
    if let Some(rest) = v.strip_prefix("hotspot(") {
        let list = rest.trim_end_matches(')');
        let nodes = parse_list("traffic", list)?;
        if nodes.is_empty() {
            return spec_err!(
                "traffic = {v}: hotspot needs at least one node, as hotspot({{0,5}})"
            );
        }
        return Ok(Pattern::Hotspot(nodes));
    }
    Ok(match v {
        "uniform" => Pattern::Uniform,
        "transpose" => Pattern::Transpose,
        "bitcomp" => Pattern::Bitcomp,
        "neighbor" | "neighbour" => Pattern::Neighbor,
        "multicast" => Pattern::Multicast,
        _ => {
            return spec_err!(
                "traffic = {v} is not supported: use uniform, transpose, bitcomp, neighbor, multicast or hotspot({{nodes}})"
            )
        }
    })
}
