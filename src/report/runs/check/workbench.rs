//! The figures of the house-way workbench's runs (`cost-way`, `sweep-way`, `derive-way`),
//! cross-checked in exact fractions: each writes every EV and cost as a decimal and as the exact
//! fraction it comes from, so the fractions must add up and each decimal must be its fraction.
//!
//! - `cost-way`: each rule's cost is its optimal contribution less the way's; the rules' costs
//!   add up to the summary's gap, their contributions to the way's and the optimum's EVs, their
//!   hands to the summary's hands; the gap is the optimum's EV less the way's; with `--both`,
//!   each change is its two EVs' difference; each class names a rule of `rules.csv`;
//! - `sweep-way`: each variant's change is its EV less the unedited way's, its distance below
//!   the optimum the manifest's optimal EV less its EV, and the unedited row is the manifest's;
//! - `derive-way`: each step's EV and cost add up to the manifest's optimal EV, each step saved
//!   what the cost fell by since the step before, and the last step is the manifest's way.
//!
//! Like [`super::figures`], these are consistency checks, not signatures: a directory whose every
//! fraction was recomputed to agree is not told apart.

use std::str::FromStr;

use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

use super::super::CsvFile;
use super::figures::SAME;

/// An exact cell: "-" is `None`.
fn exact(file: &CsvFile, i: usize, column: &str) -> Result<Option<BigRational>, String> {
    let cell = file.get(&file.rows[i], column).trim();
    if cell == "-" {
        return Ok(None);
    }
    BigRational::from_str(cell).map(Some).map_err(|_| {
        format!(
            "{} line {}, column {column}: '{cell}' is not an exact fraction (a/b)",
            file.name, file.lines[i]
        )
    })
}

/// An exact cell that must hold a fraction.
fn needed(file: &CsvFile, i: usize, column: &str) -> Result<BigRational, String> {
    exact(file, i, column)?.ok_or_else(|| {
        format!(
            "{} line {}, column {column}: '-' where the run writes a fraction",
            file.name, file.lines[i]
        )
    })
}

/// A manifest field that holds an exact fraction as text.
fn manifest_fraction(manifest: &serde_json::Value, field: &str) -> Result<BigRational, String> {
    let text = manifest.get(field).and_then(|v| v.as_str()).unwrap_or("");
    BigRational::from_str(text.trim())
        .map_err(|_| format!("manifest.json: {field} '{text}' is not an exact fraction (a/b)"))
}

/// `Err` naming the line and figure unless `found` equals `expected`.
fn equal(
    file: &CsvFile,
    i: usize,
    figure: &str,
    found: &BigRational,
    expected: &BigRational,
    what: &str,
) -> Result<(), String> {
    if found == expected {
        return Ok(());
    }
    Err(format!(
        "{} line {}: {figure} is {found}, but {what} is {expected}: the file is edited or \
         another run's",
        file.name, file.lines[i]
    ))
}

/// Each `X` column beside an `X_exact` column is its fraction, to the decimals written.
fn decimals_are_their_fractions(file: &CsvFile) -> Result<(), String> {
    let pairs: Vec<&str> = (file.header.iter())
        .filter(|c| file.has(&format!("{c}_exact")))
        .map(String::as_str)
        .collect();
    for i in 0..file.rows.len() {
        for &column in &pairs {
            let decimal = file.get(&file.rows[i], column).trim();
            let fraction = exact(file, i, &format!("{column}_exact"))?;
            let agrees = match (decimal, &fraction) {
                ("-", None) => true,
                (_, Some(f)) => (decimal.parse::<f64>().ok())
                    .zip(f.to_f64())
                    .is_some_and(|(d, f)| (d - f).abs() <= SAME),
                _ => false,
            };
            if !agrees {
                return Err(format!(
                    "{} line {}: {column} '{decimal}' is not {column}_exact ({}) to the decimals \
                     written: the file is edited",
                    file.name,
                    file.lines[i],
                    fraction.map_or("-".to_string(), |f| f.to_string())
                ));
            }
        }
    }
    Ok(())
}

/// Each `summary.csv` value is its exact figure: a count as written, a fraction to the decimals
/// written.
fn summary_values_are_their_fractions(summary: &CsvFile) -> Result<(), String> {
    for (i, row) in summary.rows.iter().enumerate() {
        let (value, fraction) = (
            summary.get(row, "value").trim(),
            summary.get(row, "exact").trim(),
        );
        let agrees = match (exact(summary, i, "exact")?, fraction.contains('/')) {
            (None, _) => value == "-",
            (Some(_), false) => value == fraction,
            (Some(f), true) => (value.parse::<f64>().ok())
                .zip(f.to_f64())
                .is_some_and(|(d, f)| (d - f).abs() <= SAME),
        };
        if !agrees {
            return Err(format!(
                "summary.csv line {}: figure {}: value '{value}' is not its exact '{fraction}': \
                 the file is edited",
                summary.lines[i],
                summary.get(row, "figure")
            ));
        }
    }
    Ok(())
}

/// The row of a `summary.csv` figure of `cost-way`.
fn summary_row(summary: &CsvFile, key: &str) -> Option<usize> {
    (0..summary.rows.len()).find(|&i| summary.get(&summary.rows[i], "figure") == key)
}

/// The exact value of a `summary.csv` figure of `cost-way` (`None` for "-" or no row).
fn summary_figure(summary: &CsvFile, key: &str) -> Result<Option<BigRational>, String> {
    match summary_row(summary, key) {
        Some(i) => exact(summary, i, "exact"),
        None => Ok(None),
    }
}

fn summary_needed(summary: &CsvFile, key: &str) -> Result<BigRational, String> {
    summary_figure(summary, key)?
        .ok_or_else(|| format!("summary.csv: no figure '{key}': a cost-way run writes one"))
}

/// A `cost-way` run's rules, classes and summary agree (see the module's list).
pub fn check_cost_way(rules: &CsvFile, classes: &CsvFile, summary: &CsvFile) -> Result<(), String> {
    for file in [rules, classes] {
        decimals_are_their_fractions(file)?;
    }
    summary_values_are_their_fractions(summary)?;
    let way_ev = summary_needed(summary, "way_ev")?;
    let optimal_ev = summary_needed(summary, "optimal_ev")?;
    let gap = summary_needed(summary, "gap")?;
    let hands = summary_needed(summary, "hands")?;
    if hands.is_zero() {
        return Err("summary.csv: figure hands is 0: a cost-way run counts every hand".into());
    }
    let gap_at = summary_row(summary, "gap").unwrap_or(0);
    let difference = &optimal_ev - &way_ev;
    equal(
        summary,
        gap_at,
        "gap",
        &gap,
        &difference,
        "optimal_ev - way_ev",
    )?;
    let mut sums = [(); 4].map(|_| BigRational::zero());
    for i in 0..rules.rows.len() {
        let way = needed(rules, i, "way_contribution_exact")?;
        let best = needed(rules, i, "optimal_contribution_exact")?;
        let cost = needed(rules, i, "cost_exact")?;
        let share = needed(rules, i, "hands_share_exact")?;
        let count = needed(rules, i, "hands")?;
        equal(
            rules,
            i,
            "cost_exact",
            &cost,
            &(&best - &way),
            "the optimal contribution less the way's",
        )?;
        equal(
            rules,
            i,
            "hands_share_exact",
            &share,
            &(&count / &hands),
            "hands over the summary's hands",
        )?;
        for (sum, x) in sums.iter_mut().zip([cost, way, best, count]) {
            *sum += x;
        }
    }
    let last = rules.rows.len().saturating_sub(1);
    let totals = [
        ("the rules' costs", &gap, "the summary's gap"),
        (
            "the rules' way contributions",
            &way_ev,
            "the summary's way_ev",
        ),
        (
            "the rules' optimal contributions",
            &optimal_ev,
            "the summary's optimal_ev",
        ),
        ("the rules' hands", &hands, "the summary's hands"),
    ];
    for ((figure, expected, what), sum) in totals.into_iter().zip(&sums) {
        equal(
            rules,
            last,
            &format!("the sum of {figure}"),
            sum,
            expected,
            what,
        )?;
    }
    check_house_side(summary)?;
    let known: Vec<&str> = rules.rows.iter().map(|r| rules.get(r, "rule")).collect();
    for (i, row) in classes.rows.iter().enumerate() {
        let rule = classes.get(row, "rule");
        if !known.contains(&rule) {
            return Err(format!(
                "classes.csv line {}: rule {rule} is not a rule of rules.csv: the files are \
                 from different runs",
                classes.lines[i]
            ));
        }
    }
    Ok(())
}

/// With `--both`: each change is the difference of its two EVs.
fn check_house_side(summary: &CsvFile) -> Result<(), String> {
    let changes = [
        ("house_way_change", "way_vs_way_ev", "dealer_vs_dealer_ev"),
        ("optimal_change", "optimal_vs_way_ev", "optimal_ev"),
    ];
    for (change, to, from) in changes {
        let Some(at) = summary_row(summary, change) else {
            continue;
        };
        let values = (
            summary_figure(summary, change)?,
            summary_figure(summary, to)?,
            summary_figure(summary, from)?,
        );
        if let (Some(c), Some(t), Some(f)) = values {
            equal(summary, at, change, &c, &(t - f), &format!("{to} - {from}"))?;
        }
    }
    Ok(())
}

/// A `sweep-way` run's variants agree with the unedited way and the manifest's EVs.
pub fn check_sweep_way(sweep: &CsvFile, manifest: &serde_json::Value) -> Result<(), String> {
    decimals_are_their_fractions(sweep)?;
    let field = |name: &str| manifest_fraction(manifest, name);
    let (unedited, optimal) = (field("player_ev")?, field("optimal_player_ev")?);
    for i in 0..sweep.rows.len() {
        let Some(ev) = exact(sweep, i, "player_ev_exact")? else {
            continue;
        };
        if sweep.get(&sweep.rows[i], "sweep") == "0" {
            equal(
                sweep,
                i,
                "player_ev_exact",
                &ev,
                &unedited,
                "the manifest's player_ev",
            )?;
        }
        let change = needed(sweep, i, "change_exact")?;
        let below = needed(sweep, i, "below_optimal_exact")?;
        equal(
            sweep,
            i,
            "change_exact",
            &change,
            &(&ev - &unedited),
            "player_ev less the unedited way's",
        )?;
        equal(
            sweep,
            i,
            "below_optimal_exact",
            &below,
            &(&optimal - &ev),
            "the optimum's EV less player_ev",
        )?;
    }
    Ok(())
}

/// A `derive-way` run's frontier agrees step by step and with the manifest's way.
pub fn check_derive_way(frontier: &CsvFile, manifest: &serde_json::Value) -> Result<(), String> {
    decimals_are_their_fractions(frontier)?;
    let field = |name: &str| manifest_fraction(manifest, name);
    let optimal = field("optimal_ev_exact")?;
    let mut before: Option<BigRational> = None;
    for i in 0..frontier.rows.len() {
        let (ev, cost) = (
            needed(frontier, i, "ev_exact")?,
            needed(frontier, i, "cost_exact")?,
        );
        equal(
            frontier,
            i,
            "ev_exact + cost_exact",
            &(&ev + &cost),
            &optimal,
            "the manifest's optimal_ev_exact",
        )?;
        if let Some(previous) = &before {
            let saved = needed(frontier, i, "saved_exact")?;
            equal(
                frontier,
                i,
                "saved_exact",
                &saved,
                &(previous - &cost),
                "the step before's cost less this step's",
            )?;
        }
        before = Some(cost);
    }
    let last = frontier.rows.len().saturating_sub(1);
    if let Some(cost) = before {
        equal(
            frontier,
            last,
            "cost_exact",
            &cost,
            &field("cost_exact")?,
            "the manifest's cost_exact",
        )?;
    }
    Ok(())
}
