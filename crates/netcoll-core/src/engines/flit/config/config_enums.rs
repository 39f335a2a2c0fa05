//! The named choices of the configuration (flow control, traffic pattern, multicast scheme,
//! allocators, torus routing, measurement mode).

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

/// Synthetic traffic patterns over endpoint ids, BookSim's `traffic.cpp` patterns by its
/// names (traffic/patterns.rs gives each one's destination rule and node-count rule).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Pattern {
    /// Destination uniform over all nodes, the source included (as BookSim's `uniform`).
    Uniform,
    /// Uniform over the nodes not listed (`background({1,2})`).
    Background(Vec<usize>),
    /// Swap the high and low halves of the node address bits (power-of-two node counts).
    Transpose,
    /// Complement every address bit (power-of-two node counts).
    Bitcomp,
    /// Reverse the address bits (power-of-two node counts).
    Bitrev,
    /// Rotate the address bits left by one (power-of-two node counts).
    Shuffle,
    /// +1 in every radix-(xr k) digit, wrapping (BookSim's `neighbor`).
    Neighbor(DigitArgs),
    /// +(ceil(xr k / 2) - 1) in every radix-(xr k) digit, wrapping (BookSim's `tornado`).
    Tornado(DigitArgs),
    /// A random node of the column of the source's row (BookSim's `badperm_yarc`).
    BadpermYarc(DigitArgs),
    /// A random node of the next dragonfly group (BookSim's `bad_dragon`).
    BadDragon(DigitArgs),
    /// BookSim's random permutation for this seed (None: `perm_seed`).
    Randperm(Option<i64>),
    /// The next node with probability 1/3, else the source itself.
    Diagonal,
    /// The source's place in the lower half of the nodes, in either half at random.
    Asymmetric,
    /// 64 nodes: half the packets to the 3x3 square around the source (wrapping), half uniform.
    Taper64,
    /// The listed hot-spot nodes, each with its weight (`hotspot({{0,63},{1,3}})`); a
    /// negative node is a node drawn at random when the run starts.
    Hotspot { nodes: Vec<i64>, rates: Vec<u32> },
    /// m-way multicasts (`multicast_dests`, `multicast_scheme`; seed 003 s6.2, multicast.rs):
    /// `m` destinations uniform over the nodes without the source.
    Multicast,
}

/// The digits of a digit pattern as its arguments give them (`tornado(k,n,xr)`); those not
/// given are the config's `k`, `n` and `xr`, as BookSim takes them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct DigitArgs {
    pub k: Option<usize>,
    pub n: Option<usize>,
    pub xr: Option<usize>,
}

/// The `injection_process` value as written (traffic/injection.rs reads it and runs the
/// process; parameters not given come from the `burst_*` keys when the run starts, as
/// BookSim reads them).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum InjectionSpec {
    Bernoulli,
    /// `on_off` with the parameters its parentheses give (alpha, beta, r1), in order.
    OnOff(Vec<f64>),
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
    /// BookSim 2's `separable_input_first`: input arbiters first, then output arbiters.
    SeparableInputFirst,
    /// BookSim 2's other allocators (router/alloc/).
    SeparableOutputFirst,
    Wavefront,
    RrWavefront,
    Select,
    MaxSize,
    Pim,
    Loa,
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
    /// BookSim 2's `separable_input_first`: each input port picks an output (round-robin
    /// arbiter), each output port grants one of the inputs that picked it.
    SeparableInputFirst,
    /// BookSim 2's other allocators (router/alloc/).
    SeparableOutputFirst,
    Wavefront,
    RrWavefront,
    Select,
    MaxSize,
    Pim,
    Loa,
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
    /// BookSim's throughput mode: as `Latency`, but warm-up and convergence look at the
    /// accepted rate alone, `latency_thres` never aborts, and at the end injection stops
    /// and the measured packets drain (measure/throughput.rs).
    Throughput,
}

impl SimType {
    /// Measured in sample periods as BookSim's `_SingleSim` (latency, throughput): a
    /// period counts the packets of the warm-up and the measured ones only.
    pub fn samples_periods(self) -> bool {
        matches!(self, SimType::Latency | SimType::Throughput)
    }
}
