//! The verifier: executes a schedule symbolically and proves the collective's postcondition.
//!
//! Checks run in this order and stop at the first failure, which becomes a one-line diagnosis
//! naming the rank, the op and the block:
//! 1. matching: each packet of each message is sent once by its source and received once by
//!    each destination, and by nobody else;
//! 2. order: explicit dependencies plus message edges form no cycle (a cycle is a deadlock),
//!    and steps, where given, never decrease along them;
//! 3. data: every send and compute op uses only what its rank holds at that op (causally),
//!    compute outputs follow from their inputs, reductions never count a contributor twice;
//! 4. postcondition: every rank ends with what the collective promises, XOR decoding included.
//!
//! Malformed references (unknown ranks, messages, blocks) never get this far: the builder
//! rejects them.

mod data;
mod knowledge;
mod matching;
mod order;
mod post;
mod stream;

pub use stream::StreamVerifier;

use serde::{Deserialize, Serialize};

use super::counts::Counts;
use super::ir::Schedule;
use crate::error::{Error, Result};

/// A one-line explanation of why a schedule is wrong.
pub(crate) type Diagnosis = String;

/// What the verifier found, with the counters engines start from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    pub ok: bool,
    /// Why the schedule is wrong, when it is.
    pub diagnosis: Option<String>,
    pub counts: Counts,
}

impl Report {
    /// The report if the schedule is correct, else its diagnosis as an [`Error::Invalid`].
    pub fn into_result(self) -> Result<Report> {
        match self.diagnosis {
            Some(d) => Err(Error::Invalid(d)),
            None => Ok(self),
        }
    }
}

/// Verifies `s`: see the module documentation for what is checked.
pub fn verify(s: &Schedule) -> Report {
    let diagnosis = run(s).err();
    Report {
        ok: diagnosis.is_none(),
        diagnosis,
        counts: Counts::of(s),
    }
}

fn run(s: &Schedule) -> std::result::Result<(), Diagnosis> {
    let graph = matching::check(s)?;
    let order = order::topological(s, &graph)?;
    order::check_steps(s, &graph)?;
    data::check(s, &graph, &order)?;
    post::check(s)
}

impl Schedule {
    /// Shorthand for [`verify`]; records the verdict for [`Schedule::is_correct`].
    pub fn verify(&self) -> Report {
        let report = verify(self);
        let _ = self.proved.set(report.ok);
        report
    }

    /// Whether the schedule is correct: the recorded verdict (schedules from
    /// `algorithms::build` were proved when built), else the verifier's.
    pub fn is_correct(&self) -> bool {
        *self.proved.get_or_init(|| verify(self).ok)
    }
}
