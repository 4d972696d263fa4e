//! Exact rationals for the instance's numbers (δ, ε, scaled terms;
//! replay.md §5.3). i128 with checked arithmetic: every overflow is
//! reported to the caller, which turns it into a diagnostic.

use std::cmp::Ordering;
use std::fmt;

/// A reduced fraction with a positive denominator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ratio {
    num: i128,
    den: i128,
}

/// An arithmetic result too large for i128.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overflow;

pub type RResult<T> = Result<T, Overflow>;

pub fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Ratio {
    pub const ZERO: Ratio = Ratio { num: 0, den: 1 };
    pub const ONE: Ratio = Ratio { num: 1, den: 1 };

    pub fn new(num: i128, den: i128) -> RResult<Ratio> {
        if den == 0 {
            return Err(Overflow);
        }
        let g = gcd(num, den).max(1);
        let (mut num, mut den) = (num / g, den / g);
        if den < 0 {
            num = num.checked_neg().ok_or(Overflow)?;
            den = den.checked_neg().ok_or(Overflow)?;
        }
        Ok(Ratio { num, den })
    }

    pub fn int(v: i128) -> Ratio {
        Ratio { num: v, den: 1 }
    }

    pub fn num(self) -> i128 {
        self.num
    }

    pub fn den(self) -> i128 {
        self.den
    }

    /// The exact value of a float's shortest round-trip decimal (Rust's
    /// `{}` formatting never uses an exponent): `0.1` is 1/10.
    pub fn from_f64(x: f64) -> RResult<Ratio> {
        if !x.is_finite() {
            return Err(Overflow);
        }
        let text = format!("{x}");
        let (negative, digits) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text.as_str()),
        };
        let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
        let mut num: i128 = 0;
        for c in whole.chars().chain(frac.chars()) {
            let d = i128::from(c.to_digit(10).ok_or(Overflow)?);
            num = num
                .checked_mul(10)
                .and_then(|v| v.checked_add(d))
                .ok_or(Overflow)?;
        }
        let exp = u32::try_from(frac.len()).map_err(|_| Overflow)?;
        let den = 10i128.checked_pow(exp).ok_or(Overflow)?;
        Ratio::new(if negative { -num } else { num }, den)
    }

    pub fn checked_add(self, o: Ratio) -> RResult<Ratio> {
        let num = self
            .num
            .checked_mul(o.den)
            .and_then(|a| o.num.checked_mul(self.den).and_then(|b| a.checked_add(b)))
            .ok_or(Overflow)?;
        Ratio::new(num, self.den.checked_mul(o.den).ok_or(Overflow)?)
    }

    pub fn checked_sub(self, o: Ratio) -> RResult<Ratio> {
        self.checked_add(Ratio {
            num: o.num.checked_neg().ok_or(Overflow)?,
            den: o.den,
        })
    }

    pub fn checked_mul(self, o: Ratio) -> RResult<Ratio> {
        // Cross-reduce first to keep the numbers small.
        let g1 = gcd(self.num, o.den).max(1);
        let g2 = gcd(o.num, self.den).max(1);
        let num = (self.num / g1).checked_mul(o.num / g2).ok_or(Overflow)?;
        let den = (self.den / g2).checked_mul(o.den / g1).ok_or(Overflow)?;
        Ratio::new(num, den)
    }

    pub fn pow(self, e: usize) -> RResult<Ratio> {
        let mut r = Ratio::ONE;
        for _ in 0..e {
            r = r.checked_mul(self)?;
        }
        Ok(r)
    }

    /// The nearest integer, halves away from zero.
    pub fn round(self) -> i128 {
        let q = self.num.div_euclid(self.den);
        let rem = self.num.rem_euclid(self.den); // 0 ≤ rem < den
        match (2 * rem).cmp(&self.den) {
            Ordering::Less => q,
            Ordering::Greater => q + 1,
            // Exactly half: away from zero.
            Ordering::Equal => {
                if self.num < 0 {
                    q
                } else {
                    q + 1
                }
            }
        }
    }

    /// The exact decimal text when the denominator has no prime factor
    /// but 2 and 5 (`123/10000` is `0.0123`), else `num/den`.
    pub fn decimal(self) -> String {
        let mut scale: i128 = 1;
        for digits in 0..38u32 {
            if scale % self.den == 0 {
                let n = self.num * (scale / self.den);
                if digits == 0 {
                    return n.to_string();
                }
                let sign = if n < 0 { "-" } else { "" };
                let text = format!("{:0>width$}", n.unsigned_abs(), width = digits as usize + 1);
                let (whole, frac) = text.split_at(text.len() - digits as usize);
                return format!("{sign}{whole}.{frac}");
            }
            scale *= 10;
        }
        self.to_string()
    }

    /// Whether the value is an integer.
    pub fn is_integer(self) -> bool {
        self.den == 1
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ratio {
    fn cmp(&self, other: &Self) -> Ordering {
        // Exact comparison without overflow: compare integer parts, then
        // the fractional parts' cross products in i128 via u128-safe steps.
        let (a, b) = (
            self.num.div_euclid(self.den),
            other.num.div_euclid(other.den),
        );
        if a != b {
            return a.cmp(&b);
        }
        let (ra, rb) = (
            self.num.rem_euclid(self.den),
            other.num.rem_euclid(other.den),
        );
        // ra/da vs rb/db with 0 ≤ r < d: compare as continued fractions.
        compare_fractions(ra, self.den, rb, other.den)
    }
}

/// Compares p/q and r/s for 0 ≤ p < q, 0 ≤ r < s without overflow.
fn compare_fractions(p: i128, q: i128, r: i128, s: i128) -> Ordering {
    match (p == 0, r == 0) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        // p/q < r/s  ⟺  s/r < q/p (both > 1 now); compare those.
        (false, false) => {
            let (a, b) = (q / p, s / r);
            if a != b {
                return b.cmp(&a);
            }
            // Same integer part: q/p vs s/r is decided by the remainders,
            // and p/q vs r/s is the reverse of that.
            compare_fractions(q % p, p, s % r, r).reverse()
        }
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

    fn r(n: i128, d: i128) -> Ratio {
        Ratio::new(n, d).unwrap()
    }

    #[test]
    fn floats_are_their_shortest_decimal() {
        assert_eq!(Ratio::from_f64(0.1).unwrap(), r(1, 10));
        assert_eq!(Ratio::from_f64(0.25).unwrap(), r(1, 4));
        assert_eq!(Ratio::from_f64(1.0).unwrap(), Ratio::ONE);
        assert_eq!(
            Ratio::from_f64(0.1 + 0.2).unwrap(),
            r(30000000000000004, 100000000000000000)
        );
        assert_eq!(Ratio::from_f64(-0.5).unwrap(), r(-1, 2));
        assert!(Ratio::from_f64(f64::NAN).is_err());
    }

    #[test]
    fn decimals() {
        assert_eq!(r(123, 10000).decimal(), "0.0123");
        assert_eq!(r(1, 4).decimal(), "0.25");
        assert_eq!(r(-5, 2).decimal(), "-2.5");
        assert_eq!(r(3, 1).decimal(), "3");
        assert_eq!(r(1, 3).decimal(), "1/3");
    }

    #[test]
    fn rounding_is_half_away_from_zero() {
        assert_eq!(r(-729, 10).round(), -73);
        assert_eq!(r(-3645, 10).round(), -365);
        assert_eq!(r(5, 2).round(), 3);
        assert_eq!(r(-5, 2).round(), -3);
        assert_eq!(r(7, 3).round(), 2);
        assert_eq!(r(-7, 3).round(), -2);
    }

    #[test]
    fn arithmetic_and_order() {
        assert_eq!(r(1, 2).checked_add(r(1, 3)).unwrap(), r(5, 6));
        assert_eq!(r(1, 2).checked_sub(r(1, 3)).unwrap(), r(1, 6));
        assert_eq!(r(9, 10).pow(3).unwrap(), r(729, 1000));
        assert!(r(1, 3) < r(1, 2));
        assert!(r(-1, 2) < r(1, 3));
        assert!(r(2, 7) > r(2, 9));
        assert!(r(5, 11) < r(6, 13));
        assert_eq!(r(3, 6).cmp(&r(1, 2)), Ordering::Equal);
        assert!(Ratio::int(i128::MAX).checked_add(Ratio::ONE).is_err());
    }
}
