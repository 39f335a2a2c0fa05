//! Network interfaces: injection from the source queue over the injection channel (one flit
//! per cycle, credit flow control against the router's injection input VCs) and ejection
//! (an infinite sink that records latencies).

use super::allocator::next;
use super::channel::Flit;
use super::network::{Network, NONE};

impl Network<'_> {
    /// Every NI with work sends at most one flit.
    pub(super) fn inject(&mut self) {
        let mut list = std::mem::take(&mut self.ni_pending);
        list.retain(|&ep| self.ni_step(ep as usize));
        // NIs that received packets during this cycle were appended to the new list.
        list.append(&mut self.ni_pending);
        self.ni_pending = list;
    }

    /// One NI's cycle; returns whether it still has work.
    fn ni_step(&mut self, ep: usize) -> bool {
        let nv = self.nv;
        if self.nis[ep].cur == NONE {
            let Some(&pkt) = self.nis[ep].queue.front() else {
                return false;
            };
            let need = if self.is_vct() {
                self.packets[pkt as usize].size
            } else {
                1
            };
            // A packet enters on a VC of its step block (all VCs without `vc_per_step`).
            let (lo, hi) = self.injection_range(self.packets[pkt as usize].vclass);
            let base = ep * nv + lo;
            let start = (self.nis[ep].vc_rr as usize).wrapping_sub(lo);
            let pick = super::allocator::round_robin(start, hi - lo, |k| {
                !self.ni_busy[base + k] && self.ni_credits[base + k] >= need
            });
            let Some(k) = pick else {
                return true;
            };
            let v = lo + k;
            let base = ep * nv;
            let ni = &mut self.nis[ep];
            ni.queue.pop_front();
            ni.cur = pkt;
            ni.cur_idx = 0;
            ni.cur_vc = v as u8;
            ni.vc_rr = next(v, nv) as u8;
            self.ni_busy[base + v] = true;
            self.packets[pkt as usize].itime = self.now;
        }
        let ni = &self.nis[ep];
        let (pkt, idx, vc) = (ni.cur, ni.cur_idx, ni.cur_vc);
        let cred = ep * nv + vc as usize;
        if self.ni_credits[cred] == 0 {
            return true;
        }
        self.ni_credits[cred] -= 1;
        let size = self.packets[pkt as usize].size;
        let dst = self.packets[pkt as usize].dst;
        let flit = Flit::new(pkt, dst, self.now, idx == 0, idx + 1 == size);
        let at = self.now + self.cfg.injection_latency as u64;
        let port = self.ep_port[ep];
        self.send_flit(at, port, vc, flit);
        self.in_flight_flits += 1;
        self.last_move = self.now;
        let ni = &mut self.nis[ep];
        ni.cur_idx += 1;
        if flit.tail {
            ni.cur = NONE;
            self.ni_busy[cred] = false;
            return !ni.queue.is_empty();
        }
        true
    }

    /// A flit reaches its destination NI.
    pub(super) fn eject(&mut self, ep: u32, flit: Flit) {
        self.in_flight_flits -= 1;
        self.last_move = self.now;
        let p = self.packets[flit.pkt as usize];
        self.live_flits -= 1;
        self.live_ctime_sum -= p.ctime as u128;
        // Flit latency as BookSim's: from leaving the NI to arrival.
        let flat = flit.age(self.now);
        let lat = self.now - p.ctime;
        // BookSim counts a packet while warming up, or when it was created to be measured.
        let in_period =
            self.warming || p.measured || self.cfg.sim_type != super::config::SimType::Latency;
        if in_period {
            self.period.flit.add(flat);
        }
        self.period.accepted_flits += 1;
        if self.measuring {
            self.measured.accepted_flits += 1;
        }
        if p.measured {
            self.measured.flit.add(flat);
        }
        if !flit.tail {
            return;
        }
        if p.dst != ep {
            self.misdelivered += 1;
        }
        self.delivered += 1;
        if self.log_arrivals {
            self.arrivals.push((p.tag, self.now));
        }
        let net = self.now - p.itime;
        if self.log_latency {
            self.arrival_lat.push((lat, net));
        }
        if in_period {
            self.period.packet_arrived(lat, net, flit.hops as u64);
        }
        if p.measured {
            self.measured.packet_arrived(lat, net, flit.hops as u64);
            self.measured_outstanding -= 1;
        }
        self.free.push(flit.pkt);
    }
}
