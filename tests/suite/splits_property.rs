//! The 21-split search over a large fixed-seed sample of random 7-card hands of each shipped
//! game's deck: every split's values are those of `value2`/`value5` on its cards, no two are ever
//! equal, legality agrees with the naive evaluator's comparison of the front and the back, the best
//! five is the best back, and every hand can be set legally.

use crate::common::naive;
use paigow::cards::{Card, Cards};
use paigow::eval::Evaluator;
use paigow::eval::split::{FRONT_POSITIONS, split_cards};
use paigow::game::GameRules;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

/// Hands per game checked against `value2`/`value5`.
const HANDS: u64 = 200_000;
/// Of those, hands also checked against the naive evaluator (slow with two jokers).
const NAIVE_HANDS: u64 = 4_000;
/// Hands per rayon chunk; chunk `i` uses the stream seeded with `SEED + i`.
const CHUNK: u64 = 10_000;
const SEED: u64 = 0x5EED_2024;

/// Seven distinct cards of `deck`, by a partial Fisher-Yates shuffle.
fn deal(deck: &mut [Card], rng: &mut Xoshiro256PlusPlus) -> [Card; 7] {
    for i in 0..7 {
        let j = rng.random_range(i..deck.len());
        deck.swap(i, j);
    }
    deck[..7].try_into().expect("seven cards")
}

/// Checks one hand; returns the number of legal splits.
fn check_hand(ev: &Evaluator, hand: &[Card; 7], with_naive: bool) -> usize {
    let ranking = ev.ranking();
    let values = ev.split_values(hand);
    let mut legal = 0;
    let mut best_back = None;
    for (k, &(i, j)) in FRONT_POSITIONS.iter().enumerate() {
        let (front, back) = split_cards(hand, k);
        assert_eq!(
            front,
            Cards::from_cards(&[hand[i as usize], hand[j as usize]])
        );
        assert_eq!(back.len(), 5);
        assert!(front.is_disjoint(back));
        let f = front.to_vec();
        assert_eq!(values.front[k], ev.value2(f[0], f[1]), "{hand:?} split {k}");
        assert_eq!(values.front[k], ev.value2(f[1], f[0]), "{hand:?} split {k}");
        assert_eq!(values.back[k], ev.value5(back), "{hand:?} split {k}");
        assert_ne!(values.front[k], values.back[k], "{hand:?} split {k}");
        best_back = best_back.max(Some(ev.value5(back)));
        if with_naive {
            let nf = naive::value2(f[0], f[1], ranking);
            let nb = naive::value5(&back.to_vec(), ranking);
            assert_eq!(
                values.is_legal(k),
                nf < nb,
                "{ranking:?}: {front} in front of {back}: naive {nf:?} vs {nb:?}"
            );
        }
        legal += usize::from(values.is_legal(k));
    }
    assert_eq!(Some(values.best_five()), best_back);
    assert_eq!(values.legal_splits().count(), legal);
    assert_eq!(FRONT_POSITIONS.len(), 21);
    legal
}

fn check_game(name: &str) {
    let game = GameRules::load(name).unwrap();
    let ev = Evaluator::new(game.ranking);
    let (hands, min_legal, hands_with_jokers) = (0..HANDS / CHUNK)
        .into_par_iter()
        .map(|chunk| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED + chunk);
            let mut deck = game.deck.cards();
            let mut out = (0u64, usize::MAX, 0u64);
            for n in 0..CHUNK {
                let hand = deal(&mut deck, &mut rng);
                let with_naive = n < NAIVE_HANDS / (HANDS / CHUNK);
                let legal = check_hand(&ev, &hand, with_naive);
                assert!(legal >= 1, "{name}: {hand:?} has no legal split");
                out.0 += 1;
                out.1 = out.1.min(legal);
                out.2 += u64::from(Cards::from_cards(&hand).jokers() > 0);
            }
            out
        })
        .reduce(
            || (0, usize::MAX, 0),
            |a, b| (a.0 + b.0, a.1.min(b.1), a.2 + b.2),
        );
    assert_eq!(hands, HANDS);
    assert!(min_legal >= 1);
    // The sample really exercises jokers: 7/53 (or about 2 * 7/54) of hands hold one.
    if game.deck.jokers() > 0 {
        assert!(
            hands_with_jokers > HANDS / 10,
            "{name}: {hands_with_jokers}"
        );
    }
}

#[test]
fn standard_splits() {
    check_game("standard");
}

#[test]
fn double_joker_splits() {
    check_game("double-joker");
}

#[test]
fn jokers_wild_splits() {
    check_game("jokers-wild");
}

#[test]
fn california_splits() {
    check_game("california");
}

/// Hands chosen to stress legality: two jokers, five aces, pairs that must go behind.
#[test]
fn hard_hands_always_have_a_legal_split() {
    for name in ["standard", "double-joker", "jokers-wild"] {
        let game = GameRules::load(name).unwrap();
        let ev = Evaluator::new(game.ranking);
        for text in [
            "Jk Jk Ac Ad Ah As Kc",
            "Jk Jk 2c 3d 4h 5s 7c",
            "Jk Ac Ad Ah As Kc Kd",
            "Jk Jk Ac Ad 2h 2s 3c",
            "Ac Ad Kh Ks Qc Qd 2h",
            "Jk 2c 3d 4h 5s 6c 7d",
            "Jk Jk 9s 8s 7s 6s 5s",
        ] {
            let Ok(cards) = game.deck.parse_hand(text, 7) else {
                // Two-joker hands do not exist in a one-joker deck.
                assert!(text.matches("Jk").count() > game.deck.jokers() as usize);
                continue;
            };
            let hand: [Card; 7] = cards.try_into().unwrap();
            assert!(check_hand(&ev, &hand, true) >= 1, "{name}: {text}");
        }
    }
}
