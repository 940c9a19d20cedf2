//! The reports of a simulation: `summary.csv` (one row per wager), `returns.csv` (the Event |
//! Label | Pays | Count | Probability | 1 in X | Return table per wager, then Wilson 95% bounds on
//! each probability) and `convergence.csv` (each wager's EV after the first 1, 2, 4, 8, ...
//! deals). Rows whose Return adds up to the Total come first; "of which" rows break a row down
//! and have "-" for Pays and Return, so they are not added twice. Main-wager rows are the game's
//! [`return_rows`], counted from the tally's outcome counters. Pays are the net per unit bet
//! ([`units`]: a losing bet -1; a flat collection is part of every main-wager row's pay), as in
//! every report.

use std::io::{self, Write};

use super::stats::{WagerStats, mean_interval, wilson_of_share};
use super::{WAGER_COLUMNS, fixed, one_in, units, wager_fields};
use crate::engine::simulate::{SideBetTally, SimTally, deals_through_block};
use crate::game::paytable::Paytable;
use crate::game::wager::{BET_UNITS, MainWager, return_rows};

/// What the CSV reports are made from.
pub struct Report {
    /// The wager's name in report rows.
    pub wager_name: String,
    pub wager: MainWager,
    pub tally: SimTally,
    pub stats: WagerStats,
    /// Players per round.
    pub players: u8,
    /// The game's side bets, in the game's order.
    pub side_bets: Vec<SideBetReport>,
}

/// One side bet's part of a report.
pub struct SideBetReport {
    pub table: Paytable,
    pub tally: SideBetTally,
    pub stats: WagerStats,
    /// Pay units per unit bet of its tally's sums.
    pub unit: i64,
}

/// `summary.csv`: one row per wager.
pub fn write_summary<W: Write>(w: W, report: &Report) -> io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    let head = ["wager", "method", "trials"];
    out.write_record(head.iter().chain(&WAGER_COLUMNS))?;
    summary_row(&mut out, &report.wager_name, &report.stats)?;
    for bet in &report.side_bets {
        summary_row(&mut out, &bet.table.name, &bet.stats)?;
    }
    out.flush()
}

fn summary_row<W: Write>(out: &mut csv::Writer<W>, wager: &str, s: &WagerStats) -> io::Result<()> {
    let head = [
        wager.to_string(),
        "simulation".to_string(),
        s.trials.to_string(),
    ];
    out.write_record(head.into_iter().chain(wager_fields(s)))?;
    Ok(())
}

/// The columns of `returns.csv`.
pub const RETURNS_COLUMNS: [&str; 10] = [
    "wager",
    "event",
    "label",
    "pays",
    "count",
    "probability",
    "one_in",
    "return",
    "probability_ci95_low",
    "probability_ci95_high",
];

/// One returns row: event, label, pays in bet units (None: an "of which" row), how many
/// players each counted hand pays (1 but for an Envy bonus), count.
struct Row {
    event: String,
    label: String,
    pays: Option<i64>,
    payees: u8,
    count: u64,
}

/// `returns.csv`: per wager, its rows (Event, Label, Pays, Count, Probability, 1 in X, Return,
/// Wilson 95% probability bounds) and a Total row whose return is the player's EV.
pub fn write_returns<W: Write>(w: W, report: &Report) -> io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record(RETURNS_COLUMNS)?;
    let rows = return_rows(&report.wager).into_iter().map(|row| Row {
        event: row.event.to_string(),
        label: row.label.to_string(),
        pays: row.pays,
        payees: 1,
        count: (row.outcomes.iter())
            .map(|&o| report.tally.outcomes.get(o))
            .sum(),
    });
    wager_returns(&mut out, &report.wager_name, rows, &report.stats)?;
    for bet in &report.side_bets {
        let rows = side_bet_rows(bet, report.players);
        wager_returns(&mut out, &bet.table.name, rows, &bet.stats)?;
    }
    out.flush()
}

/// A side bet's rows: each line, then what no line pays (-1; an Envy bonus 0). An Envy bonus's
/// counts are the hands making each line, each paid to every other player of the round: its
/// pays are per paying hand, its return per player.
fn side_bet_rows(bet: &SideBetReport, players: u8) -> impl Iterator<Item = Row> + '_ {
    let lines = bet
        .table
        .lines
        .iter()
        .map(|line| (line.event.name(), line.label.clone(), line.pays.units()));
    let no_line = (
        "no line pays".to_string(),
        "No line pays".to_string(),
        bet.table.no_line_units(),
    );
    let payees = bet.table.payees(players);
    (lines.chain(std::iter::once(no_line)))
        .zip(bet.tally.lines)
        .map(move |((event, label, pays), count)| Row {
            event,
            label,
            pays: Some(pays),
            payees,
            count,
        })
}

/// One wager's rows and its Total row.
fn wager_returns<W: Write>(
    out: &mut csv::Writer<W>,
    wager: &str,
    rows: impl Iterator<Item = Row>,
    stats: &WagerStats,
) -> io::Result<()> {
    let hands = stats.trials;
    for row in rows {
        let p = row.count as f64 / hands as f64;
        // The round is the sample: several players' hands share the dealer's, so they are not
        // independent. A round's share of hands on a line has variance at most p(1 - p), so the
        // interval over rounds is exact in width for a line every player makes at once (the
        // dealer not qualifying) and conservative for the rest; with one player, the hand's.
        let bounds = wilson_of_share(p, stats.rounds, 0.95);
        let (pays, ret) = match row.pays {
            Some(u) => {
                let paid = p * f64::from(row.payees) * u as f64 / BET_UNITS as f64;
                (units(u), fixed(paid))
            }
            None => ("-".to_string(), "-".to_string()),
        };
        out.write_record([
            wager.to_string(),
            row.event,
            row.label,
            pays,
            row.count.to_string(),
            fixed(p),
            one_in(row.count, hands),
            ret,
            fixed(bounds.low),
            fixed(bounds.high),
        ])?;
    }
    let dash = || "-".to_string();
    out.write_record([
        wager.to_string(),
        "total".to_string(),
        "Total".to_string(),
        dash(),
        hands.to_string(),
        fixed(1.0),
        dash(),
        fixed(stats.player_ev),
        dash(),
        dash(),
    ])?;
    Ok(())
}

/// `convergence.csv`: for each wager, its EV over the first `deals` deals of the run, for
/// `deals` = 1, 2, 4, ..., and the run's deals, from the tally's block sums; `ci95_low`,
/// `ci95_high` are that EV +/- 1.96 times the run's SD (the summary's) over sqrt(deals).
pub fn write_convergence<W: Write>(w: W, report: &Report) -> io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record(["wager", "deals", "player_ev", "ci95_low", "ci95_high"])?;
    let rounds = report.tally.rounds;
    let players = i128::from(report.players);
    let mut wagers = vec![(
        report.wager_name.as_str(),
        &report.tally.block_net,
        i128::from(BET_UNITS),
        report.stats.sd,
    )];
    for bet in &report.side_bets {
        let unit = i128::from(bet.unit);
        wagers.push((&bet.table.name, &bet.tally.block_net, unit, bet.stats.sd));
    }
    for (wager, blocks, unit, sd) in wagers {
        let mut net = 0i128;
        for (block, &sum) in blocks.iter().enumerate() {
            net += sum;
            let deals = deals_through_block(block, rounds);
            let ev = net as f64 / (i128::from(deals) * players * unit) as f64;
            let ci = mean_interval(ev, sd, deals, 0.95);
            out.write_record([
                wager.to_string(),
                deals.to_string(),
                fixed(ev),
                fixed(ci.low),
                fixed(ci.high),
            ])?;
        }
    }
    out.flush()
}
