//! `paigow exact ...`: exhaustive enumerations.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use super::GameArg;
use crate::engine::exact::{
    CategoryCounts, LineCounts, Method, category_counts, paytable_counts, row_name,
};
use crate::eval::{Category, Evaluator};
use crate::files::TextFile;
use crate::game::GameRules;
use crate::game::paytable::{BetKind, Paytable};
use crate::report::audit::{BetAudit, summary_text, write_returns, write_summary};
use crate::report::facts::{InputFile, Manifest, NoExtra, RunFacts};

mod main_wager;

#[derive(Subcommand, Debug)]
pub enum ExactCommand {
    /// Every 7-card hand of the game's deck, counted by best 5-card category (CSV).
    Categories(CategoriesArgs),
    /// Exact combinations of every line of the game's side bets, audited against their claims.
    Bonus(BonusArgs),
    /// The main wager's exact house edge: every player hand against every dealer hand.
    Main(main_wager::MainArgs),
}

#[derive(Args, Debug)]
pub struct BonusArgs {
    #[command(flatten)]
    game: GameArg,
    /// Only this side bet (its name, or a paytable file); default: every side bet of the game.
    #[arg(long)]
    bet: Option<String>,
    /// Report directory (default: runs/exact/GAME-bonus).
    #[arg(long)]
    out: Option<PathBuf>,
    /// No summary on stdout and no progress display.
    #[arg(long, short = 'q')]
    quiet: bool,
}

#[derive(Args, Debug)]
pub struct CategoriesArgs {
    #[command(flatten)]
    game: GameArg,
    /// `structure`: rank structures and suit patterns (milliseconds); `brute`: every hand dealt
    /// and its 21 splits searched (seconds). Both are exact and agree.
    #[arg(long, value_enum, default_value_t = MethodArg::Structure)]
    method: MethodArg,
    /// Write the CSV to this file (atomically) instead of stdout.
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum MethodArg {
    Structure,
    Brute,
}

pub fn run(command: &ExactCommand) -> anyhow::Result<()> {
    match command {
        ExactCommand::Categories(args) => categories(args),
        ExactCommand::Bonus(args) => bonus(args),
        ExactCommand::Main(args) => main_wager::run(args),
    }
}

fn categories(args: &CategoriesArgs) -> anyhow::Result<()> {
    let game = args.game.load()?;
    let method = match args.method {
        MethodArg::Structure => Method::Structure,
        MethodArg::Brute => Method::Brute,
    };
    let ev = Evaluator::new(game.ranking);
    let spinner = super::progress::spinner(&format!(
        "enumerating every 7-card hand of the {}-card deck",
        game.deck.size()
    ));
    let counts = category_counts(&ev, game.deck, method);
    spinner.finish_and_clear();
    let csv = categories_csv(&game, &counts)?;
    match &args.out {
        Some(path) => crate::files::write_atomic(path, csv.as_bytes())
            .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", path.display()))?,
        None => super::print_stdout(&csv)?,
    }
    Ok(())
}

/// The categories table: `category,combinations,probability`, highest first, then a total row.
pub fn categories_csv(game: &GameRules, counts: &CategoryCounts) -> anyhow::Result<String> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(["category", "combinations", "probability"])?;
    let total = counts.total();
    for category in Category::ALL_DESCENDING {
        let n = counts.get(category);
        writer.write_record([
            row_name(category, game.ranking.joker).to_string(),
            n.to_string(),
            format!("{:.12}", n as f64 / total as f64),
        ])?;
    }
    writer.write_record([
        "total".to_string(),
        total.to_string(),
        format!("{:.12}", 1.0),
    ])?;
    Ok(String::from_utf8(writer.into_inner()?)?)
}

/// The side bets to count: the one named by `--bet` (a game's bet by name, or a paytable), or all.
fn chosen_bets(game: &GameRules, bet: Option<&str>) -> anyhow::Result<Vec<Paytable>> {
    match bet {
        None if game.side_bets.is_empty() => {
            anyhow::bail!(
                "{}: the game offers no side bets (add side_bets = [...])",
                game.origin
            )
        }
        None => Ok(game.side_bets.clone()),
        Some(name) => match game.side_bets.iter().find(|b| b.name == name) {
            Some(table) => Ok(vec![table.clone()]),
            None => Ok(vec![Paytable::load(name)?]),
        },
    }
}

fn method_name(table: &Paytable) -> String {
    match table.kind {
        BetKind::SevenCards => "exact: every 7-card hand of the deck".to_string(),
        BetKind::Jokers => {
            "exact: every (player, dealer) pair of 7-card hands, closed form".to_string()
        }
    }
}

fn bonus(args: &BonusArgs) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    let game = args.game.load()?;
    let tables = chosen_bets(&game, args.bet.as_deref())?;
    let ev = Evaluator::new(game.ranking);
    let spinner = if args.quiet {
        indicatif::ProgressBar::hidden()
    } else {
        super::progress::spinner("counting every hand")
    };
    let counts: Vec<LineCounts> = paytable_counts(&ev, game.deck, &tables);
    spinner.finish_and_clear();
    let audits: Vec<BetAudit> = tables
        .iter()
        .zip(&counts)
        .map(|(table, counts)| BetAudit {
            table,
            counts,
            method: method_name(table),
        })
        .collect();
    let out = args.out.clone().unwrap_or_else(|| {
        let stem = std::path::Path::new(&game.origin)
            .file_stem()
            .map_or("game".into(), |s| s.to_string_lossy().into_owned());
        super::run_args::default_dir("exact", format!("{stem}-bonus"))
    });
    let manifest = bonus_manifest(&game, &tables, started.elapsed().as_secs_f64());
    write_bonus_reports(&out, &audits, &manifest)?;
    if !args.quiet {
        super::print_stdout(&format!(
            "{}reports in {}\n",
            summary_text(&audits),
            out.display()
        ))?;
    }
    Ok(())
}

fn write_bonus_reports(
    out: &std::path::Path,
    audits: &[BetAudit],
    manifest: &Manifest<BonusConfig, NoExtra>,
) -> anyhow::Result<()> {
    let mut returns = Vec::new();
    write_returns(&mut returns, audits)?;
    let mut summary = Vec::new();
    write_summary(&mut summary, audits)?;
    let files = vec![("returns.csv", returns), ("summary.csv", summary)];
    Ok(crate::report::write_report_set(out, files, manifest)?)
}

/// What the manifest of an exact side-bet count says of its configuration.
#[derive(serde::Serialize)]
struct BonusConfig {
    game: String,
    deck_cards: usize,
    method: String,
}

/// `manifest.json` of an exact side-bet count of `tables` on `game`.
fn bonus_manifest(
    game: &GameRules,
    tables: &[Paytable],
    wall_seconds: f64,
) -> Manifest<BonusConfig, NoExtra> {
    let mut config_files = vec![InputFile::of("game", &game.file())];
    config_files.extend(
        (tables.iter()).map(|t| InputFile::of("paytable", &TextFile::new(&t.origin, &t.text))),
    );
    Manifest {
        facts: RunFacts::of_this_run(rayon::current_num_threads(), wall_seconds),
        config: BonusConfig {
            game: game.name.clone(),
            deck_cards: game.deck.size(),
            method: "exhaustive enumeration; integer counts".to_string(),
        },
        plan: None,
        config_files,
        deals_per_second: None,
        extra: NoExtra {},
    }
}
