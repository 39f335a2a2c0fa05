//! A small growable bitset over `u32` indices.
//!
//! Block sets (GF(2) vectors) and contributor sets are the hot data of the verifier, so they
//! are plain words with no dependency. The invariant "no trailing zero word" makes equality
//! and hashing structural: two sets with the same members compare equal whatever their
//! history, and the empty set owns no heap memory.

use std::fmt;

#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct BitSet {
    words: Vec<u64>,
}

impl BitSet {
    /// The empty set (no allocation).
    pub fn new() -> Self {
        BitSet { words: Vec::new() }
    }

    /// The set `{i}`.
    pub fn singleton(i: u32) -> Self {
        let mut s = BitSet::new();
        s.insert(i);
        s
    }

    /// The set `{0, 1, ..., n-1}`.
    pub fn full(n: u32) -> Self {
        let mut words = vec![u64::MAX; (n as usize).div_ceil(64)];
        if n % 64 != 0 {
            if let Some(last) = words.last_mut() {
                *last = (1u64 << (n % 64)) - 1;
            }
        }
        BitSet { words }
    }

    /// The set `{lo, ..., hi-1}`.
    pub fn range(lo: u32, hi: u32) -> Self {
        (lo..hi).collect()
    }

    /// Adds `i`; returns whether it was absent.
    pub fn insert(&mut self, i: u32) -> bool {
        let (w, b) = split(i);
        if w >= self.words.len() {
            self.words.resize(w + 1, 0);
        }
        let fresh = self.words[w] & b == 0;
        self.words[w] |= b;
        fresh
    }

    pub fn contains(&self, i: u32) -> bool {
        let (w, b) = split(i);
        self.words.get(w).is_some_and(|x| x & b != 0)
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Number of members.
    pub fn len(&self) -> u32 {
        self.words.iter().map(|w| w.count_ones()).sum()
    }

    /// Smallest member.
    pub fn first(&self) -> Option<u32> {
        let (w, x) = self.words.iter().enumerate().find(|(_, x)| **x != 0)?;
        Some(w as u32 * 64 + x.trailing_zeros())
    }

    /// Members in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.words
            .iter()
            .enumerate()
            .flat_map(|(w, &x)| Ones(x).map(move |b| w as u32 * 64 + b))
    }

    /// Symmetric difference in place: addition over GF(2).
    pub fn xor_with(&mut self, other: &BitSet) {
        self.zip_with(other, |a, b| a ^ b);
    }

    pub fn union_with(&mut self, other: &BitSet) {
        self.zip_with(other, |a, b| a | b);
    }

    /// Removes every member of `other`.
    pub fn difference_with(&mut self, other: &BitSet) {
        let n = self.words.len().min(other.words.len());
        for (a, b) in self.words[..n].iter_mut().zip(&other.words[..n]) {
            *a &= !b;
        }
        self.trim();
    }

    pub fn intersects(&self, other: &BitSet) -> bool {
        self.words.iter().zip(&other.words).any(|(a, b)| a & b != 0)
    }

    /// The smallest member of `self & other`.
    pub fn first_common(&self, other: &BitSet) -> Option<u32> {
        let (w, x) = self
            .words
            .iter()
            .zip(&other.words)
            .map(|(a, b)| a & b)
            .enumerate()
            .find(|(_, x)| *x != 0)?;
        Some(w as u32 * 64 + x.trailing_zeros())
    }

    pub fn is_subset(&self, other: &BitSet) -> bool {
        self.words.len() <= other.words.len()
            && self
                .words
                .iter()
                .zip(&other.words)
                .all(|(a, b)| a & !b == 0)
    }

    fn zip_with(&mut self, other: &BitSet, f: impl Fn(u64, u64) -> u64) {
        if other.words.len() > self.words.len() {
            self.words.resize(other.words.len(), 0);
        }
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a = f(*a, *b);
        }
        self.trim();
    }

    fn trim(&mut self) {
        while self.words.last() == Some(&0) {
            self.words.pop();
        }
    }
}

fn split(i: u32) -> (usize, u64) {
    ((i / 64) as usize, 1u64 << (i % 64))
}

/// Iterator over the set bits of one word.
struct Ones(u64);

impl Iterator for Ones {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let b = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(b)
    }
}

impl FromIterator<u32> for BitSet {
    fn from_iter<I: IntoIterator<Item = u32>>(iter: I) -> Self {
        let mut s = BitSet::new();
        for i in iter {
            s.insert(i);
        }
        s
    }
}

impl fmt::Debug for BitSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_contains_len() {
        let mut s = BitSet::new();
        assert!(s.insert(3));
        assert!(!s.insert(3));
        s.insert(130);
        assert!(s.contains(3) && s.contains(130) && !s.contains(4));
        assert_eq!(s.len(), 2);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![3, 130]);
        assert_eq!(s.first(), Some(3));
    }

    #[test]
    fn xor_trims_so_equality_is_structural() {
        let mut a = BitSet::from_iter([1, 200]);
        a.xor_with(&BitSet::singleton(200));
        assert_eq!(a, BitSet::singleton(1));
        a.xor_with(&BitSet::singleton(1));
        assert!(a.is_empty());
        assert_eq!(a, BitSet::new());
    }

    #[test]
    fn full_range_subset_difference() {
        assert_eq!(BitSet::full(70), BitSet::range(0, 70));
        assert_eq!(BitSet::full(64).len(), 64);
        let mut f = BitSet::full(10);
        assert!(BitSet::from_iter([2, 9]).is_subset(&f));
        assert!(!BitSet::singleton(10).is_subset(&f));
        f.difference_with(&BitSet::range(0, 9));
        assert_eq!(f, BitSet::singleton(9));
        assert_eq!(
            BitSet::from_iter([5, 70]).first_common(&BitSet::from_iter([70, 71])),
            Some(70)
        );
        assert!(!BitSet::singleton(5).intersects(&BitSet::singleton(6)));
    }
}
