//! The mask router's inline routing (mask_router.rs): a waiting VC's output port, VC class
//! and routing state, by the endpoint route table (the common configuration), the route
//! table, the closed-form mesh DOR or the torus DOR of torus.rs.

use super::mask_state::MAX_EP_ROUTES;
use super::network::{Network, VC_WAIT};
use super::router::mesh_dor;
use super::torus::TorusDor;
use super::types::Vc;

/// In an endpoint route: the destination is at this router (the port is its ejection).
const EJECT: u32 = 1 << 15;

/// What the inline routing reads (and the torus's tie draws, which it counts).
#[derive(Clone, Copy)]
pub(super) struct Routes<'a> {
    pub(super) route_table: &'a [u32],
    pub(super) route_n: usize,
    /// [`MaskRouter::ep_routes`](super::mask_state::MaskRouter) (empty: not built).
    pub(super) ep_routes: &'a [u32],
    pub(super) mesh_dims: &'a [u32],
    pub(super) ep_switch: &'a [u32],
    pub(super) ep_port: &'a [u32],
    pub(super) torus: &'a TorusDor,
    /// `u8::MAX` when the routing's VC classes split the VCs, else 0 (one class).
    pub(super) class_keep: u8,
    /// The cycle a VC routed now may bid for an output VC.
    pub(super) ready: u64,
}

impl Network<'_> {
    /// Builds the endpoint route table from the router table (when it fits
    /// `MAX_EP_ROUTES`): a route is then one lookup by the flit's destination.
    pub(super) fn build_ep_routes(&mut self) {
        let (routers, eps) = (self.pstart.len() - 1, self.ep_switch.len());
        if routers.saturating_mul(eps) > MAX_EP_ROUTES {
            return;
        }
        let mut t = Vec::with_capacity(routers * eps);
        for r in 0..routers {
            for dst in 0..eps {
                let sw = self.ep_switch[dst] as usize;
                t.push(if sw == r {
                    (self.ep_port[dst] - self.pstart[r]) | EJECT | 0xff << 16
                } else {
                    self.route_table[r * self.route_n + sw]
                });
            }
        }
        self.mr.ep_routes = t;
    }
}

impl Routes<'_> {
    /// Routes idle input VC `v` of router `r` (first port `p0`) inline; by the endpoint
    /// route table when `table` (the common configuration, which has built it).
    #[inline(always)]
    pub(super) fn route(self, v: &mut Vc, r: usize, p0: usize, table: bool) {
        let dst = v.front.dst();
        if table {
            // The endpoint table: one lookup, the ejection by a select.
            let e = self.ep_routes[r * self.ep_switch.len() + dst];
            v.out_port = p0 as u32 + (e & (EJECT - 1));
            v.class = (e >> 16) as u8;
            let state = if e & EJECT != 0 {
                v.front.rstate()
            } else {
                (e >> 24) as u8
            };
            v.front.set_rstate(state);
            v.state = VC_WAIT;
            v.set_ready(self.ready);
            return;
        }
        let dst_sw = self.ep_switch[dst] as usize;
        if dst_sw == r {
            v.out_port = self.ep_port[dst];
            v.class = u8::MAX; // ejection: any VC
        } else if self.route_n != 0 {
            let e = self.route_table[r * self.route_n + dst_sw];
            v.out_port = p0 as u32 + (e & 0xffff);
            v.class = (e >> 16) as u8;
            v.front.set_rstate((e >> 24) as u8);
        } else if !self.mesh_dims.is_empty() {
            let (port, _, state) = mesh_dor(self.mesh_dims, r, dst_sw);
            v.out_port = p0 as u32 + port;
            v.class = 0;
            v.front.set_rstate(state);
        } else {
            self.route_torus(v, r, p0, dst_sw);
        }
        v.state = VC_WAIT;
        v.set_ready(self.ready);
    }

    /// [`Routes::route`] on a torus, away from the destination (out of line: the mesh's
    /// table lookup above stays as short as it was).
    #[inline(never)]
    fn route_torus(self, v: &mut Vc, r: usize, p0: usize, dst_sw: usize) {
        let (port, class, state) = self.torus.step(r, dst_sw, v.front.rstate());
        v.out_port = p0 as u32 + port;
        v.class = class & self.class_keep;
        v.front.set_rstate(state);
    }
}
