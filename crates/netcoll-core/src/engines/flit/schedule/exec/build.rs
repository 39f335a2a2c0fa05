//! Building an executor instance: the schedule's dependencies, its messages laid out as
//! network packets (the NI's packetisation, header flits, worm packets) and packet tags,
//! the packet ranges receives listen to, and FPFS forwarding.

use super::{Barrier, Exec};
use crate::engines::flit::network::NONE;
use crate::engines::flit::params::ScheduleParams;
use crate::error::Result;
use crate::schedule::{OpKind, Schedule};
use crate::{invalid, spec_err};
use std::ops::Deref;

/// Lists of u32 per key in one flat array (no allocation per op on million-op schedules).
pub(super) struct Csr {
    pub(super) start: Vec<u32>,
    pub(super) items: Vec<u32>,
}

impl Csr {
    /// From (key, item) pairs; items keep their order within a key.
    fn new(keys: usize, pairs: &[(u32, u32)]) -> Csr {
        let mut start = vec![0u32; keys + 1];
        for &(k, _) in pairs {
            start[k as usize + 1] += 1;
        }
        for k in 0..keys {
            start[k + 1] += start[k];
        }
        let mut fill = start.clone();
        let mut items = vec![0u32; pairs.len()];
        for &(k, v) in pairs {
            items[fill[k as usize] as usize] = v;
            fill[k as usize] += 1;
        }
        Csr { start, items }
    }

    #[inline]
    pub(super) fn range(&self, key: usize) -> std::ops::Range<usize> {
        self.start[key] as usize..self.start[key + 1] as usize
    }
}

impl<S: Deref<Target = Schedule> + Clone> Exec<S> {
    /// An instance of `sched` whose packets are tagged from `tag0` (its tags are
    /// `tag0..tag0 + self.tags()`); `roots` per message: the worm's first visit in the
    /// network's table, NONE for unicast copies.
    pub fn new(
        sched: S,
        inst: u32,
        tag0: u32,
        par: &ScheduleParams,
        vct_limit: Option<usize>,
        roots: Vec<u32>,
        buf: usize,
    ) -> Result<Exec<S>> {
        let s: &Schedule = &sched;
        let pl = s.placement();
        let n = s.num_ops();
        let mut remaining = vec![0u32; n];
        let mut dependents = Vec::new();
        for (g, rem) in remaining.iter_mut().enumerate() {
            let op = s.op(s.op_ref(g));
            for d in s.deps(op) {
                *rem += 1;
                dependents.push((s.global(*d) as u32, g as u32));
            }
        }
        let (mut base, mut flits, mut key_base) = (Vec::new(), Vec::new(), Vec::new());
        let (mut tags, mut keys) = (0u32, 0u32);
        let (mut key_of_tag, mut packet_bytes, mut key_rank) = (Vec::new(), Vec::new(), Vec::new());
        let flit_bits = par.flit_bytes * 8;
        let mut msg_of_key = Vec::new();
        let whole = par.whole_messages == 1;
        let mut npk: Vec<u32> = s
            .messages()
            .iter()
            .map(|m| if whole { 1 } else { m.packets })
            .collect();
        let mut split = vec![1u32; npk.len()];
        let limit = packet_limit(par, vct_limit);
        for (mi, m) in s.messages().iter().enumerate() {
            base.push(tags);
            key_base.push(keys);
            let bytes = s.payload(m).len() as u64 * s.bytes_per_block();
            let worm = roots[mi] != NONE;
            let header_bits = match &m.worm {
                Some(w) if worm => w.header_bits as u64,
                _ => par.unicast_header_bits,
            };
            let header = header_bits.div_ceil(flit_bits);
            let payload = bytes
                .div_ceil(npk[mi].max(1) as u64)
                .div_ceil(par.flit_bytes);
            if !worm && payload + header > limit {
                // The NI packetises (BookSim-style): each schedule packet travels as `k`
                // network packets of at most `limit` flits, header included.
                if header >= limit {
                    return spec_err!(
                        "a packet header of {header} flits leaves no room for payload in \
                         packets of at most {limit} flits: raise max_packet_flits or flit_bytes"
                    );
                }
                let k = payload.div_ceil(limit - header);
                if k * npk[mi] as u64 > u32::MAX as u64 / 2 {
                    return spec_err!(
                        "message {mi} needs {k} packets per schedule packet: raise \
                         max_packet_flits or flit_bytes"
                    );
                }
                split[mi] = k as u32;
                npk[mi] *= k as u32;
            }
            let per_packet = bytes.div_ceil(npk[mi].max(1) as u64);
            let f = per_packet.div_ceil(par.flit_bytes).max(1) + header;
            if f > limit {
                return spec_err!(
                    "worm packets of {f} flits do not fit in {limit} flits (multidestination \
                     worms are not split): use more packets or larger flit_bytes"
                );
            }
            if worm && f as usize > buf {
                return spec_err!(
                    "a worm packet of {f} flits exceeds vc_buf_size = {buf}: deadlock-free switch \
                     replication needs input buffers that hold a whole worm packet (seed 003 \
                     s5.1.2); raise vc_buf_size or use more packets"
                );
            }
            flits.push(f as u16);
            packet_bytes.push(per_packet);
            msg_of_key.extend(std::iter::repeat_n(mi as u32, s.dests(m).len()));
            for di in 0..s.dests(m).len() as u32 {
                key_of_tag.extend(std::iter::repeat_n(keys + di, npk[mi] as usize));
                key_rank.push(pl[s.dests(m)[di as usize] as usize]);
            }
            tags += s.dests(m).len() as u32 * npk[mi];
            keys += s.dests(m).len() as u32;
        }
        let mut listeners = Vec::new();
        let mut need = vec![0u32; n];
        let mut range = vec![(0u32, 0u32); n];
        for (g, nd) in need.iter_mut().enumerate() {
            let at = s.op_ref(g);
            if let OpKind::Send { packets, msg } = s.op(at).kind {
                if whole && packets.resolve(s.message(msg).packets) != (0, s.message(msg).packets) {
                    return invalid!(
                        "whole_messages = 1 needs every send to carry its whole message, but \
                         op {at:?} sends part of message {msg}: use whole_messages = 0"
                    );
                }
            }
            if let OpKind::Recv { msg, packets } = s.op(at).kind {
                let m = s.message(msg);
                let Some(di) = s.dests(m).iter().position(|&d| d == at.rank) else {
                    return invalid!("op {at:?} receives message {msg} not addressed to it");
                };
                listeners.push((key_base[msg as usize] + di as u32, g as u32));
                let (a, b) = packets.resolve(m.packets);
                let k = split[msg as usize];
                range[g] = if whole {
                    (0, if b > a { k } else { 0 })
                } else {
                    (a * k, b * k)
                };
                *nd = range[g].1 - range[g].0;
            }
        }
        let mut forward = vec![false; n];
        if par.ni_fpfs == 1 {
            for (g, fw) in forward.iter_mut().enumerate() {
                let at = s.op_ref(g);
                let op = s.op(at);
                *fw = matches!(op.kind, OpKind::Send { .. })
                    && s.deps(op)
                        .iter()
                        .any(|d| d.rank == at.rank && matches!(s.op(*d).kind, OpKind::Recv { .. }));
            }
        }
        let copy_of = if par.ni_fpfs == 1 {
            ni_copies(s, &forward)
        } else {
            vec![NONE; n]
        };
        let barrier = Barrier::new(s, par.sync_steps == 1);
        Ok(Exec {
            s: sched,
            inst,
            tag0,
            par: par.clone(),
            remaining,
            dependents: Csr::new(n, &dependents),
            ready: vec![None; n],
            got: vec![0; n],
            last: vec![0; n],
            need,
            base,
            npk,
            split,
            listeners: Csr::new(keys as usize, &listeners),
            key_of_tag,
            msg_of_key,
            range,
            flits,
            packet_bytes,
            roots,
            key_rank,
            forward,
            copy_of,
            host_at: vec![None; n],
            waiting_host: vec![Vec::new(); n],
            ni_fired: vec![false; n],
            done: 0,
            finish: 0,
            done_at: vec![0; n],
            step_classes: 1,
            barrier,
            steplog: None,
        })
    }
}

/// The largest network packet in flits: `max_packet_flits` (0: the engine's limit of 65535),
/// and under virtual cut-through no more than a VC buffer holds.
fn packet_limit(par: &ScheduleParams, vct_limit: Option<usize>) -> u64 {
    let own = match par.max_packet_flits {
        0 => 65535,
        n => n.min(65535),
    };
    vct_limit.map_or(own, |b| own.min(b as u64))
}

/// For FPFS: per send op, the earlier host send at the same rank of the same payload and
/// packets that it copies at the NI (NONE: it pays the host overheads itself).
fn ni_copies(s: &Schedule, forward: &[bool]) -> Vec<u32> {
    let mut first = std::collections::HashMap::new();
    let mut copy_of = vec![NONE; s.num_ops()];
    for (g, c) in copy_of.iter_mut().enumerate() {
        let at = s.op_ref(g);
        let OpKind::Send { msg, .. } = s.op(at).kind else {
            continue;
        };
        if forward[g] {
            continue;
        }
        let m = s.message(msg);
        // The host pays t_hs once per message: later sends of the same payload (any
        // packets) are the NI's.
        let key = (at.rank, s.payload(m).to_vec());
        match first.entry(key) {
            std::collections::hash_map::Entry::Occupied(e) => *c = *e.get(),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(g as u32);
            }
        }
    }
    copy_of
}
