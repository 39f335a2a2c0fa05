//! The analytic engine's per-step path: figures of a [`RoundPlan`] (a regular algorithm given
//! round by round) without building its schedule.
//!
//! Per round it routes every unicast once, loads the round's channels to find each
//! unicast's conflict factor, and adds the round's figures `repeat` times. The figures are
//! those of the schedule path (`engines::analytic`) for the same algorithm: counts, bytes,
//! packets, aggregate and largest hops, steps, the largest conflict factor and InterCom's
//! round-rule time (tests hold the two paths equal). The four list-scheduled times need the
//! dependency graph of every op, which is what this path avoids: they are reported as
//! `null` (NaN), and the tuner ranks such candidates by the round rule only.
//!
//! Memory: one round's routes at a time, O(p x diameter); time: O(routes x hops) per
//! distinct round, whatever `repeat`.

use super::analytic::{Analysis, Machine, Times};
use crate::error::Result;
use crate::routing::Routing;
use crate::schedule::{Round, RoundPlan};
use crate::topology::Topology;
use std::collections::HashMap;

/// Figures of `plan` on `topo` routed by `routing` with machine `m`; ranks are placed by
/// `placement` (rank i on endpoint `placement[i]`).
pub fn analyze_rounds(
    plan: &RoundPlan,
    placement: &[u32],
    topo: &Topology,
    routing: &Routing,
    m: &Machine,
) -> Result<Analysis> {
    super::analytic::check_machine(m)?;
    let mut acc = Totals::default();
    let mut load = vec![0u32; 2 * topo.num_links()];
    for round in &plan.rounds {
        let figs = round_figures(plan, round, placement, topo, routing, m, &mut load)?;
        acc.add(&figs, round.repeat as u64);
    }
    let nan = f64::NAN;
    Ok(Analysis {
        ranks: plan.p,
        messages: acc.messages,
        ni_messages: acc.messages,
        packets: acc.packets,
        bytes: acc.bytes,
        aggregate_hops: acc.hops,
        max_hops: acc.max_hops,
        steps: acc.steps as u32,
        steps_from_schedule: true,
        max_conflict: acc.max_conflict,
        issue_order: true,
        times: Times {
            hockney_rounds: acc.time,
            hockney: nan,
            postal: nan,
            multisend_us: nan,
            loggp: nan,
        },
    })
}

/// Figures of one round, and of a plan as their sum.
#[derive(Default)]
struct Totals {
    messages: u64,
    packets: u64,
    bytes: u64,
    hops: u64,
    max_hops: u32,
    max_conflict: u32,
    steps: u64,
    time: f64,
}

impl Totals {
    fn add(&mut self, r: &Totals, repeat: u64) {
        self.messages += r.messages * repeat;
        self.packets += r.packets * repeat;
        self.bytes += r.bytes * repeat;
        self.hops += r.hops * repeat;
        self.steps += r.steps * repeat;
        self.time += r.time * repeat as f64;
        self.max_hops = self.max_hops.max(r.max_hops);
        self.max_conflict = self.max_conflict.max(r.max_conflict);
    }
}

fn round_figures(
    plan: &RoundPlan,
    round: &Round,
    placement: &[u32],
    topo: &Topology,
    routing: &Routing,
    m: &Machine,
    load: &mut [u32],
) -> Result<Totals> {
    // Routes of the round, flat: unicast i uses chan[start[i]..start[i+1]].
    let (mut start, mut chan) = (vec![0u32], Vec::new());
    for u in &round.unicasts {
        let (a, b) = (placement[u.from as usize], placement[u.to as usize]);
        let route = routing.route_endpoints(topo, a as usize, b as usize)?;
        chan.extend(route.iter().map(|h| h.channel));
        start.push(chan.len() as u32);
    }
    chan.iter().for_each(|&c| load[c as usize] += 1);
    let bpb = plan.bytes_per_block;
    let mut t = Totals {
        steps: 1,
        ..Totals::default()
    };
    // Per sender: k alpha + the sum of its (conflict x bytes x beta); per receiver: the
    // blocks it combines (InterCom's round rule, as engines::analytic).
    let mut send: HashMap<u32, f64> = HashMap::new();
    let mut combine: HashMap<u32, u64> = HashMap::new();
    for (i, u) in round.unicasts.iter().enumerate() {
        let path = &chan[start[i] as usize..start[i + 1] as usize];
        let conflict = path
            .iter()
            .map(|&c| load[c as usize])
            .max()
            .unwrap_or(1)
            .max(1);
        let bytes = u.blocks as u64 * bpb;
        t.messages += 1;
        t.packets += packets(bytes, plan.packet_bytes);
        t.bytes += bytes;
        t.hops += path.len() as u64;
        t.max_hops = t.max_hops.max(path.len() as u32);
        t.max_conflict = t.max_conflict.max(conflict);
        *send.entry(u.from).or_default() += m.alpha + conflict as f64 * bytes as f64 * m.beta;
        if u.combine {
            *combine.entry(u.to).or_default() += bytes;
        }
    }
    chan.iter().for_each(|&c| load[c as usize] -= 1);
    let bw = send.values().copied().fold(0.0, f64::max);
    let comb = combine.values().copied().max().unwrap_or(0);
    t.time = bw + comb as f64 * m.gamma;
    Ok(t)
}

/// Packets of a message of `bytes` (as `schedule::packets_for`).
fn packets(bytes: u64, packet_bytes: u64) -> u64 {
    if packet_bytes == 0 || bytes == 0 {
        1
    } else {
        bytes.div_ceil(packet_bytes).min(u32::MAX as u64 - 1)
    }
}
