//! The dependency state of a GOAL schedule for the LogGOPS engine (LogGOPSim's serialized
//! graph), in flat arrays: a pending-dependency count per op and compressed lists of the
//! dependants released when an op starts (`irequires`) or is done (`requires`).
//!
//! Ops are numbered globally, rank by rank (`base[r] + i`). Dependants keep their statement
//! order, because the order in which ops become ready decides LogGOPSim's event order.

use crate::error::Result;
use crate::schedule::formats::goal::Goal;

/// Compressed lists: the dependants of global op `x` are `list[first[x]..first[x + 1]]`.
struct Csr {
    first: Vec<u32>,
    list: Vec<u32>,
}

impl Csr {
    /// Lists from `(global on, local dependant)` pairs in statement order.
    fn build(ops: usize, pairs: impl Iterator<Item = (usize, u32)> + Clone) -> Csr {
        let mut first = vec![0u32; ops + 1];
        for (on, _) in pairs.clone() {
            first[on + 1] += 1;
        }
        for x in 0..ops {
            first[x + 1] += first[x];
        }
        let mut fill = first.clone();
        let mut list = vec![0u32; first[ops] as usize];
        for (on, d) in pairs {
            list[fill[on] as usize] = d;
            fill[on] += 1;
        }
        Csr { first, list }
    }

    fn of(&self, x: usize) -> std::ops::Range<usize> {
        self.first[x] as usize..self.first[x + 1] as usize
    }
}

/// Bytes the graph of `ops` ops and `deps` dependencies takes (for the memory guard).
pub(crate) fn footprint(ops: u64, deps: u64) -> u64 {
    ops * 12 + deps * 4
}

pub(crate) struct DepGraph {
    base: Vec<u32>,
    pending: Vec<u32>,
    on_done: Csr,
    on_start: Csr,
    /// Ops per rank that became executable and are not yet queued.
    ready: Vec<Vec<u32>>,
}

impl DepGraph {
    /// The graph of `goal`; refused by the memory guard when it will not fit.
    pub fn new(goal: &Goal) -> Result<DepGraph> {
        let ops = goal.num_ops();
        let deps: usize = goal.ranks.iter().map(|r| r.deps.len()).sum();
        crate::guard::check(
            "the LogGOPS engine's dependency graph",
            footprint(ops as u64, deps as u64),
        )?;
        if ops >= u32::MAX as usize {
            return Err(crate::error::Error::Spec(format!(
                "{ops} ops: the LogGOPS engine takes at most 2^32 - 1 ops per schedule"
            )));
        }
        let mut base = Vec::with_capacity(goal.ranks.len() + 1);
        base.push(0u32);
        for r in &goal.ranks {
            base.push(base.last().unwrap() + r.ops.len() as u32);
        }
        let mut pending = vec![0u32; ops];
        for (r, rank) in goal.ranks.iter().enumerate() {
            for d in &rank.deps {
                pending[base[r] as usize + d.op as usize] += 1;
            }
        }
        let pairs = |start: bool| {
            let base = &base;
            goal.ranks.iter().enumerate().flat_map(move |(r, rank)| {
                (rank.deps.iter())
                    .filter(move |d| d.start == start)
                    .map(move |d| (base[r] as usize + d.on as usize, d.op))
            })
        };
        let on_done = Csr::build(ops, pairs(false));
        let on_start = Csr::build(ops, pairs(true));
        let ready = (goal.ranks.iter().enumerate())
            .map(|(r, rank)| {
                (0..rank.ops.len() as u32)
                    .filter(|&i| pending[base[r] as usize + i as usize] == 0)
                    .collect()
            })
            .collect();
        Ok(DepGraph {
            base,
            pending,
            on_done,
            on_start,
            ready,
        })
    }

    /// Op `i` of rank `r` started: release its `irequires` dependants.
    pub fn started(&mut self, r: u32, i: u32) {
        let x = self.base[r as usize] as usize + i as usize;
        for k in self.on_start.of(x) {
            let d = self.on_start.list[k];
            self.release(r, d);
        }
    }

    /// Op `i` of rank `r` is done: release its `requires` dependants.
    pub fn done(&mut self, r: u32, i: u32) {
        let x = self.base[r as usize] as usize + i as usize;
        for k in self.on_done.of(x) {
            let d = self.on_done.list[k];
            self.release(r, d);
        }
    }

    fn release(&mut self, r: u32, d: u32) {
        let c = &mut self.pending[self.base[r as usize] as usize + d as usize];
        // An op already released (its count at 0) stays released. A second release happens
        // when an eager send (size <= S, done as it leaves) meets a receive whose own size is
        // above S: LogGOPSim decides rendezvous by the receive's size there and completes the
        // send again (test `a_receive_larger_than_its_eager_send_...`). It changes nothing,
        // as in LogGOPSim.
        if *c == 0 {
            return;
        }
        *c -= 1;
        if *c == 0 {
            self.ready[r as usize].push(d);
        }
    }

    /// Takes the ready list of rank `r` (give it back with [`DepGraph::give_back`]).
    pub fn take_ready(&mut self, r: u32) -> Vec<u32> {
        std::mem::take(&mut self.ready[r as usize])
    }

    /// Returns the (emptied) buffer of [`DepGraph::take_ready`] to reuse its capacity.
    pub fn give_back(&mut self, r: u32, mut buffer: Vec<u32>) {
        buffer.clear();
        if self.ready[r as usize].is_empty() {
            self.ready[r as usize] = buffer;
        }
    }

    /// The first op of rank `r` whose dependencies never completed.
    pub fn first_blocked(&self, r: u32) -> Option<u32> {
        let (a, b) = (
            self.base[r as usize] as usize,
            self.base[r as usize + 1] as usize,
        );
        self.pending[a..b]
            .iter()
            .position(|&c| c > 0)
            .map(|i| i as u32)
    }
}
