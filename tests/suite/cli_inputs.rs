//! Input defects an adversarial pass found (issue 39), through the real binary: each refusal
//! names its file and line, each message stays short, and tiny runs print no infinities.

use std::fs;
use std::path::Path;

use predicates::prelude::*;
use predicates::str::contains;

use crate::common::cli::{paigow, simulate_ways};

/// `simulate` of `game` (a path in `dir`) for `deals` deals, quiet unless `loud`.
fn simulate_game(dir: &Path, game: &str, deals: &str) -> assert_cmd::assert::Assert {
    simulate_ways("foxwoods", "foxwoods")
        .current_dir(dir)
        .args(["--game", game, "--deals", deals, "--out", "run"])
        .assert()
}

#[test]
fn a_blank_game_or_way_name_is_refused_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("g.toml"), "deck = 53\nname = \" \\t \"\n").unwrap();
    simulate_game(dir.path(), "g.toml", "10")
        .failure()
        .stderr(contains("g.toml:2:1: name is empty or only blanks"));
    let way = fs::read_to_string("strategies/max-back.toml").unwrap();
    let blank = way.replacen("name = \"", "name = \"   \" # \"", 1);
    assert_ne!(blank, way);
    fs::write(dir.path().join("w.toml"), blank).unwrap();
    paigow()
        .current_dir(dir.path())
        .args([
            "simulate",
            "--player-way",
            "w.toml",
            "--dealer-way",
            "foxwoods",
        ])
        .args(["--deals", "10", "--out", "run"])
        .assert()
        .failure()
        .stderr(contains("w.toml:").and(contains("name is empty or only blanks")));
}

#[test]
fn an_invalid_utf8_file_is_refused_at_its_line_and_byte() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("g.toml"),
        b"name = \"x\"\ndeck = 53\n# \xff\n",
    )
    .unwrap();
    simulate_game(dir.path(), "g.toml", "10")
        .failure()
        .stderr(contains("g.toml:3:3: invalid UTF-8 at byte 23"));
}

#[test]
fn a_paytable_error_met_through_a_game_names_both_files() {
    let dir = tempfile::tempdir().unwrap();
    let bet = "name = \"bet\"\n\n[[line]]\nevent = \"flush\"\npays = -3\n";
    fs::write(dir.path().join("bet.toml"), bet).unwrap();
    let game = "name = \"x\"\ndeck = 53\nside_bets = [\"bet.toml\"]\n";
    fs::write(dir.path().join("g.toml"), game).unwrap();
    simulate_game(dir.path(), "g.toml", "10")
        .failure()
        .stderr(contains("g.toml:3:").and(contains("bet.toml:5:")));
}

/// A percent read as 0 or 100 basis points is refused, not run as no commission or the win.
#[test]
fn a_commission_percent_that_rounds_to_0_or_100_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for percent in ["99.99999999999", "0.000000001"] {
        let game = format!(
            "name = \"x\"\ndeck = 53\n[main_wager]\ncommission = \"percent_of_win\"\n\
             commission_percent = {percent}\n"
        );
        fs::write(dir.path().join("g.toml"), game).unwrap();
        simulate_game(dir.path(), "g.toml", "10")
            .failure()
            .stderr(contains("expected a percent from 0.01 to 99.99"));
    }
}

#[test]
fn a_long_bet_name_makes_a_report_and_a_huge_one_is_refused_short() {
    let dir = tempfile::tempdir().unwrap();
    let bet = |name: &str| format!("name = \"{name}\"\n[[line]]\nevent = \"flush\"\npays = 3\n");
    fs::write(dir.path().join("bet.toml"), bet(&"B".repeat(250))).unwrap();
    let game = "name = \"x\"\ndeck = 53\nside_bets = [\"bet.toml\"]\n";
    fs::write(dir.path().join("g.toml"), game).unwrap();
    simulate_game(dir.path(), "g.toml", "20").success();
    paigow()
        .current_dir(dir.path())
        .args(["report", "run", "--out", "rep", "--quiet"])
        .assert()
        .success();
    fs::write(dir.path().join("bet.toml"), bet(&"B".repeat(100_000))).unwrap();
    let refused = simulate_game(dir.path(), "g.toml", "20").failure();
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(stderr.len() < 400, "{} bytes: {stderr:.400}", stderr.len());
    assert!(
        stderr.contains("bet.toml:1:1: name is 100000 characters long"),
        "{stderr:.400}"
    );
}

#[test]
fn a_table_refusal_names_the_game_file() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("g.toml"), "name = \"x\"\ndeck = 52\n").unwrap();
    paigow()
        .current_dir(dir.path())
        .args(["table", "--game", "g.toml", "--seats", "D,10,-,-,-,-,-"])
        .args(["--bank", "unlimited", "--rounds", "10", "--out", "t"])
        .assert()
        .failure()
        .stderr(contains("error: g.toml: the table deals seven piles"));
    paigow()
        .current_dir(dir.path())
        .args(["table", "--game", "standard", "--seats", "D,10,-,-,-,-,-"])
        .args(["--bank", "unlimited", "--rounds", "10", "--out", "t"])
        .assert()
        .failure()
        .stderr(contains("error: games/standard.toml: the table settles"));
}

/// One deal has no variance and takes no measurable time: the summary says so in words.
#[test]
fn a_one_deal_run_prints_no_infinity() {
    let dir = tempfile::tempdir().unwrap();
    for command in ["simulate", "compare"] {
        let mut cmd = paigow();
        cmd.current_dir(dir.path()).arg(command);
        match command {
            "simulate" => cmd.args(["--player-way", "foxwoods", "--dealer-way", "foxwoods"]),
            _ => cmd.args(["--dealer-way", "foxwoods", "--ways", "foxwoods", "max-back"]),
        };
        cmd.args(["--deals", "1", "--out", command])
            .assert()
            .success()
            .stdout(contains("inf").not().and(contains("NaN").not()));
    }
}

#[test]
fn compare_refuses_13_ways_before_building_any() {
    let dir = tempfile::tempdir().unwrap();
    let ways = (0..13).map(|i| format!("optimal:missing-{i}.toml"));
    paigow()
        .current_dir(dir.path())
        .args([
            "compare",
            "--dealer-way",
            "foxwoods",
            "--deals",
            "10",
            "--ways",
        ])
        .args(ways)
        .assert()
        .failure()
        .stderr(contains("a comparison needs 2 to 12 ways, got 13"));
}

#[test]
fn report_refuses_package_options_without_all() {
    let dir = tempfile::tempdir().unwrap();
    simulate_game(dir.path(), "standard", "10").success();
    for option in [["--player-way", "max-back"], ["--deals", "100"]] {
        paigow()
            .current_dir(dir.path())
            .args(["report", "run", "--out", "rep"])
            .args(option)
            .assert()
            .failure()
            .stderr(contains("--all"));
    }
}

/// Every command that counts exactly takes `--threads` in the range every command does, 1 to
/// 1024: `exact main --threads 0` once ran on the default pool and `--threads 100000` tried to
/// start 100,000 threads (it hung); `exact categories` and `exact bonus` took no `--threads`.
#[test]
fn every_exact_commands_threads_are_range_checked() {
    let commands: [&[&str]; 7] = [
        &["exact", "main", "--ranks", "A234"],
        &[
            "exact",
            "prices",
            "--dealer-way",
            "foxwoods",
            "--ranks",
            "A234",
        ],
        &["exact", "categories"],
        &["exact", "bonus"],
        &["cost-way", "foxwoods", "--ranks", "A234"],
        &[
            "sweep-way",
            "foxwoods",
            "--vary",
            "rule[10].when.high_pair.min=J..Q",
        ],
        &["derive-way", "--dealer-way", "foxwoods", "--ranks", "A234"],
    ];
    for command in commands {
        for threads in ["0", "100000", "x"] {
            paigow()
                .args(command)
                .args(["--threads", threads])
                .assert()
                .code(2)
                .stderr(contains("threads must be a whole number from 1 to 1024"));
        }
    }
    let dir = tempfile::tempdir().unwrap();
    for (command, out) in [("categories", "c"), ("bonus", "b")] {
        paigow()
            .args(["exact", command, "--threads", "1", "--out"])
            .arg(dir.path().join(out))
            .assert()
            .success();
        let manifest = fs::read_to_string(dir.path().join(out).join("manifest.json")).unwrap();
        assert!(manifest.contains("\"threads\": 1,"), "{manifest}");
    }
    // Without --threads, the global pool's count: RAYON_NUM_THREADS where set (the long run
    // sets 1 and runs games side by side), else one per core.
    let pooled = dir.path().join("pooled");
    paigow()
        .env("RAYON_NUM_THREADS", "1")
        .args(["exact", "bonus", "--quiet", "--out"])
        .arg(&pooled)
        .assert()
        .success();
    let manifest = fs::read_to_string(pooled.join("manifest.json")).unwrap();
    assert!(manifest.contains("\"threads\": 1,"), "{manifest}");
}
