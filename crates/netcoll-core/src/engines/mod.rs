//! Engines: evaluate schedules and protocols on a network, at rising fidelity: `analytic`
//! (counts and cost models), `step` (synchronous steps), `flit` (cycle-accurate,
//! BookSim-compatible); `aggregate` is the analytic engine's per-step path (the rounds of a
//! regular algorithm, without a schedule), `schedule_rounds` the same figures taken from a
//! large built schedule's steps. Engines consume schedules and round plans; they
//! never build them (that is `plan`).

pub mod aggregate;
mod analysis;
pub mod analytic;
pub mod flit;
mod list_schedule;
pub mod loggops;
mod loggops_sort;
#[cfg(test)]
mod loggops_tests;
mod op_graph;
pub mod schedule_rounds;
pub mod step;
