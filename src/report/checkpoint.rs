//! Checkpoints: a run's tally and completed chunks saved as it goes, so a killed run resumes.
//!
//! A checkpoint is a [`Partial`] of kind `checkpoint` (see [`crate::report::partial`] for the
//! format)
//! covering the chunks finished so far. [`Checkpointer`] adds each finished chunk's tally to its
//! state and saves the whole state atomically ([`crate::files::write_atomic`]) once
//! `every` has passed or `every_chunks` chunks have finished since the last save, and when asked
//! (on completion or interruption). Saves happen under the state's lock, so the file always holds
//! a tally equal to the sum of exactly the chunks it lists, never a torn mixture.
//!
//! [`interrupt_flag`] installs one handler for SIGINT, SIGTERM (and SIGHUP) that only sets a
//! flag: the engine then starts no new chunk, the command saves a checkpoint and exits non-zero.
//! A second signal exits at once (status 130); the last saved checkpoint is still whole.
//! After SIGKILL, whatever was last saved is resumed: chunks finished after that save are run
//! again, and since a chunk's tally depends only on (seed, chunk, configuration), the resumed
//! total equals the uninterrupted one exactly.
//!
//! [`resume`] refuses a shard result or a checkpoint of another run (different tool version,
//! command, game, way, option, seed, deals, chunk size or shard), naming the first difference,
//! before it reads the checkpoint's tally.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::de::DeserializeOwned;

use crate::engine::run::Tally;
use crate::engine::run::chunks::{ChunkSet, ShardSpec};
use crate::report::facts::RunFacts;
use crate::report::partial::{Partial, PartialError, PartialKind, same_run};

/// What a run has finished so far.
struct State<T> {
    tally: T,
    done: BTreeSet<u64>,
    since_save: u64,
    last_save: Instant,
    /// The first save that failed, reported when the run stops.
    error: Option<String>,
}

/// Accumulates finished chunks and saves them to a checkpoint file.
pub struct Checkpointer<T> {
    path: PathBuf,
    /// Everything but the chunks and tally (kind `checkpoint`).
    base: Partial<T>,
    every: Duration,
    every_chunks: Option<u64>,
    started: Instant,
    threads: usize,
    state: Mutex<State<T>>,
}

impl<T: Tally> Checkpointer<T> {
    /// A checkpointer writing `base` (with the chunks and tally so far) to `path`, starting from
    /// the chunks `done` and their tally `tally` (empty for a fresh run).
    pub fn new(
        path: &Path,
        base: Partial<T>,
        (every, every_chunks): (Duration, Option<u64>),
        threads: usize,
        done: BTreeSet<u64>,
        tally: T,
    ) -> Checkpointer<T> {
        Checkpointer {
            path: path.to_path_buf(),
            base: Partial {
                kind: PartialKind::Checkpoint,
                ..base
            },
            every,
            every_chunks,
            started: Instant::now(),
            threads,
            state: Mutex::new(State {
                tally,
                done,
                since_save: 0,
                last_save: Instant::now(),
                error: None,
            }),
        }
    }

    /// Records a finished chunk; saves if it is time. A failed save sets `stop` (the run cannot
    /// be protected any more) and is reported by [`Checkpointer::finish`].
    pub fn chunk_done(&self, chunk: u64, tally: &T, stop: &AtomicBool) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.tally.merge(tally);
        state.done.insert(chunk);
        state.since_save += 1;
        let due = state.last_save.elapsed() >= self.every
            || self.every_chunks.is_some_and(|n| state.since_save >= n);
        if due
            && state.error.is_none()
            && let Err(e) = self.save_locked(&mut state)
        {
            state.error = Some(e);
            stop.store(true, Ordering::Relaxed);
        }
    }

    /// Saves now; returns the chunks done and their tally, or the first save error.
    pub fn finish(&self) -> Result<(BTreeSet<u64>, T), String> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = state.error.take() {
            return Err(e);
        }
        self.save_locked(&mut state)?;
        Ok((state.done.clone(), state.tally.clone()))
    }

    fn save_locked(&self, state: &mut State<T>) -> Result<(), String> {
        let chunk_ranges = ChunkSet::from_chunks(&state.done);
        let facts = RunFacts::of_this_run(self.threads, self.started.elapsed().as_secs_f64());
        let partial = self.base.covering(chunk_ranges, state.tally.clone(), facts);
        crate::files::write_atomic(&self.path, partial.to_json().as_bytes())
            .map_err(|e| format!("{}: cannot write the checkpoint: {e}", self.path.display()))?;
        state.since_save = 0;
        state.last_save = Instant::now();
        Ok(())
    }
}

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The flag set by SIGINT, SIGTERM or SIGHUP, with the handler installed on first call. A
/// second signal exits the process at once with status 130.
pub fn interrupt_flag() -> Result<&'static AtomicBool, String> {
    static INSTALLED: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    INSTALLED
        .get_or_init(|| {
            ctrlc::set_handler(|| {
                if INTERRUPTED.swap(true, Ordering::SeqCst) {
                    std::process::exit(130);
                }
            })
            .map_err(|e| format!("cannot handle SIGINT/SIGTERM: {e}"))
        })
        .clone()?;
    Ok(&INTERRUPTED)
}

/// Reads the checkpoint at `path` to resume the run described by `expected`: refuses a shard
/// result or a checkpoint of another run ([`resume_check`]) before reading its tally, then
/// returns its chunks and tally.
pub fn resume<T: Tally + DeserializeOwned>(
    path: &Path,
    expected: &Partial<T>,
) -> Result<(BTreeSet<u64>, T), PartialError> {
    let file = path.display().to_string();
    let header = crate::report::partial::read_header(path)?;
    resume_check(&file, &header, expected)?;
    let saved = header.with_tally::<T>(&file)?;
    Ok((saved.chunk_ranges.chunks().collect(), saved.tally))
}

/// Checks that checkpoint `saved` (read from `file`; its tally need not be read yet) belongs to
/// the run described by `expected`.
pub fn resume_check<S, T>(
    file: &str,
    saved: &Partial<S>,
    expected: &Partial<T>,
) -> Result<(), PartialError> {
    let invalid = |message: String| PartialError::Invalid {
        file: file.to_string(),
        message,
    };
    if saved.kind != PartialKind::Checkpoint {
        return Err(invalid(
            "is a shard result, not a checkpoint: merge it with `paigow merge`".to_string(),
        ));
    }
    same_run(file, saved, "this run", expected)?;
    if saved.shard != expected.shard {
        let show = |s: Option<ShardSpec>| s.map_or("none".to_string(), |s| s.to_string());
        return Err(invalid(format!(
            "is a checkpoint of shard {}, but this run is shard {}",
            show(saved.shard),
            show(expected.shard)
        )));
    }
    Ok(())
}
