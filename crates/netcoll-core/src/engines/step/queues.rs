//! Per-link queues of the schedule front end: which packets cross which links in a step.
//!
//! The rule being implemented ([`super::sched`]): in every step the packets that may move
//! (they arrived at their switch in an earlier step, or their send has issued) are tried in
//! the order (first step they could move, creation order); each takes its routed link if free
//! this step, else a free parallel link to the same switch; under one-port a packet not yet
//! injected also needs its source rank not to have injected one this step. Trying every
//! waiting packet every step costs (packets waiting) x (steps): quadratic in the packet count.
//!
//! Here nothing that cannot move is tried. Packets wait in **lanes**, each sorted by that
//! order:
//! - a *transit lane* per trunk (the links from one switch to one neighbour switch): packets
//!   that arrived at the switch, a FIFO threaded through the flight slots (arrivals of step `t`
//!   all have key `t + 1`, larger than every key already waiting, and are appended sorted by
//!   creation order);
//! - a *source lane* per (trunk, source rank): the send ops of that rank whose next packet
//!   copy leaves on that trunk (or stays on the switch). A send is not expanded into its
//!   packet copies: one [`Source`] per (send, first trunk) is a cursor over its copies in
//!   creation order (packet, then destination), so a send of n copies costs O(1) memory until
//!   a copy is injected.
//!
//! A step merges the heads of all non-empty lanes in one heap by key. A lane leaves the step as
//! soon as its head cannot move, because nothing behind it can either: its trunk is full (it
//! stays full this step) or, for a source lane under one-port, its rank has injected (it stays
//! so). Every lane popped therefore moves a packet or is dropped once, and a step costs
//! O((lanes + moves) log lanes); moves are made in exactly the order of the rule, so results
//! equal the per-packet scan's.

use super::{LinkLatency, PortModel};
use crate::routing::Routing;
use crate::schedule::Schedule;
use crate::topology::Topology;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

const NONE: u32 = u32::MAX;
/// Lane codes in the step heap: transit lanes are trunk ids, source lanes carry this bit.
const SOURCE_LANE: u32 = 1 << 31;

/// A lane's place in the step heap: (ready, creation order, lane code) packed so that the
/// integer order is the tuple order.
fn heap_key(ready: u32, f: u64, code: u32) -> u128 {
    (ready as u128) << 96 | (f as u128) << 32 | code as u128
}

/// A packet copy that has left its source and is waiting at, or crossing, a switch.
#[derive(Clone, Copy)]
struct Flight {
    /// Creation order (the tie-break after the waiting time).
    f: u64,
    msg: u32,
    packet: u32,
    dest_rank: u32,
    at: u32,
    dest: u32,
    /// First step in which it may move.
    ready: u32,
    /// The routed next hop from `at` (valid when `at != dest`).
    via_link: u32,
    via_switch: u32,
    next_state: u8,
    /// Next flight in the same transit lane, or the next free slot.
    next: u32,
}

/// The packet copies of one send op that leave on one trunk, in creation order.
struct Source {
    send: u32,
    msg: u32,
    base_f: u64,
    ready: u32,
    first_packet: u32,
    packet: u32,
    end_packet: u32,
    /// The message's destination count (the creation-order stride of a packet).
    ndests: u32,
    /// Destination indices of this trunk: `dest_pool[start..start + len]`.
    start: usize,
    len: u32,
    pos: u32,
    lane: u32,
}

impl Source {
    fn head_f(&self, pool: &[u32]) -> u64 {
        let d = pool[self.start + self.pos as usize] as u64;
        self.base_f + (self.packet - self.first_packet) as u64 * self.ndests as u64 + d
    }
}

struct Lane {
    /// Trunk id; `channels + switch` for copies that stay on their switch.
    trunk: u32,
    rank: u32,
    /// (ready, head creation order, source id).
    sources: BinaryHeap<Reverse<(u32, u64, u32)>>,
    listed: bool,
}

/// What a step produced, in the order of the rule.
#[derive(Default)]
pub(super) struct StepOut {
    /// Link transmissions.
    pub moved: u64,
    /// The send op of every copy injected.
    pub injected: Vec<u32>,
    /// (message, packet, destination rank) of every copy that reached its destination switch.
    pub arrived: Vec<(u32, u32, u32)>,
}

/// The network state of a replay: flights, sources and their lanes.
pub(super) struct Queues<'a> {
    s: &'a Schedule,
    topo: &'a Topology,
    routing: &'a Routing,
    ports: PortModel,
    channels: u32,
    /// Channel -> its trunk id (the trunk's first channel in neighbour order).
    trunk_of: Vec<u32>,
    /// Trunk id -> parallel links in it.
    width: Vec<u32>,
    /// Per trunk: the step of its last use and the links used then.
    used_step: Vec<u32>,
    used: Vec<u32>,
    /// Per channel: the step it last carried a packet.
    busy: Vec<u32>,
    /// Transit FIFOs per trunk (slot ids) and whether the trunk is in `transit_listed`.
    head: Vec<u32>,
    tail: Vec<u32>,
    transit_listed: Vec<u32>,
    in_transit_list: Vec<bool>,
    flights: Vec<Flight>,
    free_flight: u32,
    live_flights: u64,
    sources: Vec<Source>,
    free_sources: Vec<u32>,
    live_sources: u64,
    dest_pool: Vec<u32>,
    lanes: Vec<Lane>,
    lane_of: HashMap<(u32, u32), u32>,
    lanes_listed: Vec<u32>,
    /// Sources not yet ready: (ready, source id).
    pending: BinaryHeap<Reverse<(u32, u32)>>,
    /// Per rank: the step it last injected (one-port).
    rank_used: Vec<u32>,
    heap: BinaryHeap<Reverse<u128>>,
    /// Flights that moved but have not arrived: (creation order, slot, next trunk).
    moved_on: Vec<(u64, u32, u32)>,
    scratch: Vec<(u32, u32)>,
    /// Per channel: steps to cross it; empty when every link takes one step (the default,
    /// whose path is left exactly as it was).
    latency: Vec<u32>,
    /// Flights still crossing a slow link: (arrival step, creation order, slot). At the end of
    /// their arrival step they are handled as if they had just moved, so every flight entering
    /// a transit lane in step `t` has key `t + 1` and the lanes stay FIFOs.
    crossing: BinaryHeap<Reverse<(u32, u64, u32)>>,
}

impl<'a> Queues<'a> {
    pub fn new(
        s: &'a Schedule,
        topo: &'a Topology,
        routing: &'a Routing,
        ports: PortModel,
        lat: LinkLatency,
    ) -> Self {
        let channels = 2 * topo.num_links() as u32;
        let latency = if lat.is_unit() {
            Vec::new()
        } else {
            (0..channels)
                .map(|ch| lat.of(topo.channel_class(ch)))
                .collect()
        };
        let (trunk_of, width) = trunks(topo);
        let trunk_ids = channels as usize;
        Queues {
            s,
            topo,
            routing,
            ports,
            channels,
            trunk_of,
            width,
            used_step: vec![0; trunk_ids],
            used: vec![0; trunk_ids],
            busy: vec![0; trunk_ids],
            head: vec![NONE; trunk_ids],
            tail: vec![NONE; trunk_ids],
            transit_listed: Vec::new(),
            in_transit_list: vec![false; trunk_ids],
            flights: Vec::new(),
            free_flight: NONE,
            live_flights: 0,
            sources: Vec::new(),
            free_sources: Vec::new(),
            live_sources: 0,
            dest_pool: Vec::new(),
            lanes: Vec::new(),
            lane_of: HashMap::new(),
            lanes_listed: Vec::new(),
            pending: BinaryHeap::new(),
            rank_used: vec![0; s.p() as usize],
            heap: BinaryHeap::new(),
            moved_on: Vec::new(),
            scratch: Vec::new(),
            latency,
            crossing: BinaryHeap::new(),
        }
    }

    /// No packet waits or travels and no send has copies left.
    pub fn is_idle(&self) -> bool {
        self.live_flights == 0 && self.live_sources == 0
    }

    fn switch_of(&self, rank: u32) -> u32 {
        self.topo
            .endpoint_switch(self.s.placement()[rank as usize] as usize) as u32
    }

    /// The trunk a copy at `from` for switch `dest` leaves on (fresh packet state).
    fn first_trunk(&self, from: u32, dest: u32) -> u32 {
        match self
            .routing
            .next(self.topo, from as usize, dest as usize, 0)
        {
            None => self.channels + from,
            Some(st) => self.trunk_of[self.topo.channel(st.via.link, from) as usize],
        }
    }

    /// Send op `send` of packets `a..b` of `msg` issues in step `ready`; its copies are
    /// numbered from `base_f` in (packet, destination) order.
    pub fn add_send(&mut self, send: u32, msg: u32, (a, b): (u32, u32), base_f: u64, ready: u32) {
        let m = self.s.message(msg);
        let from = self.switch_of(m.src);
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        for (i, &d) in self.s.dests(m).iter().enumerate() {
            scratch.push((self.first_trunk(from, self.switch_of(d)), i as u32));
        }
        scratch.sort_unstable();
        let ndests = scratch.len() as u32;
        let mut i = 0;
        while i < scratch.len() {
            let trunk = scratch[i].0;
            let start = self.dest_pool.len();
            while i < scratch.len() && scratch[i].0 == trunk {
                self.dest_pool.push(scratch[i].1);
                i += 1;
            }
            let lane = self.lane(trunk, m.src);
            let src = Source {
                send,
                msg,
                base_f,
                ready,
                first_packet: a,
                packet: a,
                end_packet: b,
                ndests,
                start,
                len: (self.dest_pool.len() - start) as u32,
                pos: 0,
                lane,
            };
            let id = match self.free_sources.pop() {
                Some(id) => {
                    self.sources[id as usize] = src;
                    id
                }
                None => {
                    self.sources.push(src);
                    self.sources.len() as u32 - 1
                }
            };
            self.live_sources += 1;
            self.pending.push(Reverse((ready, id)));
        }
        self.scratch = scratch;
    }

    fn lane(&mut self, trunk: u32, rank: u32) -> u32 {
        let lanes = &mut self.lanes;
        *self.lane_of.entry((trunk, rank)).or_insert_with(|| {
            lanes.push(Lane {
                trunk,
                rank,
                sources: BinaryHeap::new(),
                listed: false,
            });
            lanes.len() as u32 - 1
        })
    }

    /// Puts source `id` into its lane with its head's key.
    fn queue_source(&mut self, id: u32) {
        let src = &self.sources[id as usize];
        let key = (src.ready, src.head_f(&self.dest_pool), id);
        let lane = &mut self.lanes[src.lane as usize];
        lane.sources.push(Reverse(key));
        if !lane.listed {
            lane.listed = true;
            self.lanes_listed.push(src.lane);
        }
    }

    fn trunk_full(&self, trunk: u32, step: u32) -> bool {
        trunk < self.channels && self.used_step[trunk as usize] == step && {
            self.used[trunk as usize] >= self.width[trunk as usize]
        }
    }

    /// Moves every packet copy that can move in `step`, in the rule's order.
    pub fn step(&mut self, step: u32, link_use: &mut [u32], out: &mut StepOut) {
        out.moved = 0;
        out.injected.clear();
        out.arrived.clear();
        while let Some(&Reverse((ready, id))) = self.pending.peek() {
            if ready > step {
                break;
            }
            self.pending.pop();
            self.queue_source(id);
        }
        self.seed_heap();
        while let Some(Reverse(key)) = self.heap.pop() {
            let code = key as u32;
            if code & SOURCE_LANE == 0 {
                let trunk = code;
                if self.trunk_full(trunk, step) {
                    continue;
                }
                let slot = self.head[trunk as usize];
                self.head[trunk as usize] = self.flights[slot as usize].next;
                self.move_flight(slot, step, link_use, out);
                self.push_transit_head(trunk);
            } else {
                let lane = code & !SOURCE_LANE;
                let Lane { trunk, rank, .. } = self.lanes[lane as usize];
                let blocked =
                    self.ports == PortModel::OnePort && self.rank_used[rank as usize] == step;
                if blocked || self.trunk_full(trunk, step) {
                    continue;
                }
                let slot = self.inject(lane, out);
                self.rank_used[rank as usize] = step;
                self.move_flight(slot, step, link_use, out);
                self.push_lane_head(lane);
            }
        }
        self.land_crossings(step, out);
        self.enqueue_moved();
    }

    /// Flights whose slow link delivers them at the end of `step` arrive now.
    fn land_crossings(&mut self, step: u32, out: &mut StepOut) {
        while let Some(&Reverse((at_step, _, slot))) = self.crossing.peek() {
            if at_step > step {
                break;
            }
            self.crossing.pop();
            self.land(slot, step, out);
        }
    }

    fn seed_heap(&mut self) {
        self.heap.clear();
        let mut listed = std::mem::take(&mut self.transit_listed);
        listed.retain(|&t| {
            let keep = self.head[t as usize] != NONE;
            self.in_transit_list[t as usize] = keep;
            keep
        });
        for &t in &listed {
            self.push_transit_head(t);
        }
        self.transit_listed = listed;
        let mut listed = std::mem::take(&mut self.lanes_listed);
        listed.retain(|&l| {
            let lane = &mut self.lanes[l as usize];
            lane.listed = !lane.sources.is_empty();
            lane.listed
        });
        for &l in &listed {
            self.push_lane_head(l);
        }
        self.lanes_listed = listed;
    }

    fn push_transit_head(&mut self, trunk: u32) {
        let slot = self.head[trunk as usize];
        if slot != NONE {
            let fl = &self.flights[slot as usize];
            self.heap.push(Reverse(heap_key(fl.ready, fl.f, trunk)));
        }
    }

    fn push_lane_head(&mut self, lane: u32) {
        if let Some(&Reverse((ready, f, _))) = self.lanes[lane as usize].sources.peek() {
            self.heap
                .push(Reverse(heap_key(ready, f, lane | SOURCE_LANE)));
        }
    }

    /// Takes the next copy of the lane's first source into a flight slot.
    fn inject(&mut self, lane: u32, out: &mut StepOut) -> u32 {
        let Some(Reverse((_, f, id))) = self.lanes[lane as usize].sources.pop() else {
            unreachable!("a lane in the step heap has a source")
        };
        let src = &mut self.sources[id as usize];
        let d = self.dest_pool[src.start + src.pos as usize];
        let (msg, packet, send, ready) = (src.msg, src.packet, src.send, src.ready);
        src.pos += 1;
        if src.pos == src.len {
            src.pos = 0;
            src.packet += 1;
        }
        if src.packet < src.end_packet {
            self.queue_source(id);
        } else {
            self.free_sources.push(id);
            self.live_sources -= 1;
        }
        out.injected.push(send);
        let m = self.s.message(msg);
        let dest_rank = self.s.dests(m)[d as usize];
        let flight = Flight {
            f,
            msg,
            packet,
            dest_rank,
            at: self.switch_of(m.src),
            dest: self.switch_of(dest_rank),
            ready,
            via_link: NONE,
            via_switch: NONE,
            next_state: 0,
            next: NONE,
        };
        let slot = self.alloc_flight(flight);
        self.route(slot, 0);
        slot
    }

    fn alloc_flight(&mut self, flight: Flight) -> u32 {
        self.live_flights += 1;
        if self.free_flight != NONE {
            let slot = self.free_flight;
            self.free_flight = self.flights[slot as usize].next;
            self.flights[slot as usize] = flight;
            slot
        } else {
            self.flights.push(flight);
            self.flights.len() as u32 - 1
        }
    }

    /// Caches the routed next hop of the flight in `slot` (packet state `state`); returns its
    /// trunk.
    fn route(&mut self, slot: u32, state: u8) -> u32 {
        let fl = &mut self.flights[slot as usize];
        match self
            .routing
            .next(self.topo, fl.at as usize, fl.dest as usize, state)
        {
            None => self.channels + fl.at,
            Some(st) => {
                fl.via_link = st.via.link;
                fl.via_switch = st.via.switch;
                fl.next_state = st.state;
                self.trunk_of[self.topo.channel(st.via.link, fl.at) as usize]
            }
        }
    }

    /// The flight in `slot` crosses its next link (or, at its destination switch, is
    /// delivered there).
    fn move_flight(&mut self, slot: u32, step: u32, link_use: &mut [u32], out: &mut StepOut) {
        let fl = self.flights[slot as usize];
        let mut steps = 1;
        if fl.at != fl.dest {
            let ch = self.free_channel(fl.at, fl.via_switch, fl.via_link, step);
            self.busy[ch as usize] = step;
            let trunk = self.trunk_of[ch as usize] as usize;
            if self.used_step[trunk] != step {
                self.used_step[trunk] = step;
                self.used[trunk] = 0;
            }
            self.used[trunk] += 1;
            link_use[ch as usize] += 1;
            out.moved += 1;
            steps = self.latency.get(ch as usize).copied().unwrap_or(1);
        }
        let fl = &mut self.flights[slot as usize];
        fl.at = if fl.at != fl.dest {
            fl.via_switch
        } else {
            fl.at
        };
        if steps > 1 {
            let arrive = step + steps - 1;
            self.crossing.push(Reverse((arrive, fl.f, slot)));
            return;
        }
        self.land(slot, step, out);
    }

    /// The flight in `slot` is at its next switch at the end of `step`: delivered there, or
    /// routed on and queued from the next step.
    fn land(&mut self, slot: u32, step: u32, out: &mut StepOut) {
        let fl = &mut self.flights[slot as usize];
        fl.ready = step + 1;
        if fl.at == fl.dest {
            out.arrived.push((fl.msg, fl.packet, fl.dest_rank));
            fl.next = self.free_flight;
            self.free_flight = slot;
            self.live_flights -= 1;
        } else {
            let f = fl.f;
            let state = fl.next_state;
            let trunk = self.route(slot, state);
            self.moved_on.push((f, slot, trunk));
        }
    }

    /// The routed link's channel if free this step, else a free parallel link to the same
    /// switch (parallel links form one trunk). The caller knows the trunk is not full.
    fn free_channel(&self, at: u32, to: u32, link: u32, step: u32) -> u32 {
        let ch = self.topo.channel(link, at);
        if self.busy[ch as usize] != step {
            return ch;
        }
        self.topo
            .neighbours(at as usize)
            .iter()
            .filter(|nb| nb.switch == to)
            .map(|nb| self.topo.channel(nb.link, at))
            .find(|&c| self.busy[c as usize] != step)
            .expect("a trunk that is not full has a free link")
    }

    /// Appends the flights that moved this step to their next transit lanes, in creation
    /// order (they all wait from the next step, after everything already queued).
    fn enqueue_moved(&mut self) {
        self.moved_on.sort_unstable_by_key(|&(f, _, _)| f);
        for i in 0..self.moved_on.len() {
            let (_, slot, trunk) = self.moved_on[i];
            let t = trunk as usize;
            self.flights[slot as usize].next = NONE;
            if self.head[t] == NONE {
                self.head[t] = slot;
            } else {
                self.flights[self.tail[t] as usize].next = slot;
            }
            self.tail[t] = slot;
            if !self.in_transit_list[t] {
                self.in_transit_list[t] = true;
                self.transit_listed.push(trunk);
            }
        }
        self.moved_on.clear();
    }
}

/// Each channel's trunk id (the first channel, in neighbour order, from the same switch to
/// the same neighbour) and each trunk's width.
fn trunks(topo: &Topology) -> (Vec<u32>, Vec<u32>) {
    let channels = 2 * topo.num_links();
    let mut trunk_of = vec![NONE; channels];
    let mut width = vec![0u32; channels];
    let mut by_neighbour: Vec<(u32, u32)> = Vec::new();
    for sw in 0..topo.num_switches() {
        by_neighbour.clear();
        for nb in topo.neighbours(sw) {
            by_neighbour.push((nb.switch, topo.channel(nb.link, sw as u32)));
        }
        // Stable: equal neighbours keep neighbour order, so the first is the trunk's id.
        by_neighbour.sort_by_key(|&(to, _)| to);
        let mut i = 0;
        while i < by_neighbour.len() {
            let (to, id) = by_neighbour[i];
            while i < by_neighbour.len() && by_neighbour[i].0 == to {
                trunk_of[by_neighbour[i].1 as usize] = id;
                width[id as usize] += 1;
                i += 1;
            }
        }
    }
    (trunk_of, width)
}
