//! The NI side of traffic classes and request/reply traffic (classes.rs has the keys), as
//! BookSim 2's `TrafficManager` injects them:
//!
//! * every node has one source queue per class (`_partial_packets[node][class]`); a class
//!   holds the packet it is sending until its tail has left, and its next packet is chosen
//!   when it is free: a reply if one is waiting (replies first, as `_IssuePacket`), else
//!   the oldest request or plain packet;
//! * each cycle the NI sends one flit: the classes are visited round-robin from the one
//!   after the class that sent last; the first that can send (its VC found, a credit) is
//!   taken unless a later one has a strictly higher flit priority (so packets of different
//!   classes interleave flit by flit, as in BookSim);
//! * a head takes a free injection VC of its kind's range round-robin from the class's last
//!   VC;
//! * a request's tail arriving at its destination queues the reply there (to the
//!   request's source, same class, created in that cycle: its latency runs from the
//!   request's arrival, as BookSim's `rinfo->time`); the reply may leave from the next cycle.
//!   A reply is measured when it is created while measuring or its request was.
//!
//! The router side: [`Network::vc_pri`], a VC's priority for the allocators.

use super::channel::Flit;
use super::class_queues::{ClassNis, ClassQueue, NONE_VC};
use super::class_types::{
    Priority, KIND_ANY, READ_REPLY, READ_REQUEST, WRITE_REPLY, WRITE_REQUEST,
};
use super::network::{Network, Packet, NONE};
use super::stats::Window;
use crate::error::Result;

impl Network<'_> {
    /// Sets up a multi-class run: the class queues and per-class windows, and under
    /// `use_read_write` the VC range of every packet kind.
    pub fn init_classes(&mut self) -> Result<()> {
        let (eps, classes) = (self.nis.len(), self.cfg.tc.classes);
        let q = ClassQueue {
            req: (NONE, NONE),
            rep: (NONE, NONE),
            cur: NONE,
            idx: 0,
            vc: NONE_VC,
            last_vc: NONE_VC,
        };
        self.cls = Some(Box::new(ClassNis {
            classes,
            queues: vec![q; eps * classes],
            last_class: vec![0; eps],
            listed: vec![false; eps],
            seq: vec![0; eps],
            outstanding: vec![0; eps],
            live: vec![(0, 0); classes],
        }));
        self.period.split(classes);
        self.measured.split(classes);
        if self.cfg.tc.use_read_write {
            let ranges: Vec<(usize, usize)> = (READ_REQUEST..=WRITE_REPLY)
                .map(|k| self.cfg.kind_vcs(k))
                .collect();
            self.set_vc_blocks(&ranges)?;
        }
        Ok(())
    }

    /// Gives packet kind `k` (`Packet::vclass`) the VCs `ranges[k].0..ranges[k].1` on every
    /// hop, split by the routing's classes (as BookSim's routing functions split a kind's
    /// range): `vclass.rs`'s step classes with ranges of any place and size, which may
    /// overlap.
    fn set_vc_blocks(&mut self, ranges: &[(usize, usize)]) -> Result<()> {
        let rc = self.route_classes.max(1) as usize;
        let (mut lo, mut hi) = (Vec::new(), Vec::new());
        for &(b0, b1) in ranges {
            if b1 - b0 < rc {
                return crate::spec_err!(
                    "a use_read_write VC range of {} VC(s) cannot hold the routing's {rc} VC \
                     classes: widen the *_begin_vc / *_end_vc ranges",
                    b1 - b0
                );
            }
            for c in 0..rc {
                lo.push((b0 + c * (b1 - b0) / rc) as u8);
                hi.push((b0 + (c + 1) * (b1 - b0) / rc) as u8);
            }
        }
        self.va.set_classes(&lo, &hi, self.nv);
        self.class_lo = lo;
        self.class_hi = hi;
        self.step_classes = ranges.len() as u8;
        self.set_route_n();
        Ok(())
    }

    /// Creates a packet of class `cl` and kind `kind` at `src` now and queues it (replies
    /// ahead of requests); `ctime` and `measured` as the caller says (a reply's are its
    /// request's arrival and measurement).
    pub fn create_class_packet(&mut self, src: usize, dst: usize, cl: usize, kind: u8) {
        let size = match kind {
            KIND_ANY => self.cfg.class_size(cl),
            k => self.cfg.tc.sizes_rw[k as usize - 1],
        };
        let cs = self.cls.as_mut().expect("a multi-class run");
        cs.seq[src] += 1;
        let pri = match self.prio {
            Priority::Class => self.cfg.class_priority(cl),
            Priority::Age => -(self.now as i64), // the NI's choice; `vc_pri` reads ctime
            Priority::Sequence => -(cs.seq[src] as i64),
            _ => 0,
        };
        let reply = kind == READ_REPLY || kind == WRITE_REPLY;
        let p = Packet {
            src: src as u32,
            dst: dst as u32,
            ctime: self.now,
            size: size as u16,
            measured: self.measuring,
            vclass: if kind == KIND_ANY { 0 } else { kind - 1 },
            tag: NONE,
            worm: NONE,
            next: NONE,
            cl: cl as u8,
            kind,
            pri,
            ..Packet::default()
        };
        let id = self.add_packet(p);
        let cs = self.cls.as_mut().expect("a multi-class run");
        cs.live[cl].0 += size as u64;
        cs.live[cl].1 += size as u128 * self.now as u128;
        let q = &mut cs.queues[src * cs.classes + cl];
        let list = if reply { &mut q.rep } else { &mut q.req };
        if list.1 == NONE {
            list.0 = id;
        } else {
            self.packets[list.1 as usize].next = id;
        }
        list.1 = id;
        if !reply {
            self.nis[src].generated += 1;
            cs.outstanding[src] += 1;
        }
        if !cs.listed[src] {
            cs.listed[src] = true;
            self.ni_pending.push(src as u32);
        }
    }

    /// A packet of a multi-class run reached its destination `ep` whole: its class's
    /// live count drops; a request's reply is queued at `ep`, a reply ends its request.
    pub(super) fn class_packet_arrived(&mut self, p: &Packet, ep: usize) {
        let reply_kind = match p.kind {
            READ_REQUEST => READ_REPLY,
            WRITE_REQUEST => WRITE_REPLY,
            // The request (or plain packet) is done: BookSim's `_requestsOutstanding`
            // drops at the requester.
            _ => {
                let cs = self.cls.as_mut().expect("a multi-class run");
                let at = if p.kind == KIND_ANY {
                    p.src as usize
                } else {
                    ep
                };
                cs.outstanding[at] = cs.outstanding[at].saturating_sub(1);
                return;
            }
        };
        let measuring = self.measuring;
        // BookSim's rinfo->record: a reply to a measured request is measured too.
        self.measuring = measuring || p.measured;
        self.create_class_packet(ep, p.src as usize, p.cl as usize, reply_kind);
        self.measuring = measuring;
    }

    /// A flit of class `cl` arrived: its class's live count drops.
    #[inline]
    pub(super) fn class_flit_arrived(&mut self, cl: usize, ctime: u64) {
        if let Some(cs) = self.cls.as_mut() {
            cs.live[cl].0 -= 1;
            cs.live[cl].1 -= ctime as u128;
        }
    }

    /// One NI's cycle in a multi-class run (see the module comment); whether it still has
    /// work.
    pub(super) fn class_ni_step(&mut self, ep: usize) -> bool {
        let mut cs = self.cls.take().expect("a multi-class run");
        let nc = cs.classes;
        let last = cs.last_class[ep] as usize;
        let mut best: Option<(usize, i64)> = None;
        for i in 1..=nc {
            let c = (last + i) % nc;
            let q = &mut cs.queues[ep * nc + c];
            if q.cur == NONE && !self.next_packet(q) {
                continue;
            }
            // A head's VC is not held until the head leaves: another class may have
            // taken it meanwhile.
            if q.idx == 0 && q.vc != NONE_VC && self.ni_busy[ep * self.nv + q.vc as usize] {
                q.vc = NONE_VC;
            }
            if q.vc == NONE_VC {
                q.vc = self.free_injection_vc(ep, q);
                if q.vc == NONE_VC {
                    continue;
                }
            }
            if self.credits[self.ni_credit(ep, q.vc as usize)] == 0 {
                continue;
            }
            let pri = self.packets[q.cur as usize].pri;
            if best.is_none_or(|(_, bp)| pri > bp) {
                best = Some((c, pri));
            }
        }
        if let Some((c, _)) = best {
            cs.last_class[ep] = c as u8;
            self.send_class_flit(ep, &mut cs.queues[ep * nc + c]);
        }
        let q = &cs.queues[ep * nc..(ep + 1) * nc];
        let work = q
            .iter()
            .any(|q| q.cur != NONE || q.req.0 != NONE || q.rep.0 != NONE);
        cs.listed[ep] = work;
        self.cls = Some(cs);
        work
    }

    /// Takes the class's next packet (a reply created before this cycle, else a request)
    /// as the one it sends; false when there is none.
    fn next_packet(&self, q: &mut ClassQueue) -> bool {
        let rep_ready = q.rep.0 != NONE && self.packets[q.rep.0 as usize].ctime < self.now;
        let list = if rep_ready { &mut q.rep } else { &mut q.req };
        if list.0 == NONE {
            return false;
        }
        q.cur = list.0;
        list.0 = self.packets[q.cur as usize].next;
        if list.0 == NONE {
            list.1 = NONE;
        }
        q.idx = 0;
        q.vc = NONE_VC;
        true
    }

    /// A free injection VC of the current packet's range with the credits its head needs
    /// (cut-through: the whole packet), NONE_VC if there is none. BookSim's search: the VCs
    /// round-robin after the class's last VC when that lies in the range, else the
    /// range's first VC alone (its `_last_vc` rule: a request after a reply of the other
    /// range tries only that VC).
    fn free_injection_vc(&self, ep: usize, q: &ClassQueue) -> u8 {
        let p = &self.packets[q.cur as usize];
        let (lo, hi) = self.injection_range(p.vclass);
        let need = if self.is_vct() { p.size } else { 1 };
        let last = q.last_vc as usize;
        let pick = if q.last_vc == NONE_VC || last < lo || last >= hi {
            self.free_ni_vc(ep, (lo, lo + 1), 0, need)
        } else {
            self.free_ni_vc(ep, (lo, hi), last + 1 - lo, need)
        };
        pick.map_or(NONE_VC, |v| v as u8)
    }

    /// Sends the next flit of the class's current packet on its VC.
    fn send_class_flit(&mut self, ep: usize, q: &mut ClassQueue) {
        let (pkt, idx, vc) = (q.cur, q.idx, q.vc);
        let cred = self.ni_credit(ep, vc as usize);
        self.credits[cred] -= 1;
        let p = &mut self.packets[pkt as usize];
        if idx == 0 {
            p.itime = self.now;
            q.last_vc = vc;
            self.ni_busy[ep * self.nv + vc as usize] = true;
        }
        let tail = idx + 1 == p.size;
        let flit = Flit::new(pkt, p.dst, self.now, idx == 0, tail);
        self.inject_flit(ep, vc, flit);
        q.idx = idx + 1;
        if tail {
            q.cur = NONE;
            if self.cfg.wait_for_tail_credit {
                self.tail_sent[cred] = true;
            } else {
                self.ni_busy[ep * self.nv + vc as usize] = false;
            }
        }
    }

    /// The priority of input VC `ivc` (it holds flits), BookSim's `VC::GetPriority`: its
    /// front flit's, by `priority`. Larger wins; BookSim's `INT_MAX - t` ages are `-t`
    /// here (the same order). This is what the allocators read: the switch allocator to
    /// choose among one input's VCs bidding for one output, and any allocator with
    /// priorities as its requests' priority.
    #[inline]
    pub(super) fn vc_pri(&self, ivc: usize) -> i64 {
        let v = &self.vcs[ivc];
        match self.prio {
            Priority::None => 0,
            Priority::Class | Priority::Sequence => self.packets[v.front.pkt as usize].pri,
            Priority::Age => -(self.packets[v.front.pkt as usize].ctime as i64),
            Priority::NetworkAge => -(v.front.itime as i64),
            // BookSim counts the routers a flit has left; `hops` counts this one too.
            Priority::HopCount => v.front.hops as i64 - 1,
            Priority::QueueLength => v.len as i64,
            // Refused by `validate_classes` (each flit's arrival in its VC is not kept).
            Priority::LocalAge => 0,
        }
    }
}

impl Window {
    /// Gives the window a sub-window per class (multi-class runs).
    pub fn split(&mut self, classes: usize) {
        self.per_class = vec![Window::default(); classes];
    }
}
