//! A small exact fraction, so that analytic costs such as InterCom's `160/30 n beta`
//! (seed 001, Table 2) can be compared exactly rather than to a float tolerance.

use crate::error::{Error, Result};
use std::fmt;
use std::ops::{Add, Mul};

/// An exact rational number `num/den`, always reduced, with `den > 0`.
///
/// Arithmetic through the operators panics only on `i128` overflow, which the models in this
/// module rule out by bounding their inputs first; use [`Ratio::checked_add`] and
/// [`Ratio::checked_mul`] where the operands come from outside.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ratio {
    num: i128,
    den: i128,
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    a = a.abs();
    b = b.abs();
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Ratio {
    /// Zero.
    pub const ZERO: Ratio = Ratio { num: 0, den: 1 };

    /// `num/den` reduced; an error if `den` is zero.
    pub fn new(num: i128, den: i128) -> Result<Ratio> {
        if den == 0 {
            return crate::spec_err!(
                "fraction {num}/0 has a zero denominator: give a non-zero one"
            );
        }
        let g = gcd(num, den).max(1);
        let sign = if den < 0 { -1 } else { 1 };
        Ok(Ratio {
            num: sign * num / g,
            den: sign * den / g,
        })
    }

    /// The integer `n` as a fraction.
    pub fn int(n: i128) -> Ratio {
        Ratio { num: n, den: 1 }
    }

    /// Numerator (sign carrier) of the reduced fraction.
    pub fn numer(&self) -> i128 {
        self.num
    }

    /// Denominator of the reduced fraction, always positive.
    pub fn denom(&self) -> i128 {
        self.den
    }

    /// The nearest `f64`.
    pub fn to_f64(&self) -> f64 {
        self.num as f64 / self.den as f64
    }

    fn overflow() -> Error {
        Error::TooLarge("exact fraction overflowed 128 bits: use smaller dimensions".into())
    }

    /// `self + other`, or a one-line error on overflow.
    pub fn checked_add(self, other: Ratio) -> Result<Ratio> {
        let g = gcd(self.den, other.den);
        let l = (self.den / g)
            .checked_mul(other.den)
            .ok_or_else(Self::overflow)?;
        let a = self
            .num
            .checked_mul(l / self.den)
            .ok_or_else(Self::overflow)?;
        let b = other
            .num
            .checked_mul(l / other.den)
            .ok_or_else(Self::overflow)?;
        Ratio::new(a.checked_add(b).ok_or_else(Self::overflow)?, l)
    }

    /// `self * other`, or a one-line error on overflow.
    pub fn checked_mul(self, other: Ratio) -> Result<Ratio> {
        let g1 = gcd(self.num, other.den).max(1);
        let g2 = gcd(other.num, self.den).max(1);
        let n = (self.num / g1)
            .checked_mul(other.num / g2)
            .ok_or_else(Self::overflow)?;
        let d = (self.den / g2)
            .checked_mul(other.den / g1)
            .ok_or_else(Self::overflow)?;
        Ratio::new(n, d)
    }
}

impl Add for Ratio {
    type Output = Ratio;
    fn add(self, other: Ratio) -> Ratio {
        self.checked_add(other).expect("Ratio addition overflow")
    }
}

impl Mul for Ratio {
    type Output = Ratio;
    fn mul(self, other: Ratio) -> Ratio {
        self.checked_mul(other)
            .expect("Ratio multiplication overflow")
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduces_and_normalises_sign() {
        let r = Ratio::new(160, 30).unwrap();
        assert_eq!((r.numer(), r.denom()), (16, 3));
        let r = Ratio::new(3, -6).unwrap();
        assert_eq!((r.numer(), r.denom()), (-1, 2));
        assert_eq!(Ratio::new(0, -5).unwrap(), Ratio::ZERO);
        assert!(Ratio::new(1, 0).is_err());
    }

    #[test]
    fn arithmetic_is_exact() {
        let half = Ratio::new(1, 2).unwrap();
        let third = Ratio::new(1, 3).unwrap();
        assert_eq!(half + third, Ratio::new(5, 6).unwrap());
        assert_eq!(half * third, Ratio::new(1, 6).unwrap());
        assert_eq!(format!("{}", Ratio::new(160, 30).unwrap()), "16/3");
        assert_eq!(format!("{}", Ratio::int(9)), "9");
        assert!(Ratio::int(i128::MAX).checked_add(Ratio::int(1)).is_err());
    }
}
