//! `paigow simulate --shard K/M` and `paigow merge` through the real binary: merged shards give
//! the single run's reports byte for byte; bad sets of partials are refused, naming the problem.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::assert::Assert;
use paigow::engine::simulate::SimTally;
use paigow::report::partial::Partial;
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

use crate::common::cli::{paigow, simulate_reports, simulate_ways};

/// A small seeded run (two players, side bets) with `extra` arguments into `out`.
fn simulate(out: &Path, extra: &[&str]) -> Assert {
    simulate_ways("max-back", "max-front")
        .args(["--deals", "20_011", "--seed", "11", "--chunk-size", "700"])
        .args(["--players", "2", "--threads", "2", "--quiet", "--out"])
        .arg(out)
        .args(extra)
        .assert()
}

/// A max-back against max-back run of `deals` deals in chunks of 1000 into `out`, with `extra`
/// arguments.
fn simulate_max_back(deals: &str, out: &Path, extra: &[&str]) -> Assert {
    simulate_ways("max-back", "max-back")
        .args(["--deals", deals, "--chunk-size", "1000", "--out"])
        .arg(out)
        .args(extra)
        .assert()
}

/// Runs shards 1..=m of the run into `dir`; returns their files in order.
fn shards(dir: &Path, m: u64, extra: &[&str]) -> Vec<PathBuf> {
    (1..=m)
        .map(|k| {
            let spec = format!("{k}/{m}");
            let mut args = vec!["--shard", spec.as_str()];
            args.extend_from_slice(extra);
            simulate(dir, &args).success().stdout("");
            let width = m.to_string().len();
            dir.join(format!("shard-{k:0width$}-of-{m}.json"))
        })
        .collect()
}

/// Merges `files` into `out`, quietly.
fn merge(files: &[PathBuf], out: &Path) -> Assert {
    paigow()
        .arg("merge")
        .args(files)
        .arg("--out")
        .arg(out)
        .arg("--quiet")
        .assert()
}

#[test]
fn one_three_and_seven_shards_merge_to_the_single_run_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let single = dir.path().join("single");
    simulate(&single, &[]).success();
    let expected = simulate_reports(&single);
    assert!(expected.0.contains("main,simulation,40022,"));
    for m in [1, 3, 7] {
        let shard_dir = dir.path().join(format!("shards-{m}"));
        let files = shards(&shard_dir, m, &[]);
        let out = dir.path().join(format!("merged-{m}"));
        merge(&files, &out).success().stdout("");
        assert_eq!(simulate_reports(&out), expected, "{m} shards");
        let manifest: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
        let merged = manifest["merged_partials"].as_array().unwrap();
        assert_eq!(merged.len() as u64, m);
        assert_eq!(merged[0]["shard"], format!("1/{m}"));
        assert_eq!(manifest["deals"], 20_011);
        assert_eq!(manifest["seed"], 11);
        let covered: u64 = merged.iter().map(|p| p["deals"].as_u64().unwrap()).sum();
        assert_eq!(covered, 20_011);
    }
}

#[test]
fn merge_prints_a_summary_and_shards_say_what_they_ran() {
    let dir = tempfile::tempdir().unwrap();
    simulate_max_back("3000", dir.path(), &["--shard", "2/2"])
        .success()
        .stdout(contains("shard 2/2: chunks 1-2"))
        .stdout(contains("2000 deals"));
    simulate_max_back("3000", dir.path(), &["--shard", "1/2", "--quiet"]).success();
    paigow()
        .arg("merge")
        .arg(dir.path().join("shard-1-of-2.json"))
        .arg(dir.path().join("shard-2-of-2.json"))
        .arg("--out")
        .arg(dir.path().join("r"))
        .assert()
        .success()
        .stdout(contains("merged 2 partial results"))
        .stdout(contains("3000 deals"));
}

#[test]
fn overlapping_missing_and_duplicate_shards_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let three = shards(&dir.path().join("3"), 3, &[]);
    let two = shards(&dir.path().join("2"), 2, &[]);
    let out = dir.path().join("out");
    // 20_011 deals in chunks of 700: 29 chunks; shard 2/3 is chunks 9-18, 3/3 is 19-28.
    merge(&three[..2], &out)
        .failure()
        .stderr(contains("chunks 19-28 of 29"))
        .stderr(contains("deals 13300-20010"))
        .stderr(contains("a shard is missing"));
    merge(&[three[0].clone(), three[2].clone()], &out)
        .failure()
        .stderr(contains("chunks 9-18 of 29"));
    // Regression: a file given twice was "chunks 9-18 are in both X and X".
    merge(
        &[
            three[0].clone(),
            three[1].clone(),
            three[1].clone(),
            three[2].clone(),
        ],
        &out,
    )
    .failure()
    .stderr(contains(format!("{} is given twice", three[1].display())))
    .stderr(contains("overlapping").not());
    // Shard 1/2 is chunks 0-13, which overlaps 2/3 (9-18).
    merge(&[two[0].clone(), three[1].clone(), three[2].clone()], &out)
        .failure()
        .stderr(contains("both cover chunks 9-13 (overlapping shards)"))
        .stderr(contains("2/shard-1-of-2.json"));
    assert!(
        !out.join("summary.csv").exists(),
        "nothing written on refusal"
    );
    merge(&[], &out).failure().stderr(contains("PARTIAL"));
}

#[test]
fn shards_of_different_runs_are_refused_naming_the_difference() {
    let dir = tempfile::tempdir().unwrap();
    let base = shards(&dir.path().join("base"), 2, &[]);
    // Shard 2/2 of the base run, but with the player's way and seed given, into `out`.
    let second_shard_of = |player_way: &str, seed: &str, out: &Path| {
        simulate_ways(player_way, "max-front")
            .args(["--deals", "20_011", "--seed", seed, "--chunk-size", "700"])
            .args(["--players", "2", "--quiet", "--shard", "2/2", "--out"])
            .arg(out)
            .assert()
            .success();
        out.join("shard-2-of-2.json")
    };
    let other_seed = second_shard_of("max-back", "12", &dir.path().join("seed"));
    merge(&[base[0].clone(), other_seed], &dir.path().join("o"))
        .failure()
        .stderr(contains("differ in seed (11 vs 12)"));
    let other_way = second_shard_of("max-front", "11", &dir.path().join("way"));
    merge(&[base[0].clone(), other_way], &dir.path().join("o"))
        .failure()
        .stderr(contains("differ in player way (max-back vs max-front)"));

    // A shard written by another version, or by another command, is refused as such.
    let text = fs::read_to_string(&base[1]).unwrap();
    let edited = dir.path().join("edited.json");
    let rehashed = |mut p: Partial<SimTally>| {
        p.config_sha256 = p.spec.digest(&p.plan().unwrap(), &p.facts.version);
        p.tally_sha256 =
            paigow::report::partial::field_digests(&p.tally, &p.config_sha256, &p.chunk_ranges);
        p.to_json()
    };
    let mut other: Partial<SimTally> = serde_json::from_str(&text).unwrap();
    other.facts.version = format!("9.9.9-{}", other.facts.version);
    fs::write(&edited, rehashed(other)).unwrap();
    merge(&[base[0].clone(), edited.clone()], &dir.path().join("o"))
        .failure()
        .stderr(contains("differ in tool, version and commit"))
        .stderr(contains("9.9.9-"));
    // A shard of another build of the same version (the version has stayed 0.1.0 through
    // changes of results): refused, naming both commits. Once it merged.
    let mut other: Partial<SimTally> = serde_json::from_str(&text).unwrap();
    other.facts.git_commit = format!("{}-modified", "0".repeat(40));
    fs::write(&edited, rehashed(other)).unwrap();
    merge(&[base[0].clone(), edited.clone()], &dir.path().join("o"))
        .failure()
        .stderr(contains("differ in tool, version and commit"))
        .stderr(contains("0000000000-modified"));
    let mut other: Partial<SimTally> = serde_json::from_str(&text).unwrap();
    other.spec.command = "table".to_string();
    fs::write(&edited, rehashed(other)).unwrap();
    merge(&[base[0].clone(), edited.clone()], &dir.path().join("o"))
        .failure()
        .stderr(contains("differ in command (simulate vs table)"));
    // An edit that leaves the file inconsistent with its own configuration digest is caught.
    fs::write(
        &edited,
        text.replace("\"players\": \"2\"", "\"players\": \"3\""),
    )
    .unwrap();
    merge(&[base[0].clone(), edited.clone()], &dir.path().join("o"))
        .failure()
        .stderr(contains("edited.json"))
        .stderr(contains("config_sha256"));
}

/// A tally pasted, with its digests, from another shard of the same run (same configuration,
/// as many deals) is refused: the digests are bound to the chunks a file covers (it once merged,
/// counting one shard twice and the other not at all).
#[test]
fn a_tally_pasted_from_another_shard_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s");
    let files: Vec<PathBuf> = (1..=3)
        .map(|k| {
            let shard = format!("{k}/3");
            simulate_max_back("6000", &out, &["--shard", &shard, "--quiet"]).success();
            out.join(format!("shard-{k}-of-3.json"))
        })
        .collect();
    let read = |f: &PathBuf| -> serde_json::Value {
        serde_json::from_str(&fs::read_to_string(f).unwrap()).unwrap()
    };
    let (mut second, third) = (read(&files[1]), read(&files[2]));
    assert_eq!(second["deals_covered"], third["deals_covered"]);
    second["tally"] = third["tally"].clone();
    second["tally_sha256"] = third["tally_sha256"].clone();
    fs::write(&files[1], second.to_string()).unwrap();
    merge(&files, &dir.path().join("o"))
        .failure()
        .stderr(contains("shard-2-of-3.json"))
        .stderr(contains("tally_sha256"));
}

#[test]
fn damaged_or_foreign_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(&dir.path().join("s"), 1, &[]);
    let text = fs::read_to_string(&files[0]).unwrap();
    let bad = dir.path().join("bad.json");
    let out = dir.path().join("o");
    let refused = |content: &str, message: &str| {
        fs::write(&bad, content).unwrap();
        merge(std::slice::from_ref(&bad), &out)
            .failure()
            .stderr(contains("bad.json"))
            .stderr(contains(message.to_string()));
    };
    refused("not json", "not a paigow partial result");
    refused("{\"a\": 1}", "not a paigow partial result");
    refused(
        &text.replace("\"format_version\": 5", "\"format_version\": 6"),
        "format version 6",
    );
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut edited = value.clone();
    let win = edited["tally"]["outcomes"][0].as_u64().unwrap();
    edited["tally"]["outcomes"][0] = serde_json::json!(win + 1);
    refused(&edited.to_string(), "does not add up");
    let net = value["tally"]["net_units"].as_str().unwrap();
    refused(
        &text.replace(&format!("\"net_units\": \"{net}\""), "\"net_units\": \"1\""),
        "blocks of deals sum to",
    );
    let squares = value["tally"]["net_units_squared"].as_str().unwrap();
    refused(
        &text.replace(
            &format!("\"net_units_squared\": \"{squares}\""),
            "\"net_units_squared\": \"1\"",
        ),
        "tally field 'net_units_squared' does not match its tally_sha256",
    );
    // An edit with its digests recomputed is still caught by what the tally must pay.
    let mut partial: Partial<SimTally> = serde_json::from_str(&text).unwrap();
    partial.tally.net_units = 1;
    partial.tally.block_net = vec![1];
    partial.tally_sha256 = paigow::report::partial::field_digests(
        &partial.tally,
        &partial.config_sha256,
        &partial.chunk_ranges,
    );
    refused(&partial.to_json(), "does not match its outcome counts");
    refused(
        &text.replace(
            &format!("\"net_units\": \"{net}\""),
            "\"net_units\": \"x1\"",
        ),
        "not a whole number",
    );
    merge(&[dir.path().join("missing.json")], &out)
        .failure()
        .stderr(contains("missing.json: cannot read"));
}

#[test]
fn bad_shard_specs_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    for bad in ["0/3", "4/3", "3", "a/b", "1/0", "1/-2", "1.5/2"] {
        simulate(dir.path(), &["--shard", bad])
            .failure()
            .code(2)
            .stderr(contains("is not a shard K/M"));
    }
}

#[test]
fn more_shards_than_chunks_leaves_some_empty_and_still_merges() {
    let dir = tempfile::tempdir().unwrap();
    simulate_max_back("2500", &dir.path().join("single"), &["--quiet"]).success();
    let shard_dir = dir.path().join("s");
    let files: Vec<PathBuf> = (1..=5)
        .map(|k| {
            let shard = format!("{k}/5");
            simulate_max_back("2500", &shard_dir, &["--quiet", "--shard", &shard]).success();
            shard_dir.join(format!("shard-{k}-of-5.json"))
        })
        .collect();
    merge(&files, &dir.path().join("m")).success();
    assert_eq!(
        simulate_reports(&dir.path().join("m")),
        simulate_reports(&dir.path().join("single"))
    );
}

/// Shard 2/3 of the run `simulate` makes, with `players` and `extra` arguments, into `dir`.
fn second_of_three(dir: &Path, players: &str, extra: &[&str]) -> PathBuf {
    simulate_ways("max-back", "max-front")
        .args(["--deals", "20_011", "--seed", "11", "--chunk-size", "700"])
        .args(["--players", players, "--quiet", "--shard", "2/3", "--out"])
        .arg(dir)
        .args(extra)
        .assert()
        .success();
    dir.join("shard-2-of-3.json")
}

/// Regression: shards differing only in the game, the players or the command were blamed on
/// damage ("tally net ... does not match its outcome counts ... the file was edited or damaged",
/// sometimes naming the intact file; "tally has N hands for R rounds of 1 players"; "malformed:
/// unknown field"). The configurations are compared first, naming both files and the field.
#[test]
fn shards_differing_in_game_players_or_command_are_refused_as_different_runs() {
    let dir = tempfile::tempdir().unwrap();
    let base = shards(&dir.path().join("base"), 3, &[]);
    let out = dir.path().join("o");
    let refused = |files: &[PathBuf], difference: &str| {
        merge(files, &out)
            .failure()
            .stderr(contains(difference.to_string()))
            .stderr(contains("so they are not parts of the same run"))
            .stderr(contains("damaged").not());
    };
    let california = second_of_three(
        &dir.path().join("california"),
        "2",
        &["--game", "california"],
    );
    let first = base[0].display().to_string();
    let odd = california.display().to_string();
    refused(
        &[base[0].clone(), california.clone(), base[2].clone()],
        &format!("{first} and {odd} differ in game (games/standard.toml vs games/california.toml)"),
    );
    refused(
        &[california.clone(), base[0].clone(), base[2].clone()],
        &format!("{odd} and {first} differ in game (games/california.toml vs games/standard.toml)"),
    );
    let ez = second_of_three(&dir.path().join("ez"), "2", &["--game", "ez-pai-gow"]);
    refused(
        &[base[0].clone(), ez, base[2].clone()],
        "differ in game (games/standard.toml vs games/ez-pai-gow.toml)",
    );
    let one_player = second_of_three(&dir.path().join("one"), "1", &[]);
    refused(
        &[base[0].clone(), one_player, base[2].clone()],
        "differ in option players (2 vs 1)",
    );
    let compared = dir.path().join("compare");
    paigow()
        .args([
            "compare",
            "--ways",
            "max-back",
            "max-front",
            "--dealer-way",
            "max-front",
        ])
        .args(["--deals", "20_011", "--seed", "11", "--chunk-size", "700"])
        .args(["--quiet", "--shard", "2/3", "--out"])
        .arg(&compared)
        .assert()
        .success();
    let compared = compared.join("shard-2-of-3.json");
    refused(
        &[base[0].clone(), compared.clone(), base[2].clone()],
        "differ in command (simulate vs compare)",
    );
    merge(&[compared, base[0].clone()], &out)
        .failure()
        .stderr(contains("differ in command (compare vs simulate)"))
        .stderr(contains("unknown field").not());
}

/// Regression: messages showed Rust's `Some(..)`, "chunk 1 are in both" and "covers chunks
/// outside shard 2/3's range chunks 9-18".
#[test]
fn damage_and_overlap_messages_read_plainly() {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(&dir.path().join("s"), 3, &[]);
    let out = dir.path().join("o");
    let bad = dir.path().join("bad.json");
    let value: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&files[1]).unwrap()).unwrap();
    let mut edited = value.clone();
    let hands = edited["tally"]["hands"].as_u64().unwrap();
    let win = edited["tally"]["outcomes"][0].as_u64().unwrap();
    edited["tally"]["outcomes"][0] = serde_json::json!(win + 1);
    fs::write(&bad, edited.to_string()).unwrap();
    merge(std::slice::from_ref(&bad), &out)
        .failure()
        .stderr(contains(format!(
            "outcomes sum to {}, categories to {hands}",
            hands + 1
        )))
        .stderr(contains("Some(").not());
    // Shard 3/3's chunks (19-28) relabelled as shard 2/3's (9-18).
    let third: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&files[2]).unwrap()).unwrap();
    let mut relabelled = third.clone();
    relabelled["shard"] = value["shard"].clone();
    fs::write(&bad, relabelled.to_string()).unwrap();
    merge(std::slice::from_ref(&bad), &out)
        .failure()
        .stderr(contains(
            "bad.json: covers chunks 19-28, outside shard 2/3's chunks 9-18",
        ));
    // 3000 deals in chunks of 1000: shard 2/2 is chunks 1-2, shard 2/3 is chunk 1.
    let mixed = dir.path().join("mixed");
    for shard in ["1/2", "2/2", "2/3"] {
        simulate_max_back("3000", &mixed, &["--quiet", "--shard", shard]).success();
    }
    let names = [
        "shard-1-of-2.json",
        "shard-2-of-2.json",
        "shard-2-of-3.json",
    ];
    merge(&names.map(|n| mixed.join(n)), &out)
        .failure()
        .stderr(contains("both cover chunk 1 (overlapping shards)"))
        .stderr(contains("are in both").not());
}

/// `simulate --bet FILE` settles a side bet beside the game's own with no game file written:
/// its lines are reported (a push line as a push), the manifest embeds the paytable's text, and
/// shards merge to the single run byte for byte after the file is gone (a merge reads the bet
/// from the shards alone); a shard without the bet is another run, refused; a bad or repeated
/// bet is a clear error.
#[test]
fn a_bet_added_with_bet_is_part_of_the_run_and_its_identity() {
    let dir = tempfile::tempdir().unwrap();
    let bet = dir.path().join("table-one.toml");
    fs::write(&bet, include_str!("../../games/paytables/fortune-1.toml")).unwrap();
    let bet_arg = bet.to_str().unwrap().to_string();
    let run = |out: &Path, extra: &[&str]| {
        simulate_ways("max-back", "max-front")
            .args(["--game", "fortune", "--players", "2", "--deals", "6_007"])
            .args([
                "--seed",
                "5",
                "--chunk-size",
                "500",
                "--threads",
                "2",
                "--quiet",
            ])
            .arg("--out")
            .arg(out)
            .args(extra)
            .assert()
    };
    let single = dir.path().join("single");
    run(&single, &["--bet", &bet_arg]).success();
    let expected = simulate_reports(&single);
    let wager = "\"Fortune Bonus, pay table 1\"";
    assert!(
        expected.1.contains(&format!("{wager},three_pair,")),
        "{}",
        expected.1
    );
    // summary.csv: wager,method,trials,player_ev,house_edge,win,push,...
    let row: Vec<&str> = (expected.0.lines())
        .find_map(|l| l.strip_prefix(wager))
        .unwrap()
        .split(',')
        .collect();
    let push: f64 = row[6].parse().unwrap();
    assert!(push > 0.0, "{row:?}");
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(single.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(
        manifest["spec"]["paytables"][0]["text"],
        include_str!("../../games/paytables/fortune-1.toml")
    );
    let shard_dir = dir.path().join("shards");
    for k in ["1/2", "2/2"] {
        run(&shard_dir, &["--bet", &bet_arg, "--shard", k]).success();
    }
    fs::remove_file(&bet).unwrap();
    let files = [1, 2].map(|k| shard_dir.join(format!("shard-{k}-of-2.json")));
    let merged = dir.path().join("merged");
    merge(&files, &merged).success();
    assert_eq!(simulate_reports(&merged), expected);
    let plain = dir.path().join("plain");
    run(&plain, &["--shard", "2/2"]).success();
    let mixed = [files[0].clone(), plain.join("shard-2-of-2.json")];
    merge(&mixed, &dir.path().join("mixed"))
        .failure()
        .stderr(contains("paytables"));
    run(&dir.path().join("bad"), &["--bet", "no-such-table"])
        .failure()
        .stderr(contains("--bet no-such-table"));
    run(&dir.path().join("twice"), &["--bet", "fortune"])
        .failure()
        .stderr(contains("'Fortune Bonus' is in the run twice"));
}
