//! Symbolic payloads: what a message carries or a compute op produces.
//!
//! A payload is a list of pieces, each the size of one block. A piece is either a GF(2)
//! combination of original blocks (a single block being the common case, kept apart so that
//! it costs no allocation) or a partial reduction "block index j reduced over contributors C".

use super::collective::{BlockId, Collective};
use super::rangeset::RangeSet;
use std::collections::HashMap;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// One original block.
    Block(BlockId),
    /// The XOR of two or more original blocks (build it with [`Piece::xor`]).
    Xor(RangeSet),
    /// Block index `index` reduced over the ranks in `over`.
    Reduced { index: u32, over: RangeSet },
}

impl Piece {
    /// The XOR of `blocks`, normalised: one block becomes [`Piece::Block`]. `None` if empty.
    pub fn xor(blocks: RangeSet) -> Option<Piece> {
        match blocks.len() {
            0 => None,
            1 => blocks.first().map(Piece::Block),
            _ => Some(Piece::Xor(blocks)),
        }
    }

    /// Rank `rank`'s own contribution to block index `index`.
    pub fn contribution(index: u32, rank: u32) -> Piece {
        Piece::Reduced {
            index,
            over: RangeSet::singleton(rank),
        }
    }

    /// Block index `index` reduced over `over`.
    pub fn reduced(index: u32, over: impl IntoIterator<Item = u32>) -> Piece {
        Piece::Reduced {
            index,
            over: over.into_iter().collect(),
        }
    }

    pub fn is_reduction(&self) -> bool {
        matches!(self, Piece::Reduced { .. })
    }

    /// The piece as a GF(2) vector over block ids (`None` for reductions).
    pub fn vector(&self) -> Option<RangeSet> {
        match self {
            Piece::Block(b) => Some(RangeSet::singleton(*b)),
            Piece::Xor(s) => Some(s.clone()),
            Piece::Reduced { .. } => None,
        }
    }

    /// Human name for diagnoses, in the collective's own block names.
    pub fn describe(&self, c: &Collective) -> String {
        match self {
            Piece::Block(b) => c.describe_block(*b),
            Piece::Xor(s) => {
                let parts: Vec<String> = s.iter().map(|b| short_block(c, b)).collect();
                format!("xor {}", parts.join("^"))
            }
            Piece::Reduced { index, over } => {
                format!("block index {index} reduced over {}", describe_ranks(over))
            }
        }
    }
}

fn short_block(c: &Collective, b: BlockId) -> String {
    let (owner, idx) = c.block_of(b);
    format!("({owner},{idx})")
}

/// `{0,1,5}`, shortened for large sets.
pub fn describe_ranks(s: &RangeSet) -> String {
    let n = s.len();
    let shown: Vec<String> = s.iter().take(8).map(|r| r.to_string()).collect();
    let more = if n > 8 {
        format!(",... ({n} ranks)")
    } else {
        String::new()
    };
    format!("{{{}{more}}}", shown.join(","))
}

/// Why a list of pieces cannot be reduced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReduceError {
    /// Input piece `i` is not a partial reduction.
    NotReduction(usize),
    /// Contributor `rank` appears twice in block index `index`.
    DoubleCount { index: u32, rank: u32 },
}

/// Combines reduction pieces index by index: the contributor sets of one index must be
/// disjoint, since a reduction such as a sum counts each rank's value exactly once. The
/// output lists one piece per index, in order of first appearance.
pub fn reduce_pieces(inputs: &[Piece]) -> Result<Vec<Piece>, ReduceError> {
    merge_reductions(inputs, true)
}

/// Same as [`reduce_pieces`] but lets contributors overlap (a union): what the builder records
/// so that the verifier, not the builder, reports the double count with its rank and op.
pub(crate) fn union_pieces(inputs: &[Piece]) -> Vec<Piece> {
    merge_reductions(inputs, false).unwrap_or_default()
}

/// Merges reduction pieces index by index (hashed, so a reduce op over thousands of indices
/// costs linear time); with `strict`, a contributor counted twice is an error and a movement
/// piece too, else overlaps are unions and movement pieces are ignored.
fn merge_reductions(inputs: &[Piece], strict: bool) -> Result<Vec<Piece>, ReduceError> {
    let mut out: Vec<(u32, RangeSet)> = Vec::new();
    let mut at = IndexSlots::for_pieces(inputs);
    for (i, piece) in inputs.iter().enumerate() {
        let Piece::Reduced { index, over } = piece else {
            if strict {
                return Err(ReduceError::NotReduction(i));
            }
            continue;
        };
        match at.get(*index) {
            Some(k) => {
                let acc = &mut out[k].1;
                if let Some(rank) = acc.first_common(over).filter(|_| strict) {
                    return Err(ReduceError::DoubleCount {
                        index: *index,
                        rank,
                    });
                }
                acc.union_with(over);
            }
            None => {
                at.insert(*index, out.len());
                out.push((*index, over.clone()));
            }
        }
    }
    Ok(out
        .into_iter()
        .map(|(index, over)| Piece::Reduced { index, over })
        .collect())
}

/// Where each block index's merged piece sits in the output: a flat table when the indices
/// are dense (the usual case: a reduce op over a run of indices), hashed otherwise.
enum IndexSlots {
    Dense(Vec<u32>),
    Sparse(HashMap<u32, usize>),
}

impl IndexSlots {
    fn for_pieces(inputs: &[Piece]) -> Self {
        let top = inputs
            .iter()
            .filter_map(|p| match p {
                Piece::Reduced { index, .. } => Some(*index as usize),
                _ => None,
            })
            .max();
        match top {
            Some(top) if top <= 4 * inputs.len() + 64 => IndexSlots::Dense(vec![u32::MAX; top + 1]),
            _ => IndexSlots::Sparse(HashMap::with_capacity(inputs.len())),
        }
    }

    fn get(&self, index: u32) -> Option<usize> {
        match self {
            IndexSlots::Dense(v) => Some(v[index as usize])
                .filter(|&k| k != u32::MAX)
                .map(|k| k as usize),
            IndexSlots::Sparse(m) => m.get(&index).copied(),
        }
    }

    fn insert(&mut self, index: u32, k: usize) {
        match self {
            IndexSlots::Dense(v) => v[index as usize] = k as u32,
            IndexSlots::Sparse(m) => {
                m.insert(index, k);
            }
        }
    }
}

/// XOR of all movement pieces in `inputs` (reductions are ignored).
pub(crate) fn xor_sum(inputs: &[Piece]) -> RangeSet {
    let mut acc = RangeSet::new();
    for v in inputs.iter().filter_map(Piece::vector) {
        acc.xor_with(&v);
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xor_normalises() {
        assert_eq!(Piece::xor(RangeSet::singleton(3)), Some(Piece::Block(3)));
        assert_eq!(Piece::xor(RangeSet::new()), None);
        assert!(matches!(
            Piece::xor(RangeSet::from_iter([1, 2])),
            Some(Piece::Xor(_))
        ));
    }

    #[test]
    fn reduce_merges_by_index_and_rejects_double_counting() {
        let ins = [
            Piece::contribution(0, 1),
            Piece::contribution(1, 1),
            Piece::reduced(0, [2, 3]),
        ];
        let out = reduce_pieces(&ins).unwrap();
        assert_eq!(
            out,
            vec![Piece::reduced(0, [1, 2, 3]), Piece::contribution(1, 1)]
        );
        let dup = [Piece::reduced(4, [0, 1]), Piece::reduced(4, [1, 2])];
        assert_eq!(
            reduce_pieces(&dup),
            Err(ReduceError::DoubleCount { index: 4, rank: 1 })
        );
        assert_eq!(
            reduce_pieces(&[Piece::Block(0)]),
            Err(ReduceError::NotReduction(0))
        );
    }

    #[test]
    fn describes_ranks_briefly() {
        assert_eq!(describe_ranks(&RangeSet::from_iter([0, 2])), "{0,2}");
        assert!(describe_ranks(&RangeSet::full(20)).ends_with("(20 ranks)}"));
    }
}
