//! `paigow exact main`: the main wager's exact outcome counts over every ordered pair of disjoint
//! (player, dealer) 7-card hands, each hand set by its strategy: `C(53,7) C(46,7) =
//! 8,250,459,031,214,400` pairs for one joker, `C(54,7) C(47,7)` for two.
//!
//! Method, in four steps (each in its own file):
//! 1. [`crate::strategy::deck_shapes`]: every shape of the deck (rank multiset, and the flush suit's ranks when a suit
//!    holds five cards with the jokers) gets its id, the slot of the simulation's shape cache
//!    (below 338,781 whatever the deck), and a representative hand (292,253 shapes for 53 cards,
//!    335,036 for 54);
//! 2. [`settings`]: each representative is set by the dealer's way (a point of the (front, back)
//!    value grid, or "does not qualify" / "overqualifies") and by the player's strategy (regions
//!    of that grid: where it wins, loses, loses without a copy; see [`codes`]);
//! 3. [`core`]: inclusion-exclusion over the cards `T` the two hands share: for every set `T` of
//!    at most seven cards, up to the 24 suit permutations and the exchange of jokers
//!    ([`classes`]), the hands containing `T` are enumerated and grouped by shape;
//! 4. [`sweep`]: over such a family, the pairs by class are 2-D dominance counts, answered by a
//!    sweep over back values with a Fenwick tree over front values.
//!
//! [`crate::strategy::optimal::pricer`] prices one player hand exactly against every dealer hand of the other cards (`set
//! --exact`); [`cache`] keeps results on disk and compares a simulation with them.
//!
//! Invariants: counts are exact integers; the sum of `(-1)^|T| |family|^2` must equal the number
//! of disjoint pairs (checked on every run); the result is the same at any thread count.

pub mod cache;
pub mod classes;
pub mod codes;
pub mod core;
pub mod fenwick;
pub mod settings;
pub mod sweep;

use crate::game::wager::{Outcome, OutcomeCounts};
use std::time::Instant;

use thiserror::Error;

use crate::eval::Evaluator;
use crate::game::GameRules;
use crate::game::wager::{BET_UNITS, MainWager};
use crate::strategy::Strategy;
use crate::strategy::deck_shapes::{Shapes, SuitDeck};
use crate::strategy::optimal::grid::ValueIndex;
use crate::strategy::optimal::prices::PriceTable;
use core::{Counter, Plan};
pub use core::{PairCounts, Phase};
use settings::Setters;

/// Why an exact count cannot be made.
#[derive(Debug, Error)]
pub enum ExactMainError {
    #[error(
        "the player strategy '{0}' needs to see the dealer's hand, but this game's dealer does not set first and exposed ([main_wager] dealer_exposed = true)"
    )]
    PlayerNeedsExposedDealer(String),
    #[error("the dealer's way '{0}' cannot see the player's hand")]
    DealerSeesPlayer(String),
    #[error(
        "the player strategy '{0}' sets by seeing the dealer's hand: only a strategy that sets from its own seven cards is priced from the price table (use --engine count)"
    )]
    NotFromOwnCards(String),
    #[error("{0}")]
    Internal(String),
}

/// Hears how far a count has got: the total of hands to enumerate, then hands as they are done.
pub struct Progress<'a> {
    pub start: &'a dyn Fn(u64),
    pub advance: &'a (dyn Fn(u64) + Sync),
}

impl Progress<'_> {
    /// Progress nobody hears.
    pub fn silent() -> Progress<'static> {
        Progress {
            start: &|_| {},
            advance: &|_| {},
        }
    }
}

/// An exact result: pair counts by class under one game's main-wager rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MainExact {
    pub counts: PairCounts,
    pub wager: MainWager,
}

/// A fraction `numerator / denominator` in lowest terms (denominator positive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fraction {
    pub numerator: i128,
    pub denominator: i128,
}

impl Fraction {
    /// `numerator / denominator` reduced.
    pub fn new(numerator: i128, denominator: i128) -> Fraction {
        let (mut a, mut b) = (numerator.unsigned_abs(), denominator.unsigned_abs());
        while b != 0 {
            (a, b) = (b, a % b);
        }
        let g = a.max(1) as i128 * denominator.signum();
        Fraction {
            numerator: numerator / g,
            denominator: denominator / g,
        }
    }

    /// The value as a float.
    pub fn to_f64(self) -> f64 {
        self.numerator as f64 / self.denominator as f64
    }
}

/// `a - b`, exactly, over the denominators' least common multiple. Invariant: the fractions this
/// subtracts are EVs of one deck, each denominator a divisor of its pairs x [`BET_UNITS`] (under
/// 2^67 for 54 cards), so the common denominator and the numerators stay far inside `i128`; the
/// product of the two denominators need not (two 54-card EVs at a basis-point commission reach
/// 1.9e38), which is why this never multiplies them. Overflow is checked all the same: a broken
/// invariant stops the run rather than write a wrapped figure.
impl std::ops::Sub for Fraction {
    type Output = Fraction;

    fn sub(self, other: Fraction) -> Fraction {
        let fits = "a difference of two EVs of one deck fits in i128";
        let (a, b, common) = over_common_denominator(self, other).expect(fits);
        Fraction::new(a.checked_sub(b).expect(fits), common)
    }
}

/// The numerators of `a` and `b` over their least common denominator, and that denominator;
/// `None` where any of them overflows `i128`.
fn over_common_denominator(a: Fraction, b: Fraction) -> Option<(i128, i128, i128)> {
    use num_integer::Integer;
    let common = (a.denominator / a.denominator.gcd(&b.denominator)).checked_mul(b.denominator)?;
    let scaled = |f: Fraction| f.numerator.checked_mul(common / f.denominator);
    Some((scaled(a)?, scaled(b)?, common))
}

impl std::fmt::Display for Fraction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.numerator, self.denominator)
    }
}

impl MainExact {
    /// The pairs of one class.
    pub fn get(&self, class: Outcome) -> u64 {
        self.counts.get(class)
    }

    /// Every pair counted (one bet each).
    pub fn pairs(&self) -> u64 {
        self.counts.pairs()
    }

    /// What one bet of `class` nets the player, in [`BET_UNITS`] (a flat collection included):
    /// the wager's [`Outcome::net_units`].
    pub fn units_of(&self, class: Outcome) -> i64 {
        class.net_units(&self.wager)
    }

    /// The player's total net over every pair, in bet units.
    pub fn net_units(&self) -> i128 {
        OutcomeCounts(self.counts.classes).net_units(&self.wager)
    }

    /// The player's expected return per unit bet, exactly.
    pub fn player_ev_fraction(&self) -> Fraction {
        Fraction::new(
            self.net_units(),
            i128::from(self.pairs()) * i128::from(BET_UNITS),
        )
    }

    /// The player's expected return per unit bet.
    pub fn player_ev(&self) -> f64 {
        self.player_ev_fraction().to_f64()
    }

    /// The probability of a class.
    pub fn probability(&self, class: Outcome) -> f64 {
        self.get(class) as f64 / self.pairs() as f64
    }

    /// The standard deviation of one bet's net per unit bet.
    pub fn sd(&self) -> f64 {
        let n = self.pairs() as f64;
        let unit = BET_UNITS as f64;
        let moment = |power: i32| -> f64 {
            (Outcome::ALL.iter())
                .map(|&c| self.get(c) as f64 * (self.units_of(c) as f64 / unit).powi(power))
                .sum::<f64>()
                / n
        };
        (moment(2) - moment(1).powi(2)).max(0.0).sqrt()
    }

    /// How many standard errors `sim_ev` (a simulation's player EV with standard error
    /// `sim_se`) lies from this exact EV: positive when the simulation is above it.
    pub fn standard_errors(&self, sim_ev: f64, sim_se: f64) -> f64 {
        (sim_ev - self.player_ev()) / sim_se
    }
}

/// The exact counts of `player` from `table`, the price table of `deck` against the dealer's
/// way under `game`'s rules: each shape at the player's setting ([`PriceTable::price_way`]).
/// Equal to [`count`]'s to the unit for every strategy that sets from its own seven cards (the
/// tests check every shipped way), in a pass over the shapes.
pub fn from_table(
    table: &PriceTable,
    game: &GameRules,
    deck: SuitDeck,
    player: &dyn Strategy,
) -> Result<MainExact, ExactMainError> {
    if player.needs_dealer() {
        return Err(ExactMainError::NotFromOwnCards(player.name().to_string()));
    }
    let ev = Evaluator::new(game.ranking);
    let counts = table.price_way(&ev, &Shapes::new(deck), player, &game.main_wager);
    Ok(MainExact {
        counts: PairCounts { classes: counts.0 },
        wager: game.main_wager,
    })
}

/// An exact count with how it went.
pub struct MainRun {
    pub exact: MainExact,
    /// Shapes of the deck (ids with a hand).
    pub shapes: usize,
    /// Seconds to list the shapes and set them by both strategies.
    pub settings_seconds: f64,
    /// Each `|T|`'s sets, hands and seconds.
    pub phases: Vec<Phase>,
}

/// Counts every ordered pair of disjoint hands of `deck` (the game's deck, or a reduced one),
/// the player's hand set by `player`, the dealer's by `dealer`, under `game`'s rules.
pub fn count(
    game: &GameRules,
    deck: SuitDeck,
    player: &dyn Strategy,
    dealer: &dyn Strategy,
    progress: &Progress,
) -> Result<MainRun, ExactMainError> {
    if player.needs_dealer() && !game.main_wager.dealer_exposed {
        return Err(ExactMainError::PlayerNeedsExposedDealer(
            player.name().to_string(),
        ));
    }
    if dealer.needs_dealer() {
        return Err(ExactMainError::DealerSeesPlayer(dealer.name().to_string()));
    }
    let started = Instant::now();
    let ev = Evaluator::new(game.ranking);
    let index = ValueIndex::of(&ev, game.deck);
    let shapes = Shapes::new(deck);
    let setters = Setters {
        ev: &ev,
        index: &index,
        wager: &game.main_wager,
        player,
        dealer,
    };
    let codes = setters.codes(&shapes);
    let settings_seconds = started.elapsed().as_secs_f64();
    let cards = deck.cards();
    let counter = Counter {
        cards: &cards,
        keys: &shapes,
        codes: &codes,
        table: &game.main_wager.settlement,
        plan: Plan::SuitClasses(deck),
    };
    (progress.start)(counter.hands_to_enumerate());
    let (counts, phases) = counter
        .count(progress.advance)
        .map_err(ExactMainError::Internal)?;
    Ok(MainRun {
        exact: MainExact {
            counts,
            wager: game.main_wager,
        },
        shapes: shapes.dealt_ids().count(),
        settings_seconds,
        phases,
    })
}

#[cfg(test)]
mod tests {
    use super::Fraction;
    use num_bigint::BigInt;
    use num_rational::BigRational;

    fn big(f: Fraction) -> BigRational {
        BigRational::new(BigInt::from(f.numerator), BigInt::from(f.denominator))
    }

    /// Two player EVs of one 54-card deck at a 0.17% commission with a 1x overqualifier (a
    /// reviewer's case): the product of their denominators (1.9e38) is past `i128::MAX`, which
    /// the subtraction once formed and wrapped in a release build.
    #[test]
    fn a_difference_of_two_54_card_evs_is_exact() {
        let a = Fraction::new(-2782484425011697151, 27845299230348600000);
        let b = Fraction::new(-403913814688055533, 6961324807587150000);
        assert!(a.denominator.checked_mul(b.denominator).is_none());
        assert_eq!(big(a - b), big(a) - big(b));
        assert_eq!(big(b - a), big(b) - big(a));
        assert_eq!((a - a).numerator, 0);
    }

    /// Past the invariant, the common denominator itself overflows (here about 2^128): the
    /// subtraction stops with its message (it once wrapped in a release build).
    #[test]
    #[should_panic(expected = "a difference of two EVs of one deck fits in i128")]
    fn a_common_denominator_past_i128_stops() {
        let a = Fraction::new(1, (1 << 64) + 1);
        let b = Fraction::new(1, (1 << 64) - 1);
        let _ = a - b;
    }
}
