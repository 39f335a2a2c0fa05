//! The JSON format of a schedule, `{"format": "netcoll-schedule", "version": 1, ...}`.
//!
//! The wire structs below are the documented format (docs/schedule.md), kept apart from the
//! in-memory layout so that either can change without the other. Blocks are written as
//! `[owner, idx]` and ops as `[rank, index]`, as a person reads them. Reading goes through the
//! builder, so a file is checked exactly like a schedule built in code.

use serde::{Deserialize, Serialize};

use super::builder::ScheduleBuilder;
use super::collective::{Collective, CollectiveKind};
use super::ir::{ComputeOp, MsgId, OpKind, OpRef, PacketRange, Schedule, Worm, WormHop};
use super::payload::Piece;
use crate::error::{Error, Result};
use crate::spec_err;

/// The `format` field of every schedule file.
pub const FORMAT: &str = "netcoll-schedule";
/// The version this build writes and reads.
pub const VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Wire {
    format: String,
    version: u32,
    collective: WireCollective,
    placement: Vec<u32>,
    bytes_per_block: u64,
    packet_bytes: u64,
    messages: Vec<WireMessage>,
    ranks: Vec<Vec<WireOp>>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WireCollective {
    kind: CollectiveKind,
    p: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    root: Option<u32>,
    blocks: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    targets: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    sources: Vec<u32>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WireMessage {
    src: u32,
    dst: Vec<u32>,
    payload: Vec<WirePiece>,
    /// Written for readers; checked, not trusted, on reading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    packets: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    worm: Option<WireWorm>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WireWorm {
    dests: Vec<u32>,
    route: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    hops: Vec<WireHop>,
    #[serde(default, skip_serializing_if = "is_zero")]
    header_bits: u32,
}

fn is_zero(x: &u32) -> bool {
    *x == 0
}

/// A worm hop: `parent` is absent at the source's switch.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WireHop {
    switch: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    parent: Option<u32>,
    #[serde(rename = "in")]
    in_port: u32,
    out: Vec<u32>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum WirePiece {
    Block([u32; 2]),
    Xor(Vec<[u32; 2]>),
    Reduced { index: u32, over: Vec<u32> },
}

#[derive(Serialize, Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum WireOpName {
    Send,
    Recv,
    Copy,
    Reduce,
    XorEncode,
    Decode,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WireOp {
    op: WireOpName,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    msg: Option<MsgId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    packets: Option<[u32; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    inputs: Option<Vec<WirePiece>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    output: Option<Vec<WirePiece>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    deps: Vec<[u32; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    step: Option<u32>,
}

impl Schedule {
    /// Compact JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(&to_wire(self)).expect("schedule wire structs always serialise")
    }

    /// Indented JSON, for people.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(&to_wire(self))
            .expect("schedule wire structs always serialise")
    }

    /// Reads a schedule written by [`Schedule::to_json`] (or by hand, following the format).
    pub fn from_json(text: &str) -> Result<Schedule> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| Error::Io(format!("schedule JSON: {e}")))?;
        check_header(&value)?;
        let wire: Wire = serde_json::from_value(value)
            .map_err(|e| Error::Io(format!("netcoll-schedule v{VERSION}: {e}")))?;
        from_wire(wire)
    }
}

/// Format and version first, so an old or foreign file gets a message about that.
fn check_header(v: &serde_json::Value) -> Result<()> {
    if v.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
        return Err(Error::Io(format!(
            "not a schedule file: \"format\" must be \"{FORMAT}\""
        )));
    }
    match v.get("version").and_then(|x| x.as_u64()) {
        Some(x) if x == VERSION as u64 => Ok(()),
        Some(x) => Err(Error::Io(format!(
            "{FORMAT} version {x} is not supported (this build reads version {VERSION})"
        ))),
        None => Err(Error::Io(format!("{FORMAT}: \"version\" must be a number"))),
    }
}

fn to_wire(s: &Schedule) -> Wire {
    let c = s.collective();
    Wire {
        format: FORMAT.to_string(),
        version: VERSION,
        collective: WireCollective {
            kind: c.kind,
            p: c.p,
            root: c.kind.is_rooted().then_some(c.root),
            blocks: c.blocks,
            targets: c.targets.clone(),
            sources: c.sources.clone(),
        },
        placement: s.placement().to_vec(),
        bytes_per_block: s.bytes_per_block(),
        packet_bytes: s.packet_bytes(),
        messages: s.messages().iter().map(|m| wire_message(s, m)).collect(),
        ranks: (0..s.p())
            .map(|r| s.ops(r).iter().map(|op| wire_op(s, op)).collect())
            .collect(),
    }
}

fn wire_message(s: &Schedule, m: &super::ir::Message) -> WireMessage {
    WireMessage {
        src: m.src,
        dst: s.dests(m).to_vec(),
        payload: wire_pieces(s.collective(), s.payload(m)),
        packets: Some(m.packets),
        worm: m.worm.as_ref().map(|w| WireWorm {
            dests: w.dests.clone(),
            route: w.route.clone(),
            hops: w
                .hops
                .iter()
                .map(|h| WireHop {
                    switch: h.switch,
                    parent: (h.parent != WormHop::SOURCE).then_some(h.parent),
                    in_port: h.in_port,
                    out: h.out_ports.clone(),
                })
                .collect(),
            header_bits: w.header_bits,
        }),
    }
}

fn wire_op(s: &Schedule, op: &super::ir::Op) -> WireOp {
    let mut w = WireOp {
        op: WireOpName::Send,
        msg: None,
        packets: None,
        inputs: None,
        output: None,
        deps: s.deps(op).iter().map(|d| [d.rank, d.index]).collect(),
        step: op.step,
    };
    match op.kind {
        OpKind::Send { msg, packets } | OpKind::Recv { msg, packets } => {
            w.op = if matches!(op.kind, OpKind::Send { .. }) {
                WireOpName::Send
            } else {
                WireOpName::Recv
            };
            w.msg = Some(msg);
            w.packets = (!packets.is_all()).then_some([packets.start, packets.end]);
        }
        OpKind::Compute { op: kind, .. } => {
            w.op = wire_compute_name(kind);
            w.inputs = Some(wire_pieces(s.collective(), s.inputs(op)));
            w.output = Some(wire_pieces(s.collective(), s.value(op)));
        }
    }
    w
}

fn wire_compute_name(op: ComputeOp) -> WireOpName {
    match op {
        ComputeOp::Copy => WireOpName::Copy,
        ComputeOp::Reduce => WireOpName::Reduce,
        ComputeOp::XorEncode => WireOpName::XorEncode,
        ComputeOp::Decode => WireOpName::Decode,
    }
}

fn wire_pieces(c: &Collective, pieces: &[Piece]) -> Vec<WirePiece> {
    pieces.iter().map(|p| wire_piece(c, p)).collect()
}

fn wire_piece(c: &Collective, p: &Piece) -> WirePiece {
    let pair = |b| {
        let (o, i) = c.block_of(b);
        [o, i]
    };
    match p {
        Piece::Block(b) => WirePiece::Block(pair(*b)),
        Piece::Xor(s) => WirePiece::Xor(s.iter().map(pair).collect()),
        Piece::Reduced { index, over } => WirePiece::Reduced {
            index: *index,
            over: over.iter().collect(),
        },
    }
}

fn from_wire(w: Wire) -> Result<Schedule> {
    let c = read_collective(w.collective)?;
    if w.ranks.len() != c.p as usize {
        return spec_err!("\"ranks\" lists {} ranks for p = {}", w.ranks.len(), c.p);
    }
    let mut b = ScheduleBuilder::from_collective(c.clone())
        .placement(w.placement)
        .packetization(w.bytes_per_block, w.packet_bytes);
    let mut srcs = Vec::with_capacity(w.messages.len());
    for (m, wm) in w.messages.iter().enumerate() {
        srcs.push(wm.src);
        read_message(&mut b, &c, m as MsgId, wm)?;
    }
    for (r, ops) in w.ranks.iter().enumerate() {
        for (i, op) in ops.iter().enumerate() {
            read_op(&mut b, &c, &srcs, OpRef::new(r as u32, i as u32), op)?;
        }
    }
    let s = b.build()?;
    check_packet_counts(&s, &w.messages)?;
    Ok(s)
}

fn read_collective(w: WireCollective) -> Result<Collective> {
    if w.kind.is_rooted() && w.root.is_none() {
        return spec_err!("a {} needs a \"root\"", w.kind.name());
    }
    let c = Collective {
        kind: w.kind,
        p: w.p,
        root: w.root.unwrap_or(0),
        blocks: w.blocks,
        targets: w.targets,
        sources: w.sources,
    };
    c.validate()?;
    Ok(c)
}

fn read_message(b: &mut ScheduleBuilder, c: &Collective, m: MsgId, w: &WireMessage) -> Result<()> {
    let payload =
        read_pieces(c, &w.payload).map_err(|e| Error::Spec(format!("message {m}: {e}")))?;
    b.message(w.src, &w.dst, &payload);
    if let Some(worm) = &w.worm {
        b.set_worm(
            m,
            Worm {
                dests: worm.dests.clone(),
                route: worm.route.clone(),
                hops: worm
                    .hops
                    .iter()
                    .map(|h| WormHop {
                        switch: h.switch,
                        parent: h.parent.unwrap_or(WormHop::SOURCE),
                        in_port: h.in_port,
                        out_ports: h.out.clone(),
                    })
                    .collect(),
                header_bits: worm.header_bits,
            },
        );
    }
    Ok(())
}

fn read_op(
    b: &mut ScheduleBuilder,
    c: &Collective,
    srcs: &[u32],
    at: OpRef,
    w: &WireOp,
) -> Result<()> {
    let deps: Vec<OpRef> = w.deps.iter().map(|&[r, i]| OpRef::new(r, i)).collect();
    let packets = w
        .packets
        .map_or(PacketRange::ALL, |[a, z]| PacketRange::new(a, z));
    b.set_round(w.step);
    match w.op {
        WireOpName::Send | WireOpName::Recv => {
            let Some(msg) = w.msg else {
                return spec_err!("{at}: a send or recv needs \"msg\"");
            };
            let Some(&src) = srcs.get(msg as usize) else {
                return spec_err!("{at}: no message {msg}");
            };
            if w.op == WireOpName::Recv {
                b.recv_msg(at.rank, msg, packets, &deps);
            } else if src != at.rank {
                return spec_err!("{at} sends message {msg}, whose source is rank {src}");
            } else {
                b.send_msg(msg, packets, &deps);
            }
        }
        name => {
            let (Some(inputs), Some(output)) = (&w.inputs, &w.output) else {
                return spec_err!("{at}: a compute op needs \"inputs\" and \"output\"");
            };
            let inputs = read_pieces(c, inputs).map_err(|e| Error::Spec(format!("{at}: {e}")))?;
            let output = read_pieces(c, output).map_err(|e| Error::Spec(format!("{at}: {e}")))?;
            b.compute(at.rank, compute_op(name), &inputs, &output, &deps);
        }
    }
    Ok(())
}

fn compute_op(name: WireOpName) -> ComputeOp {
    match name {
        WireOpName::Reduce => ComputeOp::Reduce,
        WireOpName::XorEncode => ComputeOp::XorEncode,
        WireOpName::Decode => ComputeOp::Decode,
        _ => ComputeOp::Copy,
    }
}

fn read_pieces(c: &Collective, pieces: &[WirePiece]) -> Result<Vec<Piece>> {
    pieces.iter().map(|p| read_piece(c, p)).collect()
}

fn read_piece(c: &Collective, p: &WirePiece) -> Result<Piece> {
    let id = |[o, i]: [u32; 2]| match c.block_id(o, i) {
        Some(b) => Ok(b),
        None => spec_err!("{} has no block [{o}, {i}]", c.kind.name()),
    };
    match p {
        WirePiece::Block(pair) => Ok(Piece::Block(id(*pair)?)),
        WirePiece::Xor(pairs) => {
            let ids = pairs.iter().map(|p| id(*p)).collect::<Result<Vec<_>>>()?;
            let set: super::rangeset::RangeSet = ids.iter().copied().collect();
            if set.len() as usize != ids.len() || ids.len() < 2 {
                return spec_err!("an \"xor\" lists two or more distinct blocks");
            }
            Ok(Piece::Xor(set))
        }
        WirePiece::Reduced { index, over } => Ok(Piece::reduced(*index, over.iter().copied())),
    }
}

/// A `packets` field, where given, must agree with the packetization.
fn check_packet_counts(s: &Schedule, wire: &[WireMessage]) -> Result<()> {
    for (m, w) in wire.iter().enumerate() {
        let have = s.message(m as MsgId).packets;
        if let Some(n) = w.packets.filter(|&n| n != have) {
            return spec_err!("message {m} says {n} packets, but its payload makes {have}");
        }
    }
    Ok(())
}
