//! Per-class figures of a multi-class run (`classes > 1` or `use_read_write = 1`): what
//! BookSim prints under "Traffic class c", and the per-class tests of its latency mode
//! (each class must converge; any class over `latency_thres` ends the run).

use super::network::Network;
use super::stats::{LatencySummary, Window};
use serde::Serialize;

/// One class's figures over the measurement (latency mode: BookSim's, over the measured
/// packets of the class, requests and replies alike).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ClassFigures {
    pub class: usize,
    /// Offered packets per node per cycle (requests under `use_read_write`).
    pub injection_rate: f64,
    /// Accepted flits per node per cycle.
    pub accepted_rate: f64,
    pub avg_packet_latency: f64,
    pub avg_network_latency: f64,
    pub avg_flit_latency: f64,
    pub avg_hops: f64,
    pub packet_latency: LatencySummary,
    pub packets_measured: u64,
}

impl Network<'_> {
    /// The figures of every class from window `w` over `measured` cycles (empty for a
    /// single-class run).
    pub(super) fn class_figures(&self, w: &Window, measured: u64) -> Vec<ClassFigures> {
        let nodes = self.nis.len() as f64;
        let per = |x: u64| x as f64 / measured.max(1) as f64 / nodes;
        w.per_class
            .iter()
            .enumerate()
            .map(|(c, cw)| ClassFigures {
                class: c,
                injection_rate: self.cfg.class_rate(c),
                accepted_rate: per(cw.accepted_flits),
                avg_packet_latency: cw.packet.mean(),
                avg_network_latency: cw.network.mean(),
                avg_flit_latency: cw.flit.mean(),
                avg_hops: cw.mean_hops(),
                packet_latency: cw.packet.summary(),
                packets_measured: cw.packets,
            })
            .collect()
    }

    /// Per class of the sample period so far: (mean packet latency, accepted flits per node
    /// per cycle) over `since` cycles; the overall pair for a single-class run.
    pub(super) fn period_points(&self, since: f64) -> Vec<(f64, f64)> {
        let nodes = self.nis.len() as f64;
        let point = |w: &Window| (w.packet.mean(), w.accepted_flits as f64 / since / nodes);
        if self.period.per_class.is_empty() {
            vec![point(&self.period)]
        } else {
            self.period.per_class.iter().map(point).collect()
        }
    }

    /// BookSim's latency estimate, arrived packets plus every flit still in flight (or
    /// queued) counted at its age: the largest over the classes.
    pub(super) fn latency_estimate(&self) -> f64 {
        let est = |w: &Window, live: u64, ctime_sum: u128| {
            let age = live as u128 * self.now as u128 - ctime_sum;
            match w.packet.count() + live {
                0 => 0.0,
                n => (w.packet.sum() + age) as f64 / n as f64,
            }
        };
        match &self.cls {
            None => est(&self.period, self.live_flits, self.live_ctime_sum),
            Some(cs) => (self.period.per_class.iter().zip(&cs.live))
                .map(|(w, &(live, sum))| est(w, live, sum))
                .fold(0.0, f64::max),
        }
    }
}
