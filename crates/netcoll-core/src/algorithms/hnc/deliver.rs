//! Step (e), the intermediate's delivery of another group's pieces inside its own group, in
//! three variants (`step_e=`), as schedule ops and as closed forms.
//!
//! - `tree` (the paper's, Fig. 4): the base multicast rooted at the intermediate, the pieces
//!   in one message. Under `base=tree` the intermediate injects every piece once per tree
//!   level of its group (log2 M times), which makes it the bottleneck of the whole exchange
//!   on a flit network: it sends (G-1)(M-1) log2 M packets where every other node sends a
//!   handful.
//! - `scatter-allgather`: the intermediate sends each of the other M-1 members its share of
//!   the pieces (piece i to the i-th member in snake order, modulo M-1), then those members
//!   circulate their shares on a ring in snake order (M-2 rounds). The intermediate injects
//!   every piece once.
//! - `pipelined`: every piece is its own message; the intermediate sends it to its snake
//!   neighbours, and each member forwards it to the next along the snake, so piece i reaches
//!   the member h places away in step i + h - 1. The intermediate injects every piece at most
//!   twice (once each way).
//!
//! The snake order is the reflected mixed-radix Gray order of the group's positions: members
//! next to each other in it are neighbours in the network, so ring and chain messages travel
//! one hop (two where they skip the intermediate, more on the ring's closing edge).

use super::build::Builder;
use super::closed::{Calc, Fig};
use super::grid::Region;
use super::plan::StepE;
use crate::schedule::{OpRef, Piece};

/// Region indices of `region`'s nodes in snake (reflected Gray) order.
pub fn snake(region: &Region) -> Vec<usize> {
    (0..region.size())
        .map(|t| {
            let mut below = 1usize;
            let pos: Vec<usize> = region
                .lines
                .iter()
                .map(|l| {
                    let raw = (t / below) % l.n;
                    below *= l.n;
                    if (t / below) % 2 == 1 {
                        l.n - 1 - raw
                    } else {
                        raw
                    }
                })
                .collect();
            region.index(&pos)
        })
        .collect()
}

/// DOR hops between region nodes `a` and `b`.
fn dist(region: &Region, a: usize, b: usize) -> u64 {
    let (pa, pb) = (region.pos(a), region.pos(b));
    region
        .lines
        .iter()
        .zip(pa.iter().zip(&pb))
        .map(|(l, (&x, &y))| l.dist(x, y))
        .sum()
}

/// The geometry of one delivery: the intermediate at region index `root`.
struct Order {
    /// The members other than the intermediate, in snake order (the ring, or the chains).
    others: Vec<usize>,
    /// Where the intermediate sits in the snake: members before it form the left chain
    /// (walked backwards), those after it the right chain.
    split: usize,
}

impl Order {
    fn of(region: &Region, root: usize) -> Order {
        let all = snake(region);
        let split = all
            .iter()
            .position(|&x| x == root)
            .expect("the root is a member");
        let others = all.into_iter().filter(|&x| x != root).collect();
        Order { others, split }
    }

    /// The two chains of the pipelined variant, each from the intermediate's neighbour out.
    fn chains(&self) -> [Vec<usize>; 2] {
        let (left, right) = self.others.split_at(self.split);
        [left.iter().rev().copied().collect(), right.to_vec()]
    }

    /// Pieces held by ring member j after the scatter: j, j + n, j + 2n, .. below `pieces`.
    fn share(&self, j: usize, pieces: usize) -> Vec<usize> {
        (j..pieces).step_by(self.others.len()).collect()
    }
}

/// One unicast of `per` packets over `hops` hops.
fn one(hops: u64, per: u64) -> Fig {
    Fig {
        messages: 1,
        hops,
        packets: per,
        packet_hops: hops * per,
        steps: 0,
    }
}

impl Calc {
    /// Step (e) for one (source group, destination group) pair: `pieces` pieces from the
    /// intermediate at `place` to every member of `group`.
    pub fn deliver(&mut self, group: &Region, place: &[usize], pieces: usize) -> Fig {
        let root = group.index(place);
        let step_e = self.opts.step_e;
        if step_e == StepE::Tree || group.size() < 2 {
            return self.mcast(group, place, self.opts.base, pieces);
        }
        let order = Order::of(group, root);
        let n = order.others.len();
        let mut fig = Fig::default();
        match step_e {
            StepE::Tree => unreachable!("handled above"),
            StepE::ScatterAllgather => {
                let per: Vec<u64> = (0..n)
                    .map(|j| self.pack.per(order.share(j, pieces).len()))
                    .collect();
                for (j, &y) in order.others.iter().enumerate() {
                    fig = fig.then(one(dist(group, root, y), per[j]));
                }
                // Round t: ring member j forwards member (j - t)'s share to j + 1; over the
                // n - 1 rounds it forwards every share but that of j + 1.
                let all: u64 = per.iter().sum();
                if n >= 2 {
                    for j in 0..n {
                        let next = (j + 1) % n;
                        let h = dist(group, order.others[j], order.others[next]);
                        let carried = all - per[next];
                        fig = fig.then(Fig {
                            messages: n as u64 - 1,
                            hops: h * (n as u64 - 1),
                            packets: carried,
                            packet_hops: h * carried,
                            steps: 0,
                        });
                    }
                }
                fig.steps = n.max(1) as u32;
            }
            StepE::Pipelined => {
                let per = self.pack.per(1);
                let mut longest = 0;
                for chain in order.chains() {
                    let mut at = root;
                    for &y in &chain {
                        fig = fig.then(one(dist(group, at, y), per).times_pieces(pieces));
                        at = y;
                    }
                    longest = longest.max(chain.len());
                }
                fig.steps = (pieces + longest - 1) as u32;
            }
        }
        fig
    }
}

impl Fig {
    /// `pieces` copies of a one-piece message (each piece travels separately).
    fn times_pieces(self, pieces: usize) -> Fig {
        let p = pieces as u64;
        Fig {
            messages: self.messages * p,
            hops: self.hops * p,
            packets: self.packets * p,
            packet_hops: self.packet_hops * p,
            steps: self.steps,
        }
    }
}

/// Per member (region index) the op after which it holds each piece; None at the root.
pub(super) type Delivered = Vec<Option<Vec<OpRef>>>;

/// Member `y` holds pieces `which` (of `c`) after `op`; a member's first delivery stands for
/// all its pieces until later ones say otherwise.
fn record(out: &mut Delivered, y: usize, which: &[usize], op: OpRef, c: usize) {
    let held = out[y].get_or_insert_with(|| vec![op; c]);
    for &i in which {
        held[i] = op;
    }
}

impl Builder<'_> {
    /// Step (e): `payload` from region node `root` (which holds it after `root_deps`) to every
    /// node of `region`, by the variant of `step_e`, from step `step0`.
    pub(super) fn deliver(
        &mut self,
        region: &Region,
        ranks: &[u32],
        root: usize,
        payload: &[Piece],
        root_deps: &[OpRef],
        step0: u32,
    ) -> Delivered {
        let c = payload.len();
        match self.opts.step_e {
            _ if region.size() < 2 => vec![None; region.size()],
            StepE::Tree => self
                .multicast(region, ranks, root, payload, root_deps, step0)
                .into_iter()
                .map(|h| h.map(|op| vec![op; c]))
                .collect(),
            StepE::ScatterAllgather => {
                self.scatter_allgather(region, ranks, root, payload, root_deps, step0)
            }
            StepE::Pipelined => self.pipelined(region, ranks, root, payload, root_deps, step0),
        }
    }

    fn scatter_allgather(
        &mut self,
        region: &Region,
        ranks: &[u32],
        root: usize,
        payload: &[Piece],
        root_deps: &[OpRef],
        step0: u32,
    ) -> Delivered {
        let order = Order::of(region, root);
        let (n, c) = (order.others.len(), payload.len());
        let mut out: Delivered = vec![None; region.size()];
        let shares: Vec<Vec<usize>> = (0..n).map(|j| order.share(j, c)).collect();
        let pick = |s: &[usize]| -> Vec<Piece> { s.iter().map(|&i| payload[i].clone()).collect() };
        // last[j]: the op after which ring member j holds the share it forwards next.
        let mut last = Vec::with_capacity(n);
        for (j, &y) in order.others.iter().enumerate() {
            let op = self.unicast(ranks[root], ranks[y], &pick(&shares[j]), root_deps, step0);
            record(&mut out, y, &shares[j], op, c);
            last.push(op);
        }
        for t in 0..n.saturating_sub(1) {
            let mut next_last = last.clone();
            for (j, &after) in last.iter().enumerate() {
                let (to_j, owner) = ((j + 1) % n, (j + n - t) % n);
                let (from, to) = (order.others[j], order.others[to_j]);
                let op = self.unicast(
                    ranks[from],
                    ranks[to],
                    &pick(&shares[owner]),
                    &[after],
                    step0 + 1 + t as u32,
                );
                record(&mut out, to, &shares[owner], op, c);
                next_last[to_j] = op;
            }
            last = next_last;
        }
        out
    }

    fn pipelined(
        &mut self,
        region: &Region,
        ranks: &[u32],
        root: usize,
        payload: &[Piece],
        root_deps: &[OpRef],
        step0: u32,
    ) -> Delivered {
        let order = Order::of(region, root);
        let c = payload.len();
        let mut out: Delivered = vec![None; region.size()];
        for chain in order.chains() {
            for (i, piece) in payload.iter().enumerate() {
                let (mut at, mut deps) = (root, root_deps.to_vec());
                for (h, &y) in chain.iter().enumerate() {
                    let step = step0 + (i + h) as u32;
                    let op = self.unicast(
                        ranks[at],
                        ranks[y],
                        std::slice::from_ref(piece),
                        &deps,
                        step,
                    );
                    record(&mut out, y, &[i], op, c);
                    (at, deps) = (y, vec![op]);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::hnc::grid::Line;

    fn region(dims: &[usize]) -> Region {
        Region {
            origin: vec![0; dims.len()],
            lines: dims.iter().map(|&k| Line::new(k, 1, k, false)).collect(),
        }
    }

    #[test]
    fn snake_order_visits_every_node_once_by_single_hops() {
        for dims in [vec![4], vec![8, 4], vec![3, 2, 3], vec![2, 2, 2, 2]] {
            let r = region(&dims);
            let s = snake(&r);
            let mut seen = s.clone();
            seen.sort_unstable();
            assert_eq!(seen, (0..r.size()).collect::<Vec<_>>());
            assert!(s.windows(2).all(|w| dist(&r, w[0], w[1]) == 1), "{dims:?}");
        }
    }
}
