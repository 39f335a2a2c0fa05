//! Autonet up*/down* routing, as in seed 003 s2.2.
//!
//! A BFS spanning tree from a root switch gives every switch a level. The "up" end of a link
//! is the end nearer the root, or the lower switch id when both ends are on the same level;
//! the directed "up" links form no loop. A legal route takes zero or more up links, then zero
//! or more down links. We route on minimal legal routes: per destination, a BFS over
//! (switch, phase) states, where phase 0 may still go up and phase 1 (after a down link) may
//! only go down; ties go to the lowest port. The phase is what a switch learns from the
//! packet's input port.

use super::Step;
use crate::error::Result;
use crate::spec_err;
use crate::topology::metrics::Bfs;
use crate::topology::Topology;
use std::sync::OnceLock;

pub struct UpDown {
    root: usize,
    level: Vec<u32>,
    /// Per destination: next-hop neighbour index for state (switch, phase) at `2*switch+phase`.
    tables: Vec<OnceLock<Box<[u32]>>>,
}

const NONE: u32 = u32::MAX;

impl UpDown {
    pub fn new(topo: &Topology, root: usize) -> Result<UpDown> {
        if root >= topo.num_switches() {
            return spec_err!(
                "up*/down* root {root} is out of range: {} has switches 0 to {}",
                topo.name(),
                topo.num_switches() - 1
            );
        }
        let level = Bfs::new(topo.num_switches()).distances(topo, root).to_vec();
        Ok(UpDown {
            root,
            level,
            tables: (0..topo.num_switches()).map(|_| OnceLock::new()).collect(),
        })
    }

    pub fn root(&self) -> usize {
        self.root
    }

    /// BFS level of every switch (distance from the root).
    pub fn levels(&self) -> &[u32] {
        &self.level
    }

    /// Is going from `from` to its neighbour `to` an "up" traversal?
    pub fn is_up(&self, from: usize, to: usize) -> bool {
        (self.level[to], to) < (self.level[from], from)
    }

    pub fn next(&self, topo: &Topology, at: usize, dest: usize, phase: u8) -> Step {
        let table = self.tables[dest].get_or_init(|| self.build_table(topo, dest));
        let i = table[2 * at + phase as usize];
        debug_assert_ne!(i, NONE, "up*/down* always has a legal route from phase 0");
        let via = topo.neighbours(at)[i as usize];
        let up = self.is_up(at, via.switch as usize);
        Step {
            via,
            state: u8::from(!up),
            vc_class: 0,
            up,
        }
    }

    /// Distances to `dest` over (switch, phase) states by backward BFS, then the first
    /// neighbour (in port order) on a minimal legal continuation.
    fn build_table(&self, topo: &Topology, dest: usize) -> Box<[u32]> {
        let dist = self.legal_distances(topo, dest);
        (0..2 * topo.num_switches())
            .map(|state| {
                let (v, phase) = (state / 2, state % 2);
                if v == dest || dist[state] == NONE {
                    return NONE;
                }
                topo.neighbours(v)
                    .iter()
                    .position(|nb| {
                        let u = nb.switch as usize;
                        let up = self.is_up(v, u);
                        if up && phase == 1 {
                            return false;
                        }
                        dist[2 * u + usize::from(!up)].wrapping_add(1) == dist[state]
                    })
                    .map_or(NONE, |i| i as u32)
            })
            .collect()
    }

    fn legal_distances(&self, topo: &Topology, dest: usize) -> Vec<u32> {
        let mut dist = vec![NONE; 2 * topo.num_switches()];
        let mut queue = vec![2 * dest, 2 * dest + 1];
        dist[2 * dest] = 0;
        dist[2 * dest + 1] = 0;
        let mut head = 0;
        while head < queue.len() {
            let state = queue[head];
            head += 1;
            let (u, phase_u) = (state / 2, state % 2);
            // Predecessors: v -> u was up (so both in phase 0) or down (u in phase 1, v any).
            for nb in topo.neighbours(u) {
                let v = nb.switch as usize;
                let up = self.is_up(v, u);
                let preds: &[usize] = match (up, phase_u) {
                    (true, 0) => &[0],
                    (false, 1) => &[0, 1],
                    _ => &[],
                };
                for &pv in preds {
                    let s = 2 * v + pv;
                    if dist[s] == NONE {
                        dist[s] = dist[state] + 1;
                        queue.push(s);
                    }
                }
            }
        }
        dist
    }
}
