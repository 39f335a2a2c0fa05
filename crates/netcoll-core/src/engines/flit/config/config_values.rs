//! Reading one value of a configuration key: numbers, 0/1 flags, quoted words (a traffic
//! pattern's arguments: pattern_registry.rs), each with a one-line error naming the key.

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
