//! HNC steps (a)-(g) of seed 000 s3 as schedule ops, one function per step.
//!
//! Bookkeeping per (node y of group d, other group g): `what` are the ops after which y holds
//! g's encoded pieces, `raw` those after which it holds the one raw block of g it decodes
//! with. Steps are numbered phase by phase from the closed form's phase figures.

use super::build::{Builder, Holds};
use super::closed::Calc;
use super::grid::Region;
use super::plan::{Encode, Level, Mode, Receiver};
use crate::schedule::{OpRef, Piece};

/// The groups of one HNC level and everything the steps look up.
struct Layout {
    groups: Vec<Region>,
    /// The grid of intermediate nodes, numbered like the groups.
    grid: Region,
    grid_ranks: Vec<u32>,
    group_ranks: Vec<Vec<u32>>,
    /// Region index of member j of group g.
    at: Vec<Vec<usize>>,
    /// Member index of the intermediate node.
    q: usize,
    m: usize,
    size: usize,
    blocks: Vec<Vec<Piece>>,
}

type PerNode = Vec<Vec<Vec<Vec<OpRef>>>>;

impl Layout {
    fn ng(&self) -> usize {
        self.groups.len()
    }

    /// The ops after which member y of group g holds member x's block.
    fn held(&self, holds: &Holds, g: usize, y: usize, x: usize) -> Vec<OpRef> {
        holds[self.at[g][y] * self.size + self.at[g][x]]
            .into_iter()
            .collect()
    }

    /// Records that member y of group d holds all of group g's blocks after `op`.
    fn set_group(&self, holds: &mut Holds, d: usize, y: usize, g: usize, op: OpRef) {
        for x in 0..self.m {
            holds[self.at[d][y] * self.size + self.at[g][x]] = Some(op);
        }
    }

    /// Every ordered pair of distinct groups (source g, destination d).
    fn pairs(&self) -> impl Iterator<Item = (usize, usize)> {
        let ng = self.ng();
        (0..ng).flat_map(move |g| (0..ng).filter(move |&d| d != g).map(move |d| (g, d)))
    }
}

impl Builder<'_> {
    fn layout(&mut self, region: &Region, level: &Level) -> Layout {
        let (groups, _) = region.groups(&level.shape);
        let grid = region.blocks(&level.shape, &level.place);
        let m = groups[0].size();
        let group_ranks: Vec<Vec<u32>> = groups.iter().map(|g| self.ranks(g)).collect();
        let at = groups
            .iter()
            .map(|g| {
                (0..m)
                    .map(|j| {
                        let c = g.coords(&g.pos(j));
                        let pos: Vec<usize> = (c.iter().zip(&region.origin).zip(&region.lines))
                            .map(|((&c, &o), l)| (c - o) / l.stride)
                            .collect();
                        region.index(&pos)
                    })
                    .collect()
            })
            .collect();
        let blocks = group_ranks
            .iter()
            .map(|rs| rs.iter().map(|&r| self.block(r)).collect())
            .collect();
        Layout {
            grid_ranks: self.ranks(&grid),
            q: groups[0].index(&level.place),
            size: region.size(),
            groups,
            grid,
            group_ranks,
            at,
            m,
            blocks,
        }
    }

    /// HNC inside `region` at `level` from step `step0`. With `by_phase` the top level
    /// numbers its phases 0, 1, .. (in the order they are built) and every op of a phase,
    /// including those of a recursive HNC inside step (b), takes its phase's number: seed
    /// 000 s3's "four virtual channels are needed for four communication steps".
    pub fn hnc(&mut self, region: &Region, level: &Level, step0: u32, calc: &mut Calc) -> Holds {
        let own = self.by_phase && self.phase.is_none();
        if own {
            self.phase = Some(0);
        }
        let holds = self.hnc_phases(region, level, step0, calc, own);
        if own {
            self.phase = None;
        }
        holds
    }

    /// The next phase begins (only at the level that owns the phase numbering).
    fn next_phase(&mut self, own: bool) {
        if own {
            self.phase = self.phase.map(|p| p + 1);
        }
    }

    fn hnc_phases(
        &mut self,
        region: &Region,
        level: &Level,
        step0: u32,
        calc: &mut Calc,
        own: bool,
    ) -> Holds {
        let phases = calc.hnc_phases(region, level);
        let steps = |name: &str| {
            phases
                .iter()
                .find(|(n, _)| *n == name)
                .map_or(0, |(_, f)| f.steps)
        };
        let lay = self.layout(region, level);
        let mut holds: Holds = vec![None; lay.size * lay.size];
        self.intra_broadcast(&lay, level, step0, calc, &mut holds);
        if lay.ng() == 1 {
            return holds; // a single group (tiny networks under group=auto)
        }
        let mut step = step0 + steps("b");
        if self.opts.mode == Mode::Combine {
            self.next_phase(own);
            let got = self.combined_exchange(&lay, &holds, step);
            self.next_phase(own);
            self.deliver_combined(&lay, &got, step + steps("d"), &mut holds);
            return holds;
        }
        let enc = encoded(&lay);
        let enc_ops = self.encode(&lay, &enc, &holds);
        let ng = lay.ng();
        let mut what: PerNode = vec![vec![vec![Vec::new(); lay.m]; ng]; ng];
        let mut raw: PerNode = what.clone();
        self.next_phase(own);
        if self.opts.encode == Encode::All {
            self.send_encoded_to_corresponding(&lay, &enc, &enc_ops, step, &mut what);
            step += steps("d");
        } else {
            let got = self.exchange_encoded(&lay, &enc, &enc_ops, step);
            step += steps("d");
            let direct = if self.opts.receiver == Receiver::Intermediate {
                self.next_phase(own);
                let direct = self.raw_to_intermediates(&lay, step);
                step += steps("f");
                direct
            } else {
                vec![vec![None; ng]; ng]
            };
            self.next_phase(own);
            self.deliver_encoded(&lay, &enc, &got, &direct, step, &mut what, &mut raw);
            step += steps("e");
        }
        if self.opts.receiver == Receiver::Corresponding {
            self.next_phase(own);
            self.raw_to_corresponding(&lay, step, &mut raw);
        }
        self.decode_all(&lay, &enc, &what, &raw, &mut holds);
        holds
    }

    /// (b) every group broadcasts internally (recursively by HNC with `inner`).
    fn intra_broadcast(
        &mut self,
        lay: &Layout,
        level: &Level,
        step0: u32,
        calc: &mut Calc,
        holds: &mut Holds,
    ) {
        let m = lay.m;
        for (g, group) in lay.groups.iter().enumerate() {
            let inner = match &level.inner {
                Some(inner) => self.hnc(group, inner, step0, calc),
                None => self.a2a(group, step0),
            };
            for y in 0..m {
                for x in 0..m {
                    holds[lay.at[g][y] * lay.size + lay.at[g][x]] = inner[y * m + x];
                }
            }
        }
    }

    /// (d, combining) every intermediate multicasts its group's blocks in one message.
    fn combined_exchange(&mut self, lay: &Layout, holds: &Holds, step: u32) -> Vec<Holds> {
        (0..lay.ng())
            .map(|g| {
                let deps: Vec<OpRef> = (0..lay.m)
                    .flat_map(|x| lay.held(holds, g, lay.q, x))
                    .collect();
                self.multicast(&lay.grid, &lay.grid_ranks, g, &lay.blocks[g], &deps, step)
            })
            .collect()
    }

    /// (e, combining) every intermediate delivers the combined messages inside its group.
    fn deliver_combined(&mut self, lay: &Layout, got: &[Holds], step: u32, holds: &mut Holds) {
        for (g, d) in lay.pairs() {
            let root_op = got[g][d].expect("every intermediate receives");
            let (group, ranks) = (&lay.groups[d], &lay.group_ranks[d]);
            let have = self.deliver(group, ranks, lay.q, &lay.blocks[g], &[root_op], step);
            for (y, h) in have.into_iter().enumerate() {
                for x in 0..lay.m {
                    let op = h.as_ref().map_or(root_op, |ops| ops[x]);
                    holds[lay.at[d][y] * lay.size + lay.at[g][x]] = Some(op);
                }
            }
        }
    }

    /// (c) the XOR chain at the encoders: per group, per encoder, its M-1 XOR ops.
    fn encode(&mut self, lay: &Layout, enc: &[Vec<Piece>], holds: &Holds) -> Vec<Vec<Vec<OpRef>>> {
        let encoders: Vec<usize> = match self.opts.encode {
            Encode::One => vec![lay.q],
            Encode::All => (0..lay.m).collect(),
        };
        let mut out = vec![Vec::new(); lay.ng()];
        for (g, per_group) in out.iter_mut().enumerate() {
            for &e in &encoders {
                let ops = (0..lay.m - 1)
                    .map(|j| {
                        let mut deps = lay.held(holds, g, e, j);
                        deps.extend(lay.held(holds, g, e, j + 1));
                        let inputs = [lay.blocks[g][j].clone(), lay.blocks[g][j + 1].clone()];
                        debug_assert_eq!(Piece::xor(xor_ids(&inputs)).as_ref(), Some(&enc[g][j]));
                        self.b.xor(lay.group_ranks[g][e], &inputs, &deps)
                    })
                    .collect();
                per_group.push(ops);
            }
        }
        out
    }

    /// (d, every node encodes) each node sends the chain to its corresponding nodes.
    fn send_encoded_to_corresponding(
        &mut self,
        lay: &Layout,
        enc: &[Vec<Piece>],
        enc_ops: &[Vec<Vec<OpRef>>],
        step: u32,
        what: &mut PerNode,
    ) {
        for (g, d) in lay.pairs() {
            for y in 0..lay.m {
                let (from, to) = (lay.group_ranks[g][y], lay.group_ranks[d][y]);
                let r = self.unicast(from, to, &enc[g], &enc_ops[g][y], step);
                what[d][g][y].push(r);
            }
        }
    }

    /// (d) inter-group multicast of the encoded pieces between intermediates.
    fn exchange_encoded(
        &mut self,
        lay: &Layout,
        enc: &[Vec<Piece>],
        enc_ops: &[Vec<Vec<OpRef>>],
        step: u32,
    ) -> Vec<Holds> {
        (0..lay.ng())
            .map(|g| self.multicast(&lay.grid, &lay.grid_ranks, g, &enc[g], &enc_ops[g][0], step))
            .collect()
    }

    /// (f, receiver=intermediate) each intermediate's own block to the other intermediates;
    /// `direct[d][g]` is the receive at the intermediate of d.
    fn raw_to_intermediates(&mut self, lay: &Layout, step: u32) -> Vec<Vec<Option<OpRef>>> {
        let mut direct = vec![vec![None; lay.ng()]; lay.ng()];
        for (g, d) in lay.pairs() {
            let data = [lay.blocks[g][lay.q].clone()];
            let (from, to) = (lay.grid_ranks[g], lay.grid_ranks[d]);
            direct[d][g] = Some(self.unicast(from, to, &data, &[], step));
        }
        direct
    }

    /// (e) each intermediate delivers every other group's encoded pieces inside its group,
    /// with that group's raw block when it received one in (f).
    #[allow(clippy::too_many_arguments)]
    fn deliver_encoded(
        &mut self,
        lay: &Layout,
        enc: &[Vec<Piece>],
        got: &[Holds],
        direct: &[Vec<Option<OpRef>>],
        step: u32,
        what: &mut PerNode,
        raw: &mut PerNode,
    ) {
        for (g, d) in lay.pairs() {
            let mut payload = enc[g].clone();
            let mut root_deps = vec![got[g][d].expect("every intermediate receives")];
            if let Some(op) = direct[d][g] {
                payload.push(lay.blocks[g][lay.q].clone());
                root_deps.push(op);
            }
            let (group, ranks) = (&lay.groups[d], &lay.group_ranks[d]);
            let have = self.deliver(group, ranks, lay.q, &payload, &root_deps, step);
            for (y, h) in have.into_iter().enumerate() {
                let ops = h.map_or(root_deps.clone(), |mut ops| {
                    ops.sort_unstable();
                    ops.dedup();
                    ops
                });
                if direct[d][g].is_some() {
                    raw[d][g][y] = ops.clone();
                }
                what[d][g][y] = ops;
            }
        }
    }

    /// (f) inter-group unicasts: every node's block to its corresponding nodes.
    fn raw_to_corresponding(&mut self, lay: &Layout, step: u32, raw: &mut PerNode) {
        for (g, d) in lay.pairs() {
            for (y, got) in raw[d][g].iter_mut().enumerate() {
                let data = [lay.blocks[g][y].clone()];
                let (from, to) = (lay.group_ranks[g][y], lay.group_ranks[d][y]);
                got.push(self.unicast(from, to, &data, &[], step));
            }
        }
    }

    /// (g) decoding: the XOR chain plus one raw block gives the rest of the group.
    fn decode_all(
        &mut self,
        lay: &Layout,
        enc: &[Vec<Piece>],
        what: &PerNode,
        raw: &PerNode,
        holds: &mut Holds,
    ) {
        for (g, d) in lay.pairs() {
            for y in 0..lay.m {
                let known = match self.opts.receiver {
                    Receiver::Corresponding => y,
                    Receiver::Intermediate => lay.q,
                };
                let mut inputs = enc[g].clone();
                inputs.push(lay.blocks[g][known].clone());
                let output: Vec<Piece> = (0..lay.m)
                    .filter(|&x| x != known)
                    .map(|x| lay.blocks[g][x].clone())
                    .collect();
                let mut deps = what[d][g][y].clone();
                deps.extend(raw[d][g][y].iter().copied());
                let op = self
                    .b
                    .decode(lay.group_ranks[d][y], &inputs, &output, &deps);
                lay.set_group(holds, d, y, g, op);
            }
        }
    }
}

/// The chain d1^d2, d2^d3, ... of every group.
fn encoded(lay: &Layout) -> Vec<Vec<Piece>> {
    lay.blocks
        .iter()
        .map(|bs| {
            bs.windows(2)
                .map(|w| Piece::xor(xor_ids(w)).expect("two distinct blocks"))
                .collect()
        })
        .collect()
}

fn xor_ids(pieces: &[Piece]) -> crate::schedule::BitSet {
    pieces
        .iter()
        .map(|p| match p {
            Piece::Block(id) => *id,
            _ => unreachable!("HNC encodes original blocks"),
        })
        .collect()
}
