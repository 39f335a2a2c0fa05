//! Broadcast and multicast with the NIC-assisted multi-send primitive (seed 002, Buntinas,
//! Panda et al.): the host writes a packet to its NIC once with a list of destinations and
//! the NIC transmits a copy to each. A node's children in the tree get one multi-send.
//!
//! - `postal`: the latency-optimal postal tree built by the two-queue greedy algorithm (s4),
//!   with lambda given (`lambda=`) or chosen per packet size from the timing model
//!   (`models::multisend_lambda`, or `unicast_lambda` for host-based unicast trees);
//! - `multisend-flat`: the root multi-sends to every destination at once.
//!
//! `pipeline=true` forwards packet i as soon as it arrives (s4, "pipeline the message in a
//! packet-wise fashion"); `false` receives the whole message before forwarding it.

use super::chain::participants;
use super::{AlgoRequest, Algorithm, ParamDoc};
use crate::error::Result;
use crate::models::{multisend_lambda, postal_tree, unicast_lambda, MultisendParams};
use crate::schedule::{Collective, CollectiveKind, OpRef, PacketRange, Schedule, ScheduleBuilder};
use crate::spec_err;

const POSTAL_PARAMS: &[ParamDoc] = &[
    ParamDoc {
        name: "lambda",
        default: "auto",
        help: "postal latency in units of one NIC transmission, >= 1 (auto: from the timing model for the packet size)",
    },
    ParamDoc {
        name: "primitive",
        default: "multisend",
        help: "multisend (one NIC multi-send per node) or unicast (host-based point-to-point sends)",
    },
    ParamDoc {
        name: "pipeline",
        default: "true",
        help: "forward packet by packet (true) or whole messages (false)",
    },
    ParamDoc {
        name: "write_combining",
        default: "false",
        help: "timing model with write combining (seed 002 s2) for lambda=auto",
    },
];

const FLAT_PARAMS: &[ParamDoc] = &[ParamDoc {
    name: "pipeline",
    default: "true",
    help: "irrelevant for a flat tree; accepted for symmetry",
}];

pub fn algorithms() -> Vec<Algorithm> {
    let kinds = &[CollectiveKind::Broadcast, CollectiveKind::Multicast];
    vec![
        Algorithm {
            name: "postal",
            kinds,
            family: "multisend",
            params: POSTAL_PARAMS,
            preconditions: "lambda >= 1; with lambda=auto each packet is at most 1536 bytes (more packets are used if needed)",
            source: "seed 002 s2-4 (multi-send, postal-optimal greedy tree)",
            summary: "postal-optimal tree (two-queue greedy), each node one NIC multi-send to its children; completes at min{t: F_lambda(t) >= n}; tune lambda over 1..n",
            build: build_postal,
            closed_form: None,
        },
        Algorithm {
            name: "multisend-flat",
            kinds,
            family: "multisend",
            params: FLAT_PARAMS,
            preconditions: "none",
            source: "seed 002 s2 (multi-send primitive)",
            summary: "the root sends one multi-send to every destination",
            build: build_flat,
            closed_form: None,
        },
    ]
}

fn flag(req: &AlgoRequest, key: &str, default: &str) -> Result<bool> {
    match req.params.text(key, default) {
        "true" | "1" | "yes" => Ok(true),
        "false" | "0" | "no" => Ok(false),
        v => spec_err!("{key}={v} must be true or false"),
    }
}

/// The packets every message of `name` (postal or multisend-flat) carries for `req`: its
/// schedule grows with this count (a pipelined tree), so the tuner evaluates a large one from
/// a few smaller ones (`plan::pipeline`). None for other algorithms.
pub fn pipeline_packets(name: &str, req: &AlgoRequest) -> Option<u32> {
    match name {
        "postal" => Some(packets(req, req.params.text("lambda", "auto") == "auto")),
        "multisend-flat" => Some(req.packets.max(1)),
        _ => None,
    }
}

/// Packets per message: what the request asks, or more if the model's packet limit needs it.
fn packets(req: &AlgoRequest, auto: bool) -> u32 {
    let max = MultisendParams::paper().max_packet_bytes;
    let need = if auto {
        req.bytes.div_ceil(max).min(u64::from(u32::MAX)) as u32
    } else {
        1
    };
    req.packets.max(need).max(1)
}

fn build_postal(req: &AlgoRequest) -> Result<Schedule> {
    let ranks = chain_natural(req);
    let multi = match req.params.text("primitive", "multisend") {
        "multisend" => true,
        "unicast" => false,
        v => return spec_err!("primitive={v} is unknown: use multisend or unicast"),
    };
    let wc = flag(req, "write_combining", "false")?;
    let text = req.params.text("lambda", "auto");
    let auto = text == "auto";
    let m = packets(req, auto);
    let packet = req.bytes.div_ceil(u64::from(m)).max(1);
    let lam = if auto {
        if multi {
            multisend_lambda(packet, wc)?
        } else {
            unicast_lambda(packet, wc)?
        }
    } else {
        req.params.get_f64("lambda", 1.0)?
    };
    let (tree, _) = postal_tree(ranks.len() as u64, lam)?;
    let pipeline = flag(req, "pipeline", "true")?;
    tree_send(req, &ranks, &tree.children, m, multi, pipeline)
}

fn build_flat(req: &AlgoRequest) -> Result<Schedule> {
    let ranks = chain_natural(req);
    flag(req, "pipeline", "true")?;
    let mut children = vec![Vec::new(); ranks.len()];
    children[0] = (1..ranks.len()).collect();
    tree_send(req, &ranks, &children, req.packets, true, true)
}

/// Participants, source first, others in rank order.
fn chain_natural(req: &AlgoRequest) -> Vec<u32> {
    let mut r = participants(req);
    r.sort_unstable();
    let at = r.iter().position(|&x| x == req.root).unwrap_or(0);
    r.rotate_left(at);
    r
}

/// Sends the message down `children` (positions, 0 = source): per node one multi-send to
/// all children (or one unicast per child), `m` packets, pipelined or not. Steps: a node
/// issues one send per step and forwards from the step after the data arrived.
fn tree_send(
    req: &AlgoRequest,
    ranks: &[u32],
    children: &[Vec<usize>],
    m: u32,
    multi: bool,
    pipeline: bool,
) -> Result<Schedule> {
    let mut c = Collective::new(req.kind, req.p, req.root);
    c.targets = req.targets.clone();
    let packet = req.bytes.div_ceil(u64::from(m)).max(1);
    let mut b = ScheduleBuilder::from_collective(c)
        .placement(req.placement.clone())
        .packetization(packet * u64::from(m), packet);
    let data = b.block(req.root, 0);
    // Receive op of each packet at each position (empty for the source).
    let mut got: Vec<Vec<(OpRef, u32)>> = vec![Vec::new(); ranks.len()];
    let mut queue = std::collections::VecDeque::from([0usize]);
    let one = std::slice::from_ref(&data);
    while let Some(v) = queue.pop_front() {
        let kids = &children[v];
        if kids.is_empty() {
            continue;
        }
        let dests: Vec<u32> = kids.iter().map(|&c| ranks[c]).collect();
        let msgs: Vec<_> = if multi {
            vec![b.message(ranks[v], &dests, one)]
        } else {
            dests
                .iter()
                .map(|&d| b.message(ranks[v], &[d], one))
                .collect()
        };
        let (mut prev, mut busy): (Option<OpRef>, u32) = (None, 0);
        let slots: Vec<(usize, Option<u32>)> = if pipeline {
            (0..m)
                .flat_map(|i| (0..msgs.len()).map(move |j| (j, Some(i))))
                .collect()
        } else {
            (0..msgs.len()).map(|j| (j, None)).collect()
        };
        for (j, packet) in slots {
            let mut deps: Vec<OpRef> = prev.into_iter().collect();
            let (range, have) = match packet {
                Some(i) => (PacketRange::one(i), got[v].get(i as usize)),
                None => (PacketRange::ALL, got[v].last()),
            };
            let mut step = busy;
            if let Some(&(r, at)) = have {
                deps.push(r);
                step = step.max(at + 1);
            }
            b.set_round(Some(step));
            let s = b.send_msg(msgs[j], range, &deps);
            let targets: &[usize] = if multi { kids } else { &kids[j..=j] };
            for &c in targets {
                let after: Vec<OpRef> = got[c].last().map(|x| x.0).into_iter().collect();
                let r = b.recv_msg(ranks[c], msgs[j], range, &after);
                got[c].push((r, step));
            }
            prev = Some(s);
            busy = step + 1;
        }
        queue.extend(kids.iter().copied());
    }
    b.build()
}

#[cfg(test)]
mod tests;
