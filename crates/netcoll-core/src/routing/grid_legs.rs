//! BookSim's two-phase routings on a mesh or torus (its routefunc.cpp, re-derived):
//!
//! * `romm` (mesh; ROMM, Nesson and Johnsson 1995): dimension order to an intermediate
//!   router drawn uniformly from the minimal box between source and destination (both
//!   ends included), then dimension order to the destination;
//! * `valiant` (mesh and torus; Valiant and Brebner 1981): the same through an
//!   intermediate drawn uniformly from all routers.
//!
//! VC classes: phase 0 (to the intermediate) and phase 1 (to the destination) use
//! separate halves of the VCs; on a torus each phase's half is split again by the
//! dateline, so a torus needs 4 classes. A dependency between the phases only climbs,
//! so each is deadlock-free when its dimension order is.
//!
//! The flit engine draws the intermediate per packet at its source router (engines/flit/
//! routing/grid_random.rs). A route walked here without one takes an intermediate hashed
//! from (source, destination), so it is reproducible; the dependency check covers every
//! intermediate (routing/valiant.rs's junction rule).

use super::dor::Dor;
use super::minimal::ecmp_hash;
use super::{RoutingKind, Step};
use crate::error::Result;
use crate::spec_err;
use crate::topology::{Family, Topology};

pub struct GridLegs {
    pub dor: Dor,
    dims: Vec<usize>,
    /// ROMM (intermediate in the minimal box), else Valiant (any router).
    romm: bool,
}

impl GridLegs {
    /// `romm` or `valiant` on a mesh or torus; None for another family (valiant then has
    /// its network-family form, routing/valiant.rs).
    pub fn new(topo: &Topology, kind: RoutingKind) -> Result<Option<GridLegs>> {
        let (dims, wrap) = match topo.family() {
            Family::Mesh { dims } => (dims.clone(), false),
            Family::Torus { dims } => (dims.clone(), true),
            _ if kind == RoutingKind::Romm => {
                return spec_err!(
                    "romm routing is BookSim's for a mesh, not {}: use valiant or dor",
                    topo.name()
                )
            }
            _ => return Ok(None),
        };
        if wrap && kind == RoutingKind::Romm {
            return spec_err!(
                "romm routing is BookSim's for a mesh (romm_mesh), not the torus {}: use \
                 valiant or dor",
                topo.name()
            );
        }
        Ok(Some(GridLegs {
            dor: Dor::new(topo)?,
            dims,
            romm: kind == RoutingKind::Romm,
        }))
    }

    pub fn vc_classes(&self) -> u8 {
        2 * self.dor.vc_classes()
    }

    /// The hop of leg `leg` (0: to the intermediate, 1: to the destination).
    pub fn next(&self, topo: &Topology, at: usize, dest: usize, state: u8, leg: u8) -> Step {
        let mut step = self.dor.next(topo, at, dest, state);
        step.vc_class += leg * self.dor.vc_classes();
        step
    }

    /// The intermediate of a route walked without a draw: hashed from (source,
    /// destination), in the minimal box (romm) or anywhere (valiant).
    pub fn intermediate(&self, src: usize, dest: usize) -> usize {
        let h = ecmp_hash(src ^ 0x5a5a, dest);
        if !self.romm {
            return h % self.dims.iter().product::<usize>();
        }
        let (mut at, mut stride, mut h) = (0usize, 1usize, h);
        for &k in &self.dims {
            let (a, b) = ((src / stride) % k, (dest / stride) % k);
            let (lo, span) = (a.min(b), a.abs_diff(b) + 1);
            at += stride * (lo + h % span);
            h /= span;
            stride *= k;
        }
        at
    }
}
