//! NI-forwarding multicast on k-binomial trees (seed 003 s4, Sivaram, Kesavan, Panda,
//! Stunkel).
//!
//! The source's NI sends an m-packet message down a tree; intermediate NIs forward it
//! without the host. With FPFS (first packet first served) an NI sends packet i to each
//! child, in order, as soon as packet i has arrived; with FCFS (first child first served)
//! it sends the whole message to its first child, then to the second, and so on. One packet
//! copy leaves an NI per step and can be forwarded from the step after it arrives, so each
//! packet copy is its own send op with an explicit dependency on the receive of that packet
//! (pipelining is visible in the schedule), and the op's step is its NI step.
//!
//! The tree is the contention-free k-binomial tree of Fig. 10 built on an ordered chain of
//! the participants (`order`, see chain.rs); k defaults to the optimum of Theorem 3.

use super::chain::{chain, default_order};
use super::{AlgoRequest, Algorithm, ParamDoc};
use crate::error::Result;
use crate::models::{kbinomial_optimal, kbinomial_tree};
use crate::schedule::{Collective, CollectiveKind, OpRef, PacketRange, Schedule, ScheduleBuilder};
use crate::spec_err;

const PARAMS: &[ParamDoc] = &[
    ParamDoc {
        name: "k",
        default: "",
        help: "most children per node, >= 1 (default: the optimal k of Theorem 3 for the participants and --packets)",
    },
    ParamDoc {
        name: "forwarding",
        default: "fpfs",
        help: "fpfs (each packet to all children as it arrives) or fcfs (the whole message child by child)",
    },
    ParamDoc {
        name: "order",
        default: "",
        help: "chain the tree is built on: natural, dimension (k-ary n-cubes) or updown (irregular); default dimension on coordinate networks, updown otherwise",
    },
];

pub fn algorithms() -> Vec<Algorithm> {
    vec![Algorithm {
        name: "kbinomial",
        kinds: &[CollectiveKind::Broadcast, CollectiveKind::Multicast],
        family: "kbinomial",
        params: PARAMS,
        preconditions: "k >= 1; order=dimension needs a coordinate network",
        source: "seed 003 s4.2-4.3 (k-binomial trees, FPFS/FCFS NI forwarding)",
        summary: "pipelined NI-forwarding multicast over a contention-free k-binomial tree; FPFS takes L1 + (m-1) k steps (Theorem 3); tune k over 1..ceil(log2 n)",
        build,
        closed_form: None,
    }]
}

/// FPFS or FCFS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forwarding {
    Fpfs,
    Fcfs,
}

impl Forwarding {
    pub fn parse(s: &str) -> Result<Forwarding> {
        match s.to_ascii_lowercase().as_str() {
            "fpfs" => Ok(Forwarding::Fpfs),
            "fcfs" => Ok(Forwarding::Fcfs),
            _ => spec_err!("forwarding={s} is unknown: use fpfs or fcfs"),
        }
    }
}

fn build(req: &AlgoRequest) -> Result<Schedule> {
    let order = req.params.text("order", default_order(req.topo));
    let ranks = chain(req, order)?;
    let m = u64::from(req.packets);
    let n = ranks.len() as u64;
    let k = match req.params.text("k", "") {
        "" => kbinomial_optimal(n, m)?.0.max(1),
        _ => {
            let k = req.params.get_u64("k", 1)?;
            if k == 0 || k > 64 {
                return spec_err!("k={k} is out of range: use 1 to 64");
            }
            k as u32
        }
    };
    let forwarding = Forwarding::parse(req.params.text("forwarding", "fpfs"))?;
    let children = kbinomial_tree(n, k)?;
    tree_multicast(req, &ranks, &children, forwarding)
}

/// Schedules an m-packet multicast down `children` (chain positions, 0 = source) on the
/// ranks `ranks`, each NI sending one packet copy per step.
pub fn tree_multicast(
    req: &AlgoRequest,
    ranks: &[u32],
    children: &[Vec<usize>],
    forwarding: Forwarding,
) -> Result<Schedule> {
    let m = req.packets;
    let mut c = Collective::new(req.kind, req.p, req.root);
    c.targets = req.targets.clone();
    // Exactly m packets: the message is m packets of ceil(bytes / m) bytes.
    let packet = req.bytes.div_ceil(u64::from(m)).max(1);
    let mut b = ScheduleBuilder::from_collective(c)
        .placement(req.placement.clone())
        .packetization(packet * u64::from(m), packet);
    let data = b.block(req.root, 0);
    let n = ranks.len();
    // Per position: the receive op of each packet and the step it arrives in.
    let mut got: Vec<Vec<(OpRef, u32)>> = vec![Vec::new(); n];
    let mut queue = std::collections::VecDeque::from([0usize]);
    while let Some(v) = queue.pop_front() {
        let kids = &children[v];
        let msgs: Vec<_> = kids
            .iter()
            .map(|&c| b.message(ranks[v], &[ranks[c]], std::slice::from_ref(&data)))
            .collect();
        for &c in kids {
            got[c] = Vec::with_capacity(m as usize);
        }
        let mut order: Vec<(usize, u32)> = Vec::with_capacity(kids.len() * m as usize);
        match forwarding {
            Forwarding::Fpfs => {
                (0..m).for_each(|i| (0..kids.len()).for_each(|j| order.push((j, i))))
            }
            Forwarding::Fcfs => {
                (0..kids.len()).for_each(|j| (0..m).for_each(|i| order.push((j, i))))
            }
        }
        let (mut busy, mut prev): (u32, Option<OpRef>) = (0, None);
        for (j, i) in order {
            let mut deps: Vec<OpRef> = prev.into_iter().collect();
            let mut ready = 0;
            if v != 0 {
                let (r, at) = got[v][i as usize];
                deps.push(r);
                ready = at + 1;
            }
            let step = busy.max(ready);
            b.set_round(Some(step));
            let s = b.send_msg(msgs[j], PacketRange::one(i), &deps);
            let c = kids[j];
            let prev_recv: Vec<OpRef> = got[c].last().map(|x| x.0).into_iter().collect();
            let r = b.recv_msg(ranks[c], msgs[j], PacketRange::one(i), &prev_recv);
            got[c].push((r, step));
            busy = step + 1;
            prev = Some(s);
        }
        queue.extend(kids.iter().copied());
    }
    b.build()
}

#[cfg(test)]
mod tests;
