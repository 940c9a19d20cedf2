//! Hand features: what a house-way condition can ask about a 7-card hand.
//!
//! Definitions follow the way house-way texts read (the README lists them):
//! - Jokers group with the aces: A + joker is a pair of aces, a lone joker is an ace single,
//!   four aces + joker are five aces (not also quads). A rank group of exactly two cards is a
//!   pair, three trips, four quads; five or more aces are `five_aces` only.
//! - `high_pair` is the highest pair, `low_pair` the second highest, `third_pair` the third.
//! - `highest_single` is the highest rank held exactly once (joker = ace).
//! - `straight`, `flush`, `straight_flush` (and their 6- and 7-card forms) are present when some
//!   5 (6, 7) of the seven cards make one, a joker filling any one gap or suit.
//!
//! Each feature is a `u8`: a count, a rank (0 = deuce .. 12 = ace), a category, or 0/1; a rank
//! that does not exist (no third pair) is [`NONE`], which fails every condition. Every feature is
//! computed twice, once with the jokers (`FeatureSet::with`) and once with the jokers taken out
//! (`without`), for conditions written with `joker = false`. No allocation.

use crate::cards::{ACE, Card, Cards};
use crate::eval::split::SplitValues;

/// The value of a rank feature that does not exist in the hand.
pub const NONE: u8 = u8::MAX;

/// Every feature, by index into a [`Features`] array.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Feature {
    Pairs,
    Trips,
    Quads,
    HighPair,
    LowPair,
    ThirdPair,
    TripsRank,
    QuadsRank,
    FiveAces,
    Joker,
    Jokers,
    AceSingle,
    HighestSingle,
    Straight,
    Straight6,
    Straight7,
    Flush,
    Flush6,
    Flush7,
    StraightFlush,
    StraightFlush6,
    StraightFlush7,
    StraightOrFlush,
    BestFive,
}

/// Number of features.
pub const FEATURE_COUNT: usize = 24;

/// What kind of value a feature holds, for parsing its bounds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Count,
    Rank,
    Flag,
    Category,
}

impl Feature {
    /// The feature's name in TOML, and its kind.
    pub fn describe(self) -> (&'static str, Kind) {
        use Feature::*;
        use Kind::*;
        match self {
            Pairs => ("pairs", Count),
            Trips => ("trips", Count),
            Quads => ("quads", Count),
            HighPair => ("high_pair", Rank),
            LowPair => ("low_pair", Rank),
            ThirdPair => ("third_pair", Rank),
            TripsRank => ("trips_rank", Rank),
            QuadsRank => ("quads_rank", Rank),
            FiveAces => ("five_aces", Flag),
            Joker => ("joker", Flag),
            Jokers => ("jokers", Count),
            AceSingle => ("ace_single", Flag),
            HighestSingle => ("highest_single", Rank),
            Straight => ("straight", Flag),
            Straight6 => ("straight6", Flag),
            Straight7 => ("straight7", Flag),
            Flush => ("flush", Flag),
            Flush6 => ("flush6", Flag),
            Flush7 => ("flush7", Flag),
            StraightFlush => ("straight_flush", Flag),
            StraightFlush6 => ("straight_flush6", Flag),
            StraightFlush7 => ("straight_flush7", Flag),
            StraightOrFlush => ("straight_or_flush", Flag),
            BestFive => ("best_five", Category),
        }
    }
}

/// One hand's feature values, indexed by [`Feature`].
pub type Features = [u8; FEATURE_COUNT];

/// The features of a hand with the jokers and without them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureSet {
    pub with: Features,
    pub without: Features,
}

impl FeatureSet {
    /// Features of `hand`, given its split values (for `best_five`).
    pub fn of(hand: &[Card; 7], splits: &SplitValues) -> FeatureSet {
        let cards = Cards::from_cards(hand);
        let best = splits.best_five().category() as u8;
        FeatureSet {
            with: features(cards, cards.jokers() as u8, best),
            without: features(cards, 0, best),
        }
    }

    /// The value of one feature, read with or without the jokers.
    #[inline]
    pub fn get(&self, feature: Feature, with_joker: bool) -> u8 {
        let set = if with_joker {
            &self.with
        } else {
            &self.without
        };
        set[feature as usize]
    }
}

/// Features of the suited cards of `cards` plus `jokers` jokers.
fn features(cards: Cards, jokers: u8, best_five: u8) -> Features {
    let mut counts = cards.rank_counts();
    counts[ACE as usize] += jokers;
    let mut f = [NONE; FEATURE_COUNT];
    group_features(&counts, &mut f);
    f[Feature::Joker as usize] = (jokers > 0) as u8;
    f[Feature::Jokers as usize] = jokers;
    f[Feature::AceSingle as usize] = (counts[ACE as usize] == 1) as u8;
    straight_features(cards, jokers, &mut f);
    f[Feature::BestFive as usize] = best_five;
    f
}

/// Counts and ranks of pairs, trips, quads, five aces and the highest single.
fn group_features(counts: &[u8; 13], f: &mut Features) {
    let (mut pairs, mut trips, mut quads) = (0u8, 0u8, 0u8);
    let mut pair_ranks = [NONE; 3];
    for rank in (0..13u8).rev() {
        match counts[rank as usize] {
            1 if f[Feature::HighestSingle as usize] == NONE => {
                f[Feature::HighestSingle as usize] = rank;
            }
            2 => {
                if (pairs as usize) < 3 {
                    pair_ranks[pairs as usize] = rank;
                }
                pairs += 1;
            }
            3 => {
                if trips == 0 {
                    f[Feature::TripsRank as usize] = rank;
                }
                trips += 1;
            }
            4 => {
                quads += 1;
                f[Feature::QuadsRank as usize] = rank;
            }
            _ => {}
        }
    }
    f[Feature::Pairs as usize] = pairs;
    f[Feature::Trips as usize] = trips;
    f[Feature::Quads as usize] = quads;
    f[Feature::HighPair as usize] = pair_ranks[0];
    f[Feature::LowPair as usize] = pair_ranks[1];
    f[Feature::ThirdPair as usize] = pair_ranks[2];
    f[Feature::FiveAces as usize] = (counts[ACE as usize] >= 5) as u8;
}

/// Longest straight (up to 7) that `mask` (13-bit ranks) makes with `jokers` fillers.
fn longest_straight(mask: u32, jokers: u8) -> u8 {
    // Bit 0 is the ace playing low, bits 1..=13 the ranks deuce..ace.
    let wide = (mask << 1) | (mask >> 12 & 1);
    let mut best = 0u8;
    for len in 5..=7u8 {
        let window = (1u32 << len) - 1;
        let found = (0..=(14 - len as u32)).any(|low| {
            let missing = len as u32 - (wide >> low & window).count_ones();
            missing <= jokers as u32
        });
        if found {
            best = len;
        }
    }
    best
}

/// Straight, flush and straight-flush features.
fn straight_features(cards: Cards, jokers: u8, f: &mut Features) {
    let all_ranks = (0..4).fold(0u32, |m, s| m | cards.suit_mask(s));
    let straight = longest_straight(all_ranks, jokers);
    let (mut flush, mut straight_flush) = (0u8, 0u8);
    for suit in 0..4 {
        let mask = cards.suit_mask(suit);
        flush = flush.max(mask.count_ones() as u8 + jokers);
        straight_flush = straight_flush.max(longest_straight(mask, jokers));
    }
    let set = |f: &mut Features, feature: Feature, yes: bool| f[feature as usize] = yes as u8;
    set(f, Feature::Straight, straight >= 5);
    set(f, Feature::Straight6, straight >= 6);
    set(f, Feature::Straight7, straight >= 7);
    set(f, Feature::Flush, flush >= 5);
    set(f, Feature::Flush6, flush >= 6);
    set(f, Feature::Flush7, flush >= 7);
    set(f, Feature::StraightFlush, straight_flush >= 5);
    set(f, Feature::StraightFlush6, straight_flush >= 6);
    set(f, Feature::StraightFlush7, straight_flush >= 7);
    set(f, Feature::StraightOrFlush, straight >= 5 || flush >= 5);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Deck;
    use crate::eval::{Evaluator, Ranking};

    fn feats(text: &str) -> FeatureSet {
        let hand = Deck::with_jokers(2).unwrap().parse_hand7(text).unwrap();
        let ev = Evaluator::new(Ranking::default());
        FeatureSet::of(&hand, &ev.split_values(&hand))
    }

    #[test]
    fn the_joker_groups_with_the_aces() {
        let f = feats("As Jk Kd Kc 7h 5s 2d");
        assert_eq!(f.get(Feature::Pairs, true), 2);
        assert_eq!(f.get(Feature::HighPair, true), ACE);
        assert_eq!(f.get(Feature::AceSingle, true), 0);
        assert_eq!(f.get(Feature::AceSingle, false), 1);
        assert_eq!(f.get(Feature::Pairs, false), 1);
        let five = feats("As Ad Ah Ac Jk 5s 2d");
        assert_eq!(five.get(Feature::FiveAces, true), 1);
        assert_eq!(five.get(Feature::Quads, true), 0);
        assert_eq!(five.get(Feature::Quads, false), 1);
    }

    #[test]
    fn straights_use_the_joker_and_the_wheel() {
        let f = feats("As 2d 3h 4c Jk 9s Kd");
        assert_eq!(f.get(Feature::Straight, true), 1);
        assert_eq!(f.get(Feature::Straight, false), 0);
        assert_eq!(f.get(Feature::Straight6, true), 0);
        let six = feats("As 2d 3h 4c Jk 6s Kd");
        assert_eq!(
            six.get(Feature::Straight6, true),
            1,
            "A-2-3-4-5-6, the joker as the 5"
        );
        let seven = feats("2s 3d 4h 5c 6s 7d 8h");
        assert_eq!(seven.get(Feature::Straight7, true), 1);
        assert_eq!(seven.get(Feature::Flush, true), 0);
        assert_eq!(seven.get(Feature::HighestSingle, true), 6);
    }

    #[test]
    fn flushes_and_straight_flushes() {
        let f = feats("2h 5h 9h Jh Jk Kd Kc");
        assert_eq!(f.get(Feature::Flush, true), 1);
        assert_eq!(f.get(Feature::Flush, false), 0);
        assert_eq!(f.get(Feature::StraightFlush, true), 0);
        assert_eq!(f.get(Feature::StraightOrFlush, true), 1);
        let sf = feats("9h Th Jh Qh Kh 2c 2d");
        assert_eq!(sf.get(Feature::StraightFlush, true), 1);
        assert_eq!(sf.get(Feature::LowPair, true), NONE);
    }
}
