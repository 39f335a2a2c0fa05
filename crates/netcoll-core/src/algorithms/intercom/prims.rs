//! InterCom's six primitives on one group of ranks viewed as a linear array (seed 001 s4):
//! MST broadcast, combine-to-one, scatter and gather (short vectors; recursive halving), and
//! bucket collect and bucket distributed combine (long vectors; a ring). Each writes its
//! rounds into a [`Phase`] from round 0, so the groups of one hybrid stage run side by side,
//! and returns how many rounds it used.

use super::engine::{Phase, Transfer};

/// Position `i`'s share of units `lo..hi` split evenly over `d` positions (contiguous).
pub fn share(i: usize, d: usize, lo: u32, hi: u32) -> (u32, u32) {
    let n = u64::from(hi - lo);
    let at = |k: usize| lo + (n * k as u64 / d as u64) as u32;
    (at(i), at(i + 1))
}

/// One edge of the MST: in round `depth`, position `from` sends to `to`, which then covers
/// positions `a..b` (the half without the sender).
#[derive(Clone, Copy, Debug)]
pub struct Edge {
    pub depth: usize,
    pub from: usize,
    pub to: usize,
    pub a: usize,
    pub b: usize,
}

/// `ceil(log2 d)`, the rounds of every MST primitive on `d` positions.
pub fn mst_rounds(d: usize) -> usize {
    if d <= 1 {
        0
    } else {
        (usize::BITS - (d - 1).leading_zeros()) as usize
    }
}

/// The MST of recursive halving from position `root` over positions `0..d`: split the
/// interval into a left part of `ceil(len/2)` and the rest; the holder sends to the first
/// position of the part without it (the nearest one when it lies to the right, so every
/// message stays inside its own interval: no network conflicts on a linear array).
pub fn mst_edges(d: usize, root: usize) -> Vec<Edge> {
    let mut out = Vec::with_capacity(d.saturating_sub(1));
    let mut stack = vec![(0usize, d, root, 0usize)];
    while let Some((a, b, q, depth)) = stack.pop() {
        if b - a <= 1 {
            continue;
        }
        let mid = a + (b - a).div_ceil(2);
        let (to, ta, tb) = if q < mid {
            (mid, mid, b)
        } else {
            (mid - 1, a, mid)
        };
        out.push(Edge {
            depth,
            from: q,
            to,
            a: ta,
            b: tb,
        });
        let (qa, qb) = if q < mid { (a, mid) } else { (mid, b) };
        stack.push((qa, qb, q, depth + 1));
        stack.push((ta, tb, to, depth + 1));
    }
    out.sort_by_key(|e| (e.depth, e.from));
    out
}

fn tx(src: u32, dst: u32, (lo, hi): (u32, u32), combine: bool) -> Transfer {
    Transfer {
        src,
        dst,
        lo,
        hi,
        combine,
    }
}

/// MST broadcast of units `lo..hi` from position `root` of `group`.
pub fn mst_bcast(ph: &mut Phase, group: &[u32], root: usize, lo: u32, hi: u32) -> usize {
    for e in mst_edges(group.len(), root) {
        ph.push(e.depth, tx(group[e.from], group[e.to], (lo, hi), false));
    }
    mst_rounds(group.len())
}

/// MST combine-to-one: the broadcast in reverse, each receiver reducing what it gets.
pub fn mst_combine(ph: &mut Phase, group: &[u32], root: usize, lo: u32, hi: u32) -> usize {
    let r = mst_rounds(group.len());
    for e in mst_edges(group.len(), root) {
        ph.push(
            r - 1 - e.depth,
            tx(group[e.to], group[e.from], (lo, hi), true),
        );
    }
    r
}

/// Units of positions `a..b` when `lo..hi` is shared over `d` positions.
fn span(a: usize, b: usize, d: usize, lo: u32, hi: u32) -> (u32, u32) {
    (share(a, d, lo, hi).0, share(b - 1, d, lo, hi).1)
}

/// MST scatter: like the broadcast, but each message carries only the shares of the half
/// it goes to.
pub fn mst_scatter(ph: &mut Phase, group: &[u32], root: usize, lo: u32, hi: u32) -> usize {
    let d = group.len();
    for e in mst_edges(d, root) {
        let units = span(e.a, e.b, d, lo, hi);
        if units.0 < units.1 {
            ph.push(e.depth, tx(group[e.from], group[e.to], units, false));
        }
    }
    mst_rounds(d)
}

/// MST gather: the scatter in reverse.
pub fn mst_gather(ph: &mut Phase, group: &[u32], root: usize, lo: u32, hi: u32) -> usize {
    let d = group.len();
    let r = mst_rounds(d);
    for e in mst_edges(d, root) {
        let units = span(e.a, e.b, d, lo, hi);
        if units.0 < units.1 {
            ph.push(
                r - 1 - e.depth,
                tx(group[e.to], group[e.from], units, false),
            );
        }
    }
    r
}

/// Bucket collect on the ring of `group`: position i starts with its share of `lo..hi`;
/// in round t it passes the share it got in round t-1 (its own first) to position i+1.
pub fn bucket_collect(ph: &mut Phase, group: &[u32], lo: u32, hi: u32) -> usize {
    bucket(ph, group, lo, hi, false)
}

/// Bucket distributed combine: the collect in reverse; position i ends with its share of
/// `lo..hi` reduced over the group. In round t position i passes its partial of share
/// i-t-1 to position i+1, which adds its own contribution.
pub fn bucket_combine(ph: &mut Phase, group: &[u32], lo: u32, hi: u32) -> usize {
    bucket(ph, group, lo, hi, true)
}

fn bucket(ph: &mut Phase, group: &[u32], lo: u32, hi: u32, combine: bool) -> usize {
    let rounds = group.len().saturating_sub(1);
    let mut round = Vec::new();
    for t in 0..rounds {
        bucket_round(&mut round, group, (lo, hi), t, combine);
        for x in round.drain(..) {
            ph.push(t, x);
        }
    }
    rounds
}

/// Round `t` of a bucket collect (`combine` false) or distributed combine on `group` over
/// units `lo..hi`, appended to `out` (a stage can then be run round by round: a whole
/// bucket stage on 4,096 ranks is 16.7 M transfers).
pub fn bucket_round(
    out: &mut Vec<Transfer>,
    group: &[u32],
    (lo, hi): (u32, u32),
    t: usize,
    combine: bool,
) {
    let d = group.len();
    for i in 0..d {
        let at = if combine {
            (i + 2 * d - t - 1) % d
        } else {
            (i + d - t) % d
        };
        let units = share(at, d, lo, hi);
        if units.0 < units.1 {
            out.push(tx(group[i], group[(i + 1) % d], units, combine));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mst_on_five_from_zero() {
        // [0,1,2 | 3,4]: 0->3; then [0,1 | 2] and [3 | 4]: 0->2, 3->4; then 0->1.
        let e: Vec<(usize, usize, usize)> = mst_edges(5, 0)
            .iter()
            .map(|e| (e.depth, e.from, e.to))
            .collect();
        assert_eq!(e, vec![(0, 0, 3), (1, 0, 2), (1, 3, 4), (2, 0, 1)]);
    }

    #[test]
    fn mst_reaches_everyone_in_ceil_log_rounds() {
        for d in 1..70 {
            for root in 0..d {
                let edges = mst_edges(d, root);
                assert_eq!(edges.len(), d - 1);
                let mut has = vec![false; d];
                has[root] = true;
                for e in &edges {
                    assert!(has[e.from] && !has[e.to], "d={d} root={root}");
                    assert!(e.depth < mst_rounds(d));
                    has[e.to] = true;
                }
            }
        }
    }

    #[test]
    fn shares_tile_the_range() {
        for d in 1..20 {
            let mut next = 3;
            for i in 0..d {
                let (a, b) = share(i, d, 3, 40);
                assert_eq!(a, next);
                next = b;
            }
            assert_eq!(next, 40);
        }
    }
}
