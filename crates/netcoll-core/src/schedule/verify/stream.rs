//! The streaming verifier: proves a round program (see `schedule::sink`) round by round,
//! keeping only per-rank holdings, and drops every round once checked.
//!
//! What it proves is what the schedule verifier proves of the same program: every sender
//! holds what it sends before the round (given every earlier round and reduction), every
//! reduction uses only what its rank holds and counts each contributor exactly once, steps
//! never go back on a rank, and every rank ends with exactly what the collective promises
//! (the postcondition of `post.rs`). Matching, packets and deadlock freedom hold by
//! construction for a round program (each message is one send and one receive in its round).
//!
//! Holdings are compact: movement collectives keep one block set per rank (`RangeSet`: a
//! ring step adds a block to a range, two runs at most); reductions keep, per (rank, block
//! index), the rank's latest partial (flat, p x blocks sets) besides its own contribution,
//! and the partials received and not yet combined (consumed by the reduce that combines
//! them). A received partial that covers the rank's latest one replaces it. Keeping fewer
//! holdings than the schedule verifier can only make this one stricter, never more lenient;
//! the algorithms streamed here send only their latest partials, and tests hold the verdicts
//! of both verifiers equal on all of them. XOR-coded pieces are not decoded here: a program
//! that sends one is refused with a diagnosis (the schedule verifier serves those).

use super::super::collective::Collective;
use super::super::payload::{reduce_pieces, Piece, ReduceError};
use super::super::rangeset::RangeSet;
use super::super::sink::{RoundSink, Transfer};
use super::post::short_reduction;
use super::Diagnosis;
use rayon::prelude::*;

/// Proves a round program as it is written; [`StreamVerifier::finish`] gives the verdict.
#[derive(Default)]
pub struct StreamVerifier {
    c: Option<Collective>,
    /// Movement: the blocks each rank holds.
    held: Vec<RangeSet>,
    /// Reduction: `latest[r * blocks + j]`, rank r's latest partial of block index j.
    latest: Vec<RangeSet>,
    /// Reduction: per rank, partials received and not yet combined.
    pending: Vec<Pending>,
    /// Per rank, the last round it took part in.
    last_step: Vec<u32>,
    /// The round being written (for reductions' diagnoses).
    step: u32,
    rounds: u64,
    failure: Option<Diagnosis>,
}

impl StreamVerifier {
    pub fn new() -> Self {
        Self::default()
    }

    /// Rounds written so far.
    pub fn rounds(&self) -> u64 {
        self.rounds
    }

    /// The verdict: `Ok` if the program is correct, else its first failure in one line
    /// naming the rank, the round and the block.
    pub fn finish(self) -> Result<(), String> {
        if let Some(d) = self.failure {
            return Err(d);
        }
        let Some(c) = &self.c else {
            return Err("nothing was written to the streaming verifier".into());
        };
        // Ranks are independent: in parallel, the lowest failing rank's diagnosis.
        (0..c.p)
            .into_par_iter()
            .map(|r| self.check_final(c, r))
            .find_first(Result::is_err)
            .unwrap_or(Ok(()))
    }

    /// Bytes the holdings take for `c` (the memory guard's estimate).
    pub fn footprint(c: &Collective) -> u64 {
        let sets = if c.kind.is_reduction() {
            c.p as u64 * c.blocks as u64
        } else {
            c.p as u64
        };
        sets * std::mem::size_of::<RangeSet>() as u64
    }

    fn fail(&mut self, d: impl FnOnce() -> Diagnosis) {
        if self.failure.is_none() {
            self.failure = Some(d());
        }
    }

    fn blocks(&self) -> usize {
        self.c.as_ref().map_or(0, |c| c.blocks as usize)
    }

    fn check_final(&self, c: &Collective, r: u32) -> Result<(), Diagnosis> {
        if !c.kind.is_reduction() {
            let mut lacking = c.required_blocks(r);
            lacking.difference_with(&self.held[r as usize]);
            return match lacking.first() {
                None => Ok(()),
                Some(b) => Err(format!("rank {r} never receives {}", c.describe_block(b))),
            };
        }
        let full = RangeSet::full(c.p);
        for j in c.required_indices(r) {
            let best = self.best(r, j);
            if best != full {
                return Err(short_reduction(r, j, &best, c.p));
            }
        }
        Ok(())
    }

    /// The largest partial of index `j` that rank `r` holds.
    fn best(&self, r: u32, j: u32) -> RangeSet {
        let latest = &self.latest[r as usize * self.blocks() + j as usize];
        let pending = self.pending[r as usize].items.iter();
        let best = pending
            .filter(|(i, _)| *i == j)
            .map(|(_, s)| s)
            .max_by_key(|s| s.len());
        match best {
            Some(s) if s.len() > latest.len() => s.clone(),
            _ => latest.clone(),
        }
    }

    /// Whether rank `r` holds `piece`; `None` if the piece is no data of this collective.
    fn holds(&self, r: u32, piece: &Piece) -> Option<bool> {
        let c = self.c.as_ref()?;
        match piece {
            Piece::Block(b) if !c.kind.is_reduction() && *b < c.num_blocks() => {
                Some(self.held[r as usize].contains(*b))
            }
            Piece::Reduced { index, over }
                if c.kind.is_reduction()
                    && *index < c.blocks
                    && !over.is_empty()
                    && over.last().is_some_and(|l| l < c.p) =>
            {
                let own = over.len() == 1 && over.first() == Some(r);
                let latest = &self.latest[r as usize * self.blocks() + *index as usize];
                Some(own || latest == over || self.pending[r as usize].find(*index, over).is_some())
            }
            _ => None,
        }
    }

    fn describe(&self, piece: &Piece) -> String {
        match (&self.c, piece) {
            (_, Piece::Xor(_)) => "an XOR-combined piece (not decoded by the streaming \
                 verifier: verify with --method schedule)"
                .into(),
            (Some(c), _) => piece.describe(c),
            (None, _) => format!("{piece:?}"),
        }
    }

    fn check_rank(&mut self, r: u32, step: u32) -> bool {
        let p = self.last_step.len() as u32;
        if r >= p {
            self.fail(|| format!("round {step} names rank {r}: out of range ({p} ranks)"));
            return false;
        }
        let last = &mut self.last_step[r as usize];
        if step < *last {
            let was = *last;
            self.fail(|| format!("rank {r} acts in round {step} after round {was}"));
            return false;
        }
        *last = step;
        true
    }

    fn check_send(&mut self, step: u32, t: &Transfer) {
        if !self.check_rank(t.from, step) || !self.check_rank(t.to, step) {
            return;
        }
        if t.from == t.to {
            return self.fail(|| format!("rank {} sends to itself in round {step}", t.from));
        }
        if let Some(pending) = self.pending.get_mut(t.from as usize) {
            pending.sort();
        }
        for piece in &t.payload {
            match self.holds(t.from, piece) {
                Some(true) => {}
                Some(false) => {
                    let what = self.describe(piece);
                    return self.fail(|| {
                        format!(
                            "rank {} sends {what} to rank {} in round {step} before it holds it",
                            t.from, t.to
                        )
                    });
                }
                None => {
                    let what = self.describe(piece);
                    return self.fail(|| {
                        format!(
                            "rank {} sends {what} in round {step}, which is no data of this collective",
                            t.from
                        )
                    });
                }
            }
        }
    }

    fn receive(&mut self, t: &Transfer) {
        let b = self.blocks();
        for piece in &t.payload {
            match piece {
                Piece::Block(id) => {
                    self.held[t.to as usize].insert(*id);
                }
                Piece::Reduced { index, over } => {
                    let latest = &mut self.latest[t.to as usize * b + *index as usize];
                    if latest.is_subset(over) {
                        *latest = over.clone();
                    } else {
                        self.pending[t.to as usize].push(*index, over.clone());
                    }
                }
                Piece::Xor(_) => {}
            }
        }
    }
}

impl RoundSink for StreamVerifier {
    fn begin(&mut self, c: &Collective, _bytes_per_block: u64, _packet_bytes: u64) {
        let p = c.p as usize;
        if c.kind.is_reduction() {
            self.latest = (0..c.p)
                .flat_map(|r| (0..c.blocks).map(move |_| RangeSet::singleton(r)))
                .collect();
            self.pending = (0..p).map(|_| Pending::default()).collect();
        } else {
            self.held = (0..c.p).map(|r| c.initial_blocks(r)).collect();
        }
        self.last_step = vec![0; p];
        self.c = Some(c.clone());
    }

    fn round(&mut self, step: u32, transfers: &[Transfer]) {
        if self.failure.is_some() {
            return;
        }
        if self.c.is_none() {
            return self.fail(|| "a round was written before its collective".into());
        }
        self.step = step;
        self.rounds += 1;
        for t in transfers {
            self.check_send(step, t);
        }
        if self.failure.is_none() {
            transfers.iter().for_each(|t| self.receive(t));
        }
    }

    fn reduce(&mut self, at: u32, inputs: &[Piece]) {
        let step = self.step;
        if self.failure.is_some() || !self.check_rank(at, step) {
            return;
        }
        self.pending[at as usize].sort();
        for piece in inputs {
            if self.holds(at, piece) != Some(true) || !piece.is_reduction() {
                let what = self.describe(piece);
                return self.fail(|| {
                    format!("rank {at} reduces {what} after round {step} before it holds it")
                });
            }
        }
        // The DAG verifier's rule (payload::reduce_pieces): contributors of one index disjoint.
        let out = match reduce_pieces(inputs) {
            Ok(out) => out,
            Err(ReduceError::DoubleCount { index: j, rank: k }) => {
                return self.fail(|| {
                    format!(
                        "rank {at} reduces block index {j} after round {step} counting contributor {k} twice"
                    )
                })
            }
            // Refused above with the piece named; kept as a failure, never a panic.
            Err(ReduceError::NotReduction(i)) => {
                return self.fail(|| format!("rank {at} reduces input {i}, not a partial reduction"))
            }
        };
        self.pending[at as usize].use_up(inputs);
        let b = self.blocks();
        for piece in out {
            if let Piece::Reduced { index, over } = piece {
                self.latest[at as usize * b + index as usize] = over;
            }
        }
    }
}

/// Partials a rank received and has not combined yet, sorted by index on demand (a recursive
/// halving step receives p/2 of them and combines them all at once).
#[derive(Default)]
struct Pending {
    items: Vec<(u32, RangeSet)>,
    sorted: bool,
}

impl Pending {
    fn push(&mut self, index: u32, over: RangeSet) {
        self.sorted = match self.items.last() {
            None => true,
            Some(l) => self.sorted && l.0 <= index,
        };
        self.items.push((index, over));
    }

    fn sort(&mut self) {
        if !self.sorted {
            self.items.sort_by_key(|x| x.0);
            self.sorted = true;
        }
    }

    /// The position of `(index, over)` (sorted first).
    fn find(&self, index: u32, over: &RangeSet) -> Option<usize> {
        if self.items.is_empty() {
            return None;
        }
        debug_assert!(self.sorted);
        let start = self.items.partition_point(|x| x.0 < index);
        self.items[start..]
            .iter()
            .take_while(|x| x.0 == index)
            .position(|x| &x.1 == over)
            .map(|k| start + k)
    }

    /// Drops the partials `inputs` combined (one each).
    fn use_up(&mut self, inputs: &[Piece]) {
        if self.items.is_empty() {
            return;
        }
        let mut used = vec![false; self.items.len()];
        for p in inputs {
            if let Piece::Reduced { index, over } = p {
                if let Some(k) = self.find(*index, over) {
                    used[k] = true;
                }
            }
        }
        let mut k = 0;
        self.items.retain(|_| {
            k += 1;
            !used[k - 1]
        });
    }
}
