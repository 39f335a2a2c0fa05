//! Knuth's lagged-Fibonacci generator `ran_array` (TAOCP vol. 2, 3rd ed., s3.6, with the
//! 2002 seeding; D. E. Knuth placed it in the public domain), written here from the book.
//! BookSim draws its random permutation (`traffic = randperm`) from this generator seeded
//! with `perm_seed`; drawing from the same stream gives BookSim's very permutation, so a
//! randperm run of netcoll and one of BookSim load the same source-destination pairs.
//! Only `randperm` uses it: every other random choice takes the engine's ChaCha stream.

/// The long lag.
const KK: usize = 100;
/// The short lag.
const LL: usize = 37;
/// The modulus, 2^30.
const MM: i64 = 1 << 30;
/// Separation between streams of different seeds.
const TT: i32 = 70;
/// Numbers generated per batch; only the first KK of a batch are handed out (Knuth's
/// `ran_arr_cycle`, the "quality" level 1009).
const QUALITY: usize = 1009;

fn mod_diff(x: i64, y: i64) -> i64 {
    (x - y) & (MM - 1)
}

pub(super) struct KnuthRng {
    state: [i64; KK],
    buf: Vec<i64>,
    /// The next number of `buf` to hand out (KK: a new batch is due).
    next: usize,
}

impl KnuthRng {
    /// Knuth's `ran_start(seed)`.
    pub(super) fn new(seed: i64) -> KnuthRng {
        let mut x = [0i64; KK + KK - 1];
        let mut ss = (seed + 2) & (MM - 2);
        for xj in x.iter_mut().take(KK) {
            *xj = ss;
            ss <<= 1;
            if ss >= MM {
                ss -= MM - 2;
            }
        }
        x[1] += 1;
        let (mut ss, mut t) = (seed & (MM - 1), TT - 1);
        while t > 0 {
            // Square the polynomial...
            for j in (1..KK).rev() {
                x[j + j] = x[j];
                x[j + j - 1] = 0;
            }
            for j in (KK..=KK + KK - 2).rev() {
                x[j - (KK - LL)] = mod_diff(x[j - (KK - LL)], x[j]);
                x[j - KK] = mod_diff(x[j - KK], x[j]);
            }
            // ...and multiply it by z for each one bit of the seed.
            if ss & 1 == 1 {
                for j in (1..=KK).rev() {
                    x[j] = x[j - 1];
                }
                x[0] = x[KK];
                x[LL] = mod_diff(x[LL], x[KK]);
            }
            if ss != 0 {
                ss >>= 1;
            } else {
                t -= 1;
            }
        }
        let mut state = [0i64; KK];
        state[KK - LL..].copy_from_slice(&x[..LL]);
        state[..KK - LL].copy_from_slice(&x[LL..KK]);
        let mut rng = KnuthRng {
            state,
            buf: vec![0; QUALITY.max(KK + KK - 1)],
            next: KK,
        };
        for _ in 0..10 {
            rng.fill(KK + KK - 1);
        }
        rng
    }

    /// Knuth's `ran_array(buf, n)`: `n` new numbers into `buf[..n]`.
    fn fill(&mut self, n: usize) {
        let (a, s) = (&mut self.buf, &mut self.state);
        a[..KK].copy_from_slice(s);
        for j in KK..n {
            a[j] = mod_diff(a[j - KK], a[j - LL]);
        }
        // The new state: its first LL from the array's tail, the rest from the state itself.
        for (i, j) in (0..KK).zip(n..) {
            s[i] = if i < LL {
                mod_diff(a[j - KK], a[j - LL])
            } else {
                mod_diff(a[j - KK], s[i - LL])
            };
        }
    }

    /// The next number in [0, 2^30) (Knuth's `ran_arr_next`).
    pub(super) fn next(&mut self) -> i64 {
        if self.next >= KK {
            self.fill(QUALITY);
            self.next = 0;
        }
        self.next += 1;
        self.buf[self.next - 1]
    }

    /// A number in [0, max] as BookSim's `RandomInt(max)` draws it (the modulo included).
    pub(super) fn int(&mut self, max: usize) -> usize {
        (self.next() as u64 % (max as u64 + 1)) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Knuth's own check: after ran_start(310952), 2010 calls of ran_array(a, 1009) leave
    /// a[0] = 995235265.
    #[test]
    fn knuths_check_value() {
        let mut r = KnuthRng::new(310_952);
        r.buf.resize(2009, 0);
        for _ in 0..=2009 {
            r.fill(1009);
        }
        assert_eq!(r.buf[0], 995_235_265);
        let mut r = KnuthRng::new(310_952);
        r.buf.resize(2009, 0);
        for _ in 0..=1009 {
            r.fill(2009);
        }
        assert_eq!(r.buf[0], 995_235_265);
    }
}
