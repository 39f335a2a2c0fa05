//! The simulated network's state, held in flat arrays indexed by global port (the ports of
//! all routers numbered consecutively) and by global virtual channel (`port * num_vcs + vc`).
//! Each input VC is a ring buffer in one shared flit array; nothing is allocated per flit or
//! per cycle once the run has warmed up.

use super::adaptive_kind::FlitAdaptive;
use super::channel::{Flit, HopDelays, PortExtra, Sent, Wheel};
use super::class_types::Priority;
use super::config::FlitConfig;
use super::grid_random::GridRandom;
use super::partition::{Crew, Partition, Workers};
use super::route_set_masks::RouteSetMasks;
use super::source_queue::SourceQueues;
use super::stats::Window;
use super::torus::TorusDor;
use crate::engines::free_slots::reuse_slot;
use crate::error::Result;
use crate::routing::Routing;
use crate::spec_err;
use crate::topology::Topology;

use super::mask_state::MaskRouter;
pub use super::types::{Vc, ACTIVE, IDLE, NONE, VC_WAIT};
use super::va_state::VaState;
use super::wiring::{down_targets, port_at, ports, wiring};
pub use super::wiring::{Down, In, Out, PortAt};
use super::worm_table::Replication;
use super::xbar_state::Xbar;

/// A packet's record in the packet table, one cache line (64-byte aligned: at 56 bytes
/// unaligned, six records in eight straddled two lines, and a prefetch of a record's start
/// left its second line to miss; see docs/flit.md "Performance").
#[derive(Debug, Clone, Copy, Default)]
#[repr(align(64))]
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
    /// The packet queued behind this one in its class queue at its source NI (NONE: the
    /// last; class_ni.rs).
    pub next: u32,
    /// Traffic class, and kind under `use_read_write` (classes.rs: `KIND_ANY`, requests,
    /// replies).
    pub cl: u8,
    pub kind: u8,
    /// The priority its flits carry when it depends on the packet alone (`priority =
    /// class`, `age`, `sequence`; see `Network::vc_pri`), else 0.
    pub pri: i64,
}

/// A packet record is one cache line.
const _: () = assert!(std::mem::size_of::<Packet>() == 64);

/// A network interface: the sending side of the injection channel, with its own credits
/// for the router's injection input VCs. Its unbounded source queue is in
/// [`Network::queues`] (source_queue.rs); a packet gets its packet-table record when its
/// head leaves.
#[derive(Debug, Clone)]
pub struct Ni {
    /// The packet being sent (NONE between packets), its next flit and its VC.
    pub cur: u32,
    pub cur_idx: u16,
    pub cur_vc: u8,
    pub vc_rr: u8,
    pub generated: u64,
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
    /// `log2(64 * wpr)` when that is a power of two: the router of an input VC bit is then
    /// a shift (`Network::bit_router`), else a division.
    pub bit_shift: Option<u32>,
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
    /// BookSim's crossbar with speedups and held connections (xbar.rs); off by default.
    pub xb: Box<Xbar>,
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
    /// Whether deliveries prefetch the ring slots arriving flits are written to: only when
    /// the rings are far larger than a core's L2 cache (`RING_PREFETCH_MIN_BYTES`; deep
    /// buffers, as the dragonfly runfile's 256 flits: 46 MiB of rings).
    pub prefetch_rings: bool,
    /// DOR on a torus in closed form, with BookSim's random tie-breaks (torus.rs).
    pub torus: TorusDor,
    /// BookSim's per-packet random and credit-read routings on grids (grid_random.rs).
    pub grid: GridRandom,
    /// The route sets of min_adapt and planar_adapt, as VC masks (route_set_masks.rs).
    pub sets: RouteSetMasks,
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
    /// The NIs' source queues of single-class runs (multi-class runs link their class
    /// queues through the packet table, class_ni.rs).
    pub queues: SourceQueues,
    pub ni_busy: Vec<bool>,
    /// `wait_for_tail_credit` only (else empty): the credit slots (routers' output VCs, then
    /// the NIs' injection VCs, numbered as `credits`) whose tail has left while credits are
    /// still out, and the output port leading to each endpoint (tail_credit.rs).
    pub tail_sent: Vec<bool>,
    pub eject_go: Vec<u32>,
    pub ni_pending: Vec<u32>,
    /// Candidate VCs (holding an output VC and a flit) from which a router's switch
    /// requests are built without a branch per VC (sw_ports.rs, `DENSE_REQUESTS`; tests
    /// set 0 or `usize::MAX` to compare the two ways).
    pub sa_dense_min: usize,
    /// Requesters from which separable input-first VC allocation runs without a branch per
    /// requester (va_ports.rs, `DENSE_VA`; tests set 0 or `usize::MAX`).
    pub va_dense_min: usize,
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
    /// Multi-class runs (`classes > 1` or `use_read_write`): the NIs' class queues and the
    /// per-class counts (class_ni.rs); None otherwise.
    pub cls: Option<Box<super::class_queues::ClassNis>>,
    /// BookSim's `priority` (classes.rs); `None` keeps every flit at priority 0.
    pub prio: Priority,
    /// UGAL or Valiant (adaptive.rs), else None; its intermediate router per packet slot,
    /// and the draws made.
    pub adaptive: Option<Box<FlitAdaptive>>,
    pub adapt_via: Vec<u32>,
    pub adapt_draws: u64,
}

impl<'t> Network<'t> {
    pub fn new(topo: &'t Topology, cfg: &FlitConfig) -> Result<Network<'t>> {
        cfg.validate()?;
        let what = format!("the flit network of {}", topo.name());
        crate::guard::check(&what, super::footprint::flit_footprint(topo, cfg))?;
        let mut cfg = cfg.clone();
        let lats = super::link_latency::channel_latencies(topo, &cfg)?;
        cfg.channel_latency = match &lats {
            // The shortest channel sets the base delays; the others take more (PortExtra).
            Some(l) => l.iter().copied().min().unwrap_or(1).max(1),
            None => cfg.link_latency(),
        };
        let cfg = &cfg;
        let mut routing = Routing::new(topo, cfg.routing, None)?;
        if cfg.route_set == crate::routing::route_sets::Choices::All {
            routing.keep_all_choices();
        }
        let grid = GridRandom::new(topo, cfg);
        let sets = RouteSetMasks::new(topo, cfg, &routing)?;
        // Adaptive routings on the families that have them (adaptive.rs); on meshes, tori and
        // cmeshes the grid draws and route sets choose per packet.
        let adaptive = FlitAdaptive::of(topo, cfg.routing, cfg.seed)?.map(Box::new);
        if routing.is_adaptive() && adaptive.is_none() && !grid.routes() && !sets.routes() {
            return spec_err!(
                "{} routing on {} chooses among paths per packet, which the flit engine runs \
                 on meshes, tori and cmeshes only: use min (minimal) or dor",
                cfg.routing.name(),
                topo.name()
            );
        }
        let route_table = route_table(topo, &routing, cfg);
        let nv = cfg.num_vcs;
        // The dateline key switches the torus DOR's classes; the classes of the routings
        // that split the VCs by order or phase are their own (BookSim's), and BookSim's
        // adaptive routings split the VCs whatever `dateline` says.
        let classes = match &adaptive {
            Some(a) => a.classes(),
            None if cfg.dateline || grid.routes() => routing.vc_classes() as usize,
            None => 1,
        };
        if nv < classes && grid.routes() {
            return spec_err!(
                "{} routing on {} needs num_vcs >= {classes}: its VC classes (order, phase, \
                 ring) each need a VC",
                cfg.routing.name(),
                topo.name()
            );
        }
        if adaptive.is_some() && nv < classes {
            return spec_err!(
                "{} routing on {} needs num_vcs >= {classes}: its phases take VC classes of \
                 their own (BookSim's dragonfly UGAL asserts num_vcs = 3)",
                cfg.routing.name(),
                topo.name()
            );
        }
        if nv < classes {
            return spec_err!(
                "{} routing on {} needs num_vcs >= {classes} for its dateline VC classes \
                 (or dateline = 0, which may deadlock)",
                cfg.routing.name(),
                topo.name()
            );
        }
        // Class c is the c-th share of the VCs, or VC c alone where the routing pins it.
        let pinned = adaptive.as_ref().is_some_and(|a| a.pins_vcs());
        let share = |c: usize| if pinned { c.min(nv) } else { c * nv / classes } as u8;
        let class_lo: Vec<u8> = (0..classes).map(share).collect();
        let class_hi: Vec<u8> = (1..=classes).map(share).collect();
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
        let extra = lats.map(|l| port_extra(&out_to, &in_from, &l, cfg.channel_latency));
        let longest_extra = extra.as_ref().map_or(0, |e| {
            e.credit_out.iter().copied().max().unwrap_or(0) as u64
        });
        let mut wheel = Wheel::new(
            HopDelays::new(cfg).longest().max(1) + longest_extra,
            nv,
            np,
            eps,
        );
        if let Some(e) = extra {
            wheel.set_extra(e);
        }
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
            // Allocated zeroed, not written: the kernel hands out zero pages on first touch,
            // so the rings of deep buffers (the dragonfly runfile's 256 flits: 46 MiB,
            // mostly never written, as a VC uses its ring from the start) cost neither a
            // pass over every slot nor faults for the pages never touched.
            ring: bytemuck::zeroed_vec(np * nv * depth),
            in_rr: vec![0; np],
            out_rr: vec![0; np],
            va_rr: vec![0; np],
            router_rr: vec![0; topo.num_switches()],
            occ: vec![0; topo.num_switches() * wpr],
            wait_bits: vec![0; topo.num_switches() * wpr],
            wpr,
            bit_shift: (64 * wpr)
                .is_power_of_two()
                .then(|| (64 * wpr).trailing_zeros()),
            out_req: vec![0; max_ports],
            active: vec![0; topo.num_switches().div_ceil(64)],
            req_vc: vec![0; max_ports],
            va,
            mr: Box::default(),
            xb: Box::new(Xbar::new(cfg, np, max_ports, topo.num_switches())),
            sa_aptr: vec![0; np],
            sa_req_vc: vec![0; max_ports * max_ports],
            sa_grants: vec![0; max_ports],
            wheel,
            sent: Sent::default(),
            hop: HopDelays::new(cfg),
            prefetch: np * nv * std::mem::size_of::<Vc>() > PREFETCH_MIN_BYTES,
            prefetch_rings: np * nv * depth * std::mem::size_of::<Flit>() > RING_PREFETCH_MIN_BYTES,
            torus: TorusDor::new(topo, cfg),
            grid,
            sets,
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
                    cur: NONE,
                    cur_idx: 0,
                    cur_vc: 0,
                    vc_rr: 0,
                    generated: 0,
                };
                eps
            ],
            queues: SourceQueues::new(eps),
            ni_busy: vec![false; eps * nv],
            tail_sent: Vec::new(),
            eject_go: Vec::new(),
            ni_pending: Vec::new(),
            sa_dense_min: super::sw_ports::DENSE_REQUESTS,
            va_dense_min: super::va_ports::DENSE_VA,
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
            cls: None,
            prio: cfg.tc.priority,
            adaptive,
            adapt_via: Vec::new(),
            adapt_draws: 0,
        };
        // The mask router's switch allocator has no priorities (class_ni.rs's `vc_pri`).
        net.mr.enabled = net.prio == Priority::None;
        net.set_route_n();
        net.init_tail_credit();
        net.check_xbar(max_ports)?;
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
        self.queue_packet(src, dst, (size, tag, vclass), NONE);
    }

    /// Stores a new packet (created now, not yet queued) and counts it as live (and as
    /// measured when it is); its slot in the packet table.
    pub(super) fn add_packet(&mut self, p: Packet) -> u32 {
        self.count_created(p.size, p.ctime, 1, p.measured);
        self.store_packet(p)
    }

    /// Puts `p` in a free slot of the packet table (the one freed last, likely cached);
    /// its slot.
    pub(super) fn store_packet(&mut self, p: Packet) -> u32 {
        reuse_slot(&mut self.packets, &mut self.free, p)
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
}

/// VC records (bytes) from which they are prefetched: the L2 cache of one core (512 KiB on
/// the machines measured); a 16x16 mesh of 4 VCs has 160 KiB of records, 32x32 640 KiB.
const PREFETCH_MIN_BYTES: usize = 512 << 10;

/// Ring bytes from which deliveries prefetch ring slots: a VC's ring is used from its
/// start, so rings a few times a core's L2 (the 8x8 mesh of 16 VCs: 640 KiB) stay cached
/// and the look at the record the prefetch needs costs more than it saves (3% more
/// instructions on meshconfig); the dragonfly runfile's 46 MiB spread a page per VC.
const RING_PREFETCH_MIN_BYTES: usize = 4 << 20;

/// Routers up to which a stateless routing is tabulated (a million entries at most).
const ROUTE_TABLE_MAX: usize = 1024;

/// The delays of channels longer than `base` (per-channel latencies `lat`), by the global
/// input port a link's flits reach and the global output port its credits return to.
fn port_extra(out_to: &[Out], in_from: &[In], lat: &[u32], base: u32) -> PortExtra {
    let extra_of = |g: usize| match out_to[g] {
        Out::Link { channel, .. } => lat[channel as usize] - base,
        _ => 0,
    };
    PortExtra {
        credit_out: (0..out_to.len()).map(extra_of).collect(),
        flit_in: in_from
            .iter()
            .map(|i| match *i {
                In::Link(g) => extra_of(g as usize),
                _ => 0,
            })
            .collect(),
    }
}

/// The table of [`Network::route_table`], or an empty vector.
fn route_table(topo: &Topology, routing: &Routing, cfg: &FlitConfig) -> Vec<u32> {
    use crate::topology::Family;
    let n = topo.num_switches();
    use crate::routing::RoutingKind;
    let stateless = match topo.family() {
        Family::Mesh { .. } | Family::Hypercube { .. } => cfg.routing == RoutingKind::Dor,
        Family::Cmesh { .. } => matches!(cfg.routing, RoutingKind::Dor | RoutingKind::DorNoExpress),
        _ => false,
    };
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
