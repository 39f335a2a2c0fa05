//! Nothing is used before it is held: every send's payload and every compute op's inputs must
//! be computable, at that op, from the rank's initial data and the values of the ops of the
//! same rank that it (transitively) waits for. Whatever else a rank may have received by then
//! in some lucky order does not count: only causality does.
//!
//! The check walks backwards from the op over predecessors (message edges included, since a
//! receive completes after its send, which may itself wait for this rank) and stops as soon
//! as the need is met. The rank's own ops are visited before any other rank's (two stacks):
//! the order does not change what the walk can reach, only how soon it finds what is needed,
//! and well-formed algorithms need what their own rank just received or computed, so walks
//! stay among a few own ops instead of wandering through the other ranks' histories. Only a
//! failing check walks the whole past, once.
//!
//! A send of some packets of a message may also forward exactly those packets of an identical
//! payload that the rank has received, before the rest arrives: first-packet-first-served
//! forwarding. Compute ops work on whole values.

use super::super::gf2::{peel, Basis};
use super::super::ir::{ComputeOp, MsgId, OpKind, PacketRange, Schedule};
use super::super::payload::{reduce_pieces, xor_sum, Piece, ReduceError};
use super::super::rangeset::RangeSet;
use super::knowledge::Knowledge;
use super::matching::Graph;
use super::Diagnosis;
use std::collections::HashSet;

pub(crate) fn check(s: &Schedule, graph: &Graph, order: &[u32]) -> Result<(), Diagnosis> {
    let mut w = Walker::new(s, graph);
    for &g in order {
        let g = g as usize;
        match s.ops[g].kind {
            OpKind::Send { msg, packets } => w.check_send(g, msg, packets)?,
            OpKind::Compute { op, .. } => {
                w.check_inputs(g, op)?;
                check_output(s, g, op)?;
            }
            OpKind::Recv { .. } => {}
        }
    }
    Ok(())
}

/// The packets of a send being checked, for the forwarding rule.
#[derive(Clone, Copy)]
struct Forward {
    msg: MsgId,
    start: u32,
    end: u32,
}

struct Walker<'a> {
    s: &'a Schedule,
    graph: &'a Graph,
    rank_of: Vec<u32>,
    /// `seen[g] == epoch` marks ops visited by the current walk: no clearing between walks.
    seen: Vec<u32>,
    epoch: u32,
    /// Ops of the walking rank still to visit, and those of other ranks (visited only once
    /// the own ones are exhausted).
    own: Vec<u32>,
    others: Vec<u32>,
    /// The rank whose op is being checked.
    walker_rank: u32,
    know: Knowledge,
    /// Packets received so far of partly received messages.
    partial: Vec<(MsgId, u32)>,
    /// Packet ranges received of a payload identical to the one being forwarded.
    forwarded: Vec<(u32, u32)>,
    /// The pieces of the need before this one are known held: what a rank holds only grows
    /// during a walk, so each check resumes here instead of rechecking the whole need.
    held_upto: usize,
}

impl<'a> Walker<'a> {
    fn new(s: &'a Schedule, graph: &'a Graph) -> Self {
        let mut rank_of = Vec::with_capacity(s.num_ops());
        for r in 0..s.p() {
            rank_of.extend(std::iter::repeat_n(r, s.ops(r).len()));
        }
        Walker {
            s,
            graph,
            rank_of,
            seen: vec![0; s.num_ops()],
            epoch: 0,
            own: Vec::new(),
            others: Vec::new(),
            walker_rank: 0,
            know: Knowledge::default(),
            partial: Vec::new(),
            forwarded: Vec::new(),
            held_upto: 0,
        }
    }

    fn check_send(&mut self, g: usize, msg: MsgId, packets: PacketRange) -> Result<(), Diagnosis> {
        let m = self.s.message(msg);
        let (start, end) = packets.resolve(m.packets);
        let forward = (!packets.is_all() && (start, end) != (0, m.packets)).then_some(Forward {
            msg,
            start,
            end,
        });
        let need = self.s.payload(m);
        let Some(i) = self.holds(g, need, forward) else {
            return Ok(());
        };
        let what = need[i].describe(self.s.collective());
        let at = self.s.op_ref(g);
        Err(match forward {
            Some(_) => format!(
                "{at} sends {what} (packets {} of message {msg}) before it holds it",
                crate::schedule::builder::packet_span(start, end)
            ),
            None => format!("{at} sends {what} before it holds it"),
        })
    }

    fn check_inputs(&mut self, g: usize, op: ComputeOp) -> Result<(), Diagnosis> {
        let need = self.s.inputs(&self.s.ops[g]);
        let Some(i) = self.holds(g, need, None) else {
            return Ok(());
        };
        let what = need[i].describe(self.s.collective());
        Err(format!(
            "{} ({}) uses {what} before it holds it",
            self.s.op_ref(g),
            op.name()
        ))
    }

    /// The first piece of `need` that op `g` cannot compute, if any.
    fn holds(&mut self, g: usize, need: &[Piece], forward: Option<Forward>) -> Option<usize> {
        let rank = self.rank_of[g];
        self.know.reset(self.s.collective(), rank);
        self.held_upto = self.know.first_missing(need, 0)?;
        self.start_walk(g, rank);
        while let Some(v) = self.own.pop().or_else(|| self.others.pop()) {
            if self.rank_of[v as usize] == rank && self.visit(v as usize, need, forward) {
                return None;
            }
            self.push_preds(v as usize);
        }
        self.know.first_missing(need, self.held_upto)
    }

    fn start_walk(&mut self, g: usize, rank: u32) {
        self.epoch += 1;
        self.walker_rank = rank;
        self.own.clear();
        self.others.clear();
        self.partial.clear();
        self.forwarded.clear();
        self.seen[g] = self.epoch;
        self.push_preds(g);
    }

    fn push_preds(&mut self, g: usize) {
        for &p in self.graph.preds(g) {
            if self.seen[p as usize] != self.epoch {
                self.seen[p as usize] = self.epoch;
                if self.rank_of[p as usize] == self.walker_rank {
                    self.own.push(p);
                } else {
                    self.others.push(p);
                }
            }
        }
    }

    /// Takes in the value of op `v` of the rank; returns whether the need is now met.
    fn visit(&mut self, v: usize, need: &[Piece], forward: Option<Forward>) -> bool {
        let s = self.s;
        match s.ops[v].kind {
            OpKind::Compute { .. } => self.know.absorb(s.value(&s.ops[v])),
            OpKind::Recv { msg, packets } => {
                if self.receive(msg, packets, forward) {
                    return true;
                }
            }
            OpKind::Send { .. } => return false,
        }
        match self.know.first_missing(need, self.held_upto) {
            Some(i) => {
                self.held_upto = i;
                false
            }
            None => true,
        }
    }

    /// Takes in a (possibly partial) receive; returns whether it completes the forwarding.
    fn receive(&mut self, msg: MsgId, packets: PacketRange, forward: Option<Forward>) -> bool {
        let m = self.s.message(msg);
        let (a, b) = packets.resolve(m.packets);
        if self.accumulate(msg, b - a, m.packets) {
            self.know.absorb(self.s.payload(m));
        }
        let Some(f) = forward else { return false };
        let fm = self.s.message(f.msg);
        if fm.packets != m.packets || self.s.payload(fm) != self.s.payload(m) {
            return false;
        }
        self.forwarded.push((a, b));
        covers(&mut self.forwarded, f.start, f.end)
    }

    /// Counts received packets of `msg`; returns whether the message is now complete.
    /// Matching has checked that one rank's ranges of a message are disjoint.
    fn accumulate(&mut self, msg: MsgId, got: u32, total: u32) -> bool {
        if got == total {
            return true;
        }
        match self.partial.iter_mut().find(|(m, _)| *m == msg) {
            Some((_, sum)) => {
                *sum += got;
                *sum == total
            }
            None => {
                self.partial.push((msg, got));
                false
            }
        }
    }
}

/// Whether the ranges cover `start..end`.
fn covers(ranges: &mut [(u32, u32)], start: u32, end: u32) -> bool {
    ranges.sort_unstable();
    let mut next = start;
    for &(a, b) in ranges.iter() {
        if a > next {
            break;
        }
        next = next.max(b);
    }
    next >= end
}

/// The output of a compute op must follow from its inputs by the op's rule.
fn check_output(s: &Schedule, g: usize, op: ComputeOp) -> Result<(), Diagnosis> {
    let (inputs, output) = (s.inputs(&s.ops[g]), s.value(&s.ops[g]));
    let at = s.op_ref(g);
    let c = s.collective();
    match op {
        ComputeOp::Copy => match output.iter().find(|p| !inputs.contains(p)) {
            Some(p) => Err(format!(
                "{at} (copy) outputs {}, which is not among its inputs",
                p.describe(c)
            )),
            None => Ok(()),
        },
        ComputeOp::XorEncode | ComputeOp::Decode => match underivable(inputs, output) {
            Some(p) => Err(format!(
                "{at} ({}) cannot derive {} from its inputs",
                op.name(),
                p.describe(c)
            )),
            None => Ok(()),
        },
        ComputeOp::Reduce => check_reduce(s, g, inputs, output),
    }
}

/// The first output piece not in the GF(2) span of the inputs. The usual outputs (the sum of
/// all inputs, an input passed on, blocks a decoder peels off its inputs one by one) are
/// settled without elimination; elimination decides whatever is left.
fn underivable<'a>(inputs: &[Piece], output: &'a [Piece]) -> Option<&'a Piece> {
    let sum = xor_sum(inputs);
    let vectors: Vec<RangeSet> = inputs.iter().filter_map(Piece::vector).collect();
    let mut peeled: Option<HashSet<u32>> = None;
    let mut basis: Option<Basis> = None;
    output.iter().find(|p| {
        let Some(v) = p.vector() else { return true };
        if v == sum || vectors.contains(&v) {
            return false;
        }
        let peeled = peeled.get_or_insert_with(|| peel(vectors.iter()));
        if v.iter().all(|b| peeled.contains(&b)) {
            return false;
        }
        let basis = basis.get_or_insert_with(|| {
            let mut b = Basis::new();
            for v in &vectors {
                b.insert(v.clone());
            }
            b
        });
        !basis.contains(&v)
    })
}

fn check_reduce(
    s: &Schedule,
    g: usize,
    inputs: &[Piece],
    output: &[Piece],
) -> Result<(), Diagnosis> {
    let at = s.op_ref(g);
    let c = s.collective();
    let want = match reduce_pieces(inputs) {
        Ok(w) => w,
        Err(ReduceError::DoubleCount { index, rank }) => {
            return Err(format!(
                "{at} reduces block index {index} counting contributor {rank} twice"
            ))
        }
        Err(ReduceError::NotReduction(i)) => {
            return Err(format!(
                "{at} reduces {}, which is not a partial reduction",
                inputs[i].describe(c)
            ))
        }
    };
    let same = output.len() == want.len() && output.iter().all(|p| want.contains(p));
    if same {
        return Ok(());
    }
    let bad = output.iter().find(|p| !want.contains(p)).or(want.first());
    let got: Vec<String> = want.iter().map(|p| p.describe(c)).collect();
    let what = bad.map_or_else(|| "nothing".to_string(), |p| p.describe(c));
    Err(format!(
        "{at} (reduce) outputs {what}, but its inputs reduce to {}",
        got.join(", ")
    ))
}
