//! Criterion: the parts of `exact main` that a bench can repeat (the full count of one game and
//! pair of ways takes tens of seconds: its phases are timed by the command itself, see
//! `docs/benchmarks.md`), and one hand priced exactly.
//!
//! - "price one hand": `HandPricer::hand_exact` of 100 sampled standard hands against Foxwoods
//!   (every dealer hand of the other 46 cards, by shape), the pricer built outside the timing;
//! - "count a reduced deck": every disjoint pair of the 21-card deck A2345 + joker (5 ranks in
//!   four suits), Foxwoods against Foxwoods, shapes set and counted, one thread;
//! - "price table of a reduced deck": every setting of every shape of the 29-card deck 2-8 +
//!   joker (7 ranks in four suits) against Foxwoods, the dealer shapes set outside the timing,
//!   one thread (the full table's work is the same pass over 13 ranks: `exact prices` times it).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use paigow::cards::deal::sample_hands;
use paigow::engine::exact_main::{self, Progress};
use paigow::eval::Evaluator;
use paigow::game::GameRules;
use paigow::strategy::deck_shapes::SuitDeck;
use paigow::strategy::optimal::pricer::HandPricer;
use paigow::strategy::resolve::resolve;

const HANDS: usize = 100;

fn benches(c: &mut Criterion) {
    let game = GameRules::load("standard").unwrap();
    let ev = Evaluator::new(game.ranking);
    let fox = resolve("foxwoods", &game).unwrap();
    let pricer = HandPricer::new(&game, &*fox.strategy);
    let hands: Vec<_> = sample_hands(game.deck, 3).take(HANDS).collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();

    let mut group = c.benchmark_group("exact main");
    group.sample_size(10);
    group.throughput(Throughput::Elements(HANDS as u64));
    group.bench_function("price one hand: 100 standard hands against foxwoods", |b| {
        b.iter(|| {
            (hands.iter())
                .map(|h| pricer.hand_exact(&ev.split_values(h), h).dealer_hands)
                .sum::<u64>()
        })
    });
    let deck = SuitDeck::new(0b1_0000_0000_1111, 1).unwrap();
    group.throughput(Throughput::Elements(1));
    group.bench_function(
        "count a reduced deck: A2345 + joker, foxwoods vs foxwoods, 1 thread",
        |b| {
            b.iter(|| {
                pool.install(|| {
                    let (p, d) = (&*fox.strategy, &*fox.strategy);
                    exact_main::count(&game, deck, p, d, &Progress::silent())
                        .unwrap()
                        .exact
                })
            })
        },
    );
    let deck = SuitDeck::new(0b0_0000_0111_1111, 1).unwrap();
    let reduced = HandPricer::with_deck(&game, deck, &*fox.strategy);
    group.bench_function(
        "price table of a reduced deck: 2-8 + joker against foxwoods, 1 thread",
        |b| b.iter(|| pool.install(|| reduced.shape_prices(&ev, &|_| ()).len())),
    );
    group.finish();
}

criterion_group!(exact, benches);
criterion_main!(exact);
