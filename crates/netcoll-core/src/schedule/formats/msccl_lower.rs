//! MSCCL XML onto the IR: runs the algorithm symbolically and records it as a schedule.
//!
//! Every GPU starts with its collective's input chunks (`msccl_layout`). Threadblocks run
//! their steps in order, each step after its cross-threadblock dependency; a receive takes
//! the oldest unreceived send on its connection (sender, receiver, channel). Each step
//! becomes IR ops on its rank, waiting for the previous step of its threadblock and its
//! dependency: `s` a send, `r` a receive, `rcs` a receive and a send, `rrc`/`rrs`/`rrcs` a
//! receive, a reduce op over the received and the local chunks, and a send; `cpy` a copy,
//! `re` a reduce; `nop`, `d` and `st` only order. Messages carry the chunks' symbolic values,
//! so the IR verifier then proves the data flow (every chunk used only after its rank
//! causally holds it, every contribution reduced exactly once). Finally every output chunk
//! must hold what the collective promises there, which names the rank and the chunk.
//!
//! A step that reads an empty chunk, reduces unlike chunks, receives a different number of
//! chunks than was sent, or waits forever is reported where it happens. Connections are taken
//! as unbounded FIFOs (the runtime's 8-slot limit is a performance matter, not a proof one).

use super::msccl::{Buf, Msccl, StepKind};
use super::msccl_layout::Layout;
use crate::error::{Error, Result};
use crate::schedule::{
    CollectiveKind, MsgId, OpRef, PacketRange, Piece, Schedule, ScheduleBuilder,
};
use std::collections::{HashMap, VecDeque};

/// The outcome: a schedule for the IR verifier, or a diagnosis found while lowering.
pub type Lowered = std::result::Result<Schedule, String>;

/// Lowers `x` as collective `op` (default: its `coll`) rooted at `root`, each chunk
/// `bytes_per_chunk` bytes. Structural errors (a dependency on a missing step, an in-place
/// alias past a buffer) are `Err`; a wrong algorithm is `Ok(Err(diagnosis))`.
pub fn lower(
    x: &Msccl,
    op: Option<CollectiveKind>,
    root: u32,
    bytes_per_chunk: u64,
) -> Result<Lowered> {
    let layout = Layout::from_file(x, op, root)?;
    check_deps(x)?;
    let mut run = Run::new(x, &layout, bytes_per_chunk)?;
    if let Err(d) = run.execute() {
        return Ok(Err(d));
    }
    if let Err(d) = run.check_outputs() {
        return Ok(Err(d));
    }
    Ok(run.b.build().map_err(|e| e.to_string()))
}

fn check_deps(x: &Msccl) -> Result<()> {
    for (r, g) in x.gpus.iter().enumerate() {
        for t in &g.tbs {
            for (i, s) in t.steps.iter().enumerate() {
                if let Some((tb, step)) = s.dep {
                    if g.tbs[tb as usize].steps.len() <= step as usize {
                        return Err(Error::Io(format!(
                            "gpu {r} tb {} step {i}: depid=\"{tb}\" deps=\"{step}\" names a step \
                             that threadblock {tb} does not have",
                            t.id
                        )));
                    }
                }
            }
        }
    }
    Ok(())
}

/// A sent, not yet received, message on a connection.
struct InFlight {
    msg: MsgId,
    cnt: u32,
    from: (u32, u32),
}

struct Run<'a> {
    x: &'a Msccl,
    layout: &'a Layout,
    b: ScheduleBuilder,
    /// Chunk values per rank, per canonical buffer.
    chunks: Vec<[Vec<Option<Piece>>; 3]>,
    /// Per rank, per threadblock: the next step to run.
    next: Vec<Vec<usize>>,
    /// IR ops that stand for the completion of each step run so far.
    done: Vec<Vec<Vec<Vec<OpRef>>>>,
    links: HashMap<(u32, u32, u32), VecDeque<InFlight>>,
}

fn slot(b: Buf) -> usize {
    b as usize
}

impl<'a> Run<'a> {
    fn new(x: &'a Msccl, layout: &'a Layout, bytes_per_chunk: u64) -> Result<Self> {
        let b = ScheduleBuilder::from_collective(layout.collective.clone())
            .packetization(bytes_per_chunk.max(1), 0);
        let mut chunks = Vec::with_capacity(x.gpus.len());
        for (r, g) in x.gpus.iter().enumerate() {
            let mut bufs =
                [Buf::Input, Buf::Output, Buf::Scratch].map(|b| vec![None; g.chunks(b) as usize]);
            for (off, piece) in layout.initial(r as u32) {
                let (cb, coff) = layout.alias(x.inplace, r as u32, Buf::Input, off);
                if let Some(c) = bufs[slot(cb)].get_mut(coff as usize) {
                    *c = Some(piece);
                }
            }
            chunks.push(bufs);
        }
        Ok(Run {
            x,
            layout,
            b,
            chunks,
            next: x.gpus.iter().map(|g| vec![0; g.tbs.len()]).collect(),
            done: x
                .gpus
                .iter()
                .map(|g| g.tbs.iter().map(|_| Vec::new()).collect())
                .collect(),
            links: HashMap::new(),
        })
    }

    fn name(&self, r: u32, tb: usize, i: usize) -> String {
        let s = &self.x.gpus[r as usize].tbs[tb].steps[i];
        format!("rank {r} tb {tb} step {i} ({})", s.kind.code())
    }

    /// Runs steps until none can run; steps left over are a deadlock.
    fn execute(&mut self) -> std::result::Result<(), String> {
        loop {
            let mut progress = false;
            for r in 0..self.x.gpus.len() as u32 {
                for tb in 0..self.x.gpus[r as usize].tbs.len() {
                    while self.ready(r, tb) {
                        self.step(r, tb)?;
                        progress = true;
                    }
                }
            }
            if !progress {
                break;
            }
        }
        self.check_finished()
    }

    fn ready(&self, r: u32, tb: usize) -> bool {
        let g = &self.x.gpus[r as usize];
        let i = self.next[r as usize][tb];
        let Some(s) = g.tbs[tb].steps.get(i) else {
            return false;
        };
        if let Some((dt, ds)) = s.dep {
            if self.next[r as usize][dt as usize] <= ds as usize {
                return false;
            }
        }
        if s.kind.receives() {
            let t = &g.tbs[tb];
            let key = (t.recv.unwrap_or(0), r, t.chan);
            return self.links.get(&key).is_some_and(|q| !q.is_empty());
        }
        true
    }

    fn check_finished(&self) -> std::result::Result<(), String> {
        for (r, g) in self.x.gpus.iter().enumerate() {
            for (tb, t) in g.tbs.iter().enumerate() {
                let i = self.next[r][tb];
                let Some(s) = t.steps.get(i) else { continue };
                let why = match s.dep {
                    Some((dt, ds)) if self.next[r][dt as usize] <= ds as usize => {
                        format!("waits for tb {dt} step {ds}, which never runs")
                    }
                    _ => format!(
                        "waits for a message from rank {} on channel {} that is never sent",
                        t.recv.unwrap_or(0),
                        t.chan
                    ),
                };
                return Err(format!("deadlock: {} {why}", self.name(r as u32, tb, i)));
            }
        }
        let mut left: Vec<_> = self.links.iter().filter(|(_, q)| !q.is_empty()).collect();
        left.sort_by_key(|(k, _)| **k);
        if let Some(((from, to, chan), q)) = left.first() {
            let f = &q[0];
            return Err(format!(
                "{} sends {} chunk(s) to rank {to} on channel {chan}, which rank {to} never receives",
                self.name(*from, f.from.0 as usize, f.from.1 as usize),
                f.cnt
            ));
        }
        Ok(())
    }

    fn read(
        &self,
        r: u32,
        tb: usize,
        i: usize,
        (b, off): (Buf, i64),
        cnt: u32,
    ) -> std::result::Result<Vec<Piece>, String> {
        (0..cnt)
            .map(|k| {
                let (cb, co) = self.layout.alias(self.x.inplace, r, b, off as u32 + k);
                match self.chunks[r as usize][slot(cb)].get(co as usize) {
                    Some(Some(p)) => Ok(p.clone()),
                    _ => Err(format!(
                        "{} reads {} chunk {}, which holds nothing yet",
                        self.name(r, tb, i),
                        b.name(),
                        off as u32 + k
                    )),
                }
            })
            .collect()
    }

    fn write(
        &mut self,
        r: u32,
        (b, off): (Buf, i64),
        values: &[Piece],
    ) -> std::result::Result<(), String> {
        for (k, v) in values.iter().enumerate() {
            let (cb, co) = self
                .layout
                .alias(self.x.inplace, r, b, off as u32 + k as u32);
            match self.chunks[r as usize][slot(cb)].get_mut(co as usize) {
                Some(c) => *c = Some(v.clone()),
                None => {
                    return Err(format!(
                        "rank {r} writes {} chunk {}, past its {} chunks in place",
                        b.name(),
                        off as u32 + k as u32,
                        self.chunks[r as usize][slot(cb)].len()
                    ))
                }
            }
        }
        Ok(())
    }

    /// Runs the next step of threadblock `tb` of rank `r`.
    fn step(&mut self, r: u32, tb: usize) -> std::result::Result<(), String> {
        let i = self.next[r as usize][tb];
        let t = &self.x.gpus[r as usize].tbs[tb];
        let s = t.steps[i].clone();
        let (send_to, recv_from, chan) = (t.send, t.recv, t.chan);
        let mut deps: Vec<OpRef> = match i {
            0 => Vec::new(),
            _ => self.done[r as usize][tb][i - 1].clone(),
        };
        if let Some((dt, ds)) = s.dep {
            deps.extend(
                self.done[r as usize][dt as usize][ds as usize]
                    .iter()
                    .copied(),
            );
        }
        let mut last = deps.clone();
        let mut value: Option<Vec<Piece>> = None;
        if s.kind.receives() {
            let key = (recv_from.unwrap_or(0), r, chan);
            let f = self
                .links
                .get_mut(&key)
                .and_then(VecDeque::pop_front)
                .expect("ready");
            if f.cnt != s.cnt {
                return Err(format!(
                    "{} receives {} chunk(s), but its matching send {} sends {}",
                    self.name(r, tb, i),
                    s.cnt,
                    self.name(key.0, f.from.0 as usize, f.from.1 as usize),
                    f.cnt
                ));
            }
            let op = self.b.recv_msg(r, f.msg, PacketRange::ALL, &deps);
            last = vec![op];
            value = Some(self.b.value(op).to_vec());
        }
        let reduces = matches!(
            s.kind,
            StepKind::RecvReduceSend
                | StepKind::RecvReduceCopy
                | StepKind::RecvReduceCopySend
                | StepKind::Reduce
        );
        if matches!(s.kind, StepKind::Send | StepKind::Copy) {
            value = Some(self.read(r, tb, i, s.src, s.cnt)?);
        }
        if reduces {
            let (local_at, other) = match s.kind {
                StepKind::Reduce => (s.dst, self.read(r, tb, i, s.src, s.cnt)?),
                _ => (s.src, value.take().unwrap_or_default()),
            };
            let local = self.read(r, tb, i, local_at, s.cnt)?;
            let out = self.reduce(r, tb, i, &local, &other, &mut last)?;
            value = Some(out);
        }
        if s.kind == StepKind::Copy {
            let v = value.clone().unwrap_or_default();
            last = vec![self.b.copy(r, &v, &last)];
        }
        if s.kind.writes_dst() {
            self.write(r, s.dst, value.as_deref().unwrap_or(&[]))?;
        }
        if s.kind.sends() {
            let payload = value.unwrap_or_default();
            let to = send_to.unwrap_or(0);
            let msg = self.b.message(r, &[to], &payload);
            last = vec![self.b.send_msg(msg, PacketRange::ALL, &last)];
            self.links
                .entry((r, to, chan))
                .or_default()
                .push_back(InFlight {
                    msg,
                    cnt: s.cnt,
                    from: (tb as u32, i as u32),
                });
        }
        self.done[r as usize][tb].push(last);
        self.next[r as usize][tb] += 1;
        Ok(())
    }

    /// Reduces `local` and `other` chunk by chunk with one IR reduce op.
    fn reduce(
        &mut self,
        r: u32,
        tb: usize,
        i: usize,
        local: &[Piece],
        other: &[Piece],
        last: &mut Vec<OpRef>,
    ) -> std::result::Result<Vec<Piece>, String> {
        let index = |p: &Piece| match p {
            Piece::Reduced { index, .. } => Some(*index),
            _ => None,
        };
        for (a, b) in local.iter().zip(other) {
            match (index(a), index(b)) {
                (Some(x), Some(y)) if x == y => {}
                (Some(x), Some(y)) => {
                    return Err(format!(
                        "{} reduces block index {x} with block index {y}",
                        self.name(r, tb, i)
                    ))
                }
                _ => {
                    return Err(format!(
                        "{} reduces chunks of a {}, which has nothing to reduce",
                        self.name(r, tb, i),
                        self.layout.collective.kind.name()
                    ))
                }
            }
        }
        let inputs: Vec<Piece> = local.iter().chain(other).cloned().collect();
        let op = self.b.reduce(r, &inputs, last);
        *last = vec![op];
        let out = self.b.value(op).to_vec();
        Ok(local
            .iter()
            .map(|a| {
                out.iter()
                    .find(|o| index(o) == index(a))
                    .cloned()
                    .unwrap_or_else(|| a.clone())
            })
            .collect())
    }

    /// Every output chunk holds what the collective promises there.
    fn check_outputs(&self) -> std::result::Result<(), String> {
        let c = &self.layout.collective;
        for r in 0..c.p {
            for (off, want) in self.layout.required(r) {
                let (cb, co) = self.layout.alias(self.x.inplace, r, Buf::Output, off);
                let have = self.chunks[r as usize][slot(cb)].get(co as usize);
                let got = match have {
                    None => format!(
                        "its {} buffer has only {} chunks",
                        cb.name(),
                        self.chunks[r as usize][slot(cb)].len()
                    ),
                    Some(None) => "it holds nothing".into(),
                    Some(Some(p)) if *p == want => continue,
                    Some(Some(p)) => format!("it holds {}", p.describe(c)),
                };
                return Err(format!(
                    "rank {r} output chunk {off} must end with {}, but {got}",
                    want.describe(c)
                ));
            }
        }
        Ok(())
    }
}
