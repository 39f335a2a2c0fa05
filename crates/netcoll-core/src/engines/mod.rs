//! Engines: evaluate a schedule on a network, at rising fidelity.

pub mod analytic;
pub mod tune;
