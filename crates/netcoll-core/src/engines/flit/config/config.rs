//! Simulation parameters. Keys and defaults follow BookSim 2's names (`num_vcs`,
//! `vc_buf_size`, `routing_delay`, ...) so a BookSim configuration file maps onto this struct
//! key by key. Here: the fields and their defaults; `config_keys` reads a key's text
//! ([`FlitConfig::set`] is the one place that knows every key), `config_check` refuses
//! values the engine cannot run.

use super::booksim_keys::booksim_only_keys;
use super::class_types::{TrafficClasses, CLASS_KEYS};
pub use super::config_enums::{
    DigitArgs, FlowControl, InjectionSpec, McScheme, Pattern, SimType, SwAllocator, TorusRouting,
    VcAllocator,
};
use super::latency_keys::LatencyKeys;
use crate::error::Result;
use crate::routing::RoutingKind;
use crate::spec_err;
use crate::topology::Topology;
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct FlitConfig {
    /// `mesh`, `torus` (with `k`, `n`) or `netcoll` (with `netcoll_topology`, a spec string).
    pub topology: String,
    pub k: usize,
    pub n: usize,
    /// Concentration (endpoints per router) of `topology = flatfly` and `cmesh` (and of a
    /// mesh or torus, netcoll's `,c=C`); 0 = not given.
    pub c: usize,
    /// The choices a route-set routing (min_adapt, planar_adapt) keeps: BookSim's one per
    /// priority (its OutputSet, the default) or all (crate::routing::route_sets).
    pub route_set: crate::routing::route_sets::Choices,
    pub netcoll_topology: String,
    pub routing: RoutingKind,
    /// Use the dateline VC classes of DOR on a torus (off: any VC, which may deadlock).
    pub dateline: bool,
    pub torus_routing: TorusRouting,
    pub num_vcs: usize,
    pub vc_buf_size: usize,
    pub flow_control: FlowControl,
    pub routing_delay: u32,
    pub vc_alloc_delay: u32,
    pub sw_alloc_delay: u32,
    pub st_final_delay: u32,
    pub credit_delay: u32,
    /// BookSim's `wait_for_tail_credit`: an output VC (and an NI's injection VC) is free
    /// again only once its tail has left and every credit it took is back, not as the tail
    /// leaves.
    pub wait_for_tail_credit: bool,
    /// VC and switch allocation in the same cycle (a head may win both at once).
    pub speculative: bool,
    pub vc_allocator: VcAllocator,
    pub sw_allocator: SwAllocator,
    /// BookSim's crossbar (router/xbar.rs): crossbar inputs per input port (an input's VCs
    /// interleaved over them, `vc % input_speedup`), crossbar outputs per output port (the
    /// input ports interleaved, `input % output_speedup`), and switch steps per cycle (a
    /// fraction accumulates, as BookSim's `_partial_internal_cycles`).
    pub input_speedup: usize,
    pub output_speedup: usize,
    pub internal_speedup: f64,
    /// Flits a router's output buffer holds before the switch stops granting that output;
    /// -1: unbounded (BookSim's default). The buffers fill only with a speedup.
    pub output_buffer_size: i64,
    /// A switch connection won by a head is held until its tail (or until the input VC
    /// runs dry or out of credits), BookSim's `hold_switch_for_packet`.
    pub hold_switch_for_packet: bool,
    /// Latency of a router-to-router channel in cycles. Unset on `topology = torus` with
    /// `use_noc_latency = 1` (BookSim's default), the channels take 2 cycles, as BookSim's
    /// k-ary n-cube gives them (see [`FlitConfig::link_latency`]).
    pub channel_latency: u32,
    /// BookSim's `use_noc_latency`: on a torus, channels are 2 cycles long (folded layout).
    pub use_noc_latency: bool,
    #[serde(skip)]
    pub channel_latency_set: bool,
    /// Channel latency per link class, and BookSim's flatfly floor plan (link_latency.rs).
    pub link_lat: LatencyKeys,
    /// `topology = anynet`: BookSim's network listing file, and the folder of the
    /// configuration file it may be relative to.
    pub network_file: String,
    #[serde(skip)]
    pub config_dir: String,
    /// Read from a BookSim file: `routing_function` must be given (BookSim's default,
    /// `none`, names no routing function).
    #[serde(skip)]
    pub routing_required: bool,
    #[serde(skip)]
    pub routing_set: bool,
    /// Latency of the injection channel (NI -> router) and ejection channel (router -> NI).
    pub injection_latency: u32,
    pub ejection_latency: u32,
    /// Cycles between a flit reaching its NI and the NI retiring it (1 makes zero-load
    /// latency equal BookSim 2's printed figures; see docs/flit.md).
    pub ni_read_delay: u32,
    /// Switch replication of worms frees input-buffer slots in chunks of this many flits
    /// (seed 003 s5.1.2); 1: flit by flit.
    pub chunk_flits: usize,
    pub traffic: Pattern,
    /// BookSim's `injection_process`: `bernoulli` or `on_off`, with the on/off process's
    /// `burst_alpha`, `burst_beta` and `burst_r1` (traffic/injection.rs).
    pub injection_process: InjectionSpec,
    pub burst_alpha: f64,
    pub burst_beta: f64,
    pub burst_r1: f64,
    /// Seed of `traffic = randperm`'s permutation (BookSim's `perm_seed`).
    pub perm_seed: i64,
    pub packet_size: usize,
    pub injection_rate: f64,
    pub injection_rate_uses_flits: bool,
    pub sim_type: SimType,
    pub sample_period: u64,
    pub warmup_periods: u32,
    pub max_samples: u32,
    pub latency_thres: f64,
    pub warmup_thres: f64,
    pub stopping_thres: f64,
    pub acc_stopping_thres: f64,
    pub batch_size: u64,
    pub sim_cycles: u64,
    pub warmup_cycles: u64,
    pub seed: u64,
    /// Cycles without any flit moving, while flits are in flight, before declaring deadlock.
    pub deadlock_cycles: u64,
    /// Hard limit on simulated cycles: a run never goes beyond it.
    pub max_cycles: u64,
    /// Destinations per multicast (`traffic = multicast`).
    pub multicast_dests: usize,
    pub multicast_scheme: McScheme,
    /// Packets per multicast message (`packet_size` flits each) under the schedule schemes.
    pub multicast_packets: u32,
    /// Iterations of the iterative allocators (`islip`, `pim`, `select`), BookSim's
    /// `alloc_iters` (>= 1).
    pub alloc_iters: u32,
    /// Iterations named by the allocator's value (`islip(2)`, BookSim's syntax), else 0:
    /// `alloc_iters` applies (see [`FlitConfig::vc_iters`]).
    pub vc_alloc_iters: u32,
    pub sw_alloc_iters: u32,
    /// Threads one run uses (par.rs); 0: every core for networks of at least
    /// `par::AUTO_MIN_ROUTERS` routers, one otherwise. The figures are the same for every
    /// thread count.
    pub threads: usize,
    /// Traffic classes, request/reply traffic and priorities (classes.rs).
    pub tc: TrafficClasses,
}

impl Default for FlitConfig {
    fn default() -> Self {
        FlitConfig {
            topology: "mesh".into(),
            k: 8,
            n: 2,
            c: 0,
            route_set: Default::default(),
            netcoll_topology: String::new(),
            routing: RoutingKind::Dor,
            dateline: true,
            torus_routing: TorusRouting::Booksim,
            num_vcs: 4,
            vc_buf_size: 8,
            flow_control: FlowControl::Wormhole,
            routing_delay: 1,
            vc_alloc_delay: 1,
            sw_alloc_delay: 1,
            st_final_delay: 1,
            credit_delay: 0,
            wait_for_tail_credit: false,
            speculative: false,
            vc_allocator: VcAllocator::Islip,
            sw_allocator: SwAllocator::Islip,
            input_speedup: 1,
            output_speedup: 1,
            internal_speedup: 1.0,
            output_buffer_size: -1,
            hold_switch_for_packet: false,
            channel_latency: 1,
            use_noc_latency: true,
            channel_latency_set: false,
            link_lat: Default::default(),
            network_file: String::new(),
            config_dir: String::new(),
            routing_required: false,
            routing_set: false,
            injection_latency: 1,
            ejection_latency: 1,
            ni_read_delay: 1,
            chunk_flits: 1,
            traffic: Pattern::Uniform,
            injection_process: InjectionSpec::Bernoulli,
            burst_alpha: 0.5,
            burst_beta: 0.5,
            burst_r1: -1.0,
            perm_seed: 0,
            packet_size: 1,
            injection_rate: 0.1,
            injection_rate_uses_flits: false,
            sim_type: SimType::Latency,
            sample_period: 1000,
            warmup_periods: 3,
            max_samples: 10,
            latency_thres: 500.0,
            warmup_thres: 0.05,
            stopping_thres: 0.05,
            acc_stopping_thres: 0.05,
            batch_size: 100,
            sim_cycles: 10_000,
            warmup_cycles: 1000,
            seed: 0,
            deadlock_cycles: 1000,
            max_cycles: 10_000_000,
            multicast_dests: 3,
            multicast_scheme: McScheme::Tree,
            multicast_packets: 1,
            alloc_iters: 1,
            vc_alloc_iters: 0,
            sw_alloc_iters: 0,
            threads: 0,
            tc: TrafficClasses::default(),
        }
    }
}

/// Every key [`FlitConfig::set`] accepts: netcoll's ([`netcoll_keys`]) and BookSim's own.
pub fn all_keys() -> Vec<&'static str> {
    netcoll_keys()
        .chain(CLASS_KEYS.iter().copied())
        .chain(booksim_only_keys())
        .collect()
}

/// netcoll's keys: [`KEYS`], then the channel latencies' and BookSim's floor plan's
/// ([`LatencyKeys::KEYS`], listed once there).
pub fn netcoll_keys() -> impl Iterator<Item = &'static str> {
    KEYS.iter().chain(&LatencyKeys::KEYS).copied()
}

/// netcoll's keys (each a field of [`FlitConfig`]) but the latency keys, for error messages
/// and the CLI.
pub const KEYS: &[&str] = &[
    "topology",
    "k",
    "n",
    "c",
    "netcoll_topology",
    "routing_function",
    "route_set",
    "dateline",
    "torus_routing",
    "num_vcs",
    "vc_buf_size",
    "flow_control",
    "routing_delay",
    "vc_alloc_delay",
    "sw_alloc_delay",
    "st_final_delay",
    "credit_delay",
    "wait_for_tail_credit",
    "speculative",
    "channel_latency",
    "use_noc_latency",
    "network_file",
    "injection_latency",
    "ejection_latency",
    "ni_read_delay",
    "chunk_flits",
    "traffic",
    "injection_process",
    "burst_alpha",
    "burst_beta",
    "burst_r1",
    "perm_seed",
    "packet_size",
    "injection_rate",
    "injection_rate_uses_flits",
    "sim_type",
    "sample_period",
    "warmup_periods",
    "max_samples",
    "latency_thres",
    "warmup_thres",
    "stopping_thres",
    "acc_stopping_thres",
    "batch_size",
    "sim_cycles",
    "warmup_cycles",
    "seed",
    "threads",
    "deadlock_cycles",
    "max_cycles",
    "sw_allocator",
    "vc_allocator",
    "alloc_iters",
    "input_speedup",
    "output_speedup",
    "internal_speedup",
    "output_buffer_size",
    "hold_switch_for_packet",
    "multicast_dests",
    "multicast_scheme",
    "multicast_packets",
];

impl FlitConfig {
    /// Iterations of the VC allocator: its value's argument (`islip(2)`), else
    /// `alloc_iters`.
    pub fn vc_iters(&self) -> u32 {
        if self.vc_alloc_iters > 0 {
            self.vc_alloc_iters
        } else {
            self.alloc_iters
        }
    }

    /// Iterations of the switch allocator, as [`FlitConfig::vc_iters`].
    pub fn sw_iters(&self) -> u32 {
        if self.sw_alloc_iters > 0 {
            self.sw_alloc_iters
        } else {
            self.alloc_iters
        }
    }
}

/// The largest input or output speedup (crossbar ports per router port).
pub const MAX_SPEEDUP: usize = 64;

/// The largest internal speedup (switch steps per cycle).
pub const MAX_INTERNAL_SPEEDUP: f64 = 16.0;

/// The most threads one run may ask for.
pub const MAX_THREADS: usize = 1024;

impl FlitConfig {
    /// The network this config describes.
    pub fn build_topology(&self) -> Result<Topology> {
        if self.routing_required && !self.routing_set {
            return spec_err!(
                "routing_function is not set: BookSim's default, none, names no routing \
                 function; set routing_function = dim_order (mesh, torus) or min (anynet)"
            );
        }
        if !self.netcoll_topology.is_empty() && self.topology != "netcoll" {
            return spec_err!(
                "netcoll_topology = {} needs topology = netcoll (topology is {})",
                self.netcoll_topology,
                self.topology
            );
        }
        let spec = match self.topology.as_str() {
            "mesh" | "torus" => {
                if self.k < 2 || self.n < 1 {
                    return spec_err!("k = {}, n = {}: need k >= 2 and n >= 1", self.k, self.n);
                }
                // k^n routers: a count past u64 is refused here, before the spec string is
                // built (n copies of k), and the topology builder's memory guard does the rest.
                let routers = u32::try_from(self.n)
                    .ok()
                    .and_then(|n| (self.k as u64).checked_pow(n));
                if routers.is_none() {
                    return spec_err!(
                        "k = {}, n = {}: k^n routers is beyond any machine; lower n",
                        self.k,
                        self.n
                    );
                }
                let dims = vec![self.k.to_string(); self.n].join("x");
                // BookSim's k-ary n-cube has one node per router; c > 1 is netcoll's
                // concentrated mesh or torus (`mesh:8x8,c=4`).
                match self.c {
                    0 | 1 => format!("{}:{dims}", self.topology),
                    c => format!("{}:{dims},c={c}", self.topology),
                }
            }
            "cmesh" => self.cmesh_spec()?,
            "fly" => format!("fly:k={},n={}", self.k, self.n),
            // BookSim's network families: fattree (k, n), flatfly (k, n, c), dragonflynew (k
            // = p, with a = 2p routers per group and h = p global links, n = 1).
            "fattree" => format!("fattree:k={},levels={}", self.k, self.n),
            "flatfly" if self.c == 0 => {
                return spec_err!("topology = flatfly needs c = CONCENTRATION (as c = 4)")
            }
            "flatfly" => format!("flatfly:k={},n={},c={}", self.k, self.n, self.c),
            "dragonflynew" if self.n != 1 => {
                return spec_err!("topology = dragonflynew needs n = 1, as BookSim asserts")
            }
            "dragonflynew" => format!("dragonfly:p={0},a={1},h={0}", self.k, 2 * self.k),
            "netcoll" if self.netcoll_topology.is_empty() => {
                return spec_err!("topology = netcoll needs netcoll_topology = SPEC (as mesh:8x8)")
            }
            "netcoll" => self.netcoll_topology.clone(),
            "anynet" => {
                let path = super::anynet::resolve(&self.network_file, &self.config_dir)?;
                return super::anynet::load(&path);
            }
            o => {
                return spec_err!(
                    "topology = {o} is not supported: use mesh, torus, cmesh, fly, fattree, \
                     flatfly, dragonflynew, anynet (with network_file), or netcoll with \
                     netcoll_topology = SPEC"
                )
            }
        };
        Topology::from_spec(&spec)
    }

    /// `topology = cmesh`'s spec, after BookSim's own checks of its keys (its cmesh.cpp
    /// asserts them): n = 2, c = 4 = xr * yr, x = y, xr = yr; and x = k, since BookSim
    /// builds k x k routers whatever x says (a key that changed nothing would be ignored).
    fn cmesh_spec(&self) -> Result<String> {
        let l = &self.link_lat;
        let [x, y, xr, yr] = [l.x, l.y, l.xr, l.yr];
        let c = if self.c == 0 { 1 } else { self.c };
        if self.n != 2 || c != 4 {
            return spec_err!(
                "topology = cmesh: n = {}, c = {c}; BookSim's cmesh is built for n = 2 and c = 4 \
                 (for other concentrations use topology = netcoll, netcoll_topology = \
                 mesh:KxK,c=C)",
                self.n
            );
        }
        if x != y || xr != yr || xr * yr != c {
            return spec_err!(
                "topology = cmesh: x = {x}, y = {y}, xr = {xr}, yr = {yr}; BookSim's cmesh needs \
                 x = y, xr = yr and xr * yr = c (4: xr = yr = 2)"
            );
        }
        if x != self.k {
            return spec_err!(
                "topology = cmesh: x = {x} but k = {}; BookSim builds k x k routers and reads x \
                 for nothing else: set x = y = k",
                self.k
            );
        }
        Ok(format!("cmesh:k={}", self.k))
    }

    /// BookSim's defaults for the keys whose netcoll default differs (a configuration read
    /// from a BookSim file starts here): a torus, 16 VCs, batches of 1000 packets, and a
    /// routing function that must be named.
    pub fn booksim() -> FlitConfig {
        FlitConfig {
            topology: "torus".into(),
            num_vcs: 16,
            batch_size: 1000,
            routing_required: true,
            ..FlitConfig::default()
        }
    }

    /// Router-to-router channel latency: `channel_latency` when set; else BookSim's k-ary
    /// n-cube rule (`use_noc_latency`: 2 cycles on a torus, 1 on a mesh) and its cmesh rule
    /// (2 cycles, a router's block being 2 nodes wide; the express links take k, given them
    /// by link_latency.rs).
    pub fn link_latency(&self) -> u32 {
        let noc_2 = matches!(self.topology.as_str(), "torus" | "cmesh");
        if !self.channel_latency_set && self.use_noc_latency && noc_2 {
            2
        } else {
            self.channel_latency
        }
    }

    /// Multicast-generation probability per node per cycle under `traffic = multicast`: the
    /// offered rate is seed 003's *effective applied load* `m * B_i` (s6.2), so a node starts
    /// a multicast with probability `B_i = packet_rate / m`.
    /// A message of the schedule schemes has `multicast_packets` packets, so then
    /// `B_i = packet_rate / (m * multicast_packets)`.
    pub fn multicast_rate(&self) -> f64 {
        self.packet_rate() / (self.multicast_dests.max(1) as f64 * self.multicast_packets as f64)
    }

    /// The longest packet this configuration's traffic generates, in flits (every class's
    /// size, and the request and reply sizes under `use_read_write`).
    pub fn longest_packet(&self) -> usize {
        let plain = (0..self.tc.classes.max(1))
            .map(|c| self.class_size(c))
            .max()
            .unwrap_or(self.packet_size);
        if self.tc.use_read_write {
            plain.max(self.tc.sizes_rw.into_iter().max().unwrap_or(1))
        } else {
            plain
        }
    }

    /// Packet-generation probability per node per cycle.
    pub fn packet_rate(&self) -> f64 {
        if self.injection_rate_uses_flits {
            self.injection_rate / self.packet_size as f64
        } else {
            self.injection_rate
        }
    }
}
