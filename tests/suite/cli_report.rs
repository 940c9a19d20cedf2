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

use predicates::str::contains;

use crate::common::cli::paigow;

/// The package's report directory, made once per test process.
fn package() -> &'static Path {
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

/// A CSV file as rows of fields, the header first.
fn csv_rows(path: &Path) -> Vec<Vec<String>> {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes());
    reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

/// The value of `column` in `row` of a CSV with `header`.
fn field<'a>(header: &[String], row: &'a [String], column: &str) -> &'a str {
    let i = header
        .iter()
        .position(|h| h == column)
        .unwrap_or_else(|| panic!("no {column}"));
    &row[i]
}

/// Every Markdown table row as cells (bold marks and escapes removed).
fn markdown_rows(md: &str) -> Vec<Vec<String>> {
    md.lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| :---") && !l.starts_with("| ---"))
        .map(|l| {
            let inner = l
                .trim_start_matches("| ")
                .trim_end_matches(" |")
                .replace("\\|", "\u{1}");
            inner
                .split(" | ")
                .map(|c| c.replace("**", "").replace('\u{1}', "|"))
                .collect()
        })
        .collect()
}

/// Every HTML table row as cells, from the page parsed as XML.
fn html_rows(html: &str) -> Vec<Vec<String>> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(html, options)
        .expect("the page is well-formed XML");
    doc.descendants()
        .filter(|n| n.has_tag_name("tr"))
        .map(|tr| {
            (tr.children().filter(|c| c.is_element()))
                .map(|c| {
                    (c.descendants().filter(|t| t.is_text()))
                        .filter_map(|t| t.text())
                        .collect::<String>()
                })
                .collect()
        })
        .collect()
}

/// A shown number as a float: separators, a percent sign and a `*` mark removed.
fn shown(cell: &str) -> Option<f64> {
    cell.replace([',', '%', '*', '+'], "").trim().parse().ok()
}

/// Whether some row shows the returns row `row` of `header`: its label, its pays, its count, its
/// probability and return as written, its 1 in X to the cent.
fn shows_returns_row(rows: &[Vec<String>], header: &[String], row: &[String]) -> bool {
    let get = |c: &str| {
        if header.iter().any(|h| h == c) {
            field(header, row, c)
        } else {
            ""
        }
    };
    let count = if get("combinations").is_empty() {
        get("count")
    } else {
        get("combinations")
    };
    let one_in: Option<f64> = get("one_in").parse().ok();
    rows.iter().any(|r| {
        r.len() == 6
            && r[0] == get("label")
            && (get("event") == "total" || shown(&r[1]) == get("pays").parse().ok())
            && shown(&r[2]) == count.parse().ok()
            && r[3] == get("probability")
            && one_in.is_none_or(|x| shown(&r[4]).is_some_and(|s| (s - x).abs() <= 0.0051))
            && r[5] == get("return")
    })
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
         main wager,exact: every ordered pair of disjoint player and dealer hands,20,0.2250000000,-0.2250000000,9/40,-9/40,0.5000000000,0.2500000000,0.2500000000,0.9000000000\n",
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
    let win = [
        "win both",
        "0.95",
        "10",
        "0.5000000000",
        "2.00",
        "0.4750000000",
    ];
    assert!(rows.iter().any(|r| r == &win), "the exact main returns row");
    assert!(
        rows.iter()
            .any(|r| r[0] == "Total" && r[5] == "0.2250000000")
    );
    assert!(
        rows.iter()
            .any(|r| r[0] == "variance per unit bet (SD squared)" && r[1] == "0.8100000000")
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
    let out = dir.path().join("r");
    paigow()
        .arg("report")
        .arg(&run)
        .arg("--out")
        .arg(&out)
        .arg("--quiet")
        .assert()
        .success();
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("### Other runs"), "{md}");
    assert!(
        md.contains("| 1 | 0.1250000000 |") && md.contains("| 2 | 1,234,567 |"),
        "{md}"
    );
    assert!(md.contains("A run of `exact rotation`"), "{md}");
}
