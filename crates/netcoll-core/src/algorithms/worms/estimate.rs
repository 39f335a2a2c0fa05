//! A latency estimate for a multicast schedule, from the overheads seed 003 assigns to each
//! phase (s6.4.1) and its default system (s6.2). The paper gives no closed form: s6.1 is
//! qualitative and s6.4 simulates. This is our first-order account of that text, for
//! ranking schemes before a flit simulation:
//!
//! - a worm phase (path, SSR or tree worms, no smart NI): the sender pays `t_hs + t_ns`, the
//!   worm crosses its longest branch at `hop` cycles per switch and streams its
//!   `packets * packet_flits` flits cut-through, and the receiver pays `t_nr + t_hr` before
//!   it may forward (a phase ends when the whole message is in, s6.4.6). Phases add up;
//! - an NI-forwarded (FPFS) k-binomial multicast: `t_hs` at the source, then one NI step per
//!   packet copy (`max(t_ns, t_nr)` plus the packet's flits: the NI sends one copy per step
//!   and receiving overlaps), times the schedule's step count, then `t_hr` at the last
//!   destination. Network distance is neglected: cut-through is almost distance-independent
//!   (s6.4.5).

use crate::schedule::{OpKind, Schedule};
use serde::Serialize;

/// Costs in cycles; defaults are seed 003 s6.2: t_hs = t_ns = t_hr = t_nr = 1000, packets of
/// 128 flits, one cycle each for the link, the crossbar and the routing decision.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Costs {
    pub t_hs: u64,
    pub t_ns: u64,
    pub t_hr: u64,
    pub t_nr: u64,
    pub packet_flits: u64,
    pub hop: u64,
}

impl Default for Costs {
    fn default() -> Self {
        Costs {
            t_hs: 1000,
            t_ns: 1000,
            t_hr: 1000,
            t_nr: 1000,
            packet_flits: 128,
            hop: 3,
        }
    }
}

/// Estimated multicast latency in cycles (see the module text).
pub fn estimate_cycles(s: &Schedule, c: &Costs) -> u64 {
    let mut worm_phase_cost: Vec<u64> = Vec::new();
    let mut ni_steps = 0u64;
    for r in 0..s.p() {
        for op in s.ops(r) {
            let OpKind::Send { msg, .. } = op.kind else {
                continue;
            };
            let m = s.message(msg);
            let step = op.step.unwrap_or(0) as usize;
            match &m.worm {
                Some(w) => {
                    let depth = branch_depth(w);
                    let cost = c.t_hs
                        + c.t_ns
                        + depth * c.hop
                        + u64::from(m.packets) * c.packet_flits
                        + c.t_nr
                        + c.t_hr;
                    if worm_phase_cost.len() <= step {
                        worm_phase_cost.resize(step + 1, 0);
                    }
                    worm_phase_cost[step] = worm_phase_cost[step].max(cost);
                }
                None => {
                    ni_steps = ni_steps.max(step as u64 + 1);
                }
            }
        }
    }
    let worms: u64 = worm_phase_cost.iter().sum();
    let ni = if ni_steps == 0 {
        0
    } else {
        c.t_hs + ni_steps * (c.t_ns.max(c.t_nr) + c.packet_flits) + c.t_hr
    };
    worms + ni
}

/// Switch hops on the longest branch of a worm's replication tree (plus ejection).
fn branch_depth(w: &crate::schedule::Worm) -> u64 {
    let mut depth = vec![0u64; w.hops.len()];
    for (i, h) in w.hops.iter().enumerate().skip(1) {
        depth[i] = depth[h.parent as usize] + 1;
    }
    depth.iter().copied().max().unwrap_or(0) + 1
}
