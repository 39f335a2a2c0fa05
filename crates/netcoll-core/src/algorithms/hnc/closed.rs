//! Closed forms: message, packet and hop counts and steps of the baselines and of HNC
//! without building a schedule, and the searches of `group=auto`, `place=auto`, `inner=auto`.
//!
//! Everything reduces to per-line sums. A multicast from root r over a region costs
//! sum_i (prod_{j<i} n_j) T_i(r_i) hops by tree (the dimension-i binomial runs once per node
//! that already holds the data) and sum_i (R/n_i) A_i(r_i) all-at-once, where T_i and A_i are
//! the tree and star hop sums of line i. Summed over all roots of a region these become
//! products with the per-line sums over roots. Lines repeat, so their sums are memoised.

use super::grid::{Line, Region};
use super::plan::{Base, Choice, Encode, Level, Mode, Opts, Place, Receiver, Request, PAPER_GROUP};
use crate::error::Result;
use crate::spec_err;
use std::collections::HashMap;

/// Counts of a set of unicasts (a message to k destinations counts k).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fig {
    pub messages: u64,
    pub hops: u64,
    pub packets: u64,
    pub packet_hops: u64,
    pub steps: u32,
}

impl Fig {
    /// `messages` unicasts totalling `hops`, each of `per` packets, in `steps` rounds.
    fn uniform(messages: u64, hops: u64, per: u64, steps: u32) -> Fig {
        Fig {
            messages,
            hops,
            packets: messages * per,
            packet_hops: hops * per,
            steps,
        }
    }

    /// `times` copies running side by side (same steps).
    fn times(self, times: u64) -> Fig {
        Fig {
            messages: self.messages * times,
            hops: self.hops * times,
            packets: self.packets * times,
            packet_hops: self.packet_hops * times,
            steps: self.steps,
        }
    }

    /// This phase, then `next`.
    pub fn then(self, next: Fig) -> Fig {
        Fig {
            messages: self.messages + next.messages,
            hops: self.hops + next.hops,
            packets: self.packets + next.packets,
            packet_hops: self.packet_hops + next.packet_hops,
            steps: self.steps + next.steps,
        }
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "messages": self.messages,
            "aggregate_hops": self.hops,
            "packets": self.packets,
            "packet_hops": self.packet_hops,
            "steps": self.steps,
        })
    }
}

/// Packetization: blocks of `bytes`, packets of at most `packet_bytes` (as the schedule has).
#[derive(Clone, Copy, Debug)]
pub struct Pack {
    pub bytes: u64,
    pub packet_bytes: u64,
}

impl Pack {
    pub fn per(&self, pieces: usize) -> u64 {
        let b = pieces as u64 * self.bytes;
        if self.packet_bytes == 0 || b == 0 {
            1
        } else {
            b.div_ceil(self.packet_bytes)
        }
    }
}

/// Per-root tree and star hop sums of a line.
struct LineSums {
    tree: Vec<u64>,
    star: Vec<u64>,
}

/// The calculator: memoised line sums plus the packetization.
pub struct Calc {
    pub pack: Pack,
    pub opts: Opts,
    lines: HashMap<Line, LineSums>,
    scratch: Vec<(usize, usize, u32)>,
}

impl Calc {
    pub fn new(pack: Pack, opts: Opts) -> Calc {
        Calc {
            pack,
            opts,
            lines: HashMap::new(),
            scratch: Vec::new(),
        }
    }

    fn sums(&mut self, l: Line) -> &LineSums {
        let scratch = &mut self.scratch;
        self.lines.entry(l).or_insert_with(|| LineSums {
            tree: (0..l.n).map(|r| l.tree_hops(r, scratch)).collect(),
            star: (0..l.n).map(|r| l.star_hops(r)).collect(),
        })
    }

    /// Hops of line `l` from root `r` under the base multicast.
    fn line_root(&mut self, l: Line, r: usize, base: Base) -> u64 {
        let s = self.sums(l);
        match base {
            Base::Tree => s.tree[r],
            Base::AllAtOnce => s.star[r],
        }
    }

    fn line_all(&mut self, l: Line, base: Base) -> u64 {
        let s = self.sums(l);
        match base {
            Base::Tree => s.tree.iter().sum(),
            Base::AllAtOnce => s.star.iter().sum(),
        }
    }

    fn steps(region: &Region, base: Base) -> u32 {
        match base {
            Base::Tree => region.tree_depth(),
            Base::AllAtOnce => u32::from(region.size() > 1),
        }
    }

    /// One multicast of `pieces` blocks from region position `root` to the whole region.
    pub fn mcast(&mut self, region: &Region, root: &[usize], base: Base, pieces: usize) -> Fig {
        let size = region.size() as u64;
        let mut prefix = 1u64;
        let mut hops = 0;
        for (l, &r) in region.lines.iter().zip(root) {
            let weight = match base {
                Base::Tree => prefix,
                Base::AllAtOnce => size / l.n as u64,
            };
            hops += weight * self.line_root(*l, r, base);
            prefix *= l.n as u64;
        }
        let per = self.pack.per(pieces);
        Fig::uniform(size - 1, hops, per, Self::steps(region, base))
    }

    /// Every node of the region multicasts `pieces` blocks to the whole region.
    pub fn a2a(&mut self, region: &Region, base: Base, pieces: usize) -> Fig {
        let size = region.size() as u64;
        let mut prefix = 1u64;
        let mut hops = 0;
        for l in &region.lines {
            let others = size / l.n as u64;
            let weight = match base {
                Base::Tree => prefix * others,
                Base::AllAtOnce => others * others,
            };
            hops += weight * self.line_all(*l, base);
            prefix *= l.n as u64;
        }
        let per = self.pack.per(pieces);
        Fig::uniform(size * (size - 1), hops, per, Self::steps(region, base))
    }

    /// Every node of the region unicasts `pieces` blocks to every other node, in one step.
    pub fn pairs(&mut self, region: &Region, pieces: usize) -> Fig {
        self.a2a(region, Base::AllAtOnce, pieces)
    }

    /// HNC inside `region` at `level`, phase by phase: (b, d, e, f) in the order they run.
    pub fn hnc_phases(&mut self, region: &Region, level: &Level) -> Vec<(&'static str, Fig)> {
        let (groups, grid) = region.groups(&level.shape);
        let group = &groups[0];
        let (g, m) = (grid.size() as u64, group.size());
        let base = self.opts.base;
        let b = match &level.inner {
            Some(inner) => self.hnc(group, inner),
            None => self.a2a(group, base, 1),
        }
        .times(g);
        let mut out = vec![("b", b)];
        if g == 1 {
            return out; // a single group: nothing between groups
        }
        match (self.opts.mode, self.opts.encode, self.opts.receiver) {
            (Mode::Combine, _, _) => {
                out.push(("d", self.a2a(&grid, base, m)));
                out.push(("e", self.deliver(group, &level.place, m).times(g * (g - 1))));
            }
            (Mode::Code, Encode::All, _) => {
                out.push(("d", self.pairs(&grid, m - 1).times(m as u64)));
                out.push(("f", self.pairs(&grid, 1).times(m as u64)));
            }
            (Mode::Code, Encode::One, Receiver::Intermediate) => {
                out.push(("d", self.a2a(&grid, base, m - 1)));
                out.push(("f", self.pairs(&grid, 1)));
                out.push(("e", self.deliver(group, &level.place, m).times(g * (g - 1))));
            }
            (Mode::Code, Encode::One, Receiver::Corresponding) => {
                out.push(("d", self.a2a(&grid, base, m - 1)));
                out.push((
                    "e",
                    self.deliver(group, &level.place, m - 1).times(g * (g - 1)),
                ));
                out.push(("f", self.pairs(&grid, 1).times(m as u64)));
            }
        }
        out
    }

    pub fn hnc(&mut self, region: &Region, level: &Level) -> Fig {
        self.hnc_phases(region, level)
            .into_iter()
            .fold(Fig::default(), |acc, (_, f)| acc.then(f))
    }

    /// Resolves the request for `region`: fixed choices are checked, auto ones searched.
    pub fn resolve(&mut self, region: &Region, req: &Request) -> Result<Level> {
        let shapes = match &req.group {
            Choice::Fixed(s) => {
                check_shape(region, s, "group")?;
                vec![s.clone()]
            }
            Choice::Paper => vec![self.paper_group(region)?],
            Choice::Auto | Choice::Compact => {
                let all = valid_shapes(region);
                if all.is_empty() {
                    // Under 4 nodes (or a prime line under 4) no tiling has two groups of two:
                    // one group, i.e. the base multicast alone, is what HNC degenerates to.
                    let shape: Vec<usize> = region.lines.iter().map(|l| l.n).collect();
                    let place = self.place(region, &req.place)?;
                    return Ok(Level {
                        shape,
                        place,
                        inner: None,
                    });
                }
                all
            }
        };
        let mut tried = Vec::with_capacity(shapes.len());
        for shape in shapes {
            let level = self.level_for(region, shape, req)?;
            tried.push((self.hnc(region, &level), level));
        }
        let mut best = 0;
        for (i, (fig, _)) in tried.iter().enumerate() {
            if better(fig, &tried[best].0) {
                best = i;
            }
        }
        if req.group == Choice::Compact {
            // s4.3: "our recommendation is to reduce the longest path count for the
            // communication inside the group": among the shapes of the best size, the one
            // with the shortest longest path (ties: fewest hops, then the first).
            let size: usize = tried[best].1.shape.iter().product();
            let key = |(fig, level): &(Fig, Level)| {
                (
                    longest_path(region, &level.shape),
                    fig.hops,
                    fig.packet_hops,
                )
            };
            let same = tried
                .iter()
                .filter(|(_, l)| l.shape.iter().product::<usize>() == size);
            let pick = same
                .min_by_key(|t| key(t))
                .expect("the best shape has its size");
            return Ok(pick.1.clone());
        }
        Ok(tried.swap_remove(best).1)
    }

    /// The paper's 8x4 groups, or a one-line reason they do not tile `region`.
    pub fn paper_group(&self, region: &Region) -> Result<Vec<usize>> {
        let shape = PAPER_GROUP.to_vec();
        if region.lines.len() != shape.len() {
            return spec_err!(
                "group=paper is the paper's 8x4 groups of a 2-D mesh or torus (s4.3), not of a \
                 {}-D network: use group=compact, auto or a shape",
                region.lines.len()
            );
        }
        if check_shape(region, &shape, "group").is_err() {
            return spec_err!(
                "group=paper is the paper's 8x4 groups (s4.3), which do not tile this {} \
                 network into at least 2 groups: use group=compact, auto or a shape",
                super::plan::show(&region.lines.iter().map(|l| l.n).collect::<Vec<_>>())
            );
        }
        Ok(shape)
    }

    /// The level with group shape `shape`: its placement and inner level.
    fn level_for(&mut self, region: &Region, shape: Vec<usize>, req: &Request) -> Result<Level> {
        let (groups, _) = region.groups(&shape);
        let group = groups[0].clone();
        let place = self.place(&group, &req.place)?;
        let inner = match &req.inner {
            None => None,
            Some(choice) => self.inner(&group, choice, req)?,
        };
        Ok(Level {
            shape,
            place,
            inner,
        })
    }

    fn inner(
        &mut self,
        group: &Region,
        choice: &Choice,
        req: &Request,
    ) -> Result<Option<Box<Level>>> {
        let sub = Request {
            opts: req.opts,
            group: choice.clone(),
            // Fixed offsets name the outer groups; sub-groups place theirs by search.
            place: match &req.place {
                Place::Fixed(_) => Place::Auto,
                p => p.clone(),
            },
            inner: None,
        };
        match choice {
            Choice::Fixed(_) => Ok(Some(Box::new(self.resolve(group, &sub)?))),
            Choice::Auto | Choice::Compact | Choice::Paper => {
                if valid_shapes(group).is_empty() {
                    return Ok(None);
                }
                let level = self.resolve(group, &sub)?;
                let coded = self.hnc(group, &level);
                let plain = self.a2a(group, self.opts.base, 1);
                Ok(better(&coded, &plain).then(|| Box::new(level)))
            }
        }
    }

    /// The intermediate's offset in a group.
    fn place(&mut self, group: &Region, place: &Place) -> Result<Vec<usize>> {
        let center: Vec<usize> = group.lines.iter().map(|l| (l.n - 1) / 2).collect();
        Ok(match place {
            Place::Center => center,
            Place::Corner => vec![0; group.lines.len()],
            Place::Fixed(v) => {
                if let Some((i, l)) = group.lines.iter().enumerate().find(|(i, l)| v[*i] >= l.n) {
                    return spec_err!(
                        "place offset {} in dimension {i} is outside a group of {} nodes there: \
                         use 0..{}",
                        v[i],
                        l.n,
                        l.n - 1
                    );
                }
                v.clone()
            }
            // The delivery cost separates by dimension; ties go to the offset nearest the centre.
            Place::Auto => {
                let base = self.opts.base;
                let mut out = Vec::new();
                for (l, &c) in group.lines.clone().iter().zip(&center) {
                    let best = (0..l.n)
                        .min_by_key(|&r| (self.line_root(*l, r, base), r.abs_diff(c), r))
                        .unwrap_or(0);
                    out.push(best);
                }
                out
            }
        })
    }
}

/// Fewer hops first (the paper's measure), then fewer packet hops.
fn better(a: &Fig, b: &Fig) -> bool {
    (a.hops, a.packet_hops) < (b.hops, b.packet_hops)
}

/// The longest DOR path between two nodes of a group of `shape` in `region`: per dimension
/// the group's extent, or half of it if the group closes a torus ring.
pub fn longest_path(region: &Region, shape: &[usize]) -> u64 {
    region
        .lines
        .iter()
        .zip(shape)
        .map(|(l, &a)| {
            let ring = l.torus && a * l.stride == l.k;
            (if ring { a / 2 } else { a - 1 }) as u64
        })
        .sum()
}

fn divisors(n: usize) -> Vec<usize> {
    (1..=n).filter(|d| n % d == 0).collect()
}

/// Every group shape that tiles `region` into at least two groups of at least two nodes.
pub fn valid_shapes(region: &Region) -> Vec<Vec<usize>> {
    let mut shapes: Vec<Vec<usize>> = vec![vec![]];
    for l in &region.lines {
        shapes = shapes
            .into_iter()
            .flat_map(|s| {
                divisors(l.n).into_iter().map(move |d| {
                    let mut t = s.clone();
                    t.push(d);
                    t
                })
            })
            .collect();
    }
    let size = region.size();
    shapes.retain(|s| {
        let m: usize = s.iter().product();
        m >= 2 && m * 2 <= size
    });
    shapes
}

pub fn check_shape(region: &Region, shape: &[usize], key: &str) -> Result<()> {
    for (i, (l, &s)) in region.lines.iter().zip(shape).enumerate() {
        if l.n % s != 0 {
            return spec_err!(
                "{key} size {s} in dimension {i} does not divide the {} nodes there: choose a \
                 divisor of {}",
                l.n,
                l.n
            );
        }
    }
    let m: usize = shape.iter().product();
    if m < 2 || m * 2 > region.size() {
        return spec_err!(
            "{key} {} has {m} node(s): HNC needs groups of at least 2 nodes and at least 2 groups \
             ({} nodes here)",
            super::plan::show(shape),
            region.size()
        );
    }
    Ok(())
}
