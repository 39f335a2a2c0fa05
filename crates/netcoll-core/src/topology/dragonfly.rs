//! The dragonfly of Kim et al. 2008 with BookSim's port order (`dragonflynew`,
//! networks/dragonfly.cpp): router `G*a + r` is router `r` of group `G`; its ports are the `p`
//! endpoints, then `a-1` local ports (local port `j` goes to router `j` of the group if
//! `j < r`, else `j + 1`), then `h` global ports. The group's global ports are numbered
//! `t = r*h + c`; where port `t` goes is the arrangement's rule ([`global_peer`]). With the
//! absolute arrangement and `g = a*h + 1` this is BookSim's wiring, link for link (BookSim
//! fixes `a = 2p` and `h = p`; here they are free).

use super::mesh_torus::port;
use super::{Family, LinkClass, Topology, TopologyBuilder};
use crate::error::Result;
use crate::params::{Arrangement, DragonflyParams};
use crate::spec::TopologySpec;

pub fn build(p: &DragonflyParams) -> Result<Topology> {
    let mut b = TopologyBuilder::new(std::iter::repeat_n(p.radix(), p.routers()))?;
    for group in 0..p.g {
        for r in 0..p.a {
            for s in r + 1..p.a {
                b.link(
                    port(group * p.a + r, p.p + s - 1),
                    port(group * p.a + s, p.p + r),
                )?;
            }
        }
    }
    for group in 0..p.g {
        for t in 0..p.a * p.h {
            let (other, t2) = global_peer(p, group, t);
            if (group, t) < (other, t2) {
                b.link_classed(
                    global_port(p, group, t),
                    global_port(p, other, t2),
                    LinkClass::Global,
                )?;
            }
        }
    }
    for e in 0..p.endpoints() {
        b.endpoint(port(e / p.p, e % p.p))?;
    }
    let spec = TopologySpec::Dragonfly(p.clone());
    b.finish(spec.canonical(), Family::Dragonfly(p.clone()), Vec::new())
}

fn global_port(p: &DragonflyParams, group: usize, t: usize) -> super::PortRef {
    port(group * p.a + t / p.h, p.first_global_port() + t % p.h)
}

/// Where global port `t` of group `group` goes: (other group, its global port index).
pub fn global_peer(p: &DragonflyParams, group: usize, t: usize) -> (usize, usize) {
    let m = p.g - 1;
    let (j, copy) = (t % m, t / m);
    let (other, j2) = match p.arrangement {
        Arrangement::Absolute => {
            let other = if j < group { j } else { j + 1 };
            (other, if group < other { group } else { group - 1 })
        }
        Arrangement::Relative => ((group + j + 1) % p.g, m - 1 - j),
        Arrangement::Circulant => {
            let i = j / 2 + 1;
            if j == m - 1 && m % 2 == 1 {
                ((group + p.g / 2) % p.g, j)
            } else if j % 2 == 0 {
                ((group + i) % p.g, j + 1)
            } else {
                ((group + p.g - i) % p.g, j - 1)
            }
        }
    };
    (other, copy * m + j2)
}

/// The global port index of group `group` that reaches group `dest` (copy `copy` of the
/// `a*h/(g-1)` parallel ones): the inverse of [`global_peer`].
pub fn port_to_group(p: &DragonflyParams, group: usize, dest: usize, copy: usize) -> usize {
    let m = p.g - 1;
    let j = match p.arrangement {
        Arrangement::Absolute => {
            if dest < group {
                dest
            } else {
                dest - 1
            }
        }
        Arrangement::Relative => (dest + p.g - group - 1) % p.g,
        Arrangement::Circulant => {
            let o = (dest + p.g - group) % p.g;
            if 2 * o == p.g && m % 2 == 1 {
                m - 1
            } else if o <= m / 2 {
                2 * (o - 1)
            } else {
                2 * (p.g - o - 1) + 1
            }
        }
    };
    copy * m + j
}
