//! The classic algorithms' rounds without their schedules (per-step aggregates): the same
//! senders, receivers and block counts as the builders of classic.rs, round by round, with a
//! ring step written once and repeated. The analytic engine reads them lazily
//! (`engines::aggregate`): a 65,536-rank ring allreduce is analysed from two rounds.
//! `tests` hold every plan to the figures of the built schedule.

use super::classic_tree::{halving_tree, pow2_floor, rounds as tree_rounds};
use super::AlgoRequest;
use crate::schedule::CollectiveKind::{self, *};
use crate::schedule::{Round, RoundPlan, Unicast};

/// The rounds of classic algorithm `name` for `req`, if it has a per-step form.
pub fn plan(name: &str, req: &AlgoRequest) -> Option<RoundPlan> {
    let p = req.p;
    let (blocks, rounds): (u32, Vec<Round>) = match (name, req.kind) {
        ("ring", Allgather | AlltoallBroadcast) => (1, ring(p, 1, false)),
        ("ring", ReduceScatter) => (p, ring(p, 1, true)),
        ("ring", Allreduce) => (p, [ring(p, 1, true), ring(p, 1, false)].concat()),
        ("bruck", Allgather | AlltoallBroadcast) => (1, bruck(p)),
        ("recursive-doubling", Allgather | AlltoallBroadcast) => (1, doubling_gather(p)),
        ("recursive-doubling", Allreduce) => (1, doubling_reduce(p)),
        ("recursive-halving", ReduceScatter) => (p, recursive_halving(p)),
        ("rabenseifner", Allreduce) => (pow2_floor(p), rabenseifner(p)),
        ("scatter-allgather", Broadcast) => (p, scatter_allgather(p, req.root)),
        _ => return None,
    };
    let bytes_per_block = req.bytes.div_ceil(blocks.max(1) as u64).max(1);
    let packet_bytes = req.bytes.div_ceil(req.packets.max(1) as u64).max(1);
    let rounds = rounds
        .into_iter()
        .filter(|r| r.repeat > 0 && !r.unicasts.is_empty())
        .collect();
    Some(RoundPlan {
        p,
        bytes_per_block,
        packet_bytes,
        rounds,
    })
}

/// Closed-form figures of classic algorithm `name` for `req` where one exists: the
/// all-at-once allgather on a whole mesh or torus (one rank per router, every router a rank,
/// minimal routes) sends every ordered pair one block, so its aggregate hops are the sum of
/// all pair distances. `None` elsewhere (the per-step path or the schedule serve).
pub fn closed_form(
    name: &str,
    req: &AlgoRequest,
    minimal_routes: bool,
) -> Option<serde_json::Value> {
    use crate::topology::{metrics::grid_pair_distance_sum, Family};
    if (name, req.kind) != ("all-at-once", Allgather) || !minimal_routes {
        return None;
    }
    let t = req.topo;
    let (dims, wrap) = match t.family() {
        Family::Mesh { dims } => (dims, false),
        Family::Torus { dims } => (dims, true),
        _ => return None,
    };
    let n = t.num_switches() as u64;
    if t.num_endpoints() as u64 != n || req.p as u64 != n {
        return None;
    }
    let p = req.p as u64;
    let messages = p * p.saturating_sub(1);
    // As Prog::new: one block of `bytes`, packets of ceil(bytes / packets) bytes.
    let bytes = req.bytes.max(1);
    let packets_each = bytes.div_ceil(req.bytes.div_ceil(req.packets.max(1) as u64).max(1));
    let diameter: usize = dims.iter().map(|&k| if wrap { k / 2 } else { k - 1 }).sum();
    Some(serde_json::json!({
        "ranks": p,
        "messages": messages,
        "ni_messages": messages,
        "packets": messages * packets_each,
        "bytes": messages * bytes,
        "aggregate_hops": grid_pair_distance_sum(dims, wrap) as u64,
        "max_hops": if p > 1 { diameter } else { 0 },
        "steps": p.saturating_sub(1),
    }))
}

/// Whether `name` has a per-step form for `kind` (without building it).
pub fn has_plan(name: &str, kind: CollectiveKind) -> bool {
    matches!(
        (name, kind),
        (
            "ring",
            Allgather | AlltoallBroadcast | ReduceScatter | Allreduce
        ) | ("bruck", Allgather | AlltoallBroadcast)
            | (
                "recursive-doubling",
                Allgather | AlltoallBroadcast | Allreduce
            )
            | ("recursive-halving", ReduceScatter)
            | ("rabenseifner", Allreduce)
            | ("scatter-allgather", Broadcast)
    )
}

fn shift(p: u32, by: u32, blocks: u32, combine: bool) -> Vec<Unicast> {
    (0..p)
        .map(|r| Unicast {
            from: r,
            to: ((r as u64 + by as u64) % p as u64) as u32,
            blocks,
            combine,
        })
        .collect()
}

/// p-1 steps of r -> r+1, one block each.
fn ring(p: u32, blocks: u32, combine: bool) -> Vec<Round> {
    vec![Round {
        repeat: p.saturating_sub(1),
        unicasts: shift(p, 1, blocks, combine),
    }]
}

fn bruck(p: u32) -> Vec<Round> {
    let (mut held, mut out) = (1u32, Vec::new());
    while held < p {
        let count = held.min(p - held);
        out.push(Round {
            repeat: 1,
            unicasts: shift(p, p - held, count, false),
        });
        held += count;
    }
    out
}

fn once(unicasts: Vec<Unicast>) -> Round {
    Round {
        repeat: 1,
        unicasts,
    }
}

/// Extras `p2+i` and their partners `i`.
fn extras(p: u32) -> impl Iterator<Item = (u32, u32)> {
    let p2 = pow2_floor(p);
    (0..p - p2).map(move |i| (p2 + i, i))
}

fn doubling_gather(p: u32) -> Vec<Round> {
    let p2 = pow2_floor(p);
    let mut held: Vec<u32> = (0..p2).map(|r| 1 + u32::from(r + p2 < p)).collect();
    let mut out = vec![once(
        extras(p).map(|(x, i)| Unicast::new(x, i, 1)).collect(),
    )];
    let mut d = 1;
    while d < p2 {
        out.push(once(
            (0..p2)
                .map(|r| Unicast::new(r, r ^ d, held[r as usize]))
                .collect(),
        ));
        let snapshot = held.clone();
        for r in 0..p2 {
            held[r as usize] += snapshot[(r ^ d) as usize];
        }
        d <<= 1;
    }
    out.push(once(
        extras(p).map(|(x, i)| Unicast::new(i, x, p - 1)).collect(),
    ));
    out
}

fn doubling_reduce(p: u32) -> Vec<Round> {
    let p2 = pow2_floor(p);
    let mut out = vec![once(
        extras(p).map(|(x, i)| Unicast::combined(x, i, 1)).collect(),
    )];
    let mut d = 1;
    while d < p2 {
        out.push(once(
            (0..p2).map(|r| Unicast::combined(r, r ^ d, 1)).collect(),
        ));
        d <<= 1;
    }
    out.push(once(
        extras(p).map(|(x, i)| Unicast::new(i, x, 1)).collect(),
    ));
    out
}

/// Recursive halving among `0..p2`; participant `i` owns `size(i)` indices.
fn halving(p2: u32, size: impl Fn(u32) -> u32) -> Vec<Round> {
    let mut out = Vec::new();
    let mut d = p2 / 2;
    while d >= 1 {
        out.push(once(
            (0..p2)
                .map(|r| {
                    let base = r & !(2 * d - 1);
                    let give = if r & d == 0 { base + d } else { base };
                    Unicast::combined(r, r ^ d, (give..give + d).map(&size).sum())
                })
                .collect(),
        ));
        d /= 2;
    }
    out
}

fn recursive_halving(p: u32) -> Vec<Round> {
    let p2 = pow2_floor(p);
    let rem = p - p2;
    let mut out = vec![once(
        extras(p).map(|(x, i)| Unicast::combined(x, i, p)).collect(),
    )];
    out.extend(halving(p2, |i| 1 + u32::from(i < rem)));
    out.push(once(
        extras(p).map(|(x, i)| Unicast::new(i, x, 1)).collect(),
    ));
    out
}

fn rabenseifner(p: u32) -> Vec<Round> {
    let p2 = pow2_floor(p);
    let mut out = vec![once(
        extras(p)
            .map(|(x, i)| Unicast::combined(x, i, p2))
            .collect(),
    )];
    out.extend(halving(p2, |_| 1));
    let mut d = 1;
    while d < p2 {
        out.push(once((0..p2).map(|r| Unicast::new(r, r ^ d, d)).collect()));
        d <<= 1;
    }
    out.push(once(
        extras(p).map(|(x, i)| Unicast::new(i, x, p2)).collect(),
    ));
    out
}

fn scatter_allgather(p: u32, root: u32) -> Vec<Round> {
    let act = |v: u32| ((v as u64 + root as u64) % p as u64) as u32;
    let mut out: Vec<Round> = tree_rounds(&halving_tree(p), false)
        .iter()
        .map(|edges| {
            once(
                edges
                    .iter()
                    .map(|e| Unicast::new(act(e.parent), act(e.child), e.end - e.child))
                    .collect(),
            )
        })
        .collect();
    out.extend(ring(p, 1, false));
    out
}

#[cfg(test)]
#[path = "classic_rounds_tests.rs"]
mod tests;
