//! The NIs' source queues: the packets created and not yet injected, in FIFO queues of
//! fixed-size blocks drawn from one shared pool.
//!
//! A saturated source queue grows without bound (BookSim's single-router example queues
//! some 375,000 packets over its run). Kept as 64-byte packet records in the packet table,
//! that queue grew the table by doubling: every growth copied the table and unmapped the
//! old one, and every record was written to fresh memory long before it was read. Here a
//! queue grows a block at a time (nothing is ever copied or unmapped; a drained block goes
//! back to the pool for any queue to reuse), and the packet gets its packet-table record
//! only when its head leaves the NI, in a slot freed by an arrived packet, so the table
//! holds the packets in the network and stays in cache.
//!
//! A waiting packet takes 8 bytes in its block. A queue's packets differ, as a rule, only
//! in destination, creation cycle and whether they are measured: synthetic traffic has no
//! label or multicast worm, and its size and VC class change rarely. So a block keeps the
//! shared fields once (taken from the packet that opened it, its creation cycle the base)
//! and each packet as its destination, measured bit and creation cycle after the base. A
//! packet that does not fit (a label, a worm, another size or class, a cycle 2^30 past the
//! base) keeps its whole 24-byte [`Waiting`] record in a side table and the block its
//! index. The 8-byte entries cut the memory a saturated queue writes and reads back, and
//! the pages it faults in, to a third of 24-byte records' (singleconfig: 2,530 page faults
//! down to about 1,000).
//!
//! The front packet sits in the queue's own record, beside the NI's: at light load a
//! queue holds one packet at a time, and queueing and taking it then touch no block.

use super::types::NONE;
use crate::engines::free_slots::reuse_slot;

/// Entries per block: 64 x 8 bytes = 8 cache lines.
const BLOCK: usize = 64;

/// A packet waiting in its source queue: what its packet record will hold (the source is
/// the queue's NI; `itime` is set when it leaves).
#[derive(Debug, Clone, Copy, Default, PartialEq, bytemuck::Zeroable)]
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

/// A block: the fields its packets share and the base of their creation cycles, then the
/// packets, each one entry (see [`Block::entry`]).
#[derive(Debug, bytemuck::Zeroable)]
struct Block {
    base: u64,
    size: u16,
    vclass: u8,
    entries: [u64; BLOCK],
}

/// An entry's bit that says it holds an index into the side table; else its low 32 bits
/// are the destination, bit 32 the measured flag, and the bits above it the creation
/// cycle after the block's base.
const SIDE: u64 = 1 << 63;
const MEASURED: u64 = 1 << 32;
const CTIME_SHIFT: u32 = 33;
/// Creation cycles at most this far past the base fit an entry.
const CTIME_SPAN: u64 = 1 << 30;

impl Block {
    /// The block opened by a packet of `size` flits and class `vclass` created at `ctime`:
    /// its shared fields.
    fn open(&mut self, ctime: u64, size: u16, vclass: u8) {
        (self.base, self.size, self.vclass) = (ctime, size, vclass);
    }

    /// `w` as an entry of this block, when it fits one.
    #[inline]
    fn entry(&self, w: &Waiting) -> Option<u64> {
        let after = w.ctime.wrapping_sub(self.base);
        let fits = w.tag == NONE
            && w.worm == NONE
            && w.size == self.size
            && w.vclass == self.vclass
            && after < CTIME_SPAN;
        fits.then_some(after << CTIME_SHIFT | (w.measured as u64) << 32 | w.dst as u64)
    }

    /// The record of entry `e` (one that is not a side-table index).
    #[inline]
    fn record(&self, e: u64) -> Waiting {
        Waiting {
            ctime: self.base + (e >> CTIME_SHIFT),
            dst: e as u32,
            tag: NONE,
            worm: NONE,
            size: self.size,
            vclass: self.vclass,
            measured: e & MEASURED != 0,
        }
    }
}

/// One queue: its front packet (when `has_front`), then the packets behind it in blocks:
/// the first block and the index of its front entry, the last block and the index its
/// next entry goes to. No packet behind the front: no block held (`head == NONE`) and
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

/// Entries ahead of the front that a pop prefetches: the next cache line, so the front is
/// in cache when its turn comes however long ago it was written.
const AHEAD: usize = 8;

/// Every NI's source queue.
#[derive(Debug, Default)]
pub struct SourceQueues {
    fifos: Vec<Fifo>,
    /// The blocks, each allocated once (a pointer each here: the list's own growth copies
    /// 8 bytes per 64 packets), the block after each in its queue, and the blocks free.
    // Boxed on purpose: the list's growth moves pointers, never the blocks.
    #[allow(clippy::vec_box)]
    blocks: Vec<Box<Block>>,
    link: Vec<u32>,
    spare: Vec<u32>,
    /// The side table: the records that do not fit an entry, and its free slots.
    side: Vec<Waiting>,
    side_free: Vec<u32>,
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

    /// Queues `w` at the back of `ep`'s queue. Always inlined: `w` is then read from the
    /// registers it was built in, and the tests of a caller's constant fields (no label, no
    /// worm) fold away.
    #[inline(always)]
    pub fn push(&mut self, ep: usize, w: Waiting) {
        let f = &mut self.fifos[ep];
        if !f.has_front {
            f.front = w;
            f.has_front = true;
            return;
        }
        if f.tail_at as usize == BLOCK {
            // The fields, not `&w`: a reference would keep `w` in memory, and the tests of
            // its fields below would read it back instead of folding a caller's constants.
            self.add_block(ep, (w.ctime, w.size, w.vclass));
        }
        let f = &self.fifos[ep];
        let (tail, tail_at) = (f.tail as usize, f.tail_at as usize);
        let e = match self.blocks[tail].entry(&w) {
            Some(e) => e,
            None => self.keep_aside(w),
        };
        self.blocks[tail].entries[tail_at & (BLOCK - 1)] = e;
        self.fifos[ep].tail_at += 1;
    }

    /// Gives `ep`'s queue (empty, or its last block full) a new last block, opened by `w`.
    #[cold]
    fn add_block(&mut self, ep: usize, (ctime, size, vclass): (u64, u16, u8)) {
        let b = self.take_block();
        self.blocks[b as usize].open(ctime, size, vclass);
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

    /// Keeps `w` in the side table; its entry.
    #[cold]
    fn keep_aside(&mut self, w: Waiting) -> u64 {
        SIDE | reuse_slot(&mut self.side, &mut self.side_free, w) as u64
    }

    /// The record of entry `e` of block `b`, its side-table slot freed if it had one.
    #[inline]
    fn take(&mut self, b: u32, e: u64) -> Waiting {
        if e & SIDE == 0 {
            return self.blocks[b as usize].record(e);
        }
        let at = e as u32;
        self.side_free.push(at);
        self.side[at as usize]
    }

    /// Drops the packet at the front of `ep`'s queue (which must not be empty): the first
    /// one behind it, if any, moves to the front.
    #[inline]
    pub fn pop(&mut self, ep: usize) {
        let f = &self.fifos[ep];
        debug_assert!(f.has_front, "pop from an empty source queue");
        let (head, head_at) = (f.head, f.head_at as usize);
        if head == NONE {
            self.fifos[ep].has_front = false;
            return;
        }
        let e = self.blocks[head as usize].entries[head_at & (BLOCK - 1)];
        let front = self.take(head, e);
        let f = &mut self.fifos[ep];
        f.front = front;
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
            super::types::prefetch(&self.blocks[f.head as usize].entries[AHEAD]);
        } else {
            let ahead = (at + AHEAD).min(BLOCK - 1);
            super::types::prefetch(&self.blocks[f.head as usize].entries[ahead]);
        }
    }

    /// A free block: a drained one, else a new one.
    fn take_block(&mut self) -> u32 {
        if let Some(b) = self.spare.pop() {
            self.link[b as usize] = NONE;
            return b;
        }
        // Allocated zeroed: fresh pages come zero from the kernel, unwritten.
        self.blocks.push(bytemuck::zeroed_box::<Block>());
        self.link.push(NONE);
        (self.blocks.len() - 1) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// The block queues hand out what a VecDeque per node would, record for record, over
    /// random pushes and pops across several nodes (queues crossing many blocks, emptying
    /// and refilling), with records that fit a block's entries mixed with ones that go to
    /// the side table (labels, worms, another size or class, a creation cycle far past the
    /// block's base); and they reuse drained blocks and side-table slots.
    #[test]
    fn same_as_a_deque_per_node() {
        let nodes = 5;
        let mut q = SourceQueues::new(nodes);
        let mut want: Vec<VecDeque<Waiting>> = vec![VecDeque::new(); nodes];
        let mut x: u64 = 99;
        let mut draw = |m: u64| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) % m
        };
        let mut now = 0u64;
        let (mut made, mut sided) = (0u32, 0u32);
        for round in 0..60_000u32 {
            let ep = draw(nodes as u64) as usize;
            // Grow for a while, then drain, so queues span many blocks and then empty.
            let push = if (round / 10_000) % 2 == 0 {
                draw(4) != 0
            } else {
                draw(4) == 0
            };
            now += match draw(500) {
                0 => CTIME_SPAN - 1 + draw(3),
                _ => draw(3),
            };
            if push {
                let odd = draw(20) == 0;
                let w = Waiting {
                    ctime: now,
                    dst: draw(1 << 32) as u32,
                    tag: if odd && draw(2) == 0 { made } else { NONE },
                    worm: if odd && draw(2) == 0 { made } else { NONE },
                    size: if odd && draw(3) == 0 { 5 } else { 1 },
                    vclass: if odd && draw(3) == 0 { 2 } else { 0 },
                    measured: draw(2) == 0,
                };
                q.push(ep, w);
                let f = &q.fifos[ep];
                if f.head != NONE {
                    let e = q.blocks[f.tail as usize].entries[f.tail_at as usize - 1];
                    sided += (e & SIDE != 0) as u32;
                }
                want[ep].push_back(w);
                made += 1;
            } else {
                assert_eq!(q.front(ep), want[ep].front());
                if want[ep].pop_front().is_some() {
                    q.pop(ep);
                }
            }
            assert_eq!(q.is_empty(ep), want[ep].is_empty());
        }
        let peak = 10_000 * 3 / 4 / BLOCK + 2 * nodes;
        assert!(q.blocks.len() <= peak, "{} blocks", q.blocks.len());
        assert!(q.side.len() < sided as usize / 2, "side slots reused");
        assert!(made > 20_000 && sided > 1_000);
    }
}
