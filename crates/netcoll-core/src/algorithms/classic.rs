//! The standard MPI algorithms (as in MPICH and Open MPI), for any number of ranks.

use super::{AlgoRequest, Algorithm};
use crate::error::Result;
use crate::schedule::{CollectiveKind, Schedule, ScheduleBuilder};

pub fn algorithms() -> Vec<Algorithm> {
    vec![Algorithm {
        name: "linear",
        kinds: &[CollectiveKind::Broadcast],
        family: "classic",
        params: &[],
        preconditions: "none",
        source: "MPI (flat tree)",
        summary: "the root sends the whole message to every other rank in turn",
        build: linear_bcast,
        closed_form: None,
    }]
}

/// Flat tree: the root sends to ranks root+1, root+2, ... (mod p) one after another.
fn linear_bcast(req: &AlgoRequest) -> Result<Schedule> {
    let mut b = ScheduleBuilder::new(req.kind, req.p, req.root)
        .placement(req.placement.clone())
        .packetization(req.bytes, req.bytes.div_ceil(req.packets as u64).max(1));
    let data = b.block(req.root, 0);
    let mut prev = None;
    for i in 1..req.p {
        let to = (req.root + i) % req.p;
        let deps: Vec<_> = prev.into_iter().collect();
        let s = b.send(req.root, &[to], std::slice::from_ref(&data), &deps);
        b.set_step(s, Some(i - 1));
        b.recv(to, s, &[]);
        prev = Some(s);
    }
    b.build()
}
