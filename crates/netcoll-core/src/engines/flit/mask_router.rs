//! The router's stages for the common case, on router-local bit masks: iSLIP VC allocation
//! and iSLIP switch allocation (both BookSim's defaults), no multidestination worms, and a
//! router of at most 64 VCs (every port's VCs together). Every BookSim mesh, torus and
//! anynet run takes this path; everything else takes the general stages (vc_masks.rs,
//! sw_alloc.rs), which give the same matchings, pointer moves and traversal order
//! (`tests_mask_router.rs` runs both on the same configurations).
//!
//! One visit of router `r`: the network's arrays it touches are borrowed apart once (no
//! reloads of `self.*` through `&mut self`), its VCs are numbered locally (`port * num_vcs +
//! vc`, as in its wait set), and
//!
//! 1. routing: an idle waiting VC is routed inline for the route table and the closed-form
//!    mesh DOR (other routings run `Network::route` first);
//! 2. VC allocation: the iSLIP matching of vc_masks.rs;
//! 3. switch allocation: the router's eligible input VCs (output VC held, flit ready, a
//!    credit) are one mask; per output port the mask of the eligible VCs that want it. An
//!    output grants the input port nearest its pointer among the ports with a VC in its
//!    mask; an input accepts the granted output nearest its pointer and sends the VC of
//!    that output's mask nearest its VC offset: iSLIP's request per (input, output) is the
//!    VC nearest the offset, and only accepted pairs need it.
//!
//! The accepted flits traverse after the allocation, in input port order (as the general
//! allocator's accept loop sends them): a traversal changes nothing the allocation of the
//! same router reads.

use super::allocator::{next, rotate_pick};
use super::config::{FlowControl, SwAllocator, VcAllocator};
use super::network::{Network, ACTIVE, IDLE, VC_WAIT};
use super::router::mesh_dor;

/// Local VCs (and ports) a router on this path has at most.
const LOCAL: usize = 64;

/// The path's switch in a run, and its scratch (per local output and input port).
pub struct MaskRouter {
    /// Off: every router runs the general stages (tests compare the two paths).
    pub enabled: bool,
    /// Per local output port: the eligible local input VCs that want it.
    by_out: [u64; LOCAL],
    /// Per local input port: the outputs that granted it.
    grants: [u64; LOCAL],
    /// Per local input port: the VC its accepted output sends.
    sent_vc: [u8; LOCAL],
}

impl Default for MaskRouter {
    fn default() -> MaskRouter {
        MaskRouter {
            enabled: true,
            by_out: [0; LOCAL],
            grants: [0; LOCAL],
            sent_vc: [0; LOCAL],
        }
    }
}

/// The mask of bits `0..n` (`n <= 64`).
#[inline(always)]
fn low_bits(n: usize) -> u64 {
    if n >= 64 {
        !0
    } else {
        (1u64 << n) - 1
    }
}

impl Network<'_> {
    /// Whether this cycle's routers run on this path (checked once per cycle: a run may
    /// place worms later, and tests switch the path off).
    pub(super) fn mask_router_applies(&self) -> bool {
        self.mr.enabled
            && self.cfg.vc_allocator == VcAllocator::Islip
            && self.cfg.sw_allocator == SwAllocator::Islip
            && self.rep.table.visits() == 0
            && self.out_req.len() * self.nv <= self.va.mask_limit.min(LOCAL)
    }

    /// Whether routing is inline (route table, or DOR on a large mesh) on this path.
    #[inline]
    fn inline_routing(&self) -> bool {
        self.route_n != 0 || (!self.mesh_dims.is_empty() && self.step_classes <= 1)
    }

    /// One visit of router `r` on this path (see the module comment).
    pub(super) fn mask_router(&mut self, r: usize) {
        if !self.inline_routing() {
            self.route_idle(r);
        }
        let mut sent = self.mask_stages(r);
        let p0 = self.pstart[r] as usize;
        while sent != 0 {
            let i = sent.trailing_zeros() as usize;
            sent &= sent - 1;
            let v = self.mr.sent_vc[i] as usize;
            self.traverse(r, p0 + i, v);
        }
    }

    /// Routes the idle waiting VCs of router `r` by [`Network::route`].
    fn route_idle(&mut self, r: usize) {
        let p0v = self.pstart[r] as usize * self.nv;
        let mut bits = self.wait_bits[r];
        while bits != 0 {
            let ivc = p0v + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if self.vcs[ivc].state == IDLE {
                self.route(ivc, r);
            }
        }
    }

    /// Routing, VC and switch allocation at router `r`; returns the local input ports
    /// whose flit goes (the VC of each in `mr.sent_vc`).
    fn mask_stages(&mut self, r: usize) -> u64 {
        let inline_rc = self.inline_routing();
        let vct = self.cfg.flow_control == FlowControl::CutThrough;
        let Network {
            vcs,
            pstart,
            wait_bits,
            sa_mask,
            va,
            in_rr,
            out_rr,
            sa_aptr,
            route_table,
            route_n,
            mesh_dims,
            ep_switch,
            ep_port,
            packets,
            mr,
            now,
            nv,
            cfg,
            ..
        } = self;
        let (now, nv, route_n) = (*now, *nv, *route_n);
        let p0 = pstart[r] as usize;
        let np = pstart[r + 1] as usize - p0;
        let n = np * nv;
        let vcs = &mut vcs[p0 * nv..p0 * nv + n];
        let sa_mask = &mut sa_mask[p0..p0 + np];
        let out_free = &mut va.out_free[p0..p0 + np];
        let mut wait = wait_bits[r];
        if wait != 0 {
            // Routing, and the VCs ready for VC allocation.
            let mut reqs = 0u64;
            let mut bits = wait;
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let v = &mut vcs[i];
                if v.state == IDLE && inline_rc {
                    let dst = v.front.dst();
                    let dst_sw = ep_switch[dst] as usize;
                    if dst_sw == r {
                        v.out_port = ep_port[dst];
                        v.class = u8::MAX;
                    } else if route_n != 0 {
                        let e = route_table[r * route_n + dst_sw];
                        v.out_port = (p0 as u32) + (e & 0xffff);
                        v.class = (e >> 16) as u8;
                        v.front.set_rstate((e >> 24) as u8);
                    } else {
                        let (port, _, state) = mesh_dor(mesh_dims, r, dst_sw);
                        v.out_port = p0 as u32 + port;
                        v.class = 0;
                        v.front.set_rstate(state);
                    }
                    v.state = VC_WAIT;
                    v.ready = now + cfg.routing_delay as u64;
                }
                if v.ready <= now {
                    reqs |= 1 << i;
                }
            }
            // Candidates of a requester: the free VCs of its class on its output port
            // (under virtual cut-through, with room for the whole packet), local numbers.
            let candidates = |vcs: &[super::types::Vc], out_free: &[u64], i: usize| -> u64 {
                let v = &vcs[i];
                let o = v.out_port as usize - p0;
                let mut cand = out_free[o] & va.class_mask[v.class as usize];
                if vct {
                    let need = packets[v.front.pkt as usize].size;
                    let mut bits = cand;
                    while bits != 0 {
                        let ov = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        if vcs[o * nv + ov].credits < need {
                            cand &= !(1 << ov);
                        }
                    }
                }
                cand << (o * nv)
            };
            let mut grant = |vcs: &mut [super::types::Vc], out_free: &mut [u64], i: usize, o: usize| {
                let (ip, iv) = va.split[i];
                let (op, ov) = va.split[o];
                let out = &mut vcs[o];
                out.owner = (p0 * nv + i) as u32;
                out.va_gptr = next(i, n) as u16;
                out_free[op as usize] &= !(1 << ov);
                let v = &mut vcs[i];
                v.va_aptr = next(o, n) as u16;
                v.out_vc = ov;
                v.state = ACTIVE;
                v.ready = now + va.delay;
                sa_mask[ip as usize] |= 1 << iv;
                wait &= !(1 << i);
            };
            if reqs & reqs.wrapping_sub(1) == 0 && reqs != 0 {
                let i = reqs.trailing_zeros() as usize;
                let cand = candidates(vcs, out_free, i);
                if cand != 0 {
                    let o = rotate_pick(cand, vcs[i].va_aptr as usize);
                    grant(vcs, out_free, i, o);
                }
            } else if reqs != 0 {
                // Candidates, and the outputs asked for by more than one requester.
                let (mut asked, mut conflicts) = (0u64, 0u64);
                let mut bits = reqs;
                while bits != 0 {
                    let i = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let cand = candidates(vcs, out_free, i);
                    va.cand[i] = cand;
                    conflicts |= asked & cand;
                    asked |= cand;
                }
                // Grant: a conflict output grants the requester nearest its pointer only.
                while conflicts != 0 {
                    let o = conflicts.trailing_zeros() as usize;
                    conflicts &= conflicts - 1;
                    let mut askers = 0u64;
                    let mut bits = reqs;
                    while bits != 0 {
                        let i = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        askers |= (va.cand[i] >> o & 1) << i;
                    }
                    let winner = rotate_pick(askers, vcs[o].va_gptr as usize);
                    let mut losers = askers & !(1 << winner);
                    while losers != 0 {
                        let i = losers.trailing_zeros() as usize;
                        losers &= losers - 1;
                        va.cand[i] &= !(1 << o);
                    }
                }
                // Accept: every requester takes the grant nearest its pointer.
                let mut bits = reqs;
                while bits != 0 {
                    let i = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let grants = va.cand[i];
                    if grants != 0 {
                        let o = rotate_pick(grants, vcs[i].va_aptr as usize);
                        grant(vcs, out_free, i, o);
                    }
                }
            }
            wait_bits[r] = wait;
        }
        // Switch allocation. Requests: the eligible VCs by output port.
        let mut elig = 0u64;
        for (i, &m) in sa_mask.iter().enumerate() {
            elig |= m << (i * nv);
        }
        let mut outs = 0u64;
        while elig != 0 {
            let b = elig.trailing_zeros() as usize;
            elig &= elig - 1;
            let v = &vcs[b];
            if v.ready > now {
                continue;
            }
            let o = v.out_port as usize - p0;
            if vcs[o * nv + v.out_vc as usize].credits == 0 {
                continue;
            }
            mr.by_out[o & (LOCAL - 1)] |= 1 << b;
            outs |= 1 << o;
        }
        // Grant: every requested output picks an input port.
        let mut ins = 0u64;
        let mut bits = outs;
        while bits != 0 {
            let o = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let mut ports = 0u64;
            let mut want = mr.by_out[o];
            while want != 0 {
                ports |= 1 << va.split[want.trailing_zeros() as usize].0;
                want &= want - 1;
            }
            let i = rotate_pick(ports, out_rr[p0 + o] as usize);
            mr.grants[i] |= 1 << o;
            ins |= 1 << i;
        }
        // Accept: every granted input port picks an output and sends its VC for it.
        let vmask = low_bits(nv);
        let mut sent = 0u64;
        while ins != 0 {
            let i = ins.trailing_zeros() as usize;
            ins &= ins - 1;
            let grants = std::mem::take(&mut mr.grants[i]);
            let gi = p0 + i;
            let o = rotate_pick(grants, sa_aptr[gi] as usize);
            let v = rotate_pick(mr.by_out[o] >> (i * nv) & vmask, in_rr[gi] as usize);
            out_rr[p0 + o] = next(i, np) as u16;
            sa_aptr[gi] = next(o, np) as u16;
            in_rr[gi] = next(v, nv) as u8;
            mr.sent_vc[i] = v as u8;
            sent |= 1 << i;
        }
        while outs != 0 {
            let o = outs.trailing_zeros() as usize;
            outs &= outs - 1;
            mr.by_out[o] = 0;
        }
        sent
    }
}
