//! netcoll's native MPI executor: runs one rank's lowered schedule (see
//! `python/netcoll/mpi/lower.py`, which writes it, and docs/mpi.md) through the MPI library
//! already loaded in the process. No Python here: `crates/netcoll-py/src/mpi.rs` is the thin
//! binding.
//!
//! - [`program`]: the lowered program (ops, transfers bound to byte spans, instructions) and
//!   its bounds check;
//! - [`ffi`]: the MPI functions, resolved at run time (MPICH ABI);
//! - [`exec`]: a program bound to one buffer set (persistent requests, derived datatypes)
//!   and its runs;
//! - [`reduce`]: element-wise reductions with numpy's semantics.

pub mod exec;
pub mod ffi;
pub mod program;
pub mod reduce;

pub use exec::{Bound, Buffer, Handles, Polling};
pub use program::Program;
pub use reduce::Reduction;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    Program(String),
    #[error("{0}")]
    Unsupported(String),
    #[error("cannot use the MPI library: {0}")]
    Load(String),
    #[error("{call} failed with MPI error code {code}")]
    Mpi { call: &'static str, code: i32 },
    #[error("{0} ops wait for ops that never complete (the schedule is not executable)")]
    Stuck(usize),
}

pub type Result<T> = std::result::Result<T, Error>;
