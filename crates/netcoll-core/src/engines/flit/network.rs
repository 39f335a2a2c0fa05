//! The simulated network's state, held in flat arrays indexed by global port (the ports of
//! all routers numbered consecutively) and by global virtual channel (`port * num_vcs + vc`).
//! Each input VC is a ring buffer in one shared flit array; nothing is allocated per flit or
//! per cycle once the run has warmed up.

use super::channel::{Flit, Hop, HopDelays, Sent, Wheel};
use super::config::{FlitConfig, FlowControl};
use super::partition::{Crew, Partition, Workers};
use super::stats::Window;
use super::torus::TorusDor;
use crate::error::Result;
use crate::routing::Routing;
use crate::spec_err;
use crate::topology::Topology;

use super::mask_state::MaskRouter;
pub use super::types::{Vc, ACTIVE, IDLE, NONE, VC_WAIT};
use super::va_state::VaState;
use super::wiring::{ports, wiring};
pub use super::wiring::{In, Out};
use super::worm_table::Replication;

#[derive(Debug, Clone, Copy, Default)]
pub struct Packet {
    pub src: u32,
    pub dst: u32,
    pub ctime: u64,
    /// Cycle the head flit left the source NI.
    pub itime: u64,
    pub size: u16,
    pub measured: bool,
    /// Step VC class (`vc_per_step` of the schedule runner; 0 otherwise): the packet uses
    /// only the VCs of this block.
    pub vclass: u8,
    /// Caller's label (the schedule engine's message packet), NONE for synthetic traffic.
    pub tag: u32,
    /// A multidestination worm's visit in `rep.table` at its next switch; NONE for unicast.
    pub worm: u32,
    /// The packet queued behind this one at its source NI (NONE: the last), see [`Ni`].
    pub next: u32,
}

/// A network interface: an unbounded source queue and the sending side of the injection
/// channel, with its own credits for the router's injection input VCs. The queue is linked
/// through the packet table (`Packet::next`): queueing and taking a packet write the record
/// that is being written anyway, and an NI holds no buffer of its own.
#[derive(Debug, Clone)]
pub struct Ni {
    /// The first and the last packet queued (NONE when the queue is empty).
    pub head: u32,
    pub tail: u32,
    /// The packet being sent (NONE between packets), its next flit and its VC.
    pub cur: u32,
    pub cur_idx: u16,
    pub cur_vc: u8,
    pub vc_rr: u8,
    pub generated: u64,
}

/// What a traversal and an arrival need of a global input port, in one record: where the
/// credits of its VCs go (the credit number, `channel::Wheel::credit`, of VC 0 of the
/// upstream output port or NI, `u32::MAX` for an open port; wiring.rs `credit_targets`)
/// and the number of its VC 0 in the per-router bit sets of input VCs (`wait_bits`, `occ`;
/// bit `r * wpr * 64 + port * num_vcs + vc`, the word `bit / 64`); the VC's number is
/// added to both. An arrival finds its VC's bit with an add, no division or multiplication.
#[derive(Debug, Clone, Copy, Default)]
pub struct PortAt {
    pub up: u32,
    pub bit: u32,
}

/// Where a global output port's flits go, as its traversals need it: over a link, to input
/// VC `ivc + vc` (`ivc` the downstream port's VC 0) of bit `bit + vc` (see [`PortAt`]);
/// `ivc` is [`DOWN_EJECT`] with the endpoint for an ejection port, `u32::MAX` for an open
/// one.
#[derive(Debug, Clone, Copy)]
pub struct Down {
    pub ivc: u32,
    pub bit: u32,
}

pub struct Network<'t> {
    pub topo: &'t Topology,
    pub routing: Routing,
    pub cfg: FlitConfig,
    pub nv: usize,
    pub depth: usize,
    /// VC class ranges: class c may use VCs `class_lo[c]..class_hi[c]`. Class
    /// `step_class * route_classes + routing_class` (see `vclass.rs`).
    pub class_lo: Vec<u8>,
    pub class_hi: Vec<u8>,
    /// The routing's classes in use (dateline: 2 on tori, else 1) and the step blocks.
    pub route_classes: u8,
    pub step_classes: u8,
    pub now: u64,
    // Geometry.
    pub pstart: Vec<u32>,
    pub port_router: Vec<u32>,
    /// Per global input port, what an arrival needs to know of it without a look at the
    /// router's records (see [`PortAt`]).
    pub port_at: Vec<PortAt>,
    pub out_to: Vec<Out>,
    pub in_from: Vec<In>,
    /// Global input port of each endpoint's injection channel.
    pub ep_port: Vec<u32>,
    /// `out_to` as a traversal reads it (`in_from` is in `port_at`).
    pub down: Vec<Down>,
    /// Credits, numbered as the wheel numbers them ([`Wheel::credit`]): per output VC
    /// (global), credits for its downstream buffer, then per NI VC (`Wheel::ni_base() +
    /// endpoint * num_vcs + vc`) for the router's injection buffer. Two bytes each and
    /// apart from the VC records: the whole array stays in L1 on an 8x8 mesh (the records
    /// do not), and a credit's return is one increment with no test of its kind.
    pub credits: Vec<u16>,
    /// Per output VC (global): the input VC (global) holding it, NONE when free.
    pub owner: Vec<u32>,
    /// Per global VC (`port * num_vcs + vc`): the input VC's record, 32 bytes (see
    /// [`Vc`]).
    pub vcs: Vec<Vc>,
    /// Per input VC, `depth` slots: a ring of the flits behind the front one (which lives
    /// in its [`Vc`]); touched only when a VC holds two flits or more.
    pub ring: Vec<Flit>,
    // Allocator pointers.
    pub in_rr: Vec<u8>,
    pub out_rr: Vec<u16>,
    pub va_rr: Vec<u8>,
    pub router_rr: Vec<u16>,
    // Activity.
    /// Per router, `wpr` words: the input VCs holding flits, a bit each (local index `port *
    /// num_vcs + vc`, as in `wait_bits`). A router is active while a bit of its words is
    /// set; the bits change only when a VC fills or drains, where a count of a router's
    /// flits and one of a port's occupied VCs changed at every arrival and traversal.
    pub occ: Vec<u64>,
    /// Per router, `wpr` words: the input VCs that need routing or VC allocation (occupied
    /// and not active), a bit each (local index `port * num_vcs + vc`).
    pub wait_bits: Vec<u64>,
    pub wpr: usize,
    /// Scratch for the switch allocator: per local output port, the requesting input ports.
    pub out_req: Vec<u64>,
    /// Routers holding flits, a bit each: the routers run in index order, so their state
    /// (laid out by router) streams through the caches in address order.
    pub active: Vec<u64>,
    /// Scratch for the switch allocator: per local input port, the VC it puts forward.
    pub req_vc: Vec<u8>,
    /// The VC allocators' pointers, masks and scratch (vc_masks.rs).
    pub va: VaState,
    /// The router stages' path for the common case and its scratch (mask_router.rs).
    pub mr: Box<MaskRouter>,
    /// iSLIP switch allocator: accept pointer per input port; scratch: the VC carrying each
    /// (local input, local output) request and the grants each local input received.
    pub sa_aptr: Vec<u16>,
    pub sa_req_vc: Vec<u8>,
    pub sa_grants: Vec<u64>,
    pub wheel: Wheel,
    /// The events sent in the cycle running; they enter the wheel at its end.
    pub sent: Sent,
    /// The delays of a hop's events (from `cfg`, summed once).
    pub hop: HopDelays,
    /// Whether the routers prefetch VC records: only when the records outgrow a core's L2
    /// cache (on smaller networks the hint costs more than it saves). Deliveries always
    /// prefetch theirs (`deliver`).
    pub prefetch: bool,
    /// DOR on a torus in closed form, with BookSim's random tie-breaks (torus.rs).
    pub torus: TorusDor,
    /// DOR on a mesh or hypercube depends only on (router, destination router): the step
    /// for every pair, `port | class << 16 | state << 24`, row per router (empty when the
    /// routing carries state or the network has more than `ROUTE_TABLE_MAX` routers).
    pub route_table: Vec<u32>,
    /// Routers per row of `route_table` when the table alone routes, else 0 (router.rs).
    pub route_n: usize,
    /// Mesh radices when the mesh is too large for `route_table` and routed by DOR
    /// (`router::mesh_dor`), else empty.
    pub mesh_dims: Vec<u32>,
    /// The router of every endpoint (flat, for routing without the topology's records).
    pub ep_switch: Vec<u32>,
    // Packets and NIs.
    pub packets: Vec<Packet>,
    pub free: Vec<u32>,
    pub nis: Vec<Ni>,
    pub ni_busy: Vec<bool>,
    pub ni_pending: Vec<u32>,
    // Counters.
    pub in_flight_flits: u64,
    pub last_move: u64,
    pub chan_flits: Vec<u64>,
    /// Router-to-router channel traversals over the whole run (counted as a cycle's sends
    /// end, `end_sends`).
    pub flit_hops: u64,
    pub period: Window,
    pub measured: Window,
    pub measuring: bool,
    /// Latency mode's warm-up: every arriving packet counts in `period` (BookSim's rule).
    pub warming: bool,
    /// Flits created and not yet arrived, and the sum of their creation cycles (for
    /// BookSim's latency estimate that includes packets still in flight).
    pub live_flits: u64,
    pub live_ctime_sum: u128,
    pub measured_outstanding: u64,
    pub misdelivered: u64,
    pub delivered: u64,
    /// When set, every delivered packet's (tag, cycle) is logged here for the caller.
    pub log_arrivals: bool,
    pub arrivals: Vec<(u32, u64)>,
    /// When set (with `log_arrivals`), every delivered packet's (packet latency, network
    /// latency) is logged here, in the order of `arrivals`.
    pub log_latency: bool,
    pub arrival_lat: Vec<(u64, u64)>,
    /// Switch replication of multidestination worms (replicate.rs).
    pub rep: Replication,
    /// Parallel runs (par.rs): this network's partition, and (the master only) the others.
    pub part: Option<Partition>,
    pub workers: Option<Workers<Network<'t>>>,
    /// While a stretch of cycles runs on threads (crew.rs): what they share.
    pub crew: Option<std::sync::Arc<Crew>>,
}

impl<'t> Network<'t> {
    pub fn new(topo: &'t Topology, cfg: &FlitConfig) -> Result<Network<'t>> {
        cfg.validate()?;
        let what = format!("the flit network of {}", topo.name());
        crate::guard::check(&what, super::footprint::flit_footprint(topo, cfg))?;
        let mut cfg = cfg.clone();
        cfg.channel_latency = cfg.link_latency();
        let cfg = &cfg;
        let routing = Routing::new(topo, cfg.routing, None)?;
        let route_table = route_table(topo, &routing, cfg);
        let nv = cfg.num_vcs;
        let classes = if cfg.dateline {
            routing.vc_classes() as usize
        } else {
            1
        };
        if nv < classes {
            return spec_err!(
                "{} routing on {} needs num_vcs >= {classes} for its dateline VC classes \
                 (or dateline = 0, which may deadlock)",
                cfg.routing.name(),
                topo.name()
            );
        }
        let class_lo: Vec<u8> = (0..classes).map(|c| (c * nv / classes) as u8).collect();
        let class_hi: Vec<u8> = (0..classes)
            .map(|c| ((c + 1) * nv / classes) as u8)
            .collect();
        let (pstart, port_router) = ports(topo);
        let np = port_router.len();
        let (out_to, in_from, ep_port) = wiring(topo, &pstart);
        let depth = cfg.vc_buf_size;
        let vcs = vec![Vc::new(); np * nv];
        let eps = topo.num_endpoints();
        let mut credits = vec![depth as u16; (np + eps) * nv];
        for (g, o) in out_to.iter().enumerate() {
            if matches!(o, Out::Eject(_)) {
                // Ejection is an infinite sink, as in BookSim.
                credits[g * nv..(g + 1) * nv].fill(u16::MAX);
            }
        }
        let max_ports = (0..topo.num_switches())
            .map(|s| topo.num_ports(s))
            .max()
            .unwrap_or(1);
        if eps >= super::channel::MAX_FLIT_ENDPOINTS {
            return spec_err!(
                "{what} has {eps} endpoints: the flit engine addresses fewer than {} (24 bits)",
                super::channel::MAX_FLIT_ENDPOINTS
            );
        }
        let wpr = (max_ports * nv).div_ceil(64);
        let wheel = Wheel::new(HopDelays::new(cfg).longest().max(1), nv, np, eps);
        let up = super::wiring::credit_targets(&in_from, nv, &wheel);
        let port_at = port_at(&pstart, &port_router, &up, nv, wpr)?;
        let sizes = (topo.num_switches(), np, max_ports);
        let va = VaState::new(cfg, sizes, &class_lo, &class_hi);
        let mut net = Network {
            topo,
            routing,
            cfg: cfg.clone(),
            nv,
            depth,
            class_lo,
            class_hi,
            route_classes: classes as u8,
            step_classes: 1,
            now: 0,
            down: down_targets(&out_to, &port_at, nv)?,
            out_to,
            in_from,
            ep_port,
            credits,
            owner: vec![NONE; np * nv],
            vcs,
            ring: vec![Flit::default(); np * nv * depth],
            in_rr: vec![0; np],
            out_rr: vec![0; np],
            va_rr: vec![0; np],
            router_rr: vec![0; topo.num_switches()],
            occ: vec![0; topo.num_switches() * wpr],
            wait_bits: vec![0; topo.num_switches() * wpr],
            wpr,
            out_req: vec![0; max_ports],
            active: vec![0; topo.num_switches().div_ceil(64)],
            req_vc: vec![0; max_ports],
            va,
            mr: Box::default(),
            sa_aptr: vec![0; np],
            sa_req_vc: vec![0; max_ports * max_ports],
            sa_grants: vec![0; max_ports],
            wheel,
            sent: Sent::default(),
            hop: HopDelays::new(cfg),
            prefetch: np * nv * std::mem::size_of::<Vc>() > PREFETCH_MIN_BYTES,
            torus: TorusDor::new(topo, cfg),
            mesh_dims: match topo.family() {
                crate::topology::Family::Mesh { dims }
                    if route_table.is_empty()
                        && cfg.routing == crate::routing::RoutingKind::Dor =>
                {
                    dims.iter().map(|&k| k as u32).collect()
                }
                _ => Vec::new(),
            },
            ep_switch: (0..eps).map(|e| topo.endpoint_switch(e) as u32).collect(),
            route_table,
            route_n: 0,
            packets: Vec::new(),
            free: Vec::new(),
            nis: vec![
                Ni {
                    head: NONE,
                    tail: NONE,
                    cur: NONE,
                    cur_idx: 0,
                    cur_vc: 0,
                    vc_rr: 0,
                    generated: 0,
                };
                eps
            ],
            ni_busy: vec![false; eps * nv],
            ni_pending: Vec::new(),
            in_flight_flits: 0,
            last_move: 0,
            chan_flits: vec![0; np],
            flit_hops: 0,
            period: Window::default(),
            measured: Window::default(),
            measuring: false,
            warming: false,
            live_flits: 0,
            live_ctime_sum: 0,
            measured_outstanding: 0,
            misdelivered: 0,
            delivered: 0,
            log_arrivals: false,
            arrivals: Vec::new(),
            log_latency: false,
            arrival_lat: Vec::new(),
            rep: Replication::new(np * nv, max_ports, cfg.chunk_flits),
            pstart,
            port_router,
            port_at,
            part: None,
            workers: None,
            crew: None,
        };
        net.set_route_n();
        Ok(net)
    }

    /// Creates a packet from `src` to `dst` at the current cycle and queues it at the NI.
    pub fn create_packet(&mut self, src: usize, dst: usize, size: u16) {
        self.create_tagged(src, dst, size, NONE);
    }

    /// [`Network::create_packet`] with a caller's label, reported back on arrival.
    pub fn create_tagged(&mut self, src: usize, dst: usize, size: u16, tag: u32) {
        self.create_in_class(src, dst, size, tag, 0);
    }

    /// [`Network::create_tagged`] on step VC class `vclass` (see `vclass.rs`).
    pub fn create_in_class(&mut self, src: usize, dst: usize, size: u16, tag: u32, vclass: u8) {
        let now = self.now;
        let p = Packet {
            src: src as u32,
            dst: dst as u32,
            ctime: now,
            itime: 0,
            size,
            measured: self.measuring,
            vclass,
            tag,
            worm: NONE,
            next: NONE,
        };
        let id = match self.free.pop() {
            Some(id) => {
                self.packets[id as usize] = p;
                id
            }
            None => {
                self.packets.push(p);
                (self.packets.len() - 1) as u32
            }
        };
        if self.measuring {
            self.measured_outstanding += 1;
        }
        self.live_flits += size as u64;
        self.live_ctime_sum += size as u128 * now as u128;
        let ni = &mut self.nis[src];
        if ni.tail == NONE {
            ni.head = id;
            if ni.cur == NONE {
                self.ni_pending.push(src as u32);
            }
        } else {
            self.packets[ni.tail as usize].next = id;
        }
        ni.tail = id;
        ni.generated += 1;
    }

    /// One cycle: arrivals, then NIs inject, then every active router runs its stages.
    pub fn step(&mut self) {
        if let Some(crew) = self.crew.take() {
            self.crew_step(&crew);
            self.crew = Some(crew);
            return;
        }
        if self.workers.is_some() {
            return self.parallel_step();
        }
        self.deliver();
        self.finish_cycle();
    }

    /// The rest of a cycle after [`Network::deliver`]: NIs inject, routers run.
    pub fn finish_cycle(&mut self) {
        self.inject();
        self.routers();
        self.end_sends();
        self.now += 1;
    }

    /// Applies the events due this cycle.
    pub fn deliver(&mut self) {
        let now = self.now;
        let due = self.wheel.take(now);
        // The input VC records the arrivals write are prefetched a batch ahead (the first
        // batch while the credits are applied): they are rarely in L1, even on an 8x8
        // mesh, and their misses would otherwise come one after the other.
        // The NIs' flits (a few per cycle) are prefetched with the first batch of hops.
        let (hops, n) = (&due.hops[..], due.hops.len());
        for a in &due.arrivals {
            super::types::prefetch(&self.vcs[a.port as usize * self.nv + a.vc as usize]);
        }
        self.prefetch_hops(&hops[..n.min(ARRIVAL_BATCH)]);
        // The credits borrowed once: an increment through `self.credits` would make every
        // next one reload the vector's pointer and length.
        let credits = &mut self.credits[..];
        for &c in &due.credits {
            credits[c as usize] += 1;
        }
        for a in &due.arrivals {
            self.arrive(a.port, a.vc as u8, a.flit);
        }
        for (k, batch) in hops.chunks(ARRIVAL_BATCH).enumerate() {
            let next = ((k + 1) * ARRIVAL_BATCH).min(n);
            self.prefetch_hops(&hops[next..(next + ARRIVAL_BATCH).min(n)]);
            for h in batch {
                self.arrive_at(h.ivc as usize, h.bit as usize, h.flit);
            }
        }
        for &(ep, flit) in &due.ejects {
            self.eject(ep, flit);
        }
        self.wheel.give_back(now, due);
    }

    /// Prefetches the input VC records of `hops`.
    #[inline]
    fn prefetch_hops(&self, hops: &[Hop]) {
        for h in hops {
            super::types::prefetch(&self.vcs[h.ivc as usize]);
        }
    }

    /// A flit enters an input VC buffer; its router becomes active. The traversal of this
    /// router that every arrival leads to (onwards or into the ejection channel) is counted
    /// in the flit's `hops` here, in the slot it is written to: counted on the way out, the
    /// flit would be taken apart into its fields to be copied (`eject` takes the ejection
    /// off).
    pub(super) fn arrive(&mut self, port: u32, vc: u8, flit: Flit) {
        let bit = self.port_at[port as usize].bit as usize + vc as usize;
        self.arrive_at(port as usize * self.nv + vc as usize, bit, flit);
    }

    /// [`Network::arrive`] at global input VC `ivc` of bit `bit` (see [`PortAt`]).
    #[inline(always)]
    fn arrive_at(&mut self, ivc: usize, bit: usize, flit: Flit) {
        let depth = self.depth;
        let v = &mut self.vcs[ivc];
        debug_assert!((v.len as usize) < depth, "buffer overflow: credit bug");
        if v.len == 0 {
            v.front = flit;
            v.front.hops += 1;
        } else {
            let mut slot = v.head as usize + v.len as usize - 1;
            if slot >= depth {
                slot -= depth;
            }
            let at = &mut self.ring[ivc * depth + slot];
            *at = flit;
            at.hops += 1;
        }
        v.len += 1;
        if v.len == 1 {
            self.occ[bit / 64] |= 1 << (bit % 64);
            if self.vcs[ivc].state == IDLE {
                self.set_waiting_bit(bit);
            }
            // A router with flits is active already.
            let r = self.bit_router(bit);
            self.active[r / 64] |= 1 << (r % 64);
        }
    }

    /// The router of input VC bit `bit` (see [`PortAt`]): a shift when a router's VCs fit
    /// one word (every run of the mask router), else a division.
    #[inline(always)]
    pub(super) fn bit_router(&self, bit: usize) -> usize {
        if self.wpr == 1 {
            bit / 64
        } else {
            bit / (64 * self.wpr)
        }
    }

    /// Adds `ivc` of router `r` to, or removes it from, the set needing RC/VA.
    #[inline]
    pub fn set_waiting(&mut self, r: usize, ivc: usize, on: bool) {
        let local = ivc - self.pstart[r] as usize * self.nv;
        let (w, b) = (r * self.wpr + local / 64, local % 64);
        if on {
            self.wait_bits[w] |= 1 << b;
        } else {
            self.wait_bits[w] &= !(1 << b);
        }
    }

    /// Adds the input VC of bit `bit` (see [`PortAt`]) to the set needing RC/VA.
    #[inline(always)]
    pub(super) fn set_waiting_bit(&mut self, bit: usize) {
        self.wait_bits[bit / 64] |= 1 << (bit % 64);
    }

    /// Input VC bit `bit` (see [`PortAt`]) of router `r` drained: it leaves `occ`, and the
    /// router leaves the active set when it holds no flit any more.
    #[inline(always)]
    pub(super) fn vacate(&mut self, r: usize, bit: usize) {
        let w = bit / 64;
        self.occ[w] &= !(1 << (bit % 64));
        if self.occ[w] == 0 && (self.wpr == 1 || !self.occupied(r)) {
            self.active[r / 64] &= !(1 << (r % 64));
        }
    }

    /// Whether router `r` holds flits.
    #[inline]
    pub fn occupied(&self, r: usize) -> bool {
        let w = r * self.wpr;
        self.occ[w..w + self.wpr].iter().any(|&b| b != 0)
    }

    /// Whether global input port `gi` has a VC holding flits.
    pub fn port_occupied(&self, gi: usize) -> bool {
        let lo = self.port_at[gi].bit as usize;
        (lo..lo + self.nv).any(|b| self.occ[b / 64] & 1 << (b % 64) != 0)
    }

    /// Whether router `r` has input VCs that need routing or VC allocation.
    #[inline]
    pub fn waiting(&self, r: usize) -> bool {
        let w = r * self.wpr;
        self.wait_bits[w..w + self.wpr].iter().any(|&b| b != 0)
    }

    #[inline]
    pub fn front(&self, ivc: usize) -> Flit {
        self.vcs[ivc].front
    }

    /// The `k`-th flit of input VC `ivc` from its front (`k < len`).
    #[inline]
    pub fn flit_at(&self, ivc: usize, k: usize) -> Flit {
        if k == 0 {
            return self.vcs[ivc].front;
        }
        let v = &self.vcs[ivc];
        self.ring[ivc * self.depth + (v.head as usize + k - 1) % self.depth]
    }

    #[inline]
    pub fn pop(&mut self, ivc: usize) -> Flit {
        self.pop_from(ivc, ivc / self.nv)
    }

    /// Takes the front flit of input VC `ivc` of global input port `gi`.
    #[inline]
    pub fn pop_from(&mut self, ivc: usize, gi: usize) -> Flit {
        let depth = self.depth;
        let x = &mut self.vcs[ivc];
        let f = x.front;
        if super::router::advance_front(x, &self.ring, ivc * depth, depth) == 0 {
            let bit = self.port_at[gi].bit as usize + ivc - gi * self.nv;
            self.vacate(self.bit_router(bit), bit);
        }
        f
    }

    pub fn is_vct(&self) -> bool {
        self.cfg.flow_control == FlowControl::CutThrough
    }
}

/// VC records (bytes) from which they are prefetched: the L2 cache of one core (512 KiB on
/// the machines measured); a 16x16 mesh of 4 VCs has 160 KiB of records, 32x32 640 KiB.
const PREFETCH_MIN_BYTES: usize = 512 << 10;

/// Arrivals per batch of [`Network::deliver`]'s prefetches (64 lines of the 512 of a
/// 32 KiB L1).
const ARRIVAL_BATCH: usize = 64;

/// [`PortAt`] of every global port.
fn port_at(
    pstart: &[u32],
    port_router: &[u32],
    up: &[u32],
    nv: usize,
    wpr: usize,
) -> Result<Vec<PortAt>> {
    let routers = pstart.len() - 1;
    if routers * wpr * 64 > u32::MAX as usize {
        return spec_err!(
            "the flit network has {routers} routers of up to {} VCs: the flit engine numbers \
             fewer than 2^32 input VCs",
            wpr * 64
        );
    }
    Ok(port_router
        .iter()
        .enumerate()
        .map(|(p, &r)| PortAt {
            up: up[p],
            bit: ((r as usize * wpr * 64) + (p - pstart[r as usize] as usize) * nv) as u32,
        })
        .collect())
}

/// [`Down`] of every global output port.
fn down_targets(out_to: &[Out], port_at: &[PortAt], nv: usize) -> Result<Vec<Down>> {
    use super::wiring::DOWN_EJECT;
    if out_to.len() * nv >= DOWN_EJECT as usize {
        return spec_err!(
            "the flit network has {} ports of {nv} VCs: the flit engine numbers fewer than \
             2^31 input VCs",
            out_to.len()
        );
    }
    let down = |o: &Out| match *o {
        Out::Link { input, .. } => Down {
            ivc: input * nv as u32,
            bit: port_at[input as usize].bit,
        },
        Out::Eject(ep) => Down {
            ivc: DOWN_EJECT | ep,
            bit: 0,
        },
        Out::Open => Down {
            ivc: u32::MAX,
            bit: 0,
        },
    };
    Ok(out_to.iter().map(down).collect())
}

/// Routers up to which a stateless routing is tabulated (a million entries at most).
const ROUTE_TABLE_MAX: usize = 1024;

/// The table of [`Network::route_table`], or an empty vector.
fn route_table(topo: &Topology, routing: &Routing, cfg: &FlitConfig) -> Vec<u32> {
    use crate::topology::Family;
    let n = topo.num_switches();
    let stateless = cfg.routing == crate::routing::RoutingKind::Dor
        && matches!(
            topo.family(),
            Family::Mesh { .. } | Family::Hypercube { .. }
        );
    if cfg.topology == "anynet" && cfg.routing == crate::routing::RoutingKind::Shortest {
        return super::anynet::route_table(topo);
    }
    if !stateless || n > ROUTE_TABLE_MAX {
        return Vec::new();
    }
    let mut t = vec![0u32; n * n];
    for at in 0..n {
        for dst in (0..n).filter(|&d| d != at) {
            let Some(step) = routing.next(topo, at, dst, 0) else {
                return Vec::new();
            };
            t[at * n + dst] =
                step.via.port | (step.vc_class as u32) << 16 | (step.state as u32) << 24;
        }
    }
    t
}
