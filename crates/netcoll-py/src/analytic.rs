//! The analytic engine and the tuner: figures of a collective's schedule, and algorithms
//! ranked by time.

use crate::args;
use crate::request::RequestArgs;
use crate::topology::PyTopology;
use crate::{guarded, to_py};
use netcoll_core::algorithms::{self as registry, AlgoRequest};
use netcoll_core::engines::analytic::{analyze_sized, Analysis, ClassCosts, Depth, Machine};
use netcoll_core::engines::flit::registry::nearest;
use netcoll_core::models::{LogGP, MultisendParams};
use netcoll_core::plan::figures::tagged;
use netcoll_core::plan::schedule::schedule_by;
use netcoll_core::plan::tune::{routing_for, tune as tune_all, RankBy};
use netcoll_core::Topology;
use pyo3::prelude::*;
use std::collections::HashMap;

/// Request options shared by every function here.
pub(crate) struct Opts {
    args: RequestArgs,
    pub(crate) routing: String,
    machine: HashMap<String, f64>,
}

impl Opts {
    /// Validated here too: closed forms and the tuner do not go through `algorithms::build`.
    fn request<'a>(&self, t: &'a Topology) -> netcoll_core::Result<AlgoRequest<'a>> {
        let req = self.args.request(t)?;
        req.validate()?;
        Ok(req)
    }

    pub(crate) fn machine(&self) -> netcoll_core::Result<Machine> {
        let d = Machine::default();
        let get = |k: &str, v: f64| self.machine.get(k).copied().unwrap_or(v);
        const KNOWN: [&str; 9] = [
            "alpha",
            "beta",
            "gamma",
            "lambda",
            "L",
            "o",
            "g",
            "G",
            "write_combining",
        ];
        let mut classes = ClassCosts::default();
        let mut keys: Vec<&String> = self.machine.keys().collect();
        keys.sort(); // the first bad key named is the same every run
        for k in keys {
            if KNOWN.contains(&k.as_str()) || classes.set(k, self.machine[k]) {
                continue;
            }
            let known = KNOWN.iter().chain(ClassCosts::KEYS.iter()).copied();
            let hint = match nearest(k, known.clone()) {
                Some(near) => format!("did you mean '{near}'? "),
                None => String::new(),
            };
            return netcoll_core::spec_err!(
                "unknown machine parameter '{k}': {hint}use {}",
                known.collect::<Vec<_>>().join(", ")
            );
        }
        let l = &d.loggp;
        let loggp = LogGP::new(
            get("L", l.latency()),
            get("o", l.overhead()),
            get("g", l.gap()),
            get("G", l.gap_per_byte()),
            1,
        )?;
        Ok(Machine {
            alpha: get("alpha", d.alpha),
            beta: get("beta", d.beta),
            classes,
            gamma: get("gamma", d.gamma),
            lambda: get("lambda", d.lambda),
            multisend: MultisendParams::paper_with(get("write_combining", 0.0) != 0.0),
            loggp,
        })
    }
}

pub(crate) fn figures(a: &Analysis, depth: Depth) -> serde_json::Value {
    tagged(a, depth.method(), "schedule", serde_json::Value::Bool(true))
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn opts(
    op: &str,
    p: Option<u32>,
    root: u32,
    nbytes: u64,
    packets: u32,
    params: Option<Vec<String>>,
    placement: Option<Vec<u32>>,
    targets: Option<Vec<u32>>,
    routing: &str,
    machine: Option<HashMap<String, f64>>,
) -> Opts {
    Opts {
        args: RequestArgs {
            op: op.to_string(),
            p,
            root,
            nbytes,
            packets,
            params: params.unwrap_or_default(),
            placement,
            targets: targets.unwrap_or_default(),
            sources: None,
        },
        routing: routing.to_string(),
        machine: machine.unwrap_or_default(),
    }
}

/// Builds, verifies and analyses a schedule: `(figures, schedule_json)`. The JSON text is
/// only written with `with_json` (it is the largest thing a big schedule makes: gigabytes at
/// thousands of ranks); else it is an empty string. Without `with_json`, `method` chooses
/// the path (`plan::schedule`: `schedule`, `stream`, or `auto` by size); with it the
/// schedule is built (`stream` is refused: it keeps no schedule to write).
#[pyfunction]
#[pyo3(signature = (op, algo, topo, *, p=None, root=0, nbytes=1024, packets=1, params=None,
                    placement=None, targets=None, routing="auto", machine=None, sources=None,
                    with_json=true, method="schedule"))]
#[allow(clippy::too_many_arguments)]
fn schedule_figures(
    py: Python<'_>,
    op: &str,
    algo: &str,
    topo: &PyTopology,
    #[pyo3(from_py_with = args::p)] p: Option<u32>,
    #[pyo3(from_py_with = args::root)] root: u32,
    #[pyo3(from_py_with = args::nbytes)] nbytes: u64,
    #[pyo3(from_py_with = args::packets)] packets: u32,
    params: Option<Vec<String>>,
    #[pyo3(from_py_with = args::placement)] placement: Option<Vec<u32>>,
    #[pyo3(from_py_with = args::targets)] targets: Option<Vec<u32>>,
    routing: &str,
    machine: Option<HashMap<String, f64>>,
    sources: Option<String>,
    with_json: bool,
    method: &str,
) -> PyResult<(PyObject, String)> {
    let mut o = opts(
        op, p, root, nbytes, packets, params, placement, targets, routing, machine,
    );
    o.args.sources = sources;
    let (t, algo, method) = (topo.inner.clone(), algo.to_string(), method.to_string());
    let (v, json) = guarded(py, move || {
        let req = o.request(&t)?;
        let m = o.machine()?;
        let r = routing_for(&t, &o.routing)?;
        if !with_json {
            let v = schedule_by(&method, &algo, &req, &r, &m)?;
            return Ok((v, String::new()));
        }
        if method == "stream" {
            return netcoll_core::spec_err!(
                "a streamed schedule is not kept, so it cannot be written: drop -o (or use --method schedule)"
            );
        }
        let s = registry::build(&algo, &req)?;
        let (a, depth) = analyze_sized(&s, &t, &r, &m)?;
        Ok((figures(&a, depth), s.to_json()))
    })?;
    Ok((to_py(py, &v)?, json))
}

/// Figures of a collective, by `method`: `closed-form` (the algorithm's closed form),
/// `per-step` (its rounds, without a schedule: engines::aggregate), `schedule` (build,
/// verify, analyse) or `auto`: the closed form if there is one, else the schedule when the
/// per-step form counts at most `SMALL_SCHEDULE` messages (all four list-scheduled models
/// come with it), else the per-step form, else the schedule. `method` in the result says
/// which path was taken.
#[pyfunction]
#[pyo3(signature = (op, algo, topo, *, p=None, root=0, nbytes=1024, packets=1, params=None,
                    placement=None, targets=None, routing="auto", machine=None, sources=None,
                    method="auto"))]
#[allow(clippy::too_many_arguments)]
fn analyze(
    py: Python<'_>,
    op: &str,
    algo: &str,
    topo: &PyTopology,
    #[pyo3(from_py_with = args::p)] p: Option<u32>,
    #[pyo3(from_py_with = args::root)] root: u32,
    #[pyo3(from_py_with = args::nbytes)] nbytes: u64,
    #[pyo3(from_py_with = args::packets)] packets: u32,
    params: Option<Vec<String>>,
    #[pyo3(from_py_with = args::placement)] placement: Option<Vec<u32>>,
    #[pyo3(from_py_with = args::targets)] targets: Option<Vec<u32>>,
    routing: &str,
    machine: Option<HashMap<String, f64>>,
    sources: Option<String>,
    method: &str,
) -> PyResult<PyObject> {
    let mut o = opts(
        op, p, root, nbytes, packets, params, placement, targets, routing, machine,
    );
    o.args.sources = sources;
    let (t, algo, method) = (topo.inner.clone(), algo.to_string(), method.to_string());
    let v = guarded(py, move || {
        let req = o.request(&t)?;
        let m = o.machine()?;
        let r = routing_for(&t, &o.routing)?;
        netcoll_core::plan::figures::analyze_by(&method, &algo, &req, &r, &m)
    })?;
    to_py(py, &v)
}

/// Every applicable algorithm and parameter choice, best first: `{candidates, skipped}`.
#[pyfunction]
#[pyo3(signature = (op, topo, *, p=None, root=0, nbytes=1024, packets=1, placement=None,
                    targets=None, routing="auto", machine=None, model="rounds", sources=None))]
#[allow(clippy::too_many_arguments)]
fn tune(
    py: Python<'_>,
    op: &str,
    topo: &PyTopology,
    #[pyo3(from_py_with = args::p)] p: Option<u32>,
    #[pyo3(from_py_with = args::root)] root: u32,
    #[pyo3(from_py_with = args::nbytes)] nbytes: u64,
    #[pyo3(from_py_with = args::packets)] packets: u32,
    #[pyo3(from_py_with = args::placement)] placement: Option<Vec<u32>>,
    #[pyo3(from_py_with = args::targets)] targets: Option<Vec<u32>>,
    routing: &str,
    machine: Option<HashMap<String, f64>>,
    model: &str,
    sources: Option<String>,
) -> PyResult<PyObject> {
    let mut o = opts(
        op, p, root, nbytes, packets, None, placement, targets, routing, machine,
    );
    o.args.sources = sources;
    let (t, model) = (topo.inner.clone(), model.to_string());
    let v = guarded(py, move || {
        let req = o.request(&t)?;
        let m = o.machine()?;
        let r = routing_for(&t, &o.routing)?;
        let (c, s) = tune_all(&req, &r, &m, RankBy::parse(&model)?)?;
        Ok(serde_json::json!({"candidates": c, "skipped": s}))
    })?;
    to_py(py, &v)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // Largest schedule (messages) `analyze`'s `auto` builds rather than taking per step.
    m.add(
        "SMALL_SCHEDULE",
        netcoll_core::plan::figures::SMALL_SCHEDULE,
    )?;
    m.add_function(wrap_pyfunction!(schedule_figures, m)?)?;
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    m.add_function(wrap_pyfunction!(tune, m)?)?;
    Ok(())
}
