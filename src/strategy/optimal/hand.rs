//! Exact outcomes of every setting of one player hand against a dealer's way, over all dealer
//! hands of the cards the player does not hold (card removal included).
//!
//! Two methods, which the tests hold to the same integers:
//! - [`by_enumeration`] deals every dealer hand of the remaining cards, sets it by the dealer's
//!   way and books each legal player setting at its relation cell against it (seconds per hand).
//! - [`SettingTable`] sets every dealer hand of the whole deck once (one `u32` code per hand, by
//!   its colex rank) and, for a player hand, counts the codes of the dealer hands that avoid the
//!   player's cards into a [`DealerGrid`] (a fraction of a second per hand once built).
//!
//! Invariants: a [`HandExact`] counts every dealer hand of the remaining cards exactly once, as
//! not qualified, overqualified, or live; each legal setting's live hands are counted by relation
//! cell and add up to the live hands; outcomes and amounts come from the game's settlement table
//! ([`crate::game::settlement`]) and [`OutcomeCounts::net_units`], in [`BET_UNITS`].

use std::sync::Arc;

use rayon::prelude::*;

use super::grid::{DealerCode, DealerCounts, DealerGrid, ValueIndex};
use crate::cards::{Card, Cards, Deck};
use crate::combin::{BINOMIAL, for_each_hand_below, for_each_hand_from, for_each_rank_of};
use crate::eval::Evaluator;
use crate::eval::split::{SPLIT_COUNT, SplitValues};
use crate::game::settlement::{CELLS, DealerClass, cell_of};
use crate::game::wager::{BET_UNITS, BetResult, DealerHand, MainWager, Outcome, OutcomeCounts};
use crate::strategy::{Strategy, set_dealer};

/// One legal setting of the player's hand and the live dealer hands in each of its relation
/// cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SettingOutcomes {
    pub split: usize,
    pub cells: [u64; CELLS],
}

/// Every legal setting of one hand against every dealer hand of the remaining cards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandExact {
    /// Dealer hands of the remaining cards (all of them, whatever they mean for the bet).
    pub dealer_hands: u64,
    pub not_qualified: u64,
    pub overqualified: u64,
    /// The legal settings, in split order.
    pub settings: Vec<SettingOutcomes>,
}

impl HandExact {
    /// The dealer hands by outcome against setting `s`, under `wager`'s table.
    pub fn outcomes(&self, s: &SettingOutcomes, wager: &MainWager) -> OutcomeCounts {
        outcome_counts(&s.cells, self.not_qualified, self.overqualified, wager)
    }

    /// The player's total net over all dealer hands, in bet units.
    pub fn net_units(&self, s: &SettingOutcomes, wager: &MainWager) -> i128 {
        self.outcomes(s, wager).net_units(wager)
    }

    /// The expected value of a setting, per unit bet.
    pub fn ev(&self, s: &SettingOutcomes, wager: &MainWager) -> f64 {
        self.net_units(s, wager) as f64 / (self.dealer_hands as f64 * BET_UNITS as f64)
    }

    /// The setting with the highest EV (the first in split order on a tie).
    pub fn best(&self, wager: &MainWager) -> &SettingOutcomes {
        let mut best = &self.settings[0];
        for s in &self.settings[1..] {
            if self.net_units(s, wager) > self.net_units(best, wager) {
                best = s;
            }
        }
        best
    }

    /// The outcomes of split `k`, if it is legal.
    pub fn setting(&self, k: usize) -> Option<&SettingOutcomes> {
        self.settings.iter().find(|s| s.split == k)
    }

    /// The probability of each outcome of setting `s`: (win, push, loss, overqualified), where a
    /// push includes the dealer not qualifying.
    pub fn probabilities(&self, s: &SettingOutcomes, wager: &MainWager) -> [f64; 4] {
        let n = self.dealer_hands as f64;
        let counts = self.outcomes(s, wager);
        [
            counts.get(Outcome::Win),
            counts.with_result(BetResult::Pushed),
            counts.with_result(BetResult::Lost),
            counts.get(Outcome::Overqualified),
        ]
        .map(|c| c as f64 / n)
    }
}

/// Dealer hands by outcome: `cells`, the live ones by relation cell, through `wager`'s table,
/// and the hands of the classes that settle every bet one way.
pub fn outcome_counts(
    cells: &[u64; CELLS],
    not_qualified: u64,
    overqualified: u64,
    wager: &MainWager,
) -> OutcomeCounts {
    let table = &wager.settlement;
    let mut counts = OutcomeCounts(table.by_outcome(DealerClass::Plays, cells));
    for (class, n) in [
        (DealerClass::NotQualified, not_qualified),
        (DealerClass::Overqualified, overqualified),
    ] {
        counts.0[table.row(class)[0].index()] += n;
    }
    counts
}

/// The positions in `deck.cards()` of the cards the player does not hold, ascending.
fn remaining_positions(deck: Deck, hand: &[Card; 7]) -> Vec<usize> {
    let held = Cards::from_cards(hand);
    (deck.cards().into_iter().enumerate())
        .filter(|&(_, c)| !held.contains(c))
        .map(|(p, _)| p)
        .collect()
}

/// Per-thread tally of [`by_enumeration`].
#[derive(Clone, Copy)]
struct Tally {
    hands: u64,
    not_qualified: u64,
    overqualified: u64,
    cells: [[u64; CELLS]; SPLIT_COUNT],
}

impl Tally {
    fn merge(mut self, other: Tally) -> Tally {
        self.hands += other.hands;
        self.not_qualified += other.not_qualified;
        self.overqualified += other.overqualified;
        for (a, b) in self.cells.iter_mut().zip(&other.cells) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        self
    }

    fn add(&mut self, splits: &SplitValues, dealer: &DealerHand) {
        self.hands += 1;
        match dealer.class {
            DealerClass::NotQualified => self.not_qualified += 1,
            DealerClass::Overqualified => self.overqualified += 1,
            DealerClass::Plays => {
                let d = dealer.setting;
                for k in splits.legal_splits() {
                    self.cells[k][cell_of(splits.front[k], splits.back[k], d.front, d.back)] += 1;
                }
            }
        }
    }
}

/// Exact outcomes of every legal setting of `hand` (sorted) by dealing every dealer hand of the
/// remaining cards and setting it by `dealer`.
pub fn by_enumeration(
    ev: &Evaluator,
    wager: &MainWager,
    deck: Deck,
    dealer: &dyn Strategy,
    hand: &[Card; 7],
) -> HandExact {
    let splits = ev.split_values(hand);
    let all = deck.cards();
    let cards: Vec<Card> = (remaining_positions(deck, hand).into_iter())
        .map(|p| all[p])
        .collect();
    let empty = Tally {
        hands: 0,
        not_qualified: 0,
        overqualified: 0,
        cells: [[0; CELLS]; SPLIT_COUNT],
    };
    let tally = (0..cards.len())
        .into_par_iter()
        .map(|first| {
            let mut t = empty;
            for_each_hand_from(&cards, first, |d| {
                t.add(&splits, &set_dealer(ev, dealer, wager, d))
            });
            t
        })
        .reduce(|| empty, Tally::merge);
    HandExact {
        dealer_hands: tally.hands,
        not_qualified: tally.not_qualified,
        overqualified: tally.overqualified,
        settings: splits
            .legal_splits()
            .map(|k| SettingOutcomes {
                split: k,
                cells: tally.cells[k],
            })
            .collect(),
    }
}

/// The dealer's setting of every 7-card hand of a deck, by colex rank of the hand's positions in
/// the deck (`sum of C(p_t, t + 1)` over its ascending positions `p_0 < ... < p_6`).
pub struct SettingTable {
    index: Arc<ValueIndex>,
    deck: Deck,
    codes: Vec<DealerCode>,
}

impl SettingTable {
    /// Sets every dealer hand of `deck` by `dealer` (about 4 bytes per hand: 617 MB for 53 cards).
    pub fn build(
        ev: &Evaluator,
        wager: &MainWager,
        deck: Deck,
        dealer: &dyn Strategy,
        index: Arc<ValueIndex>,
    ) -> SettingTable {
        let cards = deck.cards();
        let n = cards.len();
        let mut codes = vec![DealerCode::default(); BINOMIAL[n][7] as usize];
        let mut blocks = Vec::new();
        let mut rest = codes.as_mut_slice();
        for (top, binomials) in BINOMIAL.iter().enumerate().take(n).skip(6) {
            let (block, tail) = rest.split_at_mut(binomials[6] as usize);
            blocks.push((top, block));
            rest = tail;
        }
        blocks.into_par_iter().for_each(|(top, block)| {
            for_each_hand_below(&cards, top, |rank, hand| {
                block[rank] = DealerCode::of(&index, &set_dealer(ev, dealer, wager, hand));
            })
        });
        SettingTable { index, deck, codes }
    }

    /// The value index the codes refer to.
    pub fn index(&self) -> &Arc<ValueIndex> {
        &self.index
    }

    /// Every dealer hand of the deck, counted.
    pub fn counts(&self) -> DealerCounts {
        self.codes
            .par_chunks(1 << 20)
            .map(|chunk| {
                let mut counts = DealerCounts::new(&self.index);
                chunk.iter().for_each(|&c| counts.add_code(c));
                counts
            })
            .reduce(|| DealerCounts::new(&self.index), DealerCounts::merge)
    }

    /// The dealer hands that avoid every card of `hand`, counted.
    pub fn counts_without(&self, hand: &[Card; 7]) -> DealerCounts {
        let mut counts = DealerCounts::new(&self.index);
        for_each_rank_of(&remaining_positions(self.deck, hand), |rank| {
            counts.add_code(self.codes[rank]);
        });
        counts
    }

    /// Exact outcomes of every legal setting of `hand` (sorted), card removal included.
    pub fn hand_exact(&self, splits: &SplitValues, hand: &[Card; 7]) -> HandExact {
        let counts = self.counts_without(hand);
        let (dealer_hands, not_qualified, overqualified) =
            (counts.hands(), counts.not_qualified, counts.overqualified);
        let grid = DealerGrid::new(self.index.clone(), counts);
        HandExact {
            dealer_hands,
            not_qualified,
            overqualified,
            settings: splits
                .legal_splits()
                .map(|k| SettingOutcomes {
                    split: k,
                    cells: grid.cells(splits.front[k], splits.back[k]),
                })
                .collect(),
        }
    }
}
