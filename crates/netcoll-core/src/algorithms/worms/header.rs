//! Worm headers and the switch-decoding functions that turn a header into output ports.
//!
//! - Multi-drop headers (seed 003 Fig. 12): a tag bit, then one (switch id, p-bit port string)
//!   pair per switch with destinations, in path order. An SSR header is a single pair. A switch
//!   whose id matches the first pair replicates to the ports whose bits are set and strips the
//!   pair; any other switch, and the matching one for what is left, forwards by its up*/down*
//!   routing table towards the first remaining switch (s5.2.3).
//! - Bit-string headers (s5.3.1): an up-down bit and an N-bit destination string, decoded with
//!   total and restricted reachability strings (Fig. 18) by the rule of s5.3.3, each copy
//!   carrying only the destinations of its port's restricted string (header modification).

use super::bits::Bits;
use crate::routing::UpDown;
use crate::topology::{Peer, Topology};

/// What a switch does with an arriving copy: (output port, header of the copy sent there).
pub trait SwitchDecoder {
    type Header: Clone;
    fn decode(&self, at: u32, header: &Self::Header, out: &mut Vec<(u32, Self::Header)>);
}

/// Bits needed to name one of `n` things (at least 1).
pub fn id_bits(n: usize) -> u32 {
    (usize::BITS - n.saturating_sub(1).leading_zeros()).max(1)
}

/// One (switch id, port string) pair of a multi-drop header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DropPair {
    pub switch: u32,
    /// Bit i set: replicate to port i of `switch` (a destination endpoint).
    pub ports: Bits,
}

/// A multi-drop (path-based) or SSR header, Fig. 12.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DropHeader {
    pub pairs: Vec<DropPair>,
}

impl DropHeader {
    /// Tag bit plus, per pair, a switch id and the switch's port string.
    pub fn bits(&self, num_switches: usize) -> u32 {
        1 + self
            .pairs
            .iter()
            .map(|p| id_bits(num_switches) + p.ports.width())
            .sum::<u32>()
    }

    /// The header as Fig. 12 draws it: `1 | s5 01100000 | s3 00011000`.
    pub fn to_text(&self) -> String {
        let pairs: Vec<String> = self
            .pairs
            .iter()
            .map(|p| format!("s{} {}", p.switch, p.ports.to_text()))
            .collect();
        format!("1 | {}", pairs.join(" | "))
    }
}

/// A multi-drop header in flight: pairs from `next` on are still to be served; `down` says
/// whether the copy has taken a down link (the up*/down* routing state).
#[derive(Clone, Debug)]
pub struct DropState {
    pub next: u32,
    pub down: bool,
}

/// Decodes multi-drop headers with the switches' up*/down* routing tables.
pub struct DropDecoder<'a> {
    pub topo: &'a Topology,
    pub ud: &'a UpDown,
    pub header: &'a DropHeader,
}

impl SwitchDecoder for DropDecoder<'_> {
    type Header = DropState;
    fn decode(&self, at: u32, h: &DropState, out: &mut Vec<(u32, DropState)>) {
        let pairs = &self.header.pairs;
        let mut next = h.next as usize;
        if pairs.get(next).is_some_and(|p| p.switch == at) {
            out.extend(pairs[next].ports.ones().map(|port| (port, h.clone())));
            next += 1;
        }
        let Some(target) = pairs.get(next) else {
            return;
        };
        let step = self.ud.next(
            self.topo,
            at as usize,
            target.switch as usize,
            u8::from(h.down),
        );
        out.push((
            step.via.port,
            DropState {
                next: next as u32,
                down: h.down || !step.up,
            },
        ));
    }
}

/// A bit-string header: the up-down bit and one bit per endpoint of the network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeHeader {
    pub up: bool,
    pub dests: Bits,
}

impl TreeHeader {
    pub fn bits(&self) -> u32 {
        1 + self.dests.width()
    }
}

/// Reachability strings set up as in Fig. 18: per switch the total string `r_i` and per port
/// the restricted string `r_ij` (empty for ports that are not "down"; links to endpoints
/// count as down links).
pub struct Reachability {
    pub total: Vec<Bits>,
    /// `restricted[s][j]`.
    pub restricted: Vec<Vec<Bits>>,
    /// Whether port j of switch s leads down (to an endpoint or a down link).
    pub down_port: Vec<Vec<bool>>,
}

impl Reachability {
    pub fn new(topo: &Topology, ud: &UpDown) -> Reachability {
        let n = topo.num_switches();
        let width = topo.num_endpoints() as u32;
        let mut total = vec![Bits::zeros(width); n];
        let mut unrestricted: Vec<Vec<Bits>> = (0..n)
            .map(|s| vec![Bits::zeros(width); topo.num_ports(s)])
            .collect();
        let mut down_port: Vec<Vec<bool>> =
            (0..n).map(|s| vec![false; topo.num_ports(s)]).collect();
        // Step 1, deepest first. Down links also join switches of one level (lower id to
        // higher id), so within a level the higher ids go first: the down links then always
        // point at switches already done.
        let level = ud.levels();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&s| std::cmp::Reverse((level[s], s)));
        for s in order {
            for j in 0..topo.num_ports(s) {
                match topo.peer(s, j) {
                    Peer::Endpoint(e) => unrestricted[s][j].set(e),
                    Peer::Switch { switch, .. } if !ud.is_up(s, switch as usize) => {
                        let below = total[switch as usize].clone();
                        unrestricted[s][j] = below;
                    }
                    _ => continue,
                }
                down_port[s][j] = true;
                let r = unrestricted[s][j].clone();
                total[s].or_assign(&r);
            }
        }
        // Step 2: a destination stays only with the highest-numbered down port reaching it.
        let restricted = unrestricted
            .iter()
            .zip(&down_port)
            .map(|(ports, down)| {
                let mut later = Bits::zeros(width);
                let mut out = vec![Bits::zeros(width); ports.len()];
                for j in (0..ports.len()).rev().filter(|&j| down[j]) {
                    out[j] = ports[j].clone();
                    out[j].and_not_assign(&later);
                    later.or_assign(&ports[j]);
                }
                out
            })
            .collect();
        Reachability {
            total,
            restricted,
            down_port,
        }
    }
}

/// How a bit-string worm that must go up picks its up port (s5.3.3 allows any).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UpRule {
    /// The lowest-numbered up port.
    First,
    /// The up port whose neighbour's total reachability string covers the most destinations
    /// of the header (ties: lowest port): an adaptive choice that tends to turn down sooner.
    Cover,
}

/// Decodes bit-string headers by the rule of s5.3.3.
pub struct TreeDecoder<'a> {
    pub topo: &'a Topology,
    pub ud: &'a UpDown,
    pub reach: &'a Reachability,
    pub up_rule: UpRule,
}

impl SwitchDecoder for TreeDecoder<'_> {
    type Header = TreeHeader;
    fn decode(&self, at: u32, h: &TreeHeader, out: &mut Vec<(u32, TreeHeader)>) {
        let s = at as usize;
        if h.up && !h.dests.is_subset(&self.reach.total[s]) {
            let ups = self
                .topo
                .neighbours(s)
                .iter()
                .filter(|nb| self.ud.is_up(s, nb.switch as usize));
            let covered = |nb: &&crate::topology::Neighbour| {
                h.dests.and(&self.reach.total[nb.switch as usize]).count()
            };
            let up = match self.up_rule {
                UpRule::First => ups.min_by_key(|nb| nb.port),
                UpRule::Cover => ups.min_by_key(|nb| (std::cmp::Reverse(covered(nb)), nb.port)),
            }
            .expect("every switch but the root has an up link, and the root reaches all");
            out.push((up.port, h.clone()));
            return;
        }
        for (j, r) in self.reach.restricted[s].iter().enumerate() {
            if self.reach.down_port[s][j] && r.intersects(&h.dests) {
                let dests = h.dests.and(r);
                out.push((j as u32, TreeHeader { up: false, dests }));
            }
        }
    }
}
