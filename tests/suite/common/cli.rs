//! Helpers for the tests that drive the real `paigow` binary: the command, a `simulate` command
//! line with its two ways, and the reports a run writes.

use std::fs;
use std::path::Path;

use assert_cmd::Command;

/// The `paigow` binary built for this test run, its caches (dealer tables, exact main results)
/// in the build's own folder: the tests neither read nor fill the user's cache.
pub fn paigow() -> Command {
    let mut command = Command::cargo_bin("paigow").unwrap();
    command.env(
        "PAIGOW_CACHE_DIR",
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("paigow-cache"),
    );
    command
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
