//! The cycle-accurate flit engine: input-queued virtual-channel routers with BookSim 2's
//! pipeline (routing, VC allocation, switch allocation, switch traversal, credit delay),
//! wormhole or virtual cut-through flow control, network interfaces with source queues,
//! synthetic traffic and BookSim's measurement modes. See docs/flit.md for the model, every
//! default, and what matches BookSim.
//!
//! The files are grouped by concern into folders; each file stays one module of this one
//! (declared below with `// config/
#[path = "config/booksim_keys.rs"]
mod booksim_keys;
#[path = "config/cfgfile.rs"]
pub mod cfgfile;
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
#[path = "config/params.rs"]
mod params;

// router/
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
#[path = "router/types.rs"]
mod types;
#[path = "router/va_state.rs"]
mod va_state;
#[path = "router/vc_alloc.rs"]
mod vc_alloc;
#[path = "router/vc_masks.rs"]
mod vc_masks;
#[path = "router/vclass.rs"]
mod vclass;

// routing/
#[path = "routing/mask_routes.rs"]
mod mask_routes;
#[path = "routing/torus.rs"]
mod torus;

// network/
#[path = "network/anynet.rs"]
mod anynet;
#[path = "network/channel.rs"]
mod channel;
#[path = "network/network.rs"]
mod network;
#[path = "network/partition.rs"]
mod partition;
#[path = "network/wiring.rs"]
mod wiring;

// traffic/
#[path = "traffic/dest_draw.rs"]
mod dest_draw;
#[path = "traffic/gen_wheel.rs"]
mod gen_wheel;
#[path = "traffic/geometric.rs"]
mod geometric;
#[path = "traffic/mcload.rs"]
pub mod mcload;
#[path = "traffic/multicast.rs"]
pub mod multicast;
#[path = "traffic/ni.rs"]
mod ni;
#[path = "traffic/replicate.rs"]
pub mod replicate;
#[path = "traffic/traffic.rs"]
mod traffic;
#[path = "traffic/worm_table.rs"]
mod worm_table;
#[path = "traffic/worms.rs"]
mod worms;

// measure/
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
#[path = "router/tests_mask_router.rs"]
mod tests_mask_router;
#[cfg(test)]
#[path = "traffic/tests_multicast.rs"]
mod tests_multicast;
#[cfg(test)]
#[path = "threads/tests_threads.rs"]
mod tests_threads;
#[cfg(test)]
#[path = "traffic/tests_worms.rs"]
mod tests_worms;
