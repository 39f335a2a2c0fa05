//! Pipelined all-port broadcasts on interlaced bypass tori and tori (Zhang and Deng, seed 004):
//! the line broadcast with the packet-sending patterns of s4.2, the rectangular (two-colour,
//! s5.1) and global (d-colour, s6.1) broadcasts, and the torus baselines (the ring broadcast
//! of formula (4) is `line` on a torus; the multi-colour spanning trees of formulas (5) and (6)
//! are `trees`).
//!
//! The protocols run on the step engine's flood front end ([`protocol`]), which scales to
//! millions of nodes; for small networks the same run, traced, becomes a [`Schedule`] (one
//! message per transmission, each forward waiting for the receive that brought the packet) so
//! the verifier proves every broadcast. Choices the paper leaves open are parameters,
//! documented in docs/ibt-broadcast.md.

pub mod formulas;
pub mod protocol;

use super::{AlgoRequest, Algorithm, ParamDoc};
use crate::engines::step::flood::{FloodResult, PortNet, NONE};
use crate::engines::step::PortModel;
use crate::error::{Error, Result};
use crate::schedule::{Collective, CollectiveKind, OpRef, Schedule, ScheduleBuilder};
use crate::spec_err;
use crate::topology::Topology;
use protocol::{Grid, Kind, Options, Outcome};
use serde_json::{json, Value};

const PARAMS: &[ParamDoc] = &[
    ParamDoc { name: "pattern", default: "", help: "Int(pn) 0..15 for every colour (bits r R L l: torus +, bypass +, bypass -, torus -; 1 = reverse order); unset: search" },
    ParamDoc { name: "patterns", default: "0-7 (line), 1,3,5,7 (rect, global)", help: "patterns searched when pattern is unset (rect: every pair)" },
    ParamDoc { name: "dim", default: "0", help: "line: the broadcast dimension; rect: i1; global: the first colour's dimension" },
    ParamDoc { name: "dim2", default: "dim+1", help: "rect: the second dimension i2" },
    ParamDoc { name: "k1", default: "", help: "rect: packets of the first colour; unset: search |k1-k2| <= dk" },
    ParamDoc { name: "dk", default: "4", help: "rect: the split search range |k1 - k2| <= dk" },
    ParamDoc { name: "tie", default: "low", help: "order of packets first received in the same step: low, high, arrival" },
    ParamDoc { name: "ports", default: "all", help: "all (all-port, the paper) or one (one packet per node per step)" },
    ParamDoc { name: "relay", default: "", help: "with forward=order: the pattern of every node other than the source (unset: the source's)" },
    ParamDoc { name: "forward", default: "order", help: "order: every link keeps its port's packet-sending order; fifo: forward in arrival order, pattern at the source only" },
];

const TREE_PARAMS: &[ParamDoc] = &[
    ParamDoc {
        name: "group",
        default: "all",
        help: "all (formula 5) or rect (formula 6, dimensions dim and dim+1)",
    },
    ParamDoc {
        name: "dim",
        default: "0",
        help: "first dimension of the rectangle",
    },
    ParamDoc {
        name: "tie",
        default: "low",
        help: "order of packets first received in the same step",
    },
    ParamDoc {
        name: "ports",
        default: "all",
        help: "all or one",
    },
    ParamDoc {
        name: "forward",
        default: "order",
        help: "order or fifo (see line)",
    },
];

const PRE: &str =
    "a torus or iBT; every endpoint a rank, rank i on endpoint i; at most 4,096 nodes \
                   for a schedule (larger: netcoll simulate --engine step)";

pub fn algorithms() -> Vec<Algorithm> {
    let entry = |name, params, source, summary, build, closed_form| Algorithm {
        name,
        kinds: &[CollectiveKind::Broadcast],
        family: "ibt",
        params,
        preconditions: PRE,
        source,
        summary,
        build,
        closed_form: Some(closed_form),
    };
    vec![
        entry("line", PARAMS, "seed 004 s4.1-4.2, formula (4)",
              "pipelined line broadcast in dimension dim with packet-sending pattern pn (a multicast to the line)",
              build_line as fn(&AlgoRequest) -> Result<Schedule>, figures_line as fn(&AlgoRequest) -> Result<Value>),
        entry("rect", PARAMS, "seed 004 s5.1",
              "two-colour rectangular broadcast in dimensions dim, dim2 (a multicast to the plane)",
              build_rect, figures_rect),
        entry("global", PARAMS, "seed 004 s6.1",
              "d-colour global broadcast: colour i goes along dimension i, then i+1, ...",
              build_global, figures_global),
        entry("trees", TREE_PARAMS, "seed 004 s5.1, formulas (5) and (6)",
              "torus baseline: 2d one-direction multi-colour spanning trees on torus links",
              build_trees, figures_trees),
    ]
}

fn build_line(req: &AlgoRequest) -> Result<Schedule> {
    schedule_of(req, Kind::Line)
}
fn build_rect(req: &AlgoRequest) -> Result<Schedule> {
    schedule_of(req, Kind::Rect)
}
fn build_global(req: &AlgoRequest) -> Result<Schedule> {
    schedule_of(req, Kind::Global)
}
fn build_trees(req: &AlgoRequest) -> Result<Schedule> {
    schedule_of(req, Kind::Trees)
}
fn figures_line(req: &AlgoRequest) -> Result<Value> {
    figures(req, Kind::Line)
}
fn figures_rect(req: &AlgoRequest) -> Result<Value> {
    figures(req, Kind::Rect)
}
fn figures_global(req: &AlgoRequest) -> Result<Value> {
    figures(req, Kind::Global)
}
fn figures_trees(req: &AlgoRequest) -> Result<Value> {
    figures(req, Kind::Trees)
}

/// Largest network for which a schedule is built (and verified).
pub const MAX_SCHEDULE_NODES: usize = 4096;

/// Runs (or searches) a broadcast: `root` is a node id, `k` the packets.
pub fn simulate(
    topo: &Topology,
    kind: Kind,
    root: u32,
    k: u32,
    params: &super::Params,
    trace: bool,
) -> Result<(Outcome, Grid, PortNet)> {
    let grid = Grid::of(topo)?;
    let opts = Options::from_params(kind, params, grid.dims.len())?;
    if root as usize >= topo.num_switches() {
        return spec_err!(
            "root {root} is out of range: {} has nodes 0 to {}",
            topo.name(),
            topo.num_switches() - 1
        );
    }
    let net = PortNet::from_topology(topo);
    let out = protocol::best(&grid, &net, root, k, &opts, trace)?;
    Ok((out, grid, net))
}

fn check_request(req: &AlgoRequest) -> Result<()> {
    let n = req.topo.num_endpoints();
    let identity = req
        .placement
        .iter()
        .enumerate()
        .all(|(i, &e)| i == e as usize);
    if req.p as usize != n || !identity || req.topo.num_switches() != n {
        return spec_err!(
            "the iBT broadcasts need every endpoint of {} as a rank, rank i on endpoint i",
            req.topo.name()
        );
    }
    Ok(())
}

fn schedule_of(req: &AlgoRequest, kind: Kind) -> Result<Schedule> {
    check_request(req)?;
    if req.topo.num_switches() > MAX_SCHEDULE_NODES {
        return Err(Error::TooLarge(format!(
            "{} has {} nodes, more than the {MAX_SCHEDULE_NODES} a {} broadcast schedule is built for; \
             run it on the step engine instead (netcoll simulate bcast --engine step --algo {})",
            req.topo.name(), req.topo.num_switches(), kind.name(), kind.name()
        )));
    }
    let (out, _, _) = simulate(req.topo, kind, req.root, req.packets, &req.params, true)?;
    schedule_from_trace(req, &out.result)
}

/// One message per transmission; a forward waits for the receive that first brought the packet.
fn schedule_from_trace(req: &AlgoRequest, res: &FloodResult) -> Result<Schedule> {
    let (p, k) = (req.p, req.packets);
    let all = (0..p).all(|x| x == req.root || res.done_at[x as usize] > 0);
    let targets: Vec<u32> = (0..p)
        .filter(|&x| x != req.root && res.done_at[x as usize] > 0)
        .collect();
    let collective = Collective {
        kind: if all {
            CollectiveKind::Broadcast
        } else {
            CollectiveKind::Multicast
        },
        p,
        root: req.root,
        blocks: k,
        targets: if all { Vec::new() } else { targets },
        sources: Vec::new(),
    };
    let mut b = ScheduleBuilder::from_collective(collective)
        .placement(req.placement.clone())
        .packetization(req.bytes.div_ceil(k as u64).max(1), 0);
    let blocks: Vec<_> = (0..k).map(|i| b.block(req.root, i)).collect();
    // first[x * k + packet]: the receive op that first gave x the packet.
    let mut first: Vec<Option<OpRef>> = vec![None; p as usize * k as usize];
    for t in &res.trace {
        let at = (t.from as usize) * k as usize + t.packet as usize;
        let deps: Vec<OpRef> = first[at].into_iter().collect();
        b.set_round(Some(t.step - 1));
        let s = b.send(
            t.from,
            &[t.to],
            std::slice::from_ref(&blocks[t.packet as usize]),
            &deps,
        );
        let r = b.recv(t.to, s, &[]);
        let slot = &mut first[(t.to as usize) * k as usize + t.packet as usize];
        if slot.is_none() {
            *slot = Some(r);
        }
    }
    b.build()
}

/// Lower bounds on the steps of any all-port broadcast of `k` packets to the targets: the
/// farthest target's distance, and `dist(x) + ceil(k / degree(x)) - 1` (no packet reaches x
/// before step dist(x), and x receives at most one packet per link per step).
pub fn lower_bounds(
    net: &PortNet,
    source: u32,
    k: u32,
    targets: &[bool],
    ports: PortModel,
) -> (u32, u32) {
    let n = net.nodes;
    let mut dist = vec![u32::MAX; n];
    let mut queue = vec![source];
    dist[source as usize] = 0;
    let mut head = 0;
    while head < queue.len() {
        let x = queue[head] as usize;
        head += 1;
        for q in 0..net.ports {
            let y = net.nbr[x * net.ports + q];
            if y != NONE && dist[y as usize] == u32::MAX {
                dist[y as usize] = dist[x] + 1;
                queue.push(y);
            }
        }
    }
    let (mut ecc, mut bw) = (0, 0);
    for x in (0..n).filter(|&x| targets[x] && x != source as usize) {
        let deg = (0..net.ports)
            .filter(|&q| net.nbr[x * net.ports + q] != NONE)
            .count() as u32;
        ecc = ecc.max(dist[x]);
        bw = bw.max(dist[x] + k.div_ceil(deg.max(1)) - 1);
    }
    if ports == PortModel::OnePort {
        bw = bw.max(k);
    }
    (ecc, bw)
}

fn metric_name(kind: Kind, opts_dims: usize, d: usize) -> &'static str {
    match kind {
        Kind::Line => "T_x",
        Kind::Rect => "T_xy",
        Kind::Trees if opts_dims == 2 && d > 2 => "T_xy",
        _ => "T_all",
    }
}

/// The figures of a broadcast as JSON: steps, the chosen pattern(s) and split, the search,
/// lower bounds, link use, and the torus baselines with the alpha/beta coefficients.
pub fn report(
    topo: &Topology,
    kind: Kind,
    root: u32,
    k: u32,
    params: &super::Params,
) -> Result<Value> {
    let (out, grid, net) = simulate(topo, kind, root, k, params, false)?;
    let s = &out.setup;
    let res = &out.result;
    let d = grid.dims.len();
    let targets = protocol::group(&grid, s);
    let (ecc, bound) = lower_bounds(&net, root, k, &targets, s.port_model);
    let (used, max_use) = res.link_summary();
    let metric = metric_name(kind, s.dims.len(), d);
    let mut v = json!({
        "algorithm": kind.name(),
        "topology": topo.name(),
        "metric": metric,
        "root": root,
        "packets": k,
        "steps": res.steps,
        "dims": s.dims,
        "pattern": if s.patterns.iter().all(|&p| p == s.patterns[0]) { json!(s.patterns[0]) } else { json!(s.patterns) },
        "patterns": s.patterns,
        "split": s.split,
        "searched": params.text("pattern", "").is_empty() && kind != Kind::Trees,
        "tie": s.tie,
        "forward": s.forward,
        "ports": s.port_model,
        "targets": res.targets,
        "sends": res.sends,
        "duplicates": res.duplicates,
        "messages": res.sends,
        "aggregate_hops": res.sends,
        "channels_used": used,
        "max_link_use": max_use,
        "per_step": res.per_step,
        "eccentricity": ecc,
        "lower_bound": bound,
        "tried": out.tried.iter().map(|(p, sp, t)| json!({"patterns": p, "split": sp, "steps": t})).collect::<Vec<_>>(),
    });
    if grid.dims.iter().all(|&r| r == grid.dims[0]) && kind != Kind::Trees {
        let n = grid.dims[0] as u64;
        let group = if kind == Kind::Global {
            "global"
        } else {
            kind.name()
        };
        let (t_same, t_degree) = formulas::baselines(group, n, d as u64, k as u64);
        let m = formulas::same_degree_radix(n, d as u64);
        v["torus"] = json!({
            "same_dimensions": {"network": format!("Torus({n}^{d})"), "steps": t_same, "formula": formula_no(kind)},
            "same_degree": {"network": format!("Torus({m:.4}^{})", d + 1), "m": m, "steps": t_degree, "formula": formula_no(kind)},
        });
        v["alpha"] = json!(formulas::improvement(res.steps as f64, t_same));
        v["beta"] = json!(formulas::improvement(res.steps as f64, t_degree));
    }
    if kind == Kind::Trees && grid.dims.iter().all(|&r| r == grid.dims[0]) {
        let n = grid.dims[0] as u64;
        let f = if s.dims.len() == 2 {
            formulas::torus_trees_rect(n, k as u64)
        } else {
            formulas::torus_trees_all(n, s.dims.len() as u64, k as u64)
        };
        v["formula"] = json!({"number": if s.dims.len() == 2 { 6 } else { 5 }, "steps": f});
    }
    Ok(v)
}

fn formula_no(kind: Kind) -> &'static str {
    match kind {
        Kind::Line => "(4)",
        Kind::Rect => "(6)",
        _ => "(5)",
    }
}

fn figures(req: &AlgoRequest, kind: Kind) -> Result<Value> {
    check_request(req)?;
    report(req.topo, kind, req.root, req.packets, &req.params)
}

#[cfg(test)]
mod tests;
