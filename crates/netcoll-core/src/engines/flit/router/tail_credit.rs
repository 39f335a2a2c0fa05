//! BookSim's `wait_for_tail_credit = 1`: a VC that a packet held (a router's output VC, or
//! an NI's injection VC) is free for the next packet only when its tail has left *and* every
//! credit it took is back (BookSim's `BufferState::ProcessCredit`), not as the tail leaves
//! (`SendingFlit`, the default). The tail's departure is noted in `tail_sent`; the credit
//! that fills the VC's buffer again frees it. An ejection VC has no credit count here (the
//! NI is an infinite sink, as in BookSim), but BookSim's NI still returns a credit per
//! ejected flit over the ejection credit channel: the tail's credit is sent as the tail
//! reaches the NI and frees the ejection VC a credit delay later, as a link's does.

use super::channel::Flit;
use super::network::Network;

/// The high byte of an ejected flit's `dst_state` (its routing state, of no further use at
/// the NI) carries the ejection VC its tail left on.
const VC_SHIFT: u32 = 24;

impl Network<'_> {
    /// Sizes the bookkeeping when the run waits for tail credits.
    pub(super) fn init_tail_credit(&mut self) {
        if !self.cfg.wait_for_tail_credit {
            return;
        }
        self.tail_sent = vec![false; self.credits.len()];
        let mut eject_go = vec![u32::MAX; self.nis.len()];
        for (go, d) in self.down.iter().enumerate() {
            if d.ivc != u32::MAX && d.ivc & super::wiring::DOWN_EJECT != 0 {
                eject_go[(d.ivc & !super::wiring::DOWN_EJECT) as usize] = go as u32;
            }
        }
        self.eject_go = eject_go;
    }

    /// The tail of the packet holding output VC `ov` of port `go` has left: the VC is free
    /// now, or (waiting for tail credits) once its credits are back. An ejection VC's tail
    /// carries its VC to the NI (`eject_tail_credit`).
    #[inline(always)]
    pub(super) fn tail_left(&mut self, go: usize, ov: usize) {
        if self.cfg.wait_for_tail_credit {
            self.tail_sent[go * self.nv + ov] = true;
        } else {
            self.release_vc(go, ov);
        }
    }

    /// The flit sent down ejection port `ov` keeps its VC in its routing state's byte.
    #[inline]
    pub(super) fn mark_eject_vc(&self, flit: &mut Flit, ov: u8) {
        if self.cfg.wait_for_tail_credit {
            flit.dst_state = (flit.dst_state & ((1 << VC_SHIFT) - 1)) | (ov as u32) << VC_SHIFT;
        }
    }

    /// A tail reached NI `ep`: its credit goes back to the router's ejection VC.
    pub(super) fn eject_tail_credit(&mut self, ep: u32, flit: Flit) {
        if !self.cfg.wait_for_tail_credit || !flit.tail {
            return;
        }
        let go = self.eject_go[ep as usize];
        let ov = flit.dst_state >> VC_SHIFT;
        self.sent.reserve_hop();
        super::channel::push_reserved(&mut self.sent.credits, go * self.nv as u32 + ov);
    }

    /// Applies the credits due now when waiting for tail credits: a VC whose tail has left is
    /// freed by the credit that makes its buffer whole again (an ejection VC by its tail's).
    pub(super) fn credits_back_after_tails(&mut self, due: &[u32]) {
        let depth = self.depth as u16;
        let routers = self.wheel.ni_base() as usize;
        for &c in due {
            let c = c as usize;
            let n = &mut self.credits[c];
            // An ejection VC's count stays infinite (u16::MAX).
            *n = n.saturating_add(1);
            if !self.tail_sent[c] || (*n != depth && *n != u16::MAX) {
                continue;
            }
            self.tail_sent[c] = false;
            if c < routers {
                self.release_vc(c / self.nv, c % self.nv);
            } else {
                self.ni_busy[c - routers] = false;
            }
        }
    }
}
