//! Dimension-order routing: correct dimension 0 first, then 1, ... On a torus each dimension
//! goes the shorter way round (ties go the + way) and uses two VC classes: class 0 until the
//! packet crosses that dimension's dateline (the wrap-around link from k-1 to 0 or back),
//! class 1 from the crossing on, and class 0 again when it turns into the next dimension.
//! On a hypercube this is e-cube routing (lowest differing bit first).

use super::Step;
use crate::error::Result;
use crate::spec_err;
use crate::topology::{Family, Peer, Topology};

pub struct Dor {
    dims: Vec<usize>,
    wrap: bool,
    hypercube: bool,
}

impl Dor {
    pub fn new(topo: &Topology) -> Result<Dor> {
        let (dims, wrap, hypercube) = match topo.family() {
            Family::Mesh { dims } => (dims.clone(), false, false),
            Family::Torus { dims } => (dims.clone(), true, false),
            Family::Hypercube { dim } => (vec![2; *dim], false, true),
            _ => {
                return spec_err!(
                    "dimension-order routing is defined for mesh, torus and hypercube, not {}: \
                     use --routing shortest (or updown)",
                    topo.name()
                )
            }
        };
        Ok(Dor {
            dims,
            wrap,
            hypercube,
        })
    }

    pub fn vc_classes(&self) -> u8 {
        if self.wrap {
            2
        } else {
            1
        }
    }

    /// State: bit 0 is the dateline class, bits 1.. are (dimension of the last hop + 1).
    pub fn next(&self, topo: &Topology, at: usize, dest: usize, state: u8) -> Step {
        let (mut a, mut b) = (at, dest);
        for (i, &k) in self.dims.iter().enumerate() {
            let (ca, cb) = (a % k, b % k);
            if ca != cb {
                return self.hop(topo, at, i, (ca, cb, k), state);
            }
            a /= k;
            b /= k;
        }
        unreachable!("next() is only called away from the destination")
    }

    /// One hop in dimension `dim` from coordinate `c` towards `target` on a ring/line of `k`.
    fn hop(
        &self,
        topo: &Topology,
        at: usize,
        dim: usize,
        ctk: (usize, usize, usize),
        state: u8,
    ) -> Step {
        let (c, target, k) = ctk;
        let plus = if self.wrap {
            (target + k - c) % k <= (c + k - target) % k
        } else {
            target > c
        };
        let port = if self.hypercube {
            dim
        } else {
            2 * dim + usize::from(!plus)
        };
        let crosses = self.wrap && ((plus && c == k - 1) || (!plus && c == 0));
        let same_dim = (state >> 1) as usize == dim + 1;
        let class = u8::from(crosses || (same_dim && state & 1 == 1));
        let Peer::Switch { switch, link, .. } = topo.peer(at, port) else {
            unreachable!("grid families link every inner port")
        };
        Step {
            via: crate::topology::Neighbour {
                switch,
                port: port as u32,
                link,
            },
            state: class | (((dim + 1) as u8) << 1),
            vc_class: class,
            up: false,
        }
    }
}
