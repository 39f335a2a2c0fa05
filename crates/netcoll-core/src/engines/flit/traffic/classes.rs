//! Traffic classes, request/reply traffic and message priorities: BookSim 2's `classes`,
//! its per-class vector keys (`injection_rate = {0.1,0.2}`, `packet_size`, `traffic`,
//! `class_priority`), `use_read_write` with its packet sizes and VC ranges, and `priority`
//! (trafficmanager.cpp, vc.cpp). Here: the keys, their values and their checks; the NI side
//! is class_ni.rs, the router side (a VC's priority) `Network::vc_pri`.
//!
//! A run is *multi-class* when `classes > 1` or `use_read_write = 1`: each node then has one
//! source queue per class (requests and replies of a class share it, replies first), and
//! the figures are reported per class as well (`FlitResult::classes`).

use super::class_types::KIND_NAMES;
pub use super::class_types::{
    Priority, TrafficClasses, CLASS_KEYS, KIND_ANY, READ_REPLY, READ_REQUEST, WRITE_REPLY,
    WRITE_REQUEST,
};
use super::config::{FlitConfig, Pattern, SimType};
use super::config_values::{flag, num, unquote};
use super::pattern_registry::parse_pattern;
use crate::error::Result;
use crate::spec_err;

/// The items of a `{a,b,...}` value split at its top-level commas (a pattern's own braces
/// and parentheses, as in `{uniform,hotspot({0,5})}`, stay whole); None for a plain value.
fn vector_items(v: &str) -> Option<Vec<&str>> {
    let inner = v.trim().strip_prefix('{')?.strip_suffix('}')?;
    let (mut items, mut depth, mut from) = (Vec::new(), 0i32, 0);
    for (i, ch) in inner.char_indices() {
        match ch {
            '{' | '(' => depth += 1,
            '}' | ')' => depth -= 1,
            ',' if depth == 0 => {
                items.push(inner[from..i].trim());
                from = i + 1;
            }
            _ => {}
        }
    }
    items.push(inner[from..].trim());
    Some(items)
}

impl FlitConfig {
    /// Reads a class key, or a per-class vector of `injection_rate`, `packet_size` or
    /// `traffic`; false when `key` is none of them (or a plain scalar of those three, which
    /// `set` reads and which then serves every class).
    pub(super) fn set_class_key(&mut self, key: &str, v: &str) -> Result<bool> {
        let t = &mut self.tc;
        let items = vector_items(v);
        match (key, items) {
            ("injection_rate", Some(xs)) => {
                t.rates = xs.iter().map(|x| num(key, x)).collect::<Result<_>>()?;
                self.injection_rate = t.rates[0];
            }
            ("packet_size", Some(xs)) => {
                t.sizes = xs.iter().map(|x| num(key, x)).collect::<Result<_>>()?;
                self.packet_size = t.sizes[0];
            }
            ("traffic", Some(xs)) => {
                t.traffic = xs
                    .iter()
                    .map(|x| parse_pattern(unquote(x)))
                    .collect::<Result<_>>()?;
                self.traffic = t.traffic[0].clone();
            }
            ("injection_rate", None) => {
                t.rates.clear();
                return Ok(false);
            }
            ("packet_size", None) => {
                t.sizes.clear();
                return Ok(false);
            }
            ("traffic", None) => {
                t.traffic.clear();
                return Ok(false);
            }
            ("class_priority", Some(xs)) => {
                t.class_priorities = xs.iter().map(|x| num(key, x)).collect::<Result<_>>()?
            }
            ("class_priority", None) => {
                t.class_priority = num(key, v)?;
                t.class_priorities.clear();
            }
            (_, Some(_)) if CLASS_KEYS.contains(&key) => {
                return spec_err!(
                    "{key} = {v}: netcoll takes one value of {key} for every class (per-class \
                     vectors: injection_rate, packet_size, traffic, class_priority)"
                )
            }
            (_, Some(_)) => return Ok(false),
            ("classes", None) => t.classes = num(key, v)?,
            ("priority", None) => t.priority = Priority::parse(unquote(v))?,
            ("use_read_write", None) => t.use_read_write = flag(key, v)?,
            ("write_fraction", None) => t.write_fraction = num(key, v)?,
            ("max_outstanding_requests", None) => {
                // BookSim reads it as an int; 0 or less: no limit.
                t.max_outstanding_requests = num::<i64>(key, v)?.max(0) as u64
            }
            (_, None) => {
                if let Some(k) = KIND_NAMES.iter().position(|n| key == format!("{n}_size")) {
                    t.sizes_rw[k] = num(key, v)?;
                } else if let Some(k) = KIND_NAMES.iter().position(|n| key.starts_with(n)) {
                    let x = num::<i64>(key, v)?;
                    match &key[KIND_NAMES[k].len()..] {
                        "_begin_vc" => t.vc_ranges[k].0 = x,
                        "_end_vc" => t.vc_ranges[k].1 = x,
                        _ => return Ok(false),
                    }
                } else {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// Whether the run has several classes, request/reply traffic, a batch whose outstanding
    /// requests are limited or sequence priorities (class_ni.rs keeps the counts).
    pub fn multi_class(&self) -> bool {
        let limited = self.tc.max_outstanding_requests > 0 && self.sim_type == SimType::Batch;
        // Sequence numbers are counted by the class NIs.
        let sequence = self.tc.priority == Priority::Sequence;
        self.tc.classes > 1 || self.tc.use_read_write || limited || sequence
    }

    /// Packet-generation probability per node per cycle of class `c` (requests under
    /// `use_read_write`).
    pub fn class_rate(&self, c: usize) -> f64 {
        let r = self.tc.rates.get(c).copied().unwrap_or(self.injection_rate);
        if self.injection_rate_uses_flits {
            r / self.class_mean_size(c)
        } else {
            r
        }
    }

    /// Flits of a packet of class `c` (plain packets).
    pub fn class_size(&self, c: usize) -> usize {
        self.tc.sizes.get(c).copied().unwrap_or(self.packet_size)
    }

    /// BookSim's mean packet size of class `c` (`_GetAveragePacketSize`): under
    /// `use_read_write`, half the four sizes' sum (a request and its reply per generation).
    pub fn class_mean_size(&self, c: usize) -> f64 {
        if self.tc.use_read_write {
            (self.tc.sizes_rw.iter().sum::<usize>() / 2) as f64
        } else {
            self.class_size(c) as f64
        }
    }

    /// Offered flits per node per cycle over all classes (requests with their replies).
    pub fn offered_flits(&self) -> f64 {
        (0..self.tc.classes)
            .map(|c| self.class_rate(c) * self.class_mean_size(c))
            .sum()
    }

    pub fn class_pattern(&self, c: usize) -> &Pattern {
        self.tc.traffic.get(c).unwrap_or(&self.traffic)
    }

    /// `class_priority` of class `c` (one value serves every class).
    pub fn class_priority(&self, c: usize) -> i64 {
        let t = &self.tc;
        t.class_priorities
            .get(c)
            .copied()
            .unwrap_or(t.class_priority)
    }

    /// The VC range `lo..hi` (exclusive) of packet kind `kind` (READ_REQUEST..WRITE_REPLY),
    /// BookSim's negative values resolved.
    pub fn kind_vcs(&self, kind: u8) -> (usize, usize) {
        let k = kind as usize - 1;
        let (b, e) = self.tc.vc_ranges[k];
        let half = self.num_vcs as i64 / 2;
        let (db, de) = if k < 2 {
            (0, half - 1)
        } else {
            (half, self.num_vcs as i64 - 1)
        };
        let b = if b < 0 { db } else { b };
        let e = if e < 0 { de } else { e };
        (b.max(0) as usize, (e + 1).max(0) as usize)
    }

    /// Checks the class keys against one another and `num_vcs` (config_check.rs calls it).
    pub(super) fn validate_classes(&self) -> Result<()> {
        let t = &self.tc;
        if t.classes == 0 || t.classes > 255 {
            return spec_err!("classes = {}: use 1 to 255", t.classes);
        }
        let lens = [
            ("injection_rate", t.rates.len()),
            ("packet_size", t.sizes.len()),
            ("traffic", t.traffic.len()),
            ("class_priority", t.class_priorities.len()),
        ];
        for (key, n) in lens {
            if n != 0 && n != t.classes {
                return spec_err!(
                    "{key} has {n} values but classes = {}: give one value per class, or one \
                     plain value for every class",
                    t.classes
                );
            }
        }
        for c in 0..t.classes {
            let p = self.class_rate(c);
            if !(0.0..=1.0).contains(&p) || p.is_nan() {
                return spec_err!(
                    "injection_rate of class {c} gives {p} packets per node per cycle; use 0 to 1"
                );
            }
            let size = self.class_size(c);
            if size == 0 || size > 65535 {
                return spec_err!("packet_size of class {c} = {size}: use 1 to 65535");
            }
            if self.multi_class() && *self.class_pattern(c) == Pattern::Multicast {
                return spec_err!("traffic = multicast runs with one class and use_read_write = 0");
            }
            if self.class_priority(c) < 0 && t.priority == Priority::Class {
                return spec_err!(
                    "class_priority of class {c} = {}: BookSim asserts priorities >= 0",
                    self.class_priority(c)
                );
            }
        }
        if t.priority == Priority::LocalAge {
            return spec_err!(
                "priority = local_age is not implemented (a flit's arrival cycle in its VC is \
                 not kept); use age, network_age, queue_length, hop_count, sequence or class"
            );
        }
        if !(0.0..=1.0).contains(&t.write_fraction) {
            return spec_err!("write_fraction = {}: use 0 to 1", t.write_fraction);
        }
        if t.use_read_write {
            self.validate_read_write()?;
        }
        Ok(())
    }

    fn validate_read_write(&self) -> Result<()> {
        let t = &self.tc;
        for (k, name) in KIND_NAMES.iter().enumerate() {
            let size = t.sizes_rw[k];
            if size == 0 || size > 65535 {
                return spec_err!("{name}_size = {size}: use 1 to 65535");
            }
            let (lo, hi) = self.kind_vcs(k as u8 + 1);
            if lo >= hi || hi > self.num_vcs || t.vc_ranges[k].0 >= self.num_vcs as i64 {
                let (b, e) = t.vc_ranges[k];
                return spec_err!(
                    "{name}_begin_vc = {b}, {name}_end_vc = {e}: with use_read_write = 1 each \
                     kind needs a VC range with 0 <= begin <= end < num_vcs ({}); BookSim's \
                     defaults (0-5, 2-7, 8-13, 10-15) need num_vcs = 16, and -1 takes half the \
                     VCs",
                    self.num_vcs
                );
            }
            if self.flow_control == super::config::FlowControl::CutThrough
                && size > self.vc_buf_size
            {
                return spec_err!(
                    "virtual cut-through needs {name}_size ({size}) <= vc_buf_size ({})",
                    self.vc_buf_size
                );
            }
        }
        Ok(())
    }
}

/// Every class's traffic (pattern and packet rate) for a multi-class run.
pub(super) fn class_traffic(
    cfg: &FlitConfig,
    topo: &crate::topology::Topology,
) -> Result<Vec<super::traffic::Traffic>> {
    (0..cfg.tc.classes)
        .map(|c| {
            super::traffic::Traffic::new(
                cfg.class_pattern(c),
                topo.num_endpoints(),
                topo.shape(),
                cfg.class_rate(c),
            )
        })
        .collect()
}
