//! Geometric gaps without a logarithm per draw, bit for bit the gaps `ln` gives.
//!
//! A gap is `1 + floor(ln(1 - r) / ln(1 - p))` for rand's `r = k * 2^-53`, `k` the top 53
//! bits of one 64-bit draw. With `p` fixed for a run, that is a step function of `k`: it is
//! `1 + j` exactly when `k` lies between the run's thresholds `T[j]` and `T[j + 1]` (`T[j]`
//! the least `k` whose gap exceeds `j`). The table holds those thresholds up to a cut that
//! covers all but about 1e-4 of the draws, and per 1/1024 of the range of `k` the gap at its
//! start, so a draw costs a lookup and a compare or two; draws beyond the cut take the
//! logarithm as before.
//!
//! Why the lookup gives the logarithm's value. The computed gap is a monotone function of
//! `k`: `1 - r` is exact (a multiple of 2^-53 in (0, 1]); neighbouring values of `1 - r` are
//! 2^-53 apart, so their true logarithms differ by at least `2^-53 / u`, and one ulp of
//! `ln(u)` is at most `2^-52 |ln u|`: the difference is at least `1 / (2 u |ln u|) >= e / 2`
//! ulps, more than twice the error of glibc's `log` (0.52 ulp), so the computed logarithm
//! falls strictly as `k` grows; dividing by the negative constant and truncating keep the
//! order. A monotone step function is its thresholds. `GapTable::new` finds each threshold
//! by bisection with the very function the slow path calls, and, not to rest the proof on
//! one libm's error bound, checks every `k` within `WINDOW` of every threshold against the
//! table (a less accurate `log` can only disagree with the exact steps near a threshold);
//! if one disagrees, the run uses the logarithm throughout.

/// Buckets of the range of `k` (a power of two): 1024 gives about one threshold in ten
/// per bucket at the cut, so a draw takes one or two compares.
const BUCKETS: usize = 1024;
/// `k` has 53 bits; its top 10 name the bucket.
const BUCKET_SHIFT: u32 = 53 - BUCKETS.trailing_zeros();
/// Most thresholds kept (the gaps the table answers are 1..=MAX_STEPS).
const MAX_STEPS: usize = 256;
/// Draws beyond the table: at most about this share (fewer where MAX_STEPS binds first).
const TAIL: f64 = 1e-4;
/// Values of `k` checked on either side of each threshold.
const WINDOW: u64 = 16;
/// rand's `f64` scale: `random::<f64>() == (random::<u64>() >> 11) as f64 * SCALE`.
const SCALE: f64 = 1.0 / (1u64 << 53) as f64;
const K_END: u64 = 1 << 53;

/// Gap minus one for `k`, as the logarithm gives it (the slow path and the table's source).
#[inline]
pub(super) fn steps_by_log(k: u64, log_q: f64) -> u64 {
    // The cast truncates, which for a cast to u64 is floor (values below 0 saturate to 0
    // either way), without floor()'s library call on baseline x86-64.
    let u = 1.0 - k as f64 * SCALE;
    (u.ln() / log_q) as u64
}

pub(super) struct GapTable {
    /// `thr[i]`: the least `k` whose gap exceeds `i + 1`, increasing; the last is the cut.
    thr: Vec<u64>,
    /// The last threshold: draws from it on take the logarithm.
    cut: u64,
    /// Per bucket: how many thresholds lie at or below its first `k` (below the cut).
    start: Box<[u16; BUCKETS]>,
}

impl GapTable {
    /// The table for `log_q = ln(1 - p)`, or None when it could not be shown to agree
    /// with the logarithm (then every draw takes the logarithm).
    pub(super) fn new(log_q: f64) -> Option<GapTable> {
        let steps = ((TAIL.ln() / log_q).ceil() as usize).clamp(1, MAX_STEPS);
        let mut thr = Vec::with_capacity(steps);
        for j in 1..=steps as u64 {
            let lo = thr.last().copied().unwrap_or(0);
            match threshold(j, lo, log_q) {
                Some(t) => thr.push(t),
                None => break,
            }
        }
        if thr.is_empty() {
            return None;
        }
        let count = |k: u64| thr.partition_point(|&t| t <= k);
        let mut start = Box::new([0u16; BUCKETS]);
        for (b, s) in start.iter_mut().enumerate() {
            *s = count((b as u64) << BUCKET_SHIFT) as u16;
        }
        // The check: near every threshold the table says what the logarithm says.
        for &t in &thr {
            let (a, b) = (t.saturating_sub(WINDOW), (t + WINDOW).min(K_END - 1));
            if (a..=b).any(|k| steps_by_log(k, log_q) != count(k) as u64) {
                return None;
            }
        }
        let cut = *thr.last()?;
        Some(GapTable { thr, cut, start })
    }

    /// Gap minus one for `k` (the top 53 bits of a draw), None beyond the cut.
    #[inline]
    pub(super) fn steps(&self, k: u64) -> Option<u64> {
        if k >= self.cut {
            return None;
        }
        let mut f = self.start[(k >> BUCKET_SHIFT) as usize & (BUCKETS - 1)] as usize;
        // Stops at the cut at the latest, since k is below it.
        while self.thr[f] <= k {
            f += 1;
        }
        Some(f as u64)
    }
}

/// The least `k >= lo` whose gap exceeds `j` (gap minus one at least `j`), by bisection
/// from the closed form's estimate `(1 - q^j) 2^53`; None if no `k` has such a gap.
fn threshold(j: u64, lo: u64, log_q: f64) -> Option<u64> {
    let reaches = |k: u64| steps_by_log(k, log_q) >= j;
    if !reaches(K_END - 1) {
        return None;
    }
    let est = ((1.0 - (log_q * j as f64).exp()) / SCALE) as u64;
    // A bracket (below, above] around the estimate, else the whole range from `lo`.
    let (mut below, mut above) = (est.saturating_sub(64).max(lo), (est + 64).min(K_END - 1));
    if below >= above || (below > lo && reaches(below)) || !reaches(above) {
        (below, above) = (lo, K_END - 1);
    }
    if reaches(below) {
        return Some(below);
    }
    while above - below > 1 {
        let mid = below + (above - below) / 2;
        if reaches(mid) {
            above = mid;
        } else {
            below = mid;
        }
    }
    Some(above)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// rand's f64 is the top 53 bits of a u64 draw times 2^-53 (what the table assumes).
    #[test]
    fn rand_f64_is_the_top_53_bits() {
        let (mut a, mut b) = (ChaCha8Rng::seed_from_u64(3), ChaCha8Rng::seed_from_u64(3));
        for _ in 0..10_000 {
            let r: f64 = a.random();
            assert_eq!(r, (b.random::<u64>() >> 11) as f64 * SCALE);
        }
    }

    /// The table gives the logarithm's gap for random draws, draws at and around every
    /// threshold and bucket start, at loads from light to heavy.
    #[test]
    fn table_equals_the_logarithm() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for p in [0.001, 0.01, 0.05, 0.1, 0.2, 0.35, 0.5, 0.9, 0.999] {
            let lq = (1.0f64 - p).ln();
            let t = GapTable::new(lq).expect("a table");
            let check = |k: u64| {
                if let Some(s) = t.steps(k) {
                    assert_eq!(s, steps_by_log(k, lq), "p {p} k {k}");
                }
            };
            for _ in 0..100_000 {
                check(rng.random::<u64>() >> 11);
            }
            for &x in &t.thr {
                (x.saturating_sub(3)..x + 3).for_each(check);
            }
            for b in 0..BUCKETS as u64 {
                let k = b << BUCKET_SHIFT;
                (k.saturating_sub(2)..k + 2).for_each(check);
            }
            check(0);
            check(K_END - 1);
        }
    }
}
