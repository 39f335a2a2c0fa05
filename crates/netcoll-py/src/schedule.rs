//! Schedules: the algorithm registry, building, verifying and (de)serialising schedules.

use crate::args;
use crate::request::RequestArgs;
use crate::topology::PyTopology;
use crate::{guarded, to_py};
use netcoll_core::algorithms as registry;
use netcoll_core::schedule::Schedule;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::Arc;

/// A verified schedule.
#[pyclass(module = "netcoll._core", name = "Schedule", frozen)]
pub struct PySchedule {
    pub inner: Arc<Schedule>,
}

#[pymethods]
impl PySchedule {
    /// Reads a schedule from its JSON text (docs/schedule.md).
    #[staticmethod]
    fn from_json(py: Python<'_>, text: &str) -> PyResult<Self> {
        let text = text.to_string();
        let s = guarded(py, move || Schedule::from_json(&text))?;
        Ok(PySchedule { inner: Arc::new(s) })
    }
    #[pyo3(signature = (pretty=false))]
    fn to_json(&self, pretty: bool) -> String {
        if pretty {
            self.inner.to_json_pretty()
        } else {
            self.inner.to_json()
        }
    }
    /// The verifier's report: ok, diagnosis, counts.
    fn verify(&self, py: Python<'_>) -> PyResult<PyObject> {
        let s = self.inner.clone();
        let report = guarded(py, move || Ok(s.verify()))?;
        to_py(py, &report)
    }
    #[getter]
    fn p(&self) -> u32 {
        self.inner.p()
    }
    #[getter]
    fn kind(&self) -> &'static str {
        self.inner.collective().kind.name()
    }
    #[getter]
    fn root(&self) -> u32 {
        self.inner.collective().root
    }
    #[getter]
    fn placement(&self) -> Vec<u32> {
        self.inner.placement().to_vec()
    }
}

/// Every registered algorithm as a dict (name, collectives, family, params, ...).
#[pyfunction]
fn algorithms<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for a in registry::registry() {
        let d = PyDict::new(py);
        d.set_item("name", a.name)?;
        let kinds: Vec<&str> = a.kinds.iter().map(|k| k.name()).collect();
        d.set_item("collectives", kinds)?;
        d.set_item("family", a.family)?;
        let params = PyList::empty(py);
        for p in a.params {
            let pd = PyDict::new(py);
            pd.set_item("name", p.name)?;
            pd.set_item("default", p.default)?;
            pd.set_item("help", p.help)?;
            params.append(pd)?;
        }
        d.set_item("params", params)?;
        d.set_item("preconditions", a.preconditions)?;
        d.set_item("source", a.source)?;
        d.set_item("summary", a.summary)?;
        list.append(d)?;
    }
    Ok(list)
}

/// Builds and verifies the schedule of collective `op` by algorithm `algo` on `topo`.
/// `p` defaults to every endpoint; `placement` to rank i on endpoint i.
#[pyfunction]
#[pyo3(signature = (op, algo, topo, *, p=None, root=0, nbytes=1024, packets=1, params=None,
                    placement=None, targets=None, sources=None))]
#[allow(clippy::too_many_arguments)]
fn build_schedule(
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
    sources: Option<String>,
) -> PyResult<PySchedule> {
    let args = RequestArgs {
        op: op.to_string(),
        p,
        root,
        nbytes,
        packets,
        params: params.unwrap_or_default(),
        placement,
        targets: targets.unwrap_or_default(),
        sources,
    };
    let (algo, t) = (algo.to_string(), topo.inner.clone());
    let s = guarded(py, move || {
        let req = args.request(&t)?;
        registry::build(&algo, &req)
    })?;
    Ok(PySchedule { inner: Arc::new(s) })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySchedule>()?;
    m.add_function(wrap_pyfunction!(algorithms, m)?)?;
    m.add_function(wrap_pyfunction!(build_schedule, m)?)?;
    Ok(())
}
