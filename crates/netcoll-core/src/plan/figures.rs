//! Figures of a collective by the cheapest path that gives them: a closed form, the per-step
//! aggregate of the algorithm's rounds, or the built and verified schedule. Like the tuner,
//! this plans over the algorithm registry.
//!
//! Every result says which path it took in `method`: `closed-form`, `per-step`, `schedule`
//! or `schedule-per-step` (a schedule above `engines::analytic::LIST_SCHEDULED_OPS` ops,
//! built and verified, its figures taken per step without the list-scheduled times), and,
//! as before, `source`: `closed_form`, `per_step` or `schedule`.

use crate::algorithms::{self as registry, AlgoRequest};
use crate::engines::aggregate::analyze_rounds;
use crate::engines::analytic::{analyze_sized, Analysis, Machine};
use crate::error::Result;
use crate::routing::{Routing, RoutingKind};
use crate::schedule::RoundPlan;
use crate::spec_err;
use serde_json::Value;

/// With `auto`, a schedule of at most this many messages is built (its list-scheduled times
/// come with it); a larger one is analysed per step where the algorithm allows.
pub const SMALL_SCHEDULE: u64 = 1 << 18;
/// ... and of at most this many pieces (blocks carried, summed over messages): an MST
/// broadcast of p blocks is only p-1 messages, but p^2 pieces (4e9 at 65,536 ranks).
pub const SMALL_PIECES: u64 = 1 << 22;

/// The analysis paths, cheapest first.
pub const METHODS: [&str; 4] = ["auto", "closed-form", "per-step", "schedule"];

/// Figures of `algo` for `req` by `method` (one of [`METHODS`]).
pub fn analyze_by(
    method: &str,
    algo: &str,
    req: &AlgoRequest,
    routing: &Routing,
    m: &Machine,
) -> Result<Value> {
    check_method("analysis", method, &METHODS)?;
    let a = registry::find(req.kind, algo)?;
    req.params.check_known(a.name, a.params)?;
    let want = |name: &str| method == "auto" || method == name;
    if want("closed-form") {
        if let Some(v) = closed_form(algo, req, routing)? {
            return Ok(v);
        }
    }
    if want("per-step") {
        if let Some(plan) = registry::round_plan(algo, req)? {
            let small = is_small(&plan);
            if method == "per-step" || !small {
                let a = analyze_rounds(&plan, &req.placement, req.topo, routing, m)?;
                return Ok(tagged(&a, "per-step", "per_step", Value::Null));
            }
        }
    }
    if want("schedule") {
        return built_figures(algo, req, routing, m);
    }
    spec_err!(
        "{algo} has no {method} analysis for {}: use method auto",
        req.kind.name()
    )
}

/// `method` is one of `known` (else a one-line error naming them).
pub(crate) fn check_method(what: &str, method: &str, known: &[&str]) -> Result<()> {
    if known.contains(&method) {
        return Ok(());
    }
    spec_err!("unknown {what} method '{method}': use {}", known.join(", "))
}

/// Whether the schedule of a per-step form is small enough to build: at most
/// [`SMALL_SCHEDULE`] messages and [`SMALL_PIECES`] pieces.
pub fn is_small(plan: &RoundPlan) -> bool {
    let (mut messages, mut pieces) = (0u64, 0u64);
    for r in &plan.rounds {
        messages += r.repeat as u64 * r.unicasts.len() as u64;
        let blocks: u64 = r.unicasts.iter().map(|u| u.blocks as u64).sum();
        pieces += r.repeat as u64 * blocks;
    }
    messages <= SMALL_SCHEDULE && pieces <= SMALL_PIECES
}

/// The closed form of `algo`, if it has one here.
fn closed_form(algo: &str, req: &AlgoRequest, routing: &Routing) -> Result<Option<Value>> {
    let a = registry::find(req.kind, algo)?;
    let mut v = match a.closed_form {
        Some(cf) => cf(req)?,
        None => match registry::classic_closed_form(algo, req, is_minimal(routing)) {
            Some(v) => v,
            None => return Ok(None),
        },
    };
    v["source"] = "closed_form".into();
    v["method"] = "closed-form".into();
    Ok(Some(v))
}

/// Builds and verifies `algo`'s schedule for `req`, and analyses it: with every model, or
/// per step above `LIST_SCHEDULED_OPS` ops (method `schedule-per-step`).
pub(crate) fn built_figures(
    algo: &str,
    req: &AlgoRequest,
    routing: &Routing,
    m: &Machine,
) -> Result<Value> {
    let s = registry::build(algo, req)?;
    let (a, depth) = analyze_sized(&s, req.topo, routing, m)?;
    Ok(tagged(&a, depth.method(), "schedule", Value::Bool(true)))
}

/// Whether `routing` takes minimal routes, so that the classic closed forms' hop counts hold.
pub(crate) fn is_minimal(routing: &Routing) -> bool {
    matches!(routing.kind(), RoutingKind::Dor | RoutingKind::Shortest)
}

/// An analysis as JSON with the path it came from.
pub fn tagged(a: &Analysis, method: &str, source: &str, verified: Value) -> Value {
    let mut v = serde_json::to_value(a).unwrap_or_default();
    v["verified"] = verified;
    v["source"] = source.into();
    v["method"] = method.into();
    v
}
