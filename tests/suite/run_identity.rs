//! `merge` and `--resume` bind every field of a run's identity (seed and tool version
//! included) into what they verify, and check a simulation's tally against itself (outcome and
//! line counts against each wager's net and sum of squared nets), through the real binary.

use std::fs;
use std::path::{Path, PathBuf};

use predicates::str::contains;

use crate::common::cli::{paigow, simulate_ways};
use paigow::engine::simulate::SimTally;
use paigow::game::GameRules;
use paigow::game::wager::Outcome;
use paigow::report::partial::{Partial, field_digests};

/// The two shards of a seed-7 simulation, in `dir`.
fn shards(dir: &Path) -> Vec<PathBuf> {
    (1..=2)
        .map(|k| {
            simulate_ways("foxwoods", "foxwoods")
                .args(["--deals", "4e3", "--seed", "7", "--chunk-size", "500"])
                .args(["--quiet", "--shard", &format!("{k}/2"), "--out"])
                .arg(dir)
                .assert()
                .success();
            dir.join(format!("shard-{k}-of-2.json"))
        })
        .collect()
}

fn merge(files: &[PathBuf], out: &Path) -> assert_cmd::assert::Assert {
    paigow()
        .arg("merge")
        .args(files)
        .args(["--quiet", "--out"])
        .arg(out)
        .assert()
}

/// Shards of a seed-7 run with `"seed": 8` written in each (the old code merged them into a
/// report whose manifest said seed 8 and whose figures were seed 7's), or another version in
/// each, are refused: the configuration digest binds them.
#[test]
fn an_edited_seed_or_version_is_refused_by_merge() {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(&dir.path().join("s"));
    merge(&files, &dir.path().join("whole")).success();
    for (from, to) in [
        ("\"seed\": 7", "\"seed\": 8"),
        ("\"version\": \"", "\"version\": \"0.0.9-"),
    ] {
        let edited: Vec<PathBuf> = (files.iter().enumerate())
            .map(|(i, f)| {
                let path = dir.path().join(format!("edited-{i}.json"));
                let text = fs::read_to_string(f).unwrap();
                assert!(text.contains(from), "{from}");
                fs::write(&path, text.replace(from, to)).unwrap();
                path
            })
            .collect();
        merge(&edited, &dir.path().join("o"))
            .failure()
            .stderr(contains("config_sha256"))
            .stderr(contains("edited or damaged"));
    }
}

/// The partial file `text` with one hand moved from a win to a loss, the net and the blocks
/// changed to match and every digest recomputed (anyone can recompute a digest).
fn moved_tally(text: &str) -> String {
    let mut partial: Partial<SimTally> = serde_json::from_str(text).unwrap();
    let wager = GameRules::load("standard").unwrap().main_wager;
    let (win, loss) = (Outcome::Win, Outcome::Loss);
    let tally = &mut partial.tally;
    tally.outcomes.0[win.index()] -= 1;
    tally.outcomes.0[loss.index()] += 1;
    let change = i128::from(loss.net_units(&wager) - win.net_units(&wager));
    tally.net_units += change;
    *tally.block_net.last_mut().unwrap() += change;
    partial.tally_sha256 = field_digests(
        &partial.tally,
        &partial.config_sha256,
        &partial.chunk_ranges,
    );
    partial.to_json()
}

/// A shard whose counts were moved from a win to a loss, with the net, the blocks and every
/// digest recomputed to match, is still refused: the sum of squared nets no longer fits the
/// outcome counts.
#[test]
fn a_tally_moved_with_its_digests_recomputed_is_refused_by_its_own_counts() {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(&dir.path().join("s"));
    let text = fs::read_to_string(&files[0]).unwrap();
    let moved = dir.path().join("moved.json");
    fs::write(&moved, moved_tally(&text)).unwrap();
    merge(&[moved, files[1].clone()], &dir.path().join("o"))
        .failure()
        .stderr(contains("moved.json"))
        .stderr(contains("sum of squared nets"));
}

/// A shard whose first side bet's net was raised (and its last block, so the blocks still add
/// up) with every digest recomputed is refused: a side bet's net is what its line counts pay.
/// Once only the main wager's was checked, and such a shard turned a side bet's EV from -4.6%
/// to +495% with its line counts, and so `returns.csv`, unchanged.
#[test]
fn a_side_bets_net_that_its_line_counts_do_not_pay_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(&dir.path().join("s"));
    let mut partial: Partial<SimTally> =
        serde_json::from_str(&fs::read_to_string(&files[0]).unwrap()).unwrap();
    let bet = &mut partial.tally.side_bets[0];
    bet.net += 300_000;
    *bet.block_net.last_mut().unwrap() += 300_000;
    partial.tally_sha256 = field_digests(
        &partial.tally,
        &partial.config_sha256,
        &partial.chunk_ranges,
    );
    let edited = dir.path().join("edited.json");
    fs::write(&edited, partial.to_json()).unwrap();
    merge(&[edited, files[1].clone()], &dir.path().join("o"))
        .failure()
        .stderr(contains("edited.json"))
        .stderr(contains("does not match its line counts"));
}

/// A finished run's checkpoint whose seed was edited is refused by `--resume` with that seed
/// (the old code resumed it into a report of seed 2 holding seed 1's figures); one whose tally
/// was moved with its digests recomputed is refused by its own counts (the old code resumed it:
/// `--resume` checked no tally against the run's configuration).
#[test]
fn a_checkpoint_with_an_edited_seed_is_refused_by_resume() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("run.checkpoint.json");
    let run = |seed: &str, out: &str, resume: bool| {
        let mut command = simulate_ways("foxwoods", "foxwoods");
        command
            .args(["--deals", "2e3", "--chunk-size", "500", "--seed", seed])
            .arg("--checkpoint")
            .arg(&checkpoint)
            .args(["--quiet", "--out"])
            .arg(dir.path().join(out));
        if resume {
            command.arg("--resume");
        }
        command.assert()
    };
    run("1", "first", false).success();
    let text = fs::read_to_string(&checkpoint).unwrap();
    fs::write(&checkpoint, text.replace("\"seed\": 1,", "\"seed\": 2,")).unwrap();
    run("2", "second", true)
        .failure()
        .stderr(contains("config_sha256"));
    assert!(!dir.path().join("second").exists());
    fs::write(&checkpoint, moved_tally(&text)).unwrap();
    run("1", "third", true)
        .failure()
        .stderr(contains("sum of squared nets"))
        .stderr(contains("the checkpoint was edited or damaged"));
    assert!(!dir.path().join("third").exists());
}
