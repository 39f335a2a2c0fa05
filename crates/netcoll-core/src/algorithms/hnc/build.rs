//! Schedules: the base multicasts (tree, all-at-once), the baselines built from them, and
//! the routines HNC (steps.rs) is made of.
//!
//! Every all-to-all routine returns `holds`: for region nodes y and x, `holds[y * R + x]` is
//! the op at which y holds x's block (None for y's own block), so that a caller (recursive
//! HNC) can make later sends wait for exactly what they carry. Steps are assigned phase by
//! phase, as the closed forms count them.

use super::grid::{Net, Region};
use super::plan::{Base, Opts};
use crate::schedule::{OpRef, Piece, ScheduleBuilder};

pub struct Builder<'a> {
    pub b: ScheduleBuilder,
    net: &'a Net,
    pub(super) opts: Opts,
    edges: Vec<(usize, usize, u32)>,
    /// `steps=phase`: every op of one phase of HNC (b, d, e, f) gets one step, the phase's
    /// number, instead of one step per tree level (see `Builder::hnc`).
    pub(super) by_phase: bool,
    /// The phase being built when `by_phase` (None outside HNC's top level).
    pub(super) phase: Option<u32>,
}

pub(super) type Holds = Vec<Option<OpRef>>;

impl<'a> Builder<'a> {
    pub fn new(b: ScheduleBuilder, net: &'a Net, opts: Opts) -> Self {
        Builder {
            b,
            net,
            opts,
            edges: Vec::new(),
            by_phase: false,
            phase: None,
        }
    }

    /// Rank of every node of a region, in region order.
    pub(super) fn ranks(&self, region: &Region) -> Vec<u32> {
        (0..region.size())
            .map(|i| self.net.rank_at[self.net.node(&region.coords(&region.pos(i)))])
            .collect()
    }

    pub(super) fn block(&mut self, rank: u32) -> Piece {
        self.b.block(rank, 0)
    }

    /// One send plus its receive, in step `step`.
    pub(super) fn unicast(
        &mut self,
        from: u32,
        to: u32,
        payload: &[Piece],
        deps: &[OpRef],
        step: u32,
    ) -> OpRef {
        self.b.set_round(Some(self.phase.unwrap_or(step)));
        let s = self.b.send(from, &[to], payload, deps);
        let r = self.b.recv(to, s, &[]);
        self.b.set_round(None);
        r
    }

    /// Multicast of `payload` from region node `root` (which holds it after `root_deps`) to
    /// the whole region by the base algorithm, from step `step0`. Returns, per node, the
    /// receive op (None at the root).
    pub(super) fn multicast(
        &mut self,
        region: &Region,
        ranks: &[u32],
        root: usize,
        payload: &[Piece],
        root_deps: &[OpRef],
        step0: u32,
    ) -> Holds {
        let size = region.size();
        let mut have: Holds = vec![None; size];
        if self.opts.base == Base::AllAtOnce {
            for y in (0..size).filter(|&y| y != root) {
                have[y] = Some(self.unicast(ranks[root], ranks[y], payload, root_deps, step0));
            }
            return have;
        }
        // Tree: dimension by dimension, every node holding the data runs the line's binomial.
        let mut holders = vec![root];
        let (mut stride, mut offset) = (1usize, step0);
        for line in region.lines.clone() {
            let before = holders.len();
            for h in 0..before {
                let hidx = holders[h];
                let hp = (hidx / stride) % line.n;
                let mut edges = std::mem::take(&mut self.edges);
                line.binomial(hp, &mut edges);
                for &(a, c, lvl) in &edges {
                    let from = hidx - hp * stride + a * stride;
                    let to = hidx - hp * stride + c * stride;
                    let deps: Vec<OpRef> = match have[from] {
                        Some(op) => vec![op],
                        None => root_deps.to_vec(),
                    };
                    have[to] =
                        Some(self.unicast(ranks[from], ranks[to], payload, &deps, offset + lvl));
                    holders.push(to);
                }
                self.edges = edges;
            }
            offset += line.depth();
            stride *= line.n;
        }
        have
    }

    /// Every node of the region broadcasts its block by the base multicast.
    pub fn a2a(&mut self, region: &Region, step0: u32) -> Holds {
        let ranks = self.ranks(region);
        let size = ranks.len();
        let mut holds = vec![None; size * size];
        for x in 0..size {
            let data = [self.block(ranks[x])];
            let have = self.multicast(region, &ranks, x, &data, &[], step0);
            for (y, h) in have.into_iter().enumerate() {
                holds[y * size + x] = h;
            }
        }
        holds
    }
}
