//! The collective's postcondition at every rank, once every op has run.
//!
//! Matching has already proved that each destination receives every packet of its messages,
//! so a rank ends with its initial data, the payload of every message it receives and the
//! output of every compute op it runs. Blocks may be held XOR-combined: they count if they
//! can be decoded (Gaussian elimination), which is how network-coded schedules are proved.

use super::super::ir::{MsgId, OpKind, Schedule};
use super::super::payload::describe_ranks;
use super::super::rangeset::RangeSet;
use super::knowledge::Knowledge;
use super::Diagnosis;
use rayon::prelude::*;

pub(crate) fn check(s: &Schedule) -> Result<(), Diagnosis> {
    // Ranks are independent: checked in parallel, the diagnosis is the lowest failing rank's
    // whatever the thread count.
    let failure = (0..s.p())
        .into_par_iter()
        .map_init(
            || (Knowledge::default(), Vec::new()),
            |(know, msgs), r| check_rank(s, r, know, msgs),
        )
        .find_first(Result::is_err);
    failure.unwrap_or(Ok(()))
}

fn check_rank(
    s: &Schedule,
    r: u32,
    know: &mut Knowledge,
    msgs: &mut Vec<MsgId>,
) -> Result<(), Diagnosis> {
    final_state(s, r, know, msgs);
    if s.collective().kind.is_reduction() {
        check_reduced(s, r, know)
    } else {
        check_blocks(s, r, know)
    }
}

/// Everything rank `r` holds at the end.
fn final_state(s: &Schedule, r: u32, know: &mut Knowledge, msgs: &mut Vec<MsgId>) {
    know.reset(s.collective(), r);
    msgs.clear();
    for op in s.ops(r) {
        match op.kind {
            OpKind::Compute { .. } => know.absorb(s.value(op)),
            OpKind::Recv { msg, .. } => msgs.push(msg),
            OpKind::Send { .. } => {}
        }
    }
    // A message received in several packet ranges is taken in once.
    msgs.sort_unstable();
    msgs.dedup();
    for &m in msgs.iter() {
        know.absorb(s.payload(s.message(m)));
    }
}

fn check_blocks(s: &Schedule, r: u32, know: &mut Knowledge) -> Result<(), Diagnosis> {
    let c = s.collective();
    let lacking = know.lacking(&c.required_blocks(r));
    if lacking.is_empty() {
        return Ok(());
    }
    know.prepare_decoding();
    let undecodable = lacking.iter().find(|&b| !know.decodes(b));
    match undecodable {
        None => Ok(()),
        Some(b) if know.seen_combined(b) => Err(format!(
            "rank {r} cannot decode {}: it holds it only XOR-combined with blocks it lacks",
            c.describe_block(b)
        )),
        Some(b) => Err(format!("rank {r} never receives {}", c.describe_block(b))),
    }
}

fn check_reduced(s: &Schedule, r: u32, know: &Knowledge) -> Result<(), Diagnosis> {
    let c = s.collective();
    let full = RangeSet::full(c.p);
    for j in c.required_indices(r) {
        if know.holds_full(j, &full) {
            continue;
        }
        return Err(short_reduction(r, j, &know.best_reduced(j), c.p));
    }
    Ok(())
}

/// Rank `r` ends with index `j` reduced over `best` only, of `p` contributors.
pub(super) fn short_reduction(r: u32, j: u32, best: &RangeSet, p: u32) -> Diagnosis {
    let mut missing = RangeSet::full(p);
    missing.difference_with(best);
    format!(
        "rank {r} ends with block index {j} reduced over {} of {p} contributors (missing {})",
        best.len(),
        describe_ranks(&missing)
    )
}
