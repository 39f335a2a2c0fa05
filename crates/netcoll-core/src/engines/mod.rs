//! Engines: evaluate schedules and protocols on a network, at rising fidelity: `analytic`
//! (counts and cost models), `step` (synchronous steps), `flit` (cycle-accurate,
//! BookSim-compatible); `aggregate` is the analytic engine's per-step path (the rounds of a
//! regular algorithm, without a schedule), `stream` its streaming path (the figures of a
//! round program as it is written), `schedule_rounds` the per-step figures of a large built
//! schedule from its ops' steps. Engines consume schedules, round plans and round programs;
//! they never build them (that is `plan`).

pub mod aggregate;
mod analysis;
pub mod analytic;
mod analytic_classes;
pub mod flit;
mod free_slots;
mod list_schedule;
pub mod loggops;
mod loggops_graph;
mod loggops_match;
pub mod loggops_options;
mod loggops_queue;
#[cfg(test)]
mod loggops_reference;
mod loggops_sort;
#[cfg(test)]
mod loggops_tests;
mod op_graph;
mod round_rule;
pub mod schedule_rounds;
pub mod step;
pub mod stream;
