//! Statistics of a simulation, computed once from its integer tally.
//!
//! - Mean return per unit wagered: the players' net (integer bet units) over hands x bet.
//! - Standard deviation: of one round's net per unit wagered in that round, from the exact
//!   integer sums `n`, `sum x`, `sum x^2` over rounds (`n sum x^2 - (sum x)^2` in integers); with
//!   one player per round this is the usual SD per hand. Several players against one dealer are
//!   not independent, so the round, not the hand, is the unit of variance.
//! - Intervals on the mean return: normal (mean +/- z sd / sqrt(rounds)).
//! - Intervals on probabilities: Wilson score intervals.
//!
//! Quantiles come from statrs. Everything here is a pure function of integers, so equal tallies
//! give equal floats, bit for bit.

use statrs::distribution::{ContinuousCDF, Normal};

use crate::engine::simulate::{SideBetPlan, SideBetTally, Tally};
use crate::game::wager::{BET_UNITS, MainWager};

/// A two-sided interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
}

/// The standard normal quantile for a two-sided `confidence` (0.95 gives 1.959964...).
pub fn z(confidence: f64) -> f64 {
    Normal::new(0.0, 1.0)
        .expect("standard normal")
        .inverse_cdf(0.5 + confidence / 2.0)
}

/// The Wilson score interval for `successes` out of `n` trials (`n > 0`).
pub fn wilson(successes: u64, n: u64, confidence: f64) -> Interval {
    let (k, n) = (successes as f64, n as f64);
    let z = z(confidence);
    let p = k / n;
    let z2n = z * z / n;
    let centre = (p + z2n / 2.0) / (1.0 + z2n);
    let half = z / (1.0 + z2n) * (p * (1.0 - p) / n + z2n / (4.0 * n)).sqrt();
    Interval {
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// The normal interval on a mean with standard deviation `sd` over `n` independent samples.
pub fn mean_interval(mean: f64, sd: f64, n: u64, confidence: f64) -> Interval {
    let half = z(confidence) * sd / (n as f64).sqrt();
    Interval {
        low: mean - half,
        high: mean + half,
    }
}

/// Population standard deviation of `n` samples from their exact integer sums.
pub fn sd_from_sums(n: u64, sum: i128, sum_squares: u128) -> f64 {
    let n128 = u128::from(n);
    let square_of_sum = sum.unsigned_abs().checked_pow(2);
    match (n128.checked_mul(sum_squares), square_of_sum) {
        (Some(a), Some(b)) if a >= b => ((a - b) as f64).sqrt() / n as f64,
        _ => {
            let mean = sum as f64 / n as f64;
            (sum_squares as f64 / n as f64 - mean * mean)
                .max(0.0)
                .sqrt()
        }
    }
}

/// The headline figures of the main wager.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WagerStats {
    /// Player hands settled.
    pub trials: u64,
    pub player_ev: f64,
    /// P(paid): both hands won, or the dealer overqualified.
    pub win: f64,
    /// P(no money changes hands on the bet): a split result or the dealer not qualifying.
    pub push: f64,
    pub loss: f64,
    /// SD of a round's net per unit wagered (per hand with one player).
    pub sd: f64,
    pub ci95: Interval,
    pub ci99: Interval,
}

/// The main wager's figures from a run's tally (`players` bets per round).
pub fn main_wager(tally: &Tally, players: u8) -> WagerStats {
    let hands = tally.hands as f64;
    let round_stake = f64::from(players) * BET_UNITS as f64;
    let player_ev = tally.net_units as f64 / (hands * BET_UNITS as f64);
    let sd = sd_from_sums(tally.rounds, tally.net_units, tally.net_units_squared) / round_stake;
    WagerStats {
        trials: tally.hands,
        player_ev,
        win: (tally.win + tally.overqualified) as f64 / hands,
        push: (tally.push + tally.not_qualified) as f64 / hands,
        loss: tally.loss as f64 / hands,
        sd,
        ci95: mean_interval(player_ev, sd, tally.rounds, 0.95),
        ci99: mean_interval(player_ev, sd, tally.rounds, 0.99),
    }
}

/// A side bet's figures from its tally: `hands` bets over `rounds` rounds of `players` bets.
/// "win" is the hit rate (some line pays), "loss" the rest; a side bet never pushes.
pub fn side_bet(
    bet: &SideBetTally,
    plan: &SideBetPlan,
    hands: u64,
    rounds: u64,
    players: u8,
) -> WagerStats {
    let unit = plan.unit as f64;
    let hits: u64 = bet.lines[..plan.table.lines.len()].iter().sum();
    let player_ev = bet.net as f64 / (hands as f64 * unit);
    let sd = sd_from_sums(rounds, bet.net, bet.net_squared) / (f64::from(players) * unit);
    WagerStats {
        trials: hands,
        player_ev,
        win: hits as f64 / hands as f64,
        push: 0.0,
        loss: (hands - hits) as f64 / hands as f64,
        sd,
        ci95: mean_interval(player_ev, sd, rounds, 0.95),
        ci99: mean_interval(player_ev, sd, rounds, 0.99),
    }
}

/// Player EV implied by the wager's payouts and the outcome counts (for cross-checks).
pub fn ev_from_counts(tally: &Tally, wager: &MainWager) -> f64 {
    tally.net_from_counts(wager) as f64 / (tally.hands as f64 * BET_UNITS as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn z_quantiles() {
        assert!((z(0.95) - 1.959_963_985).abs() < 1e-8);
        assert!((z(0.99) - 2.575_829_304).abs() < 1e-8);
    }

    #[test]
    fn wilson_matches_a_worked_example() {
        // 81 of 263 at 95%: 0.2553 to 0.3662 (Wilson 1927 via Newcombe 1998, table I).
        let i = wilson(81, 263, 0.95);
        assert!((i.low - 0.2553).abs() < 1e-4, "{i:?}");
        assert!((i.high - 0.3662).abs() < 1e-4, "{i:?}");
        let zero = wilson(0, 10, 0.95);
        assert_eq!(zero.low, 0.0);
        assert!(zero.high > 0.2 && zero.high < 0.35);
    }

    #[test]
    fn sd_from_sums_is_exact() {
        // Samples 1, -1, -1, 3: mean 0.5, population variance 2.75.
        assert!((sd_from_sums(4, 2, 12) - 2.75f64.sqrt()).abs() < 1e-15);
        assert_eq!(sd_from_sums(3, 3, 3), 0.0);
    }
}
