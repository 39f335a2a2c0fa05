//! Link classes in the analytic engine's Hockney models (docs/analytic.md, "Link classes").
//!
//! Every switch-to-switch channel has a class (`topology::ChannelClass`: local, global, up,
//! down). A message's Hockney cost `alpha + c n beta` is extended per class along its route:
//!
//! - latency: `alpha + sum over the route's hops of alpha_<class of the hop>` (the per-hop
//!   alphas default to 0, so `alpha` alone is today's start-up);
//! - bandwidth: `c n beta_route`, where `beta_route` is the largest of `beta` (the endpoint
//!   links, which every message crosses) and `beta_<class>` over the route's hops: the slowest
//!   link sets the rate. A class beta left unset is `beta`.
//!
//! With the defaults every route's terms are `(0, beta)` and no route is walked, so every
//! figure is the single-class one bit for bit.

#[cfg(test)]
use super::analysis::ClassCosts;
use super::analysis::{class_index, Machine};
use super::op_graph::Paths;
use crate::error::Result;
use crate::topology::Topology;

/// The Hockney terms of one route: the latency its hops add to `alpha`, and the seconds
/// per byte of its slowest link.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct RouteTerms {
    pub(super) latency: f64,
    pub(super) beta: f64,
}

impl RouteTerms {
    /// The terms of a route over `channels` of `topo` (not walked when the classes are
    /// uniform).
    pub(super) fn of(m: &Machine, topo: &Topology, channels: impl Iterator<Item = u32>) -> Self {
        let mut t = RouteTerms {
            latency: 0.0,
            beta: m.beta,
        };
        if m.classes.is_uniform(m.beta) {
            return t;
        }
        for c in channels {
            let k = class_index(topo.channel_class(c));
            t.latency += m.classes.alpha[k];
            t.beta = t.beta.max(m.classes.beta[k].unwrap_or(m.beta));
        }
        t
    }

    /// Hockney time of `bytes` over this route with conflict factor `conflict`:
    /// `alpha + latency + conflict x bytes x beta` (exactly `alpha + c n beta` by default).
    pub(super) fn time(&self, m: &Machine, conflict: u32, bytes: u64) -> f64 {
        m.alpha + self.latency + conflict as f64 * bytes as f64 * self.beta
    }
}

/// The terms of every routed path of a schedule: one entry per path, or none when the
/// classes are uniform (then every path's terms are `(0, beta)`).
pub(super) struct RouteCosts {
    per_path: Vec<RouteTerms>,
    uniform: RouteTerms,
}

impl RouteCosts {
    pub(super) fn new(paths: &Paths, topo: &Topology, m: &Machine) -> Result<RouteCosts> {
        let uniform = RouteTerms {
            latency: 0.0,
            beta: m.beta,
        };
        let mut per_path = Vec::new();
        if !m.classes.is_uniform(m.beta) {
            let n = paths.hops.len();
            crate::guard::reserve(&mut per_path, n, "the link-class terms of every route")?;
            per_path
                .extend((0..n).map(|p| RouteTerms::of(m, topo, paths.channels(p).iter().copied())));
        }
        Ok(RouteCosts { per_path, uniform })
    }

    /// The terms of path `path`.
    pub(super) fn of(&self, path: usize) -> RouteTerms {
        self.per_path.get(path).copied().unwrap_or(self.uniform)
    }
}

#[cfg(test)]
#[path = "analytic_classes_tests.rs"]
mod tests;
