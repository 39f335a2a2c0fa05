//! Engines: evaluate schedules and protocols.

pub mod step;
