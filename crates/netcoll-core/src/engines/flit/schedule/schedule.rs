//! Schedule-driven execution: a [`Schedule`] runs on the flit network. An op starts when
//! its dependencies are done:
//!
//! * a send pays the host and NI send overheads (`t_hs + t_ns`, seed 003 s6.2), then queues
//!   its packets at the source NI, and is done. A message with a multidestination worm
//!   (and its replication tree) is one worm packet per packet, replicated by the switches
//!   (replicate.rs), with `ceil(header_bits / (8 * flit_bytes))` header flits; any other
//!   message is one copy per destination (an NI multi-send);
//! * a receive is done `t_nr + t_hr` after the last of its packets has arrived (or when it
//!   becomes ready, if they arrived earlier);
//! * a compute op (XOR encode/decode, reduce) takes `compute_base + compute_per_flit *
//!   flits of its output` cycles (seed 000 s5.6's XOR overhead); a copy takes
//!   `compute_base + copy_per_flit * flits`.
//!
//! The NI model of seed 003 s6.2 (all off by default): `io_bus_mb_s` adds the host <-> NI
//! DMA time of one packet to every host send and receive; `ni_fpfs = 1` makes a send that
//! depends on a receive at the same rank an NI forward (First-Packet-First-Served, s4.2.2):
//! it starts when the NI holds the packet (`t_nr` after its arrival) and pays only `t_ns`;
//! `ni_serial = 1` makes each rank's host and NI serial: sends occupy the host for `t_hs`
//! (+ DMA) and receives for DMA + `t_hr`, the NI's sending side for `t_ns` per packet copy,
//! arriving packets its receiving side for `t_nr` each (the two sides overlap, as in
//! s4.3.2's step model). The ops run on the executor of exec.rs, which mcload.rs also uses
//! to run many schedules at once.
//!
//! The execution time is the cycle the last op is done. Messages split into the schedule's
//! packets; a packet of `b` bytes is `ceil(b / flit_bytes)` flits (at least one).

use super::config::{FlitConfig, FlowControl};
use super::deadlock::Deadlock;
use super::exec::{Exec, Shared};
use super::network::{Network, NONE};
use super::params::ScheduleParams;
use super::steplat::StepLatency;
use super::worms::load_worms;
use crate::error::Result;
use crate::invalid;
use crate::schedule::Schedule;
use crate::topology::Topology;
use serde::Serialize;
use std::cmp::Reverse;

#[derive(Debug, Clone, Serialize)]
pub struct ScheduleResult {
    /// Execution time: the cycle the last op is done.
    pub cycles: u64,
    pub verified: bool,
    pub avg_packet_latency: f64,
    pub avg_network_latency: f64,
    pub packets: u64,
    pub flit_hops: u64,
    /// The largest network packet in flits (header included), and the most network packets
    /// the NI cut one schedule packet into (`max_packet_flits`; 1: none was cut).
    pub packet_flits: u64,
    pub packets_per_schedule_packet: u32,
    /// For schedules with rounds: (round, cycle its last op is done).
    pub step_times: Vec<(u32, u64)>,
    /// Messages that travelled as switch-replicated worms.
    pub worm_messages: u64,
    pub deadlock: Option<Deadlock>,
    /// Per step with packets: their count and maximum packet / network latency (steplat.rs).
    pub step_latency: Vec<StepLatency>,
    /// Seed 000 s5.1's "sum of the maximum latency of all sequential steps", with BookSim's
    /// packet latency (creation to arrival) and with its network latency (injection to
    /// arrival).
    pub sum_step_max_packet_latency: u64,
    pub sum_step_max_network_latency: u64,
}

/// Runs `s` on `topo` and returns its execution time in cycles.
pub fn run_schedule(
    topo: &Topology,
    s: &Schedule,
    cfg: &FlitConfig,
    par: &ScheduleParams,
) -> Result<ScheduleResult> {
    if let Some(&bad) = s
        .placement()
        .iter()
        .find(|&&e| e as usize >= topo.num_endpoints())
    {
        return invalid!(
            "the schedule places a rank on endpoint {bad}, beyond {}",
            topo.name()
        );
    }
    if cfg.multi_class() {
        return crate::spec_err!(
            "classes, use_read_write, priority = sequence and max_outstanding_requests shape \
             synthetic traffic (netcoll sim); a schedule's packets are one class"
        );
    }
    let mut cfg = cfg.clone();
    cfg.injection_rate = 0.0;
    let mut net = Network::new(topo, &cfg)?;
    net.log_arrivals = true;
    net.log_latency = true;
    net.measuring = true;
    let vct = (cfg.flow_control == FlowControl::CutThrough).then_some(cfg.vc_buf_size);
    let roots = load_worms(&mut net, s)?;
    let worm_messages = roots.iter().filter(|&&r| r != NONE).count() as u64;
    let mut ex = Exec::new(s, 0, 0, par, vct, roots, cfg.vc_buf_size)?;
    ex.log_steps();
    if par.vc_per_step == 1 {
        let k = match par.step_vc_classes {
            0 => (net.nv / net.route_classes.max(1) as usize).max(1),
            k => k as usize,
        };
        net.set_step_classes(k)?;
        ex.set_step_classes(k as u32);
    }
    let mut sh = Shared::new(topo.num_endpoints());
    ex.begin(&mut sh, 0);
    let n = s.num_ops();
    let mut deadlock = None;
    let (mut arrivals, mut lats) = (Vec::new(), Vec::new());
    loop {
        // Arrivals first, so that an op can react in the cycle its packets arrive.
        net.deliver();
        std::mem::swap(&mut arrivals, &mut net.arrivals);
        std::mem::swap(&mut lats, &mut net.arrival_lat);
        for (&(tag, t), &lat) in arrivals.iter().zip(&lats) {
            ex.step_arrival(tag, t, lat);
            ex.arrival(&mut sh, tag, t);
        }
        arrivals.clear();
        lats.clear();
        while let Some(&Reverse((t, _, due))) = sh.heap.peek() {
            if t > net.now {
                break;
            }
            sh.heap.pop();
            ex.event(&mut sh, due, t, &mut net);
        }
        if ex.finished() {
            break;
        }
        let idle = net.in_flight_flits == 0 && net.wheel.is_empty() && net.ni_pending.is_empty();
        if idle {
            match sh.heap.peek() {
                // Nothing moves until the next op event: skip the silent cycles.
                Some(&Reverse((t, _, _))) => {
                    net.now = t;
                    continue;
                }
                None => {
                    if let Some(step) = ex.parked_step() {
                        return invalid!(
                            "sync_steps = 1 cannot run this schedule: an op of step {step} \
                             waits for an op of a later step; run it with sync_steps = 0"
                        );
                    }
                    return invalid!(
                        "the schedule cannot finish: {} of {n} ops wait for packets that are never sent",
                        n - ex.ops_done()
                    );
                }
            }
        }
        if net.now >= cfg.max_cycles {
            return invalid!(
                "the schedule did not finish within max_cycles = {}",
                cfg.max_cycles
            );
        }
        net.finish_cycle();
        if net.in_flight_flits > 0 && net.now - net.last_move > cfg.deadlock_cycles {
            deadlock = Some(net.diagnose());
            break;
        }
    }
    let mut steps = std::collections::BTreeMap::new();
    for g in 0..n {
        if let Some(r) = s.op(s.op_ref(g)).step {
            let e = steps.entry(r).or_insert(0u64);
            *e = (*e).max(ex.done_at(g));
        }
    }
    let steps: Vec<(u32, u64)> = steps.into_iter().collect();
    let (step_latency, sum_p, sum_n) = ex.step_latencies();
    let (packet_flits, packets_per_schedule_packet) = ex.packet_sizes();
    Ok(ScheduleResult {
        packet_flits,
        packets_per_schedule_packet,
        cycles: ex.finish(),
        verified: s.is_correct(),
        avg_packet_latency: net.measured.packet.mean(),
        avg_network_latency: net.measured.network.mean(),
        packets: net.delivered,
        flit_hops: net.flit_hops,
        step_times: steps,
        worm_messages,
        deadlock,
        step_latency,
        sum_step_max_packet_latency: sum_p,
        sum_step_max_network_latency: sum_n,
    })
}
