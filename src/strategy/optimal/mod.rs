//! The optimal strategies against a dealer who sets by the way `D`, under the game's main-wager
//! rules: `optimal:D`, the true optimum of every strategy that sets from the hand's shape (card
//! removal included; [`best`], from the price table of [`prices`]), and here
//! `full-deck-optimal:D`, its approximation against the full deck, built in seconds.
//!
//! Method of `full-deck-optimal:D`: every dealer hand of the full deck is set by `D` once, and the live
//! ones (qualified, not overqualified) are counted by their (front value, back value) into a
//! [`DealerGrid`]; that table is cached on disk ([`cache`]). A player setting's wins and losses
//! are then four lookups, and its EV is `win x (bet less commission) - loss x bet` plus terms
//! that are the same for every setting (no qualification, overqualifier, flat collection), so
//! only wins and losses are compared. Only settings on the Pareto frontier of (back, front)
//! values are scored: a setting whose back and front are both no better than another's cannot
//! win more or lose less.
//!
//! What the method ignores: the player's own seven cards are not removed from the dealer's deck
//! (the table is over all dealer hands of the full deck). [`hand`] computes the exact EVs with
//! card removal; the tests and `docs/methods/optimal.md` measure what the approximation costs.
//!
//! Invariants: the choice is a legal split; ties in EV go to the better back, then the better
//! front, then the first split; the table is exact integers, so a cached table and a fresh one
//! give the same choices.

pub mod best;
pub mod cache;
pub mod grid;
pub mod hand;
pub mod pricer;
pub mod prices;
pub mod table_file;

use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;

use crate::cards::Card;
use crate::combin::for_each_hand_from;
use crate::eval::Evaluator;
use crate::eval::split::{SPLIT_COUNT, SplitValues};
use crate::game::GameRules;
use crate::game::settlement::{CELLS, DealerClass};
use crate::game::wager::{BET_UNITS, DealerSetting, MainWager};
use crate::strategy::{Strategy, set_dealer};
use cache::DealerWay;
use grid::{DealerCounts, DealerGrid, ValueIndex};

/// The prefix of the true optimum's name: `optimal:D` ([`best::TableOptimal`]).
pub const PREFIX: &str = "optimal:";
/// The prefix of the full-deck approximation's name: `full-deck-optimal:D` ([`FullDeckOptimal`]).
pub const FULL_DECK_PREFIX: &str = "full-deck-optimal:";

/// The legal settings of a hand that no other legal setting beats on both back and front, best
/// back first (ties: better front, then lower split); returns the array and how many are used.
#[inline]
pub fn frontier(splits: &SplitValues) -> ([usize; SPLIT_COUNT], usize) {
    let mut keys = [0u64; SPLIT_COUNT];
    let mut n = 0;
    for k in splits.legal_splits() {
        let (front, back) = (u64::from(splits.front[k].0), u64::from(splits.back[k].0));
        keys[n] = back << 29 | front << 5 | (31 - k as u64);
        n += 1;
    }
    keys[..n].sort_unstable_by(|a, b| b.cmp(a));
    let mut out = [0usize; SPLIT_COUNT];
    let mut used = 0;
    let mut best_front = None;
    for key in &keys[..n] {
        let k = 31 - (key & 31) as usize;
        if best_front.is_none_or(|f| splits.front[k] > f) {
            best_front = Some(splits.front[k]);
            out[used] = k;
            used += 1;
        }
    }
    (out, used)
}

/// `full-deck-optimal:D`: the setting with the highest EV against the dealer's table.
#[derive(Clone)]
pub struct FullDeckOptimal {
    name: String,
    grid: Arc<DealerGrid>,
    wager: MainWager,
    /// What a bet nets in each relation cell against a dealer who plays (the collection aside).
    cell_units: [i64; CELLS],
}

impl FullDeckOptimal {
    /// The strategy over a dealer grid, settled by `game`'s main wager.
    pub fn new(name: String, grid: DealerGrid, game: &GameRules) -> FullDeckOptimal {
        FullDeckOptimal {
            name,
            grid: Arc::new(grid),
            wager: game.main_wager,
            cell_units: (game.main_wager.settlement.row(DealerClass::Plays))
                .map(|o| o.units(&game.main_wager)),
        }
    }

    /// `full-deck-optimal:D` for `game` against the dealer's way `dealer`, with the default cache folder,
    /// telling stderr when the table is built or rebuilt.
    pub fn load_default(dealer: &DealerWay, game: &GameRules) -> FullDeckOptimal {
        let note = |text: &str| eprintln!("{text}");
        FullDeckOptimal::load(dealer, game, cache::default_dir().as_deref(), &note)
    }

    /// `full-deck-optimal:D` for `game` against the dealer's way `dealer`: the dealer table read from
    /// `cache_dir` when a table with the same key is there, else built by enumeration (and
    /// written there). `note` hears what happens (building takes seconds).
    pub fn load(
        dealer: &DealerWay,
        game: &GameRules,
        cache_dir: Option<&Path>,
        note: &dyn Fn(&str),
    ) -> FullDeckOptimal {
        let ev = Evaluator::new(game.ranking);
        let index = Arc::new(ValueIndex::of(&ev, game.deck));
        let counts = cache::load_or_build(dealer, game, &index, cache_dir, note, || {
            dealer_counts(&ev, game, &*dealer.strategy, &index)
        });
        let grid = DealerGrid::new(index, counts);
        FullDeckOptimal::new(format!("{FULL_DECK_PREFIX}{}", dealer.label), grid, game)
    }

    /// The dealer table.
    pub fn grid(&self) -> &DealerGrid {
        &self.grid
    }

    /// The score the choice maximizes: the EV against the table less the terms every setting
    /// shares, in bet units (times the number of dealer hands): each relation cell's live
    /// dealer hands times what the game's table pays there.
    #[inline]
    pub fn score(&self, splits: &SplitValues, k: usize) -> i64 {
        let cells = self.grid.cells(splits.front[k], splits.back[k]);
        (cells.iter().zip(&self.cell_units))
            .map(|(&n, &units)| n as i64 * units)
            .sum()
    }

    /// The EV of split `k` against the table (every dealer hand of the full deck), per unit bet.
    pub fn table_ev(&self, splits: &SplitValues, k: usize) -> f64 {
        let counts = self.grid.counts();
        let cells = self.grid.cells(splits.front[k], splits.back[k]);
        let outcomes = hand::outcome_counts(
            &cells,
            counts.not_qualified,
            counts.overqualified,
            &self.wager,
        );
        let net = outcomes.net_units(&self.wager);
        net as f64 / (counts.hands() as f64 * BET_UNITS as f64)
    }
}

impl Strategy for FullDeckOptimal {
    fn name(&self) -> &str {
        &self.name
    }

    #[inline]
    fn choose(&self, _: &[Card; 7], splits: &SplitValues, _: Option<DealerSetting>) -> usize {
        let (candidates, n) = frontier(splits);
        let mut best = candidates[0];
        let mut best_score = self.score(splits, best);
        for &k in &candidates[1..n] {
            let score = self.score(splits, k);
            if score > best_score {
                (best, best_score) = (k, score);
            }
        }
        best
    }
}

/// Every dealer hand of `game`'s deck set by `dealer`, counted (exact; parallel).
pub fn dealer_counts(
    ev: &Evaluator,
    game: &GameRules,
    dealer: &dyn Strategy,
    index: &ValueIndex,
) -> DealerCounts {
    let cards = game.deck.cards();
    let wager = &game.main_wager;
    (0..cards.len())
        .into_par_iter()
        .map(|first| {
            let mut counts = DealerCounts::new(index);
            for_each_hand_from(&cards, first, |hand| {
                counts.add(index, &set_dealer(ev, dealer, wager, hand))
            });
            counts
        })
        .reduce(|| DealerCounts::new(index), DealerCounts::merge)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Deck;
    use crate::eval::Ranking;

    #[test]
    fn frontier_keeps_exactly_the_undominated_legal_settings() {
        let ev = Evaluator::new(Ranking::default());
        let deck = Deck::with_jokers(1).unwrap();
        for hand in crate::cards::deal::sample_hands(deck, 7).take(2000) {
            let s = ev.split_values(&hand);
            let (front_line, n) = frontier(&s);
            let kept = &front_line[..n];
            for k in s.legal_splits() {
                let dominated = s.legal_splits().any(|o| {
                    (s.front[o], s.back[o]) != (s.front[k], s.back[k])
                        && s.front[o] >= s.front[k]
                        && s.back[o] >= s.back[k]
                });
                let value_kept = kept
                    .iter()
                    .any(|&o| (s.front[o], s.back[o]) == (s.front[k], s.back[k]));
                assert_eq!(!dominated, value_kept, "split {k} of {hand:?}");
            }
            assert!(kept.windows(2).all(|w| s.back[w[0]] > s.back[w[1]]));
        }
    }
}
