//! Gaussian elimination over GF(2) on range sets: which block combinations a rank can compute
//! from the XOR pieces it holds.
//!
//! Rows are kept in insertion order, each reduced by all earlier rows, with its pivot (lowest
//! member) absent from every later row. Reducing a vector by the rows in order therefore
//! clears every pivot, and the vector lies in the span exactly when nothing is left.

use super::rangeset::RangeSet;
use std::collections::{HashMap, HashSet};

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

/// Blocks derivable from `vectors` by peeling: a vector with one member not yet derived
/// yields that member (a known block cancelled out of an XOR). Linear in the members, where
/// elimination is quadratic in the vectors: what decoders need (a chain `a^b, b^c, .., c`
/// peels block by block). Sound (every block returned lies in the span) but not complete:
/// a caller that finds a block missing falls back to a [`Basis`]. Vectors of more than
/// `PEEL_LIMIT` members are left to elimination.
pub fn peel<'a>(vectors: impl IntoIterator<Item = &'a RangeSet>) -> HashSet<u32> {
    let mut known: HashSet<u32> = HashSet::new();
    let mut rows: Vec<(u32, &RangeSet)> = Vec::new();
    let mut occurs: HashMap<u32, Vec<usize>> = HashMap::new();
    let mut queue: Vec<u32> = Vec::new();
    for v in vectors {
        match v.len() {
            1 => queue.extend(v.first()),
            n if n as usize <= PEEL_LIMIT => {
                for b in v.iter() {
                    occurs.entry(b).or_default().push(rows.len());
                }
                rows.push((n, v));
            }
            _ => {}
        }
    }
    while let Some(b) = queue.pop() {
        if !known.insert(b) {
            continue;
        }
        for &k in occurs.get(&b).map_or(&[][..], Vec::as_slice) {
            let (left, v) = &mut rows[k];
            *left -= 1;
            if *left == 1 {
                queue.extend(v.iter().find(|x| !known.contains(x)));
            }
        }
    }
    known
}

const PEEL_LIMIT: usize = 64;

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

    #[test]
    fn peeling_decodes_a_chain_in_any_order_and_only_what_the_span_holds() {
        let vs = [
            set(&[3, 4]),
            set(&[0, 1]),
            set(&[1, 2]),
            set(&[2]),
            set(&[2, 3]),
            set(&[5, 6]),
        ];
        let known = peel(vs.iter());
        let mut got: Vec<u32> = known.into_iter().collect();
        got.sort_unstable();
        assert_eq!(got, vec![0, 1, 2, 3, 4]);
        // A cycle of pairs has no single block in its span: nothing peels.
        assert!(peel([set(&[0, 1]), set(&[1, 2]), set(&[0, 2])].iter()).is_empty());
    }
}
