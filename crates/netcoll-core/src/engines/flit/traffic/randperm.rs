//! `traffic = randperm`: a fixed random permutation, BookSim's to the node. BookSim seeds
//! Knuth's generator (knuth_rng.rs) with `perm_seed` (or the pattern's argument) and, for
//! destinations i = 0, 1, ..., draws `RandomInt(nodes - 1 - i)` and gives i to the source
//! in that place among the sources still without a destination. BookSim walks the sources
//! for each draw (quadratic in the nodes); a Fenwick tree of the free sources finds the
//! same place in O(log nodes), so 65,536 nodes take milliseconds.

use super::knuth_rng::KnuthRng;

/// The destination of every source (4 bytes per node, like BookSim's table).
pub(super) fn permutation(nodes: usize, seed: i64) -> Vec<u32> {
    let mut rng = KnuthRng::new(seed);
    let mut free = FreeSlots::new(nodes);
    let mut dest = vec![0u32; nodes];
    for i in 0..nodes {
        let place = rng.int(nodes - 1 - i);
        let src = free.take(place);
        dest[src] = i as u32;
    }
    dest
}

/// The free slots 0..n as a Fenwick tree of counts.
struct FreeSlots {
    tree: Vec<u32>,
    /// The largest power of two at most n (the descent's first step).
    top: usize,
}

impl FreeSlots {
    fn new(n: usize) -> FreeSlots {
        // Every slot free: node i (1-based) covers i & -i slots.
        let tree = (0..=n).map(|i| (i & i.wrapping_neg()) as u32).collect();
        let top = if n == 0 { 0 } else { 1 << n.ilog2() };
        FreeSlots { tree, top }
    }

    /// Takes the free slot with `place` free slots before it (0-based) and returns it.
    fn take(&mut self, place: usize) -> usize {
        let n = self.tree.len() - 1;
        let (mut pos, mut left, mut step) = (0, place as u32, self.top);
        while step > 0 {
            let next = pos + step;
            if next <= n && self.tree[next] <= left {
                pos = next;
                left -= self.tree[next];
            }
            step >>= 1;
        }
        // pos is the count of slots before the wanted one: it is slot `pos` (0-based).
        let mut i = pos + 1;
        while i <= n {
            self.tree[i] -= 1;
            i += i & i.wrapping_neg();
        }
        pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// BookSim's own walk over the free sources, for comparison.
    fn quadratic(nodes: usize, seed: i64) -> Vec<u32> {
        let mut rng = KnuthRng::new(seed);
        let mut dest = vec![u32::MAX; nodes];
        for i in 0..nodes {
            let ind = rng.int(nodes - 1 - i);
            let (mut j, mut cnt) = (0, 0);
            while cnt < ind || dest[j] != u32::MAX {
                if dest[j] == u32::MAX {
                    cnt += 1;
                }
                j += 1;
            }
            dest[j] = i as u32;
        }
        dest
    }

    #[test]
    fn fenwick_walk_equals_the_quadratic_walk() {
        for (nodes, seed) in [(1, 0), (2, 0), (7, 3), (64, 0), (64, 7), (1000, 12345)] {
            let p = permutation(nodes, seed);
            assert_eq!(p, quadratic(nodes, seed), "{nodes} nodes seed {seed}");
            let mut seen = p.clone();
            seen.sort_unstable();
            assert!(seen.iter().enumerate().all(|(i, &d)| d as usize == i));
        }
    }
}
