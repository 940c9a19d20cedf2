//! `paigow simulate`: Monte Carlo of the main wager and the side bets, with reports to a
//! directory.
//!
//! Arguments become a run spec (every input file read once) and a validated [`Simulation`]
//! built from that spec before anything runs; the report directory is created and checked up
//! front so a long run cannot fail at its end for want of a place to write. The run itself is
//! the shared driver's ([`super::run_args::execute`]: progress, shards, checkpoints, resume);
//! `paigow merge` writes a merged run's reports through [`write_reports`], the same function a
//! single run uses, so a merged report is byte-identical to the single run's.
//!
//! The summary sets each side bet against its exact EV, and the main wager against its exact result
//! when one is known (`--exact-main DIR`, else the cache `paigow exact main` fills): never counted
//! here (it would add 7 to 16 s on two cores to every run). The manifest records it as
//! `exact_main`; the CSV files are the same with or without it.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use serde::Serialize;

use super::GameArg;
use super::help::{Accepts, Help};
use super::run_args::{Finished, RunArgs, run_to_reports, stem};
use crate::engine::exact::{Method, countable, paytable_counts};
use crate::engine::exact_main::{MainExact, cache};
use crate::engine::run::Plan;
use crate::engine::run::spec::RunSpec;
use crate::engine::simulate::{self as sim, SimTally, Simulation};
use crate::eval::Evaluator;
use crate::game::GameRules;
use crate::game::paytable::Paytable;
use crate::report::audit::BetAudit;
use crate::report::exact_main::check_report_files;
use crate::report::facts::{Manifest, RunFacts};
use crate::report::partial::RunExtra;
use crate::report::simulate::{
    Report, SideBetReport, write_convergence, write_returns, write_summary,
};
use crate::report::stats::{self, WagerStats};
use crate::strategy::resolve::WayIdentity;

/// The end of `paigow simulate --help`.
const HELP: Help = Help {
    examples: &[
        (
            "Foxwoods against itself, ten million deals, reports in runs/simulate/",
            "paigow simulate --player-way foxwoods --dealer-way foxwoods --deals 1e7",
        ),
        (
            "Fortune Pai Gow, six players a round (its Envy bonus pays on the other players' hands), its pay table 1 settled beside the game's bets (--bet: a shipped name or a paytable file, no game file to write), seed 7, reports in a chosen directory",
            "paigow simulate --game fortune --player-way foxwoods --dealer-way foxwoods --players 6 --deals 1e6 --seed 7 --bet fortune-1 --out runs/fortune",
        ),
        (
            "Against the exact house edge of a finished `paigow exact main` report",
            "paigow simulate --player-way foxwoods --dealer-way foxwoods --deals 1e7 --exact-main runs/exact/standard-foxwoods-vs-foxwoods-main",
        ),
    ],
    accepts: &[Accepts::Games, Accepts::Ways, Accepts::Paytables],
    writes: "summary.csv, returns.csv, convergence.csv and manifest.json (last) in --out (default \
             runs/simulate/GAME-PLAYER-vs-DEALER-sSEED-nDEALS[-pPLAYERS][-BET...]), replaced as a whole; with --shard K/M \
             only OUT/shard-K-of-M.json; with --checkpoint FILE, that file as the run goes.",
};

#[derive(Args, Debug)]
#[command(after_long_help = HELP.render())]
pub struct SimulateArgs {
    #[command(flatten)]
    game: GameArg,
    /// The player's strategy: a house way (shipped name or TOML file) or a built-in.
    #[arg(long)]
    player_way: String,
    /// The dealer's house way (shipped name or TOML file) or a built-in.
    #[arg(long)]
    dealer_way: String,
    /// Players against one dealer per shuffle (1 to 6).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=6),
          allow_negative_numbers = true)]
    players: u8,
    /// A `paigow exact main` report directory for the same game and ways: the summary gives the
    /// exact EV and how many standard errors the simulation is from it. Default: the exact result
    /// in the cache, when there is one (never computed here: run `paigow exact main` once).
    #[arg(long, value_name = "DIR")]
    exact_main: Option<PathBuf>,
    /// A side bet settled beside the game's own for this run: a shipped paytable's name or a
    /// paytable file (repeatable; at most 4 bets in all). The manifest embeds its text, so a
    /// merge or `--resume` settles it too.
    #[arg(long = "bet", value_name = "NAME|FILE")]
    bets: Vec<String>,
    #[command(flatten)]
    run: RunArgs,
    /// Baseline: shuffle and deal only (no setting or settling), print the rate, write nothing.
    #[arg(long, hide = true, conflicts_with_all = ["shard", "checkpoint", "exact_main"])]
    deal_only: bool,
    /// The floor: the same shuffles of a plain array, nothing else; print the rate.
    #[arg(long, hide = true, conflicts_with_all = ["shard", "checkpoint", "deal_only"])]
    floor: bool,
}

pub fn run(args: &SimulateArgs) -> anyhow::Result<()> {
    let game = args.game.load()?;
    let bets = (args.bets.iter())
        .map(|name| {
            game.bet(name)
                .map_err(|e| anyhow::anyhow!("--bet {name}: {e}"))
        })
        .collect::<anyhow::Result<Vec<Paytable>>>()?;
    let spec =
        sim::spec(&game, &args.player_way, &args.dealer_way, args.players)?.with_paytables(&bets);
    let (simulation, ways) = Simulation::from_spec_with_ways(&spec)?;
    for warning in side_bet_warnings(&simulation.game, args.players) {
        eprintln!("warning: {warning}");
    }
    let plan = args.run.plan()?;
    if args.deal_only || args.floor {
        return baseline(args, &simulation, &plan);
    }
    let out = (args.run.out.clone()).unwrap_or_else(|| default_out(args, &simulation, &plan));
    let given = match &args.exact_main {
        Some(dir) => Some(exact_from_report(dir, &simulation.game, &ways)?),
        None => None,
    };
    let compare_side_bets = !args.run.quiet;
    let write = |out: &Path,
                 simulation: &Simulation,
                 spec: &RunSpec,
                 plan: &Plan,
                 finished: &Finished<SimTally>,
                 extra: RunExtra| {
        let exact = given
            .clone()
            .or_else(|| cached_exact(&simulation.game, &ways));
        let parts = (simulation, spec, plan, finished);
        write_all(out, parts, extra, compare_side_bets, exact)
    };
    run_to_reports(&args.run, &simulation, &spec, &plan, &out, &write)
}

/// A simulation's (player, dealer) ways, as exact results are keyed.
type Ways = (WayIdentity, WayIdentity);

/// The exact main-wager result a simulation is compared with, and where it came from.
#[derive(Clone)]
pub(crate) struct KnownExact {
    exact: MainExact,
    cache_key: String,
    /// `the cache DIR` or `the report DIR`.
    source: String,
}

/// The exact result of the `paigow exact main` report in `dir`, refused unless it is for the
/// simulation's game, player way and dealer way.
fn exact_from_report(dir: &Path, game: &GameRules, ways: &Ways) -> anyhow::Result<KnownExact> {
    let exact = cache::from_report(dir, game, &ways.0, &ways.1)
        .and_then(|exact| check_report_files(dir, &exact).map(|()| exact))
        .map_err(|e| anyhow::anyhow!("--exact-main {}: {e}", dir.display()))?;
    Ok(KnownExact {
        exact,
        cache_key: cache::key(game, &ways.0, &ways.1),
        source: format!("the report {}", dir.display()),
    })
}

/// The exact result of a game and its (player, dealer) ways in the cache, if one is there.
fn cached_exact(game: &GameRules, ways: &Ways) -> Option<KnownExact> {
    let dir = crate::strategy::optimal::cache::default_dir()?;
    let exact = match cache::lookup_in(&dir, game, &ways.0, &ways.1) {
        cache::Lookup::Found(exact) => exact,
        cache::Lookup::Refused(why) => {
            eprintln!(
                "warning: cached exact result not used: {why} (`paigow exact main` counts it \
                 afresh)"
            );
            return None;
        }
        cache::Lookup::Missing => return None,
    };
    Some(KnownExact {
        exact,
        cache_key: cache::key(game, &ways.0, &ways.1),
        source: format!("the cache {}", dir.display()),
    })
}

/// What the manifest says of the exact result the simulation was compared with.
#[derive(Serialize, Debug)]
struct ExactMainFacts {
    /// Where it came from: `the cache DIR` or `the report DIR`.
    source: String,
    cache_key: String,
    player_ev: f64,
    /// The player EV as an exact fraction.
    player_ev_exactly: String,
    /// (simulated EV - exact EV) / the simulation's standard error.
    standard_errors: f64,
}

/// The warnings of the game's paytables, and of an Envy bonus that one player a round can never
/// be paid.
fn side_bet_warnings(game: &GameRules, players: u8) -> Vec<String> {
    let lonely_envy = (game.side_bets.iter())
        .filter(|t| t.is_envy() && t.payees(players) == 0)
        .map(|t| format!(
            "{}: side bet '{}' is paid on other players' hands: with {players} player a round it never pays (use --players 2 to 6)",
            t.origin, t.name
        ));
    (game.side_bets.iter())
        .flat_map(|t| t.warnings.iter().cloned())
        .chain(lonely_envy)
        .collect()
}

/// What a simulation's manifest says of its own configuration.
#[derive(Serialize, Debug)]
struct SimulateConfig {
    game: String,
    main_wager: String,
    player_way: String,
    dealer_way: String,
    players_per_deal: u8,
    trials: u64,
    /// The exact main-wager result the run was compared with, when one was known (absent
    /// otherwise, so a run without one has the manifest it always had).
    #[serde(skip_serializing_if = "Option::is_none")]
    exact_main: Option<ExactMainFacts>,
    /// The side bets' warnings (lines out of pay order, an Envy bonus with one player).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<String>,
}

/// The manifest of the whole run `spec` with `plan`, played by `simulation`.
fn manifest(
    simulation: &Simulation,
    spec: &RunSpec,
    plan: &Plan,
    facts: RunFacts,
    rate: f64,
    extra: RunExtra,
    exact_main: Option<ExactMainFacts>,
) -> Manifest<SimulateConfig, RunExtra> {
    let game = &simulation.game;
    let config = SimulateConfig {
        game: game.name.clone(),
        main_wager: game.main_wager.describe(),
        player_way: simulation.player.name().to_string(),
        dealer_way: simulation.dealer.name().to_string(),
        players_per_deal: simulation.players,
        trials: plan.deals * u64::from(simulation.players),
        exact_main,
        warnings: side_bet_warnings(game, simulation.players),
    };
    Manifest::of_run(facts, config, spec, plan, rate, extra)
}

/// Writes `summary.csv`, `returns.csv`, `convergence.csv` and `manifest.json` (last) of a whole
/// run's tally; returns the stdout summary, with each side bet against its exact figures and the
/// main wager against its exact result when the cache holds one. Used by `merge`.
pub(crate) fn write_reports(
    out: &Path,
    simulation: &Simulation,
    spec: &RunSpec,
    plan: &Plan,
    finished: &Finished<SimTally>,
    extra: RunExtra,
) -> anyhow::Result<String> {
    write_merged(out, (simulation, spec, plan, finished), extra, true)
}

/// [`write_reports`] for a run whose summary nobody reads (`merge --quiet`): the same files,
/// and no exact side-bet counts for the summary.
pub(crate) fn write_reports_quietly(
    out: &Path,
    simulation: &Simulation,
    spec: &RunSpec,
    plan: &Plan,
    finished: &Finished<SimTally>,
    extra: RunExtra,
) -> anyhow::Result<String> {
    write_merged(out, (simulation, spec, plan, finished), extra, false)
}

/// A merged run's reports: its ways are resolved from the spec once more, for the cache key of
/// the exact main wager (merge builds its simulation from the spec alone, which keeps only the
/// strategies).
fn write_merged(
    out: &Path,
    parts: (&Simulation, &RunSpec, &Plan, &Finished<SimTally>),
    extra: RunExtra,
    compare_side_bets: bool,
) -> anyhow::Result<String> {
    let (simulation, spec) = (parts.0, parts.1);
    let identity = |role: &str| Some(spec.strategy(role, &simulation.game).ok()?.identity());
    let ways = identity("player way").zip(identity("dealer way"));
    let exact = ways.and_then(|ways| cached_exact(&simulation.game, &ways));
    write_all(out, parts, extra, compare_side_bets, exact)
}

/// The report files, and the summary with the side bets against their exact EVs when
/// `compare_side_bets`, and the main wager against `exact` when known.
fn write_all(
    out: &Path,
    (simulation, spec, plan, finished): (&Simulation, &RunSpec, &Plan, &Finished<SimTally>),
    extra: RunExtra,
    compare_side_bets: bool,
    exact: Option<KnownExact>,
) -> anyhow::Result<String> {
    let tally = &finished.tally;
    let players = simulation.players;
    let stats = stats::main_wager(tally, players);
    let game = &simulation.game;
    let side_bets = (game.side_bets.iter().zip(&tally.side_bets))
        .map(|(table, bet)| {
            let plan = crate::game::events::SideBetPlan::new(table, game.ranking.joker)
                .for_players(players);
            SideBetReport {
                table: table.clone(),
                tally: bet.clone(),
                stats: stats::side_bet(bet, &plan, tally.hands, tally.rounds, players),
                unit: plan.unit,
            }
        })
        .collect();
    let report = Report {
        wager_name: "main".to_string(),
        wager: game.main_wager,
        tally: tally.clone(),
        stats,
        players,
        side_bets,
    };
    let mut summary = Vec::new();
    write_summary(&mut summary, &report)?;
    let mut returns = Vec::new();
    write_returns(&mut returns, &report)?;
    let mut convergence = Vec::new();
    write_convergence(&mut convergence, &report)?;
    let exact_facts = exact.as_ref().map(|known| ExactMainFacts {
        source: known.source.clone(),
        cache_key: known.cache_key.clone(),
        player_ev: known.exact.player_ev(),
        player_ev_exactly: known.exact.player_ev_fraction().to_string(),
        standard_errors: known.exact.standard_errors(stats.player_ev, stats.se),
    });
    let manifest = manifest(
        simulation,
        spec,
        plan,
        finished.facts.clone(),
        finished.rate(),
        extra,
        exact_facts,
    );
    let files = vec![
        ("summary.csv", summary),
        ("returns.csv", returns),
        ("convergence.csv", convergence),
    ];
    crate::report::write_report_set(out, files, &manifest)?;
    let exact_line = exact.map_or(String::new(), |known| {
        format!(
            "{} (from {})\n",
            cache::distance_line(&known.exact, stats.player_ev, stats.se),
            known.source
        )
    });
    let text = summary_text(&stats, &manifest, out, &exact_line);
    match compare_side_bets {
        true => Ok(text + &side_bet_text(&report, simulation)),
        false => Ok(text),
    }
}

/// Each side bet's simulated EV against its exact EV (every 7-card hand counted by rank
/// structure, well under a second; setting bets by hand shape, each set by the player's way;
/// joker bets in closed form): the difference in standard errors of the simulation. A setting
/// bet whose player's way sees the dealer's hand is simulated only.
fn side_bet_text(report: &Report, simulation: &Simulation) -> String {
    if report.side_bets.is_empty() {
        return String::new();
    }
    let game = &simulation.game;
    let ev = Evaluator::new(game.ranking);
    let player = Some(&*simulation.player);
    let is_countable = |t: &Paytable| countable(t, player).is_ok();
    let counted: Vec<_> = (game.side_bets.iter())
        .filter(|t| is_countable(t))
        .cloned()
        .collect();
    let mut counts =
        paytable_counts(&ev, game.deck, &counted, Method::Structure, player).into_iter();
    let pct = |x: f64| format!("{:+.4}%", 100.0 * x);
    let mut text = format!(
        "{:<32} {:>10} {:>24} {:>8} {:>10} {:>14}\n",
        "side bet", "player EV", "95% CI", "SD", "exact EV", "SEs from exact"
    );
    for bet in &report.side_bets {
        let s = &bet.stats;
        let ci = format!("[{}, {}]", pct(s.ci95.low), pct(s.ci95.high));
        let head = format!(
            "{:<32} {:>10} {:>24} {:>8.4}",
            bet.table.name,
            pct(s.player_ev),
            ci,
            s.sd
        );
        if !is_countable(&bet.table) {
            text += &format!("{head} {:>10} {:>14}\n", "-", "simulated only");
            continue;
        }
        let counts = counts.next().expect("one count per countable bet");
        let audit = BetAudit {
            table: &bet.table,
            counts: &counts,
            method: String::new(),
        };
        let exact = audit.player_ev() * f64::from(bet.table.payees(report.players));
        if let Some(warning) = bet.table.return_warning(exact) {
            eprintln!("warning: {warning}");
        }
        let distance = match s.se > 0.0 {
            true => format!("{:>+14.2}", (s.player_ev - exact) / s.se),
            false => format!("{:>14}", "no variance"),
        };
        text += &format!("{head} {:>10} {distance}\n", pct(exact));
    }
    text
}

/// Times a baseline over the same chunks (deal-only, or the floor) and prints its rate.
fn baseline(args: &SimulateArgs, simulation: &Simulation, plan: &Plan) -> anyhow::Result<()> {
    type Baseline = fn(crate::cards::Deck, &Plan, u8, &(dyn Fn(u64) + Sync)) -> u64;
    let (name, run): (&str, Baseline) = match args.floor {
        true => ("floor", sim::floor),
        false => ("deal-only baseline", sim::deal_only),
    };
    let pool = crate::engine::run::thread_pool(args.run.thread_count())?;
    let bar = super::progress::bar_unless_quiet(args.run.quiet, plan.deals, "deals");
    let start = Instant::now();
    let (deck, players) = (simulation.game.deck, simulation.players);
    let checksum = pool.install(|| run(deck, plan, players, &|n| bar.inc(n)));
    let wall = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let rate = plan.deals as f64 / wall;
    super::print_stdout(&format!(
        "{name}: {} deals in {wall:.3} s, {} (checksum {checksum:016x})\n",
        plan.deals,
        super::run_args::rate_text(Some(rate), "deals")
    ))
}

/// `runs/simulate/GAME-PLAYER-vs-DEALER-sSEED-nDEALS[-pPLAYERS][-BET...]`, names reduced to stems.
fn default_out(args: &SimulateArgs, simulation: &Simulation, plan: &Plan) -> PathBuf {
    let players = match simulation.players {
        1 => String::new(),
        n => format!("-p{n}"),
    };
    let bets: String = args.bets.iter().map(|b| format!("-{}", stem(b))).collect();
    super::run_args::default_dir(
        "simulate",
        format!(
            "{}-{}-vs-{}-s{}-n{}{players}{bets}",
            stem(&simulation.game.origin),
            stem(&args.player_way),
            stem(&args.dealer_way),
            plan.seed,
            plan.deals
        ),
    )
}

/// The stdout summary of a run (or a merge) from its figures and manifest.
fn summary_text(
    s: &WagerStats,
    m: &Manifest<SimulateConfig, RunExtra>,
    out: &Path,
    exact_line: &str,
) -> String {
    let pct = |x: f64| format!("{:.4}%", 100.0 * x);
    let (c, plan) = (&m.config, m.plan.as_ref().expect("a simulation has a plan"));
    format!(
        "{game}: {player} vs dealer {dealer} ({rules})\n\
         {deals} deals x {players} player(s), seed {seed}, {threads} threads: {speed}\n\
         player EV {ev} (house edge {edge}), 95% CI [{lo}, {hi}], SD {sd:.4}\n\
         win {win}  push {push}  loss {loss}\n\
         {exact_line}\
         reports in {dir}\n",
        game = c.game,
        player = c.player_way,
        dealer = c.dealer_way,
        rules = c.main_wager,
        deals = plan.deals,
        players = c.players_per_deal,
        seed = plan.seed,
        threads = m.facts.threads,
        speed = super::run_args::speed_text(
            m.facts.wall_seconds,
            m.deals_per_second,
            "deals",
            m.extra.checkpoint.as_ref()
        ),
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
