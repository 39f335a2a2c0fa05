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
mod shortest;
mod updown;

pub use cdg::{check_deadlock, CycleChannel, DeadlockReport, VcRule};
pub use grid_route::grid_route;
pub use updown::UpDown;

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
}

impl RoutingKind {
    pub fn parse(name: &str) -> Result<RoutingKind> {
        match name.to_ascii_lowercase().as_str() {
            "dor" | "dimension-order" => Ok(RoutingKind::Dor),
            "shortest" | "min" | "minimal" => Ok(RoutingKind::Shortest),
            "updown" | "up*/down*" | "up-down" => Ok(RoutingKind::UpDown),
            _ => spec_err!("unknown routing '{name}': use dor, shortest or updown"),
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            RoutingKind::Dor => "dor",
            RoutingKind::Shortest => "shortest",
            RoutingKind::UpDown => "updown",
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
        let imp = match kind {
            RoutingKind::Dor => Imp::Dor(dor::Dor::new(topo)?),
            RoutingKind::Shortest => Imp::Shortest(shortest::Shortest::new(topo)),
            RoutingKind::UpDown => Imp::UpDown(UpDown::new(topo, root.unwrap_or(0))?),
        };
        Ok(Routing { kind, imp })
    }

    pub fn kind(&self) -> RoutingKind {
        self.kind
    }

    /// Number of virtual-channel classes the routing needs to be deadlock-free.
    pub fn vc_classes(&self) -> u8 {
        match &self.imp {
            Imp::Dor(d) => d.vc_classes(),
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
        if at == dest {
            return None;
        }
        Some(match &self.imp {
            Imp::Dor(d) => d.next(topo, at, dest, state),
            Imp::Shortest(s) => s.next(topo, at, dest),
            Imp::UpDown(u) => u.next(topo, at, dest, state),
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
        let mut at_state = Some((src, 0u8));
        std::iter::from_fn(move || {
            let (at, state) = at_state?;
            let Some(step) = self.next(topo, at, dest, state) else {
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
            Some((hop, step.state))
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
