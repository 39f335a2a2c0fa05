//! Schedule files in other tools' formats (MSCCL XML, GOAL) and the LogGOPS engine.

use crate::schedule::PySchedule;
use crate::{guarded, to_py};
use netcoll_core::algorithms::parse_collective;
use netcoll_core::engines::loggops::{self, LogGops};
use netcoll_core::schedule::formats::{self, Format, ReadOptions};
use pyo3::prelude::*;
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
/// time, rank_times, events. `params` maps L, o, g, G, O, S to values (defaults LogGOPSim's).
#[pyfunction]
#[pyo3(signature = (*, data=None, name=String::new(), schedule=None, params=Vec::new(), op=None, root=0))]
fn loggops_simulate(
    py: Python<'_>,
    data: Option<Vec<u8>>,
    name: String,
    schedule: Option<&PySchedule>,
    params: Vec<(String, u64)>,
    op: Option<String>,
    root: u32,
) -> PyResult<PyObject> {
    let s = schedule.map(|s| s.inner.clone());
    let result = guarded(py, move || {
        let mut p = LogGops::default();
        for (k, v) in &params {
            p.set(k, *v)?;
        }
        let goal = match (s, data) {
            (Some(s), _) => formats::goal_write::to_goal(&s, 0)?.0,
            (None, Some(d)) => formats::load_goal(&d, &name, options(op.as_deref(), root, None)?)?,
            (None, None) => {
                return Err(netcoll_core::Error::Spec(
                    "give a schedule or a file".into(),
                ))
            }
        };
        loggops::simulate(&goal, &p)
    })?;
    to_py(py, &result)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(verify_file, m)?)?;
    m.add_function(wrap_pyfunction!(load_schedule, m)?)?;
    m.add_function(wrap_pyfunction!(write_schedule, m)?)?;
    m.add_function(wrap_pyfunction!(loggops_simulate, m)?)?;
    Ok(())
}
