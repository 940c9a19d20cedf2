//! `paigow self-test` through the binary: its cheap sections pass, one line a check and a
//! summary; a section that is not there is refused; and the one figure it expects that this
//! tool computed (Foxwoods against Foxwoods, `engine::anchors::FOXWOODS_EXACT`) is the committed
//! report's count. (The check functions failing on wrong figures: the unit tests of
//! `engine::self_test`. The whole command, its two long sections included, takes 20 to 30 s on
//! two cores: the suite runs the sections of seconds.)

use std::path::Path;

use predicates::str::contains;

use crate::common::cli::paigow;
use crate::common::report_rows::{csv_rows, field};
use paigow::engine::anchors::{FOXWOODS_EXACT, PUBLISHED_BETS};
use paigow::game::wager::Outcome;

/// Sections 2 (the side bets) and 4 (the reduced decks) pass, each check on a PASS line with
/// the figure expected and the figure got, and the summary counts them.
#[test]
fn the_side_bet_and_reduced_deck_sections_pass() {
    let output = paigow()
        .args(["self-test", "--only", "2,4", "--threads", "2"])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{text}");
    let binary = std::fs::read(assert_cmd::cargo::cargo_bin("paigow")).unwrap();
    let sha = paigow::files::sha256_hex(&binary);
    assert!(text.contains(&format!("binary SHA-256 {sha}")), "{text}");
    let passed: Vec<&str> = text.lines().filter(|l| l.starts_with("PASS  ")).collect();
    let lines: usize = PUBLISHED_BETS.iter().map(|b| b.lines.len() + 2).sum();
    // Each reduced deck: every outcome that happens, and the pairs in all (at least 5 lines).
    assert!(passed.len() >= lines + 10, "{text}");
    assert!(!text.contains("FAIL  "), "{text}");
    assert!(
        text.contains("Emperor's Challenge: royal_flush: expected 26,092, got 26,092"),
        "{text}"
    );
    let summary = format!("self-test: {0} checks, {0} PASS, 0 FAIL", passed.len());
    assert!(text.contains(&summary), "{text}");
    assert!(text.contains("[2/4]") && text.contains("[4/4]") && !text.contains("[1/4]"));
}

/// `--only` names a section from 1 to 4.
#[test]
fn a_section_that_is_not_there_is_refused() {
    paigow()
        .args(["self-test", "--only", "5"])
        .assert()
        .failure()
        .stderr(contains("'5': a section is a number from 1 to 4"));
}

/// The Foxwoods count the self-test expects is the committed report's, outcome by outcome.
#[test]
fn the_foxwoods_anchor_is_the_committed_count() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let returns = dir.join("reports/exact/standard-foxwoods-vs-foxwoods-main/returns.csv");
    let rows = csv_rows(&returns);
    let count = |event: &str| -> u64 {
        let row = (rows.iter().skip(1))
            .find(|r| field(&rows[0], r, "event") == event)
            .unwrap_or_else(|| panic!("no {event} in {}", returns.display()));
        field(&rows[0], row, "combinations").parse().unwrap()
    };
    let copies = count("  of which copies");
    let loss = FOXWOODS_EXACT.get(Outcome::Loss) + FOXWOODS_EXACT.get(Outcome::CopyLoss);
    assert_eq!(FOXWOODS_EXACT.get(Outcome::Win), count("win both"));
    assert_eq!(FOXWOODS_EXACT.get(Outcome::Push), count("push"));
    assert_eq!(loss, count("lose"));
    assert_eq!(FOXWOODS_EXACT.get(Outcome::CopyLoss), copies);
    assert_eq!(FOXWOODS_EXACT.pairs(), count("total"));
}
