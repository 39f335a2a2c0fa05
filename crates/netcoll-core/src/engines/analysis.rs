//! What the analytic engine reports and the machine it assumes (`engines::analytic`'s
//! semantics), shared by its full analysis, its list schedules and its per-step paths.

use crate::error::Result;
use crate::models::{LogGP, MultisendParams};
use crate::schedule::{ComputeOp, OpKind, Schedule};
use crate::topology::{ChannelClass, Topology};
use serde::Serialize;

/// Machine parameters of the four models. Times: seconds for Hockney and LogGP, units of one
/// packet send for the postal model, microseconds for the multi-send model (as its paper).
#[derive(Clone, Debug)]
pub struct Machine {
    /// Start-up per message, seconds.
    pub alpha: f64,
    /// Seconds per byte (the endpoint links; a route's slowest link sets its rate).
    pub beta: f64,
    /// Per link class: latency per hop and seconds per byte (Hockney models;
    /// `engines::analytic_classes`). Default: nothing per hop, `beta` per byte.
    pub classes: ClassCosts,
    /// Seconds per byte combined (reduce, XOR).
    pub gamma: f64,
    /// Postal latency lambda, in units of one packet send (>= 1).
    pub lambda: f64,
    pub multisend: MultisendParams,
    pub loggp: LogGP,
}

impl Default for Machine {
    /// Illustrative figures: 1 us start-up, 1 GB/s, 0.1 ns/B combine; postal lambda 2; the
    /// multi-send coefficients measured in seed 002; LogGP L = 1 us, o = g = 0.2 us, G = 1 ns/B.
    fn default() -> Self {
        Machine {
            alpha: 1e-6,
            beta: 1e-9,
            classes: ClassCosts::default(),
            gamma: 1e-10,
            lambda: 2.0,
            multisend: MultisendParams::paper(),
            loggp: LogGP::new(1e-6, 2e-7, 2e-7, 1e-9, 1).expect("valid defaults"),
        }
    }
}

/// Per-link-class Hockney parameters (`engines::analytic_classes` charges them), indexed in
/// `topology::ChannelClass::ALL` order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClassCosts {
    /// Seconds added per hop over a channel of the class (default 0).
    pub alpha: [f64; 4],
    /// Seconds per byte on a channel of the class; `None`: the machine's `beta`.
    pub beta: [Option<f64>; 4],
}

impl ClassCosts {
    /// The machine keys that set them: `alpha_local` ... `beta_down`.
    pub const KEYS: [&'static str; 8] = [
        "alpha_local",
        "alpha_global",
        "alpha_up",
        "alpha_down",
        "beta_local",
        "beta_global",
        "beta_up",
        "beta_down",
    ];

    /// Whether every class costs what the single-class model charges (nothing per hop,
    /// `beta` per byte): routes need not be walked.
    pub fn is_uniform(&self, beta: f64) -> bool {
        self.alpha.iter().all(|&a| a == 0.0)
            && self.beta.iter().all(|b| b.is_none_or(|b| b <= beta))
    }

    /// Sets `key` (one of [`Self::KEYS`]) to `value`; false for any other key.
    pub fn set(&mut self, key: &str, value: f64) -> bool {
        let Some(i) = Self::KEYS.iter().position(|&k| k == key) else {
            return false;
        };
        if i < 4 {
            self.alpha[i] = value;
        } else {
            self.beta[i - 4] = Some(value);
        }
        true
    }

    /// Every value finite and >= 0 (else a one-line error naming the key).
    pub fn check(&self) -> Result<()> {
        let betas = self.beta.iter().map(|b| b.unwrap_or(0.0));
        for (key, v) in Self::KEYS
            .iter()
            .zip(self.alpha.iter().copied().chain(betas))
        {
            if !(v.is_finite() && v >= 0.0) {
                return crate::spec_err!("{key} = {v} must be a finite number >= 0");
            }
        }
        Ok(())
    }
}

/// Model times of a schedule.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Times {
    /// InterCom's round rule, seconds.
    pub hockney_rounds: f64,
    /// Hockney list schedule with conflict factors, seconds.
    pub hockney: f64,
    /// Postal model, units of one packet send.
    pub postal: f64,
    /// Seed 002 multi-send timing model, microseconds.
    pub multisend_us: f64,
    /// LogGP, seconds.
    pub loggp: f64,
}

impl Times {
    /// The times of a per-step analysis: InterCom's round rule only; the four list-scheduled
    /// times need every op's dependencies and are NaN (`null` in JSON).
    pub fn round_rule_only(hockney_rounds: f64) -> Times {
        Times {
            hockney_rounds,
            hockney: f64::NAN,
            postal: f64::NAN,
            multisend_us: f64::NAN,
            loggp: f64::NAN,
        }
    }
}

/// What the analytic engine reports.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Analysis {
    pub ranks: u32,
    pub messages: u64,
    pub ni_messages: u64,
    pub packets: u64,
    pub bytes: u64,
    pub aggregate_hops: u64,
    pub max_hops: u32,
    pub steps: u32,
    /// Whether rounds come from the schedule's steps (else from its dependencies).
    pub steps_from_schedule: bool,
    pub max_conflict: u32,
    /// `aggregate_hops` by link class.
    pub hops_by_class: ClassHops,
    /// Whether ports served ops in issue order (see the module docs).
    pub issue_order: bool,
    pub times: Times,
}

/// A schedule's hops by link class (`topology::ChannelClass`): which links its traffic
/// crosses, e.g. how much of a collective on a dragonfly goes over the global links. Every
/// network's channels have a class (meshes, tori and the like: all local), so the four sum
/// to `aggregate_hops`.
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq, Eq)]
pub struct ClassHops {
    pub local: u64,
    pub global: u64,
    pub up: u64,
    pub down: u64,
}

impl ClassHops {
    /// Counts one hop over `channel` of `topo`.
    #[inline]
    pub fn hop(&mut self, topo: &Topology, channel: u32) {
        *self.of_class(topo.channel_class(channel)) += 1;
    }

    /// Counts the hops of a route over `channels`.
    pub fn route(&mut self, topo: &Topology, channels: &[u32]) {
        for &c in channels {
            self.hop(topo, c);
        }
    }

    /// Adds `other` `times` times.
    pub fn add(&mut self, other: &ClassHops, times: u64) {
        for (a, b) in self.counts_mut().into_iter().zip(other.counts()) {
            *a += b * times;
        }
    }

    /// Local, global, up, down.
    pub fn counts(&self) -> [u64; 4] {
        [self.local, self.global, self.up, self.down]
    }

    /// From local, global, up, down.
    pub fn from_counts([local, global, up, down]: [u64; 4]) -> ClassHops {
        ClassHops {
            local,
            global,
            up,
            down,
        }
    }

    fn counts_mut(&mut self) -> [&mut u64; 4] {
        [
            &mut self.local,
            &mut self.global,
            &mut self.up,
            &mut self.down,
        ]
    }

    fn of_class(&mut self, c: ChannelClass) -> &mut u64 {
        match c {
            ChannelClass::Local => &mut self.local,
            ChannelClass::Global => &mut self.global,
            ChannelClass::Up => &mut self.up,
            ChannelClass::Down => &mut self.down,
        }
    }
}

/// The index of a link class in [`ClassCosts`]' and [`ClassHops`]' arrays.
pub(super) fn class_index(c: ChannelClass) -> usize {
    match c {
        ChannelClass::Local => 0,
        ChannelClass::Global => 1,
        ChannelClass::Up => 2,
        ChannelClass::Down => 3,
    }
}

/// Checks the machine parameters (finite, non-negative; lambda >= 1).
pub fn check_machine(m: &Machine) -> Result<()> {
    m.classes.check()?;
    for (name, v) in [("alpha", m.alpha), ("beta", m.beta), ("gamma", m.gamma)] {
        if !(v.is_finite() && v >= 0.0) {
            return crate::spec_err!("{name} = {v} must be a finite number >= 0");
        }
    }
    if !(m.lambda.is_finite() && m.lambda >= 1.0) {
        return crate::spec_err!("lambda = {} must be a finite number >= 1", m.lambda);
    }
    Ok(())
}

/// Bytes a compute op combines: one block per input piece beyond the output (copies: 0).
pub(super) fn combine_bytes(s: &Schedule, g: usize) -> u64 {
    let op = &s.ops[g];
    match op.kind {
        OpKind::Compute {
            op: ComputeOp::Copy,
            ..
        } => 0,
        OpKind::Compute { .. } => {
            let extra = s.inputs(op).len().saturating_sub(s.value(op).len());
            extra as u64 * s.bytes_per_block()
        }
        _ => 0,
    }
}

/// Bytes of message `msg`'s payload.
pub(super) fn msg_bytes(s: &Schedule, msg: u32) -> u64 {
    s.payload(s.message(msg)).len() as u64 * s.bytes_per_block()
}
