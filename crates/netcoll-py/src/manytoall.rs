//! Many-to-all multicast (seed 000 s6.3): the source picker, so that Python names exactly the
//! ranks the core does. Schedules and figures go through `build_schedule`, `schedule_figures`
//! and `analyze` with `sources=`.

use crate::args;
use crate::guarded;
use pyo3::prelude::*;

/// The source ranks `spec` names among `p` ranks: `0,5,9`, `all` or `random:COUNT,seed=S`
/// (seeded, sorted). Bad specs raise NetcollError with one line.
#[pyfunction]
fn parse_sources(
    py: Python<'_>,
    spec: &str,
    #[pyo3(from_py_with = args::ranks)] p: u32,
) -> PyResult<Vec<u32>> {
    let spec = spec.to_string();
    guarded(py, move || {
        netcoll_core::algorithms::parse_sources(&spec, p)
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(parse_sources, m)?)?;
    Ok(())
}
