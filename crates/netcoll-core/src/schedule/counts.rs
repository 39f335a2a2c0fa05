//! Summary counters of a schedule, the inputs of the analytic engine.
//!
//! A message to k destinations is k unicast messages on the wire for a unicast-only network,
//! but one operation for an NI that multi-sends (or one worm for a replicating switch); both
//! views are counted so that models can charge whichever the hardware has.

use serde::{Deserialize, Serialize};

use super::ir::{OpKind, Schedule};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub ranks: u32,
    pub ops: u64,
    pub ops_per_rank: Vec<u32>,
    pub send_ops: u64,
    pub recv_ops: u64,
    pub compute_ops: u64,
    /// Unicast messages: a message to k destinations counts k.
    pub messages: u64,
    /// NI send operations: a message counts 1 whatever its destinations.
    pub ni_messages: u64,
    /// Messages with more than one destination.
    pub multisends: u64,
    /// Messages travelling as switch-replicated worms.
    pub worms: u64,
    /// Unicast packets (packets x destinations).
    pub packets: u64,
    /// Packets injected by the NIs.
    pub ni_packets: u64,
    /// Unicast payload bytes.
    pub bytes: u64,
    /// Largest step of any op, if any op has one.
    pub max_step: Option<u32>,
}

impl Counts {
    pub fn of(s: &Schedule) -> Counts {
        let mut c = Counts {
            ranks: s.p(),
            ops: s.num_ops() as u64,
            ops_per_rank: (0..s.p()).map(|r| s.ops(r).len() as u32).collect(),
            ..Counts::default()
        };
        for op in &s.ops {
            match op.kind {
                OpKind::Send { .. } => c.send_ops += 1,
                OpKind::Recv { .. } => c.recv_ops += 1,
                OpKind::Compute { .. } => c.compute_ops += 1,
            }
            c.max_step = c.max_step.max(op.step);
        }
        for m in s.messages() {
            let k = m.dests.len as u64;
            c.messages += k;
            c.ni_messages += 1;
            c.multisends += u64::from(k > 1);
            c.worms += u64::from(m.worm.is_some());
            c.packets += k * m.packets as u64;
            c.ni_packets += m.packets as u64;
            c.bytes += k * m.payload.len as u64 * s.bytes_per_block();
        }
        c
    }
}
