//! Each figure a run's report prints, cross-checked against the counts and hashes it comes
//! from, so that a run directory that contradicts itself (an EV edited beside its counts, an
//! edge beside its EV, another run's manifest, a deleted row, an embedded text edited) is
//! refused, naming the file, line and figure.
//!
//! What is checked, by kind (every figure is written with 10 decimals, so two figures agree when
//! they differ by at most [`SAME`]):
//! - a wager of `simulate`, `exact bonus`, `exact main`: its `player_ev` is what its return
//!   lines pay (the sum of count x pays over the total; x the bets each hand pays, for a bet
//!   paid on other players' hands), as is its total row's return; each line's probability and
//!   return are its count's; its `house_edge` is minus its EV; its
//!   interval is centred on its EV and the 99% one holds the 95% one; its win, push and loss add
//!   up to 1; its SD is the one the lines' counts give where one bet is one hand (exact counts,
//!   or one player a round); a simulation's last convergence row, at the run's deals, is its
//!   summary's EV;
//! - a simulation's manifest: deals x players a round are the main wager's trials, and the
//!   chunks are the deals over the chunk size; a comparison's variant rows have the manifest's
//!   deals, and each pair's difference is its two variants' EVs;
//! - exact categories: the categories add up to their total, which is every 7-card hand of a
//!   52-, 53- or 54-card deck, and each probability is its count's;
//! - every input file the manifest embeds has the SHA-256 its `config_files` lists.
//!
//! What is not: counts moved between lines that pay the same (nothing in the files tells them
//! apart), and a directory whose every figure was recomputed to match (these are consistency
//! checks, not signatures).

use std::collections::BTreeMap;

use super::super::{CsvFile, RunKind};
use crate::engine::run::spec::RunSpec;
use crate::files::TextFile;
use crate::report::facts::InputFile;

/// The most two figures written with 10 decimals may differ by and be the same figure.
pub(super) const SAME: f64 = 2e-9;

/// The number in `column` of `row` (checked to be one, or "-", before these checks run).
fn number(file: &CsvFile, row: &[String], column: &str) -> Option<f64> {
    file.get(row, column).trim().parse::<f64>().ok()
}

/// Whether `a` and `b` are the same figure.
fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= SAME
}

/// A whole-number manifest field.
fn whole(manifest: &serde_json::Value, field: &str) -> Option<u64> {
    manifest.get(field).and_then(serde_json::Value::as_u64)
}

/// One wager's return lines: (line of the file, count, pays, return), its total row's (line,
/// count, return), and how many bets each line's count pays ([`ReturnLines::payees`]).
struct ReturnLines {
    lines: Vec<(u64, f64, f64, Option<f64>)>,
    total: (u64, f64, Option<f64>),
    payees: f64,
}

impl ReturnLines {
    /// The lines of `wager` in `returns` (its table was checked whole by `check_return_table`),
    /// in a run of `players` players a round.
    fn of(returns: &CsvFile, wager: &str, players: u64) -> Option<ReturnLines> {
        let counted = if returns.has("count") {
            "count"
        } else {
            "combinations"
        };
        let mut lines = Vec::new();
        let mut total = None;
        for (row, &line) in returns.rows.iter().zip(&returns.lines) {
            if returns.get(row, "wager") != wager {
                continue;
            }
            let event = returns.get(row, "event");
            let count = number(returns, row, counted)?;
            let paid = number(returns, row, "return");
            if event == "total" {
                total = Some((line, count, paid));
            } else if !event.starts_with(char::is_whitespace) {
                lines.push((line, count, number(returns, row, "pays")?, paid));
            }
        }
        let total = total?;
        let payees = Self::payees_of(&lines, total.1, players);
        Some(ReturnLines {
            lines,
            total,
            payees,
        })
    }

    /// How many bets a line's count pays: 1, or for a bet paid on other players' hands (an
    /// Envy bonus) one for each other player of the round, `players - 1` (none when a player
    /// plays alone): whichever of the two its largest line's return is of its probability x
    /// pays. Any other ratio is left at 1, for [`check_lines`] to refuse.
    fn payees_of(lines: &[(u64, f64, f64, Option<f64>)], total: f64, players: u64) -> f64 {
        let others = players.saturating_sub(1) as f64;
        let largest = (lines.iter())
            .filter_map(|&(_, n, pays, ret)| Some((n / total * pays, ret?)))
            .max_by(|a, b| a.0.abs().total_cmp(&b.0.abs()));
        match largest {
            Some((paid, ret)) if paid.abs() > 1e-6 && same(ret, others * paid) => others,
            _ => 1.0,
        }
    }

    /// The EV the lines pay: the sum of count x pays (x payees) over the total.
    fn ev(&self) -> f64 {
        let paid: f64 = self.lines.iter().map(|(_, n, pays, _)| n * pays).sum();
        self.payees * paid / self.total.1
    }

    /// The SD of one bet the lines give (a bet paid on one hand: one payee), from the squared
    /// deviations from the EV: `E[x^2] - E[x]^2` cancels to about 1e-8 where every bet pays the
    /// same amount that is not a whole number (a run whose SD is 0 was refused).
    fn sd(&self) -> f64 {
        let ev = self.ev();
        let squares: f64 = (self.lines.iter())
            .map(|(_, n, p, _)| n * (p - ev) * (p - ev))
            .sum();
        (squares / self.total.1).sqrt()
    }
}

/// The wagers of a `simulate`, `exact bonus` or `exact main` run: each summary row against its
/// return lines and itself, a simulation's convergence, and a simulation's manifest.
pub fn check_wager_figures(
    kind: &RunKind,
    manifest: &serde_json::Value,
    csv: &BTreeMap<String, CsvFile>,
) -> Result<(), String> {
    let (summary, returns) = (&csv["summary.csv"], &csv["returns.csv"]);
    let players = whole(manifest, "players_per_deal").unwrap_or(1);
    let one_hand_a_bet = *kind != RunKind::Simulate || players == 1;
    // The manifest first: another run's manifest is named as such, not as a cut-short file.
    if *kind == RunKind::Simulate {
        check_simulation_manifest(manifest, summary, players)?;
    }
    for (row, &line) in summary.rows.iter().zip(&summary.lines) {
        let wager = summary.get(row, "wager");
        let at = format!("summary.csv line {line}, wager '{wager}'");
        let Some(lines) = ReturnLines::of(returns, wager, players) else {
            continue;
        };
        check_lines(returns, &lines)?;
        let Some(ev) = number(summary, row, "player_ev") else {
            continue;
        };
        let counted = lines.ev();
        if !same(ev, counted) {
            return Err(format!(
                "{at}: player_ev {ev:.10}, but its lines in returns.csv pay {counted:.10} (count x \
                 pays over the total): the files contradict each other (edited or damaged)"
            ));
        }
        check_summary_row(summary, row, &at, ev)?;
        if one_hand_a_bet
            && lines.payees == 1.0
            && let Some(sd) = number(summary, row, "sd")
            && (sd - lines.sd()).abs() > 1e-8 * sd.max(1.0)
        {
            return Err(format!(
                "{at}: sd {sd:.10}, but its lines in returns.csv give {:.10}: the files \
                 contradict each other (edited or damaged)",
                lines.sd()
            ));
        }
        if let Some(convergence) = csv.get("convergence.csv") {
            check_convergence_end(convergence, manifest, wager, ev)?;
        }
    }
    Ok(())
}

/// Each line's probability and return are its count's (the return x its payees), and the total
/// row's return is the EV.
fn check_lines(returns: &CsvFile, lines: &ReturnLines) -> Result<(), String> {
    let total = lines.total.1;
    for &(line, count, pays, paid) in &lines.lines {
        let p = count / total;
        let row = &returns.rows[(returns.lines.iter()).position(|&l| l == line).unwrap_or(0)];
        let fields = [
            ("probability", number(returns, row, "probability"), p),
            ("return", paid, lines.payees * p * pays),
        ];
        for (column, found, expected) in fields {
            if let Some(x) = found
                && !same(x, expected)
            {
                return Err(format!(
                    "returns.csv line {line}, column {column}: {x:.10}, but its count gives \
                     {expected:.10} (edited or damaged)"
                ));
            }
        }
    }
    let (line, _, total_return) = lines.total;
    match total_return {
        Some(r) if !same(r, lines.ev()) => Err(format!(
            "returns.csv line {line}, column return: the total {r:.10} is not what its lines pay \
             ({:.10}): edited or damaged",
            lines.ev()
        )),
        _ => Ok(()),
    }
}

/// A summary row against its own EV: the edge is minus the EV, the intervals are centred on
/// it (the 99% one holding the 95% one), and win, push and loss add up to 1.
fn check_summary_row(file: &CsvFile, row: &[String], at: &str, ev: f64) -> Result<(), String> {
    if let Some(edge) = number(file, row, "house_edge")
        && !same(edge, -ev)
    {
        return Err(format!(
            "{at}: house_edge {edge:.10} is not minus its player_ev {ev:.10} (edited)"
        ));
    }
    check_intervals(
        file,
        row,
        at,
        ev,
        ["ci95_low", "ci95_high", "ci99_low", "ci99_high"],
    )?;
    let shares: Option<Vec<f64>> = (["win", "push", "loss"].iter())
        .map(|c| number(file, row, c))
        .collect();
    if let Some(shares) = shares
        && !same(shares.iter().sum(), 1.0)
    {
        return Err(format!(
            "{at}: win, push and loss add up to {:.10}, not 1 (edited or damaged)",
            shares.iter().sum::<f64>()
        ));
    }
    Ok(())
}

/// The 95% and 99% intervals named by `columns` (low, high, low, high) are centred on `value`
/// and nested.
fn check_intervals(
    file: &CsvFile,
    row: &[String],
    at: &str,
    value: f64,
    columns: [&str; 4],
) -> Result<(), String> {
    let ends: Option<Vec<f64>> = columns.iter().map(|c| number(file, row, c)).collect();
    let Some(ends) = ends else {
        return Ok(());
    };
    let centred = |low: f64, high: f64| same((low + high) / 2.0, value);
    let nested = ends[2] <= ends[0] + SAME && ends[1] <= ends[3] + SAME;
    if !centred(ends[0], ends[1]) || !centred(ends[2], ends[3]) || !nested {
        return Err(format!(
            "{at}: its intervals ({} {:.10} to {:.10}, {} {:.10} to {:.10}) are not centred on \
             {value:.10} and nested (edited or damaged)",
            columns[0], ends[0], ends[1], columns[2], ends[2], ends[3]
        ));
    }
    Ok(())
}

/// A simulation's convergence row at the run's deals has its summary's EV.
fn check_convergence_end(
    convergence: &CsvFile,
    manifest: &serde_json::Value,
    wager: &str,
    ev: f64,
) -> Result<(), String> {
    let Some(deals) = whole(manifest, "deals") else {
        return Ok(());
    };
    let end = (convergence.rows.iter().zip(&convergence.lines))
        .filter(|(r, _)| convergence.get(r, "wager") == wager)
        .find(|(r, _)| number(convergence, r, "deals") == Some(deals as f64));
    let Some((row, line)) = end else {
        return Err(format!(
            "convergence.csv: no row of wager '{wager}' at all {deals} deals: the file is cut \
             short or edited"
        ));
    };
    if let Some(x) = number(convergence, row, "player_ev")
        && !same(x, ev)
    {
        return Err(format!(
            "convergence.csv line {line}: wager '{wager}' at all {deals} deals has player_ev \
             {x:.10}, but summary.csv has {ev:.10} (edited, or the files of two runs)"
        ));
    }
    Ok(())
}

/// A simulation's manifest against its summary: deals x players a round are the main wager's
/// trials (and the manifest's own `trials`), and the chunks are the deals over the chunk size.
fn check_simulation_manifest(
    manifest: &serde_json::Value,
    summary: &CsvFile,
    players: u64,
) -> Result<(), String> {
    let (Some(deals), Some(chunk_size)) = (whole(manifest, "deals"), whole(manifest, "chunk_size"))
    else {
        return Ok(());
    };
    let chunks = whole(manifest, "chunks");
    if chunk_size == 0 || chunks != Some(deals.div_ceil(chunk_size)) {
        return Err(format!(
            "manifest.json: {chunks:?} chunks is not {deals} deals in chunks of {chunk_size} \
             (edited)"
        ));
    }
    let hands = deals.checked_mul(players);
    let main = (summary.rows.iter().zip(&summary.lines))
        .find(|(r, _)| super::super::MAIN_NAMES.contains(&summary.get(r, "wager")));
    if let Some((row, line)) = main
        && let Ok(trials) = summary.get(row, "trials").trim().parse::<u64>()
    {
        let listed = whole(manifest, "trials").unwrap_or(trials);
        if hands != Some(trials) || listed != trials {
            return Err(format!(
                "manifest.json: {deals} deals of {players} players a round, but summary.csv line \
                 {line} counts {trials} bets of the main wager: the manifest of another run, or \
                 edited"
            ));
        }
    }
    Ok(())
}

/// A comparison's variant rows against the manifest's deals and their own EVs, and each pair's
/// difference against its two variants.
pub fn check_compare_figures(manifest: &serde_json::Value, file: &CsvFile) -> Result<(), String> {
    let deals = whole(manifest, "deals");
    let mut evs = BTreeMap::new();
    for (row, &line) in file.rows.iter().zip(&file.lines) {
        if file.get(row, "kind") != "variant" {
            continue;
        }
        let at = format!("compare.csv line {line}, '{}'", file.get(row, "a"));
        let rows = number(file, row, "deals");
        if let Some(deals) = deals
            && rows != Some(deals as f64)
        {
            return Err(format!(
                "{at}: {} deals, but manifest.json says {deals}: the manifest of another run, or \
                 edited",
                file.get(row, "deals")
            ));
        }
        if let Some(ev) = number(file, row, "player_ev") {
            check_summary_row(file, row, &at, ev)?;
            evs.insert((file.get(row, "side"), file.get(row, "a")), ev);
        }
    }
    for (row, &line) in file.rows.iter().zip(&file.lines) {
        if file.get(row, "kind") != "pair" {
            continue;
        }
        let side = file.get(row, "side");
        let (a, b) = (
            evs.get(&(side, file.get(row, "a"))),
            evs.get(&(side, file.get(row, "b"))),
        );
        if let (Some(a), Some(b), Some(d)) = (a, b, number(file, row, "ev_difference"))
            && !same(d, a - b)
        {
            return Err(format!(
                "compare.csv line {line}: ev_difference {d:.10} is not its variants' EVs' \
                 difference {:.10} (edited or damaged)",
                a - b
            ));
        }
    }
    Ok(())
}

/// A card-room table's rows count no more rounds than the run dealt.
pub fn check_table_figures(manifest: &serde_json::Value, file: &CsvFile) -> Result<(), String> {
    let Some(deals) = whole(manifest, "deals") else {
        return Ok(());
    };
    for (row, &line) in file.rows.iter().zip(&file.lines) {
        if let Some(rounds) = number(file, row, "rounds")
            && rounds > deals as f64
        {
            return Err(format!(
                "summary.csv line {line}: {rounds} rounds, but manifest.json says the run dealt \
                 {deals}: the manifest of another run, or edited"
            ));
        }
    }
    Ok(())
}

/// The categories add up to their total row, which is every 7-card hand of a 52-, 53- or
/// 54-card deck, and each probability is its count's.
pub fn check_categories(file: &CsvFile) -> Result<(), String> {
    let count = |row: &[String]| file.get(row, "combinations").trim().parse::<u128>().ok();
    let rows: Vec<(&Vec<String>, u64)> = file.rows.iter().zip(file.lines.iter().copied()).collect();
    let Some(&(total_row, total_line)) = rows
        .iter()
        .find(|(r, _)| file.get(r, "category") == "total")
    else {
        return Err("categories.csv: no 'total' row: cut short or edited".to_string());
    };
    let total = count(total_row).unwrap_or(0);
    let hands: Vec<u128> = (52..=54u128).map(choose7).collect();
    let sum: u128 = (rows.iter())
        .filter(|(r, _)| file.get(r, "category") != "total")
        .filter_map(|(r, _)| count(r))
        .sum();
    if sum != total || !hands.contains(&total) {
        return Err(format!(
            "categories.csv line {total_line}: the categories add up to {sum}, the total row says \
             {total}, and a deck has {} (52, 53 or 54 cards): a row was deleted or edited",
            hands
                .iter()
                .map(u128::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    for (row, line) in rows {
        let p = count(row).unwrap_or(0) as f64 / total as f64;
        if let Some(x) = number(file, row, "probability")
            && !same(x, p)
        {
            return Err(format!(
                "categories.csv line {line}, column probability: {x:.12}, but its count gives \
                 {p:.12} (edited or damaged)"
            ));
        }
    }
    Ok(())
}

/// The 7-card hands of an `n`-card deck.
fn choose7(n: u128) -> u128 {
    (0..7).fold(1, |c, k| c * (n - k) / (k + 1))
}

/// Every input text the manifest's spec embeds has the SHA-256 its `config_files` lists for the
/// same origin (a text edited after the run, or the listing, or a listing that lost the file, is
/// refused).
pub fn check_inputs(spec: Option<&RunSpec>, inputs: &[InputFile]) -> Result<(), String> {
    let Some(spec) = spec else {
        return Ok(());
    };
    let embedded = std::iter::once(&spec.game)
        .chain(&spec.side_bets)
        .chain(&spec.paytables)
        .chain(spec.strategies.iter().flat_map(|s| &s.sources));
    for file in embedded {
        let listed: Vec<&str> = (inputs.iter())
            .filter(|i| i.origin == file.origin)
            .filter_map(|i| i.sha256.as_deref())
            .collect();
        match listed.first() {
            None => {
                return Err(format!(
                    "manifest.json: it embeds the text of {} but its config_files list no SHA-256 \
                     for it: the listing was edited",
                    file.origin
                ));
            }
            Some(first) if !listed.contains(&file.sha256().as_str()) => {
                return Err(mismatch(file, first));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// The error for an embedded text whose SHA-256 is not the listed one.
fn mismatch(file: &TextFile, listed: &str) -> String {
    format!(
        "manifest.json: the text of {} it embeds has SHA-256 {}, but its config_files list {}: \
         the text or the listing was edited",
        file.origin,
        &file.sha256()[..16],
        &listed[..listed.len().min(16)]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three bets that each pay the same 0.95 have SD 0 (the cancelling formula gave 1.5e-8, and
    /// the run check refused a simulation whose summary said 0).
    #[test]
    fn bets_that_all_pay_alike_have_no_spread() {
        for pays in [0.95, -1.05, 0.9999] {
            let lines = ReturnLines {
                lines: vec![(2, 3.0, pays, None)],
                total: (3, 3.0, None),
                payees: 1.0,
            };
            assert!(lines.sd() < 1e-12, "{pays}: {}", lines.sd());
        }
    }
}
