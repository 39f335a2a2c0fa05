//! The figures of a synthetic-traffic run, shared by the measurement of sim.rs and the
//! multicast load of mcload.rs.

use super::config::SimType;
use super::deadlock::Deadlock;
use super::multicast::MulticastResult;
use super::stats::LatencySummary;
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
