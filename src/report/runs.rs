//! Run directories as `paigow report` reads them: the manifest, every CSV file by its columns'
//! names, and the texts of the run's inputs.
//!
//! What a run is comes from its manifest's `command` (`exact categories`, `exact bonus`, `exact
//! main`, `simulate`, `compare`, `table`, `cost-way`, `sweep-way`, `derive-way`: [`RunKind`]),
//! else from its command line, else from the files it
//! holds, so a directory written before manifests named their command still reads. Columns are
//! read by name and files by name: a run with columns or files this reader does not know still
//! reads, and they are listed. The game's text comes from the spec the manifest embeds; for a run
//! without one, from the file its manifest names, when that file (shipped with the tool or on
//! disk) has the SHA-256 the manifest lists, and never otherwise.
//!
//! Invariant: a [`RunDir`] holds the files' text exactly as read, with the SHA-256 of each, and
//! has passed `check::check`: the manifest fields, files, rows, columns and numeric cells its
//! kind's report reads are there and in range, so a renderer never meets a missing row or a
//! cell that is not a number (a run that fails is refused, naming the file, line and column).

mod check;

use std::collections::BTreeMap;
use std::path::Path;

use thiserror::Error;

use crate::engine::run::spec::RunSpec;
use crate::files::{TextFile, sha256_hex};
use crate::game::SHIPPED_GAMES;
use crate::game::paytable::SHIPPED_PAYTABLES;
use crate::report::facts::InputFile;
use crate::strategy::way::SHIPPED_WAYS;

pub use crate::game::wager::MAIN_NAMES;

/// A run directory that cannot be read.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("{dir}: {message}")]
pub struct RunDirError {
    pub dir: String,
    pub message: String,
}

/// What wrote a run directory.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RunKind {
    ExactCategories,
    ExactBonus,
    ExactMain,
    Simulate,
    Compare,
    Table,
    /// The house-way workbench: the exact cost of each rule of a way.
    CostWay,
    /// The house-way workbench: a way's rules swept exactly.
    SweepWay,
    /// The house-way workbench: a short way derived from the optimum.
    DeriveWay,
    /// A command this reader does not know (its name).
    Other(String),
}

impl RunKind {
    /// The command's name.
    pub fn name(&self) -> &str {
        match self {
            RunKind::ExactCategories => "exact categories",
            RunKind::ExactBonus => "exact bonus",
            RunKind::ExactMain => "exact main",
            RunKind::Simulate => "simulate",
            RunKind::Compare => "compare",
            RunKind::Table => "table",
            RunKind::CostWay => "cost-way",
            RunKind::SweepWay => "sweep-way",
            RunKind::DeriveWay => "derive-way",
            RunKind::Other(name) => name,
        }
    }

    fn from_name(name: &str) -> Option<RunKind> {
        let all = [
            RunKind::ExactCategories,
            RunKind::ExactBonus,
            RunKind::ExactMain,
            RunKind::Simulate,
            RunKind::Compare,
            RunKind::Table,
            RunKind::CostWay,
            RunKind::SweepWay,
            RunKind::DeriveWay,
        ];
        all.into_iter().find(|k| k.name() == name)
    }
}

/// A CSV file: its header and rows as text, and the SHA-256 of its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsvFile {
    pub name: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// The line of the file each row starts on (the header is line 1).
    pub lines: Vec<u64>,
    pub sha256: String,
}

impl CsvFile {
    /// Parses a CSV text with a header line.
    pub fn parse(name: &str, text: &str) -> Result<CsvFile, String> {
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header = (reader.headers().map_err(|e| format!("{name}: {e}"))?)
            .iter()
            .map(str::to_string)
            .collect();
        let mut rows = Vec::new();
        let mut lines = Vec::new();
        for record in reader.records() {
            let record = record.map_err(|e| format!("{name}: {e}"))?;
            lines.push(record.position().map_or(0, csv::Position::line));
            rows.push(record.iter().map(str::to_string).collect());
        }
        Ok(CsvFile {
            name: name.to_string(),
            header,
            rows,
            lines,
            sha256: sha256_hex(text.as_bytes()),
        })
    }

    /// Whether the file has the column `name`.
    pub fn has(&self, name: &str) -> bool {
        self.header.iter().any(|h| h == name)
    }

    /// The cell of `row` in column `name` ("" when the column is absent).
    pub fn get<'a>(&self, row: &'a [String], name: &str) -> &'a str {
        (self.header.iter().position(|h| h == name))
            .and_then(|i| row.get(i))
            .map_or("", String::as_str)
    }

    /// The rows whose column `name` holds `value`.
    pub fn rows_with<'a>(
        &'a self,
        name: &'a str,
        value: &'a str,
    ) -> impl Iterator<Item = &'a Vec<String>> + 'a {
        self.rows.iter().filter(move |r| self.get(r, name) == value)
    }
}

/// One run directory, read.
#[derive(Clone, Debug)]
pub struct RunDir {
    /// The directory as given.
    pub dir: String,
    pub kind: RunKind,
    pub manifest: serde_json::Value,
    /// Every CSV file, by file name.
    pub csv: BTreeMap<String, CsvFile>,
    /// Other files in the directory (not CSV, not the manifest), by name.
    pub other_files: Vec<String>,
    /// The SHA-256 of `manifest.json`.
    pub manifest_sha256: String,
    /// The spec the manifest embeds, if any.
    pub spec: Option<RunSpec>,
    /// Every input the manifest lists.
    pub inputs: Vec<InputFile>,
    /// The game file's text, where it is known (see the module docs).
    pub game: Option<TextFile>,
}

impl RunDir {
    /// Reads the run directory `dir`.
    pub fn read(dir: &Path) -> Result<RunDir, RunDirError> {
        let name = dir.display().to_string();
        let fail = |message: String| RunDirError {
            dir: name.clone(),
            message,
        };
        let manifest_text = std::fs::read_to_string(dir.join("manifest.json")).map_err(|e| {
            fail(format!(
                "no readable manifest.json ({e}): not a paigow run directory"
            ))
        })?;
        let manifest: serde_json::Value = serde_json::from_str(&manifest_text)
            .map_err(|e| fail(format!("manifest.json is not JSON: {e}")))?;
        let (csv, other_files) = read_files(dir).map_err(fail)?;
        let spec = match manifest.get("spec") {
            Some(value) => Some(
                serde_json::from_value::<RunSpec>(value.clone())
                    .map_err(|e| fail(format!("manifest.json: its spec does not read: {e}")))?,
            ),
            None => None,
        };
        let inputs = match manifest.get("config_files") {
            Some(value) => serde_json::from_value::<Vec<InputFile>>(value.clone())
                .map_err(|e| fail(format!("manifest.json: config_files do not read: {e}")))?,
            None => Vec::new(),
        };
        let kind = kind_of(&manifest, &csv);
        check::check(&kind, &manifest, &csv).map_err(fail)?;
        check::check_inputs(spec.as_ref(), &inputs).map_err(fail)?;
        let game = game_text(spec.as_ref(), &inputs);
        Ok(RunDir {
            dir: name,
            kind,
            manifest_sha256: sha256_hex(manifest_text.as_bytes()),
            manifest,
            csv,
            other_files,
            spec,
            inputs,
            game,
        })
    }

    /// The CSV file `name`, or an error naming the directory.
    pub fn file(&self, name: &str) -> Result<&CsvFile, RunDirError> {
        self.csv.get(name).ok_or_else(|| RunDirError {
            dir: self.dir.clone(),
            message: format!("a {} run directory without {name}", self.kind.name()),
        })
    }

    /// A manifest field as text ("" when absent).
    pub fn fact(&self, key: &str) -> String {
        match self.manifest.get(key) {
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(serde_json::Value::Null) | None => String::new(),
            Some(other) => other.to_string(),
        }
    }

    /// The SHA-256 of the game file, as the manifest lists it.
    pub fn game_sha256(&self) -> Option<String> {
        (self.inputs.iter())
            .find(|i| i.role == "game")
            .and_then(|i| i.sha256.clone())
            .or_else(|| self.game.as_ref().map(TextFile::sha256))
    }
}

/// Every CSV file of `dir` parsed, and the names of the other files.
fn read_files(dir: &Path) -> Result<(BTreeMap<String, CsvFile>, Vec<String>), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot list: {e}"))?;
    let mut csv = BTreeMap::new();
    let mut other = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("cannot list: {e}"))?.path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !path.is_file() || name.starts_with('.') || name == "manifest.json" {
            continue;
        }
        if name.ends_with(".csv") {
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{name}: cannot read: {e}"))?;
            csv.insert(name.clone(), CsvFile::parse(&name, &text)?);
        } else {
            other.push(name);
        }
    }
    other.sort();
    Ok((csv, other))
}

/// The kind of a run: the manifest's command, else its command line, else its files.
fn kind_of(manifest: &serde_json::Value, csv: &BTreeMap<String, CsvFile>) -> RunKind {
    if let Some(command) = manifest.get("command").and_then(|c| c.as_str()) {
        return RunKind::from_name(command).unwrap_or_else(|| RunKind::Other(command.to_string()));
    }
    let line = manifest
        .get("command_line")
        .and_then(|c| c.as_str())
        .unwrap_or("");
    let words: Vec<&str> = line.split_whitespace().collect();
    let said = |phrase: &[&str]| words.windows(phrase.len()).any(|w| w == phrase);
    let by_line = [
        (&["exact", "main"][..], RunKind::ExactMain),
        (&["exact", "bonus"][..], RunKind::ExactBonus),
        (&["exact", "categories"][..], RunKind::ExactCategories),
        (&["simulate"][..], RunKind::Simulate),
        (&["compare"][..], RunKind::Compare),
        (&["table"][..], RunKind::Table),
        (&["cost-way"][..], RunKind::CostWay),
        (&["sweep-way"][..], RunKind::SweepWay),
        (&["derive-way"][..], RunKind::DeriveWay),
    ];
    if let Some((_, kind)) = by_line.into_iter().find(|(phrase, _)| said(phrase)) {
        return kind;
    }
    let has = |name: &str| csv.contains_key(name);
    match () {
        _ if has("compare.csv") => RunKind::Compare,
        _ if has("rules.csv") && has("classes.csv") => RunKind::CostWay,
        _ if has("sweep.csv") => RunKind::SweepWay,
        _ if has("frontier.csv") => RunKind::DeriveWay,
        _ if has("outcomes.csv") => RunKind::Table,
        _ if has("categories.csv") => RunKind::ExactCategories,
        _ if csv.get("returns.csv").is_some_and(|r| r.has("count")) => RunKind::Simulate,
        _ if csv
            .get("returns.csv")
            .is_some_and(|r| r.has("claimed_combinations")) =>
        {
            RunKind::ExactBonus
        }
        _ if has("returns.csv") => RunKind::ExactMain,
        _ => RunKind::Other("unknown".to_string()),
    }
}

/// The game file's text: the spec's, else a shipped or local file with the listed SHA-256.
fn game_text(spec: Option<&RunSpec>, inputs: &[InputFile]) -> Option<TextFile> {
    if let Some(spec) = spec {
        return Some(spec.game.clone());
    }
    let game = inputs.iter().find(|i| i.role == "game")?;
    verified_text(game, SHIPPED_GAMES)
}

/// The text of an input listed with its SHA-256: the shipped file of that origin, or the file
/// at that path, if its SHA-256 is the one listed.
pub fn verified_text(input: &InputFile, shipped: &[(&str, &str, &str)]) -> Option<TextFile> {
    let sha = input.sha256.as_deref()?;
    let candidates = (shipped.iter())
        .filter(|(_, origin, _)| *origin == input.origin)
        .map(|(_, _, text)| text.to_string())
        .chain(std::fs::read_to_string(&input.origin).ok());
    candidates
        .map(|text| TextFile::new(&input.origin, &text))
        .find(|file| file.sha256() == sha)
}

/// The shipped files a run may name without embedding them: games, paytables, house ways.
pub fn shipped_for(role: &str) -> &'static [(&'static str, &'static str, &'static str)] {
    match role {
        "game" => SHIPPED_GAMES,
        "paytable" => SHIPPED_PAYTABLES,
        _ => SHIPPED_WAYS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_columns_are_read_by_name() {
        let f = CsvFile::parse("r.csv", "a,b\n1,x\n2,\"y,z\"\n").unwrap();
        assert_eq!(f.get(&f.rows[1], "b"), "y,z");
        assert_eq!(f.get(&f.rows[0], "missing"), "");
        assert_eq!(f.rows_with("a", "2").count(), 1);
        assert!(CsvFile::parse("bad.csv", "a,b\n1,2,3\n").is_err());
    }

    #[test]
    fn kinds_come_from_the_command_then_the_line_then_the_files() {
        let csv = BTreeMap::new();
        let m = |j: &str| serde_json::from_str::<serde_json::Value>(j).unwrap();
        assert_eq!(
            kind_of(&m(r#"{"command":"simulate"}"#), &csv),
            RunKind::Simulate
        );
        assert_eq!(
            kind_of(
                &m(r#"{"command_line":"paigow exact main --game standard"}"#),
                &csv
            ),
            RunKind::ExactMain
        );
        assert_eq!(
            kind_of(&m(r#"{"command":"new thing"}"#), &csv),
            RunKind::Other("new thing".into())
        );
        let mut files = BTreeMap::new();
        files.insert(
            "compare.csv".to_string(),
            CsvFile::parse("compare.csv", "kind\n").unwrap(),
        );
        assert_eq!(
            kind_of(&m(r#"{"command_line":"paigow merge a b"}"#), &files),
            RunKind::Compare
        );
    }

    #[test]
    fn a_listed_input_is_used_only_with_its_sha256() {
        let (_, origin, text) = SHIPPED_GAMES[0];
        let mut input = InputFile {
            role: "game".into(),
            origin: origin.into(),
            sha256: Some(sha256_hex(text.as_bytes())),
        };
        assert_eq!(verified_text(&input, SHIPPED_GAMES).unwrap().text, text);
        input.sha256 = Some("0".repeat(64));
        assert!(verified_text(&input, SHIPPED_GAMES).is_none());
    }
}
