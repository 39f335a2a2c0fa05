//! The schedule of many-to-all HNC (seed 000 s6.3): steps (b) to (g) as `many.rs`
//! describes them, op by op, with the steps of the count's phases (`Builder::many_to_all`).

use super::build::{Builder, Holds};
use super::closed::Fig;
use super::many_layout::{Layout, Setup};
use super::plan::Receiver;
use crate::schedule::{OpRef, Piece, RangeSet};

/// Ops after which a node holds something (empty: from the start).
type Ops = Vec<OpRef>;

/// Per (destination group d, source group g, member y): ops.
type PerNode = Vec<Vec<Vec<Ops>>>;

impl Builder<'_> {
    pub(super) fn many_to_all(&mut self, setup: &Setup, lay: &Layout, phases: &[(&str, Fig)]) {
        let steps = |name: &str| -> u32 {
            let fig = phases.iter().find(|(n, _)| *n == name);
            fig.map_or(0, |(_, f)| f.steps)
        };
        let ranks: Vec<Vec<u32>> = lay.groups.iter().map(|g| self.ranks(g)).collect();
        let blocks: Vec<Vec<Option<Piece>>> = (0..lay.ng())
            .map(|g| {
                let mut v = vec![None; lay.m];
                for &x in &lay.srcs[g] {
                    v[x] = Some(self.block(ranks[g][x]));
                }
                v
            })
            .collect();
        let held = self.intra(lay, &ranks, &blocks);
        if lay.ng() == 1 {
            return;
        }
        let mut step = steps("b");
        let chains: Vec<Vec<Piece>> = (0..lay.ng()).map(|g| chain(lay, &blocks, g)).collect();
        let enc_ops = self.encode_chains(lay, &ranks, &blocks, &held);
        let grid_ranks = self.ranks(&lay.grid);
        let got: Vec<Option<Holds>> = (0..lay.ng())
            .map(|g| {
                (lay.chain_len(g) > 0).then(|| {
                    self.multicast(&lay.grid, &grid_ranks, g, &chains[g], &enc_ops[g], step)
                })
            })
            .collect();
        step += steps("d");
        let ng = lay.ng();
        let mut direct: Vec<Vec<Option<OpRef>>> = vec![vec![None; ng]; ng];
        if self.opts.receiver == Receiver::Intermediate {
            for (g, d) in lay.pairs().filter(|&(g, _)| !lay.srcs[g].is_empty()) {
                let x0 = lay.srcs[g][0];
                let data = [blocks[g][x0].clone().expect("a source")];
                let deps: Ops = held[g][x0][lay.q].into_iter().collect();
                let to = grid_ranks[d];
                direct[d][g] = Some(self.unicast(grid_ranks[g], to, &data, &deps, step));
            }
            step += steps("f");
        }
        let mut what: PerNode = vec![vec![vec![Vec::new(); lay.m]; ng]; ng];
        let mut raw: PerNode = what.clone();
        for (g, d) in lay.pairs() {
            let mut payload = chains[g].clone();
            let mut deps: Ops = got[g].as_ref().and_then(|h| h[d]).into_iter().collect();
            if let Some(op) = direct[d][g] {
                payload.push(blocks[g][lay.srcs[g][0]].clone().expect("a source"));
                deps.push(op);
            }
            if payload.is_empty() {
                continue;
            }
            let have = self.multicast(&lay.groups[d], &ranks[d], lay.q, &payload, &deps, step);
            for (y, h) in have.into_iter().enumerate() {
                let ops = h.map_or(deps.clone(), |op| vec![op]);
                if direct[d][g].is_some() {
                    raw[d][g][y] = ops.clone();
                }
                what[d][g][y] = ops;
            }
        }
        step += steps("e");
        let mut known = vec![vec![vec![0usize; lay.m]; ng]; ng];
        for (g, d) in lay.pairs().filter(|&(g, _)| !lay.srcs[g].is_empty()) {
            for y in 0..lay.m {
                known[d][g][y] = match self.opts.receiver {
                    Receiver::Intermediate => lay.srcs[g][0],
                    Receiver::Corresponding => {
                        let x = lay.raw_source(setup, g, d, y);
                        let data = [blocks[g][x].clone().expect("a source")];
                        let r = self.unicast(ranks[g][x], ranks[d][y], &data, &[], step);
                        raw[d][g][y].push(r);
                        x
                    }
                };
            }
        }
        self.decode_chains(lay, &ranks, &blocks, &chains, &what, &raw, &known);
    }

    /// (b) every source multicasts inside its group: `held[g][x][y]` is the op at which
    /// member y of group g holds source member x's block.
    fn intra(
        &mut self,
        lay: &Layout,
        ranks: &[Vec<u32>],
        blocks: &[Vec<Option<Piece>>],
    ) -> Vec<Vec<Holds>> {
        (0..lay.ng())
            .map(|g| {
                let mut per = vec![Vec::new(); lay.m];
                for &x in &lay.srcs[g] {
                    let data = [blocks[g][x].clone().expect("a source")];
                    per[x] = self.multicast(&lay.groups[g], &ranks[g], x, &data, &[], 0);
                }
                per
            })
            .collect()
    }

    /// (c) the intermediate of every group with two or more sources XORs neighbours of the
    /// source list.
    fn encode_chains(
        &mut self,
        lay: &Layout,
        ranks: &[Vec<u32>],
        blocks: &[Vec<Option<Piece>>],
        held: &[Vec<Holds>],
    ) -> Vec<Ops> {
        (0..lay.ng())
            .map(|g| {
                let srcs = &lay.srcs[g];
                (0..lay.chain_len(g))
                    .map(|i| {
                        let (a, c) = (srcs[i], srcs[i + 1]);
                        let deps: Ops = [held[g][a][lay.q], held[g][c][lay.q]]
                            .into_iter()
                            .flatten()
                            .collect();
                        let inputs =
                            [blocks[g][a].clone(), blocks[g][c].clone()].map(Option::unwrap);
                        self.b.xor(ranks[g][lay.q], &inputs, &deps)
                    })
                    .collect()
            })
            .collect()
    }

    /// (g) every node decodes every other group with a chain from it and its raw block.
    #[allow(clippy::too_many_arguments)]
    fn decode_chains(
        &mut self,
        lay: &Layout,
        ranks: &[Vec<u32>],
        blocks: &[Vec<Option<Piece>>],
        chains: &[Vec<Piece>],
        what: &PerNode,
        raw: &PerNode,
        known: &[Vec<Vec<usize>>],
    ) {
        for (g, d) in lay.pairs().filter(|&(g, _)| lay.chain_len(g) > 0) {
            for y in 0..lay.m {
                let k = known[d][g][y];
                let mut inputs = chains[g].clone();
                inputs.push(blocks[g][k].clone().expect("a source"));
                let output: Vec<Piece> = (lay.srcs[g].iter())
                    .filter(|&&x| x != k)
                    .map(|&x| blocks[g][x].clone().expect("a source"))
                    .collect();
                let mut deps = what[d][g][y].clone();
                deps.extend(raw[d][g][y].iter().copied());
                self.b.decode(ranks[d][y], &inputs, &output, &deps);
            }
        }
    }
}

/// The XOR chain of group g's sources: x_0^x_1, x_1^x_2, ...
fn chain(lay: &Layout, blocks: &[Vec<Option<Piece>>], g: usize) -> Vec<Piece> {
    let id = |x: usize| match blocks[g][x] {
        Some(Piece::Block(id)) => id,
        _ => unreachable!("sources own original blocks"),
    };
    lay.srcs[g]
        .windows(2)
        .map(|w| Piece::xor(RangeSet::from_iter([id(w[0]), id(w[1])])).expect("two blocks"))
        .collect()
}
