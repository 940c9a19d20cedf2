//! Exact main-wager results on disk, and how far a simulation is from them.
//!
//! A result is a small JSON file in the cache folder of the `optimal:D` dealer tables
//! ([`crate::strategy::optimal::cache::default_dir`]; `PAIGOW_CACHE_DIR=` empty turns caching
//! off). Its key is the SHA-256 of the tool's version and results edition
//! ([`crate::files::RESULTS_EDITION`]), this format, the game file's text and each
//! strategy's identity (its kind and the text of every file it was read from; a built-in's name),
//! so a result is reused only for the same rules, ways and version. A report directory's
//! `manifest.json` carries the same key and counts, so a finished report can be given instead.
//!
//! Invariants: a file is trusted only when it parses, its format and key match, its `sha256`
//! is the SHA-256 of the rest of the entry (`entry_digest`: format, version, key, names and
//! every count) and its counts add up to every disjoint pair of the game's deck; anything else
//! is refused with the reason ([`Lookup::Refused`]: the commands say so on stderr and count
//! afresh), never used. So a file cut short, with flipped bytes or with counts moved between
//! classes (the total kept) is caught. The checksum guards against damage and careless edits,
//! not against someone who recomputes it. Files are written atomically
//! ([`crate::files::write_atomic`]: a process killed while writing leaves the previous file, and
//! its temporary is removed by the next write), and two processes storing one result at once
//! each write their own temporary and rename it into place: the same bytes, whichever is last.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::MainExact;
use super::core::PairCounts;
use crate::combin::choose;
use crate::game::GameRules;
use crate::game::wager::Outcome;
use crate::strategy::resolve::WayIdentity;

/// The format line of a cached result.
const FORMAT: &str = "paigow exact main v2";

/// The key of the exact result of `player` against `dealer` under `game`.
pub fn key(game: &GameRules, player: &WayIdentity, dealer: &WayIdentity) -> String {
    let text = format!(
        "paigow {}\n{FORMAT}\n--- game\n{}\n--- player\n{}\n--- dealer\n{}",
        crate::files::results_identity(),
        game.text,
        player.identity,
        dealer.identity
    );
    crate::files::sha256_hex(text.as_bytes())
}

/// Counts by class name, as files keep them.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct NamedCounts {
    pub win: u64,
    pub overqualified: u64,
    pub push: u64,
    pub not_qualified: u64,
    pub loss: u64,
    pub copy_loss: u64,
    pub foul: u64,
}

impl From<PairCounts> for NamedCounts {
    fn from(c: PairCounts) -> NamedCounts {
        NamedCounts {
            win: c.get(Outcome::Win),
            overqualified: c.get(Outcome::Overqualified),
            push: c.get(Outcome::Push),
            not_qualified: c.get(Outcome::NotQualified),
            loss: c.get(Outcome::Loss),
            copy_loss: c.get(Outcome::CopyLoss),
            foul: c.get(Outcome::Foul),
        }
    }
}

impl From<NamedCounts> for PairCounts {
    fn from(c: NamedCounts) -> PairCounts {
        PairCounts {
            classes: [
                c.win,
                c.overqualified,
                c.push,
                c.not_qualified,
                c.loss,
                c.copy_loss,
                c.foul,
            ],
        }
    }
}

/// A cached result as written.
#[derive(Serialize, Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
struct CachedResult {
    format: String,
    version: String,
    key: String,
    game: String,
    player_way: String,
    dealer_way: String,
    counts: NamedCounts,
    /// [`entry_digest`] of the fields above.
    #[serde(default)]
    sha256: String,
}

/// The SHA-256 of every field of an entry but its `sha256` (of its JSON with that field empty).
fn entry_digest(entry: &CachedResult) -> String {
    let bare = CachedResult {
        sha256: String::new(),
        ..entry.clone()
    };
    crate::files::sha256_hex(serde_json::to_string(&bare).expect("serialises").as_bytes())
}

/// What the cache holds for a key.
#[derive(Debug, PartialEq)]
pub enum Lookup {
    /// A trusted result.
    Found(MainExact),
    /// No file for the key (or caching is off).
    Missing,
    /// A file that is not trusted: its path and why (cut short, edited, another format...).
    Refused(String),
}

impl Lookup {
    /// The trusted result, if one was found.
    pub fn found(self) -> Option<MainExact> {
        match self {
            Lookup::Found(exact) => Some(exact),
            _ => None,
        }
    }
}

/// The number of ordered pairs of disjoint 7-card hands of the game's deck.
pub fn disjoint_pairs(game: &GameRules) -> u64 {
    let n = game.deck.size() as u64;
    choose(n, 7) * choose(n - 7, 7)
}

/// The cache file of a key (readable names, then the key's first 16 hex digits).
fn file_name(game: &GameRules, player: &WayIdentity, dealer: &WayIdentity, key: &str) -> String {
    let clean = |s: &str| -> String {
        let stem = Path::new(s)
            .file_stem()
            .map_or(s.into(), |f| f.to_string_lossy());
        stem.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    format!(
        "exact-main-{}-{}-vs-{}-{}.json",
        clean(&game.origin),
        clean(&player.label),
        clean(&dealer.label),
        &key[..16]
    )
}

/// The counts of a JSON text with `key`, when its checksum holds and they add up to every pair
/// of the game's deck.
fn trusted(text: &str, key: &str, game: &GameRules) -> Result<PairCounts, String> {
    let cached: CachedResult = serde_json::from_str(text)
        .map_err(|e| format!("does not read as a cached result ({e}): cut short or damaged"))?;
    if cached.format != FORMAT {
        return Err(format!("not a result of format '{FORMAT}'"));
    }
    if cached.key != key {
        return Err("made for other rules, ways or version".to_string());
    }
    if cached.sha256 != entry_digest(&cached) {
        return Err("its checksum does not match its contents: damaged or edited".to_string());
    }
    let counts = PairCounts::from(cached.counts);
    if counts.pairs() != disjoint_pairs(game) {
        return Err("its counts do not add up to every pair of the deck".to_string());
    }
    Ok(counts)
}

/// The cached result for `game`, `player` and `dealer` in `dir`: trusted, missing, or refused
/// (naming the file and why).
pub fn lookup_in(
    dir: &Path,
    game: &GameRules,
    player: &WayIdentity,
    dealer: &WayIdentity,
) -> Lookup {
    let key = key(game, player, dealer);
    let path = dir.join(file_name(game, player, dealer, &key));
    let text = match std::fs::read(&path) {
        Ok(bytes) => String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Lookup::Missing,
        Err(e) => Err(e.to_string()),
    };
    match text.and_then(|text| trusted(&text, &key, game)) {
        Ok(counts) => Lookup::Found(MainExact {
            counts,
            wager: game.main_wager,
        }),
        Err(why) => Lookup::Refused(format!("{}: {why}", path.display())),
    }
}

/// [`lookup_in`] the default cache folder ([`Lookup::Missing`] when caching is off).
pub fn lookup(game: &GameRules, player: &WayIdentity, dealer: &WayIdentity) -> Lookup {
    match crate::strategy::optimal::cache::default_dir() {
        Some(dir) => lookup_in(&dir, game, player, dealer),
        None => Lookup::Missing,
    }
}

/// Writes a result to the cache folder `dir`; returns the file written.
pub fn store_in(
    dir: &Path,
    game: &GameRules,
    player: &WayIdentity,
    dealer: &WayIdentity,
    exact: &MainExact,
) -> std::io::Result<PathBuf> {
    let key = key(game, player, dealer);
    let path = dir.join(file_name(game, player, dealer, &key));
    let mut cached = CachedResult {
        format: FORMAT.to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        key,
        game: game.origin.clone(),
        player_way: player.label.clone(),
        dealer_way: dealer.label.clone(),
        counts: exact.counts.into(),
        sha256: String::new(),
    };
    cached.sha256 = entry_digest(&cached);
    let text = serde_json::to_string_pretty(&cached).map_err(std::io::Error::other)? + "\n";
    crate::files::write_atomic(&path, text.as_bytes())?;
    Ok(path)
}

/// [`store_in`] the default cache folder, if caching is on.
pub fn store(
    game: &GameRules,
    player: &WayIdentity,
    dealer: &WayIdentity,
    exact: &MainExact,
) -> Option<std::io::Result<PathBuf>> {
    let dir = crate::strategy::optimal::cache::default_dir()?;
    Some(store_in(&dir, game, player, dealer, exact))
}

/// The fields of an `exact main` report's `manifest.json` that identify its result.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct ReportFacts {
    pub cache_key: String,
    pub counts: NamedCounts,
    /// What the report counted, in words (for errors).
    #[serde(default)]
    pub game: String,
    #[serde(default)]
    pub player_way: String,
    #[serde(default)]
    pub dealer_way: String,
    /// Cards of the deck counted (fewer than the game's for a `--ranks` count).
    #[serde(default)]
    pub deck_cards: usize,
}

/// The exact result of a report directory written by `paigow exact main` (its
/// `manifest.json`), checked to be for `game`, `player` and `dealer`.
pub fn from_report(
    dir: &Path,
    game: &GameRules,
    player: &WayIdentity,
    dealer: &WayIdentity,
) -> Result<MainExact, String> {
    let path = dir.join("manifest.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let facts: ReportFacts = serde_json::from_str(&text).map_err(|_| {
        format!(
            "{}: not the manifest of a `paigow exact main` report",
            path.display()
        )
    })?;
    if facts.deck_cards != 0 && facts.deck_cards != game.deck.size() {
        return Err(format!(
            "{}: a count of a reduced deck of {} cards (--ranks), not of the game's {} cards",
            path.display(),
            facts.deck_cards,
            game.deck.size()
        ));
    }
    if facts.cache_key != key(game, player, dealer) {
        let named = (
            facts.game.as_str(),
            facts.player_way.as_str(),
            facts.dealer_way.as_str(),
        );
        let run = (
            game.name.as_str(),
            player.label.as_str(),
            dealer.label.as_str(),
        );
        let why = if named == run {
            format!(
                "the same game and ways by name, but the files' text, the tool's version or its \
                 results edition differ (this build: {}): rerun `paigow exact main` for this run",
                crate::files::results_identity()
            )
        } else {
            format!(
                "the exact result of {}, {} against dealer {}; this run is {}, {} against dealer {}",
                named.0, named.1, named.2, run.0, run.1, run.2
            )
        };
        return Err(format!("{}: {why}", path.display()));
    }
    let counts = PairCounts::from(facts.counts);
    if counts.pairs() != disjoint_pairs(game) {
        return Err(format!(
            "{}: counts do not add up to every pair of the deck",
            path.display()
        ));
    }
    Ok(MainExact {
        counts,
        wager: game.main_wager,
    })
}

/// The line a simulation prints beside an exact result: how many standard errors its EV is
/// from the exact EV.
pub fn distance_line(exact: &MainExact, sim_ev: f64, sim_se: f64) -> String {
    let ev = format!("exact player EV {:+.4}%", 100.0 * exact.player_ev());
    let distance = exact.standard_errors(sim_ev, sim_se);
    match distance.is_finite() {
        true => format!("{ev}: the simulation is {distance:+.2} standard errors from it"),
        false => format!(
            "{ev}: the simulation is {:+.4}% from it, with no variance to measure that in \
             (too few deals)",
            100.0 * (sim_ev - exact.player_ev())
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::resolve::resolve;

    /// An entry of edition 1 (keyed by the tool's version alone, as every entry was before the
    /// results edition) is not found: `optimal:D` named another strategy then.
    #[test]
    fn an_entry_keyed_by_the_version_alone_is_not_found() {
        let game = GameRules::load("standard").unwrap();
        let fox = resolve("foxwoods", &game).unwrap().identity();
        let edition_1 = format!(
            "paigow {}\n{FORMAT}\n--- game\n{}\n--- player\n{}\n--- dealer\n{}",
            env!("CARGO_PKG_VERSION"),
            game.text,
            fox.identity,
            fox.identity
        );
        let old_key = crate::files::sha256_hex(edition_1.as_bytes());
        assert_ne!(key(&game, &fox, &fox), old_key);
    }

    #[test]
    fn a_stored_result_is_found_only_for_its_game_and_ways() {
        let game = GameRules::load("standard").unwrap();
        let identity = |name: &str| resolve(name, &game).map(|way| way.identity());
        let fox = identity("foxwoods").unwrap();
        let by_path = identity("strategies/foxwoods.toml");
        let max_back = identity("max-back").unwrap();
        let total = disjoint_pairs(&game);
        let exact = MainExact {
            counts: PairCounts {
                classes: [
                    total / 2,
                    0,
                    total / 4,
                    0,
                    total - total / 2 - total / 4,
                    0,
                    0,
                ],
            },
            wager: game.main_wager,
        };
        let dir = tempfile::tempdir().unwrap();
        store_in(dir.path(), &game, &fox, &fox, &exact).unwrap();
        assert_eq!(
            lookup_in(dir.path(), &game, &fox, &fox),
            Lookup::Found(exact)
        );
        assert_eq!(
            lookup_in(dir.path(), &game, &fox, &max_back),
            Lookup::Missing
        );
        let california = GameRules::load("california").unwrap();
        assert_eq!(
            lookup_in(dir.path(), &california, &fox, &fox),
            Lookup::Missing
        );
        if let Ok(same_text) = by_path {
            assert_eq!(key(&game, &same_text, &fox), key(&game, &fox, &fox));
        }
        assert_ne!(
            key(&game, &max_back, &fox),
            key(&game, &identity("max-front").unwrap(), &fox)
        );
    }

    #[test]
    fn counts_that_do_not_add_up_are_not_trusted() {
        let game = GameRules::load("standard").unwrap();
        let fox = resolve("foxwoods", &game).unwrap().identity();
        let exact = MainExact {
            counts: PairCounts {
                classes: [1, 0, 2, 0, 3, 0, 0],
            },
            wager: game.main_wager,
        };
        let dir = tempfile::tempdir().unwrap();
        store_in(dir.path(), &game, &fox, &fox, &exact).unwrap();
        let refused = lookup_in(dir.path(), &game, &fox, &fox);
        assert!(
            matches!(&refused, Lookup::Refused(why) if why.contains("do not add up")),
            "{refused:?}"
        );
    }

    /// Counts moved between classes with their total kept (a win counted as a push), a file
    /// cut short and a flipped byte are each refused, naming the file.
    #[test]
    fn a_damaged_or_edited_entry_is_refused() {
        let game = GameRules::load("standard").unwrap();
        let fox = resolve("foxwoods", &game).unwrap().identity();
        let total = disjoint_pairs(&game);
        let (win, push) = (total / 3, total / 4);
        let exact = MainExact {
            counts: PairCounts {
                classes: [win, 0, push, 0, total - win - push, 0, 0],
            },
            wager: game.main_wager,
        };
        let dir = tempfile::tempdir().unwrap();
        let path = store_in(dir.path(), &game, &fox, &fox, &exact).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let swapped = text
            .replace(&format!("\"win\": {win}"), &format!("\"win\": {push}"))
            .replace(&format!("\"push\": {push}"), &format!("\"push\": {win}"));
        let mut flipped = text.clone().into_bytes();
        let at = text.find("\"loss\"").unwrap() + 9;
        flipped[at] ^= 0x01;
        let cases: [(&[u8], &str); 3] = [
            (swapped.as_bytes(), "checksum does not match"),
            (&text.as_bytes()[..text.len() / 2], "cut short or damaged"),
            (&flipped, "checksum does not match"),
        ];
        for (bytes, why) in cases {
            std::fs::write(&path, bytes).unwrap();
            match lookup_in(dir.path(), &game, &fox, &fox) {
                Lookup::Refused(message) => {
                    assert!(message.contains(why), "{message}");
                    assert!(message.starts_with(&path.display().to_string()));
                }
                other => panic!("{other:?} for {}", String::from_utf8_lossy(bytes)),
            }
        }
    }
}
