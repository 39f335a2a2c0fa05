//! Step (f) of many-to-all HNC with `receiver=corresponding`, counted: every node y of every
//! group d receives one raw block of every other group g that has sources, from the source
//! at y's own place in g if there is one, else from the source of g nearest to y.
//!
//! Scanning every source of g for every node elsewhere costs P x S distances per group shape
//! (10^9 at 65,536 ranks and 16,384 sources, times 81 shapes with `group=auto`). On a mesh
//! the distance from group g's box to a node t splits: the nearest source of g from t is the
//! nearest from t's projection onto the box (`clamp(t)`), plus the distance from t to the
//! box, because every coordinate of a route from outside the box crosses its edge. So per
//! group one distance transform of its sources over its box (two sweeps per dimension) and
//! a weight per box node (how many nodes project onto it) give the sum over the whole
//! network, and the corresponding receivers are corrected in 3^n terms each: O(P n + S 3^n)
//! per shape. Tori (where a route may leave the box either way) and unusual regions keep the
//! scan. Tests hold the two equal.

use super::closed::{Fig, Pack};
use super::many_layout::{Layout, Setup};

/// (f) with `receiver=corresponding`: one unicast per (group with sources, node elsewhere).
pub(super) fn raw_count(setup: &Setup, lay: &Layout, pack: Pack) -> Fig {
    let per = pack.per(1);
    let senders = (0..lay.ng()).filter(|&g| !lay.srcs[g].is_empty()).count() as u64;
    let messages = senders * (lay.ng() as u64 - 1) * lay.m as u64;
    let hops = if is_plain_mesh(setup) {
        mesh_hops(setup, lay)
    } else {
        scanned_hops(setup, lay)
    };
    Fig {
        messages,
        hops,
        packets: messages * per,
        packet_hops: hops * per,
        steps: 0,
    }
}

/// A mesh (no wrap-around) whose region is the whole network, coordinates from 0 by 1.
fn is_plain_mesh(setup: &Setup) -> bool {
    let r = &setup.region;
    r.origin.iter().all(|&o| o == 0) && r.lines.iter().all(|l| !l.torus && l.stride == 1)
}

/// The hops of (f) by scanning the sources of each group for every node elsewhere.
pub(super) fn scanned_hops(setup: &Setup, lay: &Layout) -> u64 {
    let mut hops = 0;
    for g in (0..lay.ng()).filter(|&g| !lay.srcs[g].is_empty()) {
        for d in (0..lay.ng()).filter(|&d| d != g) {
            for y in 0..lay.m {
                let x = lay.raw_source(setup, g, d, y);
                hops += setup.hops(lay.at[g][x], lay.at[d][y]);
            }
        }
    }
    hops
}

/// The hops of (f) on a plain mesh, group by group (see the module docs).
pub(super) fn mesh_hops(setup: &Setup, lay: &Layout) -> u64 {
    let k: Vec<u64> = setup.region.lines.iter().map(|l| l.n as u64).collect();
    let b: Vec<u64> = lay.groups[0].lines.iter().map(|l| l.n as u64).collect();
    let grid: Vec<u64> = k.iter().zip(&b).map(|(k, b)| k / b).collect();
    let mut dt = vec![0u64; lay.m];
    let mut total: i128 = 0;
    for g in (0..lay.ng()).filter(|&g| !lay.srcs[g].is_empty()) {
        let lo: Vec<u64> = lay.groups[g].origin.iter().map(|&o| o as u64).collect();
        transform(&mut dt, &b, &lay.srcs[g]);
        let bx = GroupBox {
            k: &k,
            b: &b,
            grid: &grid,
            lo: &lo,
        };
        total += bx.all_nodes(&dt) as i128;
        let same_place = bx.same_place_distance() as i128;
        for &y in &lay.srcs[g] {
            let u = lay.groups[0].pos(y);
            // The corresponding source replaces the nearest for the nodes at y's place.
            total += same_place - bx.same_place_nearest(&dt, &u) as i128;
        }
    }
    total as u64
}

/// Distance transform over a box of sides `b` (dimension 0 fastest): `dt[u]` is the number
/// of hops from box node u to the nearest of `srcs`, by two sweeps per dimension.
fn transform(dt: &mut [u64], b: &[u64], srcs: &[usize]) {
    const FAR: u64 = u64::MAX / 4;
    dt.fill(FAR);
    for &x in srcs {
        dt[x] = 0;
    }
    let mut stride = 1usize;
    for &side in b {
        let side = side as usize;
        let span = stride * side;
        for base in (0..dt.len()).step_by(span) {
            for off in 0..stride {
                let at = |i: usize| base + off + i * stride;
                for i in 1..side {
                    dt[at(i)] = dt[at(i)].min(dt[at(i - 1)] + 1);
                }
                for i in (0..side - 1).rev() {
                    dt[at(i)] = dt[at(i)].min(dt[at(i + 1)] + 1);
                }
            }
        }
        stride = span;
    }
}

/// One group's box in the mesh: sides `b`, lowest corner `lo`, in a mesh of sides `k` tiled
/// by `grid` boxes per dimension.
struct GroupBox<'a> {
    k: &'a [u64],
    b: &'a [u64],
    grid: &'a [u64],
    lo: &'a [u64],
}

impl GroupBox<'_> {
    /// Nodes below and above the box in dimension i.
    fn outside(&self, i: usize) -> (u64, u64) {
        (self.lo[i], self.k[i] - self.lo[i] - self.b[i])
    }

    /// Groups below and above this one in dimension i.
    fn groups_outside(&self, i: usize) -> (u64, u64) {
        let gi = self.lo[i] / self.b[i];
        (gi, self.grid[i] - 1 - gi)
    }

    fn product_except(v: &[u64], i: usize) -> u64 {
        v.iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, x)| x)
            .product()
    }

    /// The sum over every node outside the box of the hops from its nearest source: the hops
    /// to the box plus `dt` at its projection.
    fn all_nodes(&self, dt: &[u64]) -> u64 {
        let n = self.b.len();
        let mut to_box = 0;
        for i in 0..n {
            let (below, above) = self.outside(i);
            let line = below * (below + 1) / 2 + above * (above + 1) / 2;
            to_box += Self::product_except(self.k, i) * line;
        }
        let mut inside = 0;
        for (idx, &d) in dt.iter().enumerate() {
            let (mut rest, mut weight) = (idx as u64, 1u64);
            for i in 0..n {
                let u = rest % self.b[i];
                rest /= self.b[i];
                let (below, above) = self.outside(i);
                let edge =
                    if u == 0 { below } else { 0 } + if u + 1 == self.b[i] { above } else { 0 };
                weight *= 1 + edge;
            }
            // The box's own nodes project onto themselves and are not receivers here.
            inside += d * (weight - 1);
        }
        to_box + inside
    }

    /// Hops from a node of the box to the nodes at the same place in every other group (the
    /// same whatever the place on a mesh).
    fn same_place_distance(&self) -> u64 {
        (0..self.b.len())
            .map(|i| {
                let (below, above) = self.groups_outside(i);
                let line = below * (below + 1) / 2 + above * (above + 1) / 2;
                self.b[i] * Self::product_except(self.grid, i) * line
            })
            .sum()
    }

    /// The sum, over the nodes at place `u` of every other group, of the hops from the
    /// nearest source of this group: per dimension a node lies below, level with or above the
    /// box; each of the 3^n combinations has a count and one projection.
    fn same_place_nearest(&self, dt: &[u64], u: &[usize]) -> u64 {
        let n = self.b.len();
        let mut to_box = 0;
        for (i, &ui) in u.iter().enumerate() {
            let (below, above) = self.groups_outside(i);
            let (bi, ui) = (self.b[i], ui as u64);
            let line = bi * below * (below + 1) / 2 - below * ui + bi * above * (above + 1) / 2
                - above * (bi - 1 - ui);
            to_box += Self::product_except(self.grid, i) * line;
        }
        let mut nearest = 0;
        for combo in 0..3u64.pow(n as u32) {
            let (mut c, mut count, mut idx, mut stride) = (combo, 1u64, 0u64, 1u64);
            for (i, &ui) in u.iter().enumerate() {
                let (below, above) = self.groups_outside(i);
                let (n_i, p_i) = match c % 3 {
                    0 => (below, 0),
                    1 => (1, ui as u64),
                    _ => (above, self.b[i] - 1),
                };
                c /= 3;
                count *= n_i;
                idx += p_i * stride;
                stride *= self.b[i];
            }
            // The all-level combination is u itself, a source: dt = 0.
            nearest += count * dt[idx as usize];
        }
        to_box + nearest
    }
}

#[cfg(test)]
#[path = "many_raw_tests.rs"]
mod tests;
