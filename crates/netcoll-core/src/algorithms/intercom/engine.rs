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

use super::super::prog::{Done, Out};
use crate::error::{Error, Result};
use crate::schedule::{Collective, OpRef, Piece, RangeSet, ScheduleBuilder};

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

/// Where the ops go: a schedule builder (each rank's ops chained in issue order), or a
/// round sink (the streaming verifier and figures).
enum Target<'a> {
    Build {
        b: Box<ScheduleBuilder>,
        last: Vec<Option<OpRef>>,
    },
    Stream(&'a mut dyn crate::schedule::RoundSink),
}

pub struct Engine<'a> {
    target: Target<'a>,
    reduction: bool,
    /// Movement: the block of each unit. Reduction: unused.
    unit_piece: Vec<Piece>,
    /// Reduction: the block index of each unit.
    unit_index: Vec<u32>,
    /// Reduction: `over[r * U + u]`, contributors of rank r's partial result for unit u.
    over: Vec<RangeSet>,
    round: u32,
    scratch: Vec<Piece>,
}

impl<'a> Engine<'a> {
    /// An engine over `collective` whose units are `units` (block indices for reductions,
    /// `(owner, idx)` blocks for movement), ranks placed by `placement`, `bytes_per_block`.
    pub fn new(
        collective: Collective,
        units: &[(u32, u32)],
        placement: Vec<u32>,
        bytes_per_block: u64,
        out: Out<'a>,
    ) -> Result<Engine<'a>> {
        let p = collective.p;
        let reduction = collective.kind.is_reduction();
        let (mut unit_piece, mut unit_index, mut over) = (Vec::new(), Vec::new(), Vec::new());
        if reduction {
            unit_index = units.iter().map(|&(_, j)| j).collect();
            for r in 0..p {
                over.extend((0..units.len()).map(|_| RangeSet::singleton(r)));
            }
        } else {
            for &(o, i) in units {
                let Some(id) = collective.block_id(o, i) else {
                    let name = collective.kind.name();
                    return Err(Error::Spec(format!(
                        "{name} has no block (owner {o}, idx {i})"
                    )));
                };
                unit_piece.push(Piece::Block(id));
            }
        }
        let target = match out {
            Out::Build => Target::Build {
                b: Box::new(
                    ScheduleBuilder::from_collective(collective)
                        .placement(placement)
                        .packetization(bytes_per_block, 0),
                ),
                last: vec![None; p as usize],
            },
            Out::Stream(sink) => {
                sink.begin(&collective, bytes_per_block, 0);
                Target::Stream(sink)
            }
        };
        Ok(Engine {
            target,
            reduction,
            unit_piece,
            unit_index,
            over,
            round: 0,
            scratch: Vec::new(),
        })
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
            if let Target::Stream(_) = self.target {
                self.stream_round(&round);
            } else {
                self.build_round(&round);
            }
            self.round += 1;
        }
    }

    fn build_round(&mut self, round: &[Transfer]) {
        if let Target::Build { b, .. } = &mut self.target {
            b.set_round(Some(self.round));
        }
        let sends: Vec<OpRef> = round.iter().map(|t| self.send(t)).collect();
        for (t, s) in round.iter().zip(sends) {
            self.receive(t, s);
        }
    }

    /// The round to the sink: its messages (what each sender holds before the round), then
    /// each combining receiver's reduce, as [`Engine::receive`] writes them.
    fn stream_round(&mut self, round: &[Transfer]) {
        let msgs: Vec<crate::schedule::Transfer> = round
            .iter()
            .map(|t| {
                self.pieces(t.src, t.lo, t.hi);
                crate::schedule::Transfer::new(t.src, t.dst, self.scratch.clone())
            })
            .collect();
        let Target::Stream(sink) = &mut self.target else {
            return;
        };
        sink.round(self.round, &msgs);
        if !self.reduction {
            return;
        }
        let n = self.unit_index.len();
        for (t, m) in round.iter().zip(&msgs) {
            let dst = t.dst as usize * n;
            if t.combine {
                let mut inputs: Vec<Piece> = (t.lo..t.hi)
                    .map(|u| Piece::Reduced {
                        index: self.unit_index[u as usize],
                        over: self.over[dst + u as usize].clone(),
                    })
                    .collect();
                inputs.extend(m.payload.iter().cloned());
                sink.reduce(t.dst, &inputs);
            }
            for (u, piece) in (t.lo..t.hi).zip(&m.payload) {
                let Piece::Reduced { over, .. } = piece else {
                    continue;
                };
                let held = &mut self.over[dst + u as usize];
                if t.combine {
                    held.union_with(over);
                } else {
                    *held = over.clone();
                }
            }
        }
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

    /// Builder, one transfer: the send (after the sender's last op).
    fn send(&mut self, t: &Transfer) -> OpRef {
        self.pieces(t.src, t.lo, t.hi);
        let Target::Build { b, last } = &mut self.target else {
            unreachable!("send is only written to a builder")
        };
        let deps: Vec<OpRef> = last[t.src as usize].into_iter().collect();
        let s = b.send(t.src, &[t.dst], &self.scratch, &deps);
        last[t.src as usize] = Some(s);
        s
    }

    /// Builder, one transfer: the receive, and with `combine` the reduce of what came in.
    fn receive(&mut self, t: &Transfer, send: OpRef) {
        let Target::Build { b, last } = &mut self.target else {
            unreachable!("receive is only written to a builder")
        };
        let deps: Vec<OpRef> = last[t.dst as usize].into_iter().collect();
        let mut op = b.recv(t.dst, send, &deps);
        if self.reduction {
            let n = self.unit_index.len();
            let (src, dst) = (t.src as usize * n, t.dst as usize * n);
            let range = t.lo as usize..t.hi as usize;
            if t.combine {
                let piece = |r: usize, u: usize| Piece::Reduced {
                    index: self.unit_index[u],
                    over: self.over[r + u].clone(),
                };
                let mut inputs: Vec<Piece> = range.clone().map(|u| piece(dst, u)).collect();
                inputs.extend(range.clone().map(|u| piece(src, u)));
                op = b.reduce(t.dst, &inputs, &[op]);
                for u in range {
                    let from = self.over[src + u].clone();
                    self.over[dst + u].union_with(&from);
                }
            } else {
                for u in range {
                    self.over[dst + u] = self.over[src + u].clone();
                }
            }
        }
        last[t.dst as usize] = Some(op);
    }

    /// The schedule, or nothing when it was streamed.
    pub fn finish(self) -> Result<Done> {
        match self.target {
            Target::Build { b, .. } => Ok(Done::Built(Box::new(b.build()?))),
            Target::Stream(_) => Ok(Done::Streamed),
        }
    }
}
