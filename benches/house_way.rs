//! Setting speed per shipped house way: 100,000 fixed-seed hands of the standard game, split
//! values included. Reported per hand, three ways: each hand set from scratch by the compiled
//! rules ("direct"); through the shape cache, warmed first on 1,000,000 other hands (a different
//! seed), as it is after the first seconds of a run, with the split search always done
//! ("cached"); and as `simulate` sets a hand "from cards": the cache's known setting (no split
//! search), else the split search and the way (hands a suit could make a flush with, and misses). Last,
//! `optimal:foxwoods` (its dealer table read from the cache, or built once before timing).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use paigow::cards::Card;
use paigow::cards::deal::sample_hands;
use paigow::eval::Evaluator;
use paigow::game::GameRules;
use paigow::strategy::Strategy;
use paigow::strategy::cached::CachedWay;
use paigow::strategy::optimal::FullDeckOptimal;
use paigow::strategy::setting_of;
use paigow::strategy::way::{HouseWay, SHIPPED_WAYS};

const HANDS: usize = 100_000;

/// A hand set as `simulate` sets it: the cache's known setting, else the split search and the way.
fn set_from_cards(ev: &Evaluator, way: &dyn Strategy, hand: &[Card; 7]) -> u64 {
    let known = way
        .known_setting(hand)
        .unwrap_or_else(|| setting_of(ev, way, hand, None).1);
    u64::from(known.front.0 ^ known.back.0)
}

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
        group.bench_function(format!("{name} from cards"), |b| {
            b.iter(|| {
                hands
                    .iter()
                    .map(|h| set_from_cards(&ev, &cached, h))
                    .sum::<u64>()
            })
        });
    }
    let optimal = FullDeckOptimal::load_default(
        &paigow::strategy::resolve::dealer_way("foxwoods", &game)
            .unwrap()
            .way,
        &game,
    );
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
    group.bench_function("optimal:foxwoods from cards", |b| {
        b.iter(|| {
            hands
                .iter()
                .map(|h| set_from_cards(&ev, &cached, h))
                .sum::<u64>()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
