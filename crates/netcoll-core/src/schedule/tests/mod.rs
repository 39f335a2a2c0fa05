//! Tests of the IR as a whole: hand-built schedules that must verify, broken variants that
//! must fail with their specific diagnosis, JSON round trips, and property tests.

mod broken;
mod correct;
mod examples;
mod json;
mod props;
