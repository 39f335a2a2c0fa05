//! The request arguments every binding takes (collective, ranks, root, sizes, parameters,
//! placement, targets), turned into an `AlgoRequest` in one place.

use netcoll_core::algorithms::{parse_collective, AlgoRequest, Params};
use netcoll_core::Topology;

pub(crate) struct RequestArgs {
    pub op: String,
    /// Ranks; `None` = every endpoint.
    pub p: Option<u32>,
    pub root: u32,
    pub nbytes: u64,
    pub packets: u32,
    /// `key=value` algorithm parameters.
    pub params: Vec<String>,
    /// Endpoint of each rank; `None` = rank i on endpoint i.
    pub placement: Option<Vec<u32>>,
    pub targets: Vec<u32>,
    /// Many-to-all sources: a rank list, `all` or `random:COUNT,seed=S`.
    pub sources: Option<String>,
}

impl RequestArgs {
    /// The request as given; `algorithms::build` validates it.
    pub fn request<'a>(&self, t: &'a Topology) -> netcoll_core::Result<AlgoRequest<'a>> {
        let mut req = AlgoRequest::new(t, parse_collective(&self.op)?);
        if let Some(p) = self.p {
            req.p = p;
            req.placement = (0..p).collect();
        }
        if let Some(pl) = &self.placement {
            req.placement = pl.clone();
        }
        req.root = self.root;
        req.bytes = self.nbytes;
        req.packets = self.packets;
        req.targets = self.targets.clone();
        // A multicast to nobody would "verify" with no messages: refuse it at the border (the
        // core keeps the empty multicast as a degenerate case for its own tests).
        if req.kind == netcoll_core::schedule::CollectiveKind::Multicast && req.targets.is_empty() {
            return Err(netcoll_core::Error::Spec(
                "a multicast needs at least one destination: give --dests 1,4,7 or \
                 random:COUNT,seed=S (targets= in the Python API)"
                    .into(),
            ));
        }
        req.params = Params::parse(&self.params)?;
        if let Some(spec) = &self.sources {
            req.sources = netcoll_core::algorithms::parse_sources(spec, req.p)?;
        }
        Ok(req)
    }
}
