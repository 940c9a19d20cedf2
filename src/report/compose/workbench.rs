//! The sections of the house-way workbench's runs: the exact cost of each rule of a way
//! (`cost-way`), a way's rules swept exactly (`sweep-way`) and a short way derived from the
//! optimum (`derive-way`).
//!
//! Every figure is a cell of the run's files (checked to add up, in exact fractions, when the run
//! was read: `runs::check::workbench`); costs are printed in percent of a unit bet, with the
//! exact fractions left to the run's CSV files, which each section names. A sweep's plots are
//! drawn again from `sweep.csv`, so they show the figures the table shows.

use super::format::{count, dash, percent, signed_percent};
use crate::report::document::svg::ProfilePoint;
use crate::report::document::{Block, Document, Figure, Table, code, slug, strong, text};
use crate::report::runs::{CsvFile, RunDir};
use crate::report::sweep_way::ev_profile;

/// The decimals of a cost in percent: a rule's cost is often a few millionths of a bet.
const COST_DECIMALS: usize = 5;

/// A summary figure of a `cost-way` run (its decimal), "" if absent.
fn summary_value<'a>(summary: &'a CsvFile, key: &'a str) -> &'a str {
    (summary.rows_with("figure", key).next()).map_or("", |row| summary.get(row, "value"))
}

/// A `cost-way` run: its summary (the gap, and with `--both` the house's side), each rule's cost
/// and where each rule loses most.
pub fn cost_way_section(doc: &mut Document, run: &RunDir) {
    let (Some(rules), Some(classes), Some(summary)) = (
        run.csv.get("rules.csv"),
        run.csv.get("classes.csv"),
        run.csv.get("summary.csv"),
    ) else {
        return;
    };
    let (way, dealer) = (run.fact("way"), run.fact("dealer_way"));
    doc.heading(4, &format!("Cost of {way} against {dealer}: {}", run.dir));
    doc.paragraph(vec![
        text(format!(
            "Every player hand set by {way} and at its best setting against a dealer who plays \
             {dealer} (optimal:{dealer}), over every dealer hand of the cards it leaves: {way} \
             gives up "
        )),
        strong(percent(summary_value(summary, "gap"), COST_DECIMALS)),
        text(
            " of each unit bet, the sum of its rules' costs below (the fractions were checked \
             to add up when the run was read; each is in ",
        ),
        code("rules.csv"),
        text(" and "),
        code("summary.csv"),
        text(")."),
    ]);
    if summary
        .rows_with("figure", "house_way_change")
        .next()
        .is_some()
    {
        doc.say(format!(
            "With the house's side: when the house changes its way from {dealer} to {way}, its \
             dealer and every player who plays the house way change together (exact main), \
             beside the player who plays the optimum against each."
        ));
    }
    doc.push(Block::Table(summary_table(summary)));
    doc.push(Block::Table(rules_table(rules)));
    if !classes.rows.is_empty() {
        doc.say(
            "Where each rule loses most: its costliest class of hands, with an example hand, \
             the way's setting and the best one (every class the run lists is in classes.csv).",
        );
        doc.push(Block::Table(costliest_classes(classes)));
    }
}

/// Every figure of `summary.csv`: a count grouped, an EV in percent, a change or the gap signed
/// or with the cost's decimals.
fn summary_table(summary: &CsvFile) -> Table {
    let mut t = Table::new(&["figure", "value"]).left(&[0]);
    for row in &summary.rows {
        let (key, value) = (summary.get(row, "figure"), summary.get(row, "value"));
        let shown = match key {
            "pairs" | "hands" => count(value),
            "gap" => percent(value, COST_DECIMALS),
            k if k.ends_with("_change") => signed_percent(value, 4),
            _ => percent(value, 4),
        };
        t.row(vec![summary.get(row, "description").to_string(), shown]);
    }
    t
}

/// One row a rule: the hands it sets, its EVs and its cost.
fn rules_table(rules: &CsvFile) -> Table {
    let header = [
        "rule",
        "name",
        "hands",
        "share of hands",
        "way EV",
        "optimal EV",
        "cost (of a bet)",
        "share of the gap",
    ];
    let mut t = Table::new(&header).left(&[1]);
    for row in &rules.rows {
        let cell = |c: &str| rules.get(row, c);
        t.row(vec![
            cell("rule").to_string(),
            cell("name").to_string(),
            count(cell("hands")),
            percent(cell("hands_share"), 3),
            percent(cell("way_ev"), 3),
            percent(cell("optimal_ev"), 3),
            percent(cell("cost"), COST_DECIMALS),
            percent(cell("share_of_gap"), 1),
        ]);
    }
    t
}

/// Each rule's costliest class (rank 1).
fn costliest_classes(classes: &CsvFile) -> Table {
    let header = [
        "rule",
        "class",
        "hands",
        "cost (of a bet)",
        "example",
        "the way sets (front / back)",
        "best setting (front / back)",
        "loss on the example",
    ];
    let mut t = Table::new(&header).left(&[1, 4, 5, 6]);
    for row in classes.rows_with("rank", "1") {
        let cell = |c: &str| classes.get(row, c);
        t.row(vec![
            cell("rule").to_string(),
            cell("class").to_string(),
            count(cell("hands")),
            percent(cell("cost"), COST_DECIMALS),
            cell("example_hand").to_string(),
            format!("{} / {}", cell("way_front"), cell("way_back")),
            format!("{} / {}", cell("optimal_front"), cell("optimal_back")),
            percent(cell("example_loss"), 2),
        ]);
    }
    t
}

/// A `sweep-way` run: each edit's EV, change and distance from the optimum, and a plot per
/// swept parameter.
pub fn sweep_way_section(doc: &mut Document, run: &RunDir) {
    let Some(sweep) = run.csv.get("sweep.csv") else {
        return;
    };
    let (way, dealer) = (run.fact("player_way"), run.fact("dealer_way"));
    doc.heading(4, &format!("Sweep of {way} against {dealer}: {}", run.dir));
    doc.say(format!(
        "Each variant is {way}'s file with one edit, priced exactly against {dealer} over every \
         hand; \"change\" is its EV less the unedited way's, \"below the optimum\" the optimum's \
         EV less its own (exact fractions in sweep.csv)."
    ));
    let header = [
        "sweep",
        "edit",
        "player EV",
        "change",
        "below the optimum",
        "hands set differently",
        "lint",
    ];
    let mut t = Table::new(&header).left(&[1, 6]);
    for row in &sweep.rows {
        let cell = |c: &str| sweep.get(row, c);
        t.row(vec![
            cell("sweep").to_string(),
            cell("edit").to_string(),
            percent(cell("player_ev"), 4),
            signed_percent(cell("change"), 4),
            percent(cell("below_optimal"), 4),
            count(cell("hands_changed")),
            dash(cell("lint")),
        ]);
    }
    doc.push(Block::Table(t));
    let sweeps = sweep_numbers(sweep);
    for k in sweeps {
        if let Some(figure) = sweep_figure(run, sweep, &k) {
            doc.push(Block::Figure(figure));
        }
    }
}

/// The sweeps of `sweep.csv` (not the unedited row, 0), in order.
fn sweep_numbers(sweep: &CsvFile) -> Vec<String> {
    let mut numbers: Vec<String> = Vec::new();
    for row in &sweep.rows {
        let k = sweep.get(row, "sweep");
        if k != "0" && !numbers.iter().any(|n| n == k) {
            numbers.push(k.to_string());
        }
    }
    numbers
}

/// Sweep `k`'s plot: EV against its parameter, the unedited way dashed.
fn sweep_figure(run: &RunDir, sweep: &CsvFile, k: &str) -> Option<Figure> {
    let rows: Vec<&Vec<String>> = sweep.rows_with("sweep", k).collect();
    let path = sweep
        .get(rows.first()?, "edit")
        .split('=')
        .next()?
        .to_string();
    let points: Vec<ProfilePoint> = (rows.iter())
        .map(|row| ProfilePoint {
            label: sweep.get(row, "parameter").to_string(),
            value: sweep.get(row, "player_ev").trim().parse().ok(),
        })
        .collect();
    let unedited = (sweep.rows_with("sweep", "0").next())
        .and_then(|row| sweep.get(row, "player_ev").trim().parse().ok());
    Some(Figure {
        file: format!("sweep-{}-{k}.svg", slug(&run.dir)),
        svg: ev_profile(&path, &points, unedited),
        caption: format!(
            "Player EV of each value of {path} (sweep {k} of {}), from sweep.csv; the dashed \
             line is the unedited way's EV. A cross on the axis marks a value the way's file \
             does not accept.",
            run.dir
        ),
    })
}

/// A `derive-way` run: the frontier of exact cost against the number of rules.
pub fn derive_way_section(doc: &mut Document, run: &RunDir) {
    let Some(frontier) = run.csv.get("frontier.csv") else {
        return;
    };
    let dealer = run.fact("dealer_way");
    doc.heading(
        4,
        &format!("Short way derived against {dealer}: {}", run.dir),
    );
    doc.say(format!(
        "{} Each step adds (or moves) one rule of the house-way language; \"below the optimum\" \
         is what the way so far gives up against {dealer}, per unit bet, exactly; the way of \
         the last step was written to {}.",
        super::capital(&format!("{}.", run.fact("method").trim_end_matches('.'))),
        dash(&run.fact("way_file"))
    ));
    let header = [
        "step",
        "rules",
        "at",
        "rule added",
        "saved",
        "player EV",
        "below the optimum",
    ];
    let mut t = Table::new(&header).left(&[3]);
    for row in &frontier.rows {
        let cell = |c: &str| frontier.get(row, c);
        t.row(vec![
            cell("step").to_string(),
            cell("rules").to_string(),
            cell("position").to_string(),
            cell("rule").to_string(),
            percent(cell("saved"), COST_DECIMALS),
            percent(cell("ev"), 4),
            percent(cell("cost"), COST_DECIMALS),
        ]);
    }
    doc.push(Block::Table(t));
}
