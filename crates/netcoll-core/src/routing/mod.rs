//! Routing: which way a packet leaves each switch on its way to a destination switch.
//!
//! Every routing here is deterministic and destination-based with a one-byte packet state, as
//! a switch would implement it: the next hop depends on the current switch, the destination
//! and the state the packet carries (the dateline class on a torus, the up/down phase under
//! up*/down*). That lets the channel-dependency check walk each (channel, state) once per
//! destination, and lets the flit engine route with table look-ups.

mod cdg;
mod dor;
mod grid_route;
mod minimal;
mod shortest;
mod updown;
mod valiant;

pub use cdg::{check_deadlock, CycleChannel, DeadlockReport, VcRule};
pub use grid_route::grid_route;
pub use minimal::ecmp_hash;
use minimal::FamilyMin;
pub use updown::UpDown;
use valiant::{Adaptive, Choice};

use crate::error::Result;
use crate::spec_err;
use crate::topology::{Neighbour, Topology};
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RoutingKind {
    /// Dimension order (mesh, torus with dateline classes, hypercube e-cube).
    Dor,
    /// Minimal paths from BFS tables, ties broken by the lowest port.
    Shortest,
    /// Autonet up*/down*: minimal legal routes (ups, then downs) over a BFS spanning tree.
    UpDown,
    /// Fat-tree nearest-common-ancestor routing with ECMP hashing of the up port (the flit
    /// engine draws the up port per packet, as BookSim's `nca`).
    Nca,
    /// BookSim's adaptive NCA (`anca`): in the flit engine the less loaded of two drawn up
    /// ports; elsewhere as [`RoutingKind::Nca`].
    Anca,
    /// Valiant: minimal to a random intermediate router, then minimal to the destination.
    Valiant,
    /// UGAL-L: minimal or Valiant by the source router's queue lengths times hops.
    Ugal,
    /// UGAL-G: the same choice by the queues along both paths.
    UgalGlobal,
}

impl RoutingKind {
    pub fn parse(name: &str) -> Result<RoutingKind> {
        match name.to_ascii_lowercase().as_str() {
            "dor" | "dimension-order" => Ok(RoutingKind::Dor),
            "shortest" | "min" | "minimal" => Ok(RoutingKind::Shortest),
            "updown" | "up*/down*" | "up-down" => Ok(RoutingKind::UpDown),
            "nca" => Ok(RoutingKind::Nca),
            "anca" => Ok(RoutingKind::Anca),
            "valiant" | "val" => Ok(RoutingKind::Valiant),
            "ugal" | "ugal-l" | "ugal_l" => Ok(RoutingKind::Ugal),
            "ugal-g" | "ugal_g" => Ok(RoutingKind::UgalGlobal),
            // BookSim's flatfly names for its minimal routings.
            "ran_min" | "xyyx" | "dim_order" => Ok(RoutingKind::Shortest),
            _ => spec_err!(
                "unknown routing '{name}': use dor, shortest (min), updown, nca, valiant, ugal \
                 or ugal-g"
            ),
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            RoutingKind::Dor => "dor",
            RoutingKind::Shortest => "shortest",
            RoutingKind::UpDown => "updown",
            RoutingKind::Nca => "nca",
            RoutingKind::Anca => "anca",
            RoutingKind::Valiant => "valiant",
            RoutingKind::Ugal => "ugal",
            RoutingKind::UgalGlobal => "ugal-g",
        }
    }
}

/// One hop of a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Hop {
    pub from: u32,
    /// Output port at `from`.
    pub port: u32,
    pub to: u32,
    pub link: u32,
    /// Directed channel id (see [`Topology::channel`]).
    pub channel: u32,
    /// Virtual-channel class the routing asks for on this hop (0 unless it has several).
    pub vc_class: u8,
    /// For up*/down*: whether this hop goes towards the root ("up").
    pub up: bool,
}

/// A routing function bound to one topology.
pub struct Routing {
    kind: RoutingKind,
    imp: Imp,
}

enum Imp {
    Dor(dor::Dor),
    Shortest(shortest::Shortest),
    UpDown(UpDown),
    /// A family's own minimal routing (fat-tree NCA, dragonfly l-g-l, HyperX dimension order).
    Family(FamilyMin),
    Adaptive(Adaptive),
}

/// The next hop and the packet state after it.
#[derive(Debug, Clone, Copy)]
pub struct Step {
    pub via: Neighbour,
    pub state: u8,
    pub vc_class: u8,
    pub up: bool,
}

impl Routing {
    /// `root` is the up*/down* spanning-tree root (default switch 0); others ignore it.
    pub fn new(topo: &Topology, kind: RoutingKind, root: Option<usize>) -> Result<Routing> {
        let family = FamilyMin::of(topo);
        let adaptive = |choice| match FamilyMin::of(topo) {
            Some(base @ (FamilyMin::Dragonfly(_) | FamilyMin::Hamming(_))) => {
                Ok(Imp::Adaptive(Adaptive { base, choice }))
            }
            _ => spec_err!(
                "{} routing needs a dragonfly, flatfly or hyperx network, not {}: use shortest \
                 or updown",
                kind.name(),
                topo.name()
            ),
        };
        let imp = match (kind, family) {
            // On the network families, minimal routing is the family's own.
            (RoutingKind::Shortest, Some(f)) => Imp::Family(f),
            (RoutingKind::Dor, Some(f @ FamilyMin::Hamming(_))) => Imp::Family(f),
            (RoutingKind::Nca | RoutingKind::Anca, Some(f @ FamilyMin::Nca(_))) => Imp::Family(f),
            (RoutingKind::Nca | RoutingKind::Anca, _) => {
                return spec_err!(
                    "nca routing needs a fat-tree network, not {}: use shortest or updown",
                    topo.name()
                )
            }
            (RoutingKind::Valiant, _) => adaptive(Choice::Valiant)?,
            (RoutingKind::Ugal, _) => adaptive(Choice::UgalLocal)?,
            (RoutingKind::UgalGlobal, _) => adaptive(Choice::UgalGlobal)?,
            (RoutingKind::Dor, _) => Imp::Dor(dor::Dor::new(topo)?),
            (RoutingKind::Shortest, None) => Imp::Shortest(shortest::Shortest::new(topo)),
            (RoutingKind::UpDown, _) => Imp::UpDown(UpDown::new(topo, root.unwrap_or(0))?),
        };
        Ok(Routing { kind, imp })
    }

    /// Does the routing follow the network's structure (no per-destination tables)?
    pub fn by_structure(&self) -> bool {
        matches!(self.imp, Imp::Family(_) | Imp::Adaptive(_))
    }

    /// Does the routing choose among several paths per packet (Valiant, UGAL)? Such a routing
    /// is not destination-based: engines that route hop by hop from (switch, destination,
    /// state) alone cannot run it, and `next` gives its minimal choice.
    pub fn is_adaptive(&self) -> bool {
        matches!(self.imp, Imp::Adaptive(_))
    }

    pub fn kind(&self) -> RoutingKind {
        self.kind
    }

    /// Number of virtual-channel classes the routing needs to be deadlock-free.
    pub fn vc_classes(&self) -> u8 {
        match &self.imp {
            Imp::Dor(d) => d.vc_classes(),
            Imp::Family(f) => f.vc_classes(),
            Imp::Adaptive(a) => a.vc_classes(),
            _ => 1,
        }
    }

    /// The up*/down* structure, when this is up*/down* routing.
    pub fn updown(&self) -> Option<&UpDown> {
        match &self.imp {
            Imp::UpDown(u) => Some(u),
            _ => None,
        }
    }

    /// Next hop from `at` towards `dest` for a packet in `state` (0 at injection); None at
    /// the destination.
    pub fn next(&self, topo: &Topology, at: usize, dest: usize, state: u8) -> Option<Step> {
        self.next_leg(topo, at, dest, state, 0)
    }

    /// The next hop on leg `leg` of a two-leg (Valiant) route: the minimal routing's, with
    /// its VC class shifted past the first leg's classes on the second leg.
    fn next_leg(
        &self,
        topo: &Topology,
        at: usize,
        dest: usize,
        state: u8,
        leg: u8,
    ) -> Option<Step> {
        if at == dest {
            return None;
        }
        Some(match &self.imp {
            Imp::Dor(d) => d.next(topo, at, dest, state),
            Imp::Shortest(s) => s.next(topo, at, dest),
            Imp::UpDown(u) => u.next(topo, at, dest, state),
            Imp::Family(f) => f.next(topo, at, dest, state),
            Imp::Adaptive(a) => {
                let mut step = a.base.next(topo, at, dest, state);
                step.vc_class += leg * a.base.vc_classes();
                step
            }
        })
    }

    /// The part of a packet state that its last channel does not already determine; two
    /// packets on the same channel with the same key continue identically.
    pub fn state_key(&self, state: u8) -> u8 {
        match &self.imp {
            Imp::Dor(_) => state & 1,
            _ => state,
        }
    }

    /// The hops from `src` to `dest`, each with the packet state after it, lazily.
    pub fn walk<'a>(
        &'a self,
        topo: &'a Topology,
        src: usize,
        dest: usize,
    ) -> impl Iterator<Item = (Hop, u8)> + 'a {
        let via = match &self.imp {
            Imp::Adaptive(a) => a.intermediate(topo, src, dest),
            _ => None,
        };
        match via {
            Some(via) => self.legs(topo, src, [via, dest], 0),
            None => self.legs(topo, src, [dest, dest], 0),
        }
    }

    /// The hops of one leg (0 or 1) of a two-leg routing from `src` to `dest`.
    pub(crate) fn walk_leg<'a>(
        &'a self,
        topo: &'a Topology,
        src: usize,
        dest: usize,
        leg: u8,
    ) -> impl Iterator<Item = (Hop, u8)> + 'a {
        self.legs(topo, src, [dest, dest], leg)
    }

    /// Walks to `targets[0]` on leg `first`, then (if `first` is 0) to `targets[1]` on leg 1.
    fn legs<'a>(
        &'a self,
        topo: &'a Topology,
        src: usize,
        targets: [usize; 2],
        first: u8,
    ) -> impl Iterator<Item = (Hop, u8)> + 'a {
        let mut at_state = Some((src, 0u8));
        let mut leg = first;
        std::iter::from_fn(move || loop {
            let (at, state) = at_state?;
            let target = targets[(leg as usize).min(1)];
            let Some(step) = self.next_leg(topo, at, target, state, leg) else {
                if leg == 0 && first == 0 && targets[0] != targets[1] {
                    (leg, at_state) = (1, Some((at, 0)));
                    continue;
                }
                at_state = None;
                return None;
            };
            at_state = Some((step.via.switch as usize, step.state));
            let hop = Hop {
                from: at as u32,
                port: step.via.port,
                to: step.via.switch,
                link: step.via.link,
                channel: topo.channel(step.via.link, at as u32),
                vc_class: step.vc_class,
                up: step.up,
            };
            return Some((hop, step.state));
        })
    }

    /// The route between two switches, hop by hop.
    pub fn route(&self, topo: &Topology, src: usize, dest: usize) -> Vec<Hop> {
        self.walk(topo, src, dest).map(|(hop, _)| hop).collect()
    }

    /// The route between two endpoints (empty when they share a switch).
    pub fn route_endpoints(&self, topo: &Topology, src: usize, dest: usize) -> Result<Vec<Hop>> {
        let n = topo.num_endpoints();
        if src >= n || dest >= n {
            return spec_err!(
                "endpoint {} is out of range: {} has {n} endpoints, 0 to {}",
                if src >= n { src } else { dest },
                topo.name(),
                n - 1
            );
        }
        Ok(self.route(topo, topo.endpoint_switch(src), topo.endpoint_switch(dest)))
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod network_tests;
