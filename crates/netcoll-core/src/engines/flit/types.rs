//! Plain values shared by the network state and the router stages: the "no index" marker
//! and the input VC pipeline states.

pub const NONE: u32 = u32::MAX;

/// Input VC pipeline states.
pub const IDLE: u8 = 0;
/// Routed; waiting for an output VC (from `ready` on).
pub const VC_WAIT: u8 = 1;
/// Holds an output VC; flits bid for the switch (from `ready` on).
pub const ACTIVE: u8 = 2;
/// A replicating worm (replicate.rs).
pub const REPL: u8 = 3;
