//! The Greedy and Less-Greedy phase algorithms of seed 003 s5.2.5.
//!
//! The worms are taken largest first. In phase 0 the source sends the first. In each later
//! phase the senders are, in order, the source and then the covered destinations in the order
//! they were covered (Greedy: all of them; Less-Greedy: the first covered destination of each
//! covered switch other than the source's, so that one worm at most leaves a switch per
//! phase); the i-th sender sends the next worm in the list. This reproduces the senders the
//! paper names for Figs. 15 and 16.

use super::{Mcast, WormPlan};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhaseRule {
    Greedy,
    LessGreedy,
}

/// Per phase, (sender rank, index of the worm in `plans`).
pub fn assign(m: &Mcast, plans: &[WormPlan], rule: PhaseRule) -> Vec<Vec<(u32, usize)>> {
    let mut senders = vec![m.root];
    let mut switch_has_sender = vec![false; m.topo.num_switches()];
    switch_has_sender[m.switch_of(m.root) as usize] = true;
    let mut rounds = Vec::new();
    let mut next = 0;
    while next < plans.len() {
        let take = senders.len().min(plans.len() - next);
        let round: Vec<(u32, usize)> = (0..take).map(|i| (senders[i], next + i)).collect();
        next += take;
        // Destinations covered in this phase become senders from the next one.
        for &(_, w) in &round {
            for (s, ranks) in &plans[w].drops {
                match rule {
                    PhaseRule::Greedy => senders.extend(ranks.iter().copied()),
                    PhaseRule::LessGreedy => {
                        if !std::mem::replace(&mut switch_has_sender[*s as usize], true) {
                            senders.push(ranks[0]);
                        }
                    }
                }
            }
        }
        rounds.push(round);
    }
    rounds
}
