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
//! And what the report shows beside the fractions holds together: rules numbered 1, 2, 3...
//! and each rule's classes ranked so, under the rule's name, with no more hands than the rule
//! and their share of its cost; a sweep's rows in order, each edit setting its parameter, its
//! hands set differently a count of the deck's hands with its share; a frontier's steps in
//! order, never losing a rule, each placed among the rules, the last with the manifest's.
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
    numbered(rules, "rule", 0..rules.rows.len())?;
    check_classes(rules, classes)
}

/// `Err` naming the line unless column `column` of `rows` (indices into `file`) holds 1, 2, 3...
/// in order: a row deleted, repeated or renumbered.
fn numbered(file: &CsvFile, column: &str, rows: impl Iterator<Item = usize>) -> Result<(), String> {
    for (n, i) in rows.enumerate() {
        let cell = file.get(&file.rows[i], column);
        if cell != (n + 1).to_string() {
            return Err(format!(
                "{} line {}: {column} is '{cell}' where {} comes next: a row is missing, \
                 repeated or renumbered",
                file.name,
                file.lines[i],
                n + 1
            ));
        }
    }
    Ok(())
}

/// Each class belongs to a rule of `rules.csv` (by number and name), ranked 1, 2, 3... within
/// it, holding no more hands than its rule, with its share of the rule's cost its cost over the
/// rule's.
fn check_classes(rules: &CsvFile, classes: &CsvFile) -> Result<(), String> {
    for (r, rule_row) in rules.rows.iter().enumerate() {
        let rule = rules.get(rule_row, "rule");
        let of_rule =
            (0..classes.rows.len()).filter(|&i| classes.get(&classes.rows[i], "rule") == rule);
        numbered(classes, "rank", of_rule.clone())?;
        let rule_cost = needed(rules, r, "cost_exact")?;
        let rule_hands = needed(rules, r, "hands")?;
        for i in of_rule {
            let row = &classes.rows[i];
            let at = format!("classes.csv line {}", classes.lines[i]);
            if classes.get(row, "rule_name") != rules.get(rule_row, "name") {
                return Err(format!(
                    "{at}: rule_name is not rule {rule}'s name in rules.csv"
                ));
            }
            if needed(classes, i, "hands")? > rule_hands {
                return Err(format!("{at}: the class has more hands than rule {rule}"));
            }
            if rule_cost.is_zero() {
                continue;
            }
            let share = (needed(classes, i, "cost_exact")? / &rule_cost).to_f64();
            let written = classes.get(row, "share_of_rule").trim().parse::<f64>().ok();
            if !share
                .zip(written)
                .is_some_and(|(s, w)| (s - w).abs() <= SAME)
            {
                return Err(format!(
                    "{at}: share_of_rule is not the class's cost over rule {rule}'s"
                ));
            }
        }
    }
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
    sweeps_in_order(sweep)?;
    hands_changed_agree(sweep, manifest)?;
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

/// The unedited row first (sweep 0), then sweeps 1, 2, 3... each row's edit its path and its
/// parameter.
fn sweeps_in_order(sweep: &CsvFile) -> Result<(), String> {
    let mut last = 0usize;
    for (i, row) in sweep.rows.iter().enumerate() {
        let at = format!("sweep.csv line {}", sweep.lines[i]);
        let k: Option<usize> = sweep.get(row, "sweep").parse().ok();
        let in_order = match (i, k) {
            (0, Some(0)) => true,
            (0, _) | (_, None | Some(0)) => false,
            (_, Some(k)) => k == last || k == last + 1,
        };
        if !in_order {
            return Err(format!(
                "{at}: sweep '{}' out of order (the unedited way first, as sweep 0, then 1, 2, \
                 3...)",
                sweep.get(row, "sweep")
            ));
        }
        last = k.unwrap_or(0);
        let (edit, parameter) = (sweep.get(row, "edit"), sweep.get(row, "parameter"));
        if i > 0 && !edit.ends_with(&format!("={parameter}")) {
            return Err(format!(
                "{at}: the edit '{edit}' does not set the parameter '{parameter}'"
            ));
        }
    }
    Ok(())
}

/// Each variant's hands set differently are at most the deck's hands (every 7-card hand of the
/// manifest's `deck_cards`), and its share is its count over them.
fn hands_changed_agree(sweep: &CsvFile, manifest: &serde_json::Value) -> Result<(), String> {
    let cards = manifest
        .get("deck_cards")
        .and_then(serde_json::Value::as_u64);
    let Some(cards) = cards.filter(|c| (7..=54).contains(c)) else {
        return Err("manifest.json: deck_cards missing or not 7 to 54".to_string());
    };
    let hands = crate::combin::choose(cards, 7);
    for (i, row) in sweep.rows.iter().enumerate() {
        let (count, share) = (
            sweep.get(row, "hands_changed"),
            sweep.get(row, "hands_changed_share"),
        );
        if count == "-" && share == "-" {
            continue;
        }
        let agrees = (count.parse::<u64>().ok())
            .filter(|&c| c <= hands)
            .zip(share.trim().parse::<f64>().ok())
            .is_some_and(|(c, s)| (c as f64 / hands as f64 - s).abs() <= SAME);
        if !agrees {
            return Err(format!(
                "sweep.csv line {}: hands_changed {count} with share {share} is not a count of \
                 the deck's {hands} hands and its share",
                sweep.lines[i]
            ));
        }
    }
    Ok(())
}

/// A `derive-way` run's frontier agrees step by step and with the manifest's way.
pub fn check_derive_way(frontier: &CsvFile, manifest: &serde_json::Value) -> Result<(), String> {
    decimals_are_their_fractions(frontier)?;
    let field = |name: &str| manifest_fraction(manifest, name);
    let optimal = field("optimal_ev_exact")?;
    steps_in_order(frontier, manifest)?;
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

/// Steps 1, 2, 3... each with at least one rule and never fewer than the step before, placed
/// among them, the last with the manifest's number of rules.
fn steps_in_order(frontier: &CsvFile, manifest: &serde_json::Value) -> Result<(), String> {
    numbered(frontier, "step", 0..frontier.rows.len())?;
    let mut before = 1;
    for (i, row) in frontier.rows.iter().enumerate() {
        let whole = |c: &str| frontier.get(row, c).parse::<u64>().unwrap_or(0);
        let (rules, position) = (whole("rules"), whole("position"));
        if rules < before || position == 0 || position > rules {
            return Err(format!(
                "frontier.csv line {}: {rules} rules with the rule at {position}, after a step \
                 of {before}: the file is edited",
                frontier.lines[i]
            ));
        }
        before = rules;
    }
    let written = manifest.get("rules").and_then(serde_json::Value::as_u64);
    if written.is_some_and(|w| w != before) {
        return Err(format!(
            "manifest.json: rules is {}, but the frontier's last step has {before}",
            written.unwrap_or(0)
        ));
    }
    Ok(())
}
