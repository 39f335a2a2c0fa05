//! Round programs written to a sink instead of a schedule.
//!
//! The classic algorithms (`algorithms/prog.rs`) and InterCom's (`algorithms/intercom`) are
//! round programs: in each synchronous round every sender sends from what it held before the
//! round, then every receiver takes its payload; between rounds a rank may reduce what it
//! holds. A [`RoundSink`] receives such a program round by round. The schedule builder
//! materialises it (every op kept: the engines, `-o FILE`); the streaming verifier
//! (`verify::StreamVerifier`) proves it round by round and drops each round, and the
//! analytic engine's streaming aggregate (`engines::stream`) sums its figures, so a program of
//! 33 M messages (ring allreduce on 4,096 ranks) is proved and analysed in the memory of its
//! per-rank holdings.

use super::collective::Collective;
use super::payload::Piece;

/// One message of a round: `from` sends `payload` to `to`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transfer {
    pub from: u32,
    pub to: u32,
    pub payload: Vec<Piece>,
}

impl Transfer {
    pub fn new(from: u32, to: u32, payload: Vec<Piece>) -> Self {
        Transfer { from, to, payload }
    }
}

/// Where a round program goes.
pub trait RoundSink {
    /// Before any round: the collective, the bytes of one block and the largest packet
    /// (0: one packet per message).
    fn begin(&mut self, c: &Collective, bytes_per_block: u64, packet_bytes: u64);
    /// One synchronous round numbered `step` (non-decreasing per rank): every sender sends
    /// from what it holds before the round, then every receiver takes its payload.
    fn round(&mut self, step: u32, transfers: &[Transfer]);
    /// Rank `at` reduces `inputs` (which it holds) into one partial per block index, after
    /// the receives of the last round.
    fn reduce(&mut self, at: u32, inputs: &[Piece]);
}

/// Writes to two sinks at once (the streaming verifier and the figures).
pub struct Tee<'a> {
    pub first: &'a mut dyn RoundSink,
    pub second: &'a mut dyn RoundSink,
}

impl RoundSink for Tee<'_> {
    fn begin(&mut self, c: &Collective, bytes_per_block: u64, packet_bytes: u64) {
        self.first.begin(c, bytes_per_block, packet_bytes);
        self.second.begin(c, bytes_per_block, packet_bytes);
    }
    fn round(&mut self, step: u32, transfers: &[Transfer]) {
        self.first.round(step, transfers);
        self.second.round(step, transfers);
    }
    fn reduce(&mut self, at: u32, inputs: &[Piece]) {
        self.first.reduce(at, inputs);
        self.second.reduce(at, inputs);
    }
}
