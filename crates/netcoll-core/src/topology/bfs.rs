//! Breadth-first search over the switch graph, the one distance primitive of metrics and
//! routing tables.

use super::Topology;

/// Breadth-first search with buffers reused across sources.
pub struct Bfs {
    dist: Vec<u32>,
    queue: Vec<u32>,
}

impl Bfs {
    pub fn new(n: usize) -> Bfs {
        Bfs {
            dist: vec![u32::MAX; n],
            queue: Vec::with_capacity(n),
        }
    }

    /// Hop distances from `src` to every switch (u32::MAX if unreachable); borrowed until the
    /// next call.
    pub fn distances(&mut self, topo: &Topology, src: usize) -> &[u32] {
        self.dist.fill(u32::MAX);
        self.queue.clear();
        self.dist[src] = 0;
        self.queue.push(src as u32);
        let mut head = 0;
        while head < self.queue.len() {
            let u = self.queue[head] as usize;
            head += 1;
            let du = self.dist[u] + 1;
            for nb in topo.neighbours(u) {
                let v = nb.switch as usize;
                if self.dist[v] == u32::MAX {
                    self.dist[v] = du;
                    self.queue.push(v as u32);
                }
            }
        }
        &self.dist
    }

    /// (eccentricity over weighted switches, weighted distance sum) from `src`.
    pub fn run(&mut self, topo: &Topology, src: usize, weight: &[u32]) -> (u32, u128) {
        let dist = self.distances(topo, src);
        let mut ecc = 0;
        let mut sum = 0u128;
        for (d, &w) in dist.iter().zip(weight) {
            if w > 0 {
                ecc = ecc.max(*d);
                sum += *d as u128 * w as u128;
            }
        }
        (ecc, sum)
    }
}
