//! Report writers: `summary.csv`, `returns.csv` and `manifest.json` of a simulation.
//!
//! Writers are pure functions of a [`Report`] (or a [`Manifest`]) into any `Write`: fixed column
//! order, fixed float formatting ([`fixed`]: ten decimals, never "-0"), payouts written exactly
//! from integer bet units, no timestamps in data rows. Equal tallies therefore give byte-identical
//! CSVs; only the manifest records run-specific facts (wall time, threads, rate).
//!
//! `returns.csv` is the Event | Pays | Count | Probability | Return table per wager, then Wilson
//! 95% bounds on each probability. Rows whose Return adds up to the Total come first; "of which"
//! rows break a row down and have "-" for Pays and Return, so they are not added twice.

pub mod audit;
pub mod stats;

use std::io::{self, Write};

use serde::Serialize;

use crate::engine::simulate::{SideBetTally, Tally};
use crate::game::paytable::Paytable;
use crate::game::wager::{BET_UNITS, MainWager};
use crate::report::stats::{WagerStats, wilson};

/// What the CSV reports are made from.
pub struct Report {
    /// The wager's name in report rows.
    pub wager_name: String,
    pub wager: MainWager,
    pub tally: Tally,
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

/// A float with ten decimals; a value that rounds to zero is written "0.0000000000".
pub fn fixed(x: f64) -> String {
    let text = format!("{x:.10}");
    match text.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => rest.to_string(),
        _ => text,
    }
}

/// An amount in bet units as a decimal multiple of the bet, exactly ("0.9500", "-1.0000").
pub fn units(amount: i64) -> String {
    let sign = if amount < 0 { "-" } else { "" };
    let a = amount.unsigned_abs();
    let unit = BET_UNITS as u64;
    format!("{sign}{}.{:04}", a / unit, a % unit)
}

/// `summary.csv`: one row per wager.
pub fn write_summary<W: Write>(w: W, report: &Report) -> io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record([
        "wager",
        "method",
        "trials",
        "player_ev",
        "house_edge",
        "win",
        "push",
        "loss",
        "sd",
        "ci95_low",
        "ci95_high",
        "ci99_low",
        "ci99_high",
    ])?;
    summary_row(&mut out, &report.wager_name, &report.stats)?;
    for bet in &report.side_bets {
        summary_row(&mut out, &bet.table.name, &bet.stats)?;
    }
    out.flush()
}

fn summary_row<W: Write>(out: &mut csv::Writer<W>, wager: &str, s: &WagerStats) -> io::Result<()> {
    out.write_record([
        wager.to_string(),
        "simulation".to_string(),
        s.trials.to_string(),
        fixed(s.player_ev),
        fixed(-s.player_ev),
        fixed(s.win),
        fixed(s.push),
        fixed(s.loss),
        fixed(s.sd),
        fixed(s.ci95.low),
        fixed(s.ci95.high),
        fixed(s.ci99.low),
        fixed(s.ci99.high),
    ])?;
    Ok(())
}

/// One returns row: (event, pays in units or None for "of which" rows, count, probability base).
struct Row {
    event: &'static str,
    pays: Option<i64>,
    count: u64,
}

/// The returns rows of the main wager, in report order.
fn main_wager_rows(t: &Tally, w: &MainWager) -> Vec<Row> {
    let row = |event, pays, count| Row { event, pays, count };
    let mut rows = vec![row("win both", Some(w.win_units()), t.win)];
    if w.overqualifier.is_some() {
        rows.push(row(
            "dealer overqualifies",
            Some(w.overqualifier_units()),
            t.overqualified,
        ));
    }
    rows.push(row("push", Some(0), t.push));
    if w.qualification != crate::game::wager::Qualification::Always {
        rows.push(row("dealer not qualified (push)", Some(0), t.not_qualified));
    }
    rows.push(row("lose", Some(-BET_UNITS), t.loss));
    rows.push(row("  of which copies", None, t.copy_losses));
    rows.push(row("  of which fouls", None, t.fouls));
    if w.fee_units() > 0 {
        rows.push(row("collection (every bet)", Some(-w.fee_units()), t.hands));
    }
    rows
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
    for row in main_wager_rows(&report.tally, &report.wager) {
        let p = row.count as f64 / hands as f64;
        let bounds = wilson(row.count, hands, 0.95);
        let (pays, ret) = match row.pays {
            Some(u) => (units(u), fixed(p * u as f64 / BET_UNITS as f64)),
            None => ("-".to_string(), "-".to_string()),
        };
        out.write_record([
            report.wager_name.clone(),
            row.event.to_string(),
            pays,
            row.count.to_string(),
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

/// A configuration file the run read, by its SHA-256.
#[derive(Serialize, Debug, Clone)]
pub struct ConfigFile {
    /// What it configures ("game", "player way", "dealer way").
    pub role: String,
    /// Its name or path as given, or its shipped path.
    pub origin: String,
    /// SHA-256 of its text; None for a strategy with no file.
    pub sha256: Option<String>,
}

/// `manifest.json`: everything needed to reproduce a run, and how fast it went.
#[derive(Serialize, Debug, Clone)]
pub struct Manifest {
    pub tool: String,
    pub version: String,
    pub git_commit: String,
    pub command_line: String,
    pub game: String,
    pub main_wager: String,
    pub player_way: String,
    pub dealer_way: String,
    pub players_per_deal: u8,
    pub seed: u64,
    pub deals: u64,
    pub trials: u64,
    pub chunk_size: u64,
    pub chunks: u64,
    pub rng: String,
    pub shuffle: String,
    pub config_files: Vec<ConfigFile>,
    pub threads: usize,
    pub wall_seconds: f64,
    pub deals_per_second: f64,
}

/// Writes the manifest as pretty JSON with a final newline.
pub fn write_manifest<W: Write>(mut w: W, manifest: &Manifest) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut w, manifest)?;
    w.write_all(b"\n")?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_never_writes_negative_zero() {
        assert_eq!(fixed(-1e-13), "0.0000000000");
        assert_eq!(fixed(-0.25), "-0.2500000000");
        assert_eq!(fixed(0.0), "0.0000000000");
    }

    #[test]
    fn units_are_exact_decimals() {
        assert_eq!(units(9_500), "0.9500");
        assert_eq!(units(-10_000), "-1.0000");
        assert_eq!(units(28_500), "2.8500");
        assert_eq!(units(0), "0.0000");
    }
}
