//! Statistics: latencies as integer histograms (exact means and percentiles, no per-sample
//! storage), counts of hops and accepted flits, and per-channel flit counts.

use serde::Serialize;

/// An exact histogram of non-negative integer samples. A sample is one increment (the
/// ejection of every flit adds several); the count and the sum are read off the counts
/// when asked for (a few times per sample period), not kept per sample.
#[derive(Debug, Clone, Default)]
pub struct Histogram {
    counts: Vec<u64>,
}

impl Histogram {
    #[inline]
    pub fn add(&mut self, x: u64) {
        let i = x as usize;
        match self.counts.get_mut(i) {
            Some(c) => *c += 1,
            None => self.grow(i),
        }
    }
    #[cold]
    #[inline(never)]
    fn grow(&mut self, i: usize) {
        self.counts.resize((i + 1).next_power_of_two(), 0);
        self.counts[i] = 1;
    }
    pub fn clear(&mut self) {
        self.counts.iter_mut().for_each(|c| *c = 0);
    }
    pub fn sum(&self) -> u128 {
        let weighted = self.counts.iter().enumerate();
        weighted.map(|(x, &c)| x as u128 * c as u128).sum()
    }
    pub fn count(&self) -> u64 {
        self.counts.iter().sum()
    }
    pub fn mean(&self) -> f64 {
        match self.count() {
            0 => 0.0,
            n => self.sum() as f64 / n as f64,
        }
    }
    /// The smallest sample with at least `q` of all samples at or below it.
    pub fn percentile(&self, q: f64) -> u64 {
        let n = self.count();
        if n == 0 {
            return 0;
        }
        let want = ((q * n as f64).ceil() as u64).clamp(1, n);
        let mut seen = 0;
        for (x, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= want {
                return x as u64;
            }
        }
        (self.counts.len() - 1) as u64
    }
    pub fn max(&self) -> u64 {
        self.counts.iter().rposition(|&c| c > 0).unwrap_or(0) as u64
    }
    pub fn summary(&self) -> LatencySummary {
        LatencySummary {
            mean: self.mean(),
            count: self.count(),
            p50: self.percentile(0.5),
            p90: self.percentile(0.9),
            p99: self.percentile(0.99),
            max: self.max(),
        }
    }
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct LatencySummary {
    pub mean: f64,
    pub count: u64,
    pub p50: u64,
    pub p90: u64,
    pub p99: u64,
    pub max: u64,
}

/// What one measurement window collected.
#[derive(Debug, Clone, Default)]
pub struct Window {
    /// Creation to tail arrival, per packet.
    pub packet: Histogram,
    /// Head injection into the network to tail arrival, per packet.
    pub network: Histogram,
    /// Creation to arrival, per flit.
    pub flit: Histogram,
    pub hops: u64,
    pub packets: u64,
    /// Flits accepted at destinations in the window (all packets).
    pub accepted_flits: u64,
    pub start: u64,
    /// Multi-class runs: the same figures per traffic class (class_ni.rs), else empty.
    pub per_class: Vec<Window>,
}

impl Window {
    /// A packet's tail arrived: its packet and network latencies and its hops.
    #[inline]
    pub fn packet_arrived(&mut self, latency: u64, network: u64, hops: u64) {
        self.packet.add(latency);
        self.network.add(network);
        self.hops += hops;
        self.packets += 1;
    }

    /// Mean hops per packet (0 without packets).
    pub fn mean_hops(&self) -> f64 {
        if self.packets == 0 {
            0.0
        } else {
            self.hops as f64 / self.packets as f64
        }
    }

    /// A flit of class `cl` arrived with flit latency `flat` (counted in its class too).
    #[inline]
    pub fn flit_arrived(&mut self, cl: usize, flat: u64) {
        self.flit.add(flat);
        if let Some(w) = self.per_class.get_mut(cl) {
            w.flit.add(flat);
        }
    }

    /// A flit of class `cl` was accepted at its destination.
    #[inline]
    pub fn accept(&mut self, cl: usize) {
        self.accepted_flits += 1;
        if let Some(w) = self.per_class.get_mut(cl) {
            w.accepted_flits += 1;
        }
    }

    /// [`Window::packet_arrived`] for a packet of class `cl`, in its class too.
    #[inline]
    pub fn class_packet_arrived(&mut self, cl: usize, latency: u64, network: u64, hops: u64) {
        self.packet_arrived(latency, network, hops);
        if let Some(w) = self.per_class.get_mut(cl) {
            w.packet_arrived(latency, network, hops);
        }
    }

    /// The accepted flits, overall and per class (kept over a drain, `sim.rs`).
    pub fn accepted_counts(&self) -> Vec<u64> {
        let per = self.per_class.iter().map(|w| w.accepted_flits);
        std::iter::once(self.accepted_flits).chain(per).collect()
    }

    pub fn set_accepted_counts(&mut self, counts: &[u64]) {
        self.accepted_flits = counts[0];
        for (w, &c) in self.per_class.iter_mut().zip(&counts[1..]) {
            w.accepted_flits = c;
        }
    }

    pub fn clear(&mut self, now: u64) {
        self.per_class.iter_mut().for_each(|w| w.clear(now));
        self.packet.clear();
        self.network.clear();
        self.flit.clear();
        self.hops = 0;
        self.packets = 0;
        self.accepted_flits = 0;
        self.start = now;
    }
}

#[cfg(test)]
mod tests {
    use super::Histogram;

    #[test]
    fn histogram_mean_and_percentiles() {
        let mut h = Histogram::default();
        for x in [5, 1, 3, 3, 10] {
            h.add(x);
        }
        assert_eq!(h.mean(), 22.0 / 5.0);
        assert_eq!(h.percentile(0.5), 3);
        assert_eq!(h.percentile(0.2), 1);
        assert_eq!(h.percentile(1.0), 10);
        assert_eq!(h.max(), 10);
        h.clear();
        assert_eq!(h.count(), 0);
        assert_eq!(h.mean(), 0.0);
    }
}
