//! Switch allocation over a router's crossbar ports (xbar.rs), as BookSim's allocators run
//! it with speedups: `n_in` crossbar inputs, `n_out` crossbar outputs (at most 64 each),
//! `req[i]` the outputs input `i` requests (one request per pair; the VC it carries is the
//! caller's). Each returns the matches in input order through `matched`.
//!
//! * `islip` (BookSim's `islip`): per iteration, every unmatched output grants the
//!   unmatched requesting input nearest its grant pointer, every input accepts the grant
//!   nearest its accept pointer; pointers move past an accepted match in the first
//!   iteration only.
//! * `separable_input_first` (BookSim's): every input's arbiter picks the requested output
//!   nearest its pointer, every output's arbiter picks among the inputs that picked it the
//!   one nearest its pointer; both arbiters' pointers move past a match.

use super::allocator::{next, rotate_pick};

/// Scratch of the allocators: a mask per crossbar port, all zero between calls (so a call
/// clears only the entries it used, not 512 bytes).
pub type Scratch = [u64; 64];

/// The crossbar ports of a router for the allocators: the inputs with requests (a mask:
/// exactly those whose `req` is not 0), and how many inputs and outputs it has.
pub type Ports = (u64, usize, usize);

/// Matches every request when no two share an input or an output (one request per
/// input, distinct outputs): both allocators grant and accept them all and move the
/// pointers of every pair. Returns false (and matches nothing) otherwise.
pub fn match_disjoint(
    req: &[u64],
    (any, n_in, n_out): Ports,
    in_ptr: &mut [u16],
    out_ptr: &mut [u16],
    mut matched: impl FnMut(usize, usize),
) -> bool {
    let mut outs = 0u64;
    let mut bits = any;
    while bits != 0 {
        let m = req[bits.trailing_zeros() as usize];
        bits &= bits - 1;
        if m & m.wrapping_sub(1) != 0 || outs & m != 0 {
            return false;
        }
        outs |= m;
    }
    let mut bits = any;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let o = req[i].trailing_zeros() as usize;
        out_ptr[o] = next(i, n_in) as u16;
        in_ptr[i] = next(o, n_out) as u16;
        matched(i, o);
    }
    true
}

/// iSLIP over crossbar ports with `iters` iterations; `gptr` per output, `aptr` per input.
#[allow(clippy::too_many_arguments)]
pub fn islip(
    req: &[u64],
    (any, n_in, n_out): Ports,
    gptr: &mut [u16],
    aptr: &mut [u16],
    iters: usize,
    (by_out, grants): (&mut Scratch, &mut Scratch),
    matched: impl FnMut(usize, usize),
) {
    let mut outs = 0u64;
    let mut ins = any;
    while ins != 0 {
        let i = ins.trailing_zeros() as usize;
        ins &= ins - 1;
        let mut bits = req[i];
        while bits != 0 {
            let o = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            by_out[o] |= 1 << i;
            outs |= 1 << o;
        }
    }
    let rounds = IslipRounds {
        n: (n_in, n_out),
        iters,
    };
    rounds.run(by_out, outs, (gptr, aptr), grants, matched);
}

/// iSLIP's grant and accept rounds over up to 64 inputs and outputs, shared by the crossbar
/// (above) and the switch allocator over ports (sw_alloc.rs): per iteration every unmatched
/// output grants the unmatched requesting input nearest its grant pointer, every input
/// accepts the grant nearest its accept pointer; pointers move past first-iteration matches
/// only.
pub struct IslipRounds {
    /// Inputs and outputs (the pointers wrap at these).
    pub n: (usize, usize),
    pub iters: usize,
}

impl IslipRounds {
    /// Runs the rounds on `by_out[o]` (the inputs requesting output `o`, for the outputs
    /// in `outs`), with a grant pointer per output and an accept pointer per input, and
    /// `grants` as scratch (zero between calls). Leaves `by_out` zero and reports the
    /// matches in input order through `matched`.
    pub fn run(
        &self,
        by_out: &mut [u64],
        mut outs: u64,
        (gptr, aptr): (&mut [u16], &mut [u16]),
        grants: &mut [u64],
        mut matched: impl FnMut(usize, usize),
    ) {
        let (n_in, n_out) = self.n;
        let (mut in_done, mut out_done) = (0u64, 0u64);
        let mut pairs = [u8::MAX; 64];
        for iter in 0..self.iters.max(1) {
            let mut granted = 0u64;
            let mut bits = outs & !out_done;
            while bits != 0 {
                let o = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let cand = by_out[o] & !in_done;
                if cand != 0 {
                    let i = rotate_pick(cand, gptr[o] as usize);
                    grants[i] |= 1 << o;
                    granted |= 1 << i;
                }
            }
            if granted == 0 {
                break;
            }
            while granted != 0 {
                let i = granted.trailing_zeros() as usize;
                granted &= granted - 1;
                let o = rotate_pick(std::mem::take(&mut grants[i]), aptr[i] as usize);
                in_done |= 1 << i;
                out_done |= 1 << o;
                pairs[i] = o as u8;
                if iter == 0 {
                    gptr[o] = next(i, n_in) as u16;
                    aptr[i] = next(o, n_out) as u16;
                }
            }
        }
        while outs != 0 {
            let o = outs.trailing_zeros() as usize;
            outs &= outs - 1;
            by_out[o] = 0;
        }
        while in_done != 0 {
            let i = in_done.trailing_zeros() as usize;
            in_done &= in_done - 1;
            matched(i, pairs[i] as usize);
        }
    }
}

/// BookSim's separable input-first allocator over crossbar ports; `in_ptr` per input
/// (its arbiter over outputs), `out_ptr` per output (its arbiter over inputs).
pub fn separable_input_first(
    req: &[u64],
    (any, n_in, n_out): Ports,
    in_ptr: &mut [u16],
    out_ptr: &mut [u16],
    by_out: &mut Scratch,
    mut matched: impl FnMut(usize, usize),
) {
    let mut outs = 0u64;
    let mut pick_of = [0u8; 64];
    let mut ins = any;
    while ins != 0 {
        let i = ins.trailing_zeros() as usize;
        ins &= ins - 1;
        let o = rotate_pick(req[i], in_ptr[i] as usize);
        pick_of[i] = o as u8;
        by_out[o] |= 1 << i;
        outs |= 1 << o;
    }
    let mut won = 0u64;
    while outs != 0 {
        let o = outs.trailing_zeros() as usize;
        outs &= outs - 1;
        let i = rotate_pick(std::mem::take(&mut by_out[o]), out_ptr[o] as usize);
        out_ptr[o] = next(i, n_in) as u16;
        in_ptr[i] = next(o, n_out) as u16;
        won |= 1 << i;
    }
    while won != 0 {
        let i = won.trailing_zeros() as usize;
        won &= won - 1;
        matched(i, pick_of[i] as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::{islip, match_disjoint, separable_input_first, Ports};

    /// The allocators' ports of `req` with `n_out` outputs.
    fn ports(req: &[u64], n_out: usize) -> Ports {
        let any = req
            .iter()
            .enumerate()
            .filter(|(_, &m)| m != 0)
            .fold(0, |a, (i, _)| a | 1 << i);
        (any, req.len(), n_out)
    }

    fn run_islip(req: &[u64], g: &mut [u16], a: &mut [u16], iters: usize) -> Vec<(usize, usize)> {
        let mut m = Vec::new();
        let (mut x, mut y) = ([0u64; 64], [0u64; 64]);
        islip(
            req,
            ports(req, g.len()),
            g,
            a,
            iters,
            (&mut x, &mut y),
            |i, o| m.push((i, o)),
        );
        assert!(x.iter().chain(&y).all(|&b| b == 0), "scratch left clear");
        m
    }

    #[test]
    fn disjoint_requests_all_match_as_the_allocators_would() {
        let req = [0b100, 0, 0b001];
        let (mut ip, mut op) = (vec![0u16; 3], vec![0u16; 3]);
        let (mut ip2, mut op2) = (ip.clone(), op.clone());
        let mut m = Vec::new();
        assert!(match_disjoint(
            &req,
            ports(&req, 3),
            &mut ip,
            &mut op,
            |i, o| m.push((i, o))
        ));
        let mut want = Vec::new();
        islip(
            &req,
            ports(&req, 3),
            &mut op2,
            &mut ip2,
            1,
            (&mut [0; 64], &mut [0; 64]),
            |i, o| want.push((i, o)),
        );
        assert_eq!((m, ip, op), (want, ip2, op2));
        assert!(!match_disjoint(
            &[0b1, 0b1],
            ports(&[0b1, 0b1], 2),
            &mut [0; 2],
            &mut [0; 2],
            |_, _| {}
        ));
        assert!(!match_disjoint(
            &[0b11, 0],
            ports(&[0b11, 0], 2),
            &mut [0; 2],
            &mut [0; 2],
            |_, _| {}
        ));
    }

    #[test]
    fn islip_grants_by_pointer_and_moves_pointers_on_accept() {
        // Inputs 0 and 1 both want output 0; input 1 also wants output 1.
        let req = [0b01, 0b11];
        let (mut g, mut a) = (vec![0u16; 2], vec![0u16; 2]);
        // Output 0 grants input 0, output 1 grants input 1: both accepted.
        assert_eq!(run_islip(&req, &mut g, &mut a, 1), vec![(0, 0), (1, 1)]);
        assert_eq!((g.clone(), a.clone()), (vec![1, 0], vec![1, 0]));
        // Now output 0's pointer is at input 1: it grants 1, and so does output 1; input 1
        // accepts output 0 (nearest its pointer 0), input 0 is left unmatched.
        assert_eq!(run_islip(&req, &mut g, &mut a, 1), vec![(1, 0)]);
        // A second iteration matches input 0 with output... none: 0 is taken. Input 1's
        // other request (output 1) stays unmatched as input 1 is matched.
        let (mut g, mut a) = (vec![1u16, 0], vec![0u16, 0]);
        assert_eq!(run_islip(&req, &mut g, &mut a, 2), vec![(1, 0)]);
    }

    #[test]
    fn islip_second_iteration_fills_unmatched_pairs_without_moving_pointers() {
        // Input 0 wants 0 and 1, input 1 wants 0. Output 0 and 1 both grant input 0 (pointers
        // at 0); input 0 accepts 0; iteration 2: output 1 has no other requester; output 0 is
        // taken, so input 1 stays unmatched. With input 1 wanting 1 too it is matched in
        // iteration 2 and the pointers stay.
        let req = [0b11, 0b11];
        let (mut g, mut a) = (vec![0u16; 2], vec![0u16; 2]);
        assert_eq!(run_islip(&req, &mut g, &mut a, 2), vec![(0, 0), (1, 1)]);
        assert_eq!((g, a), (vec![1, 0], vec![1, 0]));
    }

    #[test]
    fn separable_input_first_picks_outputs_then_inputs() {
        // Both inputs pick output 0 (pointers 0); output 0 grants input 0; input 1 loses
        // although output 1 was free (no second chance in one pass).
        let req = [0b11, 0b11];
        let (mut ip, mut op) = (vec![0u16; 2], vec![0u16; 2]);
        let mut m = Vec::new();
        let mut x = [0u64; 64];
        separable_input_first(&req, ports(&req, 2), &mut ip, &mut op, &mut x, |i, o| {
            m.push((i, o))
        });
        assert_eq!(m, vec![(0, 0)]);
        assert_eq!((ip.clone(), op.clone()), (vec![1, 0], vec![1, 0]));
        m.clear();
        // Input 0 now prefers output 1, input 1 output 0: both win.
        separable_input_first(&req, ports(&req, 2), &mut ip, &mut op, &mut x, |i, o| {
            m.push((i, o))
        });
        assert!(x.iter().all(|&b| b == 0), "scratch left clear");
        assert_eq!(m, vec![(0, 1), (1, 0)]);
    }
}
