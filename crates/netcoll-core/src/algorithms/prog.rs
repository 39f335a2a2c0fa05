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
use crate::error::Result;
use crate::schedule::{Collective, OpRef, Piece, RangeSet, Schedule, ScheduleBuilder};

pub(crate) struct Prog {
    pub b: ScheduleBuilder,
    front: Vec<Option<OpRef>>,
}

/// One message of a round: `from` sends `payload` to `to`.
pub(crate) struct Transfer {
    pub from: u32,
    pub to: u32,
    pub payload: Vec<Piece>,
}

impl Transfer {
    pub fn new(from: u32, to: u32, payload: Vec<Piece>) -> Self {
        Transfer { from, to, payload }
    }
}

impl Prog {
    /// A program for `req`'s collective with `blocks` blocks, each `ceil(unit_bytes / blocks)`
    /// bytes (at least 1), where `unit_bytes` is what the request's `bytes` means for this
    /// collective (see [`AlgoRequest::bytes`]). Packets are `ceil(bytes / packets)` bytes, so
    /// a whole-vector message has `--packets` packets and smaller ones proportionally fewer.
    pub fn new(req: &AlgoRequest, blocks: u32) -> Self {
        let mut c = Collective::new(req.kind, req.p, req.root);
        c.blocks = blocks.max(1);
        let bpb = req.bytes.div_ceil(c.blocks as u64).max(1);
        let packet = req.bytes.div_ceil(req.packets.max(1) as u64).max(1);
        let b = ScheduleBuilder::from_collective(c)
            .placement(req.placement.clone())
            .packetization(bpb, packet);
        Prog {
            b,
            front: vec![None; req.p as usize],
        }
    }

    fn deps(&self, r: u32) -> Vec<OpRef> {
        self.front[r as usize].into_iter().collect()
    }

    /// Writes one synchronous round; returns the receive op of each transfer, in order.
    pub fn round(&mut self, step: u32, transfers: &[Transfer]) -> Vec<OpRef> {
        self.b.set_round(Some(step));
        let sends: Vec<OpRef> = transfers
            .iter()
            .map(|t| {
                let deps = self.deps(t.from);
                self.b.send(t.from, &[t.to], &t.payload, &deps)
            })
            .collect();
        let recvs: Vec<OpRef> = transfers
            .iter()
            .zip(&sends)
            .map(|(t, &s)| {
                let deps = self.deps(t.to);
                let r = self.b.recv(t.to, s, &deps);
                self.front[t.to as usize] = Some(r);
                r
            })
            .collect();
        recvs
    }

    /// Rank `at` reduces `inputs` (which it must hold) into one partial per index.
    pub fn reduce(&mut self, at: u32, inputs: &[Piece]) -> OpRef {
        let deps = self.deps(at);
        let op = self.b.reduce(at, inputs, &deps);
        self.front[at as usize] = Some(op);
        op
    }

    pub fn block(&mut self, owner: u32, idx: u32) -> Piece {
        self.b.block(owner, idx)
    }

    pub fn build(self) -> Result<Schedule> {
        self.b.build()
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
    pub fn absorb(&mut self, prog: &mut Prog, r: u32, pieces: &[Piece]) {
        let mut inputs = Vec::with_capacity(2 * pieces.len());
        for p in pieces {
            if let Piece::Reduced { index, over } = p {
                inputs.extend(self.pieces(r, [*index]));
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
