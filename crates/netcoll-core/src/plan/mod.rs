//! Planning: the layer above the algorithms and the engines that turns requests into
//! workloads (schedules built by algorithms) for the engines to run. Engines only consume
//! schedules; anything that picks or calls an algorithm lives here.

pub mod multicast_load;
