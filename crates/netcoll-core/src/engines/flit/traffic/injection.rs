//! When nodes generate packets: BookSim's `injection_process` (injection.cpp).
//!
//! * `bernoulli` (the default): a coin of the packet rate every cycle (traffic.rs samples it
//!   as geometric gaps).
//! * `on_off`: a two-state Markov chain per node. Every cycle the state moves first (off to
//!   on with probability `alpha`, on to off with probability `beta`), then a node that is on
//!   generates with probability `r1`. Two of `burst_alpha`, `burst_beta`, `burst_r1` are
//!   given (the third is -1, or, with the defaults alpha = beta = 0.5 and r1 = -1, r1 is the
//!   one derived) and the third follows from the packet rate `p`, so that the long-run rate
//!   is `p`: `r1 = p (alpha + beta) / alpha`, `alpha = beta p / (r1 - p)` or
//!   `beta = alpha (r1 - p) / p`. Each node starts on or off with probability 1/2, drawn
//!   from the run's seed. `on_off({alpha,beta})` and `on_off({alpha,beta,r1})` give the
//!   parameters in the value (`on_off({0.2,0.2})`), as BookSim reads them.
//!
//! The on/off process is sampled as BookSim's per-cycle chain would run, but a gap at a
//! time: the on stretches and off stretches last geometric numbers of cycles and the
//! generations in an on stretch are Bernoulli, so a node costs nothing in the cycles it
//! stays silent (as the Bernoulli gaps do). After a generation the node is on, so the only
//! state a node keeps is its start.

use super::config_enums::InjectionSpec;
use super::geometric::steps_by_log;
use super::pattern_registry::arg_items;
use crate::error::Result;
use crate::spec_err;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

impl InjectionSpec {
    /// Reads an `injection_process` value: `bernoulli`, `on_off` or `on_off({a,b,r1})`.
    pub fn parse(v: &str) -> Result<InjectionSpec> {
        let (name, args) = match v.split_once('(') {
            Some((n, rest)) => (n.trim(), rest.trim_end().trim_end_matches(')')),
            None => (v.trim(), ""),
        };
        match name {
            "bernoulli" if args.is_empty() => Ok(InjectionSpec::Bernoulli),
            "bernoulli" => spec_err!("injection_process = {v}: bernoulli takes no arguments"),
            "on_off" => {
                let params = arg_items(&format!("injection_process = {v}"), args)?;
                if params.len() > 3 {
                    return spec_err!(
                        "injection_process = {v}: on_off takes at most 3 arguments \
                         (alpha, beta, r1); the start states are drawn from the seed"
                    );
                }
                let nums = params
                    .iter()
                    .map(|p| {
                        p.trim().parse::<f64>().map_err(|_| {
                            crate::error::Error::Spec(format!(
                                "injection_process = {v}: '{p}' is not a number; write \
                                 on_off({{alpha,beta}}) or on_off({{alpha,beta,r1}})"
                            ))
                        })
                    })
                    .collect::<Result<Vec<f64>>>()?;
                Ok(InjectionSpec::OnOff(nums))
            }
            o => {
                let near = super::registry::nearest(o, ["bernoulli", "on_off"])
                    .map(|n| format!("did you mean {n}? "))
                    .unwrap_or_default();
                spec_err!(
                    "injection_process = {o}: {near}BookSim's processes are bernoulli and on_off"
                )
            }
        }
    }
}

/// An on/off process with its three parameters resolved for a packet rate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OnOff {
    pub alpha: f64,
    pub beta: f64,
    pub r1: f64,
}

impl OnOff {
    /// Resolves the parameters BookSim's way: arguments first, then the keys; exactly one
    /// of the three must be negative (derived from `rate`).
    pub fn resolve(args: &[f64], keys: [f64; 3], rate: f64) -> Result<OnOff> {
        let pick = |i: usize| args.get(i).copied().unwrap_or(keys[i]);
        let (a, b, r) = (pick(0), pick(1), pick(2));
        let negatives = [a, b, r].iter().filter(|&&x| x < 0.0).count();
        if negatives != 1 {
            return spec_err!(
                "injection_process = on_off with burst_alpha = {a}, burst_beta = {b}, \
                 burst_r1 = {r}: give exactly two of the three and set the third to -1 \
                 (BookSim derives it from injection_rate)"
            );
        }
        for (key, x) in [("burst_alpha", a), ("burst_beta", b), ("burst_r1", r)] {
            if x > 1.0 || x.is_nan() {
                return spec_err!("{key} = {x}: a probability, from 0 to 1 (or -1 to derive it)");
            }
        }
        let p = OnOff {
            alpha: if a < 0.0 { b * rate / (r - rate) } else { a },
            beta: if b < 0.0 { a * (r - rate) / rate } else { b },
            r1: if r < 0.0 { rate * (a + b) / a } else { r },
        };
        for (key, x) in [
            ("burst_alpha", p.alpha),
            ("burst_beta", p.beta),
            ("burst_r1", p.r1),
        ] {
            // BookSim asserts nothing here; a derived r1 above 1 would only lower the rate
            // the process offers, a derived alpha or beta outside [0, 1] is no chain.
            if !(0.0..=1.0).contains(&x) {
                return spec_err!(
                    "injection_process = on_off: {key} comes out as {x} at packet rate {rate} \
                     (it must lie in 0..1); raise burst_alpha, lower burst_beta or raise \
                     burst_r1, or lower injection_rate"
                );
            }
        }
        Ok(p)
    }

    /// Cycles from a cycle in which the node was in `on` to its next generation, or None
    /// if it never generates again.
    pub fn gap(&self, mut on: bool, rng: &mut ChaCha8Rng) -> Option<u64> {
        if self.r1 <= 0.0 {
            // No on cycle ever generates (a zero rate): stop before cycling on and off.
            return None;
        }
        let mut elapsed = 0u64;
        loop {
            if on {
                // Cycles the node stays on after this one, then the first generation.
                let stay = geometric0(self.beta, rng);
                if let Some(g) = geometric0(self.r1, rng).map(|x| x + 1) {
                    if stay.is_none_or(|s| g <= s) {
                        return Some(elapsed + g);
                    }
                }
                elapsed = elapsed.checked_add(stay? + 1)?;
                on = false;
            } else {
                // Cycles off after this one; the next cycle is on and may generate.
                let off = geometric0(self.alpha, rng)?;
                elapsed = elapsed.checked_add(off + 1)?;
                if rng.random::<f64>() < self.r1 {
                    return Some(elapsed);
                }
                on = true;
            }
        }
    }
}

/// Failures before the first success of a coin of probability `p` (0, 1, ...), or None
/// for a coin that never succeeds.
fn geometric0(p: f64, rng: &mut ChaCha8Rng) -> Option<u64> {
    if p >= 1.0 {
        return Some(0);
    }
    let lq = (1.0 - p).ln();
    if p <= 0.0 || lq >= 0.0 {
        return None;
    }
    Some(steps_by_log(rng.random::<u64>() >> 11, lq))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// The gap sampler against BookSim's per-cycle chain: the same generation rate and
    /// burstiness (mean and variance of the gaps).
    #[test]
    fn gaps_match_the_per_cycle_chain() {
        for (a, b, r1) in [
            (0.2, 0.2, 0.4),
            (0.05, 0.3, 1.0),
            (0.5, 0.5, 0.2),
            (1.0, 0.0, 0.3),
        ] {
            let p = OnOff {
                alpha: a,
                beta: b,
                r1,
            };
            let mut rng = ChaCha8Rng::seed_from_u64(9);
            let n = 200_000;
            let gaps: Vec<f64> = (0..n)
                .map(|_| p.gap(true, &mut rng).unwrap() as f64)
                .collect();
            let (mut on, mut last, mut chain) = (true, 0u64, Vec::new());
            let mut t = 0u64;
            while chain.len() < n {
                t += 1;
                on = if on {
                    rng.random::<f64>() >= b
                } else {
                    rng.random::<f64>() < a
                };
                if on && rng.random::<f64>() < r1 {
                    chain.push((t - last) as f64);
                    last = t;
                }
            }
            let stats = |v: &[f64]| {
                let m = v.iter().sum::<f64>() / v.len() as f64;
                (
                    m,
                    v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / v.len() as f64,
                )
            };
            let ((m1, v1), (m2, v2)) = (stats(&gaps), stats(&chain));
            assert!(
                (m1 / m2 - 1.0).abs() < 0.02,
                "{a} {b} {r1}: mean {m1} vs {m2}"
            );
            assert!(
                (v1 / v2 - 1.0).abs() < 0.06,
                "{a} {b} {r1}: var {v1} vs {v2}"
            );
        }
    }

    /// A zero rate never generates (and never loops through on and off stretches).
    #[test]
    fn zero_rate_never_generates() {
        let p = OnOff::resolve(&[], [0.5, 0.5, -1.0], 0.0).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert_eq!(p.gap(false, &mut rng), None);
        assert_eq!(p.gap(true, &mut rng), None);
    }

    #[test]
    fn parameters_resolve_as_booksim() {
        let p = OnOff::resolve(&[], [0.2, 0.2, -1.0], 0.1).unwrap();
        assert!((p.r1 - 0.2).abs() < 1e-12);
        let p = OnOff::resolve(&[], [-1.0, 0.1, 0.5], 0.1).unwrap();
        assert!((p.alpha - 0.025).abs() < 1e-12);
        // Arguments before keys; beta = alpha (r1 - p) / p.
        let p = OnOff::resolve(&[0.05, -1.0, 0.5], [0.5, 0.5, -1.0], 0.1).unwrap();
        assert!((p.beta - 0.2).abs() < 1e-12);
        assert!(OnOff::resolve(&[0.3, -1.0, 0.5], [0.5, 0.5, -1.0], 0.1).is_err());
        assert!(OnOff::resolve(&[], [0.5, 0.5, 0.5], 0.1).is_err());
        assert!(OnOff::resolve(&[], [0.1, 0.5, -1.0], 0.5).is_err());
        assert_eq!(
            InjectionSpec::parse("on_off({0.1,0.2})").unwrap(),
            InjectionSpec::OnOff(vec![0.1, 0.2])
        );
        let e = InjectionSpec::parse("onoff").unwrap_err().to_string();
        assert!(e.contains("did you mean on_off?"), "{e}");
    }
}
