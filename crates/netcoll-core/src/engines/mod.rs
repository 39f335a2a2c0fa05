//! Engines: evaluate schedules and protocols on a network, at rising fidelity.

pub mod analytic;
pub mod step;
pub mod tune;
