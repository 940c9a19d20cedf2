//! The tables of the optimal strategies on disk, so that each is built once per game, way and
//! version: the dealer table of `full-deck-optimal:D`, and the best settings of `optimal:D`
//! (the same header, key and checksum; rows `shape,front_value,back_value`).
//!
//! A table is a small CSV file in the cache folder (`$PAIGOW_CACHE_DIR`; else
//! `$XDG_CACHE_HOME/paigow`; else `~/.cache/paigow`; `PAIGOW_CACHE_DIR=` empty turns caching
//! off). Its first lines are `#` comments: the format, the tool's version, the key, the
//! checksum, and the counts of dealer hands that are not live; then
//! `front_value,back_value,hands` for every non-empty cell.
//!
//! Invariants: the key is the SHA-256 of the tool's version, the game file's text and the dealer
//! way's text (or built-in name), so a table is reused only for the same rules, way and version;
//! the checksum (`# sha256`) is the SHA-256 of the whole file but that line, so a file cut short,
//! with a flipped byte, or with hands moved between cells (the total kept) is caught. A file
//! whose key or checksum differs, or that does not parse, or whose hands do not add up to every
//! 7-card hand of the deck, is rebuilt (with a note on stderr saying why), never trusted. The
//! checksum guards against damage and careless edits, not against someone who recomputes it.
//! Files are written atomically ([`crate::files::write_atomic`]): a process killed while writing
//! leaves the previous file (or none) and a temporary that the next write removes; two processes
//! building one table at once each write their own temporary and rename it into place, and the
//! table's text is a function of its key, so whichever rename is last leaves the same bytes.
//!
//! Every table this process loads or builds is remembered by key with the SHA-256 of its text
//! ([`table_digest`]), so that a manifest can list it among the run's inputs; a table's text is
//! a function of its key alone, so the digest is the same whether it was read or built.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::grid::{DealerCounts, ValueIndex};
use super::{FULL_DECK_PREFIX, PREFIX};
use crate::eval::Value;
use crate::game::GameRules;
use crate::strategy::Strategy;

/// The first line of a table file.
const FORMAT: &str = "# paigow dealer table v2";
/// The line of a table file that holds its checksum, before the digest.
const CHECKSUM: &str = "# sha256 ";

/// The dealer's way of an `optimal:D`, with what identifies it (made by
/// [`crate::strategy::resolve::dealer_way`]).
pub struct DealerWay {
    pub label: String,
    pub strategy: Box<dyn Strategy>,
    /// The way's file text, or the built-in's name.
    pub text: String,
}

/// The cache folder, or None when caching is off.
pub fn default_dir() -> Option<PathBuf> {
    match std::env::var_os("PAIGOW_CACHE_DIR") {
        Some(dir) if dir.is_empty() => None,
        Some(dir) => Some(PathBuf::from(dir)),
        None => std::env::var_os("XDG_CACHE_HOME")
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")))
            .map(|d| d.join("paigow")),
    }
}

/// The key of the table of `way` under `game`.
pub fn key(way: &DealerWay, game: &GameRules) -> String {
    key_of(&game.file(), &way.label, &way.text)
}

/// The key of the table of the dealer way `label` (its file's text, or the built-in's name) under
/// the game file `game`.
pub fn key_of(game: &crate::files::TextFile, label: &str, way_text: &str) -> String {
    let text = format!(
        "paigow {}\n--- game {}\n{}\n--- dealer way {}\n{}",
        crate::files::results_identity(),
        game.origin,
        game.text,
        label,
        way_text
    );
    crate::files::sha256_hex(text.as_bytes())
}

/// The file name of a table: readable names and the key's first 16 hex digits.
pub fn file_name_of(game_origin: &str, label: &str, key: &str) -> String {
    let stem = |s: &str| {
        Path::new(s)
            .file_stem()
            .map_or_else(|| s.to_string(), |f| f.to_string_lossy().into_owned())
    };
    format!(
        "dealer-{}-{}-{}.csv",
        stem(game_origin),
        stem(label),
        &key[..16]
    )
}

fn file_name(way: &DealerWay, game: &GameRules, key: &str) -> String {
    file_name_of(&game.origin, &way.label, key)
}

/// SHA-256 of each table's text this process has loaded or built, by key.
static DIGESTS: Mutex<BTreeMap<String, String>> = Mutex::new(BTreeMap::new());

/// The SHA-256 of the text of the table with key `key`, if this process loaded or built it.
pub fn table_digest(key: &str) -> Option<String> {
    let digests = DIGESTS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    digests.get(key).cloned()
}

/// Remembers the digest of the table `counts` with key `key`.
fn remember(key: &str, index: &ValueIndex, counts: &DealerCounts) {
    remember_text(key, &write(key, index, counts));
}

/// The key [`table_digest`] knows the best settings of `optimal:D` by, from their file's key.
pub fn best_key(key: &str) -> String {
    format!("best {key}")
}

/// The file name of `optimal:D`'s best settings.
pub fn best_file_name_of(game_origin: &str, label: &str, key: &str) -> String {
    file_name_of(game_origin, label, key).replacen("dealer-", "best-", 1)
}

/// Remembers the digest of a file's text under `key`.
fn remember_text(key: &str, text: &str) {
    let digest = crate::files::sha256_hex(text.as_bytes());
    let mut digests = DIGESTS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    digests.insert(key.to_string(), digest);
}

/// The counts from the cache when a valid table with the right key is there; else `build()`,
/// written to the cache (a failure to write is a note, not an error).
pub fn load_or_build(
    way: &DealerWay,
    game: &GameRules,
    index: &ValueIndex,
    dir: Option<&Path>,
    note: &dyn Fn(&str),
    build: impl FnOnce() -> DealerCounts,
) -> DealerCounts {
    let key = key(way, game);
    let counts = read_or_build(way, game, index, dir, note, build, &key);
    remember(&key, index, &counts);
    counts
}

/// [`load_or_build`] with the key computed.
fn read_or_build(
    way: &DealerWay,
    game: &GameRules,
    index: &ValueIndex,
    dir: Option<&Path>,
    note: &dyn Fn(&str),
    build: impl FnOnce() -> DealerCounts,
    key: &str,
) -> DealerCounts {
    let path = dir.map(|d| d.join(file_name(way, game, key)));
    let expected_hands = crate::combin::choose(game.deck.size() as u64, 7);
    if let Some(path) = &path
        && path.exists()
    {
        match read(path, key, index) {
            Ok(counts) if counts.hands() == expected_hands => return counts,
            Ok(_) => note(&format!(
                "{}: hands do not add up; rebuilding",
                path.display()
            )),
            Err(e) => note(&format!("{}: {e}; rebuilding", path.display())),
        }
    }
    note(&format!(
        "{FULL_DECK_PREFIX}{}: setting all {expected_hands} dealer hands of {} by {} ...",
        way.label, game.name, way.label
    ));
    let started = std::time::Instant::now();
    let counts = build();
    note(&format!(
        "{FULL_DECK_PREFIX}{}: dealer table built in {:.1} s",
        way.label,
        started.elapsed().as_secs_f64()
    ));
    if let Some(path) = &path {
        match crate::files::write_atomic(path, write(key, index, &counts).as_bytes()) {
            Ok(()) => note(&format!(
                "{FULL_DECK_PREFIX}{}: cached at {}",
                way.label,
                path.display()
            )),
            Err(e) => note(&format!("{}: not cached: {e}", path.display())),
        }
    }
    counts
}

/// The text of a table file: its lines, with the checksum of the others as the fourth.
pub fn write(key: &str, index: &ValueIndex, counts: &DealerCounts) -> String {
    let mut out = format!(
        "{FORMAT}\n# paigow {}\n# key {key}\n# not_qualified {}\n# overqualified {}\n\
         front_value,back_value,hands\n",
        env!("CARGO_PKG_VERSION"),
        counts.not_qualified,
        counts.overqualified
    );
    let cols = index.backs.len();
    for (cell, &n) in counts.cells.iter().enumerate().filter(|(_, n)| **n > 0) {
        let (front, back) = (index.fronts[cell / cols], index.backs[cell % cols]);
        let _ = writeln!(out, "{},{},{n}", front.0, back.0);
    }
    sealed(&out)
}

/// A file's text with the checksum of the rest inserted as its fourth line.
fn sealed(text: &str) -> String {
    let digest = crate::files::sha256_hex(text.as_bytes());
    let mut lines = text.splitn(4, '\n');
    let head: Vec<&str> = lines.by_ref().take(3).collect();
    format!(
        "{}\n{CHECKSUM}{digest}\n{}",
        head.join("\n"),
        lines.next().unwrap_or("")
    )
}

/// The text of a table file without its checksum line, when the checksum is the SHA-256 of it.
fn verified(text: &str) -> Result<String, String> {
    let mut lines = text.splitn(5, '\n');
    let head: Vec<&str> = lines.by_ref().take(4).collect();
    let rest = lines.next().unwrap_or("");
    let checksum = head.get(3).and_then(|l| l.strip_prefix(CHECKSUM));
    let Some(checksum) = checksum else {
        return Err(format!("expected a `{}` line (line 4)", CHECKSUM.trim()));
    };
    let body = format!("{}\n{rest}", head[..3].join("\n"));
    if crate::files::sha256_hex(body.as_bytes()) != checksum {
        return Err("its checksum does not match its contents: damaged or edited".to_string());
    }
    Ok(body)
}

/// The counts in a table file with key `key`, over `index`'s cells.
pub fn read(path: &Path, key: &str, index: &ValueIndex) -> Result<DealerCounts, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let text = String::from_utf8(bytes).map_err(|_| "not UTF-8 text: damaged".to_string())?;
    if text.lines().next() != Some(FORMAT) {
        return Err("not a dealer table of this format".to_string());
    }
    let text = verified(&text)?;
    let mut lines = text.lines().skip(1);
    let mut header = |name: &str| {
        lines
            .next()
            .and_then(|l| l.strip_prefix(&format!("# {name} ")))
            .map(str::to_string)
            .ok_or_else(|| format!("expected a `# {name}` line"))
    };
    header("paigow")?;
    if header("key")? != key {
        return Err("made for other rules, way or version".to_string());
    }
    let number = |s: String| {
        s.parse::<u64>()
            .map_err(|e| format!("bad count {s:?}: {e}"))
    };
    let mut counts = DealerCounts::new(index);
    counts.not_qualified = number(header("not_qualified")?)?;
    counts.overqualified = number(header("overqualified")?)?;
    let body: String = text.lines().skip(5).collect::<Vec<_>>().join("\n");
    let mut reader = csv::Reader::from_reader(body.as_bytes());
    for row in reader.records() {
        let row = row.map_err(|e| e.to_string())?;
        let field = |i: usize| row.get(i).and_then(|f| f.parse::<u64>().ok());
        let (Some(front), Some(back), Some(n)) = (field(0), field(1), field(2)) else {
            return Err(format!("bad row {:?}", row.as_slice()));
        };
        let (front, back) = (Value(front as u32), Value(back as u32));
        let exact = |values: &[Value], v: Value| values.binary_search(&v).is_ok();
        if !exact(&index.fronts, front) || !exact(&index.backs, back) {
            return Err(format!(
                "row {front:?},{back:?} is not a hand value of this game"
            ));
        }
        let cell = &mut counts.cells[index.cell(front, back)];
        *cell = u32::try_from(n).map_err(|_| format!("count {n} too large"))?;
    }
    Ok(counts)
}

/// The first line of a best-settings file.
const BEST_FORMAT: &str = "# paigow best settings v1";

/// Each shape's best setting against a dealer's way, by shape id (ascending): the setting's
/// front and back values ([`crate::strategy::optimal::best`]).
pub type BestSettings = Vec<(u32, Value, Value)>;

/// The best settings from the cache when a valid file with the right key is there and `valid`
/// accepts them; else `build()`, written to the cache (a failure to write is a note).
pub fn load_or_build_best(
    way: &DealerWay,
    game: &GameRules,
    dir: Option<&Path>,
    note: &dyn Fn(&str),
    valid: &dyn Fn(&BestSettings) -> Result<(), String>,
    build: impl FnOnce() -> BestSettings,
) -> BestSettings {
    let key = key(way, game);
    let path = dir.map(|d| d.join(best_file_name_of(&game.origin, &way.label, &key)));
    if let Some(path) = &path
        && path.exists()
    {
        match read_valid_best(path, &key, valid) {
            Ok(best) => return best,
            Err(e) => note(&format!("{}: {e}; rebuilding", path.display())),
        }
    }
    let best = build();
    let text = write_best(&key, &best);
    remember_text(&best_key(&key), &text);
    if let Some(path) = &path {
        match crate::files::write_atomic(path, text.as_bytes()) {
            Ok(()) => note(&format!(
                "{PREFIX}{}: cached at {}",
                way.label,
                path.display()
            )),
            Err(e) => note(&format!("{}: not cached: {e}", path.display())),
        }
    }
    best
}

/// The best settings from the cache when a valid file with the right key is there (none built).
pub fn cached_best(
    way: &DealerWay,
    game: &GameRules,
    dir: Option<&Path>,
    valid: &dyn Fn(&BestSettings) -> Result<(), String>,
) -> Option<BestSettings> {
    let key = key(way, game);
    let path = dir?.join(best_file_name_of(&game.origin, &way.label, &key));
    used_or_named(&path, read_valid_best(&path, &key, valid))
}

/// A cached entry read from `path`, or None; an entry that is there but cannot be used (cut
/// short, edited, of another key) is named on stderr, not passed over in silence: the caller
/// builds it again or goes without.
pub fn used_or_named<T>(path: &Path, read: Result<T, String>) -> Option<T> {
    match read {
        Ok(entry) => Some(entry),
        Err(why) => {
            if path.exists() {
                eprintln!("warning: {}: {why}; not used", path.display());
            }
            None
        }
    }
}

/// The best settings in the file at `path` when its key is `key` and `valid` accepts them,
/// remembered for [`table_digest`].
fn read_valid_best(
    path: &Path,
    key: &str,
    valid: &dyn Fn(&BestSettings) -> Result<(), String>,
) -> Result<BestSettings, String> {
    let best = read_best(path, key)?;
    valid(&best)?;
    remember_text(&best_key(key), &write_best(key, &best));
    Ok(best)
}

/// The text of a best-settings file, with its checksum as the fourth line.
pub fn write_best(key: &str, best: &BestSettings) -> String {
    let mut out = format!(
        "{BEST_FORMAT}\n# paigow {}\n# key {key}\nshape,front_value,back_value\n",
        env!("CARGO_PKG_VERSION")
    );
    for (id, front, back) in best {
        let _ = writeln!(out, "{id},{},{}", front.0, back.0);
    }
    sealed(&out)
}

/// The best settings in a file with key `key`.
pub fn read_best(path: &Path, key: &str) -> Result<BestSettings, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let text = String::from_utf8(bytes).map_err(|_| "not UTF-8 text: damaged".to_string())?;
    if text.lines().next() != Some(BEST_FORMAT) {
        return Err("not a best-settings file of this format".to_string());
    }
    let text = verified(&text)?;
    if text.lines().nth(2) != Some(&format!("# key {key}")) {
        return Err("made for other rules, way or version".to_string());
    }
    let body: String = text.lines().skip(3).collect::<Vec<_>>().join("\n");
    let mut reader = csv::Reader::from_reader(body.as_bytes());
    let mut best = BestSettings::new();
    for row in reader.records() {
        let row = row.map_err(|e| e.to_string())?;
        let field = |i: usize| row.get(i).and_then(|f| f.parse::<u32>().ok());
        let (Some(id), Some(front), Some(back)) = (field(0), field(1), field(2)) else {
            return Err(format!("bad row {:?}", row.as_slice()));
        };
        if best.last().is_some_and(|&(last, _, _)| last >= id) {
            return Err(format!("shape {id} out of order"));
        }
        best.push((id, Value(front), Value(back)));
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluator;

    /// The standard game's value index and a table of a few counts.
    fn a_table() -> (ValueIndex, DealerCounts) {
        let game = GameRules::load("standard").unwrap();
        let ev = Evaluator::new(game.ranking);
        let index = ValueIndex::of(&ev, game.deck);
        let mut counts = DealerCounts::new(&index);
        counts.cells[7] = 3;
        counts.cells[index.cells() - 1] = 11;
        counts.not_qualified = 5;
        (index, counts)
    }

    #[test]
    fn tables_round_trip_and_refuse_another_key() {
        let (index, counts) = a_table();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.csv");
        std::fs::write(&path, write("abc", &index, &counts)).unwrap();
        assert_eq!(read(&path, "abc", &index).unwrap(), counts);
        assert!(read(&path, "abd", &index).is_err());
        std::fs::write(&path, format!("{FORMAT}\n# key abc\n")).unwrap();
        assert!(read(&path, "abc", &index).is_err());
    }

    /// Hands moved from one cell to another (the total kept), a flipped digit and a file cut
    /// short are each refused: the checksum covers the whole file.
    #[test]
    fn a_damaged_or_edited_table_is_refused() {
        let (index, counts) = a_table();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.csv");
        let text = write("abc", &index, &counts);
        let moved = text
            .replacen(",3\n", ",4\n", 1)
            .replacen(",11\n", ",10\n", 1);
        assert_ne!(moved, text);
        let flipped = text.replacen("# not_qualified 5", "# not_qualified 6", 1);
        for bad in [moved.as_str(), &flipped, &text[..text.len() - 3]] {
            std::fs::write(&path, bad).unwrap();
            let err = read(&path, "abc", &index).unwrap_err();
            assert!(err.contains("checksum does not match"), "{err}");
        }
    }
}
