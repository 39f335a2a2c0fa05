//! Valiant and UGAL routing over a family's minimal routing (dragonfly, flattened butterfly,
//! HyperX), and what the channel-dependency check needs to cover every path they may take.
//!
//! Valiant (Valiant and Brebner 1981) routes minimally to a random intermediate router, then
//! minimally to the destination; here the intermediate is a hash of (source, destination)
//! over all routers, so a route is reproducible. On the dragonfly the intermediate is a group,
//! as Kim et al. 2008 (§4.1) define VAL: the first leg ends where it enters the hashed
//! router's group, and the second leg goes minimally on from there. UGAL (Singh 2005) chooses
//! per packet between the minimal path and a Valiant path by queue length times hop count:
//! UGAL-L with the source router's queues, UGAL-G with the queues along the paths. Where no
//! queue state exists (`route`, the analytic and step engines) both queues are empty and UGAL
//! takes the minimal path, as its rule does on a tie.
//!
//! VC classes: the whole first leg is class 0 and the second leg takes the minimal routing's
//! classes shifted by one, so a dependency between legs only climbs. The dragonfly needs 3
//! classes, Kim et al.'s three local VCs (§4.3): the source group's local hop and the first
//! global hop on 0, the intermediate group's local hop on 1, the second global hop and the
//! destination group's local hop on 2. The flattened butterfly and HyperX need 2. (The flit
//! engine runs BookSim's `ugal_dragonflynew` instead, whose intermediate is a router reached
//! on phase 0: see engines/flit/routing/adaptive.rs.)
//!
//! The dependency graph of an adaptive routing is the union over the paths it may choose:
//! every first leg (from a router with endpoints towards any router), every second leg (from
//! any router to a router with endpoints), and at each router where a first leg ends the
//! junctions from the first legs' last channels to the second legs' first.

use super::cdg::{walk_to, VcMap, Walked};
use super::minimal::{ecmp_hash, FamilyMin};
use super::Hop;
use super::Routing;
use crate::topology::Topology;
use rayon::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    Valiant,
    UgalLocal,
    UgalGlobal,
}

pub struct Adaptive {
    pub base: FamilyMin,
    pub choice: Choice,
}

impl Adaptive {
    pub fn vc_classes(&self) -> u8 {
        1 + self.base.vc_classes()
    }

    /// The VC class of a minimal hop of class `class` on leg `leg` (the module header).
    pub fn leg_class(&self, leg: u8, class: u8) -> u8 {
        if leg == 0 {
            0
        } else {
            1 + class
        }
    }

    /// Whether a first leg towards `via` is over at `at`: on the dragonfly, on entering the
    /// intermediate group (Kim et al.'s VAL); elsewhere only at `via` itself.
    pub fn first_leg_ends(&self, at: usize, via: usize) -> bool {
        match &self.base {
            FamilyMin::Dragonfly(p) => at / p.a == via / p.a,
            _ => at == via,
        }
    }

    /// The intermediate router of a Valiant route, or None for a minimal one.
    pub fn intermediate(&self, topo: &Topology, src: usize, dest: usize) -> Option<usize> {
        match self.choice {
            Choice::Valiant => Some(ecmp_hash(src ^ 0x5a5a, dest) % topo.num_switches()),
            Choice::UgalLocal | Choice::UgalGlobal => None,
        }
    }
}

/// The dependencies of every path an adaptive routing may choose (see the module header).
pub(super) fn adaptive_dependencies(
    topo: &Topology,
    routing: &Routing,
    vc_of: &VcMap,
) -> Vec<(u32, u32)> {
    let all: Vec<usize> = (0..topo.num_switches()).collect();
    let hosts: Vec<usize> = {
        let w = topo.endpoints_per_switch();
        all.iter().copied().filter(|&s| w[s] > 0).collect()
    };
    let chunk = |n: usize| n.div_ceil(rayon::current_num_threads().max(1)).max(1);
    // First legs end at every router; second legs start at every router.
    let first: Vec<Walked> = all
        .par_chunks(chunk(all.len()))
        .map(|dests| walk_to(topo, routing, vc_of, &hosts, dests, 0, true))
        .collect();
    let second: Vec<Walked> = hosts
        .par_chunks(chunk(hosts.len()))
        .map(|dests| walk_to(topo, routing, vc_of, &all, dests, 1, true))
        .collect();
    let mut edges = Vec::new();
    let mut into: Vec<Vec<Hop>> = vec![Vec::new(); all.len()];
    let mut out_of: Vec<Vec<Hop>> = vec![Vec::new(); all.len()];
    for (e, ends) in first {
        edges.extend(e);
        for (at, hop) in ends {
            if !into[at as usize].contains(&hop) {
                into[at as usize].push(hop);
            }
        }
    }
    for (e, starts) in second {
        edges.extend(e);
        for (at, hop) in starts {
            if !out_of[at as usize].contains(&hop) {
                out_of[at as usize].push(hop);
            }
        }
    }
    let vcs = vc_of.vcs();
    for (ins, outs) in into.iter().zip(&out_of) {
        for a in ins {
            for va in vc_of.range(a, 1) {
                for b in outs {
                    for vb in vc_of.range(b, 0) {
                        edges.push((a.channel * vcs + va, b.channel * vcs + vb));
                    }
                }
            }
        }
    }
    edges.sort_unstable();
    edges.dedup();
    edges
}
