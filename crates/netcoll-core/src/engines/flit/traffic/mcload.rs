//! Multicast load with software overheads (seed 003 s6.5, Figs. 26-28): `traffic =
//! multicast` with `multicast_scheme = ni-kbinomial | worm-path | worm-tree`.
//!
//! Every multicast is the *same plan* as a single-multicast run: the schedule the multicast
//! algorithm of that name builds for its source and destinations (the NI-based FPFS
//! k-binomial tree; the multi-phase path-based worms whose secondary sources receive at the
//! host, s6.4; the single tree-based worm), run by the schedule executor (exec.rs) with the
//! host/NI model of schedule.rs. All multicasts run concurrently on one network as
//! *instances* of the executor that share one event heap and each endpoint's host
//! processor, NI sending side, NI receiving side and I/O bus (`ni_serial = 1`), so that
//! multicasts contend at their recipients as s6.5.1 discusses.
//!
//! Load: a node starts a multicast with probability `B_i` per cycle (Bernoulli, geometric
//! gaps, as `traffic = multicast`); its `m = multicast_dests` destinations are uniform over
//! the other nodes (seeded). `injection_rate` is the paper's effective applied load `m B_i`
//! (s6.2), in messages of `multicast_packets` packets per node per cycle, or in flits with
//! `injection_rate_uses_flits = 1`: then `B_i = injection_rate / (m * multicast_packets *
//! packet_size)`. A message has `multicast_packets` packets of `packet_size` payload flits
//! (`packet_size * flit_bytes` bytes; headers come on top, as in the single runs).
//!
//! Run (always the `fixed` mode; `sim_type = batch` is refused): `warmup_cycles` unmeasured; the multicasts created in the next `sim_cycles` are
//! measured, and the run goes on (still loading the network) until they have all completed.
//! A multicast's latency runs from its creation to the cycle its last op is done, i.e. the
//! last destination's receive with `t_nr + t_hr` (and the I/O bus) at its host, as the
//! single-multicast runs count it. The accepted rate counts the payload flits of the packet
//! copies delivered to destinations in the measured cycles. A multicast older than
//! `latency_thres` cycles (negative: never) ends the run as unstable (saturated), as does
//! `max_cycles`. Each worm instance's replication trees live in a pooled region of the
//! worm table, released when the multicast completes; nothing is allocated per flit.

use super::config::{FlitConfig, McScheme};
use super::dest_draw::DestDraw;
use super::exec::{Exec, Shared};
use super::multicast::MulticastResult;
use super::network::{Network, NONE};
use super::params::ScheduleParams;
use super::result::FlitResult;
use super::stats::Histogram;
use super::traffic::Traffic;
use super::worms::{flatten_worms, Region, Trees, WormPool};
use crate::error::Result;
use crate::schedule::Schedule;
use crate::spec_err;
use crate::topology::Topology;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::rc::Rc;

/// Where the schedule of each multicast comes from: the planning layer builds it with the
/// scheme's algorithm (`crate::plan::multicast_load`); the engine only runs it.
pub trait MulticastPlanner {
    /// The schedule of one multicast of `packets` packets (`bytes` in all) from `src` to
    /// `dests`.
    fn plan(&mut self, src: u32, dests: &[u32], packets: u32, bytes: u64) -> Result<Schedule>;
}

/// A multicast in flight.
struct Inst {
    ex: Exec<Rc<Schedule>>,
    ctime: u64,
    counted: bool,
    region: Option<Region>,
}

/// The multicast load run: instances in pooled slots (slot `i` owns tags `i * block ..`).
pub struct PlanLoad<'t> {
    pub net: Network<'t>,
    planner: Box<dyn MulticastPlanner + 't>,
    par: ScheduleParams,
    scheme: McScheme,
    algo: &'static str,
    m: usize,
    packets: u32,
    sh: Shared,
    slots: Vec<Option<Inst>>,
    free: Vec<u32>,
    /// Tags per slot: one per (destination, packet).
    block: u32,
    /// Per tag: its copy arrived (duplicates are counted, never expected).
    seen: Vec<bool>,
    /// Slots whose multicast finished in this cycle.
    finished: Vec<u32>,
    pool: WormPool,
    trees: Trees,
    arrivals: Vec<(u32, u64)>,
    /// Random destination sets (dest_draw.rs).
    draw: DestDraw,
    traffic: Traffic,
    rng: ChaCha8Rng,
    /// The nodes' next multicast starts, earliest first (cycle, node): a cycle looks at
    /// the nodes due, not at every node, and the run skips to the earliest when idle.
    next_gen: BinaryHeap<Reverse<(u64, u32)>>,
    /// The nodes due in this cycle (reused).
    due: Vec<u32>,
    rate: f64,
    vct: Option<usize>,
    step_classes: u32,
    /// Measurement.
    counting: bool,
    counted_left: u64,
    measure_from: u64,
    measure_to: u64,
    latency: Histogram,
    created: u64,
    completed: u64,
    copies: u64,
    copies_in_window: u64,
    duplicates: u64,
}

impl<'t> PlanLoad<'t> {
    pub fn new(
        topo: &'t Topology,
        cfg: &FlitConfig,
        par: &ScheduleParams,
        planner: Box<dyn MulticastPlanner + 't>,
    ) -> Result<Self> {
        let scheme = cfg.multicast_scheme;
        let Some(algo) = scheme.plan_algorithm() else {
            return spec_err!("the multicast load runner needs multicast_scheme = ni-kbinomial, worm-path or worm-tree");
        };
        if cfg.injection_process != super::config::InjectionSpec::Bernoulli {
            return spec_err!(
                "injection_process = on_off is not supported with multicast_scheme = {algo}: \
                 these multicasts are generated by a Bernoulli process"
            );
        }
        if matches!(
            cfg.sim_type,
            super::SimType::Batch | super::SimType::Throughput
        ) {
            return spec_err!(
                "sim_type = {} is not supported with multicast_scheme = {algo}: these runs \
                 warm up for warmup_cycles and measure sim_cycles (fixed)",
                if cfg.sim_type == super::SimType::Batch {
                    "batch"
                } else {
                    "throughput"
                }
            );
        }
        let mut par = par.clone();
        if par.ni_fpfs == 1 && scheme != McScheme::NiKbinomial {
            return spec_err!(
                "ni_fpfs = 1 with multicast_scheme = {algo}: the worm schemes' secondary sources \
                 receive at the host (seed 003 s6.4); ni-kbinomial always forwards at the NI"
            );
        }
        par.ni_fpfs = u64::from(scheme == McScheme::NiKbinomial);
        let nodes = topo.num_endpoints();
        let m = cfg.multicast_dests;
        if m == 0 || m >= nodes {
            return spec_err!(
                "multicast_dests = {m}: {} has {nodes} nodes, so use 1 to {}",
                topo.name(),
                nodes.saturating_sub(1)
            );
        }
        let mut net = Network::new(topo, cfg)?;
        net.log_arrivals = true;
        if scheme != McScheme::NiKbinomial && (net.route_classes > 1 || net.torus.booksim()) {
            return spec_err!(
                "multicast_scheme = {algo} needs a routing with one VC class (up*/down* on an \
                 irregular network), not {} on {}",
                cfg.routing.name(),
                topo.name()
            );
        }
        // Per-step VC classes as the single runs (`vc_per_step = 1`).
        let mut step_classes = 1;
        if par.vc_per_step == 1 {
            let k = match par.step_vc_classes {
                0 => (net.nv / net.route_classes.max(1) as usize).max(1),
                k => k as usize,
            };
            net.set_step_classes(k)?;
            step_classes = k as u32;
        }
        let rate = cfg.multicast_rate();
        let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
        let traffic = Traffic::for_config(cfg, topo, rate, &mut rng)?;
        let vct = (cfg.flow_control == super::FlowControl::CutThrough).then_some(cfg.vc_buf_size);
        let mut run = PlanLoad {
            net,
            planner,
            par,
            scheme,
            algo,
            m,
            packets: cfg.multicast_packets,
            sh: Shared::new(nodes),
            slots: Vec::new(),
            free: Vec::new(),
            block: (m as u32).saturating_mul(cfg.multicast_packets),
            seen: Vec::new(),
            finished: Vec::new(),
            pool: WormPool::default(),
            trees: Trees::default(),
            arrivals: Vec::new(),
            draw: DestDraw::new(nodes, m),
            traffic,
            rng,
            next_gen: BinaryHeap::with_capacity(nodes),
            due: Vec::new(),
            rate,
            vct,
            step_classes,
            counting: false,
            counted_left: 0,
            measure_from: 0,
            measure_to: u64::MAX,
            latency: Histogram::default(),
            created: 0,
            completed: 0,
            copies: 0,
            copies_in_window: 0,
            duplicates: 0,
        };
        for ep in 0..nodes {
            if let Some(g) = run.traffic.gap(&mut run.rng) {
                run.next_gen.push(Reverse((g - 1, ep as u32)));
            }
        }
        Ok(run)
    }

    /// The schedule of one multicast from `src` to `self.draw.dests`.
    fn plan(&mut self, src: usize) -> Result<Schedule> {
        let bytes = self.net.cfg.packet_size as u64 * self.packets as u64 * self.par.flit_bytes;
        self.planner
            .plan(src as u32, &self.draw.dests, self.packets, bytes)
    }

    /// Starts a multicast from `src` to `dests` now (hand-worked cases and tests).
    pub fn start_to(&mut self, src: usize, dests: &[u32], counted: bool) -> Result<()> {
        if dests.len() != self.m {
            return spec_err!(
                "a multicast needs multicast_dests = {} destinations",
                self.m
            );
        }
        self.draw.set(dests);
        self.start(src, counted)
    }

    fn start(&mut self, src: usize, counted: bool) -> Result<()> {
        let s = Rc::new(self.plan(src)?);
        let slot = match self.free.pop() {
            Some(i) => i,
            None => {
                self.slots.push(None);
                self.seen
                    .extend(std::iter::repeat_n(false, self.block as usize));
                (self.slots.len() - 1) as u32
            }
        };
        let mut roots = flatten_worms(&self.net, &s, &mut self.trees)?;
        let region = (self.trees.visits() > 0)
            .then(|| self.pool.place(&mut self.net.rep.table, &mut self.trees));
        if let Some((v0, ..)) = region {
            roots
                .iter_mut()
                .filter(|r| **r != NONE)
                .for_each(|r| *r += v0);
        }
        let cfg = &self.net.cfg;
        let mut ex = Exec::new(
            s,
            slot,
            slot * self.block,
            &self.par,
            self.vct,
            roots,
            cfg.vc_buf_size,
        )?;
        ex.set_step_classes(self.step_classes);
        if ex.tags() > self.block {
            return spec_err!(
                "{} planned {} packet copies for {} destinations (a netcoll bug)",
                self.algo,
                ex.tags(),
                self.m
            );
        }
        ex.begin(&mut self.sh, self.net.now);
        self.slots[slot as usize] = Some(Inst {
            ex,
            ctime: self.net.now,
            counted,
            region,
        });
        self.created += 1;
        self.counted_left += u64::from(counted);
        Ok(())
    }

    /// Nodes whose Bernoulli trial succeeds now start a multicast, in node order (the
    /// order the shared random stream is drawn in).
    fn generate(&mut self) -> Result<()> {
        let now = self.net.now;
        let mut due = std::mem::take(&mut self.due);
        due.clear();
        while let Some(&Reverse((at, ep))) = self.next_gen.peek() {
            if at > now {
                break;
            }
            self.next_gen.pop();
            due.push(ep);
        }
        // Due cycles are never behind `now` (the run visits every cycle or skips to the
        // earliest), so the heap already gives node order; sorting keeps it so regardless.
        due.sort_unstable();
        let mut result = Ok(());
        for &ep in &due {
            self.draw.draw(ep as usize, self.m, &mut self.rng);
            result = self.start(ep as usize, self.counting);
            if result.is_err() {
                break;
            }
            if let Some(g) = self.traffic.gap(&mut self.rng) {
                self.next_gen.push(Reverse((now + g, ep)));
            }
        }
        self.due = due;
        result
    }

    /// Applies the network's arrivals and the events due now.
    fn react(&mut self) {
        std::mem::swap(&mut self.arrivals, &mut self.net.arrivals);
        let in_window = (self.measure_from..self.measure_to).contains(&self.net.now);
        for i in 0..self.arrivals.len() {
            let (tag, t) = self.arrivals[i];
            self.copies += 1;
            self.copies_in_window += u64::from(in_window);
            if std::mem::replace(&mut self.seen[tag as usize], true) {
                self.duplicates += 1;
                continue;
            }
            let slot = tag / self.block;
            if let Some(inst) = self.slots[slot as usize].as_mut() {
                // (Only an op's completion, a heap event, can finish a multicast.)
                inst.ex.arrival(&mut self.sh, tag, t);
            }
        }
        self.arrivals.clear();
        while let Some(&Reverse((t, slot, due))) = self.sh.heap.peek() {
            if t > self.net.now {
                break;
            }
            self.sh.heap.pop();
            // Events of a multicast that finished this cycle (an NI hand-over at its last
            // receive) have nothing left to do.
            let Some(inst) = self.slots[slot as usize].as_mut() else {
                continue;
            };
            if inst.ex.finished() {
                continue;
            }
            inst.ex.event(&mut self.sh, due, t, &mut self.net);
            if inst.ex.finished() {
                self.finished.push(slot);
            }
        }
    }

    /// Records and frees the multicasts that finished this cycle.
    fn retire(&mut self) {
        while let Some(slot) = self.finished.pop() {
            let inst = self.slots[slot as usize]
                .take()
                .expect("a finished multicast");
            self.completed += 1;
            if inst.counted {
                self.latency.add(inst.ex.finish() - inst.ctime);
                self.counted_left -= 1;
            }
            if let Some(r) = inst.region {
                self.pool.release(r);
            }
            let b = (slot * self.block) as usize;
            self.seen[b..b + self.block as usize].fill(false);
            self.free.push(slot);
        }
    }

    /// The oldest multicast in flight, if any is older than `latency_thres`.
    fn too_old(&self) -> Option<String> {
        let thres = self.net.cfg.latency_thres;
        if thres < 0.0 {
            return None;
        }
        let oldest = self.slots.iter().flatten().map(|i| i.ctime).min()?;
        let age = self.net.now - oldest;
        (age as f64 > thres).then(|| {
            format!(
                "a multicast has been in flight {age} cycles, beyond latency_thres {thres}: \
                 the network (or its hosts and NIs) is saturated, or latency_thres is below \
                 the software overheads of one multicast (raise it, e.g. latency_thres=1e6)"
            )
        })
    }

    /// Runs until `done` holds; returns why it stopped early (unstable), if it did.
    fn run(&mut self, mut done: impl FnMut(&Self) -> bool) -> Result<Option<String>> {
        let cfg = self.net.cfg.clone();
        let mut check = self.net.now;
        loop {
            self.generate()?;
            self.net.deliver();
            self.react();
            self.retire();
            if done(self) {
                return Ok(None);
            }
            if self.net.now >= check {
                check = self.net.now + 1024;
                if let Some(why) = self.too_old() {
                    return Ok(Some(why));
                }
            }
            if self.net.now >= cfg.max_cycles {
                return Ok(Some(format!(
                    "stopped at max_cycles = {} before the run completed",
                    cfg.max_cycles
                )));
            }
            let n = &self.net;
            if n.in_flight_flits == 0 && n.wheel.is_empty() && n.ni_pending.is_empty() {
                // Nothing moves before the next op event or multicast: skip to it.
                let ev = self.sh.heap.peek().map_or(u64::MAX, |r| r.0 .0);
                let gen = self.next_gen.peek().map_or(u64::MAX, |r| r.0 .0);
                let next = ev.min(gen).min(cfg.max_cycles);
                if next > n.now && next < u64::MAX {
                    self.net.now = next;
                    continue;
                }
                if next == u64::MAX && self.slots.iter().all(Option::is_none) {
                    // No load and nothing in flight: only time passes.
                    self.net.now += 1;
                    continue;
                }
            }
            self.net.finish_cycle();
            let n = &self.net;
            if n.in_flight_flits > 0 && n.now - n.last_move > cfg.deadlock_cycles {
                return Ok(Some("deadlock".into()));
            }
        }
    }

    /// Warm-up, measurement and drain (see the module doc).
    pub fn simulate(mut self) -> Result<FlitResult> {
        let cfg = self.net.cfg.clone();
        let warm_end = cfg.warmup_cycles;
        let mut why = self.run(|r| r.net.now >= warm_end)?;
        let mut measured = 0;
        if why.is_none() {
            self.start_measuring();
            let end = self.measure_to;
            why = self.run(|r| r.net.now >= end)?;
            measured = self.net.now - self.measure_from;
            self.counting = false;
            if why.is_none() {
                why = self.run(|r| r.counted_left == 0)?;
            }
        }
        Ok(self.result(why, measured))
    }

    fn start_measuring(&mut self) {
        let now = self.net.now;
        self.counting = true;
        self.measure_from = now;
        self.measure_to = now + self.net.cfg.sim_cycles;
        self.net.measuring = true;
        self.net.measured.clear(now);
        self.net.chan_flits.iter_mut().for_each(|c| *c = 0);
    }

    /// Runs until every multicast started so far has completed (at most `cycles`); the
    /// multicast figures (tests, hand-worked cases).
    pub fn run_multicasts(&mut self, cycles: u64) -> Result<MulticastResult> {
        self.next_gen.clear();
        let end = self.net.now + cycles;
        self.run(|r| r.slots.iter().all(Option::is_none) || r.net.now >= end)?;
        Ok(self.multicast_result())
    }

    /// Runs `cycles` cycles of load, every multicast counted; the multicast figures so far
    /// (tests).
    pub fn run_multicasts_for(&mut self, cycles: u64) -> Result<MulticastResult> {
        self.counting = true;
        let end = self.net.now + cycles;
        self.run(|r| r.net.now >= end)?;
        Ok(self.multicast_result())
    }

    fn multicast_result(&self) -> MulticastResult {
        let size = self.net.cfg.packet_size as f64 * self.packets as f64;
        MulticastResult {
            dests: self.m,
            scheme: self.scheme,
            multicast_rate: self.rate,
            effective_load: self.rate * self.m as f64 * size,
            created: self.created,
            completed: self.completed,
            latency: self.latency.summary(),
            copies_delivered: self.copies,
            duplicate_copies: self.duplicates,
        }
    }

    fn result(&self, why: Option<String>, measured: u64) -> FlitResult {
        let n = &self.net;
        let per = |x: u64| x as f64 / measured.max(1) as f64;
        let deadlock = (why.as_deref() == Some("deadlock")).then(|| n.diagnose());
        let mc = self.multicast_result();
        FlitResult {
            sim_type: super::SimType::Fixed,
            offered_rate: mc.effective_load,
            // Every delivered copy, as the paper's effective applied load counts them.
            accepted_rate: per(self.copies_in_window) * n.cfg.packet_size as f64
                / n.nis.len() as f64,
            unstable: why.is_some(),
            unstable_reason: why.filter(|_| deadlock.is_none()),
            deadlock,
            multicast: Some(mc),
            ..n.figures(&n.measured, measured)
        }
    }
}

/// Runs a multicast load with the schedule schemes (`multicast_scheme = ni-kbinomial |
/// worm-path | worm-tree`) on `topo`, each multicast's schedule from `planner`.
pub fn simulate_plan_load<'t>(
    topo: &'t Topology,
    cfg: &FlitConfig,
    par: &ScheduleParams,
    planner: Box<dyn MulticastPlanner + 't>,
) -> Result<FlitResult> {
    if cfg.traffic != super::Pattern::Multicast {
        return spec_err!(
            "multicast_scheme = {} needs traffic = multicast",
            cfg.multicast_scheme.plan_algorithm().unwrap_or("?")
        );
    }
    PlanLoad::new(topo, cfg, par, planner)?.simulate()
}
