//! Adaptive routing in the flit engine: BookSim's UGAL and Valiant on the dragonfly
//! (dragonfly.cpp's `ugal_dragonflynew`) and on the flattened butterfly and HyperX
//! (flatfly_onchip.cpp's `ugal_flatfly`, `valiant_flatfly`), and its fat-tree NCA with an up
//! port drawn per packet (routefunc.cpp's `fattree_nca`, `fattree_anca`), reading the
//! router's credit state as BookSim's `GetUsedCredit` does, with their VC rules and phases.
//!
//! A packet's phase is its routing state (`Flit::rstate`); its intermediate router is kept
//! per packet slot (`Network::adapt_via`), so these runs read a table per routed head and
//! run on one thread (par.rs). The source router decides (a head that came in from an NI);
//! later routers follow the phase. Minimal hops are the family's (l-g-l on the dragonfly,
//! lowest dimension first on the flatfly: the same ports as BookSim's `dragonfly_port` and
//! `flatfly_outport`).
//!
//! Dragonfly: class `c` is VC `c` alone (BookSim's `out_vc = f->ph`, `FlitAdaptive::pins_vcs`)
//! and a packet ejects on its phase's VC, as BookSim's routing functions set it. Minimal
//! (`min_dragonflynew`, 2 classes): phase 0 to the global hop, 1 from it on. UGAL and
//! Valiant (3 classes; BookSim asserts `num_vcs = 3`): phase 0 travels to the intermediate
//! router, 1 minimally before the global hop, 2 from the global hop on; the class is the
//! phase. UGAL picks phase 0 when the minimal output's used credits
//! exceed twice the Valiant output's plus 30 (BookSim's `adaptive_threshold`). The
//! intermediate is a uniformly drawn router; one in the source group means minimal. Valiant
//! is netcoll's (BookSim has none for the dragonfly): UGAL's phases with the choice always
//! non-minimal.
//!
//! With `routing_delay = 0` BookSim routes by lookahead: a router computes the next
//! router's route as a head leaves it, and the NI the source router's as the head leaves the
//! NI. Only the source's UGAL choice reads state, so it alone moves: it is made at the NI,
//! on the credits of that moment, and the head then queues in the source router's input VC
//! with its phase fixed (`Network::route_at_injection`).
//!
//! Flattened butterfly (2 classes, the halves of the VCs): UGAL's intermediate keeps the
//! source's coordinate where source and destination agree and draws the others; it goes
//! non-minimal (phase 1, lower half) when `hops_min * q_min > hops_val * q_val + 2`, else
//! minimal (phase 2, upper half); an intermediate at the source router means minimal.
//! Valiant draws any router: phase 0 (lower half) to it, 1 (upper half) from it, or from
//! the destination router if the way passes it (BookSim ejects there).

pub use super::adaptive_kind::FlitAdaptive;
use super::adaptive_kind::{
    Choice, DragonflyHops, FatTreeHops, Shape, DRAGONFLY_NONMIN_WEIGHT, DRAGONFLY_THRESHOLD,
    FLATFLY_THRESHOLD,
};
use super::channel::Flit;

use super::network::{In, Network};
use crate::routing::dragonfly_port;
use crate::topology::{Family, LinkClass};

/// A flit's routing state bit saying that its source router's phase (the low bits) was
/// chosen as it left its NI ([`Network::route_at_injection`]).
pub(super) const DECIDED_AT_NI: u8 = 0x80;

/// What the adaptive routing decided at a router: the local output port (ignored when it
/// ejects), the VC class (`u8::MAX`: any VC) and the packet's phase after it.
struct Decision {
    port: u32,
    class: u8,
    phase: u8,
    eject: bool,
}

impl Decision {
    fn hop(port: u32, class: u8, phase: u8) -> Decision {
        Decision {
            port,
            class,
            phase,
            eject: false,
        }
    }

    /// Ejection on VC class `class` (`u8::MAX`: any VC).
    fn eject(class: u8, phase: u8) -> Decision {
        Decision {
            port: 0,
            class,
            phase,
            eject: true,
        }
    }
}

impl Network<'_> {
    /// Routes the head at the front of input VC `ivc` of router `r` adaptively (before the
    /// ejection test: BookSim's phases may carry a packet through its destination router).
    /// The dragonfly's minimal routing by its table of hops, without step VC classes (the
    /// dragonfly runfile's every head), is inlined into the VC allocators' loops; the
    /// others take `route_adaptive_any`. Left to the compiler: forced inline, the
    /// dragonfly's steps crowd every VC allocator's loop (singleconfig's dense one ran 8%
    /// slower with them); the per-port gather the dragonfly runfile takes inlines them
    /// ([`Network::route_adaptive_inline`]).
    #[inline]
    pub(super) fn route_adaptive(&mut self, ivc: usize, r: usize) {
        self.route_adaptive_inline(ivc, r);
    }

    /// [`Network::route_adaptive`], inlined where it is called.
    #[inline(always)]
    pub(super) fn route_adaptive_inline(&mut self, ivc: usize, r: usize) {
        let ad = self
            .adaptive
            .as_deref()
            .expect("route_adaptive runs only with an adaptive routing");
        let Some(hops) = ad.inline_min_hops().filter(|_| self.step_classes <= 1) else {
            return self.route_adaptive_any(ivc, r);
        };
        let f = self.vcs[ivc].front;
        let d = self.dragonfly_min_step(Some(hops), ivc, r, f.dst(), f.rstate());
        self.apply_decision(ivc, r, f, d);
    }

    /// [`Network::route_adaptive`] by any adaptive routing.
    #[inline(never)]
    fn route_adaptive_any(&mut self, ivc: usize, r: usize) {
        let f = self.vcs[ivc].front;
        let dst_ep = f.dst();
        let ad = self
            .adaptive
            .as_deref()
            .expect("route_adaptive runs only with an adaptive routing");
        // NCA and the dragonfly's minimal routing keep no intermediate router: they decide
        // by reading the network (the draws are counted here), the others in `route_phases`.
        let d = match &ad.shape {
            Shape::FatTree { k, hops } => {
                let (d, draws) = self.fat_tree_step(ad, r, dst_ep, *k, hops);
                self.adapt_draws += draws;
                d
            }
            Shape::Dragonfly { .. } if ad.choice == Choice::Min => {
                self.dragonfly_min_step(ad.dragonfly_hops(), ivc, r, dst_ep, f.rstate())
            }
            _ => self.route_phases(ivc, r, f),
        };
        self.apply_decision(ivc, r, f, d);
    }

    /// Input VC `ivc` of router `r`, whose front flit is `f`, takes the routing's decision
    /// `d`: its output port, VC class and the packet's phase.
    #[inline(always)]
    fn apply_decision(&mut self, ivc: usize, r: usize, f: Flit, d: Decision) {
        let vclass = if self.step_classes > 1 {
            self.packets[f.pkt as usize].vclass
        } else {
            0
        };
        let class = if d.class == u8::MAX {
            u8::MAX
        } else {
            self.hop_class(vclass, d.class)
        };
        // Both read and one selected: whether a head ejects follows no pattern.
        let (ejection, hop) = (self.ep_port[f.dst()], self.pstart[r] + d.port);
        let v = &mut self.vcs[ivc];
        v.out_port = if d.eject { ejection } else { hop };
        v.class = class;
        v.front.set_rstate(d.phase);
    }

    /// UGAL and Valiant, whose packets keep their intermediate router (`adapt_via`) and
    /// whose source router decides (a head that came in from an NI).
    #[inline(never)]
    fn route_phases(&mut self, ivc: usize, r: usize, f: Flit) -> Decision {
        let pkt = f.pkt as usize;
        if self.adapt_via.len() <= pkt {
            self.adapt_via.resize(self.packets.len().max(pkt + 1), 0);
        }
        let injected = matches!(self.in_from[ivc / self.nv], In::Ni(_));
        // Taken out while it decides (a move of a box), so the steps borrow the network.
        let ad = self
            .adaptive
            .take()
            .expect("route_phases runs only with an adaptive routing");
        let (dst_ep, phase) = (f.dst(), f.rstate());
        let d = match &ad.shape {
            Shape::Dragonfly { a, .. } => {
                self.dragonfly_step(&ad, r, pkt, dst_ep, phase, injected, *a)
            }
            Shape::Hamming { dims } => {
                self.hamming_step(&ad, r, pkt, dst_ep, phase, injected, dims)
            }
            Shape::FatTree { .. } => unreachable!("NCA routes in route_adaptive"),
        };
        self.adaptive = Some(ad);
        d
    }

    /// BookSim's `GetUsedCredit`: the flits sent on output port `port` (local) of router
    /// `r` whose credits are not back, over all its VCs.
    pub(super) fn used_credits(&self, r: usize, port: u32) -> u32 {
        let g = (self.pstart[r] + port) as usize;
        let depth = self.depth as u32;
        self.credits[g * self.nv..(g + 1) * self.nv]
            .iter()
            .map(|&c| depth.saturating_sub(c as u32))
            .sum()
    }

    /// The family's minimal hop from `r` towards router `to` (`r != to`): (local port, over
    /// a global link). The dragonfly's by index arithmetic (`dragonfly_port`, the family
    /// routing's own hop without its neighbour look-up), the others by the routing.
    fn min_port(&self, r: usize, to: usize) -> (u32, bool) {
        if let Family::Dragonfly(p) = self.topo.family() {
            let (port, global) = dragonfly_port(p, r, to);
            return (port as u32, global);
        }
        let step = self
            .routing
            .next(self.topo, r, to, 0)
            .expect("not at the target router");
        let global = self.topo.link_class(step.via.link) == LinkClass::Global;
        (step.via.port, global)
    }

    fn next_draw(&mut self, ad: &FlitAdaptive, bound: usize) -> usize {
        self.adapt_draws += 1;
        ad.draw(self.adapt_draws, bound)
    }

    /// `min_dragonflynew`: phase 0 until the global hop, 1 from it on; minimal hops by the
    /// table `hops` when there is one.
    #[inline(always)]
    fn dragonfly_min_step(
        &self,
        hops: Option<&DragonflyHops>,
        ivc: usize,
        r: usize,
        dst_ep: usize,
        mut phase: u8,
    ) -> Decision {
        // BookSim starts every packet in phase 0, whatever group it is for: a flit leaves
        // its NI with routing state 0 (`Flit::new`), so a head from an NI is in phase 0.
        debug_assert!(phase == 0 || !matches!(self.in_from[ivc / self.nv], In::Ni(_)));
        let dest = self.ep_switch[dst_ep] as usize;
        // With the table, the hop is read whether or not the head ejects here and the
        // ejection selected (a branch on it follows no pattern): ejection keeps the phase.
        let eject = dest == r;
        let (port, global) = match hops {
            Some(hops) => hops.hop(r, dest),
            None if eject => (0, false),
            None => self.min_port(r, dest),
        };
        phase = if global & !eject { 1 } else { phase };
        Decision {
            port,
            class: phase,
            phase,
            eject,
        }
    }

    /// `ugal_dragonflynew` (and netcoll's Valiant with UGAL's phases).
    #[allow(clippy::too_many_arguments)]
    fn dragonfly_step(
        &mut self,
        ad: &FlitAdaptive,
        r: usize,
        pkt: usize,
        dst_ep: usize,
        mut phase: u8,
        injected: bool,
        a: usize,
    ) -> Decision {
        let dest = self.ep_switch[dst_ep] as usize;
        if injected {
            phase = if phase & DECIDED_AT_NI != 0 {
                phase & !DECIDED_AT_NI
            } else {
                self.dragonfly_source_phase(ad, r, pkt, dest, a)
            };
        }
        let via = self.adapt_via[pkt] as usize;
        if phase == 0 && r == via {
            phase = 1;
        }
        let target = if phase == 0 { via } else { dest };
        if target == r {
            return Decision::eject(phase, phase);
        }
        let (port, global) = self.min_port(r, target);
        if phase == 1 && global {
            phase = 2;
        }
        Decision::hop(port, phase, phase)
    }

    /// The source router's choice of `ugal_dragonflynew` (and netcoll's Valiant): phase 2
    /// within the group, else an intermediate drawn (its router kept for the packet) and
    /// phase 1 (minimal: the intermediate in this group, or UGAL's queue comparison) or 0.
    fn dragonfly_source_phase(
        &mut self,
        ad: &FlitAdaptive,
        r: usize,
        pkt: usize,
        dest: usize,
        a: usize,
    ) -> u8 {
        if dest / a == r / a {
            return 2;
        }
        let via = self.next_draw(ad, self.topo.num_switches());
        self.adapt_via[pkt] = via as u32;
        if via / a == r / a {
            1
        } else if ad.choice == Choice::Valiant {
            0
        } else {
            let q_min = self.used_credits(r, self.min_port(r, dest).0);
            let q_val = self.used_credits(r, self.min_port(r, via).0);
            if q_min <= DRAGONFLY_NONMIN_WEIGHT * q_val + DRAGONFLY_THRESHOLD {
                1
            } else {
                0
            }
        }
    }

    /// BookSim's lookahead routing (`routing_delay = 0`) for dragonfly UGAL: the source
    /// router's route is computed as the head leaves its NI (trafficmanager.cpp calls the
    /// routing function for the injection channel's router then), so UGAL reads the source
    /// router's credits before the head queues in its input VC, not when it reaches the
    /// front. The phase goes in the flit's routing state, marked [`DECIDED_AT_NI`].
    pub(crate) fn route_at_injection(&mut self, ep: usize, flit: &mut Flit) {
        let Some(ad) = self.adaptive.as_deref() else {
            return;
        };
        let Shape::Dragonfly { a, .. } = ad.shape else {
            return;
        };
        if !flit.head || ad.choice != Choice::Ugal || self.cfg.routing_delay != 0 {
            return;
        }
        let pkt = flit.pkt as usize;
        if self.adapt_via.len() <= pkt {
            self.adapt_via.resize(self.packets.len().max(pkt + 1), 0);
        }
        let ad = self.adaptive.take().expect("checked above");
        let r = self.ep_switch[ep] as usize;
        let dest = self.ep_switch[flit.dst()] as usize;
        let phase = self.dragonfly_source_phase(&ad, r, pkt, dest, a);
        self.adaptive = Some(ad);
        flit.set_rstate(phase | DECIDED_AT_NI);
    }

    /// `ugal_flatfly` and `valiant_flatfly` on the Hamming families.
    #[allow(clippy::too_many_arguments)]
    fn hamming_step(
        &mut self,
        ad: &FlitAdaptive,
        r: usize,
        pkt: usize,
        dst_ep: usize,
        mut phase: u8,
        injected: bool,
        dims: &[usize],
    ) -> Decision {
        let dest = self.ep_switch[dst_ep] as usize;
        let eject = |phase| Decision::eject(u8::MAX, phase);
        if ad.choice == Choice::Valiant {
            if injected {
                phase = 0;
                let via = self.next_draw(ad, self.topo.num_switches());
                self.adapt_via[pkt] = via as u32;
            }
            let via = self.adapt_via[pkt] as usize;
            if via == r || dest == r {
                phase = 1;
            }
            if phase == 1 && dest == r {
                return eject(phase);
            }
            let target = if phase == 0 { via } else { dest };
            let port = self.min_port(r, target).0;
            return Decision::hop(port, phase, phase);
        }
        if injected {
            phase = 0;
        }
        let mut target = if phase == 1 {
            self.adapt_via[pkt] as usize
        } else {
            dest
        };
        if target == r {
            if phase != 1 {
                return eject(phase);
            }
            phase = 2;
            target = dest;
            if target == r {
                return eject(phase);
            }
        }
        if phase == 0 {
            let via = self.hamming_intermediate(ad, r, dest, dims);
            let hops_min = hamming_distance(r, dest, dims);
            let q_min = self.used_credits(r, self.min_port(r, dest).0) as u64;
            if via == r {
                // BookSim: the non-minimal queue counts as INT_MAX, and either way the
                // packet goes minimally.
                phase = 2;
            } else {
                let hops_val = hamming_distance(r, via, dims) + hamming_distance(via, dest, dims);
                let q_val = self.used_credits(r, self.min_port(r, via).0) as u64;
                if hops_min * q_min <= hops_val * q_val + FLATFLY_THRESHOLD {
                    phase = 2;
                } else {
                    phase = 1;
                    self.adapt_via[pkt] = via as u32;
                    target = via;
                }
            }
        }
        let port = self.min_port(r, target).0;
        Decision::hop(port, if phase == 1 { 0 } else { 1 }, phase)
    }

    /// BookSim's `fattree_nca` / `fattree_anca`: down the one way when the destination
    /// lies below, else up by a drawn port (ANCA: of two drawn, the second only when the
    /// first has more used credits, as BookSim compares them). Also gives the number of
    /// draws taken (the caller counts them: the routing stays borrowed meanwhile).
    fn fat_tree_step(
        &self,
        ad: &FlitAdaptive,
        r: usize,
        dst_ep: usize,
        k: usize,
        hops: &FatTreeHops,
    ) -> (Decision, u64) {
        let dest = self.ep_switch[dst_ep] as usize;
        if dest == r {
            return (Decision::eject(u8::MAX, 0), 0);
        }
        let up_base = match hops.hop(r, dest) {
            Ok(down) => return (Decision::hop(down, 0, 1), 0),
            Err(up_base) => up_base as usize,
        };
        let draw = |n| (up_base + ad.draw(self.adapt_draws + n, k)) as u32;
        if ad.choice == Choice::Anca {
            let (p1, p2) = (draw(1), draw(2));
            let port = if self.used_credits(r, p1) > self.used_credits(r, p2) {
                p2
            } else {
                p1
            };
            (Decision::hop(port, 0, 0), 2)
        } else {
            (Decision::hop(draw(1), 0, 0), 1)
        }
    }

    /// BookSim's `find_ran_intm`: the source's coordinate where source and destination
    /// agree, a drawn one elsewhere.
    fn hamming_intermediate(
        &mut self,
        ad: &FlitAdaptive,
        src: usize,
        dest: usize,
        dims: &[usize],
    ) -> usize {
        let (mut s, mut t, mut via, mut place) = (src, dest, 0, 1);
        for &k in dims {
            let (sd, td) = (s % k, t % k);
            let digit = if sd == td { sd } else { self.next_draw(ad, k) };
            via += digit * place;
            (s, t, place) = (s / k, t / k, place * k);
        }
        via
    }
}

/// Router hops between two routers of a Hamming graph (dimensions that differ).
fn hamming_distance(mut a: usize, mut b: usize, dims: &[usize]) -> u64 {
    let mut hops = 0;
    for &k in dims {
        hops += (a % k != b % k) as u64;
        (a, b) = (a / k, b / k);
    }
    hops
}
