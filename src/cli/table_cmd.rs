//! `paigow table`: the California table with a player-dealer's limited bank, with reports.
//!
//! Arguments become a validated [`TableConfig`] before anything runs; the report directory is
//! created and checked up front. `summary.csv` (one row per seat, then the card room) and
//! `outcomes.csv` (counts with Wilson bounds) are pure functions of the integer tally, so they
//! are byte-identical at any `--threads`; `manifest.json` (written last) records the run.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use serde::Serialize;

use super::simulate_cmd::{ThreadsArg, parse_count, prepare_out, write_report_files};
use crate::engine::table::{self, Collection, Layout, SEATS, TableConfig, TableTally};
use crate::files::sha256_hex;
use crate::report::fixed;
use crate::report::stats::wilson;
use crate::strategy::resolve::resolve;

#[derive(Args, Debug)]
pub struct TableArgs {
    /// A shipped game (california, standard, jokers-wild: no commission, 53 or 54 cards) or a
    /// game TOML file.
    #[arg(long, short = 'g', default_value = "california")]
    game: String,
    /// Seven seats clockwise from seat 1, comma-separated: `D` the player-dealer, `-` empty,
    /// `N` a bet of N chips, `N+M` a bet with a backline bet of M (e.g. "D,100,-,50+20,40,-,200").
    #[arg(long, allow_hyphen_values = true)]
    seats: String,
    /// The player-dealer's bank per round in chips, or `unlimited`.
    #[arg(long)]
    bank: String,
    /// Collection per bet: `none` or MIN=FEE steps by bet size (e.g. "1=1,60=2,200=3").
    #[arg(long, default_value = "none")]
    collection: String,
    /// How every seated player and backline bettor sets: a house way or a built-in.
    #[arg(long, default_value = "foxwoods")]
    player_way: String,
    /// How the player-dealer's hand is set.
    #[arg(long, default_value = "foxwoods")]
    dealer_way: String,
    /// The house way backline bets get when the setter fouls.
    #[arg(long, default_value = "foxwoods")]
    house_way: String,
    /// Rounds to play: 1000000, 1_000_000 or 1e6.
    #[arg(long, short = 'n', value_parser = parse_count)]
    rounds: u64,
    /// Seed of the run.
    #[arg(long, short = 's', default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    threads: ThreadsArg,
    /// Rounds per chunk, each with its own RNG stream. Changing it changes the deals.
    #[arg(long, default_value = "65536", value_parser = parse_count)]
    chunk_size: u64,
    /// Report directory (default: reports/table/GAME-sSEED-nROUNDS).
    #[arg(long)]
    out: Option<PathBuf>,
    /// No summary on stdout and no progress bar.
    #[arg(long, short = 'q')]
    quiet: bool,
}

pub fn run(args: &TableArgs) -> anyhow::Result<()> {
    let cfg = config(args)?;
    let threads = args.threads.count();
    let pool = crate::engine::simulate::thread_pool(threads)?;
    let out = args.out.clone().unwrap_or_else(|| default_out(&cfg));
    prepare_out(&out)?;
    let bar = super::progress::bar_unless_quiet(args.quiet, cfg.rounds, "rounds");
    let start = Instant::now();
    let tally = pool.install(|| table::run(&cfg, &|n| bar.inc(n)))?;
    let wall = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    write_reports(&out, &cfg, &tally, &manifest(args, &cfg, threads, wall))?;
    if !args.quiet {
        super::print_stdout(&summary_text(&cfg, &tally, &out, wall))?;
    }
    Ok(())
}

/// The validated table run behind the arguments.
fn config(args: &TableArgs) -> anyhow::Result<TableConfig> {
    let game = crate::game::GameRules::load(&args.game)?;
    let resolve = |way: &str| resolve(way, &game).map(|r| r.strategy);
    let cfg = TableConfig {
        layout: Layout::parse(&args.seats)?,
        bank: table::parse_bank(&args.bank)?,
        collection: Collection::parse(&args.collection)?,
        player: resolve(&args.player_way)?,
        dealer: resolve(&args.dealer_way)?,
        house: resolve(&args.house_way)?,
        rounds: args.rounds,
        seed: args.seed,
        chunk_size: args.chunk_size,
        game,
    };
    if cfg.dealer.needs_dealer() || cfg.house.needs_dealer() {
        anyhow::bail!("the player-dealer's and the house way cannot depend on the dealer's hand");
    }
    if cfg.player.needs_dealer() && !cfg.game.main_wager.dealer_exposed {
        anyhow::bail!(
            "strategy '{}' needs to see the player-dealer's hand, but this game's players set first",
            cfg.player.name()
        );
    }
    cfg.validate()?;
    Ok(cfg)
}

fn default_out(cfg: &TableConfig) -> PathBuf {
    let stem = Path::new(&cfg.game.origin)
        .file_stem()
        .map_or_else(|| "game".to_string(), |s| s.to_string_lossy().into_owned());
    PathBuf::from("reports")
        .join("table")
        .join(format!("{stem}-s{}-n{}", cfg.seed, cfg.rounds))
}

/// A seat's role and its bets as written in the reports.
fn role(cfg: &TableConfig, seat: usize) -> (&'static str, String) {
    let bets = &cfg.layout.bets[seat];
    if seat == cfg.layout.dealer {
        let bank = cfg.bank.map_or("unlimited".to_string(), |b| b.to_string());
        return ("player-dealer", bank);
    }
    let text: Vec<String> = bets.iter().map(u64::to_string).collect();
    match bets.len() {
        0 => ("empty", "-".to_string()),
        1 => ("player", text.join("+")),
        _ => ("player+backline", text.join("+")),
    }
}

/// `summary.csv`: per seat, EV per round and per unit of action, action and collection.
pub fn write_summary<W: Write>(w: W, cfg: &TableConfig, t: &TableTally) -> std::io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record([
        "seat",
        "role",
        "bets",
        "rounds",
        "action_per_round",
        "ev_per_round",
        "ev_per_round_ci95_low",
        "ev_per_round_ci95_high",
        "ev_per_action",
        "ev_per_action_ci95_low",
        "ev_per_action_ci95_high",
        "ev_per_action_after_collection",
        "collection_per_round",
        "no_action_share",
        "partial_action_share",
    ])?;
    let fees = cfg.collection_per_round();
    for (seat, &fee) in fees.iter().enumerate() {
        let (role, bets) = role(cfg, seat);
        let s = table::seat_stats(&t.seats[seat], t.rounds, fee);
        let n = t.rounds as f64;
        out.write_record([
            (seat + 1).to_string(),
            role.to_string(),
            bets,
            t.rounds.to_string(),
            fixed(s.action_per_round),
            fixed(s.ev_per_round),
            fixed(s.ev_per_round_ci95.0),
            fixed(s.ev_per_round_ci95.1),
            fixed(s.ev_per_action),
            fixed(s.ev_per_action_ci95.0),
            fixed(s.ev_per_action_ci95.1),
            fixed(s.ev_per_action_after_collection),
            fee.to_string(),
            fixed(t.seats[seat].no_action as f64 / n),
            fixed(t.seats[seat].partial as f64 / n),
        ])?;
    }
    let room: u64 = fees.iter().sum();
    let dash = || "-".to_string();
    let mut row = vec!["room".to_string(), "card room".to_string(), dash()];
    row.extend([t.rounds.to_string(), dash(), fixed(room as f64)]);
    row.extend(std::iter::repeat_n(dash(), 6));
    row.extend([room.to_string(), dash(), dash()]);
    out.write_record(row)?;
    out.flush()
}

/// `outcomes.csv`: counts per seat (setter's win/push/loss, fouls, no or partial action, the
/// action pile with its exact dice probability) and the rounds the bank ran out, with Wilson
/// 95% bounds.
pub fn write_outcomes<W: Write>(w: W, cfg: &TableConfig, t: &TableTally) -> std::io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record([
        "seat",
        "event",
        "count",
        "probability",
        "probability_ci95_low",
        "probability_ci95_high",
        "exact",
    ])?;
    let odds = table::action_pile_odds();
    let mut row = |seat: String, event: &str, count: u64, exact: Option<f64>| {
        let b = wilson(count, t.rounds, 0.95);
        out.write_record([
            seat,
            event.to_string(),
            count.to_string(),
            fixed(count as f64 / t.rounds as f64),
            fixed(b.low),
            fixed(b.high),
            exact.map_or("-".to_string(), fixed),
        ])
    };
    row("table".into(), "bank ran out", t.bank_ran_out, None)?;
    for (seat, s) in t.seats.iter().enumerate() {
        let offset = (seat + SEATS - cfg.layout.dealer) % SEATS;
        let name = (seat + 1).to_string();
        row(
            name.clone(),
            "action pile",
            s.action_pile,
            Some(odds[offset]),
        )?;
        if seat == cfg.layout.dealer || cfg.layout.bets[seat].is_empty() {
            continue;
        }
        for (event, count) in [
            ("win", s.win),
            ("push", s.push),
            ("loss", s.loss),
            ("  of which fouls", s.fouls),
            ("no action", s.no_action),
            ("partial action", s.partial),
        ] {
            row(name.clone(), event, count, None)?;
        }
    }
    out.flush()
}

/// `manifest.json`: everything needed to reproduce a table run.
#[derive(Serialize)]
struct TableManifest {
    tool: String,
    version: String,
    git_commit: String,
    command_line: String,
    game: String,
    game_file: String,
    game_sha256: String,
    seats: String,
    player_dealer_seat: usize,
    bank: String,
    collection: String,
    player_way: String,
    dealer_way: String,
    house_way: String,
    rotation: String,
    seed: u64,
    rounds: u64,
    chunk_size: u64,
    chunks: u64,
    rng: String,
    shuffle: String,
    threads: usize,
    wall_seconds: f64,
    rounds_per_second: f64,
}

fn manifest(args: &TableArgs, cfg: &TableConfig, threads: usize, wall: f64) -> TableManifest {
    TableManifest {
        tool: "paigow".to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        git_commit: super::provenance::git_commit(),
        command_line: super::provenance::command_line(),
        game: cfg.game.name.clone(),
        game_file: cfg.game.origin.clone(),
        game_sha256: sha256_hex(cfg.game.text.as_bytes()),
        seats: args.seats.clone(),
        player_dealer_seat: cfg.layout.dealer + 1,
        bank: args.bank.clone(),
        collection: args.collection.clone(),
        player_way: cfg.player.name().to_string(),
        dealer_way: cfg.dealer.name().to_string(),
        house_way: cfg.house.name().to_string(),
        rotation: "none: the player-dealer keeps one seat for the whole run".to_string(),
        seed: cfg.seed,
        rounds: cfg.rounds,
        chunk_size: cfg.chunk_size,
        chunks: cfg.chunks(),
        rng: crate::cards::deal::RNG_NAME.to_string(),
        shuffle: crate::cards::deal::SHUFFLE_NAME.to_string(),
        threads,
        wall_seconds: (wall * 1000.0).round() / 1000.0,
        rounds_per_second: (cfg.rounds as f64 / wall).round(),
    }
}

/// Writes `summary.csv`, `outcomes.csv` and `manifest.json` (last).
fn write_reports(
    out: &Path,
    cfg: &TableConfig,
    t: &TableTally,
    m: &TableManifest,
) -> anyhow::Result<()> {
    let mut summary = Vec::new();
    write_summary(&mut summary, cfg, t)?;
    let mut outcomes = Vec::new();
    write_outcomes(&mut outcomes, cfg, t)?;
    let reports = vec![("summary.csv", summary), ("outcomes.csv", outcomes)];
    write_report_files(out, reports, m)
}

fn summary_text(cfg: &TableConfig, t: &TableTally, out: &Path, wall: f64) -> String {
    let fees = cfg.collection_per_round();
    let mut text = format!(
        "{}: {} rounds, seed {}, {wall:.2} s; bank ran out in {:.4}% of rounds\n\
         seat  role             bets        EV/round  EV/action  action/round  no action\n",
        cfg.game.name,
        t.rounds,
        cfg.seed,
        100.0 * t.bank_ran_out as f64 / t.rounds as f64
    );
    for (seat, &fee) in fees.iter().enumerate() {
        let (role, bets) = role(cfg, seat);
        let s = table::seat_stats(&t.seats[seat], t.rounds, fee);
        text += &format!(
            "{:>4}  {role:<15}  {bets:>10}  {:>8.4}  {:>9.5}  {:>12.3}  {:>8.4}%\n",
            seat + 1,
            s.ev_per_round,
            s.ev_per_action,
            s.action_per_round,
            100.0 * t.seats[seat].no_action as f64 / t.rounds as f64
        );
    }
    text += &format!(
        "card room collection: {} chips per round\nreports in {}\n",
        fees.iter().sum::<u64>(),
        out.display()
    );
    text
}
