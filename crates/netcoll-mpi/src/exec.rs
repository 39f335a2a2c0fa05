//! A lowered program bound to one buffer set, and its runs.
//!
//! Binding creates every MPI message once, as a persistent request (`MPI_Send_init` /
//! `MPI_Recv_init`), a multi-piece message through an `MPI_Type_create_hindexed` datatype over
//! its pieces where they lie (no gathering into scratch). A run then only starts requests,
//! counts dependencies down and computes: the receives are started first (a large send
//! completes only once its receive is posted), the other ops in index order as their local
//! dependencies complete, as the Python executor does.
//!
//! Waiting (chosen by the caller, `netcoll.mpi.native.polling`): with a core per rank a
//! blocking `MPI_Waitsome` (MPICH polls inside it, which is the fastest way to see data
//! arrive). With more ranks than cores a polling rank would starve the rank it waits for, so:
//! `MPI_Testsome` for a bounded number of polls, then (optionally) `sched_yield` between polls
//! for a bounded number more, then naps between polls, doubling from 1 us up to a bound.
//! Yielding alone is not enough on a machine busy with other work: a yielding rank stays
//! runnable and takes its turns from the rank that has the data; a napping one leaves the run
//! queue. The naps keep Linux's default timer slack (a 1 ns slack made MPICH's own
//! heavy-yield waits spin, docs/mpi.md).

use crate::ffi::{self, Aint, Handle, Mpi, BOTTOM, STATUSES_IGNORE};
use crate::program::{Instr, Kind, Program, Span, INPUT};
use crate::{Error, Result};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ffi::{c_int, c_void};
use std::sync::Arc;

/// How a rank waits for its messages: `None` in [`Bound::new`] is a blocking `MPI_Waitsome`.
#[derive(Clone, Copy, Debug)]
pub struct Polling {
    /// `MPI_Testsome` polls before the rank starts yielding its core between polls.
    pub spin: u32,
    /// Polls with a `sched_yield` between them before it starts napping between polls.
    pub yields: u32,
    /// The longest nap between polls, in nanoseconds (naps double from 1 us up to it).
    pub max_nap_ns: i64,
}

/// The MPI handles a binding needs from the caller (as mpi4py knows them).
#[derive(Clone, Copy, Debug)]
pub struct Handles {
    pub comm: Handle,
    pub byte: Handle,
    pub request_null: Handle,
}

/// One buffer: its address and length in bytes.
#[derive(Clone, Copy, Debug)]
pub struct Buffer {
    pub addr: usize,
    pub len: usize,
}

pub struct Bound {
    mpi: &'static Mpi,
    prog: Arc<Program>,
    bufs: [Buffer; 3],
    /// Persistent requests: the receives' first (`recvs` of them), then the sends'.
    reqs: Vec<Handle>,
    recvs: usize,
    /// Each op's requests: `reqs[first[i]..first[i] + count[i]]`.
    first: Vec<u32>,
    nreq: Vec<u32>,
    types: Vec<Handle>,
    polling: Option<Polling>,
    request_null: Handle,
    // Per-run state, kept to avoid allocating per run.
    count: Vec<u32>,
    left: Vec<u32>,
    arrived: Vec<bool>,
    ready: BinaryHeap<Reverse<u32>>,
    active: Vec<Handle>,
    owner: Vec<u32>,
    indices: Vec<c_int>,
    todo: Vec<u32>,
    temp: Vec<u8>,
    /// The early copies of this run are still to do.
    early_pending: bool,
}

impl Bound {
    /// Binds `prog` to the buffers (input, output, scratch) on communicator `h.comm`.
    ///
    /// # Safety
    /// Each buffer must be valid for reads and writes of its length for as long as the
    /// binding lives, and not be moved or freed meanwhile.
    pub unsafe fn new(
        mpi: &'static Mpi,
        prog: Arc<Program>,
        bufs: [Buffer; 3],
        h: Handles,
        polling: Option<Polling>,
    ) -> Result<Bound> {
        prog.check_bounds(bufs.map(|b| b.len))?;
        let n = prog.ops.len();
        let mut b = Bound {
            mpi,
            prog: prog.clone(),
            bufs,
            reqs: Vec::new(),
            recvs: 0,
            first: vec![0; n],
            nreq: vec![0; n],
            types: Vec::new(),
            polling,
            request_null: h.request_null,
            count: vec![0; n],
            left: vec![0; n],
            arrived: vec![false; n],
            ready: BinaryHeap::with_capacity(n),
            active: Vec::new(),
            owner: Vec::new(),
            indices: Vec::new(),
            todo: Vec::new(),
            temp: Vec::new(),
            early_pending: false,
        };
        for pass in [Kind::Recv, Kind::Send] {
            for (i, op) in prog.ops.iter().enumerate().filter(|(_, o)| o.kind == pass) {
                b.first[i] = b.reqs.len() as u32;
                b.nreq[i] = op.transfers.len() as u32;
                for t in &op.transfers {
                    let req = b.persistent(pass, t.0, t.1, &t.2, h)?;
                    b.reqs.push(req);
                }
            }
            if pass == Kind::Recv {
                b.recvs = b.reqs.len();
            }
        }
        b.indices = vec![0; b.reqs.len()];
        Ok(b)
    }

    fn addr(&self, s: &Span) -> *mut u8 {
        (self.bufs[s.0 as usize].addr + s.1) as *mut u8
    }

    /// One persistent request for a message of `pieces` (one span: plain bytes; several:
    /// a derived datatype over their absolute addresses).
    unsafe fn persistent(
        &mut self,
        kind: Kind,
        peer: i32,
        tag: i32,
        pieces: &[Span],
        h: Handles,
    ) -> Result<Handle> {
        let too_long = |len: usize| {
            c_int::try_from(len)
                .map_err(|_| Error::Unsupported(format!("a message piece of {len} bytes")))
        };
        let (buf, count, dtype) = match pieces {
            [] => (self.bufs[0].addr.max(1) as *mut c_void, 0, h.byte),
            [one] => (self.addr(one) as *mut c_void, too_long(one.2)?, h.byte),
            many => {
                let lens: Vec<c_int> = many.iter().map(|s| too_long(s.2)).collect::<Result<_>>()?;
                let displs: Vec<Aint> = many.iter().map(|s| self.addr(s) as Aint).collect();
                let mut t = h.request_null;
                ffi::check(
                    "MPI_Type_create_hindexed",
                    (self.mpi.type_create_hindexed)(
                        many.len() as c_int,
                        lens.as_ptr(),
                        displs.as_ptr(),
                        h.byte,
                        &mut t,
                    ),
                )?;
                self.types.push(t);
                ffi::check("MPI_Type_commit", (self.mpi.type_commit)(&mut t))?;
                (BOTTOM as *mut c_void, 1, t)
            }
        };
        let mut req = h.request_null;
        let (call, f) = match kind {
            Kind::Recv => ("MPI_Recv_init", self.mpi.recv_init),
            _ => ("MPI_Send_init", self.mpi.send_init),
        };
        ffi::check(call, f(buf, count, dtype, peer, tag, h.comm, &mut req))?;
        Ok(req)
    }

    /// One execution of the program. `corrupt_xor` / `corrupt_input`: the checker's
    /// self-tests (flip the first byte of every XOR encoding / of the input first).
    pub fn run(&mut self, corrupt_xor: bool, corrupt_input: bool) -> Result<()> {
        let prog = self.prog.clone();
        if corrupt_input && self.bufs[INPUT as usize].len > 0 {
            // SAFETY: the input buffer is valid for its length (Bound::new's contract).
            unsafe { *(self.bufs[INPUT as usize].addr as *mut u8) ^= 0xFF };
        }
        self.count.copy_from_slice(&prog.need);
        self.early_pending = true;
        self.active.clear();
        self.owner.clear();
        self.ready.clear();
        let mut finished = 0usize;
        if self.recvs > 0 {
            // SAFETY: persistent requests made by Bound::new, all inactive between runs.
            let code = unsafe { (self.mpi.startall)(self.recvs as c_int, self.reqs.as_mut_ptr()) };
            ffi::check("MPI_Startall", code)?;
        }
        for (i, op) in prog.ops.iter().enumerate() {
            self.left[i] = self.nreq[i];
            self.arrived[i] = false;
            if op.kind == Kind::Recv {
                self.track(i);
                self.arrived[i] = self.nreq[i] == 0;
            } else if self.count[i] == 0 {
                self.ready.push(Reverse(i as u32));
            }
        }
        for i in 0..prog.ops.len() {
            if prog.ops[i].kind == Kind::Recv && self.arrived[i] && self.count[i] == 0 {
                finished += self.complete(i);
            }
        }
        loop {
            while let Some(Reverse(i)) = self.ready.pop() {
                finished += self.issue(i as usize, corrupt_xor)?;
            }
            self.early();
            if self.active.is_empty() {
                if finished < prog.ops.len() {
                    return Err(Error::Stuck(prog.ops.len() - finished));
                }
                break;
            }
            let done = self.wait_some()?;
            self.indices[..done].sort_unstable_by(|a, b| b.cmp(a));
            for k in 0..done {
                let j = self.indices[k] as usize;
                let i = self.owner[j] as usize;
                self.active.swap_remove(j);
                self.owner.swap_remove(j);
                self.left[i] -= 1;
                if self.left[i] == 0 {
                    if prog.ops[i].kind != Kind::Recv {
                        finished += self.complete(i);
                    } else {
                        self.arrived[i] = true;
                        if self.count[i] == 0 {
                            finished += self.complete(i);
                        }
                    }
                }
            }
        }
        for instr in &prog.finish {
            self.exec(instr, false);
        }
        Ok(())
    }

    /// The copies home of the rank's own input: after the ops ready at the start are
    /// issued (their messages in flight), before any op that waits for something.
    fn early(&mut self) {
        if !self.early_pending {
            return;
        }
        self.early_pending = false;
        let prog = self.prog.clone();
        for instr in &prog.early {
            self.exec(instr, false);
        }
    }

    fn track(&mut self, i: usize) {
        let a = self.first[i] as usize;
        for k in a..a + self.nreq[i] as usize {
            self.active.push(self.reqs[k]);
            self.owner.push(i as u32);
        }
    }

    /// Issues a ready op (not a receive); returns how many ops completed at once.
    fn issue(&mut self, i: usize, corrupt_xor: bool) -> Result<usize> {
        let prog = self.prog.clone();
        if prog.need[i] > 0 {
            // The lowering lets an op that waits for anything read the early copies.
            self.early();
        }
        for instr in &prog.ops[i].instrs {
            self.exec(instr, corrupt_xor);
        }
        let n = self.nreq[i] as usize;
        if n == 0 {
            return Ok(self.complete(i));
        }
        let a = self.first[i] as usize;
        // SAFETY: this op's persistent requests, inactive (each op is issued once a run).
        let code = unsafe { (self.mpi.startall)(n as c_int, self.reqs[a..].as_mut_ptr()) };
        ffi::check("MPI_Startall", code)?;
        self.track(i);
        Ok(0)
    }

    /// Op `i` completed: count its waiters down; receives that were only waiting for it
    /// complete in turn (a worklist: chains can be long). Returns how many completed.
    fn complete(&mut self, first: usize) -> usize {
        let prog = self.prog.clone();
        self.todo.clear();
        self.todo.push(first as u32);
        let mut done = 0;
        while let Some(i) = self.todo.pop() {
            done += 1;
            for &w in &prog.waiters[i as usize] {
                let w = w as usize;
                self.count[w] -= 1;
                if self.count[w] == 0 {
                    if prog.ops[w].kind != Kind::Recv {
                        self.ready.push(Reverse(w as u32));
                    } else if self.arrived[w] {
                        self.todo.push(w as u32);
                    }
                }
            }
        }
        done
    }

    /// Waits until at least one active request completes; their positions in `active` are
    /// `indices[..returned]`.
    fn wait_some(&mut self) -> Result<usize> {
        let n = self.active.len() as c_int;
        let mut out: c_int = 0;
        let mut polls = 0u32;
        loop {
            // SAFETY: `active` holds started persistent requests; `indices` has room for
            // every request of the binding.
            let code = unsafe {
                let f = if self.polling.is_some() {
                    self.mpi.testsome
                } else {
                    self.mpi.waitsome
                };
                f(
                    n,
                    self.active.as_mut_ptr(),
                    &mut out,
                    self.indices.as_mut_ptr(),
                    STATUSES_IGNORE,
                )
            };
            ffi::check(
                if self.polling.is_some() {
                    "MPI_Testsome"
                } else {
                    "MPI_Waitsome"
                },
                code,
            )?;
            if out > 0 {
                return Ok(out as usize);
            }
            polls += 1;
            let Some(w) = self.polling else { continue };
            if polls > w.spin + w.yields {
                let shift = (polls - w.spin - w.yields).min(20);
                let nap = libc::timespec {
                    tv_sec: 0,
                    tv_nsec: (1000i64 << shift).min(w.max_nap_ns.max(1000)) as _,
                };
                // SAFETY: a valid timespec; an interrupted nap just polls again.
                unsafe { libc::nanosleep(&nap, std::ptr::null_mut()) };
            } else if polls > w.spin {
                // SAFETY: sched_yield has no preconditions.
                unsafe { libc::sched_yield() };
            }
        }
    }

    fn exec(&mut self, instr: &Instr, corrupt_xor: bool) {
        match instr {
            Instr::Copy(d, s) => {
                let len = d.2.min(s.2);
                // SAFETY: spans checked against the buffers by Bound::new.
                unsafe { copy(self.addr(s), self.addr(d), len, Self::overlaps(d, s)) };
            }
            Instr::Xor(d, srcs, encode) => {
                self.xor(d, srcs);
                if *encode && corrupt_xor && d.2 > 0 {
                    // SAFETY: as above.
                    unsafe { *self.addr(d) ^= 0xFF };
                }
            }
            Instr::Reduce(d, srcs) => self.reduce(d, srcs),
        }
    }

    fn overlaps(a: &Span, b: &Span) -> bool {
        a.0 == b.0 && a.1 < b.1 + b.2 && b.1 < a.1 + a.2
    }

    fn xor(&mut self, d: &Span, srcs: &[Span]) {
        let len = d.2;
        let mut acc = std::mem::take(&mut self.temp);
        acc.clear();
        acc.resize(len, 0);
        for s in srcs {
            let m = s.2.min(len);
            // SAFETY: spans checked by Bound::new; `acc` is our own memory.
            let src = unsafe { std::slice::from_raw_parts(self.addr(s), m) };
            for (x, y) in acc.iter_mut().zip(src) {
                *x ^= *y;
            }
        }
        // SAFETY: as above; `acc` does not overlap the buffers.
        unsafe { std::ptr::copy_nonoverlapping(acc.as_ptr(), self.addr(d), len) };
        self.temp = acc;
    }

    fn reduce(&mut self, d: &Span, srcs: &[Span]) {
        let r = self.prog.reduction.expect("checked by Program::from_json");
        let count = d.2 / r.dtype.size();
        let clash = srcs.iter().skip(1).any(|s| Self::overlaps(d, s))
            || (Self::overlaps(d, &srcs[0]) && d != &srcs[0]);
        let mut temp = std::mem::take(&mut self.temp);
        let out = if clash {
            temp.clear();
            temp.resize(d.2, 0);
            temp.as_mut_ptr()
        } else {
            self.addr(d)
        };
        // SAFETY: spans checked by Bound::new (equal lengths, whole elements); `out` is
        // either `d` (overlapping a source only exactly, which `apply` allows) or `temp`.
        unsafe {
            r.apply(out, self.addr(&srcs[0]), self.addr(&srcs[1]), count);
            for s in &srcs[2..] {
                r.apply(out, out, self.addr(s), count);
            }
            if clash {
                std::ptr::copy_nonoverlapping(out, self.addr(d), d.2);
            }
        }
        self.temp = temp;
    }
}

/// `ptr::copy`, except where glibc's memmove is pathologically slow: glibc 2.36 copies from
/// a few KiB to a few MiB with `rep movsb`, which on this machine (AMD EPYC) takes 13x as long
/// when the destination is 1-63 bytes past the source modulo 4 KiB (256 KiB: 88 us against
/// 6.6 us; numpy puts a large array 16 bytes past a page, so a copy from a page-aligned
/// buffer into a numpy array hits it). Such a copy goes in 1 KiB calls, below glibc's
/// `rep movsb` threshold (7.0 us for the same 256 KiB).
///
/// # Safety
/// `src` and `dst` valid for `len` bytes; if the ranges may overlap, `overlap` must be true.
unsafe fn copy(src: *const u8, dst: *mut u8, len: usize, overlap: bool) {
    let skew = (dst as usize).wrapping_sub(src as usize) % 4096;
    if overlap || len < 4096 || !(1..64).contains(&skew) {
        std::ptr::copy(src, dst, len);
        return;
    }
    for at in (0..len).step_by(1024) {
        std::ptr::copy_nonoverlapping(src.add(at), dst.add(at), (len - at).min(1024));
    }
}

impl Drop for Bound {
    fn drop(&mut self) {
        if !self.mpi.live() {
            return; // MPI is finalised: its handles are gone with it
        }
        // SAFETY: handles made by Bound::new; freeing an inactive persistent request or a
        // committed datatype is always allowed.
        unsafe {
            for r in self.reqs.iter_mut().filter(|r| **r != self.request_null) {
                (self.mpi.request_free)(r);
            }
            for t in &mut self.types {
                (self.mpi.type_free)(t);
            }
        }
    }
}
