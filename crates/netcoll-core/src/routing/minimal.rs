//! Minimal routing of the network families, by their structure rather than by BFS tables, with
//! the virtual-channel classes that keep it deadlock-free:
//! - fat-tree: nearest-common-ancestor routing (BookSim's `nca`): up until the destination
//!   leaf lies below, then down the one path; the up port is an ECMP hash of (router,
//!   destination), so a flow keeps its path and flows spread over the `k` up ports. One class:
//!   up*/down* on a tree cannot close a cycle.
//! - dragonfly: local, global, local (Kim et al. 2008; BookSim's `min` for `dragonflynew`),
//!   class 0 before the global hop and 1 from it on, as BookSim's `ph` (2 classes).
//! - HyperX and flattened butterfly: dimension order, lowest dimension first, one hop per
//!   dimension (1 class); the trunk copy is chosen by destination.
//!
//! The packet state is 1 once a dragonfly packet has crossed its global link, else 0.

use super::Step;
use crate::topology::dragonfly::port_to_group;
use crate::topology::{DragonflyParams, Family, FatTreeParams, HammingParams};
use crate::topology::{Neighbour, Topology};

pub enum FamilyMin {
    Nca(FatTreeParams),
    Dragonfly(DragonflyParams),
    Hamming(HammingParams),
}

impl FamilyMin {
    /// The family's minimal routing, or None for the families routed by BFS tables.
    pub fn of(topo: &Topology) -> Option<FamilyMin> {
        Some(match topo.family() {
            Family::FatTree(p) => FamilyMin::Nca(p.clone()),
            Family::Dragonfly(p) => FamilyMin::Dragonfly(p.clone()),
            Family::Flatfly(p) | Family::HyperX(p) => FamilyMin::Hamming(p.clone()),
            _ => return None,
        })
    }

    pub fn vc_classes(&self) -> u8 {
        match self {
            FamilyMin::Dragonfly(_) => 2,
            _ => 1,
        }
    }

    pub fn next(&self, topo: &Topology, at: usize, dest: usize, state: u8) -> Step {
        match self {
            FamilyMin::Nca(p) => nca(topo, p, at, dest),
            FamilyMin::Dragonfly(p) => dragonfly(topo, p, at, dest, state),
            FamilyMin::Hamming(p) => dimension_order(topo, p, at, dest),
        }
    }
}

/// The neighbour behind a port (neighbours are listed in port order). The families'
/// routers link every port after their endpoints' in turn, so the neighbour is usually at
/// index `port - first port`: one comparison, where the search costs a handful of
/// dependent loads per hop.
#[inline]
fn via(topo: &Topology, at: usize, port: usize) -> Neighbour {
    let nbs = topo.neighbours(at);
    let first = nbs.first().map_or(0, |nb| nb.port as usize);
    if let Some(&nb) = nbs
        .get(port.wrapping_sub(first))
        .filter(|nb| nb.port == port as u32)
    {
        return nb;
    }
    let i = nbs
        .binary_search_by_key(&(port as u32), |n| n.port)
        .expect("the family's routing names a linked port");
    nbs[i]
}

fn step(via: Neighbour, state: u8, vc_class: u8, up: bool) -> Step {
    Step {
        via,
        state,
        vc_class,
        up,
    }
}

/// ECMP hash (splitmix64 finaliser) of a router and a destination.
pub fn ecmp_hash(a: usize, b: usize) -> usize {
    let mut z = (a as u64) << 32 ^ b as u64 ^ 0x9e37_79b9_7f4a_7c15;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) as usize
}

fn nca(topo: &Topology, p: &FatTreeParams, at: usize, dest: usize) -> Step {
    let (k, n, per_level) = (p.k, p.levels, p.per_level());
    let (depth, pos) = (at / per_level, at % per_level);
    let leaf = dest - (n - 1) * per_level;
    // Leaves below this router: an aligned block of k^(n-1-depth).
    let span = k.pow((n - 1 - depth) as u32);
    if leaf / span == pos / span {
        let port = (leaf % span) / (span / k);
        return step(via(topo, at, port), 1, 0, false);
    }
    let up_base = if depth == n - 1 {
        p.leaf_endpoints()
    } else {
        k
    };
    let port = up_base + ecmp_hash(at, dest) % k;
    step(via(topo, at, port), 0, 0, true)
}

fn dragonfly(topo: &Topology, p: &DragonflyParams, at: usize, dest: usize, state: u8) -> Step {
    let (port, global) = dragonfly_port(p, at, dest);
    let state = if global { 1 } else { state };
    step(via(topo, at, port), state, state, false)
}

/// The dragonfly's minimal hop from router `at` to router `dest` (`at != dest`) by index
/// arithmetic alone: (local port, over a global link). The flit engine routes every packet
/// by it (or by a table of it) without the neighbour look-up.
#[inline]
pub fn dragonfly_port(p: &DragonflyParams, at: usize, dest: usize) -> (usize, bool) {
    let (group, r) = (at / p.a, at % p.a);
    let (dest_group, dest_r) = (dest / p.a, dest % p.a);
    if group == dest_group {
        return (dragonfly_local_port(p, r, dest_r), false);
    }
    dragonfly_exit(p, group, r, dest_group, dest % p.multiplicity())
}

/// The hop from router `r` of group `group` towards another group `dest_group` over copy
/// `copy` of their parallel global links: the global port when `r` holds that link, else
/// the local port to the router that does.
#[inline]
pub fn dragonfly_exit(
    p: &DragonflyParams,
    group: usize,
    r: usize,
    dest_group: usize,
    copy: usize,
) -> (usize, bool) {
    let t = port_to_group(p, group, dest_group, copy);
    if t / p.h == r {
        (p.first_global_port() + t % p.h, true)
    } else {
        (dragonfly_local_port(p, r, t / p.h), false)
    }
}

/// The local port of router `r` to router `to` of its group (`to != r`).
#[inline]
pub fn dragonfly_local_port(p: &DragonflyParams, r: usize, to: usize) -> usize {
    p.p + if to < r { to } else { to - 1 }
}

fn dimension_order(topo: &Topology, p: &HammingParams, at: usize, dest: usize) -> Step {
    // The first dimension whose digits differ (digits on the fly: no vectors per hop).
    let (mut a, mut b) = (at, dest);
    let (d, here, there) = p
        .dims
        .iter()
        .enumerate()
        .find_map(|(d, &k)| {
            let (x, y) = (a % k, b % k);
            (a, b) = (a / k, b / k);
            (x != y).then_some((d, x, y))
        })
        .expect("not at the destination");
    let port = crate::topology::hyperx_port(p, d, here, there, dest % p.trunk);
    step(via(topo, at, port), 0, 0, false)
}
