//! `paigow set`: one hand, stdin, CSV, explain, bad input.

use assert_cmd::Command;
use predicates::prelude::*;

fn paigow() -> Command {
    Command::cargo_bin("paigow").unwrap()
}

#[test]
fn sets_one_hand_and_names_the_rule() {
    paigow()
        .args([
            "set", "Ts", "Td", "5h", "5c", "Ad", "9h", "2c", "--way", "foxwoods",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("front A 9").or(predicate::str::contains("front Ad 9h")))
        .stdout(predicate::str::contains(
            "rule 11: two pair, big pair 7s to 10s",
        ));
}

#[test]
fn reads_hands_from_stdin_as_csv() {
    let out = paigow()
        .args(["set", "--way", "max-front", "--format", "csv"])
        .write_stdin("As Qd Th 8c 7d 4h 2c\n\n# a comment\n9s 9d Ah Kc 7d 4h 2c\n")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("hand,front,back"));
    assert!(
        lines[2].contains("Ah Kc") || lines[2].contains("A K"),
        "{text}"
    );
}

#[test]
fn explain_lists_the_rules_tried() {
    paigow()
        .args([
            "set",
            "9s",
            "9d",
            "Ah",
            "Kc",
            "7d",
            "4h",
            "2c",
            "--way",
            "foxwoods",
            "--explain",
        ])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("rule 1 'five aces")
                .and(predicate::str::contains("does not apply")),
        )
        .stdout(
            predicate::str::contains("rule 17 'one pair")
                .and(predicate::str::contains("applies; alternative 1")),
        );
}

#[test]
fn a_bad_hand_on_stdin_names_its_line() {
    paigow()
        .args(["set", "--way", "foxwoods"])
        .write_stdin("As Qd Th 8c 7d 4h 2c\nAs Qd Th 8c 7d 4h Xx\n")
        .assert()
        .failure()
        .stderr(predicate::str::contains("stdin:2:").and(predicate::str::contains("Xx")));
}

#[test]
fn an_unknown_way_is_an_error() {
    paigow()
        .args([
            "set",
            "As",
            "Qd",
            "Th",
            "8c",
            "7d",
            "4h",
            "2c",
            "--way",
            "no-such-way",
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains("no-such-way").and(predicate::str::contains("foxwoods")));
}
