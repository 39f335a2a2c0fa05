//! The channel-latency keys of a flit configuration (link_latency.rs applies them).

use super::config_values::num;
use crate::error::Result;
use crate::topology::ChannelClass;
use serde::Serialize;

/// The configuration's channel-latency keys: one per channel class (0 = by the rules above)
/// and BookSim's geometry keys `x`, `y`, `xr`, `yr` (its defaults 8, 8, 1, 1), read once here
/// for the flatfly floor plan, the cmesh checks (`FlitConfig::cmesh_spec`) and the digit
/// traffic patterns (`xr`).
#[derive(Debug, Clone, Serialize)]
pub struct LatencyKeys {
    pub local: u32,
    pub global: u32,
    pub up: u32,
    pub down: u32,
    pub x: usize,
    pub y: usize,
    pub xr: usize,
    pub yr: usize,
}

impl Default for LatencyKeys {
    fn default() -> LatencyKeys {
        LatencyKeys {
            local: 0,
            global: 0,
            up: 0,
            down: 0,
            x: 8,
            y: 8,
            xr: 1,
            yr: 1,
        }
    }
}

impl LatencyKeys {
    pub const KEYS: [&'static str; 8] = [
        "local_latency",
        "global_latency",
        "up_latency",
        "down_latency",
        "x",
        "y",
        "xr",
        "yr",
    ];

    /// Sets one of [`LatencyKeys::KEYS`].
    pub fn set(&mut self, key: &str, v: &str) -> Result<()> {
        match key {
            "local_latency" => self.local = num(key, v)?,
            "global_latency" => self.global = num(key, v)?,
            "up_latency" => self.up = num(key, v)?,
            "down_latency" => self.down = num(key, v)?,
            "x" => self.x = num(key, v)?,
            "y" => self.y = num(key, v)?,
            "xr" => self.xr = num(key, v)?,
            "yr" => self.yr = num(key, v)?,
            _ => unreachable!("only LatencyKeys::KEYS are passed here"),
        }
        Ok(())
    }

    /// The class key's latency (0 = unset).
    pub(super) fn of_class(&self, class: ChannelClass) -> u32 {
        match class {
            ChannelClass::Local => self.local,
            ChannelClass::Global => self.global,
            ChannelClass::Up => self.up,
            ChannelClass::Down => self.down,
        }
    }

    /// Whether any class key is set.
    pub(super) fn any_class(&self) -> bool {
        self.local | self.global | self.up | self.down != 0
    }
}
