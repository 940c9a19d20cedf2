//! `exact::category_counts` against counts that do not come from the code under test.
//!
//! - The 52-card deck: the published 7-card counts (133,784,560 hands; `engine::anchors`).
//! - The 53- and 54-card decks: the published counts for the hands without a joker, plus a brute
//!   force written here over every hand that holds a joker (C(52,6) = 20,358,520 with one joker,
//!   C(52,5) = 2,598,960 with both), each scored as the best `value5` of its 21 five-card subsets
//!   (`value5` itself is verified exhaustively in `evaluator_exhaustive.rs`). The 54-card deck's
//!   one-joker hands are the 53-card deck's twice over (the jokers play alike, as the exhaustive
//!   test checks hand by hand). A hand with five aces (aces and jokers) counts on the five-of-a-kind
//!   row, even where five aces carry the royal flush's value. The 53-card counts so derived are
//!   Alspach's published table (`engine::anchors::CATEGORIES_53`).
//! - Closed-form counts derived by hand (five aces, five of a kind, royal flushes).
//!
//! Category counts do not depend on the wheel or five-aces options (they reorder values inside a
//! category, and five-aces hands have their own row), so every option is held to the same table.

use std::sync::OnceLock;

use crate::common::{choose, for_each_subset_from, ranking};
use paigow::cards::{ACE, Card, Cards, Deck};
use paigow::engine::anchors::{CATEGORIES_52, CATEGORIES_53};
use paigow::engine::exact::{CategoryCounts, Method, category_counts};
use paigow::eval::{Category, Evaluator, FiveAces, JokerRule, Ranking, Wheel};
use rayon::prelude::*;

/// Published 7-card category counts of the 52-card deck (`engine::anchors`).
fn published_52() -> CategoryCounts {
    let mut c = CategoryCounts::default();
    for (category, n) in CATEGORIES_52 {
        c.0[category as usize] = n;
    }
    c
}

fn add(a: CategoryCounts, b: CategoryCounts) -> CategoryCounts {
    CategoryCounts(std::array::from_fn(|i| a.0[i] + b.0[i]))
}

fn scale(a: CategoryCounts, k: u64) -> CategoryCounts {
    CategoryCounts(a.0.map(|n| n * k))
}

/// The best 5-card value of seven cards, from `value5` on each of the 21 five-card subsets, and
/// the row the hand counts on.
fn row_of_seven(ev: &Evaluator, hand: &[Card; 7]) -> Category {
    let all = Cards::from_cards(hand);
    let mut best = None;
    for i in 0..7 {
        for j in i + 1..7 {
            let five = Cards(all.0 & !(hand[i].bit() | hand[j].bit()));
            best = best.max(Some(ev.value5(five)));
        }
    }
    let aces = hand
        .iter()
        .filter(|c| c.is_joker() || c.rank() == Some(ACE))
        .count();
    if aces >= 5 {
        Category::FiveOfAKind
    } else {
        best.expect("21 subsets").category()
    }
}

/// Counts, by row, every 7-card hand made of `jokers` plus `7 - jokers.len()` suited cards.
fn brute_with_jokers<const K: usize>(ev: &Evaluator, jokers: &[Card]) -> CategoryCounts {
    assert_eq!(K + jokers.len(), 7);
    let suited = Deck::with_jokers(0).unwrap().cards();
    (0..suited.len())
        .into_par_iter()
        .map(|first| {
            let mut counts = CategoryCounts::default();
            for_each_subset_from::<K>(&suited, first, |rest| {
                let mut hand = [Card::JOKER1; 7];
                hand[..K].copy_from_slice(rest);
                hand[K..].copy_from_slice(jokers);
                counts.0[row_of_seven(ev, &hand) as usize] += 1;
            });
            counts
        })
        .reduce(CategoryCounts::default, add)
}

/// Independent expected counts for the 53- and 54-card decks under one joker rule.
struct Expected {
    deck53: CategoryCounts,
    deck54: CategoryCounts,
}

fn expected(rule: JokerRule) -> &'static Expected {
    static BUG: OnceLock<Expected> = OnceLock::new();
    static WILD: OnceLock<Expected> = OnceLock::new();
    let cell = match rule {
        JokerRule::Bug => &BUG,
        JokerRule::Wild => &WILD,
    };
    cell.get_or_init(|| {
        let ev = Evaluator::new(ranking(rule, FiveAces::AboveRoyal, Wheel::SecondHighest));
        let one = brute_with_jokers::<6>(&ev, &[Card::JOKER1]);
        let two = brute_with_jokers::<5>(&ev, &[Card::JOKER1, Card::JOKER2]);
        assert_eq!(one.total(), choose(52, 6));
        assert_eq!(two.total(), choose(52, 5));
        Expected {
            deck53: add(published_52(), one),
            deck54: add(add(published_52(), scale(one, 2)), two),
        }
    })
}

fn rankings(rule: JokerRule) -> Vec<Ranking> {
    crate::common::meaningful_rankings()
        .into_iter()
        .filter(|r| r.joker == rule)
        .collect()
}

fn deck(jokers: u8) -> Deck {
    Deck::with_jokers(jokers).unwrap()
}

fn assert_counts(got: CategoryCounts, want: CategoryCounts, what: &str) {
    for category in Category::ALL_DESCENDING {
        assert_eq!(
            got.get(category),
            want.get(category),
            "{what}: {}",
            category.name()
        );
    }
    assert_eq!(got.total(), want.total(), "{what}: total");
}

#[test]
fn published_52_card_counts_add_up() {
    let p = published_52();
    assert_eq!(p.total(), choose(52, 7));
    assert_eq!(
        p.get(Category::RoyalFlush) + p.get(Category::StraightFlush),
        41_584
    );
    // A royal flush in seven cards: 4 suits, any 2 of the other 47 cards.
    assert_eq!(p.get(Category::RoyalFlush), 4 * choose(47, 2));
}

#[test]
fn counts_52_card_deck_structure() {
    for r in rankings(JokerRule::Bug)
        .into_iter()
        .chain(rankings(JokerRule::Wild))
    {
        let ev = Evaluator::new(r);
        let got = category_counts(&ev, deck(0), Method::Structure);
        assert_counts(got, published_52(), &format!("52 cards, structure, {r:?}"));
    }
}

#[test]
fn counts_52_card_deck_brute() {
    let ev = Evaluator::new(Ranking::default());
    let got = category_counts(&ev, deck(0), Method::Brute);
    assert_counts(got, published_52(), "52 cards, brute");
}

#[test]
fn closed_form_counts_of_the_test_brute_force() {
    let bug = expected(JokerRule::Bug);
    let wild = expected(JokerRule::Wild);
    let c = |n, k| choose(n, k);
    assert_eq!(bug.deck53.total(), c(53, 7));
    assert_eq!(bug.deck54.total(), c(54, 7));
    // Five aces, 53 cards: four aces, the joker, any 2 of the other 48 cards.
    assert_eq!(bug.deck53.get(Category::FiveOfAKind), c(48, 2));
    assert_eq!(bug.deck53.get(Category::FiveOfAKind), 1128);
    // Five aces, 54 cards: four aces with one joker (2 ways, 2 of 48 others) or both (1 of 48),
    // or three aces (4 ways) with both jokers and 2 of the 48 non-aces.
    assert_eq!(
        bug.deck54.get(Category::FiveOfAKind),
        2 * c(48, 2) + 48 + 4 * c(48, 2)
    );
    // Wild, 53 cards: four of a rank and the joker, 2 of the 48 others, for each of 13 ranks.
    assert_eq!(wild.deck53.get(Category::FiveOfAKind), 13 * c(48, 2));
    // Wild, 54 cards: four of a rank with one or both jokers, or exactly three of it with both.
    assert_eq!(
        wild.deck54.get(Category::FiveOfAKind),
        13 * (2 * c(48, 2) + 48 + 4 * c(48, 2))
    );
    // Royal flushes, 53 cards (either joker rule): a natural royal and 2 of the other 48 cards,
    // or four of its five cards, the joker, and 2 of the 47 cards outside that suit's royal.
    let royal53 = 4 * c(48, 2) + 4 * 5 * c(47, 2);
    assert_eq!(bug.deck53.get(Category::RoyalFlush), royal53);
    assert_eq!(wild.deck53.get(Category::RoyalFlush), royal53);
    // Royal flushes, 54 cards, bug: a natural royal and 2 of the other 49; four of its cards and
    // 3 of the 49 others (the 47 outside it and the jokers) with at least one joker; or three of
    // its cards, both jokers and 2 of the 47 outside, less the 4 * C(4,2) * C(3,2) = 72 of those
    // where the ace and two more aces make five aces with the jokers.
    let royal54 = 4 * c(49, 2) + 4 * 5 * (c(49, 3) - c(47, 3)) + 4 * c(5, 3) * c(47, 2) - 4 * 6 * 3;
    assert_eq!(bug.deck54.get(Category::RoyalFlush), royal54);
    // A wild joker always pairs something, so every high-card hand is jokerless; a bug joker
    // plays as an ace and can leave a hand high-card.
    assert_eq!(
        wild.deck53.get(Category::HighCard),
        published_52().get(Category::HighCard)
    );
    assert_eq!(
        wild.deck54.get(Category::HighCard),
        published_52().get(Category::HighCard)
    );
    assert!(bug.deck53.get(Category::HighCard) > published_52().get(Category::HighCard));
}

fn check_joker_deck(rule: JokerRule, jokers: u8, method: Method, which: &[Ranking]) {
    let e = expected(rule);
    let want = if jokers == 1 { e.deck53 } else { e.deck54 };
    for &r in which {
        let ev = Evaluator::new(r);
        let got = category_counts(&ev, deck(jokers), method);
        assert_counts(
            got,
            want,
            &format!("{} cards, {method:?}, {r:?}", 52 + jokers),
        );
    }
}

/// The 53-card counts this file derives (the published 52-card counts and the brute force of
/// every hand with the joker) are Alspach's published table, row by row (which `paigow
/// self-test` reproduces by dealing every hand).
#[test]
fn the_derived_53_card_counts_are_the_published_ones() {
    let derived = expected(JokerRule::Bug).deck53;
    for (categories, n) in CATEGORIES_53 {
        let got: u64 = categories.iter().map(|&c| derived.get(c)).sum();
        assert_eq!(got, n, "{categories:?}");
    }
    assert_eq!(
        CATEGORIES_53.iter().map(|(_, n)| n).sum::<u64>(),
        choose(53, 7)
    );
}

#[test]
fn counts_53_card_bug_structure() {
    check_joker_deck(
        JokerRule::Bug,
        1,
        Method::Structure,
        &rankings(JokerRule::Bug),
    );
}

#[test]
fn counts_53_card_wild_structure() {
    check_joker_deck(
        JokerRule::Wild,
        1,
        Method::Structure,
        &rankings(JokerRule::Wild),
    );
}

#[test]
fn counts_54_card_bug_structure() {
    check_joker_deck(
        JokerRule::Bug,
        2,
        Method::Structure,
        &rankings(JokerRule::Bug),
    );
}

/// The 54-card wild deck is no shipped game: it is counted by structure here (against the brute
/// force of every hand holding a joker, in `check_joker_deck`); the full brute-force method's
/// code path is the same as for the decks counted by brute force below.
#[test]
fn counts_54_card_wild_structure() {
    check_joker_deck(
        JokerRule::Wild,
        2,
        Method::Structure,
        &rankings(JokerRule::Wild),
    );
}

#[test]
fn counts_53_card_bug_brute() {
    let equal = ranking(JokerRule::Bug, FiveAces::EqualRoyal, Wheel::SecondHighest);
    check_joker_deck(JokerRule::Bug, 1, Method::Brute, &[equal]);
}

#[test]
fn counts_53_card_wild_brute() {
    let wild = ranking(JokerRule::Wild, FiveAces::AboveRoyal, Wheel::Lowest);
    check_joker_deck(JokerRule::Wild, 1, Method::Brute, &[wild]);
}

#[test]
fn counts_54_card_bug_brute() {
    check_joker_deck(JokerRule::Bug, 2, Method::Brute, &[Ranking::default()]);
}
