//! The one way to make a [`Topology`]: every family, and the file loader, go through the
//! builder, so the invariants (ports in range, each port used once, no self links, connected)
//! are checked in one place.

use super::{Family, Link, LinkClass, Neighbour, Peer, PortRef, Topology};
use crate::error::{Error, Result};
use crate::{guard, invalid};

/// Port ids are u32 and `u32::MAX` marks "none" in routing tables.
const MAX_PORTS: u64 = u32::MAX as u64 - 1;
/// Footprint of a finished network per port: its peer (16 B), at most half a link (8 B), an
/// adjacency entry (12 B) and an endpoint (8 B), plus the builder's temporaries.
const BYTES_PER_PORT: u64 = 56;
/// Per switch: port and adjacency offsets, the connectivity check's mark, metrics' BFS state.
const BYTES_PER_SWITCH: u64 = 24;

pub struct TopologyBuilder {
    port_start: Vec<u32>,
    peers: Vec<Peer>,
    endpoints: Vec<PortRef>,
    links: Vec<Link>,
    link_classes: Vec<LinkClass>,
}

impl TopologyBuilder {
    /// A network of switches with the given number of ports each, nothing connected yet.
    /// Refuses (before allocating) a network whose ports overflow the u32 port ids or whose
    /// footprint exceeds the memory guard's budget.
    pub fn new(ports_per_switch: impl IntoIterator<Item = usize>) -> Result<TopologyBuilder> {
        let ports = ports_per_switch.into_iter();
        let mut port_start = Vec::with_capacity(ports.size_hint().0.saturating_add(1));
        port_start.push(0u32);
        let mut total = 0u64;
        for p in ports {
            total = total.saturating_add(p as u64);
            if total > MAX_PORTS {
                return Err(Error::TooLarge(format!(
                    "the network has more than {MAX_PORTS} ports in all: port ids are 32-bit"
                )));
            }
            port_start.push(total as u32);
        }
        let switches = port_start.len() as u64 - 1;
        guard::check(
            &format!("a network of {switches} switches and {total} ports"),
            total * BYTES_PER_PORT + switches * BYTES_PER_SWITCH,
        )?;
        Ok(TopologyBuilder {
            port_start,
            peers: guard::filled_vec("the network's ports", total as usize, Peer::Open)?,
            endpoints: Vec::new(),
            links: Vec::new(),
            link_classes: Vec::new(),
        })
    }

    pub fn num_switches(&self) -> usize {
        self.port_start.len() - 1
    }

    fn slot(&self, p: PortRef) -> Result<usize> {
        let s = p.switch as usize;
        if s >= self.num_switches() {
            return invalid!(
                "switch {} does not exist: the network has switches 0 to {}",
                s,
                self.num_switches() - 1
            );
        }
        let nports = self.port_start[s + 1] - self.port_start[s];
        if p.port >= nports {
            return invalid!(
                "switch {} has ports 0 to {}, not port {}",
                s,
                nports as i64 - 1,
                p.port
            );
        }
        let slot = (self.port_start[s] + p.port) as usize;
        if self.peers[slot] != Peer::Open {
            return invalid!(
                "port {} of switch {} is used twice: connect each port to one link or endpoint",
                p.port,
                s
            );
        }
        Ok(slot)
    }

    /// Is this port still unconnected?
    pub fn is_open(&self, p: PortRef) -> bool {
        self.peers[(self.port_start[p.switch as usize] + p.port) as usize] == Peer::Open
    }

    /// Attaches the next endpoint to a port; returns its id.
    pub fn endpoint(&mut self, at: PortRef) -> Result<u32> {
        let slot = self.slot(at)?;
        let id = self.endpoints.len() as u32;
        self.peers[slot] = Peer::Endpoint(id);
        self.endpoints.push(at);
        Ok(id)
    }

    /// Links two ports of different switches; returns the link id.
    pub fn link(&mut self, a: PortRef, b: PortRef) -> Result<u32> {
        self.link_classed(a, b, LinkClass::Local)
    }

    /// Links two ports with a link of the given class (for `Tree`, `a` is the child end).
    pub fn link_classed(&mut self, a: PortRef, b: PortRef, class: LinkClass) -> Result<u32> {
        if a.switch == b.switch {
            return invalid!(
                "link between ports {} and {} of the same switch {}: self links are not allowed",
                a.port,
                b.port,
                a.switch
            );
        }
        let (sa, sb) = (self.slot(a)?, self.slot(b)?);
        let id = self.links.len() as u32;
        self.peers[sa] = Peer::Switch {
            switch: b.switch,
            port: b.port,
            link: id,
        };
        self.peers[sb] = Peer::Switch {
            switch: a.switch,
            port: a.port,
            link: id,
        };
        self.links.push(Link { a, b });
        self.link_classes.push(class);
        Ok(id)
    }

    /// Checks connectivity and freezes the network.
    pub fn finish(self, name: String, family: Family, shape: Vec<usize>) -> Result<Topology> {
        if self.endpoints.is_empty() {
            return invalid!("network {name} has no endpoints: attach at least one host");
        }
        let (adj_start, adj) = self.adjacency();
        let topo = Topology {
            name,
            family,
            port_start: self.port_start,
            peers: self.peers,
            endpoints: self.endpoints,
            links: self.links,
            link_classes: self.link_classes,
            adj_start,
            adj,
            shape,
        };
        check_connected(&topo)?;
        Ok(topo)
    }

    fn adjacency(&self) -> (Vec<u32>, Vec<Neighbour>) {
        let mut adj_start = Vec::with_capacity(self.port_start.len());
        let mut adj = Vec::with_capacity(self.links.len() * 2);
        adj_start.push(0);
        for s in 0..self.num_switches() {
            let ports = self.port_start[s] as usize..self.port_start[s + 1] as usize;
            for (port, peer) in self.peers[ports].iter().enumerate() {
                if let Peer::Switch { switch, link, .. } = *peer {
                    adj.push(Neighbour {
                        switch,
                        port: port as u32,
                        link,
                    });
                }
            }
            adj_start.push(adj.len() as u32);
        }
        (adj_start, adj)
    }
}

/// Every switch must be reachable from switch 0: a disconnected network has no diameter and
/// cannot run a collective.
fn check_connected(topo: &Topology) -> Result<()> {
    let n = topo.num_switches();
    let mut seen = vec![false; n];
    let mut stack = vec![0usize];
    seen[0] = true;
    let mut reached = 1;
    while let Some(s) = stack.pop() {
        for nb in topo.neighbours(s) {
            let t = nb.switch as usize;
            if !seen[t] {
                seen[t] = true;
                reached += 1;
                stack.push(t);
            }
        }
    }
    if reached < n {
        let lost = seen.iter().position(|&x| !x).unwrap();
        return invalid!(
            "network {} is disconnected: switch {} cannot be reached from switch 0 \
             (add links so that every switch is reachable)",
            topo.name,
            lost
        );
    }
    Ok(())
}
