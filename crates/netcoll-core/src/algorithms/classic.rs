//! The standard MPI algorithms (as in MPICH and Open MPI), for any number of ranks and any
//! root. User guide: docs/algorithms.md.
//!
//! Rooted algorithms work in *relative* ranks `v = (r - root) mod p` and map back with
//! [`Rel::act`]. Non-powers of two are handled the standard way: the tree algorithms halve
//! rank ranges (the holder keeps the larger half, so the depth is `ceil(log2 p)`); the
//! recursive doubling/halving algorithms fold the `p - p'` extra ranks (`p'` the largest
//! power of two not above `p`) onto ranks `0..p-p'` in a first step and unfold them in a last
//! step (Thakur, Rabenseifner and Gropp 2005).

use super::classic_tree::{add, halving_tree, pow2_floor, rounds, sub, Rel, TreeEdge};
use super::prog::{Done, Out, Partials, Prog, Transfer};
use super::{AlgoRequest, Algorithm};
use crate::error::Result;
use crate::schedule::{CollectiveKind, RoundSink, Schedule};
use CollectiveKind::*;

pub fn algorithms() -> Vec<Algorithm> {
    vec![
        entry(
            "linear",
            &[Broadcast, Scatter, Gather, Reduce],
            "MPI (flat tree)",
            "flat tree: the root sends to (or receives from) every other rank in turn, one per step",
            |r| Done::schedule(linear(r, Out::Build)),
        ),
        entry(
            "binomial",
            &[Broadcast, Scatter, Gather, Reduce],
            "MPICH binomial tree (farthest half first)",
            "binomial tree: the root sends to the rank ceil(p/2) away, then both halves recurse; \
             gather and reduce run the same tree backwards; ceil(log2 p) steps",
            |r| Done::schedule(binomial(r, Out::Build)),
        ),
        entry(
            "scatter-allgather",
            &[Broadcast],
            "van de Geijn (Barnett et al. 1994); MPICH long-message bcast",
            "binomial scatter of p blocks, then a ring allgather: about 2 n beta for long messages",
            |r| Done::schedule(scatter_allgather(r, Out::Build)),
        ),
        entry(
            "ring",
            &[Allgather, AlltoallBroadcast, ReduceScatter, Allreduce],
            "MPICH ring; Patarasuk and Yuan 2009 (allreduce)",
            "ring: p-1 steps each passing one block to the right neighbour \
             (allreduce: ring reduce-scatter then ring allgather, 2(p-1) steps)",
            |r| Done::schedule(ring(r, Out::Build)),
        ),
        entry(
            "recursive-doubling",
            &[Allgather, AlltoallBroadcast, Allreduce],
            "Thakur, Rabenseifner, Gropp 2005",
            "partners at distance 1, 2, 4, ... exchange everything they hold; extra ranks of a \
             non-power-of-two fold in first and are served last",
            |r| Done::schedule(recursive_doubling(r, Out::Build)),
        ),
        entry(
            "bruck",
            &[Allgather, AlltoallBroadcast],
            "Bruck et al. 1997",
            "step k: send the first min(2^k, p-2^k) blocks held to rank r-2^k; ceil(log2 p) steps for any p",
            |r| Done::schedule(bruck(r, Out::Build)),
        ),
        entry(
            "all-at-once",
            // alltoall_broadcast's all-at-once is the seed-000 one in hnc.rs (with a closed form).
            &[Allgather],
            "MPI (direct exchange)",
            "every rank sends its block directly to every other rank, to r+i in step i-1",
            |r| Done::schedule(all_at_once(r, Out::Build)),
        ),
        entry(
            "recursive-halving",
            &[ReduceScatter],
            "Thakur, Rabenseifner, Gropp 2005",
            "partners at distance p'/2, p'/4, ... exchange the half of the vector the other keeps \
             and reduce; extra ranks of a non-power-of-two fold in first",
            |r| Done::schedule(recursive_halving(r, Out::Build)),
        ),
        entry(
            "rabenseifner",
            &[Allreduce],
            "Rabenseifner 2004; Thakur, Rabenseifner, Gropp 2005",
            "reduce-scatter by recursive halving, then allgather by recursive doubling: \
             about 2 n beta + n gamma for long vectors",
            |r| Done::schedule(rabenseifner(r, Out::Build)),
        ),
    ]
}

fn entry(
    name: &'static str,
    kinds: &'static [CollectiveKind],
    source: &'static str,
    summary: &'static str,
    build: fn(&AlgoRequest) -> Result<Schedule>,
) -> Algorithm {
    Algorithm {
        name,
        kinds,
        family: "classic",
        params: &[],
        preconditions: "none: any number of ranks, any root",
        source,
        summary,
        build,
        closed_form: None,
    }
}

/// Writes classic algorithm `name` for `req` to `sink` (a round program: every classic
/// algorithm is one); `None` if there is no classic algorithm of that name.
pub(crate) fn stream(
    name: &str,
    req: &AlgoRequest,
    sink: &mut dyn RoundSink,
) -> Option<Result<()>> {
    type Writer = fn(&AlgoRequest, Out<'_>) -> Result<Done>;
    let write: Writer = match name {
        "linear" => linear,
        "binomial" => binomial,
        "scatter-allgather" => scatter_allgather,
        "ring" => ring,
        "recursive-doubling" => recursive_doubling,
        "bruck" => bruck,
        "all-at-once" => all_at_once,
        "recursive-halving" => recursive_halving,
        "rabenseifner" => rabenseifner,
        _ => return None,
    };
    Some(write(req, Out::Stream(sink)).map(|_| ()))
}

// ------------------------------------------------------------------ rooted: trees

fn linear(req: &AlgoRequest, out: Out<'_>) -> Result<Done> {
    let rel = Rel::of(req);
    let p = req.p;
    match req.kind {
        Broadcast => {
            let mut g = Prog::new(req, 1, out);
            let data = g.block(req.root, 0);
            for v in 1..p {
                g.round(
                    v - 1,
                    &[Transfer::new(req.root, rel.act(v), vec![data.clone()])],
                );
            }
            g.finish()
        }
        Scatter => {
            let mut g = Prog::new(req, p, out);
            for v in 1..p {
                let to = rel.act(v);
                let chunk = g.block(req.root, to);
                g.round(v - 1, &[Transfer::new(req.root, to, vec![chunk])]);
            }
            g.finish()
        }
        Gather => {
            let mut g = Prog::new(req, 1, out);
            for v in 1..p {
                let from = rel.act(v);
                let own = g.block(from, 0);
                g.round(v - 1, &[Transfer::new(from, req.root, vec![own])]);
            }
            g.finish()
        }
        _ => {
            let mut g = Prog::new(req, 1, out);
            let mut part = Partials::new(p, 1);
            for v in 1..p {
                let from = rel.act(v);
                let own = part.pieces(from, [0]);
                g.round(v - 1, &[Transfer::new(from, req.root, own.clone())]);
                part.absorb(&mut g, req.root, &own);
            }
            g.finish()
        }
    }
}

fn binomial(req: &AlgoRequest, out: Out<'_>) -> Result<Done> {
    let rel = Rel::of(req);
    let tree = halving_tree(req.p);
    match req.kind {
        Broadcast => {
            let mut g = Prog::new(req, 1, out);
            let data = g.block(req.root, 0);
            for (k, edges) in rounds(&tree, false).iter().enumerate() {
                let t: Vec<Transfer> = edges
                    .iter()
                    .map(|e| Transfer::new(rel.act(e.parent), rel.act(e.child), vec![data.clone()]))
                    .collect();
                g.round(k as u32, &t);
            }
            g.finish()
        }
        Scatter => {
            let mut g = Prog::new(req, req.p, out);
            binomial_scatter(&mut g, rel, &tree, 0, |v| rel.act(v));
            g.finish()
        }
        Gather => {
            let mut g = Prog::new(req, 1, out);
            for (k, edges) in rounds(&tree, true).iter().enumerate() {
                let t: Vec<Transfer> = edges
                    .iter()
                    .map(|e| {
                        let pieces = (e.child..e.end).map(|v| g.block(rel.act(v), 0)).collect();
                        Transfer::new(rel.act(e.child), rel.act(e.parent), pieces)
                    })
                    .collect();
                g.round(k as u32, &t);
            }
            g.finish()
        }
        _ => {
            let mut g = Prog::new(req, 1, out);
            let mut part = Partials::new(req.p, 1);
            for (k, edges) in rounds(&tree, true).iter().enumerate() {
                let t: Vec<Transfer> = edges
                    .iter()
                    .map(|e| {
                        let from = rel.act(e.child);
                        Transfer::new(from, rel.act(e.parent), part.pieces(from, [0]))
                    })
                    .collect();
                g.round(k as u32, &t);
                for tr in &t {
                    part.absorb(&mut g, tr.to, &tr.payload);
                }
            }
            g.finish()
        }
    }
}

/// Binomial scatter of the root's blocks from step `first`: relative rank `v` ends with the
/// block `idx(v)`; returns the number of rounds used.
fn binomial_scatter(
    g: &mut Prog<'_>,
    rel: Rel,
    tree: &[TreeEdge],
    first: u32,
    idx: impl Fn(u32) -> u32,
) -> u32 {
    let by = rounds(tree, false);
    for (k, edges) in by.iter().enumerate() {
        let t: Vec<Transfer> = edges
            .iter()
            .map(|e| {
                let pieces = (e.child..e.end)
                    .map(|v| g.block(rel.root, idx(v)))
                    .collect();
                Transfer::new(rel.act(e.parent), rel.act(e.child), pieces)
            })
            .collect();
        g.round(first + k as u32, &t);
    }
    by.len() as u32
}

/// Van de Geijn's long-message broadcast: the message is cut into p blocks, relative rank
/// `v` gets block `v` by a binomial scatter, and a ring allgather completes everybody.
fn scatter_allgather(req: &AlgoRequest, out: Out<'_>) -> Result<Done> {
    let (p, rel) = (req.p, Rel::of(req));
    let mut g = Prog::new(req, p, out);
    let first = binomial_scatter(&mut g, rel, &halving_tree(p), 0, |v| v);
    for k in 0..p.saturating_sub(1) {
        let t: Vec<Transfer> = (0..p)
            .map(|v| {
                let piece = g.block(req.root, sub(v, k, p));
                Transfer::new(rel.act(v), rel.act(add(v, 1, p)), vec![piece])
            })
            .collect();
        g.round(first + k, &t);
    }
    g.finish()
}

// ------------------------------------------------------------------ unrooted

fn ring(req: &AlgoRequest, out: Out<'_>) -> Result<Done> {
    match req.kind {
        ReduceScatter => {
            let mut g = Prog::new(req, req.p, out);
            let mut part = Partials::new(req.p, req.p);
            ring_reduce_scatter(&mut g, &mut part, req.p);
            g.finish()
        }
        Allreduce => {
            let p = req.p;
            let mut g = Prog::new(req, p, out);
            let mut part = Partials::new(p, p);
            let first = ring_reduce_scatter(&mut g, &mut part, p);
            for k in 0..p.saturating_sub(1) {
                let t: Vec<Transfer> = (0..p)
                    .map(|r| Transfer::new(r, add(r, 1, p), part.pieces(r, [sub(r, k, p)])))
                    .collect();
                g.round(first + k, &t);
                for tr in &t {
                    part.take(tr.to, &tr.payload);
                }
            }
            g.finish()
        }
        _ => {
            let p = req.p;
            let mut g = Prog::new(req, 1, out);
            for k in 0..p.saturating_sub(1) {
                let t: Vec<Transfer> = (0..p)
                    .map(|r| Transfer::new(r, add(r, 1, p), vec![g.block(sub(r, k, p), 0)]))
                    .collect();
                g.round(k, &t);
            }
            g.finish()
        }
    }
}

/// Ring reduce-scatter over p indices: in step k rank r passes its partial of index
/// r-k-1 to r+1, which adds its own; after p-1 steps rank r holds index r reduced over all.
fn ring_reduce_scatter(g: &mut Prog<'_>, part: &mut Partials, p: u32) -> u32 {
    for k in 0..p.saturating_sub(1) {
        let t: Vec<Transfer> = (0..p)
            .map(|r| Transfer::new(r, add(r, 1, p), part.pieces(r, [sub(r, k + 1, p)])))
            .collect();
        g.round(k, &t);
        for tr in &t {
            part.absorb(g, tr.to, &tr.payload);
        }
    }
    p.saturating_sub(1)
}

fn bruck(req: &AlgoRequest, out: Out<'_>) -> Result<Done> {
    let p = req.p;
    let mut g = Prog::new(req, 1, out);
    let (mut held, mut step) = (1u32, 0u32);
    while held < p {
        let count = held.min(p - held);
        let t: Vec<Transfer> = (0..p)
            .map(|r| {
                let pieces = (0..count).map(|i| g.block(add(r, i, p), 0)).collect();
                Transfer::new(r, sub(r, held, p), pieces)
            })
            .collect();
        g.round(step, &t);
        held += count;
        step += 1;
    }
    g.finish()
}

fn all_at_once(req: &AlgoRequest, out: Out<'_>) -> Result<Done> {
    let p = req.p;
    let mut g = Prog::new(req, 1, out);
    for i in 1..p {
        let t: Vec<Transfer> = (0..p)
            .map(|r| Transfer::new(r, add(r, i, p), vec![g.block(r, 0)]))
            .collect();
        g.round(i - 1, &t);
    }
    g.finish()
}

/// The fold of a non-power-of-two: ranks `p'..p` are the extras, extra `p'+i` pairs with
/// rank `i`.
struct Fold {
    p2: u32,
    rem: u32,
}

impl Fold {
    fn new(p: u32) -> Self {
        let p2 = pow2_floor(p);
        Fold { p2, rem: p - p2 }
    }
    fn extras(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        (0..self.rem).map(|i| (self.p2 + i, i))
    }
}

fn recursive_doubling(req: &AlgoRequest, out: Out<'_>) -> Result<Done> {
    let p = req.p;
    let f = Fold::new(p);
    let mut step = 0;
    if req.kind == Allreduce {
        let mut g = Prog::new(req, 1, out);
        let mut part = Partials::new(p, 1);
        step = fold_in(&mut g, &mut part, &f, &[0]);
        let mut d = 1;
        while d < f.p2 {
            let t: Vec<Transfer> = (0..f.p2)
                .map(|r| Transfer::new(r, r ^ d, part.pieces(r, [0])))
                .collect();
            g.round(step, &t);
            for tr in &t {
                part.absorb(&mut g, tr.to, &tr.payload);
            }
            d <<= 1;
            step += 1;
        }
        fold_out(&mut g, &mut part, &f, &[0], step);
        return g.finish();
    }
    let mut g = Prog::new(req, 1, out);
    let mut held: Vec<Vec<u32>> = (0..p).map(|r| vec![r]).collect();
    if f.rem > 0 {
        let t: Vec<Transfer> = f
            .extras()
            .map(|(x, i)| Transfer::new(x, i, vec![g.block(x, 0)]))
            .collect();
        g.round(0, &t);
        f.extras().for_each(|(x, i)| held[i as usize].push(x));
        step = 1;
    }
    let mut d = 1;
    while d < f.p2 {
        let t: Vec<Transfer> = (0..f.p2)
            .map(|r| {
                let pieces = held[r as usize].iter().map(|&o| g.block(o, 0)).collect();
                Transfer::new(r, r ^ d, pieces)
            })
            .collect();
        g.round(step, &t);
        let snapshot = held.clone();
        for r in 0..f.p2 {
            held[r as usize].extend_from_slice(&snapshot[(r ^ d) as usize]);
        }
        d <<= 1;
        step += 1;
    }
    if f.rem > 0 {
        let t: Vec<Transfer> = f
            .extras()
            .map(|(x, i)| {
                let pieces = (0..p).filter(|&o| o != x).map(|o| g.block(o, 0)).collect();
                Transfer::new(i, x, pieces)
            })
            .collect();
        g.round(step, &t);
    }
    g.finish()
}

/// First step of a fold: every extra sends its contributions to `indices` to its partner,
/// which reduces them. Returns the next step.
fn fold_in(g: &mut Prog<'_>, part: &mut Partials, f: &Fold, indices: &[u32]) -> u32 {
    if f.rem == 0 {
        return 0;
    }
    let t: Vec<Transfer> = f
        .extras()
        .map(|(x, i)| Transfer::new(x, i, part.pieces(x, indices.iter().copied())))
        .collect();
    g.round(0, &t);
    for tr in &t {
        part.absorb(g, tr.to, &tr.payload);
    }
    1
}

/// Last step of a fold: every partner sends the finished `indices` to its extra.
fn fold_out(g: &mut Prog<'_>, part: &mut Partials, f: &Fold, indices: &[u32], step: u32) {
    if f.rem == 0 {
        return;
    }
    let t: Vec<Transfer> = f
        .extras()
        .map(|(x, i)| Transfer::new(i, x, part.pieces(i, indices.iter().copied())))
        .collect();
    g.round(step, &t);
    for tr in &t {
        part.take(tr.to, &tr.payload);
    }
}

/// Recursive halving among ranks `0..p2` over index groups: `groups[i]` are the indices
/// participant `i` must end with, fully reduced. Returns the next step.
fn halving(
    g: &mut Prog<'_>,
    part: &mut Partials,
    p2: u32,
    groups: &[Vec<u32>],
    mut step: u32,
) -> u32 {
    let mut d = p2 / 2;
    while d >= 1 {
        let t: Vec<Transfer> = (0..p2)
            .map(|r| {
                let base = r & !(2 * d - 1);
                // The partner keeps the half that contains it; send it that half.
                let give = if r & d == 0 { base + d } else { base };
                let idx = (give..give + d).flat_map(|i| groups[i as usize].iter().copied());
                Transfer::new(r, r ^ d, part.pieces(r, idx))
            })
            .collect();
        g.round(step, &t);
        for tr in &t {
            part.absorb(g, tr.to, &tr.payload);
        }
        d /= 2;
        step += 1;
    }
    step
}

fn recursive_halving(req: &AlgoRequest, out: Out<'_>) -> Result<Done> {
    let p = req.p;
    let f = Fold::new(p);
    let mut g = Prog::new(req, p, out);
    let mut part = Partials::new(p, p);
    let all: Vec<u32> = (0..p).collect();
    let step = fold_in(&mut g, &mut part, &f, &all);
    let groups: Vec<Vec<u32>> = (0..f.p2)
        .map(|i| {
            let mut v = vec![i];
            if i < f.rem {
                v.push(f.p2 + i);
            }
            v
        })
        .collect();
    let step = halving(&mut g, &mut part, f.p2, &groups, step);
    if f.rem > 0 {
        let t: Vec<Transfer> = f
            .extras()
            .map(|(x, i)| Transfer::new(i, x, part.pieces(i, [x])))
            .collect();
        g.round(step, &t);
    }
    g.finish()
}

/// Rabenseifner's allreduce on p' = 2^k participants over p' indices: reduce-scatter by
/// recursive halving (participant i ends with index i), allgather by recursive doubling;
/// extras fold in before and get the result after.
fn rabenseifner(req: &AlgoRequest, out: Out<'_>) -> Result<Done> {
    let p = req.p;
    let f = Fold::new(p);
    let mut g = Prog::new(req, f.p2, out);
    let mut part = Partials::new(p, f.p2);
    let all: Vec<u32> = (0..f.p2).collect();
    let step = fold_in(&mut g, &mut part, &f, &all);
    let groups: Vec<Vec<u32>> = (0..f.p2).map(|i| vec![i]).collect();
    let mut step = halving(&mut g, &mut part, f.p2, &groups, step);
    let mut d = 1;
    while d < f.p2 {
        let t: Vec<Transfer> = (0..f.p2)
            .map(|r| {
                let base = r & !(d - 1);
                Transfer::new(r, r ^ d, part.pieces(r, base..base + d))
            })
            .collect();
        g.round(step, &t);
        for tr in &t {
            part.take(tr.to, &tr.payload);
        }
        d <<= 1;
        step += 1;
    }
    fold_out(&mut g, &mut part, &f, &all, step);
    g.finish()
}
