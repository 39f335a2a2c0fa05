//! Simulation parameters. Keys and defaults follow BookSim 2's names (`num_vcs`,
//! `vc_buf_size`, `routing_delay`, ...) so a BookSim configuration file maps onto this struct
//! key by key; [`FlitConfig::set`] is the one place that knows every key.

use crate::error::Result;
use crate::routing::RoutingKind;
use crate::spec_err;
use crate::topology::Topology;
use serde::Serialize;

/// Wormhole or virtual cut-through flow control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FlowControl {
    /// A head flit takes an output VC as soon as it is free; a packet may span routers.
    Wormhole,
    /// A head flit takes an output VC only when the downstream buffer holds the whole packet.
    CutThrough,
}

/// Synthetic traffic patterns over endpoint ids.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Pattern {
    /// Destination uniform over all nodes, the source included (as BookSim's `uniform`).
    Uniform,
    /// Swap the high and low halves of the node address bits (power-of-two node counts).
    Transpose,
    /// Complement every address bit (power-of-two node counts).
    Bitcomp,
    /// +1 in every dimension of the shape, wrapping (BookSim's `neighbor`).
    Neighbor,
    /// Uniform over the listed hot-spot nodes.
    Hotspot(Vec<usize>),
    /// m-way multicasts (`multicast_dests`, `multicast_scheme`; seed 003 s6.2, multicast.rs):
    /// `m` destinations uniform over the nodes without the source.
    Multicast,
}

/// How a multicast of `traffic = multicast` travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum McScheme {
    /// The source NI sends `m` unicast copies, one after another.
    Unicast,
    /// One multidestination worm replicated at the switches along the routing's paths.
    Tree,
    /// Seed 003's three schemes with their software overheads (mcload.rs): every multicast
    /// runs the schedule of the multicast algorithm of that name (the NI-based FPFS
    /// k-binomial tree, the multi-phase path-based worms, the single tree-based worm) on
    /// the schedule runner's host/NI model (`t_hs`, `t_ns`, `t_hr`, `t_nr`, `io_bus_mb_s`,
    /// `ni_serial`, ...; `ni_fpfs` is on for `ni-kbinomial`).
    #[serde(rename = "ni-kbinomial")]
    NiKbinomial,
    #[serde(rename = "worm-path")]
    WormPath,
    #[serde(rename = "worm-tree")]
    WormTree,
}

impl McScheme {
    /// The multicast algorithm whose schedule a multicast of this scheme runs (None: the
    /// network-level schemes of multicast.rs).
    pub fn plan_algorithm(self) -> Option<&'static str> {
        match self {
            McScheme::Unicast | McScheme::Tree => None,
            McScheme::NiKbinomial => Some("ni-kbinomial"),
            McScheme::WormPath => Some("worm-path"),
            McScheme::WormTree => Some("worm-tree"),
        }
    }
}

/// The VC allocator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VcAllocator {
    /// BookSim 2's default: separable iSLIP over (input VC, output VC) requests, one
    /// iteration; every free output VC of the route's class is requested.
    Islip,
    /// netcoll's earlier allocator: input VCs visited round-robin, each takes the next free
    /// output VC of its class (a maximal greedy matching; loses less to conflicts).
    Greedy,
}

/// Dimension-order routing on a torus (see torus.rs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TorusRouting {
    /// BookSim 2's `dim_order_torus`: random tie direction, VC class fixed per dimension by
    /// whether the path wraps.
    Booksim,
    /// `crate::routing`'s DOR: ties go +, class 0 until the dateline crossing, then 1.
    Dateline,
}

/// The switch allocator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SwAllocator {
    /// BookSim 2's default: iSLIP over ports, one iteration; an input port requests every
    /// output its ready VCs want (per output the VC nearest its round-robin offset).
    Islip,
    /// netcoll's earlier allocator: each input port puts one VC forward (round-robin), each
    /// output port grants one input (round-robin).
    SeparableInputFirst,
}

/// How a run is measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SimType {
    /// BookSim's latency mode: warm-up, sample periods until convergence, drain.
    Latency,
    /// Every node generates `batch_size` packets; run until all are delivered.
    Batch,
    /// Run exactly `sim_cycles` cycles, measuring everything after `warmup_cycles`.
    Fixed,
}

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
    /// Latency of a router-to-router channel in cycles.
    pub channel_latency: u32,
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
        }
    }
}

/// Every key [`FlitConfig::set`] accepts, for error messages and the CLI.
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
    "deadlock_cycles",
    "max_cycles",
    "sw_allocator",
    "vc_allocator",
    "alloc_iters",
    "multicast_dests",
    "multicast_scheme",
    "multicast_packets",
];

fn num<T: std::str::FromStr>(key: &str, v: &str) -> Result<T> {
    v.trim()
        .parse()
        .map_err(|_| crate::error::Error::Spec(format!("{key} = {v}: expected a number")))
}

fn flag(key: &str, v: &str) -> Result<bool> {
    match v.trim() {
        "0" | "false" => Ok(false),
        "1" | "true" => Ok(true),
        _ => spec_err!("{key} = {v}: expected 0 or 1"),
    }
}

fn unquote(v: &str) -> &str {
    v.trim().trim_matches('"').trim_matches('\'')
}

fn parse_list(key: &str, v: &str) -> Result<Vec<usize>> {
    let inner = v.trim().trim_start_matches('{').trim_end_matches('}');
    inner
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| num(key, s))
        .collect()
}

fn parse_pattern(v: &str) -> Result<Pattern> {
    let v = unquote(v);
    if let Some(rest) = v.strip_prefix("hotspot(") {
        let list = rest.trim_end_matches(')');
        let nodes = parse_list("traffic", list)?;
        if nodes.is_empty() {
            return spec_err!(
                "traffic = {v}: hotspot needs at least one node, as hotspot({{0,5}})"
            );
        }
        return Ok(Pattern::Hotspot(nodes));
    }
    Ok(match v {
        "uniform" => Pattern::Uniform,
        "transpose" => Pattern::Transpose,
        "bitcomp" => Pattern::Bitcomp,
        "neighbor" | "neighbour" => Pattern::Neighbor,
        "multicast" => Pattern::Multicast,
        _ => {
            return spec_err!(
                "traffic = {v} is not supported: use uniform, transpose, bitcomp, neighbor, multicast or hotspot({{nodes}})"
            )
        }
    })
}

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
            "channel_latency" => self.channel_latency = num(key, v)?,
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
            "seed" => self.seed = num(key, v)?,
            "deadlock_cycles" => self.deadlock_cycles = num(key, v)?,
            "max_cycles" => self.max_cycles = num(key, v)?,
            "vc_allocator" => {
                self.vc_allocator = match unquote(v) {
                    "islip" => VcAllocator::Islip,
                    "greedy" => VcAllocator::Greedy,
                    o => {
                        return spec_err!(
                            "vc_allocator = {o} is not supported: use islip or greedy"
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
            _ => {
                return spec_err!(
                    "unsupported key '{key}': netcoll's flit engine knows {}",
                    KEYS.join(", ")
                )
            }
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
        let spec = match self.topology.as_str() {
            "mesh" | "torus" => {
                if self.k < 2 || self.n < 1 {
                    return spec_err!("k = {}, n = {}: need k >= 2 and n >= 1", self.k, self.n);
                }
                let dims = vec![self.k.to_string(); self.n].join("x");
                format!("{}:{dims}", self.topology)
            }
            "netcoll" => self.netcoll_topology.clone(),
            o => {
                return spec_err!(
                    "topology = {o} is not supported: use mesh, torus, or netcoll with netcoll_topology = SPEC"
                )
            }
        };
        Topology::from_spec(&spec)
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
        Ok(())
    }
}
