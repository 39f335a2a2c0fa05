//! Correct schedules verify, and their counters say what they are.

use super::examples::*;
use crate::schedule::{
    Collective, CollectiveKind, OpRef, Piece, Report, Schedule, ScheduleBuilder, Worm,
};

fn ok(s: &Schedule) -> Report {
    let r = s.verify();
    assert!(r.ok, "{}", r.diagnosis.unwrap_or_default());
    r
}

#[test]
fn binomial_broadcast_on_8_ranks() {
    let r = ok(&binomial_bcast(8, 0, Drop::None));
    assert_eq!(r.counts.messages, 7);
    assert_eq!(r.counts.max_step, Some(2));
    assert_eq!(r.counts.ops_per_rank, vec![3, 3, 2, 2, 1, 1, 1, 1]);
    ok(&binomial_bcast(8, 5, Drop::None));
}

#[test]
fn ring_allgather_on_5_ranks() {
    let r = ok(&ring_allgather(5, Drop::None));
    assert_eq!(
        (r.counts.messages, r.counts.send_ops, r.counts.recv_ops),
        (20, 20, 20)
    );
    assert_eq!(r.counts.max_step, Some(3));
}

#[test]
fn recursive_doubling_allreduce_on_4_ranks() {
    let r = ok(&recursive_doubling_allreduce(4, false));
    assert_eq!((r.counts.messages, r.counts.compute_ops), (8, 8));
}

#[test]
fn ring_reduce_scatter_verifies() {
    for p in [1, 2, 3, 6] {
        ok(&ring_reduce_scatter(p));
    }
}

#[test]
fn xor_network_coded_exchange() {
    let r = ok(&xor_line(false));
    // a->b, c->b, then two multi-sends of b to {a, c}.
    assert_eq!(
        (r.counts.messages, r.counts.ni_messages, r.counts.multisends),
        (6, 4, 2)
    );
}

#[test]
fn decoding_needs_no_explicit_decode_op() {
    // Without decode ops the blocks still count: they are decodable from what is held.
    let mut b = ScheduleBuilder::new(CollectiveKind::AlltoallBroadcast, 3, 0);
    let (pa, pb, pc) = (b.block(0, 0), b.block(1, 0), b.block(2, 0));
    let sa = b.send(0, &[1], std::slice::from_ref(&pa), &[]);
    let sc = b.send(2, &[1], std::slice::from_ref(&pc), &[]);
    let ra = b.recv(1, sa, &[]);
    let rc = b.recv(1, sc, &[]);
    let x = b.xor_blocks(&[(0, 0), (2, 0)]);
    let sx = b.send(1, &[0, 2], &[x], &[ra, rc]);
    let sb = b.send(1, &[0, 2], &[pb], &[]);
    for r in [0, 2] {
        b.recv(r, sx, &[]);
        b.recv(r, sb, &[]);
    }
    ok(&b.build().unwrap());
}

#[test]
fn forwarding_a_block_decoded_implicitly() {
    // The root sends x0^x1 and x1; rank 1 forwards x0, which it holds only through the span.
    let mut c = Collective::new(CollectiveKind::Broadcast, 3, 0);
    c.blocks = 2;
    let mut b = ScheduleBuilder::from_collective(c);
    let (x0, x1) = (b.block(0, 0), b.block(0, 1));
    let x = b.xor_blocks(&[(0, 0), (0, 1)]);
    let sx = b.send(0, &[1], &[x], &[]);
    let s1 = b.send(0, &[1, 2], std::slice::from_ref(&x1), &[]);
    let rx = b.recv(1, sx, &[]);
    let r1 = b.recv(1, s1, &[]);
    b.recv(2, s1, &[]);
    let f = b.send(1, &[2], &[x0], &[rx, r1]);
    b.recv(2, f, &[]);
    ok(&b.build().unwrap());
}

#[test]
fn pipelined_two_packet_chain_broadcast() {
    let r = ok(&pipelined_chain(4, false));
    assert_eq!(
        (r.counts.ni_messages, r.counts.packets, r.counts.bytes),
        (3, 6, 3 * 1024)
    );
    assert_eq!(r.counts.send_ops, 6);
    assert_eq!(r.counts.max_step, Some(3));
}

#[test]
fn multisend_counts_both_ways() {
    let r = ok(&multisend_bcast(5));
    assert_eq!(
        (r.counts.messages, r.counts.ni_messages, r.counts.multisends),
        (4, 1, 1)
    );
    assert_eq!((r.counts.packets, r.counts.ni_packets), (4, 1));
}

#[test]
fn worm_message_verifies_and_counts() {
    let mut b = ScheduleBuilder::new(CollectiveKind::Multicast, 6, 0);
    let mut c = b.collective().clone();
    c.targets = vec![2, 4];
    b = ScheduleBuilder::from_collective(c);
    let data = b.block(0, 0);
    let m = b.message(0, &[2, 4], &[data]);
    b.set_worm(
        m,
        Worm {
            dests: vec![4, 2],
            route: vec![10, 11, 12],
            ..Default::default()
        },
    );
    let s = b.send_msg(m, crate::schedule::PacketRange::ALL, &[]);
    b.recv(2, s, &[]);
    b.recv(4, s, &[]);
    let r = ok(&b.build().unwrap());
    assert_eq!(r.counts.worms, 1);
}

#[test]
fn multicast_through_a_relay() {
    let mut c = Collective::new(CollectiveKind::Multicast, 5, 0);
    c.targets = vec![3, 4];
    let mut b = ScheduleBuilder::from_collective(c);
    let data = b.block(0, 0);
    let s = b.send(0, &[1], std::slice::from_ref(&data), &[]);
    let r = b.recv(1, s, &[]);
    let f = b.send(1, &[3, 4], &[data], &[r]);
    b.recv(3, f, &[]);
    b.recv(4, f, &[]);
    ok(&b.build().unwrap());
}

#[test]
fn linear_scatter_and_gather() {
    let mut b = ScheduleBuilder::new(CollectiveKind::Scatter, 4, 2);
    for r in [0, 1, 3] {
        let piece = b.block(2, r);
        let s = b.send(2, &[r], &[piece], &[]);
        b.recv(r, s, &[]);
    }
    ok(&b.build().unwrap());
    let mut b = ScheduleBuilder::new(CollectiveKind::Gather, 4, 1);
    for r in [0, 2, 3] {
        let piece = b.block(r, 0);
        let s = b.send(r, &[1], &[piece], &[]);
        b.recv(1, s, &[]);
    }
    ok(&b.build().unwrap());
}

#[test]
fn reduce_to_root_with_copy() {
    // Ranks 1..3 send their contributions to 0, which reduces all at once and keeps a copy.
    let mut b = ScheduleBuilder::new(CollectiveKind::Reduce, 4, 0);
    let mut recvs = Vec::new();
    let mut inputs = vec![Piece::contribution(0, 0)];
    for r in 1..4 {
        let s = b.send(r, &[0], &[Piece::contribution(0, r)], &[]);
        recvs.push(b.recv(0, s, &[]));
        inputs.push(Piece::contribution(0, r));
    }
    let red = b.reduce(0, &inputs, &recvs);
    let out = b.value(red).to_vec();
    b.copy(0, &out, &[red]);
    let r = ok(&b.build().unwrap());
    assert_eq!(r.counts.compute_ops, 2);
}

#[test]
fn trivial_collectives_on_one_rank() {
    for kind in CollectiveKind::ALL {
        let s = ScheduleBuilder::new(kind, 1, 0).build().unwrap();
        ok(&s);
    }
}

#[test]
fn cross_rank_dependencies_count_as_causality() {
    // Rank 0 forwards data it received only via a chain through rank 1.
    let mut b = ScheduleBuilder::new(CollectiveKind::Broadcast, 3, 2);
    let data = b.block(2, 0);
    let s = b.send(2, &[0], std::slice::from_ref(&data), &[]);
    let r = b.recv(0, s, &[]);
    let ping = b.send(0, &[1], std::slice::from_ref(&data), &[r]);
    let got = b.recv(1, ping, &[]);
    let pong = b.send(1, &[0], &[data], &[got]);
    let back = b.recv(0, pong, &[]);
    assert_eq!(back, OpRef::new(0, 2));
    ok(&b.build().unwrap());
}

/// The root sends a^b, b^c, a^b^c: no input peels (none has one unknown block), so the
/// decoder's outputs a and c (neither the sum of the inputs nor an input) need elimination;
/// the sends of XORs of blocks the root holds plainly need none.
pub(super) fn decode_beyond_peeling(claim: &[(u32, u32)]) -> Schedule {
    let mut c = Collective::new(CollectiveKind::Broadcast, 3, 0);
    c.blocks = 4;
    let mut b = ScheduleBuilder::from_collective(c);
    let coded: Vec<Piece> = [&[0, 1][..], &[1, 2], &[0, 1, 2]]
        .iter()
        .map(|ix| b.xor_blocks(&ix.iter().map(|&i| (0, i)).collect::<Vec<_>>()))
        .collect();
    let d = b.block(0, 3);
    let s = b.send(0, &[1, 2], &coded, &[]);
    let sd = b.send(0, &[1, 2], std::slice::from_ref(&d), &[]);
    let r1 = b.recv(1, s, &[]);
    b.recv(2, s, &[]);
    b.recv(1, sd, &[]);
    b.recv(2, sd, &[]);
    let out: Vec<Piece> = claim.iter().map(|&(o, i)| b.block(o, i)).collect();
    b.decode(1, &coded, &out, &[r1]);
    b.build().unwrap()
}

#[test]
fn decoding_that_peeling_cannot_do_is_proved_by_elimination() {
    let r = ok(&decode_beyond_peeling(&[(0, 0), (0, 2)]));
    assert_eq!(r.counts.compute_ops, 1);
}
