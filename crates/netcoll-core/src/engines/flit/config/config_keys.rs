//! The configuration keys and how a key's text value is read (BookSim's names and
//! spellings; BookSim-only keys go to booksim_keys.rs).

use super::alloc_registry::{allocator_value, SW_ALLOCATORS, VC_ALLOCATORS};
use super::booksim_keys::{booksim_only, BooksimOnly};
use super::config::{netcoll_keys, FlitConfig, MAX_SPEEDUP};
use super::config_enums::{FlowControl, InjectionSpec, McScheme, SimType, TorusRouting};
use super::config_values::{flag, num, unquote};
use super::pattern_registry::parse_pattern;
use super::registry::nearest;
use super::routing_registry::ROUTING_FUNCTIONS;
use crate::error::Result;
use crate::spec_err;

impl FlitConfig {
    /// Sets one key from its text value as written in a BookSim configuration file.
    pub fn set(&mut self, key: &str, value: &str) -> Result<()> {
        let v = value.trim();
        if self.set_class_key(key, v)? {
            return Ok(());
        }
        match key {
            "topology" => self.topology = unquote(v).to_string(),
            "k" => self.k = num(key, v)?,
            "n" => self.n = num(key, v)?,
            "c" => self.c = num(key, v)?,
            "netcoll_topology" => self.netcoll_topology = unquote(v).to_string(),
            "routing_function" => {
                self.routing_set = true;
                self.routing = ROUTING_FUNCTIONS.get(unquote(v))?;
            }
            "route_set" => {
                use crate::routing::route_sets::Choices;
                self.route_set = match unquote(v) {
                    "booksim" => Choices::Booksim,
                    "all" => Choices::All,
                    o => return spec_err!("route_set = {o}: use booksim or all"),
                }
            }
            "dateline" => self.dateline = flag(key, v)?,
            "torus_routing" => {
                self.torus_routing = match unquote(v) {
                    "booksim" => TorusRouting::Booksim,
                    "dateline" => TorusRouting::Dateline,
                    o => return spec_err!("torus_routing = {o}: use booksim or dateline"),
                }
            }
            "num_vcs" => self.num_vcs = num(key, v)?,
            "vc_buf_size" => self.vc_buf_size = num(key, v)?,
            "flow_control" => {
                self.flow_control = match unquote(v) {
                    "wormhole" => FlowControl::Wormhole,
                    "vct" | "cut_through" | "virtual_cut_through" => FlowControl::CutThrough,
                    o => return spec_err!("flow_control = {o}: use wormhole or vct"),
                }
            }
            "routing_delay" => self.routing_delay = num(key, v)?,
            "vc_alloc_delay" => self.vc_alloc_delay = num(key, v)?,
            "sw_alloc_delay" => self.sw_alloc_delay = num(key, v)?,
            "st_final_delay" => self.st_final_delay = num(key, v)?,
            "credit_delay" => self.credit_delay = num(key, v)?,
            "wait_for_tail_credit" => self.wait_for_tail_credit = flag(key, v)?,
            "speculative" => self.speculative = flag(key, v)?,
            "channel_latency" => {
                self.channel_latency = num(key, v)?;
                self.channel_latency_set = true;
            }
            "use_noc_latency" => self.use_noc_latency = flag(key, v)?,
            k if super::latency_keys::LatencyKeys::KEYS.contains(&k) => self.link_lat.set(k, v)?,
            "network_file" => self.network_file = unquote(v).to_string(),
            "injection_latency" => self.injection_latency = num(key, v)?,
            "ejection_latency" => self.ejection_latency = num(key, v)?,
            "ni_read_delay" => self.ni_read_delay = num(key, v)?,
            "chunk_flits" => self.chunk_flits = num(key, v)?,
            "traffic" => self.traffic = parse_pattern(unquote(v))?,
            "injection_process" => self.injection_process = InjectionSpec::parse(unquote(v))?,
            "burst_alpha" => self.burst_alpha = num(key, v)?,
            "burst_beta" => self.burst_beta = num(key, v)?,
            "burst_r1" => self.burst_r1 = num(key, v)?,
            "packet_size" => self.packet_size = num(key, v)?,
            "injection_rate" => self.injection_rate = num(key, v)?,
            "injection_rate_uses_flits" => self.injection_rate_uses_flits = flag(key, v)?,
            "sim_type" => {
                self.sim_type = match unquote(v) {
                    "latency" => SimType::Latency,
                    "batch" => SimType::Batch,
                    "fixed" => SimType::Fixed,
                    "throughput" => SimType::Throughput,
                    o => {
                        return spec_err!("sim_type = {o}: use latency, throughput, batch or fixed")
                    }
                }
            }
            "sample_period" => self.sample_period = num(key, v)?,
            "warmup_periods" => self.warmup_periods = num(key, v)?,
            "max_samples" => self.max_samples = num(key, v)?,
            "latency_thres" => self.latency_thres = num(key, v)?,
            "warmup_thres" => self.warmup_thres = num(key, v)?,
            "stopping_thres" => self.stopping_thres = num(key, v)?,
            "acc_stopping_thres" => self.acc_stopping_thres = num(key, v)?,
            "batch_size" => self.batch_size = num(key, v)?,
            "sim_cycles" => self.sim_cycles = num(key, v)?,
            "warmup_cycles" => self.warmup_cycles = num(key, v)?,
            "seed" | "perm_seed" if v == "time" => {
                return spec_err!(
                    "{key} = time is refused: netcoll runs are reproducible, give a number"
                )
            }
            "seed" => self.seed = num(key, v)?,
            "perm_seed" => self.perm_seed = num(key, v)?,
            "threads" => self.threads = num(key, v)?,
            "deadlock_cycles" => self.deadlock_cycles = num(key, v)?,
            "max_cycles" => self.max_cycles = num(key, v)?,
            "vc_allocator" => {
                let (name, iters) = allocator_value(key, unquote(v))?;
                (self.vc_allocator, self.vc_alloc_iters) = (VC_ALLOCATORS.get(name)?, iters);
            }
            "sw_allocator" => {
                let (name, iters) = allocator_value(key, unquote(v))?;
                (self.sw_allocator, self.sw_alloc_iters) = (SW_ALLOCATORS.get(name)?, iters);
            }
            "input_speedup" => self.input_speedup = speedup(key, v)?,
            "output_speedup" => self.output_speedup = speedup(key, v)?,
            "internal_speedup" => {
                self.internal_speedup = num(key, v)?;
                self.check_internal_speedup()?;
            }
            "output_buffer_size" => {
                self.output_buffer_size = num(key, v)?;
                self.check_output_buffer_size()?;
            }
            "hold_switch_for_packet" => self.hold_switch_for_packet = flag(key, v)?,
            "multicast_dests" => self.multicast_dests = num(key, v)?,
            "multicast_scheme" => {
                self.multicast_scheme = match unquote(v) {
                    "unicast" | "ni" => McScheme::Unicast,
                    "tree" => McScheme::Tree,
                    "ni-kbinomial" => McScheme::NiKbinomial,
                    "worm-path" => McScheme::WormPath,
                    "worm-tree" => McScheme::WormTree,
                    o => {
                        return spec_err!(
                            "multicast_scheme = {o}: use unicast or tree (network only), or \
                             ni-kbinomial, worm-path or worm-tree (with host/NI overheads)"
                        )
                    }
                }
            }
            "multicast_packets" => self.multicast_packets = num(key, v)?,
            "alloc_iters" => {
                let n: i64 = num(key, v)?;
                if !(1..=1024).contains(&n) {
                    return spec_err!(
                        "alloc_iters = {v} is out of range: the iterative allocators (islip, \
                         pim, select) run 1 to 1024 iterations"
                    );
                }
                self.alloc_iters = n as u32;
            }
            _ => match booksim_only(key, v, self.warmup_thres)? {
                BooksimOnly::Accepted => {}
                BooksimOnly::Means(k, v) => self.set(k, v)?,
                BooksimOnly::Unknown => {
                    let known = super::config::all_keys();
                    let hint = match nearest(key, known.iter().copied()) {
                        Some(near) => format!("did you mean {near}? "),
                        None => String::new(),
                    };
                    return spec_err!(
                        "unsupported key '{key}': {hint}netcoll's flit engine knows {} and \
                         BookSim's own keys (docs/flit.md)",
                        netcoll_keys().collect::<Vec<_>>().join(", ")
                    );
                }
            },
        }
        Ok(())
    }

    /// Builds a config from (key, value) pairs over the defaults.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Self> {
        let mut c = FlitConfig::default();
        for (k, v) in pairs {
            c.set(k, v)?;
        }
        Ok(c)
    }
}

/// An input or output speedup: a whole number of crossbar ports per router port, 1 to
/// [`MAX_SPEEDUP`] (a negative value is told the range too, not a parse error).
fn speedup(key: &str, v: &str) -> Result<usize> {
    match num::<i64>(key, v)? {
        x @ 1..=MAX_SPEEDUP_I64 => Ok(x as usize),
        _ => spec_err!(
            "{key} = {v}: use 1 to {MAX_SPEEDUP} (crossbar ports per router port; 1 is no \
             speedup)"
        ),
    }
}

const MAX_SPEEDUP_I64: i64 = MAX_SPEEDUP as i64;
