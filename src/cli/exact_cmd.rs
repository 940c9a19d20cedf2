//! `paigow exact ...`: exhaustive enumerations. Each writes its report set into a directory
//! (CSV files, then `manifest.json` with the run facts, every input with its SHA-256, and the
//! run's spec: the texts of the game, paytables and the player's way), or with no `--out` for
//! `categories`, the CSV to stdout.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use super::GameArg;
use super::help::{Accepts, Help};
use super::run_args::ThreadsArg;
use crate::engine::exact::{
    CategoryCounts, LineCounts, Method, NotCountable, category_counts, countable, paytable_counts,
    row_name,
};
use crate::engine::run::spec::{RunSpec, StrategySpec};
use crate::eval::{Category, Evaluator};
use crate::game::GameRules;
use crate::game::paytable::{BetKind, Paytable};
use crate::report::audit::{BetAudit, summary_text, write_returns, write_summary};
use crate::report::facts::{Manifest, NoExtra};
use crate::strategy::resolve::{Resolved, resolve};

mod bonus_vary;
pub(crate) mod main_wager;
mod prices;

#[derive(Subcommand, Debug)]
pub enum ExactCommand {
    /// Every 7-card hand of the game's deck, counted by best 5-card category (CSV).
    Categories(CategoriesArgs),
    /// Exact combinations of every line of the game's side bets, audited against their claims.
    Bonus(BonusArgs),
    /// The main wager's exact house edge: every player hand against every dealer hand.
    Main(main_wager::MainArgs),
    /// The exact price of every setting of every hand shape against a dealer's way: the optimum
    /// and every way priced from it.
    Prices(prices::PricesArgs),
}

/// The end of `paigow exact bonus --help`.
const BONUS_HELP: Help = Help {
    examples: &[
        (
            "Every side bet of Double Joker, exact and audited against the published claims",
            "paigow exact bonus --game double-joker",
        ),
        (
            "A paytable designed to a 5% house edge: every combination of three lines' pays \
             priced exactly from one count, the nearest first (all in vary.csv)",
            "paigow exact bonus --game double-joker --bet big-hand-bonus --target-edge 5% --vary 'flush=4..8,full_house=5..10,four_of_a_kind=25..50'",
        ),
        (
            "A '+ pair' bet (the template paytable of full_house_behind_plus_pair, ... lines, to \
             copy and edit), every hand set by Foxwoods",
            "paigow exact bonus --bet games/examples/my-jackpot.toml --player-way foxwoods",
        ),
    ],
    accepts: &[Accepts::Games, Accepts::Paytables, Accepts::OwnCardWays],
    writes: "returns.csv, summary.csv (with --vary, vary.csv) and manifest.json (last) in --out \
             (default runs/exact/GAME[-PLAYER][-BET]-bonus[-vary]: the player's way and the bet \
             named when given), replaced as a whole.",
};

/// The end of `paigow exact categories --help`.
const CATEGORIES_HELP: Help = Help {
    examples: &[
        (
            "Every 7-card hand of the 54-card deck, by best five-card category, on stdout",
            "paigow exact categories --game double-joker",
        ),
        (
            "The same by dealing every hand, into a report directory",
            "paigow exact categories --method brute --out /tmp/categories",
        ),
    ],
    accepts: &[Accepts::Games],
    writes: "the CSV on stdout; with --out DIR, categories.csv and manifest.json there instead.",
};

// The doc comments are clap's help text: `[-BET]` is the folder name's optional part, not a
// rustdoc link.
#[allow(rustdoc::broken_intra_doc_links)]
#[derive(Args, Debug)]
#[command(after_long_help = BONUS_HELP.render())]
pub struct BonusArgs {
    #[command(flatten)]
    game: GameArg,
    /// Only this side bet (its name, or a paytable file); default: every side bet of the game.
    #[arg(long)]
    bet: Option<String>,
    /// `structure`: one hand per rank structure and flush pattern (well under a second; a
    /// setting bet: one hand per hand shape); `brute`: every 7-card hand dealt (seconds; a
    /// setting bet: each set by the player's way, about a minute). Both are exact and agree.
    #[arg(long, value_enum, default_value_t = MethodArg::Structure)]
    method: MethodArg,
    /// The player's way that sets each hand for a bet judged on the player's setting
    /// (`full_house_behind_plus_pair`, ...): a house way (shipped name or TOML file), max-back,
    /// max-front or optimal:D. Only setting bets read it, and they need it.
    #[arg(long)]
    player_way: Option<String>,
    /// The house edge a paytable is designed to, in percent (`5%`): with --vary, the
    /// combinations of pays nearest it come first.
    #[arg(long, value_name = "PERCENT", requires = "vary")]
    target_edge: Option<String>,
    /// Lines whose pays to vary, each over a range of whole pays X to 1:
    /// 'flush=4..8,full_house=5..10' (the lines' events; at most 1,000,000 combinations). The
    /// counts are enumerated once and every combination is priced exactly from them (the
    /// return is linear in the pays); all go to vary.csv, nearest --target-edge first. One bet.
    #[arg(long, value_name = "LINE=LOW..HIGH,...", requires = "target_edge")]
    vary: Option<String>,
    /// Report directory (default: runs/exact/GAME[-PLAYER][-BET]-bonus[-vary], the player's
    /// way and the bet named when given).
    #[arg(long)]
    out: Option<PathBuf>,
    /// No summary on stdout and no progress display.
    #[arg(long, short = 'q')]
    quiet: bool,
    #[command(flatten)]
    threads: ThreadsArg,
}

#[derive(Args, Debug)]
#[command(after_long_help = CATEGORIES_HELP.render())]
pub struct CategoriesArgs {
    #[command(flatten)]
    game: GameArg,
    /// `structure`: rank structures and suit patterns (milliseconds); `brute`: every hand dealt
    /// and its 21 splits searched (seconds). Both are exact and agree.
    #[arg(long, value_enum, default_value_t = MethodArg::Structure)]
    method: MethodArg,
    /// Report directory: categories.csv and manifest.json (default: the CSV on stdout).
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    threads: ThreadsArg,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum MethodArg {
    Structure,
    Brute,
}

impl MethodArg {
    fn method(self) -> Method {
        match self {
            MethodArg::Structure => Method::Structure,
            MethodArg::Brute => Method::Brute,
        }
    }

    fn name(self) -> &'static str {
        match self {
            MethodArg::Structure => "structure",
            MethodArg::Brute => "brute",
        }
    }
}

pub fn run(command: &ExactCommand) -> anyhow::Result<()> {
    match command {
        ExactCommand::Categories(args) => in_pool(args.threads, || categories(args)),
        ExactCommand::Bonus(args) => in_pool(args.threads, || bonus(args)),
        ExactCommand::Main(args) => main_wager::run(args),
        ExactCommand::Prices(args) => prices::run(args),
    }
}

/// Runs `work` on a pool of the threads asked for (its manifest reads their number).
fn in_pool(
    threads: ThreadsArg,
    work: impl FnOnce() -> anyhow::Result<()> + Send,
) -> anyhow::Result<()> {
    let (pool, _) = threads.pool()?;
    pool.install(work)
}

fn categories(args: &CategoriesArgs) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    let game = args.game.load()?;
    let method = args.method.method();
    let ev = Evaluator::new(game.ranking);
    let spinner = super::progress::spinner(&format!(
        "enumerating every 7-card hand of the {}-card deck",
        game.deck.size()
    ));
    let counts = category_counts(&ev, game.deck, method);
    spinner.finish_and_clear();
    let csv = categories_csv(&game, &counts)?;
    let Some(out) = &args.out else {
        return super::print_stdout(&csv);
    };
    let spec = RunSpec::new("exact categories", &game).with_option("method", args.method.name());
    let config = ExactConfig {
        game: game.name.clone(),
        deck_cards: game.deck.size(),
        method: match method {
            Method::Structure => "exact: every rank structure and suit pattern of 7 cards",
            Method::Brute => "exact: every 7-card hand of the deck dealt",
        }
        .to_string(),
        player_way: None,
        warnings: Vec::new(),
        vary: None,
    };
    let manifest = exact_manifest(config, spec, started.elapsed().as_secs_f64());
    let files = vec![("categories.csv", csv.into_bytes())];
    crate::report::write_report_set(out, files, &manifest)
        .map_err(|e| anyhow::anyhow!("cannot write the report: {e}"))
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

/// The side bets to count: the one named by `--bet` (a game's bet by name, or a paytable the
/// game's deck can pay: the check a game file's `side_bets` get), or all.
fn chosen_bets(game: &GameRules, bet: Option<&str>) -> anyhow::Result<Vec<Paytable>> {
    match bet {
        None if game.side_bets.is_empty() => {
            anyhow::bail!(
                "{}: the game offers no side bets (add side_bets = [...])",
                game.origin
            )
        }
        None => Ok(game.side_bets.clone()),
        Some(name) => Ok(vec![game.bet(name)?]),
    }
}

fn method_name(table: &Paytable, method: Method, player: Option<&Resolved>) -> String {
    let method = method_by_kind(table, method, player);
    match table.is_envy() {
        true => method + ", each hand as another player's (the EV is per other player)",
        false => method,
    }
}

fn method_by_kind(table: &Paytable, method: Method, player: Option<&Resolved>) -> String {
    let way = player.map_or("-", |p| p.label.as_str());
    match (table.kind, method) {
        (BetKind::SevenCards, Method::Structure) => {
            "exact: every 7-card hand of the deck, by rank structure and flush pattern".to_string()
        }
        (BetKind::SevenCards, Method::Brute) => {
            "exact: every 7-card hand of the deck, each dealt".to_string()
        }
        (BetKind::Setting, Method::Structure) => format!(
            "exact: every 7-card hand of the deck set by the player's way {way}, by hand shape"
        ),
        (BetKind::Setting, Method::Brute) => {
            format!("exact: every 7-card hand of the deck dealt and set by the player's way {way}")
        }
        (BetKind::FirstThree, _) => {
            "exact: every 3-card hand of the deck (the player's first three cards)".to_string()
        }
        (BetKind::Jokers, _) => {
            "exact: every (player, dealer) pair of 7-card hands, closed form".to_string()
        }
    }
}

/// The player's way `--player-way` names, resolved, after checking that every bet of `tables`
/// can be counted with it and that some bet reads it.
fn player_way(
    game: &GameRules,
    tables: &[Paytable],
    args: &BonusArgs,
) -> anyhow::Result<Option<Resolved>> {
    let player = match &args.player_way {
        Some(name) => Some(resolve(name, game)?),
        None => None,
    };
    for t in tables {
        let refusal = match countable(t, player.as_ref().map(|p| p.uncached())) {
            Ok(()) => continue,
            Err(NotCountable::NoPlayerWay) => {
                "pass the way that sets each hand with --player-way W \
                 (a house way, max-back, max-front or optimal:D) to count it exactly"
                    .to_string()
            }
            Err(NotCountable::WaySeesDealer(way)) => format!(
                "the player's way '{way}' sets by the dealer's exposed hand, so an exact count \
                 needs a way that sets from the player's seven cards alone (a house way, \
                 max-back, max-front or optimal:D); simulate it (paigow simulate)"
            ),
        };
        anyhow::bail!(
            "{}: side bet '{}' is judged on the player's setting (the back and front as the \
             player's way sets them): {refusal}",
            t.origin,
            t.name
        );
    }
    if let Some(p) = &player
        && !tables.iter().any(|t| t.kind == BetKind::Setting)
    {
        anyhow::bail!(
            "--player-way {}: no bet counted here is judged on the player's setting \
             (only such bets, full_house_behind_plus_pair and the like, read the player's way)",
            p.label
        );
    }
    Ok(player)
}

fn bonus(args: &BonusArgs) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    let game = args.game.load()?;
    let tables = chosen_bets(&game, args.bet.as_deref())?;
    let grid = vary_grid(&tables, args)?;
    let player = player_way(&game, &tables, args)?;
    let ev = Evaluator::new(game.ranking);
    let spinner = if args.quiet {
        indicatif::ProgressBar::hidden()
    } else {
        super::progress::spinner("counting every hand")
    };
    let method = args.method.method();
    let way = player.as_ref().map(|p| p.uncached());
    let counts: Vec<LineCounts> = paytable_counts(&ev, game.deck, &tables, method, way);
    spinner.finish_and_clear();
    let audits: Vec<BetAudit> = tables
        .iter()
        .zip(&counts)
        .map(|(table, counts)| BetAudit {
            table,
            counts,
            method: method_name(table, method, player.as_ref()),
        })
        .collect();
    let out = (args.out.clone()).unwrap_or_else(|| {
        let bet = args.bet.as_deref();
        bonus_default_dir(&game.origin, bet, player.as_ref(), grid.is_some())
    });
    let warnings = bet_warnings(&audits);
    for warning in &warnings {
        eprintln!("warning: {warning}");
    }
    let varied = match &grid {
        Some(grid) => Some(bonus_vary::report(grid, &tables[0], &counts[0])?),
        None => None,
    };
    let wall = started.elapsed().as_secs_f64();
    let mut manifest = bonus_manifest(&game, &tables, player.as_ref(), args, wall);
    manifest.config.warnings = warnings;
    manifest.config.vary = grid.clone();
    let (vary_csv, vary_text) = varied.unzip();
    write_bonus_reports(&out, &audits, vary_csv, &manifest)?;
    if !args.quiet {
        super::print_stdout(&format!(
            "{}{}reports in {}\n",
            summary_text(&audits),
            vary_text.unwrap_or_default(),
            out.display()
        ))?;
    }
    Ok(())
}

/// The `--vary` grid over the one bet counted, checked before anything is counted.
fn vary_grid(tables: &[Paytable], args: &BonusArgs) -> anyhow::Result<Option<bonus_vary::Grid>> {
    let (Some(target), Some(vary)) = (&args.target_edge, &args.vary) else {
        return Ok(None);
    };
    match tables {
        [table] => Ok(Some(bonus_vary::Grid::parse(target, vary, table)?)),
        _ => anyhow::bail!(
            "--vary prices the lines of one bet: name it with --bet (the game offers {})",
            tables.len()
        ),
    }
}

/// Where `exact bonus` writes with no `--out`: `runs/exact/GAME[-WAY][-BET]-bonus[-vary]`, so
/// that runs of one game with different `--bet`s or player ways, or a `--vary` beside a plain
/// count, never replace each other.
fn bonus_default_dir(
    game: &str,
    bet: Option<&str>,
    player: Option<&Resolved>,
    vary: bool,
) -> PathBuf {
    use super::run_args::stem;
    let way = player.map_or(String::new(), |p| format!("-{}", stem(&p.label)));
    let bet = bet.map_or(String::new(), |b| format!("-{}", stem(b)));
    let vary = if vary { "-vary" } else { "" };
    super::run_args::default_dir("exact", format!("{}{way}{bet}-bonus{vary}", stem(game)))
}

fn write_bonus_reports(
    out: &std::path::Path,
    audits: &[BetAudit],
    vary: Option<Vec<u8>>,
    manifest: &Manifest<ExactConfig, NoExtra>,
) -> anyhow::Result<()> {
    let mut returns = Vec::new();
    write_returns(&mut returns, audits)?;
    let mut summary = Vec::new();
    write_summary(&mut summary, audits)?;
    let mut files = vec![("returns.csv", returns), ("summary.csv", summary)];
    files.extend(vary.map(|csv| ("vary.csv", csv)));
    Ok(crate::report::write_report_set(out, files, manifest)?)
}

/// What the manifest of an exact count says of its configuration.
#[derive(serde::Serialize)]
struct ExactConfig {
    game: String,
    deck_cards: usize,
    /// The player's way that set the hands of setting bets (absent when none did).
    #[serde(skip_serializing_if = "Option::is_none")]
    player_way: Option<String>,
    method: String,
    /// Warnings about the bets counted (lines out of pay order, a positive return).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<String>,
    /// The grid of pays `--vary` priced, and its target (absent without one).
    #[serde(skip_serializing_if = "Option::is_none")]
    vary: Option<bonus_vary::Grid>,
}

/// The warnings of the counted bets: each paytable's own, and a positive return.
fn bet_warnings(audits: &[BetAudit]) -> Vec<String> {
    audits
        .iter()
        .flat_map(|a| {
            let own = a.table.warnings.iter().cloned();
            own.chain(a.table.return_warning(a.player_ev()))
        })
        .collect()
}

/// `manifest.json` of an exact count: the run facts, `config`, every input of `spec` with its
/// SHA-256 (and the paytables beyond the game's), and the spec itself.
fn exact_manifest(
    config: ExactConfig,
    spec: RunSpec,
    wall_seconds: f64,
) -> Manifest<ExactConfig, NoExtra> {
    Manifest::of_count(config, spec, rayon::current_num_threads(), wall_seconds)
}

/// `manifest.json` of an exact side-bet count of `tables` on `game` (setting bets set by
/// `player`, listed with its files as the player way).
fn bonus_manifest(
    game: &GameRules,
    tables: &[Paytable],
    player: Option<&Resolved>,
    args: &BonusArgs,
    wall_seconds: f64,
) -> Manifest<ExactConfig, NoExtra> {
    let names: Vec<&str> = tables.iter().map(|t| t.name.as_str()).collect();
    let mut spec = RunSpec::new("exact bonus", game)
        .with_option("method", args.method.name())
        .with_option("bets", names.join("; "));
    if let (Some(target), Some(vary)) = (&args.target_edge, &args.vary) {
        spec = (spec.with_option("target_edge", target)).with_option("vary", vary);
    }
    let own = |t: &Paytable| game.side_bets.iter().any(|b| b.text == t.text);
    let added: Vec<Paytable> = tables.iter().filter(|t| !own(t)).cloned().collect();
    spec = spec.with_paytables(&added);
    spec.strategies
        .extend(player.map(|p| StrategySpec::of("player way", p)));
    let config = ExactConfig {
        game: game.name.clone(),
        deck_cards: game.deck.size(),
        player_way: player.map(|p| p.label.clone()),
        method: "exhaustive enumeration; integer counts".to_string(),
        warnings: Vec::new(),
        vary: None,
    };
    exact_manifest(config, spec, wall_seconds)
}
