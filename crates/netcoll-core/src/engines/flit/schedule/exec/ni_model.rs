//! A send's packets through its NI into the network, and an arriving packet through the
//! receiving NI to the receives listening for it (serial NIs, FPFS forwarding, NI copies).

use super::{Due, Exec, Shared};
use crate::engines::flit::network::{Network, NONE};
use crate::schedule::{OpKind, Schedule};
use std::ops::Deref;

impl<S: Deref<Target = Schedule> + Clone> Exec<S> {
    /// A send reaches its NI at `t`: it pays `t_ns` (per copy when the NI is serial) and
    /// its packets are queued.
    pub(super) fn ni_send(&mut self, sh: &mut Shared, g: u32, t: u64) {
        let s = self.s.clone();
        let at = s.op_ref(g as usize);
        let OpKind::Send { msg, packets } = s.op(at).kind else {
            unreachable!()
        };
        let p = &self.par;
        if p.ni_serial == 0 {
            self.push(sh, t + p.t_ns, Due::Inject(g));
            return;
        }
        // A serial NI handles the packets one by one, `t_ns` per copy of each; a host send's
        // packets come over the I/O bus one after another (the first one's DMA was paid by
        // the host part), so packet i is in the NI i DMA times after the first.
        let m = s.message(msg);
        let copies = if self.roots[msg as usize] != NONE {
            1
        } else {
            s.dests(m).len() as u64
        };
        let (a, b) = self.network_range(msg, packets);
        let first = self.copy_of[g as usize];
        let (from, a0) = if self.forward[g as usize] {
            (t, b) // a forward: the NI holds its packets
        } else if first != NONE {
            let OpKind::Send {
                msg: fmsg,
                packets: fp,
            } = s.op(s.op_ref(first as usize)).kind
            else {
                unreachable!()
            };
            (
                self.host_at[first as usize].unwrap_or(t),
                self.network_range(fmsg, fp).0,
            )
        } else {
            (t, a)
        };
        let dma = p.dma(self.packet_bytes[msg as usize]);
        let ep = s.placement()[at.rank as usize] as usize;
        let t_ns = p.t_ns;
        for pkt in a..b {
            let avail = (from + dma * pkt.saturating_sub(a0) as u64).max(t);
            let end = avail.max(sh.ni_free[ep]) + t_ns * copies;
            sh.ni_free[ep] = end;
            self.push(sh, end, Due::InjectOne(g, pkt));
        }
    }

    /// The NI of the receiving endpoint of `key` takes a packet that arrived at `t`;
    /// returns when it holds it (after `t_nr`).
    pub(super) fn ni_receive(&mut self, sh: &mut Shared, key: usize, t: u64) -> u64 {
        let ep = self.key_rank[key] as usize;
        if self.par.ni_serial == 1 {
            let at = t.max(sh.nr_free[ep]) + self.par.t_nr;
            sh.nr_free[ep] = at;
            at
        } else {
            t + self.par.t_nr
        }
    }

    /// A receive whose packets are all in the NI releases the sends the NI forwards.
    pub(super) fn ni_has(&mut self, sh: &mut Shared, g: u32, t: u64) {
        for i in self.dependents.range(g as usize) {
            let d = self.dependents.items[i];
            if self.forward[d as usize] {
                self.remaining[d as usize] -= 1;
                if self.remaining[d as usize] == 0 {
                    self.start(sh, d, t);
                }
            }
        }
    }

    pub(super) fn check_recv(&mut self, sh: &mut Shared, g: u32) {
        let gi = g as usize;
        if let Some(t) = self.ready[gi] {
            if self.got[gi] == self.need[gi] {
                let msg = match self.s.op(self.s.op_ref(gi)).kind {
                    OpKind::Recv { msg, .. } => msg as usize,
                    _ => unreachable!(),
                };
                let host = self.par.dma(self.packet_bytes[msg]) + self.par.t_hr;
                let mut begin = t.max(self.last[gi]);
                if self.par.ni_serial == 1 {
                    // The host takes the message from its NI (DMA, t_hr) when it is free: a
                    // serial host does one send or receive at a time.
                    let ep = self.s.placement()[self.s.op_ref(gi).rank as usize] as usize;
                    begin = begin.max(sh.host_free[ep]);
                    sh.host_free[ep] = begin + host;
                }
                self.push(sh, begin + host, Due::Done(g));
                self.got[gi] = u32::MAX; // scheduled once
            }
        }
    }

    /// Queues the send's packets (or only packet `one`) at its NI; the send is done with
    /// its last packet.
    pub(super) fn inject(&mut self, sh: &mut Shared, g: u32, one: Option<u32>, net: &mut Network) {
        let s = self.s.clone();
        let at = s.op_ref(g as usize);
        let op = s.op(at);
        let OpKind::Send { msg, packets } = op.kind else {
            unreachable!()
        };
        let vclass = op.step.map_or(0, |st| st % self.step_classes) as u8;
        let m = s.message(msg);
        let np = self.npk[msg as usize];
        let (a, b) = self.network_range(msg, packets);
        let last = b;
        let (a, b) = one.map_or((a, b), |p| (p, p + 1));
        let pl = s.placement();
        let src = pl[m.src as usize] as usize;
        let dests = s.dests(m);
        let root = self.roots[msg as usize];
        let local = self.base[msg as usize];
        let base = self.tag0 + local;
        for pkt in a..b {
            if let Some(log) = &mut self.steplog {
                // Every destination's copy carries `tag + dest_index * packets` (worms.rs).
                for di in 0..dests.len() as u32 {
                    log.created(local + di * np + pkt, op.step, net.now);
                }
            }
            if root != NONE {
                net.create_worm(src, root, self.flits[msg as usize], base + pkt);
                continue;
            }
            for (di, &d) in dests.iter().enumerate() {
                let tag = base + di as u32 * np + pkt;
                let (to, f) = (pl[d as usize] as usize, self.flits[msg as usize]);
                net.create_in_class(src, to, f, tag, vclass);
            }
        }
        if b == last {
            self.complete(sh, g, net.now);
        }
    }

    /// A packet with this instance's tag `tag` (from `tag0`) arrived at `t`.
    pub fn arrival(&mut self, sh: &mut Shared, tag: u32, t: u64) {
        let tag = tag - self.tag0;
        let key = self.key_of_tag[tag as usize] as usize;
        let m = self.msg_of_key[key] as usize;
        let pkt = (tag - self.base[m]) % self.npk[m];
        let t = self.ni_receive(sh, key, t);
        for i in self.listeners.range(key) {
            let g = self.listeners.items[i] as usize;
            let (a, b) = self.range[g];
            if (a..b).contains(&pkt) && self.got[g] != u32::MAX {
                self.got[g] += 1;
                self.last[g] = self.last[g].max(t);
                if self.got[g] == self.need[g] && !self.ni_fired[g] {
                    self.ni_fired[g] = true;
                    let at = self.last[g];
                    self.push(sh, at, Due::NiHas(g as u32));
                }
                self.check_recv(sh, g as u32);
            }
        }
    }
}
