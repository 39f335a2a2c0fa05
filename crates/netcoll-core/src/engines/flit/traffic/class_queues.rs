//! The state of the NIs' class queues in a multi-class run (class_ni.rs runs them; apart
//! so that the network state holds it without importing the NI code).

/// One class's queue at one NI: replies and requests (linked through `Packet::next`), and
/// the packet being sent (its next flit and VC; `vc == NONE_VC` until a VC is found).
#[derive(Debug, Clone, Copy)]
pub struct ClassQueue {
    pub req: (u32, u32),
    pub rep: (u32, u32),
    pub cur: u32,
    pub idx: u16,
    pub vc: u8,
    pub last_vc: u8,
}

pub const NONE_VC: u8 = u8::MAX;

/// Every NI's class queues, and the per-class counts the measurement needs.
pub struct ClassNis {
    pub classes: usize,
    pub queues: Vec<ClassQueue>,
    /// Per node: the class that sent the last flit, and whether it is in `ni_pending`.
    pub last_class: Vec<u8>,
    pub listed: Vec<bool>,
    /// Per node: packets issued (BookSim's `_packet_seq_no`, `priority = sequence`) and
    /// requests outstanding (`max_outstanding_requests`).
    pub seq: Vec<u64>,
    pub outstanding: Vec<u64>,
    /// Per class: flits created and not yet arrived, and the sum of their creation cycles
    /// (BookSim's per-class latency estimate).
    pub live: Vec<(u64, u128)>,
}
