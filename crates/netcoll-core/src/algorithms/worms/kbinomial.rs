//! `ni-kbinomial`: NI-based multicast with First-Packet-First-Served forwarding over an
//! optimal k-binomial tree (seed 003 s4.2.2, s4.3), built as in Fig. 10 on an ordering of the
//! participants. Up*/down* routing admits no contention-free ordering (s4.3.4), so we use the
//! POC ordering the paper proposes: the source, then the participants chain by chain in the
//! order Fig. 13 strips the chains, switch by switch, in port order on a switch.

use super::{Mcast, ParamDoc, UD_ROOT};
use crate::algorithms::{AlgoRequest, Algorithm};
use crate::error::Result;
use crate::models::kbinomial::{kbinomial_optimal, kbinomial_tree};
use crate::schedule::{OpRef, PacketRange, Schedule};
use crate::spec_err;

const K: ParamDoc = ParamDoc {
    name: "k",
    default: "optimal",
    help: "largest number of children per node; default: Theorem 3's optimum for the set \
           size and the number of packets",
};

pub fn algorithm() -> Algorithm {
    Algorithm {
        name: "ni-kbinomial",
        kinds: super::KINDS,
        family: "worms",
        params: &[K, UD_ROOT],
        preconditions: "NIs that forward packets (FPFS); any routing",
        source: "seed 003 s4.2.2, s4.3 (Theorems 2-3, Fig. 10)",
        summary: "NI-forwarded k-binomial tree (FPFS, packets pipelined) on the POC ordering \
                  of the participants",
        build,
        closed_form: None,
    }
}

/// The participants in POC order, source first.
pub fn poc_order(m: &Mcast) -> Vec<u32> {
    let on = m.on_switch();
    let mut order = vec![m.root];
    for chain in m.pocs() {
        for s in chain {
            order.extend(on[s as usize].iter().copied().filter(|&r| r != m.root));
        }
    }
    order
}

/// Packets of the root's message under the request's packetization.
fn packets(req: &AlgoRequest) -> u64 {
    let pb = req.bytes.div_ceil(req.packets as u64).max(1);
    if req.bytes == 0 {
        1
    } else {
        req.bytes.div_ceil(pb)
    }
}

fn build(req: &AlgoRequest) -> Result<Schedule> {
    let m = Mcast::from_request(req)?;
    let order = poc_order(&m);
    let n = order.len() as u64;
    let mp = packets(req);
    let k = match req.params.text(K.name, K.default) {
        "optimal" => kbinomial_optimal(n, mp)?.0.max(1),
        text => match text.parse::<u32>() {
            Ok(k) if k >= 1 => k,
            _ => return spec_err!("k={text} must be an integer >= 1 (or 'optimal')"),
        },
    };
    let tree = kbinomial_tree(n, k)?;
    let mut b = super::builder(req);
    let data = b.block(req.root, 0);
    // got[v][i]: v's receive of packet i, and the step at whose end it holds it.
    let mut got: Vec<Vec<(Option<OpRef>, u32)>> = vec![Vec::new(); order.len()];
    got[0] = vec![(None, 0); mp as usize];
    // Breadth-first so that a parent's arrivals are known before its children's.
    let mut queue = vec![0usize];
    let mut head = 0;
    while head < queue.len() {
        let v = queue[head];
        head += 1;
        let kids = &tree[v];
        let msgs: Vec<_> = kids
            .iter()
            .map(|&c| b.message(order[v], &[order[c]], std::slice::from_ref(&data)))
            .collect();
        let mut busy = 0u32;
        for i in 0..mp as usize {
            let (recv, at) = got[v][i];
            for (j, &c) in kids.iter().enumerate() {
                // One copy leaves the NI per step, packets in order (FPFS).
                busy = busy.max(at) + 1;
                b.set_round(Some(busy - 1));
                let deps: Vec<OpRef> = recv.into_iter().collect();
                b.send_msg(msgs[j], PacketRange::one(i as u32), &deps);
                let r = b.recv_msg(order[c], msgs[j], PacketRange::one(i as u32), &[]);
                got[c].push((Some(r), busy));
            }
        }
        queue.extend_from_slice(kids);
    }
    b.build()
}
