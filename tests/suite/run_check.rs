//! `paigow report` cross-checks every figure it prints against the counts and hashes of the run
//! it reads, through the real binary: run directories that contradict themselves are refused,
//! naming the file and the figure, where the old check read them as they were.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::common::cli::{paigow, simulate_ways};
use crate::common::run_files::{col, copy_run, edit_csv, refused};

/// Runs made once per test process: a simulation of 1,000 and one of 2,000 deals, exact
/// categories, and a card-room table.
fn runs() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        for (name, deals) in [("small", "1e3"), ("large", "2e3")] {
            simulate_ways("foxwoods", "foxwoods")
                .args(["--deals", deals, "--quiet", "--out"])
                .arg(dir.path().join(name))
                .assert()
                .success();
        }
        paigow()
            .args(["exact", "categories", "--out"])
            .arg(dir.path().join("categories"))
            .assert()
            .success();
        paigow()
            .args([
                "table",
                "--seats",
                "D,10,-,5+5,-,-,-",
                "--bank",
                "unlimited",
            ])
            .args(["--rounds", "1e3", "--quiet", "--out"])
            .arg(dir.path().join("table"))
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

/// A figure as written: 10 decimals.
fn fixed(x: f64) -> String {
    format!("{x:.10}")
}

#[test]
fn the_unedited_runs_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    paigow()
        .arg("report")
        .args(["small", "large", "categories", "table"].map(|n| runs().join(n)))
        .arg("--out")
        .arg(dir.path().join("rep"))
        .assert()
        .success();
}

/// An EV edited with its edge and intervals moved to match (the counts left) is refused by the
/// counts; an EV edited beside its edge, by the edge.
#[test]
fn an_edited_ev_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let run = copy("small", dir.path());
    let summary = run.join("summary.csv");
    let original = fs::read_to_string(&summary).unwrap();
    edit_csv(&summary, |rows| {
        let shift = 0.05;
        let moved = [
            "player_ev",
            "ci95_low",
            "ci95_high",
            "ci99_low",
            "ci99_high",
        ];
        for c in moved.map(|c| col(rows, c)) {
            rows[1][c] = fixed(rows[1][c].parse::<f64>().unwrap() + shift);
        }
        let edge = col(rows, "house_edge");
        rows[1][edge] = fixed(rows[1][edge].parse::<f64>().unwrap() - shift);
    });
    refused(
        &run,
        &dir.path().join("o"),
        &[
            "summary.csv line 2, wager 'main': player_ev",
            "its lines in returns.csv pay",
        ],
    );
    fs::write(&summary, &original).unwrap();
    edit_csv(&summary, |rows| {
        let ev = col(rows, "player_ev");
        rows[1][ev] = fixed(rows[1][ev].parse::<f64>().unwrap() + 0.05);
    });
    refused(&run, &dir.path().join("o"), &["summary.csv line 2"]);
    fs::write(&summary, &original).unwrap();
    edit_csv(&summary, |rows| {
        let edge = col(rows, "house_edge");
        rows[1][edge] = fixed(rows[1][edge].parse::<f64>().unwrap() + 0.05);
    });
    refused(
        &run,
        &dir.path().join("o"),
        &["house_edge", "is not minus its player_ev"],
    );
}

/// A convergence.csv cut short (its rows at the run's whole deals deleted) is refused: its
/// plot would be drawn from the stub. Once only an edited last row was.
#[test]
fn a_convergence_file_without_its_last_row_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let run = copy("small", dir.path());
    edit_csv(&run.join("convergence.csv"), |rows| {
        let deals = col(rows, "deals");
        rows.retain(|r| r[deals] != "1000");
    });
    refused(
        &run,
        &dir.path().join("o"),
        &["convergence.csv: no row of wager", "at all 1000 deals"],
    );
}

/// Counts moved from the win line to the lose line of returns.csv (the total kept), their
/// probabilities and returns rewritten to match, are refused: the lines no longer pay the EV.
#[test]
fn counts_moved_between_lines_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let run = copy("small", dir.path());
    edit_csv(&run.join("returns.csv"), |rows| {
        let (count, p, ret, pays) = (
            col(rows, "count"),
            col(rows, "probability"),
            col(rows, "return"),
            col(rows, "pays"),
        );
        let total: f64 = rows.last().unwrap()[count].parse().unwrap();
        let win = rows.iter().position(|r| r[1] == "win both").unwrap();
        let lose = rows.iter().position(|r| r[1] == "lose").unwrap();
        for (line, by) in [(win, -10i64), (lose, 10)] {
            let n = rows[line][count].parse::<i64>().unwrap() + by;
            let pr = n as f64 / total;
            rows[line][count] = n.to_string();
            rows[line][p] = fixed(pr);
            rows[line][ret] = fixed(pr * rows[line][pays].parse::<f64>().unwrap());
        }
    });
    refused(
        &run,
        &dir.path().join("o"),
        &["returns.csv line", "not what its lines pay"],
    );
}

/// Another run's manifest (1,000 deals beside 2,000 bets), an embedded game text edited after
/// the run or no longer listed in `config_files`, a deleted category, and NaN in a table's
/// summary are refused.
#[test]
fn a_run_that_contradicts_itself_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let run = copy("large", dir.path());
    fs::copy(
        runs().join("small").join("manifest.json"),
        run.join("manifest.json"),
    )
    .unwrap();
    refused(
        &run,
        &dir.path().join("o"),
        &["manifest.json: 1000 deals", "2000 bets"],
    );

    let run = copy("small", dir.path());
    let manifest = run.join("manifest.json");
    let text = fs::read_to_string(&manifest).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let game = value["spec"]["game"]["text"].as_str().unwrap().to_string();
    value["spec"]["game"]["text"] = format!("{game}\n# edited\n").into();
    fs::write(&manifest, serde_json::to_string_pretty(&value).unwrap()).unwrap();
    refused(
        &run,
        &dir.path().join("o"),
        &["manifest.json: the text of", "SHA-256"],
    );
    // The game's line deleted from config_files: an embedded text nothing vouches for (once
    // accepted: only a listed SHA-256 was compared).
    let run = copy("small", dir.path());
    let manifest = run.join("manifest.json");
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let files = value["config_files"].as_array_mut().unwrap();
    files.retain(|f| f["role"] != "game");
    fs::write(&manifest, serde_json::to_string_pretty(&value).unwrap()).unwrap();
    refused(
        &run,
        &dir.path().join("o"),
        &[
            "manifest.json: it embeds the text of",
            "config_files list no SHA-256",
        ],
    );

    let run = copy("categories", dir.path());
    edit_csv(&run.join("categories.csv"), |rows| {
        rows.remove(3);
    });
    refused(
        &run,
        &dir.path().join("o"),
        &["categories.csv line", "a row was deleted"],
    );

    let run = copy("table", dir.path());
    edit_csv(&run.join("summary.csv"), |rows| {
        let c = col(rows, "ev_after_collection_chips_per_round");
        rows[1][c] = "NaN".to_string();
    });
    refused(
        &run,
        &dir.path().join("o"),
        &["summary.csv line 2, column ev_after_collection_chips_per_round: 'NaN'"],
    );
}
