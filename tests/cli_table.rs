//! `paigow table` through the real binary: reports, determinism across threads, bad input.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use predicates::str::contains;

fn paigow() -> Command {
    Command::cargo_bin("paigow").unwrap()
}

fn table(out: &Path, threads: &str) -> assert_cmd::assert::Assert {
    paigow()
        .args([
            "table",
            "--game",
            "california",
            "--seats",
            "D,100,-,50+20,40,-,200",
        ])
        .args(["--bank", "250", "--collection", "1=1,60=2,200=3"])
        .args(["--rounds", "2e4", "--seed", "9", "--chunk-size", "1_000"])
        .args(["--threads", threads, "--quiet", "--out"])
        .arg(out)
        .assert()
}

#[test]
fn reports_are_byte_identical_at_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    table(&a, "1").success();
    table(&b, "3").success();
    for name in ["summary.csv", "outcomes.csv"] {
        let x = fs::read(a.join(name)).unwrap();
        assert_eq!(x, fs::read(b.join(name)).unwrap(), "{name}");
    }
    let summary = fs::read_to_string(a.join("summary.csv")).unwrap();
    let lines: Vec<&str> = summary.lines().collect();
    assert_eq!(lines.len(), 9, "header, seven seats, the card room");
    assert!(lines[1].starts_with("1,player-dealer,250,20000,"));
    assert!(lines[4].starts_with("4,player+backline,50+20,20000,"));
    assert!(lines[8].starts_with("room,card room,-,20000,-,11.0000000000,"));
    let outcomes = fs::read_to_string(a.join("outcomes.csv")).unwrap();
    assert!(outcomes.contains("table,bank ran out,"));
    assert!(outcomes.contains("7,action pile,"));
    let manifest: serde_json::Value =
        serde_json::from_slice(&fs::read(a.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["deals"], 20_000);
    assert_eq!(manifest["player_dealer_seat"], 1);
    assert_eq!(manifest["threads"], 1);
}

#[test]
fn the_summary_names_every_seat() {
    let dir = tempfile::tempdir().unwrap();
    paigow()
        .args(["table", "--seats", "-,-,30,D,-,-,-", "--bank", "unlimited"])
        .args(["--rounds", "1000", "--out"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(contains("player-dealer").and(contains("card room collection: 0")));
}

fn refused(args: &[&str], message: &str) {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = paigow();
    cmd.args(["table", "--quiet", "--out"]).arg(dir.path());
    let base = [
        ("--seats", "D,10,-,-,-,-,-"),
        ("--bank", "100"),
        ("--rounds", "100"),
    ];
    for (flag, value) in base {
        if !args.contains(&flag) {
            cmd.args([flag, value]);
        }
    }
    cmd.args(args)
        .assert()
        .failure()
        .stderr(contains(message).and(contains("panicked").not()));
}

use predicates::prelude::PredicateBooleanExt;

#[test]
fn bad_input_is_a_clear_error() {
    refused(
        &["--seats", "D,10,-,-,-,-"],
        "needs 7 comma-separated seats, got 6",
    );
    refused(&["--seats", "10,10,-,-,-,-,-"], "exactly one 'D'");
    refused(&["--seats", "D,D,-,-,-,-,-"], "exactly one 'D'");
    refused(
        &["--seats", "D,ten,-,-,-,-,-"],
        "seat 2: 'ten' is not a bet",
    );
    refused(
        &["--seats", "D,10+0,-,-,-,-,-"],
        "seat 2: a bet must be 1 to",
    );
    refused(&["--seats", "D,-,-,-,-,-,-"], "no seat has a bet");
    refused(&["--bank", "0"], "the bank must be 1 to");
    refused(&["--bank", "lots"], "the bank must be 1 to");
    refused(&["--bank", "1000000000001"], "the bank must be 1 to");
    refused(
        &["--seats", "D,1000000000001,-,-,-,-,-"],
        "seat 2: a bet must be 1 to",
    );
    refused(&["--collection", "60=2,1=1"], "collection schedule");
    refused(&["--collection", "2%"], "collection schedule");
    refused(&["--game", "double-joker"], "overqualifier");
    refused(
        &["--game", "standard"],
        "a commission (a card room takes a collection instead)",
    );
    refused(&["--game", "nope"], "nope");
    refused(&["--player-way", "no-such-way"], "no-such-way");
    refused(&["--rounds", "0"], "at least 1");
}
