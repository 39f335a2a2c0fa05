//! Minimal routing from per-destination BFS tables. Ties go to the lowest output port, so on
//! an iBT the torus ports (dimension order) win over the bypass ports at equal distance.
//! Tables are built lazily, one destination at a time, so routing a few pairs on a
//! million-switch network costs a few BFS, and routing everything costs one BFS per switch.

use super::Step;
use crate::topology::metrics::Bfs;
use crate::topology::Topology;
use std::sync::OnceLock;

pub struct Shortest {
    /// Per destination: for every switch, the index into its neighbour list of the next hop.
    tables: Vec<OnceLock<Box<[u32]>>>,
}

impl Shortest {
    pub fn new(topo: &Topology) -> Shortest {
        Shortest {
            tables: (0..topo.num_switches()).map(|_| OnceLock::new()).collect(),
        }
    }

    pub fn next(&self, topo: &Topology, at: usize, dest: usize) -> Step {
        let table = self.tables[dest].get_or_init(|| build_table(topo, dest));
        Step {
            via: topo.neighbours(at)[table[at] as usize],
            state: 0,
            vc_class: 0,
            up: false,
        }
    }
}

fn build_table(topo: &Topology, dest: usize) -> Box<[u32]> {
    let mut bfs = Bfs::new(topo.num_switches());
    let dist = bfs.distances(topo, dest);
    (0..topo.num_switches())
        .map(|v| {
            topo.neighbours(v)
                .iter()
                .position(|nb| dist[nb.switch as usize].wrapping_add(1) == dist[v])
                .map_or(u32::MAX, |i| i as u32)
        })
        .collect()
}
