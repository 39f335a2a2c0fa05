//! The schedule IR: per rank, an ordered list of operations with explicit dependencies, plus
//! a table of messages.
//!
//! Storage is flat so that a schedule of millions of operations is a handful of vectors: all
//! operations of all ranks in one `Vec<Op>` (rank `r` owns `ops[rank_start[r]..rank_start[r+1]]`),
//! and the variable-length parts (dependencies, destinations, pieces) in shared pools that an
//! op or message addresses with a [`Span`]. Fields are private so that every span is valid: a
//! schedule is only made by [`super::ScheduleBuilder`] (or from JSON, which uses it).

use super::collective::Collective;
use super::payload::Piece;

/// An operation, named by its rank and its index in that rank's list. Dependencies use this
/// pair so that ranks can be generated independently and a reader sees who waits for whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OpRef {
    pub rank: u32,
    pub index: u32,
}

impl OpRef {
    pub fn new(rank: u32, index: u32) -> Self {
        OpRef { rank, index }
    }
}

impl std::fmt::Display for OpRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "rank {} op {}", self.rank, self.index)
    }
}

/// A message: index into [`Schedule::messages`].
pub type MsgId = u32;

/// A half-open range of packets of a message. [`PacketRange::ALL`] stands for every packet
/// whatever their number, so schedules without pipelining never mention packets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PacketRange {
    pub start: u32,
    pub end: u32,
}

impl PacketRange {
    pub const ALL: PacketRange = PacketRange {
        start: 0,
        end: u32::MAX,
    };

    pub fn new(start: u32, end: u32) -> Self {
        PacketRange { start, end }
    }

    /// Packet `i` alone.
    pub fn one(i: u32) -> Self {
        PacketRange {
            start: i,
            end: i.saturating_add(1),
        }
    }

    pub fn is_all(self) -> bool {
        self == Self::ALL
    }

    /// The concrete range for a message of `n` packets.
    pub fn resolve(self, n: u32) -> (u32, u32) {
        if self.is_all() {
            (0, n)
        } else {
            (self.start, self.end)
        }
    }
}

/// A local computation. Its inputs are pieces the rank must already hold; its output is what
/// it adds to the rank's buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ComputeOp {
    /// Output equals the inputs (a local buffer copy, costed by engines).
    Copy,
    /// Index-wise reduction of partial reductions; contributors must be disjoint.
    Reduce,
    /// XOR encoding: every output piece is a GF(2) combination of the inputs.
    XorEncode,
    /// XOR decoding: same rule as encoding; named apart because engines cost it apart.
    Decode,
}

impl ComputeOp {
    pub fn name(self) -> &'static str {
        match self {
            ComputeOp::Copy => "copy",
            ComputeOp::Reduce => "reduce",
            ComputeOp::XorEncode => "xor_encode",
            ComputeOp::Decode => "decode",
        }
    }
}

/// Where an op's or a message's variable-length part lies in the schedule's shared pools;
/// opaque: read the part with the [`Schedule`] accessors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    pub(crate) start: u32,
    pub(crate) len: u32,
}

impl Span {
    pub(crate) fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

#[derive(Clone, Debug)]
pub enum OpKind {
    /// Injects packets `packets` of message `msg`; the op's rank is the message's source.
    Send { msg: MsgId, packets: PacketRange },
    /// Waits for packets `packets` of message `msg`; the op's rank is one of its destinations.
    Recv { msg: MsgId, packets: PacketRange },
    Compute {
        op: ComputeOp,
        inputs: Span,
        output: Span,
    },
}

#[derive(Clone, Debug)]
pub struct Op {
    pub kind: OpKind,
    pub(crate) deps: Span,
    /// Synchronous round for step-model engines, if the algorithm has rounds.
    pub step: Option<u32>,
}

/// A switch-replicated multidestination worm: its destination ranks, the switches it visits,
/// and (when an algorithm knows it) its replication tree and header size, so that an engine
/// can replay it switch by switch. The verifier only checks that it covers the message's
/// destinations; `algorithms::worms::check_worm` checks a tree against a topology.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Worm {
    pub dests: Vec<u32>,
    /// Switch ids in visit order (for a tree: `hops[i].switch`); a switch may appear twice
    /// when the worm goes up through it and later comes back down.
    pub route: Vec<u32>,
    /// The replication tree, one entry per switch visit, every parent before its children;
    /// empty when unknown.
    pub hops: Vec<WormHop>,
    /// Header size in bits (0: not modelled).
    pub header_bits: u32,
}

/// One visit of a worm copy to a switch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WormHop {
    pub switch: u32,
    /// Index in [`Worm::hops`] of the visit that forwarded this copy; [`WormHop::SOURCE`] for
    /// the source's switch (the copy came from the source endpoint).
    pub parent: u32,
    /// Local port at `switch` by which the copy arrived.
    pub in_port: u32,
    /// Local ports the copy is replicated to (switch links and endpoints), ascending.
    pub out_ports: Vec<u32>,
}

impl WormHop {
    pub const SOURCE: u32 = u32::MAX;
}

/// One message: a payload from one source to one or more destinations. More than one
/// destination is an NI multi-send (or a worm, if `worm` is set). It may be injected by several
/// send ops and taken by several recv ops per destination, each covering a packet range.
#[derive(Clone, Debug)]
pub struct Message {
    pub src: u32,
    pub(crate) dests: Span,
    pub(crate) payload: Span,
    /// Number of packets, from the payload size and the schedule's packet size.
    pub packets: u32,
    pub worm: Option<Box<Worm>>,
}

/// Equality is semantic (same collective, ops, messages and payloads), not pool layout: a
/// schedule read back from JSON equals the one written.
#[derive(Clone, Debug)]
pub struct Schedule {
    pub(crate) collective: Collective,
    pub(crate) placement: Vec<u32>,
    pub(crate) bytes_per_block: u64,
    pub(crate) packet_bytes: u64,
    pub(crate) rank_start: Vec<u32>,
    pub(crate) ops: Vec<Op>,
    pub(crate) deps: Vec<OpRef>,
    pub(crate) messages: Vec<Message>,
    pub(crate) dests: Vec<u32>,
    pub(crate) pieces: Vec<Piece>,
    /// The verifier's verdict, once it has run (`verify` records it; the schedule is
    /// immutable, so it never goes stale): engines ask `is_correct` without proving twice.
    pub(crate) proved: std::sync::OnceLock<bool>,
}

impl Schedule {
    pub fn collective(&self) -> &Collective {
        &self.collective
    }

    /// Number of ranks.
    pub fn p(&self) -> u32 {
        self.collective.p
    }

    /// Endpoint of every rank (default: rank i on endpoint i).
    pub fn placement(&self) -> &[u32] {
        &self.placement
    }

    pub fn bytes_per_block(&self) -> u64 {
        self.bytes_per_block
    }

    /// Maximum packet size in bytes; 0 means one packet per message.
    pub fn packet_bytes(&self) -> u64 {
        self.packet_bytes
    }

    /// Operations of rank `r`, in issue order.
    pub fn ops(&self, r: u32) -> &[Op] {
        &self.ops[self.rank_start[r as usize] as usize..self.rank_start[r as usize + 1] as usize]
    }

    pub fn op(&self, at: OpRef) -> &Op {
        &self.ops[self.global(at)]
    }

    /// Total number of operations.
    pub fn num_ops(&self) -> usize {
        self.ops.len()
    }

    pub fn deps(&self, op: &Op) -> &[OpRef] {
        &self.deps[op.deps.range()]
    }

    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    pub fn message(&self, m: MsgId) -> &Message {
        &self.messages[m as usize]
    }

    pub fn dests(&self, m: &Message) -> &[u32] {
        &self.dests[m.dests.range()]
    }

    pub fn payload(&self, m: &Message) -> &[Piece] {
        &self.pieces[m.payload.range()]
    }

    /// Inputs of a compute op (empty for sends and receives).
    pub fn inputs(&self, op: &Op) -> &[Piece] {
        match op.kind {
            OpKind::Compute { inputs, .. } => &self.pieces[inputs.range()],
            _ => &[],
        }
    }

    /// What an op adds to its rank's buffer: a compute op's output or a received payload.
    pub fn value(&self, op: &Op) -> &[Piece] {
        match op.kind {
            OpKind::Compute { output, .. } => &self.pieces[output.range()],
            OpKind::Recv { msg, .. } => self.payload(self.message(msg)),
            OpKind::Send { .. } => &[],
        }
    }

    /// Position of an op in the flat order (ranks in turn).
    pub fn global(&self, at: OpRef) -> usize {
        self.rank_start[at.rank as usize] as usize + at.index as usize
    }

    /// Inverse of [`Schedule::global`].
    pub fn op_ref(&self, g: usize) -> OpRef {
        let rank = self.rank_start.partition_point(|&s| s as usize <= g) - 1;
        OpRef::new(rank as u32, (g - self.rank_start[rank] as usize) as u32)
    }

    /// Packets of a message with `pieces` pieces under this schedule's packet size.
    pub fn packets_for(&self, pieces: usize) -> u32 {
        packets_for(pieces, self.bytes_per_block, self.packet_bytes)
    }
}

impl PartialEq for Schedule {
    fn eq(&self, other: &Self) -> bool {
        self.collective == other.collective
            && self.placement == other.placement
            && (self.bytes_per_block, self.packet_bytes)
                == (other.bytes_per_block, other.packet_bytes)
            && self.rank_start == other.rank_start
            && self.messages.len() == other.messages.len()
            && self
                .messages
                .iter()
                .zip(&other.messages)
                .all(|(a, b)| self.same_message(a, other, b))
            && self
                .ops
                .iter()
                .zip(&other.ops)
                .all(|(a, b)| self.same_op(a, other, b))
    }
}

impl Eq for Schedule {}

impl Schedule {
    fn same_message(&self, a: &Message, other: &Schedule, b: &Message) -> bool {
        (a.src, a.packets, &a.worm) == (b.src, b.packets, &b.worm)
            && self.dests(a) == other.dests(b)
            && self.payload(a) == other.payload(b)
    }

    fn same_op(&self, a: &Op, other: &Schedule, b: &Op) -> bool {
        let kinds = match (&a.kind, &b.kind) {
            (OpKind::Send { msg: m, packets: p }, OpKind::Send { msg: n, packets: q })
            | (OpKind::Recv { msg: m, packets: p }, OpKind::Recv { msg: n, packets: q }) => {
                (m, p) == (n, q)
            }
            (OpKind::Compute { op: x, .. }, OpKind::Compute { op: y, .. }) => {
                x == y && self.inputs(a) == other.inputs(b) && self.value(a) == other.value(b)
            }
            _ => false,
        };
        kinds && a.step == b.step && self.deps(a) == other.deps(b)
    }
}

/// A message of `pieces` blocks of `bytes_per_block` bytes in packets of at most
/// `packet_bytes` (0: unbounded) has this many packets, at least one.
pub(crate) fn packets_for(pieces: usize, bytes_per_block: u64, packet_bytes: u64) -> u32 {
    let bytes = pieces as u64 * bytes_per_block;
    if packet_bytes == 0 || bytes == 0 {
        return 1;
    }
    bytes.div_ceil(packet_bytes).min(u32::MAX as u64 - 1) as u32
}
