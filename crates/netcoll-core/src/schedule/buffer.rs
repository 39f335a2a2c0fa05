//! The buffer model of a rank: what it holds at the start (the collective's precondition)
//! and the slots its ops fill, in issue order. Engines that move real bytes (the MPI
//! executor) allocate one region per slot; the verifier reasons over the same model.

use super::collective::Collective;
use super::ir::{OpKind, OpRef, Schedule};
use super::payload::Piece;

/// One slot: the value an op writes into the rank's buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot<'a> {
    pub op: OpRef,
    pub pieces: &'a [Piece],
    /// For a receive of some packets only: which ones (`start..end`) of the message.
    pub packets: Option<(u32, u32)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buffer<'a> {
    pub initial: Vec<Piece>,
    pub slots: Vec<Slot<'a>>,
}

impl Collective {
    /// What rank `r` holds before the collective starts.
    pub fn initial_pieces(&self, r: u32) -> Vec<Piece> {
        if self.kind.is_reduction() {
            (0..self.blocks)
                .map(|j| Piece::contribution(j, r))
                .collect()
        } else {
            self.initial_blocks(r).iter().map(Piece::Block).collect()
        }
    }
}

impl Schedule {
    /// The buffer of rank `r`: its initial data, then one slot per receive or compute op.
    pub fn buffer(&self, r: u32) -> Buffer<'_> {
        let slots = self.ops(r).iter().enumerate().filter_map(|(i, op)| {
            let packets = match op.kind {
                OpKind::Send { .. } => return None,
                OpKind::Recv { msg, packets } => {
                    let n = self.message(msg).packets;
                    Some(packets.resolve(n)).filter(|&range| range != (0, n))
                }
                OpKind::Compute { .. } => None,
            };
            Some(Slot {
                op: OpRef::new(r, i as u32),
                pieces: self.value(op),
                packets,
            })
        });
        Buffer {
            initial: self.collective().initial_pieces(r),
            slots: slots.collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{CollectiveKind, PacketRange, Piece, ScheduleBuilder};

    #[test]
    fn slots_follow_issue_order() {
        let mut b = ScheduleBuilder::new(CollectiveKind::Allreduce, 2, 0).packetization(2, 1);
        let mine = Piece::contribution(0, 1);
        let m = b.message(0, &[1], &[Piece::contribution(0, 0)]);
        b.send_msg(m, PacketRange::ALL, &[]);
        let r0 = b.recv_msg(1, m, PacketRange::one(0), &[]);
        let r1 = b.recv_msg(1, m, PacketRange::one(1), &[]);
        let red = b.reduce(1, &[Piece::contribution(0, 0), mine.clone()], &[r0, r1]);
        let s = b.build().unwrap();
        let buf = s.buffer(1);
        assert_eq!(buf.initial, vec![mine]);
        let ops: Vec<_> = buf.slots.iter().map(|s| (s.op, s.packets)).collect();
        assert_eq!(
            ops,
            vec![(r0, Some((0, 1))), (r1, Some((1, 2))), (red, None)]
        );
        assert_eq!(buf.slots[2].pieces, &[Piece::reduced(0, [0, 1])]);
        assert!(s.buffer(0).slots.is_empty());
    }
}
