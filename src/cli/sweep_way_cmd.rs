//! `paigow sweep-way W --dealer-way D --vary EDIT...`: a house way and variants of it with one
//! edit each (a rule's bound, its position, an alternative: the grammar is
//! [`crate::strategy::way::edit`]'s), each priced exactly against a dealer's way from the price
//! table ([`crate::engine::sweep_way`]), with a table, a plot per `--vary` and a manifest
//! written as one set.
//!
//! A `--vary` that names no rule, no value the file holds, or no value of the right kind is
//! refused before anything is priced, naming what is at fault. A variant that is not a valid
//! house way (the loader refuses it, as it would the file) is skipped: its row in `sweep.csv`
//! says why, stdout lists it, and it is never priced.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use crate::cli::GameArg;
use crate::cli::exact_cmd::main_wager::{deck, reduced_note};
use crate::cli::help::{Accepts, Help};
use crate::cli::run_args::ThreadsArg;
use crate::engine::run::spec::{RunSpec, StrategySpec};
use crate::engine::sweep_way::{Outcome, SweepInput, Swept, sweep};
use crate::engine::workbench::Bench;
use crate::eval::Evaluator;
use crate::game::GameRules;
use crate::report::exact_prices::ev_fraction;
use crate::report::facts::Manifest;
use crate::report::sweep_way::{SweepConfig, sweep_plot, write_sweep};
use crate::strategy::deck_shapes::SuitDeck;
use crate::strategy::optimal::cache;
use crate::strategy::resolve::{Resolved, dealer_way, resolve};
use crate::strategy::way::edit::Sweep;

/// The end of `paigow sweep-way --help`.
const HELP: Help = Help {
    examples: &[
        (
            "Foxwoods' two-pair split threshold (the big pair from which it always splits) from \
             2s to aces, against a Foxwoods dealer",
            "paigow sweep-way foxwoods --dealer-way foxwoods --vary 'rule[10].when.high_pair.min=2..A'",
        ),
        (
            "A rule moved, and its alternative replaced, on a reduced deck (seconds)",
            "paigow sweep-way foxwoods --dealer-way foxwoods --ranks 9TJQKA --vary 'rule[11].position=9..12' --vary 'rule[11].set[1]={ front = { pair = \"low_pair\" }, maximize = [\"back\"] }'",
        ),
    ],
    accepts: &[Accepts::Games, Accepts::HouseWays],
    writes: "sweep.csv (one row a way: the unedited way, then every variant), sweep-K.svg (EV \
             against the parameter of the K-th --vary) and manifest.json (last) in --out \
             (default runs/exact/GAME-WAY-vs-DEALER-sweep), replaced as a whole.",
};

// The doc comments are clap's help text: `rule[N]` is the edit grammar, not a rustdoc link.
#[allow(rustdoc::broken_intra_doc_links)]
#[derive(Args, Debug)]
#[command(after_long_help = HELP.render())]
pub struct SweepWayArgs {
    /// The house way to edit (shipped name or TOML file).
    way: String,
    #[command(flatten)]
    game: GameArg,
    /// The dealer's house way (shipped name or TOML file), or max-back / max-front.
    #[arg(long)]
    dealer_way: String,
    /// One edit swept over values: PATH=LOW..HIGH or PATH=V1;V2;..., PATH rule[N] (from 1, as
    /// check-way numbers rules) or rule["NAME"], then .position, or .when... / .set... down to
    /// the value replaced, e.g. 'rule[10].when.high_pair.min=2..A'. Repeatable: each --vary is
    /// its own sweep, every variant one edit of the unedited way.
    #[arg(long, required = true)]
    vary: Vec<String>,
    /// Report directory (default: runs/exact/GAME-WAY-vs-DEALER-sweep).
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    threads: ThreadsArg,
    /// Price a reduced deck holding only these ranks (e.g. A234), in four suits, with the game's
    /// jokers (the lint still reads the game's whole deck).
    #[arg(long, value_name = "RANKS")]
    ranks: Option<String>,
    /// No summary on stdout.
    #[arg(long, short = 'q')]
    quiet: bool,
}

pub fn run(args: &SweepWayArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let game = args.game.load()?;
    let suit_deck = deck(args.ranks.as_deref(), &game)?;
    let player = resolve(&args.way, &game)?;
    let Some(way) = player.house_way() else {
        anyhow::bail!(
            "{}: sweep-way edits a house way's file (a shipped way or a TOML file), not a \
             built-in strategy",
            args.way
        );
    };
    let sweeps = (args.vary.iter())
        .map(|vary| {
            Sweep::parse(vary, &way.text).map_err(|why| anyhow::anyhow!("--vary '{vary}': {why}"))
        })
        .collect::<anyhow::Result<Vec<Sweep>>>()?;
    let dealer = resolve(&args.dealer_way, &game)?;
    let dealer_way = dealer_way(&args.dealer_way, &game)?.way;
    let (pool, threads) = args.threads.pool()?;
    let mut phases = Vec::new();
    let at = Instant::now();
    let cache_dir = cache::default_dir();
    let note = |text: &str| {
        if !args.quiet {
            eprintln!("{text}");
        }
    };
    let bench =
        pool.install(|| Bench::load(&dealer_way, &game, suit_deck, cache_dir.as_deref(), &note));
    phases.push(("the price table".to_string(), at.elapsed().as_secs_f64()));
    let evaluator = Evaluator::new(game.ranking);
    let input = SweepInput {
        bench: &bench,
        way,
        sweeps: &sweeps,
        evaluator: &evaluator,
        deck: game.deck,
    };
    let at = Instant::now();
    let swept = pool.install(|| sweep(&input)).map_err(anyhow::Error::msg)?;
    phases.push((
        format!("pricing and linting {} ways", swept.rows.len()),
        at.elapsed().as_secs_f64(),
    ));
    let pairs = bench.pairs();
    let files = report_files(&swept, &sweeps, pairs)?;
    let out = (args.out.clone()).unwrap_or_else(|| default_out(&game, args));
    let context = Context {
        game: &game,
        deck: suit_deck,
        player: &player,
        dealer: &dealer,
    };
    let manifest = manifest(&context, args, &swept, pairs, phases, threads, started);
    let files = (files.iter()).map(|(name, bytes)| (name.as_str(), bytes.clone()));
    crate::report::write_report_set(&out, files.collect(), &manifest)
        .map_err(|e| anyhow::anyhow!("cannot write the report: {e}"))?;
    if !args.quiet {
        let text = summary_text(&context, &swept, pairs, bench.table.shapes.len())
            + &format!("reports in {}\n", out.display());
        crate::cli::print_stdout(&text)?;
    }
    Ok(())
}

/// What the summary and the manifest name.
struct Context<'a> {
    game: &'a GameRules,
    deck: SuitDeck,
    player: &'a Resolved,
    dealer: &'a Resolved,
}

/// `sweep.csv`, then each `--vary`'s plot.
fn report_files(
    swept: &Swept,
    sweeps: &[Sweep],
    pairs: u128,
) -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    let mut csv = Vec::new();
    write_sweep(&mut csv, swept, pairs)?;
    let mut files = vec![("sweep.csv".to_string(), csv)];
    for (k, sweep) in sweeps.iter().enumerate() {
        let plot = sweep_plot(swept, k + 1, &sweep.path, pairs);
        files.push((format!("sweep-{}.svg", k + 1), plot.into_bytes()));
    }
    Ok(files)
}

/// The default report directory.
fn default_out(game: &GameRules, args: &SweepWayArgs) -> PathBuf {
    use crate::cli::run_args::stem;
    let ranks = (args.ranks.as_ref()).map_or(String::new(), |r| format!("-ranks-{r}"));
    crate::cli::run_args::default_dir(
        "exact",
        format!(
            "{}-{}-vs-{}{ranks}-sweep",
            stem(&game.origin),
            stem(&args.way),
            stem(&args.dealer_way)
        ),
    )
}

/// A fraction of a bet in percent, rounded to six decimals (never "-0.000000%").
fn percent(v: f64) -> String {
    match format!("{:.6}", 100.0 * v) {
        zero if zero == "-0.000000" => "0.000000%".to_string(),
        text => format!("{text}%"),
    }
}

/// A fraction of a bet in percent, six decimals, signed.
fn signed_percent(v: f64) -> String {
    match v >= 0.0 {
        true => format!("+{}", percent(v)),
        false => percent(v),
    }
}

/// The terminal summary: every row, the best variant, the time a variant took.
fn summary_text(context: &Context, swept: &Swept, pairs: u128, shapes: usize) -> String {
    let ev = |net: i128| ev_fraction(net, pairs);
    let base = swept.base_net();
    let mut text = format!(
        "{} ({}) against {}, {}: every hand of the {}-card deck ({} shapes) against every \
         dealer hand, exactly; the optimum's EV {}\n",
        context.player.label,
        context.player.house_way().map_or("", |w| w.origin.as_str()),
        context.dealer.label,
        context.game.name,
        context.deck.size(),
        crate::combin::grouped(&shapes.to_string()),
        percent(ev(swept.optimal_net).to_f64()),
    );
    let width = (swept.rows.iter()).map(|r| r.edit.chars().count()).max();
    let width = width.unwrap_or(8);
    for row in &swept.rows {
        match &row.outcome {
            Outcome::Priced {
                net,
                hands_changed,
                lint,
            } => {
                text += &format!(
                    "  {:<width$}  EV {:>11}  change {:>11}  below the optimum {:>10}  hands set \
                     differently {:>12}",
                    row.edit,
                    signed_percent(ev(*net).to_f64()),
                    signed_percent(ev(net - base).to_f64()),
                    percent(ev(swept.optimal_net - net).to_f64()),
                    crate::combin::grouped(&hands_changed.to_string()),
                );
                if !lint.is_empty() {
                    text += &format!("  lint: {}", lint.join("; "));
                }
                text += "\n";
            }
            Outcome::Invalid(why) => {
                text += &format!(
                    "  {:<width$}  not a valid house way, skipped: {why}\n",
                    row.edit
                );
            }
        }
    }
    let sweeps = swept.rows.last().map_or(0, |r| r.sweep);
    for best in (1..=sweeps).filter_map(|k| swept.best(k)) {
        let net = best.net().unwrap_or_default();
        text += &format!(
            "best of --vary {}: {}, EV {} ({} exactly), {} on the unedited way\n",
            best.sweep,
            best.edit,
            signed_percent(ev(net).to_f64()),
            ev(net),
            signed_percent(ev(net - base).to_f64())
        );
    }
    if swept.priced > 0 {
        text += &format!(
            "{} variants priced in {:.2} s ({:.3} s each)\n",
            swept.priced,
            swept.pricing_seconds,
            swept.pricing_seconds / swept.priced as f64
        );
    }
    text
}

fn manifest(
    context: &Context,
    args: &SweepWayArgs,
    swept: &Swept,
    pairs: u128,
    phases: Vec<(String, f64)>,
    threads: usize,
    started: Instant,
) -> Manifest<SweepConfig, crate::report::facts::NoExtra> {
    let game = context.game;
    let mut spec = RunSpec::new("sweep-way", game);
    spec.strategies
        .push(StrategySpec::of("player way", context.player));
    spec.strategies
        .push(StrategySpec::of("dealer way", context.dealer));
    spec = spec.with_option("vary", args.vary.join(" | "));
    if let Some(ranks) = &args.ranks {
        spec = spec.with_option("ranks", ranks);
    }
    let reduced = reduced_note(context.deck);
    let ev = |net: i128| ev_fraction(net, pairs).to_string();
    let config = SweepConfig {
        game: game.name.clone(),
        main_wager: game.main_wager.describe(),
        player_way: context.player.label.clone(),
        dealer_way: context.dealer.label.clone(),
        deck_cards: context.deck.size(),
        method: format!(
            "exhaustive: each variant (the way's file with one edit, loaded and validated \
             afresh) priced from the exact price table, every hand against every dealer hand of \
             the cards it leaves; integer counts{reduced}"
        ),
        vary: args.vary.clone(),
        variants: swept.rows.len() - 1,
        invalid: (swept.rows.iter()).filter(|r| r.net().is_none()).count(),
        player_ev: ev(swept.base_net()),
        optimal_player_ev: ev(swept.optimal_net),
        phases,
    };
    Manifest::of_count(config, spec, threads, started.elapsed().as_secs_f64())
}
