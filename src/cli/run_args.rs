//! What every Monte Carlo command (`simulate`, `compare`, `table`) shares on the command line:
//! one set of run arguments ([`RunArgs`]) and one driver ([`execute`]) that runs a job with
//! progress, a shard of it, checkpoints and resume, and hands back the tally to report.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Args;

use crate::engine::run::chunks::{ChunkSet, ShardSpec};
use crate::engine::run::spec::RunSpec;
use crate::engine::run::{Job, MAX_THREADS, Plan, Tally, run_chunks, thread_pool};
use crate::report::checkpoint::{self, Checkpointer};
use crate::report::facts::RunFacts;
use crate::report::partial::{CheckpointFacts, Partial, PartialKind, RunExtra};

/// The run arguments of `simulate`, `compare` and `table`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Rounds to deal: 1000000, 1_000_000, 1e6 or 2.5e8.
    #[arg(long, short = 'n', visible_alias = "rounds", value_parser = parse_count, allow_negative_numbers = true)]
    pub deals: u64,
    /// Seed of the run; the same seed and arguments give the same reports.
    #[arg(long, short = 's', default_value_t = 1, allow_negative_numbers = true)]
    pub seed: u64,
    /// Worker threads, 1 to 1024 (default: one per core). Reports do not depend on it.
    #[arg(long, short = 't', value_parser = parse_threads, allow_negative_numbers = true)]
    pub threads: Option<usize>,
    /// Rounds per chunk, each with its own RNG stream. Changing it changes the deals.
    #[arg(long, default_value = "65536", value_parser = parse_count, allow_negative_numbers = true)]
    pub chunk_size: u64,
    /// Report directory (default: runs/COMMAND/NAME, named after the run).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// No summary on stdout and no progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Run only shard K of M (1 <= K <= M): a fixed range of the chunks. Writes the partial
    /// result OUT/shard-K-of-M.json instead of reports; combine the M shards with `paigow merge`.
    #[arg(long, value_name = "K/M")]
    pub shard: Option<ShardSpec>,
    /// Save the run's progress to FILE as it goes (atomically), and on Ctrl-C or SIGTERM.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Continue the run saved in the --checkpoint FILE (a missing FILE starts the run afresh).
    #[arg(long, requires = "checkpoint")]
    pub resume: bool,
    /// Seconds between checkpoint saves.
    #[arg(long, value_name = "SECONDS", default_value_t = 5, requires = "checkpoint",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub checkpoint_every: u64,
    /// Run even when the run is estimated to take more than a day.
    #[arg(long)]
    pub force: bool,
    /// Also save the checkpoint after every N chunks (for tests).
    #[arg(long, hide = true, requires = "checkpoint",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub checkpoint_every_chunks: Option<u64>,
}

impl RunArgs {
    /// The threads asked for, or one per core.
    pub fn thread_count(&self) -> usize {
        (self.threads)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
            .min(MAX_THREADS)
    }

    /// The run's plan.
    pub fn plan(&self) -> anyhow::Result<Plan> {
        Ok(Plan::new(self.deals, self.chunk_size, self.seed)?)
    }
}

/// A count written as digits with optional `_` separators, or in scientific notation (`2.5e8`).
pub fn parse_count(text: &str) -> Result<u64, String> {
    let bad = || format!("'{text}' is not a whole number such as 1000000, 1_000_000 or 1e6");
    let well_placed = |s: &str| !s.starts_with('_') && !s.ends_with('_') && !s.contains("__");
    if !text.split(['e', 'E', '.']).all(well_placed) {
        return Err(bad());
    }
    let clean: String = text.chars().filter(|&c| c != '_').collect();
    let (mantissa, exponent) = match clean.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<u32>().map_err(|_| bad())?),
        None => (clean.as_str(), 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{whole}{fraction}");
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let shift = exponent
        .checked_sub(fraction.len() as u32)
        .ok_or_else(|| format!("'{text}' is not a whole number"))?;
    let value = digits
        .parse::<u64>()
        .ok()
        .and_then(|d| 10u64.checked_pow(shift).and_then(|p| d.checked_mul(p)))
        .ok_or_else(|| format!("'{text}' is too large"))?;
    if value == 0 {
        return Err("must be at least 1".to_string());
    }
    Ok(value)
}

/// `--threads N` of a command that counts exactly (`exact`, `cost-way`, `sweep-way`,
/// `derive-way`): the workers of its pool, range-checked as every command's `--threads` is.
#[derive(Args, Debug, Clone, Copy)]
pub struct ThreadsArg {
    /// Worker threads, 1 to 1024 (default: one per core). The results are the same at any number.
    #[arg(long = "threads", value_name = "THREADS", value_parser = parse_threads, allow_negative_numbers = true)]
    pub count: Option<usize>,
}

impl ThreadsArg {
    /// A pool of the threads asked for, and their number; by default the global pool's (one per
    /// core, or `RAYON_NUM_THREADS`, which the long run sets to 1).
    pub fn pool(self) -> anyhow::Result<(rayon::ThreadPool, usize)> {
        let threads = (self.count)
            .unwrap_or_else(rayon::current_num_threads)
            .min(MAX_THREADS);
        Ok((thread_pool(threads)?, threads))
    }
}

/// A thread count from 1 to [`MAX_THREADS`].
pub fn parse_threads(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!(
            "'{text}': threads must be a whole number from 1 to {MAX_THREADS}"
        )),
    }
}

/// Where a command writes when no `--out` is given: `runs/COMMAND/NAME` under the current
/// directory (`runs/` is ignored by git, so a run in a checkout leaves its tree clean; the
/// committed reports under `reports/` are written with explicit `--out`s by
/// `reports/regenerate.sh`).
pub fn default_dir(command: &str, name: String) -> PathBuf {
    PathBuf::from("runs").join(command).join(name)
}

/// A name reduced to a file stem, for default report directories.
pub fn stem(name: &str) -> String {
    Path::new(name).file_stem().map_or_else(
        || name.to_string(),
        |f| f.to_string_lossy().replace(':', "_"),
    )
}

/// Checks before a run that its results can be written: a shard's partial file into the
/// directory `out` (created), or a report set in `out`'s place (`out` must be new, empty or an
/// earlier report set, and its parent writable), so a long run cannot fail at its end.
pub fn prepare_out(out: &Path, shard: bool) -> anyhow::Result<()> {
    if !shard {
        crate::files::check_replaceable_dir(out)?;
    }
    let dir = match (shard, out.parent().filter(|p| !p.as_os_str().is_empty())) {
        (false, Some(parent)) => parent,
        (false, None) => Path::new("."),
        (true, _) => out,
    };
    std::fs::create_dir_all(dir).with_context(|| {
        format!(
            "{}: cannot create the report directory in {}",
            out.display(),
            dir.display()
        )
    })?;
    let probe = dir.join(format!(".paigow-write-test-{}", std::process::id()));
    std::fs::write(&probe, b"")
        .with_context(|| format!("{}: directory is not writable", dir.display()))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// Refuses, before the run starts, a checkpoint path the run could not keep: a directory (a
/// checkpoint is a file), a file inside the report directory (replaced as a whole at the end of
/// the run; a shard's directory is not replaced), or a shard's own result file
/// `OUT/shard-K-of-M.json` (the shard would overwrite its checkpoint when it ends, and a requeued
/// `--resume` would find a shard result).
fn check_checkpoint_place(args: &RunArgs, out: &Path) -> anyhow::Result<()> {
    let Some(checkpoint) = &args.checkpoint else {
        return Ok(());
    };
    if checkpoint.is_dir() {
        anyhow::bail!(
            "{}: is a directory; --checkpoint takes a file, such as {}",
            checkpoint.display(),
            checkpoint.join("run.checkpoint.json").display()
        );
    }
    match args.shard {
        Some(shard) => refuse_shard_result_as_checkpoint(checkpoint, out, shard),
        None => refuse_checkpoint_inside(checkpoint, out),
    }
}

/// Refuses a checkpoint inside the report directory `out` of a whole run.
fn refuse_checkpoint_inside(checkpoint: &Path, out: &Path) -> anyhow::Result<()> {
    let absolute = |p: &Path| std::path::absolute(p).ok();
    let parent = checkpoint.parent().unwrap_or(Path::new(""));
    let within = absolute(parent)
        .zip(absolute(out))
        .is_some_and(|(c, o)| c.starts_with(o));
    if within {
        anyhow::bail!(
            "{}: keep the checkpoint outside the report directory {}, which the run replaces as a whole when it ends",
            checkpoint.display(),
            out.display()
        );
    }
    Ok(())
}

/// Refuses a checkpoint at the shard's own result file, `out/shard-K-of-M.json`.
fn refuse_shard_result_as_checkpoint(
    checkpoint: &Path,
    out: &Path,
    shard: ShardSpec,
) -> anyhow::Result<()> {
    let result = out.join(shard.file_name());
    if resolved(checkpoint).is_some_and(|c| Some(c) == resolved(&result)) {
        anyhow::bail!(
            "{}: is the file this shard writes its result to ({}), which would overwrite the checkpoint when the shard ends; give the checkpoint another name, such as {}",
            checkpoint.display(),
            result.display(),
            out.join(format!("ckpt-{}-of-{}.json", shard.index, shard.count))
                .display()
        );
    }
    Ok(())
}

/// A file's path with its directory made absolute and, where it exists, free of links and `..`
/// (so that two spellings of one file compare equal); None for a path with no file name.
fn resolved(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?;
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
    let parent = parent.unwrap_or(Path::new("."));
    let dir = std::fs::canonicalize(parent).or_else(|_| std::path::absolute(parent));
    Some(dir.ok()?.join(name))
}

/// A whole run's result, ready to report.
pub struct Finished<T> {
    pub tally: T,
    pub facts: RunFacts,
    /// Deals dealt by this process (fewer than the run's after a resume).
    pub deals_run: u64,
    pub checkpoint: Option<CheckpointFacts>,
}

impl<T> Finished<T> {
    /// Deals per second of this process.
    pub fn rate(&self) -> f64 {
        (self.deals_run as f64 / self.facts.wall_seconds).round()
    }
}

/// A run's time and rate for its stdout summary: "W s, R deals/s" ([`rate_text`]). After a
/// resume the process dealt only the chunks the checkpoint lacked, so its time and rate are of
/// those, and say so.
pub fn speed_text(
    wall: f64,
    per_second: Option<f64>,
    unit: &str,
    checkpoint: Option<&CheckpointFacts>,
) -> String {
    let rate = rate_text(per_second, unit);
    match checkpoint.map_or(0, |c| c.chunks_resumed) {
        0 => format!("{wall:.2} s, {rate}"),
        resumed => format!(
            "{wall:.2} s, {rate} for the {unit} dealt after resuming {resumed} chunks from the \
             checkpoint"
        ),
    }
}

/// A command's report writer (`write_reports` of `simulate`, `compare` or `table`): writes the
/// report set of a whole run into a directory and returns the stdout summary. Shared by the
/// command itself and by `merge`.
pub type Writer<J> = fn(
    &Path,
    &J,
    &RunSpec,
    &Plan,
    &Finished<<J as Job>::Tally>,
    RunExtra,
) -> anyhow::Result<String>;

/// A report writer as [`run_to_reports`] takes it: a [`Writer`], or a closure holding what the
/// command knows beyond the run (`simulate --exact-main`).
pub type WriteWith<'a, J> = dyn Fn(&Path, &J, &RunSpec, &Plan, &Finished<<J as Job>::Tally>, RunExtra) -> anyhow::Result<String>
    + 'a;

/// Runs `job` into the report directory `out` (created and checked first) and writes its
/// reports with `write`, printing the summary unless quiet; a shard writes its partial result
/// instead.
pub fn run_to_reports<J: Job>(
    args: &RunArgs,
    job: &J,
    spec: &RunSpec,
    plan: &Plan,
    out: &Path,
    write: &WriteWith<'_, J>,
) -> anyhow::Result<()> {
    check_duration(args, job, plan)?;
    prepare_out(out, args.shard.is_some())?;
    check_checkpoint_place(args, out)?;
    let Some(finished) = execute(args, job, spec, plan, out)? else {
        return Ok(());
    };
    let extra = RunExtra {
        checkpoint: finished.checkpoint.clone(),
        merged_partials: Vec::new(),
    };
    let text = write(out, job, spec, plan, &finished, extra)?;
    if !args.quiet {
        super::print_stdout(&text)?;
    }
    Ok(())
}

/// Runs `job` as the arguments say: every chunk, or the chunks of one shard; with progress,
/// checkpoints and resume. Returns the whole run's tally to report, or None after writing a
/// shard's partial result (`OUT/shard-K-of-M.json`).
pub fn execute<J: Job>(
    args: &RunArgs,
    job: &J,
    spec: &RunSpec,
    plan: &Plan,
    out: &Path,
) -> anyhow::Result<Option<Finished<J::Tally>>> {
    let threads = args.thread_count();
    let pool = thread_pool(threads)?;
    let own = own_chunks(args, plan);
    let base = Partial::empty(
        PartialKind::Shard,
        spec.clone(),
        plan,
        args.shard,
        RunFacts::of_this_run(threads, 0.0),
        job.empty_tally(),
    );
    let start = Instant::now();
    let (tally, deals_run, checkpoint) = match &args.checkpoint {
        Some(path) => run_with_checkpoint(args, path, job, plan, &pool, &base, own.clone())?,
        None => {
            let bar =
                super::progress::bar_unless_quiet(args.quiet, plan.deals_in(own.clone()), "deals");
            let chunks: Vec<u64> = own.clone().collect();
            let never = AtomicBool::new(false);
            let done = |_: u64, t: &J::Tally| bar.inc(t.rounds());
            let tally = pool.install(|| run_chunks(job, plan, &chunks, &never, &done))?;
            bar.finish_and_clear();
            let deals = tally.rounds();
            (tally, deals, None)
        }
    };
    let facts = RunFacts::of_this_run(threads, start.elapsed().as_secs_f64());
    if let Some(shard) = args.shard {
        write_shard(args, out, shard, own, &base, tally, facts)?;
        return Ok(None);
    }
    Ok(Some(Finished {
        tally,
        facts,
        deals_run,
        checkpoint,
    }))
}

/// The chunks this process runs: its shard's, or all of them.
fn own_chunks(args: &RunArgs, plan: &Plan) -> std::ops::Range<u64> {
    args.shard
        .map_or(0..plan.chunks(), |s| s.chunks(plan.chunks()))
}

/// The longest run started without `--force`, in seconds.
const LONGEST_UNFORCED_RUN: f64 = 86_400.0;

/// Refuses a run (or shard) estimated to take more than a day on `threads` threads, unless
/// forced, saying the estimate.
fn check_duration<J: Job>(args: &RunArgs, job: &J, plan: &Plan) -> anyhow::Result<()> {
    let (own, threads) = (own_chunks(args, plan), args.thread_count());
    let share = own.end.saturating_sub(own.start) as f64 / plan.chunks() as f64;
    let seconds = job.estimated_seconds(plan) * share / threads as f64;
    if seconds > LONGEST_UNFORCED_RUN && !args.force {
        anyhow::bail!(
            "this run is estimated to take {:.0} hours on {threads} threads (a conservative estimate); \
             add --force to run it anyway, or cut it into shards (--shard K/M)",
            seconds / 3600.0
        );
    }
    Ok(())
}

/// Runs the chunks `own` not yet in the checkpoint, saving as it goes. Returns the total tally,
/// the deals run now, and the checkpoint facts; an interrupted run saves and fails.
fn run_with_checkpoint<J: Job>(
    args: &RunArgs,
    path: &Path,
    job: &J,
    plan: &Plan,
    pool: &rayon::ThreadPool,
    base: &Partial<J::Tally>,
    own: std::ops::Range<u64>,
) -> anyhow::Result<(J::Tally, u64, Option<CheckpointFacts>)> {
    let file = path.display().to_string();
    let (done, before) = if path.exists() {
        if !args.resume {
            anyhow::bail!(
                "{file}: a checkpoint already exists; add --resume to continue that run, or remove the file to start over"
            );
        }
        let (done, tally) = checkpoint::resume(path, base)?;
        job.check_read_tally(&tally)
            .map_err(|m| anyhow::anyhow!("{file}: {m}: the checkpoint was edited or damaged"))?;
        (done, tally)
    } else {
        if args.resume && !args.quiet {
            eprintln!("note: {file} does not exist yet; starting the run from the beginning");
        }
        (BTreeSet::new(), job.empty_tally())
    };
    let chunks_resumed = done.len() as u64;
    let rounds_before = before.rounds();
    let todo: Vec<u64> = own.clone().filter(|c| !done.contains(c)).collect();
    let stop = checkpoint::interrupt_flag().map_err(anyhow::Error::msg)?;
    let every = (
        Duration::from_secs(args.checkpoint_every),
        args.checkpoint_every_chunks,
    );
    let threads = args.thread_count();
    let saver = Checkpointer::new(path, base.clone(), every, threads, done, before);
    let bar = super::progress::bar_unless_quiet(args.quiet, plan.deals_in(own.clone()), "deals");
    bar.inc(rounds_before);
    pool.install(|| {
        run_chunks(job, plan, &todo, stop, &|chunk, t| {
            bar.inc(t.rounds());
            saver.chunk_done(chunk, t, stop);
        })
    })?;
    bar.finish_and_clear();
    let (done, tally) = saver.finish().map_err(anyhow::Error::msg)?;
    let total = own.end - own.start;
    if done.len() as u64 != total {
        anyhow::bail!(
            "interrupted: {file} saved with {} of {total} chunks done; run the same command with --resume to finish",
            done.len()
        );
    }
    let facts = CheckpointFacts {
        file,
        chunks_resumed,
    };
    let deals_run = tally.rounds() - rounds_before;
    Ok((tally, deals_run, Some(facts)))
}

/// Writes this shard's partial result to `OUT/shard-K-of-M.json`.
fn write_shard<T: Tally>(
    args: &RunArgs,
    out: &Path,
    shard: ShardSpec,
    own: std::ops::Range<u64>,
    base: &Partial<T>,
    tally: T,
    facts: RunFacts,
) -> anyhow::Result<()> {
    let wall = facts.wall_seconds;
    let partial = base.covering(ChunkSet::range(own), tally, facts);
    partial
        .check()
        .map_err(|e| anyhow::anyhow!("internal error: shard result inconsistent: {e}"))?;
    let path = out.join(shard.file_name());
    crate::files::write_atomic(&path, partial.to_json().as_bytes())
        .with_context(|| format!("{}: cannot write", path.display()))?;
    if !args.quiet {
        let chunks = if partial.chunk_ranges.is_empty() {
            "no chunks (more shards than chunks)".to_string()
        } else {
            partial.chunk_ranges.describe()
        };
        super::print_stdout(&format!(
            "shard {shard}: {chunks}, {} deals in {wall:.2} s\n\
             partial result in {}\n\
             when all {} shards are done: paigow merge {}/shard-*-of-{}.json --out DIR\n",
            partial.deals_covered,
            path.display(),
            shard.count,
            out.display(),
            shard.count,
        ))?;
    }
    Ok(())
}

/// A run's speed for its stdout summary: "N deals/s" (`what` per second), or what stands for a
/// run too quick for the clock to time (no rate, or an infinite one).
pub fn rate_text(per_second: Option<f64>, what: &str) -> String {
    match per_second {
        Some(rate) if rate.is_finite() => format!("{rate:.0} {what}/s"),
        _ => "too quick to time".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_in_every_notation() {
        assert_eq!(parse_count("1e9"), Ok(1_000_000_000));
        assert_eq!(parse_count("1_000_000_000"), Ok(1_000_000_000));
        assert_eq!(parse_count("2.5e8"), Ok(250_000_000));
        assert_eq!(parse_count("1E3"), Ok(1_000));
        assert_eq!(parse_count("12345"), Ok(12_345));
        for bad in [
            "0", "0e5", "2.5", "2.55e1", "-1", "1e", "abc", "", "1e30", "1.e", "_1", "1__0", "1_",
            "1e_5",
        ] {
            assert!(parse_count(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn threads_are_bounded() {
        assert_eq!(parse_threads("1"), Ok(1));
        assert_eq!(parse_threads("1024"), Ok(1024));
        for bad in ["0", "1025", "65536", "-1", "x"] {
            assert!(parse_threads(bad).is_err(), "{bad}");
        }
    }
}
