//! The data of switch replication (replicate.rs): the flattened replication trees of the
//! worms ([`WormTable`]) and the per-input-VC replication slots ([`Replication`]). Plain
//! state, kept apart from the replication logic so that the network can own it without the
//! network and the logic importing each other.

use super::types::NONE;

/// One output of a worm visit.
#[derive(Debug, Clone, Copy)]
pub struct WormOut {
    /// Global output port.
    pub port: u32,
    /// The visit the copy makes at the next switch, or NONE when the port leads to an
    /// endpoint.
    pub child: u32,
    /// Added to the packet's tag for a copy ejected here (the caller's per-destination label).
    pub tag_add: u32,
}

/// The replication trees of all worms of a run, flattened: visit `h` sends copies to
/// `outs[start[h]..start[h + 1]]`.
#[derive(Debug, Clone, Default)]
pub struct WormTable {
    pub start: Vec<u32>,
    pub outs: Vec<WormOut>,
}

impl WormTable {
    pub fn new() -> WormTable {
        WormTable {
            start: vec![0],
            outs: Vec::new(),
        }
    }

    /// Appends a visit with its outputs; returns its index.
    pub fn push_visit(&mut self, outs: &[WormOut]) -> u32 {
        self.outs.extend_from_slice(outs);
        self.start.push(self.outs.len() as u32);
        (self.start.len() - 2) as u32
    }

    pub fn visits(&self) -> usize {
        self.start.len() - 1
    }

    /// Sets the child of output `k` of visit `h`.
    pub fn set_child(&mut self, h: u32, k: usize, child: u32) {
        let i = self.start[h as usize] as usize + k;
        self.outs[i].child = child;
    }

    pub(super) fn range(&self, h: u32) -> std::ops::Range<usize> {
        self.start[h as usize] as usize..self.start[h as usize + 1] as usize
    }
}

#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Branch {
    /// Index into the table's outputs.
    pub(super) out: u32,
    pub(super) port: u32,
    pub(super) vc: u8,
    /// Copy packet, NONE until the branch holds an output VC.
    pub(super) pkt: u32,
    /// Flits of the packet this branch has read.
    pub(super) sent: u16,
    /// Cycle from which the branch may bid for the switch.
    pub(super) ready: u64,
}

#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Rep {
    pub(super) n: u16,
    /// Flits of the packet that have left the buffer.
    pub(super) freed: u16,
    pub(super) size: u16,
    pub(super) pkt: u32,
}

/// Replication state: a slot per replicating input VC, `max_out` branches per slot.
#[derive(Debug, Clone, Default)]
pub struct Replication {
    pub table: WormTable,
    pub(super) rep_of: Vec<u32>,
    pub(super) reps: Vec<Rep>,
    pub(super) branches: Vec<Branch>,
    pub(super) free: Vec<u32>,
    pub(super) max_out: usize,
    pub(super) chunk: u16,
}

impl Replication {
    pub fn new(ivcs: usize, max_ports: usize, chunk: usize) -> Replication {
        Replication {
            table: WormTable::new(),
            rep_of: vec![NONE; ivcs],
            reps: Vec::new(),
            branches: Vec::new(),
            free: Vec::new(),
            max_out: max_ports.max(1),
            chunk: chunk.clamp(1, u16::MAX as usize) as u16,
        }
    }

    pub(super) fn acquire(&mut self) -> u32 {
        if let Some(s) = self.free.pop() {
            return s;
        }
        self.reps.push(Rep::default());
        self.branches
            .extend(std::iter::repeat_n(Branch::default(), self.max_out));
        (self.reps.len() - 1) as u32
    }

    pub(super) fn slot(&self, ivc: usize) -> usize {
        self.rep_of[ivc] as usize
    }

    pub(super) fn branch_range(&self, s: usize) -> std::ops::Range<usize> {
        s * self.max_out..s * self.max_out + self.reps[s].n as usize
    }

    /// Replication slots in use (for tests: 0 once a run has drained).
    pub fn in_use(&self) -> usize {
        self.reps.len() - self.free.len()
    }
}
