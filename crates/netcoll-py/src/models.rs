//! Analytic models (seed 001, 002, 003 closed forms) as plain functions; the Python module
//! `netcoll.models` wraps them (exact fractions come back as `(numerator, denominator)`).

use crate::args;
use crate::guarded;
use netcoll_core::models::{self, Ratio};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// `(multi-send us, repeated-unicast us)` for one packet to `ndest` destinations (seed 002 s2).
#[pyfunction]
#[pyo3(signature = (nbytes, ndest, write_combining=false))]
fn multisend_time(
    py: Python<'_>,
    #[pyo3(from_py_with = args::nbytes)] nbytes: u64,
    #[pyo3(from_py_with = args::ndest)] ndest: u64,
    write_combining: bool,
) -> PyResult<(f64, f64)> {
    guarded(py, move || {
        models::multisend_time(nbytes, ndest, write_combining)
    })
}

/// Postal lambda of a multi-send tree for `nbytes` packets (seed 002 s4).
#[pyfunction]
#[pyo3(signature = (nbytes, write_combining=false))]
fn multisend_lambda(
    py: Python<'_>,
    #[pyo3(from_py_with = args::nbytes)] nbytes: u64,
    write_combining: bool,
) -> PyResult<f64> {
    guarded(py, move || {
        models::multisend_lambda(nbytes, write_combining)
    })
}

/// Postal lambda of a host-based unicast tree for `nbytes` packets.
#[pyfunction]
#[pyo3(signature = (nbytes, write_combining=false))]
fn unicast_lambda(
    py: Python<'_>,
    #[pyo3(from_py_with = args::nbytes)] nbytes: u64,
    write_combining: bool,
) -> PyResult<f64> {
    guarded(py, move || models::unicast_lambda(nbytes, write_combining))
}

/// `F_lambda(t)`.
#[pyfunction]
fn postal_reach(py: Python<'_>, lam: f64, t: f64) -> PyResult<u64> {
    guarded(py, move || models::postal_reach(lam, t))
}

/// The greedy postal tree as a dict, and its completion time.
#[pyfunction]
fn postal_tree<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = args::n)] n: u64,
    lam: f64,
) -> PyResult<(Bound<'py, PyDict>, f64)> {
    let (tree, done) = guarded(py, move || models::postal_tree(n, lam))?;
    let d = PyDict::new(py);
    d.set_item("lam", tree.lam)?;
    d.set_item("parent", tree.parent)?;
    d.set_item("children", tree.children)?;
    d.set_item("send_time", tree.send_time)?;
    d.set_item("recv_time", tree.recv_time)?;
    d.set_item("completion", tree.completion)?;
    Ok((d, done))
}

/// `N(s, k)` (seed 003 Lemma 4).
#[pyfunction]
fn kbinomial_reach(
    py: Python<'_>,
    #[pyo3(from_py_with = args::s)] s: u32,
    #[pyo3(from_py_with = args::k)] k: u32,
) -> PyResult<u64> {
    guarded(py, move || models::kbinomial_reach(s, k))
}

/// Steps of a pipelined FPFS multicast over a k-binomial tree.
#[pyfunction]
fn kbinomial_steps(
    py: Python<'_>,
    #[pyo3(from_py_with = args::n)] n: u64,
    #[pyo3(from_py_with = args::m)] m: u64,
    #[pyo3(from_py_with = args::k)] k: u32,
) -> PyResult<u64> {
    guarded(py, move || models::kbinomial_steps(n, m, k))
}

/// `(k, steps)` of Theorem 3.
#[pyfunction]
fn kbinomial_optimal(
    py: Python<'_>,
    #[pyo3(from_py_with = args::n)] n: u64,
    #[pyo3(from_py_with = args::m)] m: u64,
) -> PyResult<(u32, u64)> {
    guarded(py, move || models::kbinomial_optimal(n, m))
}

/// Children lists of the contention-free k-binomial tree on the chain `0..n`.
#[pyfunction]
fn kbinomial_tree(
    py: Python<'_>,
    #[pyo3(from_py_with = args::n)] n: u64,
    #[pyo3(from_py_with = args::k)] k: u32,
) -> PyResult<Vec<Vec<usize>>> {
    guarded(py, move || models::kbinomial_tree(n, k))
}

/// FPFS step count of an arbitrary tree (children lists, root 0) for `m` packets.
#[pyfunction]
fn fpfs_steps(
    py: Python<'_>,
    children: Vec<Vec<usize>>,
    #[pyo3(from_py_with = args::m)] m: u64,
) -> PyResult<u64> {
    guarded(py, move || models::fpfs_steps(&children, m))
}

type Frac = (i128, i128);
/// `(dims, strategy, alpha, n beta)` of one hybrid.
type HybridRow = (Vec<u64>, String, Frac, Frac);

fn frac(r: Ratio) -> Frac {
    (r.numer(), r.denom())
}

/// Exact `(alpha, n beta)` coefficients of a hybrid broadcast on a linear array (Table 2).
#[pyfunction]
fn hybrid_broadcast_cost(py: Python<'_>, dims: &str, strategy: &str) -> PyResult<(Frac, Frac)> {
    let (dims, strategy) = (dims.to_string(), strategy.to_string());
    guarded(py, move || {
        let d = models::parse_mesh(&dims)?;
        let (a, b) = models::hybrid_broadcast_cost(&d, &strategy)?;
        Ok((frac(a), frac(b)))
    })
}

/// Every hybrid broadcast on `p` nodes: `(dims, strategy, alpha, nbeta)` with exact fractions.
#[pyfunction]
#[pyo3(signature = (p, max_dims=4))]
fn hybrid_broadcast_options(
    py: Python<'_>,
    #[pyo3(from_py_with = args::ranks_u64)] p: u64,
    #[pyo3(from_py_with = args::max_dims)] max_dims: usize,
) -> PyResult<Vec<HybridRow>> {
    guarded(py, move || {
        Ok(models::hybrid_broadcast_options(p, max_dims)?
            .into_iter()
            .map(|o| (o.dims, o.strategy, frac(o.alpha), frac(o.nbeta)))
            .collect())
    })
}

/// Adds the submodule `_core.models` (its own namespace: these names are common words).
pub fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let m = &PyModule::new(parent.py(), "models")?;
    m.add_function(wrap_pyfunction!(multisend_time, m)?)?;
    m.add_function(wrap_pyfunction!(multisend_lambda, m)?)?;
    m.add_function(wrap_pyfunction!(unicast_lambda, m)?)?;
    m.add_function(wrap_pyfunction!(postal_reach, m)?)?;
    m.add_function(wrap_pyfunction!(postal_tree, m)?)?;
    m.add_function(wrap_pyfunction!(kbinomial_reach, m)?)?;
    m.add_function(wrap_pyfunction!(kbinomial_steps, m)?)?;
    m.add_function(wrap_pyfunction!(kbinomial_optimal, m)?)?;
    m.add_function(wrap_pyfunction!(kbinomial_tree, m)?)?;
    m.add_function(wrap_pyfunction!(fpfs_steps, m)?)?;
    m.add_function(wrap_pyfunction!(hybrid_broadcast_cost, m)?)?;
    m.add_function(wrap_pyfunction!(hybrid_broadcast_options, m)?)?;
    parent.add_submodule(m)
}
