//! `paigow report` through the real binary. One small package (Double Joker: exact categories,
//! exact side bets, the exact main wager, a simulation) plus a house-way comparison and a card-room
//! table run of other games are reported together; the tests check that every number of every
//! returns and summary file appears in the Markdown and in the HTML as written (or as the same
//! number in percent or with separators), that the exact variance is the one the counts give, that
//! the HTML and every figure parse as XML (roxmltree: a strict, dependency-free XML parser), that
//! the report depends only on the runs, and that bad input is a clear error.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use predicates::prelude::*;
use predicates::str::contains;

use crate::common::cli::paigow;
use crate::common::report_rows::{
    csv_rows, field, html_rows, markdown_rows, shown, shows_returns_row,
};

/// The package's report directory, made once per test process.
pub(crate) fn package() -> &'static Path {
    static DIR: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let compare = dir.path().join("compare");
        paigow()
            .args(["compare", "--game", "standard", "--dealer-way", "foxwoods"])
            .args(["--ways", "foxwoods", "canterbury-park", "max-back"])
            .args(["--deals", "2e4", "--threads", "2", "--quiet", "--out"])
            .arg(&compare)
            .assert()
            .success();
        let table = dir.path().join("table");
        paigow()
            .args([
                "table",
                "--seats",
                "D,10,-,5+5,-,-,-",
                "--bank",
                "unlimited",
            ])
            .args(["--rounds", "2e3", "--quiet", "--out"])
            .arg(&table)
            .assert()
            .success();
        let out = dir.path().join("report");
        paigow()
            .args(["report", "--game", "double-joker", "--all", "--dealer-way"])
            .args([
                "double-joker-dealer",
                "--deals",
                "2e4",
                "--threads",
                "2",
                "--quiet",
            ])
            .arg("--out")
            .arg(&out)
            .args([&compare, &table])
            .assert()
            .success()
            .stdout("");
        (dir, out)
    })
    .1
}

fn report_texts() -> (String, String) {
    let out = package();
    (
        fs::read_to_string(out.join("report.md")).unwrap(),
        fs::read_to_string(out.join("report.html")).unwrap(),
    )
}

#[test]
fn every_returns_row_is_in_the_markdown_and_the_html() {
    let (md, html) = report_texts();
    let (md_rows, html_rows) = (markdown_rows(&md), html_rows(&html));
    for run in ["runs/exact-bonus", "runs/simulate"] {
        let rows = csv_rows(&package().join(run).join("returns.csv"));
        let header = &rows[0];
        assert!(rows.len() > 15, "{run}: {} rows", rows.len());
        for row in &rows[1..] {
            assert!(
                shows_returns_row(&md_rows, header, row),
                "{run}: {row:?} not in report.md"
            );
            assert!(
                shows_returns_row(&html_rows, header, row),
                "{run}: {row:?} not in report.html"
            );
        }
    }
}

#[test]
fn every_summary_figure_is_in_the_report() {
    let (md, html) = report_texts();
    let (md_rows, html_rows) = (markdown_rows(&md), html_rows(&html));
    for run in ["runs/exact-bonus", "runs/simulate"] {
        let rows = csv_rows(&package().join(run).join("summary.csv"));
        for row in &rows[1..] {
            let wager = field(&rows[0], row, "wager");
            let name = if wager == "main" { "main wager" } else { wager };
            let edge: f64 = field(&rows[0], row, "house_edge").parse().unwrap();
            let sd = field(&rows[0], row, "sd");
            for table in [&md_rows, &html_rows] {
                let line = table
                    .iter()
                    .find(|r| r[0] == name && r.last().is_some_and(|l| l == run))
                    .unwrap_or_else(|| panic!("no summary line for {name} of {run}"));
                assert!(
                    (shown(&line[4]).unwrap() - 100.0 * edge).abs() < 5e-5,
                    "{line:?}"
                );
                assert_eq!(line[6], sd, "{line:?}");
                let sd_row = table
                    .iter()
                    .any(|r| r[0] == "standard deviation per unit bet" && r[1] == sd);
                assert!(sd_row, "{name} of {run}: SD {sd}");
            }
        }
    }
}

/// The exact variance equals the one the counts give, summed here in floats (and BHB's SD is
/// the 8.198 a hand-held sum gives).
#[test]
fn exact_variance_is_the_counts_variance() {
    let dir = package().join("runs/exact-bonus");
    let returns = csv_rows(&dir.join("returns.csv"));
    let summary = csv_rows(&dir.join("summary.csv"));
    for row in &summary[1..] {
        let wager = field(&summary[0], row, "wager");
        let lines = returns[1..]
            .iter()
            .filter(|r| r[0] == wager && r[1] != "total");
        let (mut n, mut sum, mut squares) = (0f64, 0f64, 0f64);
        for line in lines {
            let count: f64 = field(&returns[0], line, "combinations").parse().unwrap();
            let pays: f64 = field(&returns[0], line, "pays").parse().unwrap();
            (n, sum, squares) = (n + count, sum + count * pays, squares + count * pays * pays);
        }
        let variance = squares / n - (sum / n).powi(2);
        let reported: f64 = field(&summary[0], row, "variance").parse().unwrap();
        assert!(
            (reported - variance).abs() < 1e-9 * variance,
            "{wager}: {reported} vs {variance}"
        );
        let sd: f64 = field(&summary[0], row, "sd").parse().unwrap();
        assert!((sd - variance.sqrt()).abs() < 1e-9, "{wager}");
    }
    let bhb = &summary[1];
    assert_eq!(bhb[0], "Big Hand Bonus");
    assert!(
        field(&summary[0], bhb, "sd").starts_with("8.1978"),
        "{bhb:?}"
    );
}

#[test]
fn every_figure_parses_and_the_page_loads_nothing() {
    let out = package();
    let (_, html) = report_texts();
    let mut files: Vec<PathBuf> = fs::read_dir(out.join("plots"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let kinds = ["convergence-", "return-by-line-", "forest-"];
    for kind in kinds {
        let named = |p: &PathBuf| p.file_name().unwrap().to_string_lossy().starts_with(kind);
        assert!(files.iter().any(named), "no {kind} figure in {files:?}");
    }
    for file in &files {
        let text = fs::read_to_string(file).unwrap();
        let doc =
            roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let root = doc.root_element();
        assert!(
            root.has_tag_name(("http://www.w3.org/2000/svg", "svg")),
            "{}",
            file.display()
        );
        assert!(root.attribute("viewBox").is_some());
        assert!(
            html.contains(text.trim_end()),
            "{} is inlined in the page",
            file.display()
        );
    }
    assert_eq!(html.matches("<svg ").count(), files.len());
    for outside in [
        " src=",
        "href=\"http",
        "<link",
        "<script",
        "url(",
        "@import",
        "<iframe",
        "<img",
    ] {
        assert!(
            !html.contains(outside),
            "the page loads something: {outside}"
        );
    }
}

#[test]
fn the_report_shows_every_kind_of_run() {
    let (md, _) = report_texts();
    for expected in [
        "## Double Joker Pai Gow Poker",
        "## Standard Pai Gow Poker",
        "## California Double Hand Poker",
        "### Side bet: Big Hand Bonus",
        "### House-way comparisons",
        "### Card-room table runs",
        "### 7-card hand categories",
        "| Big Hand Bonus | hit rate | 8.82% | 8.5994% | DISAGREES |",
        "| Joker Bonus | hit rate | 25.93% | 25.9259% | agrees |",
        "#### Foxwoods (player way)",
        "#### Foxwoods (dealer way, compared way)",
        "Read from `games/double-joker.toml`",
        "the simulation is **",
        "paigow exact bonus --game double-joker --quiet --out",
        "| 100 | -100.00%* to +",
        "is held at that bound",
        "| hit frequency (some line pays) | 0.0859941945 | 8.5994% |",
        "| hit frequency (the bet wins, or is paid the overqualifier) |",
    ] {
        assert!(md.contains(expected), "report.md lacks {expected:?}");
    }
    let compare = csv_rows(&package().parent().unwrap().join("compare/compare.csv"));
    let pair = compare.iter().find(|r| r[0] == "pair").unwrap();
    let diff: f64 = field(&compare[0], pair, "ev_difference").parse().unwrap();
    let label = format!(
        "{} - {}",
        field(&compare[0], pair, "a"),
        field(&compare[0], pair, "b")
    );
    let row = markdown_rows(&md)
        .into_iter()
        .find(|r| r[0] == label)
        .unwrap();
    assert!(
        (shown(&row[1]).unwrap() - 100.0 * diff).abs() < 5e-5,
        "{row:?}"
    );
}

#[test]
fn the_same_runs_give_the_same_report() {
    let out = package();
    let again = out.parent().unwrap().join("again");
    let runs = [
        "runs/exact-categories",
        "runs/exact-bonus",
        "runs/exact-main",
        "runs/simulate",
    ]
    .map(|r| out.join(r));
    paigow()
        .arg("report")
        .args(&runs)
        .args([
            out.parent().unwrap().join("compare"),
            out.parent().unwrap().join("table"),
        ])
        .arg("--out")
        .arg(&again)
        .arg("--quiet")
        .assert()
        .success();
    let md = fs::read_to_string(again.join("report.md")).unwrap();
    let first = fs::read_to_string(out.join("report.md")).unwrap();
    let relative = first.replace("runs/", &format!("{}/runs/", out.display()));
    assert_eq!(md.lines().count(), relative.lines().count());
    paigow()
        .arg("report")
        .args(&runs)
        .args([
            out.parent().unwrap().join("compare"),
            out.parent().unwrap().join("table"),
        ])
        .arg("--out")
        .arg(out.parent().unwrap().join("third"))
        .arg("--quiet")
        .assert()
        .success();
    let third = fs::read_to_string(out.parent().unwrap().join("third/report.md")).unwrap();
    assert_eq!(third, md, "byte-identical from the same runs");
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    paigow()
        .args(["report", "--out"])
        .arg(&out)
        .assert()
        .failure()
        .stderr(contains("no run directories"));
    paigow()
        .arg("report")
        .arg(dir.path())
        .arg("--out")
        .arg(&out)
        .assert()
        .failure()
        .stderr(contains("no readable manifest.json"));
    let broken = dir.path().join("broken");
    fs::create_dir(&broken).unwrap();
    fs::write(broken.join("manifest.json"), "{\"command\": \"simulate\"}").unwrap();
    fs::write(broken.join("returns.csv"), "a,b\n1,2,3\n").unwrap();
    paigow()
        .arg("report")
        .arg(&broken)
        .arg("--out")
        .arg(&out)
        .assert()
        .failure()
        .stderr(contains("returns.csv"));
    paigow()
        .args(["report", "--all", "--out"])
        .arg(&out)
        .assert()
        .failure()
        .stderr(contains("--game"));
}

/// A directory as `paigow exact main` writes it (its own columns, no `command`, no spec) reports
/// like `exact bonus`'s: its return table, its SD, and the exact EV on a simulation's plot of the
/// same ways.
#[test]
fn an_exact_main_directory_reports_with_the_simulation_of_its_ways() {
    let dir = tempfile::tempdir().unwrap();
    let exact = dir.path().join("exact-main");
    fs::create_dir(&exact).unwrap();
    let sha = |path: &str| paigow::files::sha256_hex(&fs::read(path).unwrap());
    let manifest = serde_json::json!({
        "tool": "paigow", "version": "0.1.0", "git_commit": "0123456789",
        "command_line": "paigow exact main --game standard --player-way foxwoods --dealer-way foxwoods",
        "game": "Standard Pai Gow Poker", "player_way": "Foxwoods", "dealer_way": "Foxwoods",
        "config_files": [
            {"role": "game", "origin": "games/standard.toml", "sha256": sha("games/standard.toml")},
            {"role": "player way", "origin": "strategies/foxwoods.toml", "sha256": sha("strategies/foxwoods.toml")},
            {"role": "dealer way", "origin": "strategies/foxwoods.toml", "sha256": sha("strategies/foxwoods.toml")}
        ],
        "wall_seconds": 1.0
    });
    fs::write(exact.join("manifest.json"), manifest.to_string()).unwrap();
    fs::write(
        exact.join("returns.csv"),
        "wager,event,pays,combinations,total,probability,return\n\
         main wager,win both,0.9500,10,20,0.5000000000,0.4750000000\n\
         main wager,push,0.0000,5,20,0.2500000000,0.0000000000\n\
         main wager,lose,-1.0000,5,20,0.2500000000,-0.2500000000\n\
         main wager,  of which copies,-,2,20,0.1000000000,-\n\
         main wager,  of which fouls,-,0,20,0.0000000000,-\n\
         main wager,total,-,20,20,1.0000000000,0.2250000000\n",
    )
    .unwrap();
    fs::write(
        exact.join("summary.csv"),
        "wager,method,combinations,player_ev,house_edge,player_ev_exact,house_edge_exact,win,push,loss,sd\n\
         main wager,exact: every ordered pair of disjoint player and dealer hands,20,0.2250000000,-0.2250000000,9/40,-9/40,0.5000000000,0.2500000000,0.2500000000,0.8066132902\n",
    )
    .unwrap();
    let simulated = dir.path().join("simulate");
    paigow()
        .args([
            "simulate",
            "--player-way",
            "foxwoods",
            "--dealer-way",
            "foxwoods",
        ])
        .args(["--deals", "2e4", "--quiet", "--out"])
        .arg(&simulated)
        .assert()
        .success();
    let out = dir.path().join("report");
    paigow()
        .arg("report")
        .args([&exact, &simulated])
        .arg("--out")
        .arg(&out)
        .arg("--quiet")
        .assert()
        .success();
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    let rows = markdown_rows(&md);
    // Beside each decimal, its fraction of the counts and pays.
    // Each line named as the game names it, as a simulation's table does.
    let win = [
        "Player wins both hands",
        "0.95",
        "10",
        "0.5000000000",
        "1/2",
        "2.00",
        "0.4750000000",
        "19/40",
    ];
    assert!(rows.iter().any(|r| r == &win), "the exact main returns row");
    assert!(
        rows.iter()
            .any(|r| r[0] == "Total" && r[6] == "0.2250000000" && r[7] == "9/40")
    );
    assert!(
        rows.iter()
            .any(|r| r[0] == "variance per unit bet (SD squared)" && r[1] == "0.6506249999")
    );
    let main = md.split("### Main wager").nth(1).unwrap();
    assert!(main.contains("#### Exact: "), "{main}");
    assert!(
        main.contains("the dashed line is the exact EV, 22.5000%"),
        "{main}"
    );
    assert!(
        md.contains("#### Foxwoods (player way, dealer way)"),
        "ways read from the shipped files"
    );
}

/// A run of a command the reader does not know still reports: its CSV files as written.
#[test]
fn a_run_of_an_unknown_command_shows_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("future");
    fs::create_dir(&run).unwrap();
    fs::write(
        run.join("manifest.json"),
        "{\"command\": \"exact rotation\", \"command_line\": \"paigow exact rotation\"}",
    )
    .unwrap();
    fs::write(
        run.join("rotation.csv"),
        "seat,share\n1,0.1250000000\n2,1234567\n",
    )
    .unwrap();
    let md = crate::common::cli::report_md(&run, &dir.path().join("r"));
    assert!(md.contains("### Other runs"), "{md}");
    assert!(
        md.contains("| 1 | 0.1250000000 |") && md.contains("| 2 | 1,234,567 |"),
        "{md}"
    );
    assert!(md.contains("A run of `exact rotation`"), "{md}");
}

/// A copy of the package's run `run` (`runs/simulate`, or `compare` beside the report) in a
/// fresh directory, `damage` done to it; the report of it must fail with exit status 1 (never a
/// panic: release builds abort, status 134) and say every word of `says`.
fn refused_when_damaged(run: &str, damage: impl FnOnce(&Path), says: &[&str]) {
    let source = if run.starts_with("runs/") {
        package().join(run)
    } else {
        package().parent().unwrap().join(run)
    };
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("damaged");
    fs::create_dir(&copy).unwrap();
    for entry in fs::read_dir(&source).unwrap() {
        let path = entry.unwrap().path();
        fs::copy(&path, copy.join(path.file_name().unwrap())).unwrap();
    }
    damage(&copy);
    let out = dir.path().join("report");
    let failed = paigow()
        .arg("report")
        .arg(&copy)
        .arg("--out")
        .arg(&out)
        .arg("--quiet")
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&failed.get_output().stderr).into_owned();
    for word in says {
        assert!(stderr.contains(word), "{run}: {word:?} not in {stderr}");
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        !out.join("report.md").exists(),
        "no report from a damaged run"
    );
}

/// The file `name` of a run directory with its text changed by `edit`.
fn edit(dir: &Path, name: &str, edit: impl FnOnce(&str) -> String) {
    let path = dir.join(name);
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, edit(&text)).unwrap();
}

/// The first `n` lines of a text.
fn head(text: &str, n: usize) -> String {
    text.lines().take(n).map(|l| format!("{l}\n")).collect()
}

/// The lines of a text that do not start with `prefix`.
fn without(text: &str, prefix: &str) -> String {
    (text.lines().filter(|l| !l.starts_with(prefix)))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The text with the cell of `column` on line `line` (1 is the header) set to `value`.
fn with_cell(text: &str, line: usize, column: &str, value: &str) -> String {
    let mut rows = text.lines().map(str::to_string).collect::<Vec<_>>();
    let at = rows[0].split(',').position(|h| h == column).unwrap();
    let mut cells: Vec<String> = rows[line - 1].split(',').map(str::to_string).collect();
    cells[at] = value.to_string();
    rows[line - 1] = cells.join(",");
    rows.iter().map(|l| format!("{l}\n")).collect()
}

/// Regression: an empty or truncated returns.csv, or one without the main wager's rows, made
/// the ranges of a player's result panic (`clamp` of an empty range of pays); a summary.csv
/// without the main wager dropped it silently.
#[test]
fn a_run_missing_the_rows_a_report_needs_is_refused() {
    let sim = "runs/simulate";
    refused_when_damaged(
        sim,
        |d| edit(d, "returns.csv", |_| String::new()),
        &["returns.csv"],
    );
    let truncated = |d: &Path| edit(d, "returns.csv", |t| head(t, 3));
    refused_when_damaged(sim, truncated, &["returns.csv", "main"]);
    let no_main = |d: &Path| edit(d, "returns.csv", |t| without(t, "main,"));
    refused_when_damaged(sim, no_main, &["returns.csv", "main"]);
    let no_main = |d: &Path| edit(d, "summary.csv", |t| without(t, "main,"));
    refused_when_damaged(sim, no_main, &["summary.csv", "main"]);
    let bonus = "runs/exact-bonus";
    refused_when_damaged(
        bonus,
        |d| edit(d, "returns.csv", |_| String::new()),
        &["returns.csv"],
    );
    let truncated = |d: &Path| edit(d, "returns.csv", |t| head(t, 5));
    refused_when_damaged(bonus, truncated, &["returns.csv", "Big Hand Bonus"]);
}

/// Regression: a manifest of `{}` reported "an unnamed game" with blank ways, deals and seed.
#[test]
fn a_manifest_missing_a_field_is_refused() {
    let empty = |d: &Path| fs::write(d.join("manifest.json"), "{}").unwrap();
    refused_when_damaged("runs/simulate", empty, &["manifest.json", "game", "seed"]);
    let no_seed = |d: &Path| {
        edit(d, "manifest.json", |t| {
            let mut m: serde_json::Value = serde_json::from_str(t).unwrap();
            m.as_object_mut().unwrap().remove("seed");
            m.to_string()
        })
    };
    refused_when_damaged("runs/simulate", no_seed, &["manifest.json", "seed"]);
}

/// Regression: edited cells were copied into the report as they were ("abc", NaN, inf, an SD
/// of -1, an interval upside down), and a NaN SD dropped the ranges table silently.
#[test]
fn a_cell_that_is_not_a_number_in_its_range_is_refused() {
    let sim = "runs/simulate";
    let cases = [
        ("summary.csv", 2, "ci95_high", "abc"),
        ("summary.csv", 2, "trials", "NaN"),
        ("summary.csv", 2, "trials", "12.5"),
        ("summary.csv", 2, "sd", "NaN"),
        ("summary.csv", 2, "sd", "inf"),
        ("summary.csv", 2, "sd", "-1"),
        ("summary.csv", 2, "ci95_low", "0.5"),
        ("summary.csv", 3, "win", "1.5"),
        ("returns.csv", 2, "probability", "-0.1"),
        ("returns.csv", 3, "count", "x"),
        ("convergence.csv", 4, "player_ev", "nan"),
    ];
    for (file, line, column, value) in cases {
        let damage = |d: &Path| edit(d, file, |t| with_cell(t, line, column, value));
        let at = format!("line {line}");
        refused_when_damaged(sim, damage, &[file, &at, column]);
    }
    let damage = |d: &Path| edit(d, "compare.csv", |t| with_cell(t, 2, "sd", "-1"));
    refused_when_damaged("compare", damage, &["compare.csv", "line 2", "sd"]);
}

/// Regression: a run file with a header and no rows (or nothing at all) gave a report of no
/// figures and exit status 0.
#[test]
fn a_run_file_without_rows_is_refused() {
    let header_only = |name: &'static str| move |d: &Path| edit(d, name, |t| head(t, 1));
    refused_when_damaged(
        "compare",
        header_only("compare.csv"),
        &["compare.csv", "no rows"],
    );
    let empty = |d: &Path| fs::write(d.join("summary.csv"), "").unwrap();
    refused_when_damaged("runs/simulate", empty, &["summary.csv", "no rows"]);
    let convergence = header_only("convergence.csv");
    refused_when_damaged(
        "runs/simulate",
        convergence,
        &["convergence.csv", "no rows"],
    );
}

/// Regression: the same run directory given twice was reported twice.
#[test]
fn the_same_run_directory_twice_is_refused() {
    let run = package().join("runs/simulate");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    for again in [run.clone(), run.join("."), run.join("../simulate")] {
        paigow()
            .arg("report")
            .args([&run, &again])
            .arg("--out")
            .arg(&out)
            .assert()
            .code(1)
            .stderr(contains("given twice").and(contains("simulate")));
    }
    assert!(!out.exists());
}

/// Regression: a package with a bad way ran `exact categories` and `exact bonus` first, then
/// failed at `exact main`, leaving OUT/runs/ half built.
#[test]
fn a_package_with_a_bad_option_fails_before_its_first_step() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("package");
    let bad = [
        ["--player-way", "nosuch"],
        ["--dealer-way", "nosuch"],
        ["--dealer-way", "exposed"],
        ["--players", "9"],
        ["--deals", "0"],
        ["--mix", "main=1,emperors-challenge=0.5,nosuch=2"],
        ["--table-max", "nosuch=5"],
    ];
    for [flag, value] in bad {
        paigow()
            .args(["report", "--game", "standard", "--all", flag, value])
            .arg("--out")
            .arg(&out)
            .assert()
            .failure()
            .stderr(contains("paigow exact").not());
        assert!(!out.exists(), "{flag} {value}: nothing written");
    }
    paigow()
        .args(["report", "--game", "standard", "--all", "--threads", "0"])
        .arg("--out")
        .arg(&out)
        .assert()
        .failure()
        .stderr(contains("threads"));
    assert!(!out.exists());
}

/// A run directory inside `--out` is refused (the report would remove it), and so is `--out`
/// inside a run directory (once accepted: the report went into the run, which `simulate` then
/// refused to replace, "holds files that are not a paigow report set").
#[test]
fn a_report_and_its_runs_may_not_nest() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    crate::common::cli::simulate_ways("foxwoods", "foxwoods")
        .args(["--deals", "1e3", "--threads", "1", "--quiet", "--out"])
        .arg(&run)
        .assert()
        .success();
    let report = |runs: &[&Path], out: &Path| {
        paigow()
            .arg("report")
            .args(runs)
            .arg("--out")
            .arg(out)
            .arg("--quiet")
            .assert()
    };
    report(&[&run], &run.join("sub"))
        .failure()
        .stderr(predicates::str::contains("is inside the run directory"));
    assert!(!run.join("sub").exists());
    let nested = crate::common::run_files::copy_run(&run, &dir.path().join("out").join("runs"));
    report(&[&nested], &dir.path().join("out"))
        .failure()
        .stderr(predicates::str::contains("is inside --out"));
}

/// A run built from sources that differed from its commit (`-modified`) is flagged in the
/// report's reproducibility section (once it was shown without a word), and a clean one is not.
#[test]
fn a_run_from_modified_sources_is_flagged() {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/exact/standard-bonus");
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("standard-bonus");
    fs::create_dir(&run).unwrap();
    for entry in fs::read_dir(&committed).unwrap() {
        let path = entry.unwrap().path();
        fs::copy(&path, run.join(path.file_name().unwrap())).unwrap();
    }
    let warning = "Warning: this run's binary was built from sources that differed";
    let clean = crate::common::cli::report_md(&run, &dir.path().join("clean"));
    assert!(!clean.contains(warning));
    let manifest = run.join("manifest.json");
    let text = fs::read_to_string(&manifest).unwrap();
    let commit = text.split("\"git_commit\": \"").nth(1).unwrap();
    let commit = &commit[..commit.find('"').unwrap()];
    assert!(!commit.ends_with("-modified"), "{commit}");
    let edited = text.replacen(commit, &format!("{commit}-modified"), 1);
    fs::write(&manifest, edited).unwrap();
    let flagged = crate::common::cli::report_md(&run, &dir.path().join("flagged"));
    assert!(
        flagged.contains(warning),
        "no warning for a -modified build"
    );
}
