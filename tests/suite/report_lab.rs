//! The figures a test lab asks of `paigow report` (issue 37), each recomputed here from the run
//! files the report reads: exact fractions beside the decimals, the volatility index, hold and
//! handle with a bet mix, the overqualifier's multiples, the maximum payout and liability, why
//! a simulated SD differs from the exact one, the chance of being ahead after N hands, the
//! chi-square of each simulation, the dealing assumptions and the package's manifest.
//!
//! Most tests read the Double Joker package of `cli_report` (made once per test process).

use std::fs;

use crate::cli_report::package;
use crate::common::report_rows::{csv_rows, field, fraction_value, markdown_tables, shown};

fn report_md() -> String {
    fs::read_to_string(package().join("report.md")).unwrap()
}

/// The cells of `row` under columns `a` and `b` of `header`, where the table has both.
fn pair<'a>(header: &[String], row: &'a [String], a: &str, b: &str) -> Option<(&'a str, &'a str)> {
    let i = header.iter().position(|h| h == a)?;
    let j = header.iter().position(|h| h == b)?;
    Some((&row[i], &row[j]))
}

#[test]
fn every_exact_fraction_equals_its_decimal() {
    let md = report_md();
    let mut compared = 0;
    for (header, rows) in markdown_tables(&md) {
        for row in &rows {
            for (decimal, exactly) in [
                ("probability", "probability, exactly"),
                ("return", "return, exactly"),
                ("value", "exactly"),
            ] {
                let Some((d, f)) = pair(&header, row, decimal, exactly) else {
                    continue;
                };
                if f.is_empty() || f == "-" {
                    continue;
                }
                let (d, f) = (shown(d).unwrap(), fraction_value(f).unwrap());
                assert!((d - f).abs() <= 5.1e-11, "{row:?}: {d} is not {f}");
                compared += 1;
            }
        }
    }
    // Two side bets' and the main wager's lines, totals and figures.
    assert!(
        compared >= 40,
        "only {compared} fractions beside their decimals"
    );
    // The main wager's EV is the one `exact main` wrote as a fraction.
    let summary = csv_rows(&package().join("runs/exact-main/summary.csv"));
    let ev = field(&summary[0], &summary[1], "player_ev_exact");
    assert!(
        md.contains(&format!(
            "| player EV per unit bet | {} | ",
            field(&summary[0], &summary[1], "player_ev")
        )) && md.contains(&format!(" | {ev} |")),
        "the exact EV {ev} is not shown"
    );
}

/// Each wager's SD per unit bet recomputed from `returns.csv` of an exact run (floats).
fn sds_from_returns(run: &str) -> Vec<(String, f64)> {
    let rows = csv_rows(&package().join(run).join("returns.csv"));
    let mut wagers: Vec<String> = rows[1..].iter().map(|r| r[0].clone()).collect();
    wagers.dedup();
    wagers
        .into_iter()
        .map(|wager| {
            let (mut n, mut sum, mut squares) = (0f64, 0f64, 0f64);
            for line in rows[1..]
                .iter()
                .filter(|r| r[0] == wager && r[1] != "total")
            {
                let Ok(pays) = field(&rows[0], line, "pays").parse::<f64>() else {
                    continue;
                };
                let count: f64 = field(&rows[0], line, "combinations").parse().unwrap();
                (n, sum, squares) = (n + count, sum + count * pays, squares + count * pays * pays);
            }
            (wager, (squares / n - (sum / n).powi(2)).sqrt())
        })
        .collect()
}

#[test]
fn the_volatility_index_is_z_times_the_sd() {
    let md = report_md();
    let shown_indices = |level: &str| -> Vec<f64> {
        (markdown_tables(&md).into_iter())
            .flat_map(|(_, rows)| rows)
            .filter(|r| r[0].starts_with(&format!("volatility index, {level}%")))
            .map(|r| shown(&r[1]).unwrap())
            .collect()
    };
    // Two-sided standard normal quantiles, from tables.
    for (level, z) in [("90", 1.6448536269514722), ("95", 1.959963984540054)] {
        let indices = shown_indices(level);
        for run in ["runs/exact-bonus", "runs/exact-main"] {
            for (wager, sd) in sds_from_returns(run) {
                assert!(
                    indices.iter().any(|i| (i - z * sd).abs() < 1e-8),
                    "{wager} at {level}%: {} not among {indices:?}",
                    z * sd
                );
            }
        }
    }
}
