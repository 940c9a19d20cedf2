//! Helpers for the tests that drive the real `paigow` binary: the command, a `simulate` command
//! line with its two ways, and the reports a run writes.

use std::fs;
use std::path::Path;

use assert_cmd::Command;

/// The `paigow` binary built for this test run.
pub fn paigow() -> Command {
    Command::cargo_bin("paigow").unwrap()
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
