//! Integer arguments from Python, checked at the border: a negative rank or a count beyond
//! the core's 32/64 bits becomes a `NetcollError` (a `ValueError`) that names the argument,
//! the value and the allowed range ("root=-1 is out of range: use 0 to 4294967295"), instead
//! of PyO3's `OverflowError: can't convert negative int to unsigned`.
//!
//! Bindings use these through `#[pyo3(from_py_with = args::root)]`; a value of the wrong type
//! (a float, a string) stays PyO3's `TypeError`, which already names the argument.

use crate::NetcollError;
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;

/// Unsigned integer types the core takes, with their range.
pub(crate) trait Unsigned: Sized + Copy {
    const MAX: u128;
    fn from_u128(v: u128) -> Self;
}

macro_rules! unsigned {
    ($($t:ty),*) => {$(
        impl Unsigned for $t {
            const MAX: u128 = <$t>::MAX as u128;
            fn from_u128(v: u128) -> Self { v as $t }
        }
    )*};
}
unsigned!(u32, u64, usize);

/// `obj` as an unsigned integer of type `T`, or an error naming `name` and the range.
pub(crate) fn unsigned<T: Unsigned>(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<T> {
    match obj.extract::<i128>() {
        Ok(v) => match u128::try_from(v) {
            Ok(v) if v <= T::MAX => Ok(T::from_u128(v)),
            _ => Err(out_of_range(obj, name, T::MAX)),
        },
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
            Err(out_of_range(obj, name, T::MAX))
        }
        // A float or a string: a TypeError, which PyO3 prefixes with the argument's name.
        Err(_) => Err(PyTypeError::new_err(format!(
            "expected an integer, not {}",
            obj.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))),
    }
}

/// The error for an integer outside 0 to `max`, quoting at most 40 characters of it.
fn out_of_range(obj: &Bound<'_, PyAny>, name: &str, max: u128) -> PyErr {
    let mut text = obj.str().map(|s| s.to_string()).unwrap_or_default();
    if text.len() > 40 {
        text = format!("{}... ({} digits)", &text[..20], text.len());
    }
    NetcollError::new_err(format!("{name}={text} is out of range: use 0 to {max}"))
}

/// `None`, or [`unsigned`].
pub(crate) fn optional<T: Unsigned>(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<T>> {
    if obj.is_none() {
        return Ok(None);
    }
    unsigned(obj, name).map(Some)
}

/// A sequence of unsigned integers; an element out of range is named by its index.
pub(crate) fn list<T: Unsigned>(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<T>> {
    let items: Vec<Bound<'_, PyAny>> = obj
        .extract()
        .map_err(|_| PyTypeError::new_err(format!("{name} must be a list of integers")))?;
    items
        .iter()
        .enumerate()
        .map(|(i, item)| unsigned(item, &format!("{name}[{i}]")))
        .collect()
}

/// `None`, or [`list`].
pub(crate) fn optional_list<T: Unsigned>(
    obj: &Bound<'_, PyAny>,
    name: &str,
) -> PyResult<Option<Vec<T>>> {
    if obj.is_none() {
        return Ok(None);
    }
    list(obj, name).map(Some)
}

/// One named extractor per argument, for `from_py_with` (which passes only the object).
macro_rules! named {
    ($($how:ident $f:ident: $t:ty;)*) => {$(
        pub(crate) fn $f(obj: &Bound<'_, PyAny>) -> PyResult<$t> {
            $how(obj, stringify!($f))
        }
    )*};
}

named! {
    unsigned root: u32;
    unsigned nbytes: u64;
    unsigned packets: u32;
    optional p: Option<u32>;
    optional_list placement: Option<Vec<u32>>;
    optional_list targets: Option<Vec<u32>>;
    unsigned src: usize;
    unsigned dst: usize;
    unsigned switch: usize;
    unsigned vcs: u32;
    unsigned ud_root: usize;
    unsigned ndest: u64;
    unsigned n: u64;
    unsigned m: u64;
    unsigned k: u32;
    unsigned s: u32;
    unsigned max_dims: usize;
}

/// A rank count given as `p`.
pub(crate) fn ranks(obj: &Bound<'_, PyAny>) -> PyResult<u32> {
    unsigned(obj, "p")
}

/// A rank count given as `p` to the 64-bit models.
pub(crate) fn ranks_u64(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    unsigned(obj, "p")
}

/// The up*/down* root of the topology methods: `None` or a switch id.
pub(crate) fn updown_root(obj: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    optional(obj, "root")
}
