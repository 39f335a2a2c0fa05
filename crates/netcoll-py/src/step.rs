//! The step engine: the iBT/torus broadcast protocols and any registered schedule, in steps.

use crate::args;
use crate::request::RequestArgs;
use crate::schedule::PySchedule;
use crate::topology::PyTopology;
use crate::{guarded, to_py};
use netcoll_core::algorithms::ibt_broadcast::{self, protocol::Kind};
use netcoll_core::algorithms::{self as registry, Params};
use netcoll_core::engines::flit::registry::nearest;
use netcoll_core::engines::step::sched::{self, Timing};
use netcoll_core::engines::step::{LinkLatency, PortModel};
use netcoll_core::routing::{Routing, RoutingKind};
use netcoll_core::schedule::Schedule;
use netcoll_core::spec_err;
use netcoll_core::Topology;
use pyo3::prelude::*;
use serde_json::json;

fn kind_of(algo: &str) -> netcoll_core::Result<Kind> {
    match algo {
        "line" => Ok(Kind::Line),
        "rect" => Ok(Kind::Rect),
        "global" => Ok(Kind::Global),
        "trees" => Ok(Kind::Trees),
        _ => spec_err!("'{algo}' is not a step protocol: use line, rect, global or trees"),
    }
}

/// Runs (or, with no pattern, searches) an iBT/torus broadcast protocol; returns its figures.
#[pyfunction]
#[pyo3(signature = (topo, algo, *, root=0, packets=32, params=None))]
fn step_broadcast(
    py: Python<'_>,
    topo: &PyTopology,
    algo: &str,
    #[pyo3(from_py_with = args::root)] root: u32,
    #[pyo3(from_py_with = args::packets)] packets: u32,
    params: Option<Vec<String>>,
) -> PyResult<PyObject> {
    let (t, algo) = (topo.inner.clone(), algo.to_string());
    let v = guarded(py, move || {
        let kind = kind_of(&algo)?;
        let params = Params::parse(&params.unwrap_or_default())?;
        if packets == 0 {
            return spec_err!("--packets must be at least 1");
        }
        ibt_broadcast::report(&t, kind, root, packets, &params)
    })?;
    to_py(py, &v)
}

/// Builds (and verifies) the schedule of `algo` and runs it on the step engine.
/// `sim` items: routing=dor|shortest|updown, ports=all|one, timing=deps|steps.
#[pyfunction]
#[pyo3(signature = (op, algo, topo, *, root=0, nbytes=1024, packets=1, params=None, sim=None))]
#[allow(clippy::too_many_arguments)]
fn step_schedule(
    py: Python<'_>,
    op: &str,
    algo: &str,
    topo: &PyTopology,
    #[pyo3(from_py_with = args::root)] root: u32,
    #[pyo3(from_py_with = args::nbytes)] nbytes: u64,
    #[pyo3(from_py_with = args::packets)] packets: u32,
    params: Option<Vec<String>>,
    sim: Option<Vec<String>>,
) -> PyResult<PyObject> {
    let (op, algo, t) = (op.to_string(), algo.to_string(), topo.inner.clone());
    let v = guarded(py, move || {
        let req = RequestArgs {
            op,
            p: None,
            root,
            nbytes,
            packets,
            params: params.unwrap_or_default(),
            placement: None,
            targets: Vec::new(),
            sources: None,
        }
        .request(&t)?;
        let s = registry::build(&algo, &req)?;
        let mut v = run_on_steps(&s, &t, &sim.unwrap_or_default())?;
        v["algorithm"] = json!(algo);
        Ok(v)
    })?;
    to_py(py, &v)
}

/// Runs a built schedule (`build_schedule`, any collective and options) on the step engine.
/// `sim` items as `step_schedule`.
#[pyfunction]
#[pyo3(signature = (schedule, topo, sim=None))]
fn step_run(
    py: Python<'_>,
    schedule: &PySchedule,
    topo: &PyTopology,
    sim: Option<Vec<String>>,
) -> PyResult<PyObject> {
    let (s, t) = (schedule.inner.clone(), topo.inner.clone());
    let v = guarded(py, move || run_on_steps(&s, &t, &sim.unwrap_or_default()))?;
    to_py(py, &v)
}

/// The step engine's figures of schedule `s` on `t` under the `sim` settings.
fn run_on_steps(
    s: &Schedule,
    t: &Topology,
    sim: &[String],
) -> netcoll_core::Result<serde_json::Value> {
    let sim = Params::parse(sim)?;
    let mut lat = LinkLatency::default();
    let known = ["routing", "ports", "timing"];
    for (k, v) in sim.iter() {
        if LinkLatency::KEYS.contains(&k.as_str()) {
            lat.set(k, v)?;
        } else if !known.contains(&k.as_str()) {
            let all = known.iter().chain(LinkLatency::KEYS.iter()).copied();
            let hint =
                nearest(k, all.clone()).map_or(String::new(), |n| format!("did you mean {n}? "));
            let names: Vec<&str> = all.collect();
            return spec_err!(
                "the step engine has no setting '{k}': {hint}use {}",
                names.join(", ")
            );
        }
    }
    let routing = RoutingKind::parse(sim.text("routing", "shortest"))?;
    let ports = PortModel::parse(sim.text("ports", "all"))?;
    let timing = Timing::parse(sim.text("timing", "deps"))?;
    let r = Routing::new(t, routing, None)?;
    if r.is_adaptive() {
        return spec_err!(
            "the step engine routes hop by hop from the destination alone; {} chooses among \
             paths per packet: run it with the analytic engine, or use shortest (minimal)",
            routing.name()
        );
    }
    let res = sched::run_with_latency(s, t, &r, ports, timing, lat)?;
    let (used, max_use) = res.link_summary();
    Ok(json!({
        "topology": t.name(),
        "collective": s.collective().kind.name(),
        "steps": res.steps,
        "verified": s.is_correct(),
        "ranks": s.p(),
        "messages": s.messages().len(),
        "hops": res.hops,
        "channels_used": used,
        "max_link_use": max_use,
        "per_step": res.per_step,
        "rank_done": res.rank_done,
        "routing": routing.name(),
        "ports": ports,
        "timing": timing,
    }))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(step_broadcast, m)?)?;
    m.add_function(wrap_pyfunction!(step_schedule, m)?)?;
    m.add_function(wrap_pyfunction!(step_run, m)?)?;
    Ok(())
}
