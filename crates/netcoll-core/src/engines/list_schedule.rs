//! The analytic engine's list schedules: the completion time of a schedule under the
//! Hockney, postal, multi-send and LogGP models, every rank's send port, receive port and
//! processor serving its ops in order (semantics: `engines::analytic`'s module docs).

use super::analysis::{combine_bytes, msg_bytes, Machine};
use super::analytic_classes::RouteCosts;
use super::op_graph::{overlaps, Graph, Paths};
use crate::schedule::{OpKind, Schedule};

/// Packets above which the multi-send NIC recurrence is taken in closed form: a message of
/// 10^12 bytes has 6.5e8 FM packets, and one loop step per packet would take minutes.
pub(super) const PACKET_LOOP_MAX: u64 = 1 << 16;

/// The host hands `q` packets to the NIC, one per `ts` from `t`; the NIC sends each to its
/// destinations in `c`. Returns when the NIC took the last packet, and advances `nic`.
pub(super) fn multisend_packets(t: f64, nic: &mut f64, q: u64, ts: f64, c: f64) -> f64 {
    if q <= PACKET_LOOP_MAX {
        let mut base = t;
        for j in 0..q {
            base = (t + (j + 1) as f64 * ts).max(*nic);
            *nic = base + c;
        }
        return base;
    }
    // nic_j = max(nic_0 + (j+1) c, max_i (t + (i+1) ts + (j-i+1) c)); the inner maximum is
    // linear in i, so it sits at i = j when ts >= c and at i = 0 otherwise.
    let qf = q as f64;
    let host_bound = if ts >= c {
        t + qf * ts + c
    } else {
        t + ts + qf * c
    };
    *nic = (*nic + qf * c).max(host_bound);
    *nic - c
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Model {
    Hockney,
    Postal,
    Multisend,
    LogGP,
}

/// What the four list schedules share.
pub(super) struct ListInputs<'a> {
    pub(super) graph: &'a Graph,
    pub(super) order: &'a [u32],
    pub(super) paths: &'a Paths,
    pub(super) conflict: &'a [u32],
    /// Every path's Hockney terms by link class.
    pub(super) costs: &'a RouteCosts,
    /// Per receive op, the position of its rank among its message's destinations.
    pub(super) dest_at: Vec<u32>,
}

/// Completion time of the list schedule under `model` (see `engines::analytic`'s docs).
pub(super) fn list_time(s: &Schedule, li: &ListInputs, model: Model, m: &Machine) -> f64 {
    let (graph, order, paths) = (li.graph, li.order, li.paths);
    let n = s.num_ops();
    let p = s.p() as usize;
    let mut done = vec![0f64; n];
    // Arrival of each send op's packets at each destination of its message.
    let mut arr_off = vec![0u32; n + 1];
    for (g, op) in s.ops.iter().enumerate() {
        let k = match op.kind {
            OpKind::Send { msg, .. } => s.dests(s.message(msg)).len() as u32,
            _ => 0,
        };
        arr_off[g + 1] = arr_off[g] + k;
    }
    let mut arrive = vec![0f64; arr_off[n] as usize];
    let mut port = vec![[0f64; 3]; p];
    let mut nic = vec![0f64; p];
    let mut rank_of = vec![0u32; n];
    for r in 0..s.p() {
        let base = s.rank_start[r as usize] as usize;
        rank_of[base..base + s.ops(r).len()].fill(r);
    }
    let mut end = 0f64;
    for &g in order {
        let g = g as usize;
        let r = rank_of[g] as usize;
        let op = &s.ops[g];
        let mut ready = 0f64;
        for &u in s.deps(op) {
            ready = ready.max(done[s.global(u)]);
        }
        match op.kind {
            OpKind::Send { msg, packets } => {
                let start = ready.max(port[r][0]);
                let out = &mut arrive[arr_off[g] as usize..arr_off[g + 1] as usize];
                let busy = send(s, msg, packets, start, li, model, m, out, &mut nic[r]);
                port[r][0] = busy;
                done[g] = busy;
            }
            OpKind::Recv { msg, packets } => {
                let i = li.dest_at[g] as usize;
                let (a, b) = packets.resolve(s.message(msg).packets);
                for &x in graph.sends_of(msg) {
                    if overlaps(s, x as usize, a, b) {
                        ready = ready.max(arrive[arr_off[x as usize] as usize + i]);
                    }
                }
                let overhead = if model == Model::LogGP {
                    m.loggp.overhead()
                } else {
                    0.0
                };
                // One message at a time: its transfer cannot overlap the previous receive's.
                let path = paths.of(msg).start + i;
                let take = transfer(s, msg, packets, li, path, model, m);
                done[g] = ready.max(port[r][1] + take) + overhead;
                port[r][1] = done[g];
            }
            OpKind::Compute { .. } => {
                let work = if model == Model::Hockney {
                    combine_bytes(s, g) as f64 * m.gamma
                } else {
                    0.0
                };
                let start = ready.max(port[r][2]);
                done[g] = start + work;
                port[r][2] = done[g];
            }
        }
        end = end.max(done[g]);
    }
    end
}

/// Per op, the position of a receive's rank among its message's destinations (0 for other
/// ops). Long destination lists are indexed once, not searched per receive (a multi-send to
/// 65,535 ranks made that 4e9 comparisons); short ones are searched.
pub(super) fn dest_positions(s: &Schedule) -> Vec<u32> {
    const SEARCHED: usize = 16;
    let mut at = std::collections::HashMap::new();
    for msg in 0..s.messages.len() as u32 {
        let dests = s.dests(s.message(msg));
        if dests.len() > SEARCHED {
            for (i, &d) in dests.iter().enumerate() {
                at.entry((msg, d)).or_insert(i as u32);
            }
        }
    }
    let mut out = vec![0u32; s.num_ops()];
    for r in 0..s.p() {
        let base = s.rank_start[r as usize] as usize;
        for (k, op) in s.ops(r).iter().enumerate() {
            let OpKind::Recv { msg, .. } = op.kind else {
                continue;
            };
            let dests = s.dests(s.message(msg));
            out[base + k] = if dests.len() > SEARCHED {
                at.get(&(msg, r)).copied().unwrap_or(0)
            } else {
                dests.iter().position(|&d| d == r).unwrap_or(0) as u32
            };
        }
    }
    out
}

/// Times one send op under `model`; records the arrival at its `i`-th destination in
/// `arrive[i]`; returns when the sender's port is free again.
#[allow(clippy::too_many_arguments)]
fn send(
    s: &Schedule,
    msg: u32,
    packets: crate::schedule::PacketRange,
    start: f64,
    li: &ListInputs,
    model: Model,
    m: &Machine,
    arrive: &mut [f64],
    nic: &mut f64,
) -> f64 {
    let message = s.message(msg);
    let total = message.packets.max(1);
    let (a, b) = packets.resolve(total);
    let npk = b.saturating_sub(a).max(1) as u64;
    let bytes = (msg_bytes(s, msg) * npk).div_ceil(total as u64);
    let range = li.paths.of(msg);
    let k = range.len();
    let mut t = start;
    match model {
        Model::Hockney => {
            for (i, path) in range.enumerate() {
                t += li.costs.of(path).time(m, li.conflict[path], bytes);
                arrive[i] = t;
            }
            t
        }
        Model::Postal => {
            // One unit per packet per destination; the last packet lands lambda after it began.
            for a in arrive.iter_mut().take(k) {
                t += npk as f64;
                *a = t - 1.0 + m.lambda;
            }
            t
        }
        Model::LogGP => {
            let l = &m.loggp;
            let inject = l.overhead() + bytes.saturating_sub(1) as f64 * l.gap_per_byte();
            for a in arrive.iter_mut().take(k) {
                *a = t + inject + l.latency();
                t += inject.max(l.gap());
            }
            t
        }
        Model::Multisend => {
            let ms = &m.multisend;
            // Packets no larger than the model's packet (FM: 1,536 bytes).
            let q = npk.max(bytes.div_ceil(ms.max_packet_bytes.max(1)));
            let pb = bytes.div_ceil(q).max(1);
            let (ts, tx, tr) = (ms.send.at(pb), ms.xmit.at(pb), ms.recv.at(pb));
            let base = multisend_packets(t, nic, q, ts, k as f64 * tx);
            for (i, a) in arrive.iter_mut().take(k).enumerate() {
                *a = base + i as f64 * tx + tr;
            }
            t + q as f64 * ts
        }
    }
}

/// How long packets `packets` of `msg` occupy a receiver under `model` (over path `path`).
fn transfer(
    s: &Schedule,
    msg: u32,
    packets: crate::schedule::PacketRange,
    li: &ListInputs,
    path: usize,
    model: Model,
    m: &Machine,
) -> f64 {
    let total = s.message(msg).packets.max(1);
    let (a, b) = packets.resolve(total);
    let npk = b.saturating_sub(a).max(1) as u64;
    let bytes = (msg_bytes(s, msg) * npk).div_ceil(total as u64);
    match model {
        Model::Hockney => li.costs.of(path).time(m, li.conflict[path], bytes),
        Model::Postal => npk as f64,
        Model::LogGP => {
            let l = &m.loggp;
            l.gap()
                .max(bytes.saturating_sub(1) as f64 * l.gap_per_byte())
        }
        Model::Multisend => {
            let ms = &m.multisend;
            let q = npk.max(bytes.div_ceil(ms.max_packet_bytes.max(1)));
            q as f64 * ms.xmit.at(bytes.div_ceil(q).max(1))
        }
    }
}
