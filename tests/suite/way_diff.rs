//! `diff-ways` against brute force: exact over every hand of chosen rank multisets (dealt from
//! the deck, not from the shapes), hand by hand on seeded hands, the same way twice giving no
//! hand, the Foxwoods fix's count, and the per-hand EV change against dealing every dealer hand.

use std::collections::HashMap;
use std::sync::Arc;

use paigow::cards::deal::sample_hands;
use paigow::cards::{Card, Cards, Deck};
use paigow::combin::for_each_subset;
use paigow::engine::diff_ways::{GroupKey, Pricer, classify, diff_shapes, diff_ways};
use paigow::eval::Evaluator;
use paigow::game::GameRules;
use paigow::game::wager::BET_UNITS;
use paigow::strategy::MaxBack;
use paigow::strategy::optimal::grid::ValueIndex;
use paigow::strategy::optimal::hand::{SettingTable, by_enumeration};
use paigow::strategy::way::shapes::every_shape;
use paigow::strategy::way::{HouseWay, SHIPPED_WAYS};

fn standard() -> (GameRules, Evaluator) {
    let game = GameRules::load("standard").unwrap();
    let ev = Evaluator::new(game.ranking);
    (game, ev)
}

/// The Foxwoods file before its fix: rule 8 without the alternative that keeps the complete hand
/// behind.
fn old_foxwoods() -> HouseWay {
    let (_, _, text) = SHIPPED_WAYS
        .iter()
        .find(|(n, _, _)| *n == "foxwoods")
        .unwrap();
    let fix = ",\n        { back = { min = \"straight\" }, maximize = [\"front\"] } ]";
    HouseWay::from_toml(&text.replacen(fix, " ]", 1), "old-foxwoods.toml").unwrap()
}

#[test]
fn a_way_diffed_with_itself_sets_no_hand_differently() {
    let (game, ev) = standard();
    for (name, _, _) in SHIPPED_WAYS {
        let way = HouseWay::load(name).unwrap();
        let diff = diff_ways(&way, &way, &ev, game.deck);
        assert_eq!(diff.total_hands, 154_143_080, "{name}");
        assert!(diff.groups.is_empty(), "{name}");
    }
}

#[test]
fn the_foxwoods_fix_changes_83916_hands() {
    let (game, ev) = standard();
    let diff = diff_ways(
        &old_foxwoods(),
        &HouseWay::load("foxwoods").unwrap(),
        &ev,
        game.deck,
    );
    assert_eq!(diff.differing_hands(), 83_916);
    let mut by_class: Vec<(&str, u64)> = (diff.groups.iter())
        .map(|g| (g.key.class.name(), g.hands))
        .collect();
    by_class.sort();
    assert_eq!(
        by_class,
        [
            ("flush", 46_008),
            ("royal flush", 972),
            ("straight", 36_936)
        ]
    );
    assert!(
        diff.groups
            .iter()
            .all(|g| (g.key.rule_a, g.key.rule_b) == (14, 7))
    );
}

/// Every hand of `deck` whose ranks (jokers as their own symbol) are those of `like`, dealt by
/// brute force from the cards of those ranks.
fn hands_with_ranks_of(deck: Deck, like: &[Card; 7]) -> Vec<[Card; 7]> {
    let symbol = |c: &Card| c.rank().unwrap_or(13);
    let mut wanted: Vec<u8> = like.iter().map(symbol).collect();
    wanted.sort();
    let pool: Vec<Card> = (deck.cards().into_iter())
        .filter(|c| wanted.contains(&symbol(c)))
        .collect();
    let mut out = Vec::new();
    for_each_subset(pool.len(), 7, |positions| {
        let hand: [Card; 7] = std::array::from_fn(|i| pool[positions[i]]);
        let mut ranks: Vec<u8> = hand.iter().map(symbol).collect();
        ranks.sort();
        if ranks == wanted {
            out.push(hand);
        }
    });
    out
}

#[test]
fn groups_equal_brute_force_over_every_hand_of_chosen_rank_multisets() {
    let (game, ev) = standard();
    let (a, b) = (
        HouseWay::load("foxwoods").unwrap(),
        HouseWay::load("ballys-ac").unwrap(),
    );
    let examples = [
        "Jk Ac Ad Qs Jh Td 2c",
        "Ks Kd 8h 8c Ad 4h 2c",
        "Qs Qd 5h 5c Ad 9h 2c",
        "As Kd Jh 9c 7d 4h 2c",
    ];
    let mut differing = 0;
    for text in examples {
        let like = game.deck.parse_hand7(text).unwrap();
        let hands = hands_with_ranks_of(game.deck, &like);
        let mut brute: HashMap<GroupKey, u64> = HashMap::new();
        for hand in &hands {
            if let Some(key) = classify(&a, &b, &ev, hand) {
                *brute.entry(key).or_default() += 1;
            }
        }
        let same_ranks = |s: &paigow::strategy::way::shapes::HandShape| {
            Cards::from_cards(&s.hand).rank_counts() == Cards::from_cards(&like).rank_counts()
                && Cards::from_cards(&s.hand).jokers() == Cards::from_cards(&like).jokers()
        };
        let shapes: Vec<_> = every_shape(game.deck)
            .into_iter()
            .filter(same_ranks)
            .collect();
        let diff = diff_shapes(&a, &b, &ev, game.deck, shapes);
        assert_eq!(diff.total_hands, hands.len() as u64, "{text}");
        let exact: HashMap<GroupKey, u64> = diff.groups.iter().map(|g| (g.key, g.hands)).collect();
        assert_eq!(exact, brute, "{text}");
        differing += brute.values().sum::<u64>();
    }
    assert!(
        differing > 1_000,
        "the ways differ on these ranks: {differing}"
    );
}

#[test]
fn groups_agree_with_each_sampled_hand_and_its_share() {
    let (game, ev) = standard();
    let (a, b) = (
        HouseWay::load("foxwoods").unwrap(),
        HouseWay::load("canterbury-park").unwrap(),
    );
    let diff = diff_ways(&a, &b, &ev, game.deck);
    let groups: HashMap<GroupKey, u64> = diff.groups.iter().map(|g| (g.key, g.hands)).collect();
    let n = 200_000;
    let mut differing = 0u64;
    for hand in sample_hands(game.deck, 31).take(n) {
        if let Some(key) = classify(&a, &b, &ev, &hand) {
            assert!(
                groups.contains_key(&key),
                "{key:?} missing from the exact groups"
            );
            differing += 1;
        }
    }
    let p = diff.differing_hands() as f64 / diff.total_hands as f64;
    let se = (p * (1.0 - p) / n as f64).sqrt();
    let sampled = differing as f64 / n as f64;
    assert!(p > 0.01, "the ways differ on {p}");
    assert!(
        (sampled - p).abs() < 5.0 * se,
        "sampled {sampled}, exact {p}"
    );
    for g in &diff.groups {
        assert_eq!(classify(&a, &b, &ev, &g.example), Some(g.key));
    }
}

#[test]
fn the_ev_change_of_a_hand_equals_dealing_every_dealer_hand() {
    let (game, ev) = standard();
    let (a, b) = (old_foxwoods(), HouseWay::load("foxwoods").unwrap());
    let index = Arc::new(ValueIndex::of(&ev, game.deck));
    let table = SettingTable::build(&ev, &game.main_wager, game.deck, &MaxBack, index);
    let pricer = Pricer {
        a: &a,
        b: &b,
        ev: &ev,
        table: &table,
        wager: &game.main_wager,
    };
    let hand = game.deck.parse_hand7("As Js Ah Jk 5c Qs Ks").unwrap();
    let splits = ev.split_values(&hand);
    let exact = by_enumeration(&ev, &game.main_wager, game.deck, &MaxBack, &hand);
    let net = |way: &HouseWay| {
        let setting = exact.setting(way.set(&hand, &splits).split).unwrap();
        exact.net_units(setting, &game.main_wager)
    };
    let want = (net(&b) - net(&a)) as f64 / (exact.dealer_hands as f64 * BET_UNITS as f64);
    assert_eq!(exact.dealer_hands, 53_524_680);
    assert!(want > 0.0, "the royal flush behind is worth more: {want}");
    assert_eq!(pricer.change(&hand), want);
}
