//! The simulation engine through the library: pinned tallies at any thread count, agreement with
//! the exact category counts, and a structural fact about copies.

use paigow::engine::exact::{Method, category_counts};
use paigow::engine::run::{Plan, run_all, thread_pool};
use paigow::engine::simulate::{SimTally as Tally, Simulation};
use paigow::eval::{Category, Evaluator};
use paigow::game::GameRules;
use paigow::game::wager::{BetResult, Outcome};
use paigow::strategy::resolve::resolve;
use statrs::distribution::{ChiSquared, ContinuousCDF};

/// A simulation with its plan (seed 20240601, chunks of 1,000).
struct Config {
    sim: Simulation,
    plan: Plan,
}

fn config(game: GameRules, player: &str, dealer: &str, deals: u64, players: u8) -> Config {
    let player = resolve(player, &game).unwrap().strategy;
    let dealer = resolve(dealer, &game).unwrap().strategy;
    Config {
        sim: Simulation::new(game, player, dealer, players).unwrap(),
        plan: Plan::new(deals, 1_000, 20_240_601).unwrap(),
    }
}

fn run_on(cfg: &Config, threads: usize) -> Tally {
    (thread_pool(threads).unwrap()).install(|| run_all(&cfg.sim, &cfg.plan, &|_| {}))
}

/// The pinned run: standard game, max-back player against a max-front dealer, 10,500 deals (the
/// last chunk short), seed 20240601. Guards the RNG streams, the shuffle and the settlement.
#[test]
fn seeded_run_is_pinned_at_every_thread_count() {
    let cfg = config(
        GameRules::load("standard").unwrap(),
        "max-back",
        "max-front",
        10_500,
        1,
    );
    let expected = PINNED;
    for threads in [1, 2, 3, 4] {
        let t = run_on(&cfg, threads);
        let got = (
            t.rounds,
            t.hands,
            t.outcomes.get(Outcome::Win),
            t.outcomes.get(Outcome::Push),
            t.outcomes.with_result(BetResult::Lost),
            t.outcomes.get(Outcome::CopyLoss),
            t.net_units,
            t.net_units_squared,
        );
        assert_eq!(got, expected, "{threads} threads");
        assert_eq!(t.categories, PINNED_CATEGORIES, "{threads} threads");
    }
}

const PINNED: (u64, u64, u64, u64, u64, u64, i128, u128) = (
    10_500,
    10_500,
    465,
    6_391,
    3_644,
    1,
    -32_022_500,
    406_366_250_000,
);
/// High card up to five aces.
const PINNED_CATEGORIES: [u64; 11] = [1_689, 4_425, 2_344, 511, 788, 406, 298, 17, 19, 3, 0];

/// Several players per deal: the same tally at 1 and 4 threads, and hands = rounds x players.
#[test]
fn six_players_are_deterministic_too() {
    let cfg = config(
        GameRules::load("double-joker").unwrap(),
        "max-front",
        "max-front",
        3_001,
        6,
    );
    let one = run_on(&cfg, 1);
    assert_eq!(one, run_on(&cfg, 4));
    assert_eq!(one.hands, 6 * 3_001);
    let seen = |o: Outcome| one.outcomes.get(o) > 0;
    assert!(seen(Outcome::NotQualified) && seen(Outcome::Overqualified));
    assert_eq!(
        one.net_units,
        one.outcomes.net_units(&cfg.sim.game.main_wager)
    );
    cfg.sim.check_tally(&one).unwrap();
}

/// Simulated best-five categories of the players' seven cards agree with the exact enumeration:
/// a chi-square test at a fixed seed (cells with fewer than 20 expected hands pooled).
#[test]
fn category_frequencies_agree_with_exact_counts() {
    for name in ["standard", "double-joker"] {
        let game = GameRules::load(name).unwrap();
        let exact = category_counts(&Evaluator::new(game.ranking), game.deck, Method::Structure);
        let cfg = config(game, "max-back", "max-back", 100_000, 2);
        let t = run_on(&cfg, 2);
        let (statistic, cells) = chi_square(&t.categories, &exact.0);
        let df = (cells - 1) as f64;
        let p = ChiSquared::new(df).unwrap().sf(statistic);
        assert!(cells >= 8, "{name}: only {cells} cells");
        assert!(
            p > 0.001,
            "{name}: chi-square {statistic:.2} on {df} df, p = {p:.2e}"
        );
    }
}

/// Pearson's statistic, pooling categories (from the rarest, highest end) until each cell expects
/// at least 20 observations. Returns the statistic and the number of cells.
fn chi_square(observed: &[u64; 11], exact: &[u64; 11]) -> (f64, usize) {
    let n: u64 = observed.iter().sum();
    let total: u64 = exact.iter().sum();
    let (mut statistic, mut cells) = (0.0, 0);
    let (mut obs, mut expct) = (0.0, 0.0);
    for c in (0..11).rev() {
        obs += observed[c] as f64;
        expct += exact[c] as f64 * n as f64 / total as f64;
        if expct >= 20.0 || c == Category::HighCard as usize {
            statistic += (obs - expct) * (obs - expct) / expct;
            cells += 1;
            (obs, expct) = (0.0, 0.0);
        }
    }
    (statistic, cells)
}

/// With the same way on both sides and no commission the player loses: copies go to the dealer.
#[test]
fn same_way_both_sides_without_commission_loses() {
    let text = "name = \"no commission\"\ndeck = 53\n[main_wager]\ncommission = \"none\"\n";
    for way in ["max-back", "max-front"] {
        let game = GameRules::from_toml(text, "nc.toml").unwrap();
        let cfg = config(game, way, way, 200_000, 1);
        let t = run_on(&cfg, 2);
        let stats = paigow::report::stats::main_wager(&t, 1);
        assert!(t.outcomes.get(Outcome::CopyLoss) > 0);
        assert!(stats.ci99.high < 0.0, "{way}: {stats:?}");
    }
}

/// Double Joker with the dealer exposed: on every deal the `exposed` player does at least as
/// well as the same house way played blind (checked deal by deal, not on average).
#[test]
fn exposed_never_does_worse_than_its_house_way_on_any_deal() {
    use paigow::cards::deal::{Shoe, chunk_rng};
    use paigow::game::wager::settle;
    use paigow::strategy::set_dealer;
    let game = GameRules::load("double-joker").unwrap();
    let ev = Evaluator::new(game.ranking);
    let dealer_way = resolve("double-joker-dealer", &game).unwrap().strategy;
    let blind = resolve("foxwoods", &game).unwrap().strategy;
    let exposed = resolve("exposed:foxwoods", &game).unwrap().strategy;
    let wager = game.main_wager;
    let mut shoe = Shoe::new(game.deck);
    let mut rng = chunk_rng(5, 0);
    let (mut better, deals) = (0, 20_000);
    for _ in 0..deals {
        let cards = shoe.deal(&mut rng, 14);
        let mut dealer_cards: [_; 7] = cards[..7].try_into().unwrap();
        let mut hand: [_; 7] = cards[7..].try_into().unwrap();
        dealer_cards.sort_unstable();
        hand.sort_unstable();
        let dealer = set_dealer(&ev, &*dealer_way, &wager, &dealer_cards);
        let splits = ev.split_values(&hand);
        let shown = Some(dealer.setting);
        let a = settle(&splits, blind.choose(&hand, &splits, None), &dealer).units(&wager);
        let b = settle(&splits, exposed.choose(&hand, &splits, shown), &dealer).units(&wager);
        assert!(
            b >= a,
            "{hand:?} against {dealer_cards:?}: exposed {b}, house way {a}"
        );
        better += usize::from(b > a);
    }
    assert!(
        better > 0,
        "exposed never improved on the house way in {deals} deals"
    );
}

/// The engine with everything that makes it fast (shape caches answering from the cards in deal
/// order, each round dealt and located one round before it is settled, side-bet line tables)
/// tallies exactly what a plain replay of the same chunk streams tallies: every hand sorted, its
/// 21 splits searched, the uncached house way applied, settled by the rules, side-bet lines found
/// by walking the paytable.
#[test]
fn engine_equals_a_plain_replay_of_its_deals() {
    use paigow::cards::deal::{Shoe, chunk_rng};
    use paigow::game::events::{SevenCardFacts, joker_event};
    use paigow::game::paytable::BetKind;
    use paigow::game::wager::settle;
    use paigow::strategy::Strategy;
    use paigow::strategy::set_dealer;
    use paigow::strategy::way::HouseWay;

    for (name, players) in [("standard", 3), ("double-joker", 2)] {
        let game = GameRules::load(name).unwrap();
        let dealer_way_name = if name == "standard" {
            "foxwoods"
        } else {
            "double-joker-dealer"
        };
        let mut cfg = config(game.clone(), "foxwoods", dealer_way_name, 4_321, players);
        cfg.plan.chunk_size = 700;
        let engine = run_on(&cfg, 2);

        let ev = Evaluator::new(game.ranking);
        let (player_way, dealer_way) = (
            HouseWay::load("foxwoods").unwrap(),
            HouseWay::load(dealer_way_name).unwrap(),
        );
        let wager = game.main_wager;
        let sorted = |cards: &[paigow::cards::Card]| {
            let mut hand: [_; 7] = cards.try_into().unwrap();
            hand.sort_unstable();
            hand
        };
        let mut replay = Tally::default();
        for chunk in 0..cfg.plan.chunks() {
            let mut rng = chunk_rng(cfg.plan.seed, chunk);
            let mut shoe = Shoe::new(game.deck);
            for _ in 0..cfg.plan.chunk_len(chunk) {
                let cards = shoe.deal(&mut rng, 7 * (usize::from(players) + 1)).to_vec();
                let dealer_hand = sorted(&cards[..7]);
                let dealer = set_dealer(&ev, &dealer_way, &wager, &dealer_hand);
                let mut net = -i64::from(players) * wager.fee_units();
                for seat in 1..=usize::from(players) {
                    let hand = sorted(&cards[7 * seat..7 * seat + 7]);
                    let splits = ev.split_values(&hand);
                    let outcome = settle(&splits, player_way.choose(&hand, &splits, None), &dealer);
                    net += outcome.units(&wager);
                    replay.outcomes.record(outcome);
                    replay.categories[splits.best_five().category() as usize] += 1;
                    let facts = SevenCardFacts::of(&hand, &splits);
                    for (bet, table) in game.side_bets.iter().enumerate() {
                        let line = match table.kind {
                            BetKind::SevenCards => table.first_line(&facts),
                            _ => table.joker_line(joker_event(&hand, &dealer_hand)),
                        };
                        replay.side_bets[bet].lines[line.unwrap_or(table.lines.len())] += 1;
                    }
                }
                replay.rounds += 1;
                replay.hands += u64::from(players);
                replay.net_units += i128::from(net);
                replay.net_units_squared += u128::from(net.unsigned_abs()).pow(2);
            }
        }
        let main = |t: &Tally| {
            (
                t.rounds,
                t.hands,
                t.outcomes,
                t.net_units,
                t.net_units_squared,
                t.categories,
            )
        };
        assert_eq!(main(&engine), main(&replay), "{name}");
        for bet in 0..game.side_bets.len() {
            let lines = |t: &Tally| t.side_bets[bet].lines;
            assert_eq!(lines(&engine), lines(&replay), "{name}, side bet {bet}");
        }
        let positive = |o: Outcome| engine.outcomes.get(o) > 0;
        assert!(
            positive(Outcome::Win) && positive(Outcome::Loss) && positive(Outcome::Push),
            "{name}: {engine:?}"
        );
    }
}
