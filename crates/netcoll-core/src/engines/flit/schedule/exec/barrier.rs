//! The step barrier of `sync_steps = 1`.

use crate::schedule::Schedule;

/// `sync_steps = 1`: ops of step `s` wait until every op of the earlier steps is done.
#[derive(Default)]
pub(super) struct Barrier {
    on: bool,
    /// Ops of each step not yet done.
    left: Vec<u32>,
    /// The lowest step with ops left: ops of steps up to it may run.
    open: usize,
    /// Ready ops of later steps, held until their step opens.
    parked: Vec<Vec<u32>>,
}

impl Barrier {
    pub(super) fn new(s: &Schedule, on: bool) -> Barrier {
        if !on {
            return Barrier::default();
        }
        let mut left = Vec::new();
        for g in 0..s.num_ops() {
            if let Some(st) = s.op(s.op_ref(g)).step {
                let st = st as usize;
                if left.len() <= st {
                    left.resize(st + 1, 0);
                }
                left[st] += 1;
            }
        }
        let parked = vec![Vec::new(); left.len()];
        let mut b = Barrier {
            on,
            left,
            open: 0,
            parked,
        };
        b.advance();
        b
    }

    /// Whether an op of `step` must wait (and is parked).
    pub(super) fn hold(&mut self, step: Option<u32>, g: u32) -> bool {
        match step {
            Some(st) if self.on && st as usize > self.open => {
                self.parked[st as usize].push(g);
                true
            }
            _ => false,
        }
    }

    /// An op of `step` is done; returns the ops released by the steps that open.
    pub(super) fn done(&mut self, step: Option<u32>) -> Vec<u32> {
        let Some(st) = step.filter(|_| self.on) else {
            return Vec::new();
        };
        self.left[st as usize] -= 1;
        let before = self.open;
        self.advance();
        let mut out = Vec::new();
        for s in before + 1..=self.open.min(self.parked.len().saturating_sub(1)) {
            out.append(&mut self.parked[s]);
        }
        out
    }

    /// The open step, if ops of later steps are parked.
    pub(super) fn parked_step(&self) -> Option<usize> {
        self.parked
            .iter()
            .any(|p| !p.is_empty())
            .then_some(self.open)
    }

    fn advance(&mut self) {
        while self.open < self.left.len() && self.left[self.open] == 0 {
            self.open += 1;
        }
    }
}
