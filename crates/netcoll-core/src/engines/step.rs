//! The step engine: synchronous steps, one packet per directed link per step.
//!
//! Model (seed 004 s1, assumptions 1-4): time advances in steps; in one step a packet crosses
//! one link; a directed link carries at most one packet per step; a packet received in step
//! `t` can be forwarded in step `t + 1`. Under [`PortModel::AllPort`] a node may send on all
//! its links in the same step; under [`PortModel::OnePort`] it sends at most one packet per step.
//! Steps are numbered from 1; a run reports the step at which every node that must hold every
//! packet does, the transmissions per step and the use of every directed link.
//!
//! Two front ends:
//! - [`flood`]: broadcast protocols driven directly on flat arrays (the line, rectangular and
//!   global broadcasts of seed 004 and the torus multi-colour spanning trees), for networks of
//!   millions of nodes;
//! - [`sched`]: any [`crate::schedule::Schedule`], packets routed hop by hop over the topology
//!   (see that module for the exact semantics).

pub mod flood;
mod queues;
pub mod sched;

use crate::error::Result;
use crate::topology::ChannelClass;
use serde::Serialize;

/// Steps a packet takes to cross a link of each class ([`ChannelClass`]: local, global, up,
/// down): sent in step `t` on a link of latency `L`, it arrives at step `t + L - 1` and can be
/// forwarded from the step after. A link still accepts one packet per step (pipelined), so
/// its bandwidth is unchanged. All 1 is seed 004's model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkLatency([u32; 4]);

impl Default for LinkLatency {
    fn default() -> Self {
        LinkLatency([1; 4])
    }
}

impl LinkLatency {
    /// The `--sim` keys, in [`ChannelClass::ALL`] order.
    pub const KEYS: [&'static str; 4] = [
        "local_latency",
        "global_latency",
        "up_latency",
        "down_latency",
    ];
    /// The largest latency accepted (steps are u32; this keeps sums far from overflow).
    pub const MAX: u32 = 1 << 20;

    /// Sets the class of `key` (one of [`Self::KEYS`]) from `value`.
    pub fn set(&mut self, key: &str, value: &str) -> Result<()> {
        let Some(i) = Self::KEYS.iter().position(|&k| k == key) else {
            return crate::spec_err!(
                "{key} is not a link-latency key: use {}",
                Self::KEYS.join(", ")
            );
        };
        match value.parse::<u32>() {
            Ok(l) if (1..=Self::MAX).contains(&l) => {
                self.0[i] = l;
                Ok(())
            }
            _ => crate::spec_err!(
                "{key}={value} is not a link latency: use whole steps from 1 to {}",
                Self::MAX
            ),
        }
    }

    /// The latency of a link class.
    pub fn of(&self, class: ChannelClass) -> u32 {
        let i = ChannelClass::ALL
            .iter()
            .position(|&c| c == class)
            .unwrap_or(0);
        self.0[i]
    }

    /// Every class takes one step (seed 004's model).
    pub fn is_unit(&self) -> bool {
        self.0 == [1; 4]
    }
}

/// How many links a node may send on in one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PortModel {
    /// Every link in the same step (the iBT paper's assumption 1).
    AllPort,
    /// One packet per node per step.
    OnePort,
}

impl PortModel {
    pub fn parse(s: &str) -> Result<PortModel> {
        match s {
            "all" | "all-port" => Ok(PortModel::AllPort),
            "one" | "one-port" => Ok(PortModel::OnePort),
            _ => crate::spec_err!("ports={s} is not a port model: use all or one"),
        }
    }
}
