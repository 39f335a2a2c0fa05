//! Engines: evaluate schedules and protocols on a network, at rising fidelity: `analytic`
//! (counts and cost models), `step` (synchronous steps), `flit` (cycle-accurate,
//! BookSim-compatible); `aggregate` is the analytic engine's per-step path (rounds without a
//! schedule); `tune` ranks algorithms by the analytic engine.

pub mod aggregate;
pub mod analytic;
pub mod figures;
pub mod flit;
pub mod step;
pub mod tune;
