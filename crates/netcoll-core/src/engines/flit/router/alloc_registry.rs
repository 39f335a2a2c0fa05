//! The VC and switch allocators by BookSim's `vc_allocator` / `sw_allocator` names, as
//! BookSim's allocator factory (`Allocator::NewAllocator`) keys them. BookSim's own
//! allocators are one file each in router/alloc/ (mod.rs lists them); the router stages
//! run them on a request matrix (vc_alloc.rs, sw_alloc.rs), and the default `islip` also
//! on faster paths (vc_masks.rs, mask_router.rs) that give the same matchings.
//! Adding an allocator: its file in router/alloc/, its variant, one line here.

use super::alloc::Kind;
use super::config::{SwAllocator, VcAllocator};
use super::registry::Registry;
use crate::error::Result;
use crate::spec_err;

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

/// Splits an allocator value as BookSim's factory does, `name` or `name(argument)`: the
/// iterative allocators (`islip`, `pim`, `select`) take their iteration count (1 to 1024;
/// returned, else 0), the separable ones their arbiter type (only `round_robin`), the
/// others nothing (BookSim would ignore an argument; netcoll refuses it).
pub fn allocator_value<'a>(key: &str, v: &'a str) -> Result<(&'a str, u32)> {
    let Some(open) = v.find('(') else {
        return Ok((v, 0));
    };
    let name = v[..open].trim();
    let arg = v[open + 1..]
        .trim_end()
        .strip_suffix(')')
        .unwrap_or(&v[open + 1..])
        .trim();
    match name {
        "islip" | "pim" | "select" => match arg.parse::<u32>() {
            Ok(n) if (1..=1024).contains(&n) => Ok((name, n)),
            _ => spec_err!(
                "{key} = {v}: the iterations of {name}(N) are out of range: N from 1 to 1024"
            ),
        },
        "separable_input_first" | "separable_output_first" => match arg {
            "round_robin" => Ok((name, 0)),
            _ => spec_err!(
                "{key} = {v}: arbiter type {arg} is not supported: only round_robin \
                 (BookSim's matrix and tree arbiters are not implemented)"
            ),
        },
        _ => spec_err!(
            "{key} = {v}: {name} takes no argument in parentheses (only islip, pim and \
             select take an iteration count)"
        ),
    }
}
