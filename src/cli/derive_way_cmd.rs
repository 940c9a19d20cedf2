//! `paigow derive-way`: a short house way derived from the optimum against a dealer's way
//! ([`crate::engine::derive_way`]), written as a house-way file with its frontier (the exact cost
//! of the way after each step of the search) and a manifest.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;

use super::GameArg;
use super::exact_cmd::main_wager::deck;
use super::help::{Accepts, Help};
use super::run_args::ThreadsArg;
use crate::engine::derive_way::{
    Derived, Header, Prepared, Step, Vocabulary, Written, search, write_way,
};
use crate::engine::exact_main::Fraction;
use crate::engine::run::spec::{RunSpec, StrategySpec};
use crate::engine::workbench::Bench;
use crate::eval::Evaluator;
use crate::game::GameRules;
use crate::report::derive_way::{DeriveConfig, write_frontier};
use crate::report::facts::Manifest;
use crate::report::fixed;
use crate::strategy::deck_shapes::SuitDeck;
use crate::strategy::optimal::cache;
use crate::strategy::resolve::{Resolved, dealer_way, resolve};

/// The end of `paigow derive-way --help`.
const HELP: Help = Help {
    examples: &[
        (
            "A way of at most 18 rules against the Foxwoods dealer (the price table: minutes the \
             first time, then read from the cache)",
            "paigow derive-way --dealer-way foxwoods --max-rules 18 --out my-way.toml",
        ),
        (
            "A reduced deck of four ranks and the joker (seconds)",
            "paigow derive-way --dealer-way foxwoods --max-rules 6 --ranks A234",
        ),
    ],
    accepts: &[Accepts::Games, Accepts::HouseWays],
    writes: "the way (--out, default runs/derive-way/GAME-DEALER-N/way.toml), the frontier \
             (--frontier, default frontier.csv beside the way) and manifest.json beside the \
             frontier, each replaced atomically.",
};

#[derive(Args, Debug)]
#[command(after_long_help = HELP.render())]
pub struct DeriveWayArgs {
    #[command(flatten)]
    game: GameArg,
    /// The dealer's house way (shipped name or TOML file), or max-back / max-front.
    #[arg(long)]
    dealer_way: String,
    /// The most rules the derived way may have (its last rule covers every other hand).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    max_rules: u32,
    /// Derive on a reduced deck holding only these ranks (e.g. A234), in four suits, with the
    /// game's jokers (the way is still linted on the game's deck).
    #[arg(long, value_name = "RANKS")]
    ranks: Option<String>,
    /// The house-way file to write (default: runs/derive-way/GAME-DEALER-N/way.toml).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// The frontier CSV to write (default: frontier.csv beside the way); manifest.json goes
    /// beside it.
    #[arg(long, value_name = "CSV")]
    frontier: Option<PathBuf>,
    #[command(flatten)]
    threads: ThreadsArg,
    /// No summary on stdout and no progress on stderr.
    #[arg(long, short = 'q')]
    quiet: bool,
}

pub fn run(args: &DeriveWayArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let game = args.game.load()?;
    let deck = deck(args.ranks.as_deref(), &game)?;
    let dealer = dealer_way(&args.dealer_way, &game)?.way;
    let resolved = resolve(&args.dealer_way, &game)?;
    let (pool, threads) = args.threads.pool()?;
    let way_path = (args.out.clone()).unwrap_or_else(|| default_dir(&game, args).join("way.toml"));
    let frontier_path =
        (args.frontier.clone()).unwrap_or_else(|| way_path.with_file_name("frontier.csv"));
    let mut phases = Vec::new();
    let mut phase = |name: &str, at: Instant| phases.push((name.to_string(), secs(at)));
    let note = |text: &str| {
        if !args.quiet {
            eprintln!("{text}");
        }
    };
    let at = Instant::now();
    let cache_dir = cache::default_dir().filter(|_| deck.is_full());
    let bench = pool.install(|| Bench::load(&dealer, &game, deck, cache_dir.as_deref(), &note));
    phase("loading the price table", at);
    let at = Instant::now();
    let vocab = Vocabulary::standard();
    let prepared = pool.install(|| Prepared::new(&bench, &vocab));
    phase("preparing the shapes", at);
    let at = Instant::now();
    let optimal = bench.optimal_net();
    let show = |step: &Step| note(&progress_line(&bench, &vocab, step, optimal));
    let max_rules = args.max_rules as usize;
    let derived = pool.install(|| search(&prepared, &vocab, max_rules, &show));
    phase("searching", at);
    let at = Instant::now();
    let header = header(args, &game, deck, &resolved, &bench, &derived);
    let origin = way_path.display().to_string();
    let ev = Evaluator::new(game.ranking);
    let written =
        pool.install(|| write_way(&bench, &vocab, &derived, &header, &ev, game.deck, &origin));
    let written = written.map_err(|e| anyhow::anyhow!("{e}"))?;
    phase("writing and checking the way", at);
    let mut frontier = Vec::new();
    write_frontier(
        &mut frontier,
        &vocab,
        &derived.steps,
        optimal,
        bench.pairs(),
    )?;
    let config = config(args, &game, deck, &resolved, &bench, &derived, phases);
    let config = DeriveConfig {
        way_file: origin.clone(),
        frontier_file: frontier_path.display().to_string(),
        ..config
    };
    let manifest = manifest(config, &game, &resolved, args, threads, started);
    write_files(&way_path, &written, &frontier_path, &frontier, &manifest)?;
    if !args.quiet {
        let text = summary(&game, &resolved, &bench, &vocab, &derived, &written);
        let files = format!(
            "wrote {}, {} and {}\n",
            way_path.display(),
            frontier_path.display(),
            frontier_path.with_file_name("manifest.json").display()
        );
        super::print_stdout(&(text + &files))?;
    }
    Ok(())
}

fn secs(at: Instant) -> f64 {
    at.elapsed().as_secs_f64()
}

/// The way, then the frontier, then the manifest, each written atomically.
fn write_files(
    way_path: &Path,
    written: &Written,
    frontier_path: &Path,
    frontier: &[u8],
    manifest: &impl serde::Serialize,
) -> anyhow::Result<()> {
    let write = |path: &Path, bytes: &[u8]| {
        crate::files::write_atomic(path, bytes)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
    };
    write(way_path, written.text.as_bytes())?;
    write(frontier_path, frontier)?;
    let json = crate::report::manifest_json(manifest)?;
    write(&frontier_path.with_file_name("manifest.json"), &json)
}

/// The default folder: runs/derive-way/GAME-DEALER[-ranks-R]-N.
fn default_dir(game: &GameRules, args: &DeriveWayArgs) -> PathBuf {
    use crate::cli::run_args::stem;
    let ranks = (args.ranks.as_ref()).map_or(String::new(), |r| format!("-ranks-{r}"));
    crate::cli::run_args::default_dir(
        "derive-way",
        format!(
            "{}-{}{ranks}-{}",
            stem(&game.origin),
            stem(&args.dealer_way),
            args.max_rules
        ),
    )
}

/// A cost or EV as a percentage of a bet, with its exact fraction of a bet.
fn percent(f: Fraction) -> String {
    format!("{:.6}% ({f})", 100.0 * f.to_f64())
}

/// One step as the progress shows it.
fn progress_line(bench: &Bench, vocab: &Vocabulary, step: &Step, optimal: i128) -> String {
    let cost = bench.ev(optimal - step.net).to_f64();
    format!(
        "{:>3} rules: cost {:.6}% of a bet; rule {}: {}",
        step.rules,
        100.0 * cost,
        step.position + 1,
        vocab.rule_name(&step.added)
    )
}

/// The command line that derives the way, without paths.
fn command_line(args: &DeriveWayArgs) -> String {
    let ranks = (args.ranks.as_ref()).map_or(String::new(), |r| format!(" --ranks {r}"));
    format!(
        "paigow derive-way --game {} --dealer-way {} --max-rules {}{ranks}",
        args.game.name(),
        args.dealer_way,
        args.max_rules
    )
}

/// The deck in words.
fn deck_words(deck: SuitDeck) -> String {
    match deck.is_full() {
        true => format!("every hand of the {}-card deck", deck.size()),
        false => format!(
            "every hand of a reduced {}-card deck (rank mask {:#015b})",
            deck.size(),
            deck.ranks()
        ),
    }
}

fn header(
    args: &DeriveWayArgs,
    game: &GameRules,
    deck: SuitDeck,
    dealer: &Resolved,
    bench: &Bench,
    derived: &Derived,
) -> Header {
    let cost = bench.ev(bench.optimal_net() - derived.net);
    let rules = derived.rules.len();
    Header {
        name: format!("Derived against {}, {rules} rules", dealer.label),
        source: format!(
            "{} ({}, {}): no casino's text, a search on the exact price table",
            command_line(args),
            game.name,
            deck_words(deck)
        ),
        notes: format!(
            "Derived by `paigow derive-way`: a greedy search over rules built from the language's \
             hand classes (pairs, three and four of a kinds, a straight or flush), one bound on a \
             rank (high pair, low pair, three or four of a kind, highest single card) and the \
             settings the shipped ways use; each step inserts the rule, at the place, that lowers \
             the exact cost most. Each rule's name is its conditions and setting in words.\n\
             Exact cost against optimal:{} over {}: {} of a bet.",
            args.dealer_way,
            deck_words(deck),
            percent(cost)
        ),
        game: args.game.name().to_string(),
    }
}

fn config(
    args: &DeriveWayArgs,
    game: &GameRules,
    deck: SuitDeck,
    dealer: &Resolved,
    bench: &Bench,
    derived: &Derived,
    phases: Vec<(String, f64)>,
) -> DeriveConfig {
    let optimal = bench.optimal_net();
    let (ev, best) = (bench.ev(derived.net), bench.ev(optimal));
    let cost = bench.ev(optimal - derived.net);
    DeriveConfig {
        game: game.name.clone(),
        dealer_way: dealer.label.clone(),
        deck_cards: deck.size(),
        max_rules: args.max_rules as usize,
        rules: derived.rules.len(),
        method: format!(
            "greedy: the best catch-all, then the rule (hand class, one rank bound, setting) and \
             place that lower the exact cost most, with rules re-set to a better setting after \
             each step; priced exactly over {}",
            deck_words(deck)
        ),
        way_file: String::new(),
        frontier_file: String::new(),
        ev: fixed(ev.to_f64()),
        ev_exact: ev.to_string(),
        optimal_ev: fixed(best.to_f64()),
        optimal_ev_exact: best.to_string(),
        cost: fixed(cost.to_f64()),
        cost_exact: cost.to_string(),
        phases,
    }
}

fn manifest(
    config: DeriveConfig,
    game: &GameRules,
    dealer: &Resolved,
    args: &DeriveWayArgs,
    threads: usize,
    started: Instant,
) -> Manifest<DeriveConfig, crate::report::facts::NoExtra> {
    let mut spec = RunSpec::new("derive-way", game);
    spec.strategies.push(StrategySpec::of("dealer way", dealer));
    spec.options
        .insert("max_rules".into(), args.max_rules.to_string());
    if let Some(ranks) = &args.ranks {
        spec.options.insert("ranks".into(), ranks.clone());
    }
    Manifest::of_count(config, spec, threads, secs(started))
}

/// The terminal summary: the optimum, the way's EV and cost, the frontier.
fn summary(
    game: &GameRules,
    dealer: &Resolved,
    bench: &Bench,
    vocab: &Vocabulary,
    derived: &Derived,
    written: &Written,
) -> String {
    let optimal = bench.optimal_net();
    let mut text = format!(
        "{}, against {}: {} shapes, {} hands\noptimal:{} EV {}\n{}: EV {}, cost {} of a bet; lint-clean \
         ({} hands)\n",
        game.name,
        dealer.label,
        bench.table.shapes.len(),
        bench.table.hands(),
        dealer.label,
        percent(bench.ev(optimal)),
        written.way.name,
        percent(bench.ev(derived.net)),
        percent(bench.ev(optimal - derived.net)),
        written.lint.hands,
    );
    text += "rules        cost %      saved %  rule added\n";
    for step in &derived.steps {
        let saved = (step.saved).map_or("-".to_string(), |n| {
            format!("{:.6}", 100.0 * bench.ev(n).to_f64())
        });
        text += &format!(
            "{:>5} {:>12.6} {:>12}  {}\n",
            step.rules,
            100.0 * bench.ev(optimal - step.net).to_f64(),
            saved,
            vocab.rule_name(&step.added)
        );
    }
    text
}
