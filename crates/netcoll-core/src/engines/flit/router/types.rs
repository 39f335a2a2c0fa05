//! Plain values shared by the network state and the router stages: the "no index" marker,
//! the input VC pipeline states and the per-VC record.

use super::channel::Flit;

pub const NONE: u32 = u32::MAX;

/// Input VC pipeline states.
pub const IDLE: u8 = 0;
/// Routed; waiting for an output VC (from `ready` on).
pub const VC_WAIT: u8 = 1;
/// Holds an output VC; flits bid for the switch (from `ready` on).
pub const ACTIVE: u8 = 2;
/// A replicating worm (replicate.rs).
pub const REPL: u8 = 3;

/// Everything the router stages read and write about one input VC, in 32 bytes: a hop
/// touches the input VC's record (arrival, routing, allocation, traversal), not a dozen
/// arrays, and an 8x8 mesh's records (40 KiB) nearly fit a 32 KiB L1. The output side is
/// apart, dense: credits and owners (`Network::credits`, `Network::owner`), the iSLIP VC
/// allocator's pointers (`VaState::aptr`, `VaState::gptr`). The front flit is kept here,
/// so a VC holding one flit (most of them below saturation) never touches its ring buffer.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(32))]
pub struct Vc {
    /// Input side: the flit at the front (valid when `len > 0`).
    pub front: Flit,
    /// Low 32 bits of the cycle the front flit may bid for a VC or the switch (see
    /// [`Vc::ready_by`]).
    pub ready: u32,
    /// Global output port the front packet was routed to (NONE before routing).
    pub out_port: u32,
    /// Ring position of the second flit, and the flits held (front included).
    pub head: u16,
    pub len: u16,
    pub state: u8,
    /// The output VC held (ACTIVE), and the VC class the routing asked for.
    pub out_vc: u8,
    pub class: u8,
}

impl Vc {
    pub fn new() -> Vc {
        Vc {
            front: Flit::default(),
            ready: 0,
            out_port: NONE,
            head: 0,
            len: 0,
            state: IDLE,
            out_vc: 0,
            class: 0,
        }
    }

    /// The front flit may bid from cycle `at` on.
    #[inline(always)]
    pub fn set_ready(&mut self, at: u64) {
        self.ready = at as u32;
    }

    /// Whether the front flit may bid at cycle `now`: `ready` is compared by its wrapping
    /// difference with `now`, exact while the two lie less than 2^31 cycles apart. `ready`
    /// is set a few cycles ahead when a VC is routed or granted and looked at while the VC
    /// waits, and no VC waits 2^31 cycles without the deadlock watch ending the run.
    #[inline(always)]
    pub fn ready_by(&self, now: u64) -> bool {
        (now as u32).wrapping_sub(self.ready) as i32 >= 0
    }
}

/// A VC record fills half a cache line (two share one; none straddles two).
const _: () = assert!(std::mem::size_of::<Vc>() == 32);

/// Bit 0 of each byte of `x` to bit `k` of the result (byte `k`), when every byte is 0 or
/// 1: one multiply puts each byte's bit in the top byte, and no product carries into it.
/// Eight flags read as one word become an eight-bit mask without a branch (the NIs' free
/// VCs, `first_free`; a port's VCs folded to its bit, sw_held.rs).
#[inline(always)]
pub fn byte_flags_to_bits(x: u64) -> u64 {
    debug_assert!(x & !0x0101_0101_0101_0101 == 0, "bytes of 0 or 1");
    x.wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// Asks the CPU to bring the cache line of `x` in ahead of its use: on networks of thousands
/// of routers the VC records do not fit the caches, and the stages read them in an order the
/// hardware prefetcher cannot guess. A hint only: it changes no result.
#[inline(always)]
pub fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch neither reads nor writes memory as far as the program can observe
    // (it cannot fault), and `x` is a valid reference.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}
