//! `paigow table`: the California table with a player-dealer's limited bank, with reports.
//!
//! Arguments become a run spec and a validated [`Table`] built from it before anything runs;
//! the report directory is created and checked up front. The run is the shared driver's
//! (progress, shards, checkpoints, resume); `summary.csv` and `outcomes.csv` are pure functions
//! of the integer tally, so they are byte-identical at any `--threads`; `manifest.json` (written
//! last) records the run.

use std::path::{Path, PathBuf};

use clap::Args;
use serde::Serialize;

use super::run_args::{Finished, RunArgs, run_to_reports, stem};
use crate::engine::run::Plan;
use crate::engine::run::spec::RunSpec;
use crate::engine::table::{self, Table, TableSetup, TableTally};
use crate::report::facts::{Manifest, RunFacts};
use crate::report::partial::RunExtra;
use crate::report::stats::seat_stats;
use crate::report::table::{role, write_outcomes, write_summary};

#[derive(Args, Debug)]
pub struct TableArgs {
    /// A shipped game (california, standard, jokers-wild: no commission, 53 or 54 cards) or a
    /// game TOML file.
    #[arg(long, short = 'g', default_value = "california")]
    game: String,
    /// Seven seats clockwise from seat 1, comma-separated: `D` the player-dealer, `-` empty,
    /// `N` a bet of N chips, `N+M` a bet with a backline bet of M (e.g. "D,100,-,50+20,40,-,200").
    #[arg(long, allow_hyphen_values = true)]
    seats: String,
    /// The player-dealer's bank per round in chips, or `unlimited`.
    #[arg(long)]
    bank: String,
    /// Collection per bet: `none` or MIN=FEE steps by bet size (e.g. "1=1,60=2,200=3").
    #[arg(long, default_value = "none")]
    collection: String,
    /// How every seated player and backline bettor sets: a house way or a built-in.
    #[arg(long, default_value = "foxwoods")]
    player_way: String,
    /// How the player-dealer's hand is set.
    #[arg(long, default_value = "foxwoods")]
    dealer_way: String,
    /// The house way backline bets get when the setter fouls.
    #[arg(long, default_value = "foxwoods")]
    house_way: String,
    #[command(flatten)]
    run: RunArgs,
}

pub fn run(args: &TableArgs) -> anyhow::Result<()> {
    let game = crate::game::GameRules::load(&args.game)?;
    let setup = TableSetup {
        seats: &args.seats,
        bank: &args.bank,
        collection: &args.collection,
        ways: [&args.player_way, &args.dealer_way, &args.house_way],
    };
    let spec = table::spec(&game, &setup)?;
    let table = Table::from_spec(&spec)?;
    let plan = args.run.plan()?;
    let out = (args.run.out.clone()).unwrap_or_else(|| default_out(&table, &plan));
    run_to_reports(&args.run, &table, &spec, &plan, &out, write_reports)
}

fn default_out(table: &Table, plan: &Plan) -> PathBuf {
    PathBuf::from("reports").join("table").join(format!(
        "{}-s{}-n{}",
        stem(&table.game.origin),
        plan.seed,
        plan.deals
    ))
}

/// What a table run's manifest says of its own configuration.
#[derive(Serialize)]
struct TableConfig {
    game: String,
    seats: String,
    player_dealer_seat: usize,
    bank: String,
    collection: String,
    player_way: String,
    dealer_way: String,
    house_way: String,
    rotation: String,
}

/// Writes `summary.csv`, `outcomes.csv` and `manifest.json` (last); returns the stdout
/// summary. Shared by `table` and `merge`.
pub(crate) fn write_reports(
    out: &Path,
    table: &Table,
    spec: &RunSpec,
    plan: &Plan,
    finished: &Finished<TableTally>,
    extra: RunExtra,
) -> anyhow::Result<String> {
    let t = &finished.tally;
    let mut summary = Vec::new();
    write_summary(&mut summary, table, t)?;
    let mut outcomes = Vec::new();
    write_outcomes(&mut outcomes, table, t)?;
    let manifest = manifest(
        table,
        spec,
        plan,
        finished.facts.clone(),
        finished.rate(),
        extra,
    );
    let files = vec![("summary.csv", summary), ("outcomes.csv", outcomes)];
    crate::report::write_report_set(out, files, &manifest)?;
    Ok(summary_text(
        table,
        t,
        plan.seed,
        out,
        finished.facts.wall_seconds,
    ))
}

fn manifest(
    table: &Table,
    spec: &RunSpec,
    plan: &Plan,
    facts: RunFacts,
    rate: f64,
    extra: RunExtra,
) -> Manifest<TableConfig, RunExtra> {
    let option = |key: &str| spec.options.get(key).cloned().unwrap_or_default();
    let config = TableConfig {
        game: table.game.name.clone(),
        seats: option("seats"),
        player_dealer_seat: table.layout.dealer + 1,
        bank: option("bank"),
        collection: option("collection"),
        player_way: table.player.strategy.name().to_string(),
        dealer_way: table.dealer.strategy.name().to_string(),
        house_way: table.house.strategy.name().to_string(),
        rotation: "none: the player-dealer keeps one seat for the whole run".to_string(),
    };
    Manifest::of_run(facts, config, spec, plan, rate, extra)
}

fn summary_text(table: &Table, t: &TableTally, seed: u64, out: &Path, wall: f64) -> String {
    let fees = table.collection_per_round();
    let mut text = format!(
        "{}: {} rounds, seed {}, {wall:.2} s; bank ran out in {:.4}% of rounds\n\
         seat  role             bets        EV/round  EV/action  action/round  no action\n",
        table.game.name,
        t.rounds,
        seed,
        100.0 * t.bank_ran_out as f64 / t.rounds as f64
    );
    for (seat, &fee) in fees.iter().enumerate() {
        let (role, bets) = role(table, seat);
        let s = seat_stats(&t.seats[seat], t.rounds, fee);
        text += &format!(
            "{:>4}  {role:<15}  {bets:>10}  {:>8.4}  {:>9.5}  {:>12.3}  {:>8.4}%\n",
            seat + 1,
            s.ev_per_round,
            s.ev_per_action,
            s.action_per_round,
            100.0 * t.seats[seat].no_action as f64 / t.rounds as f64
        );
    }
    text += &format!(
        "card room collection: {} chips per round\nreports in {}\n",
        fees.iter().sum::<u64>(),
        out.display()
    );
    text
}
