//! The real binary: `paigow eval`, `paigow splits`, `paigow exact categories`, and the errors a
//! user can make (each a non-zero exit with a message naming the problem, never a panic).

use crate::common::cli::paigow;
use predicates::prelude::*;

/// Runs `paigow ARGS`, expecting success; returns stdout.
fn run_ok(args: &[&str]) -> String {
    let out = paigow().args(args).assert().success().get_output().clone();
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Runs `paigow ARGS`, expecting exit code 1 and stderr containing every one of `needles`.
fn run_err(args: &[&str], needles: &[&str]) {
    let out = paigow().args(args).assert().code(1).get_output().clone();
    let stderr = String::from_utf8(out.stderr).expect("UTF-8 errors");
    assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    for needle in needles {
        assert!(
            stderr.contains(needle),
            "{args:?}: {stderr:?} lacks {needle:?}"
        );
    }
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}: wrote to stdout on error");
}

/// The number in "[value N]" of an eval line.
fn printed_value(line: &str) -> u32 {
    let start = line.rfind("[value ").expect("a value") + "[value ".len();
    line[start..line.len() - 1].parse().expect("a number")
}

#[test]
fn eval_two_and_five_cards() {
    let two = run_ok(&["eval", "As", "Kh"]);
    assert!(two.contains("high card"), "{two}");
    let pair = run_ok(&["eval", "Jk As"]);
    assert!(
        pair.contains("one pair"),
        "bug joker in front is an ace: {pair}"
    );
    let royal = run_ok(&["eval", "As Ks Qs Js Jk"]);
    assert!(royal.contains("royal flush"), "{royal}");
    // A copy: the joker royal and a natural royal print the same value.
    let natural = run_ok(&["eval", "Ah Kh Qh Jh Th"]);
    assert_eq!(printed_value(royal.trim()), printed_value(natural.trim()));
    // And the order is the evaluator's: a front pair of aces below a 5-card pair of aces.
    let back = run_ok(&["eval", "Ac Ad 4h 3s 2c"]);
    assert!(printed_value(pair.trim()) < printed_value(back.trim()));
    // Five aces under the double-joker game.
    let five = run_ok(&["eval", "--game", "double-joker", "Ac Ad Ah Jk Jk"]);
    assert!(five.contains("five of a kind"), "{five}");
    // The wild joker pairs a front card.
    let wild = run_ok(&["eval", "--game", "jokers-wild", "Jk", "7d"]);
    assert!(wild.contains("one pair"), "{wild}");
}

#[test]
fn eval_seven_cards_names_the_best_five_and_the_other_two() {
    let out = run_ok(&["eval", "As Ah Kd Qc 9s 5h Jk"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].starts_with("best five: "), "{out}");
    assert!(lines[0].contains("three of a kind"), "{out}");
    assert!(lines[1].starts_with("other two: "), "{out}");
    let five = lines[0]["best five: ".len()..].split(':').next().unwrap();
    let two = &lines[1]["other two: ".len()..];
    let mut all: Vec<&str> = five
        .split_whitespace()
        .chain(two.split_whitespace())
        .collect();
    all.sort_unstable();
    let mut given = vec!["As", "Ah", "Kd", "Qc", "9s", "5h", "Jk"];
    given.sort_unstable();
    assert_eq!(all, given);
}

#[test]
fn splits_table_lists_21_settings_with_fouls() {
    let out = run_ok(&["splits", "As Ah Kd Qc 9s 5h Jk"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 21, "{out}");
    // Each row: index, two front cards, five back cards, "legal" or "foul", then descriptions.
    let rows: Vec<Vec<&str>> = lines
        .iter()
        .map(|l| l.split_whitespace().collect())
        .collect();
    let mut fronts = Vec::new();
    for (k, row) in rows.iter().enumerate() {
        assert_eq!(row[0], k.to_string(), "{}", lines[k]);
        assert!(["legal", "foul"].contains(&row[8]), "{}", lines[k]);
        let mut front = vec![row[1], row[2]];
        front.sort_unstable();
        fronts.push(front);
    }
    // The 21 fronts are the 21 distinct pairs of the seven cards.
    let mut distinct = fronts.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 21);
    let status = |a: &str, b: &str| {
        let mut want = vec![a, b];
        want.sort_unstable();
        let k = fronts.iter().position(|f| *f == want).expect("that front");
        rows[k][8]
    };
    // A pair of aces in front of K Q 9 5 and the joker (an ace: ace-king high) is a foul; so is
    // the joker with an ace (a pair of aces) in front of A K Q 9 5. K-Q in front is legal.
    assert_eq!(status("As", "Ah"), "foul");
    assert_eq!(status("Jk", "As"), "foul");
    assert_eq!(status("Kd", "Qc"), "legal");
    assert_eq!(status("9s", "5h"), "legal");
}

#[test]
fn splits_csv_has_a_header_and_21_rows() {
    let out = run_ok(&["splits", "--format", "csv", "As Ah Kd Qc 9s 5h Jk"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "split,front,back,front_value,back_value,front_hand,back_hand,legal"
    );
    assert_eq!(lines.len(), 22, "{out}");
    let (mut legal, mut foul) = (0, 0);
    for (k, line) in lines[1..].iter().enumerate() {
        // The first five columns never contain a comma.
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields[0], k.to_string(), "{line}");
        let front: u32 = fields[3].parse().expect("front value");
        let back: u32 = fields[4].parse().expect("back value");
        let is_legal = *fields.last().unwrap();
        assert_eq!(
            is_legal,
            if front < back { "true" } else { "false" },
            "{line}"
        );
        if front < back {
            legal += 1;
        } else {
            foul += 1;
        }
    }
    assert!(legal > 0 && foul > 0, "{out}");
}

/// Guards a CSV bug: `front_hand` and `back_hand` ("high card, K Q") contain commas and are
/// written unquoted, so a CSV reader sees 10 fields in an 8-column table.
#[test]
fn splits_csv_parses_as_csv() {
    let out = run_ok(&["splits", "--format", "csv", "As Ah Kd Qc 9s 5h Jk"]);
    let mut reader = csv::Reader::from_reader(out.as_bytes());
    let header = reader.headers().unwrap().clone();
    assert_eq!(header.len(), 8);
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 21);
    for row in &rows {
        assert_eq!(row.len(), 8, "{row:?}");
        assert!(row[5].starts_with("high card") || row[5].starts_with("one pair"));
        assert!(["true", "false"].contains(&&row[7]));
    }
}

/// Parses the categories CSV into (category, combinations, probability) rows.
fn category_rows(csv_text: &str) -> Vec<(String, u64, f64)> {
    let mut lines = csv_text.lines();
    assert_eq!(lines.next(), Some("category,combinations,probability"));
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f.len(), 3, "{l}");
            (
                f[0].to_string(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn exact_categories_standard() {
    let out = run_ok(&["exact", "categories", "--game", "standard"]);
    let rows = category_rows(&out);
    let (name, total, p) = rows.last().unwrap();
    assert_eq!((name.as_str(), *total), ("total", 154_143_080)); // C(53,7)
    assert_eq!(*p, 1.0);
    let body = &rows[..rows.len() - 1];
    assert_eq!(body.iter().map(|r| r.1).sum::<u64>(), 154_143_080);
    assert_eq!(body.first().map(|r| r.0.as_str()), Some("five aces"));
    assert_eq!(body.last().map(|r| r.0.as_str()), Some("high card"));
    // Five aces: four aces, the joker and 2 of the other 48 cards.
    assert_eq!(body[0].1, 48 * 47 / 2);
    for (name, n, p) in body {
        let want = *n as f64 / 154_143_080.0;
        assert!((p - want).abs() < 1e-11, "{name}: {p} vs {want}");
    }
}

#[test]
fn exact_categories_out_writes_the_csv_and_a_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("reports").join("standard-categories");
    let stdout = run_ok(&[
        "exact",
        "categories",
        "--game",
        "standard",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(stdout.is_empty(), "{stdout}");
    let written = std::fs::read_to_string(out.join("categories.csv")).unwrap();
    assert_eq!(
        written,
        run_ok(&["exact", "categories", "--game", "standard"])
    );
    assert!(written.contains("total,154143080,"));
    let manifest = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(manifest["command"], "exact categories");
    assert_eq!(manifest["config_files"][0]["origin"], "games/standard.toml");
    assert_eq!(manifest["spec"]["game"]["origin"], "games/standard.toml");
    assert_eq!(manifest["spec"]["options"]["method"], "structure");
}

#[test]
fn bad_card_token() {
    run_err(&["eval", "As", "Xs"], &["bad card 'Xs'"]);
    run_err(&["splits", "As Ah Kd Qc 9s 5h 1c"], &["bad card '1c'"]);
}

#[test]
fn duplicate_card() {
    run_err(&["eval", "As", "as"], &["'as'", "twice"]);
}

#[test]
fn second_joker_in_a_one_joker_deck() {
    run_err(&["eval", "Jk Jk As Kd Qc"], &["'Jk'", "53-card deck"]);
    run_err(
        &["eval", "--game", "jokers-wild", "Jk Jk"],
        &["53-card deck"],
    );
    // The double-joker deck has two.
    run_ok(&["eval", "--game", "double-joker", "Jk Jk As Kd Qc"]);
}

#[test]
fn wrong_card_count() {
    run_err(&["eval", "As Kd Qc"], &["expected", "got 3"]);
    run_err(&["splits", "As Kd Qc 9s 5h"], &["expected 7", "got 5"]);
}

#[test]
fn unknown_game() {
    run_err(
        &["eval", "--game", "no-such-game", "As Kd"],
        &["no-such-game"],
    );
    run_err(
        &["exact", "categories", "--game", "no-such-game"],
        &["no-such-game", "standard"],
    );
}

#[test]
fn game_file_with_an_unknown_key_names_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("typo.toml");
    std::fs::write(&path, "name = \"typo\"\ndeck = 53\njokr = \"bug\"\n").unwrap();
    let file = path.to_str().unwrap();
    run_err(
        &["eval", "--game", file, "As Kd"],
        &[&format!("{file}:3:1"), "jokr"],
    );
}

#[test]
fn missing_cards_is_a_usage_error_not_a_panic() {
    paigow()
        .arg("eval")
        .assert()
        .failure()
        .stderr(predicate::str::contains("panicked").not());
}
