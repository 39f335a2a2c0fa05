//! Send/receive matching, packet by packet, and the dependency graph it implies.
//!
//! Every packet of a message must be injected by exactly one send op of its source and taken
//! by exactly one receive op at each destination. Ranges are sorted and scanned, so the cost
//! is O(ops log ops) whatever the packet counts. A receive then waits, besides its explicit
//! dependencies, for the send ops that inject its packets: these are the message edges.

use super::super::ir::{MsgId, OpKind, Schedule};
use super::Diagnosis;

/// A send or receive op: packets `start..end` of message `msg`, op `g` on rank `rank`.
#[derive(Clone, Copy, Debug)]
struct Piece {
    msg: MsgId,
    rank: u32,
    start: u32,
    end: u32,
    g: u32,
}

/// Predecessors of every op (global index): explicit dependencies, then message edges.
pub(crate) struct Graph {
    start: Vec<u32>,
    preds: Vec<u32>,
}

impl Graph {
    pub fn preds(&self, g: usize) -> &[u32] {
        &self.preds[self.start[g] as usize..self.start[g + 1] as usize]
    }

    pub fn len(&self) -> usize {
        self.start.len() - 1
    }
}

/// Checks the matching and returns the dependency graph.
pub(crate) fn check(s: &Schedule) -> Result<Graph, Diagnosis> {
    let (mut sends, mut recvs) = collect(s);
    sends.sort_unstable_by_key(|x| (x.msg, x.start, x.g));
    recvs.sort_unstable_by_key(|x| (x.msg, x.rank, x.start, x.g));
    let mut edges = Vec::new();
    let (mut i, mut j) = (0, 0);
    for m in 0..s.messages().len() as MsgId {
        let i_end = i + sends[i..].partition_point(|x| x.msg == m);
        let j_end = j + recvs[j..].partition_point(|x| x.msg == m);
        check_message(s, m, &sends[i..i_end], &recvs[j..j_end])?;
        message_edges(&sends[i..i_end], &recvs[j..j_end], &mut edges);
        (i, j) = (i_end, j_end);
    }
    Ok(graph(s, edges))
}

fn collect(s: &Schedule) -> (Vec<Piece>, Vec<Piece>) {
    let (mut sends, mut recvs) = (Vec::new(), Vec::new());
    for (g, op) in s.ops.iter().enumerate() {
        let (OpKind::Send { msg, packets } | OpKind::Recv { msg, packets }) = op.kind else {
            continue;
        };
        let (start, end) = packets.resolve(s.message(msg).packets);
        let rank = s.op_ref(g).rank;
        let piece = Piece {
            msg,
            rank,
            start,
            end,
            g: g as u32,
        };
        match op.kind {
            OpKind::Send { .. } => sends.push(piece),
            _ => recvs.push(piece),
        }
    }
    (sends, recvs)
}

fn check_message(
    s: &Schedule,
    m: MsgId,
    sends: &[Piece],
    recvs: &[Piece],
) -> Result<(), Diagnosis> {
    let msg = s.message(m);
    let dests = s.dests(msg);
    if let Some(r) = recvs.iter().find(|r| !dests.contains(&r.rank)) {
        return Err(format!(
            "{} receives message {m}, but rank {} sends it to {} only",
            s.op_ref(r.g as usize),
            msg.src,
            ranks(dests)
        ));
    }
    if sends.is_empty() {
        return Err(match recvs.first() {
            Some(r) => format!(
                "{} receives message {m} from rank {}, which is never sent",
                s.op_ref(r.g as usize),
                msg.src
            ),
            None => format!(
                "message {m} from rank {} to {} is never sent",
                msg.src,
                ranks(dests)
            ),
        });
    }
    check_sends(s, m, sends)?;
    for &d in dests {
        let lo = recvs.partition_point(|r| r.rank < d);
        let hi = recvs.partition_point(|r| r.rank <= d);
        check_recvs(s, m, d, &recvs[lo..hi])?;
    }
    Ok(())
}

/// The send ranges of a message must tile its packets.
fn check_sends(s: &Schedule, m: MsgId, sends: &[Piece]) -> Result<(), Diagnosis> {
    let msg = s.message(m);
    match tiling(sends, msg.packets) {
        Tiling::Gap(p) => Err(format!(
            "rank {} never sends packet {p} of message {m} (of {} packets)",
            msg.src, msg.packets
        )),
        Tiling::Overlap(p, a, b) => Err(format!(
            "rank {} sends packet {p} of message {m} twice (ops {} and {})",
            msg.src,
            s.op_ref(a as usize).index,
            s.op_ref(b as usize).index
        )),
        Tiling::Exact => Ok(()),
    }
}

/// The receive ranges of each destination must tile the packets too.
fn check_recvs(s: &Schedule, m: MsgId, d: u32, recvs: &[Piece]) -> Result<(), Diagnosis> {
    let msg = s.message(m);
    match tiling(recvs, msg.packets) {
        Tiling::Gap(_) if recvs.is_empty() => Err(format!(
            "rank {d} never receives message {m} from rank {}",
            msg.src
        )),
        Tiling::Gap(p) => Err(format!(
            "rank {d} never receives packet {p} of message {m} from rank {}",
            msg.src
        )),
        Tiling::Overlap(p, a, b) => Err(format!(
            "rank {d} receives packet {p} of message {m} twice (ops {} and {})",
            s.op_ref(a as usize).index,
            s.op_ref(b as usize).index
        )),
        Tiling::Exact => Ok(()),
    }
}

enum Tiling {
    Exact,
    /// First packet not covered.
    Gap(u32),
    /// First packet covered twice, with the two ops.
    Overlap(u32, u32, u32),
}

/// How ranges sorted by start cover `0..n`.
fn tiling(ranges: &[Piece], n: u32) -> Tiling {
    let mut next = 0;
    let mut last_g = 0;
    for r in ranges {
        if r.start > next {
            return Tiling::Gap(next);
        }
        if r.start < next {
            return Tiling::Overlap(r.start, last_g, r.g);
        }
        next = r.end;
        last_g = r.g;
    }
    if next < n {
        Tiling::Gap(next)
    } else {
        Tiling::Exact
    }
}

/// (receive, send) pairs: each receive waits for the sends of the packets it takes.
fn message_edges(sends: &[Piece], recvs: &[Piece], edges: &mut Vec<(u32, u32)>) {
    for r in recvs {
        let first = sends.partition_point(|x| x.end <= r.start);
        for x in sends[first..].iter().take_while(|x| x.start < r.end) {
            edges.push((r.g, x.g));
        }
    }
}

fn graph(s: &Schedule, mut edges: Vec<(u32, u32)>) -> Graph {
    edges.sort_unstable();
    let n = s.num_ops();
    let mut start = Vec::with_capacity(n + 1);
    let mut preds = Vec::with_capacity(s.deps.len() + edges.len());
    let mut e = 0;
    for (g, op) in s.ops.iter().enumerate() {
        start.push(preds.len() as u32);
        preds.extend(s.deps(op).iter().map(|d| s.global(*d) as u32));
        while e < edges.len() && edges[e].0 as usize == g {
            preds.push(edges[e].1);
            e += 1;
        }
    }
    start.push(preds.len() as u32);
    Graph { start, preds }
}

/// `rank 3` or `ranks [1, 2]`.
fn ranks(rs: &[u32]) -> String {
    match rs {
        [r] => format!("rank {r}"),
        _ => format!("ranks {rs:?}"),
    }
}
