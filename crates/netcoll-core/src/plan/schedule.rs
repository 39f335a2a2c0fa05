//! `netcoll schedule`'s two paths: build the schedule (materialise every op, verify it with
//! the schedule verifier, analyse it with every model), or stream it: the algorithm writes
//! its rounds to the streaming verifier and the analytic engine's streaming figures at once
//! (`schedule::Tee`), and each round is dropped once checked. Streaming proves the same
//! collective in the memory of the per-rank holdings (ring allreduce on 4,096 ranks: 33 M
//! messages, none kept); it gives every figure but the four list-scheduled times, which need
//! every op's dependencies (`null`, as on the per-step path).

use super::figures::{built_figures, check_method, is_minimal, is_small, tagged, SMALL_SCHEDULE};
use crate::algorithms::{self as registry, AlgoRequest};
use crate::engines::analytic::Machine;
use crate::engines::stream::StreamFigures;
use crate::error::{Error, Result};
use crate::routing::Routing;
use crate::schedule::{RangeSet, RoundPlan, StreamVerifier, Tee, BYTES_PER_PIECE};
use crate::spec_err;
use serde_json::Value;

/// The paths of `netcoll schedule --method`.
pub const SCHEDULE_METHODS: [&str; 3] = ["auto", "schedule", "stream"];

/// Builds (or streams) and verifies `algo` for `req`, and its figures, by `method`: `schedule`
/// (materialised), `stream`, or `auto`: streamed when the algorithm is a round program whose
/// schedule is not small (as `analyze`'s `auto`: more than `SMALL_SCHEDULE` messages or
/// `SMALL_PIECES` pieces), else built. `method` in the result says which path was taken.
pub fn schedule_by(
    method: &str,
    algo: &str,
    req: &AlgoRequest,
    routing: &Routing,
    m: &Machine,
) -> Result<Value> {
    check_method("schedule", method, &SCHEDULE_METHODS)?;
    let streams = registry::can_stream(req.kind, algo);
    // The per-step plan (compact: O(rounds)) decides `auto` and sizes the streaming
    // footprint; it is built once for both.
    let plan = if streams && method != "schedule" {
        registry::round_plan(algo, req)?
    } else {
        None
    };
    let stream = match method {
        "stream" => true,
        "schedule" => false,
        _ => streams && is_large(plan.as_ref(), algo, req, routing),
    };
    if !stream {
        return built_figures(algo, req, routing, m);
    }
    if !streams {
        return spec_err!(
            "{algo} is not a round program, so its {} cannot be streamed: use --method schedule",
            req.kind.name()
        );
    }
    stream_planned(plan.as_ref(), algo, req, routing, m)
}

/// Whether the schedule of `algo` for `req` is not small: by its per-step form, else by the
/// messages of its closed form (the all-at-once allgather has no per-step form: p(p-1)
/// messages, 16.7 M at 4,096 ranks).
fn is_large(plan: Option<&RoundPlan>, algo: &str, req: &AlgoRequest, routing: &Routing) -> bool {
    if let Some(plan) = plan {
        return !is_small(plan);
    }
    let messages = registry::classic_closed_form(algo, req, is_minimal(routing))
        .and_then(|v| v["messages"].as_u64())
        .unwrap_or(0);
    messages > SMALL_SCHEDULE
}

/// Streams `algo` for `req` through the streaming verifier and figures (see the module
/// documentation); a wrong program is an error naming the rank, the round and the block.
pub fn stream_figures(
    algo: &str,
    req: &AlgoRequest,
    routing: &Routing,
    m: &Machine,
) -> Result<Value> {
    let plan = registry::round_plan(algo, req)?;
    stream_planned(plan.as_ref(), algo, req, routing, m)
}

/// [`stream_figures`] with the algorithm's per-step plan (if it has one) already built.
fn stream_planned(
    plan: Option<&RoundPlan>,
    algo: &str,
    req: &AlgoRequest,
    routing: &Routing,
    m: &Machine,
) -> Result<Value> {
    check_footprint(plan, algo, req)?;
    let mut verifier = StreamVerifier::new();
    let mut figures = StreamFigures::new(&req.placement, req.topo, routing, m)?;
    let mut tee = Tee {
        first: &mut verifier,
        second: &mut figures,
    };
    if !registry::stream(algo, req, &mut tee)? {
        return spec_err!("{algo} cannot be streamed: use --method schedule");
    }
    verifier.finish().map_err(|d| {
        Error::Invalid(format!(
            "algorithm {algo} produced a wrong {} schedule (a netcoll bug, please report): {d}",
            req.kind.name()
        ))
    })?;
    let a = figures.finish()?;
    Ok(tagged(&a, "stream", "stream", Value::Bool(true)))
}

/// Refuses with one line what streaming cannot hold: a reduction keeps a contributor set per
/// (rank, block index), twice (the algorithm's partials and the verifier's holdings), and the
/// largest round is held while it is checked.
fn check_footprint(plan: Option<&RoundPlan>, algo: &str, req: &AlgoRequest) -> Result<()> {
    let p = req.p as u64;
    let set = std::mem::size_of::<RangeSet>() as u64;
    let state = if req.kind.is_reduction() {
        2 * p * p * set
    } else {
        p * set
    };
    let pieces = |r: &crate::schedule::Round| r.unicasts.iter().map(|u| u.blocks as u64).sum();
    let round = plan
        .and_then(|plan| plan.rounds.iter().map(pieces).max())
        .unwrap_or(0u64);
    let what = format!(
        "streaming the {} program of {algo} on {p} ranks",
        req.kind.name()
    );
    crate::guard::check(&what, state + round * BYTES_PER_PIECE)
}

#[cfg(test)]
#[path = "schedule_tests.rs"]
mod tests;
