//! A slow, obviously-correct, card-level reference evaluator, written from the rules in
//! `shared/GAME-RULES.md` and sharing nothing with `src/eval.rs` (no tables, no keys, no
//! rank-level helpers): it only reads each card's rank and suit.
//!
//! Method.
//! - A concrete 5-card hand (ranks may repeat when a wild joker duplicates a card) is scored by
//!   standard poker rules into a [`NaiveValue`]: a [`Class`] and a tiebreak list of face values
//!   (2..=14, ace = 14), most significant first, 0 meaning "no card". Derived `Ord` compares the
//!   class, then the tiebreak lexicographically, so a 2-card hand (which fills only one or two
//!   entries) sorts below every 5-card hand of its class that starts with the same cards, as a
//!   missing kicker loses to any kicker.
//! - A flush needs five cards of one suit and five distinct ranks (there is no double-ace flush).
//! - Straights are scored by their position in an explicit list of the ten straights, lowest
//!   first, in which A-2-3-4-5 sits first or second-last according to [`Wheel`].
//! - A joker is replaced by each of the 52 cards in turn (two jokers: every pair of cards) and the
//!   best allowed result is kept. Wild: every replacement is allowed. Bug: a replacement is allowed
//!   when every joker is an ace, or when the hand it makes is a straight, a flush or a straight
//!   flush (so in a flush the joker ends up as the best card that suit can use: the highest one the
//!   hand lacks, unless a lower one makes a straight flush).
//! - Five aces are their own class above straight flushes, or carry exactly the royal flush's
//!   value under [`FiveAces::EqualRoyal`].
//! - A 2-card hand: a pair or two high cards. A bug joker is an ace; a wild joker is any rank (so
//!   it pairs the other card); two jokers are then a pair of aces under both rules.

use paigow::cards::Card;
use paigow::eval::{Category, FiveAces, JokerRule, Ranking, Wheel};

/// Hand classes, lowest first (a royal flush is the best straight flush).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Class {
    HighCard,
    OnePair,
    TwoPair,
    ThreeOfAKind,
    Straight,
    Flush,
    FullHouse,
    FourOfAKind,
    StraightFlush,
    FiveOfAKind,
}

/// A naive hand value: class, then face values (2..=14, 0 = no card), most significant first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct NaiveValue {
    pub class: Class,
    pub tiebreak: [u8; 5],
}

/// A concrete card: face value 2..=14 and suit 0..4.
type Concrete = (u8, u8);

const ACE: u8 = 14;

/// Face value 2..=14 of a suited card.
fn face(card: Card) -> u8 {
    card.rank().expect("a suited card") + 2
}

/// The ten straights from lowest to highest under `wheel`, each as its faces in descending order.
fn straights(wheel: Wheel) -> [[u8; 5]; 10] {
    const WHEEL: [u8; 5] = [14, 5, 4, 3, 2];
    const SIX: [u8; 5] = [6, 5, 4, 3, 2];
    const SEVEN: [u8; 5] = [7, 6, 5, 4, 3];
    const EIGHT: [u8; 5] = [8, 7, 6, 5, 4];
    const NINE: [u8; 5] = [9, 8, 7, 6, 5];
    const TEN: [u8; 5] = [10, 9, 8, 7, 6];
    const JACK: [u8; 5] = [11, 10, 9, 8, 7];
    const QUEEN: [u8; 5] = [12, 11, 10, 9, 8];
    const KING: [u8; 5] = [13, 12, 11, 10, 9];
    const BROADWAY: [u8; 5] = [14, 13, 12, 11, 10];
    match wheel {
        Wheel::Lowest => [
            WHEEL, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, BROADWAY,
        ],
        Wheel::SecondHighest => [
            SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, WHEEL, BROADWAY,
        ],
    }
}

/// The strength (1 = lowest .. 10 = A-K-Q-J-T) of the straight whose descending faces are `faces`.
fn straight_strength(faces: [u8; 5], wheel: Wheel) -> Option<u8> {
    straights(wheel)
        .iter()
        .position(|s| *s == faces)
        .map(|p| p as u8 + 1)
}

/// The value of a royal flush (the best straight flush).
pub fn royal_flush(wheel: Wheel) -> NaiveValue {
    let strength = straight_strength([14, 13, 12, 11, 10], wheel).expect("a straight");
    NaiveValue {
        class: Class::StraightFlush,
        tiebreak: [strength, 0, 0, 0, 0],
    }
}

/// Scores five concrete cards. Returns the value and whether the hand is a straight or a flush
/// (of any kind), which is what lets a bug joker be something other than an ace.
fn score(cards: [Concrete; 5], ranking: Ranking) -> (NaiveValue, bool) {
    let mut faces = cards.map(|c| c.0);
    faces.sort_unstable_by(|a, b| b.cmp(a));
    let distinct = faces.windows(2).all(|w| w[0] != w[1]);
    let flush = distinct && cards.iter().all(|c| c.1 == cards[0].1);
    let straight = if distinct {
        straight_strength(faces, ranking.wheel)
    } else {
        None
    };
    // (count, face) groups, largest count first, then highest face.
    let mut groups = [(0u8, 0u8); 5];
    let mut len = 0;
    for f in (2..=ACE).rev() {
        let n = faces.iter().filter(|&&x| x == f).count() as u8;
        if n > 0 {
            groups[len] = (n, f);
            len += 1;
        }
    }
    let groups = &mut groups[..len];
    groups.sort_by(|a, b| b.cmp(a));
    let mut by_groups = [0u8; 5];
    let mut counts = [0u8; 5];
    for (i, g) in groups.iter().enumerate() {
        by_groups[i] = g.1;
        counts[i] = g.0;
    }
    let shape = &counts[..len];
    let value = |class, tiebreak| NaiveValue { class, tiebreak };
    let v = if shape == [5] {
        if faces[0] == ACE && ranking.five_aces == FiveAces::EqualRoyal {
            royal_flush(ranking.wheel)
        } else {
            value(Class::FiveOfAKind, by_groups)
        }
    } else if let (Some(s), true) = (straight, flush) {
        value(Class::StraightFlush, [s, 0, 0, 0, 0])
    } else if shape == [4, 1] {
        value(Class::FourOfAKind, by_groups)
    } else if shape == [3, 2] {
        value(Class::FullHouse, by_groups)
    } else if flush {
        value(Class::Flush, faces)
    } else if let Some(s) = straight {
        value(Class::Straight, [s, 0, 0, 0, 0])
    } else if shape == [3, 1, 1] {
        value(Class::ThreeOfAKind, by_groups)
    } else if shape == [2, 2, 1] {
        value(Class::TwoPair, by_groups)
    } else if shape == [2, 1, 1, 1] {
        value(Class::OnePair, by_groups)
    } else {
        value(Class::HighCard, faces)
    };
    (v, flush || straight.is_some())
}

/// Every card a joker may stand for: all 52 (face, suit) pairs.
fn all_concrete() -> impl Iterator<Item = Concrete> + Clone {
    (0..4u8).flat_map(|s| (2..=ACE).map(move |f| (f, s)))
}

/// Whether a substitution is allowed by the joker rule.
fn allowed(rule: JokerRule, joker_faces: &[u8], straight_or_flush: bool) -> bool {
    match rule {
        JokerRule::Wild => true,
        JokerRule::Bug => straight_or_flush || joker_faces.iter().all(|&f| f == ACE),
    }
}

/// The naive value of a 5-card hand (0, 1 or 2 jokers).
pub fn value5(cards: &[Card], ranking: Ranking) -> NaiveValue {
    assert_eq!(cards.len(), 5, "a 5-card hand");
    let suited: Vec<Concrete> = cards
        .iter()
        .filter(|c| !c.is_joker())
        .map(|&c| (face(c), c.suit().expect("suited")))
        .collect();
    let jokers = 5 - suited.len();
    let mut hand = [(0u8, 0u8); 5];
    hand[..suited.len()].copy_from_slice(&suited);
    let mut best: Option<NaiveValue> = None;
    let mut consider = |hand: [Concrete; 5], joker_faces: &[u8]| {
        let (v, sf) = score(hand, ranking);
        if allowed(ranking.joker, joker_faces, sf) && best.is_none_or(|b| v > b) {
            best = Some(v);
        }
    };
    match jokers {
        0 => consider(hand, &[]),
        1 => {
            for a in all_concrete() {
                hand[4] = a;
                consider(hand, &[a.0]);
            }
        }
        2 => {
            // The two jokers are interchangeable: unordered pairs (with repeats) suffice.
            let all: Vec<Concrete> = all_concrete().collect();
            for (i, &a) in all.iter().enumerate() {
                for &b in &all[i..] {
                    hand[3] = a;
                    hand[4] = b;
                    consider(hand, &[a.0, b.0]);
                }
            }
        }
        _ => panic!("at most two jokers"),
    }
    best.expect("some substitution is always allowed (every joker an ace)")
}

/// The naive value of a 2-card (front) hand.
pub fn value2(a: Card, b: Card, ranking: Ranking) -> NaiveValue {
    let options = |c: Card| -> Vec<u8> {
        match (c.is_joker(), ranking.joker) {
            (false, _) => vec![face(c)],
            (true, JokerRule::Bug) => vec![ACE],
            (true, JokerRule::Wild) => (2..=ACE).collect(),
        }
    };
    let mut best: Option<NaiveValue> = None;
    for fa in options(a) {
        for fb in options(b) {
            let v = if fa == fb {
                NaiveValue {
                    class: Class::OnePair,
                    tiebreak: [fa, 0, 0, 0, 0],
                }
            } else {
                NaiveValue {
                    class: Class::HighCard,
                    tiebreak: [fa.max(fb), fa.min(fb), 0, 0, 0],
                }
            };
            if best.is_none_or(|b| v > b) {
                best = Some(v);
            }
        }
    }
    best.expect("a 2-card hand has a value")
}

/// The library category a naive value should carry: a straight flush to the ace is a royal
/// flush (and under `EqualRoyal` five aces carry exactly that value).
pub fn category(value: NaiveValue, ranking: Ranking) -> Category {
    match value.class {
        Class::HighCard => Category::HighCard,
        Class::OnePair => Category::OnePair,
        Class::TwoPair => Category::TwoPair,
        Class::ThreeOfAKind => Category::ThreeOfAKind,
        Class::Straight => Category::Straight,
        Class::Flush => Category::Flush,
        Class::FullHouse => Category::FullHouse,
        Class::FourOfAKind => Category::FourOfAKind,
        Class::StraightFlush if value == royal_flush(ranking.wheel) => Category::RoyalFlush,
        Class::StraightFlush => Category::StraightFlush,
        Class::FiveOfAKind => Category::FiveOfAKind,
    }
}
