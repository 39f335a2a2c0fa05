//! The protocol front end of the step engine: pipelined broadcasts driven directly, for scale.
//!
//! A protocol is "flood along port masks": every node `x` has, per packet colour `c`, a mask of
//! the ports it forwards colour-`c` packets to. A node that receives a packet for the first
//! time appends it to its arrival log; each masked port sends, one packet per step, the
//! oldest logged packet of its colours that the neighbour does not hold yet (the check uses
//! the state at the start of the step, so two neighbours may deliver the same packet in the
//! same step: a duplicate, counted). The source sends from per-port packet lists instead (the
//! packet-sending patterns of seed 004 s4.2). This covers the line, rectangular and global
//! broadcasts of seed 004 and the torus multi-colour spanning trees: only the masks differ.
//!
//! Storage is flat: per node a bitset of held packets, an arrival log of `k` entries and one
//! cursor per port. Nothing is allocated per packet; a step is one pass over the nodes.

use super::PortModel;
use crate::error::Result;
use crate::invalid;
use crate::topology::{Peer, Topology};
use serde::Serialize;

/// No neighbour on this port.
pub const NONE: u32 = u32::MAX;

/// A direct network as flat arrays: node `x`'s port `q` leads to `nbr[x * ports + q]`.
pub struct PortNet {
    pub nodes: usize,
    pub ports: usize,
    pub nbr: Vec<u32>,
    /// Directed channel id (see [`Topology::channel`]) of each `(node, port)`.
    pub chan: Vec<u32>,
    pub channels: usize,
}

impl PortNet {
    /// The switch-to-switch ports of a network (endpoint and open ports become [`NONE`]).
    pub fn from_topology(t: &Topology) -> PortNet {
        let nodes = t.num_switches();
        let ports = (0..nodes).map(|x| t.num_ports(x)).max().unwrap_or(0);
        let mut nbr = vec![NONE; nodes * ports];
        let mut chan = vec![NONE; nodes * ports];
        for x in 0..nodes {
            for q in 0..t.num_ports(x) {
                if let Peer::Switch { switch, link, .. } = t.peer(x, q) {
                    nbr[x * ports + q] = switch;
                    chan[x * ports + q] = t.channel(link, x as u32);
                }
            }
        }
        PortNet {
            nodes,
            ports,
            nbr,
            chan,
            channels: 2 * t.num_links(),
        }
    }
}

/// How a node orders packets that reach it for the first time in the same step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tie {
    /// Lowest packet index first.
    Low,
    /// Highest packet index first.
    High,
    /// In the order the engine delivers them (by sender id, then port).
    Arrival,
}

impl Tie {
    pub fn parse(s: &str) -> Result<Tie> {
        match s {
            "low" => Ok(Tie::Low),
            "high" => Ok(Tie::High),
            "arrival" => Ok(Tie::Arrival),
            _ => crate::spec_err!("tie={s} is not a tie rule: use low, high or arrival"),
        }
    }
}

/// Which packet a forwarding link sends next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Forward {
    /// The oldest packet the node logged (first received, first forwarded) that the
    /// neighbour lacks; the source follows its per-port lists.
    Fifo,
    /// Every link, the source's included, keeps the packet-sending order of its port: the
    /// lowest-numbered packet the node holds and the neighbour lacks (in order), or the highest
    /// (reverse order, a bit of `reverse`).
    Order,
}

impl Forward {
    pub fn parse(s: &str) -> Result<Forward> {
        match s {
            "fifo" => Ok(Forward::Fifo),
            "order" => Ok(Forward::Order),
            _ => crate::spec_err!("forward={s} is not a forwarding rule: use order or fifo"),
        }
    }
}

/// A broadcast protocol for [`run`].
pub struct Flood<'a> {
    pub net: &'a PortNet,
    pub source: u32,
    /// Number of packets, `k`.
    pub k: u32,
    /// Colour of each packet (length `k`).
    pub colour: Vec<u8>,
    pub colours: usize,
    /// Out-port mask per node and colour: `masks[x * colours + c]`, bit `q` = port `q`.
    pub masks: Vec<u16>,
    /// What the source sends on each of its ports, in order (length `ports`).
    pub source_order: Vec<Vec<u32>>,
    /// Nodes that must end with every packet (`None`: all nodes).
    pub targets: Option<Vec<bool>>,
    pub port_model: PortModel,
    pub tie: Tie,
    pub forward: Forward,
    /// With [`Forward::Order`]: per colour, the ports that send in reverse order.
    pub reverse: Vec<u16>,
    /// Per colour, the reverse-order ports of nodes other than the source (default: `reverse`).
    pub relay_reverse: Option<Vec<u16>>,
    /// Record every transmission (for building a schedule of a small network).
    pub trace: bool,
}

/// One transmission: in step `step` (1-based) `from` sends packet `packet` to `to` on `port`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Transmission {
    pub step: u32,
    pub from: u32,
    pub port: u8,
    pub to: u32,
    pub packet: u32,
}

/// What a protocol run measured.
#[derive(Debug, Clone, Serialize)]
pub struct FloodResult {
    /// Step at which every target holds every packet (steps are 1-based).
    pub steps: u32,
    pub targets: u64,
    /// Packet transmissions, and those that delivered a packet already held.
    pub sends: u64,
    pub duplicates: u64,
    /// Transmissions per directed channel (index = channel id).
    #[serde(skip)]
    pub link_use: Vec<u32>,
    /// Transmissions per step (index 0 = step 1).
    pub per_step: Vec<u64>,
    /// Step at which each node first held every packet (0: the source, or never).
    #[serde(skip)]
    pub done_at: Vec<u32>,
    #[serde(skip)]
    pub trace: Vec<Transmission>,
}

impl FloodResult {
    /// Directed channels used at least once, and the most transmissions on one channel.
    pub fn link_summary(&self) -> (u64, u32) {
        let used = self.link_use.iter().filter(|&&u| u > 0).count() as u64;
        (used, self.link_use.iter().copied().max().unwrap_or(0))
    }
}

/// Mutable state of a run, flat.
struct State {
    words: usize,
    held: Vec<u64>,
    log: Vec<u16>,
    log_len: Vec<u16>,
    cursor: Vec<u16>,
    any_mask: Vec<u16>,
    rr: Vec<u8>,
    /// Per colour, its packets as a bitset of `words` words.
    colour_bits: Vec<u64>,
    /// Per (node, port): the colour served last (round robin among colours sharing a port).
    last_colour: Vec<u8>,
    stamp: Vec<u32>,
    seg: Vec<u16>,
}

impl State {
    fn holds(&self, x: usize, p: u32) -> bool {
        self.held[x * self.words + (p / 64) as usize] >> (p % 64) & 1 == 1
    }
    fn set(&mut self, x: usize, p: u32) {
        self.held[x * self.words + (p / 64) as usize] |= 1 << (p % 64);
    }
}

/// Runs the protocol until every target holds every packet. A protocol that stops making
/// progress before that is reported, with the number of targets left short.
pub fn run(f: &Flood) -> Result<FloodResult> {
    check(f)?;
    let (n, ports, k) = (f.net.nodes, f.net.ports, f.k as usize);
    let words = k.div_ceil(64);
    // Every node's bitset of held packets (and, forwarding FIFO, its arrival log of k
    // entries): nodes x packets bits, 8 GB for a million nodes and 65,535 packets.
    let log = if f.forward == Forward::Fifo { 2 * k } else { 0 };
    let per_node = (8 * words + log + 8 * ports + 16) as u64;
    crate::guard::check(
        &format!("the broadcast of {k} packets on {n} nodes"),
        (n as u64).saturating_mul(per_node),
    )?;
    let mut st = State {
        words,
        held: vec![0; n * words],
        log: if f.forward == Forward::Fifo {
            vec![0; n * k]
        } else {
            Vec::new()
        },
        log_len: vec![0; n],
        cursor: vec![0; n * ports],
        any_mask: (0..n)
            .map(|x| {
                f.masks[x * f.colours..(x + 1) * f.colours]
                    .iter()
                    .fold(0, |a, &m| a | m)
            })
            .collect(),
        rr: vec![0; n],
        colour_bits: colour_bits(f, words),
        last_colour: if f.forward == Forward::Order {
            vec![0; n * ports]
        } else {
            Vec::new()
        },
        stamp: if f.forward == Forward::Fifo {
            vec![0; n]
        } else {
            Vec::new()
        },
        seg: if f.forward == Forward::Fifo {
            vec![0; n]
        } else {
            Vec::new()
        },
    };
    let src = f.source as usize;
    for p in 0..f.k {
        st.set(src, p);
    }
    let is_target = |x: usize| f.targets.as_ref().is_none_or(|t| t[x]);
    let targets = (0..n).filter(|&x| x != src && is_target(x)).count() as u64;
    let mut res = FloodResult {
        steps: 0,
        targets,
        sends: 0,
        duplicates: 0,
        link_use: vec![0; f.net.channels],
        per_step: Vec::new(),
        done_at: vec![0; n],
        trace: Vec::new(),
    };
    let mut src_cursor = vec![0usize; ports];
    let mut deliveries: Vec<(u32, u32)> = Vec::new();
    let mut touched: Vec<u32> = Vec::new();
    let mut done = 0u64;
    let mut step = 0u32;
    while done < targets {
        step += 1;
        deliveries.clear();
        if f.forward == Forward::Order {
            for x in 0..n {
                if (x == src || st.log_len[x] > 0) && st.any_mask[x] != 0 {
                    send_in_order(f, &mut st, x, step, &mut deliveries, &mut res);
                }
            }
        } else {
            send_from_source(f, &st, &mut src_cursor, step, &mut deliveries, &mut res);
            for x in 0..n {
                if x != src && st.log_len[x] > 0 && st.any_mask[x] != 0 {
                    send_from(f, &mut st, x, step, &mut deliveries, &mut res);
                }
            }
        }
        if deliveries.is_empty() {
            return invalid!(
                "the broadcast stalls at step {step}: {} of {targets} target nodes never get \
                 every packet (the protocol's rules do not reach them on this network)",
                targets - done
            );
        }
        res.per_step.push(deliveries.len() as u64);
        touched.clear();
        for &(y, p) in &deliveries {
            let y = y as usize;
            if st.holds(y, p) {
                res.duplicates += 1;
                continue;
            }
            st.set(y, p);
            if f.forward == Forward::Fifo {
                if st.stamp[y] != step {
                    st.stamp[y] = step;
                    st.seg[y] = st.log_len[y];
                    touched.push(y as u32);
                }
                st.log[y * k + st.log_len[y] as usize] = p as u16;
            }
            st.log_len[y] += 1;
            if st.log_len[y] as usize == k {
                res.done_at[y] = step;
                if is_target(y) {
                    done += 1;
                }
            }
        }
        order_ties(f.tie, &mut st, &touched, k);
    }
    res.steps = step;
    Ok(res)
}

fn check(f: &Flood) -> Result<()> {
    let (n, ports) = (f.net.nodes, f.net.ports);
    if f.k == 0 || f.k > u16::MAX as u32 {
        return crate::spec_err!("a broadcast takes 1 to 65535 packets, not {}", f.k);
    }
    if ports > 16 {
        return crate::spec_err!("the step protocols handle up to 16 ports per node, not {ports}");
    }
    if (f.source as usize) >= n {
        return crate::spec_err!(
            "source {} is out of range: nodes are 0 to {}",
            f.source,
            n.saturating_sub(1)
        );
    }
    if f.colour.len() != f.k as usize || f.colour.iter().any(|&c| c as usize >= f.colours) {
        return invalid!("every packet needs a colour below {}", f.colours);
    }
    if f.masks.len() != n * f.colours || f.source_order.len() != ports {
        return invalid!("protocol tables do not match the network size");
    }
    Ok(())
}

fn colour_bits(f: &Flood, words: usize) -> Vec<u64> {
    let mut bits = vec![0u64; f.colours * words];
    for (p, &c) in f.colour.iter().enumerate() {
        bits[c as usize * words + p / 64] |= 1 << (p % 64);
    }
    bits
}

/// Sends of one step under [`Forward::Order`]: per masked port, among the colours of the port
/// in round robin, the lowest (or highest) packet held here and lacking there.
fn send_in_order(
    f: &Flood,
    st: &mut State,
    x: usize,
    step: u32,
    out: &mut Vec<(u32, u32)>,
    res: &mut FloodResult,
) {
    let (ports, cols, words) = (f.net.ports, f.colours, st.words);
    let start = if f.port_model == PortModel::OnePort {
        st.rr[x] as usize
    } else {
        0
    };
    let mut sent = false;
    for i in 0..ports {
        let q = (start + i) % ports;
        if st.any_mask[x] >> q & 1 == 0 {
            continue;
        }
        let y = f.net.nbr[x * ports + q];
        if y == NONE {
            continue;
        }
        let first = st.last_colour[x * ports + q] as usize;
        let mut chosen = None;
        for j in 1..=cols {
            let c = (first + j) % cols;
            if f.masks[x * cols + c] >> q & 1 == 0 {
                continue;
            }
            let table = match &f.relay_reverse {
                Some(r) if x != f.source as usize => r,
                _ => &f.reverse,
            };
            let reverse = table[c] >> q & 1 == 1;
            if let Some(p) = pick(
                st,
                x,
                y as usize,
                &st.colour_bits[c * words..(c + 1) * words],
                reverse,
            ) {
                chosen = Some((c, p));
                break;
            }
        }
        if let Some((c, p)) = chosen {
            st.last_colour[x * ports + q] = c as u8;
            sent = true;
            emit(f, x, q, y, p, step, out, res);
            if f.port_model == PortModel::OnePort {
                st.rr[x] = ((q + 1) % ports) as u8;
                return;
            }
        }
    }
    // A node that holds every packet and had nothing to send never sends again (its
    // neighbours only gain packets): drop it from later scans.
    if !sent && (x == f.source as usize || st.log_len[x] as u32 == f.k) {
        st.any_mask[x] = 0;
    }
}

/// The lowest (highest if `reverse`) packet of `colour` that `x` holds and `y` lacks.
fn pick(st: &State, x: usize, y: usize, colour: &[u64], reverse: bool) -> Option<u32> {
    let w = st.words;
    let word = |i: usize| st.held[x * w + i] & !st.held[y * w + i] & colour[i];
    if reverse {
        (0..w).rev().find_map(|i| {
            let v = word(i);
            (v != 0).then(|| (i * 64 + 63 - v.leading_zeros() as usize) as u32)
        })
    } else {
        (0..w).find_map(|i| {
            let v = word(i);
            (v != 0).then(|| (i * 64 + v.trailing_zeros() as usize) as u32)
        })
    }
}

/// Sends of one step from the source's per-port lists.
fn send_from_source(
    f: &Flood,
    st: &State,
    cursor: &mut [usize],
    step: u32,
    out: &mut Vec<(u32, u32)>,
    res: &mut FloodResult,
) {
    let src = f.source as usize;
    let ports = f.net.ports;
    for q in 0..ports {
        let y = f.net.nbr[src * ports + q];
        if y == NONE {
            continue;
        }
        let list = &f.source_order[q];
        while cursor[q] < list.len() && st.holds(y as usize, list[cursor[q]]) {
            cursor[q] += 1;
        }
        if let Some(&p) = list.get(cursor[q]) {
            cursor[q] += 1;
            emit(f, src, q, y, p, step, out, res);
            if f.port_model == PortModel::OnePort {
                return;
            }
        }
    }
}

/// Sends of one step from a forwarding node: per masked port, the oldest logged packet of the
/// port's colours that the neighbour lacks.
fn send_from(
    f: &Flood,
    st: &mut State,
    x: usize,
    step: u32,
    out: &mut Vec<(u32, u32)>,
    res: &mut FloodResult,
) {
    let (ports, k, cols) = (f.net.ports, f.k as usize, f.colours);
    let len = st.log_len[x] as usize;
    let start = if f.port_model == PortModel::OnePort {
        st.rr[x] as usize
    } else {
        0
    };
    for i in 0..ports {
        let q = (start + i) % ports;
        if st.any_mask[x] >> q & 1 == 0 {
            continue;
        }
        let y = f.net.nbr[x * ports + q];
        if y == NONE {
            continue;
        }
        let mut c = st.cursor[x * ports + q] as usize;
        while c < len {
            let p = st.log[x * k + c] as u32;
            let wanted = f.masks[x * cols + f.colour[p as usize] as usize] >> q & 1 == 1;
            if wanted && !st.holds(y as usize, p) {
                break;
            }
            c += 1;
        }
        if c < len {
            let p = st.log[x * k + c] as u32;
            st.cursor[x * ports + q] = (c + 1) as u16;
            emit(f, x, q, y, p, step, out, res);
            if f.port_model == PortModel::OnePort {
                st.rr[x] = ((q + 1) % ports) as u8;
                return;
            }
        } else {
            st.cursor[x * ports + q] = c as u16;
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn emit(
    f: &Flood,
    x: usize,
    q: usize,
    y: u32,
    p: u32,
    step: u32,
    out: &mut Vec<(u32, u32)>,
    res: &mut FloodResult,
) {
    out.push((y, p));
    res.sends += 1;
    let ch = f.net.chan[x * f.net.ports + q];
    if ch != NONE {
        res.link_use[ch as usize] += 1;
    }
    if f.trace {
        res.trace.push(Transmission {
            step,
            from: x as u32,
            port: q as u8,
            to: y,
            packet: p,
        });
    }
}

/// Packets first received in the same step are logged in the tie rule's order.
fn order_ties(tie: Tie, st: &mut State, touched: &[u32], k: usize) {
    if tie == Tie::Arrival {
        return;
    }
    for &y in touched {
        let y = y as usize;
        let seg = &mut st.log[y * k + st.seg[y] as usize..y * k + st.log_len[y] as usize];
        if seg.len() > 1 {
            match tie {
                Tie::Low => seg.sort_unstable(),
                _ => seg.sort_unstable_by(|a, b| b.cmp(a)),
            }
        }
    }
}
