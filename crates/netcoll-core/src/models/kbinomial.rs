//! Optimal k-binomial trees for pipelined multi-packet multicast with First-Packet-First-
//! Served NI forwarding (seed 003, Sivaram, Kesavan, Panda, Stunkel, s4.3).
//!
//! Time is counted in NI *steps* (one packet copy leaves an NI per step). With FPFS each
//! packet of an m-packet message follows the previous one by `delta_r` steps, the root's
//! number of children (Theorem 1), so the multicast takes `L1 + (m-1) delta_r` steps
//! (Theorem 2). A k-binomial tree is a recursively doubling tree whose vertices have at most
//! k children; it covers `N(s, k)` nodes in s steps (Lemma 4), and the best k trades a short
//! first packet (`L1`, small for large k) against the pipeline interval k (Theorem 3).

use crate::error::{Error, Result};

/// Largest tree [`kbinomial_tree`] builds and largest `n * m` [`fpfs_steps`] simulates.
const MAX_NODES: u64 = 1 << 26;
const MAX_SIM_CELLS: u128 = 100_000_000;

fn too_large(what: &str) -> Error {
    Error::TooLarge(format!(
        "{what} exceeds 2^64 - 1: ask for fewer steps or a larger k"
    ))
}

/// `ceil(log2 n)` for `n >= 1`.
fn ceil_log2(n: u64) -> u32 {
    64 - (n - 1).leading_zeros()
}

/// `N(s, k)`, the nodes (source included) a k-binomial tree covers in `s` steps
/// (seed 003 Lemma 4): `2^s` if `s <= k`, else `1 + N(s-1, k) + ... + N(s-k, k)`;
/// `N(s, 0) = 1` (the source alone).
pub fn kbinomial_reach(s: u32, k: u32) -> Result<u64> {
    if k == 0 {
        return Ok(1);
    }
    if s <= k {
        return 1u64
            .checked_shl(s)
            .filter(|_| s < 64)
            .ok_or_else(|| too_large("N(s, k)"));
    }
    if k == 1 {
        return Ok(u64::from(s) + 1);
    }
    if k >= 63 {
        // s > k, so N(s, k) > 2^k.
        return Err(too_large("N(s, k)"));
    }
    // For k >= 2, N grows at least like Fibonacci, so this loop ends (or overflows) quickly.
    let k = k as usize;
    let mut n: Vec<u64> = (0..=k).map(|i| 1u64 << i).collect();
    let mut window: u64 = n[1..=k].iter().sum(); // N(s-1) + ... + N(s-k) for s = k + 1
    for s in (k + 1)..=(s as usize) {
        let next = window.checked_add(1).ok_or_else(|| too_large("N(s, k)"))?;
        n.push(next);
        window = (window - n[s - k])
            .checked_add(next)
            .ok_or_else(|| too_large("N(s, k)"))?;
    }
    Ok(*n.last().expect("the table is never empty"))
}

/// `L1`: the fewest steps in which a k-binomial tree covers `n` nodes, i.e. the least s with
/// `N(s, k) >= n` (seed 003 s4.3.3).
pub fn kbinomial_first_packet_steps(n: u64, k: u32) -> Result<u32> {
    if n == 0 {
        return crate::spec_err!("n is 0: a multicast set holds at least the source");
    }
    if n == 1 {
        return Ok(0);
    }
    if k == 0 {
        return crate::spec_err!("k is 0: a 0-binomial tree reaches only the source; use k >= 1");
    }
    if k == 1 {
        return u32::try_from(n - 1).map_err(|_| too_large("the linear-tree step count"));
    }
    let mut s = 0;
    while kbinomial_reach(s, k)? < n {
        s += 1;
    }
    Ok(s)
}

fn check_packets(m: u64) -> Result<()> {
    if m == 0 {
        return crate::spec_err!("m is 0: a message has at least one packet");
    }
    Ok(())
}

/// Steps of a pipelined FPFS multicast of `m` packets to `n` nodes (source included) over a
/// k-binomial tree: `L1 + (m-1) k` (seed 003 Theorems 2 and 3). A k above `ceil(log2 n)`
/// builds the plain binomial tree, whose root has `ceil(log2 n)` children, so k is capped
/// there (s4.3.3).
pub fn kbinomial_steps(n: u64, m: u64, k: u32) -> Result<u64> {
    check_packets(m)?;
    let l1 = kbinomial_first_packet_steps(n, k)?;
    if n == 1 {
        return Ok(0);
    }
    let k = u64::from(k.min(ceil_log2(n)));
    (m - 1)
        .checked_mul(k)
        .and_then(|x| x.checked_add(u64::from(l1)))
        .ok_or_else(|| too_large("the step count"))
}

/// The optimal k and its step count for `m` packets to `n` nodes (seed 003 Theorem 3): the
/// least `L1 + (m-1) k` over `1 <= k <= ceil(log2 n)`; ties go to the smaller k, which
/// needs fewer NI buffers (s4.2.3). For `n = 1` there is nothing to send: `(0, 0)`.
pub fn kbinomial_optimal(n: u64, m: u64) -> Result<(u32, u64)> {
    check_packets(m)?;
    if n == 0 {
        return crate::spec_err!("n is 0: a multicast set holds at least the source");
    }
    if n == 1 {
        return Ok((0, 0));
    }
    let mut best = (1, kbinomial_steps(n, m, 1)?);
    for k in 2..=ceil_log2(n) {
        let steps = kbinomial_steps(n, m, k)?;
        if steps < best.1 {
            best = (k, steps);
        }
    }
    Ok(best)
}

/// A contention-free k-binomial tree on the ordered chain `0..n` (source 0), built as in
/// seed 003 Figure 10: with `s = L1`, the source's i-th child (sent to in step i) is the
/// first node of the rightmost still-uncovered block of `N(s-i, k)` nodes, and covers that
/// block recursively in `s-i` steps. Returns each node's children in send order.
pub fn kbinomial_tree(n: u64, k: u32) -> Result<Vec<Vec<usize>>> {
    if n > MAX_NODES {
        return Err(Error::TooLarge(format!(
            "a k-binomial tree of {n} nodes is too large to build: use at most {MAX_NODES}"
        )));
    }
    let s = kbinomial_first_packet_steps(n, k)?;
    let n = n as usize;
    let mut children = vec![Vec::new(); n];
    // (first, end, steps): node `first` covers the chain positions first..end in `steps`.
    let mut stack = vec![(0usize, n, s)];
    while let Some((lo, hi, steps)) = stack.pop() {
        let mut right = hi;
        let mut i = 1;
        while right - 1 > lo {
            let cover = kbinomial_reach(steps - i, k)?;
            let size = usize::try_from(cover)
                .unwrap_or(usize::MAX)
                .min(right - 1 - lo);
            let child = right - size;
            children[lo].push(child);
            stack.push((child, right, steps - i));
            right = child;
            i += 1;
        }
    }
    Ok(children)
}

/// Steps until every node's NI holds all `m` packets when node 0 multicasts them down the
/// tree `children` with FPFS forwarding (seed 003 s4.2.2, Figures 7 and 8): an NI sends
/// each packet to all its children, in order, one copy per step, before the next packet,
/// and can forward a packet from the step after it arrived.
pub fn fpfs_steps(children: &[Vec<usize>], m: u64) -> Result<u64> {
    check_packets(m)?;
    let n = children.len();
    if n == 0 {
        return crate::spec_err!("the tree has no nodes: give at least the source");
    }
    if (n as u128) * (m as u128) > MAX_SIM_CELLS {
        return Err(Error::TooLarge(format!(
            "simulating {m} packets over {n} nodes is too large: keep n * m within {MAX_SIM_CELLS}"
        )));
    }
    let mut parent_seen = vec![false; n];
    parent_seen[0] = true;
    // arrival[v][i]: step at whose end packet i is at v's NI; the source has all at step 0.
    let mut arrival: Vec<Option<Vec<u64>>> = vec![None; n];
    arrival[0] = Some(vec![0; m as usize]);
    let mut order = vec![0usize];
    let mut last = 0u64;
    let mut head = 0;
    while head < order.len() {
        let v = order[head];
        head += 1;
        let arr = arrival[v].take().expect("a queued node has its arrivals");
        let kids = &children[v];
        for &c in kids {
            if c >= n || parent_seen[c] {
                return crate::invalid!(
                    "node {c} is a child of node {v} but is out of range or already reached: give a tree rooted at 0"
                );
            }
            parent_seen[c] = true;
            arrival[c] = Some(Vec::with_capacity(m as usize));
        }
        let mut busy = 0u64;
        for &a in &arr {
            for &c in kids {
                busy = busy.max(a) + 1;
                arrival[c].as_mut().expect("just created").push(busy);
            }
        }
        last = last.max(busy);
        order.extend_from_slice(kids);
    }
    if let Some(v) = parent_seen.iter().position(|&s| !s) {
        return crate::invalid!("node {v} is never reached from node 0: give a spanning tree");
    }
    Ok(last)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn reach_hand_worked() {
        // k = 2: 1, 2, 4, 1+4+2 = 7, 1+7+4 = 12, 1+12+7 = 20.
        let n2: Vec<u64> = (0..6).map(|s| kbinomial_reach(s, 2).unwrap()).collect();
        assert_eq!(n2, vec![1, 2, 4, 7, 12, 20]);
        // k = 1 is the linear tree; k = 0 is the source alone.
        assert_eq!(kbinomial_reach(9, 1).unwrap(), 10);
        assert_eq!(kbinomial_reach(9, 0).unwrap(), 1);
        // s <= k is the binomial tree.
        assert_eq!(kbinomial_reach(5, 7).unwrap(), 32);
        assert!(kbinomial_reach(64, 64).is_err());
        assert!(kbinomial_reach(200, 2).is_err());
        assert!(kbinomial_reach(100, 70).is_err());
        assert!(kbinomial_reach(u32::MAX, 3).is_err());
    }

    #[test]
    fn paper_three_packets_to_three_destinations() {
        // Seed 003 s4.3.1, Fig. 7: 3 packets to 3 destinations (n = 4 with the source):
        // the binomial tree takes 6 steps, the linear tree 5.
        assert_eq!(kbinomial_steps(4, 3, 2).unwrap(), 6);
        assert_eq!(kbinomial_steps(4, 3, 1).unwrap(), 5);
        assert_eq!(kbinomial_optimal(4, 3).unwrap(), (1, 5));
        // The same counts from the step simulation of the trees themselves.
        let binomial = vec![vec![2, 1], vec![], vec![3], vec![]];
        let linear = vec![vec![1], vec![2], vec![3], vec![]];
        assert_eq!(fpfs_steps(&binomial, 3).unwrap(), 6);
        assert_eq!(fpfs_steps(&linear, 3).unwrap(), 5);
    }

    #[test]
    fn paper_three_packets_to_seven_destinations() {
        // Seed 003 s4.3.2, Fig. 8: 3 packets over a binomial tree to 7 destinations take
        // 9 steps = 3 + (3 - 1) * 3.
        assert_eq!(kbinomial_steps(8, 3, 3).unwrap(), 9);
        assert_eq!(fpfs_steps(&kbinomial_tree(8, 3).unwrap(), 3).unwrap(), 9);
        // Theorem 3 does better there: the 2-binomial tree, L1 = 4, 4 + 2 * 2 = 8.
        assert_eq!(kbinomial_optimal(8, 3).unwrap(), (2, 8));
    }

    #[test]
    fn tree_shapes() {
        assert_eq!(kbinomial_tree(1, 3).unwrap(), vec![Vec::<usize>::new()]);
        // Binomial tree on 8 nodes: 0 -> 4, 2, 1; 4 -> 6, 5; 6 -> 7; 2 -> 3.
        let t = kbinomial_tree(8, 3).unwrap();
        assert_eq!(t[0], vec![4, 2, 1]);
        assert_eq!(t[4], vec![6, 5]);
        assert_eq!(t[6], vec![7]);
        assert_eq!(t[2], vec![3]);
        // 1-binomial is the chain.
        let t = kbinomial_tree(5, 1).unwrap();
        assert_eq!(t, vec![vec![1], vec![2], vec![3], vec![4], vec![]]);
    }

    #[test]
    fn bad_input_is_a_one_line_error() {
        for e in [
            kbinomial_steps(0, 1, 1).unwrap_err(),
            kbinomial_steps(5, 0, 1).unwrap_err(),
            kbinomial_steps(5, 1, 0).unwrap_err(),
            kbinomial_optimal(0, 3).unwrap_err(),
            fpfs_steps(&[vec![1], vec![0]], 1).unwrap_err(),
            fpfs_steps(&[vec![1], vec![], vec![]], 1).unwrap_err(),
            fpfs_steps(&[vec![7]], 1).unwrap_err(),
            fpfs_steps(&[], 1).unwrap_err(),
        ] {
            let s = e.to_string();
            assert!(!s.is_empty() && !s.contains('\n'), "{s}");
        }
    }

    /// All ordered (plane) rooted trees with `n` nodes, as children lists with root 0.
    fn plane_trees(n: usize) -> Vec<Vec<Vec<usize>>> {
        // Build from the shapes of subtrees: a tree is a sequence of subtrees.
        fn shapes(n: usize, memo: &mut Vec<Option<Vec<Vec<usize>>>>) -> Vec<Vec<usize>> {
            // A shape is encoded as the preorder list of child counts.
            if let Some(s) = &memo[n] {
                return s.clone();
            }
            let mut out = Vec::new();
            if n == 1 {
                out.push(vec![0]);
            } else {
                for first in 1..n {
                    let firsts = shapes(first, memo);
                    let rests = shapes(n - first, memo);
                    for f in &firsts {
                        for r in &rests {
                            // Root of `r` gains `f` as a new first child.
                            let mut s = vec![r[0] + 1];
                            s.extend_from_slice(f);
                            s.extend_from_slice(&r[1..]);
                            out.push(s);
                        }
                    }
                }
            }
            memo[n] = Some(out.clone());
            out
        }
        let mut memo = vec![None; n + 1];
        shapes(n, &mut memo)
            .into_iter()
            .map(|pre| {
                let mut children = vec![Vec::new(); n];
                let mut stack: Vec<(usize, usize)> = Vec::new(); // (node, children left)
                for (v, &d) in pre.iter().enumerate() {
                    if let Some(top) = stack.last_mut() {
                        children[top.0].push(v);
                        top.1 -= 1;
                    }
                    while stack.last().is_some_and(|t| t.1 == 0) {
                        stack.pop();
                    }
                    if d > 0 {
                        stack.push((v, d));
                    }
                }
                children
            })
            .collect()
    }

    #[test]
    fn plane_tree_enumeration_counts_catalan() {
        let catalan = [1, 1, 2, 5, 14, 42, 132, 429, 1430];
        for n in 1..=9 {
            assert_eq!(plane_trees(n).len(), catalan[n - 1], "n = {n}");
        }
    }

    #[test]
    fn theorem_3_is_optimal_over_all_trees() {
        // Brute force: every ordered tree on n <= 9 nodes, FPFS-simulated for m <= 6
        // packets; the best equals Theorem 3's k-binomial optimum.
        for n in 1..=9u64 {
            let trees = plane_trees(n as usize);
            for m in 1..=6u64 {
                let best = trees
                    .iter()
                    .map(|t| fpfs_steps(t, m).unwrap())
                    .min()
                    .unwrap();
                assert_eq!(best, kbinomial_optimal(n, m).unwrap().1, "n = {n}, m = {m}");
            }
        }
    }

    proptest! {
        #[test]
        fn optimal_k_beats_every_k(n in 1u64..5000, m in 1u64..200) {
            let (k, steps) = kbinomial_optimal(n, m).unwrap();
            // Widening the search past ceil(log2 n) never helps (s4.3.3).
            for j in 1..=20u32 {
                prop_assert!(kbinomial_steps(n, m, j).unwrap() >= steps);
            }
            if n > 1 {
                prop_assert_eq!(kbinomial_steps(n, m, k).unwrap(), steps);
            }
        }

        #[test]
        fn built_tree_meets_the_formula(n in 1u64..300, m in 1u64..8, k in 1u32..9) {
            let tree = kbinomial_tree(n, k).unwrap();
            prop_assert!(tree.iter().all(|c| c.len() <= k as usize));
            let sim = fpfs_steps(&tree, m).unwrap();
            prop_assert!(sim <= kbinomial_steps(n, m, k).unwrap());
            // At the optimal k the bound is met exactly.
            let (kopt, steps) = kbinomial_optimal(n, m).unwrap();
            if n > 1 {
                prop_assert_eq!(fpfs_steps(&kbinomial_tree(n, kopt).unwrap(), m).unwrap(), steps);
            }
        }

        #[test]
        fn first_packet_steps_is_least(n in 2u64..100_000, k in 1u32..12) {
            let s = kbinomial_first_packet_steps(n, k).unwrap();
            prop_assert!(kbinomial_reach(s, k).unwrap() >= n);
            prop_assert!(kbinomial_reach(s - 1, k).unwrap() < n);
        }
    }
}
