//! netcoll-core: collective communication on interconnection networks, in pure Rust.
//!
//! Data flows one way: a spec string becomes a [`topology::Topology`], a [`routing::Routing`]
//! routes it, algorithms produce a [`schedule::Schedule`] that the verifier proves correct,
//! engines evaluate it; [`models`] holds the closed-form cost models of the papers. Nothing
//! here knows Python.

pub mod algorithms;
pub mod engines;
pub mod error;
pub mod fuzzing;
pub mod guard;
pub mod models;
pub mod params;
pub mod plan;
pub mod routing;
pub mod schedule;
pub mod spec;
pub mod topology;

pub use error::{Error, Result};
pub use topology::Topology;
