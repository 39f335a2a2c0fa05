//! LogGOPSim's event queue, exactly ordered and without its re-insertion churn.
//!
//! LogGOPSim pops the event with the smallest (time, insertion stamp); an op whose CPU or
//! NIC is still busy goes back into the queue at the time they become free, keeping its
//! stamp. In an all-to-all every rank's P - 1 sends are ready at once, and each waits its
//! turn by being popped and re-inserted once per send before it: O(P) queue operations per
//! send, O(P^3) in all, which is what LogGOPSim spends its time on.
//!
//! The same order at O(1) queue operations per event: stamps are positions in one append-only
//! array (`offsets`: the op each stamp stands for), and the queue holds *blocks*, runs of
//! consecutive stamps of one host and one kind (ops that became ready together on the same
//! CPU and NIC, or one message) that share a time. The earliest event is the head of the block
//! at the top of the heap. When the head cannot run yet, LogGOPSim would pop every following
//! member of its block before the next other event (the heap's top) too, find them blocked by
//! the same busy CPU or NIC (nothing ran in between), and re-insert them at the same time: so
//! the whole stretch of the block up to the heap's top moves to that time at once, as a new
//! block over the same stamps. Pops happen in LogGOPSim's (time, stamp) order throughout.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::free_slots::reuse_slot;

/// A run of consecutive stamps `head..end` of one host and one kind, due at `time`.
#[derive(Clone, Copy)]
struct Block {
    time: u64,
    head: u32,
    end: u32,
    host: u32,
    msg: bool,
}

/// The head of the queue: the op `offset` of rank `host`, or (`msg`) the message of that
/// send, due at `time`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Head {
    pub time: u64,
    pub stamp: u32,
    pub host: u32,
    pub offset: u32,
    pub msg: bool,
}

/// Bytes per event: its stamp's slot in `offsets` (blocks and heap entries are per block).
pub(crate) const BYTES_PER_EVENT: u64 = 4;

#[derive(Default)]
pub(crate) struct EventQueue {
    heap: BinaryHeap<Reverse<(u64, u32, u32)>>,
    blocks: Vec<Block>,
    free: Vec<u32>,
    offsets: Vec<u32>,
    /// The block whose head is the queue's head (not in the heap while it is).
    current: Option<u32>,
}

impl EventQueue {
    /// A queue for about `events` events in all.
    pub fn with_capacity(events: usize) -> Self {
        EventQueue {
            offsets: Vec::with_capacity(events),
            ..Default::default()
        }
    }

    /// Queues `offsets` of `host` at `time` with the next stamps, in that order (one kind,
    /// CPU and NIC: they must wait for the same resources).
    pub fn push(&mut self, time: u64, host: u32, msg: bool, offsets: &[u32]) {
        let head = self.offsets.len() as u32;
        self.offsets.extend_from_slice(offsets);
        let end = self.offsets.len() as u32;
        self.add(Block {
            time,
            head,
            end,
            host,
            msg,
        });
    }

    fn add(&mut self, b: Block) {
        let id = reuse_slot(&mut self.blocks, &mut self.free, b);
        self.heap.push(Reverse((b.time, b.head, id)));
    }

    /// The event with the smallest (time, stamp); it stays the head until [`Self::ran`] or
    /// [`Self::wait`].
    pub fn head(&mut self) -> Option<Head> {
        if let Some(id) = self.current {
            let b = self.blocks[id as usize];
            if b.head == b.end {
                self.free.push(id);
                self.current = None;
            } else if self.heap.peek().is_some_and(|t| t.0 < (b.time, b.head, id)) {
                self.heap.push(Reverse((b.time, b.head, id)));
                self.current = None;
            }
        }
        let id = match self.current {
            Some(id) => id,
            None => {
                let id = self.heap.pop()?.0 .2;
                self.current = Some(id);
                id
            }
        };
        let b = self.blocks[id as usize];
        Some(Head {
            time: b.time,
            stamp: b.head,
            host: b.host,
            offset: self.offsets[b.head as usize],
            msg: b.msg,
        })
    }

    /// The head ran: it leaves the queue.
    pub fn ran(&mut self) {
        let id = self.current.expect("a head") as usize;
        self.blocks[id].head += 1;
    }

    /// The head cannot run before `time`: it, and the members of its block that LogGOPSim
    /// would pop before the next other event, go back into the queue at `time` with their
    /// stamps.
    pub fn wait(&mut self, time: u64) {
        let id = self.current.expect("a head") as usize;
        let b = self.blocks[id];
        let split = match self.heap.peek() {
            Some(Reverse((t, s, _))) if *t == b.time => (*s).clamp(b.head + 1, b.end),
            _ => b.end,
        };
        self.blocks[id].head = split;
        self.add(Block {
            time,
            end: split,
            ..b
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks pop in (time, stamp) order, and `wait` moves exactly the members before the
    /// next other event, as re-inserting them one by one would.
    #[test]
    fn pops_in_time_then_stamp_order_and_moves_stretches() {
        let mut q = EventQueue::default();
        q.push(0, 7, false, &[10, 11, 12, 13]); // stamps 0..4
        q.push(0, 8, true, &[20]); // stamp 4
        q.push(5, 9, false, &[30]); // stamp 5
        let h = q.head().unwrap();
        assert_eq!((h.time, h.stamp, h.offset), (0, 0, 10));
        q.ran();
        // Stamps 1..4 of host 7 are blocked until 5: all move (the next other event is
        // stamp 4 at time 0, after them).
        assert_eq!(q.head().unwrap().stamp, 1);
        q.wait(5);
        let h = q.head().unwrap();
        assert_eq!((h.time, h.stamp, h.host, h.msg), (0, 4, 8, true));
        q.ran();
        let order: Vec<(u64, u32)> = std::iter::from_fn(|| {
            let h = q.head()?;
            q.ran();
            Some((h.time, h.stamp))
        })
        .collect();
        assert_eq!(order, vec![(5, 1), (5, 2), (5, 3), (5, 5)]);
        // A block split by an event of the same time in the middle of its stamps.
        let mut q = EventQueue::default();
        q.push(0, 1, false, &[0, 1]); // stamps 0, 1
        q.push(0, 2, false, &[0]); // stamp 2
        q.push(0, 1, false, &[2, 3]); // stamps 3, 4
        q.head();
        q.ran();
        q.head();
        q.wait(9); // stamp 1 moves to 9
        assert_eq!(q.head().unwrap().stamp, 2);
        q.ran();
        assert_eq!(q.head().unwrap().stamp, 3);
        q.wait(9); // stamps 3, 4 move to 9
        let order: Vec<(u64, u32)> = std::iter::from_fn(|| {
            let h = q.head()?;
            q.ran();
            Some((h.time, h.stamp))
        })
        .collect();
        assert_eq!(order, vec![(9, 1), (9, 3), (9, 4)]);
    }
}
