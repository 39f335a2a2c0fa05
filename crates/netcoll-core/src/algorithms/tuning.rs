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
    TUNERS.get_or_init(|| [Vec::<Tuner>::new()].into_iter().flatten().collect())
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
