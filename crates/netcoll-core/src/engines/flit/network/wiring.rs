//! How the routers are wired: the CSR numbering of every router's ports, where each output
//! port leads (a link to another router's input port, or an ejection channel) and where
//! each input port is fed from (a link or an NI), read once from the topology.

use crate::error::Result;
use crate::spec_err;
use crate::topology::{Peer, Topology};

/// Where a router's output port leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Out {
    Open,
    Eject(u32),
    /// The global input port at the other end, and the channel id (topology numbering).
    Link {
        input: u32,
        channel: u32,
    },
}

/// Where a router's input port is fed from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum In {
    Open,
    Ni(u32),
    Link(u32),
}

/// CSR port offsets and the router of every global port.
pub fn ports(topo: &Topology) -> (Vec<u32>, Vec<u32>) {
    let mut pstart = vec![0u32];
    let mut port_router = Vec::new();
    for s in 0..topo.num_switches() {
        let n = topo.num_ports(s);
        port_router.extend(std::iter::repeat_n(s as u32, n));
        pstart.push(pstart[s] + n as u32);
    }
    (pstart, port_router)
}

/// Where each output port leads, where each input port is fed from, and each endpoint's
/// injection port.
pub fn wiring(topo: &Topology, pstart: &[u32]) -> (Vec<Out>, Vec<In>, Vec<u32>) {
    let np = *pstart.last().unwrap() as usize;
    let mut out_to = vec![Out::Open; np];
    let mut in_from = vec![In::Open; np];
    let mut ep_port = vec![0u32; topo.num_endpoints()];
    for s in 0..topo.num_switches() {
        for p in 0..topo.num_ports(s) {
            let g = (pstart[s] + p as u32) as usize;
            match topo.peer(s, p) {
                Peer::Open => {}
                Peer::Endpoint(e) => {
                    out_to[g] = Out::Eject(e);
                    in_from[g] = In::Ni(e);
                    ep_port[e as usize] = g as u32;
                }
                Peer::Switch { switch, port, link } => {
                    let input = pstart[switch as usize] + port;
                    out_to[g] = Out::Link {
                        input,
                        channel: topo.channel(link, s as u32),
                    };
                    in_from[input as usize] = In::Link(g as u32);
                }
            }
        }
    }
    (out_to, in_from, ep_port)
}

/// Marks an ejection channel in a [`Down`] (else a router's input VC).
pub const DOWN_EJECT: u32 = 1 << 31;

/// Per global input port, where the credits of its VCs go, as one word (a traversal reads
/// it without matching on [`In`]): the credit number (`channel::Wheel::credit`) of VC 0 of
/// the upstream output port or NI; the VC's number is added. Open ports: `u32::MAX`.
pub fn credit_targets(in_from: &[In], nv: usize, wheel: &super::channel::Wheel) -> Vec<u32> {
    in_from
        .iter()
        .map(|i| match *i {
            In::Link(gu) => wheel.credit(gu * nv as u32, false),
            In::Ni(ep) => wheel.credit(ep * nv as u32, true),
            In::Open => u32::MAX,
        })
        .collect()
}

/// What a traversal and an arrival need of a global input port, in one record: where the
/// credits of its VCs go (the credit number, `channel::Wheel::credit`, of VC 0 of the
/// upstream output port or NI, `u32::MAX` for an open port; wiring.rs `credit_targets`)
/// and the number of its VC 0 in the per-router bit sets of input VCs (`wait_bits`, `occ`;
/// bit `r * wpr * 64 + port * num_vcs + vc`, the word `bit / 64`); the VC's number is
/// added to both. An arrival finds its VC's bit with an add, no division or multiplication.
#[derive(Debug, Clone, Copy, Default)]
pub struct PortAt {
    pub up: u32,
    pub bit: u32,
}

/// Where a global output port's flits go, as its traversals need it: over a link, to input
/// VC `ivc + vc` (`ivc` the downstream port's VC 0) of bit `bit + vc` (see [`PortAt`]);
/// `ivc` is [`DOWN_EJECT`] with the endpoint for an ejection port, `u32::MAX` for an open
/// one.
#[derive(Debug, Clone, Copy)]
pub struct Down {
    pub ivc: u32,
    pub bit: u32,
}

/// [`PortAt`] of every global port.
pub fn port_at(
    pstart: &[u32],
    port_router: &[u32],
    up: &[u32],
    nv: usize,
    wpr: usize,
) -> Result<Vec<PortAt>> {
    let routers = pstart.len() - 1;
    if routers * wpr * 64 > u32::MAX as usize {
        return spec_err!(
            "the flit network has {routers} routers of up to {} VCs: the flit engine numbers \
             fewer than 2^32 input VCs",
            wpr * 64
        );
    }
    Ok(port_router
        .iter()
        .enumerate()
        .map(|(p, &r)| PortAt {
            up: up[p],
            bit: ((r as usize * wpr * 64) + (p - pstart[r as usize] as usize) * nv) as u32,
        })
        .collect())
}

/// [`Down`] of every global output port.
pub fn down_targets(out_to: &[Out], port_at: &[PortAt], nv: usize) -> Result<Vec<Down>> {
    if out_to.len() * nv >= DOWN_EJECT as usize {
        return spec_err!(
            "the flit network has {} ports of {nv} VCs: the flit engine numbers fewer than \
             2^31 input VCs",
            out_to.len()
        );
    }
    let down = |o: &Out| match *o {
        Out::Link { input, .. } => Down {
            ivc: input * nv as u32,
            bit: port_at[input as usize].bit,
        },
        Out::Eject(ep) => Down {
            ivc: DOWN_EJECT | ep,
            bit: 0,
        },
        Out::Open => Down {
            ivc: u32::MAX,
            bit: 0,
        },
    };
    Ok(out_to.iter().map(down).collect())
}
