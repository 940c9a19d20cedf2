//! `paigow exact prices`: the exact price of every setting of every hand shape against a
//! dealer's way ([`crate::strategy::optimal::prices`]); the optimum and the shipped ways priced
//! from it; reports for a lab.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use super::main_wager::deck;
use crate::cli::GameArg;
use crate::cli::help::{Accepts, Help};
use crate::cli::run_args::ThreadsArg;
use crate::engine::run::spec::{RunSpec, StrategySpec};
use crate::engine::table_check::check_sample;
use crate::eval::Evaluator;
use crate::game::GameRules;
use crate::report::exact_prices::{
    PricedWay, PricesConfig, SampleCheck, ev_fraction, sample_check_text, write_sample_check,
    write_shapes, write_summary,
};
use crate::report::facts::{Manifest, NoExtra};
use crate::report::fixed;
use crate::strategy::deck_shapes::{Shapes, SuitDeck};
use crate::strategy::optimal::FULL_DECK_PREFIX;
use crate::strategy::optimal::cache::{self, DealerWay};
use crate::strategy::optimal::pricer::HandPricer;
use crate::strategy::optimal::prices::PriceTable;
use crate::strategy::optimal::table_file::{cached_table, store};
use crate::strategy::resolve::{Resolved, resolve};

/// The end of `paigow exact prices --help`.
const HELP: Help = Help {
    examples: &[
        (
            "Every setting of every hand shape against the Foxwoods dealer (minutes)",
            "paigow exact prices --dealer-way foxwoods",
        ),
        (
            "A reduced deck of four ranks and the joker, small enough to check by brute force",
            "paigow exact prices --dealer-way foxwoods --ranks A234 --out /tmp/prices",
        ),
    ],
    accepts: &[Accepts::Games, Accepts::DealerWays],
    writes: "shapes.csv (unless --no-shapes), summary.csv and manifest.json (last) in --out \
             (default runs/exact/GAME-DEALER-prices), replaced as a whole.",
};

#[derive(Args, Debug)]
#[command(after_long_help = HELP.render())]
pub struct PricesArgs {
    #[command(flatten)]
    game: GameArg,
    /// The dealer's house way (shipped name or TOML file), or max-back / max-front.
    #[arg(long)]
    dealer_way: String,
    /// Report directory (default: runs/exact/GAME-DEALER-prices).
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    threads: ThreadsArg,
    /// Price a reduced deck holding only these ranks (e.g. A234), in four suits, with the game's
    /// jokers: small enough to check by brute force.
    #[arg(long, value_name = "RANKS")]
    ranks: Option<String>,
    /// Write summary.csv and manifest.json only (shapes.csv, one row a shape, is 45 MB for the
    /// standard game's 292,253 shapes).
    #[arg(long)]
    no_shapes: bool,
    /// Build the table even when it is cached (and cache it again): for timing the build.
    #[arg(long)]
    rebuild: bool,
    /// Check the table's choice on N hands of every hand class: each priced exactly against
    /// every dealer hand of the cards it leaves, its own best setting against its shape's
    /// (sample-check.csv). Hands of the game's whole deck: not with --ranks.
    #[arg(long, value_name = "N", conflicts_with = "ranks")]
    sample_check: Option<usize>,
    /// Seed of the hands --sample-check draws.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// No summary on stdout and no progress display.
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// What `pricer` and `table` took, phase by phase.
struct Built {
    table: PriceTable,
    shapes: Shapes,
    phases: Vec<(String, f64)>,
}

pub fn run(args: &PricesArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let game = args.game.load()?;
    let deck = deck(args.ranks.as_deref(), &game)?;
    // A dealer sets without seeing any hand: a house way or max-back / max-front.
    let dealer_way = crate::strategy::resolve::dealer_way(&args.dealer_way, &game)?.way;
    let dealer = resolve(&args.dealer_way, &game)?;
    let (pool, threads) = args.threads.pool()?;
    let ev = Evaluator::new(game.ranking);
    let mut built = pool.install(|| build(args, &game, deck, &dealer_way, &ev));
    let at = Instant::now();
    let ways = pool.install(|| price_ways(&game, &built, &ev, &dealer))?;
    built
        .phases
        .push(("pricing the ways".into(), at.elapsed().as_secs_f64()));
    let out = args.out.clone().unwrap_or_else(|| default_out(&game, args));
    let at = Instant::now();
    let checked = (args.sample_check).map(|n| {
        let pricer = HandPricer::with_deck(&game, deck, &*dealer_way.strategy);
        let sample = (n, args.seed);
        pool.install(|| check_sample(&built.table, &pricer, &ev, game.deck, sample))
    });
    if let Some(checked) = &checked {
        let phase = format!("checking {} sampled hands", checked.len());
        built.phases.push((phase, at.elapsed().as_secs_f64()));
    }
    let at = Instant::now();
    let mut files = report_files(&game, &built, &ev, &ways, !args.no_shapes)?;
    if let Some(checked) = &checked {
        let mut csv = Vec::new();
        write_sample_check(&mut csv, checked, game.ranking.joker)?;
        files.push(("sample-check.csv", csv));
    }
    built
        .phases
        .push(("writing the reports".into(), at.elapsed().as_secs_f64()));
    let per_class = args.sample_check.unwrap_or(0);
    let sample = (checked.as_deref()).map(|c| SampleCheck::of(c, per_class, args.seed));
    let manifest = manifest(&game, deck, &dealer, &built, sample, threads, started);
    crate::report::write_report_set(&out, files, &manifest)
        .map_err(|e| anyhow::anyhow!("cannot write the report: {e}"))?;
    if !args.quiet {
        let check = checked.as_deref().map_or(String::new(), sample_check_text);
        let text = summary_text(&game, &dealer, &built, &ways)
            + &check
            + &format!("reports in {}\n", out.display());
        crate::cli::print_stdout(&text)?;
    }
    Ok(())
}

/// Sets every dealer shape, then prices every player shape, with a progress bar.
fn build(
    args: &PricesArgs,
    game: &GameRules,
    deck: SuitDeck,
    dealer: &DealerWay,
    ev: &Evaluator,
) -> Built {
    let at = Instant::now();
    let shapes = Shapes::new(deck);
    let cache_dir = (cache::default_dir()).filter(|_| deck.is_full());
    let reads = cache_dir.as_deref().filter(|_| !args.rebuild);
    if let Some(table) = reads.and_then(|dir| cached_table(dealer, game, Some(dir))) {
        let phase = (
            "reading the cached price table".to_string(),
            at.elapsed().as_secs_f64(),
        );
        return Built {
            table,
            shapes,
            phases: vec![phase],
        };
    }
    let pricer = HandPricer::with_deck(game, deck, &*dealer.strategy);
    let mut phases = vec![(
        "setting every dealer shape".to_string(),
        at.elapsed().as_secs_f64(),
    )];
    let listed = shapes.dealt_ids().count();
    let bar = crate::cli::progress::bar_unless_quiet(args.quiet, listed as u64, "shapes");
    let at = Instant::now();
    let table = PriceTable::build(&pricer, ev, &|n| {
        bar.inc(n);
    });
    bar.finish_and_clear();
    phases.push((
        "pricing every shape".to_string(),
        at.elapsed().as_secs_f64(),
    ));
    if let Some(dir) = &cache_dir {
        let note = |text: &str| {
            if !args.quiet {
                eprintln!("{text}");
            }
        };
        store(dealer, game, &table, dir, &note);
    }
    Built {
        table,
        shapes,
        phases,
    }
}

/// The optimum, then every shipped way (max-back and max-front among them) and
/// `full-deck-optimal:D` (the choice from a full-deck dealer table, without card removal), priced
/// from the table.
fn price_ways(
    game: &GameRules,
    built: &Built,
    ev: &Evaluator,
    dealer: &Resolved,
) -> anyhow::Result<Vec<PricedWay>> {
    let wager = &game.main_wager;
    let mut ways = vec![PricedWay {
        name: format!(
            "optimal (best setting of each shape against {})",
            dealer.label
        ),
        net_units: built.table.optimal_net(wager),
    }];
    let full_deck = format!("{FULL_DECK_PREFIX}{}", dealer.label);
    let names = (crate::strategy::way::SHIPPED_WAYS
        .iter()
        .map(|w| w.0.to_string()))
    .chain([full_deck]);
    for name in names {
        let way = resolve(&name, game)?;
        let counts = (built.table).price_way(ev, &built.shapes, way.uncached(), wager);
        ways.push(PricedWay {
            name: way.label,
            net_units: counts.net_units(wager),
        });
    }
    Ok(ways)
}

fn report_files(
    game: &GameRules,
    built: &Built,
    ev: &Evaluator,
    ways: &[PricedWay],
    with_shapes: bool,
) -> anyhow::Result<Vec<(&'static str, Vec<u8>)>> {
    let mut files = Vec::new();
    if with_shapes {
        let mut shapes = Vec::new();
        let (table, wager) = (&built.table, &game.main_wager);
        write_shapes(&mut shapes, table, &built.shapes, ev, wager)?;
        files.push(("shapes.csv", shapes));
    }
    let mut summary = Vec::new();
    write_summary(&mut summary, built.table.pairs(), ways)?;
    files.push(("summary.csv", summary));
    Ok(files)
}

/// The default report directory.
fn default_out(game: &GameRules, args: &PricesArgs) -> PathBuf {
    use crate::cli::run_args::stem;
    let ranks = (args.ranks.as_ref()).map_or(String::new(), |r| format!("-ranks-{r}"));
    crate::cli::run_args::default_dir(
        "exact",
        format!(
            "{}-{}{ranks}-prices",
            stem(&game.origin),
            stem(&args.dealer_way)
        ),
    )
}

/// The terminal summary: the optimum and each way, with the phases' times.
fn summary_text(game: &GameRules, dealer: &Resolved, built: &Built, ways: &[PricedWay]) -> String {
    let pairs = built.table.pairs();
    let mut text = format!(
        "{}, every setting of {} shapes ({} hands) against {}:\n",
        game.name,
        built.table.shapes.len(),
        built.table.hands(),
        dealer.label
    );
    let best = ways[0].net_units;
    for way in ways {
        let ev = ev_fraction(way.net_units, pairs).to_f64();
        let below = ev_fraction(best - way.net_units, pairs).to_f64();
        text += &format!(
            "  {:<60} EV {:>9}%  below the optimum {:>8}%\n",
            way.name,
            fixed(100.0 * ev),
            fixed(100.0 * below)
        );
    }
    let phases: Vec<String> = (built.phases.iter())
        .map(|(name, s)| format!("{name} {s:.1} s"))
        .collect();
    text + &phases.join(", ") + "\n"
}

fn manifest(
    game: &GameRules,
    deck: SuitDeck,
    dealer: &Resolved,
    built: &Built,
    sample_check: Option<SampleCheck>,
    threads: usize,
    started: Instant,
) -> Manifest<PricesConfig, NoExtra> {
    let mut spec = RunSpec::new("exact prices", game);
    spec.strategies.push(StrategySpec::of("dealer way", dealer));
    let reduced = super::main_wager::reduced_note(deck);
    let config = PricesConfig {
        game: game.name.clone(),
        main_wager: game.main_wager.describe(),
        dealer_way: dealer.label.clone(),
        deck_cards: deck.size(),
        method: format!(
            "exhaustive: every legal setting of every hand shape against every dealer hand of \
             the cards each hand leaves, summed over the shape's hands; integer counts{reduced}"
        ),
        shapes: built.table.shapes.len(),
        hands: built.table.hands(),
        settings: built.table.shapes.iter().map(|s| s.settings.len()).sum(),
        phases: built.phases.clone(),
        peak_memory_mb: peak_memory_mb(),
        tie_break: "the highest EV; on a tie the better back, then the better front".to_string(),
        sample_check,
    };
    Manifest::of_count(config, spec, threads, started.elapsed().as_secs_f64())
}

/// The process's peak resident memory in MB, where Linux's /proc says.
fn peak_memory_mb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}
