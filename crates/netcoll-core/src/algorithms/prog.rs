//! A round-by-round writer of schedules in which every rank runs a sequential program.
//!
//! Each rank keeps a *front*: the last op that produced data on it (a receive or a reduce).
//! Every new op of the rank waits for its front, so data dependencies hold by construction and
//! the issue order of every rank is consistent with its dependencies. Sends do not move the
//! front: a rank may send and receive in the same round (full duplex, as in the Hockney and
//! InterCom models), and the engines serialise a rank's sends on its send port.
//!
//! A round is written as a list of transfers: all sends first (each waiting for the sender's
//! front *before* the round), then all receives, so that a ring step is one round and not a
//! chain.

use super::AlgoRequest;
use crate::error::{Error, Result};
use crate::schedule::{Collective, OpRef, Piece, RangeSet, RoundSink, Schedule, ScheduleBuilder};

pub(crate) use crate::schedule::Transfer;

/// Where a round program goes: a schedule (built, then verified and analysed by whoever
/// asked) or a [`RoundSink`] (the streaming verifier and figures: nothing is kept).
pub(crate) enum Out<'a> {
    Build,
    Stream(&'a mut dyn RoundSink),
}

/// What writing a program gave: the schedule, or nothing (it went to the sink).
pub(crate) enum Done {
    Built(Box<Schedule>),
    Streamed,
}

impl Done {
    /// The built schedule (the registry's `build` entries write with [`Out::Build`]).
    pub fn schedule(done: Result<Done>) -> Result<Schedule> {
        match done? {
            Done::Built(s) => Ok(*s),
            Done::Streamed => Err(Error::Invalid("a streamed program has no schedule".into())),
        }
    }
}

enum Target<'a> {
    Build {
        b: ScheduleBuilder,
        front: Vec<Option<OpRef>>,
    },
    Stream {
        sink: &'a mut dyn RoundSink,
        c: Collective,
        error: Option<String>,
    },
}

pub(crate) struct Prog<'a> {
    target: Target<'a>,
}

impl<'a> Prog<'a> {
    /// A program for `req`'s collective with `blocks` blocks, each `ceil(unit_bytes / blocks)`
    /// bytes (at least 1), where `unit_bytes` is what the request's `bytes` means for this
    /// collective (see [`AlgoRequest::bytes`]). Packets are `ceil(bytes / packets)` bytes, so
    /// a whole-vector message has `--packets` packets and smaller ones proportionally fewer.
    pub fn new(req: &AlgoRequest, blocks: u32, out: Out<'a>) -> Self {
        let mut c = Collective::new(req.kind, req.p, req.root);
        c.blocks = blocks.max(1);
        let bpb = req.bytes.div_ceil(c.blocks as u64).max(1);
        let packet = req.bytes.div_ceil(req.packets.max(1) as u64).max(1);
        let target = match out {
            Out::Build => Target::Build {
                b: ScheduleBuilder::from_collective(c)
                    .placement(req.placement.clone())
                    .packetization(bpb, packet),
                front: vec![None; req.p as usize],
            },
            Out::Stream(sink) => {
                sink.begin(&c, bpb, packet);
                Target::Stream {
                    sink,
                    c,
                    error: None,
                }
            }
        };
        Prog { target }
    }

    /// Writes one synchronous round: all sends (each waiting for its sender's front before
    /// the round), then all receives.
    pub fn round(&mut self, step: u32, transfers: &[Transfer]) {
        let (b, front) = match &mut self.target {
            Target::Stream { sink, .. } => return sink.round(step, transfers),
            Target::Build { b, front } => (b, front),
        };
        b.set_round(Some(step));
        let deps = |front: &[Option<OpRef>], r: u32| -> Vec<OpRef> {
            front[r as usize].into_iter().collect()
        };
        let sends: Vec<OpRef> = transfers
            .iter()
            .map(|t| b.send(t.from, &[t.to], &t.payload, &deps(front, t.from)))
            .collect();
        for (t, &s) in transfers.iter().zip(&sends) {
            let r = b.recv(t.to, s, &deps(front, t.to));
            front[t.to as usize] = Some(r);
        }
    }

    /// Rank `at` reduces `inputs` (which it must hold) into one partial per index.
    pub fn reduce(&mut self, at: u32, inputs: &[Piece]) {
        match &mut self.target {
            Target::Stream { sink, .. } => sink.reduce(at, inputs),
            Target::Build { b, front } => {
                let deps: Vec<OpRef> = front[at as usize].into_iter().collect();
                front[at as usize] = Some(b.reduce(at, inputs, &deps));
            }
        }
    }

    pub fn block(&mut self, owner: u32, idx: u32) -> Piece {
        match &mut self.target {
            Target::Build { b, .. } => b.block(owner, idx),
            Target::Stream { c, error, .. } => match c.block_id(owner, idx) {
                Some(id) => Piece::Block(id),
                None => {
                    let name = c.kind.name();
                    error.get_or_insert(format!("{name} has no block (owner {owner}, idx {idx})"));
                    Piece::Block(0)
                }
            },
        }
    }

    /// The schedule ([`Out::Build`]) or nothing ([`Out::Stream`]: the sink has it all).
    pub fn finish(self) -> Result<Done> {
        match self.target {
            Target::Build { b, .. } => Ok(Done::Built(Box::new(b.build()?))),
            Target::Stream { error: Some(e), .. } => Err(Error::Spec(e)),
            Target::Stream { .. } => Ok(Done::Streamed),
        }
    }
}

/// Per-rank partial reductions held by a reduction algorithm while it is being written:
/// `over[r][j]` is the contributor set of rank `r`'s current value of block index `j`.
pub(crate) struct Partials {
    over: Vec<Vec<RangeSet>>,
}

impl Partials {
    /// Every rank starts with its own contribution to each of `blocks` indices.
    pub fn new(p: u32, blocks: u32) -> Self {
        Partials {
            over: (0..p)
                .map(|r| vec![RangeSet::singleton(r); blocks as usize])
                .collect(),
        }
    }

    /// Rank `r`'s current values of `indices`, as pieces.
    pub fn pieces(&self, r: u32, indices: impl IntoIterator<Item = u32>) -> Vec<Piece> {
        indices
            .into_iter()
            .map(|j| Piece::Reduced {
                index: j,
                over: self.over[r as usize][j as usize].clone(),
            })
            .collect()
    }

    /// Rank `r` reduces the received `pieces` into its own values (one reduce op) in `prog`.
    pub fn absorb(&mut self, prog: &mut Prog<'_>, r: u32, pieces: &[Piece]) {
        let mut inputs = Vec::with_capacity(2 * pieces.len());
        for p in pieces {
            if let Piece::Reduced { index, over } = p {
                let own = &self.over[r as usize][*index as usize];
                inputs.push(Piece::Reduced {
                    index: *index,
                    over: own.clone(),
                });
                inputs.push(p.clone());
                self.over[r as usize][*index as usize].union_with(over);
            }
        }
        prog.reduce(r, &inputs);
    }

    /// Rank `r` receives finished values (no reduction: it takes them as they are).
    pub fn take(&mut self, r: u32, pieces: &[Piece]) {
        for p in pieces {
            if let Piece::Reduced { index, over } = p {
                self.over[r as usize][*index as usize] = over.clone();
            }
        }
    }
}

#[cfg(test)]
#[path = "prog_tests.rs"]
mod tests;
