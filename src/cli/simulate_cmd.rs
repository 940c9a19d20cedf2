//! `paigow simulate`: Monte Carlo of the main wager, with reports to a directory.
//!
//! Arguments become a validated [`SimConfig`] (game, both strategies, counts) before anything
//! runs; the output directory is created and checked up front so a long run cannot fail at its
//! end for want of a place to write. Reports are written atomically, manifest last.
//!
//! `--shard K/M` runs only shard K's chunks (see [`crate::engine::shard`]) and writes
//! `OUT/shard-K-of-M.json` instead of reports; `paigow merge` adds the shards up and writes the
//! reports through [`write_reports`], the same function a single run uses, so a merged report is
//! byte-identical to the single run's. `--checkpoint FILE` saves progress as the run goes (see
//! [`crate::engine::checkpoint`]); `--resume` continues from it, giving the same reports as a run that
//! was never stopped.

use std::collections::BTreeSet;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Args;
use serde::Serialize;

use super::GameArg;
use crate::engine::checkpoint::{self, Checkpointer};
use crate::engine::shard::{
    ChunkSet, ConfigFileRecord, FORMAT, FORMAT_VERSION, Partial, PartialKind, RunSetup, ShardSpec,
    TextFile,
};
use crate::engine::simulate::{self as sim, SimConfig, Tally};
use crate::game::GameRules;
use crate::report::stats::{self, WagerStats};
use crate::report::{self, ConfigFile, Manifest, Report, SideBetReport};
use crate::strategy::resolve::resolve;

#[derive(Args, Debug)]
pub struct SimulateArgs {
    #[command(flatten)]
    game: GameArg,
    /// The player's strategy: a house way (shipped name or TOML file) or a built-in.
    #[arg(long)]
    player_way: String,
    /// The dealer's house way (shipped name or TOML file) or a built-in.
    #[arg(long)]
    dealer_way: String,
    /// Rounds to deal: 1000000, 1_000_000, 1e6 or 2.5e8.
    #[arg(long, short = 'n', value_parser = parse_count)]
    deals: u64,
    /// Seed of the run; the same seed and arguments give the same reports.
    #[arg(long, short = 's', default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    threads: ThreadsArg,
    /// Report directory (default: reports/simulate/GAME-PLAYER-vs-DEALER-sSEED-nDEALS).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Rounds per chunk, each with its own RNG stream. Changing it changes the deals.
    #[arg(long, default_value = "65536", value_parser = parse_count)]
    chunk_size: u64,
    /// Players against one dealer per shuffle (1 to 6).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=6))]
    players: u8,
    /// No summary on stdout and no progress bar.
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Run only shard K of M (1 <= K <= M): a fixed range of the chunks. Writes the partial
    /// result OUT/shard-K-of-M.json instead of reports; combine the M shards with `paigow merge`.
    #[arg(long, value_name = "K/M")]
    shard: Option<ShardSpec>,
    /// Save the run's progress to FILE as it goes (atomically), and on Ctrl-C or SIGTERM.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Continue the run saved in the --checkpoint FILE (a missing FILE starts the run afresh).
    #[arg(long, requires = "checkpoint")]
    resume: bool,
    /// Seconds between checkpoint saves.
    #[arg(long, value_name = "SECONDS", default_value_t = 5, requires = "checkpoint",
          value_parser = clap::value_parser!(u64).range(1..))]
    checkpoint_every: u64,
    /// Also save the checkpoint after every N chunks (for tests).
    #[arg(long, hide = true, requires = "checkpoint",
          value_parser = clap::value_parser!(u64).range(1..))]
    checkpoint_every_chunks: Option<u64>,
    /// Baseline: shuffle and deal only (no setting or settling), print the rate, write nothing.
    #[arg(long, hide = true, conflicts_with_all = ["shard", "checkpoint"])]
    deal_only: bool,
}

/// The worker-thread option of the commands that deal their chunks in parallel (`simulate`,
/// `compare`, `table`).
#[derive(Args, Debug)]
pub struct ThreadsArg {
    /// Worker threads (default: one per core). Reports do not depend on it.
    #[arg(long, short = 't')]
    threads: Option<usize>,
}

impl ThreadsArg {
    /// The threads asked for, or one per core.
    pub fn count(&self) -> usize {
        self.threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
    }
}

/// A count written as digits with optional `_` separators, or in scientific notation (`2.5e8`).
pub fn parse_count(text: &str) -> Result<u64, String> {
    let clean: String = text.chars().filter(|&c| c != '_').collect();
    let bad = || format!("'{text}' is not a whole number such as 1000000, 1_000_000 or 1e6");
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

pub fn run(args: &SimulateArgs) -> anyhow::Result<()> {
    let game = args.game.load()?;
    let cfg = SimConfig {
        player: resolve(&args.player_way, &game)?.strategy,
        dealer: resolve(&args.dealer_way, &game)?.strategy,
        game,
        deals: args.deals,
        seed: args.seed,
        chunk_size: args.chunk_size,
        players: args.players,
    };
    cfg.validate()?;
    let threads = args.threads.count();
    let pool = sim::thread_pool(threads)?;
    if args.deal_only {
        return deal_only(args, &cfg, &pool);
    }
    let out = args.out.clone().unwrap_or_else(|| default_out(args, &cfg));
    prepare_out(&out)?;
    let base = partial_base(args, &cfg, threads);
    let own = args
        .shard
        .map_or(0..cfg.chunks(), |s| s.chunks(cfg.chunks()));
    let start = Instant::now();
    let (tally, deals_run, resumed) = match &args.checkpoint {
        Some(path) => run_with_checkpoint(args, path, &cfg, &pool, &base, own.clone())?,
        None => {
            let own_deals = base.deals_in(&ChunkSet::range(own.clone()));
            let bar = super::progress::bar_unless_quiet(args.quiet, own_deals, "deals");
            let tally = if args.shard.is_some() {
                let chunks: Vec<u64> = own.clone().collect();
                let never = AtomicBool::new(false);
                pool.install(|| sim::run_chunks(&cfg, &chunks, &never, &|_, t| bar.inc(t.rounds)))?
            } else {
                pool.install(|| sim::run(&cfg, &|n| bar.inc(n)))?
            };
            bar.finish_and_clear();
            (tally, tally.rounds, None)
        }
    };
    let wall = start.elapsed().as_secs_f64();
    if let Some(shard) = args.shard {
        return write_shard(args, &out, shard, own, base, tally, wall);
    }
    let manifest = manifest(&base, &cfg.game, deals_run, threads, wall);
    let run_manifest = RunManifest {
        base: &manifest,
        checkpoint: resumed,
        merged_partials: Vec::new(),
    };
    let stats = write_reports(&out, &cfg.game, cfg.players, tally, &run_manifest)?;
    if !args.quiet {
        super::print_stdout(&summary_text(&stats, &manifest, &out))?;
    }
    Ok(())
}

/// What the manifest says about a run's checkpoint.
#[derive(Serialize, Debug, Clone)]
pub(crate) struct CheckpointFacts {
    file: String,
    /// Chunks the checkpoint already held when this run started (0 for a fresh run).
    chunks_resumed: u64,
}

/// One partial result a merged report was made from.
#[derive(Serialize, Debug, Clone)]
pub(crate) struct PartialFacts {
    pub file: String,
    pub kind: PartialKind,
    pub shard: Option<String>,
    pub chunks: String,
    pub deals: u64,
    pub git_commit: String,
    pub command_line: String,
    pub threads: usize,
    pub wall_seconds: f64,
}

/// `manifest.json`: the run manifest plus, where they apply, the checkpoint and the partials
/// merged. With neither it is exactly [`report::write_manifest`]'s output.
#[derive(Serialize, Debug)]
pub(crate) struct RunManifest<'a> {
    #[serde(flatten)]
    pub base: &'a Manifest,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<CheckpointFacts>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub merged_partials: Vec<PartialFacts>,
}

/// The partial result of this run with no chunks yet: its identity, setup and configuration
/// digest.
fn partial_base(args: &SimulateArgs, cfg: &SimConfig, threads: usize) -> Partial {
    let setup = RunSetup {
        game_origin: cfg.game.origin.clone(),
        game_text: cfg.game.text.clone(),
        side_bets: cfg
            .game
            .side_bets
            .iter()
            .map(|bet| TextFile {
                origin: bet.origin.clone(),
                text: bet.text.clone(),
            })
            .collect(),
        player_way: cfg.player.name().to_string(),
        dealer_way: cfg.dealer.name().to_string(),
        players: cfg.players,
        config_files: config_files(args, &cfg.game)
            .into_iter()
            .map(|f| ConfigFileRecord {
                role: f.role,
                origin: f.origin,
                sha256: f.sha256,
            })
            .collect(),
        git_commit: super::provenance::git_commit(),
        command_line: super::provenance::command_line(),
        threads,
        wall_seconds: 0.0,
    };
    let mut partial = Partial {
        format: FORMAT.to_string(),
        format_version: FORMAT_VERSION,
        kind: PartialKind::Shard,
        tool: "paigow".to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        command: "simulate".to_string(),
        config_sha256: String::new(),
        seed: cfg.seed,
        deals: cfg.deals,
        chunk_size: cfg.chunk_size,
        chunks: cfg.chunks(),
        shard: args.shard,
        chunk_ranges: ChunkSet::default(),
        deals_covered: 0,
        setup,
        tally: Tally::default(),
    };
    partial.config_sha256 = partial.config_digest();
    partial
}

/// Runs the chunks `own` not yet in the checkpoint, saving as it goes. Returns the total tally,
/// the deals run now, and the checkpoint facts; an interrupted run saves and fails.
fn run_with_checkpoint(
    args: &SimulateArgs,
    path: &Path,
    cfg: &SimConfig,
    pool: &rayon::ThreadPool,
    base: &Partial,
    own: Range<u64>,
) -> anyhow::Result<(Tally, u64, Option<CheckpointFacts>)> {
    let file = path.display().to_string();
    let (done, before) = if path.exists() {
        if !args.resume {
            anyhow::bail!(
                "{file}: a checkpoint already exists; add --resume to continue that run, or remove the file to start over"
            );
        }
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("{file}: cannot read the checkpoint"))?;
        let saved = Partial::from_json(&text, &file)?;
        checkpoint::resume_check(&file, &saved, base)?
    } else {
        if args.resume && !args.quiet {
            eprintln!("note: {file} does not exist yet; starting the run from the beginning");
        }
        (BTreeSet::new(), Tally::default())
    };
    let chunks_resumed = done.len() as u64;
    let todo: Vec<u64> = own.clone().filter(|c| !done.contains(c)).collect();
    let stop = checkpoint::interrupt_flag().map_err(anyhow::Error::msg)?;
    let every = Duration::from_secs(args.checkpoint_every);
    let saver = Checkpointer::new(
        path,
        base.clone(),
        every,
        args.checkpoint_every_chunks,
        done,
        before,
    );
    let own_deals = base.deals_in(&ChunkSet::range(own.clone()));
    let bar = super::progress::bar_unless_quiet(args.quiet, own_deals, "deals");
    bar.inc(before.rounds);
    pool.install(|| {
        sim::run_chunks(cfg, &todo, stop, &|chunk, t| {
            bar.inc(t.rounds);
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
    Ok((tally, tally.rounds - before.rounds, Some(facts)))
}

/// Writes this shard's partial result to `OUT/shard-K-of-M.json`.
fn write_shard(
    args: &SimulateArgs,
    out: &Path,
    shard: ShardSpec,
    own: Range<u64>,
    base: Partial,
    tally: Tally,
    wall: f64,
) -> anyhow::Result<()> {
    let chunk_ranges = ChunkSet::range(own);
    let mut partial = Partial {
        deals_covered: base.deals_in(&chunk_ranges),
        chunk_ranges,
        tally,
        ..base
    };
    partial.setup.wall_seconds = (wall * 1000.0).round() / 1000.0;
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
            "shard {shard}: {chunks}, {} deals in {wall:.2} s
             partial result in {}
             when all {} shards are done: paigow merge {}/shard-*-of-{}.json --out DIR
",
            partial.deals_covered,
            path.display(),
            shard.count,
            out.display(),
            shard.count,
        ))?;
    }
    Ok(())
}

/// Times the deal-only baseline over the same chunks and prints its rate.
fn deal_only(args: &SimulateArgs, cfg: &SimConfig, pool: &rayon::ThreadPool) -> anyhow::Result<()> {
    let bar = super::progress::bar_unless_quiet(args.quiet, cfg.deals, "deals");
    let start = Instant::now();
    let done = AtomicU64::new(0);
    let checksum = pool.install(|| {
        sim::deal_only(
            cfg.game.deck,
            cfg.seed,
            cfg.deals,
            cfg.chunk_size,
            cfg.players,
            &|n| {
                done.fetch_add(n, Ordering::Relaxed);
                bar.inc(n);
            },
        )
    });
    let wall = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let rate = done.load(Ordering::Relaxed) as f64 / wall;
    super::print_stdout(&format!(
        "deal-only baseline: {} deals in {wall:.3} s, {rate:.0} deals/s (checksum {checksum:016x})\n",
        cfg.deals
    ))
}

/// `reports/simulate/GAME-PLAYER-vs-DEALER-sSEED-nDEALS`, names reduced to file stems.
fn default_out(args: &SimulateArgs, cfg: &SimConfig) -> PathBuf {
    let stem = |s: &str| {
        Path::new(s)
            .file_stem()
            .map_or_else(|| s.to_string(), |f| f.to_string_lossy().into_owned())
    };
    let players = if cfg.players > 1 {
        format!("-p{}", cfg.players)
    } else {
        String::new()
    };
    PathBuf::from("reports").join("simulate").join(format!(
        "{}-{}-vs-{}-s{}-n{}{players}",
        stem(&cfg.game.origin),
        stem(&args.player_way),
        stem(&args.dealer_way),
        cfg.seed,
        cfg.deals
    ))
}

/// Creates the report directory and checks it is writable, before the run (shared by every
/// command that writes a report directory).
pub(crate) fn prepare_out(out: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(out)
        .with_context(|| format!("{}: cannot create the report directory", out.display()))?;
    let probe = out.join(format!(".paigow-write-test-{}", std::process::id()));
    std::fs::write(&probe, b"")
        .with_context(|| format!("{}: report directory is not writable", out.display()))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// Writes `summary.csv`, `returns.csv` and `manifest.json` (last) of a run of `game` with
/// `players` players that tallied `tally`; returns the main wager's figures. A pure function of
/// its arguments, shared by `simulate` and `merge`.
pub(crate) fn write_reports(
    out: &Path,
    game: &GameRules,
    players: u8,
    tally: Tally,
    manifest: &RunManifest,
) -> anyhow::Result<WagerStats> {
    let stats = stats::main_wager(&tally, players);
    let side_bets = game
        .side_bets
        .iter()
        .zip(&tally.side_bets)
        .map(|(table, bet)| {
            let plan = sim::SideBetPlan::new(table);
            SideBetReport {
                table: table.clone(),
                tally: *bet,
                stats: stats::side_bet(bet, &plan, tally.hands, tally.rounds, players),
            }
        })
        .collect();
    let report = Report {
        wager_name: "main".to_string(),
        wager: game.main_wager,
        tally,
        stats,
        side_bets,
    };
    let mut summary = Vec::new();
    report::write_summary(&mut summary, &report)?;
    let mut returns = Vec::new();
    report::write_returns(&mut returns, &report)?;
    let reports = vec![("summary.csv", summary), ("returns.csv", returns)];
    write_report_files(out, reports, manifest)?;
    Ok(stats)
}

/// Writes each `(file name, bytes)` report into `out` atomically, then `manifest` as
/// `manifest.json` (pretty JSON and a newline) last, so that a manifest means its reports are
/// complete. Shared by every command that writes a report directory.
pub(crate) fn write_report_files(
    out: &Path,
    reports: Vec<(&str, Vec<u8>)>,
    manifest: &impl Serialize,
) -> anyhow::Result<()> {
    let mut json = serde_json::to_vec_pretty(manifest)?;
    json.push(b'\n');
    for (name, bytes) in reports.into_iter().chain([("manifest.json", json)]) {
        let path = out.join(name);
        crate::files::write_atomic(&path, &bytes)
            .with_context(|| format!("{}: cannot write", path.display()))?;
    }
    Ok(())
}

/// The manifest of the whole run described by `p` (its setup and identity) played on `game`:
/// `deals_run` deals dealt by this process on `threads` threads in `wall` seconds.
pub(crate) fn manifest(
    p: &Partial,
    game: &GameRules,
    deals_run: u64,
    threads: usize,
    wall: f64,
) -> Manifest {
    Manifest {
        tool: p.tool.clone(),
        version: p.version.clone(),
        git_commit: super::provenance::git_commit(),
        command_line: super::provenance::command_line(),
        game: game.name.clone(),
        main_wager: game.main_wager.describe(),
        player_way: p.setup.player_way.clone(),
        dealer_way: p.setup.dealer_way.clone(),
        players_per_deal: p.setup.players,
        seed: p.seed,
        deals: p.deals,
        trials: p.deals * u64::from(p.setup.players),
        chunk_size: p.chunk_size,
        chunks: p.chunks,
        rng: crate::cards::deal::RNG_NAME.to_string(),
        shuffle: crate::cards::deal::SHUFFLE_NAME.to_string(),
        config_files: p
            .setup
            .config_files
            .iter()
            .map(|f| ConfigFile {
                role: f.role.clone(),
                origin: f.origin.clone(),
                sha256: f.sha256.clone(),
            })
            .collect(),
        threads,
        wall_seconds: (wall * 1000.0).round() / 1000.0,
        deals_per_second: (deals_run as f64 / wall).round(),
    }
}

/// The game file and any strategy given as a file, each with its SHA-256.
fn config_files(args: &SimulateArgs, game: &GameRules) -> Vec<ConfigFile> {
    let mut files = vec![ConfigFile {
        role: "game".to_string(),
        origin: game.origin.clone(),
        sha256: Some(crate::files::sha256_hex(game.text.as_bytes())),
    }];
    for (role, way) in [
        ("player way", &args.player_way),
        ("dealer way", &args.dealer_way),
    ] {
        let file = way_file(way);
        files.push(ConfigFile {
            role: role.to_string(),
            origin: file
                .as_ref()
                .map_or_else(|| way.clone(), |(_, o)| o.clone()),
            sha256: file.map(|(text, _)| crate::files::sha256_hex(text.as_bytes())),
        });
    }
    files
}

/// The house-way file (text, origin) behind a strategy name, if it has one (`exposed` and
/// `exposed:WAY` break ties by a house way; `optimal:D` is defined by the game and `D`).
pub(crate) fn way_file(way: &str) -> Option<(String, String)> {
    let name = match way {
        "exposed" => crate::strategy::resolve::EXPOSED_DEFAULT_WAY,
        other => (other.strip_prefix("exposed:"))
            .or_else(|| other.strip_prefix(crate::strategy::optimal::PREFIX))
            .unwrap_or(other),
    };
    crate::files::read_named(name, crate::strategy::way::SHIPPED_WAYS, "house way").ok()
}

/// The stdout summary of a run (or a merge) from its figures and manifest.
pub(crate) fn summary_text(s: &WagerStats, m: &Manifest, out: &Path) -> String {
    let pct = |x: f64| format!("{:.4}%", 100.0 * x);
    format!(
        "{game}: {player} vs dealer {dealer} ({rules})\n\
         {deals} deals x {players} player(s), seed {seed}, {threads} threads: {wall:.2} s, {rate:.0} deals/s\n\
         player EV {ev} (house edge {edge}), 95% CI [{lo}, {hi}], SD {sd:.4}\n\
         win {win}  push {push}  loss {loss}\n\
         reports in {dir}\n",
        game = m.game,
        player = m.player_way,
        dealer = m.dealer_way,
        rules = m.main_wager,
        deals = m.deals,
        players = m.players_per_deal,
        seed = m.seed,
        threads = m.threads,
        wall = m.wall_seconds,
        rate = m.deals_per_second,
        ev = pct(s.player_ev),
        edge = pct(-s.player_ev),
        lo = pct(s.ci95.low),
        hi = pct(s.ci95.high),
        sd = s.sd,
        win = pct(s.win),
        push = pct(s.push),
        loss = pct(s.loss),
        dir = out.display(),
    )
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
            "0", "0e5", "2.5", "2.55e1", "-1", "1e", "abc", "", "1e30", "1.e",
        ] {
            assert!(parse_count(bad).is_err(), "{bad}");
        }
    }
}
