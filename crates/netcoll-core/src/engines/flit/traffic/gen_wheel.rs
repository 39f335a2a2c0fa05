//! The cycles at which nodes generate their next packet (synthetic traffic), as a timing
//! wheel: slot `cycle % SLOTS` is a bit set of the nodes due then (no allocation after the
//! start). A node whose next generation lies `SLOTS` or more cycles ahead waits in its slot
//! for the wheel to come round again. Geometric gaps are short at any load that matters, so
//! a cycle costs a look at the nodes due and few others, where a binary heap paid two
//! logarithmic sifts per packet; and a bit set hands the nodes out in increasing order (the
//! order the shared random stream is drawn in) without sorting them.

/// Slots of the wheel (a power of two): gaps of this many cycles or more are rare unless
/// the injection rate is below about 1/SLOTS, and then cost one extra look per turn. The
/// bit sets take `SLOTS / 8` bytes per node.
const SLOTS: usize = 128;

pub(super) struct GenWheel {
    /// Per slot, `words` words: bit `n` set when node `n` is listed in the slot.
    bits: Vec<u64>,
    words: usize,
    /// Per node: its next generation cycle (u64::MAX: never).
    at: Vec<u64>,
}

impl GenWheel {
    pub(super) fn new(nodes: usize) -> GenWheel {
        let words = nodes.div_ceil(64);
        GenWheel {
            bits: vec![0; SLOTS * words],
            words,
            at: vec![u64::MAX; nodes],
        }
    }

    /// Node `node` generates next at cycle `at` (u64::MAX: never again). It must not be
    /// listed already (a node is listed from `schedule` until `take_due` hands it out).
    #[inline]
    pub(super) fn schedule(&mut self, node: usize, at: u64) {
        self.at[node] = at;
        if at != u64::MAX {
            let slot = at as usize & (SLOTS - 1);
            self.bits[slot * self.words + node / 64] |= 1 << (node % 64);
        }
    }

    /// Puts the nodes due at `now` into `due` in increasing order and unlists them. Must
    /// be called for every cycle in turn.
    pub(super) fn take_due(&mut self, now: u64, due: &mut Vec<u32>) {
        due.clear();
        let slot = now as usize & (SLOTS - 1);
        let words = &mut self.bits[slot * self.words..(slot + 1) * self.words];
        for (w, word) in words.iter_mut().enumerate() {
            let mut left = *word;
            while left != 0 {
                let b = left.trailing_zeros() as usize;
                left &= left - 1;
                let n = w * 64 + b;
                if self.at[n] == now {
                    due.push(n as u32);
                    *word &= !(1 << b);
                } else {
                    debug_assert!(self.at[n] > now, "a generation cycle was skipped");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    /// The wheel hands out the same (cycle, node) sequence as a heap ordered by both, with
    /// gaps short and long (beyond a turn of the wheel).
    #[test]
    fn same_order_as_a_heap() {
        let nodes = 50;
        let mut wheel = GenWheel::new(nodes);
        let mut heap = BinaryHeap::new();
        let mut x: u64 = 12345;
        // Mostly short gaps, some beyond a turn of the wheel, rarely never again.
        let mut gap = |n: usize| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let r = (x >> 33) % 1000;
            match r {
                0 => u64::MAX,
                1..=50 => 1 + (x >> 20) % (3 * SLOTS as u64),
                _ => 1 + (r + n as u64) % 9,
            }
        };
        for n in 0..nodes {
            let g = gap(n);
            wheel.schedule(n, g);
            if g != u64::MAX {
                heap.push(Reverse((g, n as u32)));
            }
        }
        let (mut due, mut seen) = (Vec::new(), 0);
        for now in 0..20 * SLOTS as u64 {
            wheel.take_due(now, &mut due);
            let mut want = Vec::new();
            while let Some(&Reverse((at, n))) = heap.peek() {
                if at != now {
                    break;
                }
                heap.pop();
                want.push(n);
            }
            assert_eq!(due, want, "cycle {now}");
            for &n in &due {
                seen += 1;
                let at = gap(n as usize).saturating_add(now);
                wheel.schedule(n as usize, at);
                if at != u64::MAX {
                    heap.push(Reverse((at, n)));
                }
            }
        }
        assert!(seen > 5000, "{seen} generations");
    }
}
