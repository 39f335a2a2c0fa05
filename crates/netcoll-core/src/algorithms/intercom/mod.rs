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
#[cfg(test)]
mod tests;

use super::{AlgoRequest, Algorithm, ParamDoc};
use crate::error::Result;
use crate::schedule::{Collective, CollectiveKind, Schedule};
use crate::spec_err;
use engine::{Engine, Phase};
pub use hybrid::Mesh;
use prims::*;
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

fn engine(req: &AlgoRequest, u: u32, order: &dyn Fn(u32) -> u32) -> Engine {
    let (c, units) = collective_units(req, u, order);
    let per_block = match req.kind {
        Gather | Allgather => req.bytes,
        _ => req.bytes.div_ceil(u64::from(u)),
    };
    Engine::new(c, &units, req.placement.clone(), per_block.max(1))
}

fn all_ranks(req: &AlgoRequest) -> Vec<u32> {
    (0..req.p).collect()
}

fn ident(r: u32) -> u32 {
    r
}

/// Runs one primitive on all ranks.
fn one(e: &mut Engine, f: impl FnOnce(&mut Phase) -> usize) {
    let mut ph = Phase::default();
    f(&mut ph);
    e.run(ph);
}

fn build_mst(req: &AlgoRequest) -> Result<Schedule> {
    let p = req.p;
    let (group, root, u) = match req.kind {
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
            (g, q, 1)
        }
        Scatter | Gather => (all_ranks(req), req.root as usize, p),
        _ => (all_ranks(req), req.root as usize, 1),
    };
    let mut e = engine(req, u, &ident);
    one(&mut e, |ph| match req.kind {
        Reduce => mst_combine(ph, &group, root, 0, u),
        Scatter => mst_scatter(ph, &group, root, 0, u),
        Gather => mst_gather(ph, &group, root, 0, u),
        _ => mst_bcast(ph, &group, root, 0, u),
    });
    e.build()
}

fn build_bucket(req: &AlgoRequest) -> Result<Schedule> {
    let (g, p) = (all_ranks(req), req.p);
    let mut e = engine(req, p, &ident);
    one(&mut e, |ph| {
        if req.kind == Allgather {
            bucket_collect(ph, &g, 0, p)
        } else {
            bucket_combine(ph, &g, 0, p)
        }
    });
    e.build()
}

fn build_short(req: &AlgoRequest) -> Result<Schedule> {
    let (g, p, r) = (all_ranks(req), req.p, req.root as usize);
    let u = match req.kind {
        Broadcast | Reduce | Allreduce => 1,
        _ => p,
    };
    let mut e = engine(req, u, &ident);
    match req.kind {
        Broadcast => one(&mut e, |ph| mst_bcast(ph, &g, r, 0, u)),
        Reduce => one(&mut e, |ph| mst_combine(ph, &g, r, 0, u)),
        Scatter => one(&mut e, |ph| mst_scatter(ph, &g, r, 0, u)),
        Gather => one(&mut e, |ph| mst_gather(ph, &g, r, 0, u)),
        Allgather => {
            one(&mut e, |ph| mst_gather(ph, &g, 0, 0, u));
            one(&mut e, |ph| mst_bcast(ph, &g, 0, 0, u));
        }
        ReduceScatter => {
            one(&mut e, |ph| mst_combine(ph, &g, 0, 0, u));
            one(&mut e, |ph| mst_scatter(ph, &g, 0, 0, u));
        }
        Allreduce => {
            one(&mut e, |ph| mst_combine(ph, &g, 0, 0, u));
            one(&mut e, |ph| mst_bcast(ph, &g, 0, 0, u));
        }
        k => return spec_err!("intercom-short has no {} variant", k.name()),
    }
    e.build()
}

fn build_long(req: &AlgoRequest) -> Result<Schedule> {
    let (g, p, r) = (all_ranks(req), req.p, req.root as usize);
    let mut e = engine(req, p, &ident);
    match req.kind {
        Broadcast => {
            one(&mut e, |ph| mst_scatter(ph, &g, r, 0, p));
            one(&mut e, |ph| bucket_collect(ph, &g, 0, p));
        }
        Reduce => {
            one(&mut e, |ph| bucket_combine(ph, &g, 0, p));
            one(&mut e, |ph| mst_gather(ph, &g, r, 0, p));
        }
        Scatter => one(&mut e, |ph| mst_scatter(ph, &g, r, 0, p)),
        Gather => one(&mut e, |ph| mst_gather(ph, &g, r, 0, p)),
        Allgather => one(&mut e, |ph| bucket_collect(ph, &g, 0, p)),
        ReduceScatter => one(&mut e, |ph| bucket_combine(ph, &g, 0, p)),
        Allreduce => {
            one(&mut e, |ph| bucket_combine(ph, &g, 0, p));
            one(&mut e, |ph| bucket_collect(ph, &g, 0, p));
        }
        k => return spec_err!("intercom-long has no {} variant", k.name()),
    }
    e.build()
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

fn build_hybrid(req: &AlgoRequest) -> Result<Schedule> {
    let mesh = request_mesh(req)?;
    let p = req.p;
    let by_unit = matches!(req.kind, Allgather | ReduceScatter);
    // Units in "dimension 1 most significant" order for collectives that end (or start)
    // with contiguous ranges per rank; rank order otherwise.
    let mut rank_of_unit: Vec<u32> = (0..p).collect();
    if by_unit {
        for r in 0..p {
            rank_of_unit[mesh.unit_of_rank(r) as usize] = r;
        }
    }
    let mut e = engine(req, p, &|u| rank_of_unit[u as usize]);
    hybrid::run(&mut e, &mesh, req.kind, req.root)?;
    e.build()
}
