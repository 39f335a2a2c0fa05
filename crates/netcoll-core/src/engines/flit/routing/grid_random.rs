//! BookSim's routings that draw at random or read credits per packet, on a mesh, torus or
//! cmesh, as its routefunc.cpp and cmesh.cpp define them (re-derived):
//!
//! * `xy_yx` (mesh, cmesh, and cmesh's `xy_yx_no_express`): at its source router a packet
//!   takes XY or YX with probability 1/2 and keeps it; XY on the lower half of the VCs, YX
//!   on the upper half;
//! * `adaptive_xy_yx` (mesh): the same, but the source router takes the order whose first
//!   output port has fewer credits in use (BookSim's `GetUsedCredit`: the flits sent on
//!   the port's VCs whose credits are not back), a tie by the coin;
//! * `romm` (mesh): dimension order to a router drawn uniformly from the minimal box of
//!   source and destination (both included), then to the destination; phase 0 on the lower
//!   half of the VCs, phase 1 on the upper half;
//! * `valiant` (mesh): the same through a router drawn uniformly from all; on a torus each
//!   phase is BookSim's torus dimension order (torus.rs, with its random half-way ties),
//!   and the VCs split in quarters: (ring partition, phase) = (0,0), (0,1), (1,0), (1,1),
//!   as BookSim's `valiant_torus` splits them (ring partition first).
//!
//! BookSim draws from one global generator; here each router draws from its own stream,
//! its n-th draw a hash of (`seed`, router, n), so a run does not depend on the order the
//! routers run in. The intermediate router of a packet is kept by packet id (the flit's
//! state byte holds the phase); a run with intermediates therefore stays on one thread.
//!
//! Routing state (the flit's byte): xy_yx: bit 1 set once the order is drawn, bit 0 the
//! order (1: YX); romm and valiant: bit 7 the phase, and on a mesh bit 6 set once the
//! intermediate is drawn (on a torus the torus DOR's state, never 0 after a hop, tells).

use std::cell::Cell;

use super::config::FlitConfig;
use super::torus::TorusDor;
use crate::routing::grid_orders::mesh_dor_port;
use crate::routing::RoutingKind;
use crate::topology::{Family, Topology};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// XY or YX by a coin (`adaptive`: by credits) at the source.
    Orders { adaptive: bool },
    /// Two phases through a random intermediate (`romm`: in the minimal box).
    Legs { romm: bool },
}

/// The per-packet choices of BookSim's random and adaptive grid routings.
#[derive(Default)]
pub struct GridRandom {
    kind: Option<Kind>,
    /// Mesh or torus radices (cmesh: its router grid `[k, k]`).
    dims: Vec<u32>,
    /// BookSim's torus DOR for valiant on a torus (empty otherwise).
    torus: TorusDor,
    key: u64,
    draws: Vec<Cell<u32>>,
    /// The intermediate router of every packet in phase 0, by packet id.
    intm: Vec<u32>,
}

/// What [`GridRandom::step`] needs of the router beyond the topology: the credits in use
/// on a local output port (adaptive_xy_yx only).
pub trait UsedCredits {
    fn used_credits(&self, r: usize, port: u32) -> u32;
}

impl GridRandom {
    pub fn new(topo: &Topology, cfg: &FlitConfig) -> GridRandom {
        // On a cmesh the orders' ports and express rule come from crate::routing.
        let (dims, wrap) = match topo.family() {
            Family::Mesh { dims } => (dims.clone(), false),
            Family::Torus { dims } => (dims.clone(), true),
            Family::Cmesh { k } => (vec![*k, *k], false),
            _ => return GridRandom::default(),
        };
        let kind = match cfg.routing {
            RoutingKind::XyYx | RoutingKind::XyYxNoExpress => Kind::Orders { adaptive: false },
            RoutingKind::AdaptiveXyYx => Kind::Orders { adaptive: true },
            RoutingKind::Romm => Kind::Legs { romm: true },
            RoutingKind::Valiant => Kind::Legs { romm: false },
            _ => return GridRandom::default(),
        };
        GridRandom {
            kind: Some(kind),
            dims: dims.iter().map(|&k| k as u32).collect(),
            torus: if wrap {
                TorusDor::booksim_for(topo, cfg.seed)
            } else {
                TorusDor::default()
            },
            key: splitmix64(cfg.seed ^ 0x6772_6964_u64 << 24),
            draws: (0..topo.num_switches()).map(|_| Cell::new(0)).collect(),
            intm: Vec::new(),
        }
    }

    /// Whether this routes the network (one of the routings above).
    #[inline]
    pub fn routes(&self) -> bool {
        self.kind.is_some()
    }

    /// Whether packets carry an intermediate router (kept by packet id: one thread).
    pub fn per_packet(&self) -> bool {
        matches!(self.kind, Some(Kind::Legs { .. }))
    }

    /// Local output port, VC class and routing state after the hop of packet `pkt`'s head
    /// at router `r` bound for router `dst`, in routing state `state`; None when it leaves
    /// here (at `dst` with no intermediate still ahead: BookSim's two-phase routings route
    /// a packet in phase 0 on through its destination, and a packet to its own router
    /// through an intermediate).
    pub fn step(
        &mut self,
        topo: &Topology,
        routing: &crate::routing::Routing,
        credits: &impl UsedCredits,
        at: (usize, usize, u32),
        state: u8,
    ) -> Option<(u32, u8, u8)> {
        let (r, dst, pkt) = at;
        match self.kind.expect("routes() was checked") {
            Kind::Orders { .. } if r == dst => None,
            Kind::Orders { adaptive } => {
                let order = if state & 2 != 0 {
                    state & 1
                } else {
                    self.draw_order(topo, routing, credits, r, dst, adaptive)
                };
                let step = routing
                    .next_variant(topo, r, dst, order)
                    .expect("not at the destination");
                Some((step.via.port, order, 2 | order))
            }
            Kind::Legs { romm } => self.leg_step(r, dst, pkt, state, romm),
        }
    }

    /// XY (0) or YX (1) for a packet at its source router `r`.
    fn draw_order(
        &self,
        topo: &Topology,
        routing: &crate::routing::Routing,
        credits: &impl UsedCredits,
        r: usize,
        dst: usize,
        adaptive: bool,
    ) -> u8 {
        if adaptive {
            let port = |order| {
                routing
                    .next_variant(topo, r, dst, order)
                    .expect("not at the destination")
                    .via
                    .port
            };
            let (xy, yx) = (
                credits.used_credits(r, port(0)),
                credits.used_credits(r, port(1)),
            );
            if xy != yx {
                return u8::from(xy > yx);
            }
        }
        u8::from(self.draw(r, 2) == 1)
    }

    /// One hop of romm or valiant.
    fn leg_step(
        &mut self,
        r: usize,
        dst: usize,
        pkt: u32,
        state: u8,
        romm: bool,
    ) -> Option<(u32, u8, u8)> {
        let torus = self.torus.routes();
        let fresh = if torus { state == 0 } else { state & 0x40 == 0 };
        if fresh {
            let intm = if romm {
                self.box_router(r, dst)
            } else {
                self.draw(r, self.dims.iter().product::<u32>()) as usize
            };
            let p = pkt as usize;
            if p >= self.intm.len() {
                self.intm.resize(p + 1, 0);
            }
            self.intm[p] = intm as u32;
        }
        let mut phase = state >> 7;
        let mut dor = if torus { state & 0x7f } else { 0x40 };
        if phase == 0 && self.intm[pkt as usize] as usize == r {
            // At the intermediate: phase 1, turning as if just injected.
            phase = 1;
            if torus {
                dor = 0;
            }
        }
        let target = if phase == 0 {
            self.intm[pkt as usize] as usize
        } else {
            dst
        };
        if target == r {
            return None;
        }
        Some(if torus {
            let (port, ring, s) = self.torus.step(r, target, dor);
            (port, 2 * ring + phase, s | phase << 7)
        } else {
            let dims: Vec<usize> = self.dims.iter().map(|&k| k as usize).collect();
            let (port, _) = mesh_dor_port(&dims, r, target, false);
            (port as u32, phase, 0x40 | phase << 7)
        })
    }

    /// BookSim's `rand_min_intr_mesh`: in each dimension a coordinate drawn uniformly
    /// between the source's and the destination's, both included.
    fn box_router(&self, src: usize, dst: usize) -> usize {
        let (mut at, mut stride) = (0usize, 1usize);
        for &k in &self.dims {
            let k = k as usize;
            let (a, b) = ((src / stride) % k, (dst / stride) % k);
            at += stride * (a.min(b) + self.draw(src, a.abs_diff(b) as u32 + 1) as usize);
            stride *= k;
        }
        at
    }

    /// Router `r`'s next draw, uniform in `0..n`.
    fn draw(&self, r: usize, n: u32) -> u32 {
        let c = self.draws[r].get();
        self.draws[r].set(c.wrapping_add(1));
        let h = splitmix64(self.key ^ ((r as u64) << 32 | c as u64));
        // Lemire's multiply-shift: uniform enough for n far below 2^32.
        (((h >> 32) * n as u64) >> 32) as u32
    }
}

/// SplitMix64's finaliser.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
