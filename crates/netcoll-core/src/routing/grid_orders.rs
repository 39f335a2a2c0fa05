//! BookSim's `xy_yx` and `adaptive_xy_yx` on a mesh (its routefunc.cpp, re-derived): a
//! packet takes dimension order ascending (XY: dimension 0 first) or descending (YX: the
//! highest dimension first), chosen once at its source router and kept to the end. Order
//! XY uses VC class 0 (the lower half of the VCs), YX class 1 (the upper half), so each
//! order is a dimension-order routing on its own VCs and neither waits on the other:
//! deadlock-free with 2 VCs or more.
//!
//! How the order is chosen is the flit engine's business (`xy_yx`: a fair coin,
//! `adaptive_xy_yx`: the port with fewer credits in use, engines/flit/routing/
//! grid_random.rs). Here the order is the route's *variant* (0: XY, 1: YX); a route walked
//! without one takes XY, and the dependency check takes the union of both.

use super::Step;
use crate::error::Result;
use crate::spec_err;
use crate::topology::{Family, Neighbour, Peer, Topology};

pub struct MeshOrders {
    dims: Vec<usize>,
}

impl MeshOrders {
    pub fn new(topo: &Topology, name: &str) -> Result<MeshOrders> {
        match topo.family() {
            Family::Mesh { dims } => Ok(MeshOrders { dims: dims.clone() }),
            _ => spec_err!(
                "{name} routing is BookSim's for a mesh (and cmesh), not {}: use dor or shortest",
                topo.name()
            ),
        }
    }

    /// The hop from `at` towards `dest` (not `at`) in order `variant` (0 XY, 1 YX).
    pub fn next(&self, topo: &Topology, at: usize, dest: usize, variant: u8) -> Step {
        let (port, _) = mesh_dor_port(&self.dims, at, dest, variant == 1);
        Step {
            via: neighbour(topo, at, port),
            state: variant,
            vc_class: variant,
            up: false,
        }
    }
}

/// BookSim's `dor_next_mesh`: the first dimension (ascending, or descending when
/// `descending`) in which `at` and `dest` differ, its port (`2d` for +, `2d + 1` for -) and
/// the dimension.
pub fn mesh_dor_port(dims: &[usize], at: usize, dest: usize, descending: bool) -> (usize, usize) {
    let (mut a, mut b, mut stride) = (at, dest, 1usize);
    let mut coords = Vec::with_capacity(dims.len());
    for &k in dims {
        coords.push(((a / stride) % k, (b / stride) % k));
        stride *= k;
    }
    let differs = |d: &usize| coords[*d].0 != coords[*d].1;
    let d = if descending {
        (0..dims.len()).rev().find(differs)
    } else {
        (0..dims.len()).find(differs)
    }
    .expect("only called away from the destination");
    (a, b) = coords[d];
    (2 * d + usize::from(b < a), d)
}

/// The neighbour behind port `port` of switch `at`.
pub fn neighbour(topo: &Topology, at: usize, port: usize) -> Neighbour {
    let Peer::Switch { switch, link, .. } = topo.peer(at, port) else {
        unreachable!("grid routings leave by linked ports")
    };
    Neighbour {
        switch,
        port: port as u32,
        link,
    }
}
