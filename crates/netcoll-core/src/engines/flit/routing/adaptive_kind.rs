//! The adaptive routing chosen for a flit network and what it draws (adaptive.rs routes by
//! it; kept apart so that the network's state can hold it without an import circle).

use crate::error::Result;
use crate::routing::RoutingKind;
use crate::spec_err;
use crate::topology::{Family, Topology};

/// BookSim's dragonfly UGAL threshold (`adaptive_threshold`) and queue weight of the
/// non-minimal output; its flatfly threshold.
pub(super) const DRAGONFLY_THRESHOLD: u32 = 30;
pub(super) const DRAGONFLY_NONMIN_WEIGHT: u32 = 2;
pub(super) const FLATFLY_THRESHOLD: u64 = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Choice {
    Ugal,
    Valiant,
    /// Fat-tree NCA: one up port drawn per packet and router (BookSim's `nca`).
    Nca,
    /// The less loaded of two drawn up ports (BookSim's `anca`).
    Anca,
}

#[derive(Debug, Clone)]
pub(super) enum Shape {
    /// Routers per group.
    Dragonfly { a: usize },
    /// Routers per dimension.
    Hamming { dims: Vec<usize> },
    /// Up ports per router (`k`), routers per level, levels, leaf endpoints (the first up
    /// port of a leaf).
    FatTree {
        k: usize,
        per_level: usize,
        levels: usize,
        leaf_up: usize,
    },
}

/// An adaptive routing bound to a network (see the module comment).
#[derive(Debug, Clone)]
pub struct FlitAdaptive {
    pub(super) choice: Choice,
    pub(super) shape: Shape,
    /// Key of the intermediate draws (from the seed).
    key: u64,
}

impl FlitAdaptive {
    /// The adaptive routing of `kind` on `topo`, or None for a destination-based kind.
    pub fn of(topo: &Topology, kind: RoutingKind, seed: u64) -> Result<Option<FlitAdaptive>> {
        let choice = match kind {
            RoutingKind::Ugal => Choice::Ugal,
            RoutingKind::Valiant => Choice::Valiant,
            RoutingKind::Nca => Choice::Nca,
            RoutingKind::Anca => Choice::Anca,
            RoutingKind::UgalGlobal => {
                return spec_err!(
                    "ugal-g (global UGAL) is not in the flit engine: BookSim has no global UGAL \
                     for dragonflynew or flatfly; use ugal (BookSim's local UGAL) or valiant"
                )
            }
            _ => return Ok(None),
        };
        let shape = match topo.family() {
            Family::FatTree(p) => Shape::FatTree {
                k: p.k,
                per_level: p.per_level(),
                levels: p.levels,
                leaf_up: p.leaf_endpoints(),
            },
            Family::Dragonfly(p) => Shape::Dragonfly { a: p.a },
            Family::Flatfly(p) | Family::HyperX(p) => Shape::Hamming {
                dims: p.dims.clone(),
            },
            // Valiant on a mesh or torus is the grid's (grid_random.rs).
            Family::Mesh { .. } | Family::Torus { .. } if kind == RoutingKind::Valiant => {
                return Ok(None)
            }
            _ => {
                return spec_err!(
                    "{} routing needs a dragonfly, flatfly or hyperx network, not {}",
                    kind.name(),
                    topo.name()
                )
            }
        };
        Ok(Some(FlitAdaptive {
            choice,
            shape,
            key: splitmix64(seed ^ 0x00ad_a971_u64 << 24),
        }))
    }

    /// VC classes: the dragonfly's three phases, the flatfly's two halves.
    pub fn classes(&self) -> usize {
        match self.shape {
            Shape::Dragonfly { .. } => 3,
            Shape::Hamming { .. } => 2,
            Shape::FatTree { .. } => 1,
        }
    }

    /// Draw `n` of this run (a counter hashed with the key): a number below `bound`.
    pub(super) fn draw(&self, n: u64, bound: usize) -> usize {
        (splitmix64(self.key ^ n) % bound as u64) as usize
    }
}

fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
