//! Random multicast destination sets (`traffic = multicast`): `m` nodes uniform over every
//! node but the source, by a partial Fisher-Yates shuffle of a persistent permutation, so a
//! draw costs O(m) and allocates nothing.

use rand::Rng;

pub struct DestDraw {
    perm: Vec<u32>,
    /// Each node's place in `perm`.
    pos: Vec<u32>,
    /// The destinations of the last draw (or as set by hand).
    pub dests: Vec<u32>,
}

impl DestDraw {
    pub fn new(nodes: usize, m: usize) -> DestDraw {
        DestDraw {
            perm: (0..nodes as u32).collect(),
            pos: (0..nodes as u32).collect(),
            dests: Vec::with_capacity(m),
        }
    }

    /// Draws `m < nodes` destinations other than `src` into `self.dests`.
    pub fn draw(&mut self, src: usize, m: usize, rng: &mut impl Rng) {
        let n = self.perm.len();
        // Park the source in the last slot, then shuffle a prefix of the rest.
        self.swap(self.pos[src] as usize, n - 1);
        self.dests.clear();
        for i in 0..m {
            let j = rng.random_range(i..n - 1);
            self.swap(i, j);
            self.dests.push(self.perm[i]);
        }
    }

    /// Sets the destinations by hand.
    pub fn set(&mut self, dests: &[u32]) {
        self.dests.clear();
        self.dests.extend_from_slice(dests);
    }

    fn swap(&mut self, a: usize, b: usize) {
        self.perm.swap(a, b);
        self.pos[self.perm[a] as usize] = a as u32;
        self.pos[self.perm[b] as usize] = b as u32;
    }
}
