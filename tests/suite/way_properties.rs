//! Properties of every shipped house way on every shipped game, and a brute-force interpreter
//! (slow and obvious, written from the documented definitions over the raw TOML) that must agree
//! with the compiled form on a fixed-seed sample.

use paigow::cards::deal::sample_hands;
use paigow::cards::{Card, Cards};
use paigow::eval::split::{SPLIT_COUNT, SplitValues, split_cards};
use paigow::eval::{Evaluator, Value};
use paigow::game::{GameRules, SHIPPED_GAMES};
use paigow::strategy::way::{HouseWay, SHIPPED_WAYS};
use paigow::strategy::{MaxBack, MaxFront, Strategy};
use toml::Value as T;

#[test]
fn every_way_sets_every_hand_legally_and_deterministically() {
    for (game_name, _, _) in SHIPPED_GAMES {
        let game = GameRules::load(game_name).unwrap();
        let ev = Evaluator::new(game.ranking);
        for (way_name, _, _) in SHIPPED_WAYS {
            let way = HouseWay::load(way_name).unwrap();
            for hand in sample_hands(game.deck, 7).take(20_000) {
                let splits = ev.split_values(&hand);
                let a = way.set(&hand, &splits);
                assert!(
                    a.split < SPLIT_COUNT && splits.is_legal(a.split),
                    "{way_name} {game_name}"
                );
                assert_eq!(
                    a,
                    way.set(&hand, &splits),
                    "{way_name} {game_name}: not deterministic"
                );
            }
        }
    }
}

#[test]
fn toml_reference_ways_agree_with_the_native_built_ins() {
    let game = GameRules::load("standard").unwrap();
    let ev = Evaluator::new(game.ranking);
    let back = HouseWay::load("max-back").unwrap();
    let front = HouseWay::load("max-front").unwrap();
    let mut checked = 0;
    for hand in sample_hands(game.deck, 11).take(200_000) {
        let s = ev.split_values(&hand);
        let (nb, nf) = (
            MaxBack.choose(&hand, &s, None),
            MaxFront.choose(&hand, &s, None),
        );
        let (tb, tf) = (back.set(&hand, &s).split, front.set(&hand, &s).split);
        // The native ways break exact ties by split order; the TOML ones keep the joker behind
        // first. Both must give the same values.
        assert_eq!((s.back[nb], s.front[nb]), (s.back[tb], s.front[tb]));
        assert_eq!((s.front[nf], s.back[nf]), (s.front[tf], s.back[tf]));
        checked += 1;
    }
    assert_eq!(checked, 200_000);
}

// ---------- the brute-force interpreter ----------

const RANKS: &str = "23456789TJQKA";

fn rank_of(t: &T) -> u8 {
    match t {
        T::Integer(n) => *n as u8 - 2,
        T::String(s) if s == "10" => 8,
        T::String(s) => RANKS.find(&s.to_uppercase()).unwrap() as u8,
        other => panic!("rank {other}"),
    }
}

/// A category's rank from its name in the language. Written out here rather than taken from
/// `way::features::CATEGORY_NAMES`: this file is an independent reading of the language, and a
/// table shared with the code under test would agree with it however wrong it were.
fn category_of(s: &str) -> u32 {
    let names = [
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
    names.iter().position(|n| *n == s).unwrap() as u32
}

/// Group sizes by rank with the jokers (if `with`) as aces.
fn groups(hand: &[Card; 7], with: bool) -> [u8; 13] {
    let mut c = [0u8; 13];
    for card in hand {
        match card.rank() {
            Some(r) => c[r as usize] += 1,
            None if with => c[12] += 1,
            None => {}
        }
    }
    c
}

/// Whether some `len` of the cards make a straight (and, if `suit`, all of that suit).
fn run_of(hand: &[Card; 7], with: bool, len: usize, suit: Option<u8>) -> bool {
    let jokers = if with {
        hand.iter().filter(|c| c.is_joker()).count()
    } else {
        0
    };
    let has = |r: i32| {
        let r = if r == -1 { 12 } else { r };
        hand.iter()
            .any(|c| c.rank() == Some(r as u8) && (suit.is_none() || c.suit() == suit))
    };
    (-1..=(13 - len as i32)).any(|low| {
        let missing = (low..low + len as i32).filter(|&r| !has(r)).count();
        missing <= jokers
    })
}

fn feature(hand: &[Card; 7], s: &SplitValues, name: &str, with: bool) -> Option<u32> {
    let g = groups(hand, with);
    let ranks_with =
        |n: u8| -> Vec<u8> { (0..13u8).rev().filter(|&r| g[r as usize] == n).collect() };
    let jokers = if with {
        hand.iter().filter(|c| c.is_joker()).count()
    } else {
        0
    };
    let flush_len = (0..4u8)
        .map(|su| hand.iter().filter(|c| c.suit() == Some(su)).count() + jokers)
        .max()
        .unwrap();
    let sf = |len| (0..4u8).any(|su| run_of(hand, with, len, Some(su)));
    let b = |x: bool| Some(x as u32);
    match name {
        "pairs" => Some(ranks_with(2).len() as u32),
        "trips" => Some(ranks_with(3).len() as u32),
        "quads" => Some(ranks_with(4).len() as u32),
        "high_pair" => ranks_with(2).first().map(|&r| r as u32),
        "low_pair" => ranks_with(2).get(1).map(|&r| r as u32),
        "third_pair" => ranks_with(2).get(2).map(|&r| r as u32),
        "trips_rank" => ranks_with(3).first().map(|&r| r as u32),
        "quads_rank" => ranks_with(4).first().map(|&r| r as u32),
        "highest_single" => ranks_with(1).first().map(|&r| r as u32),
        "five_aces" => b(g[12] >= 5),
        "joker" => b(jokers > 0),
        "jokers" => Some(jokers as u32),
        "ace_single" => b(g[12] == 1),
        "straight" => b(run_of(hand, with, 5, None)),
        "straight6" => b(run_of(hand, with, 6, None)),
        "straight7" => b(run_of(hand, with, 7, None)),
        "flush" => b(flush_len >= 5),
        "flush6" => b(flush_len >= 6),
        "flush7" => b(flush_len >= 7),
        "straight_flush" => b(sf(5)),
        "straight_flush6" => b(sf(6)),
        "straight_flush7" => b(sf(7)),
        "straight_or_flush" => b(run_of(hand, with, 5, None) || flush_len >= 5),
        "best_five" => Some(s.back.iter().max().unwrap().category() as u32),
        other => panic!("feature {other}"),
    }
}

fn scalar(name: &str, t: &T) -> u32 {
    match t {
        T::Boolean(x) => *x as u32,
        T::Integer(n) if matches!(name, "pairs" | "trips" | "quads" | "jokers") => *n as u32,
        T::String(s) if name == "best_five" => category_of(s),
        other => rank_of(other) as u32,
    }
}

fn cond_holds(hand: &[Card; 7], s: &SplitValues, name: &str, t: &T) -> bool {
    let (lo, hi, with) = match t {
        T::Table(tab) => {
            let with = tab.get("joker").and_then(T::as_bool).unwrap_or(true);
            match tab.get("is") {
                Some(v) => (scalar(name, v), scalar(name, v), with),
                None => (
                    tab.get("min").map_or(0, |v| scalar(name, v)),
                    tab.get("max").map_or(99, |v| scalar(name, v)),
                    with,
                ),
            }
        }
        v => (scalar(name, v), scalar(name, v), true),
    };
    feature(hand, s, name, with).is_some_and(|v| lo <= v && v <= hi)
}

fn when_holds(hand: &[Card; 7], s: &SplitValues, when: Option<&T>) -> bool {
    let Some(T::Table(w)) = when else { return true };
    w.iter().all(|(k, v)| match (k.as_str(), v) {
        ("any", T::Array(list)) => list.iter().any(|x| when_holds(hand, s, Some(x))),
        (name, v) => cond_holds(hand, s, name, v),
    })
}

fn cat_ok(v: Value, hand: Option<&T>) -> bool {
    let c = v.category() as u32;
    let get = |k| {
        hand.and_then(|h| h.get(k))
            .and_then(T::as_str)
            .map(category_of)
    };
    get("min").is_none_or(|m| c >= m) && get("max").is_none_or(|m| c <= m)
}

fn front_ranks(hand: &[Card; 7], k: usize, s: &SplitValues) -> (u8, u8) {
    let _ = hand;
    let sl = s.front[k].slots();
    (sl[0] - 1, if sl[1] == 0 { sl[0] - 1 } else { sl[1] - 1 })
}

fn split_ok(hand: &[Card; 7], s: &SplitValues, k: usize, alt: &T) -> bool {
    let (front_cards, _) = split_cards(hand, k);
    let joker_front = front_cards.jokers() > 0;
    let has_joker = Cards::from_cards(hand).jokers() > 0;
    let front = alt.get("front");
    let (top, second) = front_ranks(hand, k, s);
    let range_ok = |key: &str, r: u8| match front.and_then(|f| f.get(key)) {
        None => true,
        Some(T::Table(t)) => {
            t.get("min").is_none_or(|m| r >= rank_of(m))
                && t.get("max").is_none_or(|m| r <= rank_of(m))
        }
        Some(v) => r == rank_of(v),
    };
    let pair_ok = match front.and_then(|f| f.get("pair")).and_then(T::as_str) {
        None => true,
        Some(group) => {
            let want = match group {
                "high_pair" | "low_pair" | "third_pair" => feature(hand, s, group, true),
                "trips" => feature(hand, s, "trips_rank", true),
                "quads" => feature(hand, s, "quads_rank", true),
                r => Some(rank_of(&T::String(r.into())) as u32),
            };
            s.front[k].category() as u32 == 1 && want == Some(top as u32)
        }
    };
    let joker_ok = match alt.get("joker").and_then(T::as_str) {
        Some("back") => !joker_front,
        Some("front") => !has_joker || joker_front,
        _ => true,
    };
    s.is_legal(k)
        && cat_ok(s.back[k], alt.get("back"))
        && cat_ok(s.front[k], front)
        && range_ok("top", top)
        && range_ok("second", second)
        && pair_ok
        && joker_ok
}

/// Objective tuple for comparison, ending with the stated final tie-break.
fn objective_key(hand: &[Card; 7], s: &SplitValues, k: usize, alt: &T) -> Vec<u64> {
    let mut names: Vec<String> = alt
        .get("maximize")
        .and_then(T::as_array)
        .map(|a| a.iter().map(|x| x.as_str().unwrap().to_string()).collect())
        .unwrap_or_default();
    for d in ["front", "back"] {
        if !names.iter().any(|n| n == d) {
            names.push(d.into());
        }
    }
    let mut key: Vec<u64> = names
        .iter()
        .map(|n| match n.as_str() {
            "front" => s.front[k].0 as u64,
            "back" => s.back[k].0 as u64,
            _ => {
                let (a, b) = front_ranks(hand, k, s);
                (a as u64) * 16 + b as u64
            }
        })
        .collect();
    let (front_cards, _) = split_cards(hand, k);
    key.push((front_cards.jokers() == 0) as u64);
    key.push((SPLIT_COUNT - k) as u64);
    key
}

fn brute_alts(hand: &[Card; 7], s: &SplitValues, alts: &[T]) -> Option<usize> {
    let (first, rest) = alts.split_first()?;
    let best = (0..SPLIT_COUNT)
        .filter(|&k| split_ok(hand, s, k, first))
        .max_by_key(|&k| objective_key(hand, s, k, first));
    match best {
        None => brute_alts(hand, s, rest),
        Some(k) if first.get("only_if_better_than").is_some() => match brute_alts(hand, s, rest) {
            Some(n) if s.front[n] >= s.front[k] => Some(n),
            _ => Some(k),
        },
        Some(k) => Some(k),
    }
}

fn brute_force(way: &T, hand: &[Card; 7], s: &SplitValues) -> (usize, usize) {
    for (r, rule) in way["rule"].as_array().unwrap().iter().enumerate() {
        if !when_holds(hand, s, rule.get("when")) {
            continue;
        }
        if let Some(k) = brute_alts(hand, s, rule["set"].as_array().unwrap()) {
            return (k, r);
        }
    }
    panic!("no rule set the hand");
}

#[test]
fn brute_force_interpreter_agrees_with_the_compiled_ways() {
    for (game_name, deck_seed) in [("standard", 3u64), ("double-joker", 5), ("jokers-wild", 9)] {
        let game = GameRules::load(game_name).unwrap();
        let ev = Evaluator::new(game.ranking);
        for (way_name, _, text) in SHIPPED_WAYS {
            let raw: T = toml::from_str(text).unwrap();
            let way = HouseWay::load(way_name).unwrap();
            for hand in sample_hands(game.deck, deck_seed).take(30_000) {
                let s = ev.split_values(&hand);
                let got = way.set(&hand, &s);
                let want = brute_force(&raw, &hand, &s);
                assert_eq!(
                    (got.split, got.rule),
                    want,
                    "{way_name} on {game_name}: {}",
                    Cards::from_cards(&hand)
                );
            }
        }
    }
}
