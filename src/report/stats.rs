//! Statistics, computed once from integer tallies: every float of every report is made here.
//!
//! - Mean return per unit wagered: the players' net (integer bet units) over hands x bet.
//! - Standard deviation: of one round's net per unit wagered in that round, from the exact
//!   integer sums `n`, `sum x`, `sum x^2` over rounds (`n sum x^2 - (sum x)^2` in integers); with
//!   one player per round this is the usual SD per hand. Several players against one dealer are
//!   not independent, so the round, not the hand, is the unit of variance.
//! - Intervals on the mean return: normal (mean +/- z sd / sqrt(rounds)).
//! - Intervals on probabilities: Wilson score intervals.
//!
//! - Paired differences of two variants on the same deals: the exact integer sums of the
//!   per-deal difference from the joint outcome table (a variance of a difference with no
//!   sampling of its own), and the correlation of the two nets.
//! - Ratios (a seat's net per chip of action): the delta method.
//! - Stratified means (a table's results over whole rotations, and paired table differences):
//!   each stratum (the rounds banked by one seat) weighted by its exact share of the rotation's
//!   cycle, `sum w_k mean_k` with standard error `sqrt(sum w_k^2 var_k / n_k)`.
//! - Break-even fees: an EV after collection linear in a fee, `A - F - x U`, solved exactly for
//!   `x` with the interval of `A` mapped through the same line.
//!
//! Quantiles come from statrs. Everything here is a pure function of integers, so equal tallies
//! give equal floats, bit for bit.

use statrs::distribution::{ChiSquared, ContinuousCDF, Normal};

use crate::engine::compare::{CompareTally, RuleGroup, Side};
use crate::engine::run::counted_sums;
use crate::engine::simulate::{SideBetTally, SimTally};
use crate::engine::table::SeatTally;
use crate::game::events::SideBetPlan;
use crate::game::wager::{BET_UNITS, BetResult, MainWager, OUTCOMES, Outcome, OutcomeCounts};

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

/// The volatility index of a bet at two-sided `confidence`: `z * sd`, `z` the standard normal
/// quantile ([`z`]). Over N hands a player's total result per unit bet is N EV plus or minus
/// the index times sqrt(N) with that confidence (the normal approximation).
pub fn volatility_index(sd: f64, confidence: f64) -> f64 {
    z(confidence) * sd
}

/// The least expected count of a cell of a chi-square test: smaller cells are pooled.
pub const LEAST_EXPECTED: f64 = 5.0;

/// A chi-square goodness-of-fit test of observed counts against expected ones.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChiSquare {
    pub statistic: f64,
    /// Degrees of freedom: the cells after pooling, less one.
    pub df: u64,
    /// The chance of a statistic this large or larger if the expected counts are the truth.
    pub p_value: f64,
    /// The lines pooled into one cell: those expected fewer than [`LEAST_EXPECTED`] times, and
    /// the next smallest lines while the pool's expected count stays under it.
    pub pooled: usize,
}

/// The chi-square test of `(observed, expected)` counts (expected counts adding up to the
/// observed total): lines with an expected count under [`LEAST_EXPECTED`] are pooled, smallest
/// first, into one cell (into the next smallest line while the pool stays under it), then
/// `sum (O - E)^2 / E` over the cells, with cells - 1 degrees of freedom and its p-value from
/// statrs' chi-square distribution. `None` with fewer than two cells. An observed count where
/// none is expected gives an infinite statistic and p-value 0.
pub fn chi_square(cells: &[(u64, f64)]) -> Option<ChiSquare> {
    let mut sorted: Vec<(f64, f64)> = cells.iter().map(|&(o, e)| (o as f64, e)).collect();
    sorted.sort_by(|a, b| a.1.total_cmp(&b.1));
    let (mut pooled_cells, mut pool, mut pooled) = (Vec::new(), (0.0, 0.0), 0);
    for (o, e) in sorted {
        if e < LEAST_EXPECTED || (pooled > 0 && pool.1 < LEAST_EXPECTED) {
            pool = (pool.0 + o, pool.1 + e);
            pooled += 1;
        } else {
            pooled_cells.push((o, e));
        }
    }
    if pooled > 0 {
        pooled_cells.push(pool);
    }
    if pooled_cells.len() < 2 {
        return None;
    }
    let statistic: f64 = (pooled_cells.iter())
        .map(|&(o, e)| {
            if e > 0.0 {
                (o - e).powi(2) / e
            } else if o > 0.0 {
                f64::INFINITY
            } else {
                0.0
            }
        })
        .sum();
    let df = pooled_cells.len() as u64 - 1;
    let p_value = if statistic.is_finite() {
        ChiSquared::new(df as f64).ok()?.sf(statistic)
    } else {
        0.0
    };
    Some(ChiSquare {
        statistic,
        df,
        p_value,
        pooled,
    })
}

/// The Wilson score interval for `successes` out of `n` trials (`n > 0`).
pub fn wilson(successes: u64, n: u64, confidence: f64) -> Interval {
    wilson_of_share(successes as f64 / n as f64, n, confidence)
}

/// The Wilson score interval of a share `p` observed over `n` independent samples (each a
/// share in [0, 1], whose variance is then at most `p(1 - p)`: the interval is conservative for
/// shares of several correlated trials, exact for 0/1 samples).
pub fn wilson_of_share(p: f64, n: u64, confidence: f64) -> Interval {
    let n = n as f64;
    let z = z(confidence);
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

/// The headline figures of a wager.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WagerStats {
    /// Bets settled.
    pub trials: u64,
    /// Rounds dealt, the independent samples (`trials` with one player).
    pub rounds: u64,
    pub player_ev: f64,
    /// P(paid): both hands won, or the dealer overqualified; for a side bet, some line pays.
    pub win: f64,
    /// P(no money changes hands on the bet): a split result or the dealer not qualifying.
    pub push: f64,
    pub loss: f64,
    /// SD of a round's net per unit wagered (per hand with one player).
    pub sd: f64,
    /// Standard error of `player_ev`: `sd / sqrt(rounds)`.
    pub se: f64,
    pub ci95: Interval,
    pub ci99: Interval,
}

impl WagerStats {
    /// The figures of a mean `player_ev` with standard deviation `sd` over `n` independent
    /// rounds, and the outcome shares of `counts`.
    fn of(player_ev: f64, sd: f64, n: u64, counts: &OutcomeCounts, trials: u64) -> WagerStats {
        let share = |r: BetResult| counts.with_result(r) as f64 / trials as f64;
        WagerStats {
            trials,
            rounds: n,
            player_ev,
            win: share(BetResult::Paid),
            push: share(BetResult::Pushed),
            loss: share(BetResult::Lost),
            sd,
            se: sd / (n as f64).sqrt(),
            ci95: mean_interval(player_ev, sd, n, 0.95),
            ci99: mean_interval(player_ev, sd, n, 0.99),
        }
    }
}

/// The main wager's figures from a run's tally (`players` bets per round).
pub fn main_wager(tally: &SimTally, players: u8) -> WagerStats {
    let round_stake = f64::from(players) * BET_UNITS as f64;
    let player_ev = tally.net_units as f64 / (tally.hands as f64 * BET_UNITS as f64);
    let sd = sd_from_sums(tally.rounds, tally.net_units, tally.net_units_squared) / round_stake;
    WagerStats::of(player_ev, sd, tally.rounds, &tally.outcomes, tally.hands)
}

/// A side bet's figures from its tally: `hands` bets over `rounds` rounds of `players` bets.
/// "win" is the hit rate (some line pays more than the bet back), "push" the hands of lines
/// that push (`pays = "push"`), "loss" the rest; an Envy bonus's "win" is the hands that pay the
/// other players and its rest are pushes (`plan` is for rounds of `players` players:
/// [`SideBetPlan::for_players`]).
pub fn side_bet(
    bet: &SideBetTally,
    plan: &SideBetPlan,
    hands: u64,
    rounds: u64,
    players: u8,
) -> WagerStats {
    let unit = plan.unit as f64;
    let hands_of = |push: bool| -> u64 {
        (plan.table.lines.iter().zip(&bet.lines))
            .filter(|(line, _)| line.pays.is_push() == push)
            .map(|(_, &n)| n)
            .sum()
    };
    let (hits, pushed) = (hands_of(false), hands_of(true));
    let player_ev = bet.net as f64 / (hands as f64 * unit);
    let sd = sd_from_sums(rounds, bet.net, bet.net_squared) / (f64::from(players) * unit);
    // A hand no line pays loses the bet, but costs an Envy bonus nothing: a push.
    let idle = match plan.table.is_envy() {
        true => Outcome::Push,
        false => Outcome::Loss,
    };
    let mut counts = OutcomeCounts::default();
    counts.0[Outcome::Win.index()] = hits;
    counts.0[Outcome::Push.index()] = pushed;
    counts.0[idle.index()] += hands - hits - pushed;
    WagerStats::of(player_ev, sd, rounds, &counts, hands)
}

/// Exact integer sums of one variable over `n` deals (in bet units).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sums {
    pub n: u64,
    pub sum: i128,
    pub squares: u128,
}

impl Sums {
    /// The sums of `count` deals of each `net` ([`counted_sums`]).
    pub fn of(counts: impl Iterator<Item = (u64, i64)>) -> Sums {
        let (n, sum, squares) = counted_sums(counts);
        Sums { n, sum, squares }
    }

    /// The sums of the main wager's net over hands counted by outcome.
    pub fn of_outcomes(counts: &OutcomeCounts, wager: &MainWager) -> Sums {
        Sums::of((Outcome::ALL.iter()).map(|&o| (counts.get(o), o.net_units(wager))))
    }

    /// The mean per unit bet.
    pub fn mean(self) -> f64 {
        self.sum as f64 / (self.n as f64 * BET_UNITS as f64)
    }

    /// The population SD in bet units (0 exactly when every value is equal).
    pub fn sd(self) -> f64 {
        sd_from_sums(self.n, self.sum, self.squares) / BET_UNITS as f64
    }

    /// `n sum x^2 - (sum x)^2` (n^2 times the variance, in the values' units squared), exact
    /// when it fits in 128 bits.
    fn scaled_variance(self) -> f64 {
        let exact = u128::from(self.n)
            .checked_mul(self.squares)
            .zip(self.sum.unsigned_abs().checked_pow(2))
            .and_then(|(a, b)| a.checked_sub(b));
        exact.map_or_else(
            || (self.n as f64).powi(2) * sd_from_sums(self.n, self.sum, self.squares).powi(2),
            |v| v as f64,
        )
    }
}

/// The exact mean, variance and standard deviation per unit wagered of a bet whose every
/// outcome is counted (an exhaustive enumeration).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExactMoments {
    /// Everything counted (hands, or deals).
    pub combinations: u64,
    pub mean: f64,
    pub variance: f64,
    pub sd: f64,
}

/// The exact moments of `(count, net)` pairs, nets in `unit`s per unit bet (so a loss of the
/// bet is `-unit`). The sums are exact integers and so is `n sum x^2 - (sum x)^2`, the
/// numerator of the variance, wherever it fits in 128 bits (else it is computed in floats): one
/// division makes each float. Shared by every exact report (side bets, the main wager).
pub fn exact_moments(counts: impl IntoIterator<Item = (u64, i64)>, unit: i64) -> ExactMoments {
    let sums = Sums::of(counts.into_iter());
    let (n, u) = (sums.n as f64, unit as f64);
    let variance = sums.scaled_variance() / (n * n * u * u);
    ExactMoments {
        combinations: sums.n,
        mean: sums.sum as f64 / (n * u),
        variance,
        sd: variance.sqrt(),
    }
}

/// The range that holds a player's average result per hand over `hands` hands with probability
/// `confidence`, for a bet with mean `mean` and standard deviation `sd` per hand: the normal
/// approximation `mean +/- z sd / sqrt(hands)` (the "volatility index" `z sd` over the square
/// root of the hands). It understates the skew of bets with rare large pays over few hands.
pub fn average_result_range(mean: f64, sd: f64, hands: u64, confidence: f64) -> Interval {
    mean_interval(mean, sd, hands, confidence)
}

/// The main-wager figures of compared variant `i`: the same arithmetic as [`main_wager`], so the
/// same floats as `paigow simulate` with one player.
pub fn variant_stats(tally: &CompareTally, i: usize, wager: &MainWager) -> WagerStats {
    let counts = &tally.outcomes[i];
    let sums = Sums::of_outcomes(counts, wager);
    WagerStats::of(sums.mean(), sums.sd(), sums.n, counts, sums.n)
}

/// The paired comparison of variants `a` and `b` (difference = EV(a) - EV(b)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairStats {
    pub a: usize,
    pub b: usize,
    pub difference: f64,
    /// SD of the per-deal difference of nets, per unit bet.
    pub sd: f64,
    /// Standard error of the difference, paired.
    pub se: f64,
    /// What the standard error would be from two independent runs of the same size.
    pub independent_se: f64,
    pub ci95: Interval,
    pub ci99: Interval,
    /// Share of hands set differently (of deals, or of 2 x deals when both sides vary).
    pub set_differently: f64,
    /// Share of deals whose net differs.
    pub result_differs: f64,
    /// Correlation of the two nets (None when one of them never varies).
    pub correlation: Option<f64>,
}

impl PairStats {
    /// Whether the 95% interval of the difference excludes zero.
    pub fn is_significant(&self) -> bool {
        self.ci95.low > 0.0 || self.ci95.high < 0.0
    }
}

/// The paired figures of pair number `p`, variants `a` < `b`.
pub fn pair_stats(
    tally: &CompareTally,
    side: Side,
    p: usize,
    (a, b): (usize, usize),
    wager: &MainWager,
) -> PairStats {
    let nets = wager.net_by_outcome();
    let joint = &tally.joint[p];
    let cells = || (0..OUTCOMES).flat_map(move |x| (0..OUTCOMES).map(move |y| (x, y)));
    let diff = Sums::of(cells().map(|(x, y)| (joint[x][y], nets[x] - nets[y])));
    let sum_a = Sums::of(cells().map(|(x, y)| (joint[x][y], nets[x])));
    let sum_b = Sums::of(cells().map(|(x, y)| (joint[x][y], nets[y])));
    let differs: u64 = cells()
        .filter(|&(x, y)| nets[x] != nets[y])
        .map(|(x, y)| joint[x][y])
        .sum();
    let n = diff.n;
    let difference = diff.sum as f64 / (n as f64 * BET_UNITS as f64);
    let sd = diff.sd();
    let root_n = (n as f64).sqrt();
    PairStats {
        a,
        b,
        difference,
        sd,
        se: sd / root_n,
        independent_se: (sum_a.sd().powi(2) + sum_b.sd().powi(2)).sqrt() / root_n,
        ci95: mean_interval(difference, sd, n, 0.95),
        ci99: mean_interval(difference, sd, n, 0.99),
        set_differently: tally.set_differently[p] as f64 / (n * side.hands()) as f64,
        result_differs: differs as f64 / n as f64,
        correlation: correlation(joint, &nets, sum_a, sum_b),
    }
}

/// Pearson correlation of the two nets from the joint table, exact integers until the division.
fn correlation(
    joint: &[[u64; OUTCOMES]; OUTCOMES],
    nets: &[i64; OUTCOMES],
    a: Sums,
    b: Sums,
) -> Option<f64> {
    let mut cross = 0i128;
    for (x, row) in joint.iter().enumerate() {
        for (y, &count) in row.iter().enumerate() {
            cross += i128::from(count) * i128::from(nets[x]) * i128::from(nets[y]);
        }
    }
    let covariance = i128::from(a.n)
        .checked_mul(cross)
        .zip(a.sum.checked_mul(b.sum))
        .map_or_else(
            || a.n as f64 * cross as f64 - a.sum as f64 * b.sum as f64,
            |(x, y)| (x - y) as f64,
        );
    let (va, vb) = (a.scaled_variance(), b.scaled_variance());
    (va > 0.0 && vb > 0.0).then(|| (covariance / (va.sqrt() * vb.sqrt())).clamp(-1.0, 1.0))
}

/// Variant indices from the best EV to the worst (exact integer nets; ties keep input order).
pub fn ranking(tally: &CompareTally, wager: &MainWager) -> Vec<usize> {
    let total = |i: usize| tally.outcomes[i].net_units(wager);
    let mut order: Vec<usize> = (0..tally.outcomes.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(total(i)));
    order
}

/// The gap of variant `i` less the reference variant over the deals of one rule group, per
/// unit bet over all `deals` of the run (the group's share of the EV difference), with its 95%
/// interval: the per-deal difference is zero outside the group, so its exact sums are the
/// group's.
pub fn rule_gap(group: &RuleGroup, i: usize, reference: usize, deals: u64) -> (f64, Interval) {
    let sums = Sums {
        n: deals,
        sum: i128::from(group.net[i]) - i128::from(group.net[reference]),
        squares: group.gap_squares[i],
    };
    let gap = sums.mean();
    (gap, mean_interval(gap, sums.sd(), deals, 0.95))
}

/// Figures for one seat, computed once from its tally.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatStats {
    /// Mean net per round after collection, in chips, with a normal 95% interval.
    pub ev_per_round: f64,
    pub ev_per_round_ci95: (f64, f64),
    /// Net before collection per chip of action, with a 95% interval (ratio estimator).
    pub ev_per_action: f64,
    pub ev_per_action_ci95: (f64, f64),
    /// Net after collection per chip of action.
    pub ev_per_action_after_collection: f64,
    /// Mean chips in action per round.
    pub action_per_round: f64,
}

/// A seat's figures from `tally` over `rounds` rounds, paying `fee` collection per round.
pub fn seat_stats(t: &SeatTally, rounds: u64, fee: u64) -> SeatStats {
    let n = rounds as f64;
    let per_round = t.net as f64 / n - fee as f64;
    let sd = sd_from_sums(rounds, t.net, t.net_squared);
    let i = mean_interval(per_round, sd, rounds, 0.95);
    let action = t.action as f64;
    let ratio = if action > 0.0 {
        t.net as f64 / action
    } else {
        0.0
    };
    let half = ratio_half_width(t, rounds, ratio);
    SeatStats {
        ev_per_round: per_round,
        ev_per_round_ci95: (i.low, i.high),
        ev_per_action: ratio,
        ev_per_action_ci95: (ratio - half, ratio + half),
        ev_per_action_after_collection: if action > 0.0 {
            (t.net as f64 - fee as f64 * n) / action
        } else {
            0.0
        },
        action_per_round: action / n,
    }
}

/// Half-width of the 95% interval of `ratio` = sum net / sum action (delta method: the SD of
/// `net - ratio x action` over the mean action, over sqrt(rounds)).
fn ratio_half_width(t: &SeatTally, rounds: u64, ratio: f64) -> f64 {
    let n = rounds as f64;
    let mean_action = t.action as f64 / n;
    if mean_action == 0.0 {
        return 0.0;
    }
    let residual = (t.net_squared as f64 - 2.0 * ratio * t.net_action as f64
        + ratio * ratio * t.action_squared as f64)
        / n;
    z(0.95) * residual.max(0.0).sqrt() / (mean_action * n.sqrt())
}

/// One stratum of a stratified estimate (e.g. the rounds banked by one seat): its weight in the
/// whole (exact, from the rotation's cycle) and the exact sums of a variable over its rounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StratumSums {
    pub weight: f64,
    pub n: u64,
    pub sum: i128,
    pub squares: u128,
}

/// The stratified mean `sum w_k mean_k` and its standard error `sqrt(sum w_k^2 var_k / n_k)`
/// (population variances from the exact sums). Strata of weight 0 are left out; None when a
/// stratum of positive weight has no samples.
pub fn stratified_mean(strata: &[StratumSums]) -> Option<(f64, f64)> {
    let (mut mean, mut variance) = (0.0, 0.0);
    for s in strata.iter().filter(|s| s.weight > 0.0) {
        if s.n == 0 {
            return None;
        }
        let n = s.n as f64;
        mean += s.weight * (s.sum as f64 / n);
        variance += s.weight * s.weight * sd_from_sums(s.n, s.sum, s.squares).powi(2) / n;
    }
    Some((mean, variance.sqrt()))
}

/// One stratum of a table seat's results: its weight, its rounds, the seat's tally there and
/// the collection the seat pays per round there (micro-chips, `MICROS` to a chip).
#[derive(Clone, Copy, Debug)]
pub struct SeatStratum<'a> {
    pub weight: f64,
    pub rounds: u64,
    pub seat: &'a SeatTally,
    pub fee_micros: u128,
}

/// A table seat's figures in one role (as a player, as the player-dealer, over whole
/// rotations), stratified by the player-dealer's seat with the cycle's exact weights. "Before
/// collection" is the net of the bets; "after" subtracts the collection the seat paid.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoleStats {
    /// Rounds of the run in this role.
    pub rounds: u64,
    /// Mean chips of the seat's bets (or bank) that had action, per round.
    pub action_per_round: f64,
    /// Mean net before collection, chips per round, its standard error and 95% interval.
    pub ev_before: f64,
    pub se: f64,
    pub ev_before_ci95: Interval,
    /// Net before collection per chip of action (ratio estimator, delta method); None with no
    /// action.
    pub ev_before_per_action: Option<f64>,
    pub ev_before_per_action_ci95: Option<Interval>,
    /// Collection paid, chips per round.
    pub collection: f64,
    /// Mean net after collection, chips per round, and its 95% interval (the collection is
    /// fixed, so the interval is the one before, moved).
    pub ev_after: f64,
    pub ev_after_ci95: Interval,
    /// Net after collection per chip of action.
    pub ev_after_per_action: Option<f64>,
    /// Shares of the rounds in which the seat's bets got no action, or only part of it.
    pub no_action_share: f64,
    pub partial_share: f64,
}

/// A table seat's figures over `strata` (weights summing to 1); None when a stratum of
/// positive weight has no rounds.
pub fn role_stats(strata: &[SeatStratum], micros_per_chip: u64) -> Option<RoleStats> {
    let live: Vec<&SeatStratum> = strata.iter().filter(|s| s.weight > 0.0).collect();
    if live.is_empty() || live.iter().any(|s| s.rounds == 0) {
        return None;
    }
    let sums = |s: &SeatStratum| StratumSums {
        weight: s.weight,
        n: s.rounds,
        sum: s.seat.net,
        squares: s.seat.net_squared,
    };
    let (ev_before, se) = stratified_mean(&live.iter().map(|s| sums(s)).collect::<Vec<_>>())?;
    let per_round = |f: &dyn Fn(&SeatStratum) -> f64| -> f64 {
        live.iter().map(|s| s.weight * f(s) / s.rounds as f64).sum()
    };
    let action = per_round(&|s| s.seat.action as f64);
    let collection = per_round(&|s| s.fee_micros as f64 * s.rounds as f64) / micros_per_chip as f64;
    // The mean after collection from exact integers: net x MICROS - rounds x fee, per stratum.
    let ev_after: f64 = (live.iter())
        .map(|s| {
            let m = i128::from(micros_per_chip);
            let fee = i128::try_from(s.fee_micros).expect("a hand's fee fits i128");
            let exact = s.seat.net * m - i128::from(s.rounds) * fee;
            s.weight * exact as f64 / (s.rounds as f64 * micros_per_chip as f64)
        })
        .sum();
    let z95 = z(0.95);
    let around = |mean: f64, se: f64| Interval {
        low: mean - z95 * se,
        high: mean + z95 * se,
    };
    let (per_action, per_action_ci) = match action > 0.0 {
        true => {
            let r = ev_before / action;
            let variance: f64 = (live.iter())
                .map(|s| {
                    let n = s.rounds as f64;
                    let t = s.seat;
                    let square = (t.net_squared as f64 - 2.0 * r * t.net_action as f64
                        + r * r * t.action_squared as f64)
                        / n;
                    let mean = (t.net as f64 - r * t.action as f64) / n;
                    s.weight * s.weight * (square - mean * mean).max(0.0) / n
                })
                .sum();
            (Some(r), Some(around(r, variance.sqrt() / action)))
        }
        false => (None, None),
    };
    Some(RoleStats {
        rounds: live.iter().map(|s| s.rounds).sum(),
        action_per_round: action,
        ev_before,
        se,
        ev_before_ci95: around(ev_before, se),
        ev_before_per_action: per_action,
        ev_before_per_action_ci95: per_action_ci,
        collection,
        ev_after,
        ev_after_ci95: around(ev_after, se),
        ev_after_per_action: (action > 0.0).then(|| ev_after / action),
        no_action_share: per_round(&|s| s.seat.no_action as f64),
        partial_share: per_round(&|s| s.seat.partial as f64),
    })
}

/// The correlation of two variants' per-round nets on the same rounds, from exact pooled
/// sums: `n`, each net's sum and sum of squares, and the sum of squares of their difference
/// (`sum ab = (sum a^2 + sum b^2 - sum (a-b)^2) / 2`). None when either never varies.
pub fn paired_correlation(
    n: u64,
    (sum_a, squares_a): (i128, u128),
    (sum_b, squares_b): (i128, u128),
    squares_difference: u128,
) -> Option<f64> {
    let cross = (i128::try_from(squares_a).ok())
        .zip(i128::try_from(squares_b).ok())
        .zip(i128::try_from(squares_difference).ok())
        .and_then(|((a, b), d)| a.checked_add(b)?.checked_sub(d))
        .map(|twice| twice / 2)?;
    let n = i128::from(n);
    let scaled = |sq: u128, sum: i128| -> Option<f64> {
        let v = n
            .checked_mul(i128::try_from(sq).ok()?)?
            .checked_sub(sum.checked_mul(sum)?)?;
        (v > 0).then_some(v as f64)
    };
    let (va, vb) = (scaled(squares_a, sum_a)?, scaled(squares_b, sum_b)?);
    let covariance = n
        .checked_mul(cross)?
        .checked_sub(sum_a.checked_mul(sum_b)?)? as f64;
    Some((covariance / (va.sqrt() * vb.sqrt())).clamp(-1.0, 1.0))
}

/// The value of a fee that brings a target's EV after collection to zero, when the EV is
/// linear in it: `ev_after = ev_before - others - value x units` (all per round; `units` the
/// fixed number of fee units the target pays per round). The interval is the EV's, mapped
/// through the same line (exact: `units` and `others` carry no sampling error). None when the
/// target pays none of this fee.
pub fn breakeven(
    ev_before: f64,
    ci95: Interval,
    others: f64,
    units: f64,
) -> Option<(f64, Interval)> {
    (units > 0.0).then(|| {
        let at = |ev: f64| (ev - others) / units;
        (
            at(ev_before),
            Interval {
                low: at(ci95.low),
                high: at(ci95.high),
            },
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chi_square_pools_small_cells_and_reads_its_p_value() {
        // 3 cells, none small: (10-12.5)^2/12.5 + (15-12.5)^2/12.5 + 0 = 1.0, df 2, p = e^-0.5.
        let fit = chi_square(&[(10, 12.5), (15, 12.5), (25, 25.0)]).unwrap();
        assert!((fit.statistic - 1.0).abs() < 1e-12);
        assert_eq!((fit.df, fit.pooled), (2, 0));
        assert!((fit.p_value - (-0.5f64).exp()).abs() < 1e-12);
        // Expected 1 and 2 are pooled with 10 (the pool passes 5): cells (4, 13) and (20, 20).
        let fit = chi_square(&[(1, 1.0), (0, 2.0), (3, 10.0), (20, 20.0)]).unwrap();
        assert_eq!((fit.df, fit.pooled), (1, 3));
        assert!((fit.statistic - 81.0 / 13.0).abs() < 1e-12);
        assert!(chi_square(&[(1, 1.0), (2, 2.0)]).is_none());
    }

    /// A push line's hands are pushes, not hits: win, push and loss split the hands.
    #[test]
    fn a_side_bets_push_line_is_a_push() {
        use crate::game::paytable::Paytable;
        let text = "name = \"p\"\n[[line]]\nevent = \"flush\"\npays = 3\n\
                    [[line]]\nevent = \"two_pair\"\npays = \"push\"\n";
        let table = Paytable::from_toml(text, "p.toml").unwrap();
        let plan = SideBetPlan::new(&table, crate::eval::JokerRule::Bug).for_players(1);
        let mut bet = SideBetTally::default();
        bet.lines[..3].copy_from_slice(&[1, 2, 5]);
        (bet.net, bet.net_squared) = (3 - 5, 9 + 5);
        let stats = side_bet(&bet, &plan, 8, 8, 1);
        assert_eq!((stats.win, stats.push, stats.loss), (0.125, 0.25, 0.625));
        assert_eq!(stats.player_ev, -0.25);
    }

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
    fn exact_moments_of_a_bet() {
        // Pays 3 to 1 once in 4, else loses: mean 0, variance 3 (E[x^2] = (9 + 3) / 4).
        let m = exact_moments([(1, 30_000), (3, -10_000)], 10_000);
        assert_eq!(m.combinations, 4);
        assert_eq!(m.mean, 0.0);
        assert_eq!(m.variance, 3.0);
        assert_eq!(m.sd, 3f64.sqrt());
        // Even money at 1/2: variance 1; a coin never varies in its mean over many hands.
        let coin = exact_moments([(5, 1), (5, -1)], 1);
        assert_eq!((coin.mean, coin.variance), (0.0, 1.0));
        let r = average_result_range(0.0, 1.0, 100, 0.95);
        assert!(
            (r.high - 0.195_996_398_5).abs() < 1e-9 && r.low == -r.high,
            "{r:?}"
        );
    }

    #[test]
    fn sd_from_sums_is_exact() {
        // Samples 1, -1, -1, 3: mean 0.5, population variance 2.75.
        assert!((sd_from_sums(4, 2, 12) - 2.75f64.sqrt()).abs() < 1e-15);
        assert_eq!(sd_from_sums(3, 3, 3), 0.0);
    }

    #[test]
    fn a_stratified_mean_of_one_stratum_is_the_plain_mean() {
        // Samples 1, -1, -1, 3 in one stratum; two strata weighted 3/4 and 1/4.
        let one = StratumSums {
            weight: 1.0,
            n: 4,
            sum: 2,
            squares: 12,
        };
        let (mean, se) = stratified_mean(&[one]).unwrap();
        assert_eq!(mean, 0.5);
        assert!((se - (2.75f64 / 4.0).sqrt()).abs() < 1e-15);
        // Strata {2, 4} (mean 3, var 1) and {10} x 2 (mean 10, var 0).
        let a = StratumSums {
            weight: 0.75,
            n: 2,
            sum: 6,
            squares: 20,
        };
        let b = StratumSums {
            weight: 0.25,
            n: 2,
            sum: 20,
            squares: 200,
        };
        let (mean, se) = stratified_mean(&[a, b]).unwrap();
        assert!((mean - (0.75 * 3.0 + 0.25 * 10.0)).abs() < 1e-12);
        assert!((se - (0.75f64 * 0.75 * 1.0 / 2.0).sqrt()).abs() < 1e-12);
        let empty = StratumSums {
            weight: 0.5,
            n: 0,
            sum: 0,
            squares: 0,
        };
        assert_eq!(stratified_mean(&[a, empty]), None);
    }

    #[test]
    fn correlation_and_breakeven_from_exact_sums() {
        // a = 1, 2, 3; b = 2, 4, 6: correlation 1; a - b = -1, -2, -3.
        assert_eq!(paired_correlation(3, (6, 14), (12, 56), 14), Some(1.0));
        // b = -a: correlation -1.
        assert_eq!(paired_correlation(3, (6, 14), (-6, 14), 56), Some(-1.0));
        assert_eq!(paired_correlation(3, (3, 3), (6, 14), 5), None);
        let ci = Interval {
            low: 5.0,
            high: 7.0,
        };
        let (value, i) = breakeven(6.0, ci, 1.0, 2.0).unwrap();
        assert_eq!((value, i.low, i.high), (2.5, 2.0, 3.0));
        assert_eq!(breakeven(6.0, ci, 1.0, 0.0), None);
    }
}
