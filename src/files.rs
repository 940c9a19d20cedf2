//! Files: reading configuration text with errors that say where, hashing it, and writing
//! reports atomically. The ground layer: it imports nothing from the crate.
//!
//! Reading. Every configuration file (games, house ways, paytables) goes through [`parse_toml`], so a
//! syntax error, an unknown key (all config structs use `deny_unknown_fields`) or a bad value is
//! reported with the file, line and column. Shipped files are embedded in the binary and named
//! by their path under the project (`games/standard.toml`), so the same error names them too.
//!
//! Writing. [`write_atomic`] writes to a temporary file in the same directory, which is flushed,
//! synced and renamed over the target, so an interrupted run never leaves a half-written report.
//! [`write_dir_atomic`] writes a whole set of files into a fresh directory beside the target and
//! swaps it in at the end, so a report directory holds one run's files or the previous run's,
//! never a mix (a failure part way, a full disk included, leaves the previous set whole). It
//! replaces only a directory that is new, empty or an earlier report set: never a file, a
//! symbolic link or a directory of other files ([`check_replaceable_dir`]).
//!
//! Temporaries are named `.NAME.tmp-PID` (and `.NAME.old-PID` for a directory's previous set
//! while it is swapped out), so two processes never share one, and a process killed part way
//! (SIGKILL, power loss) is recovered from by the next write of the same name: its stale
//! temporaries (their process is gone) are removed, and a directory it had moved aside but not
//! yet replaced is put back first ([`recover_interrupted_replacement`]).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use thiserror::Error;

/// A file the tool read, as its origin (a path, or `games/NAME.toml` for a shipped file) and
/// its exact text: what manifests record and digests hash.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextFile {
    pub origin: String,
    pub text: String,
}

impl TextFile {
    /// The file from its origin and text.
    pub fn new(origin: &str, text: &str) -> TextFile {
        TextFile {
            origin: origin.to_string(),
            text: text.to_string(),
        }
    }

    /// Lower-case hex SHA-256 of the text.
    pub fn sha256(&self) -> String {
        sha256_hex(self.text.as_bytes())
    }
}

/// A configuration file that could not be read or understood. Every error in a file's text is
/// `At` a line and column; `File` is for a file that could not be read at all. Either shows its
/// message [`clipped`], so a huge bad value is never echoed whole.
#[derive(Debug, Error)]
pub enum ConfigError {
    #[error("{origin}:{line}:{column}: {}", clipped(message))]
    At {
        origin: String,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{origin}: {}", clipped(message))]
    File { origin: String, message: String },
}

impl ConfigError {
    /// An error about a file that could not be read (no such file, not readable): no position.
    pub fn file(origin: &str, message: impl Into<String>) -> ConfigError {
        ConfigError::File {
            origin: origin.to_string(),
            message: message.into(),
        }
    }

    /// An error at byte `offset` of the file's `text`.
    pub fn at(origin: &str, text: &str, offset: usize, message: impl Into<String>) -> ConfigError {
        let (line, column) = line_column(text, offset);
        ConfigError::At {
            origin: origin.to_string(),
            line,
            column,
            message: message.into(),
        }
    }

    /// An error about the key at `path` of the TOML `text` (see [`key_offset`]): at that key, or
    /// at the deepest part of the path the file has (the top of the file when it has none).
    pub fn at_key(
        origin: &str,
        text: &str,
        path: &[&str],
        message: impl Into<String>,
    ) -> ConfigError {
        ConfigError::at(origin, text, key_offset(text, path), message)
    }

    /// The line the error names, if it names one.
    pub fn line(&self) -> Option<usize> {
        match self {
            ConfigError::At { line, .. } => Some(*line),
            ConfigError::File { .. } => None,
        }
    }
}

/// The longest word of a message shown whole, in characters.
const LONGEST_WORD: usize = 64;
/// The longest message shown whole, in characters.
const LONGEST_MESSAGE: usize = 900;

/// A message as an error shows it: each word (run of non-blank characters) longer than
/// `LONGEST_WORD` cut to its start, an ellipsis and its length, and the whole cut likewise
/// beyond `LONGEST_MESSAGE`; so a message quoting a 100 KB bad value stays short.
pub fn clipped(message: &str) -> String {
    let cut = |text: &str, keep: usize| -> String {
        match text.char_indices().nth(keep) {
            None => text.to_string(),
            Some((end, _)) => format!("{}... ({} characters)", &text[..end], text.chars().count()),
        }
    };
    let mut out = String::with_capacity(message.len().min(LONGEST_MESSAGE + 40));
    let mut word = String::new();
    for c in message.chars().chain(std::iter::once(' ')) {
        if c.is_whitespace() {
            if word.chars().nth(LONGEST_WORD).is_some() {
                let body = word.trim_end_matches(|c: char| c.is_ascii_punctuation());
                let body = match word.len() - body.len() {
                    0..=3 => body,
                    _ => &word,
                };
                out += &cut(body, LONGEST_WORD / 2);
                out += &word[body.len()..];
            } else {
                out += &word;
            }
            word.clear();
            out.push(c);
        } else {
            word.push(c);
        }
    }
    out.pop();
    match out.chars().nth(LONGEST_MESSAGE) {
        None => out,
        Some(_) => cut(&out, LONGEST_MESSAGE - 100),
    }
}

/// Byte offset in the TOML `text` of the key at `path`: table and key names from the top, and
/// decimal indices for the elements of arrays (`["line", "2", "pays"]` is the `pays` key of the
/// third `[[line]]`). When the path is not all there, the deepest part found; 0 when none is (or
/// the text is not TOML).
pub fn key_offset(text: &str, path: &[&str]) -> usize {
    use toml::de::{DeTable, DeValue};
    let Ok(document) = DeTable::parse(text) else {
        return 0;
    };
    let mut offset = 0;
    let mut value: Option<&DeValue> = None;
    let mut table = Some(document.get_ref());
    for segment in path {
        let found = match (table, value) {
            (Some(t), _) => (t.iter())
                .find(|(k, _)| k.get_ref().as_ref() == *segment)
                .map(|(k, v)| (k.span().start, v)),
            (None, Some(DeValue::Array(items))) => (segment.parse::<usize>().ok())
                .and_then(|i| items.get(i))
                .map(|v| (v.span().start, v)),
            _ => None,
        };
        let Some((start, next)) = found else {
            break;
        };
        offset = start;
        let inner = next.get_ref();
        table = match inner {
            DeValue::Table(t) => Some(t),
            _ => None,
        };
        value = Some(inner);
    }
    offset
}

/// 1-based line and column of a byte offset in `text`.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// Parses TOML `text` read from `origin` into `T`.
pub fn parse_toml<T: DeserializeOwned>(text: &str, origin: &str) -> Result<T, ConfigError> {
    toml::from_str(text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        let (line, column) = line_column(text, span.start);
        let mut message = e.message().trim().to_string();
        if message == "duplicate key"
            && let Some(key) = text.get(span).filter(|k| !k.is_empty() && k.len() < 80)
        {
            message = format!("duplicate key `{}`", key.trim());
        }
        if let Some(number) = integer_too_wide(&message) {
            message = format!("{number} is out of range (a TOML integer has at most 64 bits)");
        }
        let message = in_words(&message);
        ConfigError::At {
            origin: origin.to_string(),
            line,
            column,
            message,
        }
    })
}

/// A serde message with its Rust number types said in words ("expected u8" is "expected a
/// whole number from 0 to 255").
fn in_words(message: &str) -> String {
    const WORDS: [(&str, &str); 8] = [
        ("u8", "a whole number from 0 to 255"),
        ("u16", "a whole number from 0 to 65535"),
        ("u32", "a whole number 0 or more"),
        ("u64", "a whole number 0 or more"),
        ("usize", "a whole number 0 or more"),
        ("i64", "a whole number"),
        ("f64", "a number"),
        ("f32", "a number"),
    ];
    match message.rsplit_once("expected ") {
        Some((before, ty)) => match WORDS.iter().find(|(rust, _)| *rust == ty.trim()) {
            Some((_, words)) => format!("{before}expected {words}"),
            None => message.to_string(),
        },
        None => message.to_string(),
    }
}

/// The integer of a message that serde gives for one too wide for 64 bits ("invalid type:
/// integer `N` as i128, expected ..."), which is a range error, not a type error.
fn integer_too_wide(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("invalid type: integer `")?;
    let (number, rest) = rest.split_once('`')?;
    rest.starts_with(" as i128").then_some(number)
}

/// The longest `name` a game, house way or paytable may have, in characters: long enough for
/// any real title, short enough that labels, headings and error messages stay readable.
pub const LONGEST_NAME: usize = 256;

/// Checks the `name` key of the TOML `text` read from `origin`: not empty or only blanks (it
/// labels every report and default output name), and at most [`LONGEST_NAME`] characters.
pub fn check_name(origin: &str, text: &str, name: &str) -> Result<(), ConfigError> {
    let refuse = |message: String| Err(ConfigError::at_key(origin, text, &["name"], message));
    if name.trim().is_empty() {
        return refuse("name is empty or only blanks: name the file's contents".to_string());
    }
    let length = name.chars().count();
    if length > LONGEST_NAME {
        return refuse(format!(
            "name is {length} characters long: at most {LONGEST_NAME}"
        ));
    }
    Ok(())
}

/// The text of the file at `path` (named `origin` in errors): a file that is not UTF-8 is refused
/// at the line, column and byte offset of its first invalid byte.
pub fn read_text(path: &Path, origin: &str) -> Result<String, ConfigError> {
    let bytes =
        fs::read(path).map_err(|e| ConfigError::file(origin, format!("cannot read: {e}")))?;
    String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let before = std::str::from_utf8(&e.as_bytes()[..valid]).unwrap_or_default();
        ConfigError::at(
            origin,
            before,
            valid,
            format!("invalid UTF-8 at byte {valid} (the file must be UTF-8 text)"),
        )
    })
}

/// The text of a configuration given as a shipped name or a path, with the name to report it by.
/// A path that exists wins over a shipped name.
pub fn read_named(
    name_or_path: &str,
    shipped: &[(&str, &str, &str)],
    what: &str,
) -> Result<(String, String), ConfigError> {
    let path = Path::new(name_or_path);
    if name_or_path.is_empty() {
        return Err(ConfigError::file(
            "''",
            format!("an empty name, not a {what}"),
        ));
    }
    if path.is_dir() {
        return Err(ConfigError::file(
            name_or_path,
            format!("a directory; a {what} is a file or a shipped name"),
        ));
    }
    if path.is_file() {
        return Ok((read_text(path, name_or_path)?, name_or_path.to_string()));
    }
    if let Some((_, origin, text)) = shipped.iter().find(|(n, _, _)| *n == name_or_path) {
        return Ok((text.to_string(), origin.to_string()));
    }
    let names: Vec<&str> = shipped.iter().map(|(n, _, _)| *n).collect();
    Err(ConfigError::file(
        name_or_path,
        format!(
            "no such file, and not a shipped {what} (shipped: {})",
            names.join(", ")
        ),
    ))
}

/// Writes `bytes` to `path` atomically, creating parent directories as needed. Temporary files
/// of `path` left by killed processes are removed first ([`remove_stale_temporaries`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let file_name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other(format!("{}: not a file path", path.display())))?
        .to_string_lossy()
        .into_owned();
    remove_stale_temporaries(dir, &file_name);
    let temp = dir.join(temporary_name(&file_name, "tmp"));
    let result = (|| {
        let mut file = fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

/// The name of this process's temporary `what` (`tmp`, `old`) of the file or directory `name`:
/// hidden, beside it, ending in this process's id, so two processes never share one.
fn temporary_name(name: &str, what: &str) -> String {
    format!(".{name}.{what}-{}", std::process::id())
}

/// The id of the process whose temporary `what` of `name` the file `entry` is, if it is one
/// (`.NAME.WHAT-PID`; a bare `.NAME.old`, as earlier versions named it, is given id 0).
fn temporary_owner(entry: &str, name: &str, what: &str) -> Option<u32> {
    let rest = entry.strip_prefix(&format!(".{name}.{what}"))?;
    match rest.strip_prefix('-') {
        Some(pid) => pid.parse().ok(),
        None => rest.is_empty().then_some(0),
    }
}

/// Whether the process `pid` is gone, so that its temporaries are stale. Where `/proc` lists
/// processes (Linux), by its entry there; elsewhere, a temporary untouched for an hour is taken
/// as a killed process's (`modified`).
fn process_is_gone(pid: u32, modified: Option<std::time::SystemTime>) -> bool {
    if pid == std::process::id() {
        return false;
    }
    if pid == 0 {
        return true;
    }
    if Path::new("/proc/self").exists() {
        return !Path::new("/proc").join(pid.to_string()).exists();
    }
    let age = modified.and_then(|m| m.elapsed().ok());
    age.is_some_and(|a| a > std::time::Duration::from_secs(3600))
}

/// The temporaries of `what` (`tmp`, `old`) for `name` in `parent` whose processes are gone.
fn stale_temporaries(parent: &Path, name: &str, what: &str) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(parent) else {
        return Vec::new();
    };
    let mut stale: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| {
            let entry = e.file_name().to_string_lossy().into_owned();
            let modified = e.metadata().and_then(|m| m.modified()).ok();
            temporary_owner(&entry, name, what).is_some_and(|pid| process_is_gone(pid, modified))
        })
        .map(|e| e.path())
        .collect();
    stale.sort();
    stale
}

/// Removes the temporary files and directories of `name` in `parent` (`.NAME.tmp-PID`,
/// `.NAME.old-PID`) that processes killed part way left (their process is gone); returns how
/// many. A live process's temporaries are never touched.
pub fn remove_stale_temporaries(parent: &Path, name: &str) -> usize {
    let mut removed = 0;
    for what in ["tmp", "old"] {
        for path in stale_temporaries(parent, name, what) {
            let gone = match fs::symlink_metadata(&path) {
                Ok(m) if m.is_dir() => fs::remove_dir_all(&path),
                _ => fs::remove_file(&path),
            };
            removed += usize::from(gone.is_ok());
        }
    }
    removed
}

/// Recovers the directory `dir` from a replacement that a killed process left half done: when
/// `dir` is missing and a killed process's `.NAME.old-PID` (the previous set, moved aside) is
/// there, that set is put back; then every stale temporary of `dir` is removed. Returns a note
/// saying what was done, if anything was.
pub fn recover_interrupted_replacement(dir: &Path) -> std::io::Result<Option<String>> {
    let Some(name) = dir.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return Ok(None);
    };
    let parent = dir
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut note = None;
    let missing =
        matches!(fs::symlink_metadata(dir), Err(e) if e.kind() == std::io::ErrorKind::NotFound);
    if missing && let Some(old) = stale_temporaries(parent, &name, "old").pop() {
        fs::rename(&old, dir).map_err(|e| {
            std::io::Error::new(
                e.kind(),
                format!(
                    "{}: cannot put back {} (left by an interrupted run): {e}",
                    dir.display(),
                    old.display()
                ),
            )
        })?;
        note = Some(format!(
            "{}: an earlier run was killed while replacing it; its previous set ({}) was put back",
            dir.display(),
            old.display()
        ));
    }
    let removed = remove_stale_temporaries(parent, &name);
    if removed > 0 && note.is_none() {
        note = Some(format!(
            "{}: removed {removed} temporary files or directories left by a killed run",
            dir.display()
        ));
    }
    Ok(note)
}

/// Whether `dir` may be replaced as a whole by a new set of files: it does not exist, or it is
/// a directory (not a link to one) that is empty or holds only regular files, `manifest.json`
/// among them (an earlier report set). Anything else (a file, a symbolic link, subdirectories, or
/// files with no manifest: not a report set) is refused, so that replacing it can never remove
/// files a user keeps there.
pub fn check_replaceable_dir(dir: &Path) -> std::io::Result<()> {
    check_replaceable_as(dir, "a paigow report set", &|entries| {
        let only_files = entries
            .iter()
            .all(|e| e.file_type().is_ok_and(|t| t.is_file()));
        only_files && entries.iter().any(|e| e.file_name() == "manifest.json")
    })
}

/// [`check_replaceable_dir`] for a set of another shape: `dir` does not exist, or is a
/// directory (not a link) that is empty or whose entries `is_set` recognises as a set the
/// command wrote (`set` names it in the refusal).
pub fn check_replaceable_as(
    dir: &Path,
    set: &str,
    is_set: &dyn Fn(&[fs::DirEntry]) -> bool,
) -> std::io::Result<()> {
    use std::io::ErrorKind::{NotADirectory, NotFound};
    let named =
        |e: std::io::Error| std::io::Error::new(e.kind(), format!("{}: {e}", dir.display()));
    // Not there, or under a file (creating it then names the file in the way): nothing to lose.
    let kind = match fs::symlink_metadata(dir) {
        Err(e) if matches!(e.kind(), NotFound | NotADirectory) => return Ok(()),
        Err(e) => return Err(named(e)),
        Ok(meta) => meta.file_type(),
    };
    if !kind.is_dir() {
        let what = match kind.is_symlink() {
            true => {
                "a symbolic link (a report set replaces the link itself: give the directory it names)"
            }
            false => "a file, not a directory (a report set is a directory)",
        };
        return Err(std::io::Error::other(format!(
            "{}: is {what}",
            dir.display()
        )));
    }
    let entries =
        (fs::read_dir(dir).and_then(|e| e.collect::<Result<Vec<_>, _>>())).map_err(named)?;
    if entries.is_empty() || is_set(&entries) {
        return Ok(());
    }
    Err(std::io::Error::other(format!(
        "{}: holds files that are not {set} (a report directory is replaced as a whole); \
         choose a new or empty directory",
        dir.display()
    )))
}

/// Writes `files` (name, bytes) as the whole content of directory `dir`: into a fresh
/// temporary directory beside it (every file synced), then swapped in for `dir` by renames. The
/// last file listed is written last. `dir` must pass [`check_replaceable_dir`].
pub fn write_dir_atomic(dir: &Path, files: &[(&str, Vec<u8>)]) -> std::io::Result<()> {
    check_replaceable_dir(dir)?;
    replace_dir_atomic(dir, &mut |temp| {
        for (name, bytes) in files {
            write_synced(&temp.join(name), bytes)?;
        }
        Ok(())
    })
}

/// Writes `bytes` to the new file `path` and syncs it.
pub fn write_synced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = fs::File::create(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Replaces directory `dir` as a whole with what `fill` writes into a fresh temporary directory
/// beside it (`.NAME.tmp-PID`): when `fill` succeeds, the old `dir` is renamed aside
/// (`.NAME.old-PID`), the new one renamed into place, and the old removed; when it fails, the
/// temporary is removed and `dir` is untouched. A replacement a killed process left half done is
/// recovered first ([`recover_interrupted_replacement`], its note on stderr). The caller checks
/// that `dir` may be replaced ([`check_replaceable_dir`], [`check_replaceable_as`]).
pub fn replace_dir_atomic(
    dir: &Path,
    fill: &mut dyn FnMut(&Path) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let name = dir
        .file_name()
        .ok_or_else(|| std::io::Error::other(format!("{}: not a directory path", dir.display())))?
        .to_string_lossy()
        .into_owned();
    let parent = dir
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs::create_dir_all(parent)?;
    if let Some(note) = recover_interrupted_replacement(dir)? {
        eprintln!("note: {note}");
    }
    let temp = parent.join(temporary_name(&name, "tmp"));
    let old = parent.join(temporary_name(&name, "old"));
    let result = (|| {
        let _ = fs::remove_dir_all(&temp);
        fs::create_dir(&temp)?;
        fill(&temp)?;
        swap(dir, &temp, &old)
    })();
    if result.is_err() {
        let _ = fs::remove_dir_all(&temp);
    }
    result.map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", dir.display())))
}

/// Puts the filled directory `temp` in `dir`'s place, moving the old `dir` to `old` meanwhile.
fn swap(dir: &Path, temp: &Path, old: &Path) -> std::io::Result<()> {
    let had_old = match fs::rename(dir, old) {
        Ok(()) => true,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
        Err(e) => return Err(e),
    };
    if let Err(e) = fs::rename(temp, dir) {
        if had_old {
            let _ = fs::rename(old, dir);
        }
        return Err(e);
    }
    if had_old {
        let _ = fs::remove_dir_all(old);
    }
    Ok(())
}

/// The first path of `paths` given twice, however spelled (the same canonical path; a path
/// that cannot be resolved stands for itself): the earlier spelling and the later.
pub fn first_repeat(paths: &[PathBuf]) -> Option<(&Path, &Path)> {
    let mut seen = std::collections::BTreeMap::new();
    for path in paths {
        let key = fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        if let Some(earlier) = seen.insert(key, path.as_path()) {
            return Some((earlier, path));
        }
    }
    None
}

/// The edition of the results the caches hold, under one version of the tool. Bump it in any
/// change that alters a cached result or what a cached name means (an exact count, a dealer
/// table, best settings, a price table; `optimal:D` became the price table's optimum at
/// `90f6f6d` while the version stayed 0.1.0): every cache key includes it ([`results_identity`]),
/// so an entry of another edition is never found, and is built again. Edition 1 is every entry
/// keyed by the version alone.
pub const RESULTS_EDITION: u32 = 2;

/// The tool as the caches' keys name it: its version and [`RESULTS_EDITION`].
pub fn results_identity() -> String {
    format!(
        "{} results edition {RESULTS_EDITION}",
        env!("CARGO_PKG_VERSION")
    )
}

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_found_by_path() {
        let text = "name = \"x\"\n[main_wager]\ncommission = \"bank\"\n\n[[line]]\nevent = \"a\"\n\n[[line]]\nevent = \"b\"\npays = 5\n";
        let line = |path: &[&str]| line_column(text, key_offset(text, path)).0;
        assert_eq!(line(&["name"]), 1);
        assert_eq!(line(&["main_wager", "commission"]), 3);
        assert_eq!(line(&["line", "1", "pays"]), 10);
        assert_eq!(line(&["line", "1", "missing"]), 8, "the deepest part found");
        assert_eq!(line(&["nothing"]), 1);
        assert_eq!(key_offset("= broken", &["name"]), 0);
        let error = ConfigError::at_key("f.toml", text, &["line", "0", "event"], "bad");
        assert_eq!(error.to_string(), "f.toml:6:1: bad");
    }

    #[test]
    fn long_values_are_clipped_in_messages() {
        let huge = "x".repeat(100_000);
        let error = ConfigError::at(
            "f.toml",
            "",
            0,
            format!("unknown event '{huge}' (see the README)"),
        );
        let text = error.to_string();
        assert!(text.len() < 200, "{text}");
        assert!(
            text.contains("... (100001 characters)' (see") && text.ends_with("(see the README)"),
            "{text}"
        );
        let many_words = "word ".repeat(50_000);
        let text = ConfigError::file("f.toml", many_words).to_string();
        assert!(text.len() < 900 && text.contains("..."), "{text}");
        assert_eq!(clipped("short and plain"), "short and plain");
    }

    #[test]
    fn a_duplicate_key_is_named() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct File {
            name: String,
        }
        let err = parse_toml::<File>("name = \"x\"\nname = \"y\"\n", "f.toml").unwrap_err();
        assert_eq!(err.to_string(), "f.toml:2:1: duplicate key `name`");
    }

    #[test]
    fn an_integer_wider_than_64_bits_is_out_of_range() {
        #[derive(serde::Deserialize, Debug)]
        struct Count {
            #[allow(dead_code)]
            n: u64,
        }
        let text = "n = 99999999999999999999\n";
        let error = parse_toml::<Count>(text, "c.toml").unwrap_err().to_string();
        assert!(
            error.contains("c.toml:1:5: 99999999999999999999 is out of range"),
            "{error}"
        );
    }

    #[test]
    fn line_column_counts_from_one() {
        let text = "a = 1\nbb = 2\n";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 6), (2, 1));
        assert_eq!(line_column(text, 8), (2, 3));
    }

    #[test]
    fn replaces_the_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("r.csv");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = fs::read_dir(path.parent().unwrap()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn a_directory_is_replaced_as_a_whole() {
        let top = tempfile::tempdir().unwrap();
        let dir = top.path().join("run");
        let names = |d: &Path| {
            let mut n: Vec<String> = fs::read_dir(d)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            n.sort();
            n
        };
        let one = [("a.csv", b"1".to_vec()), ("manifest.json", b"{}".to_vec())];
        write_dir_atomic(&dir, &one).unwrap();
        assert_eq!(names(&dir), ["a.csv", "manifest.json"]);
        let two = [("b.csv", b"2".to_vec()), ("manifest.json", b"{}".to_vec())];
        write_dir_atomic(&dir, &two).unwrap();
        assert_eq!(
            names(&dir),
            ["b.csv", "manifest.json"],
            "no file of the old set stays"
        );
        assert_eq!(names(top.path()), ["run"], "no temporary is left beside it");
        // A failure part way (a file name that cannot be created) leaves the old set whole.
        let bad = [("c.csv", b"3".to_vec()), ("no/such/dir.csv", b"4".to_vec())];
        assert!(write_dir_atomic(&dir, &bad).is_err());
        assert_eq!(names(&dir), ["b.csv", "manifest.json"]);
        assert_eq!(names(top.path()), ["run"]);
        // A directory that is not a report set is never replaced.
        let user = top.path().join("user");
        fs::create_dir(&user).unwrap();
        fs::write(user.join("notes.txt"), "keep").unwrap();
        let err = write_dir_atomic(&user, &one).unwrap_err().to_string();
        assert!(err.contains("not a paigow report set"), "{err}");
        assert_eq!(fs::read_to_string(user.join("notes.txt")).unwrap(), "keep");
    }

    /// A process killed between the two renames of a replacement leaves the previous set moved
    /// aside (`.run.old-PID`, or `.run.old` as earlier versions named it) and the new one in its
    /// temporary, and no `run`: the next replacement puts the previous set back, then replaces
    /// it, and leaves nothing beside it (it used to fail with "Directory not empty" for ever).
    #[test]
    fn a_replacement_killed_between_its_renames_is_recovered() {
        const DEAD: u32 = 999_999_999;
        for old_name in [format!(".run.old-{DEAD}"), ".run.old".to_string()] {
            let top = tempfile::tempdir().unwrap();
            let (dir, old) = (top.path().join("run"), top.path().join(&old_name));
            let temp = top.path().join(format!(".run.tmp-{}", DEAD - 1));
            for d in [&old, &temp] {
                fs::create_dir(d).unwrap();
                fs::write(d.join("manifest.json"), "{}").unwrap();
            }
            let note = recover_interrupted_replacement(&dir).unwrap().unwrap();
            assert!(note.contains("put back"), "{note}");
            assert!(dir.join("manifest.json").is_file());
            assert_eq!(fs::read_dir(top.path()).unwrap().count(), 1, "{old_name}");
            for _ in 0..2 {
                write_dir_atomic(&dir, &[("manifest.json", b"[]".to_vec())]).unwrap();
            }
            assert_eq!(fs::read(dir.join("manifest.json")).unwrap(), b"[]");
            assert_eq!(fs::read_dir(top.path()).unwrap().count(), 1);
        }
        // Killed after the second rename: the new set is in place and the old one is removed.
        let top = tempfile::tempdir().unwrap();
        let dir = top.path().join("run");
        write_dir_atomic(&dir, &[("manifest.json", b"new".to_vec())]).unwrap();
        fs::create_dir(top.path().join(format!(".run.old-{DEAD}"))).unwrap();
        fs::write(top.path().join(format!(".r.csv.tmp-{DEAD}")), "half").unwrap();
        write_atomic(&top.path().join("r.csv"), b"whole").unwrap();
        recover_interrupted_replacement(&dir).unwrap();
        assert_eq!(fs::read(dir.join("manifest.json")).unwrap(), b"new");
        let mut names: Vec<_> = (fs::read_dir(top.path()).unwrap())
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, ["r.csv", "run"], "stale temporaries are removed");
        // A live process's temporary is never touched.
        let mine = top.path().join(temporary_name("run", "tmp"));
        fs::create_dir(&mine).unwrap();
        assert_eq!(remove_stale_temporaries(top.path(), "run"), 0);
        assert!(mine.is_dir());
    }

    #[test]
    #[cfg(unix)]
    fn a_file_or_a_link_is_never_replaced_by_a_report_set() {
        let top = tempfile::tempdir().unwrap();
        let set = [("manifest.json", b"{}".to_vec())];
        let file = top.path().join("notes.txt");
        fs::write(&file, "keep").unwrap();
        let err = write_dir_atomic(&file, &set).unwrap_err().to_string();
        assert!(
            err.contains("notes.txt: is a file, not a directory"),
            "{err}"
        );
        assert_eq!(fs::read_to_string(&file).unwrap(), "keep");
        let target = top.path().join("earlier");
        write_dir_atomic(&target, &set).unwrap();
        for (link, to) in [("to-dir", &target), ("dangling", &top.path().join("none"))] {
            let link = top.path().join(link);
            std::os::unix::fs::symlink(to, &link).unwrap();
            let err = write_dir_atomic(&link, &set).unwrap_err().to_string();
            assert!(err.contains("is a symbolic link"), "{err}");
            assert!(
                fs::symlink_metadata(&link)
                    .unwrap()
                    .file_type()
                    .is_symlink()
            );
        }
    }

    #[test]
    fn sha256_of_abc() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
