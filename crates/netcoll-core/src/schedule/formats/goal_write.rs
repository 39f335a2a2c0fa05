//! Our schedules as GOAL: what LogGOPSim's `txt2bin` reads and our LogGOPS engine runs.
//!
//! Every send op becomes one GOAL `send` per destination (GOAL has no multi-send), every
//! receive a `recv`, every compute op a `calc` of time `calc_time` (GOAL charges computation
//! as CPU time; netcoll's engines cost compute themselves). Message `m` travels with tag `m`,
//! so GOAL's in-order matching on (peer, tag) pairs exactly the packets the IR pairs; a send
//! or receive of a packet range carries that range's bytes. Same-rank dependencies become
//! `requires`. A dependency on another rank's op is an ordering GOAL cannot state (its
//! dependencies are per rank); it never carries data, so it is left out and counted.

use super::goal::{Goal, GoalDep, GoalKind, GoalOp, GoalRank};
use crate::error::{Error, Result};
use crate::schedule::{OpKind, Schedule};

/// What [`to_goal`] had to leave out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoalWriteNotes {
    /// Dependencies on other ranks' ops (not expressible in GOAL).
    pub dropped_remote_deps: u64,
}

/// The bytes of packets `start..end` of a message of `bytes` bytes in packets of at most
/// `packet_bytes` (0: one packet).
pub(crate) fn range_bytes(bytes: u64, packet_bytes: u64, start: u32, end: u32) -> u64 {
    if packet_bytes == 0 {
        return bytes;
    }
    let lo = (start as u64 * packet_bytes).min(bytes);
    let hi = (end as u64 * packet_bytes).min(bytes);
    hi - lo
}

/// `s` as GOAL; compute ops cost `calc_time` each.
pub fn to_goal(s: &Schedule, calc_time: u64) -> Result<(Goal, GoalWriteNotes)> {
    if s.messages().len() as u64 >= u32::MAX as u64 {
        return Err(Error::TooLarge(
            "more messages than GOAL tags (2^32 - 1)".into(),
        ));
    }
    let mut notes = GoalWriteNotes::default();
    let ranks = (0..s.p())
        .map(|r| rank_ops(s, r, calc_time, &mut notes))
        .collect();
    Ok((Goal { ranks }, notes))
}

fn rank_ops(s: &Schedule, r: u32, calc_time: u64, notes: &mut GoalWriteNotes) -> GoalRank {
    let mut rank = GoalRank::default();
    // GOAL ops standing for IR op i: first..first+count.
    let mut first = Vec::with_capacity(s.ops(r).len());
    for (i, op) in s.ops(r).iter().enumerate() {
        first.push(rank.ops.len() as u32);
        let mut push = |kind, size, peer, tag, label: String| {
            rank.ops.push(GoalOp {
                kind,
                size,
                peer,
                tag,
                cpu: 0,
                nic: 0,
            });
            rank.labels.push(Some(&label));
        };
        match op.kind {
            OpKind::Send { msg, packets } | OpKind::Recv { msg, packets } => {
                let m = s.message(msg);
                let bytes = s.payload(m).len() as u64 * s.bytes_per_block();
                let (a, b) = packets.resolve(m.packets);
                let size = range_bytes(bytes, s.packet_bytes(), a, b);
                if matches!(op.kind, OpKind::Recv { .. }) {
                    push(GoalKind::Recv, size, m.src, msg, format!("o{i}"));
                } else {
                    let dests = s.dests(m);
                    for (k, &d) in dests.iter().enumerate() {
                        let label = if dests.len() == 1 {
                            format!("o{i}")
                        } else {
                            format!("o{i}d{k}")
                        };
                        push(GoalKind::Send, size, d, msg, label);
                    }
                }
            }
            OpKind::Compute { .. } => push(GoalKind::Calc, calc_time, 0, 0, format!("o{i}")),
        }
    }
    first.push(rank.ops.len() as u32);
    for (i, op) in s.ops(r).iter().enumerate() {
        for d in s.deps(op) {
            if d.rank != r {
                notes.dropped_remote_deps += 1;
                continue;
            }
            for a in first[i]..first[i + 1] {
                for b in first[d.index as usize]..first[d.index as usize + 1] {
                    rank.deps.push(GoalDep {
                        op: a,
                        on: b,
                        start: false,
                    });
                }
            }
        }
    }
    rank
}
