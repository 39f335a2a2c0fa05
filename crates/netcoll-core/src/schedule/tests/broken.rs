//! Broken schedules fail, each with its own one-line diagnosis.

use super::examples::*;
use crate::schedule::{CollectiveKind, PacketRange, Piece, Schedule, ScheduleBuilder};

fn diagnosis(s: &Schedule) -> String {
    let r = s.verify();
    assert!(!r.ok, "a broken schedule verified");
    let d = r.diagnosis.expect("a failed report has a diagnosis");
    assert!(!d.contains('\n'), "diagnosis spans lines: {d}");
    d
}

#[test]
fn missing_block() {
    // The last message of the binomial tree is 3 -> 7, to a leaf.
    let s = binomial_bcast(8, 0, Drop::Message(binomial_messages(8) - 1));
    assert_eq!(
        diagnosis(&s),
        "rank 7 never receives block (owner 0, idx 0)"
    );
}

#[test]
fn unmatched_recv() {
    // Message 0 is 0 -> 1; without its send, rank 1's receive has nothing to match.
    let s = binomial_bcast(8, 0, Drop::Send(0));
    assert_eq!(
        diagnosis(&s),
        "rank 1 op 0 receives message 0 from rank 0, which is never sent"
    );
}

#[test]
fn unmatched_send() {
    let mut b = ScheduleBuilder::new(CollectiveKind::Broadcast, 3, 0);
    let data = b.block(0, 0);
    let s = b.send(0, &[1, 2], &[data], &[]);
    b.recv(1, s, &[]);
    assert_eq!(
        diagnosis(&b.build().unwrap()),
        "rank 2 never receives message 0 from rank 0"
    );
}

#[test]
fn recv_at_the_wrong_rank() {
    let mut b = ScheduleBuilder::new(CollectiveKind::Broadcast, 3, 0);
    let data = b.block(0, 0);
    let s = b.send(0, &[1], &[data], &[]);
    b.recv(2, s, &[]);
    assert_eq!(
        diagnosis(&b.build().unwrap()),
        "rank 2 op 0 receives message 0, but rank 0 sends it to rank 1 only"
    );
}

#[test]
fn recv_twice() {
    let mut b = ScheduleBuilder::new(CollectiveKind::Broadcast, 2, 0);
    let data = b.block(0, 0);
    let s = b.send(0, &[1], &[data], &[]);
    b.recv(1, s, &[]);
    b.recv(1, s, &[]);
    assert_eq!(
        diagnosis(&b.build().unwrap()),
        "rank 1 receives packet 0 of message 0 twice (ops 0 and 1)"
    );
}

#[test]
fn use_before_arrival() {
    // Message 2 is 1 -> 3 in round 1; rank 1 sends it without waiting for its receive.
    let s = binomial_bcast(8, 0, Drop::Dep(2));
    assert_eq!(
        diagnosis(&s),
        "rank 1 op 1 sends block (owner 0, idx 0) before it holds it"
    );
    let s = ring_allgather(5, Drop::Dep(7));
    assert_eq!(
        diagnosis(&s),
        "rank 2 op 2 sends block (owner 1, idx 0) before it holds it"
    );
}

#[test]
fn pipelined_forward_before_its_packet_arrives() {
    assert_eq!(
        diagnosis(&pipelined_chain(4, true)),
        "rank 1 op 3 sends block (owner 0, idx 0) (packets 1 to 1 of message 1) before it holds it"
    );
}

#[test]
fn packet_never_sent() {
    let mut b = ScheduleBuilder::new(CollectiveKind::Broadcast, 2, 0).packetization(100, 40);
    let data = b.block(0, 0);
    let m = b.message(0, &[1], &[data]);
    b.send_msg(m, PacketRange::new(0, 2), &[]);
    b.recv_msg(1, m, PacketRange::ALL, &[]);
    assert_eq!(
        diagnosis(&b.build().unwrap()),
        "rank 0 never sends packet 2 of message 0 (of 3 packets)"
    );
}

#[test]
fn double_counted_reduction() {
    assert_eq!(
        diagnosis(&recursive_doubling_allreduce(4, true)),
        "rank 0 op 5 reduces block index 0 counting contributor 0 twice"
    );
}

#[test]
fn incomplete_reduction() {
    // Rank 0 of a reduce adds only rank 1's contribution to its own.
    let mut b = ScheduleBuilder::new(CollectiveKind::Reduce, 3, 0);
    let s = b.send(1, &[0], &[Piece::contribution(0, 1)], &[]);
    let r = b.recv(0, s, &[]);
    b.reduce(
        0,
        &[Piece::contribution(0, 0), Piece::contribution(0, 1)],
        &[r],
    );
    assert_eq!(
        diagnosis(&b.build().unwrap()),
        "rank 0 ends with block index 0 reduced over 2 of 3 contributors (missing {2})"
    );
}

#[test]
fn reduce_output_must_follow_from_inputs() {
    let mut b = ScheduleBuilder::new(CollectiveKind::Reduce, 2, 0);
    let s = b.send(1, &[0], &[Piece::contribution(0, 1)], &[]);
    let r = b.recv(0, s, &[]);
    let inputs = [Piece::contribution(0, 0)];
    b.compute(
        0,
        crate::schedule::ComputeOp::Reduce,
        &inputs,
        &[Piece::reduced(0, [0, 1])],
        &[r],
    );
    assert_eq!(
        diagnosis(&b.build().unwrap()),
        "rank 0 op 1 (reduce) outputs block index 0 reduced over {0,1}, but its inputs reduce to block index 0 reduced over {0}"
    );
}

#[test]
fn undecodable_xor() {
    assert_eq!(
        diagnosis(&xor_line(true)),
        "rank 0 cannot decode block (owner 1, idx 0): it holds it only XOR-combined with blocks it lacks"
    );
}

#[test]
fn decode_op_that_cannot_decode() {
    let mut b = ScheduleBuilder::new(CollectiveKind::Allgather, 3, 0);
    let x = b.xor_blocks(&[(1, 0), (2, 0)]);
    let s = b.send(1, &[0], std::slice::from_ref(&x), &[]);
    let r = b.recv(0, s, &[]);
    let target = b.block(1, 0);
    b.decode(0, &[x], &[target], &[r]);
    let d = diagnosis(&b.build().unwrap());
    // Rank 1 cannot even form the XOR: that comes first, causally.
    assert_eq!(d, "rank 1 op 0 sends xor (1,0)^(2,0) before it holds it");
}

#[test]
fn decode_op_rule() {
    let mut b = ScheduleBuilder::new(CollectiveKind::Allgather, 2, 0);
    let b0 = b.block(0, 0);
    let b1 = b.block(1, 0);
    b.decode(0, std::slice::from_ref(&b0), &[b1], &[]);
    assert_eq!(
        diagnosis(&b.build().unwrap()),
        "rank 0 op 0 (decode) cannot derive block (owner 1, idx 0) from its inputs"
    );
}

#[test]
fn dependency_cycle() {
    // Each rank waits for its receive before sending what the other waits for.
    let mut b = ScheduleBuilder::new(CollectiveKind::Allgather, 2, 0);
    let (b0, b1) = (b.block(0, 0), b.block(1, 0));
    let m0 = b.message(0, &[1], &[b0]);
    let m1 = b.message(1, &[0], &[b1]);
    let r0 = b.recv_msg(0, m1, PacketRange::ALL, &[]);
    let r1 = b.recv_msg(1, m0, PacketRange::ALL, &[]);
    b.send_msg(m0, PacketRange::ALL, &[r0]);
    b.send_msg(m1, PacketRange::ALL, &[r1]);
    assert_eq!(
        diagnosis(&b.build().unwrap()),
        "dependency cycle (deadlock): rank 0 op 0 waits for rank 1 op 1 waits for rank 1 op 0 \
         waits for rank 0 op 1 waits for rank 0 op 0"
    );
}

#[test]
fn self_dependency_is_a_cycle() {
    let mut b = ScheduleBuilder::new(CollectiveKind::Broadcast, 2, 0);
    let data = b.block(0, 0);
    let s = b.send(0, &[1], &[data], &[]);
    b.recv(1, s, &[]);
    b.add_dep(s, s);
    assert_eq!(
        diagnosis(&b.build().unwrap()),
        "dependency cycle (deadlock): rank 0 op 0 waits for rank 0 op 0"
    );
}

#[test]
fn steps_must_not_decrease() {
    let mut b = ScheduleBuilder::new(CollectiveKind::Broadcast, 2, 0);
    let data = b.block(0, 0);
    b.set_round(Some(3));
    let s = b.send(0, &[1], &[data], &[]);
    b.set_round(Some(1));
    b.recv(1, s, &[]);
    assert_eq!(
        diagnosis(&b.build().unwrap()),
        "rank 1 op 0 (step 1) waits for rank 0 op 0 (step 3), a later step"
    );
}

#[test]
fn builder_rejects_malformed_arguments() {
    let err = |b: ScheduleBuilder| b.build().unwrap_err().to_string();
    let mut b = ScheduleBuilder::new(CollectiveKind::Broadcast, 2, 0);
    b.block(1, 0);
    assert_eq!(err(b), "broadcast has no block (owner 1, idx 0)");
    let mut b = ScheduleBuilder::new(CollectiveKind::Broadcast, 2, 0);
    let d = b.block(0, 0);
    b.send(0, &[0], &[d], &[]);
    assert_eq!(err(b), "rank 0 sends a message to itself; use a copy");
    let mut b = ScheduleBuilder::new(CollectiveKind::Allreduce, 2, 0);
    b.send(0, &[5], &[Piece::contribution(0, 0)], &[]);
    assert_eq!(err(b), "destination on rank 5, but p = 2");
    let mut b = ScheduleBuilder::new(CollectiveKind::Allreduce, 2, 0);
    let d = b.send(0, &[1], &[Piece::Block(0)], &[]);
    let _ = d;
    assert_eq!(
        err(b),
        "allreduce moves partial reductions; use Piece::Reduced"
    );
    let mut b = ScheduleBuilder::new(CollectiveKind::Broadcast, 2, 0);
    let d = b.block(0, 0);
    b.send(0, &[1], &[d], &[crate::schedule::OpRef::new(1, 4)]);
    assert_eq!(
        err(b),
        "rank 0 op 0 depends on rank 1 op 4, which does not exist"
    );
    let b = ScheduleBuilder::new(CollectiveKind::Broadcast, 3, 0).placement(vec![0, 1]);
    assert_eq!(err(b), "placement names 2 endpoints for 3 ranks");
    // Ops added to a builder with an invalid collective are dropped, not a panic.
    let mut b = ScheduleBuilder::new(CollectiveKind::Gather, 3, 3);
    let d = b.block(1, 0);
    let s = b.send(1, &[3], &[d], &[]);
    b.recv(3, s, &[]);
    assert_eq!(err(b), "gather root 3 is out of range: 3 ranks, 0 to 2");
}

#[test]
fn decode_claiming_a_block_outside_the_span() {
    // a^b, b^c, a^b^c span a, b, c but not d: elimination, not only peeling, must refuse.
    let s = super::correct::decode_beyond_peeling(&[(0, 0), (0, 3)]);
    assert_eq!(
        diagnosis(&s),
        "rank 1 op 2 (decode) cannot derive block (owner 0, idx 3) from its inputs"
    );
}
