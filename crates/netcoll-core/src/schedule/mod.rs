//! The schedule IR: what every algorithm produces and every engine consumes.
//!
//! A [`Schedule`] implements a [`Collective`] on `p` ranks. Each rank has an ordered list of
//! [`Op`]s (send, receive, compute) with explicit dependencies on other ops, named by
//! [`OpRef`] `(rank, index)`. Sends and receives refer to [`Message`]s, which carry symbolic
//! payloads ([`Piece`]s: GF(2) combinations of blocks or partial reductions) split into
//! packets. [`verify`] proves that a schedule does what its collective promises; [`Counts`]
//! summarises it; `to_json`/`from_json` store it in the versioned format of `docs/schedule.md`.
//!
//! Write schedules with [`ScheduleBuilder`]:
//!
//! ```
//! use netcoll_core::schedule::{CollectiveKind, ScheduleBuilder};
//! // Broadcast from rank 0 to ranks 1 and 2 with one NI multi-send.
//! let mut b = ScheduleBuilder::new(CollectiveKind::Broadcast, 3, 0);
//! let data = b.block(0, 0);
//! let s = b.send(0, &[1, 2], &[data], &[]);
//! b.recv(1, s, &[]);
//! b.recv(2, s, &[]);
//! let report = b.build().unwrap().verify();
//! assert!(report.ok, "{:?}", report.diagnosis);
//! assert_eq!((report.counts.messages, report.counts.ni_messages), (2, 1));
//! ```

mod buffer;
mod builder;
mod collective;
mod counts;
pub mod formats;
mod gf2;
mod ir;
mod json;
mod payload;
mod rangeset;
mod rounds;
mod sink;
mod verify;

#[cfg(test)]
mod tests;

pub use buffer::{Buffer, Slot};
pub use builder::{ScheduleBuilder, BYTES_PER_MESSAGE, BYTES_PER_PIECE};
pub use collective::{check_sources, check_targets};
pub use collective::{BlockId, Collective, CollectiveKind};
pub use counts::Counts;
pub use gf2::Basis;
pub use ir::{
    ComputeOp, Message, MsgId, Op, OpKind, OpRef, PacketRange, Schedule, Span, Worm, WormHop,
};
pub use json::{FORMAT, VERSION};
pub use payload::{reduce_pieces, Piece, ReduceError};
pub use rangeset::RangeSet;
pub use rounds::{Round, RoundPlan, Unicast};
pub use sink::{RoundSink, Tee, Transfer};
pub use verify::{verify, Report, StreamVerifier};
