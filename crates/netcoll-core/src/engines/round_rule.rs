//! InterCom's round rule, written once for every path that times a schedule round by round
//! (`aggregate` from a round plan, `schedule_rounds` from a schedule's steps; `analytic`
//! applies the same rule to whole schedules): within a round a rank's unicasts leave one
//! after another through its one port, so a sender costs `k alpha + sum(conflict x bytes x
//! beta)` over its `k` unicasts; the round takes its slowest sender plus the most bytes one
//! rank combines times gamma. Flat per-rank arrays reset through the list of ranks touched:
//! no allocation per round.

use super::analysis::Machine;
use super::analytic_classes::RouteTerms;

/// One round's accumulators under InterCom's round rule.
pub(super) struct RoundRule {
    send: Vec<f64>,
    combine: Vec<u64>,
    touched: Vec<u32>,
}

impl RoundRule {
    /// Accumulators for `p` ranks.
    pub(super) fn new(p: usize) -> RoundRule {
        RoundRule {
            send: vec![0.0; p],
            combine: vec![0; p],
            touched: Vec::new(),
        }
    }

    /// `src` sends `bytes` over a path with Hockney terms `route` whose conflict factor is
    /// `conflict`.
    pub(super) fn send(
        &mut self,
        src: u32,
        conflict: u32,
        bytes: u64,
        route: RouteTerms,
        m: &Machine,
    ) {
        self.touched.push(src);
        self.send[src as usize] += route.time(m, conflict, bytes);
    }

    /// `rank` combines `bytes` in this round.
    pub(super) fn combine(&mut self, rank: u32, bytes: u64) {
        self.touched.push(rank);
        self.combine[rank as usize] += bytes;
    }

    /// The round's time (slowest sender, plus the most bytes one rank combines, plus
    /// `extra_combine` bytes: combine work counted elsewhere), ready for the next round.
    pub(super) fn finish(&mut self, extra_combine: u64, m: &Machine) -> f64 {
        let (mut bw, mut comb) = (0.0f64, 0u64);
        for &r in &self.touched {
            bw = bw.max(self.send[r as usize]);
            comb = comb.max(self.combine[r as usize]);
            self.send[r as usize] = 0.0;
            self.combine[r as usize] = 0;
        }
        self.touched.clear();
        bw + (comb + extra_combine) as f64 * m.gamma
    }
}
