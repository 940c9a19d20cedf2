//! `paigow cost-way W --dealer-way D`: what each rule of the house way `W` costs against the
//! optimum (`optimal:D`), exactly, from the price table ([`crate::engine::cost_way`]); with
//! `--both`, the house's side of changing its way from `D` to `W`. Reports for a lab.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;

use super::GameArg;
use super::exact_cmd::main_wager::{deck, reduced_note};
use super::help::{Accepts, Help};
use super::run_args::ThreadsArg;
use crate::engine::cost_way::{HouseSide, WayCost, cost_way, house_side};
use crate::engine::run::spec::{RunSpec, StrategySpec};
use crate::engine::workbench::Bench;
use crate::game::GameRules;
use crate::report::cost_way::{
    CostWayConfig, Names, rules_text, summary_text, write_classes, write_rules, write_summary,
};
use crate::report::facts::{Manifest, NoExtra};
use crate::strategy::deck_shapes::SuitDeck;
use crate::strategy::optimal::cache::{self, DealerWay};
use crate::strategy::optimal::table_file::cached_table;
use crate::strategy::resolve::{self, Resolved, dealer_way, resolve};
use crate::strategy::way::HouseWay;

/// The end of `paigow cost-way --help`.
const HELP: Help = Help {
    examples: &[
        (
            "What each rule of Bally's AC costs against the optimum, with a Foxwoods dealer \
             (seconds once the price table is cached)",
            "paigow cost-way ballys-ac --dealer-way foxwoods",
        ),
        (
            "A reduced deck of four ranks and the joker, and the house's side of the change \
             (W against W, D against D, and the optimum against each)",
            "paigow cost-way ballys-ac --dealer-way foxwoods --ranks A234 --both --out /tmp/cost",
        ),
    ],
    accepts: &[Accepts::Games, Accepts::HouseWays],
    writes: "rules.csv, classes.csv, summary.csv and manifest.json (last) in --out (default \
             runs/cost-way/GAME-W-vs-D), replaced as a whole.",
};

#[derive(Args, Debug)]
#[command(after_long_help = HELP.render())]
pub struct CostWayArgs {
    #[command(flatten)]
    game: GameArg,
    /// The house way to cost, rule by rule (a shipped name or a TOML file).
    way: String,
    /// The dealer's house way (shipped name or TOML file), or max-back / max-front: the optimum
    /// is optimal against it, and its price table is read from the cache (else built, minutes on
    /// a full deck, and cached).
    #[arg(long)]
    dealer_way: String,
    /// The house's side: the house changes its way from the dealer's way to W, dealer and
    /// house-way players together: W against W and D against D by the exact main engine (about
    /// a minute each on a full deck, then cached), and the optimum against W from W's price
    /// table (a reduced deck builds it; a full deck reads it from the cache, or see
    /// --build-table).
    #[arg(long)]
    both: bool,
    /// With --both on a full deck: build W's price table when it is not cached (minutes of CPU,
    /// then cached), as `paigow exact prices --dealer-way W` does.
    #[arg(long, requires = "both")]
    build_table: bool,
    /// Hand classes listed per rule in classes.csv (those the rule costs most on).
    #[arg(long, default_value_t = 5)]
    classes: usize,
    /// Rules shown on stdout, costliest first (every rule is in rules.csv).
    #[arg(long, default_value_t = 10)]
    top: usize,
    /// Report directory (default: runs/cost-way/GAME-W-vs-D).
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    threads: ThreadsArg,
    /// A reduced deck holding only these ranks (e.g. A234), in four suits, with the game's
    /// jokers: its price table builds in milliseconds.
    #[arg(long, value_name = "RANKS")]
    ranks: Option<String>,
    /// No summary on stdout and no progress notes.
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// What a run reads: the game, the deck, the way (its rules, and as a strategy) and the dealer's
/// way (as a strategy, and as the dealer of a price table).
struct Inputs {
    game: GameRules,
    deck: SuitDeck,
    rules: HouseWay,
    way: Resolved,
    dealer: Resolved,
    dealer_way: DealerWay,
}

fn inputs(args: &CostWayArgs) -> anyhow::Result<Inputs> {
    let game = args.game.load()?;
    let deck = deck(args.ranks.as_deref(), &game)?;
    let rules = resolve::house_way(&args.way, "a house way (its rules are costed)")?;
    let dealer_way = dealer_way(&args.dealer_way, &game)?.way;
    Ok(Inputs {
        way: resolve(&args.way, &game)?,
        dealer: resolve(&args.dealer_way, &game)?,
        dealer_way,
        game,
        deck,
        rules,
    })
}

pub fn run(args: &CostWayArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let inputs = inputs(args)?;
    let (pool, threads) = args.threads.pool()?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| default_out(args, &inputs));
    // A reduced deck's tables build in milliseconds: no notes.
    let note = |text: &str| {
        if !args.quiet && inputs.deck.is_full() {
            eprintln!("{text}");
        }
    };
    let mut phases = Vec::new();
    let mut phase =
        |name: &str, at: Instant| phases.push((name.to_string(), at.elapsed().as_secs_f64()));
    let at = Instant::now();
    let dealer = &inputs.dealer_way;
    let dir = cache::default_dir();
    let bench =
        pool.install(|| Bench::load(dealer, &inputs.game, inputs.deck, dir.as_deref(), &note));
    phase("reading or building the price table", at);
    let at = Instant::now();
    let cost = pool.install(|| cost_way(&bench, &inputs.rules, args.classes));
    phase("costing the rules", at);
    // The files that need the table's hands, before a second table is read for --both.
    let mut rules = Vec::new();
    write_rules(&mut rules, &cost)?;
    let mut classes = Vec::new();
    write_classes(&mut classes, &cost, &bench)?;
    let by_rule = rules_text(&cost, &bench, args.top);
    let shapes = bench.table.shapes.len();
    drop(bench);
    let (side, missing) = match args.both {
        true => {
            let at = Instant::now();
            let (side, missing) =
                pool.install(|| house_side_of(args, &inputs, dir.as_deref(), &note))?;
            phase("the house's side", at);
            (Some(side), missing)
        }
        false => (None, String::new()),
    };
    let names = Names {
        way: &args.way,
        dealer: &args.dealer_way,
        best_vs_way_missing: &missing,
    };
    let mut summary = Vec::new();
    write_summary(&mut summary, &cost, side.as_ref(), &names)?;
    let files = vec![
        ("rules.csv", rules),
        ("classes.csv", classes),
        ("summary.csv", summary),
    ];
    let facts = Facts {
        shapes,
        threads,
        phases,
        started,
    };
    let manifest = manifest(args, &inputs, &cost, facts);
    crate::report::write_report_set(&out, files, &manifest)
        .map_err(|e| anyhow::anyhow!("cannot write the report in {}: {e}", out.display()))?;
    if !args.quiet {
        let text = heading(args, &inputs)
            + &summary_text(&cost, side.as_ref(), &names)
            + &by_rule
            + &format!("reports in {}\n", out.display());
        crate::cli::print_stdout(&text)?;
    }
    Ok(())
}

/// The house's side, with why the optimum against W is missing when it is.
fn house_side_of(
    args: &CostWayArgs,
    inputs: &Inputs,
    dir: Option<&Path>,
    note: &(dyn Fn(&str) + Sync),
) -> anyhow::Result<(HouseSide, String)> {
    let (game, deck) = (&inputs.game, inputs.deck);
    let way_dealer = dealer_way(&args.way, game)?.way;
    let bench = match (deck.is_full(), args.build_table) {
        (false, _) | (true, true) => Some(Bench::load(&way_dealer, game, deck, dir, note)),
        (true, false) => cached_table(&way_dealer, game, dir).map(|t| Bench::new(t, game, deck)),
    };
    let missing = match bench {
        Some(_) => String::new(),
        None => format!(
            "needs {}'s price table: run `paigow exact prices --game {} --dealer-way {}` first, \
             or add --build-table",
            args.way, args.game.game, args.way
        ),
    };
    let side = house_side(game, deck, &inputs.way, &inputs.dealer, bench.as_ref())?;
    Ok((side, missing))
}

/// The first line on stdout.
fn heading(args: &CostWayArgs, inputs: &Inputs) -> String {
    format!(
        "{}, {} ({} rules) against optimal:{d}, the dealer setting by {d}, {} cards:\n",
        inputs.game.name,
        args.way,
        inputs.rules.compiled.rules.len(),
        inputs.deck.size(),
        d = args.dealer_way,
    )
}

/// The default report directory.
fn default_out(args: &CostWayArgs, inputs: &Inputs) -> PathBuf {
    use crate::cli::run_args::stem;
    let ranks = (args.ranks.as_ref()).map_or(String::new(), |r| format!("-ranks-{r}"));
    crate::cli::run_args::default_dir(
        "cost-way",
        format!(
            "{}-{}-vs-{}{ranks}",
            stem(&inputs.game.origin),
            stem(&args.way),
            stem(&args.dealer_way)
        ),
    )
}

/// What the manifest records of the run beside its inputs.
struct Facts {
    shapes: usize,
    threads: usize,
    phases: Vec<(String, f64)>,
    started: Instant,
}

fn manifest(
    args: &CostWayArgs,
    inputs: &Inputs,
    cost: &WayCost,
    facts: Facts,
) -> Manifest<CostWayConfig, NoExtra> {
    let game = &inputs.game;
    let mut spec = RunSpec::new("cost-way", game);
    spec.strategies
        .push(StrategySpec::of("house way", &inputs.way));
    spec.strategies
        .push(StrategySpec::of("dealer way", &inputs.dealer));
    let options = [
        ("both", args.both.to_string()),
        ("classes", args.classes.to_string()),
        ("ranks", args.ranks.clone().unwrap_or_default()),
    ];
    for (key, value) in options {
        spec.options.insert(key.to_string(), value);
    }
    let reduced = reduced_note(inputs.deck);
    let config = CostWayConfig {
        game: game.name.clone(),
        main_wager: game.main_wager.describe(),
        way: inputs.way.label.clone(),
        dealer_way: inputs.dealer.label.clone(),
        deck_cards: inputs.deck.size(),
        method: format!(
            "exhaustive, from the price table: every shape set by the way and at its best \
             setting against the dealer's way, over every dealer hand of the cards each hand \
             leaves; integer counts{reduced}"
        ),
        shapes: facts.shapes,
        hands: cost.total.hands,
        pairs: cost.pairs.to_string(),
        rules: cost.rules.len(),
        classes_per_rule: args.classes,
        both: args.both,
        phases: facts.phases,
    };
    let wall = facts.started.elapsed().as_secs_f64();
    Manifest::of_count(config, spec, facts.threads, wall)
}
