//! Channels: everything in flight between two points of the network (flits on links,
//! credits on their way back, flits on ejection channels) is an event in a timing wheel,
//! due a fixed number of cycles later. The wheel's slots are reused vectors, so after
//! warm-up no event allocates.

/// A flit: the packet slot it belongs to, and what a router needs to route it without
/// touching the packet table (a cache miss per hop on large networks): its destination
/// endpoint with the packet's routing state, and the router-to-router hops it has made.
/// 16 bytes. All zero is the default flit (`Zeroable`: the rings are allocated zeroed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, bytemuck::Zeroable)]
pub struct Flit {
    pub pkt: u32,
    /// Destination endpoint (low 24 bits) and routing state (high 8 bits: dateline class,
    /// up*/down* phase, torus direction), see [`Flit::dst`] and [`Flit::rstate`].
    pub dst_state: u32,
    /// Low 32 bits of the cycle the flit left its source NI (a flit latency is the
    /// wrapping difference: exact below 2^32 cycles in flight).
    pub itime: u32,
    /// Routers entered (counted as the flit arrives in an input buffer, `Network::arrive`):
    /// the router-to-router hops made, plus one for the router it is in or ejected from.
    pub hops: u16,
    pub head: bool,
    pub tail: bool,
}

/// Endpoints a flit can address (24 bits of `Flit::dst_state`).
pub const MAX_FLIT_ENDPOINTS: usize = 1 << 24;

impl Flit {
    /// A flit of packet `pkt` bound for endpoint `dst`, leaving its NI at cycle `now`.
    #[inline]
    pub fn new(pkt: u32, dst: u32, now: u64, head: bool, tail: bool) -> Flit {
        debug_assert!((dst as usize) < MAX_FLIT_ENDPOINTS);
        Flit {
            pkt,
            dst_state: dst,
            itime: now as u32,
            hops: 0,
            head,
            tail,
        }
    }
    #[inline]
    pub fn dst(&self) -> usize {
        (self.dst_state & 0x00ff_ffff) as usize
    }
    #[inline]
    pub fn rstate(&self) -> u8 {
        (self.dst_state >> 24) as u8
    }
    #[inline]
    pub fn set_dst(&mut self, dst: u32) {
        self.dst_state = (self.dst_state & 0xff00_0000) | dst;
    }
    #[inline]
    pub fn set_rstate(&mut self, state: u8) {
        self.dst_state = (self.dst_state & 0x00ff_ffff) | (state as u32) << 24;
    }
    /// Cycles since the flit left its NI.
    #[inline]
    pub fn age(&self, now: u64) -> u64 {
        (now as u32).wrapping_sub(self.itime) as u64
    }
}

/// The cycle a credit spends after its channel before the upstream router (or NI) can use
/// it: BookSim's channels hand a credit sent in cycle `t` over in `t + latency` (the
/// channel's `ReadInputs` then `WriteOutputs`), and the router reads it in the next cycle's
/// `ReadInputs`, so a freed slot counts upstream `credit_delay + latency + 1` cycles after
/// the switch allocation that freed it. Visible wherever credits limit a packet: 4-flit
/// packets through 1-flit buffers at zero load took 45.9 cycles against BookSim's 48.7.
const CREDIT_READ: u64 = 1;

/// The fixed delays of a hop's events, in cycles from the switch traversal (or the freeing
/// of a buffer slot), summed once when the network is built.
#[derive(Debug, Clone, Copy)]
pub struct HopDelays {
    /// A flit to the next router's input buffer.
    pub flit_link: u64,
    /// A flit to its destination NI (ejection channel and NI read).
    pub flit_eject: u64,
    /// A credit to the upstream router.
    pub credit_link: u64,
    /// A credit to the source NI (over the injection channel).
    pub credit_ni: u64,
    /// A flit from its NI to the router's injection input buffer.
    pub inject: u64,
}

impl HopDelays {
    pub fn new(c: &super::config::FlitConfig) -> HopDelays {
        let st = (c.sw_alloc_delay + c.st_final_delay) as u64;
        HopDelays {
            flit_link: st + c.channel_latency as u64,
            flit_eject: st + (c.ejection_latency + c.ni_read_delay) as u64,
            credit_link: (c.credit_delay + c.channel_latency) as u64 + CREDIT_READ,
            credit_ni: (c.credit_delay + c.injection_latency) as u64 + CREDIT_READ,
            inject: c.injection_latency as u64,
        }
    }

    /// The longest of them: the span a timing wheel must cover (an NI's injection,
    /// `injection_latency`, is never longer than `credit_ni`).
    pub fn longest(&self) -> u64 {
        self.flit_link
            .max(self.flit_eject)
            .max(self.credit_link)
            .max(self.credit_ni)
    }
}

/// Something in flight, as it crosses between partitions of a parallel run (par.rs); the
/// wheel stores each kind apart.
#[derive(Debug, Clone, Copy)]
pub enum Event {
    /// A flit reaches input port `port` (global port index), virtual channel `vc`.
    Flit { port: u32, vc: u8, flit: Flit },
    /// A credit for VC `vc` reaches output port `port` (global index).
    Credit { port: u32, vc: u8 },
    /// A credit reaches the network interface of endpoint `ep`.
    NiCredit { ep: u32, vc: u8 },
    /// A flit reaches the network interface of endpoint `ep`.
    Eject { ep: u32, flit: Flit },
}

/// A flit due at input port `port` (global), virtual channel `vc`: from an NI, or from
/// another partition of a parallel run.
#[derive(Debug, Clone, Copy)]
pub struct Arrival {
    pub port: u32,
    pub vc: u32,
    pub flit: Flit,
}

/// A flit due over a link at input VC `ivc` (global, `port * num_vcs + vc`), whose bit in
/// the per-router sets of input VCs is `bit` (`Network::port_at`): the sending router
/// knows both from its output port's record (`Network::down`), so the arrival needs no
/// multiplication and no look-up to find its VC and its router.
#[derive(Debug, Clone, Copy)]
pub struct Hop {
    pub ivc: u32,
    pub bit: u32,
    pub flit: Flit,
}

/// Everything due in one cycle, each kind in a vector of its own: a credit is 4 bytes (the
/// global index of the VC it returns to), not a 24-byte tagged event, and applying a kind
/// needs no dispatch per event. The order of events of one cycle changes no result (see
/// par.rs); ejections keep the order they were sent in.
#[derive(Debug, Default)]
pub struct Due {
    /// Flits over links.
    pub hops: Vec<Hop>,
    /// Flits from NIs (and, in a parallel run, from other partitions).
    pub arrivals: Vec<Arrival>,
    /// Credits, numbered as [`Wheel::credit`] numbers them: output VCs (global, `port *
    /// num_vcs + vc`) whose downstream buffer freed a slot, then NI VCs.
    pub credits: Vec<u32>,
    pub ejects: Vec<(u32, Flit)>,
}

impl Due {
    fn len(&self) -> usize {
        self.hops.len() + self.arrivals.len() + self.credits.len() + self.ejects.len()
    }

    fn clear(&mut self) {
        self.hops.clear();
        self.arrivals.clear();
        self.credits.clear();
        self.ejects.clear();
    }
}

/// The events sent in the cycle running, by kind. Every kind has one delay, so the lists
/// enter the wheel whole at the end of the cycle ([`Wheel::enter`], a swap of vectors when
/// the slot is empty): a send is one push onto a vector of the network, with no due cycle
/// to compute, no slot to find and no partition to test.
#[derive(Debug, Default)]
pub struct Sent {
    /// Flits onto links (due `flit_link` cycles later).
    pub flits: Vec<Hop>,
    /// Flits from NIs onto their injection channels (due `inject` later).
    pub injected: Vec<Arrival>,
    /// Flits onto ejection channels (due `flit_eject` later), in the order sent.
    pub ejects: Vec<(u32, Flit)>,
    /// Credits, numbered as [`Wheel::credit`] numbers them: for routers' output VCs (due
    /// `credit_link` later) and NI VCs (due `credit_ni` later: the same in BookSim's
    /// configurations, else split when they enter the wheel).
    pub credits: Vec<u32>,
}

impl Sent {
    /// Makes room for one traversal's sends (a credit, and a flit or an ejection), so
    /// that [`push_reserved`] writes them without a growth call: the one growth branch of
    /// a hop is taken before the flit is read, and the register spills a call needs stay
    /// in [`Sent::grow_hop`], which runs a few times per run.
    #[inline(always)]
    pub fn reserve_hop(&mut self) {
        if self.credits.len() == self.credits.capacity()
            || self.flits.len() == self.flits.capacity()
            || self.ejects.len() == self.ejects.capacity()
        {
            self.grow_hop();
        }
    }

    /// Makes room for the sends of `n` traversals.
    #[inline]
    pub fn reserve_hops(&mut self, n: usize) {
        self.credits.reserve(n);
        self.flits.reserve(n);
        self.ejects.reserve(n);
    }

    #[cold]
    #[inline(never)]
    fn grow_hop(&mut self) {
        self.credits.reserve(64);
        self.flits.reserve(64);
        self.ejects.reserve(64);
    }

    pub fn is_empty(&self) -> bool {
        self.flits.is_empty()
            && self.injected.is_empty()
            && self.ejects.is_empty()
            && self.credits.is_empty()
    }
}

/// Pushes `x` onto `v`, which has room for it ([`Sent::reserve_hop`],
/// [`Sent::reserve_hops`]): a write whose only branch is a bounds check that panics, so no
/// growth call (and none of the register spills around one) on the way of a flit. `Vec::push`
/// after the same reservation was measured no faster (its growth call stays in the code);
/// this was 1.5% less CPU time on the 8x8 mesh (docs/flit.md).
#[inline(always)]
pub fn push_reserved<T>(v: &mut Vec<T>, x: T) {
    let len = v.len();
    debug_assert!(len < v.capacity(), "the caller reserved room for its sends");
    v.spare_capacity_mut()[0].write(x);
    // SAFETY: the element at `len` was initialised just above (the index panics when
    // there is no spare capacity, so `len < capacity` holds here whether or not the caller
    // reserved); elements below `len` were initialised already.
    unsafe { v.set_len(len + 1) }
}

/// Appends `from` to `to`, leaving `from` empty; a swap when `to` is empty (the usual case:
/// the vectors' capacities circulate, nothing allocates after warm-up).
fn append<T: Copy>(to: &mut Vec<T>, from: &mut Vec<T>) {
    if to.is_empty() {
        std::mem::swap(to, from);
    } else {
        to.extend_from_slice(from);
        from.clear();
    }
}

/// A timing wheel: a [`Due`] per cycle of its span, reused (after warm-up nothing in flight
/// allocates).
pub struct Wheel {
    slots: Vec<Due>,
    mask: u64,
    /// VCs per port, to number credits.
    nv: u32,
    /// The credit number of NI VC 0 (the global VCs of the routers come first).
    ni_base: u32,
    /// Channels of unequal latency (link_latency.rs), else None: the common case keeps
    /// its one delay per kind.
    extra: Option<VcExtra>,
}

/// Per-port delays beyond [`HopDelays`]'s `flit_link` and `credit_link`, for networks whose
/// channels differ in latency: by global input port for the flits arriving over a link, by
/// global output port for the credits returning to it.
#[derive(Debug, Clone)]
pub struct PortExtra {
    pub flit_in: Vec<u32>,
    pub credit_out: Vec<u32>,
}

/// [`PortExtra`] spread over the VCs, as the wheel reads it: by global input VC for flits,
/// by credit number for the routers' credits. A flit's or a credit's extra is then one
/// load, with no division by the VCs per port to find its port.
#[derive(Debug, Clone)]
struct VcExtra {
    flit_in: Vec<u32>,
    credit_out: Vec<u32>,
}

impl Wheel {
    /// A wheel for delays of 1..=`max_delay` cycles on a network of `ports` ports and
    /// `nis` NIs of `nv` VCs each.
    pub fn new(max_delay: u64, nv: usize, ports: usize, nis: usize) -> Wheel {
        let size = (max_delay + 1).next_power_of_two();
        let ni_base = ports * nv;
        assert!(
            ni_base + nis * nv <= u32::MAX as usize,
            "credit numbers fit 32 bits"
        );
        Wheel {
            slots: (0..size).map(|_| Due::default()).collect(),
            mask: size - 1,
            nv: nv as u32,
            ni_base: ni_base as u32,
            extra: None,
        }
    }

    /// Gives the channels their own latencies (the wheel's span covers `max_delay` plus
    /// the largest extra, as [`Wheel::new`] was told).
    pub fn set_extra(&mut self, extra: PortExtra) {
        let nv = self.nv as usize;
        let per_vc = |v: &[u32]| v.iter().flat_map(|&x| std::iter::repeat_n(x, nv)).collect();
        self.extra = Some(VcExtra {
            flit_in: per_vc(&extra.flit_in),
            credit_out: per_vc(&extra.credit_out),
        });
    }

    /// The extra delay of a flit over a link to global input VC `ivc`.
    #[inline]
    pub fn flit_extra(&self, ivc: u32) -> u64 {
        self.extra
            .as_ref()
            .map_or(0, |e| e.flit_in[ivc as usize] as u64)
    }

    /// The extra delay of credit number `c` (0 for NI credits).
    #[inline]
    pub fn credit_extra(&self, c: u32) -> u64 {
        match &self.extra {
            Some(e) if c < self.ni_base => e.credit_out[c as usize] as u64,
            _ => 0,
        }
    }

    /// The number of a credit for global output VC `ovc` (`ni: false`) or for NI VC `ovc`
    /// (`endpoint * num_vcs + vc`): one numbering, one list per cycle for both.
    #[inline]
    pub fn credit(&self, ovc: u32, ni: bool) -> u32 {
        if ni {
            self.ni_base + ovc
        } else {
            ovc
        }
    }

    /// The credit number where NI VCs start.
    #[inline]
    pub fn ni_base(&self) -> u32 {
        self.ni_base
    }

    #[inline]
    fn slot(&mut self, at: u64) -> &mut Due {
        &mut self.slots[(at & self.mask) as usize]
    }

    /// Schedules `e` for cycle `at` (strictly in the future, within the wheel's span).
    /// Inlined: a caller's constant kind then needs no dispatch.
    #[inline]
    pub fn push(&mut self, at: u64, e: Event) {
        let nv = self.nv;
        let ni_base = self.ni_base;
        let due = self.slot(at);
        match e {
            Event::Flit { port, vc, flit } => due.arrivals.push(Arrival {
                port,
                vc: vc as u32,
                flit,
            }),
            Event::Credit { port, vc } => due.credits.push(port * nv + vc as u32),
            Event::NiCredit { ep, vc } => due.credits.push(ni_base + ep * nv + vc as u32),
            Event::Eject { ep, flit } => due.ejects.push((ep, flit)),
        }
    }

    /// Cycles ahead an event may be scheduled: `at - now` below this.
    pub fn span(&self) -> u64 {
        self.mask + 1
    }

    /// Schedules the flit over a link `h` for cycle `at` (as [`Wheel::push`]).
    #[inline]
    pub fn push_hop(&mut self, at: u64, h: Hop) {
        self.slot(at).hops.push(h);
    }

    /// Moves the events sent at cycle `now` into the slots they are due in.
    pub fn enter(&mut self, now: u64, hop: &HopDelays, sent: &mut Sent) {
        append(
            &mut self.slot(now + hop.inject).arrivals,
            &mut sent.injected,
        );
        append(
            &mut self.slot(now + hop.flit_eject).ejects,
            &mut sent.ejects,
        );
        if self.extra.is_some() {
            return self.enter_unequal(now, hop, sent);
        }
        append(&mut self.slot(now + hop.flit_link).hops, &mut sent.flits);
        if hop.credit_link == hop.credit_ni {
            append(
                &mut self.slot(now + hop.credit_link).credits,
                &mut sent.credits,
            );
        } else {
            let ni_base = self.ni_base;
            for &c in &sent.credits {
                let at = now
                    + if c < ni_base {
                        hop.credit_link
                    } else {
                        hop.credit_ni
                    };
                self.slot(at).credits.push(c);
            }
            sent.credits.clear();
        }
    }

    /// [`Wheel::enter`]'s flits over links and credits on a network whose channels differ
    /// in latency: one by one, each into its channel's slot.
    #[inline(never)]
    fn enter_unequal(&mut self, now: u64, hop: &HopDelays, sent: &mut Sent) {
        let Some(extra) = self.extra.as_ref() else {
            unreachable!("enter_unequal runs on a wheel with extra delays");
        };
        let (slots, mask) = (&mut self.slots, self.mask);
        let at = now + hop.flit_link;
        for &h in &sent.flits {
            let due = at + extra.flit_in[h.ivc as usize] as u64;
            slots[(due & mask) as usize].hops.push(h);
        }
        sent.flits.clear();
        let (at, ni_at) = (now + hop.credit_link, now + hop.credit_ni);
        for &c in &sent.credits {
            let due = match extra.credit_out.get(c as usize) {
                Some(&x) => at + x as u64,
                None => ni_at,
            };
            slots[(due & mask) as usize].credits.push(c);
        }
        sent.credits.clear();
    }

    /// Takes the events due at `now`, leaving an empty slot (the caller hands the vectors
    /// back with [`Wheel::give_back`], so their capacity is kept).
    pub fn take(&mut self, now: u64) -> Due {
        std::mem::take(self.slot(now))
    }

    /// Whether nothing is in flight (a look at every slot: called between cycles of runs
    /// that may skip idle stretches, never on the way of a flit).
    pub fn is_empty(&self) -> bool {
        self.slots.iter().all(|d| d.len() == 0)
    }

    pub fn give_back(&mut self, now: u64, mut due: Due) {
        due.clear();
        let slot = self.slot(now);
        if slot.len() == 0 {
            *slot = due;
        }
    }
}

#[cfg(test)]
mod zeroed_tests {
    use super::Flit;

    /// The rings are allocated zeroed (network.rs): all zero must be the default flit.
    #[test]
    fn zeroed_flits_are_default_flits() {
        let v = bytemuck::zeroed_vec::<Flit>(1000);
        assert_eq!(v.len(), 1000);
        assert!(v.iter().all(|f| *f == Flit::default()));
        assert!(bytemuck::zeroed_vec::<Flit>(0).is_empty());
    }
}
