//! Per-step aggregates: a regular algorithm described round by round, without a schedule.
//!
//! A [`Round`] lists the unicasts of one synchronous round by their endpoints and sizes, and
//! says how many consecutive rounds repeat that pattern (a ring step repeats p-1 times with
//! other blocks but the same senders, receivers and sizes). The analytic engine's per-step
//! path (`engines::aggregate`) reads rounds one at a time: O(p log p) memory where the
//! schedule would hold O(p^2) messages. What it cannot check
//! (the data each message carries) the built schedule proves at sizes where it can be built;
//! tests hold both paths to the same figures.

/// One unicast of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unicast {
    pub from: u32,
    pub to: u32,
    /// Blocks carried (pieces of the schedule's message).
    pub blocks: u32,
    /// Whether the receiver reduces what it receives into its own partials (gamma cost).
    pub combine: bool,
}

impl Unicast {
    pub fn new(from: u32, to: u32, blocks: u32) -> Self {
        Unicast {
            from,
            to,
            blocks,
            combine: false,
        }
    }

    pub fn combined(from: u32, to: u32, blocks: u32) -> Self {
        Unicast {
            combine: true,
            ..Unicast::new(from, to, blocks)
        }
    }
}

/// `repeat` consecutive rounds of the same unicasts (by endpoints and sizes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub repeat: u32,
    pub unicasts: Vec<Unicast>,
}

/// A regular algorithm as rounds: the sizes of its blocks and packets, and its distinct
/// rounds in order (O(log p) of them for the classic algorithms, each O(p)).
pub struct RoundPlan {
    pub p: u32,
    pub bytes_per_block: u64,
    /// Maximum packet size in bytes; 0: one packet per message.
    pub packet_bytes: u64,
    pub rounds: Vec<Round>,
}
