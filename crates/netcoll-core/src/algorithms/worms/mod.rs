//! Multicast on irregular switch networks with up*/down* routing (seed 003 s4.3.4, s5):
//! switch-replicated multidestination worms and NI-based k-binomial trees.
//!
//! - `worm-ssr`: single-switch-replication worms (s5.2.1), one per switch with destinations;
//! - `worm-path`: path-based multi-drop worms from partial ordered chains (s5.2.2-5.2.4,
//!   Fig. 13);
//!   both in phases by the Greedy or Less-Greedy algorithm (s5.2.5);
//! - `worm-tree`: one tree-based bit-string worm (s5.3), decoded with restricted reachability
//!   strings (Fig. 18) and header modification;
//! - `ni-kbinomial`: FPFS k-binomial tree (s4.3) on the POC ordering of the participants.
//!
//! Every worm carries its header size and its replication tree, obtained by replaying its
//! header through the switch-decoding functions of [`header`], and checked by
//! [`replay::check_tree`] before the schedule is returned.

pub mod bits;
mod estimate;
pub mod header;
mod kbinomial;
pub mod phases;
pub mod poc;
pub mod replay;
mod show;

pub use estimate::{estimate_cycles, Costs};
pub use show::{show, Show, WormView};

#[cfg(test)]
mod tests;

use super::{AlgoRequest, Algorithm, ParamDoc};
use crate::error::Result;
use crate::routing::UpDown;
use crate::schedule::{Collective, CollectiveKind, OpKind, PacketRange, Schedule, ScheduleBuilder};
use crate::schedule::{OpRef, Worm};
use crate::spec_err;
use crate::topology::Topology;
use bits::Bits;
use header::{
    DropDecoder, DropHeader, DropPair, DropState, Reachability, TreeDecoder, TreeHeader, UpRule,
};
use phases::PhaseRule;
use serde::Serialize;

const KINDS: &[CollectiveKind] = &[CollectiveKind::Multicast, CollectiveKind::Broadcast];

const UD_ROOT: ParamDoc = ParamDoc {
    name: "ud-root",
    default: "0",
    help: "root switch of the up*/down* BFS spanning tree",
};
const PHASES: ParamDoc = ParamDoc {
    name: "phases",
    default: "less-greedy",
    help: "greedy (every covered destination forwards) or less-greedy (one per covered switch)",
};

const UP: ParamDoc = ParamDoc {
    name: "up",
    default: "first",
    help: "up port of a tree worm that must climb: first (lowest-numbered) or cover (the \
           neighbour reaching the most destinations)",
};

fn up_rule(req: &AlgoRequest) -> Result<UpRule> {
    match req.params.text(UP.name, UP.default) {
        "first" => Ok(UpRule::First),
        "cover" => Ok(UpRule::Cover),
        other => spec_err!("up={other} is unknown: use first or cover"),
    }
}

pub fn algorithms() -> Vec<Algorithm> {
    vec![
        Algorithm {
            name: "worm-ssr",
            kinds: KINDS,
            family: "worms",
            params: &[PHASES, UD_ROOT],
            preconditions: "switches that replicate worms; up*/down* routing",
            source: "seed 003 s5.2.1, s5.2.5 (MPM-SSR)",
            summary: "one single-switch-replication worm per switch with destinations, sent in \
                      Greedy or Less-Greedy phases",
            build: |r| build_multiphase(r, Shape::Ssr),
            closed_form: None,
        },
        Algorithm {
            name: "worm-path",
            kinds: KINDS,
            family: "worms",
            params: &[PHASES, UD_ROOT],
            preconditions: "switches that replicate worms; up*/down* routing",
            source: "seed 003 s5.2.2-5.2.5, Figs. 12-16",
            summary: "path-based multi-drop worms along partial ordered chains, sent in Greedy \
                      or Less-Greedy phases",
            build: |r| build_multiphase(r, Shape::Path),
            closed_form: None,
        },
        Algorithm {
            name: "worm-tree",
            kinds: KINDS,
            family: "worms",
            params: &[UP, UD_ROOT],
            preconditions: "switches with reachability strings; up*/down* routing",
            source: "seed 003 s5.3, Figs. 17-18",
            summary: "one bit-string worm, replicated by restricted reachability strings with \
                      header modification: one phase",
            build: build_tree,
            closed_form: None,
        },
        kbinomial::algorithm(),
    ]
}

/// The multicast of a request: source rank, destination ranks (the root dropped, duplicates
/// impossible), the up*/down* structure.
pub struct Mcast<'a> {
    pub topo: &'a Topology,
    pub ud: UpDown,
    pub root: u32,
    pub dests: Vec<u32>,
    pub placement: &'a [u32],
}

impl<'a> Mcast<'a> {
    pub fn from_request(req: &'a AlgoRequest) -> Result<Mcast<'a>> {
        let ud_root = req.params.get_u64(UD_ROOT.name, 0)?;
        let n = req.topo.num_switches();
        if ud_root >= n as u64 {
            return spec_err!("ud-root={ud_root} is out of range: use 0 to {}", n - 1);
        }
        let dests = match req.kind {
            CollectiveKind::Broadcast => (0..req.p).filter(|&r| r != req.root).collect(),
            _ => {
                if let Some(&t) = req.targets.iter().find(|&&t| t >= req.p) {
                    return spec_err!(
                        "multicast target {t} is out of range: {} ranks, 0 to {}",
                        req.p,
                        req.p.saturating_sub(1)
                    );
                }
                let mut seen = vec![false; req.p as usize];
                seen[req.root as usize] = true;
                req.targets
                    .iter()
                    .copied()
                    .filter(|&t| !std::mem::replace(&mut seen[t as usize], true))
                    .collect()
            }
        };
        Ok(Mcast {
            topo: req.topo,
            ud: UpDown::new(req.topo, ud_root as usize)?,
            root: req.root,
            dests,
            placement: &req.placement,
        })
    }

    pub fn endpoint(&self, rank: u32) -> u32 {
        self.placement[rank as usize]
    }

    pub fn switch_of(&self, rank: u32) -> u32 {
        self.topo.endpoints()[self.endpoint(rank) as usize].switch
    }

    fn port_of(&self, rank: u32) -> u32 {
        self.topo.endpoints()[self.endpoint(rank) as usize].port
    }

    /// Participating ranks (source first, then destinations) grouped by switch, each group
    /// in port order.
    pub fn on_switch(&self) -> Vec<Vec<u32>> {
        let mut on = vec![Vec::new(); self.topo.num_switches()];
        for r in std::iter::once(self.root).chain(self.dests.iter().copied()) {
            on[self.switch_of(r) as usize].push(r);
        }
        for g in &mut on {
            g.sort_by_key(|&r| self.port_of(r));
        }
        on
    }

    /// The POCs of Fig. 13 over the participating switches, as lists of switches.
    pub fn pocs(&self) -> Vec<Vec<u32>> {
        let rho: Vec<u32> = self.on_switch().iter().map(|g| g.len() as u32).collect();
        poc::find_pocs(self.topo, &self.ud, &rho)
    }
}

/// A worm before routing: the switches it drops at, in order, with the ranks on each.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WormPlan {
    pub drops: Vec<(u32, Vec<u32>)>,
}

impl WormPlan {
    pub fn dests(&self) -> Vec<u32> {
        self.drops
            .iter()
            .flat_map(|(_, r)| r.iter().copied())
            .collect()
    }
    pub fn len(&self) -> usize {
        self.drops.iter().map(|(_, r)| r.len()).sum()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Ssr,
    Path,
}

/// The worms covering the destinations, largest first (ties in POC stripping order): one
/// per POC (path) or one per switch of each POC (SSR). The source is never a destination.
pub fn plan_worms(m: &Mcast, shape: Shape) -> Vec<WormPlan> {
    let on = m.on_switch();
    let mut plans = Vec::new();
    for chain in m.pocs() {
        let drops: Vec<(u32, Vec<u32>)> = chain
            .iter()
            .map(|&s| {
                let ranks = on[s as usize].iter().copied().filter(|&r| r != m.root);
                (s, ranks.collect::<Vec<u32>>())
            })
            .filter(|(_, r)| !r.is_empty())
            .collect();
        match shape {
            Shape::Path if !drops.is_empty() => plans.push(WormPlan { drops }),
            Shape::Path => {}
            Shape::Ssr => plans.extend(drops.into_iter().map(|d| WormPlan { drops: vec![d] })),
        }
    }
    plans.sort_by_key(|p| std::cmp::Reverse(p.len())); // stable
    plans
}

/// The Fig. 12 header of a plan.
pub fn drop_header(m: &Mcast, plan: &WormPlan) -> DropHeader {
    DropHeader {
        pairs: plan
            .drops
            .iter()
            .map(|(s, ranks)| DropPair {
                switch: *s,
                ports: Bits::from_ones(
                    m.topo.num_ports(*s as usize) as u32,
                    ranks.iter().map(|&r| m.port_of(r)),
                ),
            })
            .collect(),
    }
}

/// A routed worm from `sender` for `plan`: header replayed through the switches, checked.
pub fn route_drop_worm(m: &Mcast, sender: u32, plan: &WormPlan) -> Result<Worm> {
    let header = drop_header(m, plan);
    let dec = DropDecoder {
        topo: m.topo,
        ud: &m.ud,
        header: &header,
    };
    let start = DropState {
        next: 0,
        down: false,
    };
    let hops = replay::replay(m.topo, &dec, m.endpoint(sender), start)?;
    finish_worm(
        m,
        sender,
        plan.dests(),
        hops,
        header.bits(m.topo.num_switches()),
    )
}

/// The bit-string header of a one-phase tree worm to all destinations.
pub fn tree_header(m: &Mcast) -> TreeHeader {
    let width = m.topo.num_endpoints() as u32;
    TreeHeader {
        up: true,
        dests: Bits::from_ones(width, m.dests.iter().map(|&r| m.endpoint(r))),
    }
}

fn finish_worm(
    m: &Mcast,
    sender: u32,
    dests: Vec<u32>,
    hops: Vec<crate::schedule::WormHop>,
    header_bits: u32,
) -> Result<Worm> {
    let eps: Vec<u32> = dests.iter().map(|&r| m.endpoint(r)).collect();
    replay::check_tree(m.topo, &m.ud, m.endpoint(sender), &eps, &hops).map_err(|e| {
        crate::Error::Invalid(format!(
            "worm from rank {sender} is wrong (a netcoll bug, please report): {e}"
        ))
    })?;
    Ok(Worm {
        dests,
        route: hops.iter().map(|h| h.switch).collect(),
        hops,
        header_bits,
    })
}

fn builder(req: &AlgoRequest) -> ScheduleBuilder {
    let mut c = Collective::new(req.kind, req.p, req.root);
    if req.kind == CollectiveKind::Multicast {
        c.targets = req.targets.clone();
    }
    ScheduleBuilder::from_collective(c)
        .placement(req.placement.clone())
        .packetization(req.bytes, req.bytes.div_ceil(req.packets as u64).max(1))
}

/// Worms in rounds: `rounds[t]` lists (sender, worm) sent in phase t. Every sender of phase
/// t > 0 forwards after receiving.
fn schedule_worms(req: &AlgoRequest, rounds: Vec<Vec<(u32, Worm)>>) -> Result<Schedule> {
    let mut b = builder(req);
    let data = b.block(req.root, 0);
    let mut got: Vec<Option<OpRef>> = vec![None; req.p as usize];
    for (t, round) in rounds.into_iter().enumerate() {
        b.set_round(Some(t as u32));
        for (sender, worm) in round {
            let msg = b.message(sender, &worm.dests, std::slice::from_ref(&data));
            let dests = worm.dests.clone();
            b.set_worm(msg, worm);
            let deps: Vec<OpRef> = got[sender as usize].into_iter().collect();
            b.send_msg(msg, PacketRange::ALL, &deps);
            for d in dests {
                got[d as usize] = Some(b.recv_msg(d, msg, PacketRange::ALL, &[]));
            }
        }
    }
    b.build()
}

fn phase_rule(req: &AlgoRequest) -> Result<PhaseRule> {
    match req.params.text(PHASES.name, PHASES.default) {
        "greedy" | "g" => Ok(PhaseRule::Greedy),
        "less-greedy" | "lg" => Ok(PhaseRule::LessGreedy),
        other => spec_err!("phases={other} is unknown: use greedy or less-greedy"),
    }
}

/// The worms of a multi-phase multicast, routed, in rounds.
pub fn multiphase_rounds(
    m: &Mcast,
    shape: Shape,
    rule: PhaseRule,
) -> Result<Vec<Vec<(u32, Worm)>>> {
    let (plans, assignment) = multiphase_plans(m, shape, rule);
    assignment
        .into_iter()
        .map(|round| {
            round
                .into_iter()
                .map(|(sender, w)| Ok((sender, route_drop_worm(m, sender, &plans[w])?)))
                .collect()
        })
        .collect()
}

/// The worm plans and, per phase, (sender, plan index).
pub fn multiphase_plans(
    m: &Mcast,
    shape: Shape,
    rule: PhaseRule,
) -> (Vec<WormPlan>, Vec<Vec<(u32, usize)>>) {
    let plans = plan_worms(m, shape);
    let rounds = phases::assign(m, &plans, rule);
    (plans, rounds)
}

fn build_multiphase(req: &AlgoRequest, shape: Shape) -> Result<Schedule> {
    let m = Mcast::from_request(req)?;
    let rounds = multiphase_rounds(&m, shape, phase_rule(req)?)?;
    schedule_worms(req, rounds)
}

/// The one-phase tree worm from the source.
pub fn tree_worm(m: &Mcast, up_rule: UpRule) -> Result<Worm> {
    let reach = Reachability::new(m.topo, &m.ud);
    let dec = TreeDecoder {
        topo: m.topo,
        ud: &m.ud,
        reach: &reach,
        up_rule,
    };
    let header = tree_header(m);
    let bits = header.bits();
    let hops = replay::replay(m.topo, &dec, m.endpoint(m.root), header)?;
    finish_worm(m, m.root, m.dests.clone(), hops, bits)
}

fn build_tree(req: &AlgoRequest) -> Result<Schedule> {
    let m = Mcast::from_request(req)?;
    let up = up_rule(req)?;
    let rounds = if m.dests.is_empty() {
        Vec::new()
    } else {
        vec![vec![(m.root, tree_worm(&m, up)?)]]
    };
    schedule_worms(req, rounds)
}

/// Figures of a multicast schedule (the JSON extras of `netcoll schedule multicast`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Figures {
    /// Messages travelling as worms.
    pub worms: u64,
    /// Sequential rounds: worm phases, or FPFS NI steps for `ni-kbinomial`.
    pub phases: u64,
    /// Sum of the worms' header sizes.
    pub header_bits: u64,
    /// Switch-to-switch link traversals of all worm copies (network traffic); with
    /// [`figures_routed`] also those of the unicasts.
    pub link_traversals: u64,
    /// Unicast messages (not worms).
    pub unicasts: u64,
    /// Latency estimate in cycles with seed 003's default costs ([`estimate_cycles`]).
    pub estimate_cycles: u64,
}

pub fn figures(s: &Schedule) -> Figures {
    let mut f = Figures::default();
    for m in s.messages() {
        match &m.worm {
            Some(w) => {
                f.worms += 1;
                f.header_bits += u64::from(w.header_bits);
                f.link_traversals += w.hops.len().saturating_sub(1) as u64;
            }
            None => f.unicasts += s.dests(m).len() as u64,
        }
    }
    let last = (0..s.p())
        .flat_map(|r| s.ops(r))
        .filter(|op| matches!(op.kind, OpKind::Send { .. }))
        .filter_map(|op| op.step)
        .max();
    f.phases = last.map_or(0, |t| u64::from(t) + 1);
    f.estimate_cycles = estimate_cycles(s, &Costs::default());
    f
}

/// [`figures`], with the unicasts' link traversals added: each unicast follows its minimal
/// up*/down* route (BFS root `ud_root`) between the switches of its ranks.
pub fn figures_routed(s: &Schedule, topo: &Topology, ud_root: usize) -> Result<Figures> {
    let mut f = figures(s);
    let ud = UpDown::new(topo, ud_root)?;
    let switch_of = |r: u32| -> Result<usize> {
        match s.placement().get(r as usize) {
            Some(&e) if (e as usize) < topo.num_endpoints() => Ok(topo.endpoint_switch(e as usize)),
            _ => spec_err!("rank {r} is not placed on an endpoint of {}: use the topology the schedule was built for", topo.name()),
        }
    };
    for m in s.messages().iter().filter(|m| m.worm.is_none()) {
        let from = switch_of(m.src)?;
        for &d in s.dests(m) {
            let (mut at, to, mut down) = (from, switch_of(d)?, false);
            while at != to {
                let step = ud.next(topo, at, to, u8::from(down));
                down |= !step.up;
                at = step.via.switch as usize;
                f.link_traversals += 1;
            }
        }
    }
    Ok(f)
}
