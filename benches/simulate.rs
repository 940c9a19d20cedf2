//! Criterion: the hot loop of `simulate` on a fixed batch of deals, against the deal-only
//! baseline (same chunk size and shuffles, no setting), so the ratio of the two is the cost of
//! setting and settling.
//!
//! "100k standard deals": chunk 0 (100,000 deals, seed 1) of the standard game, Foxwoods against
//! Foxwoods, one thread, both side bets settled. The engine (evaluator, side-bet line tables) is
//! built once outside the timing, and the shape caches are first warmed on chunks 1 to 10 (a
//! million other deals), as they are a few seconds into a long run.

use std::sync::atomic::AtomicBool;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use paigow::engine::simulate::{self as sim, Engine, SimConfig};
use paigow::game::GameRules;
use paigow::strategy::resolve::resolve;

const DEALS: u64 = 100_000;
const WARM_UP_CHUNKS: u64 = 10;

fn benches(c: &mut Criterion) {
    let game = GameRules::load("standard").unwrap();
    let cfg = SimConfig {
        player: resolve("foxwoods", &game).unwrap().strategy,
        dealer: resolve("foxwoods", &game).unwrap().strategy,
        game,
        deals: DEALS * (1 + WARM_UP_CHUNKS),
        seed: 1,
        chunk_size: DEALS,
        players: 1,
    };
    let engine = Engine::new(&cfg).unwrap();
    let pool = sim::thread_pool(1).unwrap();
    let never = AtomicBool::new(false);
    let run = |chunks: &[u64]| {
        pool.install(|| engine.run_chunks(chunks, &never, &|_, _| {}))
            .unwrap()
    };
    run(&(1..=WARM_UP_CHUNKS).collect::<Vec<_>>());

    let mut group = c.benchmark_group("simulate");
    group.throughput(Throughput::Elements(DEALS));
    group.sample_size(10);
    group.bench_function("100k standard deals, foxwoods vs foxwoods, 1 thread", |b| {
        b.iter(|| run(&[0]))
    });
    group.bench_function("100k deals, deal-only baseline, 1 thread", |b| {
        b.iter(|| pool.install(|| sim::deal_only(cfg.game.deck, 1, DEALS, DEALS, 1, &|_| {})))
    });
    group.finish();
}

criterion_group!(simulate, benches);
criterion_main!(simulate);
