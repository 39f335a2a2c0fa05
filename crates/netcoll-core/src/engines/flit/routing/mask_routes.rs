//! The mask router's inline routing (mask_router.rs): a waiting VC's output port, VC class
//! and routing state, by the endpoint route table (the common configuration), the route
//! table, the closed-form mesh DOR or the torus DOR of torus.rs; and the fat tree's NCA
//! for a word's idle VCs before its stages (`route_idle_nca`).

use super::adaptive_kind::{Choice, Shape};
use super::mask_state::MAX_EP_ROUTES;
use super::network::{Network, IDLE, VC_WAIT};
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

impl Network<'_> {
    /// Whether a word's idle VCs are routed by [`Network::route_idle_nca`]: the fat tree's
    /// NCA with one VC class and no worms.
    pub(super) fn nca_routes(&self) -> bool {
        self.adaptive
            .as_deref()
            .is_some_and(|ad| ad.choice == Choice::Nca && matches!(ad.shape, Shape::FatTree { .. }))
            && self.step_classes <= 1
            && self.rep.table.visits() == 0
    }

    /// Routes the idle waiting VCs of the routers of word `w` by BookSim's `nca`, as
    /// [`Network::route`] does (`route_adaptive`'s fat-tree step: the ejection at the
    /// destination router, the down port when the destination lies below, else an up port
    /// drawn from the routing's stream, in the same order), with the network's arrays
    /// borrowed once for the word.
    pub(super) fn route_idle_nca(&mut self, w: usize, mut word: u64) {
        let Some(ad) = self.adaptive.as_deref() else {
            return;
        };
        let Shape::FatTree { k, hops } = &ad.shape else {
            return;
        };
        let (nv, wpr, k) = (self.nv, self.wpr, *k);
        let ready = self.now + self.cfg.routing_delay as u64;
        let mut draws = self.adapt_draws;
        while word != 0 {
            let r = w * 64 + word.trailing_zeros() as usize;
            word &= word - 1;
            let p0 = self.pstart[r];
            let p0v = p0 as usize * nv;
            let mut bits = self.wait_bits[r];
            while bits != 0 {
                let local = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let v = &mut self.vcs[p0v + local];
                if v.state != IDLE {
                    continue;
                }
                let dst = v.front.dst();
                let dest = self.ep_switch[dst] as usize;
                let (port, class, phase) = if dest == r {
                    (self.ep_port[dst], u8::MAX, 0)
                } else {
                    match hops.hop(r, dest) {
                        Ok(down) => (p0 + down, 0, 1),
                        Err(up_base) => {
                            draws += 1;
                            (p0 + up_base + ad.draw(draws, k) as u32, 0, 0)
                        }
                    }
                };
                v.out_port = port;
                v.class = class;
                v.front.set_rstate(phase);
                v.state = VC_WAIT;
                v.set_ready(ready);
                self.va.routed[r * wpr + local / 64] |= 1 << (local % 64);
            }
        }
        self.adapt_draws = draws;
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
