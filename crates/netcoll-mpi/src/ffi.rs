//! The MPI functions the executor calls, resolved at run time from the MPI library that is
//! already loaded in the process (mpi4py loaded the `mpich` wheel's `libmpi.so.12`), so
//! netcoll builds on a machine without MPI headers and always talks to the same library as
//! mpi4py.
//!
//! ABI: MPICH's, where `MPI_Comm`, `MPI_Datatype` and `MPI_Request` are C `int`s and
//! `MPI_Aint` is `intptr_t` (mpi.h of the mpich 5.0.2 wheel: `typedef int MPI_Comm;`, ...).
//! The handles that are values (the communicator, `MPI_BYTE`, `MPI_REQUEST_NULL`) are not
//! hard-coded: the caller passes them as mpi4py sees them (`MPI._handleof`), after checking
//! that the library is MPICH and a handle is 4 bytes. Two constants are MPICH's own and fixed
//! here: `MPI_STATUSES_IGNORE` is `(MPI_Status *)1` and `MPI_BOTTOM` is `(void *)0`
//! (mpi.h lines `#define MPI_STATUSES_IGNORE (MPI_Status *)1`, `#define MPI_BOTTOM (void *)0`).

use crate::{Error, Result};
use libloading::os::unix::{Library, RTLD_NOW};
use std::ffi::{c_int, c_void};

/// An MPICH handle (communicator, datatype, request).
pub type Handle = c_int;
/// `MPI_Aint` (`intptr_t`).
pub type Aint = isize;

/// MPICH's `MPI_STATUSES_IGNORE`: the address 1 is its value, not a pointer to anything.
#[allow(clippy::manual_dangling_ptr)]
pub const STATUSES_IGNORE: *mut c_void = 1 as *mut c_void;
pub const BOTTOM: *const c_void = std::ptr::null();
/// RTLD_NOLOAD (glibc, bits/dlfcn.h): find the library only if it is already loaded.
const RTLD_NOLOAD: c_int = 0x4;

type PtpInit =
    unsafe extern "C" fn(*mut c_void, c_int, Handle, c_int, c_int, Handle, *mut Handle) -> c_int;
type Startall = unsafe extern "C" fn(c_int, *mut Handle) -> c_int;
type Some_ = unsafe extern "C" fn(c_int, *mut Handle, *mut c_int, *mut c_int, *mut c_void) -> c_int;
type HandleOp = unsafe extern "C" fn(*mut Handle) -> c_int;
type Hindexed =
    unsafe extern "C" fn(c_int, *const c_int, *const Aint, Handle, *mut Handle) -> c_int;
type Flag = unsafe extern "C" fn(*mut c_int) -> c_int;

/// The resolved functions; `_lib` keeps the library's reference count up.
pub struct Mpi {
    _lib: Library,
    pub send_init: PtpInit,
    pub recv_init: PtpInit,
    pub startall: Startall,
    pub waitsome: Some_,
    pub testsome: Some_,
    pub request_free: HandleOp,
    pub type_create_hindexed: Hindexed,
    pub type_commit: HandleOp,
    pub type_free: HandleOp,
    pub finalized: Flag,
    pub initialized: Flag,
}

impl Mpi {
    /// Resolves the functions from `path`, which must already be loaded in this process.
    pub fn open(path: &str) -> Result<Mpi> {
        // SAFETY: with RTLD_NOLOAD nothing new is loaded, so no initialiser runs.
        let lib = unsafe { Library::open(Some(path), RTLD_NOW | RTLD_NOLOAD) }.map_err(|e| {
            Error::Load(format!(
                "{path} is not loaded in this process ({e}): import mpi4py first"
            ))
        })?;
        macro_rules! sym {
            ($name:literal) => {
                // SAFETY: the type is the MPI standard's C prototype under MPICH's ABI.
                *unsafe { lib.get(concat!($name, "\0").as_bytes()) }
                    .map_err(|e| Error::Load(format!("{path} has no {}: {e}", $name)))?
            };
        }
        let mpi = Mpi {
            send_init: sym!("MPI_Send_init"),
            recv_init: sym!("MPI_Recv_init"),
            startall: sym!("MPI_Startall"),
            waitsome: sym!("MPI_Waitsome"),
            testsome: sym!("MPI_Testsome"),
            request_free: sym!("MPI_Request_free"),
            type_create_hindexed: sym!("MPI_Type_create_hindexed"),
            type_commit: sym!("MPI_Type_commit"),
            type_free: sym!("MPI_Type_free"),
            finalized: sym!("MPI_Finalized"),
            initialized: sym!("MPI_Initialized"),
            _lib: lib,
        };
        if !mpi.live() {
            return Err(Error::Load(
                "MPI is not initialised (or already finalised) in this process".into(),
            ));
        }
        Ok(mpi)
    }

    /// MPI is initialised and not yet finalised (so handles may be used and freed).
    pub fn live(&self) -> bool {
        let (mut init, mut fin) = (0, 0);
        // SAFETY: both may be called at any time, before MPI_Init and after MPI_Finalize.
        unsafe {
            (self.initialized)(&mut init);
            (self.finalized)(&mut fin);
        }
        init != 0 && fin == 0
    }
}

/// An MPI return code as an error naming the call.
pub fn check(call: &'static str, code: c_int) -> Result<()> {
    if code == 0 {
        Ok(())
    } else {
        Err(Error::Mpi { call, code })
    }
}
