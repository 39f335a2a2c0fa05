//! The `--sim KEY=VALUE` settings of the LogGOPS engine, and LogGOPSim's own command-line
//! options by name: each is taken (the LogGOPS parameters, `--qstat`) or refused with what
//! to do instead, never silently ignored.

use super::loggops::{LogGops, Options};
use crate::error::{Error, Result};

/// Parsed settings: the model's parameters, netcoll's L-per-hop switch and run options.
#[derive(Clone, Copy, Debug, Default)]
pub struct Settings {
    pub params: LogGops,
    /// L per routed hop of the network (netcoll's extension, `hops=1`).
    pub per_hop: bool,
    pub options: Options,
}

/// Reads `(key, value)` pairs: L, o, g, G, O, S (integers, LogGOPSim's names and units),
/// hops=0|1, qstat=0|1; LogGOPSim's other options are refused by name with the reason.
pub fn parse(pairs: &[(String, String)]) -> Result<Settings> {
    let mut s = Settings::default();
    for (key, value) in pairs {
        let key = key.trim_start_matches('-');
        match key {
            "L" | "o" | "g" | "G" | "O" | "S" => s.params.set(key, integer(key, value)?)?,
            "LogGOPS_L" | "LogGOPS_o" | "LogGOPS_g" | "LogGOPS_G" | "LogGOPS_O" | "LogGOPS_S" => {
                let short = &key[8..];
                s.params.set(short, integer(key, value)?)?
            }
            "hops" => s.per_hop = switch(key, value, "hops=1 charges L per routed hop of --topo")?,
            "qstat" => s.options.qstat = switch(key, value, "qstat=1 adds queue statistics")?,
            "network-type" | "n" if value.eq_ignore_ascii_case("LogGP") => {}
            _ => return Err(refusal(key, value)),
        }
    }
    Ok(s)
}

fn integer(key: &str, value: &str) -> Result<u64> {
    value.trim().parse().map_err(|_| {
        Error::Spec(format!(
            "--sim {key}={value}: LogGOPS parameters are non-negative integers (LogGOPSim's units)"
        ))
    })
}

fn switch(key: &str, value: &str, what: &str) -> Result<bool> {
    match value.trim() {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => Err(Error::Spec(format!(
            "--sim {key}={value}: use 0 or 1 ({what})"
        ))),
    }
}

/// Why a LogGOPSim option (or an unknown key) is not taken, and what to use instead.
fn refusal(key: &str, value: &str) -> Error {
    let why = match key {
        "network-type" | "n" => {
            "LogGOPSim's 'simple' network (congestion on the links of a --network-file graph) \
             is not implemented; the loggops engine is LogGOPSim's LogGP backend (network-type=LogGP), \
             with hops=1 for L per routed hop of --topo; for congestion use --engine flit or step"
        }
        "network-file" => {
            "the loggops engine takes no annotated dot network; give --topo SPEC with hops=1 \
             for L per routed hop, or --engine flit for a congested network"
        }
        "noise-trace" | "noise-cosched" => {
            "operating-system noise traces are not implemented (LogGOPSim's --noise-trace); \
             model noise as calc ops in the GOAL file"
        }
        "save-mem" => {
            "there is nothing to map: the loggops engine keeps 16 bytes of state per event \
             beside the schedule (docs/formats.md) and the memory guard refuses what does not \
             fit; raise the budget with --max-memory GB"
        }
        "cpus" | "nics" | "ncpus" | "nnics" => {
            "CPUs and NICs per rank come from the GOAL file, as in LogGOPSim: each rank has as \
             many as the highest 'cpu N' / 'nic N' an op names, plus one"
        }
        "vizfile" | "V" | "verbose" | "v" | "progress" | "batchmode" | "b" => {
            "LogGOPSim's printing options have no counterpart: --json prints every result"
        }
        _ => {
            return Error::Spec(format!(
                "unknown --sim key '{key}' for the loggops engine: use L, o, g, G, O, S, \
                 hops=0|1 or qstat=0|1"
            ))
        }
    };
    Error::Spec(format!("--sim {key}={value}: {why}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(kv: &[(&str, &str)]) -> Vec<(String, String)> {
        kv.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn takes_parameters_and_refuses_loggopsim_options_by_name() {
        let s = parse(&pairs(&[("L", "7"), ("LogGOPS_S", "9"), ("qstat", "1")])).unwrap();
        assert_eq!((s.params.l, s.params.s, s.options.qstat), (7, 9, true));
        assert!(parse(&pairs(&[("network-type", "LogGP")])).is_ok());
        for (k, v, says) in [
            ("network-type", "simple", "'simple' network"),
            ("network-file", "x.dot", "annotated dot"),
            ("noise-trace", "t.txt", "noise"),
            ("save-mem", "1", "16 bytes"),
            ("ncpus", "2", "GOAL file"),
            ("bogus", "1", "unknown --sim key"),
            ("L", "-3", "non-negative integers"),
            ("qstat", "yes", "use 0 or 1"),
        ] {
            let e = parse(&pairs(&[(k, v)])).unwrap_err().to_string();
            assert!(e.contains(says), "{k}={v}: {e}");
        }
    }
}
