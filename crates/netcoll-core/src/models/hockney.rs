//! Alpha-beta-gamma (Hockney) costs of InterCom's collectives on a linear array
//! (seed 001, van de Geijn et al., "InterCom", s2, s4-6).
//!
//! A message of n bytes costs `alpha + n beta` between any two nodes; a node sends and
//! receives at once but talks to one node at a time; messages sharing a link share its
//! bandwidth; combining one item costs `gamma` (s2). Every cost here is a triple of exact
//! coefficients, `a alpha + b n beta + c n gamma`.
//!
//! Hybrids (s6, Fig. 3 template) view the p nodes as a logical mesh `d1 x ... x dk` whose
//! dimension 1 is contiguous in the array. A broadcast scatters in dimensions 1..j, runs a
//! minimum-spanning-tree broadcast in the next dimension (or none), then collects back in
//! reverse. A message sent in dimension i shares its links with `d1 * ... * d(i-1)` others
//! (the paper's bold-face conflict factor), which multiplies its beta term.

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

/// Parses a logical mesh such as `"2x3x5"` (also `"2*3*5"` or `"2,3,5"`).
pub fn parse_mesh(spec: &str) -> Result<Vec<u64>> {
    let dims: std::result::Result<Vec<u64>, _> = spec
        .split(['x', 'X', '*', ','])
        .map(|d| d.trim().parse::<u64>())
        .collect();
    match dims {
        Ok(d) if !d.is_empty() => Ok(d),
        _ => crate::spec_err!("logical mesh '{spec}' is not a list of sizes: write it like 2x3x5"),
    }
}

fn mesh_name(dims: &[u64]) -> String {
    dims.iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join("x")
}

/// Checks a logical mesh and returns its node count.
fn check_mesh(dims: &[u64]) -> Result<u64> {
    if dims.is_empty() {
        return crate::spec_err!("logical mesh has no dimensions: give at least one, e.g. [30]");
    }
    let mut p: u64 = 1;
    for (i, &d) in dims.iter().enumerate() {
        if d == 0 {
            return crate::spec_err!(
                "dimension {} of the logical mesh {} is 0: every dimension must be at least 1",
                i + 1,
                mesh_name(dims)
            );
        }
        p = p.checked_mul(d).filter(|&q| q <= MAX_P).ok_or_else(|| {
            Error::TooLarge(format!(
                "logical mesh {} has more than {MAX_P} nodes: use a smaller mesh",
                mesh_name(dims)
            ))
        })?;
    }
    Ok(p)
}

/// Whether a hybrid broadcast ends its scatters with an MST broadcast (`S..SMC..C`) or goes
/// straight to the collects (`S..SC..C`).
fn strategy_shape(dims: &[u64], strategy: &str) -> Result<bool> {
    if let Some(bad) = strategy.chars().find(|c| !"SMC".contains(*c)) {
        return crate::spec_err!(
            "strategy '{strategy}' has '{bad}': use only S (scatter), M (MST broadcast) and C (bucket collect)"
        );
    }
    let k = dims.len();
    let scatters = "S".repeat(k);
    let collects = "C".repeat(k);
    let with_m = format!("{}M{}", &scatters[1..], &collects[1..]);
    let without_m = format!("{scatters}{collects}");
    if strategy == with_m {
        Ok(true)
    } else if strategy == without_m {
        Ok(false)
    } else {
        crate::spec_err!(
            "strategy '{strategy}' does not fit the {k}-dimensional mesh {} (dimensions of size 1 are ignored): use '{with_m}' (MST in the last dimension) or '{without_m}'",
            mesh_name(dims)
        )
    }
}

/// Exact `(alpha, n beta)` coefficients of a hybrid broadcast on a linear array viewed as
/// the logical mesh `dims` = `d1 x ... x dk`, with `strategy` one of `S^(k-1) M C^(k-1)` or
/// `S^k C^k` (seed 001 s6, Table 2, Fig. 3). Dimensions of size 1 are dropped first, so
/// `(1x30, "M")` is the plain MST broadcast as in Table 2. Scatter in dimension i costs
/// `ceil(log di) alpha + (di-1)/di v c n beta`, where v is the fraction of the vector still
/// held and `c = d1 ... d(i-1)` the conflict factor; the MST in the last dimension costs
/// `ceil(log dk) (alpha + v c n beta)`; the bucket collect in dimension i costs
/// `(di-1) alpha + (di-1)/di v c n beta`.
pub fn hybrid_broadcast_cost(dims: &[u64], strategy: &str) -> Result<(Ratio, Ratio)> {
    check_mesh(dims)?;
    let strategy = strategy.trim().to_ascii_uppercase();
    let live: Vec<u64> = dims.iter().copied().filter(|&d| d > 1).collect();
    if live.is_empty() {
        // One node: nothing to send, whichever strategy was named.
        return match strategy.as_str() {
            "" | "M" => Ok((Ratio::ZERO, Ratio::ZERO)),
            _ => crate::spec_err!(
                "strategy '{strategy}' does not fit a single node: use 'M' (nothing is sent)"
            ),
        };
    }
    let with_mst = strategy_shape(&live, &strategy)?;
    let k = live.len();
    let scattered = if with_mst { k - 1 } else { k };
    let (mut alpha, mut beta) = (Ratio::ZERO, Ratio::ZERO);
    let mut held = Ratio::int(1); // fraction of the vector each node still handles
    let mut conflict: u64 = 1; // product of the dimensions before the current one
    for &d in &live[..scattered] {
        alpha = alpha.checked_add(Ratio::int(ceil_log2(d)))?;
        let bytes = frac(d - 1, d)
            .checked_mul(held)?
            .checked_mul(Ratio::int(conflict.into()))?;
        beta = beta.checked_add(bytes)?;
        held = held.checked_mul(frac(1, d))?;
        conflict *= d;
    }
    if with_mst {
        let steps = Ratio::int(ceil_log2(live[k - 1]));
        alpha = alpha.checked_add(steps)?;
        let bytes = steps
            .checked_mul(held)?
            .checked_mul(Ratio::int(conflict.into()))?;
        beta = beta.checked_add(bytes)?;
    }
    for &d in live[..scattered].iter().rev() {
        held = held.checked_mul(Ratio::int(d.into()))?;
        conflict /= d;
        alpha = alpha.checked_add(Ratio::int((d - 1).into()))?;
        let bytes = frac(d - 1, d)
            .checked_mul(held)?
            .checked_mul(Ratio::int(conflict.into()))?;
        beta = beta.checked_add(bytes)?;
    }
    Ok((alpha, beta))
}

/// [`hybrid_broadcast_cost`] after checking that the mesh has exactly `p` nodes.
pub fn hybrid_broadcast_cost_for(p: u64, dims: &[u64], strategy: &str) -> Result<(Ratio, Ratio)> {
    check_p(p)?;
    let q = check_mesh(dims)?;
    if q != p {
        return crate::spec_err!(
            "logical mesh {} has {q} nodes but p = {p}: choose dimensions whose product is p",
            mesh_name(dims)
        );
    }
    hybrid_broadcast_cost(dims, strategy)
}

/// [`hybrid_broadcast_cost`] as floating-point coefficients.
pub fn hybrid_broadcast_cost_f64(dims: &[u64], strategy: &str) -> Result<(f64, f64)> {
    let (a, b) = hybrid_broadcast_cost(dims, strategy)?;
    Ok((a.to_f64(), b.to_f64()))
}

/// One hybrid broadcast and its cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HybridOption {
    /// The logical mesh, dimension 1 contiguous.
    pub dims: Vec<u64>,
    /// The strategy string, e.g. `SSMCC`.
    pub strategy: String,
    /// Coefficient of alpha.
    pub alpha: Ratio,
    /// Coefficient of `n beta`.
    pub nbeta: Ratio,
}

/// Every hybrid broadcast on `p` nodes: each ordered factorisation of p into factors >= 2
/// (at most `max_dims` of them) with both strategy shapes, and the plain MST broadcast
/// `([p], "M")`. This is the menu Table 2 of seed 001 samples from.
pub fn hybrid_broadcast_options(p: u64, max_dims: usize) -> Result<Vec<HybridOption>> {
    check_p(p)?;
    if p > 1 << 24 {
        return Err(Error::TooLarge(format!(
            "enumerating the hybrids of p = {p} is too large: use p <= 2^24"
        )));
    }
    let mut meshes: Vec<Vec<u64>> = Vec::new();
    let mut stack: Vec<(u64, Vec<u64>)> = vec![(p, Vec::new())];
    while let Some((rest, dims)) = stack.pop() {
        if rest == 1 {
            if !dims.is_empty() {
                meshes.push(dims);
            }
            continue;
        }
        if dims.len() == max_dims {
            continue;
        }
        for d in (2..=rest).filter(|d| rest % d == 0) {
            let mut next = dims.clone();
            next.push(d);
            stack.push((rest / d, next));
        }
    }
    meshes.sort();
    let mut out = Vec::new();
    if p == 1 {
        meshes.push(vec![1]);
    }
    for dims in meshes {
        let k = dims.iter().filter(|&&d| d > 1).count();
        let mut strategies = vec![format!(
            "{}M{}",
            "S".repeat(k.saturating_sub(1)),
            "C".repeat(k.saturating_sub(1))
        )];
        if k > 0 {
            strategies.push(format!("{}{}", "S".repeat(k), "C".repeat(k)));
        }
        for strategy in strategies {
            let (alpha, nbeta) = hybrid_broadcast_cost(&dims, &strategy)?;
            out.push(HybridOption {
                dims: dims.clone(),
                strategy,
                alpha,
                nbeta,
            });
        }
    }
    Ok(out)
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

    /// Rows of seed 001 Table 2 (broadcast on a linear array of 30 nodes) that the conflict
    /// model reproduces exactly: (mesh, strategy, alpha, n beta numerator over 30).
    const TABLE2: [(&str, &str, i128, i128); 8] = [
        ("2x3x5", "SSMCC", 9, 160),
        ("1x30", "M", 5, 150),
        ("2x15", "SMC", 6, 150),
        ("5x6", "SSCC", 15, 98),
        ("6x5", "SSCC", 15, 98),
        ("3x10", "SSCC", 17, 94),
        ("10x3", "SSCC", 17, 94),
        ("2x15", "SSCC", 20, 86),
    ];

    #[test]
    fn table2_rows() {
        for (mesh, strategy, alpha, nbeta30) in TABLE2 {
            let dims = parse_mesh(mesh).unwrap();
            let got = hybrid_broadcast_cost_for(30, &dims, strategy).unwrap();
            assert_eq!(
                got,
                (Ratio::int(alpha), r(nbeta30, 30)),
                "({mesh}, {strategy})"
            );
        }
    }

    #[test]
    fn table2_row_3x10_smc_is_not_reproducible() {
        // Table 2 prints (3x10, SMC) = 16 alpha + 240/30 n beta. The model gives
        // 8 alpha + 160/30 n beta: scatter over 3 (2 alpha + 20/30), MST over 10 with a third
        // of the vector and conflict factor 3 (4 alpha + 120/30), collect over 3
        // (2 alpha + 20/30). No hybrid on any logical mesh of 30 nodes costs 16 + 240/30.
        let got = hybrid_broadcast_cost(&[3, 10], "SMC").unwrap();
        assert_eq!(got, (Ratio::int(8), r(160, 30)));
        let all = hybrid_broadcast_options(30, 5).unwrap();
        assert!(!all
            .iter()
            .any(|o| o.alpha == Ratio::int(16) && o.nbeta == r(240, 30)));
        assert!(all
            .iter()
            .any(|o| o.dims == [2, 3, 5] && o.strategy == "SSMCC"));
    }

    #[test]
    fn table2_footnote_three_rows_lose_to_mst() {
        // "three of the examples in Table 2 have a cost which in fact are worse than the
        // minimum spanning tree broadcast cost, 5 alpha + 5 n beta".
        let mut rows: Vec<(Vec<u64>, &str)> = TABLE2
            .iter()
            .map(|(m, s, _, _)| (parse_mesh(m).unwrap(), *s))
            .collect();
        rows.push((vec![3, 10], "SMC"));
        let mst = (Ratio::int(5), Ratio::int(5));
        let worse = rows
            .iter()
            .map(|(d, s)| hybrid_broadcast_cost(d, s).unwrap())
            .filter(|&(a, b)| a.to_f64() >= 5.0 && b.to_f64() >= 5.0 && (a, b) != mst)
            .count();
        assert_eq!(worse, 3);
    }

    #[test]
    fn figure1_twelve_nodes_six_steps() {
        // Fig. 1: 12 nodes, scatters in two groups of two, MST in groups of three,
        // collects in groups of two: six steps.
        let (a, b) = hybrid_broadcast_cost(&[2, 2, 3], "SSMCC").unwrap();
        assert_eq!((a, b), (Ratio::int(6), Ratio::int(4)));
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

        #[test]
        fn scatter_collect_hybrids_move_the_same_bytes_pairwise(
            dims in proptest::collection::vec(2u64..12, 1..4)
        ) {
            // With conflict factors, each scatter/collect pair costs 2 (d-1)/d n beta
            // whatever its position: the shrinking vector and the growing conflict cancel.
            let k = dims.len();
            let s = format!("{}{}", "S".repeat(k), "C".repeat(k));
            let (a, b) = hybrid_broadcast_cost(&dims, &s).unwrap();
            let mut want_a = Ratio::ZERO;
            let mut want_b = Ratio::ZERO;
            for &d in &dims {
                want_a = want_a + Ratio::int(ceil_log2(d) + i128::from(d) - 1);
                want_b = want_b + frac(2 * (d - 1), d);
            }
            prop_assert_eq!((a, b), (want_a, want_b));
        }

        #[test]
        fn options_cover_each_mesh_once_per_shape(p in 1u64..400) {
            let opts = hybrid_broadcast_options(p, 6).unwrap();
            for o in &opts {
                let q: u64 = o.dims.iter().product();
                prop_assert_eq!(q, p);
                prop_assert_eq!(
                    hybrid_broadcast_cost_for(p, &o.dims, &o.strategy).unwrap(),
                    (o.alpha, o.nbeta)
                );
            }
            // The cheapest start-up count is the MST broadcast's ceil(log p).
            let min_alpha = opts.iter().map(|o| o.alpha).min_by_key(|a| a.numer()).unwrap();
            prop_assert_eq!(min_alpha, Ratio::int(ceil_log2(p)));
        }
    }
}
