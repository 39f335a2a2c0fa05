//! Our schedules as MSCCL XML, with msccl-tools' element and attribute set.
//!
//! Each rank is a GPU. Its sends to a peer go to one threadblock (`send` = peer), its
//! receives from a peer to another (`recv` = peer), its compute to a third; all on channel 0.
//! Buffers follow `msccl_layout` (not in place): a value a rank receives or computes goes to
//! its output chunk when the collective wants it there, else to a fresh scratch chunk, so no
//! chunk is ever overwritten with a different value (no write-after-read races). A message
//! travels as one step per run of chunks that lie contiguously at the sender (the receiver
//! stores a message contiguously); an NI multi-send becomes one send per destination. A
//! reduce op becomes `cpy` then one `re` per further input; a `copy` op a `cpy`. Receives on
//! a threadblock are ordered as their sends are on the sender (MSCCL matches a connection in
//! order). Dependencies: on the ops the IR names (same rank; dependencies on other ranks'
//! ops order nothing data needs and have no MSCCL form), plus on the step that wrote each
//! chunk a step reads; extra ones become `nop` steps as msccl-tools does. Own chunks the
//! collective wants in the output (allgather, gather, broadcast's root) are copied there.
//! Not representable: XOR-coded pieces and ops, multicast, many-to-all, barrier, and sends
//! of packet ranges (pipelining below the message).

use super::msccl::{Buf, Gpu, Msccl, Step, StepKind, Threadblock};
use super::msccl_layout::{coll_name, Layout};
use crate::error::{Error, Result};
use crate::schedule::{ComputeOp, MsgId, OpKind, Piece, Schedule};
use std::collections::{BTreeMap, HashMap};

type TbKey = (i64, i64);
/// A receive op placed later: (op, message, first chunk, IR ops it waits for).
type PendingRecv = (usize, MsgId, (Buf, u32), Vec<usize>);
/// A threadblock's drafts with their cross-threadblock dependencies.
type TbSteps = (TbKey, Vec<(usize, Vec<usize>)>);
const COMPUTE: TbKey = (-1, -1);

/// A step before threadblocks are numbered: `deps` are indices into the rank's drafts.
struct Draft {
    tb: TbKey,
    kind: StepKind,
    src: (Buf, u32),
    dst: (Buf, u32),
    cnt: u32,
    deps: Vec<usize>,
    /// IR ops of this rank it waits for (resolved to their steps once all are placed).
    op_deps: Vec<usize>,
    /// Receives: (message, first piece), to order them as the sender sent them.
    recv_of: Option<(MsgId, u32)>,
}

/// `s` as an MSCCL algorithm.
pub fn to_msccl(s: &Schedule) -> Result<Msccl> {
    let layout = Layout::of(s.collective())?;
    check_representable(s)?;
    let p = s.p();
    let mut runs: HashMap<MsgId, Vec<(u32, u32)>> = HashMap::new();
    let mut ranks: Vec<RankWriter> = (0..p).map(|r| RankWriter::new(&layout, r)).collect();
    for (r, w) in ranks.iter_mut().enumerate() {
        w.emit(s, r as u32, &mut runs)?;
    }
    let mut seq: HashMap<(MsgId, u32), usize> = HashMap::new();
    for w in &ranks {
        for (k, d) in w.drafts.iter().enumerate() {
            if d.kind == StepKind::Send {
                if let Some(key) = w.sent.get(&k) {
                    seq.insert(*key, k);
                }
            }
        }
    }
    for (r, w) in ranks.iter_mut().enumerate() {
        w.receive(s, r as u32, &runs)?;
        w.finish();
    }
    let gpus: Vec<Gpu> = ranks.into_iter().map(|w| w.into_gpu(&seq)).collect();
    let nchunks = gpus
        .iter()
        .map(|g| g.i_chunks.max(g.o_chunks))
        .max()
        .unwrap_or(0);
    Ok(Msccl {
        name: format!("netcoll_{}", coll_name(s.collective().kind)),
        proto: "Simple".into(),
        nchannels: 1,
        nchunksperloop: nchunks,
        coll: coll_name(s.collective().kind).into(),
        inplace: false,
        gpus,
    })
}

fn check_representable(s: &Schedule) -> Result<()> {
    let xor = |ps: &[Piece]| ps.iter().any(|p| matches!(p, Piece::Xor(_)));
    for m in s.messages() {
        if xor(s.payload(m)) {
            return Err(Error::Spec(
                "XOR-coded messages (network coding) are not representable in MSCCL XML, which \
                 has no XOR step: write this schedule as GOAL or JSON"
                    .into(),
            ));
        }
    }
    for r in 0..s.p() {
        for op in s.ops(r) {
            match op.kind {
                OpKind::Compute {
                    op: ComputeOp::XorEncode | ComputeOp::Decode,
                    ..
                } => {
                    return Err(Error::Spec(format!(
                        "rank {r} XOR-encodes or decodes, which MSCCL XML cannot express: write \
                         this schedule as GOAL or JSON"
                    )))
                }
                OpKind::Send { msg, packets } | OpKind::Recv { msg, packets } => {
                    let n = s.message(msg).packets;
                    if packets.resolve(n) != (0, n) {
                        return Err(Error::Spec(format!(
                            "rank {r} moves single packets of message {msg} (pipelining), which \
                             MSCCL XML cannot express: build it with --packets 1"
                        )));
                    }
                }
                _ => {}
            }
        }
    }
    Ok(())
}

struct RankWriter<'a> {
    layout: &'a Layout,
    /// Where each value this rank holds lives (its first place).
    at: HashMap<Piece, (Buf, u32)>,
    /// The draft that wrote each chunk (none: initial data).
    writer: HashMap<(Buf, u32), usize>,
    /// Chunks written by receive ops whose steps are placed later: the op.
    writer_op: HashMap<(Buf, u32), usize>,
    /// Required output offset of each value.
    want: HashMap<Piece, u32>,
    i_chunks: u32,
    o_chunks: u32,
    s_chunks: u32,
    drafts: Vec<Draft>,
    /// Drafts standing for each IR op of this rank.
    op_steps: Vec<Vec<usize>>,
    /// Send drafts: (message, first piece of the run).
    sent: HashMap<usize, (MsgId, u32)>,
    /// Receive ops to place after every sender has split its messages: (op, msg, dst start).
    pending: Vec<PendingRecv>,
}

impl<'a> RankWriter<'a> {
    fn new(layout: &'a Layout, r: u32) -> Self {
        let initial = layout.initial(r);
        let required = layout.required(r);
        let i_chunks = initial.iter().map(|x| x.0 + 1).max().unwrap_or(0);
        let o_chunks = required.iter().map(|x| x.0 + 1).max().unwrap_or(0);
        RankWriter {
            layout,
            at: initial
                .into_iter()
                .map(|(o, p)| (p, (Buf::Input, o)))
                .collect(),
            writer: HashMap::new(),
            writer_op: HashMap::new(),
            want: required.into_iter().map(|(o, p)| (p, o)).collect(),
            i_chunks,
            o_chunks,
            s_chunks: 0,
            drafts: Vec::new(),
            op_steps: Vec::new(),
            sent: HashMap::new(),
            pending: Vec::new(),
        }
    }

    fn scratch(&mut self, n: u32) -> (Buf, u32) {
        self.s_chunks += n;
        (Buf::Scratch, self.s_chunks - n)
    }

    /// Where a new value goes: its output chunk if wanted there and free, else scratch.
    fn place(&mut self, p: &Piece) -> (Buf, u32) {
        match self.want.get(p) {
            Some(&o) if !self.written(o) => (Buf::Output, o),
            _ => self.scratch(1),
        }
    }

    fn written(&self, o: u32) -> bool {
        self.writer.contains_key(&(Buf::Output, o))
            || self.writer_op.contains_key(&(Buf::Output, o))
    }

    fn source(&self, r: u32, p: &Piece) -> Result<(Buf, u32)> {
        self.at.get(p).copied().ok_or_else(|| {
            Error::Invalid(format!(
                "rank {r} uses {} before it holds it: verify the schedule first",
                p.describe(&self.layout.collective)
            ))
        })
    }

    fn push(&mut self, mut d: Draft) -> usize {
        let k = self.drafts.len();
        if d.kind.reads_src() {
            for i in 0..d.cnt {
                let chunk = (d.src.0, d.src.1 + i);
                if let Some(&w) = self.writer.get(&chunk) {
                    d.deps.push(w);
                } else if let Some(&op) = self.writer_op.get(&chunk) {
                    d.op_deps.push(op);
                }
            }
        }
        if d.kind.writes_dst() {
            for i in 0..d.cnt {
                self.writer.insert((d.dst.0, d.dst.1 + i), k);
            }
        }
        self.drafts.push(d);
        k
    }

    fn local(
        &mut self,
        kind: StepKind,
        src: (Buf, u32),
        dst: (Buf, u32),
        op_deps: Vec<usize>,
    ) -> usize {
        self.push(Draft {
            tb: COMPUTE,
            kind,
            src,
            dst,
            cnt: 1,
            deps: Vec::new(),
            op_deps,
            recv_of: None,
        })
    }

    fn emit(
        &mut self,
        s: &Schedule,
        r: u32,
        runs: &mut HashMap<MsgId, Vec<(u32, u32)>>,
    ) -> Result<()> {
        for (i, op) in s.ops(r).iter().enumerate() {
            let deps: Vec<usize> = s
                .deps(op)
                .iter()
                .filter(|d| d.rank == r && (d.index as usize) < i)
                .map(|d| d.index as usize)
                .collect();
            let steps = match op.kind {
                OpKind::Send { msg, .. } => self.send(s, r, msg, deps, runs)?,
                OpKind::Recv { msg, .. } => {
                    let n = s.payload(s.message(msg)).len() as u32;
                    let first = &s.payload(s.message(msg))[0];
                    let dst = match self.want.get(first) {
                        Some(&o) if self.contiguous_outputs(s.payload(s.message(msg)), o) => {
                            (Buf::Output, o)
                        }
                        _ => self.scratch(n),
                    };
                    for (k, p) in s.payload(s.message(msg)).iter().enumerate() {
                        let chunk = (dst.0, dst.1 + k as u32);
                        self.at.entry(p.clone()).or_insert(chunk);
                        self.writer_op.insert(chunk, i);
                    }
                    self.pending.push((i, msg, dst, deps));
                    self.op_steps.push(Vec::new());
                    continue;
                }
                OpKind::Compute {
                    op: ComputeOp::Reduce,
                    ..
                } => self.reduce(s.inputs(op), s.value(op), r, deps)?,
                OpKind::Compute { .. } => self.copy(s.value(op), r, deps)?,
            };
            self.op_steps.push(steps);
        }
        Ok(())
    }

    fn contiguous_outputs(&self, payload: &[Piece], o: u32) -> bool {
        payload.iter().enumerate().all(|(k, p)| {
            let chunk = (Buf::Output, o + k as u32);
            self.want.get(p) == Some(&chunk.1)
                && !self.writer.contains_key(&chunk)
                && !self.writer_op.contains_key(&chunk)
        })
    }

    fn send(
        &mut self,
        s: &Schedule,
        r: u32,
        msg: MsgId,
        deps: Vec<usize>,
        runs: &mut HashMap<MsgId, Vec<(u32, u32)>>,
    ) -> Result<Vec<usize>> {
        let m = s.message(msg);
        let places: Vec<(Buf, u32)> = s
            .payload(m)
            .iter()
            .map(|p| self.source(r, p))
            .collect::<Result<_>>()?;
        let mut split: Vec<(u32, u32)> = Vec::new();
        for (k, pl) in places.iter().enumerate() {
            match split.last_mut() {
                Some((start, len))
                    if places[(*start + *len - 1) as usize].0 == pl.0
                        && places[(*start + *len - 1) as usize].1 + 1 == pl.1 =>
                {
                    *len += 1
                }
                _ => split.push((k as u32, 1)),
            }
        }
        let mut steps = Vec::new();
        for &d in s.dests(m) {
            for &(start, len) in &split {
                let src = places[start as usize];
                let k = self.push(Draft {
                    tb: (d as i64, -1),
                    kind: StepKind::Send,
                    src,
                    dst: src,
                    cnt: len,
                    deps: Vec::new(),
                    op_deps: deps.clone(),
                    recv_of: None,
                });
                self.sent.insert(k, (msg, start));
                steps.push(k);
            }
        }
        runs.insert(msg, split);
        Ok(steps)
    }

    fn reduce(
        &mut self,
        inputs: &[Piece],
        outputs: &[Piece],
        r: u32,
        deps: Vec<usize>,
    ) -> Result<Vec<usize>> {
        let index = |p: &Piece| match p {
            Piece::Reduced { index, .. } => *index,
            _ => u32::MAX,
        };
        let mut steps = Vec::new();
        for out in outputs {
            let parts: Vec<&Piece> = inputs.iter().filter(|p| index(p) == index(out)).collect();
            let dst = self.place(out);
            let first = self.source(r, parts[0])?;
            let mut last = self.local(StepKind::Copy, first, dst, deps.clone());
            for part in &parts[1..] {
                let src = self.source(r, part)?;
                last = self.local(StepKind::Reduce, src, dst, Vec::new());
            }
            self.at.entry(out.clone()).or_insert(dst);
            steps.push(last);
        }
        Ok(steps)
    }

    fn copy(&mut self, values: &[Piece], r: u32, deps: Vec<usize>) -> Result<Vec<usize>> {
        let mut steps = Vec::new();
        for v in values {
            let src = self.source(r, v)?;
            let dst = self.place(v);
            steps.push(self.local(StepKind::Copy, src, dst, deps.clone()));
            if dst.0 == Buf::Output {
                self.at.insert(v.clone(), dst);
            }
        }
        Ok(steps)
    }

    /// Places the receive steps, run by run as the senders split their messages.
    fn receive(
        &mut self,
        s: &Schedule,
        _r: u32,
        runs: &HashMap<MsgId, Vec<(u32, u32)>>,
    ) -> Result<()> {
        let pending = std::mem::take(&mut self.pending);
        for (i, msg, dst, deps) in pending {
            let m = s.message(msg);
            let mut steps = Vec::new();
            for &(start, len) in runs.get(&msg).map(Vec::as_slice).unwrap_or(&[]) {
                let k = self.push(Draft {
                    tb: (-1, m.src as i64),
                    kind: StepKind::Recv,
                    src: (dst.0, dst.1 + start),
                    dst: (dst.0, dst.1 + start),
                    cnt: len,
                    deps: Vec::new(),
                    op_deps: deps.clone(),
                    recv_of: Some((msg, start)),
                });
                steps.push(k);
            }
            self.op_steps[i] = steps;
        }
        Ok(())
    }

    /// Copies wanted values that sit elsewhere into their output chunks.
    fn finish(&mut self) {
        let mut wanted: Vec<(u32, Piece)> =
            self.want.iter().map(|(p, &o)| (o, p.clone())).collect();
        wanted.sort_by_key(|w| w.0);
        for (o, p) in wanted {
            if self.written(o) {
                continue;
            }
            if let Some(&src) = self.at.get(&p) {
                self.local(StepKind::Copy, src, (Buf::Output, o), Vec::new());
            }
        }
    }

    /// Numbers threadblocks and steps, expanding extra dependencies into `nop`s.
    fn into_gpu(self, seq: &HashMap<(MsgId, u32), usize>) -> Gpu {
        let mut tbs: BTreeMap<TbKey, Vec<usize>> = BTreeMap::new();
        for (k, d) in self.drafts.iter().enumerate() {
            tbs.entry(d.tb).or_default().push(k);
        }
        for list in tbs.values_mut() {
            list.sort_by_key(|&k| {
                self.drafts[k]
                    .recv_of
                    .and_then(|x| seq.get(&x).copied())
                    .unwrap_or(k)
            });
        }
        // Final (tb, index) of each draft, nops included.
        let mut pos = vec![(0u32, 0u32); self.drafts.len()];
        let mut layout: Vec<TbSteps> = Vec::new();
        for (t, (key, list)) in tbs.iter().enumerate() {
            let mut idx = 0u32;
            let mut entries = Vec::new();
            for &k in list {
                let deps = self.cross_deps(k, &tbs);
                let nops = deps.len().saturating_sub(1) as u32;
                idx += nops;
                pos[k] = (t as u32, idx);
                idx += 1;
                entries.push((k, deps));
            }
            layout.push((*key, entries));
        }
        let mut hasdep = vec![false; self.drafts.len()];
        for (_, entries) in &layout {
            for (_, deps) in entries {
                deps.iter().for_each(|&d| hasdep[d] = true);
            }
        }
        let tbs = layout
            .into_iter()
            .enumerate()
            .map(|(t, (key, entries))| {
                let mut steps = Vec::new();
                for (k, deps) in entries {
                    let d = &self.drafts[k];
                    let dep = |x: usize| Some(pos[x]);
                    for &extra in deps.iter().skip(1) {
                        steps.push(Step {
                            kind: StepKind::Nop,
                            src: (Buf::Input, -1),
                            dst: (Buf::Output, -1),
                            cnt: 0,
                            dep: dep(extra),
                            hasdep: false,
                        });
                    }
                    steps.push(Step {
                        kind: d.kind,
                        src: (d.src.0, d.src.1 as i64),
                        dst: (d.dst.0, d.dst.1 as i64),
                        cnt: d.cnt,
                        dep: deps.first().and_then(|&x| dep(x)),
                        hasdep: hasdep[k],
                    });
                }
                let peer = |x: i64| (x >= 0).then_some(x as u32);
                Threadblock {
                    id: t as u32,
                    send: peer(key.0),
                    recv: peer(key.1),
                    chan: 0,
                    steps,
                }
            })
            .collect();
        Gpu {
            i_chunks: self.i_chunks,
            o_chunks: self.o_chunks,
            s_chunks: self.s_chunks,
            tbs,
        }
    }

    /// The dependencies of draft `k` on other threadblocks, one per threadblock (the latest).
    fn cross_deps(&self, k: usize, tbs: &BTreeMap<TbKey, Vec<usize>>) -> Vec<usize> {
        let tb = self.drafts[k].tb;
        let order = |x: usize| {
            tbs[&self.drafts[x].tb]
                .iter()
                .position(|&y| y == x)
                .unwrap_or(0)
        };
        let mut latest: BTreeMap<TbKey, usize> = BTreeMap::new();
        let d = &self.drafts[k];
        let via_ops = d
            .op_deps
            .iter()
            .flat_map(|&i| self.op_steps[i].iter().copied());
        let all: Vec<usize> = d.deps.iter().copied().chain(via_ops).collect();
        for d in all {
            let t = self.drafts[d].tb;
            if t == tb {
                continue;
            }
            let e = latest.entry(t).or_insert(d);
            if order(d) > order(*e) {
                *e = d;
            }
        }
        latest.into_values().collect()
    }
}
