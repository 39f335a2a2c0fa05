//! Plain values shared by the network state and the router stages: the "no index" marker,
//! the input VC pipeline states and the per-VC record.

use super::channel::Flit;

pub const NONE: u32 = u32::MAX;

/// Input VC pipeline states.
pub const IDLE: u8 = 0;
/// Routed; waiting for an output VC (from `ready` on).
pub const VC_WAIT: u8 = 1;
/// Holds an output VC; flits bid for the switch (from `ready` on).
pub const ACTIVE: u8 = 2;
/// A replicating worm (replicate.rs).
pub const REPL: u8 = 3;

/// Everything the router stages read and write about one input VC and the output VC of the
/// same port and number, in one cache line: a hop touches the input VC's line (arrival,
/// routing, allocation, traversal) and its output VC's (credits, owner), not a dozen
/// arrays. The front flit is kept here, so a VC holding one flit (most of them below
/// saturation) never touches its ring buffer.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
pub struct Vc {
    /// Input side: the flit at the front (valid when `len > 0`).
    pub front: Flit,
    /// The cycle the front flit may bid for a VC or the switch.
    pub ready: u64,
    /// Global output port the front packet was routed to (NONE before routing).
    pub out_port: u32,
    /// Ring position of the second flit, and the flits held (front included).
    pub head: u16,
    pub len: u16,
    pub state: u8,
    /// The output VC held (ACTIVE), and the VC class the routing asked for.
    pub out_vc: u8,
    pub class: u8,
    /// Output side: the input VC (global) holding this output VC, NONE when free.
    pub owner: u32,
    /// Output side: credits for the downstream buffer.
    pub credits: u16,
}

impl Vc {
    pub fn new(depth: u16) -> Vc {
        Vc {
            front: Flit::default(),
            ready: 0,
            out_port: NONE,
            head: 0,
            len: 0,
            state: IDLE,
            out_vc: 0,
            class: 0,
            owner: NONE,
            credits: depth,
        }
    }
}
