//! The state of the router stages' common-case path (mask_router.rs): its switch and its
//! scratch. Plain data, so that the network holds it without importing the stages.

/// Local VCs (and ports) a router on the mask path has at most.
pub const LOCAL: usize = 64;

/// Mask words of a router's input VCs (64 each) up to which the general stages keep the
/// VCs holding an output VC by output port (sw_held.rs; the footprint counts `HELD_WORDS`
/// words a port).
pub const HELD_WORDS: usize = 4;

/// Entries of the endpoint route table at most (4 bytes each: 4 MiB); larger networks
/// route by the router table (mask_routes.rs; the footprint estimate counts the table).
pub const MAX_EP_ROUTES: usize = 1 << 20;

/// The mask path's switch in a run, and its scratch.
pub struct MaskRouter {
    /// Off: every router runs the general stages (tests compare the two paths).
    pub enabled: bool,
    /// Per local output port: the eligible local input VCs that want it (switch allocation).
    pub by_out: [u64; LOCAL],
    /// Per local input port: the outputs that granted it (switch allocation).
    pub grants: [u64; LOCAL],
    /// The common configuration's routes (mask_routes.rs): per router and endpoint, the
    /// route table's entry towards the endpoint's router, or at that router the ejection
    /// (local port | `EJECT`, class `u8::MAX`); empty until built.
    pub ep_routes: Vec<u32>,
    /// The traversals one word of routers decided, in order: `router << 32 | global input
    /// port << 6 | VC`.
    pub sent: Vec<u64>,
    /// Every router's port count when all have the same, else 0; `usize::MAX` until found.
    pub uniform_ports: usize,
    /// The general stages' switch allocation on its fast paths (sw_alloc.rs: requests on
    /// masks, the round-robin allocators on port masks); off: requests VC by VC and the
    /// request matrix (tests compare the two).
    pub sa_fast: bool,
    /// Scratch of the switch requests on port masks (sw_ports.rs): the router's eligible
    /// input VCs (`wpr` words, local VC numbers: at most 64 ports of at most 64 VCs).
    pub sa_elig: [u64; LOCAL],
    /// The same by local output port (`wpr` words each; zero between routers, except in
    /// runs of the holders by port, sw_held.rs, which write every word they read).
    pub sa_vcs: Vec<u64>,
    /// Per local output port the input ports requesting it (the columns), per local input
    /// port the outputs it requests (the rows); zero between routers (as `sa_vcs`).
    pub sa_cols: [u64; LOCAL],
    pub sa_rows: [u64; LOCAL],
    /// The router's switch requests were built on port masks (else VC by VC).
    pub sa_on_masks: bool,
}

impl Default for MaskRouter {
    fn default() -> MaskRouter {
        MaskRouter {
            enabled: true,
            by_out: [0; LOCAL],
            grants: [0; LOCAL],
            ep_routes: Vec::new(),
            sent: Vec::new(),
            uniform_ports: usize::MAX,
            sa_fast: true,
            sa_elig: [0; LOCAL],
            sa_vcs: Vec::new(),
            sa_cols: [0; LOCAL],
            sa_rows: [0; LOCAL],
            sa_on_masks: false,
        }
    }
}
