//! Every Monte Carlo command runs on the one run engine, so `compare` and `table` are sharded,
//! merged, checkpointed and resumed exactly as `simulate` is: merged shards and a resumed run
//! give the single run's reports byte for byte (examples and rule groups included).

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::cli::paigow;

/// The CSV files of a report directory, by name, sorted.
fn csv_files(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "csv"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, fs::read_to_string(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// A command's arguments with `--out DIR` and `extra` appended; succeeds quietly.
fn run(args: &[&str], out: &Path, extra: &[&str]) {
    paigow()
        .args(args)
        .args(["--quiet", "--out"])
        .arg(out)
        .args(extra)
        .assert()
        .success();
}

/// Runs `args` whole, in three shards merged, and stopped part way then resumed; all three
/// report sets must be equal, and the merged manifest lists the shards.
fn check_every_way_of_running(args: &[&str], expected_files: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    run(args, &whole, &["--threads", "2"]);
    let reference = csv_files(&whole);
    let names: Vec<&str> = reference.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, expected_files);

    let shards_dir = dir.path().join("shards");
    let files: Vec<PathBuf> = (1..=3)
        .map(|k| {
            let shard = format!("{k}/3");
            run(args, &shards_dir, &["--shard", &shard, "--threads", "1"]);
            shards_dir.join(format!("shard-{k}-of-3.json"))
        })
        .collect();
    let merged = dir.path().join("merged");
    paigow()
        .arg("merge")
        .args(&files)
        .args(["--quiet", "--out"])
        .arg(&merged)
        .assert()
        .success();
    assert_eq!(csv_files(&merged), reference, "merged shards of {args:?}");
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(merged.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["merged_partials"].as_array().unwrap().len(), 3);

    // A checkpointed run whose checkpoint holds only the first shard's chunks (as if killed
    // there) resumes to the same reports.
    let checkpoint = dir.path().join("ckpt.json");
    let first: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&files[0]).unwrap()).unwrap();
    let mut saved = first.clone();
    saved["kind"] = serde_json::json!("checkpoint");
    saved["shard"] = serde_json::Value::Null;
    fs::write(&checkpoint, saved.to_string()).unwrap();
    let resumed = dir.path().join("resumed");
    let ckpt = checkpoint.to_string_lossy().into_owned();
    run(args, &resumed, &["--checkpoint", &ckpt, "--resume"]);
    assert_eq!(csv_files(&resumed), reference, "resumed run of {args:?}");
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(resumed.join("manifest.json")).unwrap()).unwrap();
    let resumed_chunks = manifest["checkpoint"]["chunks_resumed"].as_u64().unwrap();
    assert!(resumed_chunks > 0, "{manifest}");
}

#[test]
fn compare_shards_merge_and_resume_to_the_single_run() {
    check_every_way_of_running(
        &[
            "compare",
            "--dealer-way",
            "foxwoods",
            "--ways",
            "foxwoods",
            "canterbury-park",
            "max-front",
            "--deals",
            "30_007",
            "--chunk-size",
            "1000",
            "--seed",
            "9",
            "--examples",
            "5",
        ],
        &["compare.csv", "examples.csv", "rule_groups.csv"],
    );
}

#[test]
fn table_shards_merge_and_resume_to_the_single_run() {
    check_every_way_of_running(
        &[
            "table",
            "--seats",
            "D,100,-,50+20,40,-,200",
            "--bank",
            "300",
            "--collection",
            "1=1,60=2,200=3",
            "--rounds",
            "20_003",
            "--chunk-size",
            "1000",
            "--seed",
            "4",
        ],
        &[
            "breakeven.csv",
            "outcomes.csv",
            "rotation.csv",
            "summary.csv",
        ],
    );
}

#[test]
fn a_rotating_varied_table_shards_merges_and_resumes_to_the_single_run() {
    // The rotation's position follows from each round's index alone, so shards, chunks cut
    // mid-cycle and a resumed run deal and bank exactly as the single run.
    check_every_way_of_running(
        &[
            "table",
            "--seats",
            "100,40,-,50+20,40,-,200",
            "--rotation",
            "2,1,-,2/0,2,-,2",
            "--vary",
            "bank=150;300;unlimited",
            "--collection",
            "1=0.5,60=1.5%",
            "--time-collection",
            "0.25",
            "--rounds",
            "20_003",
            "--chunk-size",
            "999",
            "--seed",
            "4",
        ],
        &[
            "breakeven.csv",
            "outcomes.csv",
            "paired.csv",
            "rotation.csv",
            "summary.csv",
        ],
    );
}

#[test]
fn a_partial_of_one_command_is_not_merged_with_another() {
    let dir = tempfile::tempdir().unwrap();
    let sim = dir.path().join("sim");
    let table = dir.path().join("table");
    let common = ["--deals", "2000", "--chunk-size", "1000", "--shard"];
    run(
        &[
            "simulate",
            "--player-way",
            "max-back",
            "--dealer-way",
            "max-front",
        ],
        &sim,
        &[&common[..], &["1/2"]].concat(),
    );
    run(
        &["table", "--seats", "D,10,-,-,-,-,-", "--bank", "unlimited"],
        &table,
        &[&common[..], &["2/2"]].concat(),
    );
    paigow()
        .arg("merge")
        .arg(sim.join("shard-1-of-2.json"))
        .arg(table.join("shard-2-of-2.json"))
        .args(["--out"])
        .arg(dir.path().join("o"))
        .assert()
        .failure()
        .stderr(predicates::str::contains("shard-2-of-2.json"));
}

/// A report directory is replaced as a whole: a re-run without examples leaves no
/// `examples.csv` of the earlier run beside its own files; a directory that is not a report set
/// is refused before anything runs, and a checkpoint inside the report directory too.
#[test]
fn a_report_directory_holds_one_runs_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let compare = [
        "compare",
        "--dealer-way",
        "foxwoods",
        "--ways",
        "foxwoods",
        "ballys-ac",
        "--deals",
        "3000",
    ];
    run(&compare, &out, &["--examples", "2"]);
    assert!(out.join("examples.csv").exists());
    run(&compare, &out, &[]);
    let names: Vec<String> = csv_files(&out).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["compare.csv"]);
    let user = dir.path().join("user");
    fs::create_dir(&user).unwrap();
    fs::write(user.join("notes.txt"), "keep").unwrap();
    paigow()
        .args(compare)
        .arg("--out")
        .arg(&user)
        .assert()
        .failure()
        .stderr(predicates::str::contains("not a paigow report set"));
    assert_eq!(fs::read_to_string(user.join("notes.txt")).unwrap(), "keep");
    let file = dir.path().join("notes.txt");
    fs::write(&file, "keep").unwrap();
    paigow()
        .args(compare)
        .arg("--out")
        .arg(&file)
        .assert()
        .failure()
        .stderr(predicates::str::contains("is a file, not a directory"));
    assert_eq!(fs::read_to_string(&file).unwrap(), "keep");
    let inside = out.join("ckpt.json");
    paigow()
        .args(compare)
        .arg("--out")
        .arg(&out)
        .arg("--checkpoint")
        .arg(&inside)
        .assert()
        .failure()
        .stderr(predicates::str::contains("outside the report directory"));
}

/// Runs that would take days, and thread counts out of range, are refused before anything
/// runs, with the estimate or the range in the message.
#[test]
fn absurd_runs_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let sim = [
        "simulate",
        "--player-way",
        "max-back",
        "--dealer-way",
        "max-front",
    ];
    let refused = |extra: &[&str], message: &str| {
        paigow()
            .args(sim)
            .args(extra)
            .arg("--out")
            .arg(dir.path().join("r"))
            .assert()
            .failure()
            .stderr(predicates::str::contains(message.to_string()));
    };
    refused(&["--deals", "1e15"], "estimated to take");
    refused(&["--deals", "1e15", "--shard", "1/2"], "--force");
    refused(&["--deals", "10", "--threads", "0"], "from 1 to 1024");
    refused(&["--deals", "10", "--threads", "65536"], "from 1 to 1024");
    refused(&["--deals", "1__0"], "not a whole number");
    // A negative number is the option's bad value, named, not an unknown argument.
    refused(
        &["--deals", "-1"],
        "invalid value '-1' for '--deals <DEALS>'",
    );
    refused(
        &["--deals", "10", "--threads", "-2"],
        "for '--threads <THREADS>'",
    );
    refused(&["--deals", "10", "--seed", "-1"], "for '--seed <SEED>'");
    refused(
        &["--deals", "10", "--players", "-1"],
        "for '--players <PLAYERS>'",
    );
    assert!(!dir.path().join("r").exists(), "nothing was written");
    // Only a shard's own share counts: a shard of a huge run that holds no chunk runs at once.
    paigow()
        .args(sim)
        .args(["--deals", "1e15", "--chunk-size", "1e14", "--shard", "1/20"])
        .args(["--threads", "1", "--quiet", "--out"])
        .arg(dir.path().join("s"))
        .assert()
        .success();
}

/// With no `--out`, runs write under `runs/COMMAND/` in the current directory (which git
/// ignores), and two table seatings of one game, or two bets of one game, get different
/// directories.
#[test]
fn default_directories_are_under_runs() {
    let dir = tempfile::tempdir().unwrap();
    paigow()
        .current_dir(dir.path())
        .args([
            "simulate",
            "--player-way",
            "max-back",
            "--dealer-way",
            "max-front",
        ])
        .args(["--deals", "100", "--quiet"])
        .assert()
        .success();
    let sims: Vec<_> = fs::read_dir(dir.path().join("runs/simulate"))
        .unwrap()
        .collect();
    assert_eq!(sims.len(), 1);
    for seats in ["D,10,-,-,-,-,-", "D,10,20,-,-,-,-"] {
        paigow()
            .current_dir(dir.path())
            .args([
                "table",
                "--seats",
                seats,
                "--bank",
                "unlimited",
                "--rounds",
                "100",
                "--quiet",
            ])
            .assert()
            .success();
    }
    let tables: Vec<_> = fs::read_dir(dir.path().join("runs/table"))
        .unwrap()
        .collect();
    assert_eq!(tables.len(), 2, "one directory a seating");
    for bet in ["fortune", "pai-gow-mania-three"] {
        paigow()
            .current_dir(dir.path())
            .args(["exact", "bonus", "--bet", bet, "--quiet"])
            .assert()
            .success();
    }
    let bonuses: Vec<_> = fs::read_dir(dir.path().join("runs/exact"))
        .unwrap()
        .collect();
    assert_eq!(bonuses.len(), 2, "one directory a bet");
    let gitignore = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/.gitignore")).unwrap();
    assert!(gitignore.lines().any(|l| l == "/runs/"), "{gitignore}");
}
