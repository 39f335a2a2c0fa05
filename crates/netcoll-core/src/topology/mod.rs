//! Networks: switches (routers) with numbered ports, endpoints (hosts, NICs) attached to ports,
//! and full-duplex links between ports of different switches.
//!
//! One flat representation serves every family, so routing, metrics and engines never need to
//! know which family built the network. Direct networks (mesh, torus, iBT, hypercube) have one
//! endpoint per router, on the router's last port; endpoint `i` sits on router `i`.

mod bfs;
mod build;
mod cmesh;
pub mod dragonfly;
mod fattree;
pub mod file;
mod flatfly;
mod fly;
mod hypercube;
mod hyperx;
pub use hyperx::dim_port as hyperx_port;
mod ibt;
mod irregular;
mod mesh_torus;
pub use cmesh::{CMESH_C, CMESH_PX};
pub mod metrics;
mod network_metrics;

pub use crate::params::IbtParams;
pub use crate::params::IrregularParams;
pub use crate::params::{Arrangement, DragonflyParams, FatTreeParams, HammingParams};
pub use build::TopologyBuilder;

use crate::error::{Error, Result};
use crate::spec::TopologySpec;
use serde::Serialize;

/// The family a network was built from, with the parameters that define it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "family", rename_all = "lowercase")]
pub enum Family {
    Mesh {
        dims: Vec<usize>,
    },
    Torus {
        dims: Vec<usize>,
    },
    /// BookSim's concentrated mesh, `k x k` routers of 4 nodes (cmesh.rs).
    Cmesh {
        k: usize,
    },
    /// BookSim's k-ary n-fly (fly.rs).
    Fly {
        k: usize,
        n: usize,
    },
    Hypercube {
        dim: usize,
    },
    Ibt(IbtParams),
    Irregular(IrregularParams),
    FatTree(FatTreeParams),
    Dragonfly(DragonflyParams),
    Flatfly(HammingParams),
    HyperX(HammingParams),
    File {
        path: String,
    },
}

/// What a link is for, as real machines and BookSim's latency keys distinguish them: links
/// inside a group or a dimension (local), between dragonfly groups (global), and between
/// fat-tree levels (tree: its `a` end is the child, so channel `2*id` goes up).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LinkClass {
    Local,
    Global,
    Tree,
}

/// The class of a directed channel: a tree link's two directions are `up` and `down`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChannelClass {
    Local,
    Global,
    Up,
    Down,
}

impl ChannelClass {
    pub const ALL: [ChannelClass; 4] = [
        ChannelClass::Local,
        ChannelClass::Global,
        ChannelClass::Up,
        ChannelClass::Down,
    ];
    pub fn name(self) -> &'static str {
        match self {
            ChannelClass::Local => "local",
            ChannelClass::Global => "global",
            ChannelClass::Up => "up",
            ChannelClass::Down => "down",
        }
    }
}

/// What is on the other side of a switch port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Peer {
    /// Unconnected.
    Open,
    /// An endpoint (host) with this id.
    Endpoint(u32),
    /// A port of another switch, over link `link`.
    Switch { switch: u32, port: u32, link: u32 },
}

/// A switch port: (switch id, local port number).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct PortRef {
    pub switch: u32,
    pub port: u32,
}

/// A full-duplex switch-to-switch link. Its two directed channels are `2*id` (a -> b) and
/// `2*id + 1` (b -> a).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Link {
    pub a: PortRef,
    pub b: PortRef,
}

/// A network. Built once, then read-only.
#[derive(Debug, Clone)]
pub struct Topology {
    name: String,
    family: Family,
    /// CSR offsets: the ports of switch `s` are `port_start[s]..port_start[s + 1]`.
    port_start: Vec<u32>,
    /// Per global port index: what it connects to.
    peers: Vec<Peer>,
    /// Per endpoint: where it is attached.
    endpoints: Vec<PortRef>,
    links: Vec<Link>,
    /// Per link: its class (all `Local` in the families that do not distinguish).
    link_classes: Vec<LinkClass>,
    /// CSR adjacency over switches (neighbour switch, local port, link id), switch links only.
    adj_start: Vec<u32>,
    adj: Vec<Neighbour>,
    /// Radices of the coordinate families (dimension 0 varies fastest), empty otherwise.
    shape: Vec<usize>,
}

/// One switch-to-switch adjacency seen from a switch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Neighbour {
    pub switch: u32,
    pub port: u32,
    pub link: u32,
}

impl Topology {
    /// Builds a network from a spec string such as `torus:8x8` or `ibt:64x64:b=8,24`.
    pub fn from_spec(spec: &str) -> Result<Topology> {
        Self::from_parsed(&TopologySpec::parse(spec)?)
    }

    pub fn from_parsed(spec: &TopologySpec) -> Result<Topology> {
        Self::build_parsed(spec).map_err(|e| match e {
            Error::TooLarge(m) if !matches!(spec, TopologySpec::File(_)) => {
                Error::TooLarge(format!("{}: {m}", spec.canonical()))
            }
            e => e,
        })
    }

    fn build_parsed(spec: &TopologySpec) -> Result<Topology> {
        match spec {
            TopologySpec::Mesh(dims, c) => mesh_torus::build(dims, *c, false),
            TopologySpec::Torus(dims, c) => mesh_torus::build(dims, *c, true),
            TopologySpec::Cmesh { k } => cmesh::build(*k),
            TopologySpec::Fly { k, n } => fly::build(*k, *n),
            TopologySpec::Hypercube(dim) => hypercube::build(*dim),
            TopologySpec::Ibt(p) => ibt::build(p),
            TopologySpec::Irregular(p) => irregular::build(p),
            TopologySpec::FatTree(p) => fattree::build(p),
            TopologySpec::Dragonfly(p) => dragonfly::build(p),
            TopologySpec::Flatfly(p) => flatfly::build(p),
            TopologySpec::HyperX(p) => hyperx::build(p),
            TopologySpec::File(path) => file::load(path),
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }
    pub fn family(&self) -> &Family {
        &self.family
    }
    pub fn num_switches(&self) -> usize {
        self.port_start.len() - 1
    }
    pub fn num_endpoints(&self) -> usize {
        self.endpoints.len()
    }
    pub fn num_links(&self) -> usize {
        self.links.len()
    }
    pub fn links(&self) -> &[Link] {
        &self.links
    }
    pub fn endpoints(&self) -> &[PortRef] {
        &self.endpoints
    }
    /// The switch an endpoint is attached to.
    pub fn endpoint_switch(&self, endpoint: usize) -> usize {
        self.endpoints[endpoint].switch as usize
    }
    pub fn num_ports(&self, switch: usize) -> usize {
        (self.port_start[switch + 1] - self.port_start[switch]) as usize
    }
    pub fn total_ports(&self) -> usize {
        self.peers.len()
    }
    pub fn peer(&self, switch: usize, port: usize) -> Peer {
        self.peers[self.port_start[switch] as usize + port]
    }
    /// Switch-to-switch neighbours of `switch`, in port order.
    pub fn neighbours(&self, switch: usize) -> &[Neighbour] {
        &self.adj[self.adj_start[switch] as usize..self.adj_start[switch + 1] as usize]
    }
    /// Number of switch-to-switch links at `switch` (its network degree).
    pub fn degree(&self, switch: usize) -> usize {
        self.neighbours(switch).len()
    }
    /// Endpoints attached to each switch.
    pub fn endpoints_per_switch(&self) -> Vec<u32> {
        let mut count = vec![0u32; self.num_switches()];
        for e in &self.endpoints {
            count[e.switch as usize] += 1;
        }
        count
    }
    /// Endpoints per switch of a family that gives every switch the same number (mesh and
    /// torus with `,c=C`, cmesh, flatfly): the endpoints over the switches.
    pub fn concentration(&self) -> usize {
        self.num_endpoints() / self.num_switches()
    }
    /// Radices of a coordinate family (mesh, torus, iBT, hypercube as 2x2x...); empty otherwise.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }
    /// Coordinates of a switch in a coordinate family, dimension 0 first.
    pub fn coords(&self, switch: usize) -> Option<Vec<usize>> {
        if self.shape.is_empty() {
            return None;
        }
        Some(coords_of(switch, &self.shape))
    }
    /// The directed channel id for leaving `from` over `link`.
    pub fn channel(&self, link: u32, from: u32) -> u32 {
        let l = &self.links[link as usize];
        if l.a.switch == from {
            2 * link
        } else {
            debug_assert_eq!(l.b.switch, from);
            2 * link + 1
        }
    }
    /// The spec of a family built from one (None for files).
    pub fn family_spec(&self) -> Option<TopologySpec> {
        Some(match &self.family {
            Family::Mesh { dims } => TopologySpec::Mesh(dims.clone(), self.concentration()),
            Family::Torus { dims } => TopologySpec::Torus(dims.clone(), self.concentration()),
            Family::Cmesh { k } => TopologySpec::Cmesh { k: *k },
            Family::Fly { k, n } => TopologySpec::Fly { k: *k, n: *n },
            Family::Hypercube { dim } => TopologySpec::Hypercube(*dim),
            Family::Ibt(p) => TopologySpec::Ibt(p.clone()),
            Family::Irregular(p) => TopologySpec::Irregular(p.clone()),
            Family::FatTree(p) => TopologySpec::FatTree(p.clone()),
            Family::Dragonfly(p) => TopologySpec::Dragonfly(p.clone()),
            Family::Flatfly(p) => TopologySpec::Flatfly(p.clone()),
            Family::HyperX(p) => TopologySpec::HyperX(p.clone()),
            Family::File { .. } => return None,
        })
    }
    pub fn link_class(&self, link: u32) -> LinkClass {
        self.link_classes[link as usize]
    }
    /// The class of a directed channel (see [`ChannelClass`]).
    pub fn channel_class(&self, channel: u32) -> ChannelClass {
        match (self.link_classes[(channel / 2) as usize], channel % 2) {
            (LinkClass::Local, _) => ChannelClass::Local,
            (LinkClass::Global, _) => ChannelClass::Global,
            (LinkClass::Tree, 0) => ChannelClass::Up,
            (LinkClass::Tree, _) => ChannelClass::Down,
        }
    }
    /// Source and target switch of a directed channel.
    pub fn channel_ends(&self, channel: u32) -> (PortRef, PortRef) {
        let l = &self.links[(channel / 2) as usize];
        if channel % 2 == 0 {
            (l.a, l.b)
        } else {
            (l.b, l.a)
        }
    }
}

/// Mixed-radix coordinates of `index`, dimension 0 varying fastest.
pub fn coords_of(mut index: usize, shape: &[usize]) -> Vec<usize> {
    shape
        .iter()
        .map(|&k| {
            let c = index % k;
            index /= k;
            c
        })
        .collect()
}

/// Inverse of [`coords_of`].
pub fn index_of(coords: &[usize], shape: &[usize]) -> usize {
    coords
        .iter()
        .zip(shape)
        .rev()
        .fold(0, |acc, (&c, &k)| acc * k + c)
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod network_tests;
