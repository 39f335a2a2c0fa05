//! Per-step packet latencies of a schedule run: seed 000 s5.1 defines the execution time of
//! a broadcast as "the sum of the maximum latency of all sequential steps", and BookSim
//! reports two latencies per packet: *packet latency* (creation, when the packet is queued
//! at its source, to arrival: it includes the wait in the source queue) and *network
//! latency* (injection of the head flit to arrival). This log keeps, per step, the maximum
//! of both over the step's packets, so that the paper's measure can be read either way
//! (docs/hnc.md, "Which measure").

use serde::Serialize;

/// One communication step's packets.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct StepLatency {
    pub step: u32,
    pub packets: u64,
    /// Max over the step's packets of creation to arrival (BookSim's packet latency).
    pub max_packet_latency: u64,
    /// Max over the step's packets of head-flit injection to arrival (network latency).
    pub max_network_latency: u64,
    /// The first creation and the last arrival of the step's packets (its span).
    pub first_created: u64,
    pub last_arrival: u64,
}

/// Which step every packet tag belongs to, and the running maxima per step.
pub struct StepLog {
    tag_step: Vec<u32>,
    steps: Vec<StepLatency>,
}

const NO_STEP: u32 = u32::MAX;

impl StepLog {
    pub fn new(tags: usize) -> StepLog {
        StepLog {
            tag_step: vec![NO_STEP; tags],
            steps: Vec::new(),
        }
    }

    /// Packet `tag` of step `step` is created at cycle `now`.
    #[inline]
    pub fn created(&mut self, tag: u32, step: Option<u32>, now: u64) {
        let Some(st) = step else { return };
        self.tag_step[tag as usize] = st;
        let st = st as usize;
        if self.steps.len() <= st {
            let n = self.steps.len();
            self.steps.resize(st + 1, StepLatency::default());
            for (i, s) in self.steps.iter_mut().enumerate().skip(n) {
                s.step = i as u32;
                s.first_created = u64::MAX;
            }
        }
        let s = &mut self.steps[st];
        s.first_created = s.first_created.min(now);
    }

    /// Packet `tag` arrived at `t` with (packet latency, network latency).
    #[inline]
    pub fn arrived(&mut self, tag: u32, t: u64, (packet, network): (u64, u64)) {
        let st = self.tag_step[tag as usize];
        if st == NO_STEP {
            return;
        }
        let s = &mut self.steps[st as usize];
        s.packets += 1;
        s.max_packet_latency = s.max_packet_latency.max(packet);
        s.max_network_latency = s.max_network_latency.max(network);
        s.last_arrival = s.last_arrival.max(t);
    }

    /// The steps that had packets, and the sums over them of the maximum packet and
    /// network latencies.
    pub fn finish(self) -> (Vec<StepLatency>, u64, u64) {
        let steps: Vec<StepLatency> = self.steps.into_iter().filter(|s| s.packets > 0).collect();
        let p = steps.iter().map(|s| s.max_packet_latency).sum();
        let n = steps.iter().map(|s| s.max_network_latency).sum();
        (steps, p, n)
    }
}
