//! What an algorithm is asked to build.

use super::Params;
use crate::error::Result;
use crate::schedule::CollectiveKind;
use crate::spec_err;
use crate::topology::Topology;

/// A collective from its command-line name (`bcast`, `reduce-scatter`, ...).
pub fn parse_collective(name: &str) -> Result<CollectiveKind> {
    use CollectiveKind::*;
    Ok(match name.to_ascii_lowercase().replace('_', "-").as_str() {
        "bcast" | "broadcast" => Broadcast,
        "multicast" | "mcast" => Multicast,
        "scatter" => Scatter,
        "gather" => Gather,
        "allgather" => Allgather,
        "alltoall-broadcast" | "a2a-broadcast" | "all-to-all-broadcast" => AlltoallBroadcast,
        "reduce" => Reduce,
        "allreduce" => Allreduce,
        "reduce-scatter" | "reducescatter" => ReduceScatter,
        "manytoall" | "many-to-all" | "m2a" => ManyToAll,
        "alltoall" | "all-to-all" => Alltoall,
        "barrier" => Barrier,
        _ => {
            return spec_err!(
                "unknown collective '{name}': use bcast, multicast, scatter, gather, allgather, \
                 alltoall-broadcast, reduce, allreduce, reduce-scatter, manytoall, alltoall or barrier"
            )
        }
    })
}

/// A collective to schedule: `p` ranks placed on endpoints of `topo`.
pub struct AlgoRequest<'a> {
    pub topo: &'a Topology,
    pub kind: CollectiveKind,
    pub p: u32,
    /// Root rank for rooted collectives (0 otherwise).
    pub root: u32,
    /// Endpoint of each rank (length p, distinct endpoints).
    pub placement: Vec<u32>,
    /// Message size in bytes: the root's vector for broadcast/scatter/reduce, each rank's
    /// contribution for gather/allgather, the whole vector for allreduce/reduce-scatter.
    pub bytes: u64,
    /// Packets per message, for pipelined algorithms (1 = unpipelined).
    pub packets: u32,
    /// Multicast destinations (ranks), for `Multicast`.
    pub targets: Vec<u32>,
    /// Many-to-all sources (ranks), for `ManyToAll` (see `algorithms::parse_sources`).
    pub sources: Vec<u32>,
    pub params: Params,
}

impl<'a> AlgoRequest<'a> {
    /// Every endpoint of the topology is a rank, rank i on endpoint i.
    pub fn new(topo: &'a Topology, kind: CollectiveKind) -> AlgoRequest<'a> {
        let p = topo.num_endpoints() as u32;
        AlgoRequest {
            topo,
            kind,
            p,
            root: 0,
            placement: (0..p).collect(),
            bytes: 1024,
            packets: 1,
            targets: Vec::new(),
            sources: Vec::new(),
            params: Params::default(),
        }
    }

    pub fn validate(&self) -> Result<()> {
        let n = self.topo.num_endpoints() as u32;
        if self.p == 0 {
            return spec_err!("a collective needs at least one rank");
        }
        if self.placement.len() != self.p as usize {
            return spec_err!(
                "the placement names {} endpoints for {} ranks: give one endpoint per rank",
                self.placement.len(),
                self.p
            );
        }
        let mut used = vec![false; n as usize];
        for (r, &e) in self.placement.iter().enumerate() {
            if e >= n {
                return spec_err!(
                    "rank {r} is placed on endpoint {e}, but {} has endpoints 0 to {}",
                    self.topo.name(),
                    n - 1
                );
            }
            if std::mem::replace(&mut used[e as usize], true) {
                return spec_err!(
                    "endpoint {e} holds two ranks: place each rank on its own endpoint"
                );
            }
        }
        if self.root >= self.p {
            return spec_err!(
                "root {} is out of range: {} ranks, 0 to {}",
                self.root,
                self.p,
                self.p - 1
            );
        }
        if self.packets == 0 {
            return spec_err!("--packets must be at least 1");
        }
        // A packet carries at least one byte: more packets than bytes would run `bytes`
        // packets while the result still named the number asked for.
        if self.bytes > 0 && self.packets as u64 > self.bytes {
            return spec_err!(
                "--packets {} exceeds --bytes {}: a packet carries at least 1 byte; use \
                 --packets 1 to {} (or more --bytes)",
                self.packets,
                self.bytes,
                self.bytes.min(u32::MAX as u64)
            );
        }
        // Before any builder indexes by them (a target beyond the ranks would panic there).
        if self.kind == CollectiveKind::Multicast {
            crate::schedule::check_targets(&self.targets, self.p)?;
        } else if !self.targets.is_empty() {
            return spec_err!(
                "--dests applies to multicast only, not {}: drop it",
                self.kind.name()
            );
        }
        if self.kind == CollectiveKind::ManyToAll {
            crate::schedule::check_sources(&self.sources, self.p)?;
        } else if !self.sources.is_empty() {
            return spec_err!(
                "--sources applies to manytoall only, not {}: drop it",
                self.kind.name()
            );
        }
        Ok(())
    }
}
