//! What a flit network will allocate, estimated before `Network::new` allocates it, so the
//! memory guard refuses a network of 10^6 routers or an injection latency of 2^31 cycles (a
//! timing wheel of 2^31 buckets) with one line instead of an abort.

use super::channel::HopDelays;
use super::mask_state::{HELD_WORDS, MAX_EP_ROUTES};
use super::source_queue::FIFO_BYTES;
use super::va_state::REQ_WORDS;
use super::FlitConfig;
use crate::routing::RoutingKind;
use crate::topology::Topology;

/// Bytes per flit slot of the input buffers.
const FLIT_BYTES: u64 = 16;
/// Per (port, VC): the record of its input and output VC (`types::Vc`, a cache line) and
/// the VC allocator's pointers.
const VC_STATE_BYTES: u64 = 64 + 8;
/// Per port: wiring, round-robin pointers, occupancy, masks (and the switch allocator's
/// holders by output port, router/sw_held.rs: up to `HELD_WORDS` words; the VC allocator's
/// requesters by output port, router/va_grouped.rs: `REQ_WORDS` words).
const PORT_BYTES: u64 = 48 + 8 * (HELD_WORDS + REQ_WORDS) as u64;
/// Per timing-wheel slot (`channel::Due`: three empty `Vec`s).
const BUCKET_BYTES: u64 = 72;
/// Per router: the allocators' words and draw counters (router/alloc/mod.rs, `Book`).
const ALLOC_ROUTER_BYTES: u64 = 16;
/// Per endpoint: network interface and counters, traffic state (its source queue's head
/// is `FIFO_BYTES` more; the queued packets' blocks grow with the queue, as the packet
/// table grows with the packets in flight).
const ENDPOINT_BYTES: u64 = 256;

/// Estimated bytes of the network state for `topo` under `cfg`.
pub fn flit_footprint(topo: &Topology, cfg: &FlitConfig) -> u64 {
    let ports = topo.total_ports() as u64;
    let (nv, depth) = (cfg.num_vcs as u64, cfg.vc_buf_size as u64);
    let max_delay = HopDelays::new(cfg).longest();
    let wheel = (max_delay + 1).next_power_of_two() * BUCKET_BYTES;
    let switches = topo.num_switches() as u64;
    // Minimal routing keeps one next-hop table per destination once traffic has used it.
    let tables = if cfg.routing == RoutingKind::Shortest {
        switches * switches * 4
    } else {
        0
    };
    // The mask router's endpoint route table (mask_routes.rs), when it is small enough.
    let routes = switches.saturating_mul(topo.num_endpoints() as u64);
    let ep_routes = if routes <= MAX_EP_ROUTES as u64 {
        routes * 4
    } else {
        0
    };
    ports
        .saturating_mul(nv)
        .saturating_mul(depth * FLIT_BYTES + VC_STATE_BYTES)
        + ports * PORT_BYTES
        + switches * ALLOC_ROUTER_BYTES
        + topo.num_endpoints() as u64 * (ENDPOINT_BYTES + FIFO_BYTES)
        + wheel
        + tables
        + ep_routes
}
