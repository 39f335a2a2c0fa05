//! InterCom (seed 001, van de Geijn et al.): the short- and long-vector primitives, the
//! seven collectives built from them, and hybrids on logical meshes.
//!
//! - `intercom-mst`: MST broadcast, combine-to-one (reduce), scatter, gather; a multicast is
//!   the MST broadcast on the group {root} + targets (a group collective on any subset);
//! - `intercom-bucket`: bucket collect (allgather), bucket distributed combine
//!   (reduce-scatter);
//! - `intercom-short` / `intercom-long`: the seven collectives as s5.1 / s5.2 compose them;
//! - `intercom-hybrid`: the Fig. 3 template on a logical mesh (`dims=2x3x5`,
//!   `strategy=SSMCC`; `dims=mesh` takes the network's own shape, so stages run within
//!   physical rows and columns).

mod engine;
mod hybrid;
mod prims;
mod stages;
#[cfg(test)]
mod tests;

use super::prog::{Done, Out};
use super::{AlgoRequest, Algorithm, ParamDoc};
use crate::error::Result;
use crate::schedule::{Collective, CollectiveKind, Schedule};
use crate::schedule::{RoundPlan, RoundSink};
use crate::spec_err;
use engine::{Engine, Phase};
pub use hybrid::Mesh;
use prims::*;
use stages::{PlanStages, Stages};
use CollectiveKind::*;

const SEVEN: &[CollectiveKind] = &[
    Broadcast,
    Reduce,
    Scatter,
    Gather,
    Allgather,
    ReduceScatter,
    Allreduce,
];

const HYBRID_PARAMS: &[ParamDoc] = &[
    ParamDoc {
        name: "dims",
        default: "",
        help: "logical mesh d1xd2x...xdk whose product is p, dimension 1 contiguous (default: p, a 1-D mesh); 'mesh' = the network's own shape",
    },
    ParamDoc {
        name: "strategy",
        default: "",
        help: "S^j M C^j (MST in the last dimension) or S^k C^k, e.g. SSMCC for 2x3x5 (default: the one with M)",
    },
];

pub fn algorithms() -> Vec<Algorithm> {
    let entry = |name, kinds, params, preconditions, summary, build| Algorithm {
        name,
        kinds,
        family: "intercom",
        params,
        preconditions,
        source: "seed 001 s4-6 (InterCom)",
        summary,
        build,
        closed_form: None,
    };
    vec![
        entry(
            "intercom-mst",
            &[Broadcast, Multicast, Reduce, Scatter, Gather],
            &[],
            "none (any p, any root; multicast: the group is the root plus the targets)",
            "minimum-spanning-tree primitive by recursive halving of the linear array, conflict-free: ceil(log p) rounds",
            build_mst,
        ),
        entry(
            "intercom-bucket",
            &[Allgather, ReduceScatter],
            &[],
            "none (any p)",
            "bucket collect / distributed combine around the ring of ranks: p-1 rounds of 1/p of the vector",
            build_bucket,
        ),
        entry(
            "intercom-short",
            SEVEN,
            &[],
            "none (any p, any root)",
            "short-vector algorithm (s5.1): MST primitives; allgather = gather + bcast, reduce-scatter = combine + scatter, allreduce = combine + bcast",
            build_short,
        ),
        entry(
            "intercom-long",
            SEVEN,
            &[],
            "none (any p, any root)",
            "long-vector algorithm (s5.2): bcast = scatter + bucket collect, reduce = distributed combine + gather, allreduce = distributed combine + collect",
            build_long,
        ),
        entry(
            "intercom-hybrid",
            &[Broadcast, Reduce, Allreduce, Allgather, ReduceScatter],
            HYBRID_PARAMS,
            "dims multiply to p; strategy is S^j M C^j or S^k C^k for the k dims larger than 1",
            "Fig. 3 hybrid: long-vector stage 1 in dims 1..j, short-vector algorithm in dim j+1, stage 2 back; tune over factorisations of p and both strategies (hybrid_broadcast_options)",
            build_hybrid,
        ),
    ]
}

/// Units and their blocks for `kind` with `u` units (see engine.rs), in `order` of ranks for
/// per-rank data.
fn collective_units(
    req: &AlgoRequest,
    u: u32,
    order: &dyn Fn(u32) -> u32,
) -> (Collective, Vec<(u32, u32)>) {
    let mut c = Collective::new(req.kind, req.p, req.root);
    c.targets = req.targets.clone();
    let units: Vec<(u32, u32)> = match req.kind {
        Broadcast | Multicast | Scatter => (0..u).map(|i| (req.root, i)).collect(),
        Gather | Allgather | AlltoallBroadcast => (0..u).map(|i| (order(i), 0)).collect(),
        _ => (0..u).map(|i| (0, order(i))).collect(),
    };
    if !matches!(req.kind, Gather | Allgather | AlltoallBroadcast) {
        c.blocks = u;
    }
    (c, units)
}

fn engine<'a>(
    req: &AlgoRequest,
    u: u32,
    order: &dyn Fn(u32) -> u32,
    out: Out<'a>,
) -> Result<Engine<'a>> {
    let (c, units) = collective_units(req, u, order);
    let per_block = match req.kind {
        Gather | Allgather => req.bytes,
        _ => req.bytes.div_ceil(u64::from(u)),
    };
    Engine::new(c, &units, req.placement.clone(), per_block.max(1), out)
}

fn all_ranks(req: &AlgoRequest) -> Vec<u32> {
    (0..req.p).collect()
}

fn ident(r: u32) -> u32 {
    r
}

/// Runs one primitive on all ranks.
fn one(e: &mut dyn Stages, f: impl FnOnce(&mut Phase) -> usize) {
    let mut ph = Phase::default();
    f(&mut ph);
    e.run(ph);
}

/// Units of `name`'s engine for `req` (see engine.rs).
fn units_of(name: &str, req: &AlgoRequest) -> u32 {
    match (name, req.kind) {
        ("intercom-mst", Scatter | Gather) => req.p,
        ("intercom-mst", _) => 1,
        ("intercom-short", Broadcast | Reduce | Allreduce) => 1,
        _ => req.p,
    }
}

/// Writes the stages of InterCom algorithm `name` for `req` to `e`.
fn stages(name: &str, e: &mut dyn Stages, req: &AlgoRequest) -> Result<()> {
    match name {
        "intercom-mst" => mst(e, req),
        "intercom-bucket" => bucket(e, req),
        "intercom-short" => short(e, req)?,
        "intercom-long" => long(e, req)?,
        _ => hybrid::run(e, &request_mesh(req)?, req.kind, req.root)?,
    }
    Ok(())
}

fn build_with(name: &str, req: &AlgoRequest) -> Result<Schedule> {
    Done::schedule(write(name, req, Out::Build))
}

/// Writes InterCom algorithm `name` for `req` to `out` (a schedule or a round sink).
fn write(name: &str, req: &AlgoRequest, out: Out<'_>) -> Result<Done> {
    let u = units_of(name, req);
    let mut e = if name == "intercom-hybrid" {
        hybrid_engine(req, out)?
    } else {
        engine(req, u, &ident, out)?
    };
    stages(name, &mut e, req)?;
    e.finish()
}

/// Writes InterCom algorithm `name` for `req` to `sink` (every InterCom algorithm is a round
/// program).
pub(crate) fn stream(name: &str, req: &AlgoRequest, sink: &mut dyn RoundSink) -> Result<()> {
    write(name, req, Out::Stream(sink)).map(|_| ())
}

/// The per-step form of InterCom algorithm `name` for `req`: its rounds by senders,
/// receivers and sizes, as the engine would run them (`stages.rs`).
pub fn round_plan(name: &str, req: &AlgoRequest) -> Result<Option<RoundPlan>> {
    let u = units_of(name, req);
    let mut s = PlanStages::new(u);
    stages(name, &mut s, req)?;
    let per_block = match req.kind {
        Gather | Allgather => req.bytes,
        _ => req.bytes.div_ceil(u64::from(u)),
    };
    Ok(Some(RoundPlan {
        p: req.p,
        bytes_per_block: per_block.max(1),
        packet_bytes: 0,
        rounds: s.rounds,
    }))
}

fn build_mst(req: &AlgoRequest) -> Result<Schedule> {
    build_with("intercom-mst", req)
}

fn build_bucket(req: &AlgoRequest) -> Result<Schedule> {
    build_with("intercom-bucket", req)
}

fn build_short(req: &AlgoRequest) -> Result<Schedule> {
    build_with("intercom-short", req)
}

fn build_long(req: &AlgoRequest) -> Result<Schedule> {
    build_with("intercom-long", req)
}

fn mst(e: &mut dyn Stages, req: &AlgoRequest) {
    let (group, root) = match req.kind {
        Multicast => {
            let mut g: Vec<u32> = req
                .targets
                .iter()
                .copied()
                .filter(|&t| t != req.root)
                .collect();
            g.push(req.root);
            g.sort_unstable();
            let q = g.binary_search(&req.root).unwrap_or(0);
            (g, q)
        }
        _ => (all_ranks(req), req.root as usize),
    };
    let u = e.units();
    one(e, |ph| match req.kind {
        Reduce => mst_combine(ph, &group, root, 0, u),
        Scatter => mst_scatter(ph, &group, root, 0, u),
        Gather => mst_gather(ph, &group, root, 0, u),
        _ => mst_bcast(ph, &group, root, 0, u),
    });
}

fn bucket(e: &mut dyn Stages, req: &AlgoRequest) {
    let whole = [(all_ranks(req), 0, req.p)];
    e.buckets(&whole, req.kind != Allgather);
}

fn short(e: &mut dyn Stages, req: &AlgoRequest) -> Result<()> {
    let (g, r, u) = (all_ranks(req), req.root as usize, e.units());
    match req.kind {
        Broadcast => one(e, |ph| mst_bcast(ph, &g, r, 0, u)),
        Reduce => one(e, |ph| mst_combine(ph, &g, r, 0, u)),
        Scatter => one(e, |ph| mst_scatter(ph, &g, r, 0, u)),
        Gather => one(e, |ph| mst_gather(ph, &g, r, 0, u)),
        Allgather => {
            one(e, |ph| mst_gather(ph, &g, 0, 0, u));
            one(e, |ph| mst_bcast(ph, &g, 0, 0, u));
        }
        ReduceScatter => {
            one(e, |ph| mst_combine(ph, &g, 0, 0, u));
            one(e, |ph| mst_scatter(ph, &g, 0, 0, u));
        }
        Allreduce => {
            one(e, |ph| mst_combine(ph, &g, 0, 0, u));
            one(e, |ph| mst_bcast(ph, &g, 0, 0, u));
        }
        k => return spec_err!("intercom-short has no {} variant", k.name()),
    }
    Ok(())
}

fn long(e: &mut dyn Stages, req: &AlgoRequest) -> Result<()> {
    let (g, p, r) = (all_ranks(req), req.p, req.root as usize);
    let whole = [(g.clone(), 0, p)];
    match req.kind {
        Broadcast => {
            one(e, |ph| mst_scatter(ph, &g, r, 0, p));
            e.buckets(&whole, false);
        }
        Reduce => {
            e.buckets(&whole, true);
            one(e, |ph| mst_gather(ph, &g, r, 0, p));
        }
        Scatter => one(e, |ph| mst_scatter(ph, &g, r, 0, p)),
        Gather => one(e, |ph| mst_gather(ph, &g, r, 0, p)),
        Allgather => e.buckets(&whole, false),
        ReduceScatter => e.buckets(&whole, true),
        Allreduce => {
            e.buckets(&whole, true);
            e.buckets(&whole, false);
        }
        k => return spec_err!("intercom-long has no {} variant", k.name()),
    }
    Ok(())
}

/// The logical mesh of a request: `dims` (default p; `mesh` = the network's shape).
pub fn request_mesh(req: &AlgoRequest) -> Result<Mesh> {
    let text = req.params.text("dims", "");
    let dims: Vec<u64> = match text {
        "" => vec![u64::from(req.p)],
        "mesh" => {
            let shape = req.topo.shape();
            if shape.is_empty() {
                return spec_err!(
                    "dims=mesh needs a network with a shape (mesh, torus, ...), but {} has none: give dims=AxB",
                    req.topo.name()
                );
            }
            shape.iter().map(|&d| d as u64).collect()
        }
        t => crate::models::parse_mesh(t)?,
    };
    let live = dims.iter().filter(|&&d| d > 1).count();
    let default = if live == 0 {
        "M".to_string()
    } else {
        format!("{}M{}", "S".repeat(live - 1), "C".repeat(live - 1))
    };
    let strategy = req.params.text("strategy", &default).to_string();
    Mesh::parse(req.p, &dims, &strategy)
}

/// The engine of a hybrid: units in "dimension 1 most significant" order for collectives
/// that end (or start) with contiguous ranges per rank; rank order otherwise.
fn hybrid_engine<'a>(req: &AlgoRequest, out: Out<'a>) -> Result<Engine<'a>> {
    let mesh = request_mesh(req)?;
    let p = req.p;
    let mut rank_of_unit: Vec<u32> = (0..p).collect();
    if matches!(req.kind, Allgather | ReduceScatter) {
        for r in 0..p {
            rank_of_unit[mesh.unit_of_rank(r) as usize] = r;
        }
    }
    engine(req, p, &|u| rank_of_unit[u as usize], out)
}

fn build_hybrid(req: &AlgoRequest) -> Result<Schedule> {
    build_with("intercom-hybrid", req)
}
