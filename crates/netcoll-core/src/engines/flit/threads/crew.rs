//! The threads of a parallel run (`threads = N`, see par.rs for the partitions). While a
//! stretch of cycles runs, every partition but the master's lives on a thread of its own
//! for the whole stretch, and the partitions keep in step with one wait per cycle:
//!
//! * the master, at the start of its cycle `c`, allows the workers to run cycle `c`, runs
//!   its own partition, then waits until every worker has finished `c` (so that when
//!   [`Network::step`] returns, the whole network has done the cycle, as on one thread);
//! * a worker waits for that permission, runs its partition, and says it is done.
//!
//! Events for another partition go into a mail slot per (cycle parity, sender, receiver) at
//! the end of the sender's cycle and are taken by the receiver at the start of its next
//! cycle, before it applies the events due then (every delay is at least a cycle). A slot
//! is written again two cycles later, after the receiver has emptied it. Waiting spins
//! briefly, then yields the core (the machine is shared; a parked thread must get its turn).
//! The exchange is thus done by the receivers in parallel, and no thread sleeps between
//! cycles (waking a sleeping thread costs a scheduler slice on a loaded machine).

use super::channel::{Event, Wheel};
use super::network::Network;
use super::partition::Crew;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::{Arc, Mutex, MutexGuard};

/// Runs `body` with every other partition of the network that `net` picks out of `owner`
/// on a thread of its own (directly when the run has one partition). During `body` the
/// master's [`Network::step`] drives all partitions; afterwards the workers are back in the
/// master and every event is in its partition's wheel.
pub fn with_crew<'t, S, R>(
    owner: &mut S,
    net: fn(&mut S) -> &mut Network<'t>,
    body: impl FnOnce(&mut S) -> R,
) -> R {
    let Some(mut workers) = net(owner).workers.take() else {
        return body(owner);
    };
    let parts = workers.nets.len() + 1;
    let crew = Arc::new(Crew::new(parts, net(owner).now));
    let out = std::thread::scope(|s| {
        for w in workers.nets.iter_mut() {
            let crew = Arc::clone(&crew);
            s.spawn(move || w.work(&crew));
        }
        // Stops the workers when `body` ends, also by a panic (they would spin forever).
        let _stop = StopOnDrop(&crew);
        net(owner).crew = Some(Arc::clone(&crew));
        body(owner)
    });
    let master = net(owner);
    master.crew = None;
    for to in 0..parts {
        let n = if to == 0 {
            &mut *master
        } else {
            &mut workers.nets[to - 1]
        };
        for from in (0..parts).filter(|&f| f != to) {
            for parity in 0..2 {
                take_mail(crew.slot(parity, from, to), &mut n.wheel);
            }
        }
    }
    master.workers = Some(workers);
    out
}

struct StopOnDrop<'a>(&'a Crew);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.stop.store(true, Release);
    }
}

/// Tells the master that its worker thread failed (instead of letting it wait forever).
struct FailOnPanic<'a>(&'a Crew);

impl Drop for FailOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.failed.store(true, Release);
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Moves the events of a mail slot into a partition's wheel.
fn take_mail(slot: &Mutex<Vec<(u64, Event)>>, wheel: &mut Wheel) {
    let mut m = lock(slot);
    for &(at, e) in m.iter() {
        wheel.push(at, e);
    }
    m.clear();
}

/// Spins a little, then yields the core, until `ready` holds.
#[inline]
fn wait(ready: impl Fn() -> bool) {
    let mut spins = 0u32;
    while !ready() {
        if spins < 4096 {
            std::hint::spin_loop();
            spins += 1;
        } else {
            std::thread::yield_now();
        }
    }
}

impl Network<'_> {
    /// The master's cycle in a crew (see the module comment).
    pub(super) fn crew_step(&mut self, crew: &Crew) {
        let c = self.now;
        crew.allow.0.store(c + 1, Release);
        self.compute_partition(crew, true);
        let mut last = self.last_move;
        for q in 1..crew.parts {
            wait(|| crew.done[q].0.load(Acquire) > c || crew.failed.load(Acquire));
            assert!(
                !crew.failed.load(Acquire),
                "a partition thread of the flit engine failed"
            );
            last = last.max(crew.last_move[q].0.load(Relaxed));
        }
        self.last_move = last;
    }

    /// A worker's loop: one cycle of its partition whenever the master allows it.
    fn work(&mut self, crew: &Crew) {
        let _fail = FailOnPanic(crew);
        let id = self.part.as_ref().expect("a partition").id;
        loop {
            let c = self.now;
            wait(|| crew.allow.0.load(Acquire) > c || crew.stop.load(Acquire));
            if crew.allow.0.load(Acquire) <= c {
                return;
            }
            self.compute_partition(crew, false);
            crew.last_move[id].0.store(self.last_move, Relaxed);
            crew.done[id].0.store(c + 1, Release);
        }
    }

    /// One cycle of this partition: take the mail of the last cycle, apply the events due,
    /// (the master) inject, run the routers, post the mail for the others.
    fn compute_partition(&mut self, crew: &Crew, master: bool) {
        let c = self.now;
        let id = self.part.as_ref().expect("a partition").id;
        for from in (0..crew.parts).filter(|&f| f != id) {
            take_mail(crew.slot(c.wrapping_sub(1), from, id), &mut self.wheel);
        }
        self.deliver();
        if master {
            self.inject();
        }
        self.routers();
        self.end_sends();
        let part = self.part.as_mut().expect("a partition");
        for to in (0..crew.parts).filter(|&t| t != id) {
            let mut m = lock(crew.slot(c, id, to));
            debug_assert!(m.is_empty(), "a mail slot written before it was taken");
            std::mem::swap(&mut *m, &mut part.outbox[to]);
        }
        self.now += 1;
    }
}
