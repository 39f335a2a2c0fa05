//! Synthetic traffic: where a packet goes (the pattern) and when nodes generate packets (a
//! Bernoulli process per node, sampled as geometric gaps so that a node costs nothing in the
//! cycles it stays silent; the distribution is the same as a coin toss every cycle).

use super::config::Pattern;
use super::geometric::{steps_by_log, GapTable};
use crate::error::Result;
use crate::spec_err;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

pub struct Traffic {
    pattern: Pattern,
    nodes: usize,
    /// `nodes` as rand draws it: a usize range below 2^32 draws as u32 (the same values).
    nodes32: u32,
    shape: Vec<usize>,
    bits: u32,
    /// ln(1 - p), or None when p is 1 (every cycle), 0 or so small that 1 - p rounds to 1
    /// (never: a mean gap of over 2^52 cycles).
    log_q: Option<f64>,
    p: f64,
    /// The gaps of `log_q` by table (geometric.rs), None when there is none.
    table: Option<GapTable>,
}

impl Traffic {
    pub fn new(pattern: &Pattern, nodes: usize, shape: &[usize], p: f64) -> Result<Traffic> {
        let pow2 = nodes.is_power_of_two();
        let bits = nodes.trailing_zeros();
        match pattern {
            Pattern::Transpose if !pow2 || bits % 2 == 1 => {
                return spec_err!(
                "traffic = transpose needs a node count that is an even power of two, not {nodes}"
            )
            }
            Pattern::Bitcomp if !pow2 => {
                return spec_err!("traffic = bitcomp needs a power-of-two node count, not {nodes}")
            }
            Pattern::Neighbor if shape.is_empty() => {
                return spec_err!("traffic = neighbor needs a mesh or torus (a coordinate family)")
            }
            Pattern::Hotspot(h) => {
                if let Some(&bad) = h.iter().find(|&&x| x >= nodes) {
                    return spec_err!(
                        "hotspot node {bad} is out of range: the network has {nodes}"
                    );
                }
            }
            _ => {}
        }
        let Ok(nodes32) = u32::try_from(nodes) else {
            return spec_err!("synthetic traffic takes at most 2^32 - 1 nodes, not {nodes}");
        };
        let log_q = (p > 0.0 && p < 1.0)
            .then(|| (1.0 - p).ln())
            .filter(|&lq| lq < 0.0);
        let table = log_q.and_then(GapTable::new);
        Ok(Traffic {
            pattern: pattern.clone(),
            nodes,
            nodes32,
            shape: shape.to_vec(),
            bits,
            log_q,
            p,
            table,
        })
    }

    /// The destination of a packet from `src`.
    #[inline]
    pub fn dest(&self, src: usize, rng: &mut ChaCha8Rng) -> usize {
        match &self.pattern {
            // Multicasts draw their destinations in multicast.rs; one uniform node here.
            // rand's usize sampler takes the u32 one for such ranges (UniformUsize::
            // sample_single): calling it directly skips a call and a test.
            Pattern::Uniform | Pattern::Multicast => rng.random_range(0..self.nodes32) as usize,
            Pattern::Transpose => {
                let half = self.bits / 2;
                let lo = src & ((1 << half) - 1);
                (lo << half) | (src >> half)
            }
            Pattern::Bitcomp => !src & (self.nodes - 1),
            Pattern::Neighbor => {
                let (mut rest, mut out, mut mul) = (src, 0, 1);
                for &k in &self.shape {
                    out += ((rest % k + 1) % k) * mul;
                    rest /= k;
                    mul *= k;
                }
                out
            }
            Pattern::Hotspot(h) => h[rng.random_range(0..h.len())],
        }
    }

    /// Cycles from one generation opportunity to the next packet (1 = the next cycle), or
    /// None if the node never generates.
    #[inline]
    pub fn gap(&self, rng: &mut ChaCha8Rng) -> Option<u64> {
        match self.log_q {
            None if self.p >= 1.0 => Some(1),
            None => None,
            Some(lq) => {
                // rand's uniform f64 r is k 2^-53 (geometric.rs); the gap is
                // 1 + floor(ln(1 - r) / lq), by table where there is one.
                let k = rng.random::<u64>() >> 11;
                let steps = match &self.table {
                    Some(t) => t.steps(k),
                    None => None,
                };
                Some(1 + steps.unwrap_or_else(|| steps_by_log(k, lq)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn permutations_on_sixteen_nodes() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let t = Traffic::new(&Pattern::Transpose, 16, &[4, 4], 0.5).unwrap();
        assert_eq!(t.dest(0b0001, &mut rng), 0b0100);
        assert_eq!(t.dest(0b1110, &mut rng), 0b1011);
        let b = Traffic::new(&Pattern::Bitcomp, 16, &[4, 4], 0.5).unwrap();
        assert_eq!(b.dest(3, &mut rng), 12);
        let n = Traffic::new(&Pattern::Neighbor, 16, &[4, 4], 0.5).unwrap();
        assert_eq!(n.dest(0, &mut rng), 5);
        assert_eq!(n.dest(15, &mut rng), 0);
    }

    /// The uniform destination draws as rand's usize range would (same values, same stream).
    #[test]
    fn uniform_destinations_are_rands_usize_draws() {
        for nodes in [1usize, 7, 64, 1000, 65_536, (1 << 31) + 5] {
            let t = Traffic::new(&Pattern::Uniform, nodes, &[], 0.5).unwrap();
            let (mut a, mut b) = (ChaCha8Rng::seed_from_u64(5), ChaCha8Rng::seed_from_u64(5));
            for _ in 0..2000 {
                assert_eq!(t.dest(0, &mut a), b.random_range(0..nodes));
            }
        }
    }

    #[test]
    fn geometric_gaps_have_the_bernoulli_mean() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let t = Traffic::new(&Pattern::Uniform, 4, &[], 0.2).unwrap();
        let n = 200_000;
        let total: u64 = (0..n).map(|_| t.gap(&mut rng).unwrap()).sum();
        let mean = total as f64 / n as f64;
        assert!((mean - 5.0).abs() < 0.05, "mean gap {mean}");
        // 1 - p rounds to 1: never (ln(1) = 0 made every cycle a generation).
        let rare = Traffic::new(&Pattern::Uniform, 4, &[], 1e-17).unwrap();
        assert_eq!(rare.gap(&mut rng), None);
        let every = Traffic::new(&Pattern::Uniform, 4, &[], 1.0).unwrap();
        assert_eq!(every.gap(&mut rng), Some(1));
        assert!(Traffic::new(&Pattern::Bitcomp, 12, &[], 0.1).is_err());
    }
}
