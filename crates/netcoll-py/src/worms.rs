//! Multidestination worms: what a worm multicast sends (`worms_show`) and the figures of a
//! multicast schedule (`multicast_figures`).

use crate::args;
use crate::request::RequestArgs;
use crate::schedule::PySchedule;
use crate::topology::PyTopology;
use crate::{guarded, to_py};
use netcoll_core::algorithms::worms;
use pyo3::prelude::*;

/// Every worm `algo` (worm-ssr | worm-path | worm-tree) sends for a multicast from rank
/// `root` to `targets`: phase, sender, drop switches, route, header; plus the POCs and the
/// figures (worms, phases, header_bits, link_traversals, estimate_cycles).
#[pyfunction]
#[pyo3(signature = (topo, algo, *, root=0, targets=None, params=None, nbytes=1024, packets=1))]
#[allow(clippy::too_many_arguments)]
fn worms_show(
    py: Python<'_>,
    topo: &PyTopology,
    algo: &str,
    #[pyo3(from_py_with = args::root)] root: u32,
    #[pyo3(from_py_with = args::targets)] targets: Option<Vec<u32>>,
    params: Option<Vec<String>>,
    #[pyo3(from_py_with = args::nbytes)] nbytes: u64,
    #[pyo3(from_py_with = args::packets)] packets: u32,
) -> PyResult<PyObject> {
    let (t, algo) = (topo.inner.clone(), algo.to_string());
    let shown = guarded(py, move || {
        let req = RequestArgs {
            op: "multicast".into(),
            p: None,
            root,
            nbytes,
            packets,
            params: params.unwrap_or_default(),
            placement: None,
            targets: targets.unwrap_or_default(),
            sources: None,
        }
        .request(&t)?;
        worms::show(&req, &algo)
    })?;
    to_py(py, &shown)
}

/// Worms, phases, header bits, link traversals, unicasts and the latency estimate of a
/// multicast schedule. With `topo`, unicasts' up*/down* routes (BFS root `ud_root`) count in
/// `link_traversals` too.
#[pyfunction]
#[pyo3(signature = (schedule, topo=None, ud_root=0))]
fn multicast_figures(
    py: Python<'_>,
    schedule: &PySchedule,
    topo: Option<&PyTopology>,
    #[pyo3(from_py_with = args::ud_root)] ud_root: usize,
) -> PyResult<PyObject> {
    let s = schedule.inner.clone();
    let t = topo.map(|t| t.inner.clone());
    let f = guarded(py, move || match t {
        Some(t) => worms::figures_routed(&s, &t, ud_root),
        None => Ok(worms::figures(&s)),
    })?;
    to_py(py, &f)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(worms_show, m)?)?;
    m.add_function(wrap_pyfunction!(multicast_figures, m)?)?;
    Ok(())
}
