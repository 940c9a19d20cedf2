//! `paigow simulate` through the real binary: reports, determinism across threads, bad input.

use std::fs;
use std::path::Path;

use predicates::str::contains;

use crate::common::cli::{paigow, simulate_reports, simulate_ways};

/// A small seeded standard-game run into `out` on `threads` threads.
fn simulate(out: &Path, threads: &str) -> assert_cmd::assert::Assert {
    simulate_ways("max-back", "max-front")
        .args(["--game", "standard", "--deals", "2.5e4", "--seed", "7"])
        .args(["--chunk-size", "1_000", "--threads", threads])
        .args(["--quiet", "--out"])
        .arg(out)
        .assert()
}

#[test]
fn reports_are_byte_identical_at_1_2_and_4_threads() {
    let dir = tempfile::tempdir().unwrap();
    let mut seen = Vec::new();
    for threads in ["1", "2", "4"] {
        let out = dir.path().join(threads);
        simulate(&out, threads).success().stdout("");
        seen.push(simulate_reports(&out));
    }
    assert_eq!(seen[0], seen[1]);
    assert_eq!(seen[0], seen[2]);
    let summary = &seen[0].0;
    assert!(summary.starts_with(
        "wager,method,trials,player_ev,house_edge,win,push,loss,sd,ci95_low,ci95_high,ci99_low,ci99_high\nmain,simulation,25000,"
    ));
}

#[test]
fn returns_total_is_the_player_ev_and_manifest_describes_the_run() {
    let dir = tempfile::tempdir().unwrap();
    simulate(dir.path(), "2").success();
    let (summary, returns, _) = simulate_reports(dir.path());
    // Every wager (the main one, then the game's side bets) closes with a Total row whose return
    // is its summary EV.
    let wagers: Vec<&str> = summary.lines().skip(1).collect();
    assert_eq!(
        wagers.len(),
        3,
        "main + Emperor's Challenge + Pai Gow Mania"
    );
    for row in wagers {
        let fields: Vec<&str> = row.split(',').collect();
        let (wager, ev) = (fields[0], fields[3]);
        let total = format!("{wager},total,Total,-,25000,1.0000000000,-,{ev},-,-");
        assert!(returns.lines().any(|l| l == total), "{total}");
    }
    assert!(returns.contains("main,win both,Player wins both hands,0.9500,"));
    assert!(returns.contains("Emperor's Challenge,no line pays,No line pays,-1.0000,"));
    let convergence = fs::read_to_string(dir.path().join("convergence.csv")).unwrap();
    let last_main = convergence.lines().rfind(|l| l.starts_with("main,"));
    let main_ev = summary.lines().nth(1).unwrap().split(',').nth(3).unwrap();
    assert!(
        last_main
            .unwrap()
            .starts_with(&format!("main,25000,{main_ev},")),
        "the last point is the whole run: {last_main:?}"
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["seed"], 7);
    assert_eq!(manifest["deals"], 25_000);
    assert_eq!(manifest["chunk_size"], 1_000);
    assert_eq!(manifest["threads"], 2);
    let game_text = fs::read("games/standard.toml").unwrap();
    assert_eq!(
        manifest["config_files"][0]["sha256"],
        paigow::files::sha256_hex(&game_text)
    );
    assert!(manifest["deals_per_second"].as_f64().unwrap() > 0.0);
    assert!(
        manifest["command_line"]
            .as_str()
            .unwrap()
            .contains("--deals 2.5e4")
    );
}

#[test]
fn stdout_summary_prints_the_rate_and_each_side_bet_against_its_exact_ev() {
    let dir = tempfile::tempdir().unwrap();
    let out = simulate_ways("max-back", "max-back")
        .args(["--deals", "1e3", "--out"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(contains("deals/s"))
        .stdout(contains("player EV"))
        .stdout(contains("SEs from exact"))
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let summary = fs::read_to_string(dir.path().join("summary.csv")).unwrap();
    let row: Vec<&str> = (summary.lines())
        .find(|l| l.starts_with("Emperor's Challenge,"))
        .unwrap()
        .split(',')
        .collect();
    let (ev, low, high): (f64, f64, f64) = (
        row[3].parse().unwrap(),
        row[9].parse().unwrap(),
        row[10].parse().unwrap(),
    );
    let line = text
        .lines()
        .find(|l| l.starts_with("Emperor's Challenge"))
        .unwrap();
    assert!(line.contains("-4.1714%"), "the exact EV: {line}");
    let k: f64 = line.split_whitespace().last().unwrap().parse().unwrap();
    let se = (high - low) / (2.0 * 1.959_963_985);
    assert!((k - (ev + 0.041_714) / se).abs() < 0.01, "{line}: {k}");
}

/// Each bad input fails with a message naming the problem, and leaves the old report alone.
#[test]
fn bad_input_is_a_clear_error_and_keeps_the_old_report() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    simulate(&out, "1").success();
    let before = fs::read(out.join("summary.csv")).unwrap();
    let bad_game = dir.path().join("bad.toml");
    fs::write(
        &bad_game,
        "name = \"bad\"\ndeck = 53\n[main_wager]\ncommission = \"percent_of_win\"\ncommission_percent = 150\n",
    )
    .unwrap();
    let a_file = dir.path().join("file");
    fs::write(&a_file, "").unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            args(&["--game", "no-such-game"], &out),
            "not a shipped game",
        ),
        (args(&["--player-way", "no-such-way"], &out), "no-such-way"),
        (args(&["--deals", "0"], &out), "at least 1"),
        (args(&["--deals", "2.5"], &out), "whole number"),
        (args(&["--players", "7"], &out), "7"),
        (
            args(&["--game", bad_game.to_str().unwrap()], &out),
            "commission_percent = 150",
        ),
        (
            args(&[], &a_file.join("sub")),
            "cannot create the report directory",
        ),
    ];
    for (argv, message) in cases {
        paigow()
            .args(&argv)
            .assert()
            .failure()
            .stderr(contains(message));
        assert_eq!(
            fs::read(out.join("summary.csv")).unwrap(),
            before,
            "{argv:?}"
        );
    }
    let leftovers: Vec<_> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers.len(), 4, "{leftovers:?}");
}

/// A simulate command line with defaults for what `extra` does not set.
fn args(extra: &[&str], out: &Path) -> Vec<String> {
    let mut argv: Vec<String> = vec!["simulate".into()];
    for (flag, value) in [
        ("--player-way", "max-back"),
        ("--dealer-way", "max-front"),
        ("--deals", "100"),
    ] {
        if !extra.contains(&flag) {
            argv.extend([flag.to_string(), value.to_string()]);
        }
    }
    argv.extend(extra.iter().map(|s| s.to_string()));
    argv.extend(["--quiet".to_string(), "--out".to_string()]);
    argv.push(out.to_str().unwrap().to_string());
    argv
}

/// Double Joker's rules show up as their own returns rows, at six players a deal.
#[test]
fn double_joker_reports_qualification_and_overqualifier_rows() {
    let dir = tempfile::tempdir().unwrap();
    simulate_ways("max-front", "max-front")
        .args(["--game", "double-joker", "--players", "6"])
        .args(["--deals", "1_000", "-q", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let returns = fs::read_to_string(dir.path().join("returns.csv")).unwrap();
    assert!(
        returns
            .contains("main,dealer overqualifies,Dealer overqualifies: paid the multiple,3.0000,")
    );
    assert!(
        returns.contains("main,dealer not qualified (push),Dealer does not qualify: push,0.0000,")
    );
}

#[test]
fn exposed_needs_a_dealer_who_sets_first() {
    let dir = tempfile::tempdir().unwrap();
    simulate_ways("exposed", "foxwoods")
        .args(["--game", "standard", "--deals", "100", "-q", "--out"])
        .arg(dir.path())
        .assert()
        .failure()
        .stderr(contains("dealer_exposed"));
    simulate_ways("exposed", "double-joker-dealer")
        .args(["--game", "double-joker", "--deals", "100", "-q", "--out"])
        .arg(dir.path())
        .assert()
        .success();
}

/// JB's published counts for Foxwoods against itself (Wizard of Odds), stored as the cache's
/// exact result for standard, foxwoods vs foxwoods: the simulation prints the exact EV and how
/// many standard errors it is from it, and the manifest records them; the CSV reports do not
/// change. A finished `exact main` report is taken with --exact-main, and refused (naming both
/// sides) for other ways.
#[test]
fn the_main_wager_is_compared_with_its_exact_result_from_the_cache_or_a_report() {
    use crate::common::cli::store_foxwoods;
    use predicates::prelude::PredicateBooleanExt;

    let (cache, empty, dir) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let (_, exact) = store_foxwoods(cache.path());
    let expected = format!("exact player EV {:+.4}%", 100.0 * exact.player_ev());
    let run = |cache: &Path, out: &Path, extra: &[&str]| {
        simulate_ways("foxwoods", "foxwoods")
            .env("PAIGOW_CACHE_DIR", cache)
            .args(["--deals", "1e5", "--seed", "3", "--out"])
            .arg(out)
            .args(extra)
            .assert()
    };
    let (with, without) = (dir.path().join("with"), dir.path().join("without"));
    let stdout = run(cache.path(), &with, &[])
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(stdout).unwrap();
    let line = (text.lines())
        .find(|l| l.starts_with(&expected))
        .unwrap_or_else(|| panic!("no `{expected}` line in\n{text}"));
    assert!(
        line.contains("standard errors from it (from the cache"),
        "{line}"
    );
    let k: f64 = line.split_whitespace().nth(7).unwrap().parse().unwrap();
    assert!(k.abs() < 5.0, "{line}");
    let manifest = fs::read_to_string(with.join("manifest.json")).unwrap();
    assert!(manifest.contains("\"exact_main\": {"), "{manifest}");
    assert!(manifest.contains("\"standard_errors\": "), "{manifest}");
    run(empty.path(), &without, &[])
        .success()
        .stdout(contains("exact player EV").not());
    assert_eq!(
        simulate_reports(&with),
        simulate_reports(&without),
        "the CSV files do not change"
    );
    let manifest = fs::read_to_string(without.join("manifest.json")).unwrap();
    assert!(!manifest.contains("exact_main"), "{manifest}");

    let report = dir.path().join("exact");
    paigow()
        .env("PAIGOW_CACHE_DIR", cache.path())
        .args([
            "exact",
            "main",
            "--quiet",
            "--player-way",
            "foxwoods",
            "--dealer-way",
            "foxwoods",
            "--out",
        ])
        .arg(&report)
        .assert()
        .success();
    let given = dir.path().join("given");
    let flag = ["--exact-main", report.to_str().unwrap()];
    run(empty.path(), &given, &flag)
        .success()
        .stdout(contains(&expected))
        .stdout(contains(format!("(from the report {})", report.display())));
    simulate_ways("max-back", "foxwoods")
        .env("PAIGOW_CACHE_DIR", empty.path())
        .args(["--deals", "1e3", "--out"])
        .arg(dir.path().join("refused"))
        .args(flag)
        .assert()
        .failure()
        .stderr(contains("--exact-main"))
        .stderr(contains(
            "foxwoods against dealer foxwoods; this run is Standard",
        ))
        .stderr(contains("max-back against dealer foxwoods"));
    run(
        empty.path(),
        &dir.path().join("missing"),
        &["--exact-main", "/no/such/dir"],
    )
    .failure()
    .stderr(contains("/no/such/dir/manifest.json"));
}

/// The committed `exact main` reports that the guide names for `--exact-main` are accepted by
/// this build (they were once refused after the results edition changed, with an error that
/// named the same run twice), and one whose key is from another edition of the same run says
/// to rerun `exact main`.
#[test]
fn committed_exact_main_reports_serve_simulate_and_a_stale_one_says_to_rerun() {
    let dir = tempfile::tempdir().unwrap();
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/exact");
    let runs = [
        ("standard", "foxwoods", "foxwoods"),
        ("double-joker", "exposed", "double-joker-dealer"),
    ];
    for (game, player, dealer) in runs {
        let report = committed.join(format!("{game}-{player}-vs-{dealer}-main"));
        simulate_ways(player, dealer)
            .env("PAIGOW_CACHE_DIR", dir.path().join("empty-cache"))
            .args(["--game", game, "--deals", "1e3", "--out"])
            .arg(dir.path().join(game))
            .arg("--exact-main")
            .arg(&report)
            .assert()
            .success()
            .stdout(contains(format!("(from the report {})", report.display())));
    }
    let stale = dir.path().join("stale");
    fs::create_dir(&stale).unwrap();
    let manifest = committed.join("standard-foxwoods-vs-foxwoods-main/manifest.json");
    let text = fs::read_to_string(manifest).unwrap();
    let key = text.split("\"cache_key\": \"").nth(1).unwrap();
    let edited = text.replacen(&key[..64], &"0".repeat(64), 1);
    fs::write(stale.join("manifest.json"), edited).unwrap();
    simulate_ways("foxwoods", "foxwoods")
        .env("PAIGOW_CACHE_DIR", dir.path().join("empty-cache"))
        .args(["--deals", "1e3", "--out"])
        .arg(dir.path().join("refused"))
        .arg("--exact-main")
        .arg(&stale)
        .assert()
        .failure()
        .stderr(contains("the same game and ways by name"))
        .stderr(contains("rerun `paigow exact main`"));
}
