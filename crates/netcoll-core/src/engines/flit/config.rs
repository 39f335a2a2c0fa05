//! Simulation parameters. Keys and defaults follow BookSim 2's names (`num_vcs`,
//! `vc_buf_size`, `routing_delay`, ...) so a BookSim configuration file maps onto this struct
//! key by key; [`FlitConfig::set`] is the one place that knows every key.

use super::booksim_keys::{booksim_only, booksim_only_keys, BooksimOnly};
pub use super::config_enums::{
    FlowControl, McScheme, Pattern, SimType, SwAllocator, TorusRouting, VcAllocator,
};
use super::config_values::{flag, num, parse_pattern, unquote};
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
    /// VC and switch allocation in the same cycle (a head may win both at once).
    pub speculative: bool,
    pub vc_allocator: VcAllocator,
    pub sw_allocator: SwAllocator,
    /// Latency of a router-to-router channel in cycles. Unset on `topology = torus` with
    /// `use_noc_latency = 1` (BookSim's default), the channels take 2 cycles, as BookSim's
    /// k-ary n-cube gives them (see [`FlitConfig::link_latency`]).
    pub channel_latency: u32,
    /// BookSim's `use_noc_latency`: on a torus, channels are 2 cycles long (folded layout).
    pub use_noc_latency: bool,
    #[serde(skip)]
    pub channel_latency_set: bool,
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
    /// Threads one run uses (par.rs); 0: every core for networks of at least
    /// `par::AUTO_MIN_ROUTERS` routers, one otherwise. The figures are the same for every
    /// thread count.
    pub threads: usize,
}

impl Default for FlitConfig {
    fn default() -> Self {
        FlitConfig {
            topology: "mesh".into(),
            k: 8,
            n: 2,
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
            speculative: false,
            vc_allocator: VcAllocator::Islip,
            sw_allocator: SwAllocator::Islip,
            channel_latency: 1,
            use_noc_latency: true,
            channel_latency_set: false,
            network_file: String::new(),
            config_dir: String::new(),
            routing_required: false,
            routing_set: false,
            injection_latency: 1,
            ejection_latency: 1,
            ni_read_delay: 1,
            chunk_flits: 1,
            traffic: Pattern::Uniform,
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
            threads: 0,
        }
    }
}

/// Every key [`FlitConfig::set`] accepts: netcoll's ([`KEYS`]) and BookSim's own.
pub fn all_keys() -> Vec<&'static str> {
    KEYS.iter().copied().chain(booksim_only_keys()).collect()
}

/// The delays a flit's traversal schedules its events with (a copy, so the router can
/// schedule while it holds `&mut` to the network).
#[derive(Debug, Clone, Copy)]
pub struct Delays {
    pub credit_delay: u32,
    pub injection_latency: u32,
    pub channel_latency: u32,
    pub sw_alloc_delay: u32,
    pub st_final_delay: u32,
    pub ejection_latency: u32,
    pub ni_read_delay: u32,
}

impl FlitConfig {
    #[inline]
    pub fn delays(&self) -> Delays {
        Delays {
            credit_delay: self.credit_delay,
            injection_latency: self.injection_latency,
            channel_latency: self.channel_latency,
            sw_alloc_delay: self.sw_alloc_delay,
            st_final_delay: self.st_final_delay,
            ejection_latency: self.ejection_latency,
            ni_read_delay: self.ni_read_delay,
        }
    }
}

/// The most threads one run may ask for.
pub const MAX_THREADS: usize = 1024;

/// netcoll's keys (each a field of [`FlitConfig`]), for error messages and the CLI.
pub const KEYS: &[&str] = &[
    "topology",
    "k",
    "n",
    "netcoll_topology",
    "routing_function",
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
    "speculative",
    "channel_latency",
    "use_noc_latency",
    "network_file",
    "injection_latency",
    "ejection_latency",
    "ni_read_delay",
    "chunk_flits",
    "traffic",
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
    "multicast_dests",
    "multicast_scheme",
    "multicast_packets",
];

impl FlitConfig {
    /// Sets one key from its text value as written in a BookSim configuration file.
    pub fn set(&mut self, key: &str, value: &str) -> Result<()> {
        let v = value.trim();
        match key {
            "topology" => self.topology = unquote(v).to_string(),
            "k" => self.k = num(key, v)?,
            "n" => self.n = num(key, v)?,
            "netcoll_topology" => self.netcoll_topology = unquote(v).to_string(),
            "routing_function" => {
                self.routing_set = true;
                self.routing = match unquote(v) {
                    "dor" | "dim_order" | "dim_order_mesh" | "dim_order_torus" | "dim_order_ni" => {
                        RoutingKind::Dor
                    }
                    "min" | "shortest" => RoutingKind::Shortest,
                    "updown" | "up_down" => RoutingKind::UpDown,
                    other => {
                        return spec_err!(
                        "routing_function = {other} is not supported: use dim_order, min or updown"
                    )
                    }
                }
            }
            "dateline" => self.dateline = flag(key, v)?,
            "torus_routing" => {
                self.torus_routing = match unquote(v) {
                    "booksim" => TorusRouting::Booksim,
                    "dateline" => TorusRouting::Dateline,
                    o => return spec_err!("torus_routing = {o}: use booksim or dateline"),
                }
            }
            "num_vcs" => self.num_vcs = num(key, v)?,
            "vc_buf_size" => self.vc_buf_size = num(key, v)?,
            "flow_control" => {
                self.flow_control = match unquote(v) {
                    "wormhole" => FlowControl::Wormhole,
                    "vct" | "cut_through" | "virtual_cut_through" => FlowControl::CutThrough,
                    o => return spec_err!("flow_control = {o}: use wormhole or vct"),
                }
            }
            "routing_delay" => self.routing_delay = num(key, v)?,
            "vc_alloc_delay" => self.vc_alloc_delay = num(key, v)?,
            "sw_alloc_delay" => self.sw_alloc_delay = num(key, v)?,
            "st_final_delay" => self.st_final_delay = num(key, v)?,
            "credit_delay" => self.credit_delay = num(key, v)?,
            "speculative" => self.speculative = flag(key, v)?,
            "channel_latency" => {
                self.channel_latency = num(key, v)?;
                self.channel_latency_set = true;
            }
            "use_noc_latency" => self.use_noc_latency = flag(key, v)?,
            "network_file" => self.network_file = unquote(v).to_string(),
            "injection_latency" => self.injection_latency = num(key, v)?,
            "ejection_latency" => self.ejection_latency = num(key, v)?,
            "ni_read_delay" => self.ni_read_delay = num(key, v)?,
            "chunk_flits" => self.chunk_flits = num(key, v)?,
            "traffic" => self.traffic = parse_pattern(v)?,
            "packet_size" => self.packet_size = num(key, v)?,
            "injection_rate" => self.injection_rate = num(key, v)?,
            "injection_rate_uses_flits" => self.injection_rate_uses_flits = flag(key, v)?,
            "sim_type" => {
                self.sim_type = match unquote(v) {
                    "latency" => SimType::Latency,
                    "batch" => SimType::Batch,
                    "fixed" => SimType::Fixed,
                    "throughput" => {
                        return spec_err!(
                            "sim_type = throughput is not supported: use latency (BookSim's \
                             default), batch or fixed"
                        )
                    }
                    o => return spec_err!("sim_type = {o}: use latency, batch or fixed"),
                }
            }
            "sample_period" => self.sample_period = num(key, v)?,
            "warmup_periods" => self.warmup_periods = num(key, v)?,
            "max_samples" => self.max_samples = num(key, v)?,
            "latency_thres" => self.latency_thres = num(key, v)?,
            "warmup_thres" => self.warmup_thres = num(key, v)?,
            "stopping_thres" => self.stopping_thres = num(key, v)?,
            "acc_stopping_thres" => self.acc_stopping_thres = num(key, v)?,
            "batch_size" => self.batch_size = num(key, v)?,
            "sim_cycles" => self.sim_cycles = num(key, v)?,
            "warmup_cycles" => self.warmup_cycles = num(key, v)?,
            "seed" if v == "time" => {
                return spec_err!(
                    "seed = time is refused: netcoll runs are reproducible, give a number"
                )
            }
            "seed" => self.seed = num(key, v)?,
            "threads" => self.threads = num(key, v)?,
            "deadlock_cycles" => self.deadlock_cycles = num(key, v)?,
            "max_cycles" => self.max_cycles = num(key, v)?,
            "vc_allocator" => {
                self.vc_allocator = match unquote(v) {
                    "islip" => VcAllocator::Islip,
                    "greedy" => VcAllocator::Greedy,
                    "separable_input_first" => VcAllocator::SeparableInputFirst,
                    o => {
                        return spec_err!(
                            "vc_allocator = {o} is not supported: use islip, \
                             separable_input_first or greedy"
                        )
                    }
                }
            }
            "sw_allocator" => {
                self.sw_allocator = match unquote(v) {
                    "islip" => SwAllocator::Islip,
                    "separable_input_first" => SwAllocator::SeparableInputFirst,
                    o => {
                        return spec_err!(
                        "sw_allocator = {o} is not supported: use islip or separable_input_first"
                    )
                    }
                }
            }
            "multicast_dests" => self.multicast_dests = num(key, v)?,
            "multicast_scheme" => {
                self.multicast_scheme = match unquote(v) {
                    "unicast" | "ni" => McScheme::Unicast,
                    "tree" => McScheme::Tree,
                    "ni-kbinomial" => McScheme::NiKbinomial,
                    "worm-path" => McScheme::WormPath,
                    "worm-tree" => McScheme::WormTree,
                    o => {
                        return spec_err!(
                            "multicast_scheme = {o}: use unicast or tree (network only), or \
                             ni-kbinomial, worm-path or worm-tree (with host/NI overheads)"
                        )
                    }
                }
            }
            "multicast_packets" => self.multicast_packets = num(key, v)?,
            "alloc_iters" => {
                if num::<u32>(key, v)? != 1 {
                    return spec_err!("alloc_iters = {v} is not supported: only 1 iteration");
                }
            }
            _ => match booksim_only(key, v, self.warmup_thres)? {
                BooksimOnly::Accepted => {}
                BooksimOnly::Means(k, v) => self.set(k, v)?,
                BooksimOnly::Unknown => {
                    return spec_err!(
                        "unsupported key '{key}': netcoll's flit engine knows {} and BookSim's \
                         own keys (docs/flit.md)",
                        KEYS.join(", ")
                    )
                }
            },
        }
        Ok(())
    }

    /// Builds a config from (key, value) pairs over the defaults.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Self> {
        let mut c = FlitConfig::default();
        for (k, v) in pairs {
            c.set(k, v)?;
        }
        Ok(c)
    }

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
                let dims = vec![self.k.to_string(); self.n].join("x");
                format!("{}:{dims}", self.topology)
            }
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
                    "topology = {o} is not supported: use mesh, torus, anynet (with \
                     network_file), or netcoll with netcoll_topology = SPEC"
                )
            }
        };
        Topology::from_spec(&spec)
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
    /// n-cube rule (`use_noc_latency`: 2 cycles on a torus, 1 on a mesh).
    pub fn link_latency(&self) -> u32 {
        if !self.channel_latency_set && self.use_noc_latency && self.topology == "torus" {
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

    /// Packet-generation probability per node per cycle.
    pub fn packet_rate(&self) -> f64 {
        if self.injection_rate_uses_flits {
            self.injection_rate / self.packet_size as f64
        } else {
            self.injection_rate
        }
    }

    /// Checks ranges that the engine relies on.
    pub fn validate(&self) -> Result<()> {
        if self.num_vcs == 0 || self.num_vcs > 64 {
            return spec_err!("num_vcs = {}: use 1..=64", self.num_vcs);
        }
        if self.vc_buf_size == 0 || self.vc_buf_size > 4096 {
            return spec_err!("vc_buf_size = {}: use 1..=4096", self.vc_buf_size);
        }
        if self.packet_size == 0 || self.packet_size > 65535 {
            return spec_err!("packet_size = {}: use 1..=65535", self.packet_size);
        }
        if self.flow_control == FlowControl::CutThrough && self.packet_size > self.vc_buf_size {
            return spec_err!(
                "virtual cut-through needs packet_size ({}) <= vc_buf_size ({})",
                self.packet_size,
                self.vc_buf_size
            );
        }
        let p = self.packet_rate();
        if self.traffic == Pattern::Multicast {
            if self.multicast_dests == 0 {
                return spec_err!("multicast_dests = 0: a multicast needs at least 1 destination");
            }
            if self.multicast_packets == 0
                || (self.multicast_packets > 1 && self.multicast_scheme.plan_algorithm().is_none())
            {
                return spec_err!(
                    "multicast_packets = {}: use 1..; more than 1 only with multicast_scheme = \
                     ni-kbinomial, worm-path or worm-tree",
                    self.multicast_packets
                );
            }
            let b = self.multicast_rate();
            if !(0.0..=1.0).contains(&b) || b.is_nan() {
                return spec_err!(
                    "injection_rate = {}: gives {b} multicasts per node per cycle \
                     (effective applied load / multicast_dests); use 0..=1",
                    self.injection_rate
                );
            }
        } else if !(0.0..=1.0).contains(&p) || p.is_nan() {
            return spec_err!(
                "injection_rate = {}: gives {p} packets per node per cycle; use 0..=1",
                self.injection_rate
            );
        }
        if self.channel_latency == 0 || self.injection_latency == 0 || self.ejection_latency == 0 {
            return spec_err!("channel, injection and ejection latencies must be at least 1 cycle");
        }
        if self.threads > MAX_THREADS {
            return spec_err!(
                "threads = {}: use 0 (automatic) to {MAX_THREADS}",
                self.threads
            );
        }
        if self.chunk_flits == 0 || self.chunk_flits > 65535 {
            return spec_err!("chunk_flits = {}: use 1..=65535", self.chunk_flits);
        }
        if self.sample_period == 0 || self.max_samples == 0 {
            return spec_err!("sample_period and max_samples must be at least 1");
        }
        let delays = [
            self.routing_delay,
            self.vc_alloc_delay,
            self.sw_alloc_delay,
            self.st_final_delay,
            self.credit_delay,
            self.channel_latency,
            self.ni_read_delay,
        ];
        if delays.iter().any(|&d| d > 1000) {
            return spec_err!("pipeline delays and latencies must be at most 1000 cycles");
        }
        if self.deadlock_cycles == 0 {
            return spec_err!("deadlock_cycles must be at least 1");
        }
        self.validate_measurement()
    }

    /// Refuses runs that would measure nothing.
    fn validate_measurement(&self) -> Result<()> {
        if self.max_cycles == 0 {
            return spec_err!("max_cycles = 0: a run needs at least one cycle");
        }
        for (key, x) in [
            ("latency_thres", self.latency_thres),
            ("warmup_thres", self.warmup_thres),
            ("stopping_thres", self.stopping_thres),
            ("acc_stopping_thres", self.acc_stopping_thres),
        ] {
            if x.is_nan() {
                return spec_err!("{key} = nan: give a number");
            }
        }
        match self.sim_type {
            SimType::Batch if self.batch_size == 0 => {
                spec_err!("batch_size = 0: a batch run needs at least one packet per node")
            }
            SimType::Batch if self.packet_rate() == 0.0 => {
                spec_err!("injection_rate = 0 with sim_type = batch: the batch would never be sent")
            }
            SimType::Fixed if self.sim_cycles == 0 => {
                spec_err!(
                    "sim_cycles = 0: sim_type = fixed measures sim_cycles cycles; use 1 or more"
                )
            }
            _ => Ok(()),
        }
    }
}
