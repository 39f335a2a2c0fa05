//! Gaussian elimination over GF(2) on range sets: which block combinations a rank can compute
//! from the XOR pieces it holds.
//!
//! Rows are kept in insertion order, each reduced by all earlier rows, with its pivot (lowest
//! member) absent from every later row. Reducing a vector by the rows in order therefore
//! clears every pivot, and the vector lies in the span exactly when nothing is left.

use super::rangeset::RangeSet;

#[derive(Clone, Debug, Default)]
pub struct Basis {
    rows: Vec<(u32, RangeSet)>,
}

impl Basis {
    pub fn new() -> Self {
        Basis::default()
    }

    pub fn clear(&mut self) {
        self.rows.clear();
    }

    /// Number of independent rows (the rank of the span).
    pub fn rank(&self) -> usize {
        self.rows.len()
    }

    /// Reduces `v` in place by the basis; it ends empty iff `v` was in the span.
    pub fn reduce(&self, v: &mut RangeSet) {
        for (pivot, row) in &self.rows {
            if v.contains(*pivot) {
                v.xor_with(row);
            }
        }
    }

    /// Adds `v`; returns whether it enlarged the span.
    pub fn insert(&mut self, mut v: RangeSet) -> bool {
        self.reduce(&mut v);
        match v.first() {
            Some(pivot) => {
                self.rows.push((pivot, v));
                true
            }
            None => false,
        }
    }

    pub fn contains(&self, v: &RangeSet) -> bool {
        let mut w = v.clone();
        self.reduce(&mut w);
        w.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(xs: &[u32]) -> RangeSet {
        xs.iter().copied().collect()
    }

    #[test]
    fn decodes_network_coded_exchange() {
        // a holds a; receives a^c: it can compute c, not b.
        let mut basis = Basis::new();
        assert!(basis.insert(set(&[0])));
        assert!(basis.insert(set(&[0, 2])));
        assert!(basis.contains(&set(&[2])));
        assert!(!basis.contains(&set(&[1])));
        assert!(!basis.insert(set(&[2])));
        assert_eq!(basis.rank(), 2);
    }

    #[test]
    fn pivots_stay_clear_in_later_rows() {
        let mut basis = Basis::new();
        basis.insert(set(&[1, 2, 3]));
        basis.insert(set(&[1, 3]));
        basis.insert(set(&[3, 4]));
        assert!(basis.contains(&set(&[2])));
        assert!(basis.contains(&set(&[1, 4])));
        assert!(!basis.contains(&set(&[4])));
    }
}
