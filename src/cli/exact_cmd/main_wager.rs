//! `paigow exact main`: the main wager's exact house edge, every player hand against every
//! dealer hand, each set by its strategy; reports in the lab layout, results cached.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;

use crate::cli::GameArg;
use crate::cli::help::{Accepts, Help};
use crate::cli::run_args::ThreadsArg;
use crate::engine::exact_main::{self, ExactMainError, MainExact, MainRun, Progress, cache};
use crate::engine::run::spec::{RunSpec, StrategySpec};
use crate::game::GameRules;
use crate::report::exact_main::{
    MainConfig, PhaseFacts, summary_text, write_returns, write_summary,
};
use crate::report::facts::{Manifest, NoExtra};
use crate::strategy::deck_shapes::SuitDeck;
use crate::strategy::optimal::cache::default_dir;
use crate::strategy::optimal::table_file::{cached_table, load_or_build_table};
use crate::strategy::resolve::{Resolved, resolve_on_deck};

/// The end of `paigow exact main --help`.
const HELP: Help = Help {
    examples: &[
        (
            "The exact house edge of Foxwoods against itself (7 to 10 s on 2 cores; then cached)",
            "paigow exact main --player-way foxwoods --dealer-way foxwoods",
        ),
        (
            "Double Joker's exposed player against its dealer way",
            "paigow exact main --game double-joker --player-way exposed --dealer-way double-joker-dealer --out /tmp/dj-main",
        ),
        (
            "A reduced deck of five ranks, small enough to check by brute force",
            "paigow exact main --player-way foxwoods --dealer-way foxwoods --ranks TJQKA --threads 1",
        ),
    ],
    accepts: &[Accepts::Games, Accepts::Ways],
    writes: "returns.csv, summary.csv and manifest.json (last) in --out (default \
             runs/exact/GAME-PLAYER-vs-DEALER-main), replaced as a whole; a full deck's result is \
             also cached ($PAIGOW_CACHE_DIR, else $XDG_CACHE_HOME/paigow, else ~/.cache/paigow), \
             where simulate finds it.",
};

#[derive(Args, Debug)]
#[command(after_long_help = HELP.render())]
pub struct MainArgs {
    #[command(flatten)]
    game: GameArg,
    /// The player's strategy: a house way (shipped name or TOML file), max-back, max-front,
    /// optimal:D, or exposed / exposed:WAY where the game's dealer sets first, exposed.
    #[arg(long)]
    player_way: String,
    /// The dealer's house way (shipped name or TOML file), or max-back / max-front.
    #[arg(long)]
    dealer_way: String,
    /// Report directory (default: runs/exact/GAME-PLAYER-vs-DEALER-main).
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    threads: ThreadsArg,
    /// Count a reduced deck holding only these ranks (e.g. A234), in four suits, with the game's
    /// jokers: small enough to check by brute force. Not cached.
    #[arg(long, value_name = "RANKS")]
    ranks: Option<String>,
    /// Count even when a cached result exists.
    #[arg(long)]
    no_cache: bool,
    /// How to count: `count` enumerates every pair by inclusion-exclusion (seconds); `table`
    /// sums the price table of the dealer's way (`paigow exact prices`) at the player's settings
    /// (under a second once the table is cached; minutes to build it on a full deck); `auto`
    /// uses the table when it is cached and the player sets from its own seven cards, else
    /// counts. The counts are the same to the unit.
    #[arg(long, value_enum, default_value_t = Engine::Auto)]
    engine: Engine,
    /// No summary on stdout and no progress display.
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// `--engine`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Engine {
    Auto,
    Count,
    Table,
}

/// How a result was obtained.
enum Obtained {
    /// Read from the exact-main cache.
    Cache,
    /// Counted by inclusion-exclusion.
    Count(MainRun),
    /// Summed from the price table, read from its cache or built here, in `seconds`.
    Table { built: bool, seconds: f64 },
}

/// A rank mask from rank characters such as `A234` or `TJQKA`.
fn parse_ranks(text: &str) -> anyhow::Result<u16> {
    let mut mask = 0u16;
    for c in text.chars() {
        let rank = "23456789TJQKA"
            .find(c.to_ascii_uppercase())
            .ok_or_else(|| {
                anyhow::anyhow!("--ranks {text}: '{c}' is not a rank (2-9, T, J, Q, K, A)")
            })?;
        if mask & 1 << rank != 0 {
            anyhow::bail!("--ranks {text}: '{c}' is given twice");
        }
        mask |= 1 << rank;
    }
    Ok(mask)
}

/// The deck to count: the game's, or the reduced one `--ranks` names.
pub(crate) fn deck(ranks: Option<&str>, game: &GameRules) -> anyhow::Result<SuitDeck> {
    match ranks {
        None => Ok(SuitDeck::of(game.deck)),
        Some(text) => SuitDeck::new(parse_ranks(text)?, game.deck.jokers()).ok_or_else(|| {
            anyhow::anyhow!(
                "--ranks {text}: the deck must hold two 7-card hands (14 cards or more)"
            )
        }),
    }
}

/// What a manifest's method adds for `deck`: nothing for the game's whole deck, else the reduced
/// deck's rank mask.
pub(crate) fn reduced_note(deck: SuitDeck) -> String {
    match deck.is_full() {
        true => String::new(),
        false => format!(" (reduced deck: rank mask {:#015b})", deck.ranks()),
    }
}

/// The default report directory.
fn default_out(game: &GameRules, args: &MainArgs) -> PathBuf {
    let stem = |s: &str| -> String {
        let name = Path::new(s)
            .file_stem()
            .map_or(s.into(), |f| f.to_string_lossy());
        name.replace(':', "-")
    };
    let ranks = args
        .ranks
        .as_ref()
        .map_or(String::new(), |r| format!("-ranks-{r}"));
    crate::cli::run_args::default_dir(
        "exact",
        format!(
            "{}-{}-vs-{}{ranks}-main",
            stem(&game.origin),
            stem(&args.player_way),
            stem(&args.dealer_way)
        ),
    )
}

pub fn run(args: &MainArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let game = args.game.load()?;
    let deck = deck(args.ranks.as_deref(), &game)?;
    let player = resolve_on_deck(&args.player_way, &game, deck)?;
    let dealer = resolve_on_deck(&args.dealer_way, &game, deck)?;
    let (pool, threads) = args.threads.pool()?;
    let cacheable = deck.is_full() && !args.no_cache;
    let ways = (player.identity(), dealer.identity());
    let cached = match cacheable.then(|| cache::lookup(&game, &ways.0, &ways.1)) {
        Some(cache::Lookup::Found(exact)) => Some(exact),
        Some(cache::Lookup::Refused(why)) => {
            eprintln!("warning: cached result not used: {why}; counting afresh");
            None
        }
        _ => None,
    };
    let (exact, obtained) = match cached {
        Some(exact) => (exact, Obtained::Cache),
        None => pool.install(|| obtain(args, &game, deck, &player, &dealer))?,
    };
    if !matches!(obtained, Obtained::Cache) && deck.is_full() {
        note_stored(args.quiet, cache::store(&game, &ways.0, &ways.1, &exact));
    }
    let out = args.out.clone().unwrap_or_else(|| default_out(&game, args));
    let manifest = manifest(
        &game,
        deck,
        (&player, &dealer),
        &exact,
        &obtained,
        threads,
        started,
    );
    write_reports(&out, &exact, &manifest)?;
    if !args.quiet {
        let source = match obtained {
            Obtained::Cache => " (from the cache)",
            Obtained::Table { .. } => " (from the price table)",
            Obtained::Count(_) => "",
        };
        let mut text = format!(
            "{}, {} vs {}, {} cards{source}:\n{}",
            game.name,
            player.label,
            dealer.label,
            deck.size(),
            summary_text(&exact)
        );
        text += &timing_text(&obtained);
        text += &format!("reports in {}\n", out.display());
        super::super::print_stdout(&text)?;
    }
    Ok(())
}

/// The result by the engine `--engine` chooses: the price table when asked, or when `auto` finds
/// it cached and the player sets from its own cards; else the count.
fn obtain(
    args: &MainArgs,
    game: &GameRules,
    deck: SuitDeck,
    player: &Resolved,
    dealer: &Resolved,
) -> anyhow::Result<(MainExact, Obtained)> {
    let own_cards = !player.strategy.needs_dealer();
    let dealer_way = || crate::strategy::resolve::dealer_way(&args.dealer_way, game);
    let at = Instant::now();
    let table = match args.engine {
        Engine::Count => None,
        Engine::Auto if !own_cards || !deck.is_full() => None,
        Engine::Auto => (dealer_way().ok())
            .and_then(|d| cached_table(&d.way, game, default_dir().as_deref()))
            .map(|table| (table, false)),
        Engine::Table if !own_cards => {
            let player = player.strategy.name().to_string();
            return Err(ExactMainError::NotFromOwnCards(player).into());
        }
        Engine::Table => {
            let dealer = dealer_way()?.way;
            let note = |text: &str| {
                if !args.quiet {
                    eprintln!("{text}");
                }
            };
            Some(load_or_build_table(
                &dealer,
                game,
                deck,
                default_dir().as_deref(),
                &note,
            ))
        }
    };
    match table {
        Some((table, built)) => {
            let exact = exact_main::from_table(&table, game, deck, &*player.strategy)?;
            let seconds = at.elapsed().as_secs_f64();
            Ok((exact, Obtained::Table { built, seconds }))
        }
        None => {
            let run = count(args, game, deck, player, dealer)?;
            Ok((run.exact, Obtained::Count(run)))
        }
    }
}

/// Counts, with a progress bar unless `--quiet`.
fn count(
    args: &MainArgs,
    game: &GameRules,
    deck: SuitDeck,
    player: &Resolved,
    dealer: &Resolved,
) -> anyhow::Result<MainRun> {
    let bar = crate::cli::progress::bar_unless_quiet(args.quiet, 0, "hands");
    let progress = Progress {
        start: &|total| bar.set_length(total),
        advance: &|n| bar.inc(n),
    };
    let run = exact_main::count(game, deck, &*player.strategy, &*dealer.strategy, &progress)?;
    bar.finish_and_clear();
    Ok(run)
}

fn note_stored(quiet: bool, stored: Option<std::io::Result<PathBuf>>) {
    match stored {
        Some(Err(e)) => eprintln!("note: result not cached: {e}"),
        Some(Ok(path)) if !quiet => eprintln!("cached at {}", path.display()),
        _ => {}
    }
}

/// How the result was obtained, with each phase's time: one line (none from the cache).
fn timing_text(obtained: &Obtained) -> String {
    let run = match obtained {
        Obtained::Cache => return String::new(),
        Obtained::Table { built, seconds } => {
            let how = if *built {
                "built and summed"
            } else {
                "read and summed"
            };
            return format!("price table {how} in {seconds:.1} s\n");
        }
        Obtained::Count(run) => run,
    };
    let phases: Vec<String> = (run.phases.iter())
        .map(|p| format!("|T|={} {:.1} s", p.shared, p.seconds))
        .collect();
    format!(
        "{} shapes set in {:.1} s; {}\n",
        run.shapes,
        run.settings_seconds,
        phases.join(", ")
    )
}

fn manifest(
    game: &GameRules,
    deck: SuitDeck,
    (player, dealer): (&Resolved, &Resolved),
    exact: &MainExact,
    obtained: &Obtained,
    threads: usize,
    started: Instant,
) -> Manifest<MainConfig, NoExtra> {
    let run = match obtained {
        Obtained::Count(run) => Some(run),
        _ => None,
    };
    let mut spec = RunSpec::new("exact main", game);
    for (role, way) in [("player way", player), ("dealer way", dealer)] {
        spec.strategies.push(StrategySpec::of(role, way));
    }
    let reduced = reduced_note(deck);
    let config = MainConfig {
        game: game.name.clone(),
        main_wager: game.main_wager.describe(),
        player_way: player.label.clone(),
        dealer_way: dealer.label.clone(),
        deck_cards: deck.size(),
        method: method(obtained, &reduced),
        cache_key: cache::key(game, &player.identity(), &dealer.identity()),
        from_cache: matches!(obtained, Obtained::Cache),
        counts: exact.counts.into(),
        shapes: run.map_or(0, |r| r.shapes),
        settings_seconds: run.map_or(0.0, |r| r.settings_seconds),
        phases: run.map_or(Vec::new(), |r| {
            (r.phases.iter())
                .map(|p| PhaseFacts {
                    shared_cards: p.shared,
                    sets: p.sets,
                    hands: p.hands,
                    seconds: p.seconds,
                })
                .collect()
        }),
    };
    let wall = started.elapsed().as_secs_f64();
    Manifest::of_count(config, spec, threads, wall)
}

/// The manifest's account of the method: which engine counted.
fn method(obtained: &Obtained, reduced: &str) -> String {
    match obtained {
        Obtained::Table { built, .. } => format!(
            "exhaustive: the price table of the dealer's way (every legal setting of every hand \
             shape against every dealer hand of the cards it leaves; {}) summed over shapes at the \
             player's settings; integer counts{reduced}",
            if *built {
                "built here"
            } else {
                "read from the cache"
            }
        ),
        Obtained::Cache => "exhaustive: integer counts read from the exact-main cache (by \
                            inclusion-exclusion or the price table: they agree to the unit)"
            .to_string(),
        Obtained::Count(_) => format!(
            "exhaustive: inclusion-exclusion over shared cards, suit classes, shapes; integer \
             counts{reduced}"
        ),
    }
}

fn write_reports(
    out: &Path,
    exact: &MainExact,
    manifest: &Manifest<MainConfig, NoExtra>,
) -> anyhow::Result<()> {
    let mut returns = Vec::new();
    write_returns(&mut returns, exact)?;
    let mut summary = Vec::new();
    write_summary(&mut summary, exact)?;
    let files = vec![("returns.csv", returns), ("summary.csv", summary)];
    Ok(crate::report::write_report_set(out, files, manifest)?)
}
