//! MPI message matching for the LogGOPS engine, in O(1) amortised per event, with exactly
//! LogGOPSim's list semantics.
//!
//! LogGOPSim (compiled with `LIST_MATCH`, its default) keeps per host a list of posted
//! receives and a list of unexpected messages and takes the *first* entry, in insertion
//! order, that matches `(source, tag)` with wildcards (`ANY`) on either side. Searching the
//! lists costs O(queue length) per event, and the all-to-alls whose queues grow to P entries
//! pay O(P^2) per rank. Here every entry gets a global sequence number and sits in a FIFO
//! keyed by its own `(host, source, tag)` (a wildcard receive under its wildcard key), so:
//!
//! - a message `(s, t)` looks at the fronts of at most four FIFOs of posted receives,
//!   `(s, t)`, `(ANY, t)`, `(s, ANY)`, `(ANY, ANY)`, and takes the smallest sequence number:
//!   the first matching receive in posting order, as the list search finds it;
//! - a specific receive `(s, t)` takes the front of the unexpected FIFO `(s, t)` (messages
//!   are never wildcards); a wildcard receive asks ordered indices by tag, by source or by
//!   arrival (kept only when the schedule has wildcard receives) for the earliest match,
//!   which is necessarily the front of its own `(s, t)` FIFO.
//!
//! FIFOs are singly linked lists threaded through one node pool with a free list: no
//! allocation per event once the pool has grown to the largest number of waiting entries.

use std::collections::BTreeSet;

use rustc_hash::FxHashMap;

use super::free_slots::reuse_slot;
use crate::schedule::formats::goal::ANY;

const NIL: u32 = u32::MAX;

/// A waiting entry: a posted receive or an unexpected message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub src: u32,
    pub tag: u32,
    /// The op: the receive's offset on the host, or the send's offset on `src`.
    pub offset: u32,
}

#[derive(Clone, Copy)]
struct Node {
    seq: u64,
    entry: Entry,
    next: u32,
}

/// FIFOs keyed by `(host, source, tag)`, threaded through one pool.
#[derive(Default)]
struct Fifos {
    ends: FxHashMap<(u32, u32, u32), (u32, u32)>,
    pool: Vec<Node>,
    free: Vec<u32>,
    /// Entries per host (the queue length LogGOPSim's lists would have).
    len: Vec<u32>,
}

impl Fifos {
    fn new(hosts: usize) -> Self {
        Fifos {
            len: vec![0; hosts],
            ..Default::default()
        }
    }

    fn push(&mut self, host: u32, seq: u64, entry: Entry) {
        let node = Node {
            seq,
            entry,
            next: NIL,
        };
        let i = reuse_slot(&mut self.pool, &mut self.free, node);
        let ends = self
            .ends
            .entry((host, entry.src, entry.tag))
            .or_insert((NIL, NIL));
        if ends.1 == NIL {
            ends.0 = i;
        } else {
            self.pool[ends.1 as usize].next = i;
        }
        ends.1 = i;
        self.len[host as usize] += 1;
    }

    /// Sequence number of the front of FIFO `key`.
    fn front(&self, key: (u32, u32, u32)) -> Option<u64> {
        self.ends.get(&key).map(|e| self.pool[e.0 as usize].seq)
    }

    fn pop(&mut self, key: (u32, u32, u32)) -> Option<(u64, Entry)> {
        let ends = self.ends.get_mut(&key)?;
        let i = ends.0;
        let node = self.pool[i as usize];
        if node.next == NIL {
            self.ends.remove(&key);
        } else {
            ends.0 = node.next;
        }
        self.free.push(i);
        self.len[key.0 as usize] -= 1;
        Some((node.seq, node.entry))
    }

    /// Some entry of `host`, for deadlock reports.
    fn any_of(&self, host: u32) -> Option<Entry> {
        if self.len[host as usize] == 0 {
            return None;
        }
        let mut waiting: Vec<(u64, Entry)> = (self.ends.iter())
            .filter(|(k, _)| k.0 == host)
            .map(|(_, e)| (self.pool[e.0 as usize].seq, self.pool[e.0 as usize].entry))
            .collect();
        waiting.sort_unstable_by_key(|w| w.0);
        waiting.first().map(|w| w.1)
    }
}

/// Ordered indices of the unexpected messages, for wildcard receives.
#[derive(Default)]
struct WildIndex {
    by_tag: BTreeSet<(u32, u32, u64, u32)>,
    by_src: BTreeSet<(u32, u32, u64, u32)>,
    by_seq: BTreeSet<(u32, u64, u32, u32)>,
}

impl WildIndex {
    fn insert(&mut self, host: u32, seq: u64, src: u32, tag: u32) {
        self.by_tag.insert((host, tag, seq, src));
        self.by_src.insert((host, src, seq, tag));
        self.by_seq.insert((host, seq, src, tag));
    }

    fn remove(&mut self, host: u32, seq: u64, src: u32, tag: u32) {
        self.by_tag.remove(&(host, tag, seq, src));
        self.by_src.remove(&(host, src, seq, tag));
        self.by_seq.remove(&(host, seq, src, tag));
    }

    /// `(src, tag)` of the earliest unexpected message on `host` matching a wildcard receive.
    fn earliest(&self, host: u32, src: u32, tag: u32) -> Option<(u32, u32)> {
        if src == ANY && tag == ANY {
            let lo = (host, 0, 0, 0);
            let x = self.by_seq.range(lo..).next().filter(|x| x.0 == host)?;
            Some((x.2, x.3))
        } else if src == ANY {
            let lo = (host, tag, 0, 0);
            let x = self
                .by_tag
                .range(lo..)
                .next()
                .filter(|x| x.0 == host && x.1 == tag)?;
            Some((x.3, tag))
        } else {
            let lo = (host, src, 0, 0);
            let x = self
                .by_src
                .range(lo..)
                .next()
                .filter(|x| x.0 == host && x.1 == src)?;
            Some((src, x.3))
        }
    }
}

/// The posted-receive and unexpected-message queues of every host.
pub(crate) struct Matcher {
    posted: Fifos,
    unexpected: Fifos,
    /// Wildcard receives posted per host (skip their FIFOs when there are none).
    wild_posted: Vec<u32>,
    /// Present when the schedule has wildcard receives.
    wild: Option<WildIndex>,
    seq: u64,
}

impl Matcher {
    /// Queues for `hosts` hosts; `wildcards`: the schedule has receives from or with `ANY`.
    pub fn new(hosts: usize, wildcards: bool) -> Self {
        Matcher {
            posted: Fifos::new(hosts),
            unexpected: Fifos::new(hosts),
            wild_posted: vec![0; hosts],
            wild: wildcards.then(WildIndex::default),
            seq: 0,
        }
    }

    fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    /// Queue lengths of `host`: (posted receives, unexpected messages).
    pub fn lengths(&self, host: u32) -> (u32, u32) {
        let h = host as usize;
        (self.posted.len[h], self.unexpected.len[h])
    }

    /// A receive `(src, tag)` is posted on `host`: the first unexpected message it matches,
    /// else it waits.
    pub fn post_recv(&mut self, host: u32, recv: Entry) -> Option<Entry> {
        if let Some(m) = self.take_unexpected(host, recv.src, recv.tag) {
            return Some(m);
        }
        if recv.src == ANY || recv.tag == ANY {
            self.wild_posted[host as usize] += 1;
        }
        let seq = self.next_seq();
        self.posted.push(host, seq, recv);
        None
    }

    fn take_unexpected(&mut self, host: u32, src: u32, tag: u32) -> Option<Entry> {
        let (src, tag) = match &self.wild {
            Some(w) if src == ANY || tag == ANY => w.earliest(host, src, tag)?,
            _ => (src, tag),
        };
        let (seq, e) = self.unexpected.pop((host, src, tag))?;
        if let Some(w) = &mut self.wild {
            w.remove(host, seq, src, tag);
        }
        Some(e)
    }

    /// A message from `msg.src` with `msg.tag` arrives on `host`: the first posted receive
    /// it matches, else it waits as unexpected.
    pub fn arrive(&mut self, host: u32, msg: Entry) -> Option<Entry> {
        let (s, t) = (msg.src, msg.tag);
        let mut best = self.posted.front((host, s, t)).map(|q| (q, (s, t)));
        if self.wild_posted[host as usize] > 0 {
            for key in [(ANY, t), (s, ANY), (ANY, ANY)] {
                if let Some(q) = self.posted.front((host, key.0, key.1)) {
                    if best.is_none_or(|b| q < b.0) {
                        best = Some((q, key));
                    }
                }
            }
        }
        if let Some((_, key)) = best {
            if key.0 == ANY || key.1 == ANY {
                self.wild_posted[host as usize] -= 1;
            }
            return self.posted.pop((host, key.0, key.1)).map(|x| x.1);
        }
        let seq = self.next_seq();
        self.unexpected.push(host, seq, msg);
        if let Some(w) = &mut self.wild {
            w.insert(host, seq, s, t);
        }
        None
    }

    /// The first waiting receive and the first waiting message of `host`, if any.
    pub fn leftovers(&self, host: u32) -> (Option<Entry>, Option<Entry>) {
        (self.posted.any_of(host), self.unexpected.any_of(host))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// LogGOPSim's `match` on a `std::list`: the first entry matching, wildcards either side.
    fn list_match(list: &mut Vec<Entry>, src: u32, tag: u32) -> Option<Entry> {
        let i = list.iter().position(|w| {
            (src == ANY || w.src == ANY || w.src == src)
                && (tag == ANY || w.tag == ANY || w.tag == tag)
        })?;
        Some(list.remove(i))
    }

    /// Random receives (some wildcards) and messages on a few hosts: the FIFO matcher takes
    /// exactly the entries LogGOPSim's list search takes, step for step.
    #[test]
    fn equals_the_list_search_on_random_traffic() {
        use rand::{Rng, SeedableRng};
        for seed in 0..200u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let hosts = 3;
            let mut m = Matcher::new(hosts, seed % 4 != 0);
            let (mut posted, mut unexpected) = (vec![Vec::new(); hosts], vec![Vec::new(); hosts]);
            for step in 0..400u32 {
                let h = rng.random_range(0..hosts as u32);
                let src = rng.random_range(0..3u32);
                let tag = rng.random_range(0..3u32);
                let e = |src, tag| Entry {
                    src,
                    tag,
                    offset: step,
                };
                let hu = h as usize;
                if rng.random_bool(0.5) {
                    let wild = m.wild.is_some();
                    let src = if wild && rng.random_bool(0.2) {
                        ANY
                    } else {
                        src
                    };
                    let tag = if wild && rng.random_bool(0.2) {
                        ANY
                    } else {
                        tag
                    };
                    let want = list_match(&mut unexpected[hu], src, tag);
                    if want.is_none() {
                        posted[hu].push(e(src, tag));
                    }
                    assert_eq!(m.post_recv(h, e(src, tag)), want, "seed {seed} step {step}");
                } else {
                    let want = list_match(&mut posted[hu], src, tag);
                    if want.is_none() {
                        unexpected[hu].push(e(src, tag));
                    }
                    assert_eq!(m.arrive(h, e(src, tag)), want, "seed {seed} step {step}");
                }
                let lens = (posted[hu].len() as u32, unexpected[hu].len() as u32);
                assert_eq!(m.lengths(h), lens);
            }
            for h in 0..hosts {
                let (p, u) = m.leftovers(h as u32);
                assert_eq!(
                    (p, u),
                    (posted[h].first().copied(), unexpected[h].first().copied())
                );
            }
        }
    }
}
