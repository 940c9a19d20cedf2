//! The house-way workbench's runs (`cost-way`, `sweep-way`, `derive-way`) in the lab report,
//! through the real binary: each has its section, showing the run's own figures, and a run
//! whose exact fractions no longer add up is refused, naming the file, line and figure.
//! Reduced decks only (five ranks and the joker: milliseconds a price table).

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::common::cli::paigow;
use crate::common::report_rows::csv_rows as rows;
use crate::common::run_files::{col, copy_run, edit_csv, refused};

const RANKS: &str = "27JQA";

/// The three runs, made once per test process: `cost` (with `--both`), `sweep`, `derive`.
fn runs() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let at = |name: &str| dir.path().join(name);
        paigow()
            .args([
                "cost-way",
                "foxwoods",
                "--dealer-way",
                "ballys-ac",
                "--both",
            ])
            .args(["--ranks", RANKS, "--quiet", "--out"])
            .arg(at("cost"))
            .assert()
            .success();
        paigow()
            .args(["sweep-way", "foxwoods", "--dealer-way", "foxwoods"])
            .args(["--vary", "rule[10].when.high_pair.min=2..A"])
            .args(["--ranks", RANKS, "--quiet", "--out"])
            .arg(at("sweep"))
            .assert()
            .success();
        paigow()
            .args(["derive-way", "--dealer-way", "foxwoods", "--max-rules", "4"])
            .args(["--ranks", RANKS, "--quiet", "--out"])
            .arg(at("derived.toml"))
            .arg("--frontier")
            .arg(at("derive").join("frontier.csv"))
            .assert()
            .success();
        dir
    })
    .path()
}

/// A copy of the run `name` to edit, in `dir`.
fn copy(name: &str, dir: &Path) -> PathBuf {
    copy_run(&runs().join(name), dir)
}

/// A fraction as the report prints it: in percent with `decimals` decimals.
fn percent(cell: &str, decimals: usize) -> String {
    format!("{:.*}%", decimals, 100.0 * cell.parse::<f64>().unwrap())
}

/// A fraction `a/b` with `delta` added to its numerator.
fn nudged(fraction: &str, delta: i128) -> String {
    let (n, d) = fraction.split_once('/').unwrap();
    format!("{}/{d}", n.parse::<i128>().unwrap() + delta)
}

/// Row `line`'s figure `column` moved by `delta` over its denominator: its exact fraction
/// (`column_exact`) and its decimal alike, so that only the fractions' sums can tell.
fn nudge(rows: &mut [Vec<String>], line: usize, column: &str, delta: i128) {
    let (decimal, exact) = (col(rows, column), col(rows, &format!("{column}_exact")));
    let moved = nudged(&rows[line][exact], delta);
    let (n, d) = moved.split_once('/').unwrap();
    let value = n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap();
    rows[line][decimal] = format!("{value:.10}");
    rows[line][exact] = moved;
}

#[test]
fn each_workbench_run_has_its_section_with_its_figures() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rep");
    paigow()
        .arg("report")
        .args(["cost", "sweep", "derive"].map(|n| runs().join(n)))
        .args(["--quiet", "--out"])
        .arg(&out)
        .assert()
        .success();
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    for heading in [
        "### The cost of each rule of a house way",
        "### Sweeps of a house way's rules",
        "### Short house ways derived from the optimum",
    ] {
        assert!(md.contains(heading), "no '{heading}' in report.md");
    }
    assert!(
        !md.contains("### Other runs"),
        "a workbench run shown as an unknown one"
    );
    let summary = rows(&runs().join("cost/summary.csv"));
    let gap = summary.iter().find(|r| r[0] == "gap").unwrap();
    assert!(
        md.contains(&format!("**{}**", percent(&gap[2], 5))),
        "the gap {} is not shown",
        gap[2]
    );
    for row in &summary[1..] {
        let line = format!("| {} |", row[1]);
        assert!(md.contains(&line), "summary figure {} is not shown", row[0]);
    }
    assert!(
        summary.iter().any(|r| r[0] == "house_way_change") && md.contains("With the house's side"),
        "--both's figures are not shown"
    );
    let rules = rules_of(&runs().join("cost/rules.csv"));
    for (name, cost) in &rules {
        let shown = md
            .lines()
            .any(|l| l.contains(name.as_str()) && l.contains(&percent(cost, 5)));
        assert!(shown, "rule '{name}' with cost {cost} is not shown");
    }
    let sweep = rows(&runs().join("sweep/sweep.csv"));
    for row in &sweep[1..] {
        let (edit, ev) = (&row[col(&sweep, "edit")], &row[col(&sweep, "player_ev")]);
        let shown = md
            .lines()
            .any(|l| l.contains(&format!("| {edit} |")) && l.contains(&percent(ev, 4)));
        assert!(shown, "sweep row {edit} with EV {ev} is not shown");
    }
    assert!(
        out.join("plots/sweep-runs-sweep-1.svg").is_file(),
        "no sweep plot"
    );
    let frontier = rows(&runs().join("derive/frontier.csv"));
    for row in &frontier[1..] {
        let (rule, cost) = (&row[col(&frontier, "rule")], &row[col(&frontier, "cost")]);
        let shown = md
            .lines()
            .any(|l| l.contains(rule.as_str()) && l.contains(&percent(cost, 5)));
        assert!(
            shown,
            "frontier step '{rule}' with cost {cost} is not shown"
        );
    }
}

/// Each rule's name and its cost, from `rules.csv`.
fn rules_of(path: &Path) -> Vec<(String, String)> {
    let rows = rows(path);
    let (name, cost) = (col(&rows, "name"), col(&rows, "cost"));
    rows[1..]
        .iter()
        .map(|r| (r[name].clone(), r[cost].clone()))
        .collect()
}

/// A rule's way contribution edited (its decimal agrees to the decimals written): its cost is no
/// longer its optimal contribution less the way's.
#[test]
fn a_cost_that_no_longer_adds_up_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let run = copy("cost", dir.path());
    edit_csv(&run.join("rules.csv"), |rows| {
        let line = rows.len() - 1;
        nudge(rows, line, "way_contribution", -1);
    });
    refused(
        &run,
        &dir.path().join("o"),
        &["rules.csv line", ": cost_exact is"],
    );
}

/// A rule row deleted: the other rules' costs no longer add up to the gap.
#[test]
fn a_deleted_rule_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let run = copy("cost", dir.path());
    edit_csv(&run.join("rules.csv"), |rows| {
        let cost = col(rows, "cost");
        let costliest = (1..rows.len())
            .max_by(|&a, &b| rows[a][cost].partial_cmp(&rows[b][cost]).unwrap())
            .unwrap();
        rows.remove(costliest);
    });
    refused(
        &run,
        &dir.path().join("o"),
        &["rules.csv line", "the sum of the rules' costs"],
    );
}

/// The summary's gap edited with its decimal: it is no longer the optimum's EV less the way's.
#[test]
fn an_edited_gap_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let run = copy("cost", dir.path());
    edit_csv(&run.join("summary.csv"), |rows| {
        let line = rows.iter().position(|r| r[0] == "gap").unwrap();
        let moved = nudged(&rows[line][3], 1);
        let (n, d) = moved.split_once('/').unwrap();
        rows[line][2] = format!(
            "{:.10}",
            n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap()
        );
        rows[line][3] = moved;
    });
    refused(
        &run,
        &dir.path().join("o"),
        &["summary.csv line", ": gap is", "optimal_ev - way_ev"],
    );
}

/// A decimal that is not its fraction, and a change that is not its two EVs' difference.
#[test]
fn an_edited_sweep_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let run = copy("sweep", dir.path());
    edit_csv(&run.join("sweep.csv"), |rows| {
        let ev = col(rows, "player_ev");
        rows[2][ev] = format!("{:.10}", rows[2][ev].parse::<f64>().unwrap() + 0.01);
    });
    refused(
        &run,
        &dir.path().join("o"),
        &["sweep.csv line 3: player_ev", "player_ev_exact"],
    );
    let run = copy("sweep", &dir.path().join("second"));
    edit_csv(&run.join("sweep.csv"), |rows| nudge(rows, 2, "change", 1));
    refused(
        &run,
        &dir.path().join("o2"),
        &["sweep.csv line 3: change_exact"],
    );
}

/// A frontier step whose saving is not what the cost fell by.
#[test]
fn an_edited_frontier_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let run = copy("derive", dir.path());
    edit_csv(&run.join("frontier.csv"), |rows| nudge(rows, 2, "saved", 1));
    refused(
        &run,
        &dir.path().join("o"),
        &["frontier.csv line 3: saved_exact"],
    );
}

/// A way that costs nothing on the classes the run lists: `classes.csv` with its header only is
/// read, and its section says nothing of classes.
#[test]
fn a_cost_way_run_without_classes_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let run = copy("cost", dir.path());
    edit_csv(&run.join("classes.csv"), |rows| rows.truncate(1));
    let out = dir.path().join("o");
    (paigow()
        .arg("report")
        .arg(&run)
        .args(["--quiet", "--out"])
        .arg(&out))
    .assert()
    .success();
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("### The cost of each rule of a house way"));
    assert!(!md.contains("Where each rule loses most"));
}

/// A summary whose hands are edited to 0 is refused with its figure named (the shares of hands
/// are over it: no division by zero, no panic).
#[test]
fn a_summary_of_no_hands_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let run = copy("cost", dir.path());
    edit_csv(&run.join("summary.csv"), |rows| {
        let line = rows.iter().position(|r| r[0] == "hands").unwrap();
        rows[line][2] = "0".into();
        rows[line][3] = "0".into();
    });
    refused(
        &run,
        &dir.path().join("o"),
        &["summary.csv: figure hands is 0"],
    );
}

/// What the report shows beside the fractions: rules numbered in order, each class under its
/// rule's name, a sweep's edit and parameter, the hands it sets differently, a frontier's
/// steps. Each edit is refused naming its file and line.
#[test]
fn an_edited_number_or_name_is_refused() {
    type Edit = fn(&mut Vec<Vec<String>>);
    let cases: [(&str, &str, Edit, &str); 5] = [
        (
            "cost",
            "rules.csv",
            |rows| rows[2][0] = "7".into(),
            "rules.csv line 3: rule is '7'",
        ),
        (
            "cost",
            "classes.csv",
            |rows| {
                let name = col(rows, "rule_name");
                rows[1][name] = "another rule".into();
            },
            "classes.csv line 2: rule_name",
        ),
        (
            "sweep",
            "sweep.csv",
            |rows| {
                let parameter = col(rows, "parameter");
                rows[2][parameter] = "K".into();
            },
            "sweep.csv line 3: the edit",
        ),
        (
            "sweep",
            "sweep.csv",
            |rows| {
                let changed = col(rows, "hands_changed");
                rows[2][changed] = "1".into();
            },
            "sweep.csv line 3: hands_changed 1",
        ),
        (
            "derive",
            "frontier.csv",
            |rows| rows[2][0] = "5".into(),
            "frontier.csv line 3: step is '5'",
        ),
    ];
    for (k, (run, file, edit, message)) in cases.into_iter().enumerate() {
        let dir = tempfile::tempdir().unwrap();
        let copied = copy(run, dir.path());
        edit_csv(&copied.join(file), edit);
        refused(&copied, &dir.path().join(format!("o{k}")), &[message]);
    }
}
