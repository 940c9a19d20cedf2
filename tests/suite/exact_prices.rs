//! The price table (every setting of every shape, summed over the shape's hands) against brute
//! force: every hand of a reduced deck priced by dealing every dealer hand of the cards it leaves.

use std::collections::HashMap;

use crate::common::report_rows::csv_rows;
use paigow::cards::Card;
use paigow::combin::for_each_subset;
use paigow::eval::Evaluator;
use paigow::game::GameRules;
use paigow::game::settlement::{CELLS, DealerClass, cell_of};
use paigow::strategy::deck_shapes::{Shapes, SuitDeck};
use paigow::strategy::optimal::grid::ValueIndex;
use paigow::strategy::optimal::pricer::HandPricer;
use paigow::strategy::optimal::prices::ShapePrices;
use paigow::strategy::resolve::resolve;
use paigow::strategy::{Strategy, set_dealer};
use predicates::prelude::PredicateBooleanExt;

/// Per shape id: hands, dealer hands by class, and per (front, back) index the cells.
#[derive(Default, Debug, PartialEq, Eq)]
struct Summed {
    hands: u64,
    dealer_hands: u64,
    not_qualified: u64,
    overqualified: u64,
    settings: Vec<([u16; 2], [u64; CELLS])>,
}

fn from_table(prices: &[ShapePrices]) -> HashMap<u32, Summed> {
    (prices.iter())
        .map(|p| {
            let settings = (p.settings.iter())
                .map(|s| ([s.front, s.back], s.cells))
                .collect();
            let summed = Summed {
                hands: p.hands,
                dealer_hands: p.dealer_hands,
                not_qualified: p.not_qualified,
                overqualified: p.overqualified,
                settings,
            };
            (p.id, summed)
        })
        .collect()
}

/// Every hand of `deck` priced by dealing every dealer hand of the cards it leaves, summed by
/// shape and setting value.
fn by_brute_force(game: &GameRules, deck: SuitDeck, dealer: &dyn Strategy) -> HashMap<u32, Summed> {
    let ev = Evaluator::new(game.ranking);
    let index = ValueIndex::of(&ev, game.deck);
    let shapes = Shapes::new(deck);
    let cards = deck.cards();
    let mut out: HashMap<u32, Summed> = HashMap::new();
    for_each_subset(cards.len(), 7, |p| {
        let hand: [Card; 7] = std::array::from_fn(|i| cards[p[i]]);
        let splits = ev.split_values(&hand);
        let mut points: Vec<(usize, [u16; 2])> = (splits.legal_splits())
            .map(|k| {
                let f = index.front(splits.front[k]) as u16;
                (k, [f, index.back(splits.back[k]) as u16])
            })
            .collect();
        points.sort_unstable_by_key(|&(_, [f, b])| (b, f));
        points.dedup_by_key(|&mut (_, point)| point);
        let summed = out.entry(shapes.id_of(&hand)).or_default();
        if summed.settings.is_empty() {
            summed.settings = points.iter().map(|&(_, p)| (p, [0; CELLS])).collect();
        }
        summed.hands += 1;
        let rest: Vec<Card> = cards
            .iter()
            .copied()
            .filter(|c| !hand.contains(c))
            .collect();
        for_each_subset(rest.len(), 7, |q| {
            let d: [Card; 7] = std::array::from_fn(|i| rest[q[i]]);
            let set = set_dealer(&ev, dealer, &game.main_wager, &d);
            summed.dealer_hands += 1;
            match set.class {
                DealerClass::NotQualified => summed.not_qualified += 1,
                DealerClass::Overqualified => summed.overqualified += 1,
                DealerClass::Plays => {
                    for (i, &(k, _)) in points.iter().enumerate() {
                        let (f, b) = (splits.front[k], splits.back[k]);
                        summed.settings[i].1[cell_of(f, b, set.setting.front, set.setting.back)] +=
                            1;
                    }
                }
            }
        });
    });
    out
}

#[test]
fn every_setting_of_every_shape_is_the_sum_of_its_hands_brute_force_prices() {
    for (game_name, dealer, ranks, jokers) in [
        ("standard", "foxwoods", 0b1_0000_0000_0111u16, 1u8),
        ("double-joker", "double-joker-dealer", 0b1_0000_0000_0111, 2),
    ] {
        let game = GameRules::load(game_name).unwrap();
        let deck = SuitDeck::new(ranks, jokers).unwrap();
        let dealer = resolve(dealer, &game).unwrap();
        let pricer = HandPricer::with_deck(&game, deck, &*dealer.strategy);
        let ev = Evaluator::new(game.ranking);
        let table = from_table(&pricer.shape_prices(&ev, &|_| ()));
        let brute = by_brute_force(&game, deck, &*dealer.strategy);
        assert_eq!(table.len(), brute.len(), "{game_name}: shapes");
        for (id, summed) in &brute {
            assert_eq!(table.get(id), Some(summed), "{game_name}: shape {id}");
        }
    }
}

/// A way priced from the table (each shape at the way's setting) counts every (player, dealer)
/// pair as the inclusion-exclusion engine of `exact main` does, to the unit, for every shipped
/// way (max-back and max-front among them), on reduced decks with one and two jokers.
#[test]
fn a_way_priced_from_the_table_counts_what_exact_main_counts() {
    use paigow::engine::exact_main::{self, Progress};
    use paigow::strategy::optimal::prices::PriceTable;
    for (game_name, dealer, jokers) in [
        ("standard", "foxwoods", 1u8),
        ("double-joker", "double-joker-dealer", 2),
    ] {
        let game = GameRules::load(game_name).unwrap();
        let deck = SuitDeck::new(0b1_0000_0000_0111, jokers).unwrap();
        let dealer = resolve(dealer, &game).unwrap();
        let pricer = HandPricer::with_deck(&game, deck, &*dealer.strategy);
        let ev = Evaluator::new(game.ranking);
        let table = PriceTable::build(&pricer, &ev, &|_| ());
        let shapes = Shapes::new(deck);
        assert_eq!(table.hands(), paigow::combin::choose(deck.size() as u64, 7));
        for (way, _, _) in paigow::strategy::way::SHIPPED_WAYS {
            let player = resolve(way, &game).unwrap();
            let priced = table.price_way(&ev, &shapes, &*player.strategy, &game.main_wager);
            let counted = exact_main::count(
                &game,
                deck,
                &*player.strategy,
                &*dealer.strategy,
                &Progress::silent(),
            )
            .unwrap()
            .exact
            .counts;
            assert_eq!(priced.0, counted.classes, "{game_name}: {way}");
        }
    }
}

fn prices_cli(threads: &str, dir: &std::path::Path) {
    crate::common::cli::paigow()
        .args([
            "exact",
            "prices",
            "--dealer-way",
            "foxwoods",
            "--ranks",
            "A234",
        ])
        .args(["--quiet", "--threads", threads, "--out"])
        .arg(dir)
        .assert()
        .success();
}

/// `exact prices` on a reduced deck: the same bytes at any thread count; one row per shape with
/// the best setting at least as good as the second and the gap their difference, exactly; each
/// way's EV in the summary equal to `exact main`'s for it; the optimum at least every way's.
#[test]
fn the_prices_command_reports_every_shape_and_prices_ways_as_exact_main_does() {
    use paigow::engine::exact_main::Fraction;
    let (one, two, main) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    prices_cli("1", one.path());
    prices_cli("2", two.path());
    for file in ["shapes.csv", "summary.csv"] {
        let read = |d: &tempfile::TempDir| std::fs::read(d.path().join(file)).unwrap();
        assert_eq!(read(&one), read(&two), "{file} at 1 and 2 threads");
    }
    let fraction = |s: &str| -> Fraction {
        let (n, d) = s.split_once('/').unwrap();
        Fraction::new(n.parse().unwrap(), d.parse().unwrap())
    };
    let minus = |a: Fraction, b: Fraction| {
        Fraction::new(
            a.numerator * b.denominator - b.numerator * a.denominator,
            a.denominator * b.denominator,
        )
    };
    let shapes = csv_rows(&one.path().join("shapes.csv"));
    let deck = SuitDeck::new(0b1_0000_0000_0111, 1).unwrap();
    let listed = Shapes::new(deck);
    let ids = listed.dealt_ids();
    assert_eq!(shapes.len() - 1, ids.count(), "one row per shape");
    let hands: u64 = shapes[1..]
        .iter()
        .map(|r| r[2].parse::<u64>().unwrap())
        .sum();
    assert_eq!(hands, 19_448, "every hand of 17 cards");
    for row in &shapes[1..] {
        if row[8] != "-" {
            let (best, second): (f64, f64) = (row[6].parse().unwrap(), row[10].parse().unwrap());
            let gap = fraction(&row[12]);
            assert!(gap.numerator >= 0 && best >= second, "{row:?}");
            let second_exact = minus(fraction(&row[7]), gap).to_f64();
            assert!((second_exact - second).abs() < 1e-9, "{row:?}");
        }
    }
    let summary = csv_rows(&one.path().join("summary.csv"));
    let optimum = fraction(&summary[1][2]);
    for row in &summary[2..] {
        let below = minus(optimum, fraction(&row[2]));
        assert!(below.numerator >= 0, "{row:?}");
        assert_eq!(fraction(&row[5]), below, "{row:?}");
    }
    for way in ["foxwoods", "max-front"] {
        crate::common::cli::paigow()
            .args([
                "exact",
                "main",
                "--player-way",
                way,
                "--dealer-way",
                "foxwoods",
            ])
            .args(["--ranks", "A234", "--quiet", "--out"])
            .arg(main.path())
            .assert()
            .success();
        let exact = csv_rows(&main.path().join("summary.csv"));
        let priced = summary.iter().find(|r| r[0] == way).unwrap();
        assert_eq!(priced[2], exact[1][5], "{way}: the table and exact main");
    }
}

#[test]
fn a_dealer_who_sees_the_player_is_refused_by_name() {
    crate::common::cli::paigow()
        .args([
            "exact",
            "prices",
            "--dealer-way",
            "optimal:foxwoods",
            "--ranks",
            "A234",
        ])
        .assert()
        .failure()
        .stderr(predicates::str::contains("optimal:foxwoods"));
}

/// `--sample-check` draws hands of the game's whole deck: with `--ranks` it is refused before
/// anything runs (it once panicked looking a full-deck hand up in the reduced deck's table).
#[test]
fn a_sample_check_of_a_reduced_deck_is_refused() {
    crate::common::cli::paigow()
        .args([
            "exact",
            "prices",
            "--dealer-way",
            "foxwoods",
            "--ranks",
            "A2345",
        ])
        .args(["--sample-check", "20"])
        .assert()
        .failure()
        .stderr(
            predicates::str::contains("--sample-check")
                .and(predicates::str::contains("--ranks"))
                .and(predicates::str::contains("panicked").not()),
        );
}

/// `optimal:D` from the table: on every hand of reduced decks with one and two jokers it sets
/// the best setting of the hand's shape (ties to the better back, then front), whose net is at
/// least every shipped way's on that shape; `set`'s one-shape pricing chooses the same.
#[test]
fn optimal_sets_every_hand_at_its_shapes_best_setting_never_below_a_shipped_way() {
    use paigow::combin::for_each_hand_from;
    use paigow::strategy::optimal::best::{ShapeOptimal, TableOptimal};
    use paigow::strategy::optimal::prices::PriceTable;
    use paigow::strategy::resolve::dealer_way;
    for (game_name, dealer_name, jokers) in [
        ("standard", "foxwoods", 1u8),
        ("double-joker", "double-joker-dealer", 2),
    ] {
        let game = GameRules::load(game_name).unwrap();
        let deck = SuitDeck::new(0b1_0000_0000_0111, jokers).unwrap();
        let dealer = dealer_way(dealer_name, &game).unwrap().way;
        let pricer = HandPricer::with_deck(&game, deck, &*dealer.strategy);
        let ev = Evaluator::new(game.ranking);
        let table = PriceTable::build(&pricer, &ev, &|_| ());
        let wager = &game.main_wager;
        let optimal = TableOptimal::new(
            "optimal:test".to_string(),
            &TableOptimal::best_of(&table, wager),
        );
        let one_shape = ShapeOptimal::with_deck(&dealer, &game, deck);
        let shapes = Shapes::new(deck);
        let ways: Vec<_> = (paigow::strategy::way::SHIPPED_WAYS.iter())
            .map(|(way, _, _)| resolve(way, &game).unwrap())
            .collect();
        let by_id: HashMap<u32, &ShapePrices> = table.shapes.iter().map(|p| (p.id, p)).collect();
        let cards = deck.cards();
        let mut hands = 0;
        for first in 0..cards.len() {
            for_each_hand_from(&cards, first, |hand| {
                hands += 1;
                let prices = by_id[&shapes.id_of(hand)];
                let splits = ev.split_values(hand);
                let point = |k: usize| table.index.split_point(&splits, k);
                let (best, best_net) = prices.ranked(wager)[0];
                let chosen = optimal.choose(hand, &splits, None);
                assert_eq!(point(chosen), [best.front, best.back], "{hand:?}");
                if hands % 97 == 0 {
                    let k = one_shape.choose(hand, &splits, None);
                    assert_eq!(
                        point(k),
                        point(chosen),
                        "{game_name}: set's choice, {hand:?}"
                    );
                }
                for way in &ways {
                    let [f, b] = point(way.strategy.choose(hand, &splits, None));
                    let net = prices.net_units(prices.setting(f, b).unwrap(), wager);
                    assert!(
                        net <= best_net,
                        "{game_name}: {} beats it on {hand:?}",
                        way.label
                    );
                }
            });
        }
        assert_eq!(hands, paigow::combin::choose(deck.size() as u64, 7));
    }
}

/// `diff-ways` priced from the table: the groups' changes add up exactly to B's net less A's
/// over the whole deck, and a group shape whose hands do not match the table's is refused (on a
/// reduced deck: four ranks and the joker).
#[test]
fn diff_ways_groups_priced_from_the_table_add_up_to_the_ways_difference() {
    use paigow::engine::diff_ways::{diff_shapes, price_from_table};
    use paigow::strategy::optimal::prices::PriceTable;
    use paigow::strategy::way::shapes::HandShape;
    let game = GameRules::load("standard").unwrap();
    let deck = SuitDeck::new(0b1_0000_0000_0111, 1).unwrap();
    let dealer = resolve("foxwoods", &game).unwrap();
    let pricer = HandPricer::with_deck(&game, deck, &*dealer.strategy);
    let ev = Evaluator::new(game.ranking);
    let table = PriceTable::build(&pricer, &ev, &|_| ());
    let shapes = Shapes::new(deck);
    let hand_shapes: Vec<HandShape> = (table.shapes.iter())
        .map(|p| HandShape {
            hand: shapes.representative(p.id as usize).unwrap(),
            hands: p.hands,
        })
        .collect();
    let way = |name| resolve(name, &game).unwrap();
    let (a, b) = (way("foxwoods"), way("ballys-ac"));
    let (ha, hb) = (a.house_way().unwrap(), b.house_way().unwrap());
    let mut diff = diff_shapes(ha, hb, &ev, game.deck, hand_shapes);
    assert!(!diff.groups.is_empty());
    let wager = &game.main_wager;
    let (net, pairs) = price_from_table(&mut diff, (ha, hb), &ev, &table, wager).unwrap();
    let way_net = |w: &paigow::strategy::resolve::Resolved| {
        table
            .price_way(&ev, &shapes, w.uncached(), wager)
            .net_units(wager)
    };
    assert_eq!(net, way_net(&b) - way_net(&a));
    assert_ne!(net, 0);
    assert_eq!(pairs, table.pairs());
    diff.shapes[diff.groups[0].shapes[0]].hands += 1;
    let err = price_from_table(&mut diff, (ha, hb), &ev, &table, wager).unwrap_err();
    assert!(err.contains("hands, the table has"), "{err}");
}
