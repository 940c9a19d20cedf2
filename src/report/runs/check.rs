//! What a run directory must hold before `paigow report` reads a figure from it, checked once,
//! where the run is read ([`super::RunDir::read`]): the manifest fields its kind's sections
//! print, the files its kind writes (each with rows), the columns the report reads, every
//! numeric cell a finite number in its range, and each wager's return table whole.
//!
//! Then each figure the report prints is cross-checked against the counts and hashes it comes
//! from ([`figures`]): a wager's EV against its return lines' counts and pays, its house edge
//! against its EV, its interval around its EV, its SD against its counts (where one bet is one
//! hand), its convergence's last row against its summary; the manifest's deals, players and
//! chunks against the files' trials; each category against the categories' total and the deck;
//! and each input text the manifest embeds against the SHA-256 it lists ([`check_inputs`]).
//! The house-way workbench's runs (`cost-way`, `sweep-way`, `derive-way`) are cross-checked in
//! exact fractions ([`workbench`]): each decimal against its fraction, and the fractions
//! against each other (rules' costs summing to the gap, a sweep's changes, a frontier's steps).
//!
//! Invariant: a run of a known kind that passed [`check`] has, for every wager in its
//! `summary.csv`, one summary row, return rows ending in one `total` row whose count is the sum
//! of its lines' counts (at least one line with a pays), and (a simulation) convergence rows;
//! and every cell of a column named in [`RULES`] parses as a number in its range, or is "-"
//! where the command writes "-" (a workbench run's files have every column their writer writes,
//! and only a `cost-way` run's `classes.csv` may be header-only). A run of a command this reader
//! does not know is only checked for rows. Columns and files this reader does not know are never refused.

use std::collections::BTreeMap;

mod figures;
mod workbench;

use super::{CsvFile, MAIN_NAMES, RunKind};
use crate::report::{WAGER_COLUMNS, cost_way, derive_way, sweep_way};

pub use figures::check_inputs;

/// What a numeric column holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rule {
    /// A whole number, 0 or more.
    Count,
    /// A probability or a share, from 0 to 1.
    Fraction,
    /// A finite number, 0 or more (an SD, a variance, a ratio).
    NonNegative,
    /// A finite number.
    Finite,
}

impl Rule {
    fn holds(self, x: f64, text: &str) -> bool {
        x.is_finite()
            && match self {
                Rule::Count => x >= 0.0 && text.bytes().all(|b| b.is_ascii_digit()),
                Rule::Fraction => (0.0..=1.0).contains(&x),
                Rule::NonNegative => x >= 0.0,
                Rule::Finite => true,
            }
    }

    fn expected(self) -> &'static str {
        match self {
            Rule::Count => "a whole number, 0 or more",
            Rule::Fraction => "a number from 0 to 1",
            Rule::NonNegative => "a finite number, 0 or more",
            Rule::Finite => "a finite number",
        }
    }
}

/// The numeric columns the report reads, by name, in any file of a known kind of run.
const RULES: &[(&str, Rule)] = &[
    ("trials", Rule::Count),
    ("count", Rule::Count),
    ("combinations", Rule::Count),
    ("total", Rule::Count),
    ("deals", Rule::Count),
    ("out_of", Rule::Count),
    ("claimed_combinations", Rule::Count),
    ("probability", Rule::Fraction),
    ("probability_ci95_low", Rule::Fraction),
    ("probability_ci95_high", Rule::Fraction),
    ("win", Rule::Fraction),
    ("push", Rule::Fraction),
    ("loss", Rule::Fraction),
    ("hit_rate", Rule::Fraction),
    ("set_differently", Rule::Fraction),
    ("result_differs", Rule::Fraction),
    ("sd", Rule::NonNegative),
    ("variance", Rule::NonNegative),
    ("one_in", Rule::NonNegative),
    ("se_difference", Rule::NonNegative),
    ("independent_se", Rule::NonNegative),
    ("paired_to_independent", Rule::NonNegative),
    ("player_ev", Rule::Finite),
    ("house_edge", Rule::Finite),
    ("ci95_low", Rule::Finite),
    ("ci95_high", Rule::Finite),
    ("ci99_low", Rule::Finite),
    ("ci99_high", Rule::Finite),
    ("pays", Rule::Finite),
    ("return", Rule::Finite),
    ("ev_difference", Rule::Finite),
    ("diff_ci95_low", Rule::Finite),
    ("diff_ci95_high", Rule::Finite),
    ("diff_ci99_low", Rule::Finite),
    ("diff_ci99_high", Rule::Finite),
    ("correlation", Rule::Finite),
    ("rounds", Rule::Count),
    ("share_of_rounds", Rule::Fraction),
    ("no_action_share", Rule::Fraction),
    ("partial_action_share", Rule::Fraction),
    ("standard_error_chips_per_round", Rule::NonNegative),
    ("hands", Rule::Count),
    ("shapes", Rule::Count),
    ("hands_changed", Rule::Count),
    ("hands_share", Rule::Fraction),
    ("hands_changed_share", Rule::Fraction),
    ("share_of_gap", Rule::Fraction),
    ("share_of_rule", Rule::Fraction),
    ("way_ev", Rule::Finite),
    ("optimal_ev", Rule::Finite),
    ("way_contribution", Rule::Finite),
    ("optimal_contribution", Rule::Finite),
    ("cost", Rule::NonNegative),
    ("example_loss", Rule::NonNegative),
    ("change", Rule::Finite),
    ("below_optimal", Rule::NonNegative),
    ("saved", Rule::Finite),
    ("ev", Rule::Finite),
];

/// Whether a column of a `table` run's `summary.csv` is a figure (a finite number or "-"):
/// every column from `rounds` on (those before name the variant, seat and bets).
fn is_table_figure(column: &str) -> bool {
    column.contains("_per_") || column.contains("_ci95_") || column.ends_with("_share")
}

/// The cells of `returns.csv` a command writes as "-" on some rows (a total, an "of which" row,
/// an event never seen, a line without a claim).
const RETURNS_DASHES: &[&str] = &[
    "pays",
    "one_in",
    "return",
    "probability_ci95_low",
    "probability_ci95_high",
    "claimed_combinations",
    "difference",
];

/// The columns of a `compare.csv` variant row that must hold numbers ("-" in the others): its
/// deals and its wager's figures.
fn compare_variant_columns() -> Vec<&'static str> {
    [&["deals"][..], &WAGER_COLUMNS].concat()
}

/// The columns of a `compare.csv` pair row that must hold numbers: its deals and the difference.
const COMPARE_PAIR: &[&str] = &[
    "deals",
    "ev_difference",
    "diff_ci95_low",
    "diff_ci95_high",
    "diff_ci99_low",
    "diff_ci99_high",
];

/// The manifest fields each kind's sections print: text fields, then whole-number fields.
fn manifest_fields(kind: &RunKind) -> (Vec<&'static str>, Vec<&'static str>) {
    let mut text = vec!["tool", "version", "command_line", "game"];
    let mut whole = Vec::new();
    let monte_carlo = (
        ["rng", "shuffle"],
        ["deals", "seed", "chunks", "chunk_size"],
    );
    match kind {
        RunKind::Simulate => {
            text.extend(["player_way", "dealer_way"]);
            text.extend(monte_carlo.0);
            whole.extend(monte_carlo.1);
        }
        RunKind::Compare => {
            text.push("vary");
            text.extend(monte_carlo.0);
            whole.extend(monte_carlo.1);
        }
        RunKind::Table => {
            text.extend(monte_carlo.0);
            whole.extend(monte_carlo.1);
        }
        RunKind::ExactMain => text.extend(["player_way", "dealer_way"]),
        RunKind::ExactCategories => text.push("method"),
        RunKind::ExactBonus => {}
        RunKind::CostWay => text.extend(["way", "dealer_way"]),
        RunKind::SweepWay => {
            text.extend(["player_way", "dealer_way", "player_ev", "optimal_player_ev"])
        }
        RunKind::DeriveWay => text.extend(["dealer_way", "optimal_ev_exact", "cost_exact"]),
        RunKind::Other(_) => return (Vec::new(), Vec::new()),
    }
    (text, whole)
}

/// The files each kind writes, with the columns the report reads of each.
fn needed_files(kind: &RunKind) -> Vec<(&'static str, Vec<&'static str>)> {
    let wager = ["wager", "player_ev", "house_edge", "sd"];
    let sim_returns = vec!["wager", "event", "pays", "count", "probability", "return"];
    let exact_returns = vec![
        "wager",
        "event",
        "pays",
        "combinations",
        "total",
        "probability",
        "return",
    ];
    let with = |more: &[&'static str]| [&wager[..], more].concat();
    match kind {
        RunKind::Simulate => vec![
            (
                "summary.csv",
                with(&[
                    "trials",
                    "win",
                    "push",
                    "loss",
                    "ci95_low",
                    "ci95_high",
                    "ci99_low",
                    "ci99_high",
                ]),
            ),
            ("returns.csv", sim_returns),
            (
                "convergence.csv",
                vec!["wager", "deals", "player_ev", "ci95_low", "ci95_high"],
            ),
        ],
        RunKind::ExactBonus => vec![
            ("summary.csv", with(&["trials", "hit_rate"])),
            ("returns.csv", exact_returns),
        ],
        RunKind::ExactMain => vec![
            (
                "summary.csv",
                with(&["combinations", "win", "push", "loss"]),
            ),
            ("returns.csv", exact_returns),
        ],
        RunKind::Compare => {
            let columns = [
                &["kind", "a", "b"][..],
                &compare_variant_columns(),
                COMPARE_PAIR,
            ]
            .concat();
            vec![("compare.csv", columns)]
        }
        RunKind::Table => vec![("summary.csv", Vec::new())],
        RunKind::ExactCategories => vec![(
            "categories.csv",
            vec!["category", "combinations", "probability"],
        )],
        RunKind::CostWay => vec![
            ("summary.csv", cost_way::SUMMARY_COLUMNS.to_vec()),
            ("rules.csv", cost_way::RULES_COLUMNS.to_vec()),
            ("classes.csv", cost_way::CLASSES_COLUMNS.to_vec()),
        ],
        RunKind::SweepWay => vec![("sweep.csv", sweep_way::SWEEP_COLUMNS.to_vec())],
        RunKind::DeriveWay => vec![("frontier.csv", derive_way::FRONTIER_COLUMNS.to_vec())],
        RunKind::Other(_) => Vec::new(),
    }
}

/// Whether `kind` may write `file` with a header and no rows: a `cost-way` run of a way that
/// costs nothing has no class to show.
fn may_be_empty(kind: &RunKind, file: &str) -> bool {
    matches!((kind, file), (RunKind::CostWay, "classes.csv"))
}

/// Checks a run of `kind` with `manifest` and `csv` files; the error names the file, and the
/// line and column or the field at fault.
pub fn check(
    kind: &RunKind,
    manifest: &serde_json::Value,
    csv: &BTreeMap<String, CsvFile>,
) -> Result<(), String> {
    check_manifest(kind, manifest)?;
    for (name, columns) in needed_files(kind) {
        let file = (csv.get(name))
            .ok_or_else(|| format!("no {name}: a {} run writes one", kind.name()))?;
        if !may_be_empty(kind, name) {
            check_rows(file)?;
        }
        let missing: Vec<&str> = columns.into_iter().filter(|c| !file.has(c)).collect();
        if !missing.is_empty() {
            return Err(format!("{name}: no column {}", missing.join(", ")));
        }
    }
    for file in csv.values() {
        if !may_be_empty(kind, &file.name) {
            check_rows(file)?;
        }
        if !matches!(kind, RunKind::Other(_)) {
            check_cells(kind, file)?;
        }
    }
    match kind {
        RunKind::Simulate | RunKind::ExactBonus | RunKind::ExactMain => {
            check_wagers(kind, csv)?;
            figures::check_wager_figures(kind, manifest, csv)
        }
        RunKind::Compare => {
            check_compare(&csv["compare.csv"])?;
            figures::check_compare_figures(manifest, &csv["compare.csv"])
        }
        RunKind::Table => figures::check_table_figures(manifest, &csv["summary.csv"]),
        RunKind::ExactCategories => figures::check_categories(&csv["categories.csv"]),
        RunKind::CostWay => {
            workbench::check_cost_way(&csv["rules.csv"], &csv["classes.csv"], &csv["summary.csv"])
        }
        RunKind::SweepWay => workbench::check_sweep_way(&csv["sweep.csv"], manifest),
        RunKind::DeriveWay => workbench::check_derive_way(&csv["frontier.csv"], manifest),
        RunKind::Other(_) => Ok(()),
    }
}

/// The manifest is a JSON object with every field its kind's report prints.
fn check_manifest(kind: &RunKind, manifest: &serde_json::Value) -> Result<(), String> {
    let Some(object) = manifest.as_object() else {
        return Err("manifest.json: not a JSON object".to_string());
    };
    let (text, whole) = manifest_fields(kind);
    let is_text =
        |f: &&str| (object.get(*f).and_then(|v| v.as_str())).is_some_and(|s| !s.trim().is_empty());
    let is_whole = |f: &&str| object.get(*f).is_some_and(serde_json::Value::is_u64);
    let bad: Vec<String> = (text
        .iter()
        .filter(|f| !is_text(f))
        .map(|f| format!("{f} (text)")))
    .chain((whole.iter().filter(|f| !is_whole(f))).map(|f| format!("{f} (a whole number)")))
    .collect();
    if bad.is_empty() {
        return Ok(());
    }
    Err(format!(
        "manifest.json: missing or of the wrong type: {}; a {} run's manifest has {}",
        bad.join(", "),
        kind.name(),
        if bad.len() == 1 { "it" } else { "them" }
    ))
}

/// A run file has a header and at least one row.
fn check_rows(file: &CsvFile) -> Result<(), String> {
    if file.rows.is_empty() {
        return Err(format!(
            "{}: no rows (the file is empty or holds only its header): rewrite it with the \
             command that made the run",
            file.name
        ));
    }
    Ok(())
}

/// Every cell of a column in [`RULES`] is a number in its range ("-" where the command writes
/// one), and every `X_low` is at most its `X_high`.
fn check_cells(kind: &RunKind, file: &CsvFile) -> Result<(), String> {
    let table_figures: Vec<(&str, Rule)> = match (kind, file.name.as_str()) {
        (RunKind::Table, "summary.csv") => (file.header.iter())
            .filter(|c| is_table_figure(c) && !RULES.iter().any(|(r, _)| r == c))
            .map(|c| (c.as_str(), Rule::Finite))
            .collect(),
        _ => Vec::new(),
    };
    for (i, row) in file.rows.iter().enumerate() {
        let at = |column: &str| format!("{} line {}, column {column}", file.name, file.lines[i]);
        let rules = RULES.iter().copied().chain(table_figures.iter().copied());
        for (column, rule) in rules.filter(|(c, _)| file.has(c)) {
            let cell = file.get(row, column).trim();
            if cell == "-" && dash_allowed(kind, file, row, column) {
                continue;
            }
            let fits = cell.parse::<f64>().is_ok_and(|x| rule.holds(x, cell));
            if !fits {
                return Err(format!(
                    "{}: '{cell}' is not {}",
                    at(column),
                    rule.expected()
                ));
            }
        }
        for (low, high) in intervals(file) {
            let (l, h) = (file.get(row, &low), file.get(row, &high));
            if let (Ok(l), Ok(h)) = (l.trim().parse::<f64>(), h.trim().parse::<f64>())
                && l > h
            {
                return Err(format!(
                    "{}: the interval's low end {l} is above its high end {h} (column {high})",
                    at(&low)
                ));
            }
        }
    }
    Ok(())
}

/// The `(X_low, X_high)` column pairs of a file.
fn intervals(file: &CsvFile) -> Vec<(String, String)> {
    (file.header.iter())
        .filter_map(|c| {
            let stem = c.strip_suffix("_low")?;
            let high = format!("{stem}_high");
            file.has(&high).then(|| (c.clone(), high))
        })
        .collect()
}

/// Whether the command writes "-" in `column` of `row`.
fn dash_allowed(kind: &RunKind, file: &CsvFile, row: &[String], column: &str) -> bool {
    match (kind, file.name.as_str()) {
        (RunKind::Compare, "compare.csv") => {
            let needed = match file.get(row, "kind") {
                "variant" => compare_variant_columns(),
                "pair" => COMPARE_PAIR.to_vec(),
                _ => Vec::new(),
            };
            !needed.contains(&column)
        }
        (RunKind::Simulate | RunKind::ExactBonus | RunKind::ExactMain, "returns.csv") => {
            RETURNS_DASHES.contains(&column)
        }
        (
            RunKind::Simulate | RunKind::ExactBonus | RunKind::ExactMain,
            "summary.csv" | "convergence.csv",
        )
        | (RunKind::ExactCategories, "categories.csv") => false,
        _ => true,
    }
}

/// Each wager of `summary.csv` once (the main wager among them where the kind plays it), with
/// its whole return table and, for a simulation, its convergence; no return rows of a wager
/// the summary does not list.
fn check_wagers(kind: &RunKind, csv: &BTreeMap<String, CsvFile>) -> Result<(), String> {
    let (summary, returns) = (&csv["summary.csv"], &csv["returns.csv"]);
    let mut wagers: Vec<&str> = Vec::new();
    for (i, row) in summary.rows.iter().enumerate() {
        let wager = summary.get(row, "wager");
        if wagers.contains(&wager) {
            return Err(format!(
                "summary.csv line {}: a second row for wager '{wager}'",
                summary.lines[i]
            ));
        }
        wagers.push(wager);
    }
    let plays_main = matches!(kind, RunKind::Simulate | RunKind::ExactMain);
    if plays_main && !wagers.iter().any(|w| MAIN_NAMES.contains(w)) {
        return Err(format!(
            "summary.csv: no row for the main wager ('{}'); a {} run reports it",
            MAIN_NAMES.join("' or '"),
            kind.name()
        ));
    }
    if let Some(i) = (returns.rows.iter()).position(|r| !wagers.contains(&returns.get(r, "wager")))
    {
        return Err(format!(
            "returns.csv line {}: wager '{}' has no row in summary.csv",
            returns.lines[i],
            returns.get(&returns.rows[i], "wager")
        ));
    }
    for (row, wager) in summary.rows.iter().zip(&wagers) {
        let trials = summary.get(row, "trials");
        let trials = if trials.is_empty() {
            summary.get(row, "combinations")
        } else {
            trials
        };
        check_return_table(returns, wager, trials)?;
        if let Some(convergence) = csv.get("convergence.csv")
            && convergence.rows_with("wager", wager).next().is_none()
        {
            return Err(format!(
                "convergence.csv: no rows for wager '{wager}' (summary.csv has one)"
            ));
        }
    }
    Ok(())
}

/// One wager's return rows: lines with pays, one `total` row counting what the lines count,
/// as many as the summary's trials.
fn check_return_table(returns: &CsvFile, wager: &str, trials: &str) -> Result<(), String> {
    let counted = if returns.has("count") {
        "count"
    } else {
        "combinations"
    };
    let rows: Vec<(u64, &Vec<String>)> = (returns.lines.iter().copied())
        .zip(&returns.rows)
        .filter(|(_, r)| returns.get(r, "wager") == wager)
        .collect();
    let missing = |what: String| {
        format!("returns.csv: wager '{wager}' {what}: the file is cut short or edited")
    };
    if rows.is_empty() {
        return Err(format!(
            "returns.csv: no rows for wager '{wager}' (summary.csv has one): the file is cut \
             short or edited"
        ));
    }
    let totals: Vec<&(u64, &Vec<String>)> = (rows.iter())
        .filter(|(_, r)| returns.get(r, "event") == "total")
        .collect();
    let &[(total_line, total_row)] = totals.as_slice() else {
        let found = match totals.len() {
            0 => "no 'total' row".to_string(),
            n => format!("{n} 'total' rows"),
        };
        return Err(missing(format!("has {found}, not one")));
    };
    // A line is a row of its own event; "  of which ..." rows (indented) count within one.
    let lines: Vec<&(u64, &Vec<String>)> = (rows.iter())
        .filter(|(_, r)| {
            let event = returns.get(r, "event");
            event != "total" && !event.starts_with(char::is_whitespace)
        })
        .collect();
    if let Some((line, _)) = lines.iter().find(|(_, r)| returns.get(r, "pays") == "-") {
        return Err(format!(
            "returns.csv line {line}, column pays: '-' on a line of wager '{wager}' (only a \
             total or an \"of which\" row has no pays)"
        ));
    }
    let count = |r: &[String]| returns.get(r, counted).trim().parse::<u128>().unwrap_or(0);
    let sum: u128 = lines.iter().map(|(_, r)| count(r)).sum();
    let total = count(total_row);
    if lines.is_empty() || sum != total {
        return Err(missing(format!(
            "counts {sum} on its {} lines, but {total} on its total row (line {total_line})",
            lines.len()
        )));
    }
    if trials.trim().parse::<u128>().ok() != Some(total) {
        return Err(format!(
            "returns.csv line {total_line}: wager '{wager}' totals {total}, but summary.csv \
             counts {trials}"
        ));
    }
    if total == 0 {
        return Err(missing("counts nothing".to_string()));
    }
    Ok(())
}

/// A comparison has at least one way's row (`kind` `variant`).
fn check_compare(file: &CsvFile) -> Result<(), String> {
    if file.rows_with("kind", "variant").next().is_none() {
        return Err("compare.csv: no 'variant' row (one a way compared)".to_string());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> CsvFile {
        CsvFile::parse(name, text).unwrap()
    }

    #[test]
    fn cells_are_numbers_in_their_range_named_by_line_and_column() {
        let summary = "wager,sd,ci95_low,ci95_high\nmain,0.75,-0.04,-0.01\nbet,-1,0,1\n";
        let err = check_cells(&RunKind::Simulate, &file("summary.csv", summary)).unwrap_err();
        assert!(
            err.starts_with("summary.csv line 3, column sd: '-1'"),
            "{err}"
        );
        let inverted = "wager,sd,ci95_low,ci95_high\nmain,0.75,0.5,-0.01\n";
        let err = check_cells(&RunKind::Simulate, &file("summary.csv", inverted)).unwrap_err();
        assert!(err.contains("line 2, column ci95_low"), "{err}");
        let returns = "wager,event,pays,count\nmain,total,-,3\nmain,win,0.95,x\n";
        let err = check_cells(&RunKind::Simulate, &file("returns.csv", returns)).unwrap_err();
        assert!(err.contains("line 3, column count: 'x'"), "{err}");
        let counts = "wager,count\nmain,12.5\n";
        assert!(check_cells(&RunKind::Simulate, &file("returns.csv", counts)).is_err());
    }

    #[test]
    fn a_return_table_must_add_up_to_its_total_and_the_trials() {
        let whole = "wager,event,pays,count\nmain,win,1,2\nmain,  of which x,-,1\nmain,lose,-1,1\nmain,total,-,3\n";
        let returns = file("returns.csv", whole);
        assert_eq!(check_return_table(&returns, "main", "3"), Ok(()));
        assert!(check_return_table(&returns, "main", "4").is_err());
        assert!(check_return_table(&returns, "bet", "3").is_err());
        let cut = file("returns.csv", &whole.replace("main,lose,-1,1\n", ""));
        let err = check_return_table(&cut, "main", "3").unwrap_err();
        assert!(err.contains("counts 2 on its 1 lines, but 3"), "{err}");
    }

    #[test]
    fn a_manifest_names_every_field_it_lacks() {
        let m = serde_json::json!({"tool": "paigow", "deals": "ten"});
        let err = check_manifest(&RunKind::Simulate, &m).unwrap_err();
        assert!(err.contains("game (text)") && err.contains("deals (a whole number)"));
        assert!(!err.contains("tool"));
        let other = RunKind::Other("new".into());
        assert_eq!(check_manifest(&other, &serde_json::json!({})), Ok(()));
    }
}
