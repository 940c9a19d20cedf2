//! `paigow compare`: house-way variants on the same deals, ranked with paired intervals.
//!
//! Arguments become a run spec and a validated [`Comparison`] built from it before anything
//! runs (the game, every way, which side varies, counts); the report directory is created and
//! checked up front. The run is the shared driver's (progress, shards, checkpoints, resume);
//! reports are written as a set, manifest last, by [`write_reports`] (shared with `merge`); the
//! ranking goes to stdout.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use serde::Serialize;

use super::GameArg;
use super::help::{Accepts, Help};
use super::run_args::{Finished, RunArgs, run_to_reports, stem};
use crate::engine::compare::{
    self, CompareError, CompareSetup, CompareTally, Comparison, MAX_VARIANTS, Side, Vary,
};
use crate::engine::run::Plan;
use crate::engine::run::spec::RunSpec;
use crate::report::compare::{write_csv, write_examples, write_rule_groups};
use crate::report::facts::{Manifest, RunFacts};
use crate::report::fixed;
use crate::report::partial::RunExtra;
use crate::report::stats::{pair_stats, ranking, variant_stats};

/// The end of `paigow compare --help`.
const HELP: Help = Help {
    examples: &[
        (
            "Two player ways against the Foxwoods dealer on the same deals, with paired intervals",
            "paigow compare --dealer-way foxwoods --ways foxwoods ballys-ac --deals 1e6",
        ),
        (
            "The cost of a house way against the best play, keeping 20 hands they set differently",
            "paigow compare --dealer-way foxwoods --ways foxwoods optimal:foxwoods --deals 1e6 --examples 20",
        ),
        (
            "Dealer ways against one player way (the house edge of each)",
            "paigow compare --vary dealer --player-way foxwoods --ways foxwoods max-back --deals 1e6",
        ),
    ],
    accepts: &[Accepts::Games, Accepts::Ways],
    writes: "compare.csv and manifest.json (last) in --out (default \
             runs/compare/GAME-vary-SIDE-WAYS-sSEED-nDEALS), replaced as a whole; with --examples K \
             also examples.csv and rule_groups.csv; with --shard K/M only OUT/shard-K-of-M.json.",
};

#[derive(Args, Debug)]
#[command(after_long_help = HELP.render())]
pub struct CompareArgs {
    #[command(flatten)]
    game: GameArg,
    /// The ways compared (2 to 12): house ways (shipped names or TOML files) or built-ins.
    #[arg(long, num_args = 1.., required = true)]
    ways: Vec<String>,
    /// Which side the ways set: the player's (default), the dealer's, both, or all three at once
    /// against --baseline.
    #[arg(long, value_enum, default_value = "player")]
    vary: VaryArg,
    /// The way the others are compared with (one of --ways); required with --vary all.
    #[arg(long)]
    baseline: Option<String>,
    /// The dealer's way (required with --vary player).
    #[arg(long)]
    dealer_way: Option<String>,
    /// The player's way (required with --vary dealer).
    #[arg(long)]
    player_way: Option<String>,
    /// Keep up to K hands the ways set differently (examples.csv, rule_groups.csv).
    #[arg(long, default_value_t = 0)]
    examples: usize,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum VaryArg {
    Player,
    Dealer,
    Both,
    All,
}

pub fn run(args: &CompareArgs) -> anyhow::Result<()> {
    let game = args.game.load()?;
    let vary = match args.vary {
        VaryArg::Player => Vary::Player,
        VaryArg::Dealer => Vary::Dealer,
        VaryArg::Both => Vary::Both,
        VaryArg::All => Vary::All,
    };
    if let Some(baseline) = &args.baseline
        && !args.ways.contains(baseline)
    {
        anyhow::bail!("--baseline {baseline}: not one of the --ways");
    }
    if vary == Vary::All && args.baseline.is_none() {
        anyhow::bail!("--vary all needs --baseline (one of the --ways)");
    }
    if args.examples > 0 && vary != Vary::Player {
        anyhow::bail!(
            "--examples is only meaningful with --vary player (the player's hand set differently)"
        );
    }
    // Counted before any way is resolved: an optimal way's table takes seconds to build.
    let ways = args.ways.len();
    if !(2..=MAX_VARIANTS).contains(&ways) {
        return Err(CompareError::Variants(ways).into());
    }
    let setup = CompareSetup {
        vary,
        fixed: fixed_way_name(args, vary)?,
        ways: &args.ways,
        baseline: args.baseline.as_deref(),
        examples: args.examples,
    };
    let spec = compare::spec(&game, &setup)?;
    let cmp = Comparison::from_spec(&spec)?;
    let plan = args.run.plan()?;
    let out = (args.run.out.clone()).unwrap_or_else(|| default_out(args, &cmp, &plan));
    run_to_reports(&args.run, &cmp, &spec, &plan, &out, &write_reports)
}

/// The fixed side's way, checking that only the option the mode uses is given.
fn fixed_way_name(args: &CompareArgs, vary: Vary) -> anyhow::Result<Option<&str>> {
    let (dealer, player) = (args.dealer_way.as_deref(), args.player_way.as_deref());
    match (vary, dealer, player) {
        (Vary::Player, Some(d), None) => Ok(Some(d)),
        (Vary::Player, None, _) => {
            anyhow::bail!("--vary player needs --dealer-way (the fixed dealer's way)")
        }
        (Vary::Player, Some(_), Some(_)) => {
            anyhow::bail!(
                "--player-way is not used with --vary player: the --ways are the player's"
            )
        }
        (Vary::Dealer, None, Some(p)) => Ok(Some(p)),
        (Vary::Dealer, _, None) => {
            anyhow::bail!("--vary dealer needs --player-way (the fixed player's way)")
        }
        (Vary::Dealer, Some(_), Some(_)) => {
            anyhow::bail!(
                "--dealer-way is not used with --vary dealer: the --ways are the dealer's"
            )
        }
        (Vary::Both | Vary::All, None, None) => Ok(None),
        (Vary::Both, _, _) => {
            anyhow::bail!(
                "--vary both takes no --dealer-way or --player-way: each way plays both sides"
            )
        }
        (Vary::All, _, _) => {
            anyhow::bail!(
                "--vary all takes no --dealer-way or --player-way: each way plays against the --baseline"
            )
        }
    }
}

/// `runs/compare/GAME-vary-SIDE-WAYS-sSEED-nDEALS`, names reduced to file stems.
fn default_out(args: &CompareArgs, cmp: &Comparison, plan: &Plan) -> PathBuf {
    let ways: Vec<String> = args.ways.iter().map(|w| stem(w)).collect();
    super::run_args::default_dir(
        "compare",
        format!(
            "{}-vary-{}-{}-s{}-n{}",
            stem(&cmp.game.origin),
            cmp.vary.name(),
            ways.join("-"),
            plan.seed,
            plan.deals
        ),
    )
}

/// What a comparison's manifest says of its own configuration.
#[derive(Serialize, Debug)]
struct CompareConfig {
    game: String,
    main_wager: String,
    vary: Vary,
    fixed_way: Option<String>,
    ways: Vec<String>,
    baseline: Option<String>,
    players_per_deal: u8,
    examples: usize,
}

/// Writes `compare.csv`, with examples also `examples.csv` and `rule_groups.csv`, and
/// `manifest.json` last; returns the stdout ranking. Shared by `compare` and `merge`.
pub(crate) fn write_reports(
    out: &Path,
    cmp: &Comparison,
    spec: &RunSpec,
    plan: &Plan,
    finished: &Finished<CompareTally>,
    extra: RunExtra,
) -> anyhow::Result<String> {
    let tally = &finished.tally;
    let mut files: Vec<(&str, Vec<u8>)> = Vec::new();
    let mut csv = Vec::new();
    write_csv(&mut csv, cmp, tally)?;
    files.push(("compare.csv", csv));
    if cmp.examples > 0 {
        let pricer = cmp.example_pricer();
        let samples: Vec<_> = (tally.examples.iter())
            .map(|e| cmp.price_example(&pricer, e))
            .collect();
        let (mut examples, mut groups) = (Vec::new(), Vec::new());
        write_examples(&mut examples, cmp, tally, &samples)?;
        write_rule_groups(&mut groups, cmp, tally)?;
        files.push(("examples.csv", examples));
        files.push(("rule_groups.csv", groups));
    }
    let manifest = manifest(
        cmp,
        spec,
        plan,
        finished.facts.clone(),
        finished.rate(),
        extra,
    );
    crate::report::write_report_set(out, files, &manifest)?;
    Ok(ranking_text(cmp, tally, &manifest, out))
}

fn manifest(
    cmp: &Comparison,
    spec: &RunSpec,
    plan: &Plan,
    facts: RunFacts,
    rate: f64,
    extra: RunExtra,
) -> Manifest<CompareConfig, RunExtra> {
    let config = CompareConfig {
        game: cmp.game.name.clone(),
        main_wager: cmp.game.main_wager.describe(),
        vary: cmp.vary,
        fixed_way: cmp.fixed.as_ref().map(|f| f.label.clone()),
        ways: cmp.variants.iter().map(|v| v.label.clone()).collect(),
        baseline: cmp.baseline.map(|b| cmp.variants[b].label.clone()),
        players_per_deal: 1,
        examples: cmp.examples,
    };
    Manifest::of_run(facts, config, spec, plan, rate, extra)
}

/// The stdout of a comparison: its heading, then for each side the ways ranked the right way
/// for it (player EV, best for the player first, when the player's way varies; house edge, best
/// for the house first, when the dealer's way varies or both do) with paired differences (each
/// way against the baseline when there is one, else against the one ranked above it and the
/// best); with `--vary all`, a table of what each way changes on each side against the baseline.
fn ranking_text(
    cmp: &Comparison,
    tally: &CompareTally,
    m: &Manifest<CompareConfig, RunExtra>,
    out: &Path,
) -> String {
    let plan = m.plan.as_ref().expect("a comparison has a plan");
    let mut text = format!(
        "{game} ({rules})
{deals} deals, seed {seed}, {threads} threads: {speed}
",
        game = cmp.game.name,
        rules = m.config.main_wager,
        deals = plan.deals,
        seed = plan.seed,
        threads = m.facts.threads,
        speed = super::run_args::speed_text(
            m.facts.wall_seconds,
            m.deals_per_second,
            "deals",
            m.extra.checkpoint.as_ref()
        ),
    );
    for side in Side::ALL {
        let arms: Vec<usize> = (0..cmp.arms.len())
            .filter(|&a| cmp.arms[a].side == side)
            .collect();
        if !arms.is_empty() {
            text += &side_text(cmp, tally, side, &arms);
        }
    }
    if cmp.vary == Vary::All {
        text += &perspectives_table(cmp, tally);
    }
    text + &format!("reports in {}\n", out.display())
}

/// Who plays the arms of `side` against what, in words.
fn side_heading(cmp: &Comparison, side: Side) -> String {
    let other = |i: usize| match cmp.variants.get(i) {
        Some(v) => v.label.clone(),
        None => cmp.fixed.as_ref().map_or("-".into(), |f| f.label.clone()),
    };
    let arm = cmp.arms.iter().find(|a| a.side == side).expect("an arm");
    match side {
        Side::Player => format!(
            "the player's way varies, dealer way {}: ranked by player EV, best for the player first",
            other(arm.dealer)
        ),
        Side::Dealer => format!(
            "the dealer's way varies, player way {}: ranked by house edge, best for the house first",
            other(arm.player)
        ),
        Side::Both => {
            "each way sets both hands: ranked by house edge, best for the house first".to_string()
        }
    }
}

/// One side's ranking and paired differences.
fn side_text(cmp: &Comparison, tally: &CompareTally, side: Side, arms: &[usize]) -> String {
    let pct = |x: f64| format!("{:+.4}%", 100.0 * x);
    let wager = &cmp.game.main_wager;
    let mut order: Vec<usize> = (ranking(tally, wager).into_iter())
        .filter(|a| arms.contains(a))
        .collect();
    if side.ranks_by_house_edge() {
        order.reverse();
    }
    let mut text = format!(
        "{}\nrank  way  player EV  [95% CI]  house edge\n",
        side_heading(cmp, side)
    );
    for (rank, &a) in order.iter().enumerate() {
        let s = variant_stats(tally, a, wager);
        text += &format!(
            "{:>4}  {}  {}  [{}, {}]  {:.4}%\n",
            rank + 1,
            cmp.variants[cmp.arms[a].variant].label,
            pct(s.player_ev),
            pct(s.ci95.low),
            pct(s.ci95.high),
            -100.0 * s.player_ev
        );
    }
    let rank_of = |a: usize| order.iter().position(|&o| o == a).expect("ranked");
    match cmp.baseline.and_then(|b| cmp.arm_of(b, side)) {
        Some(base) => {
            text += "paired differences in player EV against the baseline, 95% CI:\n";
            for &a in order.iter().filter(|&&a| a != base) {
                text += &difference_line(cmp, tally, (rank_of(a), a), (rank_of(base), base));
            }
        }
        None => {
            text += "paired differences in player EV, #a - #b (each way against the one ranked \
                     above it and the best), 95% CI:\n";
            for r in 1..order.len() {
                text += &difference_line(cmp, tally, (r - 1, order[r - 1]), (r, order[r]));
                if r > 1 {
                    text += &difference_line(cmp, tally, (0, order[0]), (r, order[r]));
                }
            }
        }
    }
    text
}

/// With `--vary all`: per way, the paired change against the baseline when only the player
/// uses it (player EV), when only the dealer does (house edge) and when both do (house edge).
fn perspectives_table(cmp: &Comparison, tally: &CompareTally) -> String {
    let base = cmp.baseline.expect("--vary all has a baseline");
    let mut text = format!(
        "what each way changes against the baseline {}, 95% CI:\n\
         way  player alone: player EV  dealer alone: house edge  both: house edge\n",
        cmp.variants[base].label
    );
    for (v, way) in cmp.variants.iter().enumerate().filter(|&(v, _)| v != base) {
        let cells: Vec<String> = Side::ALL
            .iter()
            .map(|&side| {
                let (a, b) = (cmp.arm_of(v, side), cmp.arm_of(base, side));
                let (a, b) = (a.expect("every side"), b.expect("every side"));
                let p = cmp.pair_of(a, b).expect("pairs of a side are tallied");
                let st = pair_stats(tally, side, p, (a.min(b), a.max(b)), &cmp.game.main_wager);
                let sign = if a < b { 1.0 } else { -1.0 };
                let player = (
                    sign * st.difference,
                    sign * st.ci95.low,
                    sign * st.ci95.high,
                );
                let (d, lo, hi) = match side.ranks_by_house_edge() {
                    true => (-player.0, -player.1.max(player.2), -player.1.min(player.2)),
                    false => (player.0, player.1.min(player.2), player.1.max(player.2)),
                };
                format!(
                    "{:+.4}% [{:+.4}%, {:+.4}%]",
                    100.0 * d,
                    100.0 * lo,
                    100.0 * hi
                )
            })
            .collect();
        text += &format!("  {}  {}\n", way.label, cells.join("  "));
    }
    text
}

/// One line: `#i A - #j B: diff [low, high], significant or not, paired/independent width`,
/// for the arms `hi` and `lo` ranked `hi_rank` and `lo_rank` (from 0).
fn difference_line(
    cmp: &Comparison,
    tally: &CompareTally,
    (hi_rank, hi): (usize, usize),
    (lo_rank, lo): (usize, usize),
) -> String {
    let (a, b) = (hi.min(lo), hi.max(lo));
    let p = cmp.pair_of(a, b).expect("every pair of a side is tallied");
    let s = pair_stats(tally, cmp.arms[a].side, p, (a, b), &cmp.game.main_wager);
    let sign = if hi == a { 1.0 } else { -1.0 };
    let (low, high) = if sign > 0.0 {
        (s.ci95.low, s.ci95.high)
    } else {
        (-s.ci95.high, -s.ci95.low)
    };
    let verdict = if s.is_significant() {
        "significant"
    } else {
        "not significant"
    };
    let ratio = match s.independent_se > 0.0 {
        true => fixed(s.se / s.independent_se)[..6].to_string(),
        false => "-".to_string(),
    };
    let label = |arm: usize| &cmp.variants[cmp.arms[arm].variant].label;
    format!(
        "  #{} {} - #{} {}: {:+.4}% [{:+.4}%, {:+.4}%] {verdict}; set differently {:.4}%; paired/independent width {ratio}\n",
        hi_rank + 1,
        label(hi),
        lo_rank + 1,
        label(lo),
        100.0 * sign * s.difference + 0.0,
        100.0 * low + 0.0,
        100.0 * high + 0.0,
        100.0 * s.set_differently,
    )
}
