//! `paigow exact main`: reports of a reduced deck (the same bytes at any thread count, a total
//! row equal to the summary's EV), a cached result used as is, and errors that name their input.

use crate::common::cli::paigow;
use paigow::engine::exact_main::cache::{disjoint_pairs, store_in};
use paigow::engine::exact_main::{MainExact, PairCounts};
use paigow::game::GameRules;
use paigow::strategy::resolve::resolve;
use predicates::prelude::*;

fn reports(dir: &std::path::Path) -> (String, String) {
    let read = |name| std::fs::read_to_string(dir.join(name)).unwrap();
    (read("returns.csv"), read("summary.csv"))
}

fn run_reduced(threads: &str, dir: &std::path::Path) {
    run_reduced_by(threads, "auto", dir);
}

fn run_reduced_by(threads: &str, engine: &str, dir: &std::path::Path) {
    paigow()
        .args([
            "exact",
            "main",
            "--player-way",
            "max-front",
            "--dealer-way",
            "foxwoods",
        ])
        .args(["--ranks", "A234", "--quiet", "--threads", threads])
        .args(["--engine", engine, "--out"])
        .arg(dir)
        .assert()
        .success();
}

/// The price table's engine and the count give the same report bytes, and each manifest names
/// its engine; a player who sees the dealer's hand is refused by the table, with the way named.
#[test]
fn both_engines_report_the_same_counts_and_the_manifest_names_which() {
    let (count, table) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    run_reduced_by("2", "count", count.path());
    run_reduced_by("2", "table", table.path());
    assert_eq!(reports(count.path()), reports(table.path()));
    let manifest =
        |dir: &std::path::Path| std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    assert!(manifest(count.path()).contains("inclusion-exclusion"));
    assert!(manifest(table.path()).contains("the price table of the dealer's way"));
    paigow()
        .args([
            "exact",
            "main",
            "--game",
            "double-joker",
            "--player-way",
            "exposed",
        ])
        .args([
            "--dealer-way",
            "double-joker-dealer",
            "--ranks",
            "A234",
            "--engine",
            "table",
        ])
        .args(["--quiet", "--out"])
        .arg(table.path().join("exposed"))
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("'exposed").and(predicate::str::contains("--engine count")),
        );
}

/// The table engine refuses a player who sees the dealer's hand before it prices anything (on a
/// full deck that was minutes of work, then the refusal), and a reduced deck's table is not
/// announced as minutes of work cached once.
#[test]
fn the_table_engine_refuses_before_pricing_and_a_reduced_table_is_not_called_slow() {
    let dir = tempfile::tempdir().unwrap();
    let exact = |player: &str, dealer: &str, game: &str| {
        let mut cmd = paigow();
        cmd.args(["exact", "main", "--game", game, "--player-way", player])
            .args([
                "--dealer-way",
                dealer,
                "--ranks",
                "A234",
                "--engine",
                "table",
            ])
            .args(["--threads", "1", "--out"])
            .arg(dir.path().join(player));
        cmd
    };
    exact("exposed", "double-joker-dealer", "double-joker")
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("'exposed").and(predicate::str::contains("pricing").not()),
        );
    exact("max-front", "foxwoods", "standard")
        .assert()
        .success()
        .stderr(
            predicate::str::contains("a reduced deck: moments, not cached")
                .and(predicate::str::contains("a few minutes").not()),
        );
}

#[test]
fn a_reduced_deck_reports_the_same_bytes_at_any_thread_count() {
    let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    run_reduced("1", one.path());
    run_reduced("2", two.path());
    let (returns, summary) = reports(one.path());
    assert_eq!((returns.clone(), summary.clone()), reports(two.path()));
    // C(17, 7) player hands, each against C(10, 7) dealer hands.
    let pairs = (19_448u64 * 120).to_string();
    let total = returns.lines().last().unwrap();
    let fields: Vec<&str> = total.split(',').collect();
    assert_eq!(&fields[..5], ["main wager", "total", "-", &pairs, &pairs]);
    let summary_row: Vec<&str> = summary.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(
        fields[6], summary_row[3],
        "the total return is the player's EV"
    );
    let manifest = std::fs::read_to_string(one.path().join("manifest.json")).unwrap();
    assert!(manifest.contains("\"deck_cards\": 17"), "{manifest}");
}

#[test]
fn a_cached_result_is_reported_without_counting() {
    let cache = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let game = GameRules::load("standard").unwrap();
    let way = resolve("canterbury-park", &game).unwrap();
    let total = disjoint_pairs(&game);
    let (win, push) = (total / 3, total / 3);
    let exact = MainExact {
        counts: PairCounts {
            classes: [win, 0, push, 0, total - win - push - 7, 7, 0],
        },
        wager: game.main_wager,
    };
    store_in(
        cache.path(),
        &game,
        &way.identity(),
        &way.identity(),
        &exact,
    )
    .unwrap();
    paigow()
        .env("PAIGOW_CACHE_DIR", cache.path())
        .args([
            "exact",
            "main",
            "--player-way",
            "canterbury-park",
            "--dealer-way",
        ])
        .args(["canterbury-park", "--out"])
        .arg(out.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("(from the cache)"))
        .stdout(predicate::str::contains(format!("win {win} ")));
    let (returns, _) = reports(out.path());
    assert!(
        returns.contains(&format!("  of which copies,-,7,{total},")),
        "{returns}"
    );
}

#[test]
fn bad_input_is_an_error_naming_it() {
    let cases: [(&[&str], &str); 5] = [
        (&["--ranks", "A2X"], "'X' is not a rank"),
        (&["--ranks", "A2"], "--ranks A2"),
        (&["--ranks", "A23A"], "'A' is given twice"),
        (&["--player-way", "exposed"], "dealer_exposed = true"),
        (&["--player-way", "no-such-way"], "no-such-way"),
    ];
    for (args, message) in cases {
        let mut command = paigow();
        command.args(["exact", "main", "--quiet", "--dealer-way", "foxwoods"]);
        if !args.contains(&"--player-way") {
            command.args(["--player-way", "foxwoods"]);
        }
        command
            .args(args)
            .assert()
            .failure()
            .stderr(predicate::str::contains(message));
    }
}
