//! Which collective a schedule implements: its data (the blocks), what every rank holds
//! before (precondition) and what it must hold after (postcondition).
//!
//! Two kinds of data exist. *Movement* collectives (broadcast, multicast, scatter, gather,
//! allgather, all-to-all broadcast) move original blocks `(owner, idx)`, numbered densely by a
//! [`BlockId`] so GF(2) vectors stay short (a broadcast has only the root's blocks).
//! *Reduction* collectives (reduce, allreduce, reduce-scatter) combine every rank's version
//! of block index `j`; their values are "index j reduced over a set of contributors".

use serde::{Deserialize, Serialize};

use super::rangeset::RangeSet;
use crate::error::Result;
use crate::spec_err;

/// Dense number of an original block of a movement collective.
pub type BlockId = u32;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CollectiveKind {
    Broadcast,
    /// Broadcast from the root to a subset of ranks (the targets).
    Multicast,
    Scatter,
    Gather,
    Allgather,
    /// Every rank broadcasts its block to all: the allgather of the network-coding paper.
    AlltoallBroadcast,
    Reduce,
    Allreduce,
    ReduceScatter,
    /// Many-to-all multicast (seed 000 s6.3): only the listed sources own a block, and every
    /// rank must end with all of them. An allgather restricted to some owners.
    ManyToAll,
    /// Personalized all-to-all (MPI_Alltoall, MSCCL `alltoall`): every rank owns `blocks`
    /// blocks (a multiple of `p`) and rank `j` must end with chunk `j` of every rank's blocks.
    Alltoall,
    /// Barrier: every rank owns one token and must end having heard from every rank, i.e.
    /// every rank's completion happens after every rank's start (an allgather of tokens).
    Barrier,
}

impl CollectiveKind {
    pub const ALL: [CollectiveKind; 12] = [
        CollectiveKind::Broadcast,
        CollectiveKind::Multicast,
        CollectiveKind::Scatter,
        CollectiveKind::Gather,
        CollectiveKind::Allgather,
        CollectiveKind::AlltoallBroadcast,
        CollectiveKind::Reduce,
        CollectiveKind::Allreduce,
        CollectiveKind::ReduceScatter,
        CollectiveKind::ManyToAll,
        CollectiveKind::Alltoall,
        CollectiveKind::Barrier,
    ];

    /// Whether the values are reductions over contributors rather than original blocks.
    pub fn is_reduction(self) -> bool {
        matches!(self, Self::Reduce | Self::Allreduce | Self::ReduceScatter)
    }

    /// Whether a root takes part in the definition.
    pub fn is_rooted(self) -> bool {
        matches!(
            self,
            Self::Broadcast | Self::Multicast | Self::Scatter | Self::Gather | Self::Reduce
        )
    }

    /// Whether only the root owns original blocks.
    fn root_owns_all(self) -> bool {
        matches!(self, Self::Broadcast | Self::Multicast | Self::Scatter)
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Broadcast => "broadcast",
            Self::Multicast => "multicast",
            Self::Scatter => "scatter",
            Self::Gather => "gather",
            Self::Allgather => "allgather",
            Self::AlltoallBroadcast => "alltoall_broadcast",
            Self::Reduce => "reduce",
            Self::Allreduce => "allreduce",
            Self::ReduceScatter => "reduce_scatter",
            Self::ManyToAll => "many_to_all",
            Self::Alltoall => "alltoall",
            Self::Barrier => "barrier",
        }
    }
}

/// A collective on `p` ranks.
///
/// `blocks` is the granularity of the data: for broadcast/multicast the root's data is
/// `blocks` blocks; for scatter the root holds `blocks` blocks (a multiple of `p`) and rank `i`
/// gets the `i`-th contiguous chunk of `blocks / p`; for gather, allgather and all-to-all
/// broadcast every rank owns `blocks` blocks; for reductions there are `blocks` block indices
/// (reduce-scatter: a multiple of `p`, rank `i` gets the `i`-th chunk). Splitting data into
/// more blocks is how scatter-allgather or pipelined algorithms name the pieces they move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collective {
    pub kind: CollectiveKind,
    pub p: u32,
    /// The root; 0 and ignored for unrooted collectives.
    pub root: u32,
    pub blocks: u32,
    /// Multicast destinations (the root need not be listed); empty for other kinds.
    pub targets: Vec<u32>,
    /// Many-to-all: the ranks that own blocks, in block-id order; empty for other kinds.
    pub sources: Vec<u32>,
}

impl Collective {
    /// A collective with one block per owner (or one block index for reductions).
    pub fn new(kind: CollectiveKind, p: u32, root: u32) -> Self {
        let blocks = match kind {
            CollectiveKind::Scatter | CollectiveKind::ReduceScatter | CollectiveKind::Alltoall => {
                p.max(1)
            }
            _ => 1,
        };
        // Many-to-all defaults to every rank a source (the all-to-all broadcast).
        let sources = match kind {
            CollectiveKind::ManyToAll => (0..p).collect(),
            _ => Vec::new(),
        };
        Collective {
            kind,
            p,
            root,
            blocks,
            targets: Vec::new(),
            sources,
        }
    }

    /// Checks the parameters; every other method assumes they hold.
    pub fn validate(&self) -> Result<()> {
        let (p, name) = (self.p, self.kind.name());
        if p == 0 {
            return spec_err!("{name} on 0 ranks: p must be at least 1");
        }
        if self.kind.is_rooted() && self.root >= p {
            return spec_err!(
                "{name} root {} is out of range: {p} ranks, 0 to {}",
                self.root,
                p.saturating_sub(1)
            );
        }
        if self.blocks == 0 {
            return spec_err!("{name} with 0 blocks: blocks must be at least 1");
        }
        let chunked = matches!(
            self.kind,
            CollectiveKind::Scatter | CollectiveKind::ReduceScatter | CollectiveKind::Alltoall
        );
        if chunked && self.blocks % p != 0 {
            return spec_err!(
                "{name} needs blocks ({}) to be a multiple of p ({p})",
                self.blocks
            );
        }
        // Block ids are u32: the universe must fit.
        if self.blocks as u64 * self.owners() as u64 > u32::MAX as u64 {
            let n = self.blocks;
            return Err(crate::Error::TooLarge(format!(
                "{name}: {n} blocks on {p} ranks overflow block ids"
            )));
        }
        self.validate_targets()?;
        self.validate_sources()
    }

    fn validate_sources(&self) -> Result<()> {
        if self.kind != CollectiveKind::ManyToAll {
            if !self.sources.is_empty() {
                return spec_err!(
                    "only a many-to-all multicast has sources; drop them for {}",
                    self.kind.name()
                );
            }
            return Ok(());
        }
        check_sources(&self.sources, self.p)
    }

    fn validate_targets(&self) -> Result<()> {
        let multicast = self.kind == CollectiveKind::Multicast;
        if !multicast && !self.targets.is_empty() {
            return spec_err!(
                "only a multicast has targets; drop them for {}",
                self.kind.name()
            );
        }
        check_targets(&self.targets, self.p)
    }

    /// Number of ranks that own original blocks (movement collectives).
    fn owners(&self) -> u32 {
        if self.kind.root_owns_all() {
            1
        } else if self.kind == CollectiveKind::ManyToAll {
            self.sources.len() as u32
        } else {
            self.p
        }
    }

    /// Size of the block universe: original blocks (movement) or block indices (reduction).
    pub fn num_blocks(&self) -> u32 {
        if self.kind.is_reduction() {
            self.blocks
        } else {
            self.owners() * self.blocks
        }
    }

    /// The id of block `(owner, idx)`, if that block exists in this collective.
    pub fn block_id(&self, owner: u32, idx: u32) -> Option<BlockId> {
        if self.kind.is_reduction() || idx >= self.blocks || owner >= self.p {
            return None;
        }
        if self.kind.root_owns_all() {
            (owner == self.root).then_some(idx)
        } else if self.kind == CollectiveKind::ManyToAll {
            let at = self.sources.iter().position(|&s| s == owner)? as u32;
            Some(at * self.blocks + idx)
        } else {
            Some(owner * self.blocks + idx)
        }
    }

    /// The `(owner, idx)` of a block id.
    pub fn block_of(&self, id: BlockId) -> (u32, u32) {
        if self.kind.root_owns_all() {
            (self.root, id)
        } else if self.kind == CollectiveKind::ManyToAll {
            (self.sources[(id / self.blocks) as usize], id % self.blocks)
        } else {
            (id / self.blocks, id % self.blocks)
        }
    }

    /// Movement: the blocks rank `r` holds at the start.
    pub fn initial_blocks(&self, r: u32) -> RangeSet {
        match self.kind {
            k if k.is_reduction() => RangeSet::new(),
            k if k.root_owns_all() && r == self.root => RangeSet::full(self.blocks),
            k if k.root_owns_all() => RangeSet::new(),
            CollectiveKind::ManyToAll => match self.block_id(r, 0) {
                Some(first) => RangeSet::range(first, first + self.blocks),
                None => RangeSet::new(),
            },
            _ => RangeSet::range(r * self.blocks, (r + 1) * self.blocks),
        }
    }

    /// Movement: the blocks rank `r` must hold at the end (besides what it started with).
    pub fn required_blocks(&self, r: u32) -> RangeSet {
        use CollectiveKind::*;
        let all = RangeSet::full(self.num_blocks());
        match self.kind {
            Broadcast | Allgather | AlltoallBroadcast | ManyToAll | Barrier => all,
            Alltoall => {
                let m = self.blocks / self.p;
                let mut want = RangeSet::new();
                for owner in 0..self.p {
                    let first = owner * self.blocks + r * m;
                    want.union_with(&RangeSet::range(first, first + m));
                }
                want
            }
            Multicast if r == self.root || self.targets.contains(&r) => all,
            Gather if r == self.root => all,
            Scatter => {
                let m = self.blocks / self.p;
                RangeSet::range(r * m, (r + 1) * m)
            }
            _ => RangeSet::new(),
        }
    }

    /// Reduction: the block indices rank `r` must hold fully reduced at the end.
    pub fn required_indices(&self, r: u32) -> std::ops::Range<u32> {
        match self.kind {
            CollectiveKind::Allreduce => 0..self.blocks,
            CollectiveKind::Reduce if r == self.root => 0..self.blocks,
            CollectiveKind::ReduceScatter => {
                let m = self.blocks / self.p;
                r * m..(r + 1) * m
            }
            _ => 0..0,
        }
    }

    /// Human name of a block for diagnoses.
    pub fn describe_block(&self, id: BlockId) -> String {
        let (owner, idx) = self.block_of(id);
        format!("block (owner {owner}, idx {idx})")
    }
}

/// A multicast target list for `p` ranks: each a rank, none twice.
pub fn check_targets(targets: &[u32], p: u32) -> Result<()> {
    // One flag per rank (p bits' worth of bytes): a set of random ranks built by insertion
    // costs O(targets^2) run copies, 16,384 targets on 65,536 ranks took seconds.
    let mut seen = vec![false; p as usize];
    for &t in targets {
        if t >= p {
            return spec_err!(
                "multicast target {t} is out of range: {p} ranks, 0 to {}",
                p.saturating_sub(1)
            );
        }
        if std::mem::replace(&mut seen[t as usize], true) {
            return spec_err!("multicast target {t} is listed twice");
        }
    }
    Ok(())
}

/// A source list for `p` ranks: at least one, each a rank, none twice.
pub fn check_sources(sources: &[u32], p: u32) -> Result<()> {
    if sources.is_empty() {
        return spec_err!(
            "a many-to-all multicast needs at least one source: give a rank list or \
             random:COUNT,seed=S"
        );
    }
    if sources.len() as u64 > p as u64 {
        return spec_err!(
            "{} sources on {p} ranks: choose at most {p} sources",
            sources.len()
        );
    }
    let mut seen = vec![false; p as usize];
    for &s in sources {
        if s >= p {
            return spec_err!("source {s} is out of range: {p} ranks, 0 to {}", p - 1);
        }
        if std::mem::replace(&mut seen[s as usize], true) {
            return spec_err!("source {s} is listed twice: list each source once");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use CollectiveKind::*;

    #[test]
    fn block_numbering_is_dense() {
        let mut c = Collective::new(Broadcast, 8, 3);
        c.blocks = 4;
        assert_eq!(c.num_blocks(), 4);
        assert_eq!(c.block_id(3, 2), Some(2));
        assert_eq!(c.block_id(0, 2), None);
        assert_eq!(c.block_of(2), (3, 2));
        let mut g = Collective::new(Allgather, 5, 0);
        g.blocks = 2;
        assert_eq!(g.block_id(4, 1), Some(9));
        assert_eq!(g.block_of(9), (4, 1));
        assert_eq!(g.initial_blocks(2), RangeSet::from_iter([4, 5]));
    }

    #[test]
    fn pre_and_postconditions() {
        let s = Collective::new(Scatter, 4, 1);
        assert_eq!(s.initial_blocks(1), RangeSet::full(4));
        assert_eq!(s.required_blocks(2), RangeSet::singleton(2));
        let mut m = Collective::new(Multicast, 6, 0);
        m.targets = vec![2, 5];
        assert!(m.required_blocks(3).is_empty());
        assert_eq!(m.required_blocks(5), RangeSet::singleton(0));
        let rs = Collective::new(ReduceScatter, 3, 0);
        assert_eq!(rs.required_indices(2), 2..3);
        assert_eq!(Collective::new(Reduce, 3, 1).required_indices(0), 0..0);
    }

    #[test]
    fn validation_messages() {
        let bad = |c: Collective| c.validate().unwrap_err().to_string();
        assert!(bad(Collective::new(Broadcast, 4, 4))
            .contains("root 4 is out of range: 4 ranks, 0 to 3"));
        let mut s = Collective::new(Scatter, 4, 0);
        s.blocks = 6;
        assert!(bad(s).contains("multiple of p"));
        let mut m = Collective::new(Multicast, 4, 0);
        m.targets = vec![1, 1];
        assert!(bad(m).contains("listed twice"));
        assert!(Collective::new(Allreduce, 1, 0).validate().is_ok());
    }

    #[test]
    fn many_to_all_numbers_only_the_sources_blocks() {
        let mut c = Collective::new(ManyToAll, 6, 0);
        assert_eq!(c.sources, vec![0, 1, 2, 3, 4, 5]);
        c.sources = vec![4, 1];
        c.validate().unwrap();
        assert_eq!(c.num_blocks(), 2);
        assert_eq!((c.block_id(4, 0), c.block_id(1, 0)), (Some(0), Some(1)));
        assert_eq!(c.block_id(2, 0), None);
        assert_eq!(c.block_of(1), (1, 0));
        assert_eq!(c.initial_blocks(1), RangeSet::singleton(1));
        assert!(c.initial_blocks(0).is_empty());
        assert_eq!(c.required_blocks(3), RangeSet::full(2));
        let bad = |s: Vec<u32>| {
            let mut c = Collective::new(ManyToAll, 4, 0);
            c.sources = s;
            c.validate().unwrap_err().to_string()
        };
        assert!(bad(vec![]).contains("at least one source"));
        assert!(bad(vec![1, 1]).contains("source 1 is listed twice"));
        assert!(bad(vec![4]).contains("source 4 is out of range"));
        assert!(bad(vec![0, 1, 2, 3, 0]).contains("5 sources on 4 ranks"));
        let mut a = Collective::new(Allgather, 4, 0);
        a.sources = vec![1];
        assert!(a
            .validate()
            .unwrap_err()
            .to_string()
            .contains("only a many-to-all"));
    }
}
