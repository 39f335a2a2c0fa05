//! The adaptive routing chosen for a flit network and what it draws (adaptive.rs routes by
//! it; kept apart so that the network's state can hold it without an import circle).

pub(super) use family_hops::{DragonflyHops, FatTreeHops};

use crate::error::Result;
use crate::routing::RoutingKind;
use crate::spec_err;
use crate::topology::{Family, Topology};

#[path = "family_hops.rs"]
mod family_hops;
#[cfg(test)]
#[path = "family_hops_tests.rs"]
mod family_hops_tests;

/// BookSim's dragonfly UGAL threshold (`adaptive_threshold`) and queue weight of the
/// non-minimal output; its flatfly threshold.
pub(super) const DRAGONFLY_THRESHOLD: u32 = 30;
pub(super) const DRAGONFLY_NONMIN_WEIGHT: u32 = 2;
pub(super) const FLATFLY_THRESHOLD: u64 = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Choice {
    /// The dragonfly's minimal routing as BookSim's `min_dragonflynew` runs it: phase 0
    /// (VC 0) until the global hop, 1 (VC 1) from it on, ejection on the phase's VC.
    Min,
    Ugal,
    Valiant,
    /// Fat-tree NCA: one up port drawn per packet and router (BookSim's `nca`).
    Nca,
    /// The less loaded of two drawn up ports (BookSim's `anca`).
    Anca,
}

/// `repr(u8)`: a tag byte of its own, so that routing a head tells the shapes apart by one
/// compare (Rust's default layout hides the tag in the `Vec`s' capacities, and decoding it
/// cost 8 instructions a routed head on the fat-tree).
#[derive(Debug, Clone)]
#[repr(u8)]
pub(super) enum Shape {
    /// Routers per group; the table of minimal hops when it is small enough.
    Dragonfly {
        a: usize,
        hops: Option<DragonflyHops>,
    },
    /// Routers per dimension.
    Hamming { dims: Vec<usize> },
    /// Up ports per router (`k`) and the table of nearest-common-ancestor hops.
    FatTree { k: usize, hops: FatTreeHops },
}

/// An adaptive routing bound to a network (see the module comment).
#[derive(Debug, Clone)]
pub struct FlitAdaptive {
    pub(super) choice: Choice,
    pub(super) shape: Shape,
    /// Key of the intermediate draws (from the seed).
    key: u64,
    /// Whether the dragonfly's minimal routing by its table of hops is inlined into the
    /// VC allocators (`Network::route_adaptive`); tests turn it off to compare it with the
    /// general call.
    pub(crate) inline_min: bool,
}

impl FlitAdaptive {
    /// The adaptive routing of `kind` on `topo`, or None for a destination-based kind.
    pub fn of(topo: &Topology, kind: RoutingKind, seed: u64) -> Result<Option<FlitAdaptive>> {
        let choice = match kind {
            // Minimal routing is a destination table except on the dragonfly, whose BookSim
            // routings pin each phase to one VC, ejection included (see `pins_vcs`).
            RoutingKind::Shortest if matches!(topo.family(), Family::Dragonfly(_)) => Choice::Min,
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
                hops: FatTreeHops::of(p),
            },
            Family::Dragonfly(p) => Shape::Dragonfly {
                a: p.a,
                hops: DragonflyHops::of(p),
            },
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
            inline_min: true,
        }))
    }

    /// VC classes: the dragonfly's phases (two minimal, three UGAL and Valiant), the
    /// flatfly's two halves.
    pub fn classes(&self) -> usize {
        match self.shape {
            Shape::Dragonfly { .. } if self.choice == Choice::Min => 2,
            Shape::Dragonfly { .. } => 3,
            Shape::Hamming { .. } => 2,
            Shape::FatTree { .. } => 1,
        }
    }

    /// True when class `c` is VC `c` alone rather than the `c`-th share of the VCs:
    /// BookSim's dragonfly routings set `out_vc = f->ph` whatever `num_vcs` is (VCs past
    /// the phases carry injected flits only), and eject on that VC too. With one VC per
    /// class in BookSim's own files, a minimal packet crossing a global link has one VC on
    /// it and on its ejection channel, each taking a packet per two router cycles (VC then
    /// switch allocation): that is the dragonfly's saturation with 1-flit packets.
    pub fn pins_vcs(&self) -> bool {
        matches!(self.shape, Shape::Dragonfly { .. })
    }

    /// The dragonfly's table of minimal hops when the routing is minimal and takes the
    /// inlined path (`inline_min`).
    #[inline(always)]
    pub(super) fn inline_min_hops(&self) -> Option<&DragonflyHops> {
        match &self.shape {
            Shape::Dragonfly { hops: Some(h), .. }
                if self.choice == Choice::Min && self.inline_min =>
            {
                Some(h)
            }
            _ => None,
        }
    }

    /// The dragonfly's table of minimal hops, if it has one.
    pub(super) fn dragonfly_hops(&self) -> Option<&DragonflyHops> {
        match &self.shape {
            Shape::Dragonfly { hops, .. } => hops.as_ref(),
            _ => None,
        }
    }

    /// Draw `n` of this run (a counter hashed with the key): a number below `bound`, the
    /// hash's remainder. A power-of-two bound (a fat-tree's k = 4) takes the hash's low bits,
    /// the same number without a division.
    pub(super) fn draw(&self, n: u64, bound: usize) -> usize {
        let hash = splitmix64(self.key ^ n);
        let bound = bound as u64;
        (if bound.is_power_of_two() {
            hash & (bound - 1)
        } else {
            hash % bound
        }) as usize
    }
}

fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
