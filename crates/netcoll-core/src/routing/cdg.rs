//! Channel-dependency-graph check (Dally and Seitz): a deterministic routing with a VC
//! assignment is deadlock-free iff the graph whose vertices are (channel, VC) pairs, with an
//! edge wherever a route holds one and asks for the next, has no cycle.
//!
//! Routes are walked per destination switch from every source switch that hosts endpoints;
//! because the next hop depends only on (switch, destination, packet state), a walk stops as
//! soon as it reaches a (channel, state) that an earlier walk to the same destination took.

use super::{Hop, Routing, RoutingKind};
use crate::error::{Error, Result};
use crate::spec_err;
use crate::topology::Topology;
use rayon::prelude::*;
use serde::Serialize;

/// How a hop's VC is chosen among `vcs` virtual channels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum VcRule {
    /// Dateline classes when the routing has them, else `any`.
    Auto,
    /// The VCs are split evenly among the routing's classes (the torus dateline scheme); a hop
    /// may use any VC of its class. With fewer VCs than classes, the classes share VCs.
    Dateline,
    /// Any VC on any hop.
    Any,
    /// VC = hop index (capped at vcs-1): the distance-class scheme.
    Hop,
    /// VC 0 only.
    Single,
}

impl VcRule {
    pub fn parse(name: &str) -> Result<VcRule> {
        match name.to_ascii_lowercase().as_str() {
            "auto" => Ok(VcRule::Auto),
            "dateline" => Ok(VcRule::Dateline),
            "any" => Ok(VcRule::Any),
            "hop" => Ok(VcRule::Hop),
            "single" => Ok(VcRule::Single),
            _ => spec_err!("unknown VC rule '{name}': use auto, dateline, any, hop or single"),
        }
    }
}

/// One (channel, VC) of a dependency cycle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CycleChannel {
    pub channel: u32,
    pub from: u32,
    pub port: u32,
    pub to: u32,
    pub vc: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct DeadlockReport {
    pub deadlock_free: bool,
    pub routing: String,
    pub vcs: u32,
    pub vc_rule: VcRule,
    /// (channel, VC) vertices used by some route.
    pub channels_used: usize,
    pub dependencies: usize,
    /// One dependency cycle when not deadlock-free, in order (the last waits on the first).
    pub cycle: Vec<CycleChannel>,
}

/// Work limit of the check, in route steps (about 30 ns each on one core): a check beyond it
/// would take minutes, so it is refused up front with the estimate.
const WORK_LIMIT: u64 = 1_000_000_000;

/// The work of the check: for each destination switch the walks visit every (channel, VC)
/// at most once per packet state; routings with next-hop tables (shortest, up*/down*) also
/// build a table per destination, about eight steps per channel.
fn work_estimate(topo: &Topology, kind: RoutingKind, vcs: u32) -> u64 {
    let dests = topo
        .endpoints_per_switch()
        .iter()
        .filter(|&&w| w > 0)
        .count() as u64;
    let channels = 2 * topo.num_links() as u64;
    let per_channel = match kind {
        // Every (router, input port, VC) a head may wait in, per destination.
        RoutingKind::MinAdapt | RoutingKind::PlanarAdapt => {
            let ports = (0..topo.num_switches()).map(|s| topo.num_ports(s)).max();
            let states = topo.num_switches() * ports.unwrap_or(1) * 2;
            return dests
                .saturating_mul(states as u64)
                .saturating_mul(vcs as u64 * vcs as u64);
        }
        RoutingKind::Dor
        | RoutingKind::Nca
        | RoutingKind::Anca
        | RoutingKind::DorNoExpress
        | RoutingKind::DestTag => vcs as u64,
        // Every order's walk.
        RoutingKind::XyYx | RoutingKind::AdaptiveXyYx | RoutingKind::XyYxNoExpress => {
            2 * vcs as u64
        }
        RoutingKind::Shortest | RoutingKind::UpDown => 8 + vcs as u64,
        // Both legs, to every router and from every router.
        RoutingKind::Valiant | RoutingKind::Ugal | RoutingKind::UgalGlobal | RoutingKind::Romm => {
            let all = topo.num_switches() as u64;
            return (dests + all)
                .saturating_mul(channels)
                .saturating_mul(2 * vcs as u64);
        }
    };
    dests.saturating_mul(channels).saturating_mul(per_channel)
}

pub fn check_deadlock(
    topo: &Topology,
    routing: &Routing,
    vcs: u32,
    rule: VcRule,
) -> Result<DeadlockReport> {
    if vcs == 0 || vcs > 64 {
        return spec_err!("--vcs {vcs} is out of range: use 1 to 64 virtual channels");
    }
    let rule = match rule {
        VcRule::Auto if routing.vc_classes() > 1 => VcRule::Dateline,
        VcRule::Auto => VcRule::Any,
        r => r,
    };
    let channels = 2 * topo.num_links();
    let work = work_estimate(topo, routing.kind(), vcs);
    if work > WORK_LIMIT {
        return Err(Error::TooLarge(format!(
            "the dependency check of {} with {} routing and {vcs} VC(s) takes about {:.1e} \
             route steps ({} switches, {channels} channels), more than the {:.0e} it allows \
             (a minute or more): check a smaller instance of the same family",
            topo.name(),
            routing.kind().name(),
            work as f64,
            topo.num_switches(),
            WORK_LIMIT as f64,
        )));
    }
    // The routing's next-hop tables for every destination stay in memory during the walk.
    let n = topo.num_switches() as u64;
    let per_pair = match (routing.kind(), routing.by_structure()) {
        (_, true) | (RoutingKind::Dor, _) => 0,
        (RoutingKind::UpDown, _) => 8,
        _ => 4,
    };
    let what = format!("the dependency check of {}", topo.name());
    crate::guard::check(&what, n * n * per_pair)?;
    let vc_of = VcMap::new(vcs, routing.vc_classes(), rule);
    let edges = match routing.route_sets() {
        Some(sets) if (vcs as usize) < sets.min_vcs() => {
            return spec_err!(
                "{} routing on {} needs --vcs {} or more (BookSim's VC ranges)",
                routing.kind().name(),
                topo.name(),
                sets.min_vcs()
            )
        }
        Some(sets) => super::route_sets::dependencies(topo, sets, vcs),
        None => dependencies(topo, routing, &vc_of),
    };
    // Duato: a routing with escape VCs is deadlock-free when the escape VCs' own
    // dependencies (a packet in one never leaves them, route_sets.rs) are acyclic.
    let escape = routing.route_sets().map_or(0, |s| s.escape_vcs());
    let graph: Vec<(u32, u32)> = if escape == 0 {
        edges.clone()
    } else {
        let on = |v: u32| escape >> (v % vcs) & 1 == 1;
        edges
            .iter()
            .copied()
            .filter(|&(a, b)| on(a) && on(b))
            .collect()
    };
    let nodes = channels * vcs as usize;
    let used = {
        let mut on = vec![false; nodes];
        for &(a, b) in &edges {
            on[a as usize] = true;
            on[b as usize] = true;
        }
        on.iter().filter(|&&x| x).count()
    };
    let cycle = find_cycle(nodes, &graph)
        .into_iter()
        .map(|v| {
            let (ch, vc) = (v / vcs, v % vcs);
            let (a, b) = topo.channel_ends(ch);
            CycleChannel {
                channel: ch,
                from: a.switch,
                port: a.port,
                to: b.switch,
                vc,
            }
        })
        .collect::<Vec<_>>();
    Ok(DeadlockReport {
        deadlock_free: cycle.is_empty(),
        routing: routing.kind().name().into(),
        vcs,
        vc_rule: rule,
        channels_used: used,
        dependencies: edges.len(),
        cycle,
    })
}

/// The VCs a hop may use under a rule.
pub(super) struct VcMap {
    vcs: u32,
    classes: u32,
    rule: VcRule,
}

impl VcMap {
    fn new(vcs: u32, classes: u8, rule: VcRule) -> VcMap {
        VcMap {
            vcs,
            classes: classes.max(1) as u32,
            rule,
        }
    }

    pub(super) fn vcs(&self) -> u32 {
        self.vcs
    }

    pub(super) fn range(&self, hop: &Hop, index: usize) -> std::ops::Range<u32> {
        match self.rule {
            VcRule::Any | VcRule::Auto => 0..self.vcs,
            VcRule::Single => 0..1,
            VcRule::Hop => {
                let v = (index as u32).min(self.vcs - 1);
                v..v + 1
            }
            VcRule::Dateline => {
                let size = (self.vcs / self.classes).max(1);
                let start = (hop.vc_class as u32 * size).min(self.vcs - size);
                let end = if hop.vc_class as u32 + 1 == self.classes {
                    self.vcs
                } else {
                    start + size
                };
                start..end
            }
        }
    }

    /// How many values [`VcMap::hop_key`] takes.
    fn hop_keys(&self) -> usize {
        match self.rule {
            VcRule::Hop => self.vcs as usize,
            _ => 1,
        }
    }

    /// The part of the hop index that changes VC choice (only the `hop` rule uses it).
    fn hop_key(&self, index: usize) -> usize {
        match self.rule {
            VcRule::Hop => index.min(self.vcs as usize - 1),
            _ => 0,
        }
    }
}

/// The (channel, VC) dependencies of every route, sorted. The destinations are split among
/// the threads (each walks its own, the union is sorted, so the result does not depend on the
/// thread count). Flat arrays, not hash sets: the walks visit about (endpoint switches x
/// channels) states, 10^8 and more on networks of 10,000 switches.
fn dependencies(topo: &Topology, routing: &Routing, vc_of: &VcMap) -> Vec<(u32, u32)> {
    if routing.two_legs() {
        return super::valiant::adaptive_dependencies(topo, routing, vc_of);
    }
    let switches: Vec<usize> = {
        let w = topo.endpoints_per_switch();
        (0..topo.num_switches()).filter(|&s| w[s] > 0).collect()
    };
    let parts = rayon::current_num_threads().clamp(1, switches.len().max(1));
    let chunk = switches.len().div_ceil(parts).max(1);
    // A routing of several variants (xy_yx's orders) may take any: the union of their walks.
    let variants = routing.variants();
    let mut edges: Vec<(u32, u32)> = switches
        .par_chunks(chunk)
        .flat_map(|dests| {
            (0..variants)
                .into_par_iter()
                .map(|v| walk_to(topo, routing, vc_of, &switches, dests, v, false).0)
        })
        .reduce(Vec::new, |mut a, b| {
            a.extend(b);
            a
        });
    edges.sort_unstable();
    edges.dedup();
    edges
}

/// What [`walk_to`] gives: the (channel, VC) dependencies, and the recorded leg ends as
/// (switch, hop).
pub(super) type Walked = (Vec<(u32, u32)>, Vec<(u32, Hop)>);

/// The dependencies of the routes from every switch in `sources` to the `dests` (on leg `leg`
/// of a two-leg routing, 0 otherwise). With `record`, also the hops where legs meet: on leg
/// 0 each last hop into a destination, on leg 1 each first hop out of a source.
pub(super) fn walk_to(
    topo: &Topology,
    routing: &Routing,
    vc_of: &VcMap,
    sources: &[usize],
    dests: &[usize],
    leg: u8,
    record: bool,
) -> Walked {
    let mut ends = Vec::new();
    let vcs = vc_of.vcs;
    let channels = 2 * topo.num_links();
    // Dependencies out of each (channel, VC): a short list (at most the switch's other ports
    // times the VCs), so a linear scan deduplicates faster than hashing.
    let mut out: Vec<Vec<u32>> = vec![Vec::new(); channels * vcs as usize];
    // Visited (channel, state key, hop key) for the current destination: the stamp of the
    // destination that last took it (state keys are 0 or 1; hop keys below `hop_keys`).
    let hop_keys = vc_of.hop_keys();
    let mut seen = vec![u32::MAX; channels * 2 * hop_keys];
    for (stamp, &dest) in dests.iter().enumerate() {
        let stamp = stamp as u32;
        for &src in sources {
            let mut prev: Option<(Hop, usize)> = None;
            // A first leg may end before `dest` (the dragonfly's Valiant: valiant.rs); a walk
            // cut short below continues as an earlier one did, whose end is recorded.
            let mut cut = false;
            for (index, (hop, state)) in routing.walk_leg(topo, src, dest, leg).enumerate() {
                if record && leg == 1 && index == 0 {
                    ends.push((src as u32, hop));
                }
                if let Some((p, pi)) = prev {
                    for va in vc_of.range(&p, pi) {
                        let list = &mut out[(p.channel * vcs + va) as usize];
                        for vb in vc_of.range(&hop, index) {
                            let b = hop.channel * vcs + vb;
                            if !list.contains(&b) {
                                list.push(b);
                            }
                        }
                    }
                }
                // The rest of the walk is what an earlier walk to this destination took.
                let key = routing.state_key(state) as usize;
                debug_assert!(key < 2, "state keys are 0 or 1");
                let at = (hop.channel as usize * 2 + key) * hop_keys + vc_of.hop_key(index);
                if seen[at] == stamp {
                    cut = true;
                    break;
                }
                seen[at] = stamp;
                prev = Some((hop, index));
            }
            if let (true, 0, false, Some((last, _))) = (record, leg, cut, prev) {
                ends.push((last.to, last));
            }
        }
    }
    let edges = out
        .iter()
        .enumerate()
        .flat_map(|(a, list)| list.iter().map(move |&b| (a as u32, b)))
        .collect();
    (edges, ends)
}

/// A cycle of the directed graph, or empty. Iterative DFS with an explicit path stack.
pub(crate) fn find_cycle(nodes: usize, edges: &[(u32, u32)]) -> Vec<u32> {
    let mut start = vec![0usize; nodes + 1];
    for &(a, _) in edges {
        start[a as usize + 1] += 1;
    }
    for i in 0..nodes {
        start[i + 1] += start[i];
    }
    // `edges` is sorted by source, so targets are already grouped.
    let target = |i: usize| edges[i].1 as usize;
    const WHITE: u8 = 0;
    const GREY: u8 = 1;
    const BLACK: u8 = 2;
    let mut colour = vec![WHITE; nodes];
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for root in 0..nodes {
        if colour[root] != WHITE || start[root] == start[root + 1] {
            continue;
        }
        colour[root] = GREY;
        stack.push((root, start[root]));
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if *next == start[v + 1] {
                colour[v] = BLACK;
                stack.pop();
                continue;
            }
            let w = target(*next);
            *next += 1;
            match colour[w] {
                WHITE => {
                    colour[w] = GREY;
                    stack.push((w, start[w]));
                }
                GREY => {
                    let from = stack.iter().position(|&(u, _)| u == w).unwrap();
                    return stack[from..].iter().map(|&(u, _)| u as u32).collect();
                }
                _ => {}
            }
        }
    }
    Vec::new()
}
