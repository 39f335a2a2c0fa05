//! The types of a parallel run's partitions (`threads = N`; the run itself is in `par.rs`).
//! Kept apart from `par.rs` so that [`super::network::Network`], which holds them, does not
//! import the module that drives it.

use super::channel::Event;
use std::sync::Arc;

/// A partition's place among the others.
pub struct Partition {
    pub id: usize,
    /// Router `r` belongs to partition `r / chunk`.
    pub chunk: usize,
    /// Events for other partitions, one list per partition, as (due cycle, event).
    pub outbox: Vec<Vec<(u64, Event)>>,
}

/// The other partitions and the threads that run them (held by the master).
pub struct Workers<N> {
    pub nets: Vec<N>,
    pub pool: Arc<rayon::ThreadPool>,
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
