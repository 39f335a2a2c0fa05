//! Spec strings: the one-line names of networks that the CLI, the Python API and files use.
//!
//! ```text
//! mesh:8x8            torus:8x8x8          hypercube:6       mesh:4x4,c=4 (4 nodes a router)
//! cmesh:k=4 (BookSim's concentrated mesh)                     fly:k=10,n=1 (k-ary n-fly)
//! ibt:64x64:b=8,24
//! irregular:switches=8,ports=8,nodes=32,conn=0.8,seed=3
//! file:path/to/net.json
//! fattree:k=4,levels=3[,taper=2]      dragonfly:p=2,a=4,h=2[,g=9][,arrangement=relative]
//! flatfly:k=4,n=2[,c=4]               hyperx:4x4[,t=1][,k=2]
//! ```

use crate::error::Result;
pub use crate::params::{
    Arrangement, DragonflyParams, FatTreeParams, HammingParams, IbtParams, IrregularParams,
    MAX_SWITCHES,
};
use crate::spec_err;

const FAMILIES: &str = "mesh, torus, cmesh, fly, hypercube, ibt, irregular, fattree, dragonfly, \
     flatfly, hyperx, file";

#[derive(Debug, Clone, PartialEq)]
pub enum TopologySpec {
    /// Radices, and the concentration (endpoints per router, 1 unless `,c=C`).
    Mesh(Vec<usize>, usize),
    Torus(Vec<usize>, usize),
    /// BookSim's concentrated mesh: `k x k` routers of 4 nodes each, express links on the
    /// edges (cmesh.rs).
    Cmesh {
        k: usize,
    },
    /// BookSim's k-ary n-fly (fly.rs; n = 1: one k x k crossbar).
    Fly {
        k: usize,
        n: usize,
    },
    Hypercube(usize),
    Ibt(IbtParams),
    Irregular(IrregularParams),
    FatTree(FatTreeParams),
    Dragonfly(DragonflyParams),
    /// BookSim's flattened butterfly `k^n` with concentration `c` (a HyperX with equal sizes).
    Flatfly(HammingParams),
    HyperX(HammingParams),
    File(String),
}

impl TopologySpec {
    pub fn parse(spec: &str) -> Result<TopologySpec> {
        let spec = spec.trim();
        let Some((family, rest)) = spec.split_once(':') else {
            return spec_err!(
                "topology spec '{spec}' has no family: write FAMILY:PARAMS, e.g. torus:8x8 \
                 (families: {FAMILIES})"
            );
        };
        match family.to_ascii_lowercase().as_str() {
            "mesh" => parse_grid(rest, spec, false),
            "torus" => parse_grid(rest, spec, true),
            "cmesh" => parse_cmesh(rest, spec),
            "fly" => parse_fly(rest, spec),
            "hypercube" => parse_hypercube(rest, spec),
            "ibt" => parse_ibt(rest, spec),
            "irregular" => parse_irregular(rest, spec),
            "fattree" => parse_fattree(rest, spec),
            "dragonfly" => parse_dragonfly(rest, spec),
            "flatfly" => parse_flatfly(rest, spec),
            "hyperx" => parse_hyperx(rest, spec),
            "file" if rest.is_empty() => spec_err!("'{spec}' names no file: write file:PATH"),
            "file" => Ok(TopologySpec::File(rest.to_string())),
            other => {
                spec_err!("unknown topology family '{other}' in '{spec}': use one of {FAMILIES}")
            }
        }
    }

    /// The canonical spec string (what `parse` of it gives back).
    pub fn canonical(&self) -> String {
        match self {
            TopologySpec::Mesh(d, c) => format!("mesh:{}{}", join(d, "x"), optional("c", *c, 1)),
            TopologySpec::Torus(d, c) => {
                format!("torus:{}{}", join(d, "x"), optional("c", *c, 1))
            }
            TopologySpec::Cmesh { k } => format!("cmesh:k={k}"),
            TopologySpec::Fly { k, n } => format!("fly:k={k},n={n}"),
            TopologySpec::Hypercube(n) => format!("hypercube:{n}"),
            TopologySpec::Ibt(p) => format!("ibt:{}:b={}", join(&p.dims, "x"), join(&p.b, ",")),
            TopologySpec::Irregular(p) => format!(
                "irregular:switches={},ports={},nodes={},conn={},seed={}",
                p.switches,
                p.ports,
                p.nodes,
                short_number(p.conn),
                p.seed
            ),
            TopologySpec::FatTree(p) => format!(
                "fattree:k={},levels={}{}",
                p.k,
                p.levels,
                optional("taper", p.taper, 1)
            ),
            TopologySpec::Dragonfly(p) => format!(
                "dragonfly:p={},a={},h={}{}{}",
                p.p,
                p.a,
                p.h,
                optional("g", p.g, p.a * p.h + 1),
                match p.arrangement {
                    Arrangement::Absolute => String::new(),
                    other => format!(",arrangement={}", other.name()),
                }
            ),
            TopologySpec::Flatfly(p) => {
                format!("flatfly:k={},n={},c={}", p.dims[0], p.dims.len(), p.t)
            }
            TopologySpec::HyperX(p) => format!(
                "hyperx:{},t={}{}",
                join(&p.dims, "x"),
                p.t,
                optional("k", p.trunk, 1)
            ),
            TopologySpec::File(path) => format!("file:{path}"),
        }
    }
}

/// `,key=value` unless the value is the default.
fn optional(key: &str, value: usize, default: usize) -> String {
    if value == default {
        String::new()
    } else {
        format!(",{key}={value}")
    }
}

/// `0.8` as written, but `1e-300` rather than its 300 decimal digits.
fn short_number(x: f64) -> String {
    let plain = x.to_string();
    if plain.len() > 16 {
        format!("{x:?}")
    } else {
        plain
    }
}

pub(crate) fn join(v: &[usize], sep: &str) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

/// `8x8x4` -> [8, 8, 4]; every radix >= 2; the product within [`MAX_SWITCHES`].
pub fn parse_dims(text: &str, spec: &str) -> Result<Vec<usize>> {
    if text.is_empty() {
        return spec_err!("'{spec}' gives no dimensions: write radices like 8x8");
    }
    let mut dims = Vec::new();
    for part in text.split('x') {
        let k = parse_uint(part, "radix", spec)?;
        if k < 2 {
            return spec_err!("radix {k} in '{spec}' is too small: every radix must be >= 2");
        }
        dims.push(k);
    }
    check_size(dims.iter().try_fold(1usize, |a, &k| a.checked_mul(k)), spec)?;
    Ok(dims)
}

/// `8x8[,c=4]`: a mesh's or torus's radices and its concentration (endpoints per router).
fn parse_grid(rest: &str, spec: &str, wrap: bool) -> Result<TopologySpec> {
    let (dims, options) = rest.split_once(',').unwrap_or((rest, ""));
    let dims = parse_dims(dims, spec)?;
    let mut c = 1;
    parse_key_values(options, spec, |key, v| {
        match key {
            "c" => c = parse_uint(v, key, spec)?,
            _ => return spec_err!("unknown key '{key}' in '{spec}': a mesh or torus takes c"),
        }
        Ok(())
    })?;
    if !(1..=MAX_CONCENTRATION).contains(&c) {
        return spec_err!(
            "c = {c} in '{spec}' is out of range: a router takes 1 to {MAX_CONCENTRATION} nodes"
        );
    }
    check_size(dims.iter().try_fold(c, |a, &k| a.checked_mul(k)), spec)?;
    Ok(if wrap {
        TopologySpec::Torus(dims, c)
    } else {
        TopologySpec::Mesh(dims, c)
    })
}

/// The most endpoints a mesh or torus router takes (`,c=C`).
pub const MAX_CONCENTRATION: usize = 256;

/// `k=4[,n=2][,c=4]`: BookSim's cmesh, whose code is written for n = 2 and c = 4 only.
fn parse_cmesh(rest: &str, spec: &str) -> Result<TopologySpec> {
    let (mut k, mut n, mut c) = (None, 2, 4);
    parse_key_values(rest, spec, |key, v| {
        match key {
            "k" => k = Some(parse_uint(v, key, spec)?),
            "n" => n = parse_uint(v, key, spec)?,
            "c" => c = parse_uint(v, key, spec)?,
            _ => return spec_err!("unknown key '{key}' in '{spec}': cmesh takes k (n=2, c=4)"),
        }
        Ok(())
    })?;
    let Some(k) = k else {
        return spec_err!("'{spec}' must give k, e.g. cmesh:k=4");
    };
    if n != 2 || c != 4 {
        return spec_err!(
            "cmesh '{spec}': n = {n}, c = {c}; BookSim's cmesh is built for n = 2 and c = 4 only \
             (for other concentrations use mesh:KxK,c=C)"
        );
    }
    if k < 2 || k % 2 != 0 {
        return spec_err!(
            "cmesh '{spec}': k = {k}; the express links pair edge routers half an edge apart, so \
             k must be even and >= 2"
        );
    }
    check_size(k.checked_mul(k), spec)?;
    Ok(TopologySpec::Cmesh { k })
}

/// `k=10,n=1`: BookSim's k-ary n-fly.
fn parse_fly(rest: &str, spec: &str) -> Result<TopologySpec> {
    let (mut k, mut n) = (None, None);
    parse_key_values(rest, spec, |key, v| {
        match key {
            "k" => k = Some(parse_uint(v, key, spec)?),
            "n" => n = Some(parse_uint(v, key, spec)?),
            _ => return spec_err!("unknown key '{key}' in '{spec}': fly takes k and n"),
        }
        Ok(())
    })?;
    let (Some(k), Some(n)) = (k, n) else {
        return spec_err!("'{spec}' must give k and n, e.g. fly:k=10,n=1");
    };
    if k < 2 || n < 1 {
        return spec_err!("fly '{spec}': the rule is k >= 2 ports per switch and n >= 1 stages");
    }
    if n > 1 {
        return spec_err!(
            "fly '{spec}': n = {n} stages; netcoll builds the one-stage fly (n = 1, one k x k \
             crossbar): a multistage butterfly injects at stage 0 and ejects at stage n-1, and \
             netcoll's endpoints attach at one port"
        );
    }
    check_size(Some(k), spec)?;
    Ok(TopologySpec::Fly { k, n })
}

fn check_size(n: Option<usize>, spec: &str) -> Result<usize> {
    match n {
        Some(n) if n <= MAX_SWITCHES => Ok(n),
        _ => spec_err!(
            "'{spec}' has more than {MAX_SWITCHES} switches, too many to build: choose smaller radices"
        ),
    }
}

fn parse_uint(text: &str, what: &str, spec: &str) -> Result<usize> {
    match text.trim().parse::<usize>() {
        Ok(v) => Ok(v),
        Err(_) => spec_err!("{what} '{text}' in '{spec}' is not a non-negative integer"),
    }
}

fn parse_hypercube(rest: &str, spec: &str) -> Result<TopologySpec> {
    let n = parse_uint(rest, "dimension", spec)?;
    if n == 0 || (1usize << n.min(63)) > MAX_SWITCHES {
        return spec_err!("hypercube dimension {n} in '{spec}' is out of range: use 1 to 24");
    }
    Ok(TopologySpec::Hypercube(n))
}

fn parse_ibt(rest: &str, spec: &str) -> Result<TopologySpec> {
    let Some((dims, b)) = rest.split_once(':') else {
        return spec_err!("'{spec}' gives no bypass scheme: write ibt:64x64:b=8,24");
    };
    let Some(b) = b.trim().strip_prefix("b=") else {
        return spec_err!("'{spec}': the bypass scheme must be written b=L1,L2,... e.g. b=8,24");
    };
    let dims = parse_dims(dims, spec)?;
    let b = b
        .split(',')
        .map(|x| parse_uint(x, "bypass length", spec))
        .collect::<Result<Vec<_>>>()?;
    let params = IbtParams { dims, b };
    params.validate(spec)?;
    Ok(TopologySpec::Ibt(params))
}

/// Splits `key=value,key=value` and hands each pair to `set`, which rejects unknown keys.
pub fn parse_key_values(
    text: &str,
    spec: &str,
    mut set: impl FnMut(&str, &str) -> Result<()>,
) -> Result<()> {
    let mut seen: Vec<&str> = Vec::new();
    for pair in text.split(',').filter(|s| !s.trim().is_empty()) {
        let Some((k, v)) = pair.split_once('=') else {
            return spec_err!("'{pair}' in '{spec}' is not key=value");
        };
        if seen.contains(&k.trim()) {
            return spec_err!(
                "key '{}' is given twice in '{spec}': give it once",
                k.trim()
            );
        }
        seen.push(k.trim());
        set(k.trim(), v.trim())?;
    }
    Ok(())
}

fn parse_irregular(rest: &str, spec: &str) -> Result<TopologySpec> {
    let mut p = IrregularParams {
        switches: 0,
        ports: 0,
        nodes: 0,
        conn: 0.8,
        seed: 1,
    };
    let mut given = [false; 3];
    parse_key_values(rest, spec, |k, v| {
        match k {
            "switches" => (p.switches, given[0]) = (parse_uint(v, k, spec)?, true),
            "ports" => (p.ports, given[1]) = (parse_uint(v, k, spec)?, true),
            "nodes" => (p.nodes, given[2]) = (parse_uint(v, k, spec)?, true),
            "seed" => p.seed = parse_uint(v, k, spec)? as u64,
            "conn" => {
                p.conn = match v.parse::<f64>() {
                    Ok(c) if (0.0..=1.0).contains(&c) => c,
                    _ => return spec_err!("conn={v} in '{spec}' must be a fraction from 0 to 1"),
                }
            }
            _ => {
                return spec_err!(
                "unknown key '{k}' in '{spec}': irregular takes switches, ports, nodes, conn, seed"
            )
            }
        }
        Ok(())
    })?;
    if given.contains(&false) {
        return spec_err!(
            "'{spec}' must give switches, ports and nodes, e.g. irregular:switches=8,ports=8,nodes=32"
        );
    }
    p.validate(spec)?;
    Ok(TopologySpec::Irregular(p))
}

fn parse_fattree(rest: &str, spec: &str) -> Result<TopologySpec> {
    let (mut k, mut levels, mut taper) = (None, None, 1);
    parse_key_values(rest, spec, |key, v| {
        match key {
            "k" => k = Some(parse_uint(v, key, spec)?),
            "levels" | "n" => levels = Some(parse_uint(v, key, spec)?),
            "taper" => taper = parse_uint(v, key, spec)?,
            _ => {
                return spec_err!("unknown key '{key}' in '{spec}': fattree takes k, levels, taper")
            }
        }
        Ok(())
    })?;
    let (Some(k), Some(levels)) = (k, levels) else {
        return spec_err!("'{spec}' must give k and levels, e.g. fattree:k=4,levels=3");
    };
    let p = FatTreeParams { k, levels, taper };
    p.validate(spec)?;
    Ok(TopologySpec::FatTree(p))
}

fn parse_dragonfly(rest: &str, spec: &str) -> Result<TopologySpec> {
    let mut v = [None::<usize>; 4];
    let mut arrangement = Arrangement::Absolute;
    parse_key_values(rest, spec, |key, val| {
        let slot = match key {
            "p" => 0,
            "a" => 1,
            "h" => 2,
            "g" => 3,
            "arrangement" => {
                arrangement = Arrangement::parse(val, spec)?;
                return Ok(());
            }
            _ => {
                return spec_err!(
                    "unknown key '{key}' in '{spec}': dragonfly takes p, a, h, g, arrangement"
                )
            }
        };
        v[slot] = Some(parse_uint(val, key, spec)?);
        Ok(())
    })?;
    let [Some(p), Some(a), Some(h), g] = v else {
        return spec_err!("'{spec}' must give p, a and h, e.g. dragonfly:p=2,a=4,h=2");
    };
    let g = g.unwrap_or(a.saturating_mul(h).saturating_add(1));
    let params = DragonflyParams {
        p,
        a,
        h,
        g,
        arrangement,
    };
    params.validate(spec)?;
    Ok(TopologySpec::Dragonfly(params))
}

fn parse_flatfly(rest: &str, spec: &str) -> Result<TopologySpec> {
    let (mut k, mut n, mut c) = (None, None, None);
    parse_key_values(rest, spec, |key, v| {
        match key {
            "k" => k = Some(parse_uint(v, key, spec)?),
            "n" => n = Some(parse_uint(v, key, spec)?),
            "c" => c = Some(parse_uint(v, key, spec)?),
            _ => return spec_err!("unknown key '{key}' in '{spec}': flatfly takes k, n, c"),
        }
        Ok(())
    })?;
    let (Some(k), Some(n)) = (k, n) else {
        return spec_err!("'{spec}' must give k and n, e.g. flatfly:k=4,n=2,c=4");
    };
    if k < 2 || n < 1 {
        return spec_err!("flatfly '{spec}': the rule is k >= 2 routers per dimension and n >= 1");
    }
    let dims = vec![k; n];
    check_size(dims.iter().try_fold(1usize, |a, &x| a.checked_mul(x)), spec)?;
    let p = HammingParams {
        dims,
        t: c.unwrap_or(k),
        trunk: 1,
    };
    p.validate(spec)?;
    Ok(TopologySpec::Flatfly(p))
}

fn parse_hyperx(rest: &str, spec: &str) -> Result<TopologySpec> {
    let (dims, options) = rest.split_once(',').unwrap_or((rest, ""));
    let dims = parse_dims(dims, spec)?;
    let (mut t, mut trunk) = (1, 1);
    parse_key_values(options, spec, |key, v| {
        match key {
            "t" => t = parse_uint(v, key, spec)?,
            "k" => trunk = parse_uint(v, key, spec)?,
            _ => return spec_err!("unknown key '{key}' in '{spec}': hyperx takes t and k"),
        }
        Ok(())
    })?;
    let p = HammingParams { dims, t, trunk };
    p.validate(spec)?;
    Ok(TopologySpec::HyperX(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_canonicalises() {
        for s in [
            "mesh:8x8",
            "torus:4x4x4",
            "hypercube:6",
            "ibt:64x64:b=8,24",
            "irregular:switches=8,ports=8,nodes=32,conn=0.8,seed=3",
            "fattree:k=4,levels=3",
            "fattree:k=4,levels=2,taper=2",
            "dragonfly:p=2,a=4,h=2",
            "dragonfly:p=2,a=4,h=2,g=5,arrangement=circulant",
            "flatfly:k=4,n=2,c=4",
            "hyperx:4x4,t=1",
            "hyperx:3x4x5,t=2,k=2",
        ] {
            assert_eq!(TopologySpec::parse(s).unwrap().canonical(), s);
        }
    }

    #[test]
    fn rejects_bad_specs_with_one_line() {
        for s in [
            "mesh",
            "mesh:",
            "mesh:0x4",
            "mesh:1x4",
            "mesh:-3x4",
            "torus:axb",
            "blob:3",
            "hypercube:0",
            "hypercube:40",
            "ibt:64x64",
            "ibt:64x64:b=7",
            "irregular:switches=8",
            "irregular:switches=8,ports=8,nodes=32,conn=2",
            "irregular:switches=8,ports=8,nodes=32,colour=red",
            "torus:100000x100000",
            "file:",
            "fattree:k=1,levels=3",
            "fattree:k=4",
            "dragonfly:p=2,a=4,h=2,g=10",
            "dragonfly:p=2,a=4,h=2,g=4",
            "dragonfly:p=2,a=4,h=2,arrangement=spiral",
            "flatfly:k=1,n=2",
            "hyperx:4x1",
            "hyperx:4x4,t=0",
        ] {
            let e = TopologySpec::parse(s).unwrap_err().to_string();
            assert!(!e.contains('\n'), "{s}: {e}");
            assert!(!e.is_empty());
        }
    }
}
