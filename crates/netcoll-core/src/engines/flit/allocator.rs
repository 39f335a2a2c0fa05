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

#[cfg(test)]
mod tests {
    use super::round_robin;

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
