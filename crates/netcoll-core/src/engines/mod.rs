//! Engines: evaluate schedules and protocols on a network, at rising fidelity: `analytic`
//! (counts and cost models), `step` (synchronous steps), `flit` (cycle-accurate,
//! BookSim-compatible). Engines consume schedules; they never build them (that is `plan`).

pub mod analytic;
pub mod flit;
pub mod loggops;
mod loggops_sort;
#[cfg(test)]
mod loggops_tests;
pub mod step;
