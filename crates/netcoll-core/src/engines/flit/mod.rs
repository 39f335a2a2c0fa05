//! The cycle-accurate flit engine: input-queued virtual-channel routers with BookSim 2's
//! pipeline (routing, VC allocation, switch allocation, switch traversal, credit delay),
//! wormhole or virtual cut-through flow control, network interfaces with source queues,
//! synthetic traffic and BookSim's measurement modes. See docs/flit.md for the model, every
//! default, and what matches BookSim.
//!
//! The files are grouped by concern into folders; each file stays one module of this one
//! (declared below with `#[path]`, so a module's name does not depend on its folder):
//! - config/: BookSim's config grammar (cfgfile), the keys and their values (config*,
//!   booksim_keys, class_types), the schedule runner's parameters (params), the memory estimate
//!   (footprint), and the name registries (registry: `Registry`, `nearest`).
//! - router/: the router stages (router, mask_router with its allocators mask_islip and
//!   mask_separable, and mask_state for the bit-mask fast path, va_state), allocators (vc_alloc, vc_masks, va_ports, va_grouped, sw_alloc, sw_ports,
//!   sw_held, allocator), buffers, VC
//!   classes (vclass), the allocator registry (alloc_registry).
//! - routing/: route tables by router-local masks (mask_routes), BookSim's torus DOR (torus),
//!   its random and credit-read grid routings (grid_random: xy_yx, romm, valiant), the
//!   route sets of min_adapt and planar_adapt as VC masks (route_set_masks), the
//!   routing-function registry (routing_registry).
//! - network/: the network state (network), channels and their latencies (channel, wiring),
//!   BookSim anynet files (anynet), thread partitions (partition).
//! - traffic/: patterns and injection (traffic, patterns, randperm with knuth_rng,
//!   injection, dest_draw, geometric, gen_wheel), the pattern registry (pattern_registry),
//!   NIs (ni) and their source queues (source_queue), traffic classes, request/reply and priorities (classes, class_ni,
//!   class_queues), multicast (multicast, mcload,
//!   replicate), worms (worms, worm_table).
//! - measure/: the run loop and measurement modes (sim), statistics and results (stats,
//!   result, class_figures), deadlock reports (deadlock), per-step latency (steplat).
//! - threads/: the parallel cycle (par, crew).
//! - schedule/: the schedule executor (schedule, exec/).
//!
//! Tests sit beside what they test (`*_tests.rs`, `tests_*.rs`); tests.rs and
//! tests_booksim.rs cover the engine as a whole.

// config/
#[path = "config/booksim_keys.rs"]
mod booksim_keys;
#[path = "config/cfgfile.rs"]
pub mod cfgfile;
#[path = "config/class_types.rs"]
pub mod class_types;
#[path = "config/config.rs"]
pub mod config;
#[path = "config/config_check.rs"]
mod config_check;
#[path = "config/config_enums.rs"]
mod config_enums;
#[path = "config/config_keys.rs"]
mod config_keys;
#[path = "config/config_values.rs"]
mod config_values;
#[path = "config/footprint.rs"]
mod footprint;
#[path = "config/latency_keys.rs"]
mod latency_keys;
#[path = "config/params.rs"]
mod params;
#[path = "config/registry.rs"]
pub mod registry;

// router/
#[path = "router/alloc/mod.rs"]
mod alloc;
#[path = "router/alloc_registry.rs"]
pub mod alloc_registry;
#[path = "router/allocator.rs"]
mod allocator;
#[path = "router/buffers.rs"]
mod buffers;
#[path = "router/mask_router.rs"]
mod mask_router;
#[path = "router/mask_state.rs"]
mod mask_state;
#[path = "router/router.rs"]
mod router;
#[path = "router/sw_alloc.rs"]
mod sw_alloc;
#[path = "router/sw_held.rs"]
mod sw_held;
#[path = "router/sw_ports.rs"]
mod sw_ports;
#[path = "router/tail_credit.rs"]
mod tail_credit;
#[path = "router/types.rs"]
mod types;
#[path = "router/va_grouped.rs"]
mod va_grouped;
#[path = "router/va_ports.rs"]
mod va_ports;
#[path = "router/va_state.rs"]
mod va_state;
#[path = "router/vc_alloc.rs"]
mod vc_alloc;
#[path = "router/vc_masks.rs"]
mod vc_masks;
#[path = "router/vclass.rs"]
mod vclass;
#[path = "router/xbar.rs"]
mod xbar;
#[path = "router/xbar_credits.rs"]
mod xbar_credits;
#[path = "router/xbar_match.rs"]
mod xbar_match;
#[path = "router/xbar_out.rs"]
mod xbar_out;
#[path = "router/xbar_state.rs"]
mod xbar_state;

// routing/
#[path = "routing/adaptive.rs"]
mod adaptive;
#[path = "routing/adaptive_kind.rs"]
mod adaptive_kind;
#[path = "routing/grid_random.rs"]
mod grid_random;
#[path = "routing/mask_routes.rs"]
mod mask_routes;
#[path = "routing/route_set_masks.rs"]
mod route_set_masks;
#[path = "routing/routing_registry.rs"]
pub mod routing_registry;
#[path = "routing/torus.rs"]
mod torus;

// network/
#[path = "network/anynet.rs"]
mod anynet;
#[path = "network/channel.rs"]
mod channel;
#[path = "network/link_latency.rs"]
mod link_latency;
#[path = "network/network.rs"]
mod network;
#[path = "network/partition.rs"]
mod partition;
#[path = "network/wiring.rs"]
mod wiring;

// traffic/
#[path = "traffic/class_ni.rs"]
mod class_ni;
#[path = "traffic/class_queues.rs"]
mod class_queues;
#[path = "traffic/classes.rs"]
pub mod classes;
#[path = "traffic/dest_draw.rs"]
mod dest_draw;
#[path = "traffic/gen_wheel.rs"]
mod gen_wheel;
#[path = "traffic/geometric.rs"]
mod geometric;
#[path = "traffic/injection.rs"]
pub mod injection;
#[path = "traffic/knuth_rng.rs"]
mod knuth_rng;
#[path = "traffic/mcload.rs"]
pub mod mcload;
#[path = "traffic/multicast.rs"]
pub mod multicast;
#[path = "traffic/ni.rs"]
mod ni;
#[path = "traffic/pattern_registry.rs"]
pub mod pattern_registry;
#[path = "traffic/patterns.rs"]
mod patterns;
#[path = "traffic/randperm.rs"]
mod randperm;
#[path = "traffic/replicate.rs"]
pub mod replicate;
#[path = "traffic/source_queue.rs"]
mod source_queue;
#[path = "traffic/traffic.rs"]
mod traffic;
#[path = "traffic/worm_table.rs"]
mod worm_table;
#[path = "traffic/worms.rs"]
mod worms;

// measure/
#[path = "measure/class_figures.rs"]
mod class_figures;
#[path = "measure/deadlock.rs"]
pub mod deadlock;
#[path = "measure/result.rs"]
mod result;
#[path = "measure/sim.rs"]
pub mod sim;
#[path = "measure/stats.rs"]
pub mod stats;
#[path = "measure/steplat.rs"]
pub mod steplat;

// threads/
#[path = "threads/crew.rs"]
mod crew;
#[path = "threads/par.rs"]
mod par;

// schedule/
#[path = "schedule/exec/mod.rs"]
mod exec;
#[path = "schedule/schedule.rs"]
pub mod schedule;

pub use config::{
    FlitConfig, FlowControl, McScheme, Pattern, SimType, SwAllocator, TorusRouting, VcAllocator,
};
pub use deadlock::{Deadlock, WaitLink};
pub use params::{booksim_settings, parse_settings, ScheduleParams};
pub use schedule::{run_schedule, ScheduleResult};
pub use sim::{simulate_on, simulate_on_with, simulate_traffic, simulate_traffic_with, FlitResult};
pub use steplat::StepLatency;

#[cfg(test)]
#[path = "routing/adaptive_tests.rs"]
mod adaptive_tests;
#[cfg(test)]
#[path = "router/alloc_tests.rs"]
mod alloc_tests;
#[cfg(test)]
#[path = "schedule/packetise_tests.rs"]
mod packetise_tests;
#[cfg(test)]
#[path = "schedule/schedule_tests.rs"]
mod schedule_tests;
#[cfg(test)]
#[path = "measure/steplat_tests.rs"]
mod steplat_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_booksim;
#[cfg(test)]
#[path = "traffic/tests_classes.rs"]
mod tests_classes;
#[cfg(test)]
mod tests_credits;
#[cfg(test)]
#[path = "router/tests_mask_router.rs"]
mod tests_mask_router;
#[cfg(test)]
#[path = "traffic/tests_multicast.rs"]
mod tests_multicast;
#[cfg(test)]
#[path = "traffic/tests_patterns.rs"]
mod tests_patterns;
#[cfg(test)]
mod tests_routings;
#[cfg(test)]
mod tests_speedup;
#[cfg(test)]
#[path = "router/tests_sw_held.rs"]
mod tests_sw_held;
#[cfg(test)]
#[path = "router/tests_sw_ports.rs"]
mod tests_sw_ports;
#[cfg(test)]
#[path = "threads/tests_threads.rs"]
mod tests_threads;
#[cfg(test)]
#[path = "measure/tests_traffic_modes.rs"]
mod tests_traffic_modes;
#[cfg(test)]
#[path = "router/tests_va_grouped.rs"]
mod tests_va_grouped;
#[cfg(test)]
#[path = "traffic/tests_worms.rs"]
mod tests_worms;
