//! BookSim 2's dimension-order routing on a torus (`dim_order_torus` in its routefunc.cpp,
//! re-derived here), the flit engine's default on tori (`torus_routing = booksim`):
//!
//! * when a packet turns into a dimension (or leaves its source) it picks the shorter way
//!   round; a tie (the destination exactly half-way round) goes either way with
//!   probability 1/2 (BookSim draws from its global RNG; we draw from a stream per router,
//!   its n-th draw a hash of (`seed`, router, n), so runs stay deterministic and do not
//!   depend on the order routers are visited in, or on how many threads run them);
//! * the VC class is fixed for the whole dimension at that turn: class 1 (the upper half of
//!   the VCs) if the path in this dimension crosses the wrap-around link, class 0 otherwise.
//!
//! `torus_routing = dateline` keeps `crate::routing`'s scheme instead: ties go the + way and
//! the class switches from 0 to 1 at the dateline crossing. Both are deadlock-free; they
//! load the two VC halves and the two directions differently, which shows near saturation.

use super::network::Network;

/// Packet routing state: bit 0 the class, bit 1 the direction (1: minus), bits 2.. the
/// dimension of the last hop + 1 (0: not yet moved).
impl Network<'_> {
    /// Output port (local) and VC class of a head at router `r` bound for router `dst`.
    pub(super) fn torus_step(&mut self, r: usize, dst: usize, state: u8) -> (u32, u8, u8) {
        let (mut a, mut b) = (r, dst);
        for (dim, &k) in self.torus_dims.iter().enumerate() {
            let (cur, dest) = (a % k, b % k);
            if cur == dest {
                a /= k;
                b /= k;
                continue;
            }
            let (minus, class) = if (state >> 2) as usize == dim + 1 {
                (state >> 1 & 1 == 1, state & 1)
            } else {
                let dist2 = k as i64 - 2 * ((dest + k - cur) % k) as i64;
                let plus = dist2 > 0 || (dist2 == 0 && self.tie_break(r));
                let wraps = if plus { cur > dest } else { dest > cur };
                (!plus, u8::from(wraps))
            };
            let port = (2 * dim) as u32 + u32::from(minus);
            let state = class | (u8::from(minus) << 1) | (((dim + 1) as u8) << 2);
            return (port, class, state);
        }
        unreachable!("torus_step is only called away from the destination")
    }

    /// Router `r`'s next fair coin for a half-way tie.
    fn tie_break(&mut self, r: usize) -> bool {
        let n = self.tie_draws[r];
        self.tie_draws[r] = n.wrapping_add(1);
        let key = splitmix64(self.cfg.seed ^ 0x7025_u64 << 32) ^ ((r as u64) << 32 | n as u64);
        splitmix64(key) >> 63 == 1
    }
}

/// SplitMix64's finaliser: a well-mixed 64-bit hash of `x`.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use crate::engines::flit::config::FlitConfig;
    use crate::engines::flit::network::Network;
    use crate::topology::Topology;

    /// Walks a head from router `src` to `dst` on an 8x8 torus: (ports taken, classes).
    fn walk(net: &mut Network, src: usize, dst: usize) -> (Vec<u32>, Vec<u8>) {
        let (mut at, mut state, mut ports, mut classes) = (src, 0u8, vec![], vec![]);
        while at != dst {
            let (port, class, s) = net.torus_step(at, dst, state);
            let crate::topology::Peer::Switch { switch, .. } = net.topo.peer(at, port as usize)
            else {
                panic!("torus ports are links")
            };
            (at, state) = (switch as usize, s);
            ports.push(port);
            classes.push(class);
        }
        (ports, classes)
    }

    #[test]
    fn booksim_torus_dor_fixes_the_class_per_dimension_and_breaks_ties_at_random() {
        let topo = Topology::from_spec("torus:8x8").unwrap();
        let mut net = Network::new(&topo, &FlitConfig::default()).unwrap();
        // x 6 -> 1 goes + round the wrap (3 hops): class 1 on every hop, also before the
        // wrap link; then y 0 -> 2 goes + without wrapping: class 0.
        let (ports, classes) = walk(&mut net, 6, 1 + 2 * 8);
        assert_eq!(ports, [0, 0, 0, 2, 2]);
        assert_eq!(classes, [1, 1, 1, 0, 0]);
        // x 1 -> 3: + without wrapping, class 0; x 2 -> 7 goes - over the wrap: class 1.
        assert_eq!(walk(&mut net, 1, 3), (vec![0, 0], vec![0, 0]));
        assert_eq!(walk(&mut net, 2, 7), (vec![1, 1, 1], vec![1, 1, 1]));
        // Half-way round (0 -> 4): four hops either way, both directions occur.
        let dirs: Vec<u32> = (0..40).map(|_| walk(&mut net, 0, 4).0[0]).collect();
        assert!(dirs.iter().all(|&p| p <= 1) && dirs.contains(&0) && dirs.contains(&1));
        assert!((0..20).all(|_| walk(&mut net, 0, 4).0.len() == 4));
    }
}
