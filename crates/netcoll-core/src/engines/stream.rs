//! The analytic engine's streaming path: the figures of a round program (see
//! `schedule::sink`) as it is written, round by round, without a schedule.
//!
//! Each round is routed and loaded as the per-step path (`aggregate.rs`) does; a round with
//! the same unicasts and combine work as the one before it (every step of a ring) reuses its
//! figures instead of routing it again. The figures are those of the schedule path for the
//! same program (tests hold them equal): counts, bytes, packets, aggregate and largest hops,
//! steps, the largest conflict factor and InterCom's round-rule time; the four
//! list-scheduled times need every op's dependencies and are `null` (NaN), as per step.

use super::aggregate::{Net, Scratch, Totals};
use super::analytic::{check_machine, Analysis, Machine};
use crate::error::{Error, Result};
use crate::routing::Routing;
use crate::schedule::{Collective, Piece, Round, RoundSink, Transfer, Unicast};
use crate::topology::Topology;

/// A round summed: its unicasts, its (rank, bytes) combined, its figures.
type Summed = (Round, Vec<(u32, u64)>, Totals);

/// Sums the figures of the rounds written to it; [`StreamFigures::finish`] gives them.
pub struct StreamFigures<'t> {
    net: Net<'t>,
    m: Machine,
    p: u32,
    /// Bytes per block and per packet (0: one packet per message).
    sizes: (u64, u64),
    scratch: Option<Scratch>,
    acc: Totals,
    /// The round being written: its step, unicasts and the (rank, bytes) it combines.
    step: Option<u32>,
    round: Round,
    combines: Vec<(u32, u64)>,
    /// The last round summed, with its figures.
    last: Option<Summed>,
    error: Option<Error>,
}

impl<'t> StreamFigures<'t> {
    /// Figures on `topo` routed by `routing` with machine `m`, rank i on endpoint
    /// `placement[i]`.
    pub fn new(
        placement: &'t [u32],
        topo: &'t Topology,
        routing: &'t Routing,
        m: &Machine,
    ) -> Result<Self> {
        check_machine(m)?;
        Ok(StreamFigures {
            net: (placement, topo, routing),
            m: m.clone(),
            p: placement.len() as u32,
            sizes: (1, 0),
            scratch: None,
            acc: Totals::default(),
            step: None,
            round: Round {
                repeat: 1,
                unicasts: Vec::new(),
            },
            combines: Vec::new(),
            last: None,
            error: None,
        })
    }

    /// The figures of everything written.
    pub fn finish(mut self) -> Result<Analysis> {
        self.flush();
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.acc.analysis(self.p)),
        }
    }

    /// Sums the round being written (its figures computed, or the last round's if equal).
    fn flush(&mut self) {
        if self.round.unicasts.is_empty() || self.error.is_some() {
            self.round.unicasts.clear();
            self.combines.clear();
            return;
        }
        self.combines.sort_unstable();
        let same = self
            .last
            .as_ref()
            .is_some_and(|(r, c, _)| *r == self.round && *c == self.combines);
        let figs = if same {
            self.last.as_ref().map(|l| l.2.clone()).unwrap_or_default()
        } else {
            let scratch = self
                .scratch
                .get_or_insert_with(|| Scratch::new(self.p as usize, self.net.1.num_links()));
            match scratch.round_figures(self.sizes, &self.round, &self.combines, self.net, &self.m)
            {
                Ok(f) => f,
                Err(e) => {
                    self.error = Some(e);
                    return;
                }
            }
        };
        self.acc.add(&figs, 1);
        // Keep this round as the last one, reusing the old one's buffers for the next.
        let (mut round, mut combines) = match self.last.take() {
            Some((r, c, _)) => (r, c),
            None => (self.round.clone(), Vec::new()),
        };
        std::mem::swap(&mut round, &mut self.round);
        std::mem::swap(&mut combines, &mut self.combines);
        self.last = Some((round, combines, figs));
        self.round.unicasts.clear();
        self.combines.clear();
    }
}

impl RoundSink for StreamFigures<'_> {
    fn begin(&mut self, c: &Collective, bytes_per_block: u64, packet_bytes: u64) {
        self.p = c.p;
        self.sizes = (bytes_per_block, packet_bytes);
        if self.net.0.len() < c.p as usize {
            let n = self.net.0.len();
            self.error = Some(Error::Spec(format!(
                "placement names {n} endpoints for {} ranks",
                c.p
            )));
        }
    }

    fn round(&mut self, step: u32, transfers: &[Transfer]) {
        if self.step != Some(step) {
            self.flush();
            self.step = Some(step);
        }
        self.round.unicasts.extend(
            transfers
                .iter()
                .map(|t| Unicast::new(t.from, t.to, t.payload.len() as u32)),
        );
    }

    fn reduce(&mut self, at: u32, inputs: &[Piece]) {
        // A reduce of k inputs into j outputs (one per block index) combines k - j blocks.
        let mut indices: Vec<u32> = inputs
            .iter()
            .filter_map(|p| match p {
                Piece::Reduced { index, .. } => Some(*index),
                _ => None,
            })
            .collect();
        indices.sort_unstable();
        indices.dedup();
        let extra = inputs.len().saturating_sub(indices.len()) as u64;
        if extra > 0 {
            self.combines.push((at, extra * self.sizes.0));
        }
    }
}
