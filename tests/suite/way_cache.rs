//! The shape cache in front of a house way changes nothing a simulation can see: on every hand
//! the cached split has the same front and back values as the house way's own choice, and where
//! no suit can make a flush it is the very same split; a known setting (a hit with no split
//! search) is exactly what the split search and the way give.

use paigow::cards::{Card, Deck};
use paigow::eval::Evaluator;
use paigow::eval::split::KnownSetting;
use paigow::game::GameRules;
use paigow::strategy::Strategy;
use paigow::strategy::cached::CachedWay;
use paigow::strategy::way::HouseWay;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn random_hands(deck: Deck, n: usize, seed: u64) -> Vec<[Card; 7]> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let cards = deck.cards();
    (0..n)
        .map(|_| {
            let mut d = cards.clone();
            for i in 0..7 {
                let j = rng.random_range(i..d.len());
                d.swap(i, j);
            }
            let mut hand: [Card; 7] = d[..7].try_into().unwrap();
            hand.sort();
            hand
        })
        .collect()
}

fn flush_possible(hand: &[Card; 7]) -> bool {
    let jokers = hand.iter().filter(|c| c.is_joker()).count();
    (0..4).any(|s| hand.iter().filter(|c| c.suit() == Some(s)).count() + jokers >= 5)
}

#[test]
fn cached_settings_equal_the_house_way_on_every_sampled_hand() {
    for (game, ways) in [
        (
            "standard",
            &["foxwoods", "ballys-ac", "canterbury-park", "max-front"][..],
        ),
        ("double-joker", &["double-joker-dealer", "foxwoods"][..]),
        ("jokers-wild", &["foxwoods"][..]),
    ] {
        let game = GameRules::load(game).unwrap();
        let ev = Evaluator::new(game.ranking);
        let hands = random_hands(game.deck, 150_000, 42);
        for name in ways {
            let cached = CachedWay::new(HouseWay::load(name).unwrap());
            let direct = HouseWay::load(name).unwrap();
            let (mut hits_checked, mut flush_hands, mut known) = (0, 0, 0);
            // Twice over the same hands: the second pass answers from the cache.
            for pass in 0..2 {
                for hand in &hands {
                    let splits = ev.split_values(hand);
                    let want = direct.set(hand, &splits).split;
                    let got = cached.choose(hand, &splits, None);
                    assert!(splits.is_legal(got), "{name}: illegal cached split");
                    assert_eq!(
                        (splits.front[got], splits.back[got]),
                        (splits.front[want], splits.back[want]),
                        "{name} on {} pass {pass}",
                        game.name
                    );
                    if let Some(k) = cached.known_setting(hand) {
                        assert_eq!(k, KnownSetting::of_split(&splits, want), "{name}");
                        let mut reversed = *hand;
                        reversed.reverse();
                        assert_eq!(cached.known_setting(&reversed), Some(k), "any card order");
                        known += 1;
                    }
                    if flush_possible(hand) {
                        flush_hands += 1;
                    } else {
                        assert_eq!(got, want, "{name}: same split without a flush");
                    }
                    hits_checked += 1;
                }
            }
            assert!(flush_hands > 1_000, "{name}: flush shapes exercised");
            assert!(
                known > 150_000,
                "{name}: known settings exercised ({known})"
            );
            assert_eq!(hits_checked, 300_000);
        }
    }
}
