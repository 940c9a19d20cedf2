//! `paigow table`: the California table with a player-dealer's limited bank, fixed or rotating,
//! the card room's collection and its break-even fees, and variants compared on the same deals.
//!
//! Arguments become a run spec and a validated [`Table`] built from it before anything runs
//! (an error names the flag and the value); the report directory is created and checked up
//! front. The run is the shared driver's (progress, shards, checkpoints, resume); every CSV is a
//! pure function of the integer tally, so they are byte-identical at any `--threads`;
//! `manifest.json` (written last) records the run.

use std::path::{Path, PathBuf};

use clap::Args;

use super::help::{Accepts, Help};
use serde::Serialize;

use super::run_args::{Finished, RunArgs, run_to_reports, stem};
use crate::engine::run::Plan;
use crate::engine::run::spec::RunSpec;
use crate::engine::table::{self, Table, TableError, TableOptions, TableSetup, TableTally};
use crate::game::GameRules;
use crate::report::facts::{Manifest, RunFacts};
use crate::report::partial::RunExtra;
use crate::report::table::{
    Role, paired, room_collection, rows, solutions, write_breakeven, write_outcomes, write_paired,
    write_rotation, write_summary,
};

/// The end of `paigow table --help`.
const HELP: Help = Help {
    examples: &[
        (
            "A fixed player-dealer in seat 1, five players, a bank of 300 and a collection schedule",
            "paigow table --seats D,100,-,50+20,40,-,200 --bank 300 --collection 1=1,60=2,200=3 --rounds 1e6",
        ),
        (
            "The bank rotating among the seats (2 or 1 hands each in turn; seat 5 declines)",
            "paigow table --seats 100,40,-,50+20,25,-,200 --rotation 2,1,-,2,0,-,2 --bank 300 --collection 1=1,60=2,200=3 --rounds 1e6",
        ),
        (
            "Three banks on the same deals, with paired differences",
            "paigow table --seats D,100,-,50+20,40,-,200 --collection 1=1,60=2,200=3 --vary bank=300,600,unlimited --rounds 1e6",
        ),
    ],
    accepts: &[Accepts::TableGames, Accepts::Ways],
    writes: "summary.csv, outcomes.csv, rotation.csv, breakeven.csv and manifest.json (last) in \
             --out (default runs/table/GAME-CONFIG-sSEED-nROUNDS), replaced as a whole; with --vary \
             also paired.csv; with --shard K/M only OUT/shard-K-of-M.json.",
};

#[derive(Args, Debug)]
#[command(after_long_help = HELP.render())]
pub struct TableArgs {
    /// A game the table can deal: even money, with neither commission nor overqualifier (the
    /// shipped ones are listed under Accepts in --help), or a game TOML file.
    #[arg(long, short = 'g', default_value = "california")]
    game: String,
    /// Seven seats clockwise from seat 1, comma-separated: `D` the fixed player-dealer (none
    /// with --rotation), `-` empty, `N` a bet of N chips, `N+M` a bet with a backline bet of M
    /// (e.g. "D,100,-,50+20,40,-,200").
    #[arg(long, allow_hyphen_values = true)]
    seats: Option<String>,
    /// The player-dealer's bank per hand in chips, or `unlimited`.
    #[arg(long, allow_hyphen_values = true)]
    bank: Option<String>,
    /// Collection per bet: `none`, one fee, or MIN=FEE steps by bet size; a FEE is chips (up to
    /// 6 decimals) or a percent of the bet (e.g. "1=1,60=2.5,200=1.5%").
    #[arg(long, allow_hyphen_values = true, default_value = "none")]
    collection: String,
    /// The player-dealer's collection on its bank in action (its bank, at most the bets it
    /// faces): `same` (the --collection schedule), `none`, or a schedule.
    #[arg(long, allow_hyphen_values = true, default_value = "same")]
    bank_collection: String,
    /// Time collection: chips per seated player (and the player-dealer) per hand.
    #[arg(long, allow_hyphen_values = true, default_value = "0")]
    time_collection: String,
    /// Who banks: `none` (the seat marked D, every hand), or a rotation: one policy for every
    /// seat with bets, or seven comma-separated ('-' for empty seats); 2 = bank two consecutive
    /// hands, 1 = one, 0 = decline, '/' for choices taken in turn (e.g. "2", "2,1,0,2/0,2,-,-").
    #[arg(long, default_value = "none", allow_hyphen_values = true)]
    rotation: String,
    /// Bets in the round (since the option last passed the seat) a seat needs to bank.
    #[arg(long, default_value = "3")]
    bets_to_bank: String,
    /// Hands per hour at which collection per hour is stated.
    #[arg(long, default_value = "30")]
    hands_per_hour: String,
    /// Variants on the same deals: KEY=V1;V2;... with KEY bank, seats, collection,
    /// bank-collection, time-collection, rotation or bets-to-bank (bank values may also be
    /// separated by ','), e.g. "bank=300,600,unlimited".
    #[arg(long, allow_hyphen_values = true)]
    vary: Option<String>,
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

/// A table error with the flag of the option at fault, when one is, or the game file whose deck
/// or main wager does not fit a table.
fn flagged(e: TableError, game: &GameRules) -> anyhow::Error {
    match (e.option_key(), &e) {
        (Some(key), _) => anyhow::anyhow!("--{}: {e}", key.replace('_', "-")),
        (None, TableError::Deck(_) | TableError::Wager(_)) => {
            anyhow::anyhow!("{}: {e}", game.origin)
        }
        (None, _) => e.into(),
    }
}

pub fn run(args: &TableArgs) -> anyhow::Result<()> {
    let game = GameRules::load(&args.game)?;
    let options = TableOptions {
        seats: args.seats.clone(),
        bank: args.bank.clone(),
        collection: args.collection.clone(),
        bank_collection: args.bank_collection.clone(),
        time_collection: args.time_collection.clone(),
        rotation: args.rotation.clone(),
        bets_to_bank: args.bets_to_bank.clone(),
        hands_per_hour: args.hands_per_hour.clone(),
        vary: args.vary.clone(),
    };
    let setup = TableSetup {
        options: &options,
        ways: [&args.player_way, &args.dealer_way, &args.house_way],
    };
    let spec = table::spec(&game, &setup)?;
    let table = Table::from_spec(&spec).map_err(|e| flagged(e, &game))?;
    let plan = args.run.plan()?;
    (table.check_rounds(plan.deals)).map_err(|e| anyhow::anyhow!("--rounds: {e}"))?;
    let out = (args.run.out.clone()).unwrap_or_else(|| default_out(&table, &spec, &plan));
    run_to_reports(&args.run, &table, &spec, &plan, &out, &write_reports)
}

/// `runs/table/GAME-CONFIG-sSEED-nROUNDS`, where CONFIG is the first 8 hex digits of the
/// SHA-256 of the seating, bank, collection, rotation and variants as given (so two tables of
/// one game do not share a directory), names reduced to file stems.
fn default_out(table: &Table, spec: &crate::engine::run::spec::RunSpec, plan: &Plan) -> PathBuf {
    let options = serde_json::to_string(&spec.options).unwrap_or_default();
    let config = crate::files::sha256_hex(options.as_bytes());
    super::run_args::default_dir(
        "table",
        format!(
            "{}-{}-s{}-n{}",
            stem(&table.game.origin),
            &config[..8],
            plan.seed,
            plan.deals
        ),
    )
}

/// One variant in the manifest.
#[derive(Serialize)]
struct VariantFacts {
    label: String,
    /// Hands in one cycle of the rotation (1 with a fixed player-dealer).
    cycle_hands: u64,
    /// Hands each seat banks per cycle, seat 1 first.
    hands_banked_per_cycle: Vec<u64>,
}

/// What a table run's manifest says of its own configuration.
#[derive(Serialize)]
struct TableConfig {
    game: String,
    seats: Option<String>,
    /// The fixed player-dealer's seat (1-based) when every variant has the same one.
    player_dealer_seat: Option<usize>,
    bank: Option<String>,
    collection: String,
    bank_collection: String,
    time_collection: String,
    /// Fees are exact integers of this unit.
    fee_unit: String,
    rotation: String,
    rotation_rule: String,
    bets_to_bank: String,
    hands_per_hour: u32,
    vary: Option<String>,
    variants: Vec<VariantFacts>,
    player_way: String,
    dealer_way: String,
    house_way: String,
}

/// Writes `summary.csv`, `outcomes.csv`, `rotation.csv`, `breakeven.csv`, `paired.csv` (with
/// variants) and `manifest.json` (last); returns the stdout summary. Shared by `table` and
/// `merge`.
pub(crate) fn write_reports(
    out: &Path,
    table: &Table,
    spec: &RunSpec,
    plan: &Plan,
    finished: &Finished<TableTally>,
    extra: RunExtra,
) -> anyhow::Result<String> {
    let t = &finished.tally;
    type WriterFn = fn(&mut Vec<u8>, &Table, &TableTally) -> std::io::Result<()>;
    let mut writers: Vec<(&str, WriterFn)> = vec![
        ("summary.csv", |w, tb, t| write_summary(w, tb, t)),
        ("outcomes.csv", |w, tb, t| write_outcomes(w, tb, t)),
        ("rotation.csv", |w, tb, t| write_rotation(w, tb, t)),
        ("breakeven.csv", |w, tb, t| write_breakeven(w, tb, t)),
    ];
    if table.variants.len() > 1 {
        writers.push(("paired.csv", |w, tb, t| write_paired(w, tb, t)));
    }
    let mut files = Vec::new();
    for (name, write) in writers {
        let mut bytes = Vec::new();
        write(&mut bytes, table, t)?;
        files.push((name, bytes));
    }
    let manifest = manifest(
        table,
        spec,
        plan,
        finished.facts.clone(),
        finished.rate(),
        extra,
    );
    crate::report::write_report_set(out, files, &manifest)?;
    Ok(summary_text(table, t, plan.seed, out, finished))
}

fn manifest(
    table: &Table,
    spec: &RunSpec,
    plan: &Plan,
    facts: RunFacts,
    rate: f64,
    extra: RunExtra,
) -> Manifest<TableConfig, RunExtra> {
    let option = |key: &str| spec.options.get(key).cloned();
    let text = |key: &str| option(key).unwrap_or_default();
    let fixed_dealers: Vec<Option<usize>> = (table.variants.iter())
        .map(|v| (!v.rotation.rotates()).then_some(v.layout.dealer).flatten())
        .collect();
    let player_dealer_seat = match fixed_dealers.first() {
        Some(&Some(d)) if fixed_dealers.iter().all(|&x| x == Some(d)) => Some(d + 1),
        _ => None,
    };
    let config = TableConfig {
        game: table.game.name.clone(),
        seats: option("seats"),
        player_dealer_seat,
        bank: option("bank"),
        collection: text("collection"),
        bank_collection: text("bank_collection"),
        time_collection: text("time_collection"),
        fee_unit: format!("1/{} chip", table::MICROS),
        rotation: text("rotation"),
        rotation_rule: "round d is banked by cycle[d mod cycle_hands]; a seat is eligible after \
                        bets_to_bank bets since the option last passed it"
            .to_string(),
        bets_to_bank: text("bets_to_bank"),
        hands_per_hour: table.hands_per_hour,
        vary: option("vary"),
        variants: (table.variants.iter())
            .map(|v| VariantFacts {
                label: v.label.clone(),
                cycle_hands: v.cycle.len(),
                hands_banked_per_cycle: v.cycle.hands().to_vec(),
            })
            .collect(),
        player_way: table.player.strategy.name().to_string(),
        dealer_way: table.dealer.strategy.name().to_string(),
        house_way: table.house.strategy.name().to_string(),
    };
    Manifest::of_run(facts, config, spec, plan, rate, extra)
}

fn summary_text(
    table: &Table,
    t: &TableTally,
    seed: u64,
    out: &Path,
    finished: &Finished<TableTally>,
) -> String {
    let hour = f64::from(table.hands_per_hour);
    let mut text = format!(
        "{}: {} rounds, seed {}, {} threads: {}\n\
         EV before collection: the net of the bets; after collection: less the fees paid\n",
        table.game.name,
        t.rounds,
        seed,
        finished.facts.threads,
        super::run_args::speed_text(
            finished.facts.wall_seconds,
            Some(finished.rate()),
            "rounds",
            finished.checkpoint.as_ref()
        ),
    );
    for (i, v) in table.variants.iter().enumerate() {
        let vt = &t.variants[i];
        let ran_out: u64 = vt.by_dealer.iter().map(|s| s.bank_ran_out).sum();
        let who = match (v.rotation.rotates(), v.layout.dealer) {
            (false, Some(d)) => format!("fixed player-dealer on seat {}", d + 1),
            _ => format!("rotating player-dealer ({} hands a cycle)", v.cycle.len()),
        };
        text += &format!(
            "\nvariant {}: {who}, bank {}; the bank ran out in {:.4}% of rounds\n\
             {:>6}  {:<26} {:>10} {:>9}  {:>11} {:>11} {:>11}  {:>14}  {:>9}\n\
             {:>6}  {:<26} {:>10} {:>9}  {:>11} {:>11} {:>11}  {:>14}  {:>9}\n",
            v.label,
            table::bank_text(v.bank),
            100.0 * ran_out as f64 / t.rounds as f64,
            "seat",
            "role",
            "bets",
            "bank",
            "EV before",
            "collection",
            "EV after",
            "EV before per",
            "no action",
            "",
            "",
            "",
            "",
            "chips/round",
            "chips/round",
            "chips/round",
            "chip of action",
            "",
        );
        for row in rows(table, i, t) {
            if row.role_kind == Some(Role::AsPlayer) || row.role_kind == Some(Role::AsDealer) {
                continue;
            }
            let Some(s) = row.stats else { continue };
            let ratio = s
                .ev_before_per_action
                .map_or("-".into(), |r| format!("{r:+.5}"));
            text += &format!(
                "{:>6}  {:<26} {:>10} {:>9}  {:>11.4} {:>11.4} {:>11.4}  {:>14}  {:>8.4}%\n",
                row.seat,
                row.role,
                row.bets,
                row.bank,
                s.ev_before,
                s.collection,
                s.ev_after,
                ratio,
                100.0 * s.no_action_share
            );
        }
        let room = room_collection(v);
        text += &format!(
            "card room collection: {room:.4} chips per round, {:.2} chips per hour at {} hands per hour\n",
            room * hour,
            table.hands_per_hour
        );
        let bank_fee = solutions(table, i, t)
            .into_iter()
            .find(|s| s.target == "player-dealer position" && s.unknown == table::Unknown::BankFee);
        if let Some(s) = bank_fee {
            text += &format!(
                "break-even bank fee (player-dealer position's EV after collection = 0): {:.4} chips per hand banked, 95% [{:.4}, {:.4}]\n",
                s.value, s.ci95.low, s.ci95.high
            );
        }
    }
    let pairs = paired(table, t);
    if !pairs.is_empty() {
        text +=
            "\npaired differences on the same deals (a - b), after collection, chips per round:\n";
        for p in pairs
            .iter()
            .filter(|p| p.subject != "card room" || p.after != 0.0)
        {
            if !(p.subject == "player-dealer position" || p.subject == "card room") {
                continue;
            }
            text += &format!(
                "  {} - {}: {}: {:+.4} [{:+.4}, {:+.4}] (paired SE {:.4}, independent runs {})\n",
                table.variants[p.a].label,
                table.variants[p.b].label,
                p.subject,
                p.after,
                p.after_ci95.low,
                p.after_ci95.high,
                p.se,
                p.independent_se.map_or("-".into(), |se| format!("{se:.4}"))
            );
        }
        text += "every seat's differences: paired.csv\n";
    }
    text += &format!("reports in {}\n", out.display());
    text
}
