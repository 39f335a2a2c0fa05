//! BookSim's route-set routings (`min_adapt`, `planar_adapt`; crate::routing's
//! route_sets.rs defines their choices) in the flit engine: routing a head computes its
//! choices once, as a router-local mask of the output VCs it may take (bit `port *
//! num_vcs + vc`); VC allocation then requests every free one of them each cycle, as
//! BookSim's VC allocator is handed the whole route set, and the output VC granted fixes
//! the output port. BookSim's default iSLIP VC allocator ignores the priorities the
//! routing attaches, so the mask carries none. Runs take the general router stages with
//! iSLIP VC allocation on masks (routers of at most 64 VCs).
//!
//! The torus escape path's half-way ties draw from a stream per router (a hash of
//! (`seed`, router, n)), as torus.rs does.

use std::cell::Cell;

use super::config::{FlitConfig, FlowControl, VcAllocator};
use crate::error::Result;
use crate::routing::route_sets::{Choice, Waiting};
use crate::routing::Routing;
use crate::spec_err;
use crate::topology::Topology;

/// The route-set masks of every input VC and the tie draws.
#[derive(Default)]
pub struct RouteSetMasks {
    on: bool,
    /// Per input VC (global), the router-local output VCs its head may take.
    mask: Vec<u64>,
    key: u64,
    draws: Vec<Cell<u32>>,
}

/// Router-local VCs a route-set mask holds.
const MASK_BITS: usize = 64;

impl RouteSetMasks {
    /// The masks for `routing` when it has route sets; refuses what the sets need and
    /// this run lacks (iSLIP VC allocation, 64 VCs a router, enough VCs, wormhole).
    pub fn new(topo: &Topology, cfg: &FlitConfig, routing: &Routing) -> Result<RouteSetMasks> {
        let Some(sets) = routing.route_sets() else {
            return Ok(RouteSetMasks::default());
        };
        let name = cfg.routing.name();
        if cfg.num_vcs < sets.min_vcs() {
            return spec_err!(
                "{name} routing on {} needs num_vcs >= {} (BookSim's VC ranges for it)",
                topo.name(),
                sets.min_vcs()
            );
        }
        let ports = (0..topo.num_switches()).map(|s| topo.num_ports(s)).max();
        if ports.unwrap_or(1) * cfg.num_vcs > MASK_BITS {
            return spec_err!(
                "{name} routing on {}: routers of {} ports x {} VCs; the flit engine runs route \
                 sets on routers of at most {MASK_BITS} VCs: lower num_vcs",
                topo.name(),
                ports.unwrap_or(1),
                cfg.num_vcs
            );
        }
        if cfg.vc_allocator != VcAllocator::Islip || cfg.flow_control != FlowControl::Wormhole {
            return spec_err!(
                "{name} routing runs with vc_allocator = islip (BookSim's default) and wormhole \
                 flow control in the flit engine"
            );
        }
        let np: usize = (0..topo.num_switches()).map(|s| topo.num_ports(s)).sum();
        Ok(RouteSetMasks {
            on: true,
            mask: vec![0; np * cfg.num_vcs],
            key: splitmix64(cfg.seed ^ 0x7365_7473_u64 << 20),
            draws: (0..topo.num_switches()).map(|_| Cell::new(0)).collect(),
        })
    }

    /// Whether the routing has route sets.
    #[inline]
    pub fn routes(&self) -> bool {
        self.on
    }

    /// Routes input VC `ivc` (global) at router `r` towards router `dst` (not `r`): writes
    /// its mask and returns (the first choice's local port, the state after the hop).
    pub fn route(
        &mut self,
        routing: &Routing,
        ivc: usize,
        at: (usize, usize),
        w: Waiting,
        nv: usize,
    ) -> (u32, u8) {
        let (r, dst) = at;
        let sets = routing.route_sets().expect("routes() was checked");
        let mut out = [Choice {
            port: 0,
            lo: 0,
            hi: 0,
        }; 8];
        let draws = &self.draws[r];
        let key = self.key;
        let mut tie = || {
            let n = draws.get();
            draws.set(n.wrapping_add(1));
            splitmix64(key ^ ((r as u64) << 32 | n as u64)) >> 63 == 1
        };
        let (count, state) = sets.choices(r, dst, w, nv as u8, &mut tie, &mut out);
        let mut mask = 0u64;
        for c in &out[..count] {
            let width = (c.hi - c.lo + 1) as u32;
            let vcs = (u64::MAX >> (64 - width)) << c.lo;
            mask |= vcs << (c.port as usize * nv);
        }
        self.mask[ivc] = mask;
        (out[0].port, state)
    }

    /// Input VC `ivc`'s head is at its destination: any VC of ejection port `port` (local).
    pub fn eject(&mut self, ivc: usize, port: usize, nv: usize) {
        self.mask[ivc] = (u64::MAX >> (64 - nv)) << (port * nv);
    }

    /// The free output VCs (router-local) input VC `ivc` may take, given each local output
    /// port's free VCs (`out_free`, from the router's first port).
    #[inline]
    pub fn candidates(&self, ivc: usize, out_free: &[u64], nv: usize) -> u64 {
        let mut free = 0u64;
        let mut m = self.mask[ivc];
        while m != 0 {
            let port = m.trailing_zeros() as usize / nv;
            free |= out_free[port] << (port * nv);
            m &= !(((1u64 << nv) - 1) << (port * nv));
        }
        free & self.mask[ivc]
    }
}

/// SplitMix64's finaliser.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
