//! The VC and switch allocators by BookSim's `vc_allocator` / `sw_allocator` names, as
//! BookSim's allocator factory (`Allocator::NewAllocator`) keys them. BookSim's own
//! allocators are one file each in router/alloc/ (mod.rs lists them); the router stages
//! run them on a request matrix (vc_alloc.rs, sw_alloc.rs), and the default `islip` also
//! on faster paths (vc_masks.rs, mask_router.rs) that give the same matchings.
//! Adding an allocator: its file in router/alloc/, its variant, one line here.

use super::alloc::Kind;
use super::config::{SwAllocator, VcAllocator};
use super::registry::Registry;

pub const VC_ALLOCATORS: Registry<VcAllocator> = Registry {
    key: "vc_allocator",
    entries: &[
        ("islip", VcAllocator::Islip),
        ("separable_input_first", VcAllocator::SeparableInputFirst),
        ("separable_output_first", VcAllocator::SeparableOutputFirst),
        ("wavefront", VcAllocator::Wavefront),
        ("rr_wavefront", VcAllocator::RrWavefront),
        ("select", VcAllocator::Select),
        ("max_size", VcAllocator::MaxSize),
        ("pim", VcAllocator::Pim),
        ("loa", VcAllocator::Loa),
        ("greedy", VcAllocator::Greedy),
    ],
};

pub const SW_ALLOCATORS: Registry<SwAllocator> = Registry {
    key: "sw_allocator",
    entries: &[
        ("islip", SwAllocator::Islip),
        ("separable_input_first", SwAllocator::SeparableInputFirst),
        ("separable_output_first", SwAllocator::SeparableOutputFirst),
        ("wavefront", SwAllocator::Wavefront),
        ("rr_wavefront", SwAllocator::RrWavefront),
        ("select", SwAllocator::Select),
        ("max_size", SwAllocator::MaxSize),
        ("pim", SwAllocator::Pim),
        ("loa", SwAllocator::Loa),
    ],
};

/// The BookSim allocator a `vc_allocator` runs (None: netcoll's `greedy`).
pub(super) fn vc_kind(a: VcAllocator) -> Option<Kind> {
    Some(match a {
        VcAllocator::Islip => Kind::Islip,
        VcAllocator::SeparableInputFirst => Kind::SeparableInputFirst,
        VcAllocator::SeparableOutputFirst => Kind::SeparableOutputFirst,
        VcAllocator::Wavefront => Kind::Wavefront { skip_diags: false },
        VcAllocator::RrWavefront => Kind::Wavefront { skip_diags: true },
        VcAllocator::Select => Kind::Select,
        VcAllocator::MaxSize => Kind::MaxSize,
        VcAllocator::Pim => Kind::Pim,
        VcAllocator::Loa => Kind::Loa,
        VcAllocator::Greedy => return None,
    })
}

/// The BookSim allocator a `sw_allocator` runs.
pub(super) fn sw_kind(a: SwAllocator) -> Kind {
    match a {
        SwAllocator::Islip => Kind::Islip,
        SwAllocator::SeparableInputFirst => Kind::SeparableInputFirst,
        SwAllocator::SeparableOutputFirst => Kind::SeparableOutputFirst,
        SwAllocator::Wavefront => Kind::Wavefront { skip_diags: false },
        SwAllocator::RrWavefront => Kind::Wavefront { skip_diags: true },
        SwAllocator::Select => Kind::Select,
        SwAllocator::MaxSize => Kind::MaxSize,
        SwAllocator::Pim => Kind::Pim,
        SwAllocator::Loa => Kind::Loa,
    }
}
