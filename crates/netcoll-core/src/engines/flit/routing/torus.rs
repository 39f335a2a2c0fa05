//! Dimension-order routing on a torus in closed form, for both `torus_routing`s:
//!
//! * `booksim` (the default): BookSim 2's `dim_order_torus` (its routefunc.cpp,
//!   re-derived here). When a packet turns into a dimension (or leaves its source) it picks
//!   the shorter way round; a tie (the destination exactly half-way round) goes either way
//!   with probability 1/2 (BookSim draws from its global RNG; we draw from a stream per
//!   router, its n-th draw a hash of (`seed`, router, n), so runs stay deterministic and do
//!   not depend on the order routers are visited in, or on how many threads run them). The
//!   VC class is fixed for the whole dimension at that turn: class 1 (the upper half of the
//!   VCs) if the path in this dimension crosses the wrap-around link, class 0 otherwise.
//! * `dateline`: `crate::routing`'s DOR (routing/dor.rs): ties go the + way and the class
//!   switches from 0 to 1 at the dateline crossing. The general router stages keep
//!   `crate::routing` for it; the mask router (mask_router.rs) routes it here, and
//!   tests_mask_router.rs checks that the two agree.
//!
//! Both are deadlock-free; they load the two VC halves and the two directions differently,
//! which shows near saturation. Every router's coordinates are computed once, so a hop
//! costs no division.

use std::cell::Cell;

use super::config::{FlitConfig, TorusRouting};
use crate::routing::RoutingKind;
use crate::topology::{Family, Topology};

/// DOR on a torus: the radices, every router's coordinates and the tie draws.
#[derive(Default)]
pub struct TorusDor {
    /// Radices (empty: not a torus routed by DOR).
    dims: Vec<u32>,
    /// Router `r`'s coordinates at `r * dims.len()..`, dimension 0 first.
    coords: Vec<u32>,
    /// BookSim's scheme, else the dateline's.
    booksim: bool,
    /// The key of the tie draws (from the seed).
    tie_key: u64,
    /// The draws each router has made for its half-way ties (BookSim's scheme); cells, so
    /// that the mask router's routing borrows the whole table shared.
    tie_draws: Vec<Cell<u32>>,
}

impl TorusDor {
    pub fn new(topo: &Topology, cfg: &FlitConfig) -> TorusDor {
        if cfg.routing != RoutingKind::Dor {
            return TorusDor::default();
        }
        let mut dor = TorusDor::booksim_for(topo, cfg.seed);
        dor.booksim = cfg.torus_routing == TorusRouting::Booksim;
        dor
    }

    /// BookSim's torus DOR on torus `topo` with the tie draws of `seed`, for a routing that
    /// turns on it in phases (valiant, grid_random.rs); empty when `topo` is no torus.
    pub fn booksim_for(topo: &Topology, seed: u64) -> TorusDor {
        let Family::Torus { dims } = topo.family() else {
            return TorusDor::default();
        };
        let n = topo.num_switches();
        let mut coords = Vec::with_capacity(n * dims.len());
        for r in 0..n {
            let mut a = r;
            for &k in dims {
                coords.push((a % k) as u32);
                a /= k;
            }
        }
        TorusDor {
            dims: dims.iter().map(|&k| k as u32).collect(),
            coords,
            booksim: true,
            tie_key: splitmix64(seed ^ 0x7025_u64 << 32),
            tie_draws: vec![Cell::new(0); n],
        }
    }

    /// Whether this is a torus routed by DOR (either scheme).
    #[inline]
    pub fn routes(&self) -> bool {
        !self.dims.is_empty()
    }

    /// Whether this is a torus routed by BookSim's scheme.
    #[inline]
    pub fn booksim(&self) -> bool {
        self.booksim && self.routes()
    }

    /// Output port (local), VC class and routing state after the hop of a head at router
    /// `r` bound for router `dst` (not `r`) with routing state `state`.
    #[inline(always)]
    pub fn step(&self, r: usize, dst: usize, state: u8) -> (u32, u8, u8) {
        let nd = self.dims.len();
        let (a, b) = (r * nd, dst * nd);
        let last = (state >> 2) as usize;
        if self.booksim && last != 0 && self.coords[a + last - 1] != self.coords[b + last - 1] {
            // Most hops: on in the dimension of the last hop (DOR: the ones before it are
            // done), the same way and class, the state as it was.
            return (
                2 * (last - 1) as u32 + u32::from(state >> 1 & 1),
                state & 1,
                state,
            );
        }
        for dim in 0..nd {
            let (cur, dest) = (self.coords[a + dim], self.coords[b + dim]);
            if cur != dest {
                let k = self.dims[dim];
                return if self.booksim {
                    self.booksim_hop(r, dim, (cur, dest, k), state)
                } else {
                    dateline_hop(dim, (cur, dest, k), state)
                };
            }
        }
        unreachable!("TorusDor::step is only called away from the destination")
    }

    /// BookSim's hop in dimension `dim` from coordinate `cur` towards `dest` on a ring of
    /// `k`. State: bit 0 the class, bit 1 the direction (1: minus), bits 2.. the dimension
    /// of the last hop + 1 (0: not yet moved).
    #[inline]
    fn booksim_hop(&self, r: usize, dim: usize, ctk: (u32, u32, u32), state: u8) -> (u32, u8, u8) {
        let (cur, dest, k) = ctk;
        let (minus, class) = if (state >> 2) as usize == dim + 1 {
            (state >> 1 & 1 == 1, state & 1)
        } else {
            let dist2 = k as i64 - 2 * ahead(cur, dest, k) as i64;
            let plus = dist2 > 0 || (dist2 == 0 && self.tie_break(r));
            let wraps = if plus { cur > dest } else { dest > cur };
            (!plus, u8::from(wraps))
        };
        let port = (2 * dim) as u32 + u32::from(minus);
        let state = class | (u8::from(minus) << 1) | (((dim + 1) as u8) << 2);
        (port, class, state)
    }

    /// Router `r`'s next fair coin for a half-way tie.
    #[inline]
    fn tie_break(&self, r: usize) -> bool {
        let n = self.tie_draws[r].get();
        self.tie_draws[r].set(n.wrapping_add(1));
        splitmix64(self.tie_key ^ ((r as u64) << 32 | n as u64)) >> 63 == 1
    }
}

/// routing/dor.rs's hop on a torus in dimension `dim` from coordinate `c` towards `target`
/// on a ring of `k`. State: bit 0 the dateline class, bits 1.. the dimension of the last
/// hop + 1.
#[inline]
fn dateline_hop(dim: usize, ctk: (u32, u32, u32), state: u8) -> (u32, u8, u8) {
    let (c, target, k) = ctk;
    // The + way is `ahead` hops, the - way `k - ahead`.
    let plus = 2 * ahead(c, target, k) <= k;
    let port = 2 * dim as u32 + u32::from(!plus);
    let crosses = (plus && c == k - 1) || (!plus && c == 0);
    let same_dim = (state >> 1) as usize == dim + 1;
    let class = u8::from(crosses || (same_dim && state & 1 == 1));
    (port, class, class | (((dim + 1) as u8) << 1))
}

/// Hops from coordinate `c` to `target` (not `c`) the + way round a ring of `k`.
#[inline]
fn ahead(c: u32, target: u32, k: u32) -> u32 {
    if target > c {
        target - c
    } else {
        target + k - c
    }
}

/// SplitMix64's finaliser: a well-mixed 64-bit hash of `x`.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::TorusDor;
    use crate::engines::flit::config::{FlitConfig, TorusRouting};
    use crate::routing::{Routing, RoutingKind};
    use crate::topology::Topology;

    /// Walks a head from router `src` to `dst` on a torus: (ports taken, classes).
    fn walk(dor: &TorusDor, topo: &Topology, src: usize, dst: usize) -> (Vec<u32>, Vec<u8>) {
        let (mut at, mut state, mut ports, mut classes) = (src, 0u8, vec![], vec![]);
        while at != dst {
            let (port, class, s) = dor.step(at, dst, state);
            let crate::topology::Peer::Switch { switch, .. } = topo.peer(at, port as usize) else {
                panic!("torus ports are links")
            };
            (at, state) = (switch as usize, s);
            ports.push(port);
            classes.push(class);
        }
        (ports, classes)
    }

    #[test]
    fn booksim_torus_dor_fixes_the_class_per_dimension_and_breaks_ties_at_random() {
        let topo = Topology::from_spec("torus:8x8").unwrap();
        let dor = TorusDor::new(&topo, &FlitConfig::default());
        let walk = |src, dst| walk(&dor, &topo, src, dst);
        // x 6 -> 1 goes + round the wrap (3 hops): class 1 on every hop, also before the
        // wrap link; then y 0 -> 2 goes + without wrapping: class 0.
        let (ports, classes) = walk(6, 1 + 2 * 8);
        assert_eq!(ports, [0, 0, 0, 2, 2]);
        assert_eq!(classes, [1, 1, 1, 0, 0]);
        // x 1 -> 3: + without wrapping, class 0; x 2 -> 7 goes - over the wrap: class 1.
        assert_eq!(walk(1, 3), (vec![0, 0], vec![0, 0]));
        assert_eq!(walk(2, 7), (vec![1, 1, 1], vec![1, 1, 1]));
        // Half-way round (0 -> 4): four hops either way, both directions occur.
        let dirs: Vec<u32> = (0..40).map(|_| walk(0, 4).0[0]).collect();
        assert!(dirs.iter().all(|&p| p <= 1) && dirs.contains(&0) && dirs.contains(&1));
        assert!((0..20).all(|_| walk(0, 4).0.len() == 4));
    }

    #[test]
    fn dateline_torus_dor_takes_the_steps_of_crate_routing() {
        let cfg = FlitConfig {
            torus_routing: TorusRouting::Dateline,
            ..FlitConfig::default()
        };
        for spec in ["torus:6x5", "torus:4x3x4"] {
            let topo = Topology::from_spec(spec).unwrap();
            let dor = TorusDor::new(&topo, &cfg);
            let routing = Routing::new(&topo, RoutingKind::Dor, None).unwrap();
            let n = topo.num_switches();
            for (src, dst) in (0..n).flat_map(|s| (0..n).map(move |d| (s, d))) {
                let (mut at, mut state) = (src, 0u8);
                while let Some(step) = routing.next(&topo, at, dst, state) {
                    let want = (step.via.port, step.vc_class, step.state);
                    assert_eq!(
                        dor.step(at, dst, state),
                        want,
                        "{spec}: {src} -> {dst} at {at}"
                    );
                    (at, state) = (step.via.switch as usize, step.state);
                }
            }
        }
    }
}
