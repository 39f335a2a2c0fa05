//! Schedules: the base multicasts (tree, all-at-once), the baselines built from them, and
//! HNC steps (a)-(g) of seed 000 s3.
//!
//! Every all-to-all routine returns `holds`: for region nodes y and x, `holds[y * R + x]` is
//! the op at which y holds x's block (None for y's own block), so that a caller (recursive
//! HNC) can make later sends wait for exactly what they carry. Steps are assigned phase by
//! phase, as the closed forms count them.

use super::closed::Fig;
use super::grid::{Net, Region};
use super::plan::{Base, Encode, Level, Mode, Opts, Receiver};
use crate::schedule::{OpRef, Piece, ScheduleBuilder};

pub struct Builder<'a> {
    pub b: ScheduleBuilder,
    net: &'a Net,
    opts: Opts,
    edges: Vec<(usize, usize, u32)>,
}

type Holds = Vec<Option<OpRef>>;

impl<'a> Builder<'a> {
    pub fn new(b: ScheduleBuilder, net: &'a Net, opts: Opts) -> Self {
        Builder {
            b,
            net,
            opts,
            edges: Vec::new(),
        }
    }

    /// Rank of every node of a region, in region order.
    fn ranks(&self, region: &Region) -> Vec<u32> {
        (0..region.size())
            .map(|i| self.net.rank_at[self.net.node(&region.coords(&region.pos(i)))])
            .collect()
    }

    fn block(&mut self, rank: u32) -> Piece {
        self.b.block(rank, 0)
    }

    /// One send plus its receive, in step `step`.
    fn unicast(
        &mut self,
        from: u32,
        to: u32,
        payload: &[Piece],
        deps: &[OpRef],
        step: u32,
    ) -> OpRef {
        self.b.set_round(Some(step));
        let s = self.b.send(from, &[to], payload, deps);
        let r = self.b.recv(to, s, &[]);
        self.b.set_round(None);
        r
    }

    /// Multicast of `payload` from region node `root` (which holds it after `root_deps`) to
    /// the whole region by the base algorithm, from step `step0`. Returns, per node, the
    /// receive op (None at the root).
    fn multicast(
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

    /// HNC inside `region` at `level` from step `step0`; `phases` are its closed-form phase
    /// figures (for their step counts).
    pub fn hnc(
        &mut self,
        region: &Region,
        level: &Level,
        step0: u32,
        calc: &mut super::closed::Calc,
    ) -> Holds {
        let phases = calc.hnc_phases(region, level);
        let steps = |name: &str| -> u32 {
            phases
                .iter()
                .find(|(n, _)| *n == name)
                .map_or(0, |(_, f): &(&str, Fig)| f.steps)
        };
        let (groups, _) = region.groups(&level.shape);
        let grid = region.blocks(&level.shape, &level.place);
        let (ng, m, size) = (groups.len(), groups[0].size(), region.size());
        let group_ranks: Vec<Vec<u32>> = groups.iter().map(|g| self.ranks(g)).collect();
        let grid_ranks = self.ranks(&grid);
        let q = groups[0].index(&level.place);
        // Region index of member j of group g, to fill `holds`.
        let at: Vec<Vec<usize>> = groups
            .iter()
            .map(|g| {
                (0..m)
                    .map(|j| {
                        let c = g.coords(&g.pos(j));
                        let pos: Vec<usize> = c
                            .iter()
                            .zip(&region.origin)
                            .zip(&region.lines)
                            .map(|((&c, &o), l)| (c - o) / l.stride)
                            .collect();
                        region.index(&pos)
                    })
                    .collect()
            })
            .collect();
        let mut holds: Holds = vec![None; size * size];

        // (b) intra-group broadcast (or, recursively, HNC inside the group).
        for (g, group) in groups.iter().enumerate() {
            let inner = match &level.inner {
                Some(inner) => self.hnc(group, inner, step0, calc),
                None => self.a2a(group, step0),
            };
            for y in 0..m {
                for x in 0..m {
                    holds[at[g][y] * size + at[g][x]] = inner[y * m + x];
                }
            }
        }
        let mut step = step0 + steps("b");
        let held = |holds: &Holds, g: usize, y: usize, x: usize| -> Vec<OpRef> {
            holds[at[g][y] * size + at[g][x]].into_iter().collect()
        };
        let blocks: Vec<Vec<Piece>> = group_ranks
            .iter()
            .map(|rs| rs.iter().map(|&r| self.block(r)).collect())
            .collect();

        if self.opts.mode == Mode::Combine {
            // (d') intermediates multicast their group's blocks combined in one message.
            let mut got = vec![Vec::new(); ng];
            for g in 0..ng {
                let deps: Vec<OpRef> = (0..m).flat_map(|x| held(&holds, g, q, x)).collect();
                got[g] = self.multicast(&grid, &grid_ranks, g, &blocks[g], &deps, step);
            }
            step += steps("d");
            // (e') each intermediate delivers them inside its group.
            for d in 0..ng {
                for g in (0..ng).filter(|&g| g != d) {
                    let root_op = got[g][d].expect("received");
                    let have = self.multicast(
                        &groups[d],
                        &group_ranks[d],
                        q,
                        &blocks[g],
                        &[root_op],
                        step,
                    );
                    for y in 0..m {
                        let op = have[y].unwrap_or(root_op);
                        for x in 0..m {
                            holds[at[d][y] * size + at[g][x]] = Some(op);
                        }
                    }
                }
            }
            return holds;
        }

        // (c) encoding: d1^d2, d2^d3, ... at the intermediate (or at every node).
        let encoders: Vec<usize> = match self.opts.encode {
            Encode::One => vec![q],
            Encode::All => (0..m).collect(),
        };
        let enc: Vec<Vec<Piece>> = blocks
            .iter()
            .map(|bs| bs.windows(2).map(|w| xor2(&w[0], &w[1])).collect())
            .collect();
        // enc_ops[g][e]: the ops after which encoder e of group g holds all encoded pieces.
        let mut enc_ops: Vec<Vec<Vec<OpRef>>> = vec![Vec::new(); ng];
        for g in 0..ng {
            for &e in &encoders {
                let mut ops = Vec::with_capacity(m - 1);
                for j in 0..m - 1 {
                    let mut deps = held(&holds, g, e, j);
                    deps.extend(held(&holds, g, e, j + 1));
                    let inputs = [blocks[g][j].clone(), blocks[g][j + 1].clone()];
                    ops.push(self.b.xor(group_ranks[g][e], &inputs, &deps));
                }
                enc_ops[g].push(ops);
            }
        }

        // what[d][g][y]: ops after which node y of group d holds g's encoded pieces; and
        // raw[d][g][y]: after which it holds the one raw block of g it decodes with.
        let mut what = vec![vec![vec![Vec::<OpRef>::new(); m]; ng]; ng];
        let mut raw = vec![vec![vec![Vec::<OpRef>::new(); m]; ng]; ng];
        let raw_of = |g: usize, y: usize, recv: Receiver| -> usize {
            match recv {
                Receiver::Corresponding => group_ranks[g][y] as usize,
                Receiver::Intermediate => group_ranks[g][q] as usize,
            }
        };
        if self.opts.encode == Encode::All {
            // (d) every node sends the encoded pieces to its corresponding nodes; no (e).
            for g in 0..ng {
                for y in 0..m {
                    for d in (0..ng).filter(|&d| d != g) {
                        let (from, to) = (group_ranks[g][y], group_ranks[d][y]);
                        let r = self.unicast(from, to, &enc[g], &enc_ops[g][y], step);
                        what[d][g][y].push(r);
                    }
                }
            }
            step += steps("d");
        } else {
            // (d) inter-group multicast of the encoded pieces between intermediates.
            let mut got = vec![Vec::new(); ng];
            for g in 0..ng {
                got[g] = self.multicast(&grid, &grid_ranks, g, &enc[g], &enc_ops[g][0], step);
            }
            step += steps("d");
            // (f, receiver=intermediate) the intermediate's own block to the other intermediates.
            let mut direct = vec![vec![None; ng]; ng];
            if self.opts.receiver == Receiver::Intermediate {
                for g in 0..ng {
                    for d in (0..ng).filter(|&d| d != g) {
                        let data = [blocks[g][q].clone()];
                        direct[d][g] =
                            Some(self.unicast(grid_ranks[g], grid_ranks[d], &data, &[], step));
                    }
                }
                step += steps("f");
            }
            // (e) intra-group delivery of every other group's encoded pieces (with its raw block
            // when the intermediate received it).
            for d in 0..ng {
                for g in (0..ng).filter(|&g| g != d) {
                    let mut payload = enc[g].clone();
                    let mut root_deps = vec![got[g][d].expect("received")];
                    if let Some(op) = direct[d][g] {
                        payload.push(blocks[g][q].clone());
                        root_deps.push(op);
                    }
                    let have =
                        self.multicast(&groups[d], &group_ranks[d], q, &payload, &root_deps, step);
                    for y in 0..m {
                        let ops = have[y].map_or(root_deps.clone(), |op| vec![op]);
                        if direct[d][g].is_some() {
                            raw[d][g][y] = ops.clone();
                        }
                        what[d][g][y] = ops;
                    }
                }
            }
            step += steps("e");
        }
        if self.opts.receiver == Receiver::Corresponding {
            // (f) inter-group unicasts: every node's block to its corresponding nodes.
            for g in 0..ng {
                for y in 0..m {
                    for d in (0..ng).filter(|&d| d != g) {
                        let data = [blocks[g][y].clone()];
                        let r =
                            self.unicast(group_ranks[g][y], group_ranks[d][y], &data, &[], step);
                        raw[d][g][y].push(r);
                    }
                }
            }
        }

        // (g) decoding: the chain of XORs plus one raw block gives the whole group.
        let recv = self.opts.receiver;
        for d in 0..ng {
            for g in (0..ng).filter(|&g| g != d) {
                let keep = raw_of(g, 0, recv);
                for y in 0..m {
                    let known = match recv {
                        Receiver::Corresponding => raw_of(g, y, recv),
                        Receiver::Intermediate => keep,
                    } as u32;
                    let mut inputs = enc[g].clone();
                    inputs.push(self.block(known));
                    let output: Vec<Piece> = group_ranks[g]
                        .iter()
                        .filter(|&&r| r != known)
                        .map(|&r| self.b.block(r, 0))
                        .collect();
                    let mut deps = what[d][g][y].clone();
                    deps.extend(raw[d][g][y].iter().copied());
                    let op = self.b.decode(group_ranks[d][y], &inputs, &output, &deps);
                    for x in 0..m {
                        holds[at[d][y] * size + at[g][x]] = Some(op);
                    }
                }
            }
        }
        holds
    }
}

fn xor2(a: &Piece, b: &Piece) -> Piece {
    match (a, b) {
        (Piece::Block(x), Piece::Block(y)) => {
            Piece::xor([*x, *y].into_iter().collect()).expect("two distinct blocks")
        }
        _ => unreachable!("HNC encodes original blocks"),
    }
}
