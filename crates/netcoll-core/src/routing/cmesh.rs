//! The routings of BookSim's concentrated mesh (its networks/cmesh.cpp, re-derived), on
//! `topology::cmesh`'s ports (nodes 0..4, then +x, -x, +y, -y):
//!
//! * `dor_no_express`: X then Y over the mesh links (BookSim's `dor_no_express_cmesh`);
//! * `dor`: the same, but a packet on an edge router with far to go in the direction along
//!   that edge (more than `k/2 - 1` routers) takes the edge's express link, which jumps
//!   `k/2` routers along the edge (`dor_cmesh`);
//! * `xy_yx_no_express`, `xy_yx`: X then Y or Y then X, chosen at the source router and
//!   kept, on VC class 0 (XY, the lower half of the VCs) or 1 (YX, the upper half); `xy_yx`
//!   takes express links when more than one router is left along an edge
//!   (`xy_yx_cmesh`). For k > 4 that rule jumps away from the destination and loops
//!   (from x = 5 towards x = 7 on an 8-wide edge, the express link leads to x = 1 and back),
//!   so `xy_yx` is refused there.
//!
//! The order (the route's variant, 0 XY or 1 YX) is drawn by the flit engine
//! (engines/flit/routing/grid_random.rs); a route walked without one takes XY.

use super::grid_orders::neighbour;
use super::{RoutingKind, Step};
use crate::error::Result;
use crate::spec_err;
use crate::topology::{Family, Topology, CMESH_PX};

pub struct CmeshRoute {
    k: usize,
    /// Express links: farther than this many routers along an edge (None: never).
    express_beyond: Option<usize>,
    /// Both orders (xy_yx), on two VC classes.
    orders: bool,
}

impl CmeshRoute {
    /// The cmesh routing of `kind` (Dor, DorNoExpress, XyYx, XyYxNoExpress), or None for
    /// a kind that has no cmesh form.
    pub fn new(topo: &Topology, kind: RoutingKind) -> Result<Option<CmeshRoute>> {
        let Family::Cmesh { k } = *topo.family() else {
            return Ok(None);
        };
        let (express_beyond, orders) = match kind {
            RoutingKind::Dor => (Some(k / 2 - 1), false),
            RoutingKind::DorNoExpress => (None, false),
            RoutingKind::XyYx if k > 4 => {
                return spec_err!(
                    "xy_yx on {}: BookSim's xy_yx_cmesh takes express links that lead away from \
                     the destination when k > 4 (the route loops); use xy_yx_no_express or dor",
                    topo.name()
                )
            }
            RoutingKind::XyYx => (Some(1), true),
            RoutingKind::XyYxNoExpress => (None, true),
            _ => return Ok(None),
        };
        Ok(Some(CmeshRoute {
            k,
            express_beyond,
            orders,
        }))
    }

    pub fn vc_classes(&self) -> u8 {
        if self.orders {
            2
        } else {
            1
        }
    }

    /// Routes with both orders have two variants.
    pub fn variants(&self) -> u8 {
        self.vc_classes()
    }

    /// The hop from router `at` towards router `dest` (not `at`) in order `variant`.
    pub fn next(&self, topo: &Topology, at: usize, dest: usize, variant: u8) -> Step {
        let yx = self.orders && variant == 1;
        let port = CMESH_PX + self.direction(at, dest, yx);
        Step {
            via: neighbour(topo, at, port),
            state: u8::from(yx),
            vc_class: u8::from(yx),
            up: false,
        }
    }

    /// 0 +x, 1 -x, 2 +y, 3 -y: the next link in dimension order (`yx`: Y first), or the
    /// express link of the edge the router is on.
    fn direction(&self, at: usize, dest: usize, yx: bool) -> usize {
        let k = self.k;
        let (cx, cy, dx, dy) = (at % k, at / k, dest % k, dest / k);
        // Along x on the bottom (top) edge the express link is the -y (+y) port; along y on
        // the left (right) edge it is the -x (+x) port.
        let along = |cur: usize, dst: usize, across: usize, plus: usize, edge: [usize; 2]| {
            let far = cur.abs_diff(dst);
            if self.express_beyond.is_some_and(|b| far > b) {
                if across == 0 {
                    return Some(edge[0]);
                }
                if across == k - 1 {
                    return Some(edge[1]);
                }
            }
            Some(plus + usize::from(dst < cur))
        };
        let x = || (cx != dx).then(|| along(cx, dx, cy, 0, [3, 2])).flatten();
        let y = || (cy != dy).then(|| along(cy, dy, cx, 2, [1, 0])).flatten();
        let first = if yx { y().or_else(x) } else { x().or_else(y) };
        first.expect("only called away from the destination")
    }
}

#[cfg(test)]
mod tests {
    use crate::routing::{Routing, RoutingKind};
    use crate::topology::Topology;

    /// Every route of every variant reaches its destination within `limit` hops.
    fn all_routes_arrive(spec: &str, kind: RoutingKind, limit: usize) {
        let t = Topology::from_spec(spec).unwrap();
        let r = Routing::new(&t, kind, None).unwrap();
        let n = t.num_switches();
        for v in 0..r.variants() {
            for (a, b) in (0..n).flat_map(|a| (0..n).map(move |b| (a, b))) {
                let (mut at, mut hops) = (a, 0);
                while let Some(s) = r.next_variant(&t, at, b, v) {
                    at = s.via.switch as usize;
                    hops += 1;
                    assert!(hops <= limit, "{spec} {kind:?} {a} -> {b} loops");
                }
            }
        }
    }

    #[test]
    fn cmesh_routes_arrive_and_express_links_shorten_them() {
        for kind in [
            RoutingKind::Dor,
            RoutingKind::DorNoExpress,
            RoutingKind::XyYx,
            RoutingKind::XyYxNoExpress,
        ] {
            all_routes_arrive("cmesh:k=4", kind, 6);
        }
        all_routes_arrive("cmesh:k=8", RoutingKind::Dor, 14);
        all_routes_arrive("cmesh:k=2", RoutingKind::Dor, 2);
        // (0,0) -> (3,0): dor takes the bottom edge's express link to (2,0), then +x.
        let t = Topology::from_spec("cmesh:k=4").unwrap();
        let r = Routing::new(&t, RoutingKind::Dor, None).unwrap();
        assert_eq!(r.route(&t, 0, 3).len(), 2);
        let plain = Routing::new(&t, RoutingKind::DorNoExpress, None).unwrap();
        assert_eq!(plain.route(&t, 0, 3).len(), 3);
        // xy_yx's express rule loops beyond k = 4: refused.
        let big = Topology::from_spec("cmesh:k=8").unwrap();
        assert!(Routing::new(&big, RoutingKind::XyYx, None).is_err());
    }
}
