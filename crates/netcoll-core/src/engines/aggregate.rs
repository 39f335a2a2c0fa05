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

use super::analytic::{Analysis, ClassHops, Machine, Times};
use super::analytic_classes::RouteTerms;
use super::round_rule::RoundRule;
use crate::error::Result;
use crate::routing::Routing;
use crate::schedule::{Round, RoundPlan};
use crate::topology::Topology;

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
    let mut scratch = Scratch::new(plan.p as usize, topo.num_links());
    let sizes = (plan.bytes_per_block, plan.packet_bytes);
    for round in &plan.rounds {
        let figs = scratch.round_figures(sizes, round, &[], (placement, topo, routing), m)?;
        acc.add(&figs, round.repeat as u64);
    }
    Ok(acc.analysis(plan.p))
}

impl Totals {
    /// The analysis of `p` ranks these totals make (list-scheduled times: NaN).
    pub(super) fn analysis(&self, p: u32) -> Analysis {
        let acc = self;
        Analysis {
            ranks: p,
            messages: acc.messages,
            ni_messages: acc.messages,
            packets: acc.packets,
            bytes: acc.bytes,
            aggregate_hops: acc.hops,
            max_hops: acc.max_hops,
            steps: acc.steps as u32,
            steps_from_schedule: true,
            max_conflict: acc.max_conflict,
            hops_by_class: acc.class_hops,
            issue_order: true,
            times: Times::round_rule_only(acc.time),
        }
    }
}

/// Where a round runs: the ranks' placement, the network and its routing.
pub(super) type Net<'a> = (&'a [u32], &'a Topology, &'a Routing);

/// Figures of one round, and of a plan as their sum.
#[derive(Clone, Default)]
pub(super) struct Totals {
    messages: u64,
    packets: u64,
    bytes: u64,
    hops: u64,
    class_hops: ClassHops,
    max_hops: u32,
    max_conflict: u32,
    steps: u64,
    time: f64,
}

impl Totals {
    pub(super) fn add(&mut self, r: &Totals, repeat: u64) {
        self.messages += r.messages * repeat;
        self.packets += r.packets * repeat;
        self.bytes += r.bytes * repeat;
        self.hops += r.hops * repeat;
        self.class_hops.add(&r.class_hops, repeat);
        self.steps += r.steps * repeat;
        self.time += r.time * repeat as f64;
        self.max_hops = self.max_hops.max(r.max_hops);
        self.max_conflict = self.max_conflict.max(r.max_conflict);
    }
}

/// Flat working arrays reused round after round (no allocation per unicast): the round's
/// routes as one channel list, a load counter per directed channel, and per rank its send
/// time and combined bytes (reset through the list of ranks touched).
pub(super) struct Scratch {
    start: Vec<u32>,
    chan: Vec<u32>,
    load: Vec<u32>,
    rule: RoundRule,
}

impl Scratch {
    pub(super) fn new(p: usize, links: usize) -> Scratch {
        Scratch {
            start: Vec::new(),
            chan: Vec::new(),
            load: vec![0; 2 * links],
            rule: RoundRule::new(p),
        }
    }

    /// Routes every unicast of `round` into `start`/`chan` and loads the channels.
    fn route(
        &mut self,
        round: &Round,
        placement: &[u32],
        topo: &Topology,
        routing: &Routing,
    ) -> Result<()> {
        let n = topo.num_endpoints();
        self.start.clear();
        self.chan.clear();
        self.start.push(0);
        for u in &round.unicasts {
            let (a, b) = (placement[u.from as usize], placement[u.to as usize]);
            if a as usize >= n || b as usize >= n {
                // The routing's own one-line error for an endpoint out of range.
                routing.route_endpoints(topo, a as usize, b as usize)?;
            }
            let (sa, sb) = (
                topo.endpoint_switch(a as usize),
                topo.endpoint_switch(b as usize),
            );
            // A round's channels grow with its hops, known only as routed: the guard is
            // asked each time the buffer must grow (a compare otherwise).
            for (h, _) in routing.walk(topo, sa, sb) {
                crate::guard::reserve(&mut self.chan, 1, "the routed paths of one round")?;
                self.chan.push(h.channel);
            }
            if self.chan.len() > u32::MAX as usize {
                return Err(crate::Error::TooLarge(
                    "the routed paths of one round cross more than 2^32 channels: too large \
                     to analyse; use a smaller network"
                        .into(),
                ));
            }
            self.start.push(self.chan.len() as u32);
        }
        for &c in &self.chan {
            self.load[c as usize] += 1;
        }
        Ok(())
    }

    /// The figures of `round` with blocks of `sizes.0` bytes in packets of at most
    /// `sizes.1` (0: one packet); `combines` adds (rank, bytes) of combine work to the
    /// receivers' flagged unicasts.
    pub(super) fn round_figures(
        &mut self,
        sizes: (u64, u64),
        round: &Round,
        combines: &[(u32, u64)],
        (placement, topo, routing): Net<'_>,
        m: &Machine,
    ) -> Result<Totals> {
        self.route(round, placement, topo, routing)?;
        let (bpb, packet_bytes) = sizes;
        let mut t = Totals {
            steps: 1,
            ..Totals::default()
        };
        // Per sender: k alpha + the sum of its (conflict x bytes x beta); per receiver: the
        // blocks it combines (InterCom's round rule, as engines::analytic).
        for (i, u) in round.unicasts.iter().enumerate() {
            let path = &self.chan[self.start[i] as usize..self.start[i + 1] as usize];
            let conflict = path
                .iter()
                .map(|&c| self.load[c as usize])
                .max()
                .unwrap_or(1)
                .max(1);
            let bytes = u.blocks as u64 * bpb;
            t.messages += 1;
            t.packets += packets(bytes, packet_bytes);
            t.bytes += bytes;
            t.hops += path.len() as u64;
            t.class_hops.route(topo, path);
            t.max_hops = t.max_hops.max(path.len() as u32);
            t.max_conflict = t.max_conflict.max(conflict);
            let route = RouteTerms::of(m, topo, path.iter().copied());
            self.rule.send(u.from, conflict, bytes, route, m);
            if u.combine {
                self.rule.combine(u.to, bytes);
            }
        }
        for &(r, bytes) in combines {
            self.rule.combine(r, bytes);
        }
        for &c in &self.chan {
            self.load[c as usize] -= 1;
        }
        t.time = self.rule.finish(0, m);
        Ok(t)
    }
}

/// Packets of a message of `bytes` (as `schedule::packets_for`).
fn packets(bytes: u64, packet_bytes: u64) -> u64 {
    if packet_bytes == 0 || bytes == 0 {
        1
    } else {
        bytes.div_ceil(packet_bytes).min(u32::MAX as u64 - 1)
    }
}

/// Test helper: the per-step figures `got` equal the built schedule's `want` (counts, hops,
/// steps, conflicts exactly; the round-rule time to a relative 1e-12).
#[cfg(test)]
pub(crate) fn assert_equal_figures(got: &Analysis, want: &Analysis, at: &str) {
    assert_eq!(
        (got.messages, got.packets, got.bytes, got.aggregate_hops),
        (want.messages, want.packets, want.bytes, want.aggregate_hops),
        "{at}"
    );
    assert_eq!(
        (got.max_hops, got.steps, got.max_conflict),
        (want.max_hops, want.steps, want.max_conflict),
        "{at}"
    );
    assert_eq!(got.hops_by_class, want.hops_by_class, "{at}");
    let (a, b) = (got.times.hockney_rounds, want.times.hockney_rounds);
    assert!((a - b).abs() <= 1e-12 * b.abs(), "{at}: {a} vs {b}");
}
