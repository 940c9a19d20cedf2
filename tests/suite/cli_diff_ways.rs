//! `paigow diff-ways`: the summary, `diff.csv`, EV pricing with a dealer way, and bad input.

use crate::common::cli::paigow;
use predicates::prelude::*;

fn rows(dir: &std::path::Path) -> Vec<csv::StringRecord> {
    let text = std::fs::read_to_string(dir.join("diff.csv")).unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    assert_eq!(reader.headers().unwrap().len(), 17);
    reader.records().map(|r| r.unwrap()).collect()
}

#[test]
fn a_way_against_itself_sets_no_hand_differently() {
    let out = tempfile::tempdir().unwrap();
    paigow()
        .args(["diff-ways", "foxwoods", "foxwoods", "--out"])
        .arg(out.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("0 of 154143080 hands (0.0000%)"));
    let rows = rows(out.path());
    assert_eq!(rows.len(), 1);
    assert_eq!((&rows[0][0], &rows[0][5]), ("total", "0"));
}

#[test]
fn groups_with_examples_and_prices_with_a_dealer_way() {
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("old.toml");
    let text = std::fs::read_to_string("strategies/foxwoods.toml").unwrap();
    let fix = ",\n        { back = { min = \"straight\" }, maximize = [\"front\"] } ]";
    std::fs::write(&old, text.replacen(fix, " ]", 1)).unwrap();
    let out = dir.path().join("report");
    paigow()
        .args(["diff-ways", old.to_str().unwrap(), "foxwoods", "--out"])
        .arg(&out)
        .args(["--dealer-way", "max-back", "--ev-hands", "3"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("83916 of 154143080 hands")
                .and(predicate::str::contains("in 3 groups"))
                .and(predicate::str::contains("against dealer way max-back"))
                .and(predicate::str::contains(
                    "EV change over all hands (B less A): +",
                )),
        );
    let rows = rows(&out);
    assert_eq!(rows.len(), 4);
    let hands: Vec<u64> = rows.iter().map(|r| r[5].parse().unwrap()).collect();
    assert_eq!(hands, [46_008, 36_936, 972, 83_916]);
    for r in &rows[..3] {
        assert_eq!((&r[1], &r[3], &r[10], &r[11]), ("15", "8", "sampled", "3"));
        let (mean, low, high): (f64, f64, f64) = (
            r[12].parse().unwrap(),
            r[13].parse().unwrap(),
            r[14].parse().unwrap(),
        );
        assert!(low <= mean && mean <= high && mean > 0.0, "{r:?}");
    }
    // The manifest (once there was none: a lab could not tell what made diff.csv) embeds both
    // ways' texts, the dealer's, and the options that change the prices.
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["command"], "diff-ways");
    assert_eq!(manifest["hands_set_differently"], 83_916);
    let roles: Vec<&str> = (manifest["spec"]["strategies"].as_array().unwrap().iter())
        .map(|s| s["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["way A", "way B", "dealer way"]);
    let way_a = &manifest["spec"]["strategies"][0]["sources"][0]["text"];
    assert_eq!(way_a.as_str(), Some(text.replacen(fix, " ]", 1).as_str()));
    assert_eq!(manifest["spec"]["options"]["ev_hands"], "3");
    let files = manifest["config_files"].to_string();
    assert!(
        files.contains("old.toml") && files.contains("strategies/foxwoods.toml"),
        "{files}"
    );
    // The report directory is replaced as a whole by the next run, and one from before
    // manifests (diff.csv alone) still is.
    std::fs::remove_file(out.join("manifest.json")).unwrap();
    paigow()
        .args(["diff-ways", "foxwoods", "foxwoods", "--out"])
        .arg(&out)
        .assert()
        .success();
    assert!(out.join("manifest.json").is_file());
}

#[test]
fn an_unknown_way_or_dealer_way_is_an_error() {
    let refused = |args: &[&str], said: &str| {
        paigow()
            .arg("diff-ways")
            .args(args)
            .assert()
            .failure()
            .stderr(predicate::str::contains(said));
    };
    refused(&["foxwoods", "no-such-way"], "no-such-way");
    let dealer = ["foxwoods", "ballys-ac", "--dealer-way"];
    refused(
        &[&dealer[..], &["optimal:foxwoods"]].concat(),
        "optimal:foxwoods: the dealer's way must be a house way",
    );
    // A built-in is named as the user wrote it, and refused as a built-in, not a missing file.
    refused(
        &[&dealer[..], &["exposed"]].concat(),
        "error: exposed: the dealer's way must be",
    );
    refused(
        &["foxwoods", "optimal:foxwoods"],
        "optimal:foxwoods: a built-in strategy, not a house way",
    );
    refused(&["foxwoods", "ballys-ac", "--ev-hands", "1"], "--ev-hands");
}
