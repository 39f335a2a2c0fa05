//! Running a synthetic-traffic simulation and measuring it the way BookSim does.
//!
//! * `latency`: sample periods of `sample_period` cycles. The first `warmup_periods` warm the
//!   network up (with 0, warm-up ends when latency and throughput change by less than
//!   `warmup_thres` between periods). Packets created after warm-up are *measured*. Each
//!   later period counts as converged when its mean packet latency and accepted rate change
//!   by less than `stopping_thres` / `acc_stopping_thres`; three converged periods in a
//!   row end the sampling (BookSim 2's rule). A period whose mean latency exceeds
//!   `latency_thres`, or `max_samples` periods without convergence, make the run *unstable*
//!   (saturated).
//!   Otherwise the network drains until every measured packet has arrived, and the figures
//!   are those of the measured packets.
//! * `throughput`: BookSim's throughput mode, the same periods, but warm-up and convergence
//!   look at the accepted rate alone and `latency_thres` never aborts (so a load beyond
//!   saturation converges on the network's throughput); once converged, injection stops
//!   and the measured packets drain (BookSim's final drain, with no new packets). `--json`
//!   adds `injected_rate`, BookSim's "Injected flit rate average".
//! * `batch`: every node generates `batch_size` packets (Bernoulli at the offered rate); the
//!   run ends when all have arrived; `cycles` is the time to drain the batch.
//! * `fixed`: `warmup_cycles` unmeasured, then `sim_cycles` measured cycles; figures over
//!   the packets that arrive in the measured cycles.

use super::config::{FlitConfig, SimType};
use super::deadlock::Deadlock;
use super::gen_wheel::GenWheel;
use super::multicast::{Multicast, MulticastResult};
use super::network::Network;
use super::params::ScheduleParams;
pub use super::result::{ChannelUse, FlitResult};
use super::stats::Window;
use super::traffic::Traffic;
use crate::error::Result;
use crate::topology::Topology;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Why a stretch of cycles ended early.
enum Stop {
    Deadlock(Deadlock),
    CycleLimit,
}

/// Why [`Sim::cycles`] ended early (the deadlock is diagnosed once every partition is back).
enum Halt {
    Deadlock,
    CycleLimit,
}

pub struct Sim<'t> {
    pub net: Network<'t>,
    traffic: Traffic,
    rng: ChaCha8Rng,
    size: u16,
    /// Packets each node may still generate (batch mode), else u64::MAX.
    quota: u64,
    measure_start: u64,
    /// `traffic = multicast` (multicast.rs).
    mc: Option<Multicast>,
    /// Fixed runs: multicasts created from now on count in the multicast latency.
    mc_counting: bool,
    /// The next generation cycle of every node that will generate again (gen_wheel.rs),
    /// and the nodes due this cycle, by node (the order the shared random stream is drawn in).
    gen: GenWheel,
    due: Vec<u32>,
    /// False once a throughput run's final drain stops injection.
    injecting: bool,
    /// Every node generates every cycle (one class, no multicast, no quota, Bernoulli at
    /// rate 1): `generate` draws the destinations in node order without the wheel.
    pub(super) every_cycle: bool,
    /// Flits in the network when the statistics were last cleared (the injected flits of a
    /// period are its accepted ones plus the growth of this).
    in_flight_at_clear: u64,
    /// Throughput mode: flits injected per node per cycle over the measurement.
    injected_rate: Option<f64>,
    /// Multi-class runs (class_ni.rs): every class's traffic (`traffic` is class 0's);
    /// generation slots are `node * classes + class`.
    classes: Vec<Traffic>,
}

impl<'t> Sim<'t> {
    pub fn new(topo: &'t Topology, cfg: &FlitConfig) -> Result<Sim<'t>> {
        let mut net = Network::new(topo, cfg)?;
        let multicast = cfg.traffic == super::config::Pattern::Multicast;
        let rate = if multicast {
            cfg.multicast_rate()
        } else {
            cfg.packet_rate()
        };
        let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
        let traffic = Traffic::for_config(cfg, topo, rate, &mut rng)?;
        let size = cfg.packet_size as u16;
        let mc = if multicast {
            net.log_arrivals = true;
            let scheme = cfg.multicast_scheme;
            Some(Multicast::new(
                &net,
                cfg.multicast_dests,
                scheme,
                size,
                rate,
            )?)
        } else {
            None
        };
        // (Multicast traffic never reaches here on the crossbar: `check_xbar` refuses it.)
        if net.xb.hold_only() && cfg.longest_packet() == 1 {
            net.xb.on = false;
        }
        let multi = cfg.multi_class();
        let classes = if multi {
            net.init_classes()?;
            super::classes::class_traffic(cfg, topo, &mut rng)?
        } else {
            Vec::new()
        };
        // Class queues and priorities are kept by the master's NIs and packet table.
        let threads = if multi || cfg.tc.priority != super::classes::Priority::None {
            1
        } else {
            net.threads_for(cfg.threads)
        };
        net.partition(threads)?;
        // Batch quotas count packets queued at the NI: `m` per multicast sent as unicasts.
        let per = match &mc {
            Some(_) if cfg.multicast_scheme == super::config::McScheme::Unicast => {
                cfg.multicast_dests as u64
            }
            _ => 1,
        };
        let mut sim = Sim {
            net,
            traffic,
            rng,
            size,
            quota: if cfg.sim_type == SimType::Batch {
                cfg.batch_size.saturating_mul(per)
            } else {
                u64::MAX
            },
            measure_start: 0,
            mc,
            mc_counting: cfg.sim_type == SimType::Batch,
            gen: GenWheel::new(topo.num_endpoints() * cfg.tc.classes),
            due: Vec::new(),
            injecting: true,
            every_cycle: false,
            in_flight_at_clear: 0,
            injected_rate: None,
            classes,
        };
        for slot in 0..topo.num_endpoints() * cfg.tc.classes {
            let traffic = match sim.classes.len() {
                0 => &sim.traffic,
                n => &sim.classes[slot % n],
            };
            let at = match traffic.first_gap(&mut sim.rng) {
                Some(g) if sim.quota > 0 => g - 1,
                _ => u64::MAX,
            };
            sim.gen.schedule(slot, at);
        }
        sim.every_cycle = sim.classes.is_empty()
            && sim.mc.is_none()
            && sim.quota == u64::MAX
            && sim.traffic.every_cycle();
        Ok(sim)
    }

    /// Nodes whose Bernoulli trial succeeds this cycle create a packet.
    fn generate(&mut self) {
        if !self.injecting {
            return;
        }
        if self.every_cycle {
            let (traffic, rng) = (&self.traffic, &mut self.rng);
            self.net
                .create_at_every_ni(self.size, |ep| traffic.dest(ep, rng));
            return;
        }
        let now = self.net.now;
        let mut due = std::mem::take(&mut self.due);
        self.gen.take_due(now, &mut due);
        for &slot in &due {
            let slot = slot as usize;
            if !self.classes.is_empty() {
                self.generate_class(slot);
                continue;
            }
            let ep = slot;
            if let Some(mc) = self.mc.as_mut() {
                let counted = self.mc_counting || self.net.measuring;
                mc.start_random(&mut self.net, ep, &mut self.rng, counted);
            } else {
                let dst = self.traffic.dest(ep, &mut self.rng);
                self.net.create_packet(ep, dst, self.size);
            }
            let at = match self.traffic.gap(&mut self.rng) {
                Some(g) if self.quota == u64::MAX || self.net.nis[ep].generated < self.quota => {
                    now + g
                }
                _ => u64::MAX,
            };
            self.gen.schedule(ep, at);
        }
        self.due = due;
    }

    /// Generation slot `slot` of a multi-class run is due: its node creates a packet of
    /// its class (a read or write request under `use_read_write`, `write_fraction` the
    /// chance of a write), unless a batch run's node is at `max_outstanding_requests`,
    /// which retries the next cycle.
    fn generate_class(&mut self, slot: usize) {
        let n = self.classes.len();
        let (ep, c) = (slot / n, slot % n);
        let now = self.net.now;
        let tc = &self.net.cfg.tc;
        let cs = self.net.cls.as_ref().expect("a multi-class run");
        let limit = tc.max_outstanding_requests;
        let batch = self.quota != u64::MAX;
        if batch && limit > 0 && cs.outstanding[ep] >= limit {
            return self.gen.schedule(slot, now + 1);
        }
        let kind = if !tc.use_read_write {
            super::classes::KIND_ANY
        } else if self.rng.random::<f64>() < tc.write_fraction {
            super::classes::WRITE_REQUEST
        } else {
            super::classes::READ_REQUEST
        };
        let dst = self.classes[c].dest(ep, &mut self.rng);
        self.net.create_class_packet(ep, dst, c, kind);
        let at = match self.classes[c].gap(&mut self.rng) {
            Some(g) if !batch || self.net.nis[ep].generated < self.quota => now + g,
            _ => u64::MAX,
        };
        self.gen.schedule(slot, at);
    }

    /// Runs up to `cycles` cycles, or until `done` holds; stops early on deadlock or at the
    /// cycle limit. A partitioned network runs the stretch on its threads (crew.rs).
    fn run(&mut self, cycles: u64, done: impl FnMut(&Network) -> bool) -> Option<Stop> {
        let halt = super::crew::with_crew(self, |s| &mut s.net, |s| s.cycles(cycles, done));
        match halt? {
            Halt::CycleLimit => Some(Stop::CycleLimit),
            Halt::Deadlock => {
                self.net.gather();
                Some(Stop::Deadlock(self.net.diagnose()))
            }
        }
    }

    fn cycles(&mut self, cycles: u64, mut done: impl FnMut(&Network) -> bool) -> Option<Halt> {
        let end = self.net.now.saturating_add(cycles);
        while self.net.now < end && !done(&self.net) {
            if self.net.now >= self.net.cfg.max_cycles {
                return Some(Halt::CycleLimit);
            }
            self.generate();
            self.net.step();
            if let Some(mc) = self.mc.as_mut() {
                mc.arrivals(&mut self.net);
            }
            let n = &self.net;
            if n.in_flight_flits > 0 && n.now - n.last_move > n.cfg.deadlock_cycles {
                return Some(Halt::Deadlock);
            }
        }
        None
    }

    /// Starts one multicast from `src` to `dests` now, counted in the multicast latency
    /// (hand-worked cases; needs `traffic = multicast` with `multicast_dests = dests.len()`).
    pub fn start_multicast(&mut self, src: usize, dests: &[u32]) -> Result<()> {
        let Some(mc) = self.mc.as_mut() else {
            return crate::spec_err!("start_multicast needs traffic = multicast");
        };
        if dests.len() != mc.result().dests {
            return crate::spec_err!("a multicast needs multicast_dests destinations");
        }
        mc.start_to(&mut self.net, src, dests, true);
        Ok(())
    }

    /// Runs until every multicast has completed (at most `cycles` cycles); the multicast
    /// figures so far. None without `traffic = multicast`.
    pub fn run_multicasts(&mut self, cycles: u64) -> Option<MulticastResult> {
        for _ in 0..cycles {
            if self.mc.as_ref()?.outstanding() == 0 || self.run(1, |_| false).is_some() {
                break;
            }
        }
        self.mc.as_ref().map(Multicast::result)
    }

    fn start_measuring(&mut self) {
        let now = self.net.now;
        self.net.measuring = true;
        self.net.measured.clear(now);
        self.net.clear_channel_counts();
        self.measure_start = now;
    }

    /// Runs the simulation the config asks for.
    pub fn simulate(mut self) -> FlitResult {
        match self.net.cfg.sim_type {
            SimType::Latency | SimType::Throughput => self.latency_mode(),
            SimType::Batch => {
                self.start_measuring();
                let quota = self.quota;
                let stop = self.run(u64::MAX, |n| {
                    n.measured_outstanding == 0 && n.nis.iter().all(|ni| ni.generated >= quota)
                });
                let cycles = self.net.now;
                self.finish(stop, cycles, None, 0)
            }
            SimType::Fixed => {
                let stop = self.run(self.net.cfg.warmup_cycles, |_| false);
                if stop.is_some() {
                    return self.finish(stop, 0, None, 0);
                }
                self.start_measuring();
                self.net.period.clear(self.net.now);
                self.net.measuring = false;
                self.mc_counting = true;
                let stop = self.run(self.net.cfg.sim_cycles, |_| false);
                // Report the packets that arrived in the measured cycles.
                self.net.measured = self.net.period.clone();
                self.net.measured.accepted_flits = self.net.period.accepted_flits;
                let cycles = self.net.now - self.measure_start;
                self.finish(stop, cycles, None, 0)
            }
        }
    }

    fn too_slow(&self) -> Option<String> {
        let est = self.net.latency_estimate();
        let thres = self.net.cfg.latency_thres;
        (thres >= 0.0 && est > thres).then(|| {
            format!(
                "average latency {est:.1} (packets in flight included) exceeds latency_thres \
                 {thres}: the network is saturated"
            )
        })
    }

    /// BookSim 2's `TrafficManager::_SingleSim` for one traffic class (latency and
    /// throughput modes; BookSim's `_measure_latency` is `latency`).
    fn latency_mode(mut self) -> FlitResult {
        let c = self.net.cfg.clone();
        let latency = c.sim_type == SimType::Latency;
        self.net.warming = true;
        let (mut converged, mut phases, mut clear_last) = (0, 0u32, false);
        // Per class (one pair for a single-class run): BookSim tests every class.
        let mut prev: Vec<(f64, f64)> = Vec::new();
        while phases < c.max_samples && (self.net.warming || converged < 3) {
            // Statistics accumulate: cleared every other warm-up period and once when
            // measurement starts, never during measurement.
            if clear_last || (self.net.warming && phases % 2 == 0) {
                clear_last = false;
                self.net.period.clear(self.net.now);
                self.net.clear_channel_counts();
                self.in_flight_at_clear = self.net.in_flight_flits;
            }
            if let Some(stop) = self.run(c.sample_period, |_| false) {
                let cycles = self.net.now - self.net.period.start;
                return self.finish(Some(stop), cycles, None, phases);
            }
            let since = (self.net.now - self.net.period.start).max(1) as f64;
            let points = self.net.period_points(since);
            prev.resize(points.len(), (0.0, 0.0));
            let (mut lat_change, mut acc_change) = (0.0f64, 0.0f64);
            for (&(lat, acc), p) in points.iter().zip(prev.iter_mut()) {
                lat_change = lat_change.max(rel_change(lat, p.0));
                acc_change = acc_change.max(rel_change(acc, p.1));
                *p = (lat, acc);
            }
            // Throughput mode never aborts on latency (BookSim's "fail safe for latency mode").
            if let Some(why) = self.too_slow().filter(|_| latency) {
                let cycles = self.net.now - self.net.period.start;
                return self.finish(None, cycles, Some(why), phases + 1);
            }
            // Throughput mode judges warm-up and convergence by the accepted rate alone.
            let lat_settled = |thres: f64| !latency || lat_change <= thres;
            if self.net.warming {
                let done = if c.warmup_periods > 0 {
                    phases + 1 >= c.warmup_periods
                } else {
                    lat_settled(c.warmup_thres) && acc_change <= c.warmup_thres
                };
                if done {
                    clear_last = true;
                    self.net.warming = false;
                    // Packets created from now on are measured.
                    self.net.measuring = true;
                    self.net.measured.clear(self.net.now);
                }
            } else if lat_settled(c.stopping_thres) && acc_change <= c.acc_stopping_thres {
                converged += 1;
            } else {
                converged = 0;
            }
            phases += 1;
        }
        if self.net.warming {
            let why = format!(
                "still warming up after max_samples = {} sample periods",
                c.max_samples
            );
            let cycles = self.net.now - self.net.period.start;
            return self.finish(None, cycles, Some(why), phases);
        }
        // Drain the measured packets, checking the latency every 1000 cycles as BookSim; a
        // throughput run stops injecting first, and never aborts.
        let measured_cycles = self.net.now - self.net.period.start;
        let accepted = self.net.period.accepted_counts();
        let injected = (self.net.period.accepted_flits + self.net.in_flight_flits)
            .saturating_sub(self.in_flight_at_clear);
        let nodes = self.net.nis.len() as f64;
        self.injected_rate =
            (!latency).then(|| injected as f64 / measured_cycles.max(1) as f64 / nodes);
        self.injecting = latency;
        self.net.sync_counters();
        let chan = self.net.chan_flits.clone();
        self.net.measuring = false;
        loop {
            let stop = self.run(1000, |n| n.measured_outstanding == 0);
            let drained = stop.is_some() || self.net.measured_outstanding == 0;
            let why = if drained || !latency {
                None
            } else {
                self.too_slow()
            };
            if drained || why.is_some() {
                // The rates are the measurement window's, as BookSim's: flits ejected while
                // draining must not be divided by the window's cycles.
                self.net.period.set_accepted_counts(&accepted);
                self.net.sync_counters();
                self.net.chan_flits = chan;
                return self.finish(stop, measured_cycles, why, phases);
            }
        }
    }

    fn finish(
        mut self,
        stop: Option<Stop>,
        measured_cycles: u64,
        mut unstable: Option<String>,
        phases: u32,
    ) -> FlitResult {
        self.net.sync_counters();
        let n = &self.net;
        let mut deadlock = None;
        match stop {
            Some(Stop::Deadlock(d)) => deadlock = Some(d),
            Some(Stop::CycleLimit) => {
                unstable = Some(format!(
                    "stopped at max_cycles = {} before the run completed",
                    n.cfg.max_cycles
                ))
            }
            None => {}
        }
        let w: &Window = if n.cfg.sim_type.samples_periods() {
            &n.period
        } else {
            &n.measured
        };
        FlitResult {
            offered_rate: if n.cfg.multi_class() {
                n.cfg.offered_flits()
            } else {
                n.cfg.packet_rate() * n.cfg.packet_size as f64
            },
            sample_periods: phases,
            unstable: unstable.is_some() || deadlock.is_some(),
            unstable_reason: unstable,
            deadlock,
            multicast: self.mc.as_ref().map(Multicast::result),
            injected_rate: self.injected_rate,
            classes: n.class_figures(w, measured_cycles),
            ..n.figures(w, measured_cycles)
        }
    }
}

fn rel_change(now: f64, before: f64) -> f64 {
    if now == 0.0 {
        if before == 0.0 {
            0.0
        } else {
            1.0
        }
    } else {
        ((now - before) / now).abs()
    }
}

/// Simulates synthetic traffic on the network the config describes.
pub fn simulate_traffic(cfg: &FlitConfig) -> Result<FlitResult> {
    simulate_traffic_with(cfg, &ScheduleParams::default())
}

/// [`simulate_traffic`] with the schedule runner's host/NI keys. The multicast schemes with
/// overheads (`multicast_scheme = ni-kbinomial | worm-path | worm-tree`) need an algorithm
/// per multicast: `crate::plan::multicast_load` runs those.
pub fn simulate_traffic_with(cfg: &FlitConfig, par: &ScheduleParams) -> Result<FlitResult> {
    let topo = cfg.build_topology()?;
    simulate_on_with(&topo, cfg, par)
}

/// Simulates synthetic traffic on a given network (the config's topology keys are ignored).
pub fn simulate_on(topo: &Topology, cfg: &FlitConfig) -> Result<FlitResult> {
    simulate_on_with(topo, cfg, &ScheduleParams::default())
}

/// [`simulate_on`] with the schedule runner's host/NI keys (see [`simulate_traffic_with`]).
pub fn simulate_on_with(
    topo: &Topology,
    cfg: &FlitConfig,
    par: &ScheduleParams,
) -> Result<FlitResult> {
    if let Some(algo) = cfg.multicast_scheme.plan_algorithm() {
        // Each multicast of these schemes is a schedule an algorithm builds: the planning
        // layer (`crate::plan::multicast_load`) runs them; the engine never builds one.
        return crate::spec_err!(
            "multicast_scheme = {algo} runs through netcoll_core::plan::multicast_load \
             (the engine's own entry points take no algorithm)"
        );
    }
    let plain = serde_json::to_value(ScheduleParams::default()).ok();
    if serde_json::to_value(par).ok() != plain {
        return crate::spec_err!(
            "schedule keys (t_hs, t_ns, t_hr, t_nr, io_bus_mb_s, ni_serial, ...) apply to \
             traffic only with traffic = multicast and multicast_scheme = ni-kbinomial, \
             worm-path or worm-tree"
        );
    }
    check_work(topo, cfg)?;
    Ok(Sim::new(topo, cfg)?.simulate())
}

/// Work limit of a synthetic-traffic run, in router-cycles (about a microsecond each on a
/// shared machine): a run whose shortest possible length exceeds it takes many minutes.
const WORK_LIMIT: u64 = 200_000_000;

/// Refuses up front a run that cannot finish in minutes: its fewest cycles times routers.
fn check_work(topo: &Topology, cfg: &FlitConfig) -> Result<()> {
    let Some(least) = cfg.least_cycles() else {
        return Ok(());
    };
    let work = least.saturating_mul(topo.num_switches() as u64);
    if work > WORK_LIMIT {
        return crate::spec_err!(
            "{}: a run of at least {least} cycles on {} routers is {:.1e} router-cycles, more \
             than the {:.0e} netcoll sim allows (many minutes); shorten the run",
            cfg.run_length_keys(),
            topo.num_switches(),
            work as f64,
            WORK_LIMIT as f64
        );
    }
    Ok(())
}
