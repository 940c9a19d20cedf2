//! The reports of a simulation: `summary.csv` (one row per wager) and `returns.csv` (the Event |
//! Pays | Count | Probability | Return table per wager, then Wilson 95% bounds on each
//! probability). Rows whose Return adds up to the Total come first; "of which" rows break a row
//! down and have "-" for Pays and Return, so they are not added twice. Main-wager rows are the
//! game's [`return_rows`], counted from the tally's outcome counters.

use std::io::{self, Write};

use super::stats::{WagerStats, wilson};
use super::{WAGER_COLUMNS, fixed, units, wager_fields};
use crate::engine::simulate::{SideBetTally, SimTally};
use crate::game::paytable::Paytable;
use crate::game::wager::{BET_UNITS, MainWager, return_rows};

/// What the CSV reports are made from.
pub struct Report {
    /// The wager's name in report rows.
    pub wager_name: String,
    pub wager: MainWager,
    pub tally: SimTally,
    pub stats: WagerStats,
    /// The game's side bets, in the game's order.
    pub side_bets: Vec<SideBetReport>,
}

/// One side bet's part of a report.
pub struct SideBetReport {
    pub table: Paytable,
    pub tally: SideBetTally,
    pub stats: WagerStats,
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

/// `returns.csv`: Event, Pays, Count, Probability, Return, then Wilson 95% probability bounds.
pub fn write_returns<W: Write>(w: W, report: &Report) -> io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record([
        "wager",
        "event",
        "pays",
        "count",
        "probability",
        "return",
        "probability_ci95_low",
        "probability_ci95_high",
    ])?;
    let hands = report.tally.hands;
    for row in return_rows(&report.wager) {
        let count: u64 = (row.outcomes.iter())
            .map(|&o| report.tally.outcomes.get(o))
            .sum();
        let p = count as f64 / hands as f64;
        let bounds = wilson(count, hands, 0.95);
        let (pays, ret) = match row.pays {
            Some(u) => (units(u), fixed(p * u as f64 / BET_UNITS as f64)),
            None => ("-".to_string(), "-".to_string()),
        };
        out.write_record([
            report.wager_name.clone(),
            row.event.to_string(),
            pays,
            count.to_string(),
            fixed(p),
            ret,
            fixed(bounds.low),
            fixed(bounds.high),
        ])?;
    }
    out.write_record([
        report.wager_name.clone(),
        "total".to_string(),
        "-".to_string(),
        hands.to_string(),
        fixed(1.0),
        fixed(report.stats.player_ev),
        "-".to_string(),
        "-".to_string(),
    ])?;
    for bet in &report.side_bets {
        side_bet_returns(&mut out, bet)?;
    }
    out.flush()
}

/// A side bet's returns rows: each line, what no line pays, and the Total (the player's EV).
fn side_bet_returns<W: Write>(out: &mut csv::Writer<W>, bet: &SideBetReport) -> io::Result<()> {
    let hands = bet.stats.trials;
    let lines = bet.table.lines.len();
    let rows = bet
        .table
        .lines
        .iter()
        .map(|line| (line.event.name(), line.pays.ratio()))
        .chain(std::iter::once(("no line pays".to_string(), -1.0)));
    for ((event, pays), &count) in rows.zip(&bet.tally.lines[..=lines]) {
        let p = count as f64 / hands as f64;
        let bounds = wilson(count, hands, 0.95);
        out.write_record([
            bet.table.name.clone(),
            event,
            format!("{pays:.4}"),
            count.to_string(),
            fixed(p),
            fixed(p * pays),
            fixed(bounds.low),
            fixed(bounds.high),
        ])?;
    }
    out.write_record([
        bet.table.name.clone(),
        "total".to_string(),
        "-".to_string(),
        hands.to_string(),
        fixed(1.0),
        fixed(bet.stats.player_ev),
        "-".to_string(),
        "-".to_string(),
    ])?;
    Ok(())
}
