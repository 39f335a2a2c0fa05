//! The one error type of the core. Every message is a single line that says what is wrong
//! and, where it can, how to mend it; the CLI prints it as it is.

use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum Error {
    /// A spec string or a parameter that cannot be understood or is out of range.
    #[error("{0}")]
    Spec(String),
    /// Well-formed input that describes something impossible (a disconnected network, a port
    /// used twice, an algorithm whose precondition does not hold).
    #[error("{0}")]
    Invalid(String),
    /// A file that cannot be read or parsed.
    #[error("{0}")]
    Io(String),
    /// A request too large to answer exactly with the chosen method.
    #[error("{0}")]
    TooLarge(String),
}

pub type Result<T> = std::result::Result<T, Error>;

/// Shorthand for `Err(Error::Spec(format!(...)))`.
#[macro_export]
macro_rules! spec_err {
    ($($arg:tt)*) => { Err($crate::error::Error::Spec(format!($($arg)*))) };
}

/// Shorthand for `Err(Error::Invalid(format!(...)))`.
#[macro_export]
macro_rules! invalid {
    ($($arg:tt)*) => { Err($crate::error::Error::Invalid(format!($($arg)*))) };
}
