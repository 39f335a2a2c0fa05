//! Geometry of k-ary n-meshes and tori as HNC sees them: lines of nodes, rectangular regions
//! (the whole network, a group, the grid of intermediate nodes), DOR distances and the
//! binomial tree on a line.
//!
//! A DOR route between two nodes corrects one dimension after the other, each by the shorter
//! way (on a torus), so its length is the sum over dimensions of the 1-D distances. That is
//! what lets the closed forms work dimension by dimension.

use crate::error::Result;
use crate::spec_err;
use crate::topology::{Family, Topology};

/// The network: radices, wrap-around, and which rank sits on which node.
pub struct Net {
    pub dims: Vec<usize>,
    pub torus: bool,
    /// Rank on each switch (node).
    pub rank_at: Vec<u32>,
}

impl Net {
    /// The geometry of `topo`, or a one-line reason it has none HNC can use.
    pub fn of(topo: &Topology) -> Result<(Vec<usize>, bool)> {
        let grid = matches!(topo.family(), Family::Mesh { .. } | Family::Torus { .. });
        if grid && topo.num_endpoints() != topo.num_switches() {
            return spec_err!(
                "hierarchical network coding places one node per router, and {} has {} a \
                 router: drop its ,c=",
                topo.name(),
                topo.concentration()
            );
        }
        match topo.family() {
            Family::Mesh { dims } => Ok((dims.clone(), false)),
            Family::Torus { dims } => Ok((dims.clone(), true)),
            _ => spec_err!(
                "hierarchical network coding runs on k-ary n-meshes and tori, not {}: use mesh:AxB \
                 or torus:AxB",
                topo.name()
            ),
        }
    }

    /// With every node holding exactly one rank (all-to-all broadcast of the whole network).
    pub fn with_ranks(topo: &Topology, placement: &[u32]) -> Result<Net> {
        let (dims, torus) = Net::of(topo)?;
        let n = topo.num_switches();
        if placement.len() != n {
            return spec_err!(
                "HNC is an all-to-all broadcast of the whole network: give one rank per node \
                 ({n} ranks on {}, not {})",
                topo.name(),
                placement.len()
            );
        }
        let mut rank_at = vec![u32::MAX; n];
        for (r, &e) in placement.iter().enumerate() {
            rank_at[topo.endpoint_switch(e as usize)] = r as u32;
        }
        Ok(Net {
            dims,
            torus,
            rank_at,
        })
    }

    /// The whole network as a region.
    pub fn region(&self) -> Region {
        Region {
            origin: vec![0; self.dims.len()],
            lines: self
                .dims
                .iter()
                .map(|&k| Line::new(k, 1, k, self.torus))
                .collect(),
        }
    }

    /// Node (switch) index of network coordinates, dimension 0 fastest.
    pub fn node(&self, coords: &[usize]) -> usize {
        crate::topology::index_of(coords, &self.dims)
    }
}

/// A line of `n` nodes, `stride` apart, in a dimension of radix `k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Line {
    pub n: usize,
    pub stride: usize,
    pub k: usize,
    pub torus: bool,
}

impl Line {
    pub fn new(n: usize, stride: usize, k: usize, torus: bool) -> Line {
        Line {
            n,
            stride,
            k,
            torus,
        }
    }

    /// Hops of the DOR route between positions `a` and `b` of the line (in this dimension).
    pub fn dist(&self, a: usize, b: usize) -> u64 {
        let d = a.abs_diff(b) * self.stride;
        (if self.torus { d.min(self.k - d) } else { d }) as u64
    }

    /// Whether the line closes into a ring (it spans a torus dimension): then its binomial
    /// tree works on offsets from the root, so that every root sees the same tree.
    pub fn is_ring(&self) -> bool {
        self.torus && self.n * self.stride == self.k
    }

    /// Rounds of the binomial tree: ceil(log2 n).
    pub fn depth(&self) -> u32 {
        if self.n <= 1 {
            0
        } else {
            usize::BITS - (self.n - 1).leading_zeros()
        }
    }

    /// The binomial tree from `root`, farthest half first, as (from, to, level) in causal
    /// order (a node's receive comes before its sends).
    pub fn binomial(&self, root: usize, out: &mut Vec<(usize, usize, u32)>) {
        out.clear();
        let (ring, n) = (self.is_ring(), self.n);
        // On a ring the halving runs on offsets from the root; on a line on positions.
        let start = if ring { 0 } else { root };
        halve(0, n, start, 0, out);
        if ring {
            for e in out.iter_mut() {
                e.0 = (e.0 + root) % n;
                e.1 = (e.1 + root) % n;
            }
        }
    }

    /// Aggregate hops of the binomial tree from `root`.
    pub fn tree_hops(&self, root: usize, scratch: &mut Vec<(usize, usize, u32)>) -> u64 {
        self.binomial(root, scratch);
        scratch.iter().map(|&(a, b, _)| self.dist(a, b)).sum()
    }

    /// Hops from `root` to every node of the line (all-at-once).
    pub fn star_hops(&self, root: usize) -> u64 {
        (0..self.n).map(|y| self.dist(root, y)).sum()
    }
}

/// Recursive halving of the segment [lo, hi) whose data `holder` has: it sends to the node at
/// the same place in the other half (the last node if that half is shorter), then both halves
/// recurse.
fn halve(lo: usize, hi: usize, holder: usize, level: u32, out: &mut Vec<(usize, usize, u32)>) {
    if hi - lo <= 1 {
        return;
    }
    let half = (hi - lo).div_ceil(2);
    let mid = lo + half;
    let partner = if holder < mid {
        (holder + half).min(hi - 1)
    } else {
        holder - half
    };
    out.push((holder, partner, level));
    let (low, high) = if holder < mid {
        (holder, partner)
    } else {
        (partner, holder)
    };
    halve(lo, mid, low, level + 1, out);
    halve(mid, hi, high, level + 1, out);
}

/// A rectangular set of nodes: along dimension i, `lines[i].n` nodes from `origin[i]`,
/// `lines[i].stride` apart. Its nodes are numbered mixed-radix, dimension 0 fastest.
#[derive(Clone, Debug)]
pub struct Region {
    pub origin: Vec<usize>,
    pub lines: Vec<Line>,
}

impl Region {
    pub fn size(&self) -> usize {
        self.lines.iter().map(|l| l.n).product()
    }

    /// Position of region node `idx` along every dimension.
    pub fn pos(&self, mut idx: usize) -> Vec<usize> {
        self.lines
            .iter()
            .map(|l| {
                let p = idx % l.n;
                idx /= l.n;
                p
            })
            .collect()
    }

    /// Region node index of positions `pos`.
    pub fn index(&self, pos: &[usize]) -> usize {
        pos.iter()
            .zip(&self.lines)
            .rev()
            .fold(0, |acc, (&p, l)| acc * l.n + p)
    }

    /// Network coordinates of positions `pos`.
    pub fn coords(&self, pos: &[usize]) -> Vec<usize> {
        pos.iter()
            .zip(&self.lines)
            .zip(&self.origin)
            .map(|((&p, l), &o)| o + p * l.stride)
            .collect()
    }

    /// Rounds of a dimension-by-dimension binomial multicast.
    pub fn tree_depth(&self) -> u32 {
        self.lines.iter().map(Line::depth).sum()
    }

    /// The sub-regions of shape `shape` tiling this region, numbered like the region's nodes
    /// of [`Region::blocks`]; and the grid of their nodes at offset `at` in each.
    pub fn groups(&self, shape: &[usize]) -> (Vec<Region>, Region) {
        let grid = self.blocks(shape, &vec![0; shape.len()]);
        let groups = (0..grid.size())
            .map(|g| Region {
                origin: grid.coords(&grid.pos(g)),
                lines: self
                    .lines
                    .iter()
                    .zip(shape)
                    .map(|(l, &s)| Line::new(s, l.stride, l.k, l.torus))
                    .collect(),
            })
            .collect();
        (groups, grid)
    }

    /// The grid of the nodes at offset `at` of every block of shape `shape`.
    pub fn blocks(&self, shape: &[usize], at: &[usize]) -> Region {
        Region {
            origin: self
                .origin
                .iter()
                .zip(&self.lines)
                .zip(at)
                .map(|((&o, l), &a)| o + a * l.stride)
                .collect(),
            lines: self
                .lines
                .iter()
                .zip(shape)
                .map(|(l, &s)| Line::new(l.n / s, l.stride * s, l.k, l.torus))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_reaches_every_node_once_in_depth_rounds() {
        let mut e = Vec::new();
        for torus in [false, true] {
            for n in 1..40 {
                let l = Line::new(n, 1, n, torus);
                for root in 0..n {
                    l.binomial(root, &mut e);
                    let mut has = vec![false; n];
                    has[root] = true;
                    for &(a, b, lvl) in &e {
                        assert!(has[a] && !has[b], "n={n} root={root} {a}->{b}");
                        assert!(lvl < l.depth());
                        has[b] = true;
                    }
                    assert!(has.iter().all(|&h| h));
                }
            }
        }
    }

    #[test]
    fn binomial_on_power_of_two_lines_costs_half_n_log_n() {
        let mut e = Vec::new();
        for p in 1..8 {
            let n = 1usize << p;
            for torus in [false, true] {
                let l = Line::new(n, 1, n, torus);
                for root in 0..n {
                    assert_eq!(l.tree_hops(root, &mut e), (n / 2 * p) as u64);
                }
            }
        }
    }

    #[test]
    fn torus_distance_takes_the_short_way() {
        let l = Line::new(8, 1, 8, true);
        assert_eq!((l.dist(0, 7), l.dist(1, 5), l.dist(2, 3)), (1, 4, 1));
        let g = Line::new(4, 2, 8, true);
        assert_eq!((g.dist(0, 3), g.dist(0, 2)), (2, 4));
    }
}
