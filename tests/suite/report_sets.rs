//! Report directories written as whole sets, through the real binary: `report` and `report
//! --all` made in a temporary directory and renamed into place, so a step that fails late leaves
//! the earlier report whole and nothing half built (`PAIGOW_FAIL_AFTER_STEP` makes a step fail);
//! a replacement killed between its renames recovered by the next run; and `report --out` and
//! `diff-ways --out` refusing a directory that is not a report of theirs.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use predicates::str::contains;

use crate::common::cli::{names, paigow, simulate_ways};

/// A pid no process has (above Linux's largest), for what "a killed process" left.
const DEAD_PID: u32 = 999_999_999;

/// Every file under `dir` by its path relative to `dir`, with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else {
                let bytes = fs::read(&path).unwrap();
                files.insert(path.strip_prefix(dir).unwrap().to_path_buf(), bytes);
            }
        }
    }
    files
}

/// A small simulation's run directory at `dir`.
fn small_run(dir: &Path, seed: &str) {
    simulate_ways("foxwoods", "foxwoods")
        .args(["--deals", "1e3", "--seed", seed, "--quiet", "--out"])
        .arg(dir)
        .assert()
        .success();
}

/// `paigow report RUNS --out OUT`.
fn report(runs: &[&Path], out: &Path) -> assert_cmd::Command {
    let mut command = paigow();
    command.arg("report").args(runs).arg("--out").arg(out);
    command
}

#[test]
fn a_report_or_a_package_failing_late_leaves_the_earlier_report_whole() {
    let top = tempfile::tempdir().unwrap();
    let runs = top.path().join("runs");
    fs::create_dir(&runs).unwrap();
    let (one, two) = (runs.join("one"), runs.join("two"));
    small_run(&one, "1");
    small_run(&two, "2");
    let out = top.path().join("rep");
    report(&[&one], &out).assert().success();
    let before = snapshot(&out);
    assert!(before.keys().any(|p| p.starts_with("plots")), "{before:?}");

    // A report of two runs whose report.html (its last file) fails, its figures and report.md
    // written: nothing of it is left, and the earlier report is as it was.
    let both = top.path().join("both");
    report(&[&one, &two], &both).assert().success();
    let figures = names(&both.join("plots")).len();
    fs::remove_dir_all(&both).unwrap();
    for after in [1, figures + 1] {
        report(&[&one, &two], &out)
            .env("PAIGOW_FAIL_AFTER_STEP", after.to_string())
            .assert()
            .failure()
            .stderr(contains("failed on purpose"))
            .stderr(contains("nothing written"));
        assert_eq!(snapshot(&out), before);
        assert_eq!(names(top.path()), ["rep", "runs"], "no temporary is left");
    }

    // A package whose second step fails after its first ran: no runs/ appear, the earlier
    // report stays.
    paigow()
        .args(["report", "--game", "standard", "--all", "--deals", "1e3"])
        .args(["--quiet", "--out"])
        .arg(&out)
        .env("PAIGOW_FAIL_AFTER_STEP", "1")
        .assert()
        .failure()
        .stderr(contains("the package step `paigow exact"))
        .stderr(contains("failed on purpose"));
    assert_eq!(snapshot(&out), before);
    assert_eq!(names(top.path()), ["rep", "runs"]);
}

/// A run killed between the two renames that replace a directory leaves the previous set moved
/// aside and the new one in its temporary, and no directory: the next runs put it back and
/// replace it, however many times (the old code failed from the second run on with "Directory
/// not empty").
#[test]
fn a_replacement_killed_between_its_renames_is_recovered() {
    let top = tempfile::tempdir().unwrap();
    let run = top.path().join("run");
    small_run(&run, "1");
    let out = top.path().join("rep");
    report(&[&run], &out).assert().success();
    for dir in [&run, &out] {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        fs::rename(dir, top.path().join(format!(".{name}.old"))).unwrap();
        let temp = top.path().join(format!(".{name}.tmp-{DEAD_PID}"));
        fs::create_dir(&temp).unwrap();
        fs::write(temp.join("manifest.json"), "{").unwrap();
    }
    for attempt in 0..3 {
        let ran = small_run_assert(&run, "2");
        if attempt == 0 {
            ran.stderr(contains("was put back"));
        }
        let reported = report(&[&run], &out).assert().success();
        if attempt == 0 {
            reported.stderr(contains("was put back"));
        }
        assert_eq!(names(top.path()), ["rep", "run"]);
    }
}

fn small_run_assert(dir: &Path, seed: &str) -> assert_cmd::assert::Assert {
    simulate_ways("foxwoods", "foxwoods")
        .args(["--deals", "1e3", "--seed", seed, "--quiet", "--out"])
        .arg(dir)
        .assert()
        .success()
}

/// `report --out` and `diff-ways --out` replace only a directory of their own: a figure the
/// report did not write, or a file of the user's, is never removed.
#[test]
fn a_directory_that_is_not_their_report_is_refused() {
    let top = tempfile::tempdir().unwrap();
    let run = top.path().join("run");
    small_run(&run, "1");
    let out = top.path().join("rep");
    report(&[&run], &out).assert().success();
    report(&[&run], &out).assert().success();
    let mine = out.join("plots").join("mine.svg");
    fs::write(&mine, "<svg/>").unwrap();
    report(&[&run], &out)
        .assert()
        .failure()
        .stderr(contains("holds files that are not a paigow report"));
    assert_eq!(fs::read_to_string(&mine).unwrap(), "<svg/>");

    let user = top.path().join("user");
    fs::create_dir(&user).unwrap();
    fs::write(user.join("notes.txt"), "keep").unwrap();
    report(&[&run], &user)
        .assert()
        .failure()
        .stderr(contains("holds files that are not a paigow report"));
    let diff = || {
        let mut command = paigow();
        command.args(["diff-ways", "foxwoods", "max-back", "--out"]);
        command
    };
    diff()
        .arg(&user)
        .assert()
        .failure()
        .stderr(contains("holds files that are not a diff-ways report"));
    assert_eq!(names(&user), ["notes.txt"]);
    let ways = top.path().join("ways");
    diff().arg(&ways).assert().success();
    diff().arg(&ways).assert().success();
    assert_eq!(names(&ways), ["diff.csv", "manifest.json"]);
}
