//! The main-wager rules a game file can state beyond the standard game (a double copy that
//! pushes, a dealer's ace-high pai gow or 9-high front that pushes), counted by every engine
//! that settles through the game's table and held to brute force written from the rules as
//! stated, not from the table: `exact main` on reduced decks, `set --exact`'s pricer and the
//! optimal grid hand by hand.

use std::collections::HashSet;

use paigow::cards::{Card, Cards, Deck};
use paigow::combin::for_each_subset;
use paigow::engine::exact_main::{self, PairCounts, Progress};
use paigow::eval::split::SplitValues;
use paigow::eval::{Category, Evaluator, Value};
use paigow::game::GameRules;
use paigow::game::settlement::DealerClass;
use paigow::game::wager::{DealerHand, MainWager, Outcome, OutcomeCounts};
use paigow::strategy::deck_shapes::SuitDeck;
use paigow::strategy::optimal::grid::{DealerCounts, DealerGrid, ValueIndex};
use paigow::strategy::optimal::hand::outcome_counts;
use paigow::strategy::optimal::pricer::HandPricer;
use paigow::strategy::resolve::resolve;
use paigow::strategy::{Strategy, set_dealer};

/// Aces, deuces, treys and fours.
const A234: u16 = 0b1_0000_0000_0111;
/// Deuces, treys, fours and nines: a 9-high front happens.
const NINE_234: u16 = 0b0_0000_1000_0111;
/// Six ranks no four of which fit in a straight: with the joker as the ace, a pai gow happens.
const GAPPED_SIX: u16 = 0b0_0101_0101_0101;

/// The standard game with a double copy that pushes: a test-only game file.
fn double_copy_game() -> GameRules {
    let text = std::fs::read_to_string("games/standard.toml").unwrap();
    GameRules::from_toml(
        &format!("{text}double_copy = \"push\"\n"),
        "tests/double-copy.toml",
    )
    .unwrap()
}

/// A game's dealer rules as stated, from the dealer's seven cards and set front value.
struct DealerRules {
    rule: Option<&'static str>,
    /// Every 9-high two-card value: no pair, no joker, a nine the higher card.
    nine_high_fronts: HashSet<Value>,
}

impl DealerRules {
    fn of(game: &GameRules, ev: &Evaluator) -> DealerRules {
        let cards = Deck::with_jokers(0).unwrap().cards();
        let mut nine_high_fronts = HashSet::new();
        for (i, &a) in cards.iter().enumerate() {
            for &b in &cards[i + 1..] {
                let (ra, rb) = (a.rank().unwrap(), b.rank().unwrap());
                if ra != rb && ra.max(rb) == 7 {
                    nine_high_fronts.insert(ev.value2(a, b));
                }
            }
        }
        let rule = match game.origin.as_str() {
            "games/face-up.toml" => Some("ace-high pai gow"),
            "games/commission-free.toml" => Some("9-high front"),
            _ => None,
        };
        DealerRules {
            rule,
            nine_high_fronts,
        }
    }

    /// Whether the dealer's hand pushes every bet.
    fn pushes(&self, ev: &Evaluator, hand: &[Card; 7], dealer: &DealerHand) -> bool {
        match self.rule {
            Some("ace-high pai gow") => {
                let pai_gow = ev.best_five_of_seven(hand).category() == Category::HighCard;
                let ace = hand.iter().any(|c| c.rank().is_none_or(|r| r == 12));
                pai_gow && ace
            }
            Some(_) => self.nine_high_fronts.contains(&dealer.setting.front),
            None => false,
        }
    }
}

/// A legal player setting against a dealer who plays, by the rules as written.
fn compared(front: Value, back: Value, dealer: &DealerHand, wager: &MainWager) -> Outcome {
    let d = dealer.setting;
    let double_copy_pushes = format!("{:?}", wager.double_copy) == "Push";
    if front > d.front && back > d.back {
        Outcome::Win
    } else if front > d.front
        || back > d.back
        || (front == d.front && back == d.back && double_copy_pushes)
    {
        Outcome::Push
    } else if front == d.front || back == d.back {
        Outcome::CopyLoss
    } else {
        Outcome::Loss
    }
}

/// One dealer hand as the rules as written settle against it.
struct Dealer {
    cards: u64,
    hand: DealerHand,
    pushes: bool,
}

fn dealer_with(
    rules: &DealerRules,
    game: &GameRules,
    ev: &Evaluator,
    way: &dyn Strategy,
    hand: &[Card; 7],
) -> Dealer {
    let set = set_dealer(ev, way, &game.main_wager, hand);
    Dealer {
        cards: Cards::from_cards(hand).0,
        pushes: rules.pushes(ev, hand, &set),
        hand: set,
    }
}

/// The outcome of split `k` against `d`, by the rules as written (no overqualifier in these
/// games).
fn as_written(splits: &SplitValues, k: usize, d: &Dealer, wager: &MainWager) -> Outcome {
    if !splits.is_legal(k) {
        Outcome::Foul
    } else if d.pushes {
        Outcome::NotQualified
    } else {
        compared(splits.front[k], splits.back[k], &d.hand, wager)
    }
}

/// Every hand of a reduced deck.
fn hands_of(deck: SuitDeck) -> Vec<[Card; 7]> {
    let cards = deck.cards();
    let mut hands = Vec::new();
    for_each_subset(cards.len(), 7, |p| {
        hands.push(std::array::from_fn(|i| cards[p[i]]))
    });
    hands
}

/// Every ordered pair of disjoint hands of `deck`, both set by `way`, settled as written.
fn brute_force(game: &GameRules, deck: SuitDeck, way: &str) -> PairCounts {
    let ev = Evaluator::new(game.ranking);
    let way = resolve(way, game).unwrap();
    let rules = DealerRules::of(game, &ev);
    let hands = hands_of(deck);
    let dealers: Vec<Dealer> = (hands.iter())
        .map(|h| dealer_with(&rules, game, &ev, &*way.strategy, h))
        .collect();
    let mut counts = PairCounts::default();
    for hand in &hands {
        let splits = ev.split_values(hand);
        let k = way.strategy.choose(hand, &splits, None);
        let held = Cards::from_cards(hand).0;
        for d in dealers.iter().filter(|d| d.cards & held == 0) {
            counts.classes[as_written(&splits, k, d, &game.main_wager).index()] += 1;
        }
    }
    counts
}

fn exact(game: &GameRules, deck: SuitDeck, way: &str) -> PairCounts {
    let way = resolve(way, game).unwrap();
    let strategy = &*way.strategy;
    (exact_main::count(game, deck, strategy, strategy, &Progress::silent()).unwrap())
        .exact
        .counts
}

#[test]
fn a_double_copy_that_pushes_is_counted_by_exact_main_as_brute_force_counts_it() {
    let game = double_copy_game();
    let standard = GameRules::load("standard").unwrap();
    let deck = SuitDeck::new(A234, 1).unwrap();
    let counted = exact(&game, deck, "foxwoods");
    assert_eq!(counted, brute_force(&game, deck, "foxwoods"));
    let before = exact(&standard, deck, "foxwoods");
    let double_copies = before.get(Outcome::CopyLoss) - counted.get(Outcome::CopyLoss);
    assert!(double_copies > 0, "no double copy on the reduced deck");
    assert_eq!(
        counted.get(Outcome::Push),
        before.get(Outcome::Push) + double_copies
    );
    eprintln!(
        "A234 + joker, foxwoods both: {} copy-losses and {double_copies} double copies",
        counted.get(Outcome::CopyLoss)
    );
}

#[test]
fn a_dealer_9_high_front_is_counted_by_exact_main_as_brute_force_counts_it() {
    let game = GameRules::load("commission-free").unwrap();
    let deck = SuitDeck::new(NINE_234, 1).unwrap();
    for way in ["foxwoods", "max-back"] {
        let counted = exact(&game, deck, way);
        assert_eq!(counted, brute_force(&game, deck, way), "{way}");
        assert!(
            counted.get(Outcome::NotQualified) > 0,
            "{way}: never 9-high"
        );
        assert!(counted.get(Outcome::Win) > 0 && counted.get(Outcome::CopyLoss) > 0);
    }
}

/// Prices of each legal split of `hand` against every dealer hand of the deck's other cards,
/// by the rules as written.
fn priced_as_written(
    game: &GameRules,
    ev: &Evaluator,
    dealers: &[Dealer],
    hand: &[Card; 7],
) -> Vec<(usize, OutcomeCounts)> {
    let splits = ev.split_values(hand);
    let held = Cards::from_cards(hand).0;
    (splits.legal_splits())
        .map(|k| {
            let mut counts = OutcomeCounts::default();
            for d in dealers.iter().filter(|d| d.cards & held == 0) {
                counts.record(as_written(&splits, k, d, &game.main_wager));
            }
            (k, counts)
        })
        .collect()
}

/// `set --exact`'s pricer against the rules as written, hand by hand (every `step`th hand).
fn pricer_agrees(game: &GameRules, deck: SuitDeck, way: &str, step: usize) -> OutcomeCounts {
    let ev = Evaluator::new(game.ranking);
    let way = resolve(way, game).unwrap();
    let hands = hands_of(deck);
    let rules = DealerRules::of(game, &ev);
    let dealers: Vec<Dealer> = (hands.iter())
        .map(|h| dealer_with(&rules, game, &ev, &*way.strategy, h))
        .collect();
    let pricer = HandPricer::with_deck(game, deck, &*way.strategy);
    let mut seen = OutcomeCounts::default();
    for hand in hands.iter().step_by(step) {
        let splits = ev.split_values(hand);
        let priced = pricer.hand_exact(&splits, hand);
        for (k, expected) in priced_as_written(game, &ev, &dealers, hand) {
            let setting = priced.setting(k).unwrap();
            assert_eq!(
                priced.outcomes(setting, &game.main_wager),
                expected,
                "{hand:?} split {k}"
            );
            seen.add(&expected);
        }
    }
    seen
}

#[test]
fn set_exact_prices_a_double_copy_and_a_dealer_push_as_written() {
    let seen = pricer_agrees(
        &double_copy_game(),
        SuitDeck::new(A234, 1).unwrap(),
        "foxwoods",
        7,
    );
    assert!(seen.get(Outcome::Push) > 0 && seen.get(Outcome::CopyLoss) > 0);
    let game = GameRules::load("commission-free").unwrap();
    let seen = pricer_agrees(&game, SuitDeck::new(NINE_234, 1).unwrap(), "foxwoods", 11);
    assert!(seen.get(Outcome::NotQualified) > 0);
}

/// Face Up's rule needs seven ranks or six and the joker: exact main's brute force would be
/// 10^10 pairs, so the pricer is checked hand by hand on a sample.
#[test]
fn a_dealer_ace_high_pai_gow_is_priced_as_written() {
    let game = GameRules::load("face-up").unwrap();
    assert!(game.main_wager.dealer_exposed);
    let seen = pricer_agrees(
        &game,
        SuitDeck::new(GAPPED_SIX, 1).unwrap(),
        "foxwoods",
        24_001,
    );
    assert!(
        seen.get(Outcome::NotQualified) > 0,
        "never an ace-high pai gow"
    );
}

/// The optimal grid (`optimal:D`'s table: every dealer hand of the deck, no card removal)
/// prices a setting as the rules as written do.
#[test]
fn the_optimal_grid_prices_a_double_copy_as_written() {
    let game = double_copy_game();
    let ev = Evaluator::new(game.ranking);
    let deck = SuitDeck::new(A234, 1).unwrap();
    let way = resolve("foxwoods", &game).unwrap();
    let index = std::sync::Arc::new(ValueIndex::of(&ev, game.deck));
    let hands = hands_of(deck);
    let rules = DealerRules::of(&game, &ev);
    let dealers: Vec<Dealer> = (hands.iter())
        .map(|h| dealer_with(&rules, &game, &ev, &*way.strategy, h))
        .collect();
    let mut counts = DealerCounts::new(&index);
    dealers.iter().for_each(|d| counts.add(&index, &d.hand));
    let (not_qualified, overqualified) = (counts.not_qualified, counts.overqualified);
    let grid = DealerGrid::new(index, counts);
    let mut double_copies = 0;
    for hand in hands.iter().step_by(97) {
        let splits = ev.split_values(hand);
        for k in splits.legal_splits() {
            let cells = grid.cells(splits.front[k], splits.back[k]);
            let priced = outcome_counts(&cells, not_qualified, overqualified, &game.main_wager);
            let mut expected = OutcomeCounts::default();
            for d in &dealers {
                let outcome = as_written(&splits, k, d, &game.main_wager);
                expected.record(outcome);
                let tie = (splits.front[k], splits.back[k])
                    == (d.hand.setting.front, d.hand.setting.back);
                double_copies += u64::from(tie && d.hand.class == DealerClass::Plays);
            }
            assert_eq!(priced, expected, "{hand:?} split {k}");
        }
    }
    assert!(double_copies > 0);
}

#[test]
fn the_new_rules_are_refused_where_they_do_not_fit_with_the_line_named() {
    let text =
        "name = \"x\"\ndeck = 53\n\n[main_wager]\ndealer_exposed = true\ndouble_copy = \"push\"\n";
    let err = GameRules::from_toml(text, "x.toml")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("x.toml") && err.contains("double_copy"),
        "{err}"
    );
    // At the double_copy key's line (once the table's header, line 4).
    assert!(err.contains("x.toml:6:"), "{err}");
    let text = "name = \"x\"\ndeck = 53\n\n[main_wager]\ndouble_copy = \"tie\"\n";
    let err = GameRules::from_toml(text, "x.toml")
        .unwrap_err()
        .to_string();
    assert!(err.contains("x.toml") && err.contains("push"), "{err}");
    let text = "name = \"x\"\ndeck = 53\n\n[main_wager]\ndealer_qualifies = \"not_ten_high\"\n";
    let err = GameRules::from_toml(text, "x.toml")
        .unwrap_err()
        .to_string();
    assert!(err.contains("not_nine_high_front"), "{err}");
}
