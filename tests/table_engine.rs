//! The California table engine: the bank in action, fouls and backline bets, the dice, the
//! limited bank against `sim::run`, determinism across threads.

use paigow::engine::run::{Plan, run_all, thread_pool};
use paigow::engine::simulate::Simulation;
use paigow::engine::table::{
    Collection, Layout, SEATS, SeatOutcome, Table, TableTally, action_pile_throws, action_seat,
    roll_dice, settle_bets,
};
use paigow::game::GameRules;
use paigow::game::wager::Outcome;
use paigow::report::stats::seat_stats;
use paigow::strategy::resolve::resolve;

const LOSS: Outcome = Outcome::Loss;
const FOUL: Outcome = Outcome::Foul;

fn same(o: Outcome) -> Option<SeatOutcome> {
    Some(SeatOutcome {
        setter: o,
        others: o,
    })
}

fn config(seats: &str, bank: Option<u64>, collection: &str, rounds: u64) -> (Table, Plan) {
    let game = GameRules::load("california").unwrap();
    let way = || resolve("foxwoods", &game).unwrap();
    let table = Table::new(
        game.clone(),
        Layout::parse(seats).unwrap(),
        bank,
        Collection::parse(collection).unwrap(),
        [way(), way(), way()],
    )
    .unwrap();
    (table, Plan::new(rounds, 4_096, 11).unwrap())
}

fn run_on((table, plan): &(Table, Plan), threads: usize) -> TableTally {
    let pool = thread_pool(threads).unwrap();
    pool.install(|| run_all(table, plan, &|_| {}))
}

#[test]
fn the_seeds_worked_example_leaves_80_in_action() {
    // Seed 000 rule 13 / seed 003: bank 200, a 60 loser then a 60 winner.
    let layout = Layout::parse("-,-,D,60,60,-,-").unwrap();
    let mut outcomes = [None; SEATS];
    outcomes[3] = same(LOSS);
    outcomes[4] = same(Outcome::Win);
    let r = settle_bets(&layout, Some(200), 3, &outcomes);
    assert_eq!(r.bank_left, Some(80));
    assert_eq!((r.net[3], r.net[4], r.net[2]), (-60, 60, 0));
    assert_eq!((r.action[3], r.action[4], r.action[2]), (60, 60, 120));
    assert!(!r.bank_ran_out);
}

#[test]
fn a_bank_that_runs_out_returns_the_remaining_bets_untouched() {
    // Bank 100, clockwise from seat 6: seat 6 loses 60 (40 left), seat 7 wins only 40 of its 60,
    // then seats 1 and 2 get no action whatever their hands.
    let layout = Layout::parse("60,60,D,-,-,60,60").unwrap();
    let mut outcomes = [None; SEATS];
    outcomes[5] = same(LOSS);
    outcomes[6] = same(Outcome::Win);
    outcomes[0] = same(Outcome::Win);
    outcomes[1] = same(LOSS);
    let r = settle_bets(&layout, Some(100), 5, &outcomes);
    assert_eq!(r.bank_left, Some(0));
    assert_eq!(r.net, [0, 0, 20, 0, 0, -60, 40]);
    assert_eq!(r.action, [0, 0, 100, 0, 0, 60, 40]);
    assert_eq!(r.no_action, [true, true, false, false, false, false, false]);
    assert!(r.partial[6] && !r.partial[5]);
    assert!(r.bank_ran_out);
}

#[test]
fn a_push_takes_nothing_out_of_action_and_an_unlimited_bank_covers_all() {
    let layout = Layout::parse("D,100,100,-,-,-,-").unwrap();
    let mut outcomes = [None; SEATS];
    outcomes[1] = same(Outcome::Push);
    outcomes[2] = same(LOSS);
    let r = settle_bets(&layout, Some(100), 1, &outcomes);
    assert_eq!(
        (r.net[2], r.action[1], r.action[2], r.bank_left),
        (-100, 100, 100, Some(0))
    );
    let r = settle_bets(&layout, None, 1, &outcomes);
    assert_eq!((r.net[0], r.action[0], r.bank_left), (100, 200, None));
}

#[test]
fn a_foul_loses_for_its_setter_while_the_backline_gets_the_house_way() {
    // Seat 2: the seated player's 30, a backline 50 (the largest, so the setter) and 20.
    let layout = Layout::parse("D,30+50+20,-,-,-,-,-").unwrap();
    assert_eq!(layout.setter(1), 1);
    let mut outcomes = [None; SEATS];
    outcomes[1] = Some(SeatOutcome {
        setter: FOUL,
        others: Outcome::Win,
    });
    let r = settle_bets(&layout, Some(60), 1, &outcomes);
    // The setter's 50 is settled first (lost), leaving 10 for the 30 (won); the 20 gets nothing.
    assert_eq!((r.net[1], r.action[1], r.bank_left), (-40, 60, Some(0)));
    assert!(r.partial[1] && r.bank_ran_out);
}

/// Ways of throwing three dice per sum, 3..=18 (index = sum).
fn dice_ways() -> [u32; 19] {
    let mut ways = [0u32; 19];
    for a in 1..=6 {
        for b in 1..=6 {
            for c in 1..=6 {
                ways[a + b + c] += 1;
            }
        }
    }
    ways
}

#[test]
fn dice_count_from_the_player_dealer_as_1_8_and_15() {
    for dealer in 0..SEATS {
        for sum in 3..=18u8 {
            // Count aloud: the player-dealer is 1, then one seat clockwise per count.
            let mut seat = dealer;
            for _ in 2..=sum {
                seat = (seat + 1) % SEATS;
            }
            assert_eq!(action_seat(dealer, sum), seat, "dealer {dealer} sum {sum}");
        }
        for sum in [8, 15] {
            assert_eq!(action_seat(dealer, sum), dealer);
        }
        assert_eq!(action_seat(dealer, 3), (dealer + 2) % SEATS);
        assert_eq!(action_seat(dealer, 18), (dealer + 3) % SEATS);
    }
}

#[test]
fn each_seat_gets_the_action_pile_with_the_dice_probability() {
    // All 216 throws: offsets 0..5 from the player-dealer get 31 each, offset 6 (sums 7, 14) 30.
    let ways = dice_ways();
    let mut per_offset = [0u32; SEATS];
    for sum in 3..=18u8 {
        per_offset[action_seat(0, sum)] += ways[usize::from(sum)];
    }
    assert_eq!(per_offset, [31, 31, 31, 31, 31, 31, 30]);
    let throws_per_offset = action_pile_throws();
    assert_eq!(throws_per_offset, per_offset);
    let odds = throws_per_offset.map(|n| f64::from(n) / 216.0);
    // Sampled: the dice themselves, then the action pile seen by a seeded table run.
    let mut rng = paigow::cards::deal::chunk_rng(5, 0);
    let mut seen = [0u64; 19];
    let throws = 216_000u64;
    for _ in 0..throws {
        seen[usize::from(roll_dice(&mut rng))] += 1;
    }
    for sum in 3..=18 {
        assert_close(seen[sum], throws, f64::from(ways[sum]) / 216.0, "dice sum");
    }
    let cfg = config("100,-,-,D,-,-,-", None, "none", 60_000);
    let t = run_on(&cfg, 2);
    for seat in 0..SEATS {
        let p = odds[(seat + SEATS - 3) % SEATS];
        assert_close(t.seats[seat].action_pile, t.rounds, p, "action pile");
    }
}

/// `count` of `n` is within 5 standard errors of `n p`.
fn assert_close(count: u64, n: u64, p: f64, what: &str) {
    let (n, k) = (n as f64, count as f64);
    let sd = (n * p * (1.0 - p)).sqrt();
    assert!((k - n * p).abs() < 5.0 * sd, "{what}: {k} vs {}", n * p);
}

#[test]
fn an_unlimited_bank_against_one_player_matches_simulate() {
    let rounds = 150_000;
    let cfg = config("D,1,-,-,-,-,-", None, "none", rounds);
    let t = run_on(&cfg, 2);
    let banker = seat_stats(&t.seats[0], t.rounds, 0);
    let game = GameRules::load("california").unwrap();
    let way = || resolve("foxwoods", &game).unwrap().strategy;
    let sim = Simulation::new(game.clone(), way(), way(), 1).unwrap();
    let plan = Plan::new(rounds, 4_096, 12).unwrap();
    let pool = thread_pool(2).unwrap();
    let s = pool.install(|| run_all(&sim, &plan, &|_| {}));
    let player = paigow::report::stats::main_wager(&s, 1);
    assert_eq!(t.seats[0].action, u128::from(rounds));
    assert_eq!(t.seats[0].net, -t.seats[1].net);
    // Independent samples: the difference is within 99% of its combined standard error.
    let half = |ci: (f64, f64)| (ci.1 - ci.0) / 2.0 / 1.959_964;
    let se_t = half(banker.ev_per_action_ci95);
    let se_s = (player.ci95.high - player.ci95.low) / 2.0 / 1.959_964;
    let diff = banker.ev_per_action + player.player_ev;
    assert!(
        diff.abs() < 2.576 * (se_t * se_t + se_s * se_s).sqrt(),
        "banker {} vs player {}",
        banker.ev_per_action,
        player.player_ev
    );
    assert!(banker.ev_per_action > 0.0, "copies go to the banker");
}

#[test]
fn tallies_balance_and_do_not_depend_on_threads() {
    let cfg = config(
        "D,100,-,50+20,40,-,200",
        Some(250),
        "1=1,60=2,200=3",
        20_000,
    );
    let one = run_on(&cfg, 1);
    assert_eq!(one, run_on(&cfg, 3));
    assert_eq!(one.rounds, 20_000);
    assert_eq!(one.seats.iter().map(|s| s.net).sum::<i128>(), 0);
    let others: u128 = (1..SEATS).map(|s| one.seats[s].action).sum();
    assert_eq!(one.seats[0].action, others);
    assert!(one.bank_ran_out > 0 && one.bank_ran_out < one.rounds);
    assert_eq!(
        one.seats[6].no_action, 0,
        "the bank always reaches seat 7 with 250 > 210"
    );
    assert!(one.seats[4].no_action > 0);
    assert_eq!(cfg.0.collection_per_round(), [3, 2, 0, 2, 1, 0, 3]);
}
