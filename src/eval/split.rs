//! The 21 settings of a 7-card hand: a 2-card front and a 5-card back.
//!
//! Split `k` puts the cards at positions [`FRONT_POSITIONS`]`[k]` of the hand in front and the
//! other five behind; the order is fixed (lexicographic in the positions), so a split index means
//! the same thing everywhere. A split is legal exactly when its front value is below its back
//! value (the front may not outrank the back; the two can never be equal, see `eval`).
//!
//! Method: the back's key is the 7-card key minus the two front cards' keys, so all 21 backs cost
//! one subtraction and one table lookup each. When no suit (with jokers) reaches five cards among
//! all seven, no back can be a flush and the flush test is skipped for the whole hand.

use crate::cards::{Card, Cards};
use crate::eval::{Category, Evaluator, FLUSH_BITS, SUIT_OFFSET, Value};

/// Number of ways to set 7 cards as 2 + 5.
pub const SPLIT_COUNT: usize = 21;

/// The positions of the two front cards of each split, in split order.
pub const FRONT_POSITIONS: [(u8, u8); SPLIT_COUNT] = front_positions();

const fn front_positions() -> [(u8, u8); SPLIT_COUNT] {
    let mut out = [(0u8, 0u8); SPLIT_COUNT];
    let (mut i, mut k) = (0u8, 0usize);
    while i < 7 {
        let mut j = i + 1;
        while j < 7 {
            out[k] = (i, j);
            k += 1;
            j += 1;
        }
        i += 1;
    }
    out
}

/// The front and back values of all 21 splits of one hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitValues {
    pub front: [Value; SPLIT_COUNT],
    pub back: [Value; SPLIT_COUNT],
}

impl SplitValues {
    /// Whether split `k` is legal (its front does not outrank its back).
    #[inline]
    pub fn is_legal(&self, k: usize) -> bool {
        self.front[k] < self.back[k]
    }

    /// Indices of the legal splits, in split order.
    pub fn legal_splits(&self) -> impl Iterator<Item = usize> + '_ {
        (0..SPLIT_COUNT).filter(|&k| self.is_legal(k))
    }

    /// Bit `c` set when some back makes category `c`: the categories some five of the seven
    /// cards make (each back is the best reading of its five cards).
    pub fn categories_made(&self) -> u16 {
        self.back
            .iter()
            .fold(0u16, |m, v| m | 1 << v.category() as u16)
    }

    /// The best 5-card value among the seven cards (the best back of any split).
    pub fn best_five(&self) -> Value {
        self.back.iter().copied().max().unwrap_or_default()
    }
}

/// What a setting of a hand means for settlement, known without the split values (a strategy's
/// cache keeps it): the chosen split's front and back values, and what the seven cards make for
/// side bets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnownSetting {
    pub front: Value,
    pub back: Value,
    /// Bit `c` set when some five of the seven cards make category `c` exactly: the highest
    /// bit is the best five's category ([`KnownSetting::best`]).
    pub made: u16,
    /// The best five's highest rank slot (rank + 1).
    pub best_top_slot: u8,
}

impl KnownSetting {
    /// The setting of split `k` of a hand with split values `splits`.
    pub fn of_split(splits: &SplitValues, k: usize) -> KnownSetting {
        let best = splits.best_five();
        let known = KnownSetting {
            front: splits.front[k],
            back: splits.back[k],
            made: splits.categories_made(),
            best_top_slot: best.slots()[0],
        };
        debug_assert_eq!(known.best(), best.category());
        known
    }

    /// The best five-card category of the seven cards (read off [`KnownSetting::made`], so a
    /// caller that does not ask pays nothing for it).
    #[inline]
    pub fn best(&self) -> Category {
        Category::highest_made(self.made)
    }

    /// Whether the best five-card category of the seven cards is `category` or higher
    /// ([`KnownSetting::best`]` >= category`): one shift of [`KnownSetting::made`].
    #[inline]
    pub fn best_at_least(&self, category: Category) -> bool {
        (self.made | 1) >> category as u16 != 0
    }
}

/// The cards of one split of `hand`: (front, back).
pub fn split_cards(hand: &[Card; 7], k: usize) -> (Cards, Cards) {
    let (i, j) = FRONT_POSITIONS[k];
    let front = Cards::from_cards(&[hand[i as usize], hand[j as usize]]);
    let all = Cards::from_cards(hand);
    (front, Cards(all.0 & !front.0))
}

impl Evaluator {
    /// Front and back values of all 21 splits of `hand` (seven distinct cards).
    #[inline]
    pub fn split_values(&self, hand: &[Card; 7]) -> SplitValues {
        let keys: [u64; 7] = std::array::from_fn(|i| self.key(hand[i]));
        let total = keys.iter().fold(SUIT_OFFSET, |k, &c| k + c);
        let all = Cards::from_cards(hand);
        let mut front = [Value(0); SPLIT_COUNT];
        let mut back = [Value(0); SPLIT_COUNT];
        let flush_possible = total & FLUSH_BITS != 0;
        for (k, &(i, j)) in FRONT_POSITIONS.iter().enumerate() {
            let (a, b) = (hand[i as usize], hand[j as usize]);
            front[k] = self.value2(a, b);
            let back_key = total - keys[i as usize] - keys[j as usize];
            back[k] = if flush_possible {
                self.value_from_key(back_key, Cards(all.0 & !(a.bit() | b.bit())))
            } else {
                self.nonflush_value(back_key)
            };
        }
        SplitValues { front, back }
    }

    /// The best 5-card value among seven cards.
    pub fn best_five_of_seven(&self, hand: &[Card; 7]) -> Value {
        self.split_values(hand).best_five()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Deck;
    use crate::eval::Ranking;

    #[test]
    fn best_at_least_agrees_with_best_for_every_made_mask() {
        for made in 0..1u16 << 11 {
            let known = KnownSetting {
                front: Value(0),
                back: Value(0),
                made,
                best_top_slot: 0,
            };
            for category in Category::ALL_DESCENDING {
                assert_eq!(
                    known.best_at_least(category),
                    known.best() >= category,
                    "{made:b}"
                );
            }
        }
    }

    #[test]
    fn front_positions_are_the_21_distinct_pairs() {
        let mut seen = std::collections::HashSet::new();
        for &(i, j) in &FRONT_POSITIONS {
            assert!(i < j && j < 7);
            assert!(seen.insert((i, j)));
        }
        assert_eq!(seen.len(), 21);
    }

    #[test]
    fn split_values_match_direct_evaluation() {
        let ev = Evaluator::new(Ranking::default());
        let deck = Deck::with_jokers(1).unwrap();
        for text in [
            "As Ks Qs Js 9s Jk 2d",
            "2c 2d 7h 7s Kc Jk 9d",
            "Ah Kh 4h 3h 2h 9c 9d",
        ] {
            let hand: [Card; 7] = deck.parse_hand(text, 7).unwrap().try_into().unwrap();
            let values = ev.split_values(&hand);
            for k in 0..SPLIT_COUNT {
                let (front, back) = split_cards(&hand, k);
                let f = front.to_vec();
                assert_eq!(values.front[k], ev.value2(f[0], f[1]), "{text} split {k}");
                assert_eq!(values.back[k], ev.value5(back), "{text} split {k}");
            }
        }
    }
}
