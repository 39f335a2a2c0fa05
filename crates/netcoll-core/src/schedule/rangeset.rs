//! A set of `u32` ids stored as sorted, disjoint, non-adjacent half-open runs `[lo, hi)`.
//!
//! Block sets (GF(2) vectors) and contributor sets are the hot data of the verifier and the
//! payloads of every message. Collective payloads are ranges or unions of few ranges: a ring
//! step reduces a contiguous range of contributors (a wrap-around mod p is two runs), recursive
//! halving and doubling work on aligned blocks, Bruck on a rotated range, HNC on the rows of
//! a group. Runs make all of these O(1)-O(log p) in memory, where a dense bitset costs p/8
//! bytes whatever the set; up to two runs live inline, without a heap allocation.
//!
//! Canonical form (runs merged, none empty) makes equality and hashing structural: two sets
//! with the same members compare equal whatever their history. Binary operations sweep the
//! two run lists once: O(runs), independent of the ids' magnitude.

use std::fmt;

type Run = (u32, u32);

#[derive(Clone, PartialEq, Eq, Hash)]
enum Runs {
    /// `len` (0, 1 or 2) runs stored in place.
    Inline { len: u8, runs: [Run; 2] },
    /// Three runs or more.
    Heap(Vec<Run>),
}

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct RangeSet {
    runs: Runs,
}

impl Default for RangeSet {
    fn default() -> Self {
        RangeSet::new()
    }
}

impl RangeSet {
    /// The empty set (no allocation).
    pub fn new() -> Self {
        RangeSet {
            runs: Runs::Inline {
                len: 0,
                runs: [(0, 0); 2],
            },
        }
    }

    /// The set `{i}`.
    pub fn singleton(i: u32) -> Self {
        Self::range(i, i + 1)
    }

    /// The set `{0, 1, ..., n-1}`.
    pub fn full(n: u32) -> Self {
        Self::range(0, n)
    }

    /// The set `{lo, ..., hi-1}` (empty if `hi <= lo`).
    pub fn range(lo: u32, hi: u32) -> Self {
        if hi <= lo {
            return Self::new();
        }
        Self::from_slice(&[(lo, hi)])
    }

    /// `count` ids from `start` upwards, wrapping modulo `p`: at most two runs.
    pub fn cyclic(start: u32, count: u32, p: u32) -> Self {
        if count >= p {
            return Self::full(p);
        }
        let start = start % p;
        let end = start as u64 + count as u64;
        if end <= p as u64 {
            return Self::range(start, end as u32);
        }
        Self::from_slice(&[(0, (end - p as u64) as u32), (start, p)])
    }

    /// The runs `[lo, hi)` in increasing order.
    pub fn runs(&self) -> &[Run] {
        match &self.runs {
            Runs::Inline { len, runs } => &runs[..*len as usize],
            Runs::Heap(v) => v,
        }
    }

    /// Number of runs (the memory the set costs, in units of 8 bytes beyond two).
    pub fn num_runs(&self) -> usize {
        self.runs().len()
    }

    /// Bytes on the heap (0 for up to two runs).
    pub fn heap_bytes(&self) -> usize {
        match &self.runs {
            Runs::Inline { .. } => 0,
            Runs::Heap(v) => v.capacity() * std::mem::size_of::<Run>(),
        }
    }

    /// As [`RangeSet::from_canonical`], from a slice.
    fn from_slice(v: &[Run]) -> Self {
        match v.len() {
            0..=2 => {
                let mut runs = [(0, 0); 2];
                runs[..v.len()].copy_from_slice(v);
                RangeSet {
                    runs: Runs::Inline {
                        len: v.len() as u8,
                        runs,
                    },
                }
            }
            _ => RangeSet {
                runs: Runs::Heap(v.to_vec()),
            },
        }
    }

    /// Stores runs already sorted, disjoint, non-adjacent and non-empty.
    fn from_canonical(v: Vec<Run>) -> Self {
        let runs = match v.len() {
            0 => Runs::Inline {
                len: 0,
                runs: [(0, 0); 2],
            },
            1 => Runs::Inline {
                len: 1,
                runs: [v[0], (0, 0)],
            },
            2 => Runs::Inline {
                len: 2,
                runs: [v[0], v[1]],
            },
            _ => Runs::Heap(v),
        };
        RangeSet { runs }
    }

    /// Adds `i`; returns whether it was absent.
    pub fn insert(&mut self, i: u32) -> bool {
        if self.contains(i) {
            return false;
        }
        self.union_with(&Self::singleton(i));
        true
    }

    /// Index of the run containing `i`, if any.
    fn run_of(&self, i: u32) -> Option<usize> {
        let runs = self.runs();
        let k = runs.partition_point(|&(lo, _)| lo <= i);
        (k > 0 && i < runs[k - 1].1).then(|| k - 1)
    }

    pub fn contains(&self, i: u32) -> bool {
        self.run_of(i).is_some()
    }

    pub fn is_empty(&self) -> bool {
        self.runs().is_empty()
    }

    /// Number of members.
    pub fn len(&self) -> u32 {
        self.runs().iter().map(|&(lo, hi)| hi - lo).sum()
    }

    /// Smallest member.
    pub fn first(&self) -> Option<u32> {
        self.runs().first().map(|r| r.0)
    }

    /// Largest member.
    pub fn last(&self) -> Option<u32> {
        self.runs().last().map(|r| r.1 - 1)
    }

    /// Members in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.runs().iter().flat_map(|&(lo, hi)| lo..hi)
    }

    /// Symmetric difference in place: addition over GF(2).
    pub fn xor_with(&mut self, other: &RangeSet) {
        *self = sweep(self, other, |a, b| a != b);
    }

    pub fn union_with(&mut self, other: &RangeSet) {
        if other.is_empty() {
            return;
        }
        *self = sweep(self, other, |a, b| a || b);
    }

    /// Removes every member of `other`.
    pub fn difference_with(&mut self, other: &RangeSet) {
        if other.is_empty() || self.is_empty() {
            return;
        }
        *self = sweep(self, other, |a, b| a && !b);
    }

    pub fn intersects(&self, other: &RangeSet) -> bool {
        self.first_common(other).is_some()
    }

    /// The smallest member of `self & other`.
    pub fn first_common(&self, other: &RangeSet) -> Option<u32> {
        let (a, b) = (self.runs(), other.runs());
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            let lo = a[i].0.max(b[j].0);
            if lo < a[i].1.min(b[j].1) {
                return Some(lo);
            }
            if a[i].1 <= b[j].1 {
                i += 1;
            } else {
                j += 1;
            }
        }
        None
    }

    pub fn is_subset(&self, other: &RangeSet) -> bool {
        self.runs()
            .iter()
            .all(|&(lo, hi)| other.run_of(lo).is_some_and(|k| other.runs()[k].1 >= hi))
    }
}

/// The set of ids `x` with `keep(x in a, x in b)`, by one sweep over both run lists.
/// Small results (the common case: a few runs in, at most two out) never touch the heap.
fn sweep(a: &RangeSet, b: &RangeSet, keep: impl Fn(bool, bool) -> bool) -> RangeSet {
    let (ra, rb) = (a.runs(), b.runs());
    if ra.len() + rb.len() <= 4 {
        let (mut buf, mut n) = ([(0u32, 0u32); 4], 0);
        sweep_into(ra, rb, keep, |r| {
            buf[n] = r;
            n += 1;
        });
        return RangeSet::from_slice(&buf[..n]);
    }
    let mut out: Vec<Run> = Vec::with_capacity(ra.len() + rb.len());
    sweep_into(ra, rb, keep, |r| out.push(r));
    RangeSet::from_canonical(out)
}

/// Emits the runs of the sweep in order (at most `ra.len() + rb.len()` of them).
fn sweep_into(
    ra: &[Run],
    rb: &[Run],
    keep: impl Fn(bool, bool) -> bool,
    mut emit: impl FnMut(Run),
) {
    // Boundaries of each list alternate start, end; walk both in order.
    let (mut i, mut j) = (0usize, 0usize);
    let (na, nb) = (2 * ra.len(), 2 * rb.len());
    let bound = |r: &[Run], k: usize| if k % 2 == 0 { r[k / 2].0 } else { r[k / 2].1 };
    let (mut in_a, mut in_b) = (false, false);
    let mut open: Option<u32> = None;
    while i < na || j < nb {
        let x = match (i < na, j < nb) {
            (true, true) => bound(ra, i).min(bound(rb, j)),
            (true, false) => bound(ra, i),
            _ => bound(rb, j),
        };
        while i < na && bound(ra, i) == x {
            in_a = i % 2 == 0;
            i += 1;
        }
        while j < nb && bound(rb, j) == x {
            in_b = j % 2 == 0;
            j += 1;
        }
        match (keep(in_a, in_b), open) {
            (true, None) => open = Some(x),
            (false, Some(lo)) => {
                if lo < x {
                    emit((lo, x));
                }
                open = None;
            }
            _ => {}
        }
    }
}

impl FromIterator<u32> for RangeSet {
    fn from_iter<I: IntoIterator<Item = u32>>(iter: I) -> Self {
        let mut ids: Vec<u32> = iter.into_iter().collect();
        ids.sort_unstable();
        ids.dedup();
        let mut out: Vec<Run> = Vec::new();
        for x in ids {
            match out.last_mut() {
                Some(last) if last.1 == x => last.1 = x + 1,
                _ => out.push((x, x + 1)),
            }
        }
        RangeSet::from_canonical(out)
    }
}

impl fmt::Debug for RangeSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
#[path = "rangeset_tests.rs"]
mod tests;
