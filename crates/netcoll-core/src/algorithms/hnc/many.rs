//! Many-to-all multicast from S sources (seed 000 s6.3, Fig. 18): only the source ranks own a
//! block, and every rank must end with all S blocks.
//!
//! HNC with sources runs the all-to-all steps on what the sources own. The groups are those of
//! the all-to-all case (`group=`, `place=`, `base=`, `receiver=` as for `hnc`); a group g holds
//! s_g of the sources, in member order x_0 < x_1 < ...
//!
//! - (b) every source multicasts its block inside its group (base multicast);
//! - (c) the intermediate of a group with s_g >= 2 encodes x_0^x_1, ..., x_(s-2)^x_(s-1): the
//!   XOR chain of its group's sources only (s_g - 1 XOR ops);
//! - (d) it multicasts that chain (one message) to the other intermediates;
//! - (e) every intermediate delivers each other group's chain inside its group;
//! - (f) `receiver=corresponding`: every node y of group d receives one raw block of every
//!   other group g that has sources: from the source at y's own place in g if there is one
//!   (so that S = P is exactly the all-to-all HNC), else from the source of g nearest to y
//!   (fewest DOR hops; ties to the lower member index). `receiver=intermediate`: the
//!   intermediate of g unicasts the block of x_0 to the other intermediates, which deliver it
//!   in (e) with the chain (before (e), as in the all-to-all case);
//! - (g) every node decodes every other group with s_g >= 2 from the chain plus its raw block.
//!
//! Groups without sources send nothing (their intermediates still relay the others' chains);
//! a group with one source has no chain: its block travels raw in (f) (and in (e) with
//! `receiver=intermediate`). The baselines: every source multicasts to the whole network by
//! the binomial tree (`tree-multicast`) or by unicasts (`all-at-once`).
//!
//! `count` gives the same figures as the built schedule without building it (tested equal):
//! per-multicast closed forms of closed.rs plus the (f) unicasts (`many_raw.rs`). The
//! schedule is built in `many_build.rs`.

use super::closed::{valid_shapes, Calc, Fig};
use super::grid::Region;
use super::many_layout::{Layout, Setup};
use super::many_raw::raw_count;
use super::plan::{self, Base, Choice, Encode, Level, Mode, Opts, Receiver, Request, StepE};
use crate::algorithms::{AlgoRequest, Algorithm, ParamDoc};
use crate::error::Result;
use crate::schedule::{CollectiveKind, Schedule};
use crate::spec_err;

const M2A: &[CollectiveKind] = &[CollectiveKind::ManyToAll];

/// `group`, `place`, `base`, `receiver` (encode, mode and inner are all-to-all only).
const PARAMS: &[ParamDoc] = plan::PARAMS.split_at(4).0;

pub fn algorithms() -> Vec<Algorithm> {
    vec![
        Algorithm {
            name: "hnc",
            kinds: M2A,
            family: "hnc",
            params: PARAMS,
            preconditions: "a k-ary n-mesh or torus with one rank per node; the group shape \
                            tiles the network into at least 2 groups of at least 2 nodes",
            source: "seed 000 s6.3",
            summary: "hierarchical network coding from S sources: intra-group multicast, XOR \
                      chain of each group's sources, inter-group exchange, decoding",
            build: hnc_build,
            closed_form: Some(hnc_count),
        },
        Algorithm {
            name: "tree-multicast",
            kinds: M2A,
            family: "hnc",
            params: &[],
            preconditions: "a k-ary n-mesh or torus with one rank per node",
            source: "seed 000 s6.3 (the conventional baseline)",
            summary: "every source broadcasts by a binomial tree, farthest half first, dimension \
                      by dimension",
            build: tree_build,
            closed_form: Some(tree_count),
        },
        Algorithm {
            name: "all-at-once",
            kinds: M2A,
            family: "hnc",
            params: &[],
            preconditions: "a k-ary n-mesh or torus with one rank per node",
            source: "seed 000 s6.3, Fig. 18 (the baseline)",
            summary: "every source unicasts its block to every other node at once",
            build: aao_build,
            closed_form: Some(aao_count),
        },
    ]
}

pub(super) fn opts(base: Base, receiver: Receiver) -> Opts {
    Opts {
        base,
        receiver,
        encode: Encode::One,
        mode: Mode::Code,
        step_e: StepE::Tree,
    }
}

/// Rounds of one base multicast over a region.
fn rounds(region: &Region, base: Base) -> u32 {
    match base {
        Base::Tree => region.tree_depth(),
        Base::AllAtOnce => u32::from(region.size() > 1),
    }
}

/// `b` added to `a`, the steps kept (side-by-side multicasts of one phase).
fn add(a: &mut Fig, b: Fig) {
    a.messages += b.messages;
    a.hops += b.hops;
    a.packets += b.packets;
    a.packet_hops += b.packet_hops;
}

/// `n` copies of `f`.
fn scaled(f: Fig, n: u64) -> Fig {
    Fig {
        messages: f.messages * n,
        hops: f.hops * n,
        packets: f.packets * n,
        packet_hops: f.packet_hops * n,
        steps: f.steps,
    }
}

// ------------------------------------------------------------------ baselines

fn baseline_build(req: &AlgoRequest, base: Base) -> Result<Schedule> {
    let setup = Setup::of(req)?;
    let mut b = setup.builder(req, opts(base, Receiver::Corresponding));
    let ranks = b.ranks(&setup.region);
    for x in setup.source_nodes() {
        let data = [b.block(ranks[x])];
        b.multicast(&setup.region, &ranks, x, &data, &[], 0);
    }
    b.b.build()
}

fn baseline_count(req: &AlgoRequest, base: Base) -> Result<serde_json::Value> {
    let setup = Setup::of(req)?;
    let mut calc = Calc::new(setup.pack, opts(base, Receiver::Corresponding));
    let mut fig = Fig::default();
    for x in setup.source_nodes() {
        let m = calc.mcast(&setup.region, &setup.region.pos(x), base, 1);
        add(&mut fig, m);
        fig.steps = m.steps;
    }
    let mut out = fig.json();
    out["sources"] = req.sources.len().into();
    Ok(out)
}

fn tree_build(req: &AlgoRequest) -> Result<Schedule> {
    baseline_build(req, Base::Tree)
}

fn tree_count(req: &AlgoRequest) -> Result<serde_json::Value> {
    baseline_count(req, Base::Tree)
}

fn aao_build(req: &AlgoRequest) -> Result<Schedule> {
    baseline_build(req, Base::AllAtOnce)
}

fn aao_count(req: &AlgoRequest) -> Result<serde_json::Value> {
    baseline_count(req, Base::AllAtOnce)
}

/// The resolved level: a fixed shape is checked, `auto` tries every shape by [`count`].
pub(super) fn plan(req: &AlgoRequest, setup: &Setup) -> Result<(Request, Level)> {
    let request = Request::parse(&req.params, setup.region.lines.len())?;
    let mut calc = Calc::new(setup.pack, request.opts);
    let shapes = match &request.group {
        Choice::Fixed(_) => return Ok((request.clone(), calc.resolve(&setup.region, &request)?)),
        Choice::Auto => valid_shapes(&setup.region),
        Choice::Paper => {
            let fixed = Request {
                group: Choice::Fixed(calc.paper_group(&setup.region)?),
                ..request.clone()
            };
            return Ok((fixed.clone(), calc.resolve(&setup.region, &fixed)?));
        }
        Choice::Compact => {
            return spec_err!(
                "group=compact is for the all-to-all broadcast: use auto, paper or a shape \
                 AxB.. for a many-to-all multicast"
            )
        }
    };
    if shapes.is_empty() {
        let level = calc.resolve(&setup.region, &request)?; // one group: tiny networks
        return Ok((request, level));
    }
    let mut best: Option<(Fig, Level)> = None;
    for shape in shapes {
        let fixed = Request {
            group: Choice::Fixed(shape),
            ..request.clone()
        };
        let level = calc.resolve(&setup.region, &fixed)?;
        let fig = total(&count(setup, &level, &mut calc));
        let better = |b: &Fig| (fig.hops, fig.packet_hops) < (b.hops, b.packet_hops);
        if best.as_ref().is_none_or(|(b, _)| better(b)) {
            best = Some((fig, level));
        }
    }
    Ok((request, best.expect("a shape").1))
}

fn total(phases: &[(&'static str, Fig)]) -> Fig {
    phases
        .iter()
        .fold(Fig::default(), |acc, (_, f)| acc.then(*f))
}

// ------------------------------------------------------------------ HNC: the count

/// The figures of every phase that carries anything, in the order they run.
pub(super) fn count(setup: &Setup, level: &Level, calc: &mut Calc) -> Vec<(&'static str, Fig)> {
    let lay = Layout::new(setup, level);
    let (base, receiver) = (calc.opts.base, calc.opts.receiver);
    let group = lay.groups[0].clone();
    let mut out = Vec::new();
    let mut b = Fig::default();
    for srcs in &lay.srcs {
        for &x in srcs {
            add(&mut b, calc.mcast(&group, &group.pos(x), base, 1));
        }
    }
    push(&mut out, "b", b, rounds(&group, base));
    if lay.ng() == 1 {
        return out;
    }
    let mut d = Fig::default();
    let mut direct = Fig::default();
    let mut e = Fig::default();
    let place = group.pos(lay.q);
    for g in 0..lay.ng() {
        let root = lay.grid.pos(g);
        if lay.chain_len(g) > 0 {
            add(&mut d, calc.mcast(&lay.grid, &root, base, lay.chain_len(g)));
        }
        if receiver == Receiver::Intermediate && !lay.srcs[g].is_empty() {
            add(
                &mut direct,
                calc.mcast(&lay.grid, &root, Base::AllAtOnce, 1),
            );
        }
        let pieces = lay.delivered(g, receiver);
        if pieces > 0 {
            // Once into every other group.
            let one = calc.mcast(&group, &place, base, pieces);
            add(&mut e, scaled(one, lay.ng() as u64 - 1));
        }
    }
    push(&mut out, "d", d, rounds(&lay.grid, base));
    push(&mut out, "f", direct, 1);
    push(&mut out, "e", e, rounds(&group, base));
    if receiver == Receiver::Corresponding {
        push(&mut out, "f", raw_count(setup, &lay, calc.pack), 1);
    }
    out
}

/// A phase that carries anything, with its rounds.
fn push(out: &mut Vec<(&'static str, Fig)>, name: &'static str, mut fig: Fig, steps: u32) {
    if fig.messages > 0 {
        fig.steps = steps;
        out.push((name, fig));
    }
}

fn hnc_count(req: &AlgoRequest) -> Result<serde_json::Value> {
    let setup = Setup::of(req)?;
    let (request, level) = plan(req, &setup)?;
    let mut calc = Calc::new(setup.pack, request.opts);
    let phases = count(&setup, &level, &mut calc);
    let mut out = total(&phases).json();
    let m: usize = level.shape.iter().product();
    let lay = Layout::new(&setup, &level);
    let obj = out.as_object_mut().expect("an object");
    obj.insert("sources".into(), req.sources.len().into());
    obj.insert("group".into(), plan::show(&level.shape).into());
    obj.insert("group_size".into(), m.into());
    obj.insert("groups".into(), (setup.region.size() / m).into());
    let with = lay.srcs.iter().filter(|s| !s.is_empty()).count();
    obj.insert("groups_with_sources".into(), with.into());
    obj.insert("place".into(), plan::show(&level.place).into());
    let mut phase_json = serde_json::Map::new();
    for (name, fig) in &phases {
        phase_json.insert(name.to_string(), fig.json());
    }
    obj.insert("phases".into(), phase_json.into());
    Ok(out)
}

fn hnc_build(req: &AlgoRequest) -> Result<Schedule> {
    let setup = Setup::of(req)?;
    let (request, level) = plan(req, &setup)?;
    let mut calc = Calc::new(setup.pack, request.opts);
    let phases = count(&setup, &level, &mut calc);
    let lay = Layout::new(&setup, &level);
    let mut b = setup.builder(req, request.opts);
    b.many_to_all(&setup, &lay, &phases);
    b.b.build()
}

#[cfg(test)]
#[path = "many_tests.rs"]
mod tests;
