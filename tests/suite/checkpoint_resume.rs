//! `paigow simulate --checkpoint FILE [--resume]` through the real binary: a run killed part way
//! (SIGKILL, or SIGTERM which saves first) resumes to reports byte-identical to an uninterrupted
//! run; checkpoints of another run are refused.

use std::fs;
use std::path::Path;
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

use crate::common::cli::{simulate_reports, simulate_ways};

const BIN: &str = env!("CARGO_BIN_EXE_paigow");

/// The run every test uses: long enough to be stopped part way (about half a second on one
/// core), with a checkpoint saved every 5 chunks of 500 deals.
const RUN: [&str; 11] = [
    "simulate",
    "--player-way",
    "max-back",
    "--dealer-way",
    "max-front",
    "--deals",
    "6e5",
    "--seed",
    "5",
    "--chunk-size",
    "500",
];
const CHUNKS: u64 = 1200;

/// The uninterrupted run's reports.
fn uninterrupted(dir: &Path) -> (String, String, String) {
    let out = dir.join("uninterrupted");
    Command::new(BIN)
        .args(RUN)
        .args(["--threads", "2", "--quiet", "--out"])
        .arg(&out)
        .assert()
        .success();
    simulate_reports(&out)
}

/// Starts the checkpointed run in the background.
fn start(out: &Path, checkpoint: &Path) -> std::process::Child {
    Process::new(BIN)
        .args(RUN)
        .args([
            "--threads",
            "1",
            "--quiet",
            "--checkpoint-every-chunks",
            "5",
            "--out",
        ])
        .arg(out)
        .arg("--checkpoint")
        .arg(checkpoint)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Chunks a checkpoint file holds (0 while it does not exist yet).
fn chunks_done(checkpoint: &Path) -> u64 {
    let Ok(text) = fs::read_to_string(checkpoint) else {
        return 0;
    };
    let value: serde_json::Value = serde_json::from_str(&text).expect("a whole checkpoint");
    value["chunk_ranges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r[1].as_u64().unwrap() - r[0].as_u64().unwrap())
        .sum()
}

/// Waits until the checkpoint holds some chunks.
fn wait_for_checkpoint(checkpoint: &Path) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while chunks_done(checkpoint) == 0 {
        assert!(Instant::now() < deadline, "no checkpoint was written");
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn resume(out: &Path, checkpoint: &Path) -> assert_cmd::assert::Assert {
    Command::new(BIN)
        .args(RUN)
        .args(["--threads", "1", "--quiet", "--out"])
        .arg(out)
        .arg("--checkpoint")
        .arg(checkpoint)
        .arg("--resume")
        .assert()
}

#[test]
fn a_run_killed_part_way_resumes_to_the_uninterrupted_reports() {
    let dir = tempfile::tempdir().unwrap();
    let (out, checkpoint) = (dir.path().join("killed"), dir.path().join("run.ckpt"));
    let mut child = start(&out, &checkpoint);
    wait_for_checkpoint(&checkpoint);
    child.kill().unwrap(); // SIGKILL: no chance to save.
    let status = child.wait().unwrap();
    assert!(!status.success(), "killed before finishing");
    let done = chunks_done(&checkpoint);
    assert!(
        done > 0 && done < CHUNKS,
        "killed part way: {done} of {CHUNKS} chunks"
    );
    assert!(!out.join("summary.csv").exists());
    resume(&out, &checkpoint).success();
    assert_eq!(simulate_reports(&out), uninterrupted(dir.path()));
    assert_eq!(
        chunks_done(&checkpoint),
        CHUNKS,
        "the final checkpoint is complete"
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["checkpoint"]["chunks_resumed"], done);
    // Resuming a finished run runs nothing and rewrites the same reports.
    resume(&out, &checkpoint).success();
    assert_eq!(simulate_reports(&out), uninterrupted(dir.path()));
}

#[test]
fn sigterm_saves_a_checkpoint_and_exits_non_zero() {
    let dir = tempfile::tempdir().unwrap();
    let (out, checkpoint) = (dir.path().join("out"), dir.path().join("run.ckpt"));
    let child = start(&out, &checkpoint);
    wait_for_checkpoint(&checkpoint);
    let killed = Process::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let result = child.wait_with_output().unwrap();
    assert!(!result.status.success());
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(stderr.contains("interrupted"), "{stderr}");
    assert!(stderr.contains("--resume"), "{stderr}");
    let done = chunks_done(&checkpoint);
    assert!(done > 0 && done < CHUNKS, "{done}");
    assert!(
        stderr.contains(&format!("{done} of {CHUNKS} chunks")),
        "{stderr}"
    );
    resume(&out, &checkpoint).success();
    assert_eq!(simulate_reports(&out), uninterrupted(dir.path()));
}

#[test]
fn checkpoints_of_another_run_or_an_existing_file_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("small.ckpt");
    let small = |extra: &[&str]| {
        simulate_ways("max-back", "max-back")
            .args(["--deals", "2000", "--chunk-size", "500", "--quiet", "--out"])
            .arg(dir.path().join("out"))
            .arg("--checkpoint")
            .arg(&checkpoint)
            .args(extra)
            .assert()
    };
    small(&["--seed", "1"]).success();
    small(&["--seed", "1"])
        .failure()
        .stderr(contains("a checkpoint already exists; add --resume"));
    small(&["--seed", "2", "--resume"])
        .failure()
        .stderr(contains("differ in seed (1 vs 2)"));
    small(&["--seed", "1", "--players", "3", "--resume"])
        .failure()
        .stderr(contains("differ in option players (1 vs 3)"));
    small(&["--seed", "1", "--shard", "1/2", "--resume"])
        .failure()
        .stderr(contains(
            "is a checkpoint of shard none, but this run is shard 1/2",
        ));
    fs::write(&checkpoint, "{}").unwrap();
    small(&["--seed", "1", "--resume"])
        .failure()
        .stderr(contains("small.ckpt: not a paigow partial result"));
    Command::new(BIN)
        .args(RUN)
        .arg("--resume")
        .assert()
        .failure()
        .stderr(contains("--checkpoint"));
}

/// A checkpoint written by another command is refused as another run's, named by its command,
/// before its tally (of another type) is read: not as a malformed file with an unknown field.
#[test]
fn a_checkpoint_of_another_command_is_refused_by_its_command() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("run.ckpt");
    let common = ["--deals", "2000", "--chunk-size", "500", "--quiet", "--out"];
    simulate_ways("max-back", "max-front")
        .args(common)
        .arg(dir.path().join("sim"))
        .arg("--checkpoint")
        .arg(&checkpoint)
        .assert()
        .success();
    Command::new(BIN)
        .args(["compare", "--ways", "max-back", "max-front"])
        .args(["--dealer-way", "max-front"])
        .args(common)
        .arg(dir.path().join("cmp"))
        .arg("--checkpoint")
        .arg(&checkpoint)
        .arg("--resume")
        .assert()
        .failure()
        .stderr(contains(
            "run.ckpt and this run differ in command (simulate vs compare)",
        ))
        .stderr(contains("unknown field").not());
}

/// Regression: `--shard 1/2 --checkpoint OUT/shard-1-of-2.json --out OUT` was accepted, and the
/// shard's result overwrote its own checkpoint, so a requeued `--resume` failed with "is a shard
/// result, not a checkpoint". It is refused before the run starts, however the path is spelled.
#[test]
fn a_checkpoint_at_the_shards_own_result_file_is_refused_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("shards");
    let spellings = [
        out.join("shard-1-of-2.json"),
        out.join("..").join("shards").join("shard-1-of-2.json"),
    ];
    for checkpoint in spellings {
        Command::new(BIN)
            .args(RUN)
            .args(["--shard", "1/2", "--quiet", "--out"])
            .arg(&out)
            .arg("--checkpoint")
            .arg(&checkpoint)
            .arg("--resume")
            .assert()
            .failure()
            .stderr(contains("is the file this shard writes its result to"))
            .stderr(contains("ckpt-1-of-2.json"));
        assert!(!checkpoint.exists(), "nothing run, nothing written");
    }
}

/// Regression: an existing directory given as `--checkpoint` was reported as "a checkpoint
/// already exists"; it is refused as a directory, with or without `--resume`.
#[test]
fn a_directory_given_as_checkpoint_is_refused_as_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("ck");
    fs::create_dir(&checkpoint).unwrap();
    for resume in [&[][..], &["--resume"][..]] {
        Command::new(BIN)
            .args(RUN)
            .args(["--quiet", "--out"])
            .arg(dir.path().join("out"))
            .arg("--checkpoint")
            .arg(&checkpoint)
            .args(resume)
            .assert()
            .failure()
            .stderr(contains("ck: is a directory; --checkpoint takes a file"))
            .stderr(contains("already exists").not());
    }
}
