//! Replaying a header through the switches gives a worm's replication tree; checking a tree
//! against the network proves it legal under up*/down* and exactly-once.

use super::header::SwitchDecoder;
use crate::error::Result;
use crate::invalid;
use crate::routing::UpDown;
use crate::schedule::WormHop;
use crate::topology::{Peer, Topology};

/// Injects `header` at endpoint `src` and lets every switch decode it: the visits, parents
/// first. Fails (instead of looping) if the copies exceed what an up*/down* worm can make.
pub fn replay<D: SwitchDecoder>(
    topo: &Topology,
    dec: &D,
    src: u32,
    header: D::Header,
) -> Result<Vec<WormHop>> {
    let at = topo.endpoints()[src as usize];
    let mut hops = vec![WormHop {
        switch: at.switch,
        parent: WormHop::SOURCE,
        in_port: at.port,
        out_ports: Vec::new(),
    }];
    let mut headers = vec![header];
    // Each directed channel carries a legal worm at most once: a bound on the visits.
    let limit = 2 * topo.num_links() + 1;
    let mut out = Vec::new();
    let mut i = 0;
    while i < hops.len() {
        out.clear();
        dec.decode(hops[i].switch, &headers[i], &mut out);
        out.sort_by_key(|&(p, _)| p);
        for (port, h) in out.drain(..) {
            hops[i].out_ports.push(port);
            if let Peer::Switch {
                switch,
                port: in_port,
                ..
            } = topo.peer(hops[i].switch as usize, port as usize)
            {
                if hops.len() == limit {
                    return invalid!(
                        "a worm from endpoint {src} makes more than {limit} switch visits: the \
                         header does not lead to its destinations (a netcoll bug, please report)"
                    );
                }
                hops.push(WormHop {
                    switch,
                    parent: i as u32,
                    in_port,
                    out_ports: Vec::new(),
                });
                headers.push(h);
            }
        }
        i += 1;
    }
    Ok(hops)
}

/// What a checked worm costs the network.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WormCost {
    /// Switch-to-switch link traversals (one per copy per link).
    pub links: u32,
    /// Links on the longest branch from the source's switch.
    pub depth: u32,
}

/// Checks a replication tree: it starts at the source's port, every copy enters by the port
/// its parent sent it on, no branch takes an up link after it or an ancestor took a down link
/// (s5.1.3), every output port leads to a switch visit or an endpoint, and the endpoints
/// reached are exactly `dests`, each once.
pub fn check_tree(
    topo: &Topology,
    ud: &UpDown,
    src: u32,
    dests: &[u32],
    hops: &[WormHop],
) -> Result<WormCost> {
    let start = topo.endpoints()[src as usize];
    match hops.first() {
        Some(h)
            if (h.switch, h.in_port, h.parent) == (start.switch, start.port, WormHop::SOURCE) => {}
        _ => return invalid!("the worm does not start at the port of its source endpoint {src}"),
    }
    let mut want = vec![0u8; topo.num_endpoints()];
    for &d in dests {
        want[d as usize] = 1;
    }
    let mut down = vec![false; hops.len()];
    let mut depth = vec![0u32; hops.len()];
    // Every (hop, output port to a switch) must feed exactly one child visit.
    let mut fed = std::collections::HashSet::new();
    for (i, h) in hops.iter().enumerate().skip(1) {
        let p = h.parent as usize;
        let parent = &hops[p];
        let port = parent.out_ports.iter().copied().find(|&o| {
            matches!(topo.peer(parent.switch as usize, o as usize),
                Peer::Switch { switch, port, .. } if (switch, port) == (h.switch, h.in_port))
        });
        if port.filter(|&o| fed.insert((p, o))).is_none() {
            return invalid!(
                "worm hop {i} at switch {} is not fed by its parent",
                h.switch
            );
        }
        let up = ud.is_up(parent.switch as usize, h.switch as usize);
        if up && down[p] {
            return invalid!(
                "the worm goes up from switch {} to {} after going down: not an up*/down* route",
                parent.switch,
                h.switch
            );
        }
        down[i] = down[p] || !up;
        depth[i] = depth[p] + 1;
    }
    let mut links = 0;
    for (i, h) in hops.iter().enumerate() {
        if h.out_ports.windows(2).any(|w| w[0] >= w[1]) {
            return invalid!(
                "worm hop {i} at switch {} lists its output ports out of order",
                h.switch
            );
        }
        for &o in &h.out_ports {
            match topo.peer(h.switch as usize, o as usize) {
                Peer::Endpoint(e) if want[e as usize] == 1 => want[e as usize] = 2,
                Peer::Endpoint(e) => {
                    return invalid!("the worm reaches endpoint {e} twice or uninvited")
                }
                Peer::Switch { .. } if fed.contains(&(i, o)) => links += 1,
                Peer::Switch { .. } => {
                    return invalid!(
                        "worm hop {i} at switch {} sends a copy nobody receives",
                        h.switch
                    )
                }
                Peer::Open => {
                    return invalid!("the worm leaves switch {} by an open port", h.switch)
                }
            }
        }
    }
    if let Some(e) = want.iter().position(|&w| w == 1) {
        return invalid!("the worm never reaches destination endpoint {e}");
    }
    Ok(WormCost {
        links,
        depth: depth.iter().copied().max().unwrap_or(0),
    })
}
