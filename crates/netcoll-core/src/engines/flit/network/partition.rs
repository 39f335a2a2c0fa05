//! The types of a parallel run's partitions (`threads = N`; the run itself is in `par.rs`
//! and `crew.rs`). Kept apart from them so that [`super::network::Network`], which holds
//! these, does not import the modules that drive it.

use super::channel::Event;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Mutex;

/// A partition's place among the others.
pub struct Partition {
    pub id: usize,
    /// Router `r` belongs to partition `r / chunk`.
    pub chunk: usize,
    /// Events for other partitions, one list per partition, as (due cycle, event).
    pub outbox: Vec<Vec<(u64, Event)>>,
}

/// The other partitions (held by the master between runs; on threads of their own while
/// a stretch of cycles runs, see crew.rs).
pub struct Workers<N> {
    pub nets: Vec<N>,
}

impl Partition {
    pub fn new(id: usize, chunk: usize, parts: usize) -> Partition {
        Partition {
            id,
            chunk,
            outbox: (0..parts).map(|_| Vec::new()).collect(),
        }
    }
}

/// An atomic counter alone on its cache lines: each is written by one thread and polled by
/// another, and sharing a line would make every poll miss.
#[repr(align(128))]
#[derive(Default)]
pub struct Padded(pub AtomicU64);

/// What the threads of a parallel run share while a stretch of cycles runs (crew.rs).
pub struct Crew {
    pub parts: usize,
    /// The workers may run every cycle below this (the master's cycle + 1).
    pub allow: Padded,
    /// Set when the stretch is over (or a thread failed).
    pub stop: AtomicBool,
    /// Set by a worker thread that panicked, so the master does not wait for it forever.
    pub failed: AtomicBool,
    /// Per partition: the cycles it has completed (its `now`) and its last flit move.
    pub done: Vec<Padded>,
    pub last_move: Vec<Padded>,
    /// Events between partitions, `[cycle parity][from][to]`: posted at the end of a
    /// partition's cycle, taken by the receiver at the start of its next.
    pub mail: Vec<Mutex<Vec<(u64, Event)>>>,
}

impl Crew {
    pub fn new(parts: usize, now: u64) -> Crew {
        let padded = |v: u64| (0..parts).map(|_| Padded(AtomicU64::new(v))).collect();
        Crew {
            parts,
            allow: Padded(AtomicU64::new(now)),
            stop: AtomicBool::new(false),
            failed: AtomicBool::new(false),
            done: padded(now),
            last_move: padded(0),
            mail: (0..2 * parts * parts).map(|_| Mutex::default()).collect(),
        }
    }

    /// The mail slot of events posted at cycle `cycle` by partition `from` for `to`.
    #[inline]
    pub fn slot(&self, cycle: u64, from: usize, to: usize) -> &Mutex<Vec<(u64, Event)>> {
        &self.mail[(cycle as usize & 1) * self.parts * self.parts + from * self.parts + to]
    }
}
