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
use serde::Serialize;

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
