//! Topology parameters: the plain structs that a spec string parses into and the topology
//! layer builds from. They sit below both, so `spec` never imports `topology` (the topology
//! modules import `spec`).

use crate::error::Result;
use crate::spec_err;
use serde::Serialize;

/// Largest network built explicitly (switches). Metrics of larger symmetric networks come
/// from closed forms without building them.
pub const MAX_SWITCHES: usize = 1 << 24;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IbtParams {
    /// Radices n of the underlying torus (the paper uses equal radices, n^d).
    pub dims: Vec<usize>,
    /// Bypass lengths <b1..bk>.
    pub b: Vec<usize>,
}

impl IbtParams {
    /// Number of species, d * k.
    pub fn species(&self) -> usize {
        self.dims.len() * self.b.len()
    }

    /// Species of the node with these coordinates.
    pub fn species_of(&self, coords: &[usize]) -> usize {
        coords.iter().sum::<usize>() % self.species()
    }

    /// (bypass dimension, bypass length) of a species.
    pub fn bypass_of(&self, species: usize) -> (usize, usize) {
        let d = self.dims.len();
        (species % d, self.b[species / d])
    }

    pub fn validate(&self, spec: &str) -> Result<()> {
        let m = self.species();
        if self.b.is_empty() {
            return spec_err!("'{spec}' gives no bypass lengths: write b=L1,L2,...");
        }
        for &n in &self.dims {
            if n % m != 0 {
                return spec_err!(
                    "iBT radix {n} in '{spec}' must be a multiple of d*k = {m} \
                     (dimensions times bypass lengths) for the bypass rings to close"
                );
            }
        }
        let nmin = *self.dims.iter().min().unwrap();
        for &l in &self.b {
            if l < 2 || l % m != 0 {
                return spec_err!(
                    "iBT bypass length {l} in '{spec}' must be a multiple of d*k = {m} and at \
                     least 2, e.g. b={}",
                    2 * m
                );
            }
            if l >= nmin {
                return spec_err!(
                    "iBT bypass length {l} in '{spec}' must be shorter than the smallest radix {nmin}"
                );
            }
        }
        Ok(())
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IrregularParams {
    pub switches: usize,
    pub ports: usize,
    pub nodes: usize,
    /// Fraction of the free switch ports that get a link (the paper's percentage connectivity).
    pub conn: f64,
    pub seed: u64,
}

impl IrregularParams {
    /// Switch ports left after the hosts are attached.
    pub fn free_ports(&self) -> usize {
        self.switches * self.ports - self.nodes
    }

    /// Number of switch-to-switch links: `conn` of the free ports, two ports per link.
    pub fn num_links(&self) -> usize {
        ((self.free_ports() as f64 * self.conn + 1e-9).floor() as usize) / 2
    }

    pub fn validate(&self, spec: &str) -> Result<()> {
        let (s, k, p) = (self.switches, self.ports, self.nodes);
        if s == 0 || k == 0 || p == 0 {
            return spec_err!("'{spec}': switches, ports and nodes must all be >= 1");
        }
        if s > MAX_SWITCHES / 64 || k > 4096 {
            return spec_err!(
                "'{spec}' is too large: at most {} switches of at most 4096 ports",
                MAX_SWITCHES / 64
            );
        }
        let reserve = if s > 1 { s } else { 0 };
        if p + reserve > s * k {
            return spec_err!(
                "'{spec}': {p} nodes on {s} switches of {k} ports leave some switch without a \
                 port for links; use at most {} nodes or more ports",
                s * k - reserve
            );
        }
        if self.num_links() + 1 < s {
            return spec_err!(
                "'{spec}': conn={:?} links {} of the {} free ports ({} links), but connecting {s} \
                 switches needs at least {} links; raise conn or ports, or lower nodes",
                self.conn,
                2 * self.num_links(),
                self.free_ports(),
                self.num_links(),
                s - 1
            );
        }
        Ok(())
    }
}

mod networks;
pub use networks::{Arrangement, DragonflyParams, FatTreeParams, HammingParams};
