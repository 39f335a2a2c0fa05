//! Per-router tables of the fat-tree's and the dragonfly's minimal next hops, so that the
//! flit engine's per-packet routing (adaptive.rs) costs a load or two per routed head instead
//! of the family routing's divisions and neighbour look-up. They hold exactly the ports of
//! `crate::routing`'s family routing (routing/minimal.rs), which the tests check on random
//! instances (family_hops_tests.rs).
//!
//! - Fat-tree: a router at depth `d` (0 the top level) sees an aligned block of `k^(L-1-d)`
//!   leaves below it; a destination leaf inside the block goes down by its base-`k` digit at
//!   that depth, one outside goes up. Per router: the block and the first up port; per leaf
//!   and depth: the down port. Both are O(routers), far below the network's per-port state.
//! - Dragonfly: per router, the port towards each other group (and copy of the parallel
//!   global links), then towards each router of its own group: O(routers x groups), built
//!   only when it stays within [`MAX_DRAGONFLY_ENTRIES`] (the fast path's predicate);
//!   larger networks route by `dragonfly_port`'s index arithmetic.

use crate::params::{DragonflyParams, FatTreeParams};
use crate::routing::{dragonfly_exit, dragonfly_local_port};

/// Entries of the largest dragonfly table built (a byte each: 8 MB, below the memory
/// guard's smallest refusal). Every balanced dragonfly up to a = 16, h = 8 (2,064 routers)
/// fits; the 16,416-router a = 32, h = 16 does not and routes by arithmetic.
pub(crate) const MAX_DRAGONFLY_ENTRIES: usize = 1 << 23;

/// A fat-tree router's view: the leaves below it (`lo..lo + span`), its first up port and
/// its depth.
#[derive(Debug, Clone, Copy)]
struct FatTreeRow {
    lo: u32,
    span: u32,
    up_base: u32,
    depth: u32,
}

/// The fat-tree's nearest-common-ancestor hops (BookSim's `nca`, `anca`).
#[derive(Debug, Clone)]
pub(crate) struct FatTreeHops {
    /// Index of the first leaf router.
    leaf_base: u32,
    levels: u32,
    rows: Vec<FatTreeRow>,
    /// `down[leaf * levels + depth]`: the down port towards `leaf` of a router at `depth`
    /// above it (unused at the leaf's own depth).
    down: Vec<u32>,
}

impl FatTreeHops {
    pub(crate) fn of(p: &FatTreeParams) -> FatTreeHops {
        let (k, levels, per_level) = (p.k, p.levels, p.per_level());
        let span_at = |depth: usize| k.pow((levels - 1 - depth) as u32);
        let rows = (0..levels * per_level)
            .map(|r| {
                let (depth, pos) = (r / per_level, r % per_level);
                let span = span_at(depth);
                FatTreeRow {
                    lo: (pos / span * span) as u32,
                    span: span as u32,
                    up_base: if depth == levels - 1 {
                        p.leaf_endpoints()
                    } else {
                        k
                    } as u32,
                    depth: depth as u32,
                }
            })
            .collect();
        let down = (0..per_level)
            .flat_map(|leaf| {
                (0..levels).map(move |depth| {
                    let span = span_at(depth);
                    (if span >= k {
                        leaf % span / (span / k)
                    } else {
                        0
                    }) as u32
                })
            })
            .collect();
        FatTreeHops {
            leaf_base: ((levels - 1) * per_level) as u32,
            levels: levels as u32,
            rows,
            down,
        }
    }

    /// From router `at` towards leaf router `dest` (`at != dest`): `Ok(down port)` when the
    /// leaf lies below, else `Err(first up port)` (the caller draws one of the `k`).
    #[inline]
    pub(crate) fn hop(&self, at: usize, dest: usize) -> Result<u32, u32> {
        debug_assert_ne!(at, dest, "not at the destination router");
        let row = self.rows[at];
        let leaf = dest as u32 - self.leaf_base;
        if leaf.wrapping_sub(row.lo) < row.span {
            Ok(self.down[(leaf * self.levels + row.depth) as usize])
        } else {
            Err(row.up_base)
        }
    }
}

/// Marks the own-group entry of a dragonfly row (the hop is in the row's in-group part).
const OWN_GROUP: u8 = u8::MAX;

/// The dragonfly's minimal hops (l-g-l, BookSim's `dragonfly_port`).
#[derive(Debug, Clone)]
pub(crate) struct DragonflyHops {
    /// Per destination router: its column in a row (group, and which of the parallel global
    /// links between two groups its index picks, as routing/minimal.rs does) shifted past
    /// its index in its group (low 8 bits).
    dest: Vec<u32>,
    /// Entries per router: `g * copies` towards the groups, then `a` in its own group.
    stride: usize,
    own: usize,
    first_global: u32,
    /// One byte a port: a router's row stays within a few cache lines.
    ports: Vec<u8>,
}

impl DragonflyHops {
    /// The table, or None when it would pass [`MAX_DRAGONFLY_ENTRIES`] or a port would not
    /// fit its byte (radix 255 and up).
    pub(crate) fn of(p: &DragonflyParams) -> Option<DragonflyHops> {
        let copies = p.multiplicity();
        let own = p.g * copies;
        let stride = own + p.a;
        let entries = p.routers().checked_mul(stride)?;
        if entries > MAX_DRAGONFLY_ENTRIES || p.radix() >= OWN_GROUP as usize {
            return None;
        }
        let mut ports = Vec::with_capacity(entries);
        for at in 0..p.routers() {
            let (group, r) = (at / p.a, at % p.a);
            for dest_group in 0..p.g {
                for copy in 0..copies {
                    ports.push(if dest_group == group {
                        OWN_GROUP
                    } else {
                        dragonfly_exit(p, group, r, dest_group, copy).0 as u8
                    });
                }
            }
            ports.extend((0..p.a).map(|to| {
                if to == r {
                    OWN_GROUP
                } else {
                    dragonfly_local_port(p, r, to) as u8
                }
            }));
        }
        let dest = (0..p.routers())
            .map(|to| (((to / p.a * copies + to % copies) << 8) | (to % p.a)) as u32)
            .collect();
        Some(DragonflyHops {
            dest,
            stride,
            own,
            first_global: p.first_global_port() as u32,
            ports,
        })
    }

    /// From router `at` towards router `to`: (local port, over a global link). Without a
    /// branch on the way: the group's entry and the in-group one are both read and one
    /// selected (whether the target lies in the own group follows no pattern). `at == to`
    /// gives a port of no meaning, so that a caller may select the ejection afterwards
    /// instead of branching before (`dragonfly_min_step`).
    #[inline(always)]
    pub(crate) fn hop(&self, at: usize, to: usize) -> (u32, bool) {
        let dest = self.dest[to] as usize;
        let row = &self.ports[at * self.stride..(at + 1) * self.stride];
        let (group, local) = (row[dest >> 8], row[self.own + (dest & 0xff)]);
        let port = if group == OWN_GROUP { local } else { group } as u32;
        (port, port >= self.first_global)
    }
}
