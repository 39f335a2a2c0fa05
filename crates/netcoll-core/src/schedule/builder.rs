//! A builder that makes writing algorithms short.
//!
//! Methods never fail on the spot: a bad argument (a rank out of range, an unknown block) is
//! remembered and [`ScheduleBuilder::build`] returns it, so algorithm code reads as a plain
//! sequence of sends and receives. Mistakes of *meaning* (a missing receive, a block sent
//! before it arrives, a double-counted contributor) are not the builder's business: they build
//! fine and [`super::verify`] diagnoses them.

use super::collective::{Collective, CollectiveKind};
use super::ir::{
    packets_for, ComputeOp, Message, MsgId, Op, OpKind, OpRef, PacketRange, Schedule, Span, Worm,
};
use super::payload::{union_pieces, xor_sum, Piece};
use super::rangeset::RangeSet;
use crate::error::{Error, Result};

pub struct ScheduleBuilder {
    collective: Collective,
    placement: Option<Vec<u32>>,
    bytes_per_block: u64,
    packet_bytes: u64,
    rank_ops: Vec<Vec<Op>>,
    deps: Vec<OpRef>,
    messages: Vec<Message>,
    dests: Vec<u32>,
    pieces: Vec<Piece>,
    round: Option<u32>,
    error: Option<Error>,
    /// Message count at which the memory guard is asked again (doubling from 2^20).
    next_budget_check: usize,
    /// Set when the guard refused: every further call returns at once, so a schedule too
    /// large for memory costs the algorithm's loop, not the allocation.
    over_budget: bool,
}

/// Footprint per message of a schedule: the message, its send and receive ops, their deps,
/// destination and payload pools, and the flat copy `build` makes (a generous round figure).
pub const BYTES_PER_MESSAGE: u64 = 320;

/// Footprint per message while a schedule is being built, for the builder's own check as it
/// doubles: measured 172-178 B for the all-to-all broadcasts on 4,096 ranks (16.8 M
/// messages, 2.9-3.0 GB at the end of `build`, its flat copy included), rounded up with room
/// for the verifier's start. (`BYTES_PER_MESSAGE`, which sizes a whole schedule before it is
/// built, refused those schedules halfway although they fit a 4 GiB limit.)
pub const BYTES_PER_BUILT_MESSAGE: u64 = 224;

/// Footprint per piece a message carries, beyond [`BYTES_PER_MESSAGE`]: the piece in the
/// payload pool, the reduce op's inputs and output that take it in, the verifier's holdings
/// (measured: Rabenseifner at 1,024 ranks, 2 M pieces, 506 MB in all).
pub const BYTES_PER_PIECE: u64 = 200;

impl ScheduleBuilder {
    /// A builder for `kind` on `p` ranks with one block per owner (scatter and reduce-scatter:
    /// one block per rank). `root` is ignored by unrooted collectives.
    pub fn new(kind: CollectiveKind, p: u32, root: u32) -> Self {
        Self::from_collective(Collective::new(kind, p, root))
    }

    /// A builder for a fully specified collective. Block ids depend on it, so it is fixed here.
    pub fn from_collective(collective: Collective) -> Self {
        let error = collective.validate().err().or_else(|| {
            let what = format!("a schedule on {} ranks", collective.p);
            crate::guard::check_items(&what, collective.p as u64, 64).err()
        });
        let p = if error.is_some() {
            0
        } else {
            collective.p as usize
        };
        ScheduleBuilder {
            collective,
            placement: None,
            bytes_per_block: 1,
            packet_bytes: 0,
            rank_ops: vec![Vec::new(); p],
            deps: Vec::new(),
            messages: Vec::new(),
            dests: Vec::new(),
            pieces: Vec::new(),
            round: None,
            error,
            next_budget_check: 1 << 20,
            over_budget: false,
        }
    }

    /// Places rank `i` on endpoint `placement[i]` (default: endpoint `i`).
    pub fn placement(mut self, placement: Vec<u32>) -> Self {
        self.placement = Some(placement);
        self
    }

    /// Message size model: every piece is `bytes_per_block` bytes, packets carry at most
    /// `packet_bytes` (0: a message is one packet). Defaults: 1 byte, one packet per message.
    pub fn packetization(mut self, bytes_per_block: u64, packet_bytes: u64) -> Self {
        self.bytes_per_block = bytes_per_block;
        self.packet_bytes = packet_bytes;
        self
    }

    pub fn collective(&self) -> &Collective {
        &self.collective
    }

    /// Step given to the ops added from now on (`None`: no step).
    pub fn set_round(&mut self, round: Option<u32>) {
        self.round = round;
    }

    /// Block `(owner, idx)` as a piece.
    pub fn block(&mut self, owner: u32, idx: u32) -> Piece {
        match self.collective.block_id(owner, idx) {
            Some(id) => Piece::Block(id),
            None => {
                let name = self.collective.kind.name();
                self.fail(format!("{name} has no block (owner {owner}, idx {idx})"));
                Piece::Block(0)
            }
        }
    }

    /// The XOR of blocks `(owner, idx)`.
    pub fn xor_blocks(&mut self, blocks: &[(u32, u32)]) -> Piece {
        let ids: RangeSet = blocks
            .iter()
            .map(|&(o, i)| match self.block(o, i) {
                Piece::Block(id) => id,
                _ => 0,
            })
            .collect();
        Piece::xor(ids).unwrap_or_else(|| {
            self.fail("an XOR of no blocks (or of a block with itself) carries nothing".into());
            Piece::Block(0)
        })
    }

    /// Creates a message without sending it: for packet-range sends, or to build a schedule
    /// with a message that is never sent. Ids are given in order 0, 1, 2, ...
    pub fn message(&mut self, from: u32, to: &[u32], payload: &[Piece]) -> MsgId {
        // Refused once, refused for good: asking the guard again (it reads /proc) for every
        // later message made a refused 4,096-rank schedule take minutes to fail.
        if self.over_budget {
            return 0;
        }
        if self.messages.len() >= self.next_budget_check {
            self.check_budget();
        }
        if self.over_budget {
            return 0;
        }
        self.check_rank(from, "message source");
        self.check_dests(from, to);
        self.check_pieces(payload);
        let dests = push_pool(&mut self.dests, to);
        let payload = push_pool(&mut self.pieces, payload);
        let msg = Message {
            src: from,
            dests,
            payload,
            packets: 1,
            worm: None,
        };
        self.messages.push(msg);
        self.messages.len() as MsgId - 1
    }

    /// Makes message `msg` a multidestination worm.
    pub fn set_worm(&mut self, msg: MsgId, worm: Worm) {
        let Some(m) = self.messages.get(msg as usize) else {
            return self.fail(format!("no message {msg} to make a worm"));
        };
        let want: RangeSet = self.dests[m.dests.range()].iter().copied().collect();
        if worm.dests.iter().copied().collect::<RangeSet>() != want
            || worm.dests.len() != want.len() as usize
        {
            return self.fail(format!(
                "the worm of message {msg} must reach exactly its destinations"
            ));
        }
        let bad_tree = worm.hops.iter().enumerate().any(|(i, h)| {
            if i == 0 {
                h.parent != super::ir::WormHop::SOURCE
            } else {
                h.parent as usize >= i
            }
        });
        if bad_tree {
            return self.fail(format!(
                "the worm of message {msg} has a malformed tree: the first hop is the source's \
                 switch and every other hop names an earlier hop as its parent"
            ));
        }
        self.messages[msg as usize].worm = Some(Box::new(worm));
    }

    /// Rank `from` sends `payload` to `to` (several destinations: an NI multi-send), all packets.
    pub fn send(&mut self, from: u32, to: &[u32], payload: &[Piece], deps: &[OpRef]) -> OpRef {
        let msg = self.message(from, to, payload);
        self.send_msg(msg, PacketRange::ALL, deps)
    }

    /// The source of message `msg` injects packets `packets` of it.
    pub fn send_msg(&mut self, msg: MsgId, packets: PacketRange, deps: &[OpRef]) -> OpRef {
        let src = match self.messages.get(msg as usize) {
            Some(m) => m.src,
            None => {
                self.fail(format!("send of unknown message {msg}"));
                0
            }
        };
        self.push(src, OpKind::Send { msg, packets }, deps)
    }

    /// Rank `at` receives, whole, the message that `send` injects.
    pub fn recv(&mut self, at: u32, send: OpRef, deps: &[OpRef]) -> OpRef {
        let msg = self.msg_of(send);
        self.recv_msg(at, msg, PacketRange::ALL, deps)
    }

    /// Rank `at` receives packets `packets` of message `msg`.
    pub fn recv_msg(&mut self, at: u32, msg: MsgId, packets: PacketRange, deps: &[OpRef]) -> OpRef {
        if msg as usize >= self.messages.len() {
            self.fail(format!("rank {at} receives unknown message {msg}"));
        }
        self.push(at, OpKind::Recv { msg, packets }, deps)
    }

    /// A compute op with explicit inputs and output.
    pub fn compute(
        &mut self,
        at: u32,
        op: ComputeOp,
        inputs: &[Piece],
        output: &[Piece],
        deps: &[OpRef],
    ) -> OpRef {
        self.check_pieces(inputs);
        self.check_pieces(output);
        let inputs = push_pool(&mut self.pieces, inputs);
        let output = push_pool(&mut self.pieces, output);
        self.push(at, OpKind::Compute { op, inputs, output }, deps)
    }

    /// Local copy of `pieces`.
    pub fn copy(&mut self, at: u32, pieces: &[Piece], deps: &[OpRef]) -> OpRef {
        self.compute(at, ComputeOp::Copy, pieces, pieces, deps)
    }

    /// XOR-encodes `inputs` into one piece.
    pub fn xor(&mut self, at: u32, inputs: &[Piece], deps: &[OpRef]) -> OpRef {
        let output: Vec<Piece> = Piece::xor(xor_sum(inputs)).into_iter().collect();
        self.compute(at, ComputeOp::XorEncode, inputs, &output, deps)
    }

    /// Decodes `output` from `inputs` (for example block c from a^c and a).
    pub fn decode(&mut self, at: u32, inputs: &[Piece], output: &[Piece], deps: &[OpRef]) -> OpRef {
        self.compute(at, ComputeOp::Decode, inputs, output, deps)
    }

    /// Reduces `inputs` index by index. The output is the union of contributors even if they
    /// overlap, so that the verifier can name the double count.
    pub fn reduce(&mut self, at: u32, inputs: &[Piece], deps: &[OpRef]) -> OpRef {
        let output = union_pieces(inputs);
        self.compute(at, ComputeOp::Reduce, inputs, &output, deps)
    }

    /// Adds a dependency to an existing op (how a cycle, or a late barrier, is written).
    pub fn add_dep(&mut self, op: OpRef, dep: OpRef) {
        let Some(o) = self
            .rank_ops
            .get(op.rank as usize)
            .and_then(|v| v.get(op.index as usize))
        else {
            return self.fail(format!("no {op} to add a dependency to"));
        };
        let mut all = self.deps[o.deps.range()].to_vec();
        all.push(dep);
        let span = push_pool(&mut self.deps, &all);
        self.rank_ops[op.rank as usize][op.index as usize].deps = span;
    }

    /// Sets the step of an existing op.
    pub fn set_step(&mut self, op: OpRef, step: Option<u32>) {
        match self
            .rank_ops
            .get_mut(op.rank as usize)
            .and_then(|v| v.get_mut(op.index as usize))
        {
            Some(o) => o.step = step,
            None => self.fail(format!("no {op} to set the step of")),
        }
    }

    /// The message a send or receive op handles.
    pub fn msg_of(&mut self, op: OpRef) -> MsgId {
        match self.get(op).map(|o| &o.kind) {
            Some(OpKind::Send { msg, .. } | OpKind::Recv { msg, .. }) => *msg,
            _ => {
                self.fail(format!("{op} is not a send or receive"));
                0
            }
        }
    }

    /// What op `op` adds to its rank: a received payload or a compute output.
    pub fn value(&self, op: OpRef) -> &[Piece] {
        let span = match self.get(op).map(|o| &o.kind) {
            Some(OpKind::Compute { output, .. }) => *output,
            Some(OpKind::Recv { msg, .. }) => self
                .messages
                .get(*msg as usize)
                .map_or(Span::default(), |m| m.payload),
            _ => Span::default(),
        };
        &self.pieces[span.range()]
    }

    /// Number of ops of rank `r` so far.
    pub fn len(&self, r: u32) -> u32 {
        self.rank_ops.get(r as usize).map_or(0, |v| v.len() as u32)
    }

    pub fn is_empty(&self) -> bool {
        self.rank_ops.iter().all(Vec::is_empty)
    }

    /// The schedule, or the first malformed argument given to the builder.
    pub fn build(mut self) -> Result<Schedule> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.finish_messages();
        self.check_ops()?;
        let p = self.collective.p;
        let placement = self.placement.take().unwrap_or_else(|| (0..p).collect());
        if placement.len() != p as usize {
            return Err(Error::Spec(format!(
                "placement names {} endpoints for {p} ranks",
                placement.len()
            )));
        }
        let mut rank_start = Vec::with_capacity(p as usize + 1);
        let mut ops = Vec::with_capacity(self.rank_ops.iter().map(Vec::len).sum());
        for list in self.rank_ops {
            rank_start.push(ops.len() as u32);
            ops.extend(list);
        }
        rank_start.push(ops.len() as u32);
        Ok(Schedule {
            collective: self.collective,
            placement,
            bytes_per_block: self.bytes_per_block,
            packet_bytes: self.packet_bytes,
            rank_start,
            ops,
            deps: self.deps,
            messages: self.messages,
            dests: self.dests,
            pieces: self.pieces,
            proved: std::sync::OnceLock::new(),
        })
    }

    /// Packet counts depend on the packetization, which may be set after messages are made.
    fn finish_messages(&mut self) {
        for m in &mut self.messages {
            m.packets = packets_for(
                m.payload.len as usize,
                self.bytes_per_block,
                self.packet_bytes,
            );
        }
    }

    /// Dependencies may point forward (cycles are the verifier's to report), so they and the
    /// packet ranges are checked once all ops exist.
    fn check_ops(&self) -> Result<()> {
        for (r, list) in self.rank_ops.iter().enumerate() {
            for (i, op) in list.iter().enumerate() {
                let at = OpRef::new(r as u32, i as u32);
                for d in &self.deps[op.deps.range()] {
                    if self.get(*d).is_none() {
                        return Err(Error::Spec(format!(
                            "{at} depends on {d}, which does not exist"
                        )));
                    }
                }
                self.check_packets(at, &op.kind)?;
            }
        }
        Ok(())
    }

    fn check_packets(&self, at: OpRef, kind: &OpKind) -> Result<()> {
        let (OpKind::Send { msg, packets } | OpKind::Recv { msg, packets }) = kind else {
            return Ok(());
        };
        let n = self.messages[*msg as usize].packets;
        let (a, b) = packets.resolve(n);
        if a >= b || b > n {
            return Err(Error::Spec(format!(
                "{at} names packets {} of message {msg}, which has packets 0 to {}",
                packet_span(a, b),
                n.saturating_sub(1)
            )));
        }
        Ok(())
    }

    fn get(&self, op: OpRef) -> Option<&Op> {
        self.rank_ops.get(op.rank as usize)?.get(op.index as usize)
    }

    fn push(&mut self, at: u32, kind: OpKind, deps: &[OpRef]) -> OpRef {
        if self.over_budget || !self.check_rank(at, "op") {
            return OpRef::new(0, 0);
        }
        let deps = push_pool(&mut self.deps, deps);
        let list = &mut self.rank_ops[at as usize];
        list.push(Op {
            kind,
            deps,
            step: self.round,
        });
        OpRef::new(at, list.len() as u32 - 1)
    }

    /// Against the ranks actually allocated: none if the collective itself was invalid.
    fn check_rank(&mut self, r: u32, what: &str) -> bool {
        let ok = (r as usize) < self.rank_ops.len();
        if !ok {
            self.fail(format!("{what} on rank {r}, but p = {}", self.collective.p));
        }
        ok
    }

    fn check_dests(&mut self, from: u32, to: &[u32]) {
        if to.is_empty() {
            return self.fail(format!("rank {from} sends a message to nobody"));
        }
        let mut seen = RangeSet::new();
        for &d in to {
            if !self.check_rank(d, "destination") {
                return;
            }
            if d == from {
                return self.fail(format!("rank {from} sends a message to itself; use a copy"));
            }
            if !seen.insert(d) {
                return self.fail(format!("rank {from} lists destination {d} twice"));
            }
        }
    }

    /// Pieces must be of the collective's kind of data and name existing blocks and ranks.
    fn check_pieces(&mut self, pieces: &[Piece]) {
        for piece in pieces {
            if let Err(msg) = self.check_piece(piece) {
                return self.fail(msg);
            }
        }
    }

    fn check_piece(&self, piece: &Piece) -> std::result::Result<(), String> {
        let c = &self.collective;
        let name = c.kind.name();
        match piece {
            Piece::Reduced { .. } if !c.kind.is_reduction() => Err(format!(
                "{name} moves blocks; a reduced piece has no place in it"
            )),
            Piece::Block(_) | Piece::Xor(_) if c.kind.is_reduction() => Err(format!(
                "{name} moves partial reductions; use Piece::Reduced"
            )),
            Piece::Block(b) if *b >= c.num_blocks() => Err(format!("{name} has no block id {b}")),
            Piece::Xor(s) if s.len() < 2 || s.last().is_some_and(|b| b >= c.num_blocks()) => Err(
                format!("{name}: an XOR piece needs two or more existing blocks"),
            ),
            Piece::Reduced { index, .. } if *index >= c.num_blocks() => Err(format!(
                "{name} has no block index {index} (blocks = {})",
                c.blocks
            )),
            Piece::Reduced { over, .. } if over.last().is_none_or(|r| r >= c.p) => Err(format!(
                "{name}: a reduced piece needs contributors among ranks 0 to {}",
                c.p.saturating_sub(1)
            )),
            _ => Ok(()),
        }
    }

    /// Asks the memory guard whether the schedule may double again (the next as many
    /// messages again); stops building if not.
    fn check_budget(&mut self) {
        // The doubling adds as many messages as there are: the guard's budget is what the
        // process can still take, so the messages made so far (already mapped) are not
        // counted again. (Asking for all of them refused an all-to-all broadcast on 4,096
        // ranks under a 4 GiB limit that it fits in: 3.8 GB peak with the verifier.)
        let projected = self.next_budget_check as u64;
        let what = format!(
            "the {} schedule on {} ranks (over {} messages so far)",
            self.collective.kind.name(),
            self.collective.p,
            self.messages.len()
        );
        match crate::guard::check_items(&what, projected, BYTES_PER_BUILT_MESSAGE) {
            Ok(()) => self.next_budget_check *= 2,
            Err(e) => {
                self.error = Some(e);
                self.over_budget = true;
            }
        }
    }

    fn fail(&mut self, msg: String) {
        if self.error.is_none() {
            self.error = Some(Error::Spec(msg));
        }
    }
}

/// Packets `a..b` (b excluded) in the range convention of messages: "3 to 5", or "none (3
/// to 2)" for an empty span.
pub(crate) fn packet_span(a: u32, b: u32) -> String {
    if b > a {
        format!("{a} to {}", b - 1)
    } else {
        format!("none ({a} to {})", i64::from(b) - 1)
    }
}

fn push_pool<T: Clone>(pool: &mut Vec<T>, items: &[T]) -> Span {
    let start = pool.len() as u32;
    pool.extend_from_slice(items);
    Span {
        start,
        len: items.len() as u32,
    }
}
