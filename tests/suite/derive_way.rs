//! `paigow derive-way` on reduced decks: the written way is what its frontier says (its EV by
//! `exact main`), the frontier's cost never rises, the file is lint-clean and `set --explain`
//! names its rules; bad input is refused.

use std::path::Path;

use crate::common::cli::paigow;
use predicates::prelude::*;

/// The rows of a CSV file, by column name.
fn rows(path: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let headers = reader.headers().unwrap().clone();
    (reader.records())
        .map(|r| {
            let r = r.unwrap();
            (headers.iter().zip(r.iter()))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// A fraction written `n/d`.
fn fraction(text: &str) -> (i128, i128) {
    let (n, d) = text.split_once('/').unwrap_or((text, "1"));
    (n.parse().unwrap(), d.parse().unwrap())
}

#[test]
fn a_derived_way_is_what_its_frontier_says() {
    let dir = tempfile::tempdir().unwrap();
    let way = dir.path().join("derived.toml");
    let frontier = dir.path().join("report").join("frontier.csv");
    paigow()
        .args(["derive-way", "--dealer-way", "foxwoods", "--max-rules", "6"])
        .args(["--ranks", "A234", "--out"])
        .arg(&way)
        .arg("--frontier")
        .arg(&frontier)
        .assert()
        .success()
        .stdout(predicate::str::contains("lint-clean"));
    assert!(dir.path().join("report").join("manifest.json").is_file());
    let steps = rows(&frontier);
    assert!(steps.len() >= 3, "{steps:?}");
    // The cost never rises with the rules, and each step saves what the cost fell by.
    for pair in steps.windows(2) {
        let (a, b) = (
            fraction(&pair[0]["cost_exact"]),
            fraction(&pair[1]["cost_exact"]),
        );
        assert!(b.0 * a.1 < a.0 * b.1, "{pair:?}");
        let rules: [usize; 2] = [0, 1].map(|i| pair[i]["rules"].parse().unwrap());
        assert!(rules[1] <= rules[0] + 1 && rules[1] <= 6, "{rules:?}");
    }
    // The written way, counted afresh by exact main, has the last row's EV to the unit.
    let last = steps.last().unwrap();
    let exact = dir.path().join("exact");
    paigow()
        .args([
            "exact",
            "main",
            "--dealer-way",
            "foxwoods",
            "--ranks",
            "A234",
        ])
        .arg("--player-way")
        .arg(&way)
        .arg("--out")
        .arg(&exact)
        .assert()
        .success();
    let summary = rows(&exact.join("summary.csv"));
    assert_eq!(summary[0]["player_ev_exact"], last["ev_exact"]);
    // Lint-clean on the game's full deck.
    paigow()
        .arg("check-way")
        .arg(&way)
        .arg("--strict")
        .assert()
        .success()
        .stdout(predicate::str::contains("0 warning(s)"));
    // Every rule is named in words, and `set --explain` names the rule that sets a hand.
    let text = std::fs::read_to_string(&way).unwrap();
    let names: Vec<&str> = (text.lines())
        .filter_map(|l| l.strip_prefix("name = \""))
        .map(|n| n.trim_end_matches('"'))
        .skip(1)
        .collect();
    assert_eq!(names.len().to_string(), last["rules"]);
    assert!(names.iter().all(|n| n.contains(": ")), "{names:?}");
    let explain = paigow()
        .args([
            "set",
            "4s",
            "4d",
            "4h",
            "3c",
            "3d",
            "2s",
            "As",
            "--explain",
            "--way",
        ])
        .arg(&way)
        .assert()
        .success();
    let out = String::from_utf8_lossy(&explain.get_output().stdout).into_owned();
    let applies = (out.lines())
        .find(|l| l.contains(": applies; alternative"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        names.iter().any(|n| applies.contains(&format!("'{n}'"))),
        "{applies}"
    );
}

#[test]
fn bad_input_is_refused() {
    paigow()
        .args(["derive-way", "--dealer-way", "foxwoods", "--max-rules", "0"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("--max-rules"));
    paigow()
        .args(["derive-way", "--dealer-way", "nowhere", "--max-rules", "3"])
        .args(["--ranks", "A234"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("nowhere"));
}
