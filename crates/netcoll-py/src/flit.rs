//! The flit engine: synthetic-traffic simulation from BookSim-style keys.

use crate::schedule::PySchedule;
use crate::topology::PyTopology;
use crate::{guarded, to_py};
use netcoll_core::engines::flit::{
    booksim_settings, config::all_keys, parse_settings, run_schedule, FlitConfig,
};
use netcoll_core::plan::multicast_load::simulate_traffic_with as run;
use pyo3::prelude::*;

/// Runs a schedule on the flit network of `topo`. `sim` holds network keys (as
/// `simulate_traffic`) and schedule keys (flit_bytes, t_hs, t_ns, t_hr, t_nr, compute_base,
/// compute_per_flit, copy_per_flit). Returns `cycles`, `verified`, `avg_packet_latency`, ...
#[pyfunction]
#[pyo3(signature = (schedule, topo, sim=None))]
fn simulate_schedule(
    py: Python<'_>,
    schedule: &PySchedule,
    topo: &PyTopology,
    sim: Option<Vec<(String, String)>>,
) -> PyResult<PyObject> {
    let (s, t) = (schedule.inner.clone(), topo.inner.clone());
    let sim = sim.unwrap_or_default();
    let r = guarded(py, move || {
        let (cfg, par) = parse_settings(sim.iter().map(|(k, v)| (k.as_str(), v.as_str())))?;
        run_schedule(&t, &s, &cfg, &par)
    })?;
    to_py(py, &r)
}

/// Simulates synthetic traffic. `config` maps BookSim keys (see `flit_keys()`) to their
/// values as text (`"8"`, `"mesh"`, `"hotspot({0,5})"`); unset keys take netcoll's defaults.
/// With `traffic = multicast` and `multicast_scheme = ni-kbinomial | worm-path | worm-tree`
/// it also takes the schedule keys (t_hs, t_ns, t_hr, t_nr, io_bus_mb_s, ni_serial, ...):
/// every multicast then runs that algorithm's schedule with the host/NI overheads.
/// Returns the result as a dict (`avg_packet_latency`, `accepted_rate`, `cycles`,
/// `deadlock`, `multicast`, ...).
#[pyfunction]
fn simulate_traffic(py: Python<'_>, config: Vec<(String, String)>) -> PyResult<PyObject> {
    let r = guarded(py, move || {
        let (cfg, par) = parse_settings(config.iter().map(|(k, v)| (k.as_str(), v.as_str())))?;
        run(&cfg, &par)
    })?;
    to_py(py, &r)
}

/// Simulates a BookSim 2 configuration file as it is (BookSim's grammar and defaults;
/// `network_file` also found beside the file), then `overrides` (`key`, `value`) on top.
/// Returns the result as `simulate_traffic` does.
#[pyfunction]
fn simulate_booksim(
    py: Python<'_>,
    path: String,
    overrides: Vec<(String, String)>,
) -> PyResult<PyObject> {
    let r = guarded(py, move || {
        let pairs = overrides.iter().map(|(k, v)| (k.as_str(), v.as_str()));
        let (cfg, par) = booksim_settings(std::path::Path::new(&path), pairs)?;
        run(&cfg, &par)
    })?;
    to_py(py, &r)
}

/// Parses BookSim configuration text into (key, value) pairs in file order; `origin` names
/// it in errors (`origin:line:column: ...`).
#[pyfunction]
fn parse_booksim_config(py: Python<'_>, text: String, origin: String) -> PyResult<PyObject> {
    let r = guarded(py, move || {
        let st = netcoll_core::engines::flit::cfgfile::parse(&text, &origin)?;
        Ok(st.into_iter().map(|s| (s.key, s.value)).collect::<Vec<_>>())
    })?;
    to_py(py, &r)
}

/// The configuration keys the flit engine accepts.
#[pyfunction]
fn flit_keys() -> Vec<&'static str> {
    all_keys()
}

/// The known name nearest `name` (a typo's likely meaning), by the rule every registry of
/// the flit engine uses, so that the CLI's hints and the core's agree.
#[pyfunction]
fn nearest_name(name: &str, known: Vec<String>) -> Option<String> {
    netcoll_core::engines::flit::registry::nearest(name, known.iter().map(String::as_str))
        .map(str::to_owned)
}

/// The default configuration as a dict.
#[pyfunction]
fn flit_defaults(py: Python<'_>) -> PyResult<PyObject> {
    to_py(py, &FlitConfig::default())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(simulate_traffic, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_booksim, m)?)?;
    m.add_function(wrap_pyfunction!(parse_booksim_config, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_schedule, m)?)?;
    m.add_function(wrap_pyfunction!(flit_keys, m)?)?;
    m.add_function(wrap_pyfunction!(flit_defaults, m)?)?;
    m.add_function(wrap_pyfunction!(nearest_name, m)?)?;
    Ok(())
}
