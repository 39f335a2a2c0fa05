//! Parameters of the families today's machines are built from: fat-trees, dragonflies,
//! flattened butterflies and HyperX. Each `validate` refuses a combination that does not
//! define the family, naming the rule that failed.

use super::MAX_SWITCHES;
use crate::error::Result;
use crate::spec_err;
use serde::Serialize;

/// BookSim's k-ary n-tree (`fattree` with `k` and `n`): `levels` levels of `k^(levels-1)`
/// routers, `k` down and `k` up ports each (the top level has only the `k` down ports),
/// `k^levels` endpoints on the leaves. `taper` R > 1 makes it a folded Clos that is R:1
/// oversubscribed at the leaves: each leaf router hosts `R*k` endpoints on its `k` up ports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FatTreeParams {
    pub k: usize,
    pub levels: usize,
    pub taper: usize,
}

impl FatTreeParams {
    /// Routers per level, `k^(levels-1)`.
    pub fn per_level(&self) -> usize {
        self.k.pow(self.levels as u32 - 1)
    }
    pub fn routers(&self) -> usize {
        self.levels * self.per_level()
    }
    /// Endpoints per leaf router.
    pub fn leaf_endpoints(&self) -> usize {
        self.taper * self.k
    }
    pub fn endpoints(&self) -> usize {
        self.per_level() * self.leaf_endpoints()
    }

    pub fn validate(&self, spec: &str) -> Result<()> {
        if self.k < 2 {
            return spec_err!(
                "fat-tree k={} in '{spec}' is too small: the rule is k >= 2",
                self.k
            );
        }
        if self.levels < 1 {
            return spec_err!("fat-tree levels=0 in '{spec}': the rule is levels >= 1");
        }
        if self.taper < 1 {
            return spec_err!(
                "fat-tree taper=0 in '{spec}': the rule is taper >= 1 (1 = no taper)"
            );
        }
        let routers = (self.k as u128)
            .checked_pow(self.levels as u32 - 1)
            .map(|p| p * self.levels as u128);
        if routers.is_none_or(|r| r > MAX_SWITCHES as u128) {
            return spec_err!(
                "'{spec}' has more than {MAX_SWITCHES} routers, too many to build: lower k or levels"
            );
        }
        Ok(())
    }
}

/// How a dragonfly's global links are arranged (Hastings et al. 2015, Camarero et al. 2014).
/// Group `G` numbers its `a*h` global ports `t = r*h + c` (router `r`, global port `c`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Arrangement {
    /// Port `t` goes to group `t` if `t < G`, else `t + 1` (modulo the `g-1` other groups when
    /// links are doubled): BookSim's `dragonflynew`, exactly.
    Absolute,
    /// Port `t` goes to group `G + t + 1 (mod g)`.
    Relative,
    /// Ports in pairs: port `2i` goes to `G + i + 1`, port `2i+1` to `G - i - 1 (mod g)`.
    Circulant,
}

impl Arrangement {
    pub fn parse(text: &str, spec: &str) -> Result<Arrangement> {
        match text {
            "absolute" => Ok(Arrangement::Absolute),
            "relative" => Ok(Arrangement::Relative),
            "circulant" => Ok(Arrangement::Circulant),
            _ => spec_err!(
                "global arrangement '{text}' in '{spec}' is unknown: use absolute (BookSim's \
                 dragonflynew), relative or circulant"
            ),
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Arrangement::Absolute => "absolute",
            Arrangement::Relative => "relative",
            Arrangement::Circulant => "circulant",
        }
    }
}

/// Kim et al. 2008: groups of `a` fully connected routers, each with `p` endpoints and `h`
/// global links; `g` groups (balanced default `a*h + 1`: one global link per pair of groups).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DragonflyParams {
    pub p: usize,
    pub a: usize,
    pub h: usize,
    pub g: usize,
    pub arrangement: Arrangement,
}

impl DragonflyParams {
    pub fn routers(&self) -> usize {
        self.a * self.g
    }
    pub fn endpoints(&self) -> usize {
        self.p * self.routers()
    }
    /// Global links between each pair of groups.
    pub fn multiplicity(&self) -> usize {
        self.a * self.h / (self.g - 1)
    }
    /// Ports per router: endpoints, then `a-1` local, then `h` global (BookSim's order).
    pub fn radix(&self) -> usize {
        self.p + self.a - 1 + self.h
    }
    pub fn first_global_port(&self) -> usize {
        self.p + self.a - 1
    }

    pub fn validate(&self, spec: &str) -> Result<()> {
        let (a, h, g) = (self.a, self.h, self.g);
        if self.p < 1 || a < 1 || h < 1 {
            return spec_err!("dragonfly '{spec}': the rule is p, a, h >= 1");
        }
        if g < 2 {
            return spec_err!("dragonfly '{spec}' has g={g} groups: the rule is g >= 2");
        }
        if g > a * h + 1 {
            return spec_err!(
                "dragonfly '{spec}' asks for g={g} groups, but a*h = {} global ports per group \
                 reach at most a*h+1 = {} groups: the rule is g <= a*h+1",
                a * h,
                a * h + 1
            );
        }
        if (a * h) % (g - 1) != 0 {
            return spec_err!(
                "dragonfly '{spec}': the a*h = {} global ports of a group must split evenly over \
                 the g-1 = {} other groups (the rule is (g-1) divides a*h); use g = {} or a \
                 divisor of a*h plus one",
                a * h,
                g - 1,
                a * h + 1
            );
        }
        if (self.routers() as u128) > MAX_SWITCHES as u128 {
            return spec_err!(
                "'{spec}' has more than {MAX_SWITCHES} routers, too many to build: lower a or g"
            );
        }
        Ok(())
    }
}

/// A HyperX (Ahn et al. 2009): routers on a grid `dims`, each fully connected to every router
/// that differs from it in one coordinate, with `trunk` parallel links per pair and `t`
/// endpoints per router. The flattened butterfly (Kim et al. 2007; BookSim's `flatfly` with
/// `k`, `n`, `c`) is the HyperX `k^n` with `t = c` and `trunk = 1`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HammingParams {
    pub dims: Vec<usize>,
    pub t: usize,
    pub trunk: usize,
}

impl HammingParams {
    pub fn routers(&self) -> usize {
        self.dims.iter().product()
    }
    pub fn endpoints(&self) -> usize {
        self.routers() * self.t
    }
    /// Ports per router: `t` endpoints, then per dimension `(S-1)*trunk` ports.
    pub fn radix(&self) -> usize {
        self.t
            + self
                .dims
                .iter()
                .map(|&s| (s - 1) * self.trunk)
                .sum::<usize>()
    }

    pub fn validate(&self, spec: &str) -> Result<()> {
        if self.t < 1 || self.trunk < 1 {
            return spec_err!(
                "'{spec}': the rule is at least one endpoint per router and one link per pair"
            );
        }
        if self.radix() > 1 << 16 {
            return spec_err!(
                "'{spec}' asks for routers of more than 65,536 ports: lower the sizes"
            );
        }
        Ok(())
    }
}
