//! Schedule files in other tools' formats (MSCCL XML, GOAL) and the LogGOPS engine.

use crate::analytic;
use crate::schedule::PySchedule;
use crate::topology::PyTopology;
use crate::{guarded, to_py};
use netcoll_core::algorithms::parse_collective;
use netcoll_core::engines::analytic::analyze_sized;
use netcoll_core::engines::{loggops, loggops_options};
use netcoll_core::plan::tune::routing_for;
use netcoll_core::schedule::formats::{self, Format, ReadOptions};
use pyo3::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

fn options(op: Option<&str>, root: u32, nbytes: Option<u64>) -> netcoll_core::Result<ReadOptions> {
    Ok(ReadOptions {
        op: op.map(parse_collective).transpose()?,
        root,
        bytes: nbytes,
        rendezvous: None,
    })
}

/// Proves a schedule file (any format, detected from `data`); `name` names it in errors.
/// Returns verified, format, op, ranks, messages and (when wrong) diagnosis.
#[pyfunction]
#[pyo3(signature = (data, name, *, op=None, root=0, nbytes=None))]
fn verify_file(
    py: Python<'_>,
    data: Vec<u8>,
    name: String,
    op: Option<String>,
    root: u32,
    nbytes: Option<u64>,
) -> PyResult<PyObject> {
    let v = guarded(py, move || {
        let opt = options(op.as_deref(), root, nbytes)?;
        formats::verify_file(&data, &name, opt)
    })?;
    to_py(py, &v)
}

/// Reads a schedule file (netcoll JSON or MSCCL XML) as a schedule the engines run.
#[pyfunction]
#[pyo3(signature = (data, name, *, op=None, root=0, nbytes=None))]
fn load_schedule(
    py: Python<'_>,
    data: Vec<u8>,
    name: String,
    op: Option<String>,
    root: u32,
    nbytes: Option<u64>,
) -> PyResult<PySchedule> {
    let s = guarded(py, move || {
        let opt = options(op.as_deref(), root, nbytes)?;
        formats::load_ir(&data, &name, opt)
    })?;
    Ok(PySchedule { inner: Arc::new(s) })
}

/// The schedule as text in `format` (json, msccl-xml, goal).
#[pyfunction]
fn write_schedule(py: Python<'_>, schedule: &PySchedule, format: String) -> PyResult<String> {
    let s = schedule.inner.clone();
    guarded(py, move || formats::write(&s, Format::parse(&format)?))
}

/// LogGOPSim's model on a GOAL file (or any schedule file, written as GOAL) or a schedule:
/// time, rank_times, events (and qstat with `qstat=1`). `params` maps L, o, g, G, O, S to
/// values (defaults LogGOPSim's; LogGOPSim's other options are refused by name, see
/// `loggops_options`); `hops=1` makes L per routed hop of `topo` (ranks on endpoints as the schedule places
/// them, a GOAL file's rank r on endpoint r).
#[pyfunction]
#[pyo3(signature = (*, data=None, name=String::new(), schedule=None, params=Vec::new(), op=None,
                    root=0, topo=None))]
#[allow(clippy::too_many_arguments)]
fn loggops_simulate(
    py: Python<'_>,
    data: Option<pyo3::pybacked::PyBackedBytes>,
    name: String,
    schedule: Option<&PySchedule>,
    params: Vec<(String, String)>,
    op: Option<String>,
    root: u32,
    topo: Option<&PyTopology>,
) -> PyResult<PyObject> {
    let s = schedule.map(|s| s.inner.clone());
    let t = topo.map(|t| t.inner.clone());
    let result = guarded(py, move || {
        let set = loggops_options::parse(&params)?;
        let (p, per_hop, opt) = (set.params, set.per_hop, set.options);
        let (goal, placement) = match (s, data) {
            (Some(s), _) => (
                formats::goal_write::to_goal(&s, 0)?.0,
                s.placement().to_vec(),
            ),
            (None, Some(d)) => {
                let opt = options(op.as_deref(), root, None)?;
                if Format::detect(&d, &name)? == Format::Goal {
                    let g = formats::load_goal(&d, &name, opt)?;
                    let identity = (0..g.num_ranks()).collect();
                    (g, identity)
                } else {
                    let s = formats::load_ir(&d, &name, opt)?;
                    (
                        formats::goal_write::to_goal(&s, 0)?.0,
                        s.placement().to_vec(),
                    )
                }
            }
            (None, None) => {
                return Err(netcoll_core::Error::Spec(
                    "give a schedule or a file".into(),
                ))
            }
        };
        if !per_hop {
            return loggops::simulate_with(&goal, &p, opt);
        }
        let Some(t) = t else {
            return netcoll_core::spec_err!(
                "--sim hops=1 charges L per hop of the network's routes: give --topo SPEC"
            );
        };
        let routing = routing_for(&t, "auto")?;
        let hops = loggops::route_hops(&t, &routing, &placement)?;
        loggops::simulate_routed(&goal, &p, &hops, opt)
    })?;
    to_py(py, &result)
}

/// The analytic engine's figures of a schedule read from a file (`load_schedule`) on `topo`,
/// as `analyze --method schedule` gives them for a built one; `verified` is the file's own
/// verdict (the IR verifier's, or for GOAL the happens-before check's).
#[pyfunction]
#[pyo3(signature = (schedule, topo, *, routing="auto", machine=None))]
fn analyze_loaded(
    py: Python<'_>,
    schedule: &PySchedule,
    topo: &PyTopology,
    routing: &str,
    machine: Option<HashMap<String, f64>>,
) -> PyResult<PyObject> {
    let (s, t) = (schedule.inner.clone(), topo.inner.clone());
    let o = analytic::opts("", None, 0, 1, 1, None, None, None, routing, machine);
    let v = guarded(py, move || {
        let m = o.machine()?;
        let r = routing_for(&t, &o.routing)?;
        let (a, depth) = analyze_sized(&s, &t, &r, &m)?;
        let mut fig = analytic::figures(&a, depth);
        fig["verified"] = serde_json::Value::Bool(s.is_correct());
        Ok(fig)
    })?;
    to_py(py, &v)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(analyze_loaded, m)?)?;
    m.add_function(wrap_pyfunction!(verify_file, m)?)?;
    m.add_function(wrap_pyfunction!(load_schedule, m)?)?;
    m.add_function(wrap_pyfunction!(write_schedule, m)?)?;
    m.add_function(wrap_pyfunction!(loggops_simulate, m)?)?;
    Ok(())
}
