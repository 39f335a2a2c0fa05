//! Hand-worked allocator cases: where BookSim's iSLIP allocators (one iteration) lose a
//! match that netcoll's earlier greedy / input-first allocators make.

use super::channel::Flit;
use super::config::FlitConfig;
use super::network::{Network, Packet, ACTIVE, NONE};
use crate::topology::{Peer, Topology};

/// Global indices of the router-to-router ports of router `r`.
fn link_ports(topo: &Topology, net: &Network, r: usize) -> Vec<usize> {
    (0..topo.num_ports(r))
        .filter(|&p| matches!(topo.peer(r, p), Peer::Switch { .. }))
        .map(|p| net.pstart[r] as usize + p)
        .collect()
}

/// Puts a one-flit packet to endpoint `dst` into input VC `vc` of global port `gi`.
fn put(net: &mut Network, gi: usize, vc: u8, dst: u32) -> usize {
    let pkt = net.packets.len() as u32;
    net.packets.push(Packet {
        dst,
        size: 1,
        tag: NONE,
        worm: NONE,
        ..Packet::default()
    });
    let flit = Flit::new(pkt, dst, 0, true, true);
    net.arrive(gi as u32, vc, flit);
    gi * net.nv + vc as usize
}

/// Two heads at the centre of a 3x3 mesh, on different input ports, both routed east: how
/// many hold an output VC after the first and after the second VA cycle.
fn two_heads_one_port(allocator: &str) -> (usize, usize) {
    let topo = Topology::from_spec("mesh:3x3").unwrap();
    let c = FlitConfig::from_pairs([("vc_allocator", allocator)]).unwrap();
    let mut net = Network::new(&topo, &c).unwrap();
    let ins = link_ports(&topo, &net, 4);
    let ivcs: Vec<usize> = ins[..2].iter().map(|&gi| put(&mut net, gi, 0, 5)).collect();
    let active = |net: &Network| ivcs.iter().filter(|&&v| net.vcs[v].state == ACTIVE).count();
    net.route_and_allocate_vcs(4); // routing (routing_delay = 1)
    net.now = 1;
    net.route_and_allocate_vcs(4);
    let first = active(&net);
    net.now = 2;
    net.route_and_allocate_vcs(4);
    (first, active(&net))
}

#[test]
fn islip_vc_allocation_grants_one_of_two_heads_per_cycle_where_greedy_grants_both() {
    // iSLIP: all four free output VCs grant the same (lowest) requester, which accepts one;
    // the other head waits a cycle. Greedy hands out two VCs at once.
    assert_eq!(two_heads_one_port("islip"), (1, 2));
    assert_eq!(two_heads_one_port("greedy"), (2, 2));
}

/// Input A holds VC0 -> output Y and VC1 -> output X, input B holds VC0 -> X (X < Y, A < B
/// in port order): flits that cross the switch in one cycle.
fn crossed_requests(allocator: &str) -> u32 {
    let topo = Topology::from_spec("mesh:3x3").unwrap();
    let c = FlitConfig::from_pairs([("sw_allocator", allocator)]).unwrap();
    let mut net = Network::new(&topo, &c).unwrap();
    let p = link_ports(&topo, &net, 4);
    let (x, y, a, b) = (p[0], p[1], p[2], p[3]);
    for (gi, vc, out) in [(a, 0u8, y), (a, 1, x), (b, 0, x)] {
        let ivc = put(&mut net, gi, vc, 0);
        net.set_waiting(4, ivc, false);
        net.vcs[ivc].state = ACTIVE;
        net.set_holding(4, ivc, true);
        net.vcs[ivc].out_port = out as u32;
        net.vcs[ivc].out_vc = vc;
        net.owner[out * net.nv + vc as usize] = ivc as u32;
    }
    // Every traversal returns a credit upstream.
    let before = net.sent.credits.len();
    net.allocate_switch(4);
    (net.sent.credits.len() - before) as u32
}

#[test]
fn islip_switch_allocation_wastes_a_grant_that_input_first_uses() {
    // iSLIP: X and Y both grant A (nearest their pointers), A accepts X; Y's grant is lost
    // and B, which only wants X, waits. Input-first: A puts VC0 (-> Y) forward, B -> X.
    assert_eq!(crossed_requests("islip"), 1);
    assert_eq!(crossed_requests("separable_input_first"), 2);
}
