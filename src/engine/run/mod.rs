//! The run engine: one skeleton that every Monte Carlo command (`simulate`, `compare`, `table`)
//! reuses, so all of them get the fast path, shards, checkpoints, resume and merge.
//!
//! A run is a [`Plan`] (deals, chunk size, seed) and a [`Job`] (how one round is dealt, set,
//! settled and tallied). The deals are cut into chunks of `chunk_size` rounds (the last one
//! shorter); chunk `i` deals from its own RNG stream, [`chunk_rng`]`(seed, i)`, off a fresh shoe,
//! so what a chunk tallies depends only on (seed, chunk index, job), never on which thread runs it
//! or when. [`run_chunk`] deals each round [`LOOKAHEAD`] rounds ahead of playing it: round
//! `r + LOOKAHEAD` is dealt (and the job asks the memory system for the cache lines its hands
//! need) before round `r` is played; playing draws no random numbers and a round is dealt
//! afresh into its buffer, so the deals are exactly those of dealing and playing in turn.
//! [`run_chunks`] runs any set of chunks in parallel (rayon), reporting each finished chunk and
//! starting none once a stop flag is set.
//!
//! Invariants: a [`Tally`] holds only integers and [`Tally::merge`] is addition (associative and
//! commutative), so the sum of the tallies of disjoint chunk sets that cover every chunk equals
//! the whole run's tally, at any thread count and in any order; floats are made later, from the
//! tally, in `report`.

pub mod chunks;
pub mod spec;

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use thiserror::Error;

use crate::cards::Deck;
use crate::cards::deal::{ChunkRng, Shoe, chunk_rng};

/// The most worker threads a run may start.
pub const MAX_THREADS: usize = 1024;

/// Why a run cannot start.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum RunError {
    #[error("the number of deals must be at least 1")]
    NoDeals,
    #[error("the chunk size must be at least 1")]
    NoChunkSize,
    #[error("threads must be 1 to {MAX_THREADS}, got {0}")]
    ThreadCount(usize),
    #[error("cannot start {0} threads: {1}")]
    Threads(usize, String),
    #[error("chunk {0} is not in this run, which has chunks 0 to {max}", max = .1 - 1)]
    NoSuchChunk(u64, u64),
}

/// How many rounds a run deals, in chunks of how many, from which seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Rounds (shuffles) to deal.
    pub deals: u64,
    /// Rounds per chunk (one RNG stream each).
    pub chunk_size: u64,
    pub seed: u64,
}

impl Plan {
    /// A plan of at least one deal in chunks of at least one.
    pub fn new(deals: u64, chunk_size: u64, seed: u64) -> Result<Plan, RunError> {
        match (deals, chunk_size) {
            (0, _) => Err(RunError::NoDeals),
            (_, 0) => Err(RunError::NoChunkSize),
            _ => Ok(Plan {
                deals,
                chunk_size,
                seed,
            }),
        }
    }

    /// Number of chunks.
    pub fn chunks(&self) -> u64 {
        self.deals.div_ceil(self.chunk_size)
    }

    /// Rounds in chunk `chunk` (`chunk < chunks()`).
    pub fn chunk_len(&self, chunk: u64) -> u64 {
        self.chunk_size.min(self.deals - chunk * self.chunk_size)
    }

    /// Rounds in the chunks `start..end` (clipped to the run).
    pub fn deals_in(&self, chunks: std::ops::Range<u64>) -> u64 {
        let at = |c: u64| c.saturating_mul(self.chunk_size).min(self.deals);
        at(chunks.end) - at(chunks.start)
    }
}

/// The integer results of some rounds of a job.
pub trait Tally:
    Clone + Send + Sync + std::fmt::Debug + PartialEq + Serialize + DeserializeOwned
{
    /// Adds `other` (the tally of other chunks) into this one.
    fn merge(&mut self, other: &Self);

    /// Rounds tallied.
    fn rounds(&self) -> u64;

    /// Checks that the counts agree with each other (for tallies read back from a file).
    fn check(&self) -> Result<(), String>;
}

/// One kind of round: how it is dealt, then played into a tally.
pub trait Job: Sync {
    type Tally: Tally;
    /// One dealt round, kept between dealing and playing.
    type Round: Send;

    /// The deck a shoe holds.
    fn deck(&self) -> Deck;

    /// A round buffer to deal into.
    fn empty_round(&self) -> Self::Round;

    /// A tally of no rounds.
    fn empty_tally(&self) -> Self::Tally;

    /// Deals one round off the shoe (drawing everything it needs from `rng`) and asks for the
    /// memory its hands will need when played.
    fn deal(&self, shoe: &mut Shoe, rng: &mut ChunkRng, round: &mut Self::Round);

    /// Sets, settles and tallies a dealt round; `deal` is its index in the run. Draws nothing.
    /// The round is the job's to use as scratch space while it plays (it is dealt afresh
    /// before it is played again), so that a job need not clear buffers of its own each round.
    fn play(&self, round: &mut Self::Round, deal: u64, tally: &mut Self::Tally);

    /// Folds into `tally` whatever `play` kept aside during the chunk; called once, after the
    /// chunk's last round, before the tally is merged or written.
    fn end_chunk(&self, _tally: &mut Self::Tally) {}

    /// A conservative estimate of the seconds one thread needs for the rounds of `plan` (and
    /// anything the job computes after them), for refusing runs that would take days: well
    /// below the rates the benchmarks measure, so that the estimate errs long.
    fn estimated_seconds(&self, plan: &Plan) -> f64;

    /// Checks a tally read back from a file (a checkpoint resumed, a shard merged) against this
    /// job: by default against itself only ([`Tally::check`]); a job whose tally's figures
    /// follow from its configuration checks them too (a simulation: the net and the sum of
    /// squared nets against the outcome counts).
    fn check_read_tally(&self, tally: &Self::Tally) -> Result<(), String> {
        tally.check()
    }
}

/// How many rounds ahead of playing [`run_chunk`] deals. The cache lines a round's hands need
/// (a shape cache's entry, the flush-shape table's slot: together several MB, so often in no
/// core cache) are requested when it is dealt, and one round of `simulate` (about 50 ns) is
/// shorter than a read from memory; three rounds ahead measured fastest (1 to 5 tried).
pub const LOOKAHEAD: usize = 3;

/// Deals and tallies chunk `chunk`: round `r + LOOKAHEAD` is dealt (into a ring of
/// `LOOKAHEAD + 1` buffers, rotated by reference) before round `r` is played.
pub fn run_chunk<J: Job>(job: &J, plan: &Plan, chunk: u64) -> J::Tally {
    let mut rng = chunk_rng(plan.seed, chunk);
    let mut shoe = Shoe::new(job.deck());
    let mut tally = job.empty_tally();
    let rounds = plan.chunk_len(chunk);
    let first = chunk * plan.chunk_size;
    let mut buffers: [J::Round; LOOKAHEAD + 1] = std::array::from_fn(|_| job.empty_round());
    let mut ring = buffers.each_mut();
    for round in &mut ring[..LOOKAHEAD.min(rounds as usize)] {
        job.deal(&mut shoe, &mut rng, round);
    }
    for r in 0..rounds {
        if r + (LOOKAHEAD as u64) < rounds {
            job.deal(&mut shoe, &mut rng, ring[LOOKAHEAD]);
        }
        job.play(ring[0], first + r, &mut tally);
        ring.rotate_left(1);
    }
    job.end_chunk(&mut tally);
    tally
}

/// Runs the chunks `chunks` (each below `plan.chunks()`) on the current rayon pool and returns
/// the sum of the chunks it ran. `done(chunk, &tally)` is called as each chunk finishes, from the
/// worker that ran it. Once `stop` is set no further chunk is started (chunks already running
/// finish and are reported), so the result then covers exactly the chunks passed to `done`.
pub fn run_chunks<J: Job>(
    job: &J,
    plan: &Plan,
    chunks: &[u64],
    stop: &AtomicBool,
    done: &(dyn Fn(u64, &J::Tally) + Sync),
) -> Result<J::Tally, RunError> {
    let all = plan.chunks();
    if let Some(&bad) = chunks.iter().find(|&&c| c >= all) {
        return Err(RunError::NoSuchChunk(bad, all));
    }
    let tally = chunks
        .par_iter()
        .map(|&chunk| {
            if stop.load(Ordering::Relaxed) {
                return job.empty_tally();
            }
            let tally = run_chunk(job, plan, chunk);
            done(chunk, &tally);
            tally
        })
        .reduce(
            || job.empty_tally(),
            |mut a, b| {
                a.merge(&b);
                a
            },
        );
    Ok(tally)
}

/// Runs every chunk of `plan` on the current rayon pool; `progress` hears each chunk's rounds.
pub fn run_all<J: Job>(job: &J, plan: &Plan, progress: &(dyn Fn(u64) + Sync)) -> J::Tally {
    let chunks: Vec<u64> = (0..plan.chunks()).collect();
    let never = AtomicBool::new(false);
    run_chunks(job, plan, &chunks, &never, &|_, t| progress(t.rounds()))
        .expect("every chunk of the plan is in the run")
}

/// A rayon pool of `threads` worker threads (1 to [`MAX_THREADS`]).
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, RunError> {
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(RunError::ThreadCount(threads));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| RunError::Threads(threads, e.to_string()))
}

/// Serde of `i128`/`u128` sums as decimal strings, so that every value round-trips exactly
/// through JSON.
/// Exact sums over `count` items of each `net`: how many (`n`), the sum and the sum of
/// squares, in the integers a tally keeps. The one home of this arithmetic: a tally read off its
/// counts, and every report's moments ([`crate::report::stats::Sums`]).
pub fn counted_sums(counts: impl IntoIterator<Item = (u64, i64)>) -> (u64, i128, u128) {
    let (mut n, mut sum, mut squares) = (0u64, 0i128, 0u128);
    for (count, net) in counts {
        n += count;
        sum += i128::from(count) * i128::from(net);
        squares += u128::from(count) * u128::from(net.unsigned_abs()).pow(2);
    }
    (n, sum, squares)
}

pub mod decimal {
    use std::fmt::Display;
    use std::str::FromStr;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<T: Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(value)
    }

    pub fn deserialize<'de, T: FromStr, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(|_| {
            serde::de::Error::custom(format!("\"{text}\" is not a whole number in range"))
        })
    }
}

/// Serde of a list of `i128` sums as decimal strings (see [`decimal`]).
pub mod decimals {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(values: &[i128], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(values.iter().map(i128::to_string))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<i128>, D::Error> {
        let texts = Vec::<String>::deserialize(d)?;
        (texts.iter())
            .map(|text| {
                text.parse().map_err(|_| {
                    serde::de::Error::custom(format!("\"{text}\" is not a whole number in range"))
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_cut_deals_into_chunks() {
        let plan = Plan::new(2_500, 300, 1).unwrap();
        assert_eq!(plan.chunks(), 9);
        assert_eq!(plan.chunk_len(0), 300);
        assert_eq!(plan.chunk_len(8), 100);
        assert_eq!(plan.deals_in(0..9), 2_500);
        assert_eq!(plan.deals_in(8..12), 100);
        assert_eq!(Plan::new(0, 1, 1), Err(RunError::NoDeals));
        assert_eq!(Plan::new(1, 0, 1), Err(RunError::NoChunkSize));
        assert!(matches!(thread_pool(0), Err(RunError::ThreadCount(0))));
        assert!(matches!(
            thread_pool(1025),
            Err(RunError::ThreadCount(1025))
        ));
    }
}
