//! The cycle-accurate flit engine: input-queued virtual-channel routers with BookSim 2's
//! pipeline (routing, VC allocation, switch allocation, switch traversal, credit delay),
//! wormhole or virtual cut-through flow control, network interfaces with source queues,
//! synthetic traffic and BookSim's measurement modes. See docs/flit.md for the model, every
//! default, and what matches BookSim.
//!
//! One concern per file: `config` (fields and defaults; `config_keys` reads a key, `config_check`
//! validates), `network` (flat state; `wiring` where each port leads; `buffers` the input buffers: arrivals and the bit sets of occupied and waiting VCs), `router` (routing and switch traversal), `vc_alloc` /
//! `sw_alloc` (BookSim's iSLIP allocators and netcoll's earlier ones; `vc_masks` the iSLIP VC
//! allocator on bit masks, `va_state` its masks and scratch), `mask_router` (the router stages'
//! common case on router-local masks, `mask_routes` its inline routing, `mask_state` its switch and scratch), `torus` (BookSim's torus
//! DOR), `allocator` (round-robin arbiters), `channel` (links and credits as a timing wheel), `ni`
//! (injection and ejection), `traffic` (patterns, Bernoulli injection), `stats` (histograms),
//! `deadlock` (wait-for cycles), `sim` (measurement; `gen_wheel` the nodes' next generation
//! cycles), `par` (threads: partitions and the two-phase cycle), `crew` (the partitions' threads
//! and their exchange), `schedule` and `exec/` (the schedule executor: `exec/mod.rs` an instance's
//! ops and events, `exec/build.rs` its messages as network packets and tags, `exec/ni_model.rs`
//! packets through the sending and receiving NIs, `exec/barrier.rs` the step barrier).

mod allocator;
mod anynet;
mod booksim_keys;
mod buffers;
pub mod cfgfile;
mod channel;
pub mod config;
mod config_check;
mod config_enums;
mod config_keys;
mod config_values;
mod crew;
pub mod deadlock;
mod dest_draw;
mod exec;
mod footprint;
mod gen_wheel;
mod geometric;
mod mask_router;
mod mask_routes;
mod mask_state;
pub mod mcload;
pub mod multicast;
mod network;
mod ni;
mod par;
mod params;
mod partition;
pub mod replicate;
mod result;
mod router;
pub mod schedule;
pub mod sim;
pub mod stats;
pub mod steplat;
mod sw_alloc;
mod tail_credit;
mod torus;
mod traffic;
mod types;
mod va_state;
mod vc_alloc;
mod vc_masks;
mod vclass;
mod wiring;
mod worm_table;
mod worms;

pub use config::{
    FlitConfig, FlowControl, McScheme, Pattern, SimType, SwAllocator, TorusRouting, VcAllocator,
};
pub use deadlock::{Deadlock, WaitLink};
pub use params::{booksim_settings, parse_settings, ScheduleParams};
pub use schedule::{run_schedule, ScheduleResult};
pub use sim::{simulate_on, simulate_on_with, simulate_traffic, simulate_traffic_with, FlitResult};
pub use steplat::StepLatency;

#[cfg(test)]
mod alloc_tests;
#[cfg(test)]
mod packetise_tests;
#[cfg(test)]
mod schedule_tests;
#[cfg(test)]
mod steplat_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_booksim;
#[cfg(test)]
mod tests_credits;
#[cfg(test)]
mod tests_mask_router;
#[cfg(test)]
mod tests_multicast;
#[cfg(test)]
mod tests_threads;
#[cfg(test)]
mod tests_worms;
