//! Element-wise reductions with numpy's semantics: integers wrap (two's complement), floats
//! follow IEEE and `min`/`max` propagate NaN (as `np.minimum`/`np.maximum`), bools treat sum
//! as or and product as and. Spans may be unaligned: elements are read and written unaligned
//! (the loops still vectorise on x86-64).

use crate::{Error, Result};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtype {
    Bool,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F32,
    F64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Sum,
    Prod,
    Min,
    Max,
    Band,
    Bor,
    Bxor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reduction {
    pub dtype: Dtype,
    pub op: Op,
}

impl Dtype {
    /// numpy's `dtype.str` without the byte-order mark (`f8`, `i4`, `b1`, ...).
    pub fn parse(code: &str) -> Result<Dtype> {
        let code = code.trim_start_matches(['<', '>', '=', '|']);
        Ok(match code {
            "b1" => Dtype::Bool,
            "i1" => Dtype::I8,
            "i2" => Dtype::I16,
            "i4" => Dtype::I32,
            "i8" => Dtype::I64,
            "u1" => Dtype::U8,
            "u2" => Dtype::U16,
            "u4" => Dtype::U32,
            "u8" => Dtype::U64,
            "f4" => Dtype::F32,
            "f8" => Dtype::F64,
            _ => {
                return Err(Error::Unsupported(format!(
                    "the native executor does not reduce dtype {code}"
                )))
            }
        })
    }

    pub fn size(self) -> usize {
        match self {
            Dtype::Bool | Dtype::I8 | Dtype::U8 => 1,
            Dtype::I16 | Dtype::U16 => 2,
            Dtype::I32 | Dtype::U32 | Dtype::F32 => 4,
            Dtype::I64 | Dtype::U64 | Dtype::F64 => 8,
        }
    }
}

impl Op {
    pub fn parse(name: &str) -> Result<Op> {
        Ok(match name {
            "sum" => Op::Sum,
            "prod" => Op::Prod,
            "min" => Op::Min,
            "max" => Op::Max,
            "band" => Op::Band,
            "bor" => Op::Bor,
            "bxor" => Op::Bxor,
            _ => return Err(Error::Unsupported(format!("unknown reduction op '{name}'"))),
        })
    }
}

impl Reduction {
    pub fn new(dtype: &str, op: &str) -> Result<Reduction> {
        let r = Reduction {
            dtype: Dtype::parse(dtype)?,
            op: Op::parse(op)?,
        };
        let float = matches!(r.dtype, Dtype::F32 | Dtype::F64);
        if float && matches!(r.op, Op::Band | Op::Bor | Op::Bxor) {
            return Err(Error::Unsupported(format!(
                "op {op} needs an integer or bool dtype"
            )));
        }
        Ok(r)
    }

    /// `dst[k] := a[k] op b[k]` for `len` elements.
    ///
    /// # Safety
    /// `dst`, `a` and `b` must be valid for `len * size` bytes; `dst` may equal `a` or `b`
    /// exactly, but must not overlap them otherwise.
    pub unsafe fn apply(self, dst: *mut u8, a: *const u8, b: *const u8, len: usize) {
        macro_rules! ints {
            ($t:ty) => {
                match self.op {
                    Op::Sum => each::<$t>(dst, a, b, len, |x, y| x.wrapping_add(y)),
                    Op::Prod => each::<$t>(dst, a, b, len, |x, y| x.wrapping_mul(y)),
                    Op::Min => each::<$t>(dst, a, b, len, |x, y| x.min(y)),
                    Op::Max => each::<$t>(dst, a, b, len, |x, y| x.max(y)),
                    Op::Band => each::<$t>(dst, a, b, len, |x, y| x & y),
                    Op::Bor => each::<$t>(dst, a, b, len, |x, y| x | y),
                    Op::Bxor => each::<$t>(dst, a, b, len, |x, y| x ^ y),
                }
            };
        }
        macro_rules! floats {
            ($t:ty) => {
                match self.op {
                    Op::Sum => each::<$t>(dst, a, b, len, |x, y| x + y),
                    Op::Prod => each::<$t>(dst, a, b, len, |x, y| x * y),
                    // np.minimum / np.maximum: a NaN on either side wins.
                    Op::Min => each::<$t>(
                        dst,
                        a,
                        b,
                        len,
                        |x, y| {
                            if x.is_nan() || x <= y {
                                x
                            } else {
                                y
                            }
                        },
                    ),
                    Op::Max => each::<$t>(
                        dst,
                        a,
                        b,
                        len,
                        |x, y| {
                            if x.is_nan() || x >= y {
                                x
                            } else {
                                y
                            }
                        },
                    ),
                    Op::Band | Op::Bor | Op::Bxor => unreachable!("refused in Reduction::new"),
                }
            };
        }
        match self.dtype {
            Dtype::Bool => match self.op {
                Op::Sum | Op::Max | Op::Bor => each::<u8>(dst, a, b, len, |x, y| x | y),
                Op::Prod | Op::Min | Op::Band => each::<u8>(dst, a, b, len, |x, y| x & y),
                Op::Bxor => each::<u8>(dst, a, b, len, |x, y| x ^ y),
            },
            Dtype::I8 => ints!(i8),
            Dtype::I16 => ints!(i16),
            Dtype::I32 => ints!(i32),
            Dtype::I64 => ints!(i64),
            Dtype::U8 => ints!(u8),
            Dtype::U16 => ints!(u16),
            Dtype::U32 => ints!(u32),
            Dtype::U64 => ints!(u64),
            Dtype::F32 => floats!(f32),
            Dtype::F64 => floats!(f64),
        }
    }
}

#[inline(always)]
unsafe fn each<T: Copy>(
    dst: *mut u8,
    a: *const u8,
    b: *const u8,
    len: usize,
    f: impl Fn(T, T) -> T,
) {
    let (dst, a, b) = (dst as *mut T, a as *const T, b as *const T);
    for k in 0..len {
        let v = f(a.add(k).read_unaligned(), b.add(k).read_unaligned());
        dst.add(k).write_unaligned(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run<T: Copy>(r: Reduction, a: &[T], b: &[T]) -> Vec<T> {
        let mut out = a.to_vec();
        unsafe {
            r.apply(
                out.as_mut_ptr() as *mut u8,
                a.as_ptr() as *const u8,
                b.as_ptr() as *const u8,
                a.len(),
            )
        };
        out
    }

    #[test]
    fn integers_wrap_as_numpy() {
        let r = Reduction::new("<i1", "sum").unwrap();
        assert_eq!(run::<i8>(r, &[100, -5], &[100, 3]), vec![-56, -2]);
        let r = Reduction::new("u1", "prod").unwrap();
        assert_eq!(run::<u8>(r, &[16], &[16]), vec![0]);
    }

    #[test]
    fn float_min_max_propagate_nan() {
        let min = Reduction::new("<f8", "min").unwrap();
        let max = Reduction::new("<f8", "max").unwrap();
        let got = run::<f64>(min, &[1.0, f64::NAN, 3.0], &[2.0, 0.0, f64::NAN]);
        assert_eq!(got[0], 1.0);
        assert!(got[1].is_nan() && got[2].is_nan());
        let got = run::<f64>(max, &[1.0, f64::NAN, 3.0], &[2.0, 0.0, f64::NAN]);
        assert_eq!(got[0], 2.0);
        assert!(got[1].is_nan() && got[2].is_nan());
    }

    #[test]
    fn bool_sum_is_or() {
        let r = Reduction::new("|b1", "sum").unwrap();
        assert_eq!(run::<u8>(r, &[0, 1, 0], &[0, 0, 1]), vec![0, 1, 1]);
    }

    #[test]
    fn refuses_what_it_cannot_do() {
        assert!(Reduction::new("<c16", "sum").is_err());
        assert!(Reduction::new("<f8", "bxor").is_err());
        assert!(Reduction::new("<i4", "avg").is_err());
    }
}
