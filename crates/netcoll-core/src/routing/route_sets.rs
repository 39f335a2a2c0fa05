//! BookSim's adaptive mesh and torus routings, whose routing function offers a *set* of
//! (output port, VC range) choices and leaves the pick to VC allocation (its routefunc.cpp,
//! re-derived; BookSim's default iSLIP VC allocator ignores the priorities it attaches):
//!
//! * `min_adapt` (mesh): VC 0 is the escape channel, taken by dimension order; a packet not
//!   in the escape VC may also take any VC from 1 up on every productive port. A packet in
//!   the escape VC stays on the escape path (Duato's condition: the escape channels' own
//!   dependencies are dimension order's, acyclic).
//! * `min_adapt` (torus): VCs 0 and 1 are the escape channels (BookSim's torus dimension
//!   order, its ring partition picking 0 or 1); a packet outside them may also take VC 3
//!   (BookSim's `vcBegin + 3`, so it needs 4 VCs and leaves VC 2 and those above 3 to
//!   injection only) on the shorter way round in every unfinished dimension (the - way on
//!   a tie). Leaving the escape path, the partition is recomputed as if injected here.
//! * `planar_adapt` (mesh; Chien and Kim 1992): the VCs split in thirds of `m = num_vcs / 3`;
//!   in adaptive plane `i` (the first unfinished dimension) a packet may go productively in
//!   dimension `i` on VCs `2m..`, or productively in dimension `i+1` on VCs `0..m`
//!   (increasing in `i`) or `m..2m` (decreasing); never straight back where it came from.
//!
//! **BookSim's OutputSet keeps one choice per priority.** Its route set is a `std::set`
//! ordered by priority alone, so of several choices of equal priority only the first added
//! stays: `min_adapt` on a mesh keeps the escape choice and the first productive
//! dimension's adaptive VCs (the dimension-order port: no adaptivity is left), on a torus
//! the first unfinished dimension's VC 3 and the escape choice, and `planar_adapt` (all
//! its choices of priority 0) only the productive port in its plane on VCs `2m..`. That is
//! what BookSim runs, and the default here (`Choices::Booksim`); `Choices::All` keeps every
//! choice, the algorithms as published.
//!
//! The choices depend on the input port and VC a packet waits in, so the dependency check
//! explores (router, input port, VC, state) per destination (`dependencies`), and for
//! `min_adapt` checks Duato's condition on the escape VCs.

use crate::topology::{Family, Peer, Topology};

/// One choice of a route set: output port `port`, VCs `lo..=hi`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    pub port: u32,
    pub lo: u8,
    pub hi: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetKind {
    MinAdapt,
    PlanarAdapt,
}

/// Which of a routing function's choices a route set keeps (see the module header).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Choices {
    /// One per priority, the first added (BookSim's `OutputSet`).
    #[default]
    Booksim,
    /// Every choice.
    All,
}

/// A route-set routing bound to a mesh or torus.
pub struct RouteSets {
    pub kind: SetKind,
    dims: Vec<usize>,
    wrap: bool,
    pub keep: Choices,
}

/// Where a head waits: its input port (None: the injection port), its VC and state.
#[derive(Debug, Clone, Copy)]
pub struct Waiting {
    pub in_port: Option<u32>,
    pub in_vc: u8,
    pub state: u8,
}

impl RouteSets {
    pub fn new(topo: &Topology, kind: SetKind) -> crate::error::Result<RouteSets> {
        let (dims, wrap) = match (topo.family(), kind) {
            (Family::Mesh { dims }, _) => (dims.clone(), false),
            (Family::Torus { dims }, SetKind::MinAdapt) => (dims.clone(), true),
            _ => {
                let what = match kind {
                    SetKind::MinAdapt => "min_adapt routing is BookSim's for a mesh or torus",
                    SetKind::PlanarAdapt => "planar_adapt routing is BookSim's for a mesh",
                };
                return crate::spec_err!("{what}, not {}: use dor or shortest", topo.name());
            }
        };
        Ok(RouteSets {
            kind,
            dims,
            wrap,
            keep: Choices::Booksim,
        })
    }

    /// VCs the routing needs: min_adapt 2 on a mesh (escape and one adaptive), 4 on a
    /// torus (BookSim's VC 3); planar_adapt 3 (a third each).
    pub fn min_vcs(&self) -> usize {
        match (self.kind, self.wrap) {
            (SetKind::MinAdapt, false) => 2,
            (SetKind::MinAdapt, true) => 4,
            (SetKind::PlanarAdapt, _) => 3,
        }
    }

    /// The VCs a dependency cycle must avoid for deadlock freedom (Duato's escape VCs),
    /// as a mask; 0: the whole graph must be acyclic.
    pub fn escape_vcs(&self) -> u64 {
        match (self.kind, self.wrap) {
            (SetKind::MinAdapt, false) => 1,
            (SetKind::MinAdapt, true) => 3,
            (SetKind::PlanarAdapt, _) => 0,
        }
    }

    /// The choices at router `at` for a head bound for router `dest` (not `at`), waiting as
    /// `w`, with `nv` VCs; `tie` draws a fair coin (torus dimension order's half-way ties).
    /// Returns the number of choices written to `out` and the state after the hop.
    pub fn choices(
        &self,
        at: usize,
        dest: usize,
        w: Waiting,
        nv: u8,
        tie: &mut impl FnMut() -> bool,
        out: &mut [Choice; 8],
    ) -> (usize, u8) {
        let booksim = self.keep == Choices::Booksim;
        match (self.kind, self.wrap) {
            (SetKind::MinAdapt, false) => {
                // Escape (priority 0) first, then the adaptive ones (priority 1).
                let n = self.min_adapt_mesh(at, dest, w, nv, out);
                (if booksim { n.min(2) } else { n }, 0)
            }
            (SetKind::MinAdapt, true) => {
                // The adaptive ones (priority 1) first, the escape (priority 0) last.
                let (n, ph) = self.min_adapt_torus(at, dest, w, nv, tie, out);
                if booksim && n > 2 {
                    out[1] = out[n - 1];
                    return (2, ph);
                }
                (n, ph)
            }
            (SetKind::PlanarAdapt, _) => {
                let n = self.planar_adapt(at, dest, w, nv, out);
                (if booksim { 1 } else { n }, 0)
            }
        }
    }

    /// Coordinates of `at` and `dest` in every dimension.
    fn coords(&self, at: usize, dest: usize) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        let mut stride = 1;
        self.dims.iter().map(move |&k| {
            let c = ((at / stride) % k, (dest / stride) % k, k);
            stride *= k;
            c
        })
    }

    fn min_adapt_mesh(
        &self,
        at: usize,
        dest: usize,
        w: Waiting,
        nv: u8,
        out: &mut [Choice; 8],
    ) -> usize {
        let (port, _) = super::grid_orders::mesh_dor_port(&self.dims, at, dest, false);
        out[0] = Choice {
            port: port as u32,
            lo: 0,
            hi: 0,
        };
        let mut n = 1;
        // Injected packets count as adaptive (BookSim: in_vc = the last VC).
        if w.in_port.is_none() || w.in_vc != 0 {
            for (d, (c, t, _)) in self.coords(at, dest).enumerate() {
                if c != t && n < out.len() {
                    let port = (2 * d + usize::from(t < c)) as u32;
                    out[n] = Choice {
                        port,
                        lo: 1,
                        hi: nv - 1,
                    };
                    n += 1;
                }
            }
        }
        n
    }

    fn min_adapt_torus(
        &self,
        at: usize,
        dest: usize,
        w: Waiting,
        nv: u8,
        tie: &mut impl FnMut() -> bool,
        out: &mut [Choice; 8],
    ) -> (usize, u8) {
        let adaptive = w.in_port.is_none() || w.in_vc > 1;
        let mut n = 0;
        if adaptive && nv > 3 {
            for (d, (c, t, k)) in self.coords(at, dest).enumerate() {
                if c != t && n < out.len() - 1 {
                    let dist2 = k as i64 - 2 * ((t + k - c) % k) as i64;
                    let port = (2 * d + usize::from(dist2 <= 0)) as u32;
                    out[n] = Choice { port, lo: 3, hi: 3 };
                    n += 1;
                }
            }
        }
        // The escape path: turning afresh when adaptive, else as it came in.
        let in_port = if adaptive { None } else { w.in_port };
        let (port, ph) = self.dor_next_torus(at, dest, in_port, w.state & 1, tie);
        out[n] = Choice {
            port,
            lo: ph,
            hi: ph,
        };
        (n + 1, ph)
    }

    /// BookSim's `dor_next_torus`: the port and ring partition of the next hop. Turning
    /// into a dimension (or fresh) it takes the shorter way (a tie by `tie`) and partition
    /// 1 iff the way crosses the wrap-around; continuing it keeps direction and `ph`.
    fn dor_next_torus(
        &self,
        at: usize,
        dest: usize,
        in_port: Option<u32>,
        ph: u8,
        tie: &mut impl FnMut() -> bool,
    ) -> (u32, u8) {
        let (d, (c, t, k)) = self
            .coords(at, dest)
            .enumerate()
            .find(|(_, (c, t, _))| c != t)
            .expect("only called away from the destination");
        if let Some(p) = in_port.filter(|&p| p as usize / 2 == d) {
            return (p ^ 1, ph);
        }
        let dist2 = k as i64 - 2 * ((t + k - c) % k) as i64;
        let plus = dist2 > 0 || (dist2 == 0 && tie());
        let wraps = if plus { c > t } else { t > c };
        ((2 * d + usize::from(!plus)) as u32, u8::from(wraps))
    }

    fn planar_adapt(
        &self,
        at: usize,
        dest: usize,
        w: Waiting,
        nv: u8,
        out: &mut [Choice; 8],
    ) -> usize {
        let m = nv / 3;
        let co: Vec<(usize, usize, usize)> = self.coords(at, dest).collect();
        let nd = co.len();
        let in_dim0 = w.in_port.is_some_and(|p| p / 2 == 0);
        let plane = (0..nd)
            .find(|&d| co[d].0 != co[d].1 && !(in_dim0 && d == 0 && w.in_vc < 2 * m))
            .expect("planar_adapt: a packet always has an unfinished plane");
        let increase = co[plane].0 < co[plane].1;
        out[0] = Choice {
            port: (2 * plane + usize::from(!increase)) as u32,
            lo: 2 * m,
            hi: nv - 1,
        };
        // Dimension i + 1 (none past the last: BookSim's coordinates run out there).
        let lo = if increase { 0 } else { m };
        let next = plane + 1;
        let d1 = (next < nd && co[next].0 != co[next].1)
            .then(|| (2 * next + usize::from(co[next].0 > co[next].1)) as u32)
            .filter(|&p| Some(p) != w.in_port);
        match d1 {
            Some(port) => {
                out[1] = Choice {
                    port,
                    lo,
                    hi: lo + m - 1,
                };
                2
            }
            None => 1,
        }
    }
}

/// The (channel, VC) dependencies of a route-set routing: per destination router, every
/// (router, input port, VC, state) a head can wait in, from injection at every router
/// with endpoints, with an edge from the channel-VC it waits in to every one it may
/// take. Torus ties are explored both ways.
pub(super) fn dependencies(topo: &Topology, sets: &RouteSets, vcs: u32) -> Vec<(u32, u32)> {
    let n = topo.num_switches();
    let ports = (0..n).map(|s| topo.num_ports(s)).max().unwrap_or(1);
    let hosts: Vec<usize> = {
        let w = topo.endpoints_per_switch();
        (0..n).filter(|&s| w[s] > 0).collect()
    };
    let nv = vcs as u8;
    let mut edges = Vec::new();
    // Seen (router, input port, VC, state bit) for the current destination.
    let key = |r: usize, p: usize, v: u8, s: u8| {
        ((r * ports + p) * vcs as usize + v as usize) * 2 + s as usize
    };
    let mut seen = vec![u32::MAX; n * ports * vcs as usize * 2];
    for (stamp, &dest) in hosts.iter().enumerate() {
        // (router, waiting, the channel-VC it waits in: None when injected).
        let mut stack: Vec<(usize, Waiting, Option<u32>)> = Vec::new();
        for &src in hosts.iter().filter(|&&s| s != dest) {
            for v in 0..nv {
                let w = Waiting {
                    in_port: None,
                    in_vc: v,
                    state: 0,
                };
                stack.push((src, w, None));
            }
        }
        while let Some((at, w, from)) = stack.pop() {
            let mut out = [Choice {
                port: 0,
                lo: 0,
                hi: 0,
            }; 8];
            for coin in [false, true] {
                let (count, state) = sets.choices(at, dest, w, nv, &mut || coin, &mut out);
                for c in &out[..count] {
                    let Peer::Switch { switch, port, link } = topo.peer(at, c.port as usize) else {
                        continue;
                    };
                    let ch = topo.channel(link, at as u32);
                    for v in c.lo..=c.hi.min(nv - 1) {
                        let to = ch * vcs + v as u32;
                        if let Some(f) = from {
                            edges.push((f, to));
                        }
                        let next = switch as usize;
                        if next == dest {
                            continue;
                        }
                        let k = key(next, port as usize, v, state & 1);
                        if seen[k] != stamp as u32 {
                            seen[k] = stamp as u32;
                            let w = Waiting {
                                in_port: Some(port),
                                in_vc: v,
                                state,
                            };
                            stack.push((next, w, Some(to)));
                        }
                    }
                }
            }
        }
    }
    edges.sort_unstable();
    edges.dedup();
    edges
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::{check_deadlock, Routing, RoutingKind, VcRule};

    #[test]
    fn min_adapt_needs_its_escape_vc_and_planar_adapt_is_acyclic() {
        let t = Topology::from_spec("mesh:6x6").unwrap();
        let mut r = Routing::new(&t, RoutingKind::MinAdapt, None).unwrap();
        // BookSim's sets keep the dimension-order port only: no cycle at all.
        let nodes = 2 * t.num_links() * 3;
        let edges = dependencies(&t, r.route_sets().unwrap(), 3);
        assert!(crate::routing::cdg::find_cycle(nodes, &edges).is_empty());
        // Every choice: cycles among the adaptive VCs, none among the escape VC's.
        r.keep_all_choices();
        let edges = dependencies(&t, r.route_sets().unwrap(), 3);
        assert!(!crate::routing::cdg::find_cycle(nodes, &edges).is_empty());
        let rep = check_deadlock(&t, &r, 3, VcRule::Auto).unwrap();
        assert!(rep.deadlock_free && rep.dependencies == edges.len());
        // Deadlock-free with BookSim's choices and with every choice.
        let free_both = |spec: &str, kind, vcs| {
            let t = Topology::from_spec(spec).unwrap();
            let mut r = Routing::new(&t, kind, None).unwrap();
            let first = check_deadlock(&t, &r, vcs, VcRule::Auto)
                .unwrap()
                .deadlock_free;
            r.keep_all_choices();
            first
                && check_deadlock(&t, &r, vcs, VcRule::Auto)
                    .unwrap()
                    .deadlock_free
        };
        assert!(free_both("mesh:6x6", RoutingKind::PlanarAdapt, 3));
        assert!(free_both("torus:6x6", RoutingKind::MinAdapt, 4));
    }

    #[test]
    fn min_adapt_offers_the_escape_port_and_every_productive_one() {
        let t = Topology::from_spec("mesh:4x4").unwrap();
        let mut sets = RouteSets::new(&t, SetKind::MinAdapt).unwrap();
        sets.keep = Choices::All;
        let mut out = [Choice {
            port: 0,
            lo: 0,
            hi: 0,
        }; 8];
        let w = Waiting {
            in_port: None,
            in_vc: 0,
            state: 0,
        };
        // (0,0) -> (2,3): escape +x on VC 0; adaptive +x and +y on VCs 1..3.
        let (n, _) = sets.choices(0, 2 + 3 * 4, w, 4, &mut || false, &mut out);
        assert_eq!(
            &out[..n],
            &[
                Choice {
                    port: 0,
                    lo: 0,
                    hi: 0
                },
                Choice {
                    port: 0,
                    lo: 1,
                    hi: 3
                },
                Choice {
                    port: 2,
                    lo: 1,
                    hi: 3
                },
            ]
        );
        // In the escape VC only the escape path is offered.
        let esc = Waiting {
            in_port: Some(1),
            in_vc: 0,
            state: 0,
        };
        assert_eq!(
            sets.choices(1, 2 + 3 * 4, esc, 4, &mut || false, &mut out)
                .0,
            1
        );
        // BookSim's OutputSet keeps the escape choice and the first adaptive one only.
        sets.keep = Choices::Booksim;
        let (n, _) = sets.choices(0, 2 + 3 * 4, w, 4, &mut || false, &mut out);
        assert_eq!(n, 2);
        assert_eq!(
            out[1],
            Choice {
                port: 0,
                lo: 1,
                hi: 3
            }
        );
    }
}
