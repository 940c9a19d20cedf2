//! Criterion: "simulate: 100,000 standard deals, foxwoods vs foxwoods, one thread" against the
//! deal-only baseline (same chunks and shuffles, no setting), so the ratio of the two is the cost
//! of evaluating, setting and settling.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use paigow::game::GameRules;
use paigow::sim::{self, SimConfig};
use paigow::strategy::resolve;

const DEALS: u64 = 100_000;

fn benches(c: &mut Criterion) {
    let game = GameRules::load("standard").unwrap();
    let cfg = SimConfig {
        player: resolve("foxwoods", &game).unwrap(),
        dealer: resolve("foxwoods", &game).unwrap(),
        game,
        deals: DEALS,
        seed: 1,
        chunk_size: 65_536,
        players: 1,
    };
    let pool = sim::thread_pool(1).unwrap();
    let mut group = c.benchmark_group("simulate");
    group.throughput(Throughput::Elements(DEALS));
    group.sample_size(10);
    group.bench_function("100k standard deals, foxwoods vs foxwoods, 1 thread", |b| {
        b.iter(|| pool.install(|| sim::run(&cfg, &|_| {}).unwrap()))
    });
    group.bench_function("100k deals, deal-only baseline, 1 thread", |b| {
        b.iter(|| pool.install(|| sim::deal_only(cfg.game.deck, 1, DEALS, 65_536, 1, &|_| {})))
    });
    group.finish();
}

criterion_group!(simulate, benches);
criterion_main!(simulate);
