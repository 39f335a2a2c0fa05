//! Deadlock diagnosis. When no flit has moved for `deadlock_cycles` cycles while flits are in
//! flight, the engine stops and builds the wait-for graph over occupied input VCs: a VC that
//! holds an output VC but has no credit waits for the downstream input VC it feeds; a VC
//! waiting for an output VC waits for the input VCs that hold the candidates. A cycle in that
//! graph is the deadlock, reported channel by channel.

use super::network::{Network, Out, ACTIVE, NONE, VC_WAIT};
use serde::Serialize;

/// One link of a wait-for cycle: the input VC (router, input port, VC) holding its flits,
/// and the output (port, VC) it holds or waits for (`out_vc` None: any VC of its class).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WaitLink {
    pub router: u32,
    pub in_port: u32,
    pub in_vc: u32,
    pub out_port: u32,
    pub out_vc: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Deadlock {
    /// The cycle at which the engine gave up.
    pub cycle: u64,
    /// The last cycle a flit moved.
    pub last_move: u64,
    pub flits_in_flight: u64,
    /// The wait-for cycle (empty if the stall has no cycle among router VCs).
    pub wait_cycle: Vec<WaitLink>,
}

impl Network<'_> {
    /// Input VCs this occupied input VC waits for.
    fn waits_for(&self, ivc: usize, out: &mut Vec<usize>) {
        out.clear();
        let nv = self.nv;
        if self.vcs[ivc].len == 0 || self.vcs[ivc].out_port == NONE {
            return;
        }
        let go = self.vcs[ivc].out_port as usize;
        let downstream = |ov: usize| match self.out_to[go] {
            Out::Link { input, .. } => Some(input as usize * nv + ov),
            _ => None,
        };
        match self.vcs[ivc].state {
            ACTIVE => {
                let ov = self.vcs[ivc].out_vc as usize;
                if self.credits[go * nv + ov] == 0 {
                    out.extend(downstream(ov));
                }
            }
            VC_WAIT => {
                let (lo, hi) = self.vc_range(ivc);
                for ov in lo..hi {
                    match self.owner[go * nv + ov] {
                        NONE => out.extend(downstream(ov)),
                        o => out.push(o as usize),
                    }
                }
            }
            _ => {}
        }
    }

    /// Builds the deadlock report at the current cycle.
    pub(super) fn diagnose(&self) -> Deadlock {
        Deadlock {
            cycle: self.now,
            last_move: self.last_move,
            flits_in_flight: self.in_flight_flits,
            wait_cycle: self.find_cycle().iter().map(|&v| self.link_of(v)).collect(),
        }
    }

    fn link_of(&self, ivc: usize) -> WaitLink {
        let gi = ivc / self.nv;
        let r = self.port_router[gi] as usize;
        let go = self.vcs[ivc].out_port;
        WaitLink {
            router: r as u32,
            in_port: gi as u32 - self.pstart[r],
            in_vc: (ivc % self.nv) as u32,
            out_port: go.wrapping_sub(self.pstart[r]),
            out_vc: (self.vcs[ivc].state == ACTIVE).then_some(self.vcs[ivc].out_vc as u32),
        }
    }

    /// A cycle in the wait-for graph by iterative depth-first search.
    fn find_cycle(&self) -> Vec<usize> {
        let n = self.vcs.len();
        let mut colour = vec![0u8; n]; // 0 new, 1 on the stack, 2 done
        let mut succ = Vec::new();
        let mut stack: Vec<(usize, Vec<usize>, usize)> = Vec::new();
        for s in 0..n {
            if colour[s] != 0 || self.vcs[s].len == 0 {
                continue;
            }
            self.waits_for(s, &mut succ);
            colour[s] = 1;
            stack.push((s, succ.clone(), 0));
            while let Some(top) = stack.last_mut() {
                if top.2 == top.1.len() {
                    colour[top.0] = 2;
                    stack.pop();
                    continue;
                }
                let w = top.1[top.2];
                top.2 += 1;
                match colour[w] {
                    1 => {
                        let from = stack.iter().position(|e| e.0 == w).unwrap();
                        return stack[from..].iter().map(|e| e.0).collect();
                    }
                    0 if self.vcs[w].len > 0 => {
                        self.waits_for(w, &mut succ);
                        colour[w] = 1;
                        stack.push((w, succ.clone(), 0));
                    }
                    _ => {}
                }
            }
        }
        Vec::new()
    }
}
