//! `exact main` through the library: on reduced decks (fewer ranks, four suits, the game's rules
//! and real house ways) every ordered pair of disjoint hands is settled by brute force
//! (`engine::brute_main`, which `paigow self-test` also runs), with the strategies and `settle`
//! the simulator uses, and the inclusion-exclusion must give the same
//! counts to the unit; then exact against a small Monte Carlo for every shipped game and way.

use paigow::cards::Card;
use paigow::cards::deal::{below, chunk_rng};
use paigow::combin::for_each_subset;
use paigow::engine::brute_main;
use paigow::engine::exact_main::{self, MainExact, Progress};
use paigow::eval::Evaluator;
use paigow::game::GameRules;
use paigow::game::wager::{Outcome, settle};
use paigow::strategy::deck_shapes::{Shapes, SuitDeck};
use paigow::strategy::resolve::{Detail, Resolved, resolve};
use paigow::strategy::{Strategy, set_dealer};

/// Aces, deuces, treys and fours (wheels and joker straights happen).
const A234: u16 = 0b1_0000_0000_0111;

/// The player's and the dealer's strategies by name. `full-deck-optimal:foxwoods` (standard game only) is
/// the shared fixture's, built in memory: `resolve` would write its table into the user's cache.
fn strategies(game: &GameRules, player: &str, dealer: &str) -> (Resolved, Resolved) {
    let player = match player {
        "full-deck-optimal:foxwoods" => {
            let f = crate::optimal::fixture();
            assert_eq!(game.name, f.game.name, "the fixture is the standard game's");
            Resolved {
                label: player.to_string(),
                strategy: Box::new(f.optimal.clone()),
                detail: Detail::FullDeckOptimal(f.optimal.clone()),
                sources: Vec::new(),
            }
        }
        _ => resolve(player, game).unwrap(),
    };
    (player, resolve(dealer, game).unwrap())
}

fn exact(game: &GameRules, deck: SuitDeck, player: &Resolved, dealer: &Resolved) -> MainExact {
    exact_main::count(
        game,
        deck,
        &*player.strategy,
        &*dealer.strategy,
        &Progress::silent(),
    )
    .unwrap()
    .exact
}

#[test]
fn reduced_decks_count_every_pair_as_brute_force_does() {
    let cases = [
        ("standard", "foxwoods", "foxwoods", 1),
        ("standard", "max-front", "ballys-ac", 1),
        ("jokers-wild", "canterbury-park", "max-back", 1),
        ("double-joker", "double-joker-dealer", "foxwoods", 2),
        (
            "double-joker",
            "exposed:double-joker-dealer",
            "double-joker-dealer",
            1,
        ),
    ];
    for (game_name, player, dealer, jokers) in cases {
        let game = GameRules::load(game_name).unwrap();
        let deck = SuitDeck::new(A234, jokers).unwrap();
        let (p, d) = strategies(&game, player, dealer);
        let counted = exact(&game, deck, &p, &d);
        let brute = brute_main::count(&game, deck, &*p.strategy, &*d.strategy);
        assert_eq!(counted.counts, brute, "{game_name}: {player} vs {dealer}");
        assert!(brute.get(Outcome::Win) > 0 && brute.get(Outcome::CopyLoss) > 0);
    }
}

#[test]
/// (A dealer without a pair needs seven ranks, a deck beyond brute force: the core's random
/// settings cover that class.)
fn the_double_joker_rules_meet_both_jokers_and_the_overqualifier_on_a_reduced_deck() {
    let game = GameRules::load("double-joker").unwrap();
    let deck = SuitDeck::new(0b1_1000_0000_0001, 2).unwrap();
    let (p, d) = strategies(&game, "exposed", "double-joker-dealer");
    let counted = exact(&game, deck, &p, &d);
    let brute = brute_main::count(&game, deck, &*p.strategy, &*d.strategy);
    assert_eq!(counted.counts, brute);
    for class in [Outcome::Win, Outcome::Overqualified, Outcome::Push] {
        assert!(brute.get(class) > 0, "{class:?} never happens");
    }
}

/// Shapes set by a strategy answer for every hand of the shape, way by way.
#[test]
fn every_hand_is_set_as_its_shape_is() {
    use paigow::engine::exact_main::settings::Setters;
    use paigow::strategy::optimal::grid::ValueIndex;
    for (game_name, ways) in [
        (
            "standard",
            &[
                "foxwoods",
                "ballys-ac",
                "canterbury-park",
                "max-back",
                "max-front",
            ][..],
        ),
        ("double-joker", &["double-joker-dealer", "exposed"][..]),
        ("jokers-wild", &["foxwoods"][..]),
    ] {
        let game = GameRules::load(game_name).unwrap();
        let ev = Evaluator::new(game.ranking);
        let index = ValueIndex::of(&ev, game.deck);
        let shapes = Shapes::new(SuitDeck::of(game.deck));
        for way in ways {
            let player = resolve(way, &game).unwrap();
            let dealer = resolve("max-back", &game).unwrap();
            let setters = Setters {
                ev: &ev,
                index: &index,
                wager: &game.main_wager,
                player: &*player.strategy,
                dealer: &*dealer.strategy,
            };
            for hand in paigow::cards::deal::sample_hands(game.deck, 11).take(20_000) {
                let rep = shapes.representative(shapes.id_of(&hand) as usize).unwrap();
                let (hs, rs) = (ev.split_values(&hand), ev.split_values(&rep));
                assert_eq!(
                    setters.player_hand(&hand, &hs),
                    setters.player_hand(&rep, &rs),
                    "{way}: {hand:?}"
                );
                assert_eq!(
                    setters.dealer_point(&hand, &hs),
                    setters.dealer_point(&rep, &rs),
                    "{hand:?}"
                );
            }
        }
    }
}

/// A Monte Carlo of the reduced deck: deal both hands from a shuffled deck, settle as the
/// simulator does; the player's mean net per bet and its standard error.
fn monte_carlo(
    game: &GameRules,
    deck: SuitDeck,
    p: &dyn Strategy,
    d: &dyn Strategy,
    rounds: u64,
) -> (f64, f64) {
    let ev = Evaluator::new(game.ranking);
    let mut cards = deck.cards();
    let mut rng = chunk_rng(20_260_101, 0);
    let exact_units = |o: Outcome| o.units(&game.main_wager) - game.main_wager.fee_units();
    let (mut sum, mut squares) = (0f64, 0f64);
    for _ in 0..rounds {
        for i in 0..14 {
            let j = i + below(&mut rng, (cards.len() - i) as u64) as usize;
            cards.swap(i, j);
        }
        let sorted = |s: &[Card]| {
            let mut h: [Card; 7] = s.try_into().unwrap();
            h.sort();
            h
        };
        let (player, dealer) = (sorted(&cards[..7]), sorted(&cards[7..14]));
        let dealer_hand = set_dealer(&ev, d, &game.main_wager, &dealer);
        let splits = ev.split_values(&player);
        let shown = game
            .main_wager
            .dealer_exposed
            .then_some(dealer_hand.setting);
        let k = p.choose(&player, &splits, shown);
        let net = exact_units(settle(&splits, k, &dealer_hand)) as f64 / 10_000.0;
        sum += net;
        squares += net * net;
    }
    let n = rounds as f64;
    let mean = sum / n;
    (mean, ((squares / n - mean * mean) / n).sqrt())
}

#[test]
fn exact_and_monte_carlo_agree_for_every_shipped_game_and_way() {
    let deck_ranks = 0b1_1000_0000_0111;
    for (game_name, ways) in [
        (
            "standard",
            &[
                "foxwoods",
                "ballys-ac",
                "canterbury-park",
                "max-back",
                "max-front",
                "full-deck-optimal:foxwoods",
            ][..],
        ),
        ("california", &["foxwoods", "canterbury-park"][..]),
        ("jokers-wild", &["foxwoods", "ballys-ac"][..]),
        (
            "double-joker",
            &["double-joker-dealer", "exposed", "exposed:foxwoods"][..],
        ),
    ] {
        let game = GameRules::load(game_name).unwrap();
        let deck = SuitDeck::new(deck_ranks, game.deck.jokers()).unwrap();
        let dealer_name = if game_name == "double-joker" {
            "double-joker-dealer"
        } else {
            "foxwoods"
        };
        for way in ways {
            let (p, d) = strategies(&game, way, dealer_name);
            let exact = exact(&game, deck, &p, &d);
            let (mean, se) = monte_carlo(&game, deck, &*p.strategy, &*d.strategy, 40_000);
            let z = exact.standard_errors(mean, se);
            assert!(
                z.abs() < 3.0,
                "{game_name} {way}: exact {} vs Monte Carlo {mean} ± {se} ({z:.2} SE)",
                exact.player_ev()
            );
        }
    }
}

/// One hand priced by shape counts against dealing every dealer hand of the other cards.
#[test]
fn a_hand_is_priced_as_enumerating_every_dealer_hand_prices_it() {
    use paigow::strategy::optimal::hand::by_enumeration;
    use paigow::strategy::optimal::pricer::HandPricer;
    for (game_name, dealer_name, hand) in [
        ("standard", "foxwoods", "As Ks Qs 9s 4s Jk 4d"),
        (
            "double-joker",
            "double-joker-dealer",
            "Ah Ad Jk Jk 7c 7s 2h",
        ),
    ] {
        let game = GameRules::load(game_name).unwrap();
        let ev = Evaluator::new(game.ranking);
        let dealer = resolve(dealer_name, &game).unwrap();
        let pricer = HandPricer::new(&game, &*dealer.strategy);
        let hand = game.deck.parse_hand7(hand).unwrap();
        let splits = ev.split_values(&hand);
        let fast = pricer.hand_exact(&splits, &hand);
        let slow = by_enumeration(&ev, &game.main_wager, game.deck, &*dealer.strategy, &hand);
        assert_eq!(fast, slow, "{game_name}: {hand:?}");
    }
}

#[test]
fn hands_of_a_reduced_deck_are_priced_as_brute_force_prices_them() {
    use paigow::strategy::optimal::pricer::HandPricer;
    for (game_name, jokers) in [("standard", 1), ("double-joker", 2)] {
        let game = GameRules::load(game_name).unwrap();
        let ev = Evaluator::new(game.ranking);
        let deck = SuitDeck::new(0b1_1000_0000_0111, jokers).unwrap();
        let dealer = resolve("max-front", &game).unwrap();
        let pricer = HandPricer::with_deck(&game, deck, &*dealer.strategy);
        let cards = deck.cards();
        let mut n = 0;
        for_each_subset(cards.len(), 7, |p| {
            n += 1;
            if n % 97 != 0 {
                return;
            }
            let hand: [Card; 7] = std::array::from_fn(|i| cards[p[i]]);
            let mut counts = paigow::strategy::optimal::grid::DealerCounts::new(pricer.index());
            let rest: Vec<Card> = cards
                .iter()
                .copied()
                .filter(|c| !hand.contains(c))
                .collect();
            for_each_subset(rest.len(), 7, |q| {
                let d: [Card; 7] = std::array::from_fn(|i| rest[q[i]]);
                counts.add(
                    pricer.index(),
                    &set_dealer(&ev, &*dealer.strategy, &game.main_wager, &d),
                );
            });
            assert_eq!(pricer.dealer_counts(&hand), counts, "{game_name}: {hand:?}");
        });
    }
}

/// EZ Pai Gow: a dealer's queen-high pai gow pushes every bet. On a deck of 2, 3, 4, 6, 7, 9 and
/// Q in four suits and the joker (no five ranks in a row), a queen-high pai gow is one card of
/// each of the seven ranks, no joker, and no five of a suit: 4^7 - 4 (C(7,5) 3^2 + C(7,6) 3 + 1)
/// = 15,540 dealer hands, each against C(22, 7) player hands. The push class is exactly that,
/// and the EV agrees with a Monte Carlo.
#[test]
fn ez_pai_gow_pushes_on_a_dealers_queen_high_pai_gow() {
    let game = GameRules::load("ez-pai-gow").unwrap();
    let deck = SuitDeck::new(0b100_1011_0111, 1).unwrap();
    let (p, d) = strategies(&game, "foxwoods", "foxwoods");
    let counted = exact(&game, deck, &p, &d);
    let queen_high = 4u64.pow(7) - 4 * (21 * 9 + 7 * 3 + 1);
    assert_eq!(queen_high, 15_540);
    assert_eq!(
        counted.counts.get(Outcome::NotQualified),
        queen_high * 170_544
    );
    let (mean, se) = monte_carlo(&game, deck, &*p.strategy, &*d.strategy, 40_000);
    let z = counted.standard_errors(mean, se);
    assert!(
        z.abs() < 3.0,
        "exact {} vs {mean} ± {se}",
        counted.player_ev()
    );
}
