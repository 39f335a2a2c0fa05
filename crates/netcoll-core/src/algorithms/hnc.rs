//! Hierarchical network coding (HNC) for all-to-all broadcast on k-ary n-meshes and tori
//! (seed 000, Shalaby, Fujiwara, Koibuchi), and the paper's two baselines.
//!
//! HNC, steps (a)-(g) of s3: (a) the network is tiled by rectangular groups; (b) every group
//! broadcasts internally by the base multicast; (c) one intermediate node per group encodes
//! d1^d2, d2^d3, ..., d(M-1)^dM; (d) the intermediates multicast their encoded pieces to each
//! other; (e) each intermediate delivers the other groups' encoded pieces inside its group;
//! (f) every node unicasts its block to the corresponding node of every other group (or, with
//! `receiver=intermediate`, each intermediate sends its own block to the other intermediates,
//! which deliver it with the encoded pieces); (g) every node decodes each other group from the
//! XOR chain and the one raw block it received. Variants: every node encodes (`encode=all`,
//! s3), recursive HNC (`inner=`, s6.4) and message combining (`mode=combine`, s6.5).
//!
//! Baselines: `tree-multicast` (every node runs a binomial broadcast, farthest half first,
//! dimension by dimension) and `all-at-once` (every node unicasts to every other). All three
//! have closed forms (messages, packets, aggregate DOR hops, steps) that match the built
//! schedules exactly; see docs/hnc.md.

mod build;
mod closed;
mod deliver;
mod grid;
mod hops;
mod many;
mod many_build;
mod many_layout;
mod many_raw;
#[cfg(test)]
mod phase_tests;
mod plan;
mod steps;
#[cfg(test)]
mod tests;

pub use hops::{schedule_hops, Hops};
pub use many::algorithms as many_to_all_algorithms;

use super::{AlgoRequest, Algorithm, ParamDoc};
use crate::error::Result;
use crate::schedule::{CollectiveKind, Schedule, ScheduleBuilder};
use crate::spec_err;
use build::Builder;
use closed::{Calc, Pack};
use grid::{Net, Region};
use plan::{Base, Encode, Mode, Opts, Receiver, Request, StepE};

const A2A: &[CollectiveKind] = &[CollectiveKind::AlltoallBroadcast];

/// The baselines' one setting: how their ops are numbered into steps, defined as for HNC so
/// that a per-step comparison uses the same definition on both sides.
const BASELINE_PARAMS: &[ParamDoc] = &[ParamDoc {
    name: "steps",
    default: "level",
    help: "how ops are numbered into communication steps (for per-step VCs and barriers): \
           level (every tree level its own step; all-at-once has one) or phase (the whole \
           exchange is one phase, so one step, as HNC's steps=phase counts each of its phases)",
}];

pub fn algorithms() -> Vec<Algorithm> {
    vec![
        Algorithm {
            name: "hnc",
            kinds: &[CollectiveKind::AlltoallBroadcast, CollectiveKind::Allgather],
            family: "hnc",
            params: plan::PARAMS,
            preconditions: "a k-ary n-mesh or torus with one rank per node; group shape tiles \
                            the network into at least 2 groups of at least 2 nodes",
            source: "seed 000 s3, s4.3, s6.1, s6.3-6.5",
            summary: "hierarchical network coding: intra-group broadcast, XOR chain at an \
                      intermediate node per group, inter-group exchange, decoding",
            build: hnc_build,
            closed_form: Some(hnc_closed),
        },
        Algorithm {
            name: "tree-multicast",
            kinds: &[CollectiveKind::AlltoallBroadcast, CollectiveKind::Allgather],
            family: "hnc",
            params: BASELINE_PARAMS,
            preconditions: "a k-ary n-mesh or torus with one rank per node",
            source: "seed 000 s2.1, s4 (the conventional baseline)",
            summary: "every node broadcasts by a binomial tree, farthest half first, dimension \
                      by dimension",
            build: tree_build,
            closed_form: Some(tree_closed),
        },
        Algorithm {
            name: "all-at-once",
            kinds: A2A,
            family: "hnc",
            params: BASELINE_PARAMS,
            preconditions: "a k-ary n-mesh or torus with one rank per node",
            source: "seed 000 s2.1, s4.4",
            summary: "every node unicasts its block to every other node at once",
            build: aao_build,
            closed_form: Some(aao_closed),
        },
    ]
}

fn pack(req: &AlgoRequest) -> Pack {
    Pack {
        bytes: req.bytes,
        packet_bytes: req.bytes.div_ceil(req.packets as u64).max(1),
    }
}

fn schedule_builder(req: &AlgoRequest) -> ScheduleBuilder {
    let p = pack(req);
    ScheduleBuilder::new(req.kind, req.p, 0)
        .placement(req.placement.clone())
        .packetization(p.bytes, p.packet_bytes)
}

/// The network as a region, checking that every node holds a rank.
fn whole(req: &AlgoRequest) -> Result<Region> {
    let (dims, torus) = Net::of(req.topo)?;
    let n = req.topo.num_switches();
    if req.p as usize != n {
        return spec_err!(
            "this all-to-all broadcast covers the whole network: use {n} ranks on {} (not {})",
            req.topo.name(),
            req.p
        );
    }
    Ok(Net {
        dims,
        torus,
        rank_at: Vec::new(),
    }
    .region())
}

fn baseline_opts(base: Base) -> Opts {
    Opts {
        base,
        receiver: Receiver::Corresponding,
        encode: Encode::One,
        mode: Mode::Code,
        step_e: StepE::Tree,
    }
}

fn baseline_build(req: &AlgoRequest, base: Base) -> Result<Schedule> {
    let phase = by_phase(req)?;
    whole(req)?;
    let net = Net::with_ranks(req.topo, &req.placement)?;
    let mut b = Builder::new(schedule_builder(req), &net, baseline_opts(base));
    if phase {
        b.phase = Some(0);
    }
    b.a2a(&net.region(), 0);
    b.b.build()
}

fn baseline_closed(req: &AlgoRequest, base: Base) -> Result<serde_json::Value> {
    let phase = by_phase(req)?;
    let region = whole(req)?;
    let mut calc = Calc::new(pack(req), baseline_opts(base));
    let mut fig = calc.a2a(&region, base, 1);
    if phase {
        fig.steps = fig.steps.min(1);
    }
    Ok(fig.json())
}

fn tree_build(req: &AlgoRequest) -> Result<Schedule> {
    baseline_build(req, Base::Tree)
}
fn tree_closed(req: &AlgoRequest) -> Result<serde_json::Value> {
    baseline_closed(req, Base::Tree)
}
fn aao_build(req: &AlgoRequest) -> Result<Schedule> {
    baseline_build(req, Base::AllAtOnce)
}
fn aao_closed(req: &AlgoRequest) -> Result<serde_json::Value> {
    baseline_closed(req, Base::AllAtOnce)
}

/// The resolved plan of an HNC request: settings, calculator and level.
fn plan(req: &AlgoRequest) -> Result<(Region, Request, Calc, plan::Level)> {
    let region = whole(req)?;
    let request = Request::parse(&req.params, region.lines.len())?;
    let mut calc = Calc::new(pack(req), request.opts);
    let level = calc.resolve(&region, &request)?;
    Ok((region, request, calc, level))
}

/// `steps=phase`: one communication step per HNC phase (see `Builder::hnc`).
fn by_phase(req: &AlgoRequest) -> Result<bool> {
    match req.params.text("steps", "level") {
        "level" => Ok(false),
        "phase" => Ok(true),
        v => spec_err!("steps={v} is unknown: use level or phase"),
    }
}

fn hnc_build(req: &AlgoRequest) -> Result<Schedule> {
    let phase = by_phase(req)?;
    let (region, request, mut calc, level) = plan(req)?;
    let net = Net::with_ranks(req.topo, &req.placement)?;
    let mut b = Builder::new(schedule_builder(req), &net, request.opts);
    b.by_phase = phase;
    b.hnc(&region, &level, 0, &mut calc);
    b.b.build()
}

fn hnc_closed(req: &AlgoRequest) -> Result<serde_json::Value> {
    let phase = by_phase(req)?;
    let (region, _, mut calc, level) = plan(req)?;
    let phases = calc.hnc_phases(&region, &level);
    let mut total = phases
        .iter()
        .fold(closed::Fig::default(), |acc, (_, f)| acc.then(*f));
    if phase {
        total.steps = phases.iter().filter(|(_, f)| f.steps > 0).count() as u32;
    }
    let mut out = total.json();
    let m: usize = level.shape.iter().product();
    let obj = out.as_object_mut().expect("an object");
    obj.insert("group".into(), plan::show(&level.shape).into());
    obj.insert("group_size".into(), m.into());
    obj.insert("groups".into(), (region.size() / m).into());
    obj.insert("place".into(), plan::show(&level.place).into());
    obj.insert(
        "inner".into(),
        level
            .inner
            .as_ref()
            .map_or(serde_json::Value::Null, |l| plan::show(&l.shape).into()),
    );
    let phase_json: serde_json::Map<String, serde_json::Value> = phases
        .iter()
        .map(|(n, f)| (n.to_string(), f.json()))
        .collect();
    obj.insert("phases".into(), phase_json.into());
    Ok(out)
}
