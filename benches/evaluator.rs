//! Evaluator benchmarks: named workloads over the real API.
//!
//! - rank5: `value5` over all 2,869,685 five-card hands of the 53-card deck (hands prepared
//!   first, so only evaluation is timed).
//! - splits: the 21-split search (`split_values`) over 100,000 fixed random 7-card hands of the
//!   53-card deck (seeded Xoshiro256++).
//! - exact categories 54-card: `exact::category_counts` by structure and by brute force.

use std::hint::black_box;

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use paigow::cards::{Card, Cards, Deck};
use paigow::engine::exact::{Method, category_counts};
use paigow::eval::{Evaluator, Ranking};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Every 5-card hand of `deck`.
fn all_five_card_hands(deck: Deck) -> Vec<Cards> {
    let cards = deck.cards();
    let n = cards.len();
    let mut out = Vec::with_capacity(2_869_685);
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                for d in c + 1..n {
                    for e in d + 1..n {
                        out.push(Cards::from_cards(&[
                            cards[a], cards[b], cards[c], cards[d], cards[e],
                        ]));
                    }
                }
            }
        }
    }
    out
}

/// `count` random 7-card hands of `deck` from a fixed seed.
fn random_hands(deck: Deck, count: usize, seed: u64) -> Vec<[Card; 7]> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut cards = deck.cards();
    (0..count)
        .map(|_| {
            for i in 0..7 {
                let j = rng.random_range(i..cards.len());
                cards.swap(i, j);
            }
            cards[..7].try_into().expect("seven cards")
        })
        .collect()
}

fn rank5(c: &mut Criterion) {
    let ev = Evaluator::new(Ranking::default());
    let hands = all_five_card_hands(Deck::with_jokers(1).unwrap());
    assert_eq!(hands.len(), 2_869_685);
    let mut group = c.benchmark_group("rank5");
    group.throughput(Throughput::Elements(hands.len() as u64));
    group.bench_function("all 2,869,685 five-card hands of the 53-card deck", |b| {
        b.iter(|| {
            hands.iter().fold(0u64, |acc, &h| {
                acc.wrapping_add(ev.value5(black_box(h)).0 as u64)
            })
        })
    });
    group.finish();
}

fn splits(c: &mut Criterion) {
    let ev = Evaluator::new(Ranking::default());
    let hands = random_hands(Deck::with_jokers(1).unwrap(), 100_000, 2024);
    let mut group = c.benchmark_group("splits");
    group.throughput(Throughput::Elements(hands.len() as u64));
    group.bench_function(
        "21-split search over 100,000 fixed random 7-card hands",
        |b| {
            b.iter(|| {
                hands.iter().fold(0usize, |acc, h| {
                    let v = ev.split_values(black_box(h));
                    acc + v.legal_splits().count()
                })
            })
        },
    );
    group.finish();
}

fn exact(c: &mut Criterion) {
    let ev = Evaluator::new(Ranking::default());
    let deck = Deck::with_jokers(2).unwrap();
    let mut group = c.benchmark_group("exact categories 54-card");
    // C(54,7) hands counted per run.
    group.throughput(Throughput::Elements(177_100_560));
    group.bench_function("structure", |b| {
        b.iter(|| category_counts(&ev, black_box(deck), Method::Structure))
    });
    // One dealing of all 177 million hands per iteration: flat sampling, ten samples.
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.bench_function("brute", |b| {
        b.iter(|| category_counts(&ev, black_box(deck), Method::Brute))
    });
    group.finish();
}

criterion_group!(benches, rank5, splits, exact);
criterion_main!(benches);
