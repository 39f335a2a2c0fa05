//! What can be proved of a GOAL schedule, which carries sizes but not data.
//!
//! 1. Matching: the k-th send from `a` to `b` with tag `t` (in `a`'s file order) pairs with
//!    the k-th receive at `b` from `a` with tag `t` (MPI's non-overtaking order), and every
//!    send and receive has its partner; a receive is at least as large as its send.
//! 2. No deadlock: the events "op started" and "op done" with the orders GOAL states
//!    (`requires`: done before start; `irequires`: start before start), a message's receive
//!    done after its send started, and a rendezvous send (more than `S` bytes, as in
//!    LogGOPSim) done after its receive started, form no cycle.
//! 3. Information flow as happens-before: rank `s` is heard by rank `r` when some op of `s`
//!    precedes some op of `r` along those orders. Broadcast and scatter: every rank hears the
//!    root; reduce and gather: the root hears every rank; allreduce, allgather, alltoall,
//!    reduce-scatter, all-to-all broadcast and barrier: every rank hears every rank.
//! 4. With the collective's size `N` (Schedgen's `--datasize`), every rank receives at least
//!    the bytes it needs: see [`needed_bytes`].
//!
//! Schedgen writes rooted patterns for root 0 and swaps ranks 0 and the root, so a file
//! generated with `--root R` is checked with root `R`.

use super::goal::{Goal, GoalKind, ANY};
use crate::error::{Error, Result};
use crate::schedule::CollectiveKind;

/// The outcome: `diagnosis` is `None` when every check passes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoalReport {
    pub diagnosis: Option<String>,
    /// Point-to-point messages (send ops).
    pub messages: u64,
    /// Bytes received by each rank.
    pub received: Vec<u64>,
    /// Whether every send met its receive and the dependencies admit an execution (checks 1
    /// and 2): then the schedule can run, whatever its information flow.
    pub runnable: bool,
    /// The matched (send, receive) pairs, as op numbers counted rank by rank in file order;
    /// complete when `runnable`.
    pub pairs: Vec<(u32, u32)>,
}

/// Checks `goal` as collective `kind` rooted at `root`; `bytes` is the collective's size for
/// the volume check (none: skipped); `rendezvous` is LogGOPSim's `S`. Wildcard receives and
/// collectives GOAL cannot name the targets of are refused as errors.
pub fn check(
    goal: &Goal,
    kind: CollectiveKind,
    root: u32,
    bytes: Option<u64>,
    rendezvous: u64,
) -> Result<GoalReport> {
    let p = goal.num_ranks();
    if kind.is_rooted() && root >= p {
        return crate::spec_err!("root {root} is not a rank of this schedule (num_ranks {p})");
    }
    if matches!(kind, CollectiveKind::Multicast | CollectiveKind::ManyToAll) {
        return crate::spec_err!(
            "{} names its targets or sources, which a GOAL file does not carry: verify it as \
             bcast or allgather",
            kind.name()
        );
    }
    let graph = Graph::build(goal, rendezvous)?;
    let received = received_bytes(goal);
    let (runnable, diagnosis) = match (&graph.matching_error, graph.order()) {
        (Some(e), _) => (false, Some(e.clone())),
        (None, Err(e)) => (false, Some(e)),
        (None, Ok(order)) => (
            true,
            flow(goal, &graph, &order, kind, root)
                .and_then(|()| volume(&received, kind, root, bytes))
                .err(),
        ),
    };
    let report = GoalReport {
        diagnosis,
        messages: goal.num_sends() as u64,
        received,
        runnable,
        pairs: graph.pairs,
    };
    Ok(report)
}

/// Bytes each rank receives (the sum of its receives' sizes).
fn received_bytes(goal: &Goal) -> Vec<u64> {
    goal.ranks
        .iter()
        .map(|r| {
            r.ops
                .iter()
                .filter(|o| o.kind == GoalKind::Recv)
                .map(|o| o.size)
                .sum()
        })
        .collect()
}

/// Bytes rank `r` must receive for collective `kind` of size `n` on `p` ranks: the whole
/// vector for a broadcast (non-roots), `n` per rank for scatter (non-roots) and gather (root:
/// `(p-1)n`), `(p-1)n` for allgather, alltoall and all-to-all broadcast (n per rank or pair),
/// and `ceil((p-1)n/p)` for reductions (the fewest bytes from which a rank can form its
/// reduced share of an `n`-byte vector); nothing for a barrier.
pub fn needed_bytes(kind: CollectiveKind, p: u32, root: u32, r: u32, n: u64) -> u64 {
    use CollectiveKind::*;
    let others = (p as u64).saturating_sub(1);
    match kind {
        Broadcast | Scatter if r != root => n,
        Gather if r == root => others * n,
        Allgather | Alltoall | AlltoallBroadcast => others * n,
        Reduce if r == root => (others * n).div_ceil(p as u64),
        Allreduce => (others * n).div_ceil(p as u64),
        ReduceScatter => (others * n).div_ceil(p as u64 * p as u64),
        _ => 0,
    }
}

fn volume(
    received: &[u64],
    kind: CollectiveKind,
    root: u32,
    bytes: Option<u64>,
) -> std::result::Result<(), String> {
    let Some(n) = bytes else { return Ok(()) };
    let p = received.len() as u32;
    for (r, &got) in received.iter().enumerate() {
        let need = needed_bytes(kind, p, root, r as u32, n);
        if got < need {
            return Err(format!(
                "rank {r} receives {got} bytes, but a {} of {n} bytes on {p} ranks needs at \
                 least {need} there",
                kind.name()
            ));
        }
    }
    Ok(())
}

/// Op numbers counted rank by rank in file order: rank r's ops are `first[r]..first[r + 1]`.
pub(crate) fn op_numbers(goal: &Goal) -> Vec<u32> {
    let mut first = Vec::with_capacity(goal.ranks.len() + 1);
    let mut n = 0u32;
    for r in &goal.ranks {
        first.push(n);
        n += r.ops.len() as u32;
    }
    first.push(n);
    first
}

/// Events: `2 * op` is "op started", `2 * op + 1` is "op done", ops numbered rank by rank.
struct Graph {
    first: Vec<u32>,
    succ: Vec<Vec<u32>>,
    matching_error: Option<String>,
    pairs: Vec<(u32, u32)>,
}

impl Graph {
    fn build(goal: &Goal, rendezvous: u64) -> Result<Graph> {
        let first = op_numbers(goal);
        let n = *first.last().unwrap_or(&0);
        let mut g = Graph {
            first,
            succ: vec![Vec::new(); 2 * n as usize],
            matching_error: None,
            pairs: Vec::new(),
        };
        for (r, rank) in goal.ranks.iter().enumerate() {
            let base = g.first[r];
            for i in 0..rank.ops.len() as u32 {
                g.edge(2 * (base + i), 2 * (base + i) + 1);
            }
            for d in &rank.deps {
                let from = 2 * (base + d.on) + u32::from(!d.start);
                g.edge(from, 2 * (base + d.op));
            }
        }
        g.match_messages(goal, rendezvous)?;
        Ok(g)
    }

    fn edge(&mut self, a: u32, b: u32) {
        self.succ[a as usize].push(b);
    }

    fn rank_of(&self, op: u32) -> u32 {
        (self.first.partition_point(|&f| f <= op) - 1) as u32
    }

    /// Pairs sends and receives per (source, destination, tag) in file order.
    fn match_messages(&mut self, goal: &Goal, rendezvous: u64) -> Result<()> {
        use std::collections::BTreeMap;
        type Key = (u32, u32, u32);
        let mut sends: BTreeMap<Key, Vec<u32>> = BTreeMap::new();
        let mut recvs: BTreeMap<Key, Vec<u32>> = BTreeMap::new();
        for (r, rank) in goal.ranks.iter().enumerate() {
            for (i, op) in rank.ops.iter().enumerate() {
                let id = self.first[r] + i as u32;
                match op.kind {
                    GoalKind::Send => sends
                        .entry((r as u32, op.peer, op.tag))
                        .or_default()
                        .push(id),
                    GoalKind::Recv => {
                        if op.peer == ANY || op.tag == ANY {
                            return Err(Error::Spec(format!(
                                "rank {r} {} receives from any source or with any tag: wildcard \
                                 receives match by timing, which verification cannot assume",
                                rank.name(i as u32)
                            )));
                        }
                        recvs
                            .entry((op.peer, r as u32, op.tag))
                            .or_default()
                            .push(id)
                    }
                    GoalKind::Calc => {}
                }
            }
        }
        let first = self.first.clone();
        let op = |id: u32| {
            let r = (first.partition_point(|&f| f <= id) - 1) as u32;
            (r, id - first[r as usize])
        };
        let empty = Vec::new();
        for (key, s) in &sends {
            let rv = recvs.get(key).unwrap_or(&empty);
            for (k, &send) in s.iter().enumerate() {
                let (sr, si) = op(send);
                let size = goal.ranks[sr as usize].ops[si as usize].size;
                let Some(&recv) = rv.get(k) else {
                    self.unmatched_send(goal, *key, sr, si, size, s.len(), rv.len());
                    return Ok(());
                };
                let (rr, ri) = op(recv);
                let rsize = goal.ranks[rr as usize].ops[ri as usize].size;
                if rsize < size {
                    self.matching_error = Some(format!(
                        "rank {sr} {} sends {size} bytes to rank {rr} with tag {}, but the \
                         matching receive {} posts only {rsize} bytes",
                        goal.ranks[sr as usize].name(si),
                        key.2,
                        goal.ranks[rr as usize].name(ri)
                    ));
                    return Ok(());
                }
                self.edge(2 * send, 2 * recv + 1);
                self.pairs.push((send, recv));
                if size > rendezvous {
                    self.edge(2 * recv, 2 * send + 1);
                }
            }
        }
        for (key, rv) in &recvs {
            let ns = sends.get(key).map_or(0, Vec::len);
            if rv.len() > ns {
                let (rr, ri) = op(rv[ns]);
                self.matching_error = Some(format!(
                    "rank {rr} {} receives from rank {} with tag {}, which sends only {ns} \
                     message(s) with that tag to rank {rr} ({} receive(s) posted)",
                    goal.ranks[rr as usize].name(ri),
                    key.0,
                    key.2,
                    rv.len()
                ));
                return Ok(());
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn unmatched_send(
        &mut self,
        goal: &Goal,
        key: (u32, u32, u32),
        sr: u32,
        si: u32,
        size: u64,
        ns: usize,
        nr: usize,
    ) {
        self.matching_error = Some(format!(
            "rank {sr} {} sends {size} bytes to rank {} with tag {}, which posts no matching \
             receive ({ns} send(s), {nr} receive(s) for that pair and tag)",
            goal.ranks[sr as usize].name(si),
            key.1,
            key.2
        ));
    }

    /// A topological order of the events, or the diagnosis of a cycle (a deadlock).
    fn order(&self) -> std::result::Result<Vec<u32>, String> {
        let n = self.succ.len();
        let mut indeg = vec![0u32; n];
        for s in &self.succ {
            for &b in s {
                indeg[b as usize] += 1;
            }
        }
        let mut order: Vec<u32> = (0..n as u32).filter(|&v| indeg[v as usize] == 0).collect();
        let mut head = 0;
        while head < order.len() {
            let v = order[head];
            head += 1;
            for &b in &self.succ[v as usize] {
                indeg[b as usize] -= 1;
                if indeg[b as usize] == 0 {
                    order.push(b);
                }
            }
        }
        if order.len() == n {
            return Ok(order);
        }
        Err(self.describe_cycle(&indeg))
    }

    fn describe_cycle(&self, indeg: &[u32]) -> String {
        // Walk backwards along stuck events until one repeats: that is a cycle.
        let stuck: Vec<bool> = indeg.iter().map(|&d| d > 0).collect();
        let mut pred = vec![u32::MAX; stuck.len()];
        for (a, s) in self.succ.iter().enumerate() {
            for &b in s {
                if stuck[a] && stuck[b as usize] {
                    pred[b as usize] = a as u32;
                }
            }
        }
        let mut v = stuck.iter().position(|&s| s).unwrap_or(0) as u32;
        let mut seen = vec![false; stuck.len()];
        while !seen[v as usize] && pred[v as usize] != u32::MAX {
            seen[v as usize] = true;
            v = pred[v as usize];
        }
        let mut cycle = vec![v];
        let mut w = pred[v as usize];
        while w != v && w != u32::MAX && cycle.len() < 12 {
            cycle.push(w);
            w = pred[w as usize];
        }
        cycle.reverse();
        let names: Vec<String> = cycle.iter().map(|&e| self.event_name(e)).collect();
        format!(
            "dependency cycle (deadlock): {} waits for {}",
            names.join(" waits for "),
            names[0]
        )
    }

    fn event_name(&self, e: u32) -> String {
        let op = e / 2;
        let r = self.rank_of(op);
        let what = if e % 2 == 0 { "start" } else { "completion" };
        format!("the {what} of rank {r} op #{}", op - self.first[r as usize])
    }
}

/// Which ranks' starts precede each rank's completion, 64 source ranks at a time.
fn flow(
    goal: &Goal,
    g: &Graph,
    order: &[u32],
    kind: CollectiveKind,
    root: u32,
) -> std::result::Result<(), String> {
    use CollectiveKind::*;
    let p = goal.num_ranks();
    let (sources, targets): (Vec<u32>, Vec<u32>) = match kind {
        Broadcast | Scatter => (vec![root], (0..p).collect()),
        Reduce | Gather => ((0..p).collect(), vec![root]),
        _ => ((0..p).collect(), (0..p).collect()),
    };
    let mut mask = vec![0u64; g.succ.len()];
    for chunk in sources.chunks(64) {
        mask.iter_mut().for_each(|m| *m = 0);
        for (bit, &s) in chunk.iter().enumerate() {
            for op in g.first[s as usize]..g.first[s as usize + 1] {
                mask[2 * op as usize] |= 1 << bit;
            }
        }
        for &v in order {
            let m = mask[v as usize];
            for &b in &g.succ[v as usize] {
                mask[b as usize] |= m;
            }
        }
        for &t in &targets {
            let ops = g.first[t as usize]..g.first[t as usize + 1];
            let heard = ops.fold(0u64, |acc, op| acc | mask[2 * op as usize + 1]);
            for (bit, &s) in chunk.iter().enumerate() {
                if s != t && heard & (1 << bit) == 0 {
                    return Err(not_heard(kind, root, s, t));
                }
            }
        }
    }
    Ok(())
}

fn not_heard(kind: CollectiveKind, root: u32, s: u32, t: u32) -> String {
    let role = |r: u32| {
        if kind.is_rooted() && r == root {
            format!("rank {r} (the root)")
        } else {
            format!("rank {r}")
        }
    };
    format!(
        "{}: {} completes without hearing from {}: no chain of messages and dependencies leads \
         from {}'s start to {}'s completion",
        kind.name(),
        role(t),
        role(s),
        role(s),
        role(t)
    )
}
