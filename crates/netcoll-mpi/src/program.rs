//! The lowered program of one rank (written by `python/netcoll/mpi/lower.py`): ops with
//! their dependency counts, MPI transfers bound to byte spans, and compute instructions.
//! Everything is checked against the buffers before anything runs, so a bad program is an
//! error, never an out-of-bounds access.

use crate::reduce::Reduction;
use crate::{Error, Result};
use serde::Deserialize;

/// Which buffer a span lies in.
pub const INPUT: u8 = 0;
pub const OUTPUT: u8 = 1;
pub const SCRATCH: u8 = 2;

/// `[buffer, byte offset, byte length]`.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
pub struct Span(pub u8, pub usize, pub usize);

impl Span {
    pub fn len(&self) -> usize {
        self.2
    }

    pub fn is_empty(&self) -> bool {
        self.2 == 0
    }
}

/// One compute step.
#[derive(Clone, Debug, Deserialize)]
pub enum Instr {
    /// `dst := src` (the shorter of the two lengths).
    Copy(Span, Span),
    /// `dst := XOR of srcs`, each zero-padded or cut to `dst`'s length; the flag marks an
    /// XOR encoding (the checker's self-test may corrupt those).
    Xor(Span, Vec<Span>, bool),
    /// `dst := srcs[0] op srcs[1] op ...`, element-wise, left to right (as numpy's ufunc).
    Reduce(Span, Vec<Span>),
}

/// One MPI message of an op: the peer, its tag, and where its bytes lie (several spans:
/// sent or received through a derived datatype).
#[derive(Clone, Debug, Deserialize)]
pub struct Transfer(pub i32, pub i32, pub Vec<Span>);

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(from = "u8")]
pub enum Kind {
    Send,
    Recv,
    Compute,
}

impl From<u8> for Kind {
    fn from(k: u8) -> Self {
        match k {
            0 => Kind::Send,
            1 => Kind::Recv,
            _ => Kind::Compute,
        }
    }
}

#[derive(Clone, Debug, Deserialize)]
pub struct Op {
    pub kind: Kind,
    pub transfers: Vec<Transfer>,
    /// Run when the op is issued, before its transfers start.
    pub instrs: Vec<Instr>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct Program {
    pub ops: Vec<Op>,
    /// How many local ops each op waits for (transitively).
    pub need: Vec<u32>,
    /// Who waits for each op.
    pub waiters: Vec<Vec<u32>>,
    /// Copies into the output of what the rank held from the start, run once the first
    /// ready ops are issued (overlapping their messages).
    #[serde(default)]
    pub early: Vec<Instr>,
    /// Copies into the output once every op has completed.
    pub finish: Vec<Instr>,
    /// Bytes of scratch the spans use.
    pub scratch: usize,
    #[serde(skip)]
    pub reduction: Option<Reduction>,
}

impl Program {
    pub fn from_json(text: &str, reduction: Option<Reduction>) -> Result<Program> {
        let mut p: Program = serde_json::from_str(text)
            .map_err(|e| Error::Program(format!("unreadable lowered program: {e}")))?;
        p.reduction = reduction;
        p.check_shape()?;
        Ok(p)
    }

    fn check_shape(&self) -> Result<()> {
        let n = self.ops.len();
        if self.need.len() != n || self.waiters.len() != n {
            return Err(Error::Program(format!(
                "{n} ops but {} counts and {} waiter lists",
                self.need.len(),
                self.waiters.len()
            )));
        }
        if let Some(w) = self.waiters.iter().flatten().find(|&&w| w as usize >= n) {
            return Err(Error::Program(format!(
                "waiter {w} is not an op: ops are 0 to {}",
                n.saturating_sub(1)
            )));
        }
        let has_reduce = self.instrs().any(|i| matches!(i, Instr::Reduce(..)));
        if has_reduce && self.reduction.is_none() {
            return Err(Error::Program(
                "the program reduces but no reduction was given".into(),
            ));
        }
        Ok(())
    }

    /// Every instruction: the ops', the early copies, the finish.
    pub fn instrs(&self) -> impl Iterator<Item = &Instr> {
        self.ops
            .iter()
            .flat_map(|o| o.instrs.iter())
            .chain(self.early.iter())
            .chain(self.finish.iter())
    }

    /// Every span the program touches lies inside its buffer (`lens[buffer]` bytes), and
    /// a reduction's spans hold whole elements of equal count.
    pub fn check_bounds(&self, lens: [usize; 3]) -> Result<()> {
        let inside = |s: &Span| -> Result<()> {
            let cap = *lens.get(s.0 as usize).ok_or_else(|| {
                Error::Program(format!(
                    "span {s:?} names buffer {}: buffers are 0 to 2",
                    s.0
                ))
            })?;
            match s.1.checked_add(s.2) {
                Some(end) if end <= cap => Ok(()),
                _ => Err(Error::Program(format!(
                    "span {s:?} ends past its buffer ({cap} bytes)"
                ))),
            }
        };
        for op in &self.ops {
            for t in &op.transfers {
                t.2.iter().try_for_each(inside)?;
            }
        }
        for instr in self.instrs() {
            match instr {
                Instr::Copy(d, s) => {
                    inside(d)?;
                    inside(s)?;
                }
                Instr::Xor(d, srcs, _) => {
                    inside(d)?;
                    srcs.iter().try_for_each(inside)?;
                }
                Instr::Reduce(d, srcs) => {
                    inside(d)?;
                    srcs.iter().try_for_each(inside)?;
                    let size = self.reduction.map_or(1, |r| r.dtype.size());
                    if srcs.len() < 2 || d.2 % size != 0 || srcs.iter().any(|s| s.2 != d.2) {
                        return Err(Error::Program(format!(
                            "reduction into {d:?} from spans of other lengths or partial elements"
                        )));
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(text: &str, reduction: Option<Reduction>) -> Result<Program> {
        Program::from_json(text, reduction)
    }

    const SEND_RECV: &str = r#"{"ops": [
        {"kind": 0, "transfers": [[1, 0, [[0, 0, 8]]]], "instrs": []},
        {"kind": 1, "transfers": [[1, 0, [[2, 0, 8]]]], "instrs": []},
        {"kind": 2, "transfers": [], "instrs": [{"Reduce": [[1, 0, 8], [[0, 0, 8], [2, 0, 8]]]}]}],
        "need": [0, 0, 1], "waiters": [[], [2], []], "finish": [], "scratch": 64}"#;

    #[test]
    fn reads_a_lowered_program_and_checks_its_spans() {
        let red = Reduction::new("<f8", "sum").unwrap();
        let p = program(SEND_RECV, Some(red)).unwrap();
        assert_eq!(p.ops[1].kind, Kind::Recv);
        assert!(p.check_bounds([8, 8, 64]).is_ok());
        let err = p.check_bounds([8, 4, 64]).unwrap_err().to_string();
        assert!(err.contains("ends past its buffer (4 bytes)"), "{err}");
    }

    #[test]
    fn a_reduction_needs_its_dtype_and_whole_elements() {
        assert!(program(SEND_RECV, None)
            .unwrap_err()
            .to_string()
            .contains("no reduction was given"));
        let red = Reduction::new("<f8", "sum").unwrap();
        let odd = SEND_RECV.replace(
            "[[1, 0, 8], [[0, 0, 8], [2, 0, 8]]]",
            "[[1, 0, 4], [[0, 0, 4], [2, 0, 4]]]",
        );
        let p = program(&odd, Some(red)).unwrap();
        assert!(p.check_bounds([8, 8, 64]).is_err());
    }

    #[test]
    fn malformed_programs_are_errors() {
        assert!(program("{}", None).is_err());
        let bad_waiter = SEND_RECV.replace("[[], [2], []]", "[[], [7], []]");
        let red = Reduction::new("<f8", "sum").unwrap();
        assert!(program(&bad_waiter, Some(red))
            .unwrap_err()
            .to_string()
            .contains("waiter 7 is not an op"));
        let bad_buffer = SEND_RECV.replace(
            "[[0, 0, 8]]]], \"instrs\": []},\n        {\"kind\": 1",
            "[[5, 0, 8]]]], \"instrs\": []},\n        {\"kind\": 1",
        );
        let p = program(&bad_buffer, Some(red)).unwrap();
        assert!(p.check_bounds([8, 8, 64]).is_err());
    }
}
