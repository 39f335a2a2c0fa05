//! Networks from files, and any network to a file, in one documented JSON format
//! (docs/topology-format.md):
//!
//! ```json
//! {"format": "netcoll-topology", "version": 1, "name": "two switches",
//!  "switches": [{"ports": 3}, {"ports": 3}],
//!  "endpoints": [[0, 0], [1, 0]],
//!  "links": [[0, 1, 1, 1], [0, 2, 1, 2]],
//!  "shape": []}
//! ```
//!
//! `endpoints[i] = [switch, port]` attaches endpoint `i`; `links[j] = [switch_a, port_a,
//! switch_b, port_b]` is link `j`. `shape` (optional) gives coordinates: switch ids are
//! mixed-radix numbers, dimension 0 fastest.

use super::{Family, PortRef, Topology, TopologyBuilder};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

pub const FORMAT: &str = "netcoll-topology";
pub const VERSION: u32 = 1;

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopologyFile {
    pub format: String,
    pub version: u32,
    #[serde(default)]
    pub name: Option<String>,
    pub switches: Vec<SwitchEntry>,
    pub endpoints: Vec<[u32; 2]>,
    pub links: Vec<[u32; 4]>,
    #[serde(default)]
    pub shape: Vec<usize>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwitchEntry {
    pub ports: usize,
}

/// Reads `path`; every problem is a one-line error naming the file.
pub fn load(path: &str) -> Result<Topology> {
    let text = crate::guard::read_text(path, "topology file", crate::guard::MAX_INPUT_BYTES)?;
    from_json(&text, path)
}

/// Parses the JSON text of a topology file; `origin` names it in errors.
pub fn from_json(text: &str, origin: &str) -> Result<Topology> {
    let file: TopologyFile = serde_json::from_str(text).map_err(|e| {
        Error::Io(format!(
            "topology file '{origin}' is not a valid netcoll-topology document: {e}"
        ))
    })?;
    if file.format != FORMAT || file.version != VERSION {
        return Err(Error::Io(format!(
            "topology file '{origin}' has format '{}' version {}: expected '{FORMAT}' version {VERSION}",
            file.format, file.version
        )));
    }
    build(&file, origin).map_err(|e| Error::Invalid(format!("topology file '{origin}': {e}")))
}

fn build(file: &TopologyFile, origin: &str) -> Result<Topology> {
    if file.switches.is_empty() {
        return Err(Error::Invalid("it has no switches".into()));
    }
    let n = file.switches.len();
    let product = file.shape.iter().try_fold(1usize, |a, &k| a.checked_mul(k));
    if !file.shape.is_empty() && (product != Some(n) || file.shape.contains(&0)) {
        return Err(Error::Invalid(format!(
            "shape {:?} does not multiply to its {n} switches",
            file.shape
        )));
    }
    let mut b = TopologyBuilder::new(file.switches.iter().map(|s| s.ports))?;
    for &[sa, pa, sb, pb] in &file.links {
        b.link(pref(sa, pa), pref(sb, pb))?;
    }
    for &[s, p] in &file.endpoints {
        b.endpoint(pref(s, p))?;
    }
    let name = file
        .name
        .clone()
        .unwrap_or_else(|| format!("file:{origin}"));
    let family = Family::File {
        path: origin.to_string(),
    };
    b.finish(name, family, file.shape.clone())
}

fn pref(switch: u32, port: u32) -> PortRef {
    PortRef { switch, port }
}

/// Any network in the file format.
pub fn to_file(topo: &Topology) -> TopologyFile {
    TopologyFile {
        format: FORMAT.into(),
        version: VERSION,
        name: Some(topo.name().to_string()),
        switches: (0..topo.num_switches())
            .map(|s| SwitchEntry {
                ports: topo.num_ports(s),
            })
            .collect(),
        endpoints: topo
            .endpoints()
            .iter()
            .map(|e| [e.switch, e.port])
            .collect(),
        links: topo
            .links()
            .iter()
            .map(|l| [l.a.switch, l.a.port, l.b.switch, l.b.port])
            .collect(),
        shape: topo.shape().to_vec(),
    }
}

pub fn to_json(topo: &Topology) -> String {
    serde_json::to_string(&to_file(topo)).expect("topology files always serialise")
}
