//! Irregular switch networks, generated as in seed 003 s6.3: `s` switches of `k` ports, `p`
//! hosts on random ports, and a fraction `conn` of the remaining `s*k - p` ports linked at
//! random to ports of other switches (full duplex, at most one link per port, no self links;
//! parallel links between two switches are allowed, as in the paper's Fig. 1).
//!
//! The paper requires the switch graph to be connected but does not say how; we guarantee it
//! by construction instead of by rejection: hosts are placed so that every switch keeps a free
//! port, the first `s - 1` links form a random spanning tree, and the rest are random pairs of
//! free ports. Same seed, same network (ChaCha8).

use super::mesh_torus::port;
use super::{Family, PortRef, Topology, TopologyBuilder};
use crate::error::Result;
use crate::invalid;
use crate::params::IrregularParams;
use crate::spec::TopologySpec;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub fn build(params: &IrregularParams) -> Result<Topology> {
    let mut rng = ChaCha8Rng::seed_from_u64(params.seed);
    let mut b = TopologyBuilder::new(std::iter::repeat_n(params.ports, params.switches))?;
    let hosts = place_hosts(params, &mut rng);
    let mut free = open_ports_by_switch(params, &hosts);
    let tree_links = link_spanning_tree(&mut b, &mut free, &mut rng)?;
    link_random_pairs(&mut b, &mut free, params.num_links() - tree_links, &mut rng)?;
    for h in hosts {
        b.endpoint(h)?;
    }
    let name = TopologySpec::Irregular(params.clone()).canonical();
    b.finish(name, Family::Irregular(params.clone()), Vec::new())
}

/// Picks the host ports uniformly at random, skipping a port when taking it would leave its
/// switch with no port for links. Returned in (switch, port) order so host ids are grouped.
fn place_hosts(params: &IrregularParams, rng: &mut ChaCha8Rng) -> Vec<PortRef> {
    let (s, k) = (params.switches, params.ports);
    let reserve = usize::from(s > 1);
    let mut all: Vec<PortRef> = (0..s * k).map(|i| port(i / k, i % k)).collect();
    all.shuffle(rng);
    let mut free_left = vec![k; s];
    let mut hosts = Vec::with_capacity(params.nodes);
    for p in all {
        if hosts.len() == params.nodes {
            break;
        }
        let sw = p.switch as usize;
        if free_left[sw] > reserve {
            free_left[sw] -= 1;
            hosts.push(p);
        }
    }
    hosts.sort_by_key(|p| (p.switch, p.port));
    hosts
}

/// The ports without a host, per switch.
fn open_ports_by_switch(params: &IrregularParams, hosts: &[PortRef]) -> Vec<Vec<u32>> {
    let mut taken = vec![false; params.switches * params.ports];
    for h in hosts {
        taken[h.switch as usize * params.ports + h.port as usize] = true;
    }
    (0..params.switches)
        .map(|s| {
            (0..params.ports as u32)
                .filter(|&p| !taken[s * params.ports + p as usize])
                .collect()
        })
        .collect()
}

/// Takes a random free port of `switch`.
fn take_port(free: &mut [Vec<u32>], switch: usize, rng: &mut ChaCha8Rng) -> PortRef {
    let ports = &mut free[switch];
    let i = rng.random_range(0..ports.len());
    port(switch, ports.swap_remove(i) as usize)
}

/// A random spanning tree over the switches. Switches with two or more free ports join first,
/// each hung on a random tree switch that still has a free port; switches with a single free
/// port join last, as leaves. This never runs out of ports when the free ports number at least
/// 2(s-1), which `validate` ensures.
fn link_spanning_tree(
    b: &mut TopologyBuilder,
    free: &mut [Vec<u32>],
    rng: &mut ChaCha8Rng,
) -> Result<usize> {
    let mut order: Vec<usize> = (0..free.len()).collect();
    order.shuffle(rng);
    order.sort_by_key(|&s| free[s].len() < 2); // stable: random order within each class
                                               // The switches that still have a free port, in the order they joined: a pick takes the
                                               // k-th of them (k uniform), as a list pruned before every pick would, in O(log n)
                                               // instead of the prune's O(n) (262,144 switches took minutes).
    let mut joinable = Joinable::new(free.len());
    joinable.push(order[0], !free[order[0]].is_empty());
    for &v in &order[1..] {
        if joinable.alive == 0 || free[v].is_empty() {
            return invalid!(
                "irregular generator ran out of free ports while connecting switch {v}"
            );
        }
        let at = joinable.nth(rng.random_range(0..joinable.alive));
        let u = joinable.items[at];
        let (pu, pv) = (take_port(free, u, rng), take_port(free, v, rng));
        b.link(pu, pv)?;
        if free[u].is_empty() {
            joinable.remove(at);
        }
        joinable.push(v, !free[v].is_empty());
    }
    Ok(free.len() - 1)
}

/// Switches in joining order with a Fenwick tree of which still count: the k-th that does
/// in O(log n).
struct Joinable {
    items: Vec<usize>,
    tree: Vec<u32>,
    alive: usize,
}

impl Joinable {
    fn new(n: usize) -> Joinable {
        Joinable {
            items: Vec::with_capacity(n),
            tree: vec![0; n + 1],
            alive: 0,
        }
    }

    fn add(&mut self, at: usize, delta: i32) {
        let mut i = at + 1;
        while i < self.tree.len() {
            self.tree[i] = self.tree[i].wrapping_add_signed(delta);
            i += i & i.wrapping_neg();
        }
        self.alive = self.alive.wrapping_add_signed(delta as isize);
    }

    /// Appends `switch`, counted when `alive`.
    fn push(&mut self, switch: usize, alive: bool) {
        self.items.push(switch);
        if alive {
            self.add(self.items.len() - 1, 1);
        }
    }

    fn remove(&mut self, at: usize) {
        self.add(at, -1);
    }

    /// The position of the k-th (from 0) counted switch.
    fn nth(&self, k: usize) -> usize {
        let (mut pos, mut rest) = (0usize, k as u32 + 1);
        let mut step = (self.tree.len() - 1).next_power_of_two();
        while step > 0 {
            let next = pos + step;
            if next < self.tree.len() && self.tree[next] < rest {
                pos = next;
                rest -= self.tree[next];
            }
            step /= 2;
        }
        pos
    }
}

/// Links `count` random pairs of free ports on different switches (fewer if the free ports
/// left all sit on one switch).
fn link_random_pairs(
    b: &mut TopologyBuilder,
    free: &mut [Vec<u32>],
    count: usize,
    rng: &mut ChaCha8Rng,
) -> Result<()> {
    let mut pool: Vec<PortRef> = free
        .iter()
        .enumerate()
        .flat_map(|(s, ports)| ports.iter().map(move |&p| port(s, p as usize)))
        .collect();
    pool.shuffle(rng);
    for _ in 0..count {
        let Some(a) = pool.pop() else { break };
        let Some(j) = pool.iter().rposition(|p| p.switch != a.switch) else {
            break;
        };
        let bport = pool.remove(j);
        b.link(a, bport)?;
    }
    Ok(())
}
