//! Editing a copy of a run directory, as a tamperer would, and asking `paigow report` to read it:
//! the helpers of the run-check tests (`run_check.rs`, `report_workbench.rs`).

use std::fs;
use std::path::{Path, PathBuf};

use predicates::str::contains;

use super::cli::paigow;
use super::report_rows::csv_rows;

/// A copy of the run directory `from` (its files) as `dir/NAME`, NAME being `from`'s own.
pub fn copy_run(from: &Path, dir: &Path) -> PathBuf {
    let to = dir.join(from.file_name().unwrap());
    fs::create_dir_all(&to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
        }
    }
    to
}

/// Rows of a CSV file (the header first), edited by `edit` and written back.
pub fn edit_csv(path: &Path, edit: impl FnOnce(&mut Vec<Vec<String>>)) {
    let mut rows = csv_rows(path);
    edit(&mut rows);
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in &rows {
        writer.write_record(row).unwrap();
    }
    fs::write(path, writer.into_inner().unwrap()).unwrap();
}

/// The column `name`'s index in `rows`' header.
pub fn col(rows: &[Vec<String>], name: &str) -> usize {
    rows[0].iter().position(|h| h == name).unwrap()
}

/// `paigow report RUN --out OUT` refused with each of `messages` on stderr, and nothing written
/// at `out`.
pub fn refused(run: &Path, out: &Path, messages: &[&str]) {
    let mut assert = (paigow().arg("report").arg(run).arg("--out").arg(out))
        .assert()
        .failure();
    for message in messages {
        assert = assert.stderr(contains(*message));
    }
    assert!(!out.exists(), "a refused report left {}", out.display());
}
