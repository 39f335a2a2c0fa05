//! GOAL onto the IR, so that a Schedgen or LogGOPSim file runs on the analytic, step and
//! flit engines.
//!
//! GOAL carries sizes, not data, so the IR schedule carries *opaque* pieces: every message
//! is `size / u` pieces of `u` bytes, `u` the greatest common divisor of the file's message
//! sizes (so every message keeps its exact size), each piece a stand-in (block 0, or rank
//! `src`'s contribution to index 0 for a reduction) that names no data. Every GOAL op becomes
//! one IR op of its rank, in file order: a `send` a message to its peer, a `recv` the
//! receive of the send it pairs with (the k-th per source, destination and tag, as
//! [`goal_check`] pairs them), a `calc` an empty copy op (an ordering point: GOAL's calc time
//! is CPU time of the LogGOPS model, and the engines cost compute ops themselves).
//! `a requires b` is an IR dependency; `a irequires b` (a starts once b started) becomes
//! b's own start conditions, since IR ops start when their dependencies are done. Ranks sit
//! on endpoints 0..p.
//!
//! The IR verifier cannot prove opaque pieces; what is proved is [`goal_check`]'s verdict
//! (matching, no deadlock, happens-before), which the schedule carries as its
//! [`Schedule::is_correct`].

use super::goal::{Goal, GoalKind};
use super::goal_check::{self, op_numbers, GoalReport};
use crate::error::{Error, Result};
use crate::schedule::{CollectiveKind, OpRef, PacketRange, Piece, Schedule, ScheduleBuilder};

/// Most opaque pieces a lowered GOAL file may have (about 40 bytes each).
pub const MAX_PIECES: u64 = 1 << 25;

/// `goal` as an IR schedule of collective `kind` rooted at `root`, with `goal_check`'s
/// verdict; `rendezvous` is LogGOPSim's `S` for the deadlock check. A file that cannot run
/// (a send without its receive, a dependency cycle) is an [`Error::Invalid`] with the
/// diagnosis.
pub fn lower(
    goal: &Goal,
    kind: CollectiveKind,
    root: u32,
    rendezvous: u64,
) -> Result<(Schedule, GoalReport)> {
    let report = goal_check::check(goal, kind, root, None, rendezvous)?;
    if !report.runnable {
        let d = report.diagnosis.clone().unwrap_or_default();
        return Err(Error::Invalid(d));
    }
    let unit = piece_bytes(goal)?;
    let mut b = ScheduleBuilder::new(kind, goal.num_ranks(), root).packetization(unit, 0);
    let first = op_numbers(goal);
    let msg_of_send = messages(goal, &first, &mut b, kind, unit);
    let mut msg_of_recv = vec![u32::MAX; *first.last().unwrap_or(&0) as usize];
    for &(send, recv) in &report.pairs {
        msg_of_recv[recv as usize] = msg_of_send[send as usize];
    }
    for (r, rank) in goal.ranks.iter().enumerate() {
        let deps = start_conditions(goal, r);
        for (i, op) in rank.ops.iter().enumerate() {
            let g = first[r] as usize + i;
            let d: Vec<OpRef> = deps[i].iter().map(|&j| OpRef::new(r as u32, j)).collect();
            match op.kind {
                GoalKind::Send => b.send_msg(msg_of_send[g], PacketRange::ALL, &d),
                GoalKind::Recv => b.recv_msg(r as u32, msg_of_recv[g], PacketRange::ALL, &d),
                GoalKind::Calc => b.copy(r as u32, &[], &d),
            };
        }
    }
    let s = b.build()?;
    let _ = s.proved.set(report.diagnosis.is_none());
    Ok((s, report))
}

/// The bytes of one opaque piece: the gcd of the message sizes (1 if all are empty), after
/// checking that the pieces fit in memory.
fn piece_bytes(goal: &Goal) -> Result<u64> {
    let sizes = || {
        goal.ranks
            .iter()
            .flat_map(|r| r.ops.iter())
            .filter(|o| o.kind == GoalKind::Send)
            .map(|o| o.size)
    };
    let unit = sizes().fold(0, gcd).max(1);
    let pieces: u64 = sizes().map(|s| s / unit).fold(0, u64::saturating_add);
    if pieces > MAX_PIECES {
        return Err(Error::TooLarge(format!(
            "as a netcoll schedule this GOAL file needs {pieces} pieces of {unit} bytes (the \
             greatest common divisor of its message sizes); at most {MAX_PIECES} fit: run it \
             with --engine loggops, which needs no pieces"
        )));
    }
    Ok(unit)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// One IR message per GOAL send, of opaque pieces; indexed by op number.
fn messages(
    goal: &Goal,
    first: &[u32],
    b: &mut ScheduleBuilder,
    kind: CollectiveKind,
    unit: u64,
) -> Vec<u32> {
    let mut msg = vec![u32::MAX; *first.last().unwrap_or(&0) as usize];
    for (r, rank) in goal.ranks.iter().enumerate() {
        let piece = if kind.is_reduction() {
            Piece::contribution(0, r as u32)
        } else {
            Piece::Block(0)
        };
        for (i, op) in rank.ops.iter().enumerate() {
            if op.kind == GoalKind::Send {
                let payload = vec![piece.clone(); (op.size / unit) as usize];
                msg[first[r] as usize + i] = b.message(r as u32, &[op.peer], &payload);
            }
        }
    }
    msg
}

/// For every op of rank `r`, the ops that must be done before it starts: its `requires`,
/// and for each `irequires b`, b's own (an IR op starts when its dependencies are done, so
/// "after b started" is "once b could start"). Resolved in dependency order (the checker
/// found no cycle), deduplicated.
fn start_conditions(goal: &Goal, r: usize) -> Vec<Vec<u32>> {
    let rank = &goal.ranks[r];
    let n = rank.ops.len();
    let (mut done_on, mut start_on) = (vec![Vec::new(); n], vec![Vec::new(); n]);
    for d in &rank.deps {
        let list = if d.start { &mut start_on } else { &mut done_on };
        list[d.op as usize].push(d.on);
    }
    // Kahn's order over the irequires edges alone.
    let mut waiting: Vec<usize> = start_on.iter().map(Vec::len).collect();
    let mut dependants = vec![Vec::new(); n];
    for (a, ons) in start_on.iter().enumerate() {
        for &on in ons {
            dependants[on as usize].push(a as u32);
        }
    }
    let mut order: Vec<u32> = (0..n as u32)
        .filter(|&i| waiting[i as usize] == 0)
        .collect();
    let mut head = 0;
    while head < order.len() {
        let v = order[head] as usize;
        head += 1;
        for &a in &dependants[v] {
            waiting[a as usize] -= 1;
            if waiting[a as usize] == 0 {
                order.push(a);
            }
        }
    }
    let mut out: Vec<Vec<u32>> = vec![Vec::new(); n];
    for &v in &order {
        let v = v as usize;
        let mut deps = done_on[v].clone();
        for &on in &start_on[v] {
            deps.extend_from_slice(&out[on as usize]);
        }
        deps.sort_unstable();
        deps.dedup();
        out[v] = deps;
    }
    out
}
