//! Hand-written schedules for the tests, each with a knob that breaks it in one place.

use crate::schedule::{CollectiveKind, OpRef, PacketRange, Piece, Schedule, ScheduleBuilder};

/// Which message (by creation order) to damage, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drop {
    None,
    /// Leave out the send op (the receive stays: an unmatched receive).
    Send(usize),
    /// Leave out the whole message (the destination misses the data).
    Message(usize),
    /// The send does not wait for the data it forwards.
    Dep(usize),
}

/// Binomial broadcast: in round k every rank that has the data sends it 2^k ranks further.
pub fn binomial_bcast(p: u32, root: u32, drop: Drop) -> Schedule {
    let mut b = ScheduleBuilder::new(CollectiveKind::Broadcast, p, root);
    let data = b.block(root, 0);
    let real = |v: u32| (v + root) % p;
    let mut got: Vec<Option<OpRef>> = vec![None; p as usize];
    let (mut k, mut n, mut round) = (1, 0, 0);
    while k < p {
        b.set_round(Some(round));
        for v in 0..k.min(p - k) {
            let (src, dst) = (real(v), real(v + k));
            if drop != Drop::Message(n) {
                let deps: Vec<OpRef> = got[v as usize]
                    .filter(|_| drop != Drop::Dep(n))
                    .into_iter()
                    .collect();
                let m = b.message(src, &[dst], std::slice::from_ref(&data));
                if drop != Drop::Send(n) {
                    b.send_msg(m, PacketRange::ALL, &deps);
                }
                got[(v + k) as usize] = Some(b.recv_msg(dst, m, PacketRange::ALL, &[]));
            }
            n += 1;
        }
        k *= 2;
        round += 1;
    }
    b.build().unwrap()
}

/// Number of messages of [`binomial_bcast`] on `p` ranks.
pub fn binomial_messages(p: u32) -> usize {
    p.saturating_sub(1) as usize
}

/// Ring allgather: in step s rank r forwards block (r - s) to r + 1.
pub fn ring_allgather(p: u32, drop: Drop) -> Schedule {
    let mut b = ScheduleBuilder::new(CollectiveKind::Allgather, p, 0);
    let mut last_recv: Vec<Option<OpRef>> = vec![None; p as usize];
    let mut n = 0;
    for s in 0..p.saturating_sub(1) {
        b.set_round(Some(s));
        let mut msgs = Vec::new();
        for r in 0..p {
            let owner = (r + p - s) % p;
            let piece = b.block(owner, 0);
            let m = b.message(r, &[(r + 1) % p], &[piece]);
            let deps: Vec<OpRef> = last_recv[r as usize]
                .filter(|_| drop != Drop::Dep(n))
                .into_iter()
                .collect();
            if drop != Drop::Send(n) {
                b.send_msg(m, PacketRange::ALL, &deps);
            }
            msgs.push(m);
            n += 1;
        }
        for r in 0..p {
            let from = (r + p - 1) % p;
            last_recv[r as usize] = Some(b.recv_msg(r, msgs[from as usize], PacketRange::ALL, &[]));
        }
    }
    b.build().unwrap()
}

/// Recursive-doubling allreduce on a power of two: exchange with r ^ 2^k, then reduce.
/// `double_count` makes rank 0 add its own contribution again in the last round.
pub fn recursive_doubling_allreduce(p: u32, double_count: bool) -> Schedule {
    let mut b = ScheduleBuilder::new(CollectiveKind::Allreduce, p, 0);
    let mut cur: Vec<(Piece, Option<OpRef>)> =
        (0..p).map(|r| (Piece::contribution(0, r), None)).collect();
    let mut k = 1;
    let mut round = 0;
    while k < p {
        b.set_round(Some(round));
        let sends: Vec<OpRef> = (0..p)
            .map(|r| {
                b.send(
                    r,
                    &[r ^ k],
                    &[cur[r as usize].0.clone()],
                    &deps(cur[r as usize].1),
                )
            })
            .collect();
        let recvs: Vec<OpRef> = (0..p)
            .map(|r| b.recv(r, sends[(r ^ k) as usize], &[]))
            .collect();
        for r in 0..p {
            let (mine, prev) = cur[r as usize].clone();
            let mut inputs = vec![mine, b.value(recvs[r as usize])[0].clone()];
            if double_count && r == 0 && k * 2 >= p {
                inputs.push(Piece::contribution(0, 0));
            }
            let mut d = deps(prev);
            d.push(recvs[r as usize]);
            let op = b.reduce(r, &inputs, &d);
            cur[r as usize] = (b.value(op)[0].clone(), Some(op));
        }
        k *= 2;
        round += 1;
    }
    b.build().unwrap()
}

/// Ring reduce-scatter with one block index per rank: in step s rank r passes index
/// (r - 1 - s) on, after adding its own contribution to what it received.
pub fn ring_reduce_scatter(p: u32) -> Schedule {
    let mut b = ScheduleBuilder::new(CollectiveKind::ReduceScatter, p, 0);
    let idx = |r: u32, s: u32| (r + 2 * p - 1 - s) % p;
    let mut cur: Vec<(Piece, Option<OpRef>)> = (0..p)
        .map(|r| (Piece::contribution(idx(r, 0), r), None))
        .collect();
    for s in 0..p.saturating_sub(1) {
        let sends: Vec<OpRef> = (0..p)
            .map(|r| {
                b.send(
                    r,
                    &[(r + 1) % p],
                    &[cur[r as usize].0.clone()],
                    &deps(cur[r as usize].1),
                )
            })
            .collect();
        for r in 0..p {
            let recv = b.recv(r, sends[((r + p - 1) % p) as usize], &[]);
            let got = b.value(recv)[0].clone();
            let j = idx(r, s + 1);
            let op = b.reduce(r, &[got, Piece::contribution(j, r)], &[recv]);
            cur[r as usize] = (b.value(op)[0].clone(), Some(op));
        }
    }
    b.build().unwrap()
}

/// Network-coded exchange on a line a - b - c: b receives A and C, multi-sends A^C and its own
/// B to both ends, which decode. `broken` sends A^B^C instead and no B: nobody can decode.
pub fn xor_line(broken: bool) -> Schedule {
    let (a, bb, c) = (0, 1, 2);
    let mut b = ScheduleBuilder::new(CollectiveKind::AlltoallBroadcast, 3, 0);
    let (pa, pb, pc) = (b.block(a, 0), b.block(bb, 0), b.block(c, 0));
    let sa = b.send(a, &[bb], std::slice::from_ref(&pa), &[]);
    let sc = b.send(c, &[bb], std::slice::from_ref(&pc), &[]);
    let ra = b.recv(bb, sa, &[]);
    let rc = b.recv(bb, sc, &[]);
    let inputs = if broken {
        vec![pa.clone(), pb.clone(), pc.clone()]
    } else {
        vec![pa.clone(), pc.clone()]
    };
    let enc = b.xor(bb, &inputs, &[ra, rc]);
    let coded = b.value(enc).to_vec();
    let sx = b.send(bb, &[a, c], &coded, &[enc]);
    let sb = (!broken).then(|| b.send(bb, &[a, c], &[pb], &[]));
    for (end, own, other) in [(a, &pa, &pc), (c, &pc, &pa)] {
        if let Some(sb) = sb {
            b.recv(end, sb, &[]);
        }
        let rx = b.recv(end, sx, &[]);
        if !broken {
            let mut ins = coded.clone();
            ins.push(own.clone());
            b.decode(end, &ins, std::slice::from_ref(other), &[rx]);
        }
    }
    b.build().unwrap()
}

/// Chain broadcast 0 -> 1 -> ... -> p-1 of one block in two packets, each forwarded as soon as
/// it arrives. `wrong_dep` makes rank 1 forward packet 1 after packet 0 only.
pub fn pipelined_chain(p: u32, wrong_dep: bool) -> Schedule {
    let mut b = ScheduleBuilder::new(CollectiveKind::Broadcast, p, 0).packetization(1024, 512);
    let data = b.block(0, 0);
    let mut prev = b.message(0, &[1], std::slice::from_ref(&data));
    for j in 0..2 {
        b.set_round(Some(j));
        b.send_msg(prev, PacketRange::one(j), &[]);
    }
    for r in 1..p {
        let next = (r + 1 < p).then(|| b.message(r, &[r + 1], std::slice::from_ref(&data)));
        let mut got = Vec::new();
        for j in 0..2 {
            b.set_round(Some(r - 1 + j));
            got.push(b.recv_msg(r, prev, PacketRange::one(j), &[]));
            if let Some(next) = next {
                let dep = if wrong_dep && r == 1 {
                    got[0]
                } else {
                    got[j as usize]
                };
                b.set_round(Some(r + j));
                b.send_msg(next, PacketRange::one(j), &[dep]);
            }
        }
        if let Some(next) = next {
            prev = next;
        }
    }
    b.build().unwrap()
}

/// The root reaches every other rank with one NI multi-send.
pub fn multisend_bcast(p: u32) -> Schedule {
    let mut b = ScheduleBuilder::new(CollectiveKind::Broadcast, p, 0);
    let data = b.block(0, 0);
    let others: Vec<u32> = (1..p).collect();
    let s = b.send(0, &others, &[data], &[]);
    for &r in &others {
        b.recv(r, s, &[]);
    }
    b.build().unwrap()
}

pub fn deps(op: Option<OpRef>) -> Vec<OpRef> {
    op.into_iter().collect()
}
