//! Helpers for the tests that drive the real `paigow` binary: the command, a `simulate` command
//! line with its two ways, and the reports a run writes.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use paigow::engine::anchors::FOXWOODS_JB;
use paigow::engine::exact_main::MainExact;
use paigow::engine::exact_main::cache::{disjoint_pairs, store_in};
use paigow::game::GameRules;
use paigow::strategy::resolve::resolve;

/// The `paigow` binary built for this test run, its caches (dealer tables, exact main results)
/// in the build's own folder: the tests neither read nor fill the user's cache.
///
/// A test binary copied to another machine (`tests/longrun.sh`) names both at run time:
/// `CARGO_BIN_EXE_paigow`, read by `assert_cmd`, for the binary, and `PAIGOW_TEST_CACHE_DIR` for
/// the cache (the build folder compiled in here is not there).
pub fn paigow() -> Command {
    let mut command = Command::cargo_bin("paigow").unwrap();
    let cache = std::env::var_os("PAIGOW_TEST_CACHE_DIR").map_or_else(
        || Path::new(env!("CARGO_TARGET_TMPDIR")).join("paigow-cache"),
        PathBuf::from,
    );
    command.env("PAIGOW_CACHE_DIR", cache);
    command
}

/// JB's published counts for Foxwoods against itself on the standard game, stored in `cache` as
/// an exact main result (so that a test needs no count of its own): the entry's path and the
/// result.
pub fn store_foxwoods(cache: &Path) -> (PathBuf, MainExact) {
    let game = GameRules::load("standard").unwrap();
    let fox = resolve("foxwoods", &game).unwrap().identity();
    assert_eq!(FOXWOODS_JB.pairs(), disjoint_pairs(&game));
    let exact = MainExact {
        counts: FOXWOODS_JB,
        wager: game.main_wager,
    };
    (store_in(cache, &game, &fox, &fox, &exact).unwrap(), exact)
}

/// The names in `dir`, sorted: what a command left there.
pub fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = (fs::read_dir(dir).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `paigow simulate` with the player's and the dealer's way; the caller adds the other options.
pub fn simulate_ways(player_way: &str, dealer_way: &str) -> Command {
    let mut command = paigow();
    command.args([
        "simulate",
        "--player-way",
        player_way,
        "--dealer-way",
        dealer_way,
    ]);
    command
}

/// The `summary.csv`, `returns.csv` and `convergence.csv` of a report directory written by
/// `simulate` or `merge`.
pub fn simulate_reports(dir: &Path) -> (String, String, String) {
    let read = |name: &str| fs::read_to_string(dir.join(name)).unwrap();
    (
        read("summary.csv"),
        read("returns.csv"),
        read("convergence.csv"),
    )
}

/// `paigow report RUN --out OUT --quiet`, which must succeed; the report's `report.md`.
pub fn report_md(run: &Path, out: &Path) -> String {
    paigow()
        .arg("report")
        .arg(run)
        .arg("--out")
        .arg(out)
        .arg("--quiet")
        .assert()
        .success();
    fs::read_to_string(out.join("report.md")).unwrap()
}
