//! Shared by the examples that time runs (`#[path]` module: not an example itself).

/// CPU time of this process (all its threads, finished ones included) in seconds: user and
/// system time from /proc/self/stat, in clock ticks of 10 ms; robust to other load on a
/// shared machine.
pub fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which ends with ')'): utime and stime are 14 and 15.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    (tick(11) + tick(12)) / 100.0
}
