//! Hierarchical network coding (seed 000): closed-form comparisons and DOR hop counts of
//! built schedules.

use crate::args;
use crate::schedule::PySchedule;
use crate::topology::PyTopology;
use crate::{guarded, to_py};
use netcoll_core::algorithms::{find, hnc, AlgoRequest, Params};
use netcoll_core::schedule::CollectiveKind;
use pyo3::prelude::*;

/// Closed-form figures of the all-to-all broadcast on `topo` by the tree-based and
/// all-at-once baselines and by HNC on each base (with `params` for HNC, e.g. group=8x4).
/// Returns a dict with keys tree, all_at_once, hnc_tree, hnc_all_at_once.
#[pyfunction]
#[pyo3(signature = (topo, *, params=None, nbytes=1024, packets=1))]
fn hnc_compare(
    py: Python<'_>,
    topo: &PyTopology,
    params: Option<Vec<String>>,
    #[pyo3(from_py_with = args::nbytes)] nbytes: u64,
    #[pyo3(from_py_with = args::packets)] packets: u32,
) -> PyResult<PyObject> {
    let t = topo.inner.clone();
    let params = params.unwrap_or_default();
    let out = guarded(py, move || {
        if params.iter().any(|p| p.trim_start().starts_with("base=")) {
            return Err(netcoll_core::Error::Spec(
                "the comparison runs HNC on both bases (tree and all-at-once): drop base=".into(),
            ));
        }
        let run = |name: &str, extra: &[String]| figure(&t, name, extra, nbytes, packets);
        let with_base = |base: &str| {
            let mut p = params.clone();
            p.push(format!("base={base}"));
            p
        };
        Ok(serde_json::json!({
            "tree": run("tree-multicast", &[])?,
            "all_at_once": run("all-at-once", &[])?,
            "hnc_tree": run("hnc", &with_base("tree"))?,
            "hnc_all_at_once": run("hnc", &with_base("all-at-once"))?,
        }))
    })?;
    to_py(py, &out)
}

/// Closed-form figures of one algorithm (hnc, tree-multicast, all-at-once) for the
/// all-to-all broadcast on `topo` with `params`.
#[pyfunction]
#[pyo3(signature = (algo, topo, *, params=None, nbytes=1024, packets=1))]
fn hnc_figure(
    py: Python<'_>,
    algo: &str,
    topo: &PyTopology,
    params: Option<Vec<String>>,
    #[pyo3(from_py_with = args::nbytes)] nbytes: u64,
    #[pyo3(from_py_with = args::packets)] packets: u32,
) -> PyResult<PyObject> {
    let (t, algo) = (topo.inner.clone(), algo.to_string());
    let params = params.unwrap_or_default();
    let out = guarded(py, move || figure(&t, &algo, &params, nbytes, packets))?;
    to_py(py, &out)
}

fn figure(
    t: &netcoll_core::Topology,
    name: &str,
    params: &[String],
    nbytes: u64,
    packets: u32,
) -> netcoll_core::Result<serde_json::Value> {
    let kind = CollectiveKind::AlltoallBroadcast;
    let algo = find(kind, name)?;
    let Some(closed) = algo.closed_form else {
        return Err(netcoll_core::Error::Spec(format!(
            "{name} has no closed form: use hnc, tree-multicast or all-at-once"
        )));
    };
    let mut req = AlgoRequest::new(t, kind);
    req.bytes = nbytes;
    req.packets = packets;
    req.params = Params::parse(params)?;
    req.validate()?;
    req.params.check_known(algo.name, algo.params)?;
    closed(&req)
}

/// Unicast messages and packets of a schedule placed on `topo`, and their aggregate hops
/// under dimension-order routing.
#[pyfunction]
fn schedule_hops(py: Python<'_>, schedule: &PySchedule, topo: &PyTopology) -> PyResult<PyObject> {
    let (s, t) = (schedule.inner.clone(), topo.inner.clone());
    let h = guarded(py, move || hnc::schedule_hops(&s, &t))?;
    to_py(py, &h)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(hnc_compare, m)?)?;
    m.add_function(wrap_pyfunction!(schedule_hops, m)?)?;
    m.add_function(wrap_pyfunction!(hnc_figure, m)?)?;
    Ok(())
}
