//! The schedule runner's host/NI keys (seed 003 s6.2's overheads, seed 000's step rules):
//! plain parameters shared by the schedule runner (schedule.rs), its executor (exec.rs) and
//! the multicast load (mcload.rs), kept here so that none of them imports another for them.

use super::config::FlitConfig;
use crate::error::Result;
use crate::spec_err;
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct ScheduleParams {
    pub flit_bytes: u64,
    pub t_hs: u64,
    pub t_ns: u64,
    pub t_hr: u64,
    pub t_nr: u64,
    pub compute_base: u64,
    pub compute_per_flit: u64,
    pub copy_per_flit: u64,
    /// Header bits of every unicast packet (worms carry their own `header_bits`).
    pub unicast_header_bits: u64,
    /// Host I/O bus bandwidth in MB/s (0: infinitely fast), and the cycle time in ps that
    /// converts it to cycles (seed 003 s6.2: 266 MB/s, 5 ns).
    pub io_bus_mb_s: u64,
    pub cycle_ps: u64,
    /// NIs forward packets of a receive to the sends depending on it (FPFS).
    pub ni_fpfs: u64,
    /// Host and NI processors handle one overhead at a time.
    pub ni_serial: u64,
    /// 1: the packets of every schedule step travel on their own block of VCs (`vclass.rs`;
    /// seed 000's deadlock avoidance by VC assignment per step); 0: any VC.
    pub vc_per_step: u64,
    /// Step VC classes with `vc_per_step = 1` (0: as many as fit, `num_vcs / routing
    /// classes`); step `s` uses class `s mod step_vc_classes`.
    pub step_vc_classes: u64,
    /// 1: a barrier between steps: no op of step `s` starts before every op of the earlier
    /// steps is done (seed 000 s5.1: "the execution time of a broadcast is the sum of the
    /// maximum latency of all sequential steps"); 0: ops start when their dependencies are
    /// done.
    pub sync_steps: u64,
    /// 1: every message travels as one packet of all its flits (the schedule's packet split
    /// is ignored; s6.5's combined messages); 0: the schedule's packets.
    pub whole_messages: u64,
    /// Largest network packet in flits, header included (0: 65535, the engine's limit). The
    /// NI splits every larger schedule packet into packets of at most this size, as BookSim's
    /// `packet_size` bounds its packets; multidestination worms are never split.
    pub max_packet_flits: u64,
}

impl Default for ScheduleParams {
    fn default() -> Self {
        ScheduleParams {
            flit_bytes: 16,
            t_hs: 0,
            t_ns: 0,
            t_hr: 0,
            t_nr: 0,
            compute_base: 0,
            compute_per_flit: 1,
            copy_per_flit: 0,
            unicast_header_bits: 0,
            io_bus_mb_s: 0,
            cycle_ps: 5000,
            ni_fpfs: 0,
            ni_serial: 0,
            vc_per_step: 0,
            step_vc_classes: 0,
            sync_steps: 0,
            whole_messages: 0,
            max_packet_flits: 0,
        }
    }
}

impl ScheduleParams {
    /// Sets a schedule key; returns Ok(false) if the key is not one of them.
    /// Cycles to move `bytes` over the host I/O bus (0 when it is not modelled).
    pub fn dma(&self, bytes: u64) -> u64 {
        if self.io_bus_mb_s == 0 {
            0
        } else {
            (bytes * 1_000_000).div_ceil(self.io_bus_mb_s * self.cycle_ps)
        }
    }

    pub fn set(&mut self, key: &str, value: &str) -> Result<bool> {
        let slot = match key {
            "flit_bytes" => &mut self.flit_bytes,
            "t_hs" => &mut self.t_hs,
            "t_ns" => &mut self.t_ns,
            "t_hr" => &mut self.t_hr,
            "t_nr" => &mut self.t_nr,
            "compute_base" => &mut self.compute_base,
            "compute_per_flit" => &mut self.compute_per_flit,
            "copy_per_flit" => &mut self.copy_per_flit,
            "unicast_header_bits" => &mut self.unicast_header_bits,
            "io_bus_mb_s" => &mut self.io_bus_mb_s,
            "cycle_ps" => &mut self.cycle_ps,
            "ni_fpfs" => &mut self.ni_fpfs,
            "ni_serial" => &mut self.ni_serial,
            "vc_per_step" => &mut self.vc_per_step,
            "step_vc_classes" => &mut self.step_vc_classes,
            "sync_steps" => &mut self.sync_steps,
            "whole_messages" => &mut self.whole_messages,
            "max_packet_flits" => &mut self.max_packet_flits,
            _ => return Ok(false),
        };
        *slot = match value.trim().parse() {
            Ok(v) => v,
            Err(_) => return spec_err!("{key} = {value}: expected a whole number of cycles/bytes"),
        };
        if self.flit_bytes == 0 || self.cycle_ps == 0 {
            return spec_err!("flit_bytes and cycle_ps must be at least 1");
        }
        if self.ni_fpfs > 1 || self.ni_serial > 1 {
            return spec_err!("ni_fpfs and ni_serial are 0 or 1");
        }
        if self.vc_per_step > 1 || self.sync_steps > 1 || self.whole_messages > 1 {
            return spec_err!(
                "{key} = {value}: vc_per_step, sync_steps, whole_messages are 0 or 1"
            );
        }
        Ok(true)
    }
}

/// Network and schedule settings from `key=value` pairs (both kinds of keys).
pub fn parse_settings<'a>(
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<(FlitConfig, ScheduleParams)> {
    let (mut cfg, mut par) = (FlitConfig::default(), ScheduleParams::default());
    for (k, v) in pairs {
        if !par.set(k, v)? {
            cfg.set(k, v)?;
        }
    }
    Ok((cfg, par))
}

/// Network and schedule settings of a BookSim configuration file, then `overrides`: unset
/// keys take BookSim's defaults ([`FlitConfig::booksim`]); an error names the statement's
/// file, line and column.
pub fn booksim_settings<'a>(
    path: &std::path::Path,
    overrides: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<(FlitConfig, ScheduleParams)> {
    let file = super::cfgfile::read_config_file(path)?;
    let (mut cfg, mut par) = (FlitConfig::booksim(), ScheduleParams::default());
    cfg.config_dir = file.dir.display().to_string();
    for st in &file.statements {
        let set = match par.set(&st.key, &st.value) {
            Ok(false) => cfg.set(&st.key, &st.value),
            other => other.map(|_| ()),
        };
        set.map_err(|e| {
            crate::error::Error::Spec(format!("{}:{}:{}: {e}", path.display(), st.line, st.column))
        })?;
    }
    for (k, v) in overrides {
        if !par.set(k, v)? {
            cfg.set(k, v)?;
        }
    }
    Ok((cfg, par))
}
