//! Turning a schedule's multidestination worms (`Message::worm`, with the replication tree
//! `hops` the worm algorithms compute by replaying the header) into the engine's
//! [`WormTable`]. Each tree is checked against the network as it is flattened: the first
//! visit is at the source's switch and entered by its injection port, every switch port of
//! a visit leads to the visit its copy makes, and every endpoint port to one destination.

use super::network::{Network, NONE};
use super::replicate::WormOut;
use crate::error::Result;
use crate::invalid;
use crate::schedule::{Schedule, WormHop};
use crate::topology::Peer;

/// Flattens the replication tree of every worm message of `s` into `net.rep.table` and
/// returns, per message, the visit its packets start at (NONE: not a worm, or a worm without
/// a tree, which then travels as unicast copies). An endpoint copy's tag is the packet's
/// tag plus `dest_index * packets`, the schedule runner's per-destination label.
pub fn load_worms(net: &mut Network, s: &Schedule) -> Result<Vec<u32>> {
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
        roots.push(load_tree(net, &w.hops, src, &dests, m.packets, mi)?);
    }
    Ok(roots)
}

fn load_tree(
    net: &mut Network,
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
    let first = net.rep.table.visits() as u32;
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
        net.rep.table.push_visit(&outs);
    }
    if let Some(di) = seen.iter().position(|&x| !x) {
        return invalid!(
            "message {mi}: its worm never reaches destination endpoint {}",
            dests[di]
        );
    }
    Ok(first)
}
