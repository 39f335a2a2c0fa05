//! The broadcast protocols of seed 004 as port masks for the step engine's flood front end.
//!
//! A broadcast is a set of *colours*. Colour `c` owns a share of the packets and an order of
//! the participating dimensions `O = (O0, O1, ...)`: the source line-broadcasts its packets in
//! `O0`; a node `x` that differs from the source `s` in `O0` and whose differing dimension of
//! highest position in `O` is `OP` forwards them along `OP` (rule 3: the dimension the packet
//! comes from) and broadcasts them in every `Oj`, `j > P` (rule 2: the complement of
//! `chi(i, k_m)`); a node that differs from `s` in `O0` also hands them to every neighbour `y`
//! with `y[O0] = s[O0]` (rule 4), the nodes that colour cannot otherwise reach, which do not
//! forward. One colour in one dimension is the line broadcast (s4.1); two colours with orders
//! (i1, i2) and (i2, i1) the rectangular one (s5.1); `d` colours with the cyclic orders
//! (i, i+1, ..., i-1) the global one (s6.1). The torus baseline of formulas (5) and (6) uses
//! `2d` colours, one per dimension and direction, each confined to torus links of its
//! direction.

use super::super::Params;
use crate::engines::step::flood::{self, Flood, FloodResult, Forward, PortNet, Tie, NONE};
use crate::engines::step::PortModel;
use crate::error::Result;
use crate::topology::{coords_of, Family, IbtParams, Topology};
use crate::{invalid, spec_err};
use serde::Serialize;

/// Which broadcast.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Line,
    Rect,
    Global,
    /// The torus multi-colour spanning trees (formulas 5 and 6) over `group` dimensions.
    Trees,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Line => "line",
            Kind::Rect => "rect",
            Kind::Global => "global",
            Kind::Trees => "trees",
        }
    }
}

/// Link directions a colour may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dir {
    Both,
    Plus,
    Minus,
}

/// A torus or iBT seen as a grid with an optional bypass ring per node.
pub struct Grid {
    pub dims: Vec<usize>,
    pub ibt: Option<IbtParams>,
}

impl Grid {
    pub fn of(topo: &Topology) -> Result<Grid> {
        let grid = matches!(topo.family(), Family::Mesh { .. } | Family::Torus { .. });
        if grid && topo.num_endpoints() != topo.num_switches() {
            return spec_err!(
                "the iBT broadcasts place one node per router, and {} has {} a router: drop \
                 its ,c=",
                topo.name(),
                topo.concentration()
            );
        }
        match topo.family() {
            Family::Torus { dims } => Ok(Grid {
                dims: dims.clone(),
                ibt: None,
            }),
            Family::Ibt(p) => Ok(Grid {
                dims: p.dims.clone(),
                ibt: Some(p.clone()),
            }),
            _ => spec_err!(
                "the iBT broadcasts run on tori and interlaced bypass tori, not {}: use e.g. \
                 torus:64x64 or ibt:64x64:b=6",
                topo.name()
            ),
        }
    }

    /// Bypass dimension of the node with these coordinates, if it has a bypass ring.
    fn bypass_dim(&self, coords: &[usize]) -> Option<usize> {
        self.ibt
            .as_ref()
            .map(|p| p.bypass_of(p.species_of(coords)).0)
    }

    /// Ports of a node in dimension `dim` usable in direction `dir` (bypass links only with
    /// `Both`: the torus baseline stays on torus links).
    fn ports_in(&self, coords: &[usize], dim: usize, dir: Dir) -> u16 {
        let d = self.dims.len();
        let mut m = 0u16;
        if dir != Dir::Minus {
            m |= 1 << (2 * dim);
        }
        if dir != Dir::Plus {
            m |= 1 << (2 * dim + 1);
        }
        if dir == Dir::Both && self.bypass_dim(coords) == Some(dim) {
            m |= 0b11 << (2 * d);
        }
        m
    }
}

/// Everything that defines one run of a broadcast.
#[derive(Debug, Clone, Serialize)]
pub struct Setup {
    pub kind: Kind,
    /// Participating dimensions (0-based): line `[i]`, rect `[i1, i2]`, global and trees all.
    pub dims: Vec<usize>,
    pub source: u32,
    pub k: u32,
    /// Packets per colour (sums to `k`).
    pub split: Vec<u32>,
    /// Packet-sending pattern Int(pn) per colour (bits r R L l, s4.2).
    pub patterns: Vec<u8>,
    pub tie: Tie,
    pub forward: Forward,
    /// Pattern of the links of nodes other than the source (`None`: the source's).
    pub relay: Option<u8>,
    pub port_model: PortModel,
}

struct Colour {
    order: Vec<usize>,
    dir: Dir,
}

fn colours(kind: Kind, dims: &[usize]) -> Vec<Colour> {
    let m = dims.len();
    let rotated = |c: usize| (0..m).map(|j| dims[(c + j) % m]).collect::<Vec<_>>();
    match kind {
        Kind::Trees => (0..2 * m)
            .map(|c| Colour {
                order: rotated(c / 2),
                dir: if c % 2 == 0 { Dir::Plus } else { Dir::Minus },
            })
            .collect(),
        _ => (0..m)
            .map(|c| Colour {
                order: rotated(c),
                dir: Dir::Both,
            })
            .collect(),
    }
}

/// Number of colours of a broadcast over `m` dimensions.
pub fn num_colours(kind: Kind, m: usize) -> usize {
    if kind == Kind::Trees {
        2 * m
    } else {
        m
    }
}

/// Splits `k` packets evenly over `c` colours, the first colours taking the remainder.
pub fn even_split(k: u32, c: usize) -> Vec<u32> {
    (0..c as u32)
        .map(|i| k / c as u32 + u32::from(i < k % c as u32))
        .collect()
}

/// The protocol tables of a setup on a network.
pub fn protocol<'a>(grid: &Grid, net: &'a PortNet, s: &Setup, trace: bool) -> Result<Flood<'a>> {
    let d = grid.dims.len();
    let cols = colours(s.kind, &s.dims);
    if s.split.len() != cols.len() || s.patterns.len() != cols.len() {
        return invalid!("a {} broadcast has {} colours", s.kind.name(), cols.len());
    }
    let n = net.nodes;
    let src = coords_of(s.source as usize, &grid.dims);
    let strides: Vec<usize> = (0..d).map(|j| grid.dims[..j].iter().product()).collect();
    let mut masks = vec![0u16; n * cols.len()];
    let mut targets = vec![false; n];
    let mut pos = vec![vec![0usize; d]; cols.len()];
    for (ci, col) in cols.iter().enumerate() {
        for (p, &j) in col.order.iter().enumerate() {
            pos[ci][j] = p;
        }
    }
    let mut xc = vec![0usize; d];
    for x in 0..n {
        if x > 0 {
            increment(&mut xc, &grid.dims);
        }
        let differs = |j: usize| xc[j] != src[j];
        targets[x] = (0..d).all(|j| s.dims.contains(&j) || !differs(j));
        if x == s.source as usize {
            for (ci, col) in cols.iter().enumerate() {
                masks[x * cols.len() + ci] = grid.ports_in(&xc, col.order[0], col.dir);
            }
            continue;
        }
        if !targets[x] {
            continue;
        }
        for (ci, col) in cols.iter().enumerate() {
            if !differs(col.order[0]) {
                continue;
            }
            let last = col
                .order
                .iter()
                .filter(|&&j| differs(j))
                .map(|&j| pos[ci][j])
                .max();
            let mut m = 0u16;
            for &j in &col.order[last.unwrap_or(0)..] {
                m |= grid.ports_in(&xc, j, col.dir);
            }
            let j0 = col.order[0];
            let cand = grid.ports_in(&xc, j0, col.dir);
            for q in 0..net.ports {
                let y = net.nbr[x * net.ports + q];
                if cand >> q & 1 == 1
                    && y != NONE
                    && (y as usize / strides[j0]) % grid.dims[j0] == src[j0]
                {
                    m |= 1 << q; // rule 4
                }
            }
            masks[x * cols.len() + ci] = m;
        }
    }
    let colour = packet_colours(&s.split);
    let source_order = source_lists(grid, net, s, &cols, &src);
    Ok(Flood {
        net,
        source: s.source,
        k: s.k,
        colour,
        colours: cols.len(),
        masks,
        source_order,
        targets: Some(targets),
        port_model: s.port_model,
        tie: s.tie,
        forward: s.forward,
        reverse: s.patterns.iter().map(|&pn| reverse_ports(d, pn)).collect(),
        relay_reverse: s.relay.map(|pn| vec![reverse_ports(d, pn); cols.len()]),
        trace,
    })
}

/// The nodes of the broadcast group: those that agree with the source outside `s.dims`.
pub fn group(grid: &Grid, s: &Setup) -> Vec<bool> {
    let d = grid.dims.len();
    let src = coords_of(s.source as usize, &grid.dims);
    let mut xc = vec![0usize; d];
    (0..grid.dims.iter().product::<usize>())
        .map(|x| {
            if x > 0 {
                increment(&mut xc, &grid.dims);
            }
            (0..d).all(|j| s.dims.contains(&j) || xc[j] == src[j])
        })
        .collect()
}

/// Advances mixed-radix coordinates by one, dimension 0 fastest.
fn increment(coords: &mut [usize], dims: &[usize]) {
    for (c, &k) in coords.iter_mut().zip(dims) {
        *c += 1;
        if *c < k {
            return;
        }
        *c = 0;
    }
}

/// Colour `c` owns packets `split[0] + ... + split[c-1] ..` onwards, contiguously.
fn packet_colours(split: &[u32]) -> Vec<u8> {
    split
        .iter()
        .enumerate()
        .flat_map(|(c, &n)| std::iter::repeat_n(c as u8, n as usize))
        .collect()
}

/// What the source sends on each port: the packets of the colour whose first dimension the
/// port belongs to, in order or in reverse order as the pattern's bit for that link says.
/// Bits of Int(pn), most significant first: r (torus +), R (bypass +), L (bypass -),
/// l (torus -); 0 = in order, 1 = reverse order.
fn source_lists(
    grid: &Grid,
    net: &PortNet,
    s: &Setup,
    cols: &[Colour],
    src: &[usize],
) -> Vec<Vec<u32>> {
    let d = grid.dims.len();
    let mut lists = vec![Vec::new(); net.ports];
    let mut first = 0u32;
    for (ci, col) in cols.iter().enumerate() {
        let packets: Vec<u32> = (first..first + s.split[ci]).collect();
        first += s.split[ci];
        let m = grid.ports_in(src, col.order[0], col.dir);
        for (q, list) in lists.iter_mut().enumerate() {
            if m >> q & 1 == 0 || net.nbr[(s.source as usize) * net.ports + q] == NONE {
                continue;
            }
            let bit = match q {
                q if q == 2 * d => 2,
                q if q == 2 * d + 1 => 1,
                q if q % 2 == 0 => 3,
                _ => 0,
            };
            let reverse = s.patterns[ci] >> bit & 1 == 1;
            list.extend(packets.iter().copied());
            if reverse {
                let n = list.len();
                list[n - packets.len()..].reverse();
            }
        }
    }
    lists
}

/// The ports whose links send in reverse order under pattern `pn`: bit 3 (r) the torus +
/// ports `2j`, bit 2 (R) the bypass + port `2d`, bit 1 (L) the bypass - port `2d+1`, bit 0 (l)
/// the torus - ports `2j+1`.
pub fn reverse_ports(d: usize, pn: u8) -> u16 {
    let mut m = 0u16;
    for j in 0..d {
        if pn >> 3 & 1 == 1 {
            m |= 1 << (2 * j);
        }
        if pn & 1 == 1 {
            m |= 1 << (2 * j + 1);
        }
    }
    if pn >> 2 & 1 == 1 {
        m |= 1 << (2 * d);
    }
    if pn >> 1 & 1 == 1 {
        m |= 1 << (2 * d + 1);
    }
    m
}

/// Runs one setup.
pub fn run(grid: &Grid, net: &PortNet, s: &Setup, trace: bool) -> Result<FloodResult> {
    flood::run(&protocol(grid, net, s, trace)?)
}

/// Options of a (possibly searched) broadcast, from `--set` parameters.
#[derive(Debug, Clone)]
pub struct Options {
    pub kind: Kind,
    pub dims: Vec<usize>,
    /// One pattern for every colour, or none: search.
    pub pattern: Option<u8>,
    /// Patterns searched when none is given.
    pub candidates: Vec<u8>,
    /// Rectangular broadcast: packets of the first colour, or none: search |k1 - k2| <= dk.
    pub k1: Option<u32>,
    pub dk: u32,
    pub tie: Tie,
    pub forward: Forward,
    pub relay: Option<u8>,
    pub port_model: PortModel,
}

impl Options {
    /// Reads `dim`, `dim2`, `pattern`, `patterns`, `k1`, `dk`, `tie`, `ports`.
    pub fn from_params(kind: Kind, params: &Params, d: usize) -> Result<Options> {
        let dim = params.get_u64("dim", 0)? as usize;
        let check_dim = |j: usize, key: &str| {
            if j >= d {
                spec_err!(
                    "{key}={j} is out of range: this {d}-dimensional network has dimensions 0 to {}",
                    d - 1
                )
            } else {
                Ok(j)
            }
        };
        let dim = check_dim(dim, "dim")?;
        let dims = match kind {
            Kind::Line => vec![dim],
            Kind::Rect => {
                if d < 2 {
                    return spec_err!(
                        "a rectangular broadcast needs two dimensions; use line on a ring"
                    );
                }
                let dim2 = check_dim(
                    params.get_u64("dim2", ((dim + 1) % d) as u64)? as usize,
                    "dim2",
                )?;
                if dim2 == dim {
                    return spec_err!(
                        "dim2={dim2} equals dim: a rectangle needs two different dimensions"
                    );
                }
                vec![dim, dim2]
            }
            Kind::Global => (0..d).map(|j| (dim + j) % d).collect(),
            Kind::Trees => match params.text("group", "all") {
                "all" => (0..d).collect(),
                "rect" if d >= 2 => vec![dim, (dim + 1) % d],
                g => return spec_err!("group={g} is not a tree group: use all or rect (d >= 2)"),
            },
        };
        let pattern = match params.text("pattern", "") {
            "" => None,
            t => Some(parse_pattern(t)?),
        };
        let default_cands = if kind == Kind::Line { "0-7" } else { "1,3,5,7" };
        let candidates = parse_patterns(params.text("patterns", default_cands))?;
        let k1 = match params.text("k1", "") {
            "" => None,
            _ => Some(params.get_u64("k1", 0)? as u32),
        };
        Ok(Options {
            kind,
            dims,
            pattern,
            candidates,
            k1,
            dk: params.get_u64("dk", 4)? as u32,
            tie: Tie::parse(params.text("tie", "low"))?,
            forward: Forward::parse(params.text("forward", "order"))?,
            relay: match params.text("relay", "") {
                "" => None,
                t => Some(parse_pattern(t)?),
            },
            port_model: PortModel::parse(params.text("ports", "all"))?,
        })
    }
}

fn parse_pattern(t: &str) -> Result<u8> {
    match t.parse::<u8>() {
        Ok(p) if p < 16 => Ok(p),
        _ => spec_err!("pattern={t} must be Int(pn), 0 to 15 (the paper uses 0 to 7)"),
    }
}

/// `0-7`, `1,3,5,7`, ...
fn parse_patterns(t: &str) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    for part in t.split([',', ' ']).filter(|s| !s.is_empty()) {
        if let Some((a, b)) = part.split_once('-') {
            let (a, b) = (parse_pattern(a)?, parse_pattern(b)?);
            out.extend(a..=b);
        } else {
            out.push(parse_pattern(part)?);
        }
    }
    if out.is_empty() {
        return spec_err!("patterns={t} names no pattern: e.g. patterns=1,3,5,7");
    }
    Ok(out)
}

/// The outcome of a broadcast: the setup that was run (the best one if searched).
#[derive(Debug, Clone)]
pub struct Outcome {
    pub setup: Setup,
    pub result: FloodResult,
    /// Setups tried by the search, with their steps.
    pub tried: Vec<(Vec<u8>, Vec<u32>, u32)>,
}

/// Runs a broadcast; with no pattern (or no k1 for rect) searches for the fewest steps, ties to
/// the first candidate in order.
pub fn best(
    grid: &Grid,
    net: &PortNet,
    source: u32,
    k: u32,
    o: &Options,
    trace: bool,
) -> Result<Outcome> {
    let ncol = num_colours(o.kind, o.dims.len());
    let pattern_sets: Vec<Vec<u8>> = match (o.pattern, o.kind) {
        (Some(p), _) => vec![vec![p; ncol]],
        (None, Kind::Trees) => vec![vec![0; ncol]],
        (None, Kind::Rect) => o
            .candidates
            .iter()
            .flat_map(|&a| o.candidates.iter().map(move |&b| vec![a, b]))
            .collect(),
        (None, _) => o.candidates.iter().map(|&p| vec![p; ncol]).collect(),
    };
    let splits: Vec<Vec<u32>> = match (o.kind, o.k1) {
        (Kind::Rect, Some(k1)) if k1 <= k => vec![vec![k1, k - k1]],
        (Kind::Rect, Some(k1)) => return spec_err!("k1={k1} exceeds the {k} packets"),
        (Kind::Rect, None) => (0..=k)
            .filter(|&k1| (k1 as i64 - (k - k1) as i64).unsigned_abs() <= o.dk as u64)
            .map(|k1| vec![k1, k - k1])
            .collect(),
        _ => vec![even_split(k, ncol)],
    };
    let mut best: Option<Outcome> = None;
    let mut tried = Vec::new();
    for split in &splits {
        for patterns in &pattern_sets {
            let setup = Setup {
                kind: o.kind,
                dims: o.dims.clone(),
                source,
                k,
                split: split.clone(),
                patterns: patterns.clone(),
                tie: o.tie,
                forward: o.forward,
                relay: o.relay,
                port_model: o.port_model,
            };
            let result = run(grid, net, &setup, false)?;
            tried.push((patterns.clone(), split.clone(), result.steps));
            if best.as_ref().is_none_or(|b| result.steps < b.result.steps) {
                best = Some(Outcome {
                    setup,
                    result,
                    tried: Vec::new(),
                });
            }
        }
    }
    let mut out = best.expect("at least one setup");
    if trace {
        out.result = run(grid, net, &out.setup, true)?;
    }
    out.tried = tried;
    Ok(out)
}
