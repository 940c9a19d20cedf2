//! `optimal:D` against the truth: the fast method's choices priced exactly (card removal
//! included) on a fixed sample of hands, the two exact methods against each other, the cached
//! table against a fresh one (and the shape cache against the strategy), and the strategy against
//! every shipped house way.
//!
//! Run with `--release`: the dealer tables enumerate all 154,143,080 dealer hands.

use std::sync::{Arc, OnceLock};

use paigow::cards::deal::sample_hands;
use paigow::engine::compare::{self, Comparison, Vary};
use paigow::engine::run::{Plan, run_all};
use paigow::eval::Evaluator;
use paigow::game::GameRules;
use paigow::report::stats::pair_stats;
use paigow::strategy::Strategy;
use paigow::strategy::cached::CachedWay;
use paigow::strategy::optimal::FullDeckOptimal;
use paigow::strategy::optimal::grid::{DealerGrid, ValueIndex};
use paigow::strategy::optimal::hand::{HandExact, SettingTable, by_enumeration};
use paigow::strategy::resolve::{Detail, Resolved};
use paigow::strategy::resolve::{dealer_way, resolve};
use paigow::strategy::way::SHIPPED_WAYS;

/// The hands whose fast choice is priced exactly.
const SAMPLE_HANDS: usize = 300;
/// The most EV (per unit bet) the fast choice may give away on any sampled hand.
const WORST_LOSS_TOLERANCE: f64 = 0.02;
/// The most EV (per unit bet) it may give away on average over the sample: well under what the
/// optimum gains over the best house way (about 0.18% of a bet against Foxwoods).
const MEAN_LOSS_TOLERANCE: f64 = 0.001;

pub(crate) struct Fixture {
    pub(crate) game: GameRules,
    ev: Evaluator,
    dealer: Box<dyn Strategy>,
    table: SettingTable,
    /// `full-deck-optimal:foxwoods` (no shape cache in front).
    pub(crate) optimal: FullDeckOptimal,
}

/// Standard game, dealer by Foxwoods: every dealer hand set once, shared by the tests (of this
/// file and `setting_bets`).
pub(crate) fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let game = GameRules::load("standard").unwrap();
        let ev = Evaluator::new(game.ranking);
        let dealer = resolve("foxwoods", &game).unwrap().strategy;
        let index = Arc::new(ValueIndex::of(&ev, game.deck));
        let table = SettingTable::build(&ev, &game.main_wager, game.deck, &*dealer, index.clone());
        let grid = DealerGrid::new(index, table.counts());
        let optimal = FullDeckOptimal::new("full-deck-optimal:foxwoods".to_string(), grid, &game);
        Fixture {
            game,
            ev,
            dealer,
            table,
            optimal,
        }
    })
}

fn loss_of_fast_choice(f: &Fixture, exact: &HandExact, fast: usize) -> f64 {
    let wager = &f.game.main_wager;
    let chosen = exact.setting(fast).expect("the fast choice is legal");
    exact.ev(exact.best(wager), wager) - exact.ev(chosen, wager)
}

#[test]
fn fast_choice_is_within_tolerance_of_the_exact_best() {
    let f = fixture();
    let hands: Vec<_> = sample_hands(f.game.deck, 2026).take(SAMPLE_HANDS).collect();
    let losses: Vec<f64> = hands
        .iter()
        .map(|hand| {
            let splits = f.ev.split_values(hand);
            let exact = f.table.hand_exact(&splits, hand);
            assert_eq!(exact.dealer_hands, 53_524_680, "C(46, 7) dealer hands");
            loss_of_fast_choice(f, &exact, f.optimal.choose(hand, &splits, None))
        })
        .collect();
    let mut by_loss: Vec<(f64, usize)> = losses.iter().copied().zip(0..).collect();
    by_loss.sort_by(|a, b| b.0.total_cmp(&a.0));
    for &(loss, i) in &by_loss[..3] {
        let hand = paigow::cards::Cards::from_cards(&hands[i]);
        eprintln!("loss {:.4}% on {hand}", loss * 100.0);
    }
    let worst = by_loss[0].0;
    let mean = losses.iter().sum::<f64>() / losses.len() as f64;
    let missed = losses.iter().filter(|&&l| l > 0.0).count();
    eprintln!(
        "{SAMPLE_HANDS} hands: exact best missed on {missed}, mean loss {:.6}%, worst {:.6}%",
        mean * 100.0,
        worst * 100.0
    );
    assert!(losses.iter().all(|&l| l >= 0.0));
    assert!(worst <= WORST_LOSS_TOLERANCE, "worst loss {worst}");
    assert!(mean <= MEAN_LOSS_TOLERANCE, "mean loss {mean}");
}

#[test]
fn table_method_matches_direct_enumeration() {
    let f = fixture();
    for text in ["Ah Kd Qs 9c 7h 4d 2s", "Jk Ts Td 8c 8h 5s 3d"] {
        let hand = f.game.deck.parse_hand7(text).unwrap();
        let mut hand = hand;
        hand.sort();
        let splits = f.ev.split_values(&hand);
        let direct = by_enumeration(&f.ev, &f.game.main_wager, f.game.deck, &*f.dealer, &hand);
        assert_eq!(f.table.hand_exact(&splits, &hand), direct, "{text}");
    }
}

#[test]
fn cached_table_equals_a_fresh_build_and_the_setting_table() {
    let f = fixture();
    let dir = tempfile::tempdir().unwrap();
    let quiet = |_: &str| {};
    let fresh = FullDeckOptimal::load(
        &dealer_way("foxwoods", &f.game).unwrap().way,
        &f.game,
        Some(dir.path()),
        &quiet,
    );
    let files: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(files.len(), 1, "one cached table");
    let path = files[0].as_ref().unwrap().path();
    let written = std::fs::read(&path).unwrap();
    let cached = FullDeckOptimal::load(
        &dealer_way("foxwoods", &f.game).unwrap().way,
        &f.game,
        Some(dir.path()),
        &quiet,
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        written,
        "a cache hit rewrites nothing"
    );
    assert_eq!(fresh.grid().counts(), f.optimal.grid().counts());
    assert_eq!(cached.grid().counts(), fresh.grid().counts());
    let shape_cached = CachedWay::new(fresh.clone());
    for hand in sample_hands(f.game.deck, 9).take(200_000) {
        let splits = f.ev.split_values(&hand);
        let k = fresh.choose(&hand, &splits, None);
        assert_eq!(cached.choose(&hand, &splits, None), k);
        assert_eq!(f.optimal.choose(&hand, &splits, None), k);
        let c = shape_cached.choose(&hand, &splits, None);
        let values = |k: usize| (splits.front[k], splits.back[k]);
        assert_eq!(
            values(c),
            values(k),
            "the shape cache keeps the setting's values"
        );
    }
}

#[test]
fn optimal_beats_every_shipped_way_against_its_dealer() {
    let f = fixture();
    let mut ways: Vec<&str> = SHIPPED_WAYS.iter().map(|(name, _, _)| *name).collect();
    ways.push("full-deck-optimal:foxwoods");
    let variants = ways
        .iter()
        .map(|&label| match label {
            "full-deck-optimal:foxwoods" => Resolved {
                label: label.to_string(),
                strategy: Box::new(f.optimal.clone()),
                detail: Detail::FullDeckOptimal(f.optimal.clone()),
                sources: Vec::new(),
            },
            _ => resolve(label, &f.game).unwrap(),
        })
        .collect();
    let fixed = Some(resolve("foxwoods", &f.game).unwrap());
    let cmp = Comparison::new(f.game.clone(), Vary::Player, fixed, variants, None, 0).unwrap();
    let plan = Plan::new(400_000, 10_000, 11).unwrap();
    let tally = run_all(&cmp, &plan, &|_| {});
    let best = ways.len() - 1;
    for (p, (a, b)) in compare::pairs(ways.len()).enumerate() {
        if b != best {
            continue;
        }
        let s = pair_stats(&tally, cmp.arms[0].side, p, (a, b), &f.game.main_wager);
        eprintln!(
            "optimal:foxwoods - {}: {:+.4}% [{:+.4}%, {:+.4}%]",
            ways[a],
            -s.difference * 100.0,
            -s.ci95.high * 100.0,
            -s.ci95.low * 100.0
        );
        assert!(s.ci95.high < 0.0, "{} is not beaten: {s:?}", ways[a]);
    }
}
