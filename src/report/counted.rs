//! A wager whose every outcome is counted (an exhaustive enumeration), in exact rationals: each
//! line's probability and return, the EV, the shares of outcomes by their pay, the variance and
//! the fourth central moment, and the same figures at other pays of a line (a count does not
//! depend on what its line pays, so a paytable's return is linear in its pays).
//!
//! Invariants: counts and pays are read exactly (a pay is the decimal a report writes, `0.9500`
//! is 19/20), the lines' counts add up to the total, and every figure is a rational in lowest
//! terms; only [`to_f64`] leaves the rationals. Arbitrary precision: an enumeration of 10^16
//! pairs with pays of 8888 has variance denominators past 128 bits.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// One line of a counted wager: how many outcomes it has and what it pays per unit bet.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub count: BigInt,
    pub pays: BigRational,
}

/// A counted wager: its lines (each outcome on exactly one) and the number of outcomes.
#[derive(Clone, Debug, PartialEq)]
pub struct Counted {
    pub lines: Vec<Line>,
    pub total: BigInt,
}

impl Counted {
    /// The wager of `lines` over `total` outcomes; `None` unless the counts add up to a positive
    /// total.
    pub fn new(lines: Vec<Line>, total: BigInt) -> Option<Counted> {
        let sum: BigInt = lines.iter().map(|l| &l.count).sum();
        (total.is_positive() && sum == total).then_some(Counted { lines, total })
    }

    /// The probability of line `i`.
    pub fn probability(&self, i: usize) -> BigRational {
        BigRational::new(self.lines[i].count.clone(), self.total.clone())
    }

    /// The return of line `i`: its probability times its pays.
    pub fn line_return(&self, i: usize) -> BigRational {
        self.probability(i) * &self.lines[i].pays
    }

    /// The player's EV per unit bet.
    pub fn ev(&self) -> BigRational {
        self.moment(1)
    }

    /// `E[X^k]`, X the net of one bet per unit bet.
    pub fn moment(&self, k: i32) -> BigRational {
        (0..self.lines.len())
            .map(|i| self.probability(i) * pow(&self.lines[i].pays, k))
            .fold(BigRational::zero(), |a, b| a + b)
    }

    /// `E[(X - EV)^k]`.
    pub fn central_moment(&self, k: i32) -> BigRational {
        let ev = self.ev();
        (0..self.lines.len())
            .map(|i| self.probability(i) * pow(&(&self.lines[i].pays - &ev), k))
            .fold(BigRational::zero(), |a, b| a + b)
    }

    /// The variance of one bet's net per unit bet.
    pub fn variance(&self) -> BigRational {
        self.central_moment(2)
    }

    /// The share of outcomes whose pay satisfies `which` (pays above 0: the hit frequency).
    pub fn share(&self, which: impl Fn(&BigRational) -> bool) -> BigRational {
        let count: BigInt = (self.lines.iter())
            .filter(|l| which(&l.pays))
            .map(|l| &l.count)
            .sum();
        BigRational::new(count, self.total.clone())
    }

    /// The largest pay.
    pub fn largest_pay(&self) -> Option<&Line> {
        self.lines.iter().max_by(|a, b| a.pays.cmp(&b.pays))
    }

    /// The same counts with line `i` paying `pays`.
    pub fn with_pays(&self, i: usize, pays: BigRational) -> Counted {
        let mut other = self.clone();
        other.lines[i].pays = pays;
        other
    }
}

fn pow(x: &BigRational, k: i32) -> BigRational {
    (0..k).fold(BigRational::one(), |a, _| a * x)
}

/// A decimal as a report writes it ("-1.0000", "8888", "0.95") as an exact rational; `None` for
/// anything else ("-", "", "1e3").
pub fn decimal(text: &str) -> Option<BigRational> {
    let t = text.trim();
    let (sign, body) = t.strip_prefix('-').map_or((1, t), |b| (-1, b));
    let (whole, fraction) = body.split_once('.').unwrap_or((body, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(fraction) {
        return None;
    }
    let numerator: BigInt = format!("{whole}{fraction}").parse().ok()?;
    let denominator = num_traits::pow(BigInt::from(10), fraction.len());
    Some(BigRational::new(numerator * sign, denominator))
}

/// A whole number as a report writes it ("177100560").
pub fn whole(text: &str) -> Option<BigInt> {
    let t = text.trim();
    (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
        .then(|| t.parse().ok())
        .flatten()
}

/// A rational as text in lowest terms: "-4/53", "0", "3".
pub fn fraction(r: &BigRational) -> String {
    if r.denom().is_one() {
        r.numer().to_string()
    } else {
        format!("{}/{}", r.numer(), r.denom())
    }
}

/// The nearest float (NaN never: a rational always converts).
pub fn to_f64(r: &BigRational) -> f64 {
    r.to_f64().unwrap_or(f64::NAN)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(count: i64, pays: &str) -> Line {
        Line {
            count: count.into(),
            pays: decimal(pays).unwrap(),
        }
    }

    #[test]
    fn decimals_are_read_exactly() {
        assert_eq!(fraction(&decimal("0.9500").unwrap()), "19/20");
        assert_eq!(fraction(&decimal("-1.0000").unwrap()), "-1");
        assert_eq!(fraction(&decimal("8888").unwrap()), "8888");
        for bad in ["-", "", "1e3", ".5", "1.2.3"] {
            assert!(decimal(bad).is_none(), "{bad}");
        }
        assert_eq!(whole("177100560"), Some(177_100_560.into()));
        assert_eq!(whole("-3"), None);
    }

    #[test]
    fn a_die_bet_has_its_textbook_moments() {
        // Pays 4 on a six, loses 1 otherwise: EV -1/6, E[X^2] = (16 + 5)/6 = 7/2.
        let c = Counted::new(vec![line(1, "4"), line(5, "-1")], 6.into()).unwrap();
        assert_eq!(fraction(&c.ev()), "-1/6");
        assert_eq!(fraction(&c.variance()), "125/36");
        assert_eq!(fraction(&c.share(|p| p.is_positive())), "1/6");
        assert_eq!(fraction(&c.with_pays(0, decimal("5").unwrap()).ev()), "0");
        assert_eq!(to_f64(&c.line_return(0)), 4.0 / 6.0);
        assert!(Counted::new(vec![line(1, "4")], 6.into()).is_none());
    }
}
