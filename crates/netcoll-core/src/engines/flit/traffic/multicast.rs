//! m-way multicast traffic (`traffic = multicast`; seed 003 s6.2 and s6.5, Figs. 26-28).
//!
//! A node starts a multicast with probability `B_i` per cycle (Bernoulli, geometric gaps as
//! for unicast traffic); its `m` destinations are uniform over the other nodes (a partial
//! Fisher-Yates shuffle over a persistent permutation: O(m) per multicast, seeded). The
//! offered load is the paper's *effective applied load* `m * B_i` ("for a multicast of
//! degree m and a load of B_i, the effective applied load is m B_i"): `injection_rate` (in
//! packets, or flits with `injection_rate_uses_flits`) is that load, so
//! `B_i = injection_rate / m` multicasts (of one `packet_size` packet each) per node per
//! cycle, and the accepted rate counts every delivered copy.
//!
//! Schemes (`multicast_scheme`):
//! * `unicast`: the source NI queues `m` unicast packets, sent one after another.
//! * `tree`: one multidestination worm that the switches replicate (replicate.rs). Its
//!   replication tree is the trie of the routing's paths from the source's switch to every
//!   destination (up*/down* on irregular networks, DOR on meshes), built per multicast
//!   into a region of the [`super::worm_table::WormTable`] owned by the multicast's pooled
//!   record: nothing is allocated once the pool has reached its peak.
//!
//! The multicast latency is the paper's: from the multicast's creation to the arrival of
//! its last copy. Each copy's tag is `id * m + k` (record `id`, destination index `k`), so
//! every arrival is checked against a per-copy bit: a copy arriving twice is counted in
//! `duplicate_copies` (always 0; tested).

use super::config::McScheme;
use super::dest_draw::DestDraw;
use super::network::{Network, NONE};
use super::stats::{Histogram, LatencySummary};
use super::worm_table::WormOut;
use crate::error::Result;
use crate::spec_err;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// Multicast figures of a run, beside the per-packet ones.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct MulticastResult {
    pub dests: usize,
    pub scheme: McScheme,
    /// `B_i`: multicasts started per node per cycle (offered).
    pub multicast_rate: f64,
    /// The effective applied load `m * B_i * packet_size` in flits per node per cycle.
    pub effective_load: f64,
    pub created: u64,
    pub completed: u64,
    /// Creation to the arrival of the last copy, over the measured multicasts.
    pub latency: LatencySummary,
    pub copies_delivered: u64,
    pub duplicate_copies: u64,
}

#[derive(Debug, Clone, Copy, Default)]
struct Rec {
    ctime: u64,
    left: u32,
    counted: bool,
}

/// A tree edge while building: from local visit `from` on global port `port` to local
/// visit `child` (NONE: the port leads to destination `k`'s endpoint).
#[derive(Debug, Clone, Copy)]
struct Edge {
    from: u32,
    port: u32,
    child: u32,
    k: u32,
}

pub struct Multicast {
    m: usize,
    scheme: McScheme,
    size: u16,
    rate: f64,
    /// Random destination sets (dest_draw.rs).
    draw: DestDraw,
    recs: Vec<Rec>,
    free: Vec<u32>,
    /// Per copy tag: arrived already.
    seen: Vec<bool>,
    /// Table visits and outputs per record's tree region.
    region_visits: usize,
    region_outs: usize,
    edges: Vec<Edge>,
    visit_switch: Vec<u32>,
    created: u64,
    completed: u64,
    copies: u64,
    duplicates: u64,
    latency: Histogram,
}

impl Multicast {
    pub fn new(net: &Network, m: usize, scheme: McScheme, size: u16, rate: f64) -> Result<Self> {
        let topo = net.topo;
        let nodes = topo.num_endpoints();
        if m == 0 || m >= nodes {
            return spec_err!(
                "multicast_dests = {m}: {} has {nodes} nodes, so use 1 to {}",
                topo.name(),
                nodes.saturating_sub(1)
            );
        }
        if let Some(algo) = scheme.plan_algorithm() {
            return spec_err!(
                "multicast_scheme = {algo} runs on the schedule executor (mcload.rs)"
            );
        }
        let mut region_visits = 1;
        if scheme == McScheme::Tree {
            check_tree_network(net)?;
            // A trie of m paths has at most m * (longest path's switches) visits; one spare
            // visit more, as the region's last visit spans its unused output slots.
            region_visits = m * (longest_route(net) + 1) + 1;
        }
        Ok(Multicast {
            m,
            scheme,
            size,
            rate,
            draw: DestDraw::new(nodes, m),
            recs: Vec::new(),
            free: Vec::new(),
            seen: Vec::new(),
            region_visits,
            region_outs: region_visits + m,
            edges: Vec::new(),
            visit_switch: Vec::new(),
            created: 0,
            completed: 0,
            copies: 0,
            duplicates: 0,
            latency: Histogram::default(),
        })
    }

    /// Starts a multicast from `src` to random destinations now.
    pub fn start_random(
        &mut self,
        net: &mut Network,
        src: usize,
        rng: &mut ChaCha8Rng,
        counted: bool,
    ) {
        self.draw.draw(src, self.m, rng);
        self.start(net, src, counted);
    }

    /// Starts a multicast from `src` to the given destinations (tests, hand-worked cases).
    pub fn start_to(&mut self, net: &mut Network, src: usize, dests: &[u32], counted: bool) {
        assert_eq!(
            dests.len(),
            self.m,
            "a multicast has multicast_dests destinations"
        );
        self.draw.set(dests);
        self.start(net, src, counted);
    }

    fn start(&mut self, net: &mut Network, src: usize, counted: bool) {
        let id = self.acquire(net);
        self.recs[id] = Rec {
            ctime: net.now,
            left: self.m as u32,
            counted,
        };
        self.created += 1;
        let tag = (id * self.m) as u32;
        match self.scheme {
            McScheme::Unicast => {
                for k in 0..self.m {
                    let d = self.draw.dests[k] as usize;
                    net.create_tagged(src, d, self.size, tag + k as u32);
                }
            }
            // (`new` refuses the schedule schemes.)
            _ => {
                let root = self.build_tree(net, id, src);
                net.create_worm(src, root, self.size, tag);
            }
        }
    }

    /// A free record (and, for trees, its table region).
    fn acquire(&mut self, net: &mut Network) -> usize {
        if let Some(id) = self.free.pop() {
            return id as usize;
        }
        self.recs.push(Rec::default());
        self.seen.extend(std::iter::repeat_n(false, self.m));
        if self.scheme == McScheme::Tree {
            // The region: empty visits, the last one spanning all its output slots.
            let t = &mut net.rep.table;
            let filler = WormOut {
                port: 0,
                child: NONE,
                tag_add: 0,
            };
            for _ in 1..self.region_visits {
                t.push_visit(&[]);
            }
            t.outs.extend(std::iter::repeat_n(filler, self.region_outs));
            t.start.push(t.outs.len() as u32);
        }
        self.recs.len() - 1
    }

    /// Writes the trie of the routing's paths from `src` to `self.draw.dests` into record
    /// `id`'s region; returns the root visit.
    fn build_tree(&mut self, net: &mut Network, id: usize, src: usize) -> u32 {
        let topo = net.topo;
        self.edges.clear();
        self.visit_switch.clear();
        let src_sw = topo.endpoint_switch(src);
        self.visit_switch.push(src_sw as u32);
        for (k, &d) in self.draw.dests.iter().enumerate() {
            let dst_sw = topo.endpoint_switch(d as usize);
            let (mut cur, mut sw, mut state) = (0u32, src_sw, 0u8);
            while let Some(step) = net.routing.next(topo, sw, dst_sw, state) {
                let port = net.pstart[sw] + step.via.port;
                cur = match self.edges.iter().find(|e| e.from == cur && e.port == port) {
                    Some(e) => e.child,
                    None => {
                        let child = self.visit_switch.len() as u32;
                        self.visit_switch.push(step.via.switch);
                        self.edges.push(Edge {
                            from: cur,
                            port,
                            child,
                            k: 0,
                        });
                        child
                    }
                };
                (sw, state) = (step.via.switch as usize, step.state);
            }
            self.edges.push(Edge {
                from: cur,
                port: net.ep_port_out(d as usize),
                child: NONE,
                k: k as u32,
            });
        }
        let nv = self.visit_switch.len();
        debug_assert!(nv < self.region_visits && self.edges.len() <= self.region_outs);
        self.edges.sort_unstable_by_key(|e| e.from);
        let base = (id * self.region_visits) as u32;
        let t = &mut net.rep.table;
        let mut o = id * self.region_outs;
        let mut e = 0;
        for v in 0..self.region_visits {
            t.start[base as usize + v] = o as u32;
            while e < self.edges.len() && self.edges[e].from as usize == v {
                let ed = self.edges[e];
                t.outs[o] = WormOut {
                    port: ed.port,
                    child: if ed.child == NONE {
                        NONE
                    } else {
                        base + ed.child
                    },
                    tag_add: ed.k,
                };
                o += 1;
                e += 1;
            }
        }
        base
    }

    /// Builds the tree of a multicast from `src` to `dests` without sending it (tests).
    #[cfg(test)]
    pub(super) fn tree_for(&mut self, net: &mut Network, src: usize, dests: &[u32]) -> u32 {
        self.draw.set(dests);
        let id = self.acquire(net);
        self.build_tree(net, id, src)
    }

    /// Applies the arrivals the network logged (tag, cycle) and clears the log.
    pub fn arrivals(&mut self, net: &mut Network) {
        for i in 0..net.arrivals.len() {
            let (tag, t) = net.arrivals[i];
            self.arrive(tag as usize, t);
        }
        net.arrivals.clear();
    }

    fn arrive(&mut self, tag: usize, t: u64) {
        self.copies += 1;
        if std::mem::replace(&mut self.seen[tag], true) {
            self.duplicates += 1;
            return;
        }
        let id = tag / self.m;
        let r = &mut self.recs[id];
        r.left -= 1;
        if r.left > 0 {
            return;
        }
        self.completed += 1;
        if r.counted {
            self.latency.add(t - r.ctime);
        }
        self.seen[id * self.m..(id + 1) * self.m].fill(false);
        self.free.push(id as u32);
    }

    /// Multicasts started and not yet complete.
    pub fn outstanding(&self) -> u64 {
        self.created - self.completed
    }

    pub fn result(&self) -> MulticastResult {
        MulticastResult {
            dests: self.m,
            scheme: self.scheme,
            multicast_rate: self.rate,
            effective_load: self.rate * (self.m as f64) * self.size as f64,
            created: self.created,
            completed: self.completed,
            latency: self.latency.summary(),
            copies_delivered: self.copies,
            duplicate_copies: self.duplicates,
        }
    }
}

/// Tree worms take any VC on every hop (replicate.rs), so the routing must need a single
/// VC class; and an input buffer must hold a whole worm (seed 003's deadlock rule).
fn check_tree_network(net: &Network) -> Result<()> {
    if net.route_classes > 1 || net.torus.booksim() {
        return spec_err!(
            "multicast_scheme = tree needs a routing with one VC class (up*/down*, or DOR on a \
             mesh or hypercube), not {} on {}: use multicast_scheme = unicast",
            net.cfg.routing.name(),
            net.topo.name()
        );
    }
    if net.cfg.packet_size > net.cfg.vc_buf_size {
        return spec_err!(
            "multicast_scheme = tree needs packet_size ({}) <= vc_buf_size ({}): an input buffer \
             must hold a whole worm to stay deadlock-free (seed 003 s5.1.2)",
            net.cfg.packet_size,
            net.cfg.vc_buf_size
        );
    }
    Ok(())
}

/// The most router-to-router hops of any route between two switches.
fn longest_route(net: &Network) -> usize {
    let (topo, s) = (net.topo, net.topo.num_switches());
    let mut best = 0;
    for a in 0..s {
        for b in 0..s {
            best = best.max(net.routing.walk(topo, a, b).count());
        }
    }
    best
}

impl Network<'_> {
    /// The global output port that ejects to endpoint `ep` (an endpoint's injection input
    /// and ejection output share their global port number, as the router's routing uses).
    fn ep_port_out(&self, ep: usize) -> u32 {
        self.ep_port[ep]
    }
}
