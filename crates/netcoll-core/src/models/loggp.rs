//! LogGP parameters (Alexandrov, Ionescu, Schauser, Scheiman, 1995), the LogP model of
//! Culler et al. extended with a per-byte gap for long messages. The seeds reason in the
//! postal and alpha-beta models; LogGP is the common currency for comparing them with
//! measured machines (see DESIGN.md, "analytic" engine).
//!
//! - `L`: upper bound on the network latency of a small message;
//! - `o`: processor overhead of sending or receiving a message (busy, cannot overlap);
//! - `g`: gap, the least interval between consecutive message injections (or receptions) at
//!   one processor, so `1/g` is its per-message bandwidth;
//! - `G`: gap per byte of a long message, so `1/G` is the per-processor bandwidth;
//! - `P`: number of processors.

use crate::error::Result;

/// A validated set of LogGP parameters; times in any one unit (microseconds, cycles, ...).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogGP {
    l: f64,
    o: f64,
    g: f64,
    big_g: f64,
    p: u64,
}

fn check_time(name: &str, v: f64) -> Result<()> {
    if !(v.is_finite() && v >= 0.0) {
        return crate::spec_err!("LogGP {name} = {v} is not a finite time >= 0: give one");
    }
    Ok(())
}

impl LogGP {
    /// Checks and stores `(L, o, g, G, P)`: the times finite and non-negative, `P >= 1`.
    pub fn new(l: f64, o: f64, g: f64, big_g: f64, p: u64) -> Result<LogGP> {
        check_time("L", l)?;
        check_time("o", o)?;
        check_time("g", g)?;
        check_time("G", big_g)?;
        if p == 0 {
            return crate::spec_err!("LogGP P = 0: a machine has at least one processor");
        }
        Ok(LogGP { l, o, g, big_g, p })
    }

    /// Network latency `L`.
    pub fn latency(&self) -> f64 {
        self.l
    }

    /// Per-message overhead `o`.
    pub fn overhead(&self) -> f64 {
        self.o
    }

    /// Per-message gap `g`.
    pub fn gap(&self) -> f64 {
        self.g
    }

    /// Per-byte gap `G`.
    pub fn gap_per_byte(&self) -> f64 {
        self.big_g
    }

    /// Processor count `P`.
    pub fn processors(&self) -> u64 {
        self.p
    }

    /// End-to-end time of one `k`-byte message: `o + (k-1) G + L + o`. The sender spends
    /// `o`, injects the first byte and the other `k-1` a gap `G` apart, the last byte is in
    /// flight `L`, and the receiver spends `o`. A zero-byte message is timed as a one-byte
    /// message (`2o + L`, LogP's small message).
    pub fn message_time(&self, k: u64) -> f64 {
        2.0 * self.o + self.l + k.saturating_sub(1) as f64 * self.big_g
    }

    /// The same time as alpha-beta coefficients `(alpha, beta)` with `alpha + k beta`:
    /// `alpha = 2o + L - G`, `beta = G`, exact for `k >= 1`.
    pub fn as_alpha_beta(&self) -> (f64, f64) {
        (2.0 * self.o + self.l - self.big_g, self.big_g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn hand_worked() {
        let m = LogGP::new(5.0, 1.5, 4.0, 0.01, 16).unwrap();
        assert_eq!(m.message_time(1), 8.0);
        assert_eq!(m.message_time(0), 8.0);
        assert!((m.message_time(1001) - 18.0).abs() < 1e-12);
        assert_eq!(
            (
                m.latency(),
                m.overhead(),
                m.gap(),
                m.gap_per_byte(),
                m.processors()
            ),
            (5.0, 1.5, 4.0, 0.01, 16)
        );
    }

    #[test]
    fn bad_input_is_a_one_line_error() {
        for e in [
            LogGP::new(-1.0, 0.0, 0.0, 0.0, 1).unwrap_err(),
            LogGP::new(0.0, f64::NAN, 0.0, 0.0, 1).unwrap_err(),
            LogGP::new(0.0, 0.0, f64::INFINITY, 0.0, 1).unwrap_err(),
            LogGP::new(0.0, 0.0, 0.0, 0.0, 0).unwrap_err(),
        ] {
            let s = e.to_string();
            assert!(!s.is_empty() && !s.contains('\n'), "{s}");
        }
    }

    proptest! {
        #[test]
        fn alpha_beta_form_agrees(l in 0.0f64..100.0, o in 0.0f64..10.0, bg in 0.0f64..1.0, k in 1u64..100_000) {
            let m = LogGP::new(l, o, 1.0, bg, 2).unwrap();
            let (a, b) = m.as_alpha_beta();
            prop_assert!((a + k as f64 * b - m.message_time(k)).abs() < 1e-6);
            prop_assert!(m.message_time(k + 1) >= m.message_time(k));
        }
    }
}
