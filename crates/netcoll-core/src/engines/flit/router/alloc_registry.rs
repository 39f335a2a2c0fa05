//! The VC and switch allocators by BookSim's `vc_allocator` / `sw_allocator` names, as
//! BookSim's allocator factory keys them (vc_alloc.rs and sw_alloc.rs implement them).
//! Adding an allocator: its variant and code in vc_alloc.rs / sw_alloc.rs, one line here.

use super::config::{SwAllocator, VcAllocator};
use super::registry::Registry;

pub const VC_ALLOCATORS: Registry<VcAllocator> = Registry {
    key: "vc_allocator",
    entries: &[
        ("islip", VcAllocator::Islip),
        ("separable_input_first", VcAllocator::SeparableInputFirst),
        ("greedy", VcAllocator::Greedy),
    ],
};

pub const SW_ALLOCATORS: Registry<SwAllocator> = Registry {
    key: "sw_allocator",
    entries: &[
        ("islip", SwAllocator::Islip),
        ("separable_input_first", SwAllocator::SeparableInputFirst),
    ],
};
