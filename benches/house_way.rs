//! Setting speed per shipped house way: 100,000 fixed-seed hands of the standard game, split
//! values included. Reported per hand, two ways: each hand set from scratch by the compiled rules
//! ("direct"), and through the shape cache that simulations use ("cached"), warmed first on
//! 1,000,000 other hands (a different seed), as it is after the first seconds of a run. Last,
//! `optimal:foxwoods` (its dealer table read from the cache, or built once before timing).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use paigow::eval::Evaluator;
use paigow::game::GameRules;
use paigow::optimal::OptimalWay;
use paigow::strategy::Strategy;
use paigow::way::cache::CachedWay;
use paigow::way::{HouseWay, SHIPPED_WAYS, sample_hands};

const HANDS: usize = 100_000;

fn bench(c: &mut Criterion) {
    let game = GameRules::load("standard").unwrap();
    let ev = Evaluator::new(game.ranking);
    let hands: Vec<_> = sample_hands(game.deck, 42).take(HANDS).collect();
    let mut group = c.benchmark_group("house_way_set");
    group.throughput(Throughput::Elements(HANDS as u64));
    group.sample_size(10);
    group.bench_function("split_values only", |b| {
        b.iter(|| {
            hands
                .iter()
                .map(|h| ev.split_values(h).front[0].0 as u64)
                .sum::<u64>()
        })
    });
    for (name, _, _) in SHIPPED_WAYS {
        let way = HouseWay::load(name).unwrap();
        group.bench_function(format!("{name} direct"), |b| {
            b.iter(|| {
                hands
                    .iter()
                    .map(|h| way.set(h, &ev.split_values(h)).split as u64)
                    .sum::<u64>()
            })
        });
        let cached = CachedWay::new(HouseWay::load(name).unwrap());
        for h in sample_hands(game.deck, 7).take(1_000_000) {
            cached.choose(&h, &ev.split_values(&h), None);
        }
        group.bench_function(format!("{name} cached"), |b| {
            b.iter(|| {
                hands
                    .iter()
                    .map(|h| cached.choose(h, &ev.split_values(h), None) as u64)
                    .sum::<u64>()
            })
        });
    }
    let note = |text: &str| eprintln!("{text}");
    let cache = paigow::optimal::cache::default_dir();
    let optimal = OptimalWay::load("foxwoods", &game, cache.as_deref(), &note).unwrap();
    group.bench_function("optimal:foxwoods direct", |b| {
        b.iter(|| {
            hands
                .iter()
                .map(|h| optimal.choose(h, &ev.split_values(h), None) as u64)
                .sum::<u64>()
        })
    });
    let cached = CachedWay::new(optimal);
    for h in sample_hands(game.deck, 7).take(1_000_000) {
        cached.choose(&h, &ev.split_values(&h), None);
    }
    group.bench_function("optimal:foxwoods cached", |b| {
        b.iter(|| {
            hands
                .iter()
                .map(|h| cached.choose(h, &ev.split_values(h), None) as u64)
                .sum::<u64>()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
