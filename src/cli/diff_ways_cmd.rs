//! `paigow diff-ways A B`: every hand two house ways set differently, grouped by hand class and
//! by the rule of each way, with exact counts, an example per group and (with `--dealer-way`)
//! each group's EV change; `diff.csv` plus a summary on stdout.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use serde::Serialize;

use super::GameArg;
use super::help::{Accepts, Help};
use crate::cards::Card;
use crate::engine::diff_ways::{
    EvMethod, EvOptions, Group, Pricer, WaysDiff, class_name, diff_ways, price_from_table,
    total_change,
};
use crate::engine::exact_main::Fraction;
use crate::engine::run::spec::RunSpec;
use crate::eval::Evaluator;
use crate::eval::split::split_cards;
use crate::game::GameRules;
use crate::game::wager::BET_UNITS;
use crate::report::facts::Manifest;
use crate::strategy::deck_shapes::SuitDeck;
use crate::strategy::optimal::cache::{DealerWay, default_dir};
use crate::strategy::optimal::grid::ValueIndex;
use crate::strategy::optimal::hand::SettingTable;
use crate::strategy::optimal::prices::PriceTable;
use crate::strategy::optimal::table_file::{cached_table, load_or_build_table};
use crate::strategy::resolve::{self, dealer_way};
use crate::strategy::way::HouseWay;
use crate::strategy::way::lint::show;

/// The end of `paigow diff-ways --help`.
const HELP: Help = Help {
    examples: &[
        (
            "Every hand Foxwoods and Bally's AC set differently, grouped by class and rule",
            "paigow diff-ways foxwoods ballys-ac",
        ),
        (
            "Every hand of every group priced exactly from the price table (built once: minutes)",
            "paigow diff-ways foxwoods ballys-ac --dealer-way foxwoods --exact",
        ),
        (
            "Two ways of a joker game, the top 5 groups on stdout",
            "paigow diff-ways --game double-joker foxwoods double-joker-dealer --top 5",
        ),
    ],
    accepts: &[Accepts::Games, Accepts::HouseWays],
    writes: "diff.csv and manifest.json (last) in --out (default \
             runs/diff-ways/GAME-A-vs-B[-dealer-D]).",
};

#[derive(Args, Debug)]
#[command(after_long_help = HELP.render())]
pub struct DiffWaysArgs {
    #[command(flatten)]
    game: GameArg,
    /// The dealer's way (a house way, max-back or max-front): price each group's EV change.
    #[arg(long)]
    dealer_way: Option<String>,
    /// With --dealer-way: price every hand of every group exactly from the dealer's price table
    /// (`paigow exact prices`), building it when it is not cached (minutes, once). Without it
    /// the table is used when it is cached, else hands are priced one by one (--ev-hands).
    #[arg(long, requires = "dealer_way")]
    exact: bool,
    /// With --dealer-way and no price table: a group of at most this many hands is priced over
    /// all of them, a larger one over this many hands drawn from it (seeded).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(2..=100_000))]
    ev_hands: u32,
    /// Seed of the hands drawn for pricing.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Groups shown on stdout (every group is in diff.csv).
    #[arg(long, default_value_t = 20)]
    top: usize,
    /// Report directory (default: runs/diff-ways/GAME-A-vs-B, with -dealer-D after --dealer-way D).
    #[arg(long)]
    out: Option<PathBuf>,
    /// The first house way (a shipped name or a TOML file).
    a: String,
    /// The second house way.
    b: String,
}

pub fn run(args: &DiffWaysArgs) -> anyhow::Result<()> {
    let game = args.game.load()?;
    let load = |name| resolve::house_way(name, "two house ways (their rules are compared)");
    let (a, b) = (load(&args.a)?, load(&args.b)?);
    let ev = Evaluator::new(game.ranking);
    let out = args.out.clone().unwrap_or_else(|| default_out(args, &game));
    check_diff_out(&out)?;
    let started = Instant::now();
    let spinner = super::progress::spinner("setting every hand of the deck by both ways");
    let mut diff = diff_ways(&a, &b, &ev, game.deck);
    spinner.finish_and_clear();
    let diff_seconds = started.elapsed().as_secs_f64();
    let method = match &args.dealer_way {
        Some(dealer) => Some(price(args, &game, &ev, (&a, &b), dealer, &mut diff)?),
        None => None,
    };
    let csv = diff_csv(&diff, (&a, &b), &game, &ev)?;
    let path = out.join(DIFF_CSV);
    let manifest = manifest(args, &game, &diff, method.as_deref(), started)?;
    crate::files::replace_dir_atomic(&out, &mut |temp| {
        crate::files::write_synced(&temp.join(DIFF_CSV), csv.as_bytes())?;
        crate::files::write_synced(&temp.join("manifest.json"), &manifest)
    })
    .with_context(|| format!("cannot write {}", path.display()))?;
    let summary = summary(
        args,
        &diff,
        (&a, &b),
        &game,
        &ev,
        diff_seconds,
        method.as_deref(),
    );
    super::print_stdout(&(summary + &format!("wrote {}\n", path.display())))
}

/// The report file of a diff-ways run (beside its `manifest.json`, written last).
const DIFF_CSV: &str = "diff.csv";

/// Refuses an `--out` that is not new, empty or an earlier diff-ways report (`diff.csv`, with
/// the `manifest.json` runs write since 2026-11-27 or alone as before), before any work: the
/// report replaces the directory as a whole, so nothing else in it may be lost.
fn check_diff_out(out: &Path) -> anyhow::Result<()> {
    let diff_report = |entries: &[std::fs::DirEntry]| {
        (entries.iter()).all(|e| {
            let name = e.file_name();
            (name == DIFF_CSV || name == "manifest.json")
                && e.file_type().is_ok_and(|t| t.is_file())
        }) && entries.iter().any(|e| e.file_name() == DIFF_CSV)
    };
    crate::files::check_replaceable_as(out, "a diff-ways report (diff.csv)", &diff_report)?;
    Ok(())
}

/// What the manifest of `diff-ways` says of the run.
#[derive(Serialize)]
struct DiffWaysConfig {
    game: String,
    way_a: String,
    way_b: String,
    dealer_way: Option<String>,
    deck_cards: usize,
    shapes: usize,
    hands: u64,
    hands_set_differently: u64,
    groups: usize,
    method: String,
}

/// The run's `manifest.json`: its facts, both ways' and the dealer's files (hashed and
/// embedded) and the options that change `diff.csv`.
fn manifest(
    args: &DiffWaysArgs,
    game: &GameRules,
    diff: &WaysDiff,
    pricing: Option<&str>,
    started: Instant,
) -> anyhow::Result<Vec<u8>> {
    let mut spec = RunSpec::new("diff-ways", game)
        .with_strategy("way A", &args.a)?
        .with_strategy("way B", &args.b)?;
    if let Some(dealer) = &args.dealer_way {
        spec = spec
            .with_strategy("dealer way", dealer)?
            .with_option("exact", args.exact)
            .with_option("ev_hands", args.ev_hands)
            .with_option("seed", args.seed);
    }
    let counted = "every hand of the deck set by both ways, exact over every hand shape";
    let config = DiffWaysConfig {
        game: game.name.clone(),
        way_a: args.a.clone(),
        way_b: args.b.clone(),
        dealer_way: args.dealer_way.clone(),
        deck_cards: game.deck.size(),
        shapes: diff.shapes.len(),
        hands: diff.total_hands,
        hands_set_differently: diff.differing_hands(),
        groups: diff.groups.len(),
        method: pricing.map_or(counted.to_string(), |p| format!("{counted}; {p}")),
    };
    let wall = started.elapsed().as_secs_f64();
    let manifest = Manifest::of_count(config, spec, rayon::current_num_threads(), wall);
    Ok(crate::report::manifest_json(&manifest)?)
}

/// Builds the dealer's table and prices every group; returns the method, in words.
fn price(
    args: &DiffWaysArgs,
    game: &GameRules,
    ev: &Evaluator,
    (a, b): (&HouseWay, &HouseWay),
    dealer: &str,
    diff: &mut WaysDiff,
) -> anyhow::Result<String> {
    let dealer = dealer_way(dealer, game)?;
    let started = Instant::now();
    if let Some(table) = price_table(args, game, &dealer.way) {
        let (net, pairs) = price_from_table(diff, (a, b), ev, &table, &game.main_wager)
            .map_err(|e| anyhow::anyhow!("the price table does not fit the deck: {e}"))?;
        let exact = Fraction::new(net, pairs as i128 * i128::from(BET_UNITS));
        return Ok(format!(
            "EV change = B's EV less A's per unit bet against dealer way {}, every hand of every \
             group exact over every dealer hand of the remaining cards (card removal included), \
             from the price table; over all hands exactly {exact}; {:.1} s",
            dealer.way.label,
            started.elapsed().as_secs_f64()
        ));
    }
    let spinner = super::progress::spinner("setting every dealer hand of the deck");
    let index = Arc::new(ValueIndex::of(ev, game.deck));
    let table = SettingTable::build(
        ev,
        &game.main_wager,
        game.deck,
        &*dealer.way.strategy,
        index,
    );
    spinner.set_message("pricing the groups' hands exactly");
    let pricer = Pricer {
        a,
        b,
        ev,
        table: &table,
        wager: &game.main_wager,
    };
    let options = EvOptions {
        per_group: args.ev_hands as usize,
        seed: args.seed,
    };
    pricer.price(diff, options);
    spinner.finish_and_clear();
    Ok(format!(
        "EV change = B's EV less A's per unit bet against dealer way {}, each hand exact over \
         every dealer hand of the remaining cards (card removal included); a group of at most \
         {} hands is priced over all of them (exact), a larger one over {} hands drawn \
         uniformly with seed {} (95% Student-t interval); {:.1} s",
        dealer.way.label,
        args.ev_hands,
        args.ev_hands,
        args.seed,
        started.elapsed().as_secs_f64()
    ))
}

/// The dealer's price table: from the cache, or built (and cached) with `--exact`.
fn price_table(args: &DiffWaysArgs, game: &GameRules, dealer: &DealerWay) -> Option<PriceTable> {
    let dir = default_dir();
    if !args.exact {
        return cached_table(dealer, game, dir.as_deref());
    }
    let note = |text: &str| eprintln!("{text}");
    let deck = SuitDeck::of(game.deck);
    Some(load_or_build_table(dealer, game, deck, dir.as_deref(), &note).0)
}

/// `runs/diff-ways/GAME-A-vs-B[-dealer-D]`, names reduced to file stems: the dealer's way, when
/// given, prices the differences, so it is part of what makes a diff.
fn default_out(args: &DiffWaysArgs, game: &GameRules) -> PathBuf {
    use super::run_args::stem;
    let dealer =
        (args.dealer_way.as_deref()).map_or(String::new(), |d| format!("-dealer-{}", stem(d)));
    super::run_args::default_dir(
        "diff-ways",
        format!(
            "{}-{}-vs-{}{dealer}",
            stem(&game.origin),
            stem(&args.a),
            stem(&args.b)
        ),
    )
}

/// The settings of the two ways on `hand`: `front | back` each.
fn settings(hand: &[Card; 7], ev: &Evaluator, (a, b): (&HouseWay, &HouseWay)) -> [String; 2] {
    let splits = ev.split_values(hand);
    [a, b].map(|way| {
        let (front, back) = split_cards(hand, way.set(hand, &splits).split);
        format!("{front} | {back}")
    })
}

const CSV_HEADER: [&str; 17] = [
    "class",
    "rule_a",
    "rule_a_name",
    "rule_b",
    "rule_b_name",
    "hands",
    "share_of_all_hands",
    "example",
    "a_sets",
    "b_sets",
    "ev_method",
    "ev_hands_priced",
    "ev_change",
    "ev_change_ci95_low",
    "ev_change_ci95_high",
    "ev_contribution",
    "ev_sd",
];

/// `diff.csv`: one row per group (largest first), then a `total` row.
fn diff_csv(
    diff: &WaysDiff,
    ways: (&HouseWay, &HouseWay),
    game: &GameRules,
    ev: &Evaluator,
) -> anyhow::Result<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(CSV_HEADER)?;
    let total = diff.total_hands as f64;
    for g in &diff.groups {
        w.write_record(group_row(g, total, ways, game, ev))?;
    }
    w.write_record(total_row(diff))?;
    Ok(String::from_utf8(w.into_inner()?)?)
}

/// The `total` row: every hand set differently; its EV change is per hand set differently
/// (the interval likewise), its contribution per hand of the deck.
fn total_row(diff: &WaysDiff) -> Vec<String> {
    let hands = diff.differing_hands();
    let share = hands as f64 / diff.total_hands as f64;
    let mut row: Vec<String> = ["total", "-", "-", "-", "-"].map(String::from).to_vec();
    row.extend([hands.to_string(), format!("{share:.8}")]);
    row.extend(["-", "-", "-"].map(String::from));
    match total_change(diff) {
        Some((mean, low, high)) if hands > 0 => {
            let per_hand = |x: f64| fmt_ev(x / share);
            row.extend(["mixed".into(), "-".into(), per_hand(mean)]);
            row.extend([per_hand(low), per_hand(high), fmt_ev(mean), "-".into()]);
        }
        _ => row.extend(["-"; 7].map(String::from)),
    }
    row
}

fn fmt_ev(x: f64) -> String {
    format!("{x:.8}")
}

/// One group as a CSV row.
fn group_row(
    g: &Group,
    total: f64,
    (a, b): (&HouseWay, &HouseWay),
    game: &GameRules,
    ev: &Evaluator,
) -> Vec<String> {
    let [a_sets, b_sets] = settings(&g.example, ev, (a, b));
    let mut row = vec![
        class_name(g.key.class, game.ranking.joker).to_string(),
        (g.key.rule_a + 1).to_string(),
        a.rule_name(g.key.rule_a).to_string(),
        (g.key.rule_b + 1).to_string(),
        b.rule_name(g.key.rule_b).to_string(),
        g.hands.to_string(),
        format!("{:.8}", g.hands as f64 / total),
        show(&g.example),
        a_sets,
        b_sets,
    ];
    match g.ev {
        None => row.extend(["-"; 7].map(String::from)),
        Some(e) => {
            let method = match e.method {
                EvMethod::Exact => "exact",
                EvMethod::Sampled => "sampled",
                EvMethod::Table => "exact (price table)",
            };
            let sd = match e.method {
                EvMethod::Table => "-".to_string(),
                _ => fmt_ev(e.sd),
            };
            row.extend([
                method.to_string(),
                e.priced.to_string(),
                fmt_ev(e.mean),
                fmt_ev(e.ci95.0),
                fmt_ev(e.ci95.1),
                fmt_ev(e.mean * g.hands as f64 / total),
                sd,
            ]);
        }
    }
    row
}

/// The readable summary for stdout.
fn summary(
    args: &DiffWaysArgs,
    diff: &WaysDiff,
    ways: (&HouseWay, &HouseWay),
    game: &GameRules,
    ev: &Evaluator,
    seconds: f64,
    method: Option<&str>,
) -> String {
    let (a, b) = ways;
    let hands = diff.differing_hands();
    let pct = |n: u64| 100.0 * n as f64 / diff.total_hands as f64;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "A = {} ({}), B = {} ({}), game {} ({}-card deck)",
        args.a,
        a.origin,
        args.b,
        b.origin,
        game.origin,
        game.deck.size()
    );
    let _ = writeln!(
        s,
        "{hands} of {} hands ({:.4}%) are set differently (front or back value), in {} groups \
         by hand class and rule; exact over {} shapes in {seconds:.2} s",
        diff.total_hands,
        pct(hands),
        diff.groups.len(),
        diff.shapes.len()
    );
    if let Some(method) = method {
        let _ = writeln!(s, "{method}");
        if let Some((mean, low, high)) = total_change(diff) {
            let _ = writeln!(
                s,
                "EV change over all hands (B less A): {:+.4}% [{:+.4}%, {:+.4}%]",
                100.0 * mean,
                100.0 * low,
                100.0 * high
            );
        }
    }
    for g in diff.groups.iter().take(args.top) {
        let [a_sets, b_sets] = settings(&g.example, ev, ways);
        let _ = writeln!(
            s,
            "\n{:>10} hands ({:.4}%)  {}: A rule {} '{}' / B rule {} '{}'",
            g.hands,
            pct(g.hands),
            class_name(g.key.class, game.ranking.joker),
            g.key.rule_a + 1,
            a.rule_name(g.key.rule_a),
            g.key.rule_b + 1,
            b.rule_name(g.key.rule_b)
        );
        let _ = writeln!(s, "    e.g. {}: A {a_sets}; B {b_sets}", show(&g.example));
        if let Some(e) = g.ev {
            let _ = writeln!(
                s,
                "    EV change {:+.4}% per hand [{:+.4}%, {:+.4}%] ({} hands, {})",
                100.0 * e.mean,
                100.0 * e.ci95.0,
                100.0 * e.ci95.1,
                e.priced,
                match e.method {
                    EvMethod::Exact => "every hand",
                    EvMethod::Sampled => "sampled",
                    EvMethod::Table => "every hand, from the price table",
                }
            );
        }
    }
    if diff.groups.len() > args.top {
        let _ = writeln!(
            s,
            "\n({} more groups in diff.csv)",
            diff.groups.len() - args.top
        );
    }
    s
}
