//! What a configuration must satisfy before a run: value ranges the engine relies on, and a
//! run length that measures something within `max_cycles`.

use super::config::{FlitConfig, MAX_THREADS};
use super::config_enums::{FlowControl, Pattern, SimType};
use crate::error::Result;
use crate::spec_err;

impl FlitConfig {
    /// Checks ranges that the engine relies on.
    pub fn validate(&self) -> Result<()> {
        self.validate_classes()?;
        if self.num_vcs == 0 || self.num_vcs > 64 {
            return spec_err!("num_vcs = {}: use 1 to 64", self.num_vcs);
        }
        if self.vc_buf_size == 0 || self.vc_buf_size > 4096 {
            return spec_err!("vc_buf_size = {}: use 1 to 4096", self.vc_buf_size);
        }
        if self.packet_size == 0 || self.packet_size > 65535 {
            return spec_err!("packet_size = {}: use 1 to 65535", self.packet_size);
        }
        if self.flow_control == FlowControl::CutThrough && self.packet_size > self.vc_buf_size {
            return spec_err!(
                "virtual cut-through needs packet_size ({}) <= vc_buf_size ({})",
                self.packet_size,
                self.vc_buf_size
            );
        }
        // One rate check for every traffic kind: a node generates at most one packet per
        // cycle (BookSim's rule), whether the packets are unicasts or multicasts' copies.
        let p = self.packet_rate();
        if !(0.0..=1.0).contains(&p) || p.is_nan() {
            let unit = if self.injection_rate_uses_flits {
                format!(" flits (/ packet_size {})", self.packet_size)
            } else {
                String::new()
            };
            return spec_err!(
                "injection_rate = {}{unit}: gives {p} packets per node per cycle; use 0 to 1",
                self.injection_rate
            );
        }
        if self.traffic == Pattern::Multicast {
            if self.multicast_dests == 0 {
                return spec_err!("multicast_dests = 0: a multicast needs at least 1 destination");
            }
            if self.multicast_packets == 0
                || (self.multicast_packets > 1 && self.multicast_scheme.plan_algorithm().is_none())
            {
                return spec_err!(
                    "multicast_packets = {}: use 1..; more than 1 only with multicast_scheme = \
                     ni-kbinomial, worm-path or worm-tree",
                    self.multicast_packets
                );
            }
        }
        if self.channel_latency == 0 || self.injection_latency == 0 || self.ejection_latency == 0 {
            return spec_err!("channel, injection and ejection latencies must be at least 1 cycle");
        }
        if self.threads > MAX_THREADS {
            return spec_err!(
                "threads = {}: use 0 (automatic) to {MAX_THREADS}",
                self.threads
            );
        }
        if self.chunk_flits == 0 || self.chunk_flits > 65535 {
            return spec_err!("chunk_flits = {}: use 1 to 65535", self.chunk_flits);
        }
        if self.sample_period == 0 || self.max_samples == 0 {
            return spec_err!("sample_period and max_samples must be at least 1");
        }
        let delays = [
            self.routing_delay,
            self.vc_alloc_delay,
            self.sw_alloc_delay,
            self.st_final_delay,
            self.credit_delay,
            self.channel_latency,
            self.ni_read_delay,
        ];
        if delays.iter().any(|&d| d > 1000) {
            return spec_err!("pipeline delays and latencies must be at most 1000 cycles");
        }
        if self.deadlock_cycles == 0 {
            return spec_err!("deadlock_cycles must be at least 1");
        }
        self.validate_measurement()
    }

    /// The fewest cycles a synthetic-traffic run takes: the warm-up and one measured sample
    /// period (latency), the warm-up and measured cycles (fixed), or the cycles a node needs to
    /// offer its batch at the injection rate (batch; None at rate 0, refused elsewhere).
    pub fn least_cycles(&self) -> Option<u64> {
        match self.sim_type {
            SimType::Latency => {
                Some((self.warmup_periods.max(1) as u64 + 1).saturating_mul(self.sample_period))
            }
            SimType::Fixed => Some(self.warmup_cycles.saturating_add(self.sim_cycles)),
            // Each node offers its batch at the packet rate: batch_size / rate cycles at least.
            SimType::Batch => {
                let rate = self.packet_rate();
                (rate > 0.0).then(|| (self.batch_size as f64 / rate).min(u64::MAX as f64) as u64)
            }
        }
    }

    /// The keys that set [`FlitConfig::least_cycles`], with their values.
    pub fn run_length_keys(&self) -> String {
        match self.sim_type {
            SimType::Fixed => format!(
                "warmup_cycles = {} and sim_cycles = {}",
                self.warmup_cycles, self.sim_cycles
            ),
            SimType::Batch => format!(
                "batch_size = {} at injection_rate = {}",
                self.batch_size, self.injection_rate
            ),
            _ => format!(
                "sample_period = {} with warmup_periods = {}",
                self.sample_period, self.warmup_periods
            ),
        }
    }

    /// Refuses runs that would measure nothing.
    fn validate_measurement(&self) -> Result<()> {
        if self.max_cycles == 0 {
            return spec_err!("max_cycles = 0: a run needs at least one cycle");
        }
        for (key, x) in [
            ("latency_thres", self.latency_thres),
            ("warmup_thres", self.warmup_thres),
            ("stopping_thres", self.stopping_thres),
            ("acc_stopping_thres", self.acc_stopping_thres),
        ] {
            if x.is_nan() {
                return spec_err!("{key} = nan: give a number");
            }
        }
        if let Some(least) = self.least_cycles().filter(|&c| c > self.max_cycles) {
            return spec_err!(
                "{}: the run needs at least {least} cycles, more than max_cycles = {}; \
                 raise max_cycles or shorten the run",
                self.run_length_keys(),
                self.max_cycles
            );
        }
        match self.sim_type {
            SimType::Batch if self.batch_size == 0 => {
                spec_err!("batch_size = 0: a batch run needs at least one packet per node")
            }
            SimType::Batch if self.packet_rate() == 0.0 => {
                spec_err!("injection_rate = 0 with sim_type = batch: the batch would never be sent")
            }
            SimType::Fixed if self.sim_cycles == 0 => {
                spec_err!(
                    "sim_cycles = 0: sim_type = fixed measures sim_cycles cycles; use 1 or more"
                )
            }
            _ => Ok(()),
        }
    }
}
