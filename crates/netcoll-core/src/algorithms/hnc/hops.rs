//! Aggregate hops of a built schedule: every unicast message (a message to k destinations
//! counts k) routed by dimension-order routing, as seed 000 s4 counts them.

use crate::error::Result;
use crate::routing::{Routing, RoutingKind};
use crate::schedule::Schedule;
use crate::topology::Topology;
use serde::Serialize;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Hops {
    /// Unicast messages.
    pub messages: u64,
    /// Sum over unicast messages of the DOR path length (the paper's measure).
    pub aggregate_hops: u64,
    /// Unicast packets.
    pub packets: u64,
    /// Sum over unicast packets of the DOR path length.
    pub packet_hops: u64,
}

/// Routes every unicast of `s` placed on `topo` by DOR and sums the path lengths.
pub fn schedule_hops(s: &Schedule, topo: &Topology) -> Result<Hops> {
    let routing = Routing::new(topo, RoutingKind::Dor, None)?;
    let mut h = Hops::default();
    for m in s.messages() {
        let src = topo.endpoint_switch(s.placement()[m.src as usize] as usize);
        for &d in s.dests(m) {
            let dst = topo.endpoint_switch(s.placement()[d as usize] as usize);
            let len = path_len(&routing, topo, src, dst);
            h.messages += 1;
            h.aggregate_hops += len;
            h.packets += m.packets as u64;
            h.packet_hops += len * m.packets as u64;
        }
    }
    Ok(h)
}

/// Hop count of the route, walked without allocating.
fn path_len(routing: &Routing, topo: &Topology, src: usize, dst: usize) -> u64 {
    let (mut at, mut state, mut n) = (src, 0u8, 0u64);
    while let Some(step) = routing.next(topo, at, dst, state) {
        at = step.via.switch as usize;
        state = step.state;
        n += 1;
    }
    n
}
