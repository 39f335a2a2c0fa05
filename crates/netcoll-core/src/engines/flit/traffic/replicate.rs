//! Switch replication of multidestination worms: the asynchronous input-buffer replication
//! of seed 003 s5.1.2 (after Stunkel, Sivaram and Panda, ISCA-24). A worm packet carries the
//! index of its current visit in a replication tree ([`super::worm_table::WormTable`]); when its head reaches
//! the front of an input VC, the VC enters the `REPL` state with one *branch* per target
//! output port of that visit. Each branch allocates its own output VC and bids for the
//! switch on its own, reading the packet's flits from the input buffer at its own pace:
//! blocked branches do not hold up the others. A flit leaves the buffer (and its credit goes
//! upstream) only when every branch has read it, in units of `chunk_flits` flits (the
//! paper's chunks with their read counts; the tail frees the last partial chunk).
//!
//! Deadlock freedom rests on the paper's rule: an input buffer holds the whole worm packet
//! (`vc_buf_size` >= its flits), so a worm with a blocked branch can always be taken in
//! completely and frees the channel behind it; the runner refuses worms larger than that.
//! Every copy follows an up*/down* legal (BRCP) path, checked when the schedule was built.
//!
//! Each branch forwards a copy packet: a new packet record whose `worm` is the child visit
//! (or, for a port leading to an endpoint, an ordinary packet addressed to it, so ejection is
//! unchanged). Replication slots and packet records are pooled; nothing is allocated per
//! flit, and per worm visit only until the pools reach their peak.

use super::network::{Network, Out, Packet, IDLE, NONE};
use super::types::REPL;
use super::worm_table::{Branch, Rep};

impl Network<'_> {
    /// Queues a worm packet at `src`'s NI: `visit` is its first visit in the table (at the
    /// source's switch).
    pub fn create_worm(&mut self, src: usize, visit: u32, size: u16, tag: u32) {
        self.queue_packet(src, src, (size, tag, 0), visit);
    }

    /// Routing of a worm head at the front of `ivc`: one branch per output of its visit.
    pub(super) fn start_replication(&mut self, ivc: usize, pkt: u32) {
        let visit = self.packets[pkt as usize].worm;
        let s = self.rep.acquire() as usize;
        let range = self.rep.table.range(visit);
        let n = range.len();
        debug_assert!(
            n >= 1 && n <= self.rep.max_out,
            "worm visit with {n} outputs"
        );
        for (k, o) in range.enumerate() {
            let port = self.rep.table.outs[o].port;
            self.rep.branches[s * self.rep.max_out + k] = Branch {
                out: o as u32,
                port,
                vc: 0,
                pkt: NONE,
                sent: 0,
                ready: u64::MAX,
            };
        }
        self.rep.reps[s] = Rep {
            n: n as u16,
            freed: 0,
            size: self.packets[pkt as usize].size,
            pkt,
        };
        self.rep.rep_of[ivc] = s as u32;
        self.vcs[ivc].out_port = self.rep.branches[s * self.rep.max_out].port;
        self.vcs[ivc].state = REPL;
        self.vcs[ivc].set_ready(self.now + self.cfg.routing_delay as u64);
    }

    /// VC allocation for every branch still without an output VC. Returns true when the
    /// last one got its VC (the input VC then leaves the set needing allocation).
    pub(super) fn allocate_branches(&mut self, ivc: usize) -> bool {
        let s = self.rep.slot(ivc);
        let need = if self.is_vct() {
            self.rep.reps[s].size
        } else {
            0
        };
        let mut missing = 0;
        for b in self.rep.branch_range(s) {
            if self.rep.branches[b].pkt != NONE {
                continue;
            }
            let go = self.rep.branches[b].port as usize;
            // Worm copies follow up*/down* routes, which need no VC classes: any VC.
            let nv = self.nv;
            let base = go * nv;
            let pick = super::allocator::round_robin(self.va_rr[go] as usize, nv, |k| {
                self.owner[base + k] == NONE && self.credits[base + k] >= need
            });
            let Some(k) = pick else {
                missing += 1;
                continue;
            };
            self.claim_vc(go, k, ivc);
            self.va_rr[go] = ((k + 1) % nv) as u8;
            let copy = self.copy_packet(s, b);
            let br = &mut self.rep.branches[b];
            br.vc = k as u8;
            br.pkt = copy;
            br.ready = self.now + self.va.delay;
        }
        if missing == 0 {
            let r = self.port_router[ivc / self.nv] as usize;
            self.set_waiting(r, ivc, false);
        }
        missing == 0
    }

    /// The packet record a branch forwards: to an endpoint an ordinary packet addressed to
    /// it (tag shifted by the output's `tag_add`), to a switch a worm at the child visit.
    fn copy_packet(&mut self, s: usize, b: usize) -> u32 {
        let parent = self.packets[self.rep.reps[s].pkt as usize];
        let out = self.rep.table.outs[self.rep.branches[b].out as usize];
        let port = self.rep.branches[b].port as usize;
        let p = match self.out_to[port] {
            Out::Eject(ep) => Packet {
                dst: ep,
                worm: NONE,
                tag: parent.tag.wrapping_add(out.tag_add),
                ..parent
            },
            _ => Packet {
                worm: out.child,
                ..parent
            },
        };
        if p.measured {
            self.measured_outstanding += 1;
        }
        self.store_packet(p)
    }

    /// Whether branch `b` of replicating `ivc` can send a flit this cycle.
    #[inline]
    fn branch_wants(&self, s: usize, ivc: usize, b: usize) -> bool {
        let br = &self.rep.branches[b];
        let rep = &self.rep.reps[s];
        br.pkt != NONE
            && br.ready <= self.now
            && br.sent < rep.size
            && ((br.sent - rep.freed) as usize) < self.vcs[ivc].len as usize
            && self.credits[br.port as usize * self.nv + br.vc as usize] > 0
    }

    /// Switch allocation: whether any branch of `ivc` bids this cycle.
    pub(super) fn replicating_ready(&self, ivc: usize) -> bool {
        let s = self.rep.slot(ivc);
        self.rep
            .branch_range(s)
            .any(|b| self.branch_wants(s, ivc, b))
    }

    /// Switch allocation: the local output ports (relative to `p0`) the branches of `ivc`
    /// bid for, as a bit mask.
    pub(super) fn replicating_requests(&self, ivc: usize, p0: usize) -> u64 {
        let s = self.rep.slot(ivc);
        let mut mask = 0u64;
        for b in self.rep.branch_range(s) {
            if self.branch_wants(s, ivc, b) {
                mask |= 1 << (self.rep.branches[b].port as usize - p0);
            }
        }
        mask
    }

    /// The branch of `ivc` on global output `go` was granted: it reads its next flit from
    /// the input buffer and sends a copy; flits every branch has read leave the buffer.
    pub(super) fn traverse_branch(&mut self, r: usize, ivc: usize, go: usize) {
        let s = self.rep.slot(ivc);
        let b = self
            .rep
            .branch_range(s)
            .find(|&b| self.rep.branches[b].port as usize == go)
            .expect("a granted output has a branch");
        let br = self.rep.branches[b];
        let rep = self.rep.reps[s];
        let mut flit = self.flit_at(ivc, (br.sent - rep.freed) as usize);
        flit.pkt = br.pkt;
        flit.set_dst(self.packets[br.pkt as usize].dst);
        self.rep.branches[b].sent += 1;
        // The copy is a new flit in flight; the buffered original stays until freed.
        self.in_flight_flits += 1;
        self.live_flits += 1;
        self.live_ctime_sum += self.packets[br.pkt as usize].ctime as u128;
        self.last_move = self.now;
        self.sent.reserve_hop();
        self.send_out(go, br.vc, flit);
        if flit.tail {
            self.tail_left(go, br.vc as usize);
        }
        self.free_read_flits(r, ivc, s);
    }

    /// Frees the whole chunks every branch has read (all that is left once every branch
    /// has sent the tail), returning their credits upstream; ends the replication when the
    /// packet is gone.
    fn free_read_flits(&mut self, r: usize, ivc: usize, s: usize) {
        let rep = self.rep.reps[s];
        let read = self
            .rep
            .branch_range(s)
            .map(|b| self.rep.branches[b].sent)
            .min()
            .unwrap_or(rep.size);
        let upto = if read == rep.size {
            rep.size
        } else {
            read / self.rep.chunk * self.rep.chunk
        };
        let gi = ivc / self.nv;
        let v = (ivc % self.nv) as u8;
        for _ in rep.freed..upto {
            self.pop(ivc);
            self.in_flight_flits -= 1;
            self.live_flits -= 1;
            self.live_ctime_sum -= self.packets[rep.pkt as usize].ctime as u128;
            self.sent.reserve_hop();
            self.return_credit(gi, v);
        }
        self.rep.reps[s].freed = upto;
        if upto == rep.size {
            self.end_replication(r, ivc, s);
        }
    }

    fn end_replication(&mut self, r: usize, ivc: usize, s: usize) {
        let pkt = self.rep.reps[s].pkt;
        if self.packets[pkt as usize].measured {
            self.measured_outstanding -= 1;
        }
        self.free.push(pkt);
        self.rep.rep_of[ivc] = NONE;
        self.rep.free.push(s as u32);
        self.vcs[ivc].state = IDLE;
        self.vcs[ivc].out_port = NONE;
        if self.vcs[ivc].len > 0 {
            self.set_waiting(r, ivc, true);
        }
    }
}
