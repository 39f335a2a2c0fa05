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
}
