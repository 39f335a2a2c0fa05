//! The memory guard: whatever allocates in proportion to its input asks [`check`] first, with
//! an estimate of its footprint, and is refused with one line instead of aborting the process
//! ("memory allocation of N bytes failed") halfway through.
//!
//! The budget is the memory this process can still take: the smaller of the machine's
//! `MemAvailable` (/proc/meminfo) and what the address-space limit (`ulimit -v`, read from
//! /proc/self/limits and /proc/self/status) leaves. Where neither can be read the guard does
//! not refuse. [`set_max_memory`] (the CLI's `--max-memory GB`, the Python API's
//! `netcoll.set_max_memory`, or the environment variable `NETCOLL_MAX_MEMORY` in GB) replaces
//! the budget, larger or smaller than what is free.
//!
//! Estimates are deliberately rough (within a factor of about 1.5): the guard exists to turn
//! "would need 100 GB" into a sentence, not to pack memory to the last byte.

use crate::error::{Error, Result};
use std::sync::atomic::{AtomicU64, Ordering};

/// Requests below this size are never refused (reading /proc costs more than they do).
const SMALL: u64 = 64 << 20;

/// The budget set by [`set_max_memory`], in bytes; `u64::MAX` means "what is free".
static MAX_MEMORY: AtomicU64 = AtomicU64::new(u64::MAX);

const GB: f64 = 1e9;

/// Replaces the budget with `gb` gigabytes (None: back to the memory that is free).
pub fn set_max_memory(gb: Option<f64>) -> Result<()> {
    let bytes = match gb {
        None => u64::MAX,
        Some(g) if g.is_finite() && g > 0.0 && g * GB < u64::MAX as f64 => (g * GB) as u64,
        Some(g) => {
            return Err(Error::Spec(format!(
                "max memory {g} GB is not a positive number of gigabytes"
            )))
        }
    };
    MAX_MEMORY.store(bytes, Ordering::Relaxed);
    Ok(())
}

/// The budget in bytes: the override, else `NETCOLL_MAX_MEMORY` (GB), else the free memory;
/// None when nothing limits it or it cannot be read.
pub fn budget() -> Option<u64> {
    let set = MAX_MEMORY.load(Ordering::Relaxed);
    if set != u64::MAX {
        return Some(set);
    }
    if let Some(gb) = std::env::var("NETCOLL_MAX_MEMORY")
        .ok()
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|g| g.is_finite() && *g > 0.0)
    {
        return Some((gb * GB) as u64);
    }
    free_bytes()
}

/// Memory this process can still allocate: MemAvailable, capped by the address-space limit
/// minus what the process already maps.
pub fn free_bytes() -> Option<u64> {
    let available = read_kb_field("/proc/meminfo", "MemAvailable:");
    let headroom = address_space_limit().map(|limit| {
        let used = read_kb_field("/proc/self/status", "VmSize:").unwrap_or(0);
        limit.saturating_sub(used)
    });
    match (available, headroom) {
        (Some(a), Some(h)) => Some(a.min(h)),
        (a, h) => a.or(h),
    }
}

/// `Field:   123 kB` in a /proc file, in bytes.
fn read_kb_field(path: &str, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line[field.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb.saturating_mul(1024))
}

/// The soft address-space limit (`ulimit -v`) in bytes, None when unlimited.
fn address_space_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max address space"))?;
    let soft = line["Max address space".len()..]
        .split_whitespace()
        .next()?;
    soft.parse().ok()
}

/// Refuses `what` when `bytes` (its estimated footprint) exceeds the budget.
pub fn check(what: &str, bytes: u64) -> Result<()> {
    if bytes < SMALL {
        return Ok(());
    }
    match budget() {
        Some(free) if bytes > free => Err(too_large(what, bytes, free)),
        _ => Ok(()),
    }
}

/// [`check`] for `count` items of `each` bytes (saturating: a count beyond u64 is refused).
pub fn check_items(what: &str, count: u64, each: u64) -> Result<()> {
    check(what, count.saturating_mul(each))
}

fn too_large(what: &str, bytes: u64, free: u64) -> Error {
    let overridden = MAX_MEMORY.load(Ordering::Relaxed) != u64::MAX
        || std::env::var_os("NETCOLL_MAX_MEMORY").is_some();
    let have = if overridden {
        format!("the memory limit is {}", gigabytes(free))
    } else {
        format!("this machine has {} free", gigabytes(free))
    };
    Error::TooLarge(format!(
        "{what} needs about {}; {have}; --max-memory GB (or NETCOLL_MAX_MEMORY) to override",
        gigabytes(bytes)
    ))
}

/// `12.3 GB`, `0.5 GB`, or `10^9 GB or more` for sizes no machine has.
pub fn gigabytes(bytes: u64) -> String {
    let gb = bytes as f64 / GB;
    if gb >= 1e9 {
        "10^9 GB or more".into()
    } else if gb >= 10.0 {
        format!("{gb:.0} GB")
    } else {
        format!("{gb:.1} GB")
    }
}

/// A vector of `n` copies of `value`, or a one-line error naming `what` when the allocation
/// fails (instead of Rust's abort).
pub fn filled_vec<T: Clone>(what: &str, n: usize, value: T) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        let bytes = (n as u64).saturating_mul(std::mem::size_of::<T>() as u64);
        Error::TooLarge(format!(
            "{what}: cannot allocate {}; --max-memory GB (or NETCOLL_MAX_MEMORY) sets the budget",
            gigabytes(bytes)
        ))
    })?;
    v.resize(n, value);
    Ok(v)
}

/// Makes room for `extra` more items in `v`, a vector that grows with its input one piece at
/// a time (its final size unknown up front): each time it must reallocate, the doubled size is
/// asked of the guard and reserved fallibly, so growth past the budget is refused with `what`
/// instead of aborting the process.
pub fn reserve<T>(v: &mut Vec<T>, extra: usize, what: &str) -> Result<()> {
    let need = v.len().saturating_add(extra);
    if need <= v.capacity() {
        return Ok(());
    }
    let target = need.max(v.capacity().saturating_mul(2));
    let each = std::mem::size_of::<T>() as u64;
    check_items(what, target as u64, each)?;
    v.try_reserve(target - v.len()).map_err(|_| {
        Error::TooLarge(format!(
            "{what}: cannot allocate {}; --max-memory GB (or NETCOLL_MAX_MEMORY) sets the budget",
            gigabytes((target as u64).saturating_mul(each))
        ))
    })
}

/// Files that netcoll reads (topologies, schedules) are refused above this size.
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

/// The text of an input file, refused by name before it is read whole when it is not a
/// regular file (a folder, /dev/zero) or larger than `limit`, and after reading when it is
/// binary (NUL bytes) or not UTF-8 (with the byte offset and line).
pub fn read_text(path: &str, what: &str, limit: u64) -> Result<String> {
    use std::io::Read;
    let io = |e: std::io::Error| Error::Io(format!("cannot read {what} '{path}': {e}"));
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(Error::Io(format!("{what} '{path}' is not a regular file")));
    }
    if meta.len() > limit {
        return Err(Error::Io(format!(
            "{what} '{path}' is {} bytes: the limit is {limit} bytes",
            meta.len()
        )));
    }
    let mut data = Vec::new();
    std::fs::File::open(path)
        .map_err(io)?
        .take(limit + 1)
        .read_to_end(&mut data)
        .map_err(io)?;
    if data.len() as u64 > limit {
        return Err(Error::Io(format!("{what} '{path}' exceeds {limit} bytes")));
    }
    if data.contains(&0) {
        return Err(Error::Io(format!(
            "{what} '{path}' is binary (it holds NUL bytes)"
        )));
    }
    String::from_utf8(data).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        Error::Io(format!(
            "{what} '{path}' is not UTF-8 text (byte {at}, line {line})"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_past_the_budget_is_refused_when_it_reallocates() {
        let mut v: Vec<u64> = Vec::new();
        reserve(&mut v, 10, "small").unwrap();
        assert!(v.capacity() >= 10);
        let e = reserve(&mut v, usize::MAX / 16, "the routed paths").unwrap_err();
        assert!(e.to_string().contains("the routed paths"), "{e}");
    }

    #[test]
    fn refuses_what_exceeds_the_budget_and_names_it() {
        let e = too_large("mesh:4096x4096", 5_300_000_000, 2_000_000_000).to_string();
        assert!(e.starts_with("mesh:4096x4096 needs about 5.3 GB;"), "{e}");
        assert!(
            e.contains("2.0 GB free") && e.contains("--max-memory"),
            "{e}"
        );
        assert!(check("small", 1000).is_ok());
        assert!(check_items("absurd", u64::MAX, 16).is_err() || budget().is_none());
    }

    #[test]
    fn sizes_print_in_gigabytes() {
        assert_eq!(gigabytes(1_500_000_000), "1.5 GB");
        assert_eq!(gigabytes(123_000_000_000), "123 GB");
        assert_eq!(gigabytes(u64::MAX), "10^9 GB or more");
    }

    #[test]
    fn failed_allocations_are_errors() {
        let e = filled_vec("huge table", usize::MAX / 2, 0u64).unwrap_err();
        assert!(e.to_string().starts_with("huge table: cannot allocate"));
        assert_eq!(filled_vec("small", 3, 7u8).unwrap(), vec![7, 7, 7]);
    }

    #[test]
    fn input_files_are_refused_by_name() {
        let dir = std::env::temp_dir().join(format!("netcoll-guard-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = |n: &str| dir.join(n).to_string_lossy().into_owned();
        std::fs::write(path("latin1"), b"ok\nr\xe9seau").unwrap();
        std::fs::write(path("nul"), b"ab\0cd").unwrap();
        std::fs::write(path("big"), vec![b'x'; 100]).unwrap();
        let err = |p: &str, limit| read_text(p, "file", limit).unwrap_err().to_string();
        assert!(err(&path("latin1"), 1000).contains("not UTF-8 text (byte 4, line 2)"));
        assert!(err(&path("nul"), 1000).contains("is binary"));
        assert!(err(&path("big"), 10).contains("is 100 bytes: the limit is 10 bytes"));
        assert!(err("/dev/zero", 10).contains("is not a regular file"));
        assert_eq!(read_text(&path("big"), "file", 100).unwrap().len(), 100);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn rejects_a_bad_override() {
        assert!(set_max_memory(Some(-1.0)).is_err());
        assert!(set_max_memory(Some(f64::NAN)).is_err());
    }
}
