//! Round executor shared by the InterCom algorithms.
//!
//! InterCom's primitives are written as *rounds* of transfers of unit ranges between ranks;
//! the engine turns them into schedule ops. Data are `units` 0..U, each one block of the
//! collective: a movement collective maps unit u to an original block; a reduction maps it
//! to block index `unit_index[u]` and the engine tracks, per rank and unit, the set of
//! contributors the rank's partial result covers, so every message carries exactly the
//! partial reduction the sender holds.
//!
//! Ops on a rank run in issue order (each depends on the rank's previous op). Within a round
//! every send is issued before any receive, so two ranks exchanging in the same round never
//! wait on each other.

use crate::error::Result;
use crate::schedule::{Collective, OpRef, Piece, RangeSet, Schedule, ScheduleBuilder};

/// `src` sends units `lo..hi` to `dst`; with `combine`, `dst` reduces them into its own
/// partial results (reductions), otherwise it takes them as they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transfer {
    pub src: u32,
    pub dst: u32,
    pub lo: u32,
    pub hi: u32,
    pub combine: bool,
}

/// Rounds of transfers; round t of every group of a stage runs in the same step.
#[derive(Default, Debug)]
pub struct Phase {
    pub rounds: Vec<Vec<Transfer>>,
}

impl Phase {
    pub fn push(&mut self, round: usize, t: Transfer) {
        if self.rounds.len() <= round {
            self.rounds.resize_with(round + 1, Vec::new);
        }
        self.rounds[round].push(t);
    }
}

pub struct Engine {
    b: ScheduleBuilder,
    reduction: bool,
    /// Movement: the block of each unit. Reduction: unused.
    unit_piece: Vec<Piece>,
    /// Reduction: the block index of each unit.
    unit_index: Vec<u32>,
    /// Reduction: `over[r * U + u]`, contributors of rank r's partial result for unit u.
    over: Vec<RangeSet>,
    last: Vec<Option<OpRef>>,
    round: u32,
    scratch: Vec<Piece>,
}

impl Engine {
    /// An engine over `collective` whose units are `units` (block indices for reductions,
    /// `(owner, idx)` blocks for movement), ranks placed by `placement`, `bytes_per_block`.
    pub fn new(
        collective: Collective,
        units: &[(u32, u32)],
        placement: Vec<u32>,
        bytes_per_block: u64,
    ) -> Engine {
        let p = collective.p;
        let reduction = collective.kind.is_reduction();
        let mut b = ScheduleBuilder::from_collective(collective)
            .placement(placement)
            .packetization(bytes_per_block, 0);
        let (mut unit_piece, mut unit_index, mut over) = (Vec::new(), Vec::new(), Vec::new());
        if reduction {
            unit_index = units.iter().map(|&(_, j)| j).collect();
            for r in 0..p {
                over.extend((0..units.len()).map(|_| RangeSet::singleton(r)));
            }
        } else {
            unit_piece = units.iter().map(|&(o, i)| b.block(o, i)).collect();
        }
        Engine {
            b,
            reduction,
            unit_piece,
            unit_index,
            over,
            last: vec![None; p as usize],
            round: 0,
            scratch: Vec::new(),
        }
    }

    pub fn units(&self) -> u32 {
        if self.reduction {
            self.unit_index.len() as u32
        } else {
            self.unit_piece.len() as u32
        }
    }

    /// Runs the rounds of `phase`, one step each, after everything issued so far.
    pub fn run(&mut self, phase: Phase) {
        for round in phase.rounds {
            if round.is_empty() {
                continue;
            }
            self.b.set_round(Some(self.round));
            let sends: Vec<OpRef> = round.iter().map(|t| self.send(t)).collect();
            for (t, s) in round.iter().zip(sends) {
                self.receive(t, s);
            }
            self.round += 1;
        }
    }

    fn deps(&self, r: u32) -> Vec<OpRef> {
        self.last[r as usize].into_iter().collect()
    }

    fn pieces(&mut self, r: u32, lo: u32, hi: u32) {
        self.scratch.clear();
        let n = self.units() as usize;
        for u in lo..hi {
            let piece = if self.reduction {
                let over = self.over[r as usize * n + u as usize].clone();
                Piece::Reduced {
                    index: self.unit_index[u as usize],
                    over,
                }
            } else {
                self.unit_piece[u as usize].clone()
            };
            self.scratch.push(piece);
        }
    }

    fn send(&mut self, t: &Transfer) -> OpRef {
        self.pieces(t.src, t.lo, t.hi);
        let deps = self.deps(t.src);
        let payload = std::mem::take(&mut self.scratch);
        let s = self.b.send(t.src, &[t.dst], &payload, &deps);
        self.scratch = payload;
        self.last[t.src as usize] = Some(s);
        s
    }

    fn receive(&mut self, t: &Transfer, send: OpRef) {
        let deps = self.deps(t.dst);
        let mut op = self.b.recv(t.dst, send, &deps);
        if self.reduction {
            let n = self.units() as usize;
            let (src, dst) = (t.src as usize * n, t.dst as usize * n);
            if t.combine {
                self.pieces(t.dst, t.lo, t.hi);
                let mut inputs = std::mem::take(&mut self.scratch);
                self.pieces(t.src, t.lo, t.hi);
                inputs.append(&mut self.scratch);
                op = self.b.reduce(t.dst, &inputs, &[op]);
                for u in t.lo as usize..t.hi as usize {
                    let from = self.over[src + u].clone();
                    self.over[dst + u].union_with(&from);
                }
                self.scratch = inputs;
            } else {
                for u in t.lo as usize..t.hi as usize {
                    self.over[dst + u] = self.over[src + u].clone();
                }
            }
        }
        self.last[t.dst as usize] = Some(op);
    }

    pub fn build(self) -> Result<Schedule> {
        self.b.build()
    }
}
