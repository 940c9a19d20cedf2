//! `paigow check-way`: shipped ways pass; bad files name the file, the line and the rule.

use assert_cmd::Command;
use predicates::prelude::*;

fn paigow() -> Command {
    Command::cargo_bin("paigow").unwrap()
}

fn check(text: &str) -> assert_cmd::assert::Assert {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.toml");
    std::fs::write(&path, text).unwrap();
    let out = paigow()
        .args(["check-way", "--hands", "2000", path.to_str().unwrap()])
        .assert();
    drop(dir);
    out
}

const HEAD: &str = "name = \"t\"\nsource = \"test\"\n";
const LAST: &str = "\n[[rule]]\nname = \"rest\"\nset = [ { maximize = [\"front\"] } ]\n";

#[test]
fn shipped_ways_pass_with_coverage() {
    paigow()
        .args(["check-way", "--hands", "5000", "foxwoods", "max-back"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("rule 18").and(predicate::str::contains("5000 100.0000%")),
        );
}

#[test]
fn a_missing_field_names_file_line_and_rule() {
    let text = format!("{HEAD}\n[[rule]]\nname = \"pairs\"\nwhen = {{ pairs = 1 }}\n{LAST}");
    check(&text)
        .failure()
        .stderr(
            predicate::str::contains("bad.toml:4:").and(predicate::str::contains("rule 1 'pairs'")),
        )
        .stderr(predicate::str::contains("set"));
}

#[test]
fn an_unknown_key_names_file_line_and_rule() {
    let text = format!(
        "{HEAD}\n[[rule]]\nname = \"pairs\"\nwhen = {{ pairz = 1 }}\nset = [ {{}} ]\n{LAST}"
    );
    check(&text)
        .failure()
        .stderr(
            predicate::str::contains("bad.toml:6:").and(predicate::str::contains("rule 1 'pairs'")),
        )
        .stderr(predicate::str::contains("pairz"));
}

#[test]
fn a_misspelt_rank_names_file_line_and_rule() {
    let text = format!(
        "{HEAD}\n[[rule]]\nname = \"big\"\nwhen = {{ high_pair = {{ min = \"Kx\" }} }}\nset = [ {{}} ]\n{LAST}"
    );
    check(&text)
        .failure()
        .stderr(
            predicate::str::contains("bad.toml:4:").and(predicate::str::contains("rule 1 'big'")),
        )
        .stderr(predicate::str::contains("unknown rank 'Kx'"));
}

#[test]
fn a_misspelt_category_names_file_line_and_rule() {
    let text = format!(
        "{HEAD}\n[[rule]]\nname = \"cat\"\nset = [ {{ back = {{ min = \"straigth\" }} }} ]\n{LAST}"
    );
    check(&text)
        .failure()
        .stderr(
            predicate::str::contains("bad.toml:4:").and(predicate::str::contains("rule 1 'cat'")),
        )
        .stderr(predicate::str::contains("unknown category 'straigth'"));
}

#[test]
fn an_empty_rule_list_is_an_error() {
    check(HEAD)
        .failure()
        .stderr(predicate::str::contains("bad.toml").and(predicate::str::contains("no rules")));
}

#[test]
fn a_rule_with_no_alternatives_names_file_line_and_rule() {
    let text = format!("{HEAD}\n[[rule]]\nname = \"empty\"\nset = []\n{LAST}");
    check(&text)
        .failure()
        .stderr(
            predicate::str::contains("bad.toml:4:").and(predicate::str::contains("rule 1 'empty'")),
        )
        .stderr(predicate::str::contains("no alternatives"));
}

#[test]
fn a_way_that_does_not_cover_every_hand_is_an_error() {
    let text = format!(
        "{HEAD}\n[[rule]]\nname = \"only pairs\"\nwhen = {{ pairs = 1 }}\nset = [ {{}} ]\n"
    );
    check(&text).failure().stderr(
        predicate::str::contains("rule 1 'only pairs'")
            .and(predicate::str::contains("cover every hand")),
    );
}

#[test]
fn contradictory_conditions_are_an_error_and_lint_warnings_are_reported() {
    let text = format!(
        "{HEAD}\n[[rule]]\nname = \"odd\"\nwhen = {{ pairs = 1, low_pair = \"5\" }}\nset = [ {{}} ]\n\
         \n[[rule]]\nname = \"no five aces front\"\nwhen = {{ pairs = 1 }}\nset = [ {{ front = {{ pair = \"A\" }}, back = {{ max = \"high_card\" }} }} ]\n{LAST}"
    );
    check(&text)
        .failure()
        .stderr(
            predicate::str::contains("contradictory conditions")
                .and(predicate::str::contains("rule 1 'odd'")),
        )
        .stderr(
            predicate::str::contains("rule 2 'no five aces front'")
                .and(predicate::str::contains("alternative 1")),
        );
}
