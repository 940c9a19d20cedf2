//! The California table engine: the bank in action, fouls and backline bets, the dice, the
//! limited bank against `simulate`, the rotation's exact frequencies, variants on the same
//! deals with exact paired sums, the break-even solver put back into a run, determinism across
//! threads and chunk sizes.

use paigow::engine::exact_main;
use paigow::engine::run::{Job, Plan, Tally, run_all, run_chunk, thread_pool};
use paigow::engine::simulate::Simulation;
use paigow::engine::table::{
    self, Collection, Layout, MICROS, SEATS, SeatOutcome, Table, TableOptions, TableSetup,
    TableTally, Unknown, action_pile_throws, action_seat, roll_dice, settle_bets,
};
use paigow::game::GameRules;
use paigow::game::wager::Outcome;
use paigow::report::stats::seat_stats;
use paigow::report::table::{Role, paired, position_strata, rows, seat_strata, solutions};
use paigow::strategy::deck_shapes::SuitDeck;
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

/// A table built the way the command builds it (options -> run spec -> table), with `edit`
/// applied to the options.
fn table_of(seats: &str, bank: &str, edit: impl FnOnce(&mut TableOptions)) -> Table {
    let game = GameRules::load("california").unwrap();
    let mut options = TableOptions {
        seats: Some(seats.into()),
        bank: Some(bank.into()),
        ..TableOptions::default()
    };
    edit(&mut options);
    let setup = TableSetup {
        options: &options,
        ways: ["foxwoods"; 3],
    };
    Table::from_spec(&table::spec(&game, &setup).unwrap()).unwrap()
}

fn run_on((table, plan): &(Table, Plan), threads: usize) -> TableTally {
    let pool = thread_pool(threads).unwrap();
    pool.install(|| run_all(table, plan, &|_| {}))
}

fn run(table: &Table, rounds: u64, chunk: u64, seed: u64, threads: usize) -> TableTally {
    let plan = Plan::new(rounds, chunk, seed).unwrap();
    let t = thread_pool(threads)
        .unwrap()
        .install(|| run_all(table, &plan, &|_| {}));
    t.check().unwrap();
    t
}

#[test]
fn the_seeds_worked_example_leaves_80_in_action() {
    // Seed 000 rule 13 / seed 003: bank 200, a 60 loser then a 60 winner.
    let layout = Layout::parse("-,-,D,60,60,-,-").unwrap();
    let mut outcomes = [None; SEATS];
    outcomes[3] = same(LOSS);
    outcomes[4] = same(Outcome::Win);
    let r = settle_bets(&layout, 2, Some(200), 3, &outcomes);
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
    let r = settle_bets(&layout, 2, Some(100), 5, &outcomes);
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
    let r = settle_bets(&layout, 0, Some(100), 1, &outcomes);
    assert_eq!(
        (r.net[2], r.action[1], r.action[2], r.bank_left),
        (-100, 100, 100, Some(0))
    );
    let r = settle_bets(&layout, 0, None, 1, &outcomes);
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
    let r = settle_bets(&layout, 0, Some(60), 1, &outcomes);
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
    let banked = &t.variants[0].by_dealer[3];
    assert_eq!(banked.rounds, t.rounds);
    for seat in 0..SEATS {
        let p = odds[(seat + SEATS - 3) % SEATS];
        assert_close(banked.seats[seat].action_pile, t.rounds, p, "action pile");
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
    let banked = &t.variants[0].by_dealer[0];
    let banker = seat_stats(&banked.seats[0], t.rounds, 0);
    let game = GameRules::load("california").unwrap();
    let way = || resolve("foxwoods", &game).unwrap().strategy;
    let sim = Simulation::new(game.clone(), way(), way(), 1).unwrap();
    let plan = Plan::new(rounds, 4_096, 12).unwrap();
    let pool = thread_pool(2).unwrap();
    let s = pool.install(|| run_all(&sim, &plan, &|_| {}));
    let player = paigow::report::stats::main_wager(&s, 1);
    assert_eq!(banked.seats[0].action, u128::from(rounds));
    assert_eq!(banked.seats[0].net, -banked.seats[1].net);
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
    // The report's stratified figures agree with the plain ones for a fixed player-dealer.
    let position = paigow::report::stats::role_stats(
        &position_strata(&cfg.0.variants[0], &t.variants[0]),
        MICROS,
    )
    .unwrap();
    assert_eq!(position.ev_before_per_action, Some(banker.ev_per_action));
}

/// Issue 18's check against the exact figure: one seat betting against a fixed player-dealer
/// with an unlimited bank and no collection; the player-dealer's EV per unit of action is minus
/// the player's exact main-wager EV (every pair of disjoint hands of the California deck,
/// Foxwoods against Foxwoods: about 20 s), within 3.5 standard errors of the table run.
#[test]
fn an_unlimited_bank_against_one_player_matches_exact_main() {
    let rounds = 1_000_000;
    let cfg = config("D,1,-,-,-,-,-", None, "none", rounds);
    let t = run_on(&cfg, 2);
    let banker = seat_stats(&t.variants[0].by_dealer[0].seats[0], t.rounds, 0);
    let game = GameRules::load("california").unwrap();
    let way = resolve("foxwoods", &game).unwrap().strategy;
    let exact = exact_main::count(
        &game,
        SuitDeck::of(game.deck),
        &*way,
        &*way,
        &exact_main::Progress::silent(),
    )
    .unwrap()
    .exact
    .player_ev();
    let se = (banker.ev_per_action_ci95.1 - banker.ev_per_action_ci95.0) / 2.0 / 1.959_964;
    let gap = banker.ev_per_action + exact;
    assert!(
        gap.abs() < 3.5 * se,
        "banker {} per unit of action, exact player EV {exact}, SE {se}",
        banker.ev_per_action
    );
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
    one.check().unwrap();
    assert_eq!(one.rounds, 20_000);
    let banked = &one.variants[0].by_dealer[0];
    assert_eq!(banked.seats.iter().map(|s| s.net).sum::<i128>(), 0);
    let others: u128 = (1..SEATS).map(|s| banked.seats[s].action).sum();
    assert_eq!(banked.seats[0].action, others);
    assert!(banked.bank_ran_out > 0 && banked.bank_ran_out < one.rounds);
    assert_eq!(
        banked.seats[6].no_action, 0,
        "the bank always reaches seat 7 with 250 > 210"
    );
    assert!(banked.seats[4].no_action > 0);
    let m = u128::from(MICROS);
    assert_eq!(
        cfg.0.variants[0].fees_when(0),
        [3 * m, 2 * m, 0, 2 * m, m, 0, 3 * m]
    );
}

/// Seats 1 to 5 bet; seat 1 takes two hands, seat 2 one, seat 3 always declines, seat 4
/// alternates two hands and a decline, seat 5 takes two: a cycle of 12 hands in which seats 1
/// to 5 bank 4, 2, 0, 2 and 4 (derived by hand in `engine::table::rotation`'s tests).
const POLICY: &str = "2,1,0,2/0,2,-,-";
const ROTATING_SEATS: &str = "10,20,30,40,50+5,-,-";

#[test]
fn the_rotation_banks_exactly_as_the_policy_says_over_whole_cycles() {
    let table = table_of(ROTATING_SEATS, "120", |o| o.rotation = POLICY.into());
    assert_eq!(table.variants[0].cycle.len(), 12);
    // 500 whole cycles, in chunks of 7 rounds (chunks cut cycles anywhere).
    let t = run(&table, 6_000, 7, 3, 2);
    let banked: Vec<u64> = t.variants[0].by_dealer.iter().map(|s| s.rounds).collect();
    assert_eq!(banked, [2_000, 1_000, 0, 1_000, 2_000, 0, 0]);
    // Five rounds more are the cycle's first five hands: seats 1, 1, 2, 5, 5.
    let t5 = run(&table, 6_005, 7, 3, 1);
    let banked: Vec<u64> = t5.variants[0].by_dealer.iter().map(|s| s.rounds).collect();
    assert_eq!(banked, [2_002, 1_001, 0, 1_000, 2_002, 0, 0]);
    // A seat's bets sit out the hands it banks; it plays every other hand.
    for seat in 0..5 {
        let own = &t.variants[0].by_dealer[seat].seats[seat];
        assert_eq!(own.outcomes.total(), Some(0), "seat {}", seat + 1);
        let played = t.variants[0].seat_total(seat).outcomes.total();
        assert_eq!(played, Some(6_000 - banked_of(&t, seat)));
    }
    // The same tally at any thread count and for any chunk size that keeps the deals: a
    // different chunk size deals differently, but the rotation is the same.
    assert_eq!(t, run(&table, 6_000, 7, 3, 3));
    let other = run(&table, 6_000, 1_000, 3, 2);
    let banked: Vec<u64> = other.variants[0]
        .by_dealer
        .iter()
        .map(|s| s.rounds)
        .collect();
    assert_eq!(banked, [2_000, 1_000, 0, 1_000, 2_000, 0, 0]);
}

fn banked_of(t: &TableTally, seat: usize) -> u64 {
    t.variants[0].by_dealer[seat].rounds
}

#[test]
fn results_over_whole_rotations_balance_across_seats_and_with_the_room() {
    let table = table_of(ROTATING_SEATS, "120", |o| {
        o.rotation = POLICY.into();
        o.collection = "1=0.5,20=1.25%".into();
        o.time_collection = "0.25".into();
    });
    // Not a whole number of cycles: the cycle's weights still make the seats add up to zero.
    let t = run(&table, 30_001, 1_000, 5, 2);
    let rows = rows(&table, 0, &t);
    let whole: Vec<_> = (rows.iter())
        .filter(|r| r.role_kind == Some(Role::Whole) && r.seat != "dealer")
        .map(|r| r.stats.unwrap())
        .collect();
    assert_eq!(whole.len(), SEATS);
    let net: f64 = whole.iter().map(|s| s.ev_before).sum();
    assert!(net.abs() < 1e-9, "{net}");
    let paid: f64 = whole.iter().map(|s| s.collection).sum();
    let room = paigow::report::table::room_collection(&table.variants[0]);
    assert!((paid - room).abs() < 1e-9, "{paid} vs {room}");
    // Seat 2 (bet 20: 1.25% = 0.25 chips, plus 0.25 time) banks 2 hands in 12: as the
    // player-dealer it pays 0.25 time and 1.25% of its bank in action (120), 1.5 chips.
    let v = &table.variants[0];
    let as_dealer = paigow::report::stats::role_stats(
        &seat_strata(v, &t.variants[0], 1, Role::AsDealer),
        MICROS,
    )
    .unwrap();
    assert_eq!(as_dealer.collection, 1.75);
    let as_player = paigow::report::stats::role_stats(
        &seat_strata(v, &t.variants[0], 1, Role::AsPlayer),
        MICROS,
    )
    .unwrap();
    assert_eq!(as_player.collection, 0.5);
    let s = whole[1];
    assert!((s.collection - (10.0 * 0.5 + 2.0 * 1.75) / 12.0).abs() < 1e-12);
}

#[test]
fn every_variant_plays_the_deals_its_own_single_run_plays() {
    let seats = "D,100,-,50+20,40,-,200";
    let varied = table_of(seats, "300", |o| {
        o.vary = Some("bank=150,300,unlimited".into())
    });
    let t = run(&varied, 9_000, 1_000, 8, 2);
    for (i, bank) in ["150", "300", "unlimited"].into_iter().enumerate() {
        let single = run(&table_of(seats, bank, |_| {}), 9_000, 1_000, 8, 1);
        assert_eq!(t.variants[i], single.variants[0], "bank {bank}");
    }
}

#[test]
fn paired_sums_are_the_sums_of_each_rounds_differences() {
    // Seatings with different rotations (cycles of 4 and 3 hands: a joint cycle of 12).
    let table = table_of("10,20,30,40,-,-,-", "60", |o| {
        o.rotation = "1".into();
        o.vary = Some("seats=10,20,30,40,-,-,-;25,-,30,40,-,-,-".into());
        o.bets_to_bank = "1".into();
    });
    assert_eq!(table.joint_cycle(), 12);
    // Chunks of one round each: each chunk's tally is one round's, so the per-round
    // differences can be summed here by hand.
    let rounds = 1_200;
    let plan = Plan::new(rounds, 1, 4).unwrap();
    let mut expected = [(0i128, 0u128); SEATS];
    let mut whole = table.empty_tally();
    for chunk in 0..rounds {
        let one = run_chunk(&table, &plan, chunk);
        let (a, b) = (&one.variants[0], &one.variants[1]);
        for (seat, e) in expected.iter_mut().enumerate() {
            let d = (a.net(seat) - b.net(seat)) as i64;
            e.0 += i128::from(d);
            e.1 += u128::from(d.unsigned_abs()).pow(2);
        }
        whole.merge(&one);
    }
    whole.check().unwrap();
    let pair = &whole.pairs[0];
    for (seat, e) in expected.iter().enumerate() {
        let sum: i128 = pair.strata.iter().map(|s| s.seats[seat].sum).sum();
        let squares: u128 = pair.strata.iter().map(|s| s.seats[seat].squares).sum();
        assert_eq!((sum, squares), *e, "seat {}", seat + 1);
    }
    assert_eq!(whole, run(&table, rounds, 1, 4, 2));
    let keys: Vec<[u8; 2]> = pair.strata.iter().map(|s| s.dealers).collect();
    assert_eq!(
        keys.len(),
        12,
        "every pair of bankers of the joint cycle: {keys:?}"
    );
}

#[test]
fn identical_variants_differ_by_exactly_zero_and_paired_errors_are_smaller() {
    let seats = "D,100,-,50+20,40,-,200";
    let table = table_of(seats, "300", |o| {
        o.collection = "1=1".into();
        o.vary = Some("bank=300;300;900".into());
    });
    let t = run(&table, 20_000, 1_000, 6, 2);
    for s in &t.pairs[0].strata {
        assert!(s.seats.iter().all(|d| d.sum == 0 && d.squares == 0));
        assert_eq!((s.player_dealer.sum, s.player_dealer.squares), (0, 0));
    }
    let p = paired(&table, &t);
    let first: Vec<_> = p.iter().filter(|p| (p.a, p.b) == (0, 1)).collect();
    assert!(
        first
            .iter()
            .all(|p| p.before == 0.0 && p.se == 0.0 && p.after == 0.0)
    );
    // Bank 300 against 900 (every bet covered): the paired interval of the player-dealer's
    // difference is far narrower than two independent runs'.
    let bank = p
        .iter()
        .find(|p| (p.a, p.b) == (0, 2) && p.subject == "player-dealer position")
        .unwrap();
    assert!(
        bank.se > 0.0 && bank.se < bank.independent_se.unwrap() / 3.0,
        "{bank:?}"
    );
    assert!(bank.correlation.unwrap() > 0.9);
    // Bank 900 pays its fee on the 410 it can have in action, as 300 pays on 300: the same
    // one chip, so the room's difference is exactly 0.
    let room = p
        .iter()
        .find(|p| (p.a, p.b) == (0, 2) && p.subject == "card room")
        .unwrap();
    assert_eq!(room.after, 0.0);
}

#[test]
fn the_solvers_fee_put_back_into_a_run_brings_the_ev_to_zero() {
    let seats = "D,100,-,50+20,40,-,200";
    let solve = |table: &Table, t: &TableTally, target: &str, unknown: Unknown| {
        let s = solutions(table, 0, t)
            .into_iter()
            .find(|s| s.target == target && s.unknown == unknown);
        s.unwrap()
    };
    let base = table_of(seats, "300", |o| o.collection = "1=1,60=2,200=3".into());
    let t = run(&base, 40_000, 1_000, 7, 2);
    for unknown in [Unknown::BankFee, Unknown::BankFeePerChip] {
        let s = solve(&base, &t, "player-dealer position", unknown);
        assert!(s.ci95.low < s.value && s.value < s.ci95.high);
        let schedule = unknown.schedule_text(s.value).unwrap();
        let solved = table_of(seats, "300", |o| {
            o.collection = "1=1,60=2,200=3".into();
            o.bank_collection = schedule.clone();
        });
        // On the same deals the EV after collection is zero but for the schedule's rounding
        // (a millionth of a chip, or a millionth of the bank in action).
        let again = run(&solved, 40_000, 1_000, 7, 2);
        let pd = |table: &Table, t: &TableTally| {
            paigow::report::stats::role_stats(
                &position_strata(&table.variants[0], &t.variants[0]),
                MICROS,
            )
            .unwrap()
        };
        assert!(
            pd(&solved, &again).ev_after.abs() <= 300.0 * 5e-7,
            "{schedule}"
        );
        // On other deals, zero is inside the 95% interval of the new run's EV after
        // collection, widened by the solved fee's own error (it came from other deals):
        // se^2 = se(new run)^2 + (se(fee) x units)^2.
        let other = pd(&solved, &run(&solved, 40_000, 1_000, 8, 2));
        let se_fee = (s.ci95.high - s.ci95.low) / 2.0 / 1.959_964 * s.units;
        let se = (other.se * other.se + se_fee * se_fee).sqrt();
        assert!(
            other.ev_after.abs() < 1.959_964 * se,
            "{schedule}: {other:?}, se {se}"
        );
    }
    // A seat breaking even over whole rotations with a time fee. Seat 1 bets 5 chips and, in
    // its two hands of every eight, banks 300 against 300 of bets: it wins far more as the
    // player-dealer (about 1.5% of 300) than it loses as a player (about 1.3% of 5), so its
    // break-even time fee is positive.
    let seats = "5,100,100,100,-,-,-";
    let rotating = table_of(seats, "300", |o| o.rotation = "2".into());
    let t = run(&rotating, 100_000, 1_000, 7, 2);
    let s = solve(&rotating, &t, "seat 1", Unknown::TimeFee);
    let schedule = Unknown::TimeFee
        .schedule_text(s.value)
        .expect("a fee of at least 0");
    let solved = table_of(seats, "300", |o| {
        o.rotation = "2".into();
        o.time_collection = schedule.clone();
    });
    let again = run(&solved, 100_000, 1_000, 7, 2);
    let seat1 = rows(&solved, 0, &again)
        .into_iter()
        .find(|r| r.seat == "1" && r.role_kind == Some(Role::Whole))
        .unwrap()
        .stats
        .unwrap();
    assert!(
        seat1.ev_after.abs() <= 5e-7,
        "{schedule}: {}",
        seat1.ev_after
    );
}
