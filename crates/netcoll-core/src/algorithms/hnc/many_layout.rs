//! What many-to-all HNC works on: the network with its sources (`Setup`) and one level of
//! groups with the sources of each (`Layout`). Shared by the count (`many.rs`, `many_raw.rs`)
//! and the schedule (`many_build.rs`).

use super::build::Builder;
use super::closed::Pack;
use super::grid::{Net, Region};
use super::pack;
use super::plan::{Level, Opts, Receiver};
use crate::algorithms::AlgoRequest;
use crate::error::Result;
use crate::schedule::{Collective, CollectiveKind, ScheduleBuilder};
use crate::spec_err;

/// The network, which node holds which rank, and where the sources sit.
pub(super) struct Setup {
    net: Net,
    pub(super) region: Region,
    /// Whether the rank on node i (whole-region index) is a source.
    is_src: Vec<bool>,
    /// Positions of every node, flat (node i at `i * dims ..`), for hop counts.
    coords: Vec<usize>,
    pub(super) pack: Pack,
}

impl Setup {
    pub(super) fn of(req: &AlgoRequest) -> Result<Setup> {
        let n = req.topo.num_switches();
        Net::of(req.topo)?;
        if req.p as usize != n || req.placement.len() != n {
            return spec_err!(
                "a many-to-all multicast here reaches every node: use {n} ranks on {} (not {})",
                req.topo.name(),
                req.p
            );
        }
        crate::schedule::check_sources(&req.sources, req.p)?;
        let net = Net::with_ranks(req.topo, &req.placement)?;
        let mut is_src = vec![false; n];
        for &s in &req.sources {
            is_src[req.topo.endpoint_switch(req.placement[s as usize] as usize)] = true;
        }
        let region = net.region();
        let coords = (0..n).flat_map(|i| region.pos(i)).collect();
        Ok(Setup {
            region,
            coords,
            net,
            is_src,
            pack: pack(req),
        })
    }

    pub(super) fn builder(&self, req: &AlgoRequest, opts: Opts) -> Builder<'_> {
        let mut c = Collective::new(CollectiveKind::ManyToAll, req.p, 0);
        c.sources = req.sources.clone();
        let sb = ScheduleBuilder::from_collective(c)
            .placement(req.placement.clone())
            .packetization(self.pack.bytes, self.pack.packet_bytes);
        Builder::new(sb, &self.net, opts)
    }

    /// DOR hops between nodes a and b.
    pub(super) fn hops(&self, a: usize, b: usize) -> u64 {
        let k = self.region.lines.len();
        let (pa, pb) = (
            &self.coords[a * k..(a + 1) * k],
            &self.coords[b * k..(b + 1) * k],
        );
        (self.region.lines.iter().enumerate())
            .map(|(i, l)| l.dist(pa[i], pb[i]))
            .sum()
    }

    /// Whole-region indices of the sources, in node order.
    pub(super) fn source_nodes(&self) -> Vec<usize> {
        (0..self.is_src.len()).filter(|&i| self.is_src[i]).collect()
    }
}

/// One level of groups with the sources of each.
pub(super) struct Layout {
    pub(super) groups: Vec<Region>,
    pub(super) grid: Region,
    /// Whole-region index of member j of group g.
    pub(super) at: Vec<Vec<usize>>,
    /// Member indices of the sources of group g, increasing.
    pub(super) srcs: Vec<Vec<usize>>,
    /// Member index of the intermediate node.
    pub(super) q: usize,
    pub(super) m: usize,
}

impl Layout {
    pub(super) fn new(setup: &Setup, level: &Level) -> Layout {
        let region = &setup.region;
        let (groups, _) = region.groups(&level.shape);
        let grid = region.blocks(&level.shape, &level.place);
        let m = groups[0].size();
        let at: Vec<Vec<usize>> = groups
            .iter()
            .map(|g| (0..m).map(|j| region.index(&g.coords(&g.pos(j)))).collect())
            .collect();
        let srcs = at
            .iter()
            .map(|nodes| (0..m).filter(|&j| setup.is_src[nodes[j]]).collect())
            .collect();
        Layout {
            q: groups[0].index(&level.place),
            groups,
            grid,
            at,
            srcs,
            m,
        }
    }

    pub(super) fn ng(&self) -> usize {
        self.groups.len()
    }

    /// Pieces group g's intermediate sends in (d) and delivers in (e).
    pub(super) fn chain_len(&self, g: usize) -> usize {
        self.srcs[g].len().saturating_sub(1)
    }

    /// Pieces delivered in (e) for group g: the chain, plus the raw block with
    /// `receiver=intermediate`.
    pub(super) fn delivered(&self, g: usize, receiver: Receiver) -> usize {
        let raw = receiver == Receiver::Intermediate && !self.srcs[g].is_empty();
        self.chain_len(g) + usize::from(raw)
    }

    /// The source member of group g whose raw block node y of group d receives in (f).
    pub(super) fn raw_source(&self, setup: &Setup, g: usize, d: usize, y: usize) -> usize {
        let srcs = &self.srcs[g];
        if srcs.binary_search(&y).is_ok() {
            return y;
        }
        let to = self.at[d][y];
        let hops = |x: usize| setup.hops(self.at[g][x], to);
        *srcs
            .iter()
            .min_by_key(|&&x| (hops(x), x))
            .expect("a source")
    }

    /// Every ordered pair of distinct groups (source g, destination d).
    pub(super) fn pairs(&self) -> impl Iterator<Item = (usize, usize)> {
        let ng = self.ng();
        (0..ng).flat_map(move |g| (0..ng).filter(move |&d| d != g).map(move |d| (g, d)))
    }
}
