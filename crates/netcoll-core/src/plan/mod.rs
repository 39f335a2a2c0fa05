//! Planning: the layer above algorithms and engines that chooses and combines them. The tuner
//! ranks every applicable algorithm by an engine's time; workloads built from algorithms for an
//! engine (the multicast load's schedules) live here too, so engines only ever consume schedules.

pub mod figures;
pub mod multicast_load;
pub mod pipeline;
pub mod schedule;
pub mod tune;
