//! Strategies: how a 7-card hand is set. A house way read from TOML, or a built-in.
//!
//! Every strategy chooses among the 21 splits of a hand (see `split`) and only ever returns a
//! legal one, so no strategy can foul. Hands are passed sorted by card index, so split indices
//! mean the same thing for every strategy; a strategy must be deterministic (same hand, same
//! answer) because reports must be reproducible.
//!
//! Built-ins here are the two reference ways:
//! - `max-back`: the legal split with the best back; ties by the best front.
//! - `max-front`: the legal split with the best front; ties by the best back.
//! - `exposed` / `exposed:WAY` (in `way::exposed`): sees the dealer's set hand, takes the best
//!   result against it, ties by a house way ([`EXPOSED_DEFAULT_WAY`](resolve::EXPOSED_DEFAULT_WAY)
//!   unless named).
//! - `optimal:D` (in `optimal`): the setting with the highest EV against a dealer who sets by
//!   the way `D` (its dealer table is built once, then cached on disk).
//!
//! Any other name is a house way: a shipped name (`way::SHIPPED_WAYS`) or a TOML file.

pub mod cached;
pub mod deck_shapes;
pub mod exposed;
pub mod optimal;
pub mod resolve;
pub mod shape;
pub mod way;

use std::sync::Arc;

use crate::cards::{Card, sorted_hand};
use crate::eval::split::{KnownSetting, SPLIT_COUNT, SplitValues};
use crate::eval::{Evaluator, Value};
use crate::game::wager::{DealerHand, DealerSetting, MainWager};
use crate::strategy::shape::ShapeTable;

/// A way to set a 7-card hand.
pub trait Strategy: Send + Sync {
    /// A short name for reports.
    fn name(&self) -> &str;

    /// The chosen split (0..21, always legal) of `hand` (sorted by card index), given its split
    /// values and, where the game exposes it, the dealer's setting.
    fn choose(
        &self,
        hand: &[Card; 7],
        splits: &SplitValues,
        dealer: Option<DealerSetting>,
    ) -> usize;

    /// A second handle on this strategy that reads and fills the same cache (`None`: it has
    /// no cache to share), for two roles that play the same way: each shape is then set once
    /// for both. A shared handle answers exactly as a fresh copy of the strategy would.
    fn share(&self) -> Option<Box<dyn Strategy>> {
        None
    }

    /// Whether this strategy needs the dealer's setting (so the dealer must set first).
    fn needs_dealer(&self) -> bool {
        false
    }

    /// This strategy's shape cache, if it has one: where a hand's setting is found with no
    /// split search ([`ShapeTable::locate`] a hand, in any order, then [`ShapeTable::known_at`]:
    /// `None` means "sort the hand, compute the split values and call `choose`"; `Some` equals
    /// the values of `choose`'s split and the facts of the hand's seven cards). A hot loop holds
    /// it apart and reads it with no virtual call.
    fn shape_table(&self) -> Option<&Arc<ShapeTable>> {
        None
    }

    /// The setting of `hand` when its cache knows it without the split values.
    fn known_setting(&self, hand: &[Card; 7]) -> Option<KnownSetting> {
        let table = self.shape_table()?;
        table.known_at(table.locate(hand))
    }
}

/// Sets the dealer's (sorted) hand by `way` and reads qualification from its seven cards.
#[inline]
pub fn set_dealer(
    ev: &Evaluator,
    way: &dyn Strategy,
    wager: &MainWager,
    hand: &[Card; 7],
) -> DealerHand {
    let known = way
        .known_setting(hand)
        .unwrap_or_else(|| setting_of(ev, way, hand, None).1);
    DealerHand::from_known(known, wager)
}

/// Sets seven dealt cards (in deal order) by `way`, whose setting `known` is when its cache
/// holds it (else the split search sorts them and asks the way).
#[inline(always)]
pub fn set_dealer_known(
    ev: &Evaluator,
    way: &dyn Strategy,
    wager: &MainWager,
    cards: &[Card; 7],
    known: Option<KnownSetting>,
) -> DealerHand {
    let known = known.unwrap_or_else(|| set_unknown(ev, way, cards));
    DealerHand::from_known(known, wager)
}

/// [`set_dealer_known`]'s slow path, out of line: inlined, its sort of the cards was hoisted out
/// of compare's loop over the dealer's ways and ran on every deal, hit or miss.
#[cold]
#[inline(never)]
fn set_unknown(ev: &Evaluator, way: &dyn Strategy, cards: &[Card; 7]) -> KnownSetting {
    setting_of(ev, way, &sorted_hand(cards), None).1
}

/// A hand's split values and `way`'s setting of it (the values of the chosen split and the best
/// five), the slow path: the 21-split search, then the strategy.
#[inline]
pub fn setting_of(
    ev: &Evaluator,
    way: &dyn Strategy,
    hand: &[Card; 7],
    dealer: Option<DealerSetting>,
) -> (SplitValues, KnownSetting) {
    let splits = ev.split_values(hand);
    let k = way.choose(hand, &splits, dealer);
    (splits, KnownSetting::of_split(&splits, k))
}

/// The legal split that is best by `(primary, secondary)` values, first in split order on ties.
pub fn best_legal_by(splits: &SplitValues, key: impl Fn(usize) -> (Value, Value)) -> usize {
    let mut best = usize::MAX;
    for k in 0..SPLIT_COUNT {
        if splits.is_legal(k) && (best == usize::MAX || key(k) > key(best)) {
            best = k;
        }
    }
    debug_assert!(best != usize::MAX, "every 7-card hand has a legal split");
    best
}

/// Built-in: the legal split with the best back, then the best front.
pub struct MaxBack;

impl Strategy for MaxBack {
    fn name(&self) -> &str {
        "max-back"
    }
    fn choose(&self, _: &[Card; 7], splits: &SplitValues, _: Option<DealerSetting>) -> usize {
        best_legal_by(splits, |k| (splits.back[k], splits.front[k]))
    }
}

/// Built-in: the legal split with the best front, then the best back.
pub struct MaxFront;

impl Strategy for MaxFront {
    fn name(&self) -> &str {
        "max-front"
    }
    fn choose(&self, _: &[Card; 7], splits: &SplitValues, _: Option<DealerSetting>) -> usize {
        best_legal_by(splits, |k| (splits.front[k], splits.back[k]))
    }
}
