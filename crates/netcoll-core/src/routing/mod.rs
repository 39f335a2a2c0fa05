//! Routing: which way a packet leaves each switch on its way to a destination switch.
//!
//! Every routing here is deterministic and destination-based with a one-byte packet state, as
//! a switch would implement it: the next hop depends on the current switch, the destination
//! and the state the packet carries (the dateline class on a torus, the up/down phase under
//! up*/down*). That lets the channel-dependency check walk each (channel, state) once per
//! destination, and lets the flit engine route with table look-ups.

pub(crate) mod cdg;
mod cmesh;
mod dor;
mod grid_legs;
pub mod grid_orders;
mod grid_route;
mod minimal;
pub mod route_sets;
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
use crate::topology::{Family, Neighbour, Topology};
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
    /// BookSim's `xy_yx` (mesh, cmesh): XY or YX chosen at random at the source, one VC
    /// class each (grid_orders.rs, cmesh.rs).
    XyYx,
    /// BookSim's `adaptive_xy_yx` (mesh): XY or YX by the source router's credits.
    AdaptiveXyYx,
    /// BookSim's `romm` (mesh): two phases of DOR through a random router of the minimal
    /// box (grid_legs.rs).
    Romm,
    /// BookSim's cmesh `dor_no_express` and `xy_yx_no_express` (cmesh.rs).
    DorNoExpress,
    XyYxNoExpress,
    /// BookSim's `dest_tag` on a fly (one crossbar: the destination's port).
    DestTag,
    /// BookSim's `min_adapt` (mesh, torus) and `planar_adapt` (mesh): route sets, the pick
    /// left to VC allocation (route_sets.rs).
    MinAdapt,
    PlanarAdapt,
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
            "xy_yx" => Ok(RoutingKind::XyYx),
            "adaptive_xy_yx" => Ok(RoutingKind::AdaptiveXyYx),
            "romm" => Ok(RoutingKind::Romm),
            "dor_no_express" => Ok(RoutingKind::DorNoExpress),
            "xy_yx_no_express" => Ok(RoutingKind::XyYxNoExpress),
            "dest_tag" => Ok(RoutingKind::DestTag),
            "min_adapt" => Ok(RoutingKind::MinAdapt),
            "planar_adapt" => Ok(RoutingKind::PlanarAdapt),
            _ => spec_err!(
                "unknown routing '{name}': use dor, shortest (min), updown, nca, valiant, ugal, \
                 ugal-g, xy_yx, adaptive_xy_yx, romm, min_adapt, planar_adapt (mesh), dor_no_express, xy_yx_no_express \
                 (cmesh) or dest_tag (fly)"
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
            RoutingKind::XyYx => "xy_yx",
            RoutingKind::AdaptiveXyYx => "adaptive_xy_yx",
            RoutingKind::Romm => "romm",
            RoutingKind::DorNoExpress => "dor_no_express",
            RoutingKind::XyYxNoExpress => "xy_yx_no_express",
            RoutingKind::DestTag => "dest_tag",
            RoutingKind::MinAdapt => "min_adapt",
            RoutingKind::PlanarAdapt => "planar_adapt",
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
    /// XY or YX on a mesh (the variant is the order).
    Orders(grid_orders::MeshOrders),
    /// BookSim's cmesh routings.
    Cmesh(cmesh::CmeshRoute),
    /// ROMM and Valiant on a mesh or torus (the leg is the phase).
    Legs(grid_legs::GridLegs),
    /// Route sets (min_adapt, planar_adapt); a route walked alone takes dimension order,
    /// the escape path.
    Sets(route_sets::RouteSets, dor::Dor),
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
                "{} routing needs a dragonfly, flatfly or hyperx network (valiant also a mesh or \
                 torus), not {}: use shortest or updown",
                kind.name(),
                topo.name()
            ),
        };
        if let Some(c) = cmesh::CmeshRoute::new(topo, kind)? {
            return Ok(Routing {
                kind,
                imp: Imp::Cmesh(c),
            });
        }
        if matches!(kind, RoutingKind::Valiant | RoutingKind::Romm) {
            if let Some(legs) = grid_legs::GridLegs::new(topo, kind)? {
                return Ok(Routing {
                    kind,
                    imp: Imp::Legs(legs),
                });
            }
        }
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
            (RoutingKind::XyYx | RoutingKind::AdaptiveXyYx, _) => {
                Imp::Orders(grid_orders::MeshOrders::new(topo, kind.name())?)
            }
            (RoutingKind::DorNoExpress | RoutingKind::XyYxNoExpress, _) => {
                return spec_err!(
                    "{} routing is BookSim's for a cmesh, not {}: use dor or xy_yx",
                    kind.name(),
                    topo.name()
                )
            }
            (RoutingKind::DestTag, _) if matches!(topo.family(), Family::Fly { .. }) => {
                Imp::Shortest(shortest::Shortest::new(topo))
            }
            (RoutingKind::DestTag, _) => {
                return spec_err!(
                    "dest_tag routing is BookSim's for a fly, not {}: use dor or shortest",
                    topo.name()
                )
            }
            (RoutingKind::MinAdapt | RoutingKind::PlanarAdapt, _) => {
                let set = if kind == RoutingKind::MinAdapt {
                    route_sets::SetKind::MinAdapt
                } else {
                    route_sets::SetKind::PlanarAdapt
                };
                Imp::Sets(route_sets::RouteSets::new(topo, set)?, dor::Dor::new(topo)?)
            }
            (RoutingKind::Romm, _) => unreachable!("GridLegs::new refuses romm off a mesh"),
            (RoutingKind::Dor, _) => Imp::Dor(dor::Dor::new(topo)?),
            (RoutingKind::Shortest, None) => Imp::Shortest(shortest::Shortest::new(topo)),
            (RoutingKind::UpDown, _) => Imp::UpDown(UpDown::new(topo, root.unwrap_or(0))?),
        };
        Ok(Routing { kind, imp })
    }

    /// Does the routing follow the network's structure (no per-destination tables)?
    pub fn by_structure(&self) -> bool {
        matches!(
            self.imp,
            Imp::Family(_)
                | Imp::Adaptive(_)
                | Imp::Orders(_)
                | Imp::Cmesh(_)
                | Imp::Legs(_)
                | Imp::Sets(..)
        )
    }

    /// Does the routing choose among several paths per packet (Valiant, UGAL)? Such a routing
    /// is not destination-based: engines that route hop by hop from (switch, destination,
    /// state) alone cannot run it, and `next` gives its minimal choice.
    pub fn is_adaptive(&self) -> bool {
        matches!(
            self.imp,
            Imp::Adaptive(_) | Imp::Legs(_) | Imp::Orders(_) | Imp::Sets(..)
        ) || self.variants() > 1
    }

    /// Keeps every choice of a route-set routing (min_adapt, planar_adapt) instead of
    /// BookSim's one per priority (route_sets.rs); no change for other routings.
    pub fn keep_all_choices(&mut self) {
        if let Imp::Sets(s, _) = &mut self.imp {
            s.keep = route_sets::Choices::All;
        }
    }

    /// The route sets of min_adapt and planar_adapt, when this is one of them.
    pub fn route_sets(&self) -> Option<&route_sets::RouteSets> {
        match &self.imp {
            Imp::Sets(s, _) => Some(s),
            _ => None,
        }
    }

    /// Whether routes go through an intermediate router (two legs: Valiant, ROMM).
    pub(crate) fn two_legs(&self) -> bool {
        matches!(self.imp, Imp::Adaptive(_) | Imp::Legs(_))
    }

    /// Routes that keep one of several variants from source to destination (xy_yx: the
    /// order); 1 for the others.
    pub fn variants(&self) -> u8 {
        match &self.imp {
            Imp::Orders(_) => 2,
            Imp::Cmesh(c) => c.variants(),
            _ => 1,
        }
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
            Imp::Orders(_) => 2,
            Imp::Cmesh(c) => c.vc_classes(),
            Imp::Legs(l) => l.vc_classes(),
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

    /// The next hop of variant `variant` of a routing with several (xy_yx's orders, 0 XY
    /// and 1 YX; see [`Routing::variants`]); None at the destination.
    pub fn next_variant(
        &self,
        topo: &Topology,
        at: usize,
        dest: usize,
        variant: u8,
    ) -> Option<Step> {
        self.next_leg(topo, at, dest, 0, variant)
    }

    /// The next hop on leg `leg` of a two-leg (Valiant, ROMM) route: the minimal routing's,
    /// with the VC class of its leg (valiant.rs, grid_legs.rs).
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
                step.vc_class = a.leg_class(leg, step.vc_class);
                step
            }
            Imp::Orders(o) => o.next(topo, at, dest, leg),
            Imp::Sets(_, d) => d.next(topo, at, dest, state),
            Imp::Cmesh(c) => c.next(topo, at, dest, leg),
            Imp::Legs(l) => l.next(topo, at, dest, state, leg),
        })
    }

    /// The part of a packet state that its last channel does not already determine; two
    /// packets on the same channel with the same key continue identically.
    pub fn state_key(&self, state: u8) -> u8 {
        match &self.imp {
            Imp::Dor(_) | Imp::Legs(_) | Imp::Sets(..) => state & 1,
            // The order is the leg the walk was started on: the channel decides the rest.
            Imp::Orders(_) | Imp::Cmesh(_) => 0,
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
            Imp::Legs(l) => Some(l.intermediate(src, dest)),
            _ => None,
        };
        match via {
            Some(via) => self.legs(topo, src, [via, dest], 0, Legs::Both),
            None => self.legs(topo, src, [dest, dest], 0, Legs::Minimal),
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
        self.legs(topo, src, [dest, dest], leg, Legs::One)
    }

    /// Whether the first leg of a two-leg route towards `via` is over at `at` (the dragonfly's
    /// Valiant ends it on entering the intermediate group: valiant.rs).
    fn first_leg_ends(&self, at: usize, via: usize) -> bool {
        match &self.imp {
            Imp::Adaptive(a) => a.first_leg_ends(at, via),
            _ => at == via,
        }
    }

    /// Walks to `targets[0]` on leg `first`, then (with `Legs::Both`) to `targets[1]` on leg 1.
    /// The first leg of a two-leg route may end before its target
    /// ([`Routing::first_leg_ends`]).
    fn legs<'a>(
        &'a self,
        topo: &'a Topology,
        src: usize,
        targets: [usize; 2],
        first: u8,
        legs: Legs,
    ) -> impl Iterator<Item = (Hop, u8)> + 'a {
        let mut at_state = Some((src, 0u8));
        let mut leg = first;
        std::iter::from_fn(move || loop {
            let (at, state) = at_state?;
            let target = targets[(leg as usize).min(1)];
            let leg_over = legs != Legs::Minimal && leg == 0 && self.first_leg_ends(at, target);
            let step = if leg_over {
                None
            } else {
                self.next_leg(topo, at, target, state, leg)
            };
            let Some(step) = step else {
                if leg == 0 && legs == Legs::Both {
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

/// What a walk covers ([`Routing::legs`]): a one-leg (minimal) route, both legs of a two-leg
/// route, or one leg of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Legs {
    Minimal,
    Both,
    One,
}
