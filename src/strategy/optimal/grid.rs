//! Dealer outcome grids: how many dealer hands a house way sets to each (front, back) value pair,
//! as 2-D cumulative counts, so that a player setting's wins and losses are read in constant time.
//!
//! Invariants:
//! - [`ValueIndex`] holds the sorted distinct values of every 2-card and every 5-card hand of the
//!   deck, so any front or back a hand of the deck can have has an exact index, and comparing
//!   indices is comparing values.
//! - [`DealerCounts`] counts each dealer hand once: in `not_qualified`, in `overqualified`, or in
//!   the cell of its (front index, back index). Counts are exact integers; merging is addition.
//! - [`DealerGrid`]`::below(i, j)` is the number of live dealer hands (qualified, not
//!   overqualified) whose front index is below `i` and back index below `j`.
//!
//! A player setting (front `f`, back `b`) stands in one relation cell to each live dealer setting
//! (`df`, `db`) ([`crate::game::settlement`]); its count of live dealer hands in each of the nine
//! cells is read from nine cumulative counts ([`Quadrants::cells`]), and the game's table turns
//! cells into outcomes (the grid itself knows no rule).

use std::sync::Arc;

use crate::cards::Card;
use crate::cards::{Cards, Deck};
use crate::combin::for_each_subset;
use crate::eval::split::{KnownSetting, SplitValues};
use crate::eval::{Evaluator, Value};
use crate::game::settlement::{CELLS, DealerClass, Quadrants};
use crate::game::wager::{DealerHand, MainWager};
use crate::strategy::Strategy;

/// The sorted distinct front (2-card) and back (5-card) values of a deck's hands.
#[derive(Debug, PartialEq, Eq)]
pub struct ValueIndex {
    pub fronts: Vec<Value>,
    pub backs: Vec<Value>,
}

impl ValueIndex {
    /// Every value a 2-card or 5-card hand of `deck` can have under `ev`'s ranking.
    pub fn of(ev: &Evaluator, deck: Deck) -> ValueIndex {
        let cards = deck.cards();
        let mut fronts = Vec::new();
        for (i, &a) in cards.iter().enumerate() {
            for &b in &cards[i + 1..] {
                fronts.push(ev.value2(a, b));
            }
        }
        let mut backs = Vec::new();
        for_each_subset(cards.len(), 5, |positions| {
            let hand = positions.iter().fold(0, |bits, &p| bits | cards[p].bit());
            backs.push(ev.value5(Cards(hand)));
        });
        ValueIndex {
            fronts: sorted_distinct(fronts),
            backs: sorted_distinct(backs),
        }
    }

    /// The index of a front value of the deck.
    #[inline]
    pub fn front(&self, value: Value) -> usize {
        self.fronts.partition_point(|&v| v < value)
    }

    /// The index of a back value of the deck.
    #[inline]
    pub fn back(&self, value: Value) -> usize {
        self.backs.partition_point(|&v| v < value)
    }

    /// The `[front, back]` indices of split `k`.
    #[inline]
    pub fn split_point(&self, splits: &SplitValues, k: usize) -> [u16; 2] {
        [
            self.front(splits.front[k]) as u16,
            self.back(splits.back[k]) as u16,
        ]
    }

    /// The number of (front, back) cells.
    pub fn cells(&self) -> usize {
        self.fronts.len() * self.backs.len()
    }

    /// The cell of a (front, back) value pair.
    #[inline]
    pub fn cell(&self, front: Value, back: Value) -> usize {
        self.front(front) * self.backs.len() + self.back(back)
    }
}

fn sorted_distinct(mut values: Vec<Value>) -> Vec<Value> {
    values.sort_unstable();
    values.dedup();
    values
}

/// What one dealer hand means for the main wager, in 32 bits: it does not qualify, it
/// overqualifies, or it is live in cell `code - LIVE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct DealerCode(pub u32);

impl DealerCode {
    const NOT_QUALIFIED: u32 = 0;
    const OVERQUALIFIED: u32 = 1;
    const LIVE: u32 = 2;

    /// The code of a set dealer hand.
    #[inline]
    pub fn of(index: &ValueIndex, dealer: &DealerHand) -> DealerCode {
        DealerCode(match dealer.class {
            DealerClass::NotQualified => Self::NOT_QUALIFIED,
            DealerClass::Overqualified => Self::OVERQUALIFIED,
            DealerClass::Plays => {
                Self::LIVE + index.cell(dealer.setting.front, dealer.setting.back) as u32
            }
        })
    }
}

/// A dealer's hand as the main wager sees it: a point of the value grid (indices), or the class
/// that settles every bet against it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DealerPoint {
    NotQualified,
    Overqualified,
    Live { front: u16, back: u16 },
}

/// A hand (sorted by card index, `splits` its split values) set by the dealer's way `dealer`:
/// its point of the value grid, or the class that settles every bet against it.
pub fn dealer_point(
    index: &ValueIndex,
    wager: &MainWager,
    dealer: &dyn Strategy,
    hand: &[Card; 7],
    splits: &SplitValues,
) -> DealerPoint {
    let k = dealer.choose(hand, splits, None);
    let set = DealerHand::from_known(KnownSetting::of_split(splits, k), wager);
    match set.class {
        DealerClass::NotQualified => DealerPoint::NotQualified,
        DealerClass::Overqualified => DealerPoint::Overqualified,
        DealerClass::Plays => {
            let [front, back] = index.split_point(splits, k);
            DealerPoint::Live { front, back }
        }
    }
}

/// Dealer hands counted by what they mean for the main wager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealerCounts {
    /// Live dealer hands by cell (`front index * backs + back index`).
    pub cells: Vec<u32>,
    /// Dealer hands that do not qualify (every bet pushes).
    pub not_qualified: u64,
    /// Dealer hands that overqualify (every bet is paid the multiple).
    pub overqualified: u64,
}

impl DealerCounts {
    /// No hands, over `index`'s cells.
    pub fn new(index: &ValueIndex) -> DealerCounts {
        DealerCounts {
            cells: vec![0; index.cells()],
            not_qualified: 0,
            overqualified: 0,
        }
    }

    /// Counts one dealer hand.
    #[inline]
    pub fn add(&mut self, index: &ValueIndex, dealer: &DealerHand) {
        self.add_code(DealerCode::of(index, dealer));
    }

    /// Counts one dealer hand by its code.
    #[inline]
    pub fn add_code(&mut self, code: DealerCode) {
        match code.0 {
            DealerCode::NOT_QUALIFIED => self.not_qualified += 1,
            DealerCode::OVERQUALIFIED => self.overqualified += 1,
            live => self.cells[(live - DealerCode::LIVE) as usize] += 1,
        }
    }

    /// The sum of two counts over the same cells.
    pub fn merge(mut self, other: DealerCounts) -> DealerCounts {
        for (a, b) in self.cells.iter_mut().zip(&other.cells) {
            *a += b;
        }
        self.not_qualified += other.not_qualified;
        self.overqualified += other.overqualified;
        self
    }

    /// Live hands (neither pushed by the dealer's qualification nor overqualified).
    pub fn live(&self) -> u64 {
        self.cells.iter().map(|&c| u64::from(c)).sum()
    }

    /// Every hand counted.
    pub fn hands(&self) -> u64 {
        self.live() + self.not_qualified + self.overqualified
    }
}

/// Dealer counts in cumulative form: a player setting's relation cells in nine lookups.
pub struct DealerGrid {
    index: Arc<ValueIndex>,
    /// `(fronts + 1) x (backs + 1)`, row-major: `below[i][j]`.
    below: Vec<u32>,
    counts: DealerCounts,
}

impl DealerGrid {
    /// The cumulative grid of `counts` (over `index`'s cells).
    pub fn new(index: Arc<ValueIndex>, counts: DealerCounts) -> DealerGrid {
        assert!(
            counts.live() <= u64::from(u32::MAX),
            "cumulative counts are 32-bit"
        );
        let (rows, cols) = (index.fronts.len(), index.backs.len());
        let width = cols + 1;
        let mut below = vec![0u32; (rows + 1) * width];
        for i in 0..rows {
            let mut row_sum = 0u32;
            for j in 0..cols {
                row_sum += counts.cells[i * cols + j];
                below[(i + 1) * width + j + 1] = below[i * width + j + 1] + row_sum;
            }
        }
        DealerGrid {
            index,
            below,
            counts,
        }
    }

    /// The value index the grid is over.
    pub fn index(&self) -> &Arc<ValueIndex> {
        &self.index
    }

    /// The counts the grid was built from.
    pub fn counts(&self) -> &DealerCounts {
        &self.counts
    }

    #[inline]
    fn below(&self, front: usize, back: usize) -> u64 {
        u64::from(self.below[front * (self.index.backs.len() + 1) + back])
    }

    /// The live dealer hands in each relation cell of the player setting (`front`, `back`).
    #[inline]
    pub fn cells(&self, front: Value, back: Value) -> [u64; CELLS] {
        let (f, b) = (self.index.front(front), self.index.back(back));
        let (rows, cols) = (self.index.fronts.len(), self.index.backs.len());
        let q = |x: usize, y: usize| self.below(x, y) as i64;
        let quadrants = Quadrants {
            below: [q(f, b), q(f + 1, b), q(rows, b)],
            through: [q(f, b + 1), q(f + 1, b + 1), q(rows, b + 1)],
            all_backs: [q(f, cols), q(f + 1, cols), q(rows, cols)],
        };
        quadrants.cells().map(|n| n as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Ranking;
    use crate::game::settlement::{Relation, cell};
    use crate::game::wager::{DealerSetting, MainWager};

    fn live(front: Value, back: Value) -> DealerHand {
        let setting = DealerSetting { front, back };
        DealerHand::of_class(setting, DealerClass::Plays, &MainWager::default())
    }

    #[test]
    fn grid_outcomes_match_direct_comparison() {
        let ev = Evaluator::new(Ranking::default());
        let deck = Deck::with_jokers(1).unwrap();
        let index = Arc::new(ValueIndex::of(&ev, deck));
        let mut counts = DealerCounts::new(&index);
        let pick = |i: usize| {
            (
                index.fronts[i % index.fronts.len()],
                index.backs[(i * 37) % index.backs.len()],
            )
        };
        let dealers: Vec<(Value, Value)> = (0..500).map(pick).collect();
        for &(f, b) in &dealers {
            counts.add(&index, &live(f, b));
        }
        let grid = DealerGrid::new(index.clone(), counts);
        for p in (0..300).map(|i| pick(i * 7 + 3)) {
            let mut expect = [0u64; CELLS];
            for &(f, b) in &dealers {
                let rel = |p, d| Relation::ALL[usize::from(p >= d) + usize::from(p > d)];
                expect[cell(rel(p.0, f), rel(p.1, b))] += 1;
            }
            assert_eq!(grid.cells(p.0, p.1), expect);
        }
    }
}
