//! Hybrids on a logical mesh `d1 x ... x dk` (seed 001 s6, Fig. 3 template).
//!
//! Rank `r` sits at mixed-radix coordinates with dimension 1 varying fastest, so dimension 1
//! is contiguous on the linear array (a physical row when the mesh is the network's own
//! shape). A strategy `S^j M C^j` (or `S^k C^k`) runs long-vector stage 1 in dimensions
//! 1..j, the short-vector algorithm in dimension j+1, and long-vector stage 2 back in
//! dimensions j..1. Which primitives the stages are depends on the collective:
//!
//! | collective | stage 1 | short (M) | stage 2 |
//! |---|---|---|---|
//! | broadcast | MST scatter (root's groups) | MST broadcast | bucket collect |
//! | reduce | bucket distributed combine | MST combine-to-one | MST gather (root's groups) |
//! | allreduce | bucket distributed combine | MST combine + MST broadcast | bucket collect |
//! | allgather | (none) | MST gather + MST broadcast | bucket collect |
//! | reduce-scatter | bucket distributed combine | MST combine + MST scatter | (none) |

use super::engine::Phase;
use super::prims::{mst_bcast, mst_combine, mst_gather};
use super::prims::{mst_scatter, share};
use super::stages::Stages;
use crate::error::Result;
use crate::schedule::CollectiveKind;
use crate::spec_err;

/// A logical mesh (dimensions of size 1 dropped) and a strategy that fits it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mesh {
    pub dims: Vec<usize>,
    /// Dimensions with long-vector stages (the S's): 0..scattered.
    pub scattered: usize,
    /// Whether dimension `scattered` runs the short-vector algorithm (the M).
    pub mst: bool,
}

impl Mesh {
    /// Parses `dims` and `strategy` for `p` ranks, with one-line errors.
    pub fn parse(p: u32, dims: &[u64], strategy: &str) -> Result<Mesh> {
        let name = dims
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join("x");
        if dims.contains(&0) {
            return spec_err!("logical mesh {name} has a dimension of size 0: use sizes >= 1");
        }
        let prod = dims
            .iter()
            .try_fold(1u64, |a, &d| a.checked_mul(d))
            .unwrap_or(u64::MAX);
        if prod != u64::from(p) {
            return spec_err!(
                "logical mesh {name} has {prod} nodes but there are {p} ranks: choose dims whose product is {p} (e.g. dims={p})"
            );
        }
        let live: Vec<usize> = dims
            .iter()
            .filter(|&&d| d > 1)
            .map(|&d| d as usize)
            .collect();
        // The model checks the strategy's shape and gives the one-line error.
        crate::models::hybrid_broadcast_cost(dims, strategy)?;
        let s = strategy.trim().to_ascii_uppercase();
        let mst = s.contains('M') || live.is_empty();
        let scattered = if mst {
            live.len().saturating_sub(1)
        } else {
            live.len()
        };
        Ok(Mesh {
            dims: live,
            scattered,
            mst,
        })
    }

    pub fn coords(&self, mut r: usize) -> Vec<usize> {
        self.dims
            .iter()
            .map(|&d| {
                let c = r % d;
                r /= d;
                c
            })
            .collect()
    }

    fn stride(&self, dim: usize) -> usize {
        self.dims[..dim].iter().product()
    }

    /// The groups along dimension `dim`: every line of ranks differing only in `dim`, among
    /// the ranks whose coordinates above `dim` equal `fixed`'s (all lines if `fixed` is None).
    pub fn lines(&self, dim: usize, fixed: Option<&[usize]>) -> Vec<Vec<u32>> {
        let p: usize = self.dims.iter().product();
        let (d, stride) = (self.dims[dim], self.stride(dim));
        let mut out = Vec::new();
        for r in 0..p {
            let c = self.coords(r);
            if c[dim] != 0 || fixed.is_some_and(|f| c[dim + 1..] != f[dim + 1..]) {
                continue;
            }
            out.push((0..d).map(|i| (r + i * stride) as u32).collect());
        }
        out
    }

    /// Units a rank holds after stage 1 in dimensions 0..upto: its coordinates pick nested
    /// shares of `0..u` (dimension 0 outermost).
    fn segment(&self, coords: &[usize], upto: usize, u: u32) -> (u32, u32) {
        let (mut lo, mut hi) = (0, u);
        for (&c, &d) in coords.iter().zip(&self.dims).take(upto) {
            (lo, hi) = share(c, d, lo, hi);
        }
        (lo, hi)
    }

    fn line_segment(&self, line: &[u32], upto: usize, u: u32) -> (u32, u32) {
        self.segment(&self.coords(line[0] as usize), upto, u)
    }

    /// Units in "dimension 0 most significant" order, for collectives whose stage 2 ends in
    /// dimension 0 with contiguous ranges: unit of rank r.
    pub fn unit_of_rank(&self, r: u32) -> u32 {
        let c = self.coords(r as usize);
        let mut u = 0;
        for (ci, d) in c.iter().zip(&self.dims) {
            u = u * d + ci;
        }
        u as u32
    }
}

/// Runs the hybrid for `kind` on the engine, whose units are `0..u` (ordered for `kind`:
/// rank order for broadcast/reduce/allreduce, [`Mesh::unit_of_rank`] for allgather and
/// reduce-scatter).
pub fn run(e: &mut dyn Stages, mesh: &Mesh, kind: CollectiveKind, root: u32) -> Result<()> {
    let u = e.units();
    let rc = mesh.coords(root as usize);
    let j = mesh.scattered;
    let k = mesh.dims.len();
    let stage = |e: &mut dyn Stages, f: &mut dyn FnMut(&mut Phase)| {
        let mut ph = Phase::default();
        f(&mut ph);
        e.run(ph);
    };
    use CollectiveKind::*;
    match kind {
        Broadcast => {
            for dim in 0..j {
                stage(e, &mut |ph| {
                    for line in mesh.lines(dim, Some(&rc)) {
                        let (lo, hi) = mesh.line_segment(&line, dim, u);
                        mst_scatter(ph, &line, rc[dim], lo, hi);
                    }
                });
            }
            if mesh.mst && k > 0 {
                stage(e, &mut |ph| {
                    for line in mesh.lines(j, Some(&rc)) {
                        let (lo, hi) = mesh.line_segment(&line, j, u);
                        mst_bcast(ph, &line, rc[j], lo, hi);
                    }
                });
            }
            collect_back(e, mesh, u);
        }
        Reduce => {
            combine_out(e, mesh, u);
            if mesh.mst && k > 0 {
                stage(e, &mut |ph| {
                    for line in mesh.lines(j, Some(&rc)) {
                        let (lo, hi) = mesh.line_segment(&line, j, u);
                        mst_combine(ph, &line, rc[j], lo, hi);
                    }
                });
            }
            for dim in (0..j).rev() {
                stage(e, &mut |ph| {
                    for line in mesh.lines(dim, Some(&rc)) {
                        let (lo, hi) = mesh.line_segment(&line, dim, u);
                        mst_gather(ph, &line, rc[dim], lo, hi);
                    }
                });
            }
        }
        Allreduce => {
            combine_out(e, mesh, u);
            if mesh.mst && k > 0 {
                short_middle(e, mesh, u, true);
            }
            collect_back(e, mesh, u);
        }
        Allgather => {
            if mesh.mst && k > 0 {
                short_middle(e, mesh, u, false);
            }
            collect_back(e, mesh, u);
        }
        ReduceScatter => {
            combine_out(e, mesh, u);
            if mesh.mst && k > 0 {
                stage(e, &mut |ph| {
                    for line in mesh.lines(j, None) {
                        let (lo, hi) = mesh.line_segment(&line, j, u);
                        mst_combine(ph, &line, 0, lo, hi);
                    }
                });
                stage(e, &mut |ph| {
                    for line in mesh.lines(j, None) {
                        let (lo, hi) = mesh.line_segment(&line, j, u);
                        mst_scatter(ph, &line, 0, lo, hi);
                    }
                });
            }
        }
        other => {
            return spec_err!(
                "intercom-hybrid has no {} variant: use it for bcast, reduce, allreduce, allgather or reduce-scatter",
                other.name()
            )
        }
    }
    Ok(())
}

/// Stage 2 of the long-vector algorithms: bucket collects in dimensions j-1 down to 0.
fn collect_back(e: &mut dyn Stages, mesh: &Mesh, u: u32) {
    for dim in (0..mesh.scattered).rev() {
        e.buckets(&line_groups(mesh, dim, u), false);
    }
}

/// Stage 1 of the reductions: bucket distributed combines in dimensions 0..j.
fn combine_out(e: &mut dyn Stages, mesh: &Mesh, u: u32) {
    for dim in 0..mesh.scattered {
        e.buckets(&line_groups(mesh, dim, u), true);
    }
}

/// Every line along `dim` with its segment of `0..u`.
fn line_groups(mesh: &Mesh, dim: usize, u: u32) -> Vec<super::stages::Group> {
    mesh.lines(dim, None)
        .into_iter()
        .map(|line| {
            let (lo, hi) = mesh.line_segment(&line, dim, u);
            (line, lo, hi)
        })
        .collect()
}

/// The short-vector middle in dimension j on every line: combine-to-one then broadcast
/// (allreduce), or gather then broadcast (allgather).
fn short_middle(e: &mut dyn Stages, mesh: &Mesh, u: u32, reduce: bool) {
    let j = mesh.scattered;
    let lines = mesh.lines(j, None);
    let mut ph = Phase::default();
    for line in &lines {
        let (lo, hi) = mesh.line_segment(line, j, u);
        if reduce {
            mst_combine(&mut ph, line, 0, lo, hi);
        } else {
            mst_gather(&mut ph, line, 0, lo, hi);
        }
    }
    e.run(ph);
    let mut ph = Phase::default();
    for line in &lines {
        let (lo, hi) = mesh.line_segment(line, j, u);
        mst_bcast(&mut ph, line, 0, lo, hi);
    }
    e.run(ph);
}
