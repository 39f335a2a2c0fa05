//! Turning a schedule's multidestination worms (`Message::worm`, with the replication tree
//! `hops` the worm algorithms compute by replaying the header) into the engine's
//! [`WormTable`]. Each tree is checked against the network as it is flattened: the first
//! visit is at the source's switch and entered by its injection port, every switch port of
//! a visit leads to the visit its copy makes, and every endpoint port to one destination.

use super::network::{Network, NONE};
use super::worm_table::{WormOut, WormTable};
use crate::error::Result;
use crate::invalid;
use crate::schedule::{Schedule, WormHop};
use crate::topology::Peer;

/// Flattens the replication tree of every worm message of `s` into `net.rep.table` and
/// returns, per message, the visit its packets start at (NONE: not a worm, or a worm without
/// a tree, which then travels as unicast copies). An endpoint copy's tag is the packet's
/// tag plus `dest_index * packets`, the schedule runner's per-destination label.
pub fn load_worms(net: &mut Network, s: &Schedule) -> Result<Vec<u32>> {
    let mut trees = Trees::default();
    let base = net.rep.table.visits() as u32;
    let roots = flatten_worms(net, s, &mut trees)?;
    for v in 0..trees.visits() {
        net.rep.table.push_visit(trees.visit(v, base));
    }
    Ok(roots
        .into_iter()
        .map(|r| if r == NONE { NONE } else { base + r })
        .collect())
}

/// A schedule's worm trees flattened with visits numbered from 0 (a child of NONE is an
/// endpoint): placed at any base visit of the table (appended by [`load_worms`], or into a
/// pooled region by [`WormPool`]).
#[derive(Debug, Default)]
pub struct Trees {
    start: Vec<u32>,
    outs: Vec<WormOut>,
    /// `visit` fills this with the outputs of one visit, children rebased.
    scratch: Vec<WormOut>,
}

impl Trees {
    pub fn clear(&mut self) {
        self.start.clear();
        self.outs.clear();
    }

    pub fn visits(&self) -> usize {
        self.start.len().saturating_sub(1)
    }

    fn push(&mut self, outs: &[WormOut]) {
        if self.start.is_empty() {
            self.start.push(0);
        }
        self.outs.extend_from_slice(outs);
        self.start.push(self.outs.len() as u32);
    }

    /// The outputs of visit `v` with children moved to start at visit `base`.
    fn visit(&mut self, v: usize, base: u32) -> &[WormOut] {
        self.scratch.clear();
        let r = self.start[v] as usize..self.start[v + 1] as usize;
        for o in &self.outs[r] {
            let child = if o.child == NONE {
                NONE
            } else {
                o.child + base
            };
            self.scratch.push(WormOut { child, ..*o });
        }
        &self.scratch
    }
}

/// Regions of the worm table reused by many schedules' worms (multicast load runs, where
/// every multicast brings its own trees): a region holds `visits` visits over `outs`
/// contiguous outputs; a tree leaves the region's spare visits (at least one) empty and
/// lets the last one span the spare outputs (never visited). Regions are allocated with the
/// largest size asked so far, so nothing is allocated once the pool has reached its peak.
#[derive(Debug, Default)]
pub struct WormPool {
    /// (first visit, visits, first output, outputs) of free regions.
    free: Vec<(u32, u32, u32, u32)>,
    /// The largest (visits, outputs) asked so far: the size of new regions.
    cap: (u32, u32),
}

/// A region in use: (first visit, visits, first output, outputs).
pub type Region = (u32, u32, u32, u32);

impl WormPool {
    /// Places `t` into a free region (or a new one); returns the region.
    pub fn place(&mut self, table: &mut WormTable, t: &mut Trees) -> Region {
        // One spare visit, to span the spare outputs: the tree's last visit must not.
        let (nv, no) = (t.visits() as u32 + 1, t.outs.len() as u32);
        self.cap = (self.cap.0.max(nv), self.cap.1.max(no));
        let region = match self.free.iter().position(|r| r.1 >= nv && r.3 >= no) {
            Some(i) => self.free.swap_remove(i),
            None => {
                let (cv, co) = self.cap;
                let (v0, o0) = (table.visits() as u32, table.outs.len() as u32);
                let filler = WormOut {
                    port: 0,
                    child: NONE,
                    tag_add: 0,
                };
                table.outs.extend(std::iter::repeat_n(filler, co as usize));
                for _ in 0..cv {
                    table.start.push(o0 + co);
                }
                (v0, cv, o0, co)
            }
        };
        let (v0, cv, o0, _) = region;
        let mut o = o0;
        for v in 0..cv {
            table.start[(v0 + v) as usize] = o;
            if (v as usize) < t.visits() {
                let outs = t.visit(v as usize, v0);
                table.outs[o as usize..o as usize + outs.len()].copy_from_slice(outs);
                o += outs.len() as u32;
            }
        }
        region
    }

    /// Takes back a region whose worms have all been delivered.
    pub fn release(&mut self, r: Region) {
        self.free.push(r);
    }
}

/// [`load_worms`] without placing: per message the root visit in `trees` (NONE: unicast).
pub fn flatten_worms(net: &Network, s: &Schedule, trees: &mut Trees) -> Result<Vec<u32>> {
    trees.clear();
    let pl = s.placement();
    let mut roots = Vec::with_capacity(s.messages().len());
    for (mi, m) in s.messages().iter().enumerate() {
        let Some(w) = m.worm.as_deref().filter(|w| !w.hops.is_empty()) else {
            roots.push(NONE);
            continue;
        };
        let src = pl[m.src as usize] as usize;
        let dests: Vec<usize> = s
            .dests(m)
            .iter()
            .map(|&d| pl[d as usize] as usize)
            .collect();
        roots.push(load_tree(net, trees, &w.hops, src, &dests, m.packets, mi)?);
    }
    Ok(roots)
}

fn load_tree(
    net: &Network,
    trees: &mut Trees,
    hops: &[WormHop],
    src: usize,
    dests: &[usize],
    packets: u32,
    mi: usize,
) -> Result<u32> {
    let topo = net.topo;
    let root = &hops[0];
    let src_sw = topo.endpoint_switch(src);
    let src_port = net.ep_port[src] - net.pstart[src_sw];
    if root.parent != WormHop::SOURCE || root.switch as usize != src_sw || root.in_port != src_port
    {
        return invalid!(
            "message {mi}: its worm must start at the source's switch {src_sw}, port {src_port} \
             (the tree starts at switch {} port {})",
            root.switch,
            root.in_port
        );
    }
    let first = trees.visits() as u32;
    let mut seen = vec![false; dests.len()];
    let mut outs = Vec::new();
    for (i, h) in hops.iter().enumerate() {
        let sw = h.switch as usize;
        if sw >= topo.num_switches() || h.out_ports.is_empty() {
            return invalid!("message {mi}: worm visit {i} is at no switch or sends nowhere");
        }
        outs.clear();
        for &p in &h.out_ports {
            if p as usize >= topo.num_ports(sw) {
                return invalid!(
                    "message {mi}: worm visit {i} uses port {p} of switch {sw}, which has none"
                );
            }
            let port = net.pstart[sw] + p;
            let (child, tag_add) = match topo.peer(sw, p as usize) {
                Peer::Endpoint(e) => {
                    let Some(di) = dests.iter().position(|&d| d == e as usize) else {
                        return invalid!(
                            "message {mi}: its worm drops a copy at endpoint {e}, not a destination"
                        );
                    };
                    if std::mem::replace(&mut seen[di], true) {
                        return invalid!("message {mi}: its worm reaches endpoint {e} twice");
                    }
                    (NONE, di as u32 * packets)
                }
                Peer::Switch { switch, port, .. } => {
                    let Some(c) = hops.iter().position(|c| {
                        c.parent == i as u32 && c.switch == switch && c.in_port == port
                    }) else {
                        return invalid!(
                            "message {mi}: worm visit {i} sends to switch {switch} but the tree \
                             has no visit entering it by port {port}"
                        );
                    };
                    (first + c as u32, 0)
                }
                Peer::Open => {
                    return invalid!(
                        "message {mi}: worm visit {i} sends on open port {p} of switch {sw}"
                    )
                }
            };
            outs.push(WormOut {
                port,
                child,
                tag_add,
            });
        }
        trees.push(&outs);
    }
    if let Some(di) = seen.iter().position(|&x| !x) {
        return invalid!(
            "message {mi}: its worm never reaches destination endpoint {}",
            dests[di]
        );
    }
    Ok(first)
}
