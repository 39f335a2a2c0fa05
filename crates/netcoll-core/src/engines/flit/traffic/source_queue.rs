//! The NIs' source queues: the packets created and not yet injected, each a 24-byte
//! [`Waiting`] record, in FIFO queues of fixed-size blocks drawn from one shared pool.
//!
//! A saturated source queue grows without bound (BookSim's single-router example queues
//! some 375,000 packets over its run). Kept as 64-byte packet records in the packet table,
//! that queue grew the table by doubling: every growth copied the table and unmapped the
//! old one, and every record was written to fresh memory long before it was read. Here a
//! waiting packet takes 24 bytes, a queue grows a block at a time (nothing is ever copied
//! or unmapped; a drained block goes back to the pool for any queue to reuse), and the
//! packet gets its packet-table record only when its head leaves the NI, in a slot freed by
//! an arrived packet, so the table holds the packets in the network and stays in cache.
//!
//! The front packet sits in the queue's own record, beside the NI's: at light load a
//! queue holds one packet at a time, and queueing and taking it then touch no block.

use super::types::NONE;

/// Records per block: 64 x 24 bytes = 24 cache lines.
const BLOCK: usize = 64;

/// A packet waiting in its source queue: what its packet record will hold (the source is
/// the queue's NI; `itime` is set when it leaves).
#[derive(Debug, Clone, Copy, Default, bytemuck::Zeroable)]
pub struct Waiting {
    pub ctime: u64,
    pub dst: u32,
    /// The caller's label (NONE for synthetic traffic) and a worm's first visit (NONE for
    /// unicast), as in the packet record (`Packet`).
    pub tag: u32,
    pub worm: u32,
    pub size: u16,
    pub vclass: u8,
    pub measured: bool,
}

/// A waiting record is 24 bytes.
const _: () = assert!(std::mem::size_of::<Waiting>() == 24);

/// One queue: its front packet (when `has_front`), then the packets behind it in blocks:
/// the first block and the index of its front record, the last block and the index its
/// next record goes to. No packet behind the front: no block held (`head == NONE`) and
/// `tail_at == BLOCK`, as a full last block has, so a push tests one field to know
/// whether it needs a block.
#[derive(Debug, Clone, Copy)]
struct Fifo {
    front: Waiting,
    head: u32,
    tail: u32,
    head_at: u16,
    tail_at: u16,
    has_front: bool,
}

const EMPTY: Fifo = Fifo {
    front: Waiting {
        ctime: 0,
        dst: 0,
        tag: 0,
        worm: 0,
        size: 0,
        vclass: 0,
        measured: false,
    },
    has_front: false,
    head: NONE,
    tail: NONE,
    head_at: 0,
    tail_at: BLOCK as u16,
};

/// Records ahead of the front that a pop prefetches: the next cache line or the one after
/// (a record is 24 bytes), so the front is in cache when its turn comes however long ago
/// it was written.
const AHEAD: usize = 3;

/// Every NI's source queue.
#[derive(Debug, Default)]
pub struct SourceQueues {
    fifos: Vec<Fifo>,
    /// The blocks, each allocated once (a pointer each here: the list's own growth copies
    /// 8 bytes per 64 packets), the block after each in its queue, and the blocks free.
    // Boxed on purpose: the list's growth moves pointers, never the blocks.
    #[allow(clippy::vec_box)]
    blocks: Vec<Box<[Waiting; BLOCK]>>,
    link: Vec<u32>,
    spare: Vec<u32>,
}

/// Bytes per endpoint of the queues before any packet waits (counted in footprint.rs).
pub const FIFO_BYTES: u64 = std::mem::size_of::<Fifo>() as u64;

impl SourceQueues {
    pub fn new(nodes: usize) -> SourceQueues {
        SourceQueues {
            fifos: vec![EMPTY; nodes],
            ..SourceQueues::default()
        }
    }

    #[inline]
    pub fn is_empty(&self, ep: usize) -> bool {
        !self.fifos[ep].has_front
    }

    /// The packet at the front of `ep`'s queue, if any.
    #[inline]
    pub fn front(&self, ep: usize) -> Option<&Waiting> {
        let f = &self.fifos[ep];
        f.has_front.then_some(&f.front)
    }

    /// Queues `w` at the back of `ep`'s queue.
    #[inline]
    pub fn push(&mut self, ep: usize, w: Waiting) {
        let f = &mut self.fifos[ep];
        if !f.has_front {
            f.front = w;
            f.has_front = true;
            return;
        }
        if f.tail_at as usize == BLOCK {
            self.add_block(ep);
        }
        let f = &mut self.fifos[ep];
        self.blocks[f.tail as usize][f.tail_at as usize & (BLOCK - 1)] = w;
        f.tail_at += 1;
    }

    /// Gives `ep`'s queue (empty, or its last block full) a new last block.
    #[cold]
    fn add_block(&mut self, ep: usize) {
        let b = self.take_block();
        let f = &mut self.fifos[ep];
        if f.head == NONE {
            f.head = b;
            f.head_at = 0;
        } else {
            self.link[f.tail as usize] = b;
        }
        f.tail = b;
        f.tail_at = 0;
    }

    /// Drops the packet at the front of `ep`'s queue (which must not be empty): the first
    /// one behind it, if any, moves to the front.
    #[inline]
    pub fn pop(&mut self, ep: usize) {
        let f = &mut self.fifos[ep];
        debug_assert!(f.has_front, "pop from an empty source queue");
        if f.head == NONE {
            f.has_front = false;
            return;
        }
        f.front = self.blocks[f.head as usize][f.head_at as usize & (BLOCK - 1)];
        f.head_at += 1;
        let at = f.head_at as usize;
        if at == f.tail_at as usize && f.head == f.tail {
            self.spare.push(f.head);
            (f.head, f.tail, f.head_at, f.tail_at) = (NONE, NONE, 0, BLOCK as u16);
        } else if at == BLOCK {
            let b = f.head;
            f.head = self.link[b as usize];
            f.head_at = 0;
            self.spare.push(b);
            super::types::prefetch(&self.blocks[f.head as usize][AHEAD]);
        } else {
            let ahead = (at + AHEAD).min(BLOCK - 1);
            super::types::prefetch(&self.blocks[f.head as usize][ahead]);
        }
    }

    /// A free block: a drained one, else a new one.
    fn take_block(&mut self) -> u32 {
        if let Some(b) = self.spare.pop() {
            self.link[b as usize] = NONE;
            return b;
        }
        // Allocated zeroed: fresh pages come zero from the kernel, unwritten.
        self.blocks.push(bytemuck::zeroed_box::<[Waiting; BLOCK]>());
        self.link.push(NONE);
        (self.blocks.len() - 1) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// The block queues hand out what a VecDeque per node would, over random pushes and
    /// pops across several nodes (queues crossing many blocks, emptying and refilling),
    /// and reuse drained blocks.
    #[test]
    fn same_as_a_deque_per_node() {
        let nodes = 5;
        let mut q = SourceQueues::new(nodes);
        let mut want: Vec<VecDeque<u32>> = vec![VecDeque::new(); nodes];
        let mut x: u64 = 99;
        let mut made = 0u32;
        for round in 0..60_000u32 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let ep = (x >> 40) as usize % nodes;
            // Grow for a while, then drain, so queues span many blocks and then empty.
            let push = if (round / 10_000) % 2 == 0 {
                (x >> 20) % 4 != 0
            } else {
                (x >> 20) % 4 == 0
            };
            if push {
                let w = Waiting {
                    dst: made,
                    ctime: made as u64 * 3,
                    ..Waiting::default()
                };
                q.push(ep, w);
                want[ep].push_back(made);
                made += 1;
            } else {
                assert_eq!(q.front(ep).map(|w| w.dst), want[ep].front().copied());
                if let Some(d) = want[ep].pop_front() {
                    assert_eq!(q.front(ep).unwrap().ctime, d as u64 * 3);
                    q.pop(ep);
                }
            }
            assert_eq!(q.is_empty(ep), want[ep].is_empty());
        }
        let held: usize = want.iter().map(|d| d.len().div_ceil(BLOCK) + 1).sum();
        let peak = 10_000 * 3 / 4 / BLOCK + 2 * nodes;
        assert!(q.blocks.len() <= peak, "{} blocks, {held}", q.blocks.len());
        assert!(made > 20_000);
    }
}
