//! Synthetic traffic: where a packet goes (the pattern, patterns.rs) and when nodes
//! generate packets (the injection process: a Bernoulli coin per node per cycle, sampled
//! as geometric gaps so that a node costs nothing in the cycles it stays silent, the
//! distribution being that of a coin toss every cycle; or BookSim's on/off process,
//! injection.rs).

use super::config::{FlitConfig, InjectionSpec, Pattern};
use super::geometric::{steps_by_log, GapTable};
use super::injection::OnOff;
use super::patterns::{Geometry, Rule};
use crate::error::Result;
use crate::spec_err;
use crate::topology::Topology;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

pub struct Traffic {
    rule: Rule,
    /// The node count as rand draws it: a usize range below 2^32 draws as u32 (the same
    /// values).
    nodes32: u32,
    /// ln(1 - p), or None when p is 1 (every cycle), 0 or so small that 1 - p rounds to 1
    /// (never: a mean gap of over 2^52 cycles).
    log_q: Option<f64>,
    p: f64,
    /// The gaps of `log_q` by table (geometric.rs), None when there is none.
    table: Option<GapTable>,
    /// `injection_process = on_off`: the process (None: Bernoulli).
    on_off: Option<OnOff>,
    /// Bernoulli at p >= 1: a packet every cycle, no draw (a saturated source, as BookSim's
    /// single-router example).
    every_cycle: bool,
}

impl Traffic {
    /// The traffic of `cfg` on `topo` at packet rate `p` (per node per cycle); a pattern's
    /// random choices made once (a random hot spot) come from `rng`.
    pub fn for_config(
        cfg: &FlitConfig,
        topo: &Topology,
        p: f64,
        rng: &mut ChaCha8Rng,
    ) -> Result<Traffic> {
        Traffic::for_pattern(cfg, topo, &cfg.traffic, p, rng)
    }

    /// [`Traffic::for_config`] with pattern `pattern` (a traffic class's).
    pub fn for_pattern(
        cfg: &FlitConfig,
        topo: &Topology,
        pattern: &Pattern,
        p: f64,
        rng: &mut ChaCha8Rng,
    ) -> Result<Traffic> {
        let geometry = Geometry {
            nodes: topo.num_endpoints(),
            shape: topo.shape(),
            netcoll_shape: !cfg.netcoll_topology.is_empty(),
            k: cfg.k,
            n: cfg.n,
            xr: cfg.link_lat.xr,
            perm_seed: cfg.perm_seed,
        };
        let on_off = match &cfg.injection_process {
            InjectionSpec::Bernoulli => None,
            InjectionSpec::OnOff(args) => Some(OnOff::resolve(
                args,
                [cfg.burst_alpha, cfg.burst_beta, cfg.burst_r1],
                p,
            )?),
        };
        Traffic::new(pattern, &geometry, p, on_off, rng)
    }

    pub(super) fn new(
        pattern: &Pattern,
        g: &Geometry,
        p: f64,
        on_off: Option<OnOff>,
        rng: &mut ChaCha8Rng,
    ) -> Result<Traffic> {
        let Ok(nodes32) = u32::try_from(g.nodes) else {
            return spec_err!(
                "synthetic traffic takes at most 2^32 - 1 nodes, not {}",
                g.nodes
            );
        };
        let rule = Rule::new(pattern, g, rng)?;
        let log_q = (p > 0.0 && p < 1.0)
            .then(|| (1.0 - p).ln())
            .filter(|&lq| lq < 0.0);
        let table = log_q.and_then(GapTable::new);
        let every_cycle = on_off.is_none() && p >= 1.0;
        Ok(Traffic {
            rule,
            nodes32,
            log_q,
            p,
            table,
            on_off,
            every_cycle,
        })
    }

    /// The destination of a packet from `src`. Uniform traffic, the common case, draws
    /// here without the pattern's dispatch (the same draw as `Rule::dest`'s).
    #[inline]
    pub fn dest(&self, src: usize, rng: &mut ChaCha8Rng) -> usize {
        if let Rule::Uniform = self.rule {
            return rng.random_range(0..self.nodes32) as usize;
        }
        self.rule.dest(src, self.nodes32, rng)
    }

    /// Cycles from the cycle before the run to a node's first packet (1 = the first cycle),
    /// or None if the node never generates. An on/off node first draws its start state,
    /// on or off with probability 1/2, as BookSim's.
    pub fn first_gap(&self, rng: &mut ChaCha8Rng) -> Option<u64> {
        match &self.on_off {
            Some(p) => {
                let on = rng.random::<bool>();
                p.gap(on, rng)
            }
            None => self.gap(rng),
        }
    }

    /// Whether every node generates a packet every cycle (Bernoulli at rate 1).
    pub fn every_cycle(&self) -> bool {
        self.every_cycle
    }

    /// Cycles from one generation to the next packet (1 = the next cycle), or None if the
    /// node never generates again.
    #[inline]
    pub fn gap(&self, rng: &mut ChaCha8Rng) -> Option<u64> {
        if self.every_cycle {
            return Some(1);
        }
        self.drawn_gap(rng)
    }

    /// [`Traffic::gap`] of a process that is not a packet every cycle.
    fn drawn_gap(&self, rng: &mut ChaCha8Rng) -> Option<u64> {
        if let Some(p) = &self.on_off {
            return p.gap(true, rng);
        }
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

    /// Bernoulli traffic of `pattern` on `nodes` nodes (a `shape` grid) at rate `p`.
    pub(crate) fn traffic(
        pattern: &Pattern,
        nodes: usize,
        shape: &[usize],
        p: f64,
    ) -> Result<Traffic> {
        let g = Geometry {
            nodes,
            shape,
            netcoll_shape: true,
            k: shape.first().copied().unwrap_or(8),
            n: shape.len().max(1),
            xr: 1,
            perm_seed: 0,
        };
        Traffic::new(pattern, &g, p, None, &mut ChaCha8Rng::seed_from_u64(0))
    }

    /// The uniform destination draws as rand's usize range would (same values, same stream).
    #[test]
    fn uniform_destinations_are_rands_usize_draws() {
        for nodes in [1usize, 7, 64, 1000, 65_536, (1 << 31) + 5] {
            let t = traffic(&Pattern::Uniform, nodes, &[], 0.5).unwrap();
            let (mut a, mut b) = (ChaCha8Rng::seed_from_u64(5), ChaCha8Rng::seed_from_u64(5));
            for _ in 0..2000 {
                assert_eq!(t.dest(0, &mut a), b.random_range(0..nodes));
            }
        }
    }

    /// The two fast paths (uniform destinations drawn without the pattern's dispatch; a
    /// packet every cycle without the gap's tests) give the general path's values and leave
    /// the random stream where it leaves it.
    #[test]
    fn fast_paths_draw_as_the_general_path() {
        for (pattern, p) in [(Pattern::Uniform, 1.0), (Pattern::Uniform, 0.3)] {
            let t = traffic(&pattern, 10, &[], p).unwrap();
            assert_eq!(t.every_cycle, p >= 1.0);
            let (mut a, mut b) = (ChaCha8Rng::seed_from_u64(3), ChaCha8Rng::seed_from_u64(3));
            for src in 0..5000 {
                let src = src % 10;
                assert_eq!(t.dest(src, &mut a), t.rule.dest(src, t.nodes32, &mut b));
                assert_eq!(t.gap(&mut a), t.drawn_gap(&mut b));
            }
            assert_eq!(a.random::<u64>(), b.random::<u64>());
        }
    }

    #[test]
    fn geometric_gaps_have_the_bernoulli_mean() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let t = traffic(&Pattern::Uniform, 4, &[], 0.2).unwrap();
        let n = 200_000;
        let total: u64 = (0..n).map(|_| t.gap(&mut rng).unwrap()).sum();
        let mean = total as f64 / n as f64;
        assert!((mean - 5.0).abs() < 0.05, "mean gap {mean}");
        // 1 - p rounds to 1: never (ln(1) = 0 made every cycle a generation).
        let rare = traffic(&Pattern::Uniform, 4, &[], 1e-17).unwrap();
        assert_eq!(rare.gap(&mut rng), None);
        let every = traffic(&Pattern::Uniform, 4, &[], 1.0).unwrap();
        assert_eq!(every.gap(&mut rng), Some(1));
        assert!(traffic(&Pattern::Bitcomp, 12, &[], 0.1).is_err());
    }
}
