//! `paigow check-way`: shipped ways lint clean; what no hand can meet is a load error for every
//! command, naming the file, the line and the rule; the exact lint's findings come with their
//! counts of hands, and allowances written in the file turn them into notes.

use crate::common::cli::paigow;
use predicates::prelude::*;

/// Runs `args` with `text` written to `bad.toml` (the path replaces `FILE` in `args`).
fn run_with(text: &str, args: &[&str]) -> assert_cmd::assert::Assert {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.toml");
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap();
    let args: Vec<&str> = args
        .iter()
        .map(|a| if *a == "FILE" { path } else { a })
        .collect();
    let out = paigow().args(&args).assert();
    drop(dir);
    out
}

fn check(text: &str) -> assert_cmd::assert::Assert {
    run_with(text, &["check-way", "FILE"])
}

const HEAD: &str = "name = \"t\"\nsource = \"test\"\n";
const LAST: &str = "\n[[rule]]\nname = \"rest\"\nset = [ { maximize = [\"front\"] } ]\n";

/// A way with one rule `name` (its `when` and `set` as given) before the catch-all; the rule's
/// header is line 4, `when` line 6, `set` line 7.
fn one_rule(name: &str, when: &str, set: &str) -> String {
    format!("{HEAD}\n[[rule]]\nname = \"{name}\"\nwhen = {when}\nset = {set}\n{LAST}")
}

#[test]
fn shipped_ways_lint_clean_with_exact_coverage() {
    paigow()
        .args(["check-way", "--strict", "foxwoods", "max-back"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("exact over all 154143080 hands of the 53-card deck")
                .and(predicate::str::contains("0 warning(s), 0 note(s)"))
                .and(predicate::str::contains("154143080  100.0000%")),
        )
        .stderr(predicate::str::is_empty());
}

#[test]
fn a_way_is_linted_on_the_game_it_names() {
    paigow()
        .args(["check-way", "--strict", "double-joker-dealer"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "177100560 hands of the 54-card deck",
        ))
        .stderr(
            predicate::str::contains("note:").and(predicate::str::contains(
                "allowed: the seed's overqualifier rule",
            )),
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
fn an_unknown_key_names_file_line_rule_and_the_valid_keys() {
    let text = one_rule("pairs", "{ pairz = 1 }", "[ {} ]");
    check(&text)
        .failure()
        .stderr(
            predicate::str::contains("bad.toml:6:").and(predicate::str::contains("rule 1 'pairs'")),
        )
        .stderr(
            predicate::str::contains("pairz")
                .and(predicate::str::contains("high_pair"))
                .and(predicate::str::contains("WhenFile").not()),
        );
}

#[test]
fn a_badly_typed_condition_names_no_rust_type() {
    let text = one_rule("list", "{ pairs = [1] }", "[ {} ]");
    check(&text)
        .failure()
        .stderr(predicate::str::contains("rule 1 'list'"))
        .stderr(predicate::str::contains("CondFile").not());
}

#[test]
fn a_misspelt_rank_names_file_line_and_rule() {
    let text = one_rule("big", "{ high_pair = { min = \"Kx\" } }", "[ {} ]");
    check(&text)
        .failure()
        .stderr(
            predicate::str::contains("bad.toml:6:").and(predicate::str::contains("rule 1 'big'")),
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
            predicate::str::contains("bad.toml:6:").and(predicate::str::contains("rule 1 'cat'")),
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
            predicate::str::contains("bad.toml:6:").and(predicate::str::contains("rule 1 'empty'")),
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

/// Conditions and alternatives no hand can meet, each with what the error must say.
const IMPOSSIBLE: &[(&str, &str, &str, &str)] = &[
    ("four pairs", "{ pairs = 4 }", "[ {} ]", "pairs is 0 to 3"),
    (
        "five pairs",
        "{ pairs = { min = 5 } }",
        "[ {} ]",
        "pairs is 0 to 3",
    ),
    ("three trips", "{ trips = 3 }", "[ {} ]", "trips is 0 to 2"),
    (
        "five jokers",
        "{ jokers = 5 }",
        "[ {} ]",
        "jokers is 0 to 2",
    ),
    (
        "big pair without pairs",
        "{ high_pair = { min = \"J\" }, pairs = 0 }",
        "[ {} ]",
        "contradictory conditions",
    ),
    (
        "low pair above high pair",
        "{ high_pair = { max = \"8\" }, low_pair = { min = \"9\" } }",
        "[ {} ]",
        "contradictory conditions",
    ),
    (
        "impossible any",
        "{ pairs = 1, any = [ { trips = 2 }, { quads = 2 } ] }",
        "[ {} ]",
        "never hold",
    ),
    (
        "flush front",
        "{ pairs = 1 }",
        "[ { front = { min = \"flush\" } } ]",
        "a 2-card front is only high card or a pair",
    ),
    (
        "last only_if_better",
        "{ pairs = 1 }",
        "[ { front = { top = \"A\" }, only_if_better_than = \"next\" } ]",
        "no next alternative",
    ),
    (
        "second above top",
        "{ pairs = 1 }",
        "[ { front = { top = { max = \"5\" }, second = { min = \"9\" } } } ]",
        "`second`",
    ),
    (
        "low pair of one pair",
        "{ pairs = 1, trips = 0 }",
        "[ { front = { pair = \"low_pair\" } } ]",
        "no hand meeting the rule's conditions has one",
    ),
];

#[test]
fn conditions_no_hand_can_meet_are_load_errors_for_check_way() {
    for (name, when, set, says) in IMPOSSIBLE {
        let line = if set.contains("front") { "7" } else { "6" };
        check(&one_rule(name, when, set))
            .failure()
            .stderr(predicate::str::contains(format!("bad.toml:{line}:")))
            .stderr(predicate::str::contains(format!("rule 1 '{name}'")))
            .stderr(predicate::str::contains(*says));
    }
}

#[test]
fn conditions_no_hand_can_meet_are_load_errors_for_set_and_simulate() {
    for (name, when, set, says) in &IMPOSSIBLE[..3] {
        let text = one_rule(name, when, set);
        run_with(
            &text,
            &[
                "set", "As", "Ad", "Kc", "Qh", "9s", "5d", "2c", "--way", "FILE",
            ],
        )
        .failure()
        .stderr(
            predicate::str::contains(format!("rule 1 '{name}'"))
                .and(predicate::str::contains(*says)),
        );
        let simulate = [
            "simulate",
            "--player-way",
            "FILE",
            "--dealer-way",
            "foxwoods",
        ];
        run_with(
            &text,
            &[&simulate[..], &["--deals", "10", "--quiet"]].concat(),
        )
        .failure()
        .stderr(
            predicate::str::contains(format!("rule 1 '{name}'"))
                .and(predicate::str::contains(*says)),
        );
    }
}

#[test]
fn a_rule_that_falls_through_is_warned_with_its_exact_count_and_an_example() {
    // Three of a kind with a pair in front and nothing else: no split of trips alone puts a
    // pair in front and keeps three of a kind behind.
    let text = one_rule(
        "trips, pair in front",
        "{ trips = 1, pairs = 0, straight_or_flush = false }",
        "[ { back = { min = \"three_of_a_kind\" }, front = { min = \"pair\" } } ]",
    );
    check(&text).success().stderr(
        predicate::str::contains("warning: ")
            .and(predicate::str::contains(
                "bad.toml:4: rule 1 'trips, pair in front'",
            ))
            .and(predicate::str::contains("falls through on"))
            .and(predicate::str::contains("(e.g. ")),
    );
    run_with(&text, &["check-way", "--strict", "FILE"]).failure();
}

#[test]
fn a_rule_no_hand_of_the_deck_meets_never_fires() {
    // Two jokers exist only in the 54-card deck: on the standard game the rule never fires.
    let text = one_rule("two jokers", "{ jokers = 2 }", "[ {} ]");
    check(&text).success().stderr(
        predicate::str::contains("never fires")
            .and(predicate::str::contains("no hand of the 53-card deck")),
    );
    run_with(
        &text,
        &["check-way", "--strict", "--game", "double-joker", "FILE"],
    )
    .success();
}

#[test]
fn shadowed_rules_and_alternatives_are_warned_with_counts() {
    let text = format!(
        "{HEAD}\n[[rule]]\nname = \"pairs\"\nwhen = {{ pairs = {{ min = 1 }} }}\nset = [ {{}}, {{ front = {{ min = \"pair\" }} }} ]\n\
         \n[[rule]]\nname = \"two pair\"\nwhen = {{ pairs = 2 }}\nset = [ {{}} ]\n{LAST}"
    );
    check(&text)
        .success()
        .stderr(
            predicate::str::contains("rule 2 'two pair': shadowed: earlier rules set all")
                .and(predicate::str::contains("set by rule 1")),
        )
        .stderr(predicate::str::contains("alternative 2: never sets a hand"));
}

#[test]
fn an_alternative_no_reached_hand_satisfies_is_warned() {
    let text = one_rule(
        "no pair",
        "{ pairs = 0, trips = 0, quads = 0, five_aces = false }",
        "[ { front = { pair = \"K\" } }, {} ]",
    );
    check(&text).success().stderr(predicate::str::contains(
        "alternative 1: no hand reaching the rule satisfies it",
    ));
}

#[test]
fn allowances_turn_findings_into_notes_and_unused_ones_are_warned() {
    let rule = |allow: &str| {
        format!(
            "{HEAD}\n[[rule]]\nname = \"two jokers\"\nallow = [{allow}]\nbecause = \"only the 54-card game has them\"\nwhen = {{ jokers = 2 }}\nset = [ {{}} ]\n{LAST}"
        )
    };
    run_with(&rule("\"never_fires\""), &["check-way", "--strict", "FILE"])
        .success()
        .stderr(
            predicate::str::contains("note: ").and(predicate::str::contains(
                "allowed: only the 54-card game has them",
            )),
        );
    run_with(
        &rule("\"falls_through\""),
        &["check-way", "--strict", "FILE"],
    )
    .failure()
    .stderr(predicate::str::contains(
        "allow lists 'falls_through' but the lint finds none",
    ));
    run_with(&rule("\"sometimes\""), &["check-way", "FILE"])
        .failure()
        .stderr(predicate::str::contains("unknown finding 'sometimes'"));
    let no_reason =
        rule("\"never_fires\"").replace("because = \"only the 54-card game has them\"\n", "");
    run_with(&no_reason, &["check-way", "FILE"])
        .failure()
        .stderr(predicate::str::contains("`allow` needs `because`"));
}
