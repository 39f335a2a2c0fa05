//! The figures of a synthetic-traffic run, shared by the measurement of sim.rs and the
//! multicast load of mcload.rs.

use super::config::SimType;
use super::deadlock::Deadlock;
use super::multicast::MulticastResult;
use super::network::{Network, Out};
use super::stats::{LatencySummary, Window};
use serde::Serialize;

/// Per-channel utilisation over the measurement: flits per cycle on each directed
/// router-to-router channel (topology channel numbering).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ChannelUse {
    pub mean: f64,
    pub max: f64,
    pub per_channel: Vec<f64>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FlitResult {
    pub topology: String,
    pub nodes: usize,
    pub sim_type: SimType,
    /// Simulated cycles in all.
    pub cycles: u64,
    /// Cycles over which throughput was measured.
    pub measured_cycles: u64,
    /// Offered load in flits per node per cycle.
    pub offered_rate: f64,
    /// Accepted throughput in flits per node per cycle.
    pub accepted_rate: f64,
    /// `sim_type = throughput`: flits injected into the network per node per cycle over the
    /// measurement (BookSim's "Injected flit rate average"); absent in the other modes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub injected_rate: Option<f64>,
    pub avg_packet_latency: f64,
    pub avg_network_latency: f64,
    pub avg_flit_latency: f64,
    pub avg_hops: f64,
    pub packet_latency: LatencySummary,
    pub network_latency: LatencySummary,
    pub flit_latency: LatencySummary,
    pub packets_measured: u64,
    pub packets_generated: u64,
    pub packets_delivered: u64,
    /// Packets that arrived at an endpoint other than their destination (always 0).
    pub misdelivered: u64,
    pub sample_periods: u32,
    /// Flits moved over router-to-router channels in the whole run (for ns per flit-hop).
    pub flit_hops: u64,
    pub unstable: bool,
    pub unstable_reason: Option<String>,
    pub deadlock: Option<Deadlock>,
    pub channel_utilisation: ChannelUse,
    /// `traffic = multicast`: multicast latency (creation to the last copy's arrival) and
    /// counts; None for unicast traffic.
    pub multicast: Option<MulticastResult>,
    /// Multi-class runs (`classes > 1` or `use_read_write = 1`): BookSim's figures per
    /// traffic class; the figures above are over all classes. Empty otherwise.
    pub classes: Vec<super::class_figures::ClassFigures>,
    /// Threads the run used (`threads`, par.rs): the figures do not depend on it.
    pub threads: usize,
}

impl Network<'_> {
    /// The figures every run reports from window `w` over `measured` cycles (accepted rate
    /// from its flits, latencies, hops, channel use); the caller sets the offered rate and
    /// how the run ended.
    pub(super) fn figures(&self, w: &Window, measured: u64) -> FlitResult {
        let nodes = self.nis.len();
        let per = |x: u64| x as f64 / measured.max(1) as f64;
        let mut per_channel = vec![0.0; 2 * self.topo.num_links()];
        for (g, o) in self.out_to.iter().enumerate() {
            if let Out::Link { channel, .. } = o {
                per_channel[*channel as usize] = per(self.chan_flits[g]);
            }
        }
        FlitResult {
            topology: self.topo.name().to_string(),
            nodes,
            sim_type: self.cfg.sim_type,
            cycles: self.now,
            measured_cycles: measured,
            offered_rate: 0.0,
            accepted_rate: per(w.accepted_flits) / nodes as f64,
            avg_packet_latency: w.packet.mean(),
            avg_network_latency: w.network.mean(),
            avg_flit_latency: w.flit.mean(),
            avg_hops: w.mean_hops(),
            packet_latency: w.packet.summary(),
            network_latency: w.network.summary(),
            flit_latency: w.flit.summary(),
            packets_measured: w.packets,
            packets_generated: self.nis.iter().map(|ni| ni.generated).sum(),
            packets_delivered: self.delivered,
            misdelivered: self.misdelivered,
            sample_periods: 0,
            flit_hops: self.flit_hops,
            unstable: false,
            unstable_reason: None,
            channel_utilisation: ChannelUse {
                mean: if per_channel.is_empty() {
                    0.0
                } else {
                    per_channel.iter().sum::<f64>() / per_channel.len() as f64
                },
                max: per_channel.iter().cloned().fold(0.0, f64::max),
                per_channel,
            },
            deadlock: None,
            multicast: None,
            injected_rate: None,
            classes: Vec::new(),
            threads: self.threads(),
        }
    }
}
