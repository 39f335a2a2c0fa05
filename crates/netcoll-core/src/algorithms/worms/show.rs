//! A readable account of a worm multicast: the POCs, and per worm its phase, sender, drop
//! switches, route and header (for `netcoll worms show`).

use super::{
    drop_header, figures, multiphase_plans, phase_rule, route_drop_worm, tree_header, tree_worm,
    up_rule, Figures, Mcast, Shape,
};
use crate::algorithms::{build, find, AlgoRequest};
use crate::error::Result;
use crate::spec_err;
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct WormView {
    pub phase: u32,
    pub sender: u32,
    pub dests: Vec<u32>,
    /// Switches where the worm delivers, in order (all of them for a tree worm).
    pub drop_switches: Vec<u32>,
    /// Switches visited, replication tree in breadth-first order.
    pub route: Vec<u32>,
    /// The header as Fig. 12 or s5.3.1 draws it.
    pub header: String,
    pub header_bits: u32,
    pub link_traversals: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct Show {
    pub algo: String,
    pub root: u32,
    /// The partial ordered chains of Fig. 13 (switch lists), in stripping order.
    pub pocs: Vec<Vec<u32>>,
    pub worms: Vec<WormView>,
    pub figures: Figures,
}

/// Describes the worms `algo` (worm-ssr, worm-path or worm-tree) sends for `req`.
pub fn show(req: &AlgoRequest, algo: &str) -> Result<Show> {
    let entry = find(req.kind, algo)?;
    if entry.family != "worms" || algo == "ni-kbinomial" {
        return spec_err!("'{algo}' sends no worms: use worm-ssr, worm-path or worm-tree");
    }
    let schedule = build(algo, req)?;
    let m = Mcast::from_request(req)?;
    let mut worms = Vec::new();
    if algo == "worm-tree" {
        if !m.dests.is_empty() {
            let w = tree_worm(&m, up_rule(req)?)?;
            let h = tree_header(&m);
            worms.push(WormView {
                phase: 0,
                sender: m.root,
                drop_switches: dedup(m.dests.iter().map(|&r| m.switch_of(r))),
                link_traversals: w.hops.len() as u32 - 1,
                route: w.route,
                header: format!("up=1 | {}", h.dests.to_text()),
                header_bits: h.bits(),
                dests: w.dests,
            });
        }
    } else {
        let shape = if algo == "worm-ssr" {
            Shape::Ssr
        } else {
            Shape::Path
        };
        let (plans, rounds) = multiphase_plans(&m, shape, phase_rule(req)?);
        for (t, round) in rounds.into_iter().enumerate() {
            for (sender, i) in round {
                let w = route_drop_worm(&m, sender, &plans[i])?;
                let h = drop_header(&m, &plans[i]);
                worms.push(WormView {
                    phase: t as u32,
                    sender,
                    drop_switches: plans[i].drops.iter().map(|d| d.0).collect(),
                    link_traversals: w.hops.len() as u32 - 1,
                    route: w.route,
                    header: h.to_text(),
                    header_bits: w.header_bits,
                    dests: w.dests,
                });
            }
        }
    }
    Ok(Show {
        algo: algo.to_string(),
        root: m.root,
        pocs: m.pocs(),
        worms,
        figures: figures(&schedule),
    })
}

fn dedup(it: impl Iterator<Item = u32>) -> Vec<u32> {
    let mut v: Vec<u32> = it.collect();
    v.sort_unstable();
    v.dedup();
    v
}
