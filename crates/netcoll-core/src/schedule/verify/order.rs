//! A dependency-respecting order of all ops, or the cycle that makes one impossible.
//!
//! A cycle through explicit dependencies and message edges is a deadlock: every op on it
//! waits for the next. An iterative depth-first search over predecessors finds one and names
//! it; without a cycle its post-order lists every op after everything it waits for.

use super::super::ir::Schedule;
use super::matching::Graph;
use super::Diagnosis;

const WHITE: u8 = 0;
const GREY: u8 = 1;
const BLACK: u8 = 2;

/// Ops (global indices) in an order where every op follows its predecessors.
pub(crate) fn topological(s: &Schedule, graph: &Graph) -> Result<Vec<u32>, Diagnosis> {
    let n = graph.len();
    let mut colour = vec![WHITE; n];
    let mut order = Vec::with_capacity(n);
    let mut stack: Vec<(u32, u32)> = Vec::new();
    for root in 0..n {
        if colour[root] != WHITE {
            continue;
        }
        colour[root] = GREY;
        stack.push((root as u32, 0));
        while let Some(&mut (g, ref mut next)) = stack.last_mut() {
            let preds = graph.preds(g as usize);
            let Some(&p) = preds.get(*next as usize) else {
                colour[g as usize] = BLACK;
                order.push(g);
                stack.pop();
                continue;
            };
            *next += 1;
            match colour[p as usize] {
                WHITE => {
                    colour[p as usize] = GREY;
                    stack.push((p, 0));
                }
                GREY => return Err(describe_cycle(s, &stack, p)),
                _ => {}
            }
        }
    }
    Ok(order)
}

/// The stack holds a chain where each op waits for the next; `back` closes it.
fn describe_cycle(s: &Schedule, stack: &[(u32, u32)], back: u32) -> Diagnosis {
    let from = stack.iter().position(|&(g, _)| g == back).unwrap_or(0);
    let cycle: Vec<u32> = stack[from..].iter().map(|&(g, _)| g).collect();
    let mut names: Vec<String> = cycle
        .iter()
        .take(8)
        .map(|&g| s.op_ref(g as usize).to_string())
        .collect();
    if cycle.len() > 8 {
        names.push(format!("... ({} ops)", cycle.len()));
    }
    names.push(s.op_ref(back as usize).to_string());
    format!("dependency cycle (deadlock): {}", names.join(" waits for "))
}

/// Steps never decrease along a dependency: a step engine runs op k only after its
/// predecessors, so a predecessor in a later round is an inconsistent schedule.
pub(crate) fn check_steps(s: &Schedule, graph: &Graph) -> Result<(), Diagnosis> {
    for (g, op) in s.ops.iter().enumerate() {
        let Some(step) = op.step else { continue };
        for &p in graph.preds(g) {
            match s.ops[p as usize].step {
                Some(ps) if ps > step => {
                    return Err(format!(
                        "{} (step {step}) waits for {} (step {ps}), a later step",
                        s.op_ref(g),
                        s.op_ref(p as usize)
                    ))
                }
                _ => {}
            }
        }
    }
    Ok(())
}
