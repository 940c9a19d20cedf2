//! The exact lint and the shapes it enumerates.
//!
//! The lint's counts are the sum over shapes of each shape's count times what the way does with
//! the shape's representative hand. They are right when (1) the shapes' counts are right (checked
//! here by dealing every hand of the 53-card deck and counting it under its shape) and (2) every
//! hand of a shape meets the same conditions and is set alike (checked on seeded hands, flush and
//! joker hands included, for every shipped way). They are then held to the independently computed
//! category counts, and every shipped way to a clean lint.

use std::collections::HashMap;

use rayon::prelude::*;

use paigow::cards::deal::sample_hands;
use paigow::cards::{Card, Deck};
use paigow::combin::for_each_hand_from;
use paigow::engine::exact::{Method, category_counts};
use paigow::eval::{Category, Evaluator};
use paigow::game::GameRules;
use paigow::strategy::shape::ShapeSlot;
use paigow::strategy::way::apply::{HandView, alt_mask, when_holds};
use paigow::strategy::way::shapes::{HandShape, every_shape, hand_count};
use paigow::strategy::way::{HouseWay, SHIPPED_WAYS, lint};

/// A shape slot as a hashable key.
type Slot = (bool, u32);

fn slot(hand: &[Card; 7]) -> Slot {
    let slot = ShapeSlot::of(hand);
    (slot.has_flush_suit(), slot.index() as u32)
}

/// Hands per shape slot, counted by dealing every hand of `deck`.
fn dealt_counts(deck: Deck) -> HashMap<Slot, u64> {
    let cards = deck.cards();
    (0..cards.len())
        .into_par_iter()
        .map(|first| {
            let mut plain = vec![0u64; 77_520];
            let mut flush: HashMap<u32, u64> = HashMap::new();
            for_each_hand_from(&cards, first, |hand| match slot(hand) {
                (false, i) => plain[i as usize] += 1,
                (true, i) => *flush.entry(i).or_default() += 1,
            });
            let plain = (plain.into_iter().enumerate())
                .filter(|&(_, n)| n > 0)
                .map(|(i, n)| ((false, i as u32), n));
            let flush = flush.into_iter().map(|(k, n)| ((true, k), n));
            plain.chain(flush).collect::<HashMap<_, _>>()
        })
        .reduce(HashMap::new, |mut a, b| {
            for (k, n) in b {
                *a.entry(k).or_default() += n;
            }
            a
        })
}

#[test]
fn shape_counts_equal_dealing_every_hand_of_the_53_card_deck() {
    let deck = Deck::with_jokers(1).unwrap();
    let shapes = every_shape(deck);
    let mut expected: HashMap<Slot, u64> = HashMap::new();
    for s in &shapes {
        let previous = expected.insert(slot(&s.hand), s.hands);
        assert!(previous.is_none(), "two shapes share a slot: {:?}", s.hand);
    }
    let dealt = dealt_counts(deck);
    assert_eq!(dealt.values().sum::<u64>(), 154_143_080);
    assert_eq!(dealt.len(), shapes.len());
    assert_eq!(dealt, expected);
}

/// The representative of every shape of `deck`, by slot.
fn representatives(deck: Deck) -> HashMap<Slot, HandShape> {
    let shapes = every_shape(deck).into_iter();
    shapes.map(|s| (slot(&s.hand), s)).collect()
}

/// Seeded hands of `deck`, with extra hands holding five or more cards of one suit.
fn test_hands(deck: Deck, n: usize) -> Vec<[Card; 7]> {
    let mut hands: Vec<[Card; 7]> = sample_hands(deck, 5).take(n).collect();
    let flushy = sample_hands(deck, 6).filter(|h| {
        let jokers = h.iter().filter(|c| c.is_joker()).count();
        (0..4).any(|s| h.iter().filter(|c| c.suit() == Some(s)).count() + jokers >= 4)
    });
    hands.extend(flushy.take(n / 4));
    hands
}

/// Per rule: whether its conditions hold, and which alternatives some legal split satisfies;
/// then the rule that set the hand and the setting's (front, back) values.
type Behaviour = (Vec<(bool, Vec<bool>)>, usize, (u32, u32));

/// What a way does with a hand, as the lint counts it: for each rule, whether its conditions
/// hold and which alternatives some legal split satisfies; the rule that set it; the setting's
/// values.
fn behaviour(way: &HouseWay, ev: &Evaluator, hand: &[Card; 7]) -> Behaviour {
    let splits = ev.split_values(hand);
    let view = HandView::new(hand, &splits);
    let legal = view.legal_mask();
    let rules = way.compiled.rules.iter().map(|rule| {
        let alts = rule.alts.iter().map(|a| alt_mask(a, &view, legal) != 0);
        (when_holds(&rule.when, &view.features), alts.collect())
    });
    let set = way.set(hand, &splits);
    let values = (splits.front[set.split].0, splits.back[set.split].0);
    (rules.collect(), set.rule, values)
}

#[test]
fn every_hand_of_a_shape_is_set_like_its_representative() {
    for (game_name, hands) in [
        ("standard", 60_000),
        ("double-joker", 30_000),
        ("jokers-wild", 20_000),
    ] {
        let game = GameRules::load(game_name).unwrap();
        let ev = Evaluator::new(game.ranking);
        let reps = representatives(game.deck);
        let hands = test_hands(game.deck, hands);
        for (way_name, _, _) in SHIPPED_WAYS {
            let way = HouseWay::load(way_name).unwrap();
            for hand in &hands {
                let rep = reps[&slot(hand)].hand;
                assert_eq!(
                    behaviour(&way, &ev, hand),
                    behaviour(&way, &ev, &rep),
                    "{way_name} on {game_name}: {hand:?} and its representative {rep:?}"
                );
            }
        }
    }
}

#[test]
fn lint_counts_equal_the_exact_category_counts() {
    let game = GameRules::load("standard").unwrap();
    let ev = Evaluator::new(game.ranking);
    let report = lint::check(&HouseWay::load("foxwoods").unwrap(), &ev, game.deck);
    let categories = category_counts(&ev, game.deck, Method::Structure);
    let set = |rule: usize| report.coverage[rule - 1].set;
    assert_eq!(report.hands, 154_143_080);
    assert_eq!(
        report.coverage.iter().map(|c| c.set).sum::<u64>(),
        report.hands
    );
    // Foxwoods' five-aces, one-pair and no-pair rules take exactly those categories' hands.
    assert_eq!(set(1), categories.get(Category::FiveOfAKind));
    assert_eq!(set(17), categories.get(Category::OnePair));
    assert_eq!(set(18), categories.get(Category::HighCard));
    assert_eq!((set(1), set(17), set(18)), (1_128, 64_221_960, 24_780_420));
    for c in &report.coverage {
        assert_eq!(c.reached, c.set + c.fell);
        assert!(c.matched >= c.reached);
        assert_eq!(c.alt_set.iter().sum::<u64>(), c.set);
    }
}

#[test]
fn every_shipped_way_lints_clean_on_its_game() {
    for (name, _, _) in SHIPPED_WAYS {
        let way = HouseWay::load(name).unwrap();
        let game = GameRules::load(way.game.as_deref().unwrap_or("standard")).unwrap();
        let report = lint::check(&way, &Evaluator::new(game.ranking), game.deck);
        let warnings: Vec<String> = report.warnings().map(|i| i.message.clone()).collect();
        assert!(
            report.is_clean(),
            "{name}: {warnings:#?} {:?}",
            report.unused_allowances
        );
        assert_eq!(report.hands, hand_count(game.deck));
        for note in report.notes() {
            let rule = &way.compiled.rules[note.rule];
            assert!(rule.allow.contains(&note.finding) && !rule.because.is_empty());
        }
    }
}

#[test]
fn the_old_foxwoods_three_of_a_kind_rule_fell_through_on_exact_counts() {
    let game = GameRules::load("standard").unwrap();
    let ev = Evaluator::new(game.ranking);
    let (_, _, text) = SHIPPED_WAYS
        .iter()
        .find(|(n, _, _)| *n == "foxwoods")
        .unwrap();
    let fix = ",\n        { back = { min = \"straight\" }, maximize = [\"front\"] } ]";
    assert!(text.contains(fix));
    let old = HouseWay::from_toml(&text.replacen(fix, " ]", 1), "old-foxwoods.toml").unwrap();
    let report = lint::check(&old, &ev, game.deck);
    let rule8 = &report.coverage[7];
    assert_eq!((rule8.reached, rule8.fell), (385_964, 140_400));
    let issue = report.warnings().next().unwrap();
    assert_eq!((issue.rule, issue.hands), (7, 140_400));
    assert!(
        issue
            .message
            .contains("falls through on 140400 of the 385964 hands")
    );
    let new = lint::check(&HouseWay::load("foxwoods").unwrap(), &ev, game.deck);
    assert_eq!(new.coverage[7].fell, 0);
    assert_eq!(new.coverage[7].set, 385_964);
}
