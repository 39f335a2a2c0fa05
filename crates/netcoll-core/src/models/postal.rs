//! The postal model of Bar-Noy and Kipnis as seed 002 uses it (s4, "Constructing an Optimal
//! Multicast Tree").
//!
//! One unit of time is what a sender spends on one packet; a packet is fully received
//! `lambda` units after its sender began it, and a node forwards as soon as it holds it.
//! `F_lambda(t)` counts the nodes that can hold the packet by time `t`:
//! `F(t) = 1` for `0 <= t < lambda`, `F(t) = F(t-1) + F(t-lambda)` for `t >= lambda`.
//!
//! **lambda is real.** The paper defines lambda as a ratio of two times, and the lambda that
//! its own timing model gives a multi-send tree is not an integer (about 7.86 for 1,536-byte
//! packets, see [`crate::models::multisend_lambda`]); its experiments merely *search* integer
//! lambdas 1..n. So both functions here take any finite `lambda >= 1`. Times are kept as
//! pairs `(a, b)` meaning `a + b * lambda` and turned into `f64` the same way everywhere, so
//! results are exact when `lambda` is an integer or a short binary fraction (1.5, 2.25, ...);
//! for other values they carry ordinary `f64` rounding (about 1e-15 relative).

use crate::error::{Error, Result};
use std::collections::VecDeque;

/// Largest DP table [`postal_reach`] will fill (cells of the `(a, b)` grid).
const MAX_REACH_CELLS: u128 = 200_000_000;

/// Largest tree [`postal_tree`] will build.
const MAX_TREE_NODES: u64 = 1 << 26;

fn check_lambda(lam: f64) -> Result<()> {
    if !(lam.is_finite() && lam >= 1.0) {
        return crate::spec_err!(
            "lambda {lam} is out of range: the postal model needs a finite lambda >= 1 (latency over send time)"
        );
    }
    Ok(())
}

/// `a + b * lam`, computed the one way used throughout this file.
fn at(a: u64, b: u64, lam: f64) -> f64 {
    a as f64 + b as f64 * lam
}

/// `F_lambda(t)`: how many nodes (the source included) can hold a packet by time `t` in the
/// postal model (seed 002 s4, after Bar-Noy and Kipnis). Zero for `t < 0`.
///
/// Evaluated straight from the recurrence: `F(t - a - b*lambda)` over the grid of `(a, b)`,
/// each cell the sum of its `(a+1, b)` and `(a, b+1)` neighbours until the argument falls
/// below lambda, where it is 1.
pub fn postal_reach(lam: f64, t: f64) -> Result<u64> {
    check_lambda(lam)?;
    if t.is_nan() || t == f64::INFINITY {
        return crate::spec_err!("time {t} is not a finite number: give a finite t");
    }
    if t < 0.0 {
        return Ok(0);
    }
    let amax = t.floor() as u64;
    let bmax = (t / lam).floor() as u64;
    let cells = (amax as u128 + 2) * (bmax as u128 + 2);
    if cells > MAX_REACH_CELLS {
        return Err(Error::TooLarge(format!(
            "F_lambda({t}) with lambda = {lam} needs {cells} table cells: ask for a smaller t or a larger lambda"
        )));
    }
    let width = amax as usize + 2;
    // `above[a]` holds F(t - a - (b+1) lambda); `row[a]` is being filled for the current b.
    let mut above = vec![0u64; width];
    let mut row = vec![0u64; width];
    for b in (0..=bmax).rev() {
        for a in (0..=amax).rev() {
            let i = a as usize;
            row[i] = if at(a, b, lam) > t {
                0
            } else if at(a, b + 1, lam) > t {
                1
            } else {
                row[i + 1].checked_add(above[i]).ok_or_else(|| {
                    Error::TooLarge(format!(
                        "F_lambda({t}) with lambda = {lam} exceeds 2^64 - 1: ask for a smaller t"
                    ))
                })?
            };
        }
        std::mem::swap(&mut above, &mut row);
        row.iter_mut().for_each(|x| *x = 0);
    }
    Ok(above[0])
}

/// An optimal postal broadcast tree: node 0 is the root, nodes are numbered in the order
/// they are reached.
#[derive(Debug, Clone, PartialEq)]
pub struct PostalTree {
    /// The lambda it was built for.
    pub lam: f64,
    /// Parent of each node; `None` for the root.
    pub parent: Vec<Option<usize>>,
    /// Children of each node in the order it sends to them.
    pub children: Vec<Vec<usize>>,
    /// Time the parent starts sending to each node; `None` for the root.
    pub send_time: Vec<Option<f64>>,
    /// Time each node holds the packet (`send_time + lambda`; 0 for the root).
    pub recv_time: Vec<f64>,
    /// Time the last node holds the packet.
    pub completion: f64,
}

/// Builds the latency-optimal postal tree for `n` nodes (the source included) with the
/// two-queue greedy algorithm of seed 002 s4: the next node goes to whichever queued sender
/// is free earliest; the receiver joins the *new* queue at `t + lambda`, the sender rejoins
/// the *old* queue at `t + 1`. Ties go to the *old* queue (the node that has been sending
/// longest); this keeps the paper's flat tree for four nodes at lambda = 2 (s6).
///
/// Returns the tree and its completion time, which equals `min { t : F_lambda(t) >= n }`.
pub fn postal_tree(n: u64, lam: f64) -> Result<(PostalTree, f64)> {
    check_lambda(lam)?;
    if n == 0 {
        return crate::spec_err!("n is 0: a broadcast tree needs at least the source node");
    }
    if n > MAX_TREE_NODES {
        return Err(Error::TooLarge(format!(
            "a postal tree of {n} nodes is too large to build: use at most {MAX_TREE_NODES} nodes, or postal_reach for counts"
        )));
    }
    let n = n as usize;
    let mut parent = vec![None; n];
    let mut children = vec![Vec::new(); n];
    let mut send_time = vec![None; n];
    let mut recv_time = vec![0.0; n];
    // (node, a, b): the node is free to send at a + b * lambda.
    let mut new_q: VecDeque<(usize, u64, u64)> = VecDeque::from([(0, 0, 0)]);
    let mut old_q: VecDeque<(usize, u64, u64)> = VecDeque::new();
    let mut completion = 0.0f64;
    for p in 1..n {
        let take_old = match (old_q.front(), new_q.front()) {
            (Some(&(_, oa, ob)), Some(&(_, na, nb))) => at(oa, ob, lam) <= at(na, nb, lam),
            (Some(_), None) => true,
            _ => false,
        };
        let queue = if take_old { &mut old_q } else { &mut new_q };
        let (q, a, b) = queue.pop_front().expect("one queue always holds a sender");
        parent[p] = Some(q);
        children[q].push(p);
        send_time[p] = Some(at(a, b, lam));
        recv_time[p] = at(a, b + 1, lam);
        completion = completion.max(recv_time[p]);
        new_q.push_back((p, a, b + 1));
        old_q.push_back((q, a + 1, b));
    }
    let tree = PostalTree {
        lam,
        parent,
        children,
        send_time,
        recv_time,
        completion,
    };
    Ok((tree, completion))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn lambda_one_doubles() {
        for t in 0..20 {
            assert_eq!(postal_reach(1.0, t as f64).unwrap(), 1 << t);
            assert_eq!(postal_reach(1.0, t as f64 + 0.5).unwrap(), 1 << t);
        }
        for n in 1..200u64 {
            let (_, c) = postal_tree(n, 1.0).unwrap();
            assert_eq!(
                c,
                (64 - (n - 1).leading_zeros()) as f64,
                "binomial tree, n = {n}"
            );
        }
    }

    #[test]
    fn lambda_two_is_fibonacci() {
        // F(0..) = 1, 1, 2, 3, 5, 8, 13, ...
        let fib = [1u64, 1, 2, 3, 5, 8, 13, 21, 34, 55];
        for (t, &f) in fib.iter().enumerate() {
            assert_eq!(postal_reach(2.0, t as f64).unwrap(), f);
        }
    }

    #[test]
    fn real_lambda_hand_worked() {
        // lambda = 1.5: F = 1 on [0, 1.5); F(1.5) = F(0.5) + F(0) = 2; F(2) = F(1) + F(0.5) = 2;
        // F(2.5) = F(1.5) + F(1) = 3; F(3) = F(2) + F(1.5) = 4.
        let expect = [(0.0, 1), (1.4, 1), (1.5, 2), (2.0, 2), (2.5, 3), (3.0, 4)];
        for (t, f) in expect {
            assert_eq!(postal_reach(1.5, t).unwrap(), f, "t = {t}");
        }
        assert_eq!(postal_reach(1.5, -0.1).unwrap(), 0);
    }

    #[test]
    fn four_nodes_lambda_two_is_flat() {
        // Seed 002 s6: "for a four node broadcast the optimal tree is flat (lambda = 2)".
        let (tree, c) = postal_tree(4, 2.0).unwrap();
        assert_eq!(tree.children[0], vec![1, 2, 3]);
        assert_eq!(tree.send_time, vec![None, Some(0.0), Some(1.0), Some(2.0)]);
        assert_eq!(c, 4.0);
    }

    #[test]
    fn single_node_and_errors() {
        let (tree, c) = postal_tree(1, 3.0).unwrap();
        assert_eq!((tree.parent.len(), c), (1, 0.0));
        for e in [
            postal_tree(0, 2.0).unwrap_err(),
            postal_tree(5, 0.5).unwrap_err(),
            postal_tree(5, f64::NAN).unwrap_err(),
            postal_reach(f64::INFINITY, 3.0).unwrap_err(),
            postal_reach(2.0, f64::NAN).unwrap_err(),
            postal_reach(1.0, 70.0).unwrap_err(),
            postal_reach(1.0, 1e9).unwrap_err(),
        ] {
            let s = e.to_string();
            assert!(!s.is_empty() && !s.contains('\n'), "{s}");
        }
    }

    /// The largest `a + b * lam` strictly below `t` (the previous point where F can change).
    fn previous_event(t: f64, lam: f64) -> Option<f64> {
        let mut best: Option<f64> = None;
        for b in 0..=(t / lam).floor() as u64 {
            for a in 0..=t.floor() as u64 {
                let v = at(a, b, lam);
                if v < t && best.is_none_or(|x| v > x) {
                    best = Some(v);
                }
            }
        }
        best
    }

    fn lambdas() -> impl Strategy<Value = f64> {
        prop_oneof![
            (1u32..=16).prop_map(f64::from),
            (8u32..=96).prop_map(|k| f64::from(k) / 8.0),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn greedy_tree_is_optimal_and_spanning(n in 1u64..600, lam in lambdas()) {
            let (tree, c) = postal_tree(n, lam).unwrap();
            let n = n as usize;
            // F(c) >= n, and F is below n just before c: c = min { t : F(t) >= n }.
            prop_assert!(postal_reach(lam, c).unwrap() >= n as u64);
            if let Some(prev) = previous_event(c, lam) {
                prop_assert!(postal_reach(lam, prev).unwrap() < n as u64);
            } else {
                prop_assert_eq!(n, 1);
            }
            // Every node but the root is reached exactly once, from an earlier node.
            let mut seen = vec![0u32; n];
            for (v, kids) in tree.children.iter().enumerate() {
                for (j, &c) in kids.iter().enumerate() {
                    seen[c] += 1;
                    prop_assert_eq!(tree.parent[c], Some(v));
                    prop_assert!(c > v || v == 0);
                    // A node sends once per unit of time from the moment it holds the packet.
                    prop_assert_eq!(tree.send_time[c], Some(tree.recv_time[v] + j as f64));
                    prop_assert_eq!(tree.recv_time[c], tree.send_time[c].unwrap() + lam);
                }
            }
            prop_assert_eq!(seen[0], 0);
            prop_assert!(seen[1..].iter().all(|&s| s == 1));
            let latest = tree.recv_time.iter().cloned().fold(0.0, f64::max);
            prop_assert_eq!(latest, c);
        }

        #[test]
        fn reach_obeys_recurrence(lam in lambdas(), t in 0.0f64..40.0) {
            let f = postal_reach(lam, t).unwrap();
            if t < lam {
                prop_assert_eq!(f, 1);
            } else {
                let g = postal_reach(lam, t - 1.0).unwrap() + postal_reach(lam, t - lam).unwrap();
                prop_assert_eq!(f, g);
            }
        }
    }
}
