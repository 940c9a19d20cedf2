//! The chance that a player is ahead, even or behind after N independent hands of a bet, from
//! the bet's whole outcome distribution (not a normal approximation).
//!
//! Method: each pay is put on an integer lattice (the pays times the least common denominator,
//! less the smallest, over their greatest common divisor: `b_i` from 0 to `B`), so the total of
//! N hands is `g T + N a_min` with T an integer from 0 to `N B`. T's distribution is the N-fold
//! convolution of one hand's: one hand's probabilities are transformed (a radix-2 FFT of a size
//! `M > N B`, so nothing wraps around), each coefficient raised to the N-th power (by squaring),
//! and transformed back. Ahead, even and behind are then sums over T. Over many hands T keeps
//! close to its mean, so the transform covers only a window of the lattice around it, where
//! Hoeffding's inequality leaves at most `1e-20` of probability outside (`Lattice::window`;
//! the whole lattice when the window would not be smaller): 65,536 points in place of 524,288
//! for 10,000 hands of an even-money bet with a 5% commission. In floats: each probability is
//! within about `1e-12` of the exact convolution (the round-off of two FFTs of up to 2^20
//! points and of the powers; [`Ahead::error`] gives the largest magnitude of a probability that
//! came out negative, a measure of it). The lattice must be small: a bet whose N-hand lattice
//! passes [`LARGEST_LATTICE`] points (many distinct or large pays over many hands) is left out
//! rather than approximated.

use std::f64::consts::PI;

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive};

/// The most points of a total's lattice (and of its FFT).
pub const LARGEST_LATTICE: usize = 1 << 20;

/// The most probability a total outside the transform's window may hold (the Hoeffding bound
/// of [`Lattice::window`]): far below the transforms' round-off.
const OUTSIDE: f64 = 1e-20;

/// The chances after N hands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ahead {
    pub ahead: f64,
    pub even: f64,
    pub behind: f64,
    /// The largest magnitude of a probability that came out below zero: the size of the
    /// floating-point error.
    pub error: f64,
}

/// One hand's outcomes on an integer lattice: the pay of `b` is `(g b + a_min) / scale`.
#[derive(Clone, Debug, PartialEq)]
pub struct Lattice {
    /// The probability of each point `0..=B`.
    pub probabilities: Vec<f64>,
    pub step: i128,
    pub lowest: i128,
}

impl Lattice {
    /// The lattice of `(pays, probability)` outcomes; `None` if a pay does not fit in 64 bits
    /// on it, or one hand's lattice passes [`LARGEST_LATTICE`].
    pub fn of(outcomes: &[(BigRational, f64)]) -> Option<Lattice> {
        let scale = (outcomes.iter()).fold(BigInt::one(), |l, (p, _)| l.lcm(p.denom()));
        let scaled: Vec<i128> = (outcomes.iter())
            .map(|(p, _)| (p.numer() * (&scale / p.denom())).to_i128())
            .collect::<Option<_>>()?;
        let lowest = *scaled.iter().min()?;
        let step = (scaled.iter())
            .fold(0i128, |g, a| g.gcd(&(a - lowest)))
            .max(1);
        let highest = (scaled.iter().max()? - lowest) / step;
        if highest >= LARGEST_LATTICE as i128 {
            return None;
        }
        let mut probabilities = vec![0.0; highest as usize + 1];
        for (a, (_, p)) in scaled.iter().zip(outcomes) {
            probabilities[((a - lowest) / step) as usize] += p;
        }
        Some(Lattice {
            probabilities,
            step,
            lowest,
        })
    }

    /// The chances after `hands` hands; `None` when the total's lattice passes
    /// [`LARGEST_LATTICE`].
    pub fn after(&self, hands: u64) -> Option<Ahead> {
        let span = (self.probabilities.len() - 1).checked_mul(usize::try_from(hands).ok()?)?;
        if span >= LARGEST_LATTICE {
            return None;
        }
        let (lowest, size) = self.window(hands, span);
        Some(self.on_window(hands, span, lowest, size))
    }

    /// The chances after `hands` hands from the transform of `size` points that computes the
    /// totals `lowest..lowest + size` (of `0..=span`).
    fn on_window(&self, hands: u64, span: usize, lowest: usize, size: usize) -> Ahead {
        let mut x: Vec<Complex> = (0..size)
            .map(|i| Complex(self.probabilities.get(i).copied().unwrap_or(0.0), 0.0))
            .collect();
        fft(&mut x, false);
        for c in &mut x {
            *c = c.pow(hands);
        }
        fft(&mut x, true);
        let mut chances = Ahead {
            ahead: 0.0,
            even: 0.0,
            behind: 0.0,
            error: 0.0,
        };
        // The point `t` of the window [lowest, lowest + size) is at index t mod size.
        for t in (lowest..lowest + size).take_while(|&t| t <= span) {
            let p = x[t % size].0 / size as f64;
            chances.error = chances.error.max(-p);
            let total = self.step * t as i128 + i128::from(hands) * self.lowest;
            match total.cmp(&0) {
                std::cmp::Ordering::Greater => chances.ahead += p,
                std::cmp::Ordering::Equal => chances.even += p,
                std::cmp::Ordering::Less => chances.behind += p,
            }
        }
        chances
    }
}

impl Lattice {
    /// The window of totals after `hands` hands that the transform computes: its first point
    /// and its size (a power of two). The whole lattice `0..=span` when that is no larger;
    /// otherwise the points within Hoeffding's bound of the mean: each
    /// hand's point lies in `[0, B]`, so the total is more than `t` from its mean with
    /// probability at most `2 exp(-2 t^2 / (hands B^2))`, which is [`OUTSIDE`] at the `t`
    /// used. The transform is circular, so that mass folds onto the window's points: no
    /// probability moves by more than [`OUTSIDE`].
    fn window(&self, hands: u64, span: usize) -> (usize, usize) {
        let whole = (span + 1).next_power_of_two();
        let b = (self.probabilities.len() - 1) as f64;
        let mean = hands as f64
            * (self.probabilities.iter().enumerate())
                .map(|(i, p)| i as f64 * p)
                .sum::<f64>();
        let t = b * (hands as f64 * (2.0 / OUTSIDE).ln() / 2.0).sqrt();
        let size = ((2.0 * t).ceil() as usize + 4)
            .max(self.probabilities.len())
            .next_power_of_two();
        if size >= whole {
            return (0, whole);
        }
        let lowest = (mean - (size / 2) as f64).floor().max(0.0) as usize;
        (lowest.min(span + 1 - size), size)
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Complex(f64, f64);

impl Complex {
    fn mul(self, o: Complex) -> Complex {
        Complex(self.0 * o.0 - self.1 * o.1, self.0 * o.1 + self.1 * o.0)
    }

    fn add(self, o: Complex) -> Complex {
        Complex(self.0 + o.0, self.1 + o.1)
    }

    fn sub(self, o: Complex) -> Complex {
        Complex(self.0 - o.0, self.1 - o.1)
    }

    /// `self^n` by squaring.
    fn pow(self, mut n: u64) -> Complex {
        let (mut base, mut out) = (self, Complex(1.0, 0.0));
        while n > 0 {
            if n & 1 == 1 {
                out = out.mul(base);
            }
            base = base.mul(base);
            n >>= 1;
        }
        out
    }
}

/// In-place radix-2 FFT (`x.len()` a power of two); `inverse` conjugates the twiddles (the
/// caller divides by the length). Twiddles are computed directly, not by recurrence.
fn fft(x: &mut [Complex], inverse: bool) {
    let n = x.len();
    let mut j = 0;
    for i in 1..n {
        let mut bit = n >> 1;
        while j & bit != 0 {
            j ^= bit;
            bit >>= 1;
        }
        j |= bit;
        if i < j {
            x.swap(i, j);
        }
    }
    let sign = if inverse { 1.0 } else { -1.0 };
    let twiddles: Vec<Complex> = (0..n / 2)
        .map(|k| {
            let (s, c) = (sign * 2.0 * PI * k as f64 / n as f64).sin_cos();
            Complex(c, s)
        })
        .collect();
    let mut len = 2;
    while len <= n {
        let stride = n / len;
        for start in (0..n).step_by(len) {
            for k in 0..len / 2 {
                let w = twiddles[k * stride];
                let (a, b) = (x[start + k], x[start + k + len / 2].mul(w));
                x[start + k] = a.add(b);
                x[start + k + len / 2] = a.sub(b);
            }
        }
        len <<= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    /// The chances by direct convolution, one hand at a time, on the scaled pays.
    fn brute(outcomes: &[(i64, f64)], hands: u64) -> (f64, f64, f64) {
        let mut totals = std::collections::BTreeMap::from([(0i64, 1.0)]);
        for _ in 0..hands {
            let mut next = std::collections::BTreeMap::new();
            for (t, p) in &totals {
                for (a, q) in outcomes {
                    *next.entry(t + a).or_insert(0.0) += p * q;
                }
            }
            totals = next;
        }
        let sum =
            |f: &dyn Fn(i64) -> bool| totals.iter().filter(|(t, _)| f(**t)).map(|(_, p)| p).sum();
        (sum(&|t| t > 0), sum(&|t| t == 0), sum(&|t| t < 0))
    }

    #[test]
    fn three_outcomes_match_a_direct_convolution() {
        // Wins 0.95, pushes, loses 1: on the lattice of twentieths, 19, 0, -20.
        let outcomes = [(r(19, 20), 0.3), (r(0, 1), 0.25), (r(-1, 1), 0.45)];
        let lattice = Lattice::of(&outcomes).unwrap();
        assert_eq!((lattice.step, lattice.lowest), (1, -20));
        for hands in [1, 2, 10, 40] {
            let a = lattice.after(hands).unwrap();
            let (ahead, even, behind) = brute(&[(19, 0.3), (0, 0.25), (-20, 0.45)], hands);
            assert!((a.ahead - ahead).abs() < 1e-12, "{hands}: {a:?} vs {ahead}");
            assert!((a.even - even).abs() < 1e-12, "{hands}: {a:?} vs {even}");
            assert!(
                (a.behind - behind).abs() < 1e-12,
                "{hands}: {a:?} vs {behind}"
            );
            assert!(a.error < 1e-12);
        }
    }

    #[test]
    fn even_money_matches_the_binomial() {
        use statrs::distribution::{Binomial, Discrete, DiscreteCDF};
        let outcomes = [(r(1, 1), 0.4), (r(-1, 1), 0.6)];
        let lattice = Lattice::of(&outcomes).unwrap();
        // Ahead after 1,000 hands: more than 500 wins.
        let wins = Binomial::new(0.4, 1000).unwrap();
        let a = lattice.after(1000).unwrap();
        assert!((a.ahead - (1.0 - wins.cdf(500))).abs() < 1e-12, "{a:?}");
        assert!((a.even - wins.pmf(500)).abs() < 1e-12, "{a:?}");
        assert!((a.ahead + a.even + a.behind - 1.0).abs() < 1e-12);
    }

    /// The window is a power of two that holds the totals near the mean, and the chances on it
    /// are those on the whole lattice (to the transforms' round-off).
    #[test]
    fn the_window_gives_the_whole_lattice_chances() {
        let outcomes = [(r(19, 20), 0.3), (r(0, 1), 0.25), (r(-1, 1), 0.45)];
        let lattice = Lattice::of(&outcomes).unwrap();
        assert_eq!(lattice.window(10_000, 390_000), (134_232, 65_536));
        assert_eq!(lattice.window(10, 390), (0, 512));
        for hands in [100, 1_000, 3_000, 10_000] {
            let span = 39 * hands as usize;
            let (lowest, size) = lattice.window(hands, span);
            let whole = (span + 1).next_power_of_two();
            let (a, b) = (
                lattice.on_window(hands, span, lowest, size),
                lattice.on_window(hands, span, 0, whole),
            );
            for (x, y) in [(a.ahead, b.ahead), (a.even, b.even), (a.behind, b.behind)] {
                assert!(
                    (x - y).abs() < 1e-12,
                    "{hands} hands, window {size}: {a:?} vs {b:?}"
                );
            }
        }
    }

    #[test]
    fn a_lattice_too_large_is_left_out() {
        // Two pays only: a lattice of two points (steps of 8889), however many hands.
        let two = Lattice::of(&[(r(8888, 1), 0.001), (r(-1, 1), 0.999)]).unwrap();
        assert_eq!((two.step, two.probabilities.len()), (8889, 2));
        assert!(two.after(10_000).is_some());
        // 8888, 5 and -1: steps of 3 up to 2963, so 1,000 hands pass 2^20 points.
        let outcomes = [(r(8888, 1), 0.001), (r(5, 1), 0.1), (r(-1, 1), 0.899)];
        let lattice = Lattice::of(&outcomes).unwrap();
        assert!(lattice.after(100).is_some());
        assert!(lattice.after(1000).is_none());
    }
}
