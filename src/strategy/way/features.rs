//! Hand features: what a house-way condition can ask about a 7-card hand.
//!
//! Every feature is declared once, in the `declare_features!` table below: its TOML key, its
//! [`Feature`] variant, its [`Kind`] (how its bounds are read), a description (shown by the
//! docs, `--explain` and error messages) and how its value is read from the hand's `Facts`.
//! The `when` keys the language accepts ([`WHEN_KEYS`]), the compiled conditions and the feature
//! arrays all come from that one table, so a new predicate is one line there.
//!
//! Definitions follow the way house-way texts read (`docs/reference/house-way-language.md` lists them):
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
//!
//! Invariant (the shape cache relies on it, `strategy::shape`): every feature is a function of
//! the hand's shape, by construction. The one reading of the cards is [`ShapeView::of`]: cards
//! per rank, the jokers and, when some suit makes a flush with the jokers, that suit's ranks. Every fact and feature is computed from that view alone (its fields are
//! private to this module and `Facts` is built from nothing else), so a predicate that reads a
//! suit, or any card, does not compile. The tests check constancy over every hand of every shape
//! of reduced decks (`every_feature_is_constant_over_every_hand_of_a_shape`) and over all 24 suit
//! permutations of sampled full-deck hands (`every_feature_is_blind_to_suits`).

use crate::cards::{ACE, Card, Cards};
use crate::eval::split::SplitValues;

/// The value of a rank feature that does not exist in the hand.
pub const NONE: u8 = u8::MAX;

/// What kind of value a feature holds, for parsing its bounds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Count,
    Rank,
    Flag,
    Category,
}

/// Category names as the language writes them, lowest first (index = the category's rank).
pub const CATEGORY_NAMES: [&str; 11] = [
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
    "five_aces",
];

impl Kind {
    /// A value of this kind as a condition would write it (`"K"`, `2`, `true`, `"flush"`).
    pub fn show(self, value: u8) -> String {
        match self {
            _ if value == NONE => "none".to_string(),
            Kind::Count => value.to_string(),
            Kind::Rank => format!("\"{}\"", b"23456789TJQKA"[value as usize % 13] as char),
            Kind::Flag => (value != 0).to_string(),
            Kind::Category => format!(
                "\"{}\"",
                CATEGORY_NAMES[value as usize % CATEGORY_NAMES.len()]
            ),
        }
    }
}

/// A hand as its shape: what a house way may know of it. Built from the cards by
/// [`ShapeView::of`], the only place the features read a card; two hands of one shape have one
/// view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShapeView {
    /// Cards per rank, the jokers not counted.
    counts: [u8; 13],
    jokers: u8,
    /// Cards in the longest suit when it makes a flush with the jokers, else 0 (how many cards
    /// a suit without a flush holds is not part of the shape).
    flush_cards: u8,
    /// The ranks of that suit (13-bit mask) when it makes a flush with the jokers, else 0.
    flush_ranks: u32,
}

impl ShapeView {
    /// The shape of `hand`.
    pub fn of(hand: &[Card; 7]) -> ShapeView {
        let cards = Cards::from_cards(hand);
        // Among seven cards at most one suit reaches five with the jokers.
        let longest = (0..4)
            .map(|s| cards.suit_mask(s))
            .max_by_key(|m| m.count_ones())
            .unwrap_or(0);
        ShapeView {
            counts: cards.rank_counts(),
            jokers: cards.jokers() as u8,
            flush_cards: 0,
            flush_ranks: 0,
        }
        .with_longest_suit(longest)
    }

    /// This view with the ranks of the longest suit set to `suit` (13-bit mask): a hand with the
    /// same ranks and jokers whose longest suit holds those ranks.
    pub fn with_longest_suit(mut self, suit: u32) -> ShapeView {
        let cards = suit.count_ones() as u8;
        (self.flush_cards, self.flush_ranks) = match cards + self.jokers {
            5.. => (cards, suit),
            _ => (0, 0),
        };
        self
    }

    /// The ranks held (13-bit mask), the jokers not counted.
    fn rank_mask(&self) -> u32 {
        (0..13)
            .filter(|&r| self.counts[r] > 0)
            .fold(0, |m, r| m | 1 << r)
    }
}

/// What the features of one reading of a hand (with or without its jokers) are read from: its
/// rank groups, longest straight, longest flush and longest straight flush, computed once.
#[derive(Clone, Copy)]
struct Facts {
    /// Cards per rank, the jokers counted as aces.
    counts: [u8; 13],
    jokers: u8,
    pairs: u8,
    trips: u8,
    quads: u8,
    /// Ranks of the three highest pairs ([`NONE`] where there is none).
    pair_ranks: [u8; 3],
    trips_rank: u8,
    quads_rank: u8,
    highest_single: u8,
    /// Longest straight (0, or 5 to 7 cards) the cards make with the jokers filling gaps.
    straight: u8,
    /// Most cards of one suit, plus the jokers, when they make a flush with the hand's jokers
    /// (below five otherwise: a feature asks only whether it reaches five, six or seven).
    flush: u8,
    /// Longest straight flush (0, or 5 to 7 cards).
    straight_flush: u8,
    best_five: u8,
}

/// Declares the features: one line each, `Variant: "key", Kind, "description", |facts| value;`.
macro_rules! declare_features {
    ($( $variant:ident : $key:literal, $kind:ident, $description:literal,
        |$facts:ident| $value:expr; )+) => {
        /// Every feature, by index into a [`Features`] array.
        #[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Feature {
            $( $variant, )+
        }

        /// Number of features.
        pub const FEATURE_COUNT: usize = [$( Feature::$variant ),+].len();

        /// The keys a `when` table accepts: every feature's, then `any`.
        pub const WHEN_KEYS: &[&str] = &[$( $key, )+ "any"];

        impl Feature {
            /// Every feature, in index order.
            pub const ALL: [Feature; FEATURE_COUNT] = [$( Feature::$variant ),+];

            /// The feature's key in TOML.
            pub fn key(self) -> &'static str {
                match self { $( Feature::$variant => $key, )+ }
            }

            /// What kind of value the feature holds.
            pub fn kind(self) -> Kind {
                match self { $( Feature::$variant => Kind::$kind, )+ }
            }

            /// What the feature means, in the house-way reading.
            pub fn description(self) -> &'static str {
                match self { $( Feature::$variant => $description, )+ }
            }

            /// The feature whose TOML key is `key`.
            pub fn from_key(key: &str) -> Option<Feature> {
                match key { $( $key => Some(Feature::$variant), )+ _ => None }
            }
        }

        /// Every feature's value, read from the facts of one reading of a hand.
        fn read_all(facts: &Facts) -> Features {
            [$( { let $facts = facts; $value }, )+]
        }
    };
}

declare_features! {
    Pairs: "pairs", Count, "number of ranks held exactly twice (an ace and a joker are a pair of aces)",
        |f| f.pairs;
    Trips: "trips", Count, "number of ranks held exactly three times",
        |f| f.trips;
    Quads: "quads", Count, "number of ranks held exactly four times (four aces and a joker are five aces, not quads)",
        |f| f.quads;
    HighPair: "high_pair", Rank, "rank of the highest pair",
        |f| f.pair_ranks[0];
    LowPair: "low_pair", Rank, "rank of the second-highest pair",
        |f| f.pair_ranks[1];
    ThirdPair: "third_pair", Rank, "rank of the third-highest pair",
        |f| f.pair_ranks[2];
    TripsRank: "trips_rank", Rank, "rank of the highest three of a kind",
        |f| f.trips_rank;
    QuadsRank: "quads_rank", Rank, "rank of the four of a kind",
        |f| f.quads_rank;
    FiveAces: "five_aces", Flag, "aces and jokers together number five or more",
        |f| (f.counts[ACE as usize] >= 5) as u8;
    Joker: "joker", Flag, "the hand holds a joker",
        |f| (f.jokers > 0) as u8;
    Jokers: "jokers", Count, "number of jokers in the hand",
        |f| f.jokers;
    AceSingle: "ace_single", Flag, "exactly one ace, not part of a pair (a lone joker is an ace)",
        |f| (f.counts[ACE as usize] == 1) as u8;
    HighestSingle: "highest_single", Rank, "highest rank held exactly once (a lone joker is an ace)",
        |f| f.highest_single;
    Straight: "straight", Flag, "some five of the seven cards make a straight",
        |f| (f.straight >= 5) as u8;
    Straight6: "straight6", Flag, "some six of the seven cards are in sequence",
        |f| (f.straight >= 6) as u8;
    Straight7: "straight7", Flag, "all seven cards are in sequence",
        |f| (f.straight >= 7) as u8;
    Flush: "flush", Flag, "some five of the seven cards make a flush",
        |f| (f.flush >= 5) as u8;
    Flush6: "flush6", Flag, "six of the seven cards are of one suit",
        |f| (f.flush >= 6) as u8;
    Flush7: "flush7", Flag, "all seven cards are of one suit",
        |f| (f.flush >= 7) as u8;
    StraightFlush: "straight_flush", Flag, "some five of the seven cards make a straight flush",
        |f| (f.straight_flush >= 5) as u8;
    StraightFlush6: "straight_flush6", Flag, "six of the seven cards make a straight flush",
        |f| (f.straight_flush >= 6) as u8;
    StraightFlush7: "straight_flush7", Flag, "all seven cards make a straight flush",
        |f| (f.straight_flush >= 7) as u8;
    StraightOrFlush: "straight_or_flush", Flag, "some five of the seven cards make a straight or a flush",
        |f| (f.straight >= 5 || f.flush >= 5) as u8;
    BestFive: "best_five", Category, "category of the best five cards, under the game's ranking",
        |f| f.best_five;
}

/// One hand's feature values, indexed by [`Feature`].
pub type Features = [u8; FEATURE_COUNT];

/// The features of a hand with the jokers and without them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FeatureSet {
    pub with: Features,
    pub without: Features,
}

impl FeatureSet {
    /// Features of `hand`, given its split values (for `best_five`).
    pub fn of(hand: &[Card; 7], splits: &SplitValues) -> FeatureSet {
        HandFacts::of(hand).features(splits.best_five().category() as u8)
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

/// What both readings of a hand (with and without its jokers) are read from, before `best_five`
/// is known: [`HandFacts::features`] reads every declared feature. A hand with the same ranks and
/// jokers whose flush suit holds other ranks differs only in its flush facts, so
/// [`HandFacts::with_flush_suit`] derives its facts without looking at cards (the load-time
/// validation reads every hand shape this way).
#[derive(Clone, Copy)]
pub struct HandFacts {
    with: Facts,
    without: Facts,
}

impl HandFacts {
    /// The facts of `hand`.
    pub fn of(hand: &[Card; 7]) -> HandFacts {
        HandFacts::of_shape(&ShapeView::of(hand))
    }

    /// The facts of every hand of the shape `view`.
    pub fn of_shape(view: &ShapeView) -> HandFacts {
        HandFacts {
            with: Facts::of(view, view.jokers),
            without: Facts::of(view, 0),
        }
    }

    /// Every feature, both readings, with the best five's category given.
    pub fn features(&self, best_five: u8) -> FeatureSet {
        let read = |facts: &Facts| {
            read_all(&Facts {
                best_five,
                ..*facts
            })
        };
        FeatureSet {
            with: read(&self.with),
            without: read(&self.without),
        }
    }

    /// The facts of a hand with the same ranks and jokers whose longest suit holds exactly the
    /// ranks of `suit` (13-bit mask) instead.
    pub fn with_flush_suit(&self, suit: u32) -> HandFacts {
        let view = ShapeView {
            counts: self.without.counts,
            jokers: self.with.jokers,
            flush_cards: 0,
            flush_ranks: 0,
        };
        HandFacts::of_shape(&view.with_longest_suit(suit))
    }
}

impl Facts {
    /// The facts of the suited cards of a hand of shape `view` plus `jokers` jokers (its own, or
    /// none for the reading without them).
    fn of(view: &ShapeView, jokers: u8) -> Facts {
        let mut counts = view.counts;
        counts[ACE as usize] += jokers;
        let mut facts = Facts {
            counts,
            jokers,
            pairs: 0,
            trips: 0,
            quads: 0,
            pair_ranks: [NONE; 3],
            trips_rank: NONE,
            quads_rank: NONE,
            highest_single: NONE,
            straight: longest_straight(view.rank_mask(), jokers),
            flush: view.flush_cards + jokers,
            straight_flush: 0,
            best_five: NONE,
        };
        if facts.flush >= 5 {
            facts.straight_flush = longest_straight(view.flush_ranks, jokers);
        }
        facts.read_groups();
        facts
    }

    /// Counts and ranks of the pairs, trips, quads and the highest single, from the highest
    /// rank down.
    fn read_groups(&mut self) {
        for rank in (0..13u8).rev() {
            match self.counts[rank as usize] {
                1 if self.highest_single == NONE => self.highest_single = rank,
                2 => {
                    if let Some(slot) = self.pair_ranks.get_mut(self.pairs as usize) {
                        *slot = rank;
                    }
                    self.pairs += 1;
                }
                3 => {
                    if self.trips == 0 {
                        self.trips_rank = rank;
                    }
                    self.trips += 1;
                }
                4 => {
                    self.quads += 1;
                    self.quads_rank = rank;
                }
                _ => {}
            }
        }
    }
}

/// Longest straight (0, or 5 to 7) that `mask` (13-bit ranks) makes with `jokers` fillers:
/// the longest window of ranks missing at most `jokers` of its ranks. Windows are counted from
/// prefix counts (no popcount: the baseline x86_64 target lacks the instruction).
pub(super) fn longest_straight(mask: u32, jokers: u8) -> u8 {
    // Bit 0 is the ace playing low, bits 1..=13 the ranks deuce..ace.
    let wide = (mask << 1) | (mask >> 12 & 1);
    // held[i]: how many of bits 0..i are set.
    let mut held = [0u8; 15];
    for i in 0..14 {
        held[i + 1] = held[i] + (wide >> i & 1) as u8;
    }
    let makes =
        |len: usize| (0..=14 - len).any(|low| held[low + len] - held[low] + jokers >= len as u8);
    (5..=7).rev().find(|&len| makes(len)).unwrap_or(0) as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Deck;
    use crate::cards::deal::sample_hands;
    use crate::eval::{Evaluator, Ranking};

    fn feats(text: &str) -> FeatureSet {
        let hand = Deck::with_jokers(2).unwrap().parse_hand7(text).unwrap();
        let ev = Evaluator::new(Ranking::default());
        FeatureSet::of(&hand, &ev.split_values(&hand))
    }

    /// Every rank mask and joker count against the definition: some window of `len` ranks
    /// (the ace high or low) missing at most `jokers` of them.
    #[test]
    fn longest_straights_by_their_definition() {
        for mask in 0u32..1 << 13 {
            let wide = (mask << 1) | (mask >> 12 & 1);
            for jokers in 0..=2u8 {
                let makes = |len: u32| {
                    (0..=14 - len).any(|low| {
                        len - (wide >> low & ((1 << len) - 1)).count_ones() <= u32::from(jokers)
                    })
                };
                let expected = (5..=7).filter(|&len| makes(len)).max().unwrap_or(0) as u8;
                assert_eq!(
                    longest_straight(mask, jokers),
                    expected,
                    "{mask:013b} {jokers}"
                );
            }
        }
    }

    /// Every hand of a deck of `ranks` (13-bit mask, four suits) and `jokers` jokers, grouped by
    /// the shape cache's slot: each group's features (both readings, `best_five` included) must
    /// be one value, and the view one view.
    fn features_by_shape(ranks: u16, jokers: u8) -> (usize, usize) {
        use crate::strategy::shape::ShapeSlot;
        use std::collections::HashMap;
        let deck = Deck::with_jokers(jokers).unwrap();
        let cards: Vec<Card> = (deck.cards().into_iter())
            .filter(|c| c.rank().is_none_or(|r| ranks >> r & 1 == 1))
            .collect();
        let ev = Evaluator::new(Ranking::default());
        let mut seen: HashMap<ShapeSlot, (ShapeView, FeatureSet)> = HashMap::new();
        let mut hands = 0;
        crate::combin::for_each_subset(cards.len(), 7, |p| {
            let hand: [Card; 7] = std::array::from_fn(|i| cards[p[i]]);
            let features = FeatureSet::of(&hand, &ev.split_values(&hand));
            let view = ShapeView::of(&hand);
            let first = *seen.entry(ShapeSlot::of(&hand)).or_insert((view, features));
            assert_eq!(first, (view, features), "{hand:?}");
            hands += 1;
        });
        (hands, seen.len())
    }

    #[test]
    fn every_feature_is_constant_over_every_hand_of_a_shape() {
        // Six ranks and a joker: pai gows, flushes with and without the joker, straights.
        let (hands, shapes) = features_by_shape(0b1_0000_0111_1100, 1);
        assert!(
            hands > 400_000 && shapes > 1_000,
            "{hands} hands, {shapes} shapes"
        );
        // Five ranks and both jokers: two-joker flushes and straight flushes.
        let (hands, shapes) = features_by_shape(0b1_0000_0000_1111, 2);
        assert!(
            hands > 100_000 && shapes > 100,
            "{hands} hands, {shapes} shapes"
        );
    }

    #[test]
    fn the_declaration_table_is_consistent() {
        assert_eq!(FEATURE_COUNT, 24);
        for (i, f) in Feature::ALL.iter().enumerate() {
            assert_eq!(*f as usize, i);
            assert_eq!(Feature::from_key(f.key()), Some(*f));
            assert!(!f.description().is_empty());
        }
        assert_eq!(WHEN_KEYS.len(), FEATURE_COUNT + 1);
        assert_eq!(Feature::from_key("any"), None);
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

    /// `hand` with every suit `s` replaced by `perm[s]`, sorted again.
    fn permute_suits(hand: &[Card; 7], perm: [u8; 4]) -> [Card; 7] {
        let mut out = hand.map(|c| match (c.rank(), c.suit()) {
            (Some(r), Some(s)) => Card::new(r, perm[s as usize]).unwrap(),
            _ => c,
        });
        out.sort();
        out
    }

    /// All 24 permutations of the four suits.
    fn suit_permutations() -> Vec<[u8; 4]> {
        let mut out = Vec::new();
        for a in 0..4u8 {
            for b in (0..4).filter(|&b| b != a) {
                for c in (0..4).filter(|&c| c != a && c != b) {
                    out.push([a, b, c, 6 - a - b - c]);
                }
            }
        }
        out
    }

    /// Seeded hands with five to seven cards of one suit, some with jokers.
    fn flush_hands(deck: Deck, n: usize) -> Vec<[Card; 7]> {
        let cards = deck.cards();
        sample_hands(deck, 99)
            .take(n)
            .enumerate()
            .map(|(i, random)| {
                let suited = 5 + i % 3;
                let suit = (i % 4) as u8;
                let mut hand: Vec<Card> = (0..13u8)
                    .map(|r| Card::new(((r as usize + i * 5) % 13) as u8, suit).unwrap())
                    .step_by(2)
                    .take(suited)
                    .collect();
                let fill = random.iter().chain(&cards).copied();
                for c in fill {
                    if hand.len() == 7 {
                        break;
                    }
                    if !hand.contains(&c) {
                        hand.push(c);
                    }
                }
                let mut hand: [Card; 7] = hand.try_into().unwrap();
                hand.sort();
                hand
            })
            .collect()
    }

    #[test]
    fn every_feature_is_blind_to_suits() {
        let deck = Deck::with_jokers(2).unwrap();
        let ev = Evaluator::new(Ranking::default());
        let mut hands: Vec<[Card; 7]> = sample_hands(deck, 17).take(20_000).collect();
        hands.extend(flush_hands(deck, 5_000));
        let (mut flushes, mut jokers) = (0, 0);
        for hand in &hands {
            let features = FeatureSet::of(hand, &ev.split_values(hand));
            flushes += features.get(Feature::Flush, true) as u32;
            jokers += features.get(Feature::Joker, true) as u32;
            for perm in suit_permutations() {
                let moved = permute_suits(hand, perm);
                let moved_features = FeatureSet::of(&moved, &ev.split_values(&moved));
                assert_eq!(features, moved_features, "{hand:?} under {perm:?}");
            }
        }
        assert!(flushes > 5_000, "flush hands exercised: {flushes}");
        assert!(jokers > 2_000, "joker hands exercised: {jokers}");
    }
}
