//! Partial results: what a shard (`--shard K/M`) or a checkpoint (`--checkpoint FILE`) writes,
//! and the checks `paigow merge` makes before adding partials up.
//!
//! A run of `deals` rounds has `chunks = ceil(deals / chunk_size)` chunks (see [`crate::engine::simulate`]).
//! Shard `K/M` (1-based `K`) runs the contiguous chunk range
//! `[floor((K-1) * chunks / M), floor(K * chunks / M))`: the M ranges are disjoint, cover every
//! chunk, differ in size by at most one chunk, and depend on the chunk count alone. Contiguous
//! ranges (rather than `chunk mod M`) keep a shard's chunk list one range long, so a partial file
//! and a merge error stay short; chunks take the same time on average, so the balance is the same.
//!
//! The file is pretty JSON (format [`FORMAT`], version [`FORMAT_VERSION`]) holding:
//! identity (tool, version, command, [`Partial::config_sha256`], seed, deals, chunk size, chunk
//! count, shard spec), the chunks covered as sorted disjoint half-open ranges `[start, end)`,
//! what the reports need (the game file's text, both strategies' names, the configuration files'
//! SHA-256, players), run facts (command line, threads, wall time), and every integer of
//! [`Tally`], side-bet slots included. `u64` counts are JSON numbers (serde_json reads them
//! exactly); `i128`/`u128` sums are decimal strings, so every value round-trips exactly.
//!
//! Invariants: a [`Partial`] that passed [`Partial::check`] has ranges inside `0..chunks`,
//! sorted and disjoint; a tally whose rounds equal the deals of those chunks, whose hands are
//! rounds x players and whose outcome and category counts add up to its hands; and a
//! configuration digest equal to the one recomputed from its own fields. [`merge`] adds partials
//! only when they agree on tool, version, command, seed, deals, chunk size and configuration and
//! cover every chunk exactly once; it names the files and chunks of the first problem found.

use std::collections::BTreeSet;
use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::engine::simulate::{MAX_LINES, MAX_SIDE_BETS, SideBetTally, Tally};

/// The `format` field of every partial file.
pub const FORMAT: &str = "paigow-partial";
/// The version of the partial-file layout this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// Which chunks a shard runs: shard `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardSpec {
    pub index: u64,
    pub count: u64,
}

impl ShardSpec {
    /// The chunk range of this shard in a run of `chunks` chunks (empty when `count > chunks`
    /// leaves this shard nothing).
    pub fn chunks(&self, chunks: u64) -> Range<u64> {
        let at = |k: u64| (u128::from(k) * u128::from(chunks) / u128::from(self.count)) as u64;
        at(self.index - 1)..at(self.index)
    }

    /// The partial file name: `shard-K-of-M.json`, K zero-padded to M's width so names sort.
    pub fn file_name(&self) -> String {
        let width = self.count.to_string().len();
        format!("shard-{:0width$}-of-{}.json", self.index, self.count)
    }
}

impl fmt::Display for ShardSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for ShardSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || format!("'{text}' is not a shard K/M with 1 <= K <= M, such as 3/8");
        let (k, m) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            k.trim().parse::<u64>().map_err(|_| bad())?,
            m.trim().parse::<u64>().map_err(|_| bad())?,
        );
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(ShardSpec { index, count })
    }
}

/// A set of chunk indices as sorted, disjoint, non-adjacent half-open ranges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChunkSet {
    ranges: Vec<Range<u64>>,
}

impl ChunkSet {
    /// The set holding `range`.
    pub fn range(range: Range<u64>) -> ChunkSet {
        let mut set = ChunkSet::default();
        set.push_range(range);
        set
    }

    /// The set of the given chunk indices.
    pub fn from_chunks(chunks: &BTreeSet<u64>) -> ChunkSet {
        let mut set = ChunkSet::default();
        for &c in chunks {
            set.push_range(c..c + 1);
        }
        set
    }

    /// Appends a range starting at or after the last one's end, joining adjacent ranges.
    fn push_range(&mut self, range: Range<u64>) {
        if range.is_empty() {
            return;
        }
        match self.ranges.last_mut() {
            Some(last) if last.end == range.start => last.end = range.end,
            _ => self.ranges.push(range),
        }
    }

    /// The ranges, sorted.
    pub fn ranges(&self) -> &[Range<u64>] {
        &self.ranges
    }

    /// Every chunk index, in order.
    pub fn chunks(&self) -> impl Iterator<Item = u64> + '_ {
        self.ranges.iter().flat_map(|r| r.clone())
    }

    /// Number of chunks.
    pub fn len(&self) -> u64 {
        self.ranges.iter().map(|r| r.end - r.start).sum()
    }

    /// Whether no chunk is in the set.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The ranges as `a-b` (inclusive) or `a`, comma separated.
    pub fn describe(&self) -> String {
        let parts: Vec<String> = self.ranges.iter().map(describe_range).collect();
        parts.join(", ")
    }
}

/// A chunk range for messages: "chunk 4" or "chunks 4-9" (inclusive).
fn describe_range(r: &Range<u64>) -> String {
    if r.end - r.start == 1 {
        format!("chunk {}", r.start)
    } else {
        format!("chunks {}-{}", r.start, r.end - 1)
    }
}

impl Serialize for ChunkSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let pairs: Vec<[u64; 2]> = self.ranges.iter().map(|r| [r.start, r.end]).collect();
        pairs.serialize(s)
    }
}

impl<'de> Deserialize<'de> for ChunkSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let pairs = Vec::<[u64; 2]>::deserialize(d)?;
        let mut set = ChunkSet::default();
        for [start, end] in pairs {
            if start >= end {
                return Err(serde::de::Error::custom(format!(
                    "chunk range [{start}, {end}) is empty or reversed"
                )));
            }
            if set.ranges.last().is_some_and(|last| start < last.end) {
                return Err(serde::de::Error::custom(format!(
                    "chunk range [{start}, {end}) is out of order or overlaps the one before"
                )));
            }
            set.push_range(start..end);
        }
        Ok(set)
    }
}

/// Whether a partial is a shard's result or a checkpoint of a run in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PartialKind {
    Shard,
    Checkpoint,
}

/// A configuration file the run read, by its SHA-256 (mirrors [`crate::report::ConfigFile`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFileRecord {
    pub role: String,
    pub origin: String,
    pub sha256: Option<String>,
}

/// A configuration file's origin and exact text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextFile {
    pub origin: String,
    pub text: String,
}

/// What the reports of a run need besides its tally, and the facts of the run that wrote it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunSetup {
    /// Where the game was read from, and its exact text (merge rebuilds the game from it).
    pub game_origin: String,
    pub game_text: String,
    /// The game's side-bet paytables, in order: where each was read from and its exact text.
    pub side_bets: Vec<TextFile>,
    pub player_way: String,
    pub dealer_way: String,
    pub players: u8,
    pub config_files: Vec<ConfigFileRecord>,
    pub git_commit: String,
    pub command_line: String,
    pub threads: usize,
    pub wall_seconds: f64,
}

/// A partial result: some chunks' tally and everything needed to check and merge it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Partial {
    pub format: String,
    pub format_version: u32,
    pub kind: PartialKind,
    pub tool: String,
    pub version: String,
    /// The command that wrote it ("simulate").
    pub command: String,
    /// SHA-256 of the configuration (see [`Partial::config_digest`]).
    pub config_sha256: String,
    pub seed: u64,
    pub deals: u64,
    pub chunk_size: u64,
    /// Chunks in the whole run.
    pub chunks: u64,
    pub shard: Option<ShardSpec>,
    /// The chunks this partial's tally covers.
    pub chunk_ranges: ChunkSet,
    /// Rounds in those chunks.
    pub deals_covered: u64,
    pub setup: RunSetup,
    #[serde(with = "tally_format")]
    pub tally: Tally,
}

/// Why a partial cannot be read or partials cannot be merged.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ShardError {
    #[error("{file}: {message}")]
    Invalid { file: String, message: String },
    #[error("no partial files given")]
    NoPartials,
    #[error(
        "{file_b} and {file_a} differ in {field} ({value_b} vs {value_a}), so they are not parts of the same run"
    )]
    Mismatch {
        field: &'static str,
        file_a: String,
        value_a: String,
        file_b: String,
        value_b: String,
    },
    #[error("{chunks} are in both {file_a} and {file_b} (overlapping shards)")]
    Overlap {
        chunks: String,
        file_a: String,
        file_b: String,
    },
    #[error(
        "{chunks} of {total} (deals {first}-{last}) are in no partial given: a shard is missing"
    )]
    Missing {
        chunks: String,
        total: u64,
        first: u64,
        last: u64,
    },
}

impl Partial {
    /// The SHA-256 (hex) of the configuration: command, game text, both strategies (name and file
    /// digest), players, deals and chunk size, one `key=value` line each. The seed and version
    /// are separate fields, checked one by one so a mismatch can be named.
    pub fn config_digest(&self) -> String {
        let s = &self.setup;
        let mut text = format!(
            "paigow configuration 1\ncommand={}\ngame_sha256={}\nplayer_way={}\ndealer_way={}\nplayers={}\ndeals={}\nchunk_size={}\n",
            self.command,
            crate::files::sha256_hex(s.game_text.as_bytes()),
            s.player_way,
            s.dealer_way,
            s.players,
            self.deals,
            self.chunk_size,
        );
        for bet in &s.side_bets {
            text.push_str(&format!(
                "side_bet_sha256={}\n",
                crate::files::sha256_hex(bet.text.as_bytes())
            ));
        }
        for f in &s.config_files {
            text.push_str(&format!(
                "file {}={}\n",
                f.role,
                f.sha256.as_deref().unwrap_or("-")
            ));
        }
        crate::files::sha256_hex(text.as_bytes())
    }

    /// The game this partial was run on, rebuilt from the texts it carries alone (no file is
    /// read: the side bets come from their stored texts, not from the paths the game names).
    pub fn game(&self) -> Result<crate::game::GameRules, String> {
        let s = &self.setup;
        let mut table: toml::Table = s
            .game_text
            .parse()
            .map_err(|e| format!("the game text it carries is not TOML: {e}"))?;
        table.remove("side_bets");
        let stripped = toml::to_string(&table).map_err(|e| e.to_string())?;
        let mut game = crate::game::GameRules::from_toml(&stripped, &s.game_origin)
            .map_err(|e| format!("the game it carries does not load: {e}"))?;
        game.text = s.game_text.clone();
        game.side_bets = s
            .side_bets
            .iter()
            .map(|bet| crate::game::paytable::Paytable::from_toml(&bet.text, &bet.origin))
            .collect::<Result<_, _>>()
            .map_err(|e| format!("a side bet it carries does not load: {e}"))?;
        Ok(game)
    }

    /// Rounds in the chunks of `set` for this run.
    pub fn deals_in(&self, set: &ChunkSet) -> u64 {
        set.ranges()
            .iter()
            .map(|r| {
                let start = r.start * self.chunk_size;
                (r.end * self.chunk_size).min(self.deals) - start.min(self.deals)
            })
            .sum()
    }

    /// Parses a partial file's text; `file` names it in errors. Checks it with [`Partial::check`].
    pub fn from_json(text: &str, file: &str) -> Result<Partial, ShardError> {
        let invalid = |message: String| ShardError::Invalid {
            file: file.to_string(),
            message,
        };
        let probe: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| invalid(format!("not a paigow partial result (not JSON: {e})")))?;
        if probe.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
            return Err(invalid(format!(
                "not a paigow partial result (no \"format\": \"{FORMAT}\")"
            )));
        }
        let version = probe.get("format_version").and_then(|v| v.as_u64());
        if version != Some(u64::from(FORMAT_VERSION)) {
            return Err(invalid(format!(
                "partial format version {} cannot be read by this paigow (which reads version {FORMAT_VERSION})",
                version.map_or_else(|| "(none)".to_string(), |v| v.to_string())
            )));
        }
        let partial: Partial =
            serde_json::from_value(probe).map_err(|e| invalid(format!("malformed: {e}")))?;
        partial.check().map_err(invalid)?;
        Ok(partial)
    }

    /// The file's text: pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("a partial serialises");
        text.push('\n');
        text
    }

    /// Checks the partial is consistent with itself (see the module invariants).
    pub fn check(&self) -> Result<(), String> {
        if self.chunk_size == 0 || self.deals == 0 {
            return Err("deals and chunk size must be at least 1".to_string());
        }
        if self.chunks != self.deals.div_ceil(self.chunk_size) {
            return Err(format!(
                "chunks = {} does not match {} deals in chunks of {}",
                self.chunks, self.deals, self.chunk_size
            ));
        }
        if let Some(last) = self.chunk_ranges.ranges().last()
            && last.end > self.chunks
        {
            return Err(format!(
                "covers {} but the run has only chunks 0-{}",
                describe_range(last),
                self.chunks - 1
            ));
        }
        if let Some(shard) = self.shard {
            if shard.index == 0 || shard.index > shard.count {
                return Err(format!("shard {shard} is not a shard K/M with 1 <= K <= M"));
            }
            let own = shard.chunks(self.chunks);
            if self
                .chunk_ranges
                .ranges()
                .iter()
                .any(|r| r.start < own.start || r.end > own.end)
            {
                return Err(format!(
                    "covers chunks outside shard {shard}'s range {}",
                    ChunkSet::range(own).describe()
                ));
            }
        }
        let digest = self.config_digest();
        if self.config_sha256 != digest {
            return Err(format!(
                "config_sha256 {} does not match its own configuration ({digest}): the file was edited or damaged",
                self.config_sha256
            ));
        }
        let deals = self.deals_in(&self.chunk_ranges);
        let t = &self.tally;
        let players = u64::from(self.setup.players);
        if self.deals_covered != deals || t.rounds != deals {
            return Err(format!(
                "tally has {} rounds and deals_covered is {}, but its chunks hold {deals} deals",
                t.rounds, self.deals_covered
            ));
        }
        let outcomes = [t.win, t.overqualified, t.push, t.not_qualified, t.loss];
        let sums = [
            Some(t.hands),
            outcomes.iter().try_fold(0u64, |a, &b| a.checked_add(b)),
            t.categories.iter().try_fold(0u64, |a, &b| a.checked_add(b)),
        ];
        if t.rounds.checked_mul(players) != sums[0] || sums[1] != sums[0] || sums[2] != sums[0] {
            return Err(format!(
                "tally does not add up: {} rounds x {players} players, {} hands, outcomes sum to {:?}, categories to {:?}",
                t.rounds, t.hands, sums[1], sums[2]
            ));
        }
        Ok(())
    }
}

/// The fields two partials of one run must share, for messages: (name, value).
fn identity(p: &Partial) -> [(&'static str, String); 6] {
    [
        ("tool and version", format!("{} {}", p.tool, p.version)),
        ("command", p.command.clone()),
        ("seed", p.seed.to_string()),
        ("deals", p.deals.to_string()),
        ("chunk size", p.chunk_size.to_string()),
        (
            "configuration (SHA-256 of game, ways and players)",
            p.config_sha256.clone(),
        ),
    ]
}

/// The first field in which `b` differs from `a`, as an error naming both files.
pub fn same_run(file_a: &str, a: &Partial, file_b: &str, b: &Partial) -> Result<(), ShardError> {
    for ((field, value_a), (_, value_b)) in identity(a).into_iter().zip(identity(b)) {
        if value_a != value_b {
            return Err(ShardError::Mismatch {
                field,
                file_a: file_a.to_string(),
                value_a,
                file_b: file_b.to_string(),
                value_b,
            });
        }
    }
    Ok(())
}

/// Adds up partials `(file name, partial)` of one run that cover every chunk exactly once.
/// Refuses, naming files and chunks: partials of different runs, chunks in two partials, and
/// chunks in none.
pub fn merge(partials: &[(String, Partial)]) -> Result<Tally, ShardError> {
    let (first_file, first) = partials.first().ok_or(ShardError::NoPartials)?;
    for (file, p) in &partials[1..] {
        same_run(first_file, first, file, p)?;
    }
    let mut ranges: Vec<(Range<u64>, &str)> = partials
        .iter()
        .flat_map(|(file, p)| {
            p.chunk_ranges
                .ranges()
                .iter()
                .map(move |r| (r.clone(), file.as_str()))
        })
        .collect();
    ranges.sort_by_key(|(r, _)| (r.start, r.end));
    let mut next = 0u64;
    let mut last_file = "";
    let mut missing = ChunkSet::default();
    for (r, file) in &ranges {
        if r.start < next {
            return Err(ShardError::Overlap {
                chunks: describe_range(&(r.start..next.min(r.end))),
                file_a: last_file.to_string(),
                file_b: file.to_string(),
            });
        }
        missing.push_range(next..r.start);
        next = r.end;
        last_file = file;
    }
    missing.push_range(next..first.chunks);
    if let Some(gap) = missing.ranges().first() {
        return Err(ShardError::Missing {
            chunks: missing.describe(),
            total: first.chunks,
            first: gap.start * first.chunk_size,
            last: (gap.end * first.chunk_size).min(first.deals) - 1,
        });
    }
    Ok(partials
        .iter()
        .fold(Tally::default(), |sum, (_, p)| sum.merge(p.tally)))
}

/// Serde of [`Tally`]: `u64` as numbers, `i128`/`u128` as decimal strings, every side-bet slot.
mod tally_format {
    use super::*;

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct TallyFile {
        rounds: u64,
        hands: u64,
        win: u64,
        overqualified: u64,
        push: u64,
        not_qualified: u64,
        loss: u64,
        copy_losses: u64,
        fouls: u64,
        net_units: String,
        net_units_squared: String,
        categories: [u64; 11],
        side_bets: Vec<SideBetFile>,
    }

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct SideBetFile {
        lines: Vec<u64>,
        net: String,
        net_squared: String,
    }

    pub fn serialize<S: serde::Serializer>(t: &Tally, s: S) -> Result<S::Ok, S::Error> {
        TallyFile {
            rounds: t.rounds,
            hands: t.hands,
            win: t.win,
            overqualified: t.overqualified,
            push: t.push,
            not_qualified: t.not_qualified,
            loss: t.loss,
            copy_losses: t.copy_losses,
            fouls: t.fouls,
            net_units: t.net_units.to_string(),
            net_units_squared: t.net_units_squared.to_string(),
            categories: t.categories,
            side_bets: t
                .side_bets
                .iter()
                .map(|b| SideBetFile {
                    lines: b.lines.to_vec(),
                    net: b.net.to_string(),
                    net_squared: b.net_squared.to_string(),
                })
                .collect(),
        }
        .serialize(s)
    }

    fn number<T: FromStr, E: serde::de::Error>(text: &str, field: &str) -> Result<T, E> {
        text.parse().map_err(|_| {
            E::custom(format!(
                "{field} = \"{text}\" is not a whole number in range"
            ))
        })
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Tally, D::Error> {
        use serde::de::Error;
        let f = TallyFile::deserialize(d)?;
        if f.side_bets.len() != MAX_SIDE_BETS {
            return Err(D::Error::custom(format!(
                "tally has {} side-bet slots, expected {MAX_SIDE_BETS}",
                f.side_bets.len()
            )));
        }
        let mut side_bets = [SideBetTally::default(); MAX_SIDE_BETS];
        for (slot, bet) in side_bets.iter_mut().zip(&f.side_bets) {
            slot.lines = bet.lines.as_slice().try_into().map_err(|_| {
                D::Error::custom(format!(
                    "a side bet has {} line counts, expected {}",
                    bet.lines.len(),
                    MAX_LINES + 1
                ))
            })?;
            slot.net = number(&bet.net, "side bet net")?;
            slot.net_squared = number(&bet.net_squared, "side bet net_squared")?;
        }
        Ok(Tally {
            rounds: f.rounds,
            hands: f.hands,
            win: f.win,
            overqualified: f.overqualified,
            push: f.push,
            not_qualified: f.not_qualified,
            loss: f.loss,
            copy_losses: f.copy_losses,
            fouls: f.fouls,
            net_units: number(&f.net_units, "net_units")?,
            net_units_squared: number(&f.net_units_squared, "net_units_squared")?,
            categories: f.categories,
            side_bets,
        })
    }
}
