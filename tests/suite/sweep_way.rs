//! `paigow sweep-way` on a reduced deck (2, 7, J, Q, A in four suits and the joker: two pair
//! with every kind of big pair, priced in milliseconds): each variant's EV is `exact main`'s for
//! the edited file written here by hand (text replaced, blocks moved), independently of the
//! command's own editing; the unedited way's row is the way's own EV; a move changes what it
//! should; what the way does not hold is refused by name; a variant that is not a house way is
//! skipped and said.

use std::collections::HashMap;
use std::fs;
use std::path::Path;

use crate::common::cli::paigow;

const RANKS: &str = "27JQA";

/// Foxwoods' rule 10, as the shipped file writes its condition.
const SPLIT_AT_JACKS: &str = "when = { pairs = 2, high_pair = { min = \"J\" } }";

fn foxwoods() -> &'static str {
    include_str!("../../strategies/foxwoods.toml")
}

/// Runs `sweep-way foxwoods` with `varies` into `out`: stdout, and `sweep.csv`'s rows by edit.
fn sweep(out: &Path, varies: &[&str]) -> (String, HashMap<String, HashMap<String, String>>) {
    let mut command = paigow();
    command.args([
        "sweep-way",
        "foxwoods",
        "--dealer-way",
        "foxwoods",
        "--ranks",
        RANKS,
    ]);
    for vary in varies {
        command.args(["--vary", vary]);
    }
    let done = command.arg("--out").arg(out).assert().success();
    let stdout = String::from_utf8_lossy(&done.get_output().stdout).to_string();
    let mut reader = csv::Reader::from_path(out.join("sweep.csv")).unwrap();
    let headers = reader.headers().unwrap().clone();
    let rows = (reader.records())
        .map(|r| {
            let r = r.unwrap();
            let row: HashMap<String, String> = (headers.iter().zip(r.iter()))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect();
            (row["edit"].clone(), row)
        })
        .collect();
    (stdout, rows)
}

/// `exact main`'s exact player EV for the way `text` (written to a file in `dir`) against
/// Foxwoods on the reduced deck.
fn exact_main_ev(dir: &Path, name: &str, text: &str) -> String {
    let way = dir.join(format!("{name}.toml"));
    fs::write(&way, text).unwrap();
    let out = dir.join(format!("{name}-main"));
    paigow()
        .args([
            "exact",
            "main",
            "--dealer-way",
            "foxwoods",
            "--ranks",
            RANKS,
            "--quiet",
        ])
        .arg("--player-way")
        .arg(&way)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let mut reader = csv::Reader::from_path(out.join("summary.csv")).unwrap();
    let headers = reader.headers().unwrap().clone();
    let column = headers.iter().position(|h| h == "player_ev_exact").unwrap();
    let record = reader.records().next().unwrap().unwrap();
    record[column].to_string()
}

/// Foxwoods with its split threshold (rule 10's big pair) at `rank`, written by hand.
fn split_at(rank: &str) -> String {
    assert!(foxwoods().contains(SPLIT_AT_JACKS));
    let edited = SPLIT_AT_JACKS.replace("\"J\"", &format!("\"{rank}\""));
    foxwoods().replace(SPLIT_AT_JACKS, &edited)
}

#[test]
fn each_bound_is_exact_main_of_its_edited_file() {
    let dir = tempfile::tempdir().unwrap();
    let (_, rows) = sweep(
        &dir.path().join("sweep"),
        &["rule[10].when.high_pair.min=7;J;Q"],
    );
    let base = exact_main_ev(dir.path(), "foxwoods", foxwoods());
    assert_eq!(rows["unedited"]["player_ev_exact"], base);
    let unchanged = &rows["rule[10].when.high_pair.min=J"];
    assert_eq!(unchanged["player_ev_exact"], base);
    assert_eq!(
        (
            unchanged["change_exact"].as_str(),
            unchanged["hands_changed"].as_str()
        ),
        ("0/1", "0")
    );
    for rank in ["7", "Q"] {
        let row = &rows[&format!("rule[10].when.high_pair.min={rank}")];
        let ev = exact_main_ev(dir.path(), rank, &split_at(rank));
        assert_eq!(row["player_ev_exact"], ev, "split from {rank}s");
        assert_ne!(
            ev, base,
            "split from {rank}s sets some hand of the deck otherwise"
        );
        assert_ne!(row["hands_changed"], "0");
    }
}

/// Foxwoods with rule `from` (from 1) taken out and put back at place `to`, by its text.
fn moved(from: usize, to: usize) -> String {
    let text = foxwoods();
    let mut blocks: Vec<&str> = text.split("\n[[rule]]\n").collect();
    let head = blocks.remove(0);
    let rule = blocks.remove(from - 1);
    blocks.insert(to - 1, rule);
    let mut out = head.to_string();
    for block in blocks {
        out.push_str("\n[[rule]]\n");
        out.push_str(block);
    }
    out
}

/// Rule 10 (two pair, jacks to aces: split) moved before three pair changes no hand; moved
/// after the catch-all two-pair rule it never fires (the lint says so), and the way is the one
/// written with the rule moved by hand.
#[test]
fn a_move_changes_what_it_should() {
    let dir = tempfile::tempdir().unwrap();
    let (_, rows) = sweep(&dir.path().join("sweep"), &["rule[10].position=9;12"]);
    let before = &rows["rule[10].position=9"];
    assert_eq!(
        before["player_ev_exact"],
        rows["unedited"]["player_ev_exact"]
    );
    assert_eq!(before["hands_changed"], "0");
    let after = &rows["rule[10].position=12"];
    let ev = exact_main_ev(dir.path(), "moved", &moved(10, 12));
    assert_eq!(after["player_ev_exact"], ev);
    assert_ne!(ev, rows["unedited"]["player_ev_exact"]);
    assert!(after["lint"].contains("rule 12 shadowed"), "{after:?}");
}

#[test]
fn what_the_way_does_not_hold_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "rule[99].when.pairs=1",
            "there is no rule 99: the way has rules 1 to 18",
        ),
        (
            "rule[10].when.trips=0",
            "rule 10 'two pair, big pair jacks to aces: small pair in front' has no when.trips",
        ),
        (
            "rule[10].set[3]={}",
            "has no set[3] (its `set` has 1 item(s))",
        ),
        (
            "rule[\"four pair\"].when.pairs=1",
            "no rule is named 'four pair'",
        ),
    ];
    for (vary, message) in cases {
        let out = dir.path().join("refused");
        let done = paigow()
            .args([
                "sweep-way",
                "foxwoods",
                "--dealer-way",
                "foxwoods",
                "--ranks",
                RANKS,
            ])
            .args(["--vary", vary, "--out"])
            .arg(&out)
            .assert()
            .failure();
        let stderr = String::from_utf8_lossy(&done.get_output().stderr).to_string();
        assert!(stderr.contains(message), "{vary}: {stderr}");
        assert!(stderr.contains(&format!("--vary '{vary}'")), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(!out.exists(), "{vary}: nothing is written");
    }
}

/// The catch-all rule moved up is not a house way: its row says why, stdout says it was
/// skipped, the manifest counts it, and the sweep goes on.
#[test]
fn a_variant_that_is_not_a_house_way_is_skipped_and_said() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sweep");
    let (stdout, rows) = sweep(&out, &["rule[18].position=17;18"]);
    let invalid = &rows["rule[18].position=17"];
    assert_eq!(invalid["valid"], "false");
    assert_eq!(invalid["player_ev"], "-");
    assert!(
        invalid["lint"].contains("the last rule must cover every hand"),
        "{invalid:?}"
    );
    assert!(
        stdout.contains("rule[18].position=17  not a valid house way, skipped"),
        "{stdout}"
    );
    let valid = &rows["rule[18].position=18"];
    assert_eq!(
        valid["player_ev_exact"],
        rows["unedited"]["player_ev_exact"]
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(
        (manifest["variants"].as_u64(), manifest["invalid"].as_u64()),
        (Some(2), Some(1))
    );
    assert!(out.join("sweep-1.svg").exists());
}
