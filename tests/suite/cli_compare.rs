//! `paigow compare` through the real binary: byte-identical reports at any thread count, the
//! same EV as `paigow simulate`, the ranking, the examples, and bad input.

use std::fs;
use std::path::Path;

use predicates::str::contains;

use crate::common::cli::{paigow, simulate_ways};

const WAYS: [&str; 3] = ["foxwoods", "ballys-ac", "canterbury-park"];

/// The deals of the seeded comparison: `simulate` given the same options deals the same cards.
const DEALS: [&str; 6] = ["--deals", "3e4", "--seed", "5", "--chunk-size", "2_000"];

/// A small seeded comparison of the three shipped casino ways into `out`.
fn compare(out: &Path, threads: &str, extra: &[&str]) -> assert_cmd::assert::Assert {
    paigow()
        .args([
            "compare",
            "--game",
            "standard",
            "--dealer-way",
            "foxwoods",
            "--ways",
        ])
        .args(WAYS)
        .args(DEALS)
        .args(["--threads", threads])
        .args(extra)
        .arg("--out")
        .arg(out)
        .assert()
}

#[test]
fn reports_are_byte_identical_at_1_and_3_threads() {
    let dir = tempfile::tempdir().unwrap();
    let read = |threads: &str| {
        let out = dir.path().join(threads);
        let extra = ["--examples", "4", "--quiet"];
        compare(&out, threads, &extra).success().stdout("");
        ["compare.csv", "examples.csv", "rule_groups.csv"].map(|f| fs::read(out.join(f)).unwrap())
    };
    let (one, three) = (read("1"), read("3"));
    assert_eq!(one, three);
    let csv = String::from_utf8(one[0].clone()).unwrap();
    assert_eq!(csv.lines().count(), 1 + 3 + 3);
    assert!(csv.starts_with("kind,side,a,b,deals,player_ev,house_edge,win,push,loss,sd,"));
    let examples = String::from_utf8(one[1].clone()).unwrap();
    let example_numbers: std::collections::BTreeSet<&str> = examples
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(example_numbers.len(), 4, "{examples}");
    let manifest = fs::read_to_string(dir.path().join("3").join("manifest.json")).unwrap();
    for needle in [
        "\"vary\": \"player\"",
        "\"fixed_way\": \"foxwoods\"",
        "\"deals\": 30000",
        "\"threads\": 3",
    ] {
        assert!(manifest.contains(needle), "{needle} in {manifest}");
    }
}

/// The `player_ev` .. `ci99_high` fields of a CSV row.
fn ev_fields(row: &str, from: usize) -> Vec<String> {
    row.split(',')
        .skip(from)
        .take(10)
        .map(str::to_string)
        .collect()
}

#[test]
fn each_way_has_the_ev_simulate_reports() {
    let dir = tempfile::tempdir().unwrap();
    compare(&dir.path().join("c"), "2", &["--quiet"]).success();
    let csv = fs::read_to_string(dir.path().join("c").join("compare.csv")).unwrap();
    for (i, way) in WAYS.iter().enumerate() {
        let out = dir.path().join(way);
        simulate_ways(way, "foxwoods")
            .args(["--game", "standard"])
            .args(DEALS)
            .args(["--quiet", "--out"])
            .arg(&out)
            .assert()
            .success();
        let summary = fs::read_to_string(out.join("summary.csv")).unwrap();
        let sim_row = summary.lines().nth(1).unwrap();
        let row = csv.lines().nth(1 + i).unwrap();
        assert!(
            row.starts_with(&format!("variant,player,{way},-,30000,")),
            "{row}"
        );
        assert_eq!(ev_fields(row, 5), ev_fields(sim_row, 3), "{way}");
    }
}

#[test]
fn the_ranking_states_significance() {
    let dir = tempfile::tempdir().unwrap();
    compare(dir.path(), "2", &[])
        .success()
        .stdout(contains("rank  way"))
        .stdout(contains("   1  foxwoods"))
        .stdout(contains("significant"))
        .stdout(contains("paired/independent width"));
}

#[test]
fn a_way_against_itself_has_a_zero_width_difference() {
    let dir = tempfile::tempdir().unwrap();
    paigow()
        .args([
            "compare", "--vary", "both", "--ways", "foxwoods", "foxwoods", "--deals", "5000",
        ])
        .args(["--quiet", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let csv = fs::read_to_string(dir.path().join("compare.csv")).unwrap();
    let pair = csv.lines().find(|l| l.starts_with("pair,")).unwrap();
    let zero = "0.0000000000";
    let expected = format!(
        "pair,both,foxwoods,foxwoods,5000,-,-,-,-,-,-,-,-,-,-,{zero},{zero},{zero},{zero},{zero},{zero},"
    );
    assert!(pair.starts_with(&expected), "{pair}");
    assert!(
        pair.ends_with(&format!(",{zero},{zero},{zero},1.0000000000")),
        "{pair}"
    );
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let cases: [(&[&str], &str); 8] = [
        (
            &["--dealer-way", "foxwoods", "--ways", "foxwoods"],
            "2 to 12 ways",
        ),
        (&["--ways", "foxwoods", "max-back"], "needs --dealer-way"),
        (
            &[
                "--dealer-way",
                "foxwoods",
                "--ways",
                "foxwoods",
                "nosuchway",
            ],
            "nosuchway",
        ),
        (
            &["--dealer-way", "foxwoods", "--ways", "exposed", "foxwoods"],
            "needs to see the dealer",
        ),
        (
            &[
                "--vary",
                "dealer",
                "--player-way",
                "foxwoods",
                "--dealer-way",
                "foxwoods",
                "--ways",
                "a",
                "b",
            ],
            "not used with --vary dealer",
        ),
        (
            &[
                "--vary",
                "both",
                "--ways",
                "foxwoods",
                "max-back",
                "--examples",
                "2",
            ],
            "only meaningful with --vary player",
        ),
        (
            &[
                "--vary",
                "both",
                "--dealer-way",
                "foxwoods",
                "--ways",
                "foxwoods",
                "max-back",
            ],
            "takes no --dealer-way",
        ),
        (
            &["--vary", "sideways", "--ways", "foxwoods", "max-back"],
            "invalid value 'sideways'",
        ),
    ];
    for (args, message) in cases {
        paigow()
            .arg("compare")
            .args(args)
            .args(["--deals", "100", "--out", out])
            .assert()
            .failure()
            .stderr(contains(message));
    }
    paigow()
        .args([
            "compare",
            "--dealer-way",
            "foxwoods",
            "--ways",
            "foxwoods",
            "max-back",
            "--deals",
            "0",
        ])
        .assert()
        .failure()
        .stderr(contains("must be at least 1"));
}

/// `--vary all` with a baseline: one run, three sides, each ranked the right way, a table of
/// what each way changes against the baseline on each side, and `compare.csv` rows for each side.
#[test]
fn all_three_sides_against_a_baseline_in_one_table() {
    let dir = tempfile::tempdir().unwrap();
    let ways = ["--ways", "foxwoods", "ballys-ac", "canterbury-park"];
    paigow()
        .args(["compare", "--vary", "all", "--baseline", "foxwoods"])
        .args(ways)
        .args(["--deals", "20000", "--out"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(contains("ranked by player EV, best for the player first"))
        .stdout(contains("ranked by house edge, best for the house first"))
        .stdout(contains(
            "player alone: player EV  dealer alone: house edge  both: house edge",
        ))
        .stdout(contains("  ballys-ac  "));
    let csv = fs::read_to_string(dir.path().join("compare.csv")).unwrap();
    for side in ["player", "dealer", "both"] {
        let variants = csv
            .lines()
            .filter(|l| l.starts_with(&format!("variant,{side},")));
        assert_eq!(variants.count(), 3, "{side}");
        let pairs = csv
            .lines()
            .filter(|l| l.starts_with(&format!("pair,{side},")));
        assert_eq!(pairs.count(), 3, "{side}");
    }
    for (args, message) in [
        (vec!["--vary", "all"], "needs --baseline"),
        (
            vec!["--baseline", "max-back", "--dealer-way", "foxwoods"],
            "not one of the --ways",
        ),
        (
            vec![
                "--vary",
                "all",
                "--baseline",
                "foxwoods",
                "--dealer-way",
                "foxwoods",
            ],
            "takes no --dealer-way",
        ),
    ] {
        paigow()
            .arg("compare")
            .args(ways)
            .args(&args)
            .args(["--deals", "100"])
            .arg("--out")
            .arg(dir.path().join("x"))
            .assert()
            .failure()
            .stderr(contains(message));
    }
}

/// With a baseline, every other way's per-rule gap comes with a 95% interval, for any number of
/// ways, and the gaps of a group add up to the gap of the whole run.
#[test]
fn per_rule_gaps_have_intervals_for_every_way() {
    let dir = tempfile::tempdir().unwrap();
    paigow()
        .args([
            "compare",
            "--dealer-way",
            "foxwoods",
            "--baseline",
            "ballys-ac",
        ])
        .args(["--ways", "foxwoods", "ballys-ac", "canterbury-park"])
        .args(["--deals", "30000", "--examples", "3"])
        .args(["--quiet", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let groups = fs::read_to_string(dir.path().join("rule_groups.csv")).unwrap();
    let header: Vec<&str> = groups.lines().next().unwrap().split(',').collect();
    for way in ["foxwoods", "canterbury-park"] {
        for column in ["gap", "gap_ci95_low", "gap_ci95_high"] {
            let name = format!("{column} of {way} less ballys-ac");
            assert!(header.contains(&name.as_str()), "{name} in {header:?}");
        }
    }
    assert!(!header.iter().any(|h| h.contains("of ballys-ac less")));
    let mut reader = csv::Reader::from_reader(groups.as_bytes());
    let names: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let column = |name: &str| names.iter().position(|h| h == name).unwrap();
    let (gap, low, high) = (
        column("gap of foxwoods less ballys-ac"),
        column("gap_ci95_low of foxwoods less ballys-ac"),
        column("gap_ci95_high of foxwoods less ballys-ac"),
    );
    let mut total = 0.0;
    for row in reader.records() {
        let row = row.unwrap();
        let number = |i: usize| row[i].parse::<f64>().unwrap();
        assert!(
            number(low) <= number(gap) && number(gap) <= number(high),
            "{row:?}"
        );
        total += number(gap);
    }
    let compare = fs::read_to_string(dir.path().join("compare.csv")).unwrap();
    let pair = compare
        .lines()
        .find(|l| l.starts_with("pair,player,foxwoods,ballys-ac,"))
        .unwrap();
    let difference: f64 = pair.split(',').nth(15).unwrap().parse().unwrap();
    assert!((total - difference).abs() < 1e-9, "{total} vs {difference}");
}
