//! Where a collective's data lives in MSCCL's buffers, per collective: what each GPU's input
//! chunks hold at the start and what its output chunks must hold at the end, and how an
//! in-place algorithm aliases the two buffers (msccl-tools' `language/collectives.py`).
//!
//! With `c` chunks per rank (msccl-tools' chunk factor):
//! - allgather: input `k` is block `(r, k)`; output `o*c + k` must be block `(o, k)`;
//!   in place, input `k` is output `r*c + k`;
//! - allreduce: input `j` is `r`'s contribution to index `j`; output `j` the full sum;
//!   in place, output is input;
//! - reduce_scatter: `p*c` indices; output `k` is index `r*c + k` summed; in place, output
//!   `k` is input `r*c + k`;
//! - alltoall: input `j` is block `(r, j)`; output `i*c + k` must be block `(i, r*c + k)`;
//!   in place, output is input.
//!
//! netcoll's other collectives follow the same scheme (`coll` broadcast, scatter, gather,
//! reduce, alltoall_broadcast): inputs are a rank's own blocks or contributions in index
//! order, outputs the blocks in block-id order (scatter: the rank's chunk from 0), reduced
//! indices at their index.

use super::msccl::{Buf, Msccl};
use crate::error::Result;
use crate::schedule::{Collective, CollectiveKind, Piece};
use crate::spec_err;

/// MSCCL's `coll` name of a collective.
pub fn coll_name(kind: CollectiveKind) -> &'static str {
    kind.name()
}

/// The collective a `coll` name stands for.
pub fn coll_kind(coll: &str) -> Option<CollectiveKind> {
    use CollectiveKind::*;
    Some(match coll.to_ascii_lowercase().replace('-', "_").as_str() {
        "allgather" => Allgather,
        "allreduce" => Allreduce,
        "reduce_scatter" | "reducescatter" => ReduceScatter,
        "alltoall" => Alltoall,
        "broadcast" | "bcast" => Broadcast,
        "scatter" => Scatter,
        "gather" => Gather,
        "reduce" => Reduce,
        "alltoall_broadcast" => AlltoallBroadcast,
        _ => return None,
    })
}

/// A collective laid out in MSCCL buffers.
pub struct Layout {
    pub collective: Collective,
    /// Chunks per rank (allgather, alltoall, reduce_scatter, scatter), or chunks of the
    /// vector (allreduce, reduce, broadcast), or per owner (gather).
    pub c: u32,
}

impl Layout {
    /// The layout of `c`; refuses collectives MSCCL buffers cannot express.
    pub fn of(c: &Collective) -> Result<Layout> {
        use CollectiveKind::*;
        let per = match c.kind {
            ReduceScatter | Alltoall | Scatter => c.blocks / c.p,
            Multicast | ManyToAll | Barrier => {
                return spec_err!(
                    "{} is not representable in MSCCL XML (its buffers name no targets, sources \
                     or tokens): write it as GOAL or JSON",
                    c.kind.name()
                )
            }
            _ => c.blocks,
        };
        Ok(Layout {
            collective: c.clone(),
            c: per,
        })
    }

    /// The layout a file describes: its `coll` (or `op`), `ngpus` and buffer sizes.
    pub fn from_file(x: &Msccl, op: Option<CollectiveKind>, root: u32) -> Result<Layout> {
        use CollectiveKind::*;
        let kind = match (op, coll_kind(&x.coll)) {
            (Some(k), _) | (None, Some(k)) => k,
            (None, None) => {
                return spec_err!(
                    "coll=\"{}\" names no collective netcoll knows: give --op",
                    x.coll
                )
            }
        };
        let p = x.ngpus();
        let max_i = x.gpus.iter().map(|g| g.i_chunks).max().unwrap_or(0);
        let max_o = x.gpus.iter().map(|g| g.o_chunks).max().unwrap_or(0);
        let blocks = match kind {
            Allgather | AlltoallBroadcast | Gather if max_i == 0 => max_o / p,
            Allgather | AlltoallBroadcast | Gather => max_i,
            ReduceScatter | Scatter => max_i.max(max_o * p),
            _ => max_i.max(max_o),
        };
        let mut c = Collective::new(kind, p, root);
        c.blocks = blocks.max(1);
        c.validate()?;
        Layout::of(&c)
    }

    fn p(&self) -> u32 {
        self.collective.p
    }

    fn block(&self, owner: u32, idx: u32) -> Piece {
        Piece::Block(self.collective.block_id(owner, idx).unwrap_or(0))
    }

    /// What rank `r`'s input chunks hold at the start, as (input offset, value).
    pub fn initial(&self, r: u32) -> Vec<(u32, Piece)> {
        let c = &self.collective;
        if c.kind.is_reduction() {
            return (0..c.blocks)
                .map(|j| (j, Piece::contribution(j, r)))
                .collect();
        }
        let owned = c.initial_blocks(r);
        owned
            .iter()
            .map(|id| (c.block_of(id).1, Piece::Block(id)))
            .collect()
    }

    /// What rank `r`'s output chunks must hold at the end, as (output offset, value).
    pub fn required(&self, r: u32) -> Vec<(u32, Piece)> {
        use CollectiveKind::*;
        let (c, per, p) = (&self.collective, self.c, self.p());
        match c.kind {
            Alltoall => (0..p)
                .flat_map(|i| (0..per).map(move |k| (i, k)))
                .map(|(i, k)| (i * per + k, self.block(i, r * per + k)))
                .collect(),
            Scatter => (0..per)
                .map(|k| (k, self.block(c.root, r * per + k)))
                .collect(),
            _ if c.kind.is_reduction() => {
                let idx = c.required_indices(r);
                let base = if c.kind == ReduceScatter {
                    idx.start
                } else {
                    0
                };
                idx.map(|j| (j - base, Piece::reduced(j, 0..p))).collect()
            }
            _ => c
                .required_blocks(r)
                .iter()
                .map(|id| (id, Piece::Block(id)))
                .collect(),
        }
    }

    /// The buffer and offset that `(b, off)` of rank `r` really is, in place or not.
    pub fn alias(&self, inplace: bool, r: u32, b: Buf, off: u32) -> (Buf, u32) {
        use CollectiveKind::*;
        if !inplace {
            return (b, off);
        }
        let per = self.c;
        match (self.collective.kind, b) {
            (Allgather | AlltoallBroadcast | Gather, Buf::Input) => (Buf::Output, r * per + off),
            (Allreduce | Reduce | Alltoall, Buf::Output) => (Buf::Input, off),
            (ReduceScatter | Scatter, Buf::Output) => (Buf::Input, r * per + off),
            (Broadcast, Buf::Input) => (Buf::Output, off),
            _ => (b, off),
        }
    }
}
