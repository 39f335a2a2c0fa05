//! Step VC classes: the network-coding paper's deadlock avoidance (seed 000 s3, s5: "assigning
//! different virtual channels to communication steps ... four virtual channels are needed for
//! four communication steps"). The VCs of every port split into `step_classes` blocks of
//! consecutive VCs; a packet of step class `b` uses only block `b`, on every hop and on its
//! injection channel, so packets of different steps never wait for one another's VCs. Inside
//! a block the routing's own classes (the torus dateline) split the VCs again: hop class
//! `b * route_classes + routing_class`. With one block (the default) nothing changes.

use super::network::Network;
use crate::error::Result;
use crate::spec_err;

impl Network<'_> {
    /// Splits the VCs into `blocks` step classes, each split by the routing's classes.
    pub fn set_step_classes(&mut self, blocks: usize) -> Result<()> {
        let rc = self.route_classes.max(1) as usize;
        let need = blocks * rc;
        if blocks == 0 || blocks > 255 || need > self.nv {
            return spec_err!(
                "{blocks} step VC classes x {rc} routing class(es) need {need} VCs, but \
                 num_vcs = {}: raise num_vcs or lower step_vc_classes",
                self.nv
            );
        }
        let nv = self.nv;
        let (mut lo, mut hi) = (Vec::with_capacity(need), Vec::with_capacity(need));
        for b in 0..blocks {
            let (b0, b1) = (b * nv / blocks, (b + 1) * nv / blocks);
            for c in 0..rc {
                lo.push((b0 + c * (b1 - b0) / rc) as u8);
                hi.push((b0 + (c + 1) * (b1 - b0) / rc) as u8);
            }
        }
        self.va.set_classes(&lo, &hi, nv);
        self.class_lo = lo;
        self.class_hi = hi;
        self.step_classes = blocks as u8;
        self.set_route_n();
        Ok(())
    }

    /// The class a packet of step class `vclass` takes on a hop of routing class `rclass`.
    #[inline]
    pub(super) fn hop_class(&self, vclass: u8, rclass: u8) -> u8 {
        let rc = self.route_classes.max(1);
        let r = if rc > 1 { rclass } else { 0 };
        vclass * rc + r
    }

    /// The VCs `lo..hi` a packet of step class `vclass` may enter the network on.
    #[inline]
    pub(super) fn injection_range(&self, vclass: u8) -> (usize, usize) {
        if self.step_classes <= 1 {
            return (0, self.nv);
        }
        let rc = self.route_classes.max(1) as usize;
        let first = vclass as usize * rc;
        (
            self.class_lo[first] as usize,
            self.class_hi[first + rc - 1] as usize,
        )
    }
}
