//! Alpha-beta-gamma (Hockney) costs of InterCom's collectives on a linear array
//! (seed 001, van de Geijn et al., "InterCom", s2, s4-6).
//!
//! A message of n bytes costs `alpha + n beta` between any two nodes; a node sends and
//! receives at once but talks to one node at a time; messages sharing a link share its
//! bandwidth; combining one item costs `gamma` (s2). Every cost here is a triple of exact
//! coefficients, `a alpha + b n beta + c n gamma`.
//!
//! Hybrid broadcasts on logical meshes (s6) are in `hybrid`; their functions are
//! re-exported here.

mod hybrid;

pub use hybrid::{
    hybrid_broadcast_cost, hybrid_broadcast_cost_f64, hybrid_broadcast_cost_for,
    hybrid_broadcast_options, parse_mesh, HybridOption,
};

use super::ratio::Ratio;
use crate::error::{Error, Result};
use std::fmt;
use std::str::FromStr;

/// Largest node count the models accept (keeps every fraction far from overflow).
const MAX_P: u64 = 1 << 40;

/// `a alpha + b n beta + c n gamma`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AbgCost {
    /// Coefficient of alpha (start-ups on the critical path).
    pub alpha: Ratio,
    /// Coefficient of `n beta` (bytes on the critical path, in units of the vector length).
    pub beta: Ratio,
    /// Coefficient of `n gamma` (combine work on the critical path).
    pub gamma: Ratio,
}

impl AbgCost {
    /// The zero cost.
    pub const ZERO: AbgCost = AbgCost {
        alpha: Ratio::ZERO,
        beta: Ratio::ZERO,
        gamma: Ratio::ZERO,
    };

    /// Time for an `n`-byte vector with the given machine parameters.
    pub fn eval(&self, alpha: f64, beta: f64, gamma: f64, n: f64) -> f64 {
        self.alpha.to_f64() * alpha + n * (self.beta.to_f64() * beta + self.gamma.to_f64() * gamma)
    }

    /// Cost of doing `self` and then `other`.
    pub fn then(self, other: AbgCost) -> AbgCost {
        AbgCost {
            alpha: self.alpha + other.alpha,
            beta: self.beta + other.beta,
            gamma: self.gamma + other.gamma,
        }
    }
}

impl fmt::Display for AbgCost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} alpha + {} n beta", self.alpha, self.beta)?;
        if self.gamma != Ratio::ZERO {
            write!(f, " + {} n gamma", self.gamma)?;
        }
        Ok(())
    }
}

fn check_p(p: u64) -> Result<()> {
    if p == 0 {
        return crate::spec_err!("p is 0: a collective needs at least one node");
    }
    if p > MAX_P {
        return Err(Error::TooLarge(format!(
            "p = {p} is beyond the model's range: use at most {MAX_P} nodes"
        )));
    }
    Ok(())
}

fn ceil_log2(p: u64) -> i128 {
    i128::from(64 - (p - 1).leading_zeros())
}

fn frac(num: u64, den: u64) -> Ratio {
    Ratio::new(i128::from(num), i128::from(den)).expect("callers pass a positive denominator")
}

/// InterCom's building blocks (s4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Primitive {
    /// Short vector: recursive halving broadcast, `ceil(log p) (alpha + n beta)`.
    MstBroadcast,
    /// Short vector: broadcast in reverse, combining, `ceil(log p) (alpha + n beta + n gamma)`.
    MstCombine,
    /// Short and long vector: halving, sending only the far half's share,
    /// `ceil(log p) alpha + (p-1)/p n beta`.
    MstScatter,
    /// Scatter in reverse, same cost.
    MstGather,
    /// Long vector: p-1 ring steps, `(p-1) alpha + (p-1)/p n beta`.
    BucketCollect,
    /// Long vector: bucket collect in reverse, accumulating,
    /// `(p-1) alpha + (p-1)/p n beta + (p-1)/p n gamma`.
    BucketDistributedCombine,
}

/// Cost of a primitive on `p` nodes (seed 001 s4.1-4.2), conflict-free on a linear array.
pub fn primitive_cost(prim: Primitive, p: u64) -> Result<AbgCost> {
    check_p(p)?;
    let l = Ratio::int(ceil_log2(p));
    let share = frac(p - 1, p);
    let ring = Ratio::int(i128::from(p - 1));
    let cost = |alpha, beta, gamma| AbgCost { alpha, beta, gamma };
    Ok(match prim {
        Primitive::MstBroadcast => cost(l, l, Ratio::ZERO),
        Primitive::MstCombine => cost(l, l, l),
        Primitive::MstScatter | Primitive::MstGather => cost(l, share, Ratio::ZERO),
        Primitive::BucketCollect => cost(ring, share, Ratio::ZERO),
        Primitive::BucketDistributedCombine => cost(ring, share, share),
    })
}

/// The seven target collectives (seed 001 Table 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Collective {
    /// x at the root to all.
    Broadcast,
    /// x_j from the root to P_j.
    Scatter,
    /// x_j at P_j to the root.
    Gather,
    /// x_j at P_j to x at all (allgather).
    Collect,
    /// combine of all y(j) at the root (reduce).
    CombineToOne,
    /// combine of all y(j) at all (allreduce).
    CombineToAll,
    /// piece j of the combine at P_j (reduce-scatter).
    DistributedCombine,
}

impl Collective {
    /// All seven, in the paper's order.
    pub const ALL: [Collective; 7] = [
        Collective::Broadcast,
        Collective::Scatter,
        Collective::Gather,
        Collective::Collect,
        Collective::CombineToOne,
        Collective::CombineToAll,
        Collective::DistributedCombine,
    ];
}

impl FromStr for Collective {
    type Err = Error;
    fn from_str(s: &str) -> Result<Collective> {
        Ok(match s.to_ascii_lowercase().replace(['-', '_'], "").as_str() {
            "broadcast" | "bcast" => Collective::Broadcast,
            "scatter" => Collective::Scatter,
            "gather" => Collective::Gather,
            "collect" | "allgather" => Collective::Collect,
            "combinetoone" | "reduce" => Collective::CombineToOne,
            "combinetoall" | "globalcombine" | "allreduce" => Collective::CombineToAll,
            "distributedcombine" | "reducescatter" => Collective::DistributedCombine,
            _ => {
                return crate::spec_err!(
                    "unknown collective '{s}': use broadcast, scatter, gather, collect, combine-to-one, combine-to-all or distributed-combine"
                )
            }
        })
    }
}

/// Which family of algorithms a collective is built from (seed 001 s5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Regime {
    /// Minimise start-ups: MST primitives (s5.1).
    Short,
    /// Minimise bytes moved: scatter/gather and bucket primitives (s5.2).
    Long,
}

/// Cost of a collective on `p` nodes, built from the primitives as seed 001 s5 composes
/// them (e.g. long-vector broadcast = scatter then bucket collect,
/// `(ceil(log p) + p - 1) alpha + 2 (p-1)/p n beta`).
pub fn collective_cost(op: Collective, p: u64, regime: Regime) -> Result<AbgCost> {
    use Primitive::*;
    let parts: &[Primitive] = match (regime, op) {
        (Regime::Short, Collective::Broadcast) => &[MstBroadcast],
        (Regime::Short, Collective::CombineToOne) => &[MstCombine],
        (_, Collective::Scatter) => &[MstScatter],
        (_, Collective::Gather) => &[MstGather],
        (Regime::Short, Collective::Collect) => &[MstGather, MstBroadcast],
        (Regime::Short, Collective::DistributedCombine) => &[MstCombine, MstScatter],
        (Regime::Short, Collective::CombineToAll) => &[MstCombine, MstBroadcast],
        (Regime::Long, Collective::Broadcast) => &[MstScatter, BucketCollect],
        (Regime::Long, Collective::CombineToOne) => &[BucketDistributedCombine, MstGather],
        (Regime::Long, Collective::Collect) => &[BucketCollect],
        (Regime::Long, Collective::DistributedCombine) => &[BucketDistributedCombine],
        (Regime::Long, Collective::CombineToAll) => &[BucketDistributedCombine, BucketCollect],
    };
    parts.iter().try_fold(AbgCost::ZERO, |acc, &prim| {
        Ok(acc.then(primitive_cost(prim, p)?))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn r(n: i128, d: i128) -> Ratio {
        Ratio::new(n, d).unwrap()
    }

    fn cost(a: Ratio, b: Ratio, c: Ratio) -> AbgCost {
        AbgCost {
            alpha: a,
            beta: b,
            gamma: c,
        }
    }

    #[test]
    fn paper_collective_formulas() {
        // s4-5, for p = 30 (ceil(log 30) = 5).
        let p = 30;
        let s = |op| collective_cost(op, p, Regime::Short).unwrap();
        let l = |op| collective_cost(op, p, Regime::Long).unwrap();
        let z = Ratio::ZERO;
        let share = r(29, 30);
        let i = Ratio::int;
        assert_eq!(s(Collective::Broadcast), cost(i(5), i(5), z));
        assert_eq!(s(Collective::CombineToOne), cost(i(5), i(5), i(5)));
        assert_eq!(s(Collective::Scatter), cost(i(5), share, z));
        assert_eq!(s(Collective::Gather), cost(i(5), share, z));
        assert_eq!(s(Collective::Collect), cost(i(10), i(5) + share, z));
        assert_eq!(
            s(Collective::DistributedCombine),
            cost(i(10), i(5) + share, i(5))
        );
        // "2 ceil(log p) alpha + 2 ceil(log p) n beta + ceil(log p) n gamma"
        assert_eq!(s(Collective::CombineToAll), cost(i(10), i(10), i(5)));
        // "(ceil(log p) + p - 1) alpha + 2 (p-1)/p n beta"
        assert_eq!(l(Collective::Broadcast), cost(i(34), r(58, 30), z));
        assert_eq!(l(Collective::Collect), cost(i(29), share, z));
        assert_eq!(l(Collective::DistributedCombine), cost(i(29), share, share));
        // "2 (p-1) alpha + 2 (p-1)/p n beta + (p-1)/p n gamma"
        assert_eq!(l(Collective::CombineToAll), cost(i(58), r(58, 30), share));
        // Distributed combine then gather: (p - 1 + ceil(log p)) alpha.
        assert_eq!(l(Collective::CombineToOne), cost(i(34), r(58, 30), share));
        assert_eq!(l(Collective::Scatter), s(Collective::Scatter));
    }

    #[test]
    fn display_and_eval() {
        let c = collective_cost(Collective::CombineToAll, 8, Regime::Short).unwrap();
        assert_eq!(c.to_string(), "6 alpha + 6 n beta + 3 n gamma");
        assert_eq!(c.eval(1.0, 2.0, 3.0, 10.0), 6.0 + 10.0 * (12.0 + 9.0));
        let (a, b) = hybrid_broadcast_cost_f64(&[2, 3, 5], "ssmcc").unwrap();
        assert_eq!(a, 9.0);
        assert!((b - 160.0 / 30.0).abs() < 1e-12);
        assert_eq!(
            "allreduce".parse::<Collective>().unwrap(),
            Collective::CombineToAll
        );
        assert_eq!(
            "Combine-To-One".parse::<Collective>().unwrap(),
            Collective::CombineToOne
        );
    }

    #[test]
    fn bad_input_is_a_one_line_error() {
        let errs = [
            hybrid_broadcast_cost(&[2, 3, 5], "SMC").unwrap_err(),
            hybrid_broadcast_cost(&[2, 3, 5], "SSXCC").unwrap_err(),
            hybrid_broadcast_cost(&[2, 0, 5], "SSMCC").unwrap_err(),
            hybrid_broadcast_cost(&[], "M").unwrap_err(),
            hybrid_broadcast_cost(&[1, 1], "SC").unwrap_err(),
            hybrid_broadcast_cost(&[1 << 30, 1 << 30], "SMC").unwrap_err(),
            hybrid_broadcast_cost_for(32, &[2, 3, 5], "SSMCC").unwrap_err(),
            collective_cost(Collective::Broadcast, 0, Regime::Short).unwrap_err(),
            parse_mesh("2xx3").unwrap_err(),
            "allgatherv".parse::<Collective>().unwrap_err(),
        ];
        for e in errs {
            let s = e.to_string();
            assert!(!s.is_empty() && !s.contains('\n'), "{s}");
        }
        let e = hybrid_broadcast_cost(&[2, 3, 5], "SMC")
            .unwrap_err()
            .to_string();
        assert!(e.contains("SSMCC"), "{e}");
        let e = hybrid_broadcast_cost_for(32, &[2, 3, 5], "SSMCC")
            .unwrap_err()
            .to_string();
        assert!(e.contains("30 nodes") && e.contains("p = 32"), "{e}");
    }

    #[test]
    fn single_node_costs_nothing() {
        for op in Collective::ALL {
            for regime in [Regime::Short, Regime::Long] {
                assert_eq!(collective_cost(op, 1, regime).unwrap(), AbgCost::ZERO);
            }
        }
        assert_eq!(
            hybrid_broadcast_cost(&[1], "M").unwrap(),
            (Ratio::ZERO, Ratio::ZERO)
        );
    }

    proptest! {
        #[test]
        fn one_dimension_is_the_plain_broadcast(p in 2u64..5000) {
            let short = collective_cost(Collective::Broadcast, p, Regime::Short).unwrap();
            let long = collective_cost(Collective::Broadcast, p, Regime::Long).unwrap();
            prop_assert_eq!(hybrid_broadcast_cost(&[p], "M").unwrap(), (short.alpha, short.beta));
            prop_assert_eq!(hybrid_broadcast_cost(&[p], "SC").unwrap(), (long.alpha, long.beta));
        }
    }
}
