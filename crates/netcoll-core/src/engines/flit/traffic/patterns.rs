//! The destination rule of every `traffic` pattern, as BookSim's traffic.cpp defines it,
//! with BookSim's rule for the networks a pattern fits (refused with that rule where BookSim
//! would stop or send to a node that does not exist). A pattern's config value (config_enums
//! `Pattern`) is resolved once, when the run starts, into a `Rule` with what its draws need
//! precomputed. BookSim's `RandomInt(m)` is a draw in 0..=m; netcoll draws it from the run's
//! seeded stream (`randperm` alone draws from Knuth's generator, as BookSim, see randperm.rs).

use super::config::{DigitArgs, Pattern};
use crate::error::Result;
use crate::spec_err;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// What a pattern resolves against: the network and the config keys BookSim reads.
pub(super) struct Geometry<'a> {
    pub nodes: usize,
    /// The router grid of a mesh or torus (dimension 0 first), empty otherwise.
    pub shape: &'a [usize],
    /// `netcoll_topology` is set: a pattern's digits without arguments follow the shape.
    pub netcoll_shape: bool,
    pub k: usize,
    pub n: usize,
    pub xr: usize,
    pub perm_seed: i64,
}

/// A resolved pattern.
pub(super) enum Rule {
    /// Uniform over all nodes (also the one node of a multicast drawn here).
    Uniform,
    /// Uniform over the nodes not excluded (sorted), by rejection as BookSim.
    Background(Vec<usize>),
    Transpose {
        half: u32,
    },
    Bitcomp {
        mask: usize,
    },
    Bitrev {
        bits: u32,
    },
    Shuffle {
        nodes: usize,
    },
    /// The digit radices, dimension 0 first, and the offset per radix.
    Digits {
        radix: Vec<usize>,
        tornado: bool,
    },
    BadpermYarc {
        radix: usize,
    },
    BadDragon {
        group: usize,
    },
    Table(Vec<u32>),
    Diagonal,
    Asymmetric {
        half: usize,
    },
    Taper64,
    /// The hot spots, their weights and the weights' sum (below 2^32: drawn as u32, the
    /// stream rand's usize draw of a small range takes).
    Hotspot {
        nodes: Vec<usize>,
        rates: Vec<u32>,
        total: u32,
    },
}

impl Rule {
    /// Resolves `p` on `g`; a negative hot spot draws its node from `rng` now.
    pub(super) fn new(p: &Pattern, g: &Geometry, rng: &mut ChaCha8Rng) -> Result<Rule> {
        let nodes = g.nodes;
        let pow2 = nodes.is_power_of_two();
        let bits = nodes.trailing_zeros();
        let bit_rule = |name: &str| {
            spec_err!(
                "traffic = {name} is a bit permutation: it needs a power-of-two node count, \
                 not {nodes}"
            )
        };
        Ok(match p {
            Pattern::Uniform | Pattern::Multicast => Rule::Uniform,
            Pattern::Background(ex) => {
                let mut ex = ex.clone();
                ex.sort_unstable();
                ex.dedup();
                if let Some(&bad) = ex.iter().find(|&&x| x >= nodes) {
                    return spec_err!(
                        "traffic = background: node {bad} is out of range: the network has {nodes}"
                    );
                }
                if ex.len() == nodes {
                    return spec_err!("traffic = background leaves out every node: none is left");
                }
                Rule::Background(ex)
            }
            Pattern::Transpose if !pow2 => return bit_rule("transpose"),
            Pattern::Transpose if bits % 2 == 1 => {
                return spec_err!(
                    "traffic = transpose needs a node count that is an even power of two, not \
                     {nodes}"
                )
            }
            Pattern::Transpose => Rule::Transpose { half: bits / 2 },
            Pattern::Bitcomp if !pow2 => return bit_rule("bitcomp"),
            Pattern::Bitcomp => Rule::Bitcomp { mask: nodes - 1 },
            Pattern::Bitrev if !pow2 => return bit_rule("bitrev"),
            Pattern::Bitrev => Rule::Bitrev { bits },
            Pattern::Shuffle if !pow2 => return bit_rule("shuffle"),
            Pattern::Shuffle => Rule::Shuffle { nodes },
            Pattern::Neighbor(a) => Rule::Digits {
                radix: radices("neighbor", a, g)?,
                tornado: false,
            },
            Pattern::Tornado(a) => Rule::Digits {
                radix: radices("tornado", a, g)?,
                tornado: true,
            },
            Pattern::BadpermYarc(a) => badperm_yarc(a, g)?,
            Pattern::BadDragon(a) => {
                let k = a.k.unwrap_or(g.k);
                Rule::BadDragon { group: 2 * k * k }
            }
            Pattern::Randperm(seed) => {
                let seed = seed.unwrap_or(g.perm_seed);
                Rule::Table(super::randperm::permutation(nodes, seed))
            }
            Pattern::Diagonal => Rule::Diagonal,
            Pattern::Asymmetric if nodes < 2 => {
                return spec_err!("traffic = asymmetric needs at least 2 nodes, not {nodes}")
            }
            Pattern::Asymmetric => Rule::Asymmetric { half: nodes / 2 },
            Pattern::Taper64 if nodes != 64 => {
                return spec_err!("traffic = taper64 needs exactly 64 nodes, not {nodes}")
            }
            Pattern::Taper64 => Rule::Taper64,
            Pattern::Hotspot { nodes: hs, rates } => hotspot(hs, rates, nodes, rng)?,
        })
    }

    /// The destination of a packet from `src` (`nodes32`: the node count, below 2^32).
    #[inline]
    pub(super) fn dest(&self, src: usize, nodes32: u32, rng: &mut ChaCha8Rng) -> usize {
        let nodes = nodes32 as usize;
        match self {
            // rand's usize sampler takes the u32 one for such ranges (UniformUsize::
            // sample_single): calling it directly skips a call and a test.
            Rule::Uniform => rng.random_range(0..nodes32) as usize,
            Rule::Background(ex) => loop {
                let d = rng.random_range(0..nodes32) as usize;
                if ex.binary_search(&d).is_err() {
                    break d;
                }
            },
            Rule::Transpose { half } => {
                let lo = src & ((1 << half) - 1);
                (lo << half) | (src >> half)
            }
            Rule::Bitcomp { mask } => !src & mask,
            Rule::Bitrev { bits } => match bits {
                0 => 0,
                b => src.reverse_bits() >> (usize::BITS - b),
            },
            // Rotate left by one: the top bit comes round to the bottom.
            Rule::Shuffle { nodes } => {
                ((src << 1) & (nodes - 1)) | usize::from((src << 1) & nodes != 0)
            }
            Rule::Digits { radix, tornado } => digits(src, radix, *tornado),
            Rule::BadpermYarc { radix } => rng.random_range(0..*radix) * radix + src / radix,
            Rule::BadDragon { group } => {
                (rng.random_range(0..*group) + (src / group + 1) * group) % nodes
            }
            Rule::Table(t) => t[src] as usize,
            Rule::Diagonal => {
                if rng.random_range(0..3u32) == 0 {
                    (src + 1) % nodes
                } else {
                    src
                }
            }
            Rule::Asymmetric { half } => src % half + if rng.random::<bool>() { *half } else { 0 },
            Rule::Taper64 => {
                if rng.random::<bool>() {
                    let dy = rng.random_range(0..3usize);
                    let dx = rng.random_range(0..3usize);
                    (64 + src + 8 * dy + dx - 9) % 64
                } else {
                    rng.random_range(0..nodes32) as usize
                }
            }
            Rule::Hotspot {
                nodes,
                rates,
                total,
            } => {
                if nodes.len() == 1 {
                    return nodes[0];
                }
                let mut pick = rng.random_range(0..*total);
                for (&n, &w) in nodes.iter().zip(rates) {
                    if pick < w {
                        return n;
                    }
                    pick -= w;
                }
                unreachable!("the weights sum to the total")
            }
        }
    }
}

/// Every digit moved by 1 (neighbor) or by ceil(r / 2) - 1 (tornado), wrapping.
fn digits(src: usize, radix: &[usize], tornado: bool) -> usize {
    let (mut rest, mut out, mut mul) = (src, 0, 1);
    for &r in radix {
        let shift = if tornado { r.div_ceil(2) - 1 } else { 1 };
        out += ((rest % r + shift) % r) * mul;
        rest /= r;
        mul *= r;
    }
    out
}

/// The radices of a digit pattern: `n` digits of radix `xr * k` (arguments first, then
/// the config's keys), or, with neither arguments nor BookSim topology keys, the grid of a
/// netcoll topology. BookSim sends to a node that does not exist when the digits address
/// more nodes than the network has: refused.
fn radices(name: &str, a: &DigitArgs, g: &Geometry) -> Result<Vec<usize>> {
    let given = *a != DigitArgs::default();
    let product: usize = g.shape.iter().product();
    if !given && g.netcoll_shape && !g.shape.is_empty() && product == g.nodes {
        return Ok(g.shape.to_vec());
    }
    let (k, n, xr) = (a.k.unwrap_or(g.k), a.n.unwrap_or(g.n), a.xr.unwrap_or(g.xr));
    let r = xr.saturating_mul(k);
    let span = (0..n).try_fold(1usize, |acc, _| acc.checked_mul(r));
    match span {
        Some(s) if r > 0 && s <= g.nodes => Ok(vec![r; n]),
        _ => spec_err!(
            "traffic = {name} with k = {k}, n = {n}, xr = {xr} addresses {} nodes (n digits of \
             radix xr * k) but the network has {}: set k, n and xr to the network's, or give \
             them as {name}({{k,n,xr}})",
            span.map_or("more than 2^64".to_string(), |s| s.to_string()),
            g.nodes
        ),
    }
}

/// `badperm_yarc`: a random row of the source's column `src / r`, r = xr * k; every such
/// node must exist.
fn badperm_yarc(a: &DigitArgs, g: &Geometry) -> Result<Rule> {
    let radix = a.xr.unwrap_or(g.xr).saturating_mul(a.k.unwrap_or(g.k));
    let top = radix
        .checked_sub(1)
        .and_then(|r| r.checked_mul(radix))
        .and_then(|x| x.checked_add((g.nodes.max(1) - 1) / radix.max(1)));
    match top {
        Some(t) if t < g.nodes => Ok(Rule::BadpermYarc { radix }),
        _ => spec_err!(
            "traffic = badperm_yarc with xr * k = {radix} sends to nodes beyond the {} the \
             network has: it needs (xr k)^2 nodes at least, as an xr k x xr k grid",
            g.nodes
        ),
    }
}

fn hotspot(hs: &[i64], rates: &[u32], nodes: usize, rng: &mut ChaCha8Rng) -> Result<Rule> {
    let mut list = Vec::with_capacity(hs.len());
    for &h in hs {
        match usize::try_from(h) {
            Ok(x) if x < nodes => list.push(x),
            // BookSim's: a negative hot spot is a random node, drawn once.
            Err(_) => list.push(rng.random_range(0..nodes)),
            Ok(x) => {
                return spec_err!(
                    "traffic = hotspot: node {x} is out of range: the network has {nodes} \
                     (0 to {})",
                    nodes - 1
                )
            }
        }
    }
    let sum: u64 = rates.iter().map(|&w| w as u64).sum();
    let Ok(total) = u32::try_from(sum) else {
        return spec_err!("traffic = hotspot: the weights sum to {sum}; keep the sum below 2^32");
    };
    Ok(Rule::Hotspot {
        nodes: list,
        rates: rates.to_vec(),
        total,
    })
}
