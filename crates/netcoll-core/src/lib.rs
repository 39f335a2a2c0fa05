//! netcoll-core: collective communication on interconnection networks, in pure Rust.
//!
//! Data flows one way: a spec string becomes a [`topology::Topology`], a [`routing::Routing`]
//! routes it, algorithms produce schedules, engines evaluate them. Nothing here knows Python.

pub mod error;
pub mod schedule;

pub use error::{Error, Result};
