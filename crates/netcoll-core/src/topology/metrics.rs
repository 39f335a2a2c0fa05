//! Distance metrics between endpoints: diameter and average distance in switch-to-switch hops
//! (endpoints on the same switch are 0 hops apart; the injection and ejection links are not
//! counted, as in the iBT paper).
//!
//! Two averaging conventions, both reported: over all N^2 ordered pairs including the N self
//! pairs (the iBT paper's Table 1), and over the N(N-1) distinct pairs.
//!
//! Exact at scale by symmetry: mesh, torus and hypercube have closed forms (never built);
//! an iBT is invariant under every translation whose coordinate sum is a multiple of d*k, so
//! d*k breadth-first searches, one per species, cover all N^2 pairs. Anything else gets one
//! BFS per switch, in parallel.

use super::{Family, Topology};
use crate::error::{Error, Result};
use crate::spec::TopologySpec;
use rayon::prelude::*;
use serde::Serialize;

pub use super::bfs::Bfs;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Metrics {
    /// Endpoints.
    pub nodes: u64,
    pub switches: u64,
    /// Switch-to-switch links.
    pub links: u64,
    /// Smallest and largest number of switch-to-switch links at a switch.
    pub degree_min: u32,
    pub degree_max: u32,
    /// Largest hop distance between two endpoints.
    pub diameter: u32,
    /// Sum of hop distances over all ordered endpoint pairs (exact; serialised as an integer
    /// when it fits 64 bits).
    #[serde(serialize_with = "u128_as_number")]
    pub total_distance: u128,
    /// total / N^2 (self pairs included: the iBT paper's convention).
    pub average_distance: f64,
    /// total / (N(N-1)) (distinct pairs only).
    pub average_distance_distinct: f64,
    /// How the figures were obtained: "closed form", "symmetry (k BFS)" or "all-pairs BFS".
    pub method: String,
    /// Switches (routers), again under the name the network families use.
    pub routers: u64,
    /// Largest number of ports on a router (endpoint ports included).
    pub radix: u32,
    /// Links cut by the family's bisection (see `network_metrics`), None without a formula.
    pub bisection_links: Option<u64>,
    /// Cost: switch-to-switch cables by link class (local, global, tree).
    pub cables: std::collections::BTreeMap<String, u64>,
}

fn u128_as_number<S: serde::Serializer>(v: &u128, s: S) -> std::result::Result<S::Ok, S::Error> {
    match u64::try_from(*v) {
        Ok(x) => s.serialize_u64(x),
        Err(_) => s.serialize_f64(*v as f64),
    }
}

/// Metrics of a spec, from a closed form where the family has one, else by building it.
pub fn metrics_of_spec(spec: &TopologySpec) -> Result<Metrics> {
    let mut m = match spec {
        // The closed forms count one node per router; a concentrated grid is measured.
        TopologySpec::Mesh(d, 1) => grid_closed_form(d, false),
        TopologySpec::Torus(d, 1) => grid_closed_form(d, true),
        TopologySpec::Hypercube(n) => hypercube_closed_form(*n),
        TopologySpec::Irregular(p) => {
            // From the spec, before building: BFS from at most min(switches, nodes) switches
            // over at most switches x ports / 2 links.
            let (s, sources) = (p.switches as u128, p.switches.min(p.nodes) as u128);
            check_all_pairs_work(&spec.canonical(), s, sources, s * p.ports as u128 / 2)?;
            return metrics(&Topology::from_parsed(spec)?);
        }
        _ => return metrics(&Topology::from_parsed(spec)?),
    };
    let extras = super::network_metrics::grid_extras(m.degree_max, m.links, spec);
    apply(&mut m, extras);
    Ok(m)
}

/// Refuses all-pairs BFS from `sources` of `switches` switches over `links` links when its
/// work passes [`ALL_PAIRS_LIMIT`].
fn check_all_pairs_work(name: &str, switches: u128, sources: u128, links: u128) -> Result<()> {
    let work = sources * (switches + 2 * links);
    if work > ALL_PAIRS_LIMIT {
        let (steps, limit) = (work as f64, ALL_PAIRS_LIMIT as f64);
        return Err(Error::TooLarge(format!(
            "{name}: {sources} BFS over {switches} switches without a known symmetry take \
             about {steps:.1e} steps, more than the {limit:.0e} allowed; use a mesh, torus, \
             hypercube or iBT spec, or a smaller network"
        )));
    }
    Ok(())
}

/// Exact metrics of a built network, using its symmetry when it has one.
pub fn metrics(topo: &Topology) -> Result<Metrics> {
    use super::network_metrics as nm;
    let mut m = match topo.family() {
        // The closed forms count one node per router (`,c=C` is measured).
        Family::Mesh { dims } if topo.concentration() == 1 => grid_closed_form(dims, false),
        Family::Torus { dims } if topo.concentration() == 1 => grid_closed_form(dims, true),
        Family::Hypercube { dim } => hypercube_closed_form(*dim),
        Family::Ibt(p) => ibt_by_species(topo, p),
        Family::FatTree(p) => from_figures(nm::fattree_closed_form(p)),
        Family::Flatfly(p) | Family::HyperX(p) => from_figures(nm::hamming_closed_form(p)),
        Family::Dragonfly(p) if p.arrangement != crate::params::Arrangement::Absolute => {
            from_figures(nm::dragonfly_by_symmetry(topo, p))
        }
        Family::Dragonfly(_) => {
            // BookSim's absolute arrangement is not symmetric under rotating the groups: one
            // BFS per router (2,064 for the 16,512-endpoint machine, a fraction of a second).
            let mut m = metrics_all_pairs(topo)?;
            m.method = "one BFS per router".into();
            m
        }
        _ => metrics_all_pairs(topo)?,
    };
    apply(&mut m, nm::network_extras(topo));
    Ok(m)
}

fn from_figures(f: super::network_metrics::Figures) -> Metrics {
    finish(f.counts, f.degrees, f.diameter, f.total, f.method)
}

fn apply(m: &mut Metrics, e: super::network_metrics::Extras) {
    (m.radix, m.bisection_links, m.cables) = (e.radix, e.bisection_links, e.cables);
}

fn finish(
    topo_counts: (u64, u64, u64),
    degrees: (u32, u32),
    diameter: u32,
    total: u128,
    method: String,
) -> Metrics {
    let (nodes, switches, links) = topo_counts;
    let n = nodes as f64;
    Metrics {
        nodes,
        switches,
        links,
        degree_min: degrees.0,
        degree_max: degrees.1,
        diameter,
        total_distance: total,
        average_distance: total as f64 / (n * n),
        average_distance_distinct: if nodes > 1 {
            total as f64 / (n * (n - 1.0))
        } else {
            0.0
        },
        method,
        routers: switches,
        radix: 0,
        bisection_links: None,
        cables: Default::default(),
    }
}

/// Sum of |x - y| (mesh) or ring distance (torus) over all ordered pairs of one dimension.
fn pair_sum_1d(k: u128, wrap: bool) -> u128 {
    if wrap {
        k * (k * k / 4) // each x sees floor(k^2/4) in total
    } else {
        (k * k * k - k) / 3
    }
}

/// Sum of the distances of all ordered pairs of routers of a mesh (or torus, `wrap`).
pub(crate) fn grid_pair_distance_sum(dims: &[usize], wrap: bool) -> u128 {
    let n: u128 = dims.iter().map(|&k| k as u128).product();
    dims.iter()
        .map(|&k| {
            let k = k as u128;
            pair_sum_1d(k, wrap) * (n / k) * (n / k)
        })
        .sum()
}

fn grid_closed_form(dims: &[usize], wrap: bool) -> Metrics {
    let n: u128 = dims.iter().map(|&k| k as u128).product();
    let total = grid_pair_distance_sum(dims, wrap);
    let diameter = dims
        .iter()
        .map(|&k| if wrap { k / 2 } else { k - 1 } as u32)
        .sum();
    let d = dims.len();
    let links: u128 = dims
        .iter()
        .map(|&k| {
            let k = k as u128;
            if wrap {
                n
            } else {
                n / k * (k - 1)
            }
        })
        .sum();
    // A mesh corner router has d network links; a 1-D or radix-2 mesh still has at least one.
    let degree_min = if wrap { 2 * d } else { d };
    let degree_max = if wrap {
        2 * d
    } else {
        dims.iter().map(|&k| if k > 2 { 2 } else { 1 }).sum()
    };
    finish(
        (n as u64, n as u64, links as u64),
        (degree_min as u32, degree_max as u32),
        diameter,
        total,
        "closed form".into(),
    )
}

fn hypercube_closed_form(dim: usize) -> Metrics {
    let n = 1u128 << dim;
    // Over all ordered pairs each bit differs in half of them.
    let total = n * n / 2 * dim as u128;
    finish(
        (n as u64, n as u64, (n / 2 * dim as u128) as u64),
        (dim as u32, dim as u32),
        dim as u32,
        total,
        "closed form".into(),
    )
}

fn counts(topo: &Topology) -> ((u64, u64, u64), (u32, u32)) {
    let degs = (0..topo.num_switches()).map(|s| topo.degree(s) as u32);
    let (dmin, dmax) = degs.fold((u32::MAX, 0), |(a, b), d| (a.min(d), b.max(d)));
    (
        (
            topo.num_endpoints() as u64,
            topo.num_switches() as u64,
            topo.num_links() as u64,
        ),
        (dmin, dmax),
    )
}

fn ibt_by_species(topo: &Topology, p: &super::IbtParams) -> Metrics {
    let m = p.species();
    let n = topo.num_switches();
    let shape = topo.shape().to_vec();
    // Representative of species r: (r, 0, ..., 0); every radix is a multiple of m > r.
    let reps: Vec<usize> = (0..m)
        .map(|r| super::index_of(&rep_coords(r, &shape), &shape))
        .collect();
    let ones = vec![1u32; n];
    let results: Vec<(u32, u128)> = reps
        .par_iter()
        .map_init(|| Bfs::new(n), |bfs, &s| bfs.run(topo, s, &ones))
        .collect();
    let diameter = results.iter().map(|r| r.0).max().unwrap_or(0);
    let per_class = (n / m) as u128;
    let total = results.iter().map(|r| r.1).sum::<u128>() * per_class;
    let (c, d) = counts(topo);
    finish(c, d, diameter, total, format!("symmetry ({m} BFS)"))
}

fn rep_coords(r: usize, shape: &[usize]) -> Vec<usize> {
    let mut c = vec![0; shape.len()];
    c[0] = r;
    c
}

/// Work limit for all-pairs BFS (switches x (switches + adjacencies)).
const ALL_PAIRS_LIMIT: u128 = 40_000_000_000;

/// One BFS per switch that hosts endpoints; distances weighted by endpoints per switch.
pub fn metrics_all_pairs(topo: &Topology) -> Result<Metrics> {
    let s = topo.num_switches();
    let weight = topo.endpoints_per_switch();
    let sources: Vec<usize> = (0..s).filter(|&x| weight[x] > 0).collect();
    let links = topo.num_links() as u128;
    check_all_pairs_work(topo.name(), s as u128, sources.len() as u128, links)?;
    let results: Vec<(u32, u128)> = sources
        .par_iter()
        .map_init(
            || Bfs::new(s),
            |bfs, &src| {
                let (ecc, sum) = bfs.run(topo, src, &weight);
                (ecc, sum * weight[src] as u128)
            },
        )
        .collect();
    let diameter = results.iter().map(|r| r.0).max().unwrap_or(0);
    let total = results.iter().map(|r| r.1).sum();
    let (c, d) = counts(topo);
    let mut m = finish(c, d, diameter, total, "all-pairs BFS".into());
    apply(&mut m, super::network_metrics::network_extras(topo));
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(s: &str) -> TopologySpec {
        TopologySpec::parse(s).unwrap()
    }

    /// Table 1 of the iBT paper (seed 004): iBT(64^2; b), diameter and average distance.
    #[test]
    fn reproduces_ibt_table_1() {
        for (b, diameter, avg) in [
            ("6", 14, 8.096),
            ("14", 12, 7.482),
            ("4,16", 10, 6.568),
            ("8,24", 10, 6.633),
        ] {
            let m = metrics_of_spec(&spec(&format!("ibt:64x64:b={b}"))).unwrap();
            assert_eq!(m.diameter, diameter, "b={b}");
            assert!(
                (m.average_distance - avg).abs() < 1e-3,
                "b={b}: {}",
                m.average_distance
            );
        }
    }

    #[test]
    fn symmetry_and_closed_forms_equal_all_pairs_bfs() {
        for s in [
            "mesh:5x3",
            "mesh:4x4x2",
            "mesh:7",
            "torus:5x4",
            "torus:2x3x4",
            "torus:9",
            "hypercube:1",
            "hypercube:5",
            "ibt:16x16:b=4",
            "ibt:24x24:b=4,8",
            "ibt:12x12x12:b=3",
            "ibt:16:b=4",
        ] {
            let t = Topology::from_spec(s).unwrap();
            let fast = metrics(&t).unwrap();
            let slow = metrics_all_pairs(&t).unwrap();
            assert_eq!(fast.diameter, slow.diameter, "{s}");
            assert_eq!(fast.total_distance, slow.total_distance, "{s}");
            assert_eq!(fast.links, slow.links, "{s}");
            assert_eq!(
                (fast.degree_min, fast.degree_max),
                (slow.degree_min, slow.degree_max),
                "{s}"
            );
        }
    }

    #[test]
    fn hand_worked_small_cases() {
        // 3-node line: distances 0,1,2 / 1,0,1 / 2,1,0 -> total 8.
        let m = metrics_of_spec(&spec("mesh:3")).unwrap();
        assert_eq!((m.total_distance, m.diameter), (8, 2));
        assert!((m.average_distance - 8.0 / 9.0).abs() < 1e-12);
        assert!((m.average_distance_distinct - 8.0 / 6.0).abs() < 1e-12);
        // 4-ring: from each node 1+2+1 = 4 -> total 16.
        let m = metrics_of_spec(&spec("torus:4")).unwrap();
        assert_eq!((m.total_distance, m.diameter, m.links), (16, 2, 4));
        // 3-cube: from each node 3*1 + 3*2 + 1*3 = 12 -> 96.
        let m = metrics_of_spec(&spec("hypercube:3")).unwrap();
        assert_eq!((m.total_distance, m.diameter, m.links), (96, 3, 12));
    }
}
