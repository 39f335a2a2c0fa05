//! The value types of the traffic-class keys (classes.rs reads and checks them): the
//! priority modes, the packet kinds of request/reply traffic, and the keys' record in
//! `FlitConfig` (apart from classes.rs so that config.rs holds it without importing the
//! reader).

use super::config_enums::Pattern;
use crate::error::Result;
use crate::spec_err;
use serde::Serialize;

/// BookSim's `priority`: what a flit's priority is, which decides between VCs of one input
/// bidding for the same output in switch allocation, between classes at the NI, and is the
/// output-side priority of every allocator request (`Network::vc_pri`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Priority {
    /// Every flit 0 (BookSim's default).
    #[default]
    None,
    /// The packet's class priority (`class_priority`).
    Class,
    /// Older packets first: from the packet's creation cycle.
    Age,
    /// Older flits first: from the cycle the flit left its NI.
    NetworkAge,
    /// Older flits first: from the cycle the flit entered the VC it is in.
    LocalAge,
    /// Fuller VCs first: the flits the VC holds.
    QueueLength,
    /// Flits that made more hops first.
    HopCount,
    /// A source's earlier packets first: from its packet sequence number.
    Sequence,
}

impl Priority {
    const NAMES: &'static [(&'static str, Priority)] = &[
        ("none", Priority::None),
        ("class", Priority::Class),
        ("age", Priority::Age),
        ("network_age", Priority::NetworkAge),
        ("local_age", Priority::LocalAge),
        ("queue_length", Priority::QueueLength),
        ("hop_count", Priority::HopCount),
        ("sequence", Priority::Sequence),
    ];

    pub(super) fn parse(v: &str) -> Result<Priority> {
        match Self::NAMES.iter().find(|(n, _)| *n == v) {
            Some(&(_, p)) => Ok(p),
            None => {
                let names: Vec<&str> = Self::NAMES.iter().map(|n| n.0).collect();
                spec_err!("priority = {v}: use {} (BookSim's names)", names.join(", "))
            }
        }
    }
}

/// The four packet kinds of `use_read_write = 1` (BookSim's flit types), in the order of
/// [`TrafficClasses::vc_ranges`]; plain packets are [`KIND_ANY`].
pub const KIND_ANY: u8 = 0;
pub const READ_REQUEST: u8 = 1;
pub const WRITE_REQUEST: u8 = 2;
pub const READ_REPLY: u8 = 3;
pub const WRITE_REPLY: u8 = 4;
pub(super) const KIND_NAMES: [&str; 4] =
    ["read_request", "write_request", "read_reply", "write_reply"];

/// The class keys of a configuration (a field of [`FlitConfig`]).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TrafficClasses {
    /// BookSim's `classes`.
    pub classes: usize,
    /// Per-class values given as `{a,b,...}`; empty: the scalar key serves every class.
    pub rates: Vec<f64>,
    pub sizes: Vec<usize>,
    pub traffic: Vec<Pattern>,
    /// `class_priority`: one value for every class, or (`class_priorities`) one per class.
    pub class_priority: i64,
    pub class_priorities: Vec<i64>,
    pub priority: Priority,
    pub use_read_write: bool,
    pub write_fraction: f64,
    /// Flits of a read request, write request, read reply, write reply.
    pub sizes_rw: [usize; 4],
    /// BookSim's `*_begin_vc` / `*_end_vc` (inclusive) per kind, in `KIND_NAMES` order;
    /// a negative value takes BookSim's rule (begin 0 / `num_vcs / 2`, end `num_vcs / 2 - 1`
    /// / `num_vcs - 1`).
    pub vc_ranges: [(i64, i64); 4],
    /// Batch mode: requests (packets) a node may have outstanding; 0: no limit.
    pub max_outstanding_requests: u64,
}

impl Default for TrafficClasses {
    fn default() -> Self {
        TrafficClasses {
            classes: 1,
            rates: Vec::new(),
            sizes: Vec::new(),
            traffic: Vec::new(),
            class_priority: 0,
            class_priorities: Vec::new(),
            priority: Priority::None,
            use_read_write: false,
            write_fraction: 0.5,
            sizes_rw: [1; 4],
            // BookSim 2's defaults (booksim_config.cpp), which need 16 VCs.
            vc_ranges: [(0, 5), (2, 7), (8, 13), (10, 15)],
            max_outstanding_requests: 0,
        }
    }
}

/// The keys this module reads (for the key listing).
pub const CLASS_KEYS: &[&str] = &[
    "classes",
    "class_priority",
    "priority",
    "use_read_write",
    "write_fraction",
    "read_request_size",
    "write_request_size",
    "read_reply_size",
    "write_reply_size",
    "read_request_begin_vc",
    "read_request_end_vc",
    "write_request_begin_vc",
    "write_request_end_vc",
    "read_reply_begin_vc",
    "read_reply_end_vc",
    "write_reply_begin_vc",
    "write_reply_end_vc",
    "max_outstanding_requests",
];
