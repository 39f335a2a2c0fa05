//! Engines that evaluate networks and schedules. `flit` is the cycle-accurate,
//! BookSim-compatible network simulator.

pub mod flit;
