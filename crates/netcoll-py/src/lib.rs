//! Thin PyO3 bindings of netcoll-core. Everything of substance lives in the core crate; this
//! file converts arguments and results, turns core errors into `NetcollError`, releases the
//! GIL around long computations, and stops Rust panics at the border.

//!
//! Each area has its own file with a `register` function: topology.rs (networks, routing,
//! metrics), schedule.rs (algorithms and schedules). Shared helpers live here.

mod analytic;
mod flit;
mod formats;
mod hnc;
mod manytoall;
mod models;
mod mpi;
mod request;
mod schedule;
mod step;
mod topology;
mod worms;

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde::Serialize;
use std::panic::{catch_unwind, AssertUnwindSafe};

create_exception!(
    _core,
    NetcollError,
    PyValueError,
    "Bad input or an impossible request; the message says what and how to mend it."
);

/// Runs `f` without the GIL; a core error becomes NetcollError and a panic becomes a
/// NetcollError that says it is a bug, so neither crosses into Python as a crash.
pub(crate) fn guarded<T: Send>(
    py: Python<'_>,
    f: impl FnOnce() -> netcoll_core::Result<T> + Send,
) -> PyResult<T> {
    match py.allow_threads(|| catch_unwind(AssertUnwindSafe(f))) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(NetcollError::new_err(e.to_string())),
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            let at = PANIC_AT.with(|a| a.borrow_mut().take()).unwrap_or_default();
            Err(NetcollError::new_err(format!(
                "internal error in netcoll-core ({what}{at}); please report it with the command that caused it"
            )))
        }
    }
}

thread_local! {
    /// Where the last panic on this thread happened (` at file:line`), for `guarded`.
    static PANIC_AT: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Panics become one error line (`guarded`) instead of a message and a backtrace on
/// stderr; `NETCOLL_DEBUG=1` prints the panic as Rust would.
fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()));
        PANIC_AT.with(|a| *a.borrow_mut() = at);
        if std::env::var_os("NETCOLL_DEBUG").is_some() {
            eprintln!("{info}");
        }
    }));
}

pub(crate) fn to_py<T: Serialize>(py: Python<'_>, value: &T) -> PyResult<PyObject> {
    Ok(pythonize::pythonize(py, value)
        .map_err(|e| NetcollError::new_err(e.to_string()))?
        .unbind())
}

/// Panics inside `guarded` on purpose: the test of the panic path (no other way to reach it
/// once the known panics are fixed).
#[pyfunction]
fn _panic_for_tests(py: Python<'_>) -> PyResult<()> {
    guarded(py, || -> netcoll_core::Result<()> {
        panic!("deliberate test panic")
    })
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    quiet_panics();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    m.add("NetcollError", m.py().get_type::<NetcollError>())?;
    topology::register(m)?;
    schedule::register(m)?;
    analytic::register(m)?;
    hnc::register(m)?;
    manytoall::register(m)?;
    models::register(m)?;
    step::register(m)?;
    worms::register(m)?;
    flit::register(m)?;
    formats::register(m)?;
    mpi::register(m)?;
    Ok(())
}
