//! What one rank holds: the buffer model the verifier reasons with.
//!
//! Single blocks go to a plain bitset, so that ordinary schedules never need elimination;
//! XOR combinations are kept aside and eliminated (masked by the plain blocks) only when a
//! need is not met by plain blocks alone. Partial reductions are held as they are: a
//! reduction is only ever formed by an explicit Reduce op, so "held" means "held exactly".

use super::super::collective::Collective;
use super::super::gf2::Basis;
use super::super::payload::Piece;
use super::super::rangeset::RangeSet;
use std::collections::HashSet;

#[derive(Default)]
pub(crate) struct Knowledge {
    /// The rank whose own contributions are held from the start (reductions).
    rank: u32,
    plain: RangeSet,
    combos: Vec<RangeSet>,
    /// The same combinations as a set: a need that is exactly a held combination (what an
    /// encoder sends, what a decoder takes in) is found without elimination.
    combo_set: HashSet<RangeSet>,
    /// Partial reductions held, by block index: `reduced[j]` lists the contributor sets held
    /// for index `j` when its epoch is the current one (a reset is O(1), and a lookup is an
    /// index and a scan of the few sets held for that index: no hashing, no clone).
    reduced: Vec<(u32, HeldSets)>,
    epoch: u32,
    basis: Basis,
    /// Whether `basis` reflects the current combinations and plain blocks.
    basis_current: bool,
    /// Single blocks absorbed but not yet merged into `plain` (merged once per absorb).
    fresh: Vec<u32>,
}

impl Knowledge {
    /// Resets to the collective's precondition at rank `r`.
    pub fn reset(&mut self, c: &Collective, r: u32) {
        self.rank = r;
        self.plain = c.initial_blocks(r);
        self.combos.clear();
        self.combo_set.clear();
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            // Wrapped: stale slots could carry epoch 0; start clean.
            self.reduced.clear();
            self.epoch = 1;
        }
        self.basis_current = false;
    }

    /// The contributor sets held for block index `j`.
    fn reduced_at(&self, j: u32) -> Option<&HeldSets> {
        match self.reduced.get(j as usize) {
            Some((e, sets)) if *e == self.epoch => Some(sets),
            _ => None,
        }
    }

    fn hold_reduced(&mut self, j: u32, over: &RangeSet) {
        let j = j as usize;
        if j >= self.reduced.len() {
            self.reduced.resize_with(j + 1, || (0, HeldSets::default()));
        }
        let (e, sets) = &mut self.reduced[j];
        if *e != self.epoch {
            *e = self.epoch;
            sets.clear();
        }
        sets.insert(over);
    }

    pub fn absorb(&mut self, pieces: &[Piece]) {
        for piece in pieces {
            match piece {
                Piece::Block(b) => self.fresh.push(*b),
                Piece::Xor(s) => {
                    if self.combo_set.insert(s.clone()) {
                        self.combos.push(s.clone());
                        self.basis_current = false;
                    }
                }
                Piece::Reduced { index, over } => self.hold_reduced(*index, over),
            }
        }
        // One merge for the whole payload: a run of blocks costs one sweep, not one each.
        if !self.fresh.is_empty() {
            let add: RangeSet = self.fresh.drain(..).collect();
            self.plain.union_with(&add);
            if !self.combos.is_empty() {
                self.basis_current = false;
            }
        }
    }

    /// The first piece of `need` not computable from what is held, if any.
    /// Pieces before `from` are taken as held (the caller checked them and holdings only grow).
    pub fn first_missing(&mut self, need: &[Piece], from: usize) -> Option<usize> {
        for (i, piece) in need.iter().enumerate().skip(from) {
            let held = match piece {
                Piece::Block(b) if self.plain.contains(*b) => true,
                Piece::Reduced { index, over } => self.holds_reduced(*index, over),
                Piece::Xor(s) if self.combo_set.contains(s) || s.is_subset(&self.plain) => true,
                _ => {
                    self.eliminate();
                    self.in_span(piece)
                }
            };
            if !held {
                return Some(i);
            }
        }
        None
    }

    fn holds_reduced(&self, index: u32, over: &RangeSet) -> bool {
        let own = over.len() == 1 && over.contains(self.rank);
        own || self.reduced_at(index).is_some_and(|s| s.contains(over))
    }

    /// Rebuilds the basis of the XOR combinations modulo the plain blocks, unless nothing
    /// changed since the last time.
    fn eliminate(&mut self) {
        if self.basis_current {
            return;
        }
        self.basis_current = true;
        self.basis.clear();
        for c in &self.combos {
            let mut v = c.clone();
            v.difference_with(&self.plain);
            self.basis.insert(v);
        }
    }

    /// Needs [`Knowledge::eliminate`] first.
    fn in_span(&self, piece: &Piece) -> bool {
        let Some(mut v) = piece.vector() else {
            return false;
        };
        v.difference_with(&self.plain);
        self.basis.reduce(&mut v);
        v.is_empty()
    }

    /// Whether block `b` is held plainly or can be decoded (after [`Knowledge::eliminate`]).
    pub fn decodes(&mut self, b: u32) -> bool {
        self.plain.contains(b) || self.in_span(&Piece::Block(b))
    }

    /// Blocks of `want` not held plainly.
    pub fn lacking(&self, want: &RangeSet) -> RangeSet {
        let mut w = want.clone();
        w.difference_with(&self.plain);
        w
    }

    pub fn prepare_decoding(&mut self) {
        self.eliminate();
    }

    /// Whether block `b` appears in some XOR combination held.
    pub fn seen_combined(&self, b: u32) -> bool {
        self.combos.iter().any(|c| c.contains(b))
    }

    /// The largest contributor set held for block index `j` (own contribution included).
    pub fn best_reduced(&self, j: u32) -> RangeSet {
        // Only a failing check asks: a scan is fine. Ties go to the smallest set, so the
        // diagnosis does not depend on the hash order.
        let best = self
            .reduced_at(j)
            .into_iter()
            .flat_map(|s| s.list.iter())
            .max_by(|a, b| a.len().cmp(&b.len()).then_with(|| b.runs().cmp(a.runs())))
            .cloned();
        best.unwrap_or_else(|| RangeSet::singleton(self.rank))
    }

    pub fn holds_full(&self, j: u32, full: &RangeSet) -> bool {
        self.holds_reduced(j, full)
    }
}

/// The contributor sets held for one block index, in arrival order. Usually a few, found by a
/// scan; a rank that takes many partials of one index (the root of a linear reduce takes p-1
/// contributions of index 0) gets a hashed index too, so holding and asking stay O(1) and a
/// linear reduce over 65,536 ranks is not 2x10^9 comparisons.
#[derive(Default)]
struct HeldSets {
    list: Vec<RangeSet>,
    hashed: Option<HashSet<RangeSet>>,
}

impl HeldSets {
    /// Above this many sets, lookups go through the hashed index.
    const SCAN_LIMIT: usize = 16;

    fn clear(&mut self) {
        self.list.clear();
        self.hashed = None;
    }

    fn contains(&self, over: &RangeSet) -> bool {
        match &self.hashed {
            Some(h) => h.contains(over),
            None => self.list.contains(over),
        }
    }

    fn insert(&mut self, over: &RangeSet) {
        if self.contains(over) {
            return;
        }
        self.list.push(over.clone());
        match &mut self.hashed {
            Some(h) => {
                h.insert(over.clone());
            }
            None if self.list.len() > Self::SCAN_LIMIT => {
                self.hashed = Some(self.list.iter().cloned().collect());
            }
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_sets_answer_the_same_before_and_after_hashing() {
        let mut held = HeldSets::default();
        let sets: Vec<RangeSet> = (0..40).map(RangeSet::singleton).collect();
        for (i, s) in sets.iter().enumerate() {
            held.insert(s);
            held.insert(s); // a repeat is held once
            assert_eq!(held.list.len(), i + 1);
            assert_eq!(held.hashed.is_some(), i + 1 > HeldSets::SCAN_LIMIT);
            assert!(sets[..=i].iter().all(|t| held.contains(t)));
            assert!(!sets[i + 1..].iter().any(|t| held.contains(t)));
        }
        held.clear();
        assert!(!held.contains(&sets[0]) && held.hashed.is_none());
    }
}
