//! The crossbar's credit messages (xbar.rs) with an internal speedup: the slots an input
//! port's VCs free in one switch step travel upstream as one message (BookSim's credit
//! object), and an input port sends one message a cycle (`_SendCredits`), at the end of
//! the cycle, later ones queueing in order.
//!
//! A message therefore leaves in the cycle it was made when its port's queue is empty and
//! the port has sent none yet this cycle: most do (a port frees a slot in few steps). So
//! such a message is sent as its slots are freed (`Xbar::cred_direct`): its credits join
//! the cycle's sends, which enter the wheel together at the end of the cycle, as the
//! queue's would, and the port notes the cycle and the step (`CredPort::sent`,
//! `CredPort::sent_step`, beside the step's mask: one cache line), so that the step's
//! later slots join the same message. Only the others gather in the step's mask and queue
//! as the step ends, and the queue skips a port in a cycle it has sent in. The order of a
//! cycle's credits changes nothing (each adds one to its VC's count).

use super::network::Network;

impl Network<'_> {
    /// A slot of VC `v` of input port `gi` was freed in the step running: its credit leaves now when the step's message leaves this cycle
    /// (module comment), else it joins the step's mask, queued as the step ends.
    #[inline(always)]
    pub(super) fn step_credit(&mut self, gi: usize, v: usize) {
        let sent = self.now_cycle() as u32 + 1;
        let step = self.xb.step as u32 + 1;
        let c = &mut self.xb.cred[gi];
        if c.step == 0
            && self.xb.cred_direct
            && (c.sent != sent || c.sent_step == step)
            && self.xb.credq.is_empty(gi)
        {
            c.sent = sent;
            c.sent_step = step;
            self.sent.reserve_hop();
            return self.return_credit(gi, v as u8);
        }
        if c.step == 0 {
            self.xb.cred_touched.push(gi as u32);
        }
        c.step |= 1 << v;
    }

    /// The end of a step with an internal speedup: each input port's slots freed in it that
    /// did not leave at once (`step_credit`) become one queued credit message.
    pub(super) fn queue_step_credits(&mut self) {
        let touched = std::mem::take(&mut self.xb.cred_touched);
        for &gi in &touched {
            let gi = gi as usize;
            let mask = std::mem::take(&mut self.xb.cred[gi].step);
            if self.xb.credq.is_empty(gi) {
                self.xb.cred_busy.push(gi as u32);
            }
            self.xb.credq.push_back(gi, mask);
        }
        self.xb.cred_touched = touched;
        self.xb.cred_touched.clear();
    }

    /// The end of a cycle: every input port with queued messages sends its oldest, unless
    /// it has sent one this cycle.
    pub(super) fn send_credit_queues(&mut self) {
        if self.xb.cred_busy.is_empty() {
            return;
        }
        self.serve_ports(|xb| &mut xb.cred_busy, |n, gi| n.send_credit_message(gi));
    }

    /// Input port `gi` sends the credits of its oldest message (if it has not sent one this
    /// cycle); returns whether more wait.
    #[inline(always)]
    fn send_credit_message(&mut self, gi: usize) -> bool {
        let sent = self.now as u32 + 1;
        if self.xb.cred[gi].sent == sent {
            return true;
        }
        self.xb.cred[gi].sent = sent;
        let mask = self.xb.credq.pop_front(gi).unwrap_or(0);
        self.send_credits(gi, mask);
        !self.xb.credq.is_empty(gi)
    }

    /// Input port `gi` returns a credit for each VC of `mask`.
    #[inline(always)]
    fn send_credits(&mut self, gi: usize, mut mask: u64) {
        while mask != 0 {
            let v = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            self.sent.reserve_hop();
            self.return_credit(gi, v);
        }
    }
}
