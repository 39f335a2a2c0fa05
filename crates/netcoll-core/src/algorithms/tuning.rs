//! Candidate parameter sets for the tuner.
//!
//! An algorithm with parameters (a hybrid's factorisation and strategy, a tree's k, ...) is
//! tried by the tuner with every parameter set its family proposes here; an algorithm with no
//! entry is tried once, with its defaults. A family adds an entry to [`tuners`] (one line,
//! like the registry): `Tuner { algo, kinds, candidates }`, where `candidates` returns the
//! parameter sets worth trying for a request (the tuner skips those whose preconditions fail).

use super::{AlgoRequest, Algorithm, Params};
use crate::schedule::CollectiveKind;
use std::sync::OnceLock;

pub struct Tuner {
    pub algo: &'static str,
    pub kinds: &'static [CollectiveKind],
    pub candidates: fn(&AlgoRequest) -> Vec<Params>,
}

/// Every family's tuners.
pub fn tuners() -> &'static [Tuner] {
    static TUNERS: OnceLock<Vec<Tuner>> = OnceLock::new();
    TUNERS.get_or_init(|| [intercom_hybrid()].into_iter().flatten().collect())
}

/// InterCom hybrids (seed 001 s6): every ordered factorisation of p into at most three
/// factors >= 2, with both strategy shapes (`S^(k-1) M C^(k-1)` and `S^k C^k`), as enumerated
/// by [`crate::models::hockney::hybrid_broadcast_options`]. Inert until the intercom family
/// registers `intercom-hybrid`.
fn intercom_hybrid() -> Vec<Tuner> {
    use CollectiveKind::*;
    vec![Tuner {
        algo: "intercom-hybrid",
        kinds: &[Broadcast, Reduce, Allreduce, Allgather, ReduceScatter],
        candidates: hybrid_candidates,
    }]
}

fn hybrid_candidates(req: &AlgoRequest) -> Vec<Params> {
    let Ok(options) = crate::models::hockney::hybrid_broadcast_options(req.p as u64, 3) else {
        return vec![Params::default()];
    };
    options
        .iter()
        .map(|o| {
            let dims: Vec<String> = o.dims.iter().map(|d| d.to_string()).collect();
            let mut p = Params::default();
            p.set("dims", dims.join("x"));
            p.set("strategy", &o.strategy);
            p
        })
        .collect()
}

/// The parameter sets to try for `algo` on `req`: its family's proposal, else its defaults.
pub fn candidates(algo: &Algorithm, req: &AlgoRequest) -> Vec<Params> {
    let found = tuners()
        .iter()
        .find(|t| t.algo == algo.name && t.kinds.contains(&req.kind));
    match found {
        Some(t) => (t.candidates)(req),
        None => vec![Params::default()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::Topology;

    #[test]
    fn hybrid_candidates_cover_every_factorisation_and_strategy() {
        let t = Topology::from_spec("mesh:12").unwrap();
        let req = AlgoRequest::new(&t, CollectiveKind::Broadcast);
        let c = hybrid_candidates(&req);
        let has = |d: &str, s: &str| {
            c.iter()
                .any(|p| p.text("dims", "") == d && p.text("strategy", "") == s)
        };
        assert!(has("12", "M") && has("2x6", "SMC") && has("2x6", "SSCC"));
        assert!(has("2x2x3", "SSMCC") && has("3x2x2", "SSSCCC"));
        assert!(c.iter().all(|p| p.text("dims", "").split('x').count() <= 3));
    }
}
