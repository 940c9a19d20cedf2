//! `paigow set`: one hand, stdin, CSV, explain, bad input.

use std::fs;

use crate::common::cli::paigow;
use predicates::prelude::*;

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

/// The rows of `set --exact --format csv` for one hand.
fn exact_rows(args: &[&str]) -> Vec<csv::StringRecord> {
    let out = paigow()
        .args(["set", "Jk", "Ts", "Td", "8c", "8h", "5s", "3d", "--exact"])
        .args(["--format", "csv"])
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    csv::Reader::from_reader(out.as_slice())
        .records()
        .map(|r| r.unwrap())
        .collect()
}

#[test]
fn exact_lists_every_legal_setting_best_first() {
    let rows = exact_rows(&["--way", "foxwoods"]);
    assert_eq!(
        rows.len(),
        20,
        "the one foul split (Td Ts front) is left out"
    );
    let field = |r: &csv::StringRecord, i: usize| r[i].parse::<f64>().unwrap();
    for r in &rows {
        assert_eq!(&r[5], "53524680", "C(46, 7) dealer hands");
        let total: f64 = (6..10).map(|i| field(r, i)).sum();
        assert!((total - 1.0).abs() < 1e-9, "{r:?}");
    }
    assert!(
        rows.windows(2)
            .all(|w| field(&w[0], 10) >= field(&w[1], 10))
    );
    assert_eq!(&rows[0][12], "true");
    let chosen: Vec<_> = rows.iter().filter(|r| &r[13] == "true").collect();
    assert_eq!(chosen.len(), 1);
    assert_eq!((&chosen[0][1], &chosen[0][2]), ("Jk 5s", "Td Ts 8c 8h 3d"));
}

#[test]
fn optimal_is_built_once_then_read_from_the_cache() {
    let cache = tempfile::tempdir().unwrap();
    let run = || {
        let out = paigow()
            .env("PAIGOW_CACHE_DIR", cache.path())
            .args(["set", "As", "Ad", "Kc", "Qh", "9s", "5d", "2c"])
            .args(["--way", "full-deck-optimal:max-back"])
            .assert()
            .success()
            .get_output()
            .clone();
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (first, built) = run();
    let (second, read) = run();
    assert!(built.contains("dealer table built"), "{built}");
    assert!(read.is_empty(), "{read}");
    assert_eq!(first, second);
    assert!(first.contains("full-deck-optimal:max-back: highest EV against the dealer table"));
}

#[test]
fn optimal_needs_a_dealer_way_that_does_not_see_the_player() {
    paigow()
        .args(["set", "As", "Ad", "Kc", "Qh", "9s", "5d", "2c"])
        .args(["--way", "optimal:exposed"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("optimal:exposed"));
    paigow()
        .args(["set", "As", "Ad", "Kc", "Qh", "9s", "5d", "2c"])
        .args(["--way", "foxwoods", "--dealer-way", "foxwoods"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("--exact"));
}

/// A line of standard input that is not UTF-8 is an error naming `stdin:LINE`.
#[test]
fn bytes_that_are_not_text_name_their_line() {
    paigow()
        .args(["set", "--way", "foxwoods"])
        .write_stdin(b"As Kd Qh Jc Ts 9s 2d\nAs Kd \xff\xfe Jc Ts 9s 2d\n".to_vec())
        .assert()
        .failure()
        .stderr(predicates::str::contains("stdin:2: not UTF-8 text"));
}

#[test]
fn a_way_that_is_not_a_house_way_file_is_named_for_what_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let hand = ["set", "Ts", "Td", "5h", "5c", "Ad", "9h", "2c", "--way"];
    let cases = [
        ("exposed", "exposed: a built-in strategy, not a house way"),
        ("", "'': an empty name"),
        (
            dir.path().to_str().unwrap(),
            "a directory; a house way is a file",
        ),
    ];
    for (way, said) in cases {
        paigow()
            .args(hand)
            .arg(way)
            .assert()
            .failure()
            .stderr(predicate::str::contains(said));
    }
}

/// A failed condition shows the hand's value as the language writes it: a pair of 9s is "9" (it
/// once showed the stored index, 7, which reads as a pair of 7s), a flag true or false.
#[test]
fn explain_shows_the_hands_values_as_written() {
    let out = paigow()
        .args(["set", "9c", "9d", "5h", "5c", "Ks", "3d", "2h"])
        .args(["--way", "foxwoods", "--explain"])
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("(hand has \"9\")"), "{stdout}");
    assert!(stdout.contains("(hand has false)"), "{stdout}");
    assert!(!stdout.contains("(hand has 7)"), "{stdout}");
}

/// `joker = "front"` asks every joker in front: with two jokers, one in front and one behind
/// does not satisfy it (it once did). Where both can go in front they do; where they cannot (the
/// back would not beat a pair of aces), the next alternative sets the hand.
#[test]
fn joker_front_means_every_joker_in_front() {
    let dir = tempfile::tempdir().unwrap();
    let way = "name = \"jokers front\"\nsource = \"a test\"\n\n[[rule]]\nname = \"jokers in front\"\n\
               when = { jokers = 2 }\nset = [ { joker = \"front\" }, { maximize = [\"back\"] } ]\n\n\
               [[rule]]\nname = \"else\"\nset = [ { maximize = [\"back\"] } ]\n";
    fs::write(dir.path().join("jf.toml"), way).unwrap();
    let jokers_in_front = |hand: [&str; 7]| {
        let out = paigow()
            .current_dir(dir.path())
            .arg("set")
            .args(hand)
            .args(["--game", "double-joker", "--way", "jf.toml"])
            .assert()
            .success();
        let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        stdout.split('|').next().unwrap().matches("Jk").count()
    };
    assert_eq!(
        jokers_in_front(["Jk1", "Jk2", "Kc", "Kd", "9h", "9s", "2c"]),
        2
    );
    assert_eq!(
        jokers_in_front(["Jk1", "Jk2", "Kc", "9d", "7h", "4s", "2c"]),
        0
    );
}
