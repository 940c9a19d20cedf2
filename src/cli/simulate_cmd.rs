//! `paigow simulate`: Monte Carlo of the main wager, with reports to a directory.
//!
//! Arguments become a validated [`SimConfig`] (game, both strategies, counts) before anything
//! runs; the output directory is created and checked up front so a long run cannot fail at its
//! end for want of a place to write. Reports are written atomically, manifest last.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use anyhow::Context;
use clap::Args;

use super::GameArg;
use crate::game::GameRules;
use crate::report::{self, ConfigFile, Manifest, Report, SideBetReport};
use crate::sim::{self, SimConfig, Tally};
use crate::stats::{self, WagerStats};

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
    /// Worker threads (default: one per core). Reports do not depend on it.
    #[arg(long, short = 't')]
    threads: Option<usize>,
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
    /// Baseline: shuffle and deal only (no setting or settling), print the rate, write nothing.
    #[arg(long, hide = true)]
    deal_only: bool,
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
        player: crate::strategy::resolve(&args.player_way, &game)?,
        dealer: crate::strategy::resolve(&args.dealer_way, &game)?,
        game,
        deals: args.deals,
        seed: args.seed,
        chunk_size: args.chunk_size,
        players: args.players,
    };
    cfg.validate()?;
    let threads = args.threads.unwrap_or_else(default_threads);
    let pool = sim::thread_pool(threads)?;
    if args.deal_only {
        return deal_only(args, &cfg, &pool);
    }
    let out = args.out.clone().unwrap_or_else(|| default_out(args, &cfg));
    prepare_out(&out)?;
    let bar = progress_bar(args.quiet, cfg.deals);
    let start = Instant::now();
    let tally = pool.install(|| sim::run(&cfg, &|n| bar.inc(n)))?;
    let wall = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let stats = stats::main_wager(&tally, cfg.players);
    let manifest = manifest(args, &cfg, &tally, threads, wall);
    write_reports(&out, &cfg, tally, stats, &manifest)?;
    if !args.quiet {
        super::print_stdout(&summary_text(&cfg, &stats, &manifest, &out))?;
    }
    Ok(())
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

fn progress_bar(quiet: bool, deals: u64) -> indicatif::ProgressBar {
    if quiet {
        indicatif::ProgressBar::hidden()
    } else {
        super::progress::bar(deals, "deals")
    }
}

/// Times the deal-only baseline over the same chunks and prints its rate.
fn deal_only(args: &SimulateArgs, cfg: &SimConfig, pool: &rayon::ThreadPool) -> anyhow::Result<()> {
    let bar = progress_bar(args.quiet, cfg.deals);
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

/// Creates the report directory and checks it is writable, before the run.
fn prepare_out(out: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(out)
        .with_context(|| format!("{}: cannot create the report directory", out.display()))?;
    let probe = out.join(format!(".paigow-write-test-{}", std::process::id()));
    std::fs::write(&probe, b"")
        .with_context(|| format!("{}: report directory is not writable", out.display()))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

fn write_reports(
    out: &Path,
    cfg: &SimConfig,
    tally: Tally,
    stats: WagerStats,
    manifest: &Manifest,
) -> anyhow::Result<()> {
    let side_bets = cfg
        .game
        .side_bets
        .iter()
        .zip(&tally.side_bets)
        .map(|(table, bet)| {
            let plan = sim::SideBetPlan::new(table);
            SideBetReport {
                table: table.clone(),
                tally: *bet,
                stats: stats::side_bet(bet, &plan, tally.hands, tally.rounds, cfg.players),
            }
        })
        .collect();
    let report = Report {
        wager_name: "main".to_string(),
        wager: cfg.game.main_wager,
        tally,
        stats,
        side_bets,
    };
    let mut summary = Vec::new();
    report::write_summary(&mut summary, &report)?;
    let mut returns = Vec::new();
    report::write_returns(&mut returns, &report)?;
    let mut json = Vec::new();
    report::write_manifest(&mut json, manifest)?;
    for (name, bytes) in [
        ("summary.csv", summary),
        ("returns.csv", returns),
        ("manifest.json", json),
    ] {
        let path = out.join(name);
        crate::output::write_atomic(&path, &bytes)
            .with_context(|| format!("{}: cannot write", path.display()))?;
    }
    Ok(())
}

fn manifest(
    args: &SimulateArgs,
    cfg: &SimConfig,
    tally: &Tally,
    threads: usize,
    wall: f64,
) -> Manifest {
    Manifest {
        tool: "paigow".to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        git_commit: super::provenance::git_commit(),
        command_line: super::provenance::command_line(),
        game: cfg.game.name.clone(),
        main_wager: cfg.game.main_wager.describe(),
        player_way: cfg.player.name().to_string(),
        dealer_way: cfg.dealer.name().to_string(),
        players_per_deal: cfg.players,
        seed: cfg.seed,
        deals: cfg.deals,
        trials: tally.hands,
        chunk_size: cfg.chunk_size,
        chunks: cfg.chunks(),
        rng: crate::deal::RNG_NAME.to_string(),
        shuffle: crate::deal::SHUFFLE_NAME.to_string(),
        config_files: config_files(args, &cfg.game),
        threads,
        wall_seconds: (wall * 1000.0).round() / 1000.0,
        deals_per_second: (tally.rounds as f64 / wall).round(),
    }
}

/// The game file and any strategy given as a file, each with its SHA-256.
fn config_files(args: &SimulateArgs, game: &GameRules) -> Vec<ConfigFile> {
    let mut files = vec![ConfigFile {
        role: "game".to_string(),
        origin: game.origin.clone(),
        sha256: Some(report::sha256_hex(game.text.as_bytes())),
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
            sha256: file.map(|(text, _)| report::sha256_hex(text.as_bytes())),
        });
    }
    files
}

/// The house-way file (text, origin) behind a strategy name, if it has one (`exposed` and
/// `exposed:WAY` break ties by a house way).
fn way_file(way: &str) -> Option<(String, String)> {
    let name = match way {
        "exposed" => crate::strategy::EXPOSED_DEFAULT_WAY,
        other => other.strip_prefix("exposed:").unwrap_or(other),
    };
    crate::config::read_named(name, crate::way::SHIPPED_WAYS, "house way").ok()
}

fn summary_text(cfg: &SimConfig, s: &WagerStats, m: &Manifest, out: &Path) -> String {
    let pct = |x: f64| format!("{:.4}%", 100.0 * x);
    format!(
        "{game}: {player} vs dealer {dealer} ({rules})\n\
         {deals} deals x {players} player(s), seed {seed}, {threads} threads: {wall:.2} s, {rate:.0} deals/s\n\
         player EV {ev} (house edge {edge}), 95% CI [{lo}, {hi}], SD {sd:.4}\n\
         win {win}  push {push}  loss {loss}\n\
         reports in {dir}\n",
        game = cfg.game.name,
        player = m.player_way,
        dealer = m.dealer_way,
        rules = m.main_wager,
        deals = cfg.deals,
        players = cfg.players,
        seed = cfg.seed,
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
