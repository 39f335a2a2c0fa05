//! Bindings of the native MPI executor (`netcoll-mpi`): a lowered program, bound to numpy
//! buffers by address, run once per call. The Python side (`netcoll/mpi/native.py`) keeps
//! the buffers alive as long as their binding.

use crate::NetcollError;
use netcoll_mpi::ffi::Mpi;
use netcoll_mpi::{Bound as Binding, Buffer, Handles, Polling, Program, Reduction};
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, OnceLock};

static MPI: OnceLock<Mpi> = OnceLock::new();

/// An executor error becomes NetcollError, a panic a NetcollError that says it is a bug.
fn shielded<T>(f: impl FnOnce() -> netcoll_mpi::Result<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(NetcollError::new_err(e.to_string())),
        Err(_) => Err(NetcollError::new_err(
            "internal error in the native MPI executor; please report it with the command",
        )),
    }
}

#[pyclass(name = "MpiProgram", frozen, module = "netcoll._core")]
pub struct PyMpiProgram(Arc<Program>);

/// Reads a lowered program (JSON from `netcoll.mpi.lower`); `dtype` (numpy's `dtype.str`)
/// and `op` name its reduction, if it has one.
#[pyfunction]
#[pyo3(signature = (text, dtype=None, op=None))]
fn mpi_program(text: &str, dtype: Option<&str>, op: Option<&str>) -> PyResult<PyMpiProgram> {
    shielded(|| {
        let red = match (dtype, op) {
            (Some(d), Some(o)) => Some(Reduction::new(d, o)?),
            _ => None,
        };
        Ok(PyMpiProgram(Arc::new(Program::from_json(text, red)?)))
    })
}

#[pyclass(name = "MpiBinding", unsendable, module = "netcoll._core")]
pub struct PyMpiBinding(Binding);

/// Binds `program` to three buffers `(address, bytes)` (input, output, scratch) on the
/// communicator handle `comm` of the MPI library at `library` (already loaded by mpi4py);
/// `byte` and `request_null` are MPI_BYTE and MPI_REQUEST_NULL as mpi4py sees them;
/// `polling` `(spin, yields, max_nap_us)` makes it poll instead of blocking in MPI_Waitsome.
/// The caller keeps the buffers alive and in place while the binding lives.
#[pyfunction]
#[pyo3(signature = (library, program, buffers, comm, byte, request_null, polling=None))]
fn mpi_bind(
    library: &str,
    program: &PyMpiProgram,
    buffers: [(usize, usize); 3],
    comm: i64,
    byte: i64,
    request_null: i64,
    polling: Option<(u32, u32, u32)>,
) -> PyResult<PyMpiBinding> {
    shielded(|| {
        let mpi = match MPI.get() {
            Some(m) => m,
            None => {
                let opened = Mpi::open(library)?;
                MPI.get_or_init(|| opened)
            }
        };
        let bufs = buffers.map(|(addr, len)| Buffer { addr, len });
        // MPICH handles are C ints; mpi4py shows them unsigned (0x84000000 and up).
        let h = Handles {
            comm: comm as i32,
            byte: byte as i32,
            request_null: request_null as i32,
        };
        // SAFETY: netcoll.mpi.native passes the addresses of numpy arrays it keeps
        // referenced (so alive and unmoved) for as long as this binding.
        let polling = polling.map(|(spin, yields, nap_us)| Polling {
            spin,
            yields,
            max_nap_ns: i64::from(nap_us) * 1000,
        });
        let b = unsafe { Binding::new(mpi, program.0.clone(), bufs, h, polling)? };
        Ok(PyMpiBinding(b))
    })
}

#[pymethods]
impl PyMpiBinding {
    /// One run; the flags are the checker's self-tests.
    #[pyo3(signature = (corrupt_xor=false, corrupt_input=false))]
    fn run(&mut self, corrupt_xor: bool, corrupt_input: bool) -> PyResult<()> {
        shielded(|| self.0.run(corrupt_xor, corrupt_input))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyMpiProgram>()?;
    m.add_class::<PyMpiBinding>()?;
    m.add_function(wrap_pyfunction!(mpi_program, m)?)?;
    m.add_function(wrap_pyfunction!(mpi_bind, m)?)?;
    Ok(())
}
