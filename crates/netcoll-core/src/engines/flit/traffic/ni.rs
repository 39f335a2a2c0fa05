//! Network interfaces: injection from the source queue over the injection channel (one flit
//! per cycle, credit flow control against the router's injection input VCs) and ejection
//! (an infinite sink that records latencies).

use super::allocator::next;
use super::channel::{Arrival, Flit};
use super::network::{Network, Packet, NONE};
use super::source_queue::Waiting;
use super::types::byte_flags_to_bits;

impl Network<'_> {
    /// Creates a packet now of `size` flits, label `tag`, step VC class `vclass`, from
    /// `src` to `dst` (first worm visit `worm`, NONE for unicast), measured when packets
    /// made now are, and queues it at NI `src` (it counts as live from now).
    #[inline]
    pub(super) fn queue_packet(
        &mut self,
        src: usize,
        dst: usize,
        (size, tag, vclass): (u16, u32, u8),
        worm: u32,
    ) {
        let w = Waiting {
            ctime: self.now,
            dst: dst as u32,
            tag,
            worm,
            size,
            vclass,
            measured: self.measuring,
        };
        self.count_created(w.size, w.ctime, 1, w.measured);
        self.wait_at_ni(src, w);
    }

    /// Every NI creates a packet of `size` flits now, NI `ep`'s to `dest(ep)` (asked in NI
    /// order): [`Network::create_packet`] at each NI in turn, the packets counted as live
    /// in one go (a saturated source, `Sim::every_cycle`), the queueing inlined.
    pub fn create_at_every_ni(&mut self, size: u16, mut dest: impl FnMut(usize) -> usize) {
        let (now, measured, nis) = (self.now, self.measuring, self.nis.len());
        self.count_created(size, now, nis as u64, measured);
        for ep in 0..nis {
            let w = Waiting {
                ctime: now,
                dst: dest(ep) as u32,
                tag: NONE,
                worm: NONE,
                size,
                vclass: 0,
                measured,
            };
            self.wait_at_ni(ep, w);
        }
    }

    /// Queues `w` (counted as live already) at NI `src`, which has work from now on.
    #[inline(always)]
    fn wait_at_ni(&mut self, src: usize, w: Waiting) {
        if self.queues.is_empty(src) && self.nis[src].cur == NONE {
            self.ni_pending.push(src as u32);
        }
        self.queues.push(src, w);
        self.nis[src].generated += 1;
    }

    /// `count` packets of `size` flits created at `ctime` count as live (and as measured
    /// when they are) until their flits arrive.
    #[inline]
    pub(super) fn count_created(&mut self, size: u16, ctime: u64, count: u64, measured: bool) {
        if measured {
            self.measured_outstanding += count;
        }
        let flits = count * size as u64;
        self.live_flits += flits;
        self.live_ctime_sum += flits as u128 * ctime as u128;
    }

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
        if self.cls.is_some() {
            return self.class_ni_step(ep);
        }
        let nv = self.nv;
        if self.nis[ep].cur == NONE && !self.start_packet(ep) {
            return !self.queues.is_empty(ep);
        }
        let ni = &mut self.nis[ep];
        let (pkt, idx, vc) = (ni.cur, ni.cur_idx, ni.cur_vc);
        let cred = self.ni_credit(ep, vc as usize);
        if self.credits[cred] == 0 {
            return true;
        }
        self.credits[cred] -= 1;
        let p = &self.packets[pkt as usize];
        let tail = idx + 1 == p.size;
        let flit = Flit::new(pkt, p.dst, self.now, idx == 0, tail);
        self.inject_flit(ep, vc, flit);
        let ni = &mut self.nis[ep];
        ni.cur_idx = idx + 1;
        if tail {
            ni.cur = NONE;
            if self.cfg.wait_for_tail_credit {
                self.tail_sent[cred] = true;
            } else {
                self.ni_busy[ep * nv + vc as usize] = false;
            }
            return !self.queues.is_empty(ep);
        }
        true
    }

    /// Where the credits of NI `ep`'s VC `vc` are in `credits` (after the routers' output
    /// VCs, numbered as the wheel numbers credits).
    #[inline]
    pub(super) fn ni_credit(&self, ep: usize, vc: usize) -> usize {
        self.wheel.ni_base() as usize + ep * self.nv + vc
    }

    /// A flit leaves NI `ep` on its VC `vc` (the cycle's end puts it in the wheel, and
    /// counts as a move for the deadlock watch, `end_sends`). Inlined, and an adaptive
    /// routing's decision made out of line on the flit in the list: the flit, built field
    /// by field, then goes into the list from the registers it was built in (passed to a
    /// call by reference, it was stored in parts and read back whole, a store-forwarding
    /// stall that took 4% of singleconfig's time).
    #[inline(always)]
    pub(super) fn inject_flit(&mut self, ep: usize, vc: u8, flit: Flit) {
        self.sent.injected.push(Arrival {
            port: self.ep_port[ep],
            vc: vc as u32,
            flit,
        });
        self.in_flight_flits += 1;
        if self.adaptive.is_some() {
            self.route_last_injected(ep);
        }
    }

    /// The decision an adaptive routing makes as the flit injected last leaves NI `ep`.
    #[inline(never)]
    fn route_last_injected(&mut self, ep: usize) {
        let last = self.sent.injected.len() - 1;
        let mut flit = self.sent.injected[last].flit;
        self.route_at_injection(ep, &mut flit);
        self.sent.injected[last].flit = flit;
    }

    /// Takes the packet at the head of `ep`'s queue onto an injection VC of its step block
    /// (all VCs without `vc_per_step`) that is free and has the credits it needs (all its
    /// flits under cut-through), round-robin, and gives it its packet-table record. True
    /// when the packet now holds the VC and its flits follow (`ni_step`); false when the
    /// queue is empty, no VC is free, or the packet was one flit and has gone out whole
    /// (the VC taken and given back in one go).
    fn start_packet(&mut self, ep: usize) -> bool {
        let nv = self.nv;
        let Some(&w) = self.queues.front(ep) else {
            return false;
        };
        let need = if self.is_vct() { w.size } else { 1 };
        let (lo, hi) = self.injection_range(w.vclass);
        let start = (self.nis[ep].vc_rr as usize).wrapping_sub(lo);
        let Some(v) = self.free_ni_vc(ep, (lo, hi), start, need) else {
            return false;
        };
        self.queues.pop(ep);
        let pkt = self.store_packet(Packet {
            src: ep as u32,
            dst: w.dst,
            ctime: w.ctime,
            itime: self.now,
            size: w.size,
            measured: w.measured,
            vclass: w.vclass,
            tag: w.tag,
            worm: w.worm,
            next: NONE,
            ..Packet::default()
        });
        self.nis[ep].vc_rr = next(v, nv) as u8;
        if w.size == 1 {
            let cred = self.ni_credit(ep, v);
            self.credits[cred] -= 1;
            if self.cfg.wait_for_tail_credit {
                self.ni_busy[ep * nv + v] = true;
                self.tail_sent[cred] = true;
            }
            let flit = Flit::new(pkt, w.dst, self.now, true, true);
            self.inject_flit(ep, v as u8, flit);
            return false;
        }
        let ni = &mut self.nis[ep];
        ni.cur = pkt;
        ni.cur_idx = 0;
        ni.cur_vc = v as u8;
        self.ni_busy[ep * nv + v] = true;
        true
    }

    /// The first of NI `ep`'s injection VCs `lo..hi` that is free (not held by a packet)
    /// and has `need` credits, round-robin from `lo + start` (a start past the range starts
    /// at `lo`); None when there is none. Inlined: a call cost a third of its instructions.
    #[inline(always)]
    pub(super) fn free_ni_vc(
        &self,
        ep: usize,
        (lo, hi): (usize, usize),
        start: usize,
        need: u16,
    ) -> Option<usize> {
        let busy = &self.ni_busy[ep * self.nv + lo..];
        let credits = &self.credits[self.ni_credit(ep, lo)..];
        first_free(busy, credits, hi - lo, start, need).map(|k| lo + k)
    }

    /// A flit reaches its destination NI.
    pub(super) fn eject(&mut self, ep: u32, flit: Flit) {
        self.eject_tail_credit(ep, flit);
        self.in_flight_flits -= 1;
        self.last_move = self.now;
        let p = self.packets[flit.pkt as usize];
        self.live_flits -= 1;
        self.live_ctime_sum -= p.ctime as u128;
        let cl = p.cl as usize;
        self.class_flit_arrived(cl, p.ctime);
        // Flit latency as BookSim's: from leaving the NI to arrival.
        let flat = flit.age(self.now);
        let lat = self.now - p.ctime;
        // BookSim counts a packet while warming up, or when it was created to be measured.
        let in_period = self.warming || p.measured || !self.cfg.sim_type.samples_periods();
        if in_period {
            self.period.flit_arrived(cl, flat);
        }
        self.period.accept(cl);
        if self.measuring {
            self.measured.accept(cl);
        }
        if p.measured {
            self.measured.flit_arrived(cl, flat);
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
        // Every traversal counted a hop, the one into the ejection channel too.
        let hops = flit.hops as u64 - 1;
        if self.log_latency {
            self.arrival_lat.push((lat, net));
        }
        if in_period {
            self.period.class_packet_arrived(cl, lat, net, hops);
        }
        if p.measured {
            self.measured.class_packet_arrived(cl, lat, net, hops);
            self.measured_outstanding -= 1;
        }
        self.free.push(flit.pkt);
        if self.cls.is_some() {
            self.class_packet_arrived(&p, ep as usize);
        }
    }
}

/// The first `k < n` in round-robin order from `start` (0 when `start` is past `n`) with
/// `!busy[k] && credits[k] >= need`: `allocator::round_robin` over the VCs (`busy` and
/// `credits` start at the first VC and may run on past the `n`th). Every cycle of a blocked
/// NI asks this of all its VCs, and whether a VC is free is a coin toss at saturation, so
/// up to 64 VCs are tested into a mask without a branch and the pick is the mask's first
/// bit from `start` on, wrapping. Up to eight VCs (an NI's VCs, or a class's block of
/// them) with eight flags and credits readable from the first are one group's test
/// (`group_free`) with the bits past `n` dropped: no loop, no remainder.
#[inline(always)]
fn first_free(busy: &[bool], credits: &[u16], n: usize, start: usize, need: u16) -> Option<usize> {
    let free = match (busy.get(..GROUP), credits.get(..GROUP)) {
        (Some(b), Some(c)) if n <= GROUP => group_free(b, c, need) & !(u64::MAX << n),
        _ => return first_free_wide(busy, credits, n, start, need),
    };
    first_from(free, n, start)
}

/// [`first_free`] beyond one group: more than eight VCs, or fewer than eight readable.
#[inline(never)]
fn first_free_wide(
    busy: &[bool],
    credits: &[u16],
    n: usize,
    start: usize,
    need: u16,
) -> Option<usize> {
    if n > 64 {
        return first_free_scan(&busy[..n], &credits[..n], start, need);
    }
    first_from(free_mask(&busy[..n], &credits[..n], need), n, start)
}

/// The first bit of `free` (VCs `0..n`) from `start` on, wrapping (from 0 when `start` is
/// past `n`). Whether a free VC lies ahead of the round-robin pointer is as unpredictable
/// as whether there is one, so the wrap is chosen with a mask, not a branch.
#[inline(always)]
fn first_from(free: u64, n: usize, start: usize) -> Option<usize> {
    let start = if start >= n { 0 } else { start };
    let ahead = free & (u64::MAX << start);
    let wrap = u64::from(ahead == 0).wrapping_neg();
    let from = ahead | (free & wrap);
    (from != 0).then(|| from.trailing_zeros() as usize)
}

/// VCs tested in one go: eight busy flags are one word.
const GROUP: usize = 8;

/// Bit `k` set when VC `k` (of at most 64) is free with `need` credits, eight VCs at a
/// time (`group_free`), the rest one by one.
#[inline]
fn free_mask(busy: &[bool], credits: &[u16], need: u16) -> u64 {
    let (busy8, credits8) = (busy.chunks_exact(GROUP), credits.chunks_exact(GROUP));
    let (busy_rest, credits_rest) = (busy8.remainder(), credits8.remainder());
    let mut free = 0u64;
    let mut groups = 0;
    for (b, c) in busy8.zip(credits8) {
        free |= group_free(b, c, need) << (GROUP * groups);
        groups += 1;
    }
    let base = GROUP * groups;
    for (k, (&b, &c)) in busy_rest.iter().zip(credits_rest).enumerate() {
        free |= ((!b & (c >= need)) as u64) << (base + k);
    }
    free
}

/// Bit `k` (of eight) set when VC `k` of the first eight of `busy` and `credits` is free
/// with `need` credits: the eight busy flags read as one word, the credits as two words of
/// four 16-bit lanes compared with `need` lane by lane (`lanes_at_least`).
#[inline(always)]
fn group_free(busy: &[bool], credits: &[u16], need: u16) -> u64 {
    let b: [u8; GROUP] = bytemuck::cast_slice::<bool, u8>(&busy[..GROUP])
        .try_into()
        .expect("eight flags");
    let busy_bits = byte_flags_to_bits(u64::from_le_bytes(b));
    let needs = u64::from(need) * LANE_ONES;
    let low = lanes_at_least(lanes(&credits[..4]), needs);
    let high = lanes_at_least(lanes(&credits[4..GROUP]), needs);
    (low | high << 4) & !busy_bits & 0xff
}

/// One in each 16-bit lane of a word, and each lane's top bit.
const LANE_ONES: u64 = 0x0001_0001_0001_0001;
const LANE_TOPS: u64 = 0x8000_8000_8000_8000;

/// Four 16-bit values as the lanes of a word, the first lowest.
#[inline]
fn lanes(c: &[u16]) -> u64 {
    c.iter().rev().fold(0, |w, &x| w << 16 | u64::from(x))
}

/// Bit `k` (of four) set when lane `k` of `a` is at least lane `k` of `b`, as unsigned
/// 16-bit numbers: the lanes are subtracted with their top bits set aside (no borrow
/// crosses a lane), and the top bits then decide.
#[inline]
fn lanes_at_least(a: u64, b: u64) -> u64 {
    let diff = (a | LANE_TOPS).wrapping_sub(b & !LANE_TOPS);
    let tops = ((a & !b) | (!(a ^ b) & diff)) & LANE_TOPS;
    // Lane tops (bits 15, 31, 47, 63) to bits 0..3: the shifted copies never overlap.
    ((tops >> 15).wrapping_mul((1 << 48) | (1 << 33) | (1 << 18) | (1 << 3)) >> 48) & 0xf
}

/// [`first_free`] as two plain runs of the flags and credits (NIs with more than 64 VCs).
fn first_free_scan(busy: &[bool], credits: &[u16], start: usize, need: u16) -> Option<usize> {
    let start = if start >= busy.len() { 0 } else { start };
    let free = |(&b, &c): (&bool, &u16)| !b && c >= need;
    match busy[start..].iter().zip(&credits[start..]).position(free) {
        Some(k) => Some(start + k),
        None => busy[..start].iter().zip(&credits[..start]).position(free),
    }
}

#[cfg(test)]
mod tests {
    use super::super::allocator::round_robin;
    use super::first_free;

    /// `first_free` picks what `round_robin` over the VCs' flags and credits picks, for
    /// every start (inside and past the range) on random states of 1 to 80 VCs (one group
    /// up to 8, the mask up to 64, the scan beyond), followed by up to 9 more VCs.
    #[test]
    fn first_free_is_the_round_robin_pick() {
        let mut x: u64 = 7;
        let mut draw = |m: u64| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) % m
        };
        let mut found = 0;
        for _ in 0..20_000 {
            let n = 1 + if draw(4) == 0 { draw(80) } else { draw(16) } as usize;
            let busy: Vec<bool> = (0..n).map(|_| draw(3) == 0).collect();
            // Credits and needs at the lanes' edges too (top bit set, all ones).
            let edge = [0, 1, 2, 3, 0x7fff, 0x8000, 0x8001, 0xfffe, u16::MAX];
            let credits: Vec<u16> = match draw(4) {
                0 => (0..n).map(|_| edge[draw(9) as usize]).collect(),
                _ => (0..n).map(|_| draw(4) as u16).collect(),
            };
            let need = match draw(8) {
                0 => edge[1 + draw(8) as usize],
                _ => 1 + draw(3) as u16,
            };
            let start = draw(n as u64 + 3) as usize;
            let want = round_robin(start, n, |k| !busy[k] && credits[k] >= need);
            // The VCs of a block inside longer arrays: flags and credits past the `n`th
            // (busy or not, with credits or not) must not count, whether the one-group
            // test can read eight from the first or not.
            let past = draw(10) as usize;
            let mut all_busy = busy.clone();
            all_busy.extend((0..past).map(|_| draw(2) == 0));
            let mut all_credits = credits.clone();
            all_credits.extend((0..past).map(|_| draw(3) as u16));
            assert_eq!(first_free(&all_busy, &all_credits, n, start, need), want);
            found += want.is_some() as u32;
        }
        assert!(found > 5_000 && found < 19_000, "{found} picks");
    }
}
