//! Exact counts of setting bets (Jackpot Pai Gow's "+ pair" lines): every 7-card hand of the
//! deck, set by the player's way, counted by the line that its setting (the back's category, and
//! whether the front is a pair) pays.
//!
//! Two methods, which must agree exactly (the tests hold them to it):
//! - [`Method::Structure`], by hand shape ([`crate::strategy::way::shapes`]): the hands of one
//!   shape are one hand up to a relabelling of suits and jokers that keeps every split's front
//!   and back values, so a way that reads only those and suit-blind features (every strategy
//!   but one that sees the dealer's hand: a house way, `max-back`, `max-front`, `optimal:D`,
//!   whose price table sets by hand shape, and `full-deck-optimal:D`) sets them to the same
//!   values; each shape's representative is set once and its count of hands added to its line.
//! - [`Method::Brute`]: every hand of the deck dealt, split and set by the way.
//!
//! A strategy that sets by the dealer's hand (`exposed`) is not counted here: its setting of
//! one hand varies with the dealer's cards ([`super::countable`] refuses it).
//!
//! Invariant: every hand of the deck is counted once, so each table's counts add up to
//! `C(deck size, 7)`.

use rayon::prelude::*;

use super::{LineCounts, Method, empty_counts, line_counts_of_every_hand, merge_line_counts};
use crate::cards::{Card, Deck};
use crate::eval::{Evaluator, Value};
use crate::game::events::SideBetPlan;
use crate::game::paytable::Paytable;
use crate::strategy::Strategy;
use crate::strategy::way::shapes::{HandShape, every_shape};

/// Every 7-card hand of `deck` set by `way`, counted by the line of each setting table that
/// pays it (one pass for all the tables), by `method`.
pub fn setting_line_counts(
    ev: &Evaluator,
    deck: Deck,
    tables: &[&Paytable],
    way: &dyn Strategy,
    method: Method,
) -> Vec<LineCounts> {
    match method {
        Method::Structure => setting_counts_of_shapes(ev, &every_shape(deck), tables, way),
        Method::Brute => setting_counts_of_every_hand(ev, deck, tables, way),
    }
}

/// The hands of the given shapes (every shape of the deck for a full count), each shape's
/// representative set once by `way` and weighted by its hands.
pub fn setting_counts_of_shapes(
    ev: &Evaluator,
    shapes: &[HandShape],
    tables: &[&Paytable],
    way: &dyn Strategy,
) -> Vec<LineCounts> {
    let plans = plans(ev, tables);
    shapes
        .par_iter()
        .fold(
            || empty_counts(tables),
            |mut out, shape| {
                add_setting(&plans, setting(ev, way, &shape.hand), shape.hands, &mut out);
                out
            },
        )
        .reduce(|| empty_counts(tables), merge_line_counts)
}

/// Every hand of `deck` dealt and set by `way`.
fn setting_counts_of_every_hand(
    ev: &Evaluator,
    deck: Deck,
    tables: &[&Paytable],
    way: &dyn Strategy,
) -> Vec<LineCounts> {
    let plans = plans(ev, tables);
    line_counts_of_every_hand(deck, tables, |hand, out| {
        add_setting(&plans, setting(ev, way, hand), 1, out)
    })
}

/// The settlement plan of each table (its setting line lookup).
fn plans(ev: &Evaluator, tables: &[&Paytable]) -> Vec<SideBetPlan> {
    let joker = ev.ranking().joker;
    tables.iter().map(|t| SideBetPlan::new(t, joker)).collect()
}

/// `way`'s setting of `hand` (sorted by card index): (front value, back value).
fn setting(ev: &Evaluator, way: &dyn Strategy, hand: &[Card; 7]) -> (Value, Value) {
    let splits = ev.split_values(hand);
    let k = way.choose(hand, &splits, None);
    (splits.front[k], splits.back[k])
}

/// Adds `n` hands set as `setting` to the line of each table that pays them.
fn add_setting(plans: &[SideBetPlan], setting: (Value, Value), n: u64, out: &mut [LineCounts]) {
    for (plan, counts) in plans.iter().zip(out.iter_mut()) {
        counts.counts[plan.setting_line(setting)] += n;
    }
}
