//! Rank arithmetic and the binomial halving tree shared by the classic algorithms
//! (`classic.rs`) and their per-step forms (`classic_rounds.rs`).

use super::AlgoRequest;

/// Relative-rank arithmetic for rooted collectives.
#[derive(Clone, Copy)]
pub(crate) struct Rel {
    pub p: u32,
    pub root: u32,
}

impl Rel {
    pub fn of(req: &AlgoRequest) -> Self {
        Rel {
            p: req.p,
            root: if req.kind.is_rooted() { req.root } else { 0 },
        }
    }
    /// The actual rank of relative rank `v`.
    pub fn act(self, v: u32) -> u32 {
        ((v as u64 + self.root as u64) % self.p as u64) as u32
    }
}

/// `(a + b) mod p` and `(a - b) mod p` without overflow.
pub(crate) fn add(a: u32, b: u32, p: u32) -> u32 {
    ((a as u64 + b as u64) % p as u64) as u32
}
pub(crate) fn sub(a: u32, b: u32, p: u32) -> u32 {
    ((a as u64 + p as u64 - (b as u64 % p as u64)) % p as u64) as u32
}

/// Largest power of two not above `p` (p >= 1).
pub(crate) fn pow2_floor(p: u32) -> u32 {
    1 << (31 - p.leading_zeros())
}

/// An edge of the halving tree: `parent` hands the range `child..end` to `child` in `round`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TreeEdge {
    pub parent: u32,
    pub child: u32,
    pub end: u32,
    pub round: u32,
}

/// The binomial ("farthest half first") tree on relative ranks `0..n`: the holder of
/// `lo..hi` sends to `lo + ceil((hi-lo)/2)` and both halves recurse one round later.
/// Edges are sorted by round; the depth is `ceil(log2 n)`.
pub(crate) fn halving_tree(n: u32) -> Vec<TreeEdge> {
    fn split(lo: u32, hi: u32, round: u32, out: &mut Vec<TreeEdge>) {
        if hi - lo <= 1 {
            return;
        }
        let mid = lo + (hi - lo).div_ceil(2);
        out.push(TreeEdge {
            parent: lo,
            child: mid,
            end: hi,
            round,
        });
        split(lo, mid, round + 1, out);
        split(mid, hi, round + 1, out);
    }
    let mut out = Vec::with_capacity(n as usize);
    split(0, n, 0, &mut out);
    out.sort_by_key(|e| e.round);
    out
}

/// The tree's edges grouped by round (forward or backward).
pub(crate) fn rounds(edges: &[TreeEdge], backward: bool) -> Vec<Vec<TreeEdge>> {
    let depth = edges.iter().map(|e| e.round + 1).max().unwrap_or(0);
    let mut by: Vec<Vec<TreeEdge>> = vec![Vec::new(); depth as usize];
    for e in edges {
        let k = if backward {
            depth - 1 - e.round
        } else {
            e.round
        };
        by[k as usize].push(*e);
    }
    by
}
