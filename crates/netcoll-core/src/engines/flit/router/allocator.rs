//! Round-robin arbiters for the separable allocators. An arbiter keeps a pointer; the
//! request after the last grant has the highest priority, and the pointer only moves on a
//! grant that is used (iSLIP's rule, which keeps allocation fair and starvation-free).

/// Picks the first index `i` in round-robin order from `start` over `0..n` for which
/// `want(i)` holds.
#[inline]
pub fn round_robin(start: usize, n: usize, mut want: impl FnMut(usize) -> bool) -> Option<usize> {
    let mut i = if start >= n { 0 } else { start };
    for _ in 0..n {
        if want(i) {
            return Some(i);
        }
        i += 1;
        if i == n {
            i = 0;
        }
    }
    None
}

/// The first set bit of `mask` at or after `start`, wrapping (`mask` is not empty): the
/// round-robin pick over bit positions. A start of 64 or more picks the lowest bit.
#[inline]
pub fn rotate_pick(mask: u64, start: usize) -> usize {
    pick_below_64(mask, if start < 64 { start } else { 0 })
}

/// [`rotate_pick`] for a start below 64, without a branch: rotated right by `start`, the
/// bits at or after `start` come first and the wrapped ones after them, in order, so the
/// lowest set bit of the rotated mask is the pick. (An empty mask gives `start`.)
#[inline(always)]
pub fn pick_below_64(mask: u64, start: usize) -> usize {
    debug_assert!(start < 64);
    (mask.rotate_right(start as u32).trailing_zeros() as usize + start) & 63
}

/// `(x + 1) % n` for `x < n`, without a division (the allocators' pointer updates).
#[inline]
pub fn next(x: usize, n: usize) -> usize {
    if x + 1 == n {
        0
    } else {
        x + 1
    }
}

#[cfg(test)]
mod tests {
    use super::{rotate_pick, round_robin};

    #[test]
    fn rotate_pick_takes_the_first_bit_from_the_start_and_wraps() {
        assert_eq!(rotate_pick(0b1010, 0), 1);
        assert_eq!(rotate_pick(0b1010, 2), 3);
        assert_eq!(rotate_pick(0b1010, 4), 1);
        assert_eq!(rotate_pick(1 << 63 | 1, 63), 63);
        assert_eq!(rotate_pick(0b1010, 64), 1);
        for mask in [1u64, 0b1010, 1 << 63 | 1, 0xf0f0, !0] {
            for start in 0..64 {
                let hi = mask & (!0u64 << start);
                let want = if hi != 0 { hi } else { mask }.trailing_zeros() as usize;
                assert_eq!(super::pick_below_64(mask, start), want, "{mask:#x} {start}");
            }
        }
    }

    #[test]
    fn round_robin_starts_at_the_pointer_and_wraps() {
        let req = [true, false, true, false];
        assert_eq!(round_robin(0, 4, |i| req[i]), Some(0));
        assert_eq!(round_robin(1, 4, |i| req[i]), Some(2));
        assert_eq!(round_robin(3, 4, |i| req[i]), Some(0));
        assert_eq!(round_robin(9, 4, |i| req[i]), Some(0));
        assert_eq!(round_robin(0, 4, |_| false), None);
    }
}
