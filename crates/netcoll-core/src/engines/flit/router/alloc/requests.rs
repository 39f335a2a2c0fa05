//! One router's request matrix for one cycle ([`Requests`]), kept two ways as requests are
//! added: a list (the general path: sorted, seen by input and by output, with each
//! request's priorities) and, while the matrix is at most [`MASK_WIDTH`] wide, a bitmask
//! per input (its outputs) and per output (its inputs), which the mask path (masks.rs)
//! reads when every request has the same priorities.

use super::Kind;

/// The widest matrix (inputs and outputs) that keeps masks: one `u128` a row or column.
pub const MASK_WIDTH: usize = 128;

/// One request: input `i` asks for output `o`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request {
    pub i: u16,
    pub o: u16,
    pub in_pri: i32,
    pub out_pri: i32,
}

/// One router's requests in one cycle, seen by input (in output order) and by output (in
/// input order), as BookSim's sparse allocators keep them, and as masks (the module
/// comment). Reused from cycle to cycle.
#[derive(Debug, Default)]
pub struct Requests {
    n_in: usize,
    n_out: usize,
    /// In (input, output) order once the views are built. While the masks serve (a narrow
    /// matrix of uniform priorities) the list is not written: `listed` says whether it
    /// holds every request, and the list path writes it from the masks when it needs it.
    reqs: Vec<Request>,
    listed: bool,
    /// The requests added since `clear`.
    count: usize,
    /// `reqs[in_start[i]..in_start[i + 1]]` are input `i`'s.
    in_start: Vec<u32>,
    /// Indices into `reqs` in (output, input) order; `out_start` as `in_start`.
    by_out: Vec<u32>,
    out_start: Vec<u32>,
    /// Scratch of [`Requests::finish`].
    fill: Vec<u32>,
    /// The views above match `reqs`.
    views: bool,
    /// The matrix is at most [`MASK_WIDTH`] wide: the masks below are kept.
    narrow: bool,
    /// Every request so far has the first one's priorities (`pri0`).
    uniform: bool,
    pri0: (i32, i32),
    /// Per input, the outputs it asks for (bit `o`); per output, the inputs asking (bit
    /// `i`); the inputs and outputs with requests. Entries outside `in_any`/`out_any` are
    /// stale: read a row only for an input in `in_any`, a column for an output in
    /// `out_any`.
    pub(super) rows: Vec<u128>,
    pub(super) cols: Vec<u128>,
    pub(super) in_any: u128,
    pub(super) out_any: u128,
    /// Tests: always take the list path.
    pub lists_only: bool,
}

impl Requests {
    /// Starts an empty request matrix of `n_in` inputs and `n_out` outputs.
    pub fn clear(&mut self, n_in: usize, n_out: usize) {
        debug_assert!(n_in <= u16::MAX as usize && n_out <= u16::MAX as usize);
        // Rows and columns outside `in_any`/`out_any` are stale; `add` resets them first.
        (self.in_any, self.out_any) = (0, 0);
        self.n_in = n_in;
        self.n_out = n_out;
        self.reqs.clear();
        self.count = 0;
        self.views = false;
        self.uniform = true;
        self.narrow = n_in <= MASK_WIDTH && n_out <= MASK_WIDTH;
        self.listed = !self.narrow || self.lists_only;
        if self.narrow {
            if self.rows.len() < n_in {
                self.rows.resize(n_in, 0);
            }
            if self.cols.len() < n_out {
                self.cols.resize(n_out, 0);
            }
        }
    }

    /// Input `i` asks for output `o` (each pair at most once).
    #[inline]
    pub fn add(&mut self, i: usize, o: usize, in_pri: i32, out_pri: i32) {
        debug_assert!(i < self.n_in && o < self.n_out);
        if self.count == 0 {
            self.pri0 = (in_pri, out_pri);
        } else if (in_pri, out_pri) != self.pri0 {
            self.uniform = false;
        }
        self.count += 1;
        self.views = false;
        if !self.listed && !self.uniform {
            // The masks will not serve: the list takes the requests so far (all of the
            // first priorities) and every later one.
            self.list_from_masks();
        }
        if self.listed {
            self.reqs.push(Request {
                i: i as u16,
                o: o as u16,
                in_pri,
                out_pri,
            });
        }
        if self.narrow {
            let (bi, bo) = (1u128 << i, 1u128 << o);
            let row = if self.in_any & bi != 0 {
                self.rows[i]
            } else {
                0
            };
            let col = if self.out_any & bo != 0 {
                self.cols[o]
            } else {
                0
            };
            debug_assert!(row & bo == 0, "request ({i}, {o}) twice");
            self.rows[i] = row | bo;
            self.cols[o] = col | bi;
            self.in_any |= bi;
            self.out_any |= bo;
        }
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    pub fn len(&self) -> usize {
        self.count
    }

    /// Writes the list from the masks, every request with the first one's priorities (the
    /// list is not written while they are all alike), in (input, output) order.
    fn list_from_masks(&mut self) {
        debug_assert!(self.narrow && self.reqs.is_empty());
        let (in_pri, out_pri) = self.pri0;
        let mut ins = self.in_any;
        while ins != 0 {
            let i = ins.trailing_zeros() as usize;
            ins &= ins - 1;
            let mut outs = self.rows[i];
            while outs != 0 {
                let o = outs.trailing_zeros() as u16;
                outs &= outs - 1;
                self.reqs.push(Request {
                    i: i as u16,
                    o,
                    in_pri,
                    out_pri,
                });
            }
        }
        self.listed = true;
    }

    pub fn inputs(&self) -> usize {
        self.n_in
    }

    pub fn outputs(&self) -> usize {
        self.n_out
    }

    /// Whether allocator `kind` runs on the masks (masks.rs, wavefront.rs): it is one of
    /// the round-robin allocators (islip, select and the separable ones) or the wavefront,
    /// the matrix is at most [`MASK_WIDTH`] wide and every request has the same
    /// priorities, so that each of its arbiters picks the first request from its pointer
    /// (the wavefront's sweep has one order), as on the list path.
    pub fn masks_apply(&self, kind: Kind) -> bool {
        self.narrow
            && self.uniform
            && !self.lists_only
            && matches!(
                kind,
                Kind::Islip
                    | Kind::Select
                    | Kind::SeparableInputFirst
                    | Kind::SeparableOutputFirst
                    | Kind::Wavefront { .. }
            )
    }

    /// Sorts the requests and builds both views (counting sorts: no comparison sort when
    /// the stages add them in order, as they do). [`super::allocate`] does this where it
    /// takes the list path.
    pub fn finish(&mut self) {
        if !self.listed {
            self.list_from_masks();
        }
        if !self.reqs.is_sorted_by_key(|r| (r.i, r.o)) {
            self.reqs.sort_unstable_by_key(|r| (r.i, r.o));
        }
        debug_assert!(self
            .reqs
            .windows(2)
            .all(|w| (w[0].i, w[0].o) != (w[1].i, w[1].o)));
        counts(&mut self.in_start, self.n_in, self.reqs.iter().map(|r| r.i));
        counts(
            &mut self.out_start,
            self.n_out,
            self.reqs.iter().map(|r| r.o),
        );
        self.by_out.clear();
        self.by_out.resize(self.reqs.len(), 0);
        // Place each request after the earlier ones of its output (input order kept).
        self.fill.clear();
        self.fill.extend_from_slice(&self.out_start[..self.n_out]);
        for (k, r) in self.reqs.iter().enumerate() {
            let at = &mut self.fill[r.o as usize];
            self.by_out[*at as usize] = k as u32;
            *at += 1;
        }
        self.views = true;
    }

    /// Builds the views unless they are up to date.
    pub(super) fn ensure_views(&mut self) {
        if !self.views {
            self.finish();
        }
    }

    /// Input `i`'s requests, in output order.
    #[inline]
    pub fn of_input(&self, i: usize) -> &[Request] {
        debug_assert!(self.views);
        &self.reqs[self.in_start[i] as usize..self.in_start[i + 1] as usize]
    }

    /// Output `o`'s requests, in input order.
    #[inline]
    pub fn of_output(&self, o: usize) -> impl Iterator<Item = &Request> + Clone + '_ {
        debug_assert!(self.views);
        self.by_out[self.out_start[o] as usize..self.out_start[o + 1] as usize]
            .iter()
            .map(|&k| &self.reqs[k as usize])
    }

    /// The number of requests output `o` has.
    #[inline]
    pub fn output_count(&self, o: usize) -> usize {
        (self.out_start[o + 1] - self.out_start[o]) as usize
    }

    /// Every request, in (input, output) order once the views are built.
    pub fn all(&self) -> &[Request] {
        debug_assert!(self.listed);
        &self.reqs
    }

    /// Input `i`'s request for output `o`, if it made one.
    pub fn find(&self, i: usize, o: usize) -> Option<&Request> {
        let reqs = self.of_input(i);
        reqs.binary_search_by_key(&(o as u16), |r| r.o)
            .ok()
            .map(|k| &reqs[k])
    }
}

/// `start[x]..start[x + 1]` will be the positions of key `x` among `keys` (`n` keys).
fn counts(start: &mut Vec<u32>, n: usize, keys: impl Iterator<Item = u16>) {
    start.clear();
    start.resize(n + 1, 0);
    for k in keys {
        start[k as usize + 1] += 1;
    }
    for x in 0..n {
        start[x + 1] += start[x];
    }
}
