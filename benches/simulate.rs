//! Criterion: the hot loop of every Monte Carlo engine on a fixed batch of deals, beside the
//! deal-only baseline (same chunk size and shuffles, no setting), so ratios of the rows are the
//! cost of setting and settling.
//!
//! The floor row is the least any deal can cost: the same RNG stream and bounded draws shuffling a
//! plain byte array, nothing else. Every other row runs chunk 0 (100,000 rounds, seed 1) of the
//! standard game on one thread, Foxwoods against Foxwoods unless named: `simulate` with both side
//! bets; `compare` of two ways (Foxwoods and Bally's AC against a Foxwoods dealer) and of four
//! (also MGM Grand and Harrah's Reno), so that the difference of the two rows is two more ways'
//! cost; `table` with a player-dealer and six seats betting (seven hands a round, as `simulate
//! --players 6`). Each engine is built once outside the timing, and its shape caches are first
//! warmed on chunks 1 to 10 (a million other rounds), as they are a few seconds into a long run.
//! Ways are built as the commands build them (a dealer playing the player's way shares its cache),
//! so a row times what the command runs.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use paigow::engine::compare::{Comparison, Vary};
use paigow::engine::run::{Job, Plan, run_chunk};
use paigow::engine::simulate::{self as sim, Simulation};
use paigow::engine::table::{Collection, Layout, Table};
use paigow::game::GameRules;
use paigow::strategy::resolve::{resolve, share_caches};

const DEALS: u64 = 100_000;
const WARM_UP_CHUNKS: u64 = 10;

/// The plan of every row: chunks of `DEALS`, chunk 0 timed, chunks 1.. to warm up.
fn plan() -> Plan {
    Plan::new(DEALS * (1 + WARM_UP_CHUNKS), DEALS, 1).unwrap()
}

/// Warms `job`'s caches, then times chunk 0 as `name`.
fn bench_job<J: Job>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    job: &J,
) {
    let plan = plan();
    for chunk in 1..=WARM_UP_CHUNKS {
        run_chunk(job, &plan, chunk);
    }
    group.bench_function(name, |b| b.iter(|| run_chunk(job, &plan, 0)));
}

/// The simulation `paigow simulate` runs for these ways: a dealer playing the player's way
/// shares its shape cache ([`share_caches`]), as [`Simulation::from_spec`] does.
fn simulation(game: &GameRules, player: &str, dealer: &str, players: u8) -> Simulation {
    let mut player = resolve(player, game).unwrap();
    let mut dealer = resolve(dealer, game).unwrap();
    share_caches(vec![&mut player, &mut dealer]);
    Simulation::new(game.clone(), player.strategy, dealer.strategy, players).unwrap()
}

fn benches(c: &mut Criterion) {
    let game = GameRules::load("standard").unwrap();
    let way = |name: &str| resolve(name, &game).unwrap();
    let mut group = c.benchmark_group("engines");
    group.throughput(Throughput::Elements(DEALS));
    group.sample_size(10);

    for (players, name) in [
        (1, "simulate: 100k standard deals, 1 player"),
        (6, "simulate: 100k standard deals, 6 players"),
    ] {
        bench_job(
            &mut group,
            name,
            &simulation(&game, "foxwoods", "foxwoods", players),
        );
    }
    for names in [
        &["foxwoods", "ballys-ac"][..],
        &["foxwoods", "ballys-ac", "mgm-grand", "harrahs-reno"],
    ] {
        let cmp = Comparison::new(
            game.clone(),
            Vary::Player,
            Some(way("foxwoods")),
            names.iter().map(|&name| way(name)).collect(),
            None,
            0,
        );
        let name = format!("compare: 100k standard deals, {} ways", names.len());
        bench_job(&mut group, &name, &cmp.unwrap());
    }
    let california = GameRules::load("california").unwrap();
    let cway = |name: &str| resolve(name, &california).unwrap();
    let table = Table::new(
        california.clone(),
        Layout::parse("D,10,10,10,10,10,10").unwrap(),
        None,
        Collection::default(),
        [cway("foxwoods"), cway("foxwoods"), cway("foxwoods")],
    );
    bench_job(
        &mut group,
        "table: 100k rounds, 6 seats betting",
        &table.unwrap(),
    );
    let deal_plan = Plan::new(DEALS, DEALS, 1).unwrap();
    group.bench_function("deal-only baseline: 100k deals, 1 player", |b| {
        b.iter(|| sim::deal_only(game.deck, &deal_plan, 1, &|_| {}))
    });
    group.bench_function(
        "floor: 100k deals of 14 cards, plain array, same RNG",
        |b| b.iter(|| sim::floor(game.deck, &deal_plan, 1, &|_| {})),
    );
    group.finish();
}

criterion_group!(engines, benches);
criterion_main!(engines);
