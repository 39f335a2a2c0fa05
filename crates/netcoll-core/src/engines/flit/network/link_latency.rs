//! The latency of every router-to-router channel: the seam through which link classes (and
//! BookSim's per-family layouts) give channels their own latencies. A network family whose
//! channels are not all alike adds its rule to [`channel_latencies`]; the rest of the engine
//! sees only a latency per channel (channel.rs turns it into per-port extra delays).
//!
//! The rules, first that applies:
//! 1. a class key (`local_latency`, `global_latency`, `up_latency`, `down_latency`, netcoll's
//!    keys; 0 = unset) gives that class of channels its latency;
//! 2. `channel_latency` set explicitly gives every other channel that latency;
//! 3. BookSim's family rules: `topology = dragonflynew` takes 10 cycles on a local channel and
//!    100 on a global one (dragonfly.cpp is compiled with `DRAGON_LATENCY` defined), and
//!    `topology = flatfly` with `use_noc_latency = 1` (BookSim's default) takes the channel's
//!    length on BookSim's floor plan (flatfly_onchip.cpp: `xr * |dx| + yr * |dy|` between the
//!    routers' places on an `x`-wide grid), and `topology = cmesh` with `use_noc_latency = 1`
//!    takes 2 cycles on a mesh channel and `k` on an edge's express link (cmesh.cpp:
//!    `cY * k / 2` with c = 4);
//! 4. otherwise `channel_latency` (FlitConfig::link_latency).

use super::config::FlitConfig;
pub use super::latency_keys::LatencyKeys;
use crate::error::Result;
use crate::spec_err;
use crate::topology::{ChannelClass, Topology};

/// BookSim's dragonfly.cpp channel latencies (`#define DRAGON_LATENCY`): local, global.
const DRAGONFLYNEW_LATENCY: (u32, u32) = (10, 100);

/// The latency of every channel (topology numbering: `2 * link` and `2 * link + 1`), or None
/// when every channel takes `cfg.link_latency()`.
pub fn channel_latencies(topo: &Topology, cfg: &FlitConfig) -> Result<Option<Vec<u32>>> {
    let keys = &cfg.link_lat;
    let base = cfg.link_latency();
    let family: Option<Box<dyn Fn(u32) -> u32 + '_>> = if cfg.channel_latency_set {
        None
    } else if cfg.topology == "dragonflynew" {
        let (local, global) = DRAGONFLYNEW_LATENCY;
        Some(Box::new(move |ch| match topo.channel_class(ch) {
            ChannelClass::Global => global,
            _ => local,
        }))
    } else if cfg.topology == "cmesh" && cfg.use_noc_latency {
        // cmesh.cpp: a mesh channel spans one router's block (`c / n` = 2 nodes, the base
        // latency); an edge's express link spans half the edge, `cY * k / 2` = k cycles.
        let (local, global) = (base, cfg.k as u32);
        Some(Box::new(move |ch| match topo.channel_class(ch) {
            ChannelClass::Global => global,
            _ => local,
        }))
    } else if cfg.topology == "flatfly" && cfg.use_noc_latency {
        Some(Box::new(flatfly_lengths(topo, keys)?))
    } else {
        None
    };
    if family.is_none() && !keys.any_class() {
        return Ok(None);
    }
    let lat: Vec<u32> = (0..2 * topo.num_links() as u32)
        .map(|ch| match keys.of_class(topo.channel_class(ch)) {
            0 => family.as_ref().map_or(base, |f| f(ch)),
            l => l,
        })
        .collect();
    Ok(if lat.iter().all(|&l| l == base) {
        None
    } else {
        Some(lat)
    })
}

/// BookSim's flatfly channel lengths on its floor plan (flatfly_onchip.cpp, `use_noc_latency`):
/// router `r` sits at column `r % x`, row `r / x`; a channel is `xr * |dx| + yr * |dy|` long.
/// Its terminal channels all take 1 cycle when `xr` and `yr` are at most 3 (its estimate of a
/// terminal's distance); other layouts give terminals unequal channels, which netcoll's
/// injection channels (one latency) do not model, so they are refused.
fn flatfly_lengths<'t>(topo: &'t Topology, k: &LatencyKeys) -> Result<impl Fn(u32) -> u32 + 't> {
    if k.x != k.y || k.xr != k.yr || k.x == 0 || k.xr == 0 {
        return spec_err!(
            "topology = flatfly: x = {}, y = {}, xr = {}, yr = {}: BookSim asserts x = y and xr \
             = yr (routers and terminals on square grids), both at least 1",
            k.x,
            k.y,
            k.xr,
            k.yr
        );
    }
    let c = topo.num_endpoints() / topo.num_switches().max(1);
    if k.xr * k.yr != c {
        return spec_err!(
            "topology = flatfly: xr * yr = {} but c = {c}: BookSim asserts c = xr * yr",
            k.xr * k.yr
        );
    }
    if k.xr > 3 {
        return spec_err!(
            "topology = flatfly with use_noc_latency = 1 and xr = {}: BookSim gives terminals \
             channels of unequal lengths, netcoll's injection channels take one latency; set \
             use_noc_latency = 0",
            k.xr
        );
    }
    let (x, xr, yr) = (k.x, k.xr as u32, k.yr as u32);
    Ok(move |ch: u32| {
        let (a, b) = topo.channel_ends(ch);
        let (a, b) = (a.switch as usize, b.switch as usize);
        let dx = (a % x).abs_diff(b % x) as u32;
        let dy = (a / x).abs_diff(b / x) as u32;
        xr * dx + yr * dy
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(lines: &[(&str, &str)]) -> FlitConfig {
        FlitConfig::from_pairs(lines.iter().copied()).unwrap()
    }

    #[test]
    fn dragonflynew_takes_booksims_compiled_latencies() {
        let c = cfg(&[("topology", "dragonflynew"), ("k", "2"), ("n", "1")]);
        let topo = c.build_topology().unwrap();
        let lat = channel_latencies(&topo, &c).unwrap().unwrap();
        for (ch, &l) in lat.iter().enumerate() {
            let want = match topo.channel_class(ch as u32) {
                ChannelClass::Global => 100,
                _ => 10,
            };
            assert_eq!(l, want, "channel {ch}");
        }
        // A class key overrides its class only; channel_latency the family rule.
        let c2 = cfg(&[
            ("topology", "dragonflynew"),
            ("k", "2"),
            ("n", "1"),
            ("global_latency", "7"),
        ]);
        let lat = channel_latencies(&topo, &c2).unwrap().unwrap();
        assert!(lat.iter().all(|&l| l == 7 || l == 10));
        assert!(lat.contains(&7) && lat.contains(&10));
        let c3 = cfg(&[
            ("topology", "dragonflynew"),
            ("k", "2"),
            ("n", "1"),
            ("channel_latency", "1"),
        ]);
        assert!(channel_latencies(&topo, &c3).unwrap().is_none());
    }

    /// `topology` as a 4 x 4 grid of routers of 4 nodes on BookSim's floor plan (x = y = 4,
    /// xr = yr = 2), and its channel latencies.
    fn four_by_four(topology: &str) -> (FlitConfig, Topology, Vec<u32>) {
        let c = cfg(&[
            ("topology", topology),
            ("k", "4"),
            ("n", "2"),
            ("c", "4"),
            ("x", "4"),
            ("y", "4"),
            ("xr", "2"),
            ("yr", "2"),
        ]);
        let topo = c.build_topology().unwrap();
        let lat = channel_latencies(&topo, &c).unwrap().unwrap();
        (c, topo, lat)
    }

    fn channel_routers(topo: &Topology, ch: usize) -> (usize, usize) {
        let (a, b) = topo.channel_ends(ch as u32);
        (a.switch as usize, b.switch as usize)
    }

    #[test]
    fn flatfly_lengths_follow_booksims_floor_plan() {
        let (c, topo, lat) = four_by_four("flatfly");
        for (ch, &l) in lat.iter().enumerate() {
            let (a, b) = channel_routers(&topo, ch);
            // One dimension differs: 2 cycles per router of distance.
            let d = (a % 4).abs_diff(b % 4) + (a / 4).abs_diff(b / 4);
            assert_eq!(l as usize, 2 * d);
        }
        let mut bad = c.clone();
        bad.link_lat.xr = 1;
        assert!(channel_latencies(&topo, &bad).is_err());
        bad.use_noc_latency = false;
        assert!(channel_latencies(&topo, &bad).unwrap().is_none());
    }

    #[test]
    fn cmesh_express_links_take_k_cycles_as_booksims() {
        let (c, topo, lat) = four_by_four("cmesh");
        for (ch, &l) in lat.iter().enumerate() {
            let (a, b) = channel_routers(&topo, ch);
            let hop = (a % 4).abs_diff(b % 4) + (a / 4).abs_diff(b / 4);
            // Mesh neighbours: 2 cycles; the express links jump k/2 = 2 routers: k = 4.
            assert_eq!(l, if hop == 1 { 2 } else { 4 }, "channel {ch}: {a} -> {b}");
        }
        let mut off = c.clone();
        off.use_noc_latency = false;
        assert!(channel_latencies(&topo, &off).unwrap().is_none());
    }

    #[test]
    fn fat_tree_up_and_down_take_their_keys() {
        let c = cfg(&[
            ("topology", "fattree"),
            ("k", "2"),
            ("n", "3"),
            ("up_latency", "3"),
            ("down_latency", "5"),
        ]);
        let topo = c.build_topology().unwrap();
        let lat = channel_latencies(&topo, &c).unwrap().unwrap();
        for (ch, &l) in lat.iter().enumerate() {
            let up = topo.channel_class(ch as u32) == ChannelClass::Up;
            assert_eq!(l, if up { 3 } else { 5 });
        }
    }
}
