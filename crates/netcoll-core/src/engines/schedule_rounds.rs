//! The analytic engine's per-step path over a *built* schedule: the figures of
//! `engines::analytic` that need no list schedule (counts, bytes, packets, aggregate and
//! largest hops, steps, the largest conflict factor, InterCom's round-rule time), taken round
//! by round from the ops' steps. The four list-scheduled times need every op's dependency
//! graph (at 4,096 ranks an all-to-all broadcast has 33 M ops: the graph, the orders and the
//! per-op times took a minute and twice the schedule's memory); here they are `null` (NaN),
//! as on `engines::aggregate`'s per-step path. Tests hold the figures equal to the full
//! analysis.
//!
//! Rounds come from the steps only, so this path needs every send and compute op to have
//! one (`None` otherwise: the rounds would come from the dependencies). Memory: a round
//! number and a position per message, a load counter and stamp per directed channel, and the
//! channels of one round's routes while they fit in [`ROUND_CHANNELS`] (a larger round is
//! walked twice instead of stored).

use super::analysis::{
    check_machine, combine_bytes, msg_bytes, Analysis, ClassHops, Machine, Times,
};
use super::analytic_classes::RouteTerms;
use super::round_rule::RoundRule;
use crate::error::Result;
use crate::routing::Routing;
use crate::schedule::{Counts, OpKind, Schedule};
use crate::topology::Topology;

/// Channels of one round's routes kept in memory (64 MiB of u32) before routes are walked
/// twice.
const ROUND_CHANNELS: usize = 1 << 24;

/// Figures of `s` round by round, list-scheduled times NaN; `None` when an op that sends or
/// computes has no step.
pub fn analyze_steps(
    s: &Schedule,
    topo: &Topology,
    routing: &Routing,
    m: &Machine,
) -> Result<Option<Analysis>> {
    figures_by_steps(s, topo, routing, m, ROUND_CHANNELS)
}

/// [`analyze_steps`], storing at most `cap` channels of a round's routes.
pub(super) fn figures_by_steps(
    s: &Schedule,
    topo: &Topology,
    routing: &Routing,
    m: &Machine,
    cap: usize,
) -> Result<Option<Analysis>> {
    check_machine(m)?;
    let Some(rounds) = StepRounds::new(s) else {
        return Ok(None);
    };
    let n = topo.num_endpoints();
    if let Some(&bad) = s.placement().iter().find(|&&e| e as usize >= n) {
        // The routing's own one-line error for an endpoint out of range.
        routing.route_endpoints(topo, bad as usize, 0)?;
    }
    let counts = Counts::of(s);
    let mut walker = Walker::new(s, topo, routing, cap);
    let mut figures = RoundFigures::default();
    let mut time = 0.0;
    let mut rule = RoundRule::new(s.p() as usize);
    for r in 0..rounds.steps as usize {
        let msgs = &rounds.by_round[rounds.start[r] as usize..rounds.start[r + 1] as usize];
        walker.load(msgs, r as u32 + 1);
        walker.conflicts(msgs, m, |msg, conflict, route| {
            rule.send(s.message(msg).src, conflict, msg_bytes(s, msg), route, m);
            figures.max_conflict = figures.max_conflict.max(conflict);
        });
        time += rule.finish(rounds.combine[r], m);
    }
    figures.hops = walker.hops;
    figures.max_hops = walker.max_hops;
    Ok(Some(Analysis {
        ranks: s.p(),
        messages: counts.messages,
        ni_messages: counts.ni_messages,
        packets: counts.packets,
        bytes: counts.bytes,
        aggregate_hops: figures.hops,
        max_hops: figures.max_hops,
        steps: rounds.steps,
        steps_from_schedule: true,
        max_conflict: figures.max_conflict,
        hops_by_class: walker.class_hops,
        issue_order: true,
        times: Times::round_rule_only(time),
    }))
}

#[derive(Default)]
struct RoundFigures {
    hops: u64,
    max_hops: u32,
    max_conflict: u32,
}

/// Messages grouped by round (a message's round: the least step of its send ops, renumbered
/// densely over the rounds that have messages, as `engines::analytic`), and per round the
/// largest number of bytes one rank combines.
struct StepRounds {
    steps: u32,
    start: Vec<u32>,
    by_round: Vec<u32>,
    combine: Vec<u64>,
}

impl StepRounds {
    fn new(s: &Schedule) -> Option<StepRounds> {
        let mut msg_round = vec![u32::MAX; s.messages().len()];
        for op in &s.ops {
            match op.kind {
                OpKind::Send { msg, .. } => {
                    let r = &mut msg_round[msg as usize];
                    *r = (*r).min(op.step?);
                }
                OpKind::Compute { .. } => {
                    op.step?;
                }
                OpKind::Recv { .. } => {}
            }
        }
        let mut used = msg_round.clone();
        used.sort_unstable();
        used.dedup();
        let dense = |r: u32| used.partition_point(|&x| x < r) as u32;
        let steps = used.len();
        let mut start = vec![0u32; steps + 1];
        for r in msg_round.iter_mut() {
            *r = dense(*r);
            start[*r as usize + 1] += 1;
        }
        for i in 0..steps {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut by_round = vec![0u32; msg_round.len()];
        for (msg, &r) in msg_round.iter().enumerate() {
            by_round[fill[r as usize] as usize] = msg as u32;
            fill[r as usize] += 1;
        }
        let combine = combine_per_round(s, steps, &dense);
        Some(StepRounds {
            steps: steps as u32,
            start,
            by_round,
            combine,
        })
    }
}

/// Per round, the largest sum of combined bytes of one rank's compute ops in it (ranks are
/// contiguous in the op list, so one pass with a per-round running sum per rank suffices).
fn combine_per_round(s: &Schedule, steps: usize, dense: &dyn Fn(u32) -> u32) -> Vec<u64> {
    let mut best = vec![0u64; steps];
    if steps == 0 {
        return best;
    }
    let mut sum = vec![0u64; steps];
    let mut touched: Vec<usize> = Vec::new();
    for r in 0..s.p() {
        let base = s.global(crate::schedule::OpRef::new(r, 0));
        for (i, op) in s.ops(r).iter().enumerate() {
            let b = combine_bytes(s, base + i);
            if b == 0 {
                continue;
            }
            let round = (dense(op.step.unwrap_or(0)) as usize).min(steps - 1);
            if sum[round] == 0 {
                touched.push(round);
            }
            sum[round] += b;
        }
        for &round in &touched {
            best[round] = best[round].max(sum[round]);
            sum[round] = 0;
        }
        touched.clear();
    }
    best
}

/// Walks the routes of a round's messages: loads the channels, then reads each route's
/// conflict factor (the largest load on it), stored channels if the round fits.
struct Walker<'a> {
    s: &'a Schedule,
    topo: &'a Topology,
    routing: &'a Routing,
    load: Vec<u32>,
    /// Round (1-based) whose count `load` holds: a stale counter reads as 0.
    stamp: Vec<u32>,
    chan: Vec<u32>,
    /// Hops of every stored route, in order.
    lens: Vec<u32>,
    stored: bool,
    /// Most channels stored per round.
    cap: usize,
    hops: u64,
    class_hops: ClassHops,
    max_hops: u32,
}

impl<'a> Walker<'a> {
    fn new(s: &'a Schedule, topo: &'a Topology, routing: &'a Routing, cap: usize) -> Walker<'a> {
        let links = 2 * topo.num_links();
        Walker {
            s,
            topo,
            routing,
            load: vec![0; links],
            stamp: vec![0; links],
            chan: Vec::new(),
            lens: Vec::new(),
            stored: true,
            cap,
            hops: 0,
            class_hops: ClassHops::default(),
            max_hops: 0,
        }
    }

    /// Switches of the endpoints of every (message, destination) route.
    fn ends(&self, msg: u32) -> impl Iterator<Item = (usize, usize)> + 'a {
        let (s, topo) = (self.s, self.topo);
        let place = s.placement();
        let message = s.message(msg);
        let src = topo.endpoint_switch(place[message.src as usize] as usize);
        s.dests(message)
            .iter()
            .map(move |&d| (src, topo.endpoint_switch(place[d as usize] as usize)))
    }

    fn load(&mut self, msgs: &[u32], round: u32) {
        self.chan.clear();
        self.lens.clear();
        self.stored = true;
        for &msg in msgs {
            for (a, b) in self.ends(msg) {
                let mut len = 0u32;
                for (h, _) in self.routing.walk(self.topo, a, b) {
                    let c = h.channel as usize;
                    if self.stamp[c] != round {
                        self.stamp[c] = round;
                        self.load[c] = 0;
                    }
                    self.load[c] += 1;
                    self.class_hops.hop(self.topo, h.channel);
                    len += 1;
                    if self.stored {
                        self.chan.push(h.channel);
                    }
                }
                self.hops += len as u64;
                self.max_hops = self.max_hops.max(len);
                if self.stored {
                    self.lens.push(len);
                    if self.chan.len() > self.cap {
                        self.stored = false;
                        self.chan = Vec::new();
                        self.lens = Vec::new();
                    }
                }
            }
        }
    }

    /// Calls `each(msg, conflict, terms)` for every route of `msgs` in order (after `load`),
    /// with the route's Hockney terms on machine `m`.
    fn conflicts(&mut self, msgs: &[u32], m: &Machine, mut each: impl FnMut(u32, u32, RouteTerms)) {
        let (mut at, mut route) = (0usize, 0usize);
        for &msg in msgs {
            for (a, b) in self.ends(msg) {
                let (c, terms) = if self.stored {
                    let hops = self.lens[route] as usize;
                    let path = &self.chan[at..at + hops];
                    (at, route) = (at + hops, route + 1);
                    let c = path.iter().map(|&ch| self.load[ch as usize]).max();
                    (c, RouteTerms::of(m, self.topo, path.iter().copied()))
                } else {
                    let load = &self.load;
                    let walk = || self.routing.walk(self.topo, a, b).map(|(h, _)| h.channel);
                    let c = walk().map(|ch| load[ch as usize]).max();
                    (c, RouteTerms::of(m, self.topo, walk()))
                };
                each(msg, c.unwrap_or(0).max(1), terms);
            }
        }
    }
}

#[cfg(test)]
#[path = "schedule_rounds_tests.rs"]
mod tests;
