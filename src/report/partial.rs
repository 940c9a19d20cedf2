//! Partial results: what a shard (`--shard K/M`) or a checkpoint (`--checkpoint FILE`) of any
//! Monte Carlo command writes, and the checks `paigow merge` makes before adding partials up.
//!
//! The file is pretty JSON (format [`FORMAT`], version [`FORMAT_VERSION`]) holding: the run's
//! [`RunSpec`] (command, the exact texts of the game, paytables and strategy files, options:
//! merge rebuilds the configuration from it alone), `config_sha256` (the spec's digest with the
//! deals and chunk size), the plan (seed, deals, chunk size, chunk count), the shard, the chunks
//! covered as sorted disjoint half-open ranges `[start, end)`, the deals they hold, the run facts
//! of the process that wrote it, the command's tally (every integer; 128-bit sums as decimal
//! strings, so every value round-trips exactly) and a SHA-256 of each of the tally's fields.
//!
//! Invariants: a [`Partial`] that passed [`Partial::check`] has ranges inside `0..chunks`
//! (inside its shard's range, for a shard), a configuration digest equal to the one recomputed
//! from its own spec, a tally whose rounds equal the deals of its chunks, whose counts agree with
//! each other ([`Tally::check`]) and whose fields match their digests. [`merge`] adds partials
//! only when they agree on tool, version, command, seed, deals, chunk size and configuration
//! and cover every chunk exactly once; it names the files and chunks of the first problem found.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::engine::run::chunks::{ChunkSet, ShardSpec, describe_range};
use crate::engine::run::spec::RunSpec;
use crate::engine::run::{Plan, Tally};
use crate::files::sha256_hex;
use crate::report::facts::RunFacts;

/// The `format` field of every partial file.
pub const FORMAT: &str = "paigow-partial";
/// The version of the partial-file layout this build reads and writes.
pub const FORMAT_VERSION: u32 = 3;

/// Whether a partial is a shard's result or a checkpoint of a run in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PartialKind {
    Shard,
    Checkpoint,
}

/// A partial result: some chunks' tally and everything needed to check and merge it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Partial<T> {
    pub format: String,
    pub format_version: u32,
    pub kind: PartialKind,
    /// What was run.
    pub spec: RunSpec,
    /// SHA-256 of the spec with the deals and chunk size ([`RunSpec::digest`]).
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
    /// The process that wrote it.
    pub facts: RunFacts,
    pub tally: T,
    /// SHA-256 of each field of the tally, as written.
    pub tally_sha256: BTreeMap<String, String>,
}

/// Why a partial cannot be read or partials cannot be merged.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PartialError {
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

impl PartialError {
    fn invalid(file: &str, message: impl Into<String>) -> PartialError {
        PartialError::Invalid {
            file: file.to_string(),
            message: message.into(),
        }
    }
}

/// The SHA-256 of each top-level field of a tally's JSON.
pub fn field_digests<T: Serialize>(tally: &T) -> BTreeMap<String, String> {
    let value = serde_json::to_value(tally).expect("a tally serialises");
    match value {
        serde_json::Value::Object(fields) => fields
            .into_iter()
            .map(|(k, v)| (k, sha256_hex(v.to_string().as_bytes())))
            .collect(),
        other => BTreeMap::from([(String::new(), sha256_hex(other.to_string().as_bytes()))]),
    }
}

/// The command a partial file's text was written by, read before its tally's type is known.
pub fn command_of(text: &str, file: &str) -> Result<String, PartialError> {
    let probe = probe(text, file)?;
    (probe.pointer("/spec/command").and_then(|c| c.as_str()))
        .map(str::to_string)
        .ok_or_else(|| PartialError::invalid(file, "malformed: no spec.command"))
}

/// The JSON of a partial file, with its format and version checked.
fn probe(text: &str, file: &str) -> Result<serde_json::Value, PartialError> {
    let probe: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        PartialError::invalid(file, format!("not a paigow partial result (not JSON: {e})"))
    })?;
    if probe.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
        return Err(PartialError::invalid(
            file,
            format!("not a paigow partial result (no \"format\": \"{FORMAT}\")"),
        ));
    }
    let version = probe.get("format_version").and_then(|v| v.as_u64());
    if version != Some(u64::from(FORMAT_VERSION)) {
        return Err(PartialError::invalid(
            file,
            format!(
                "partial format version {} cannot be read by this paigow (which reads version {FORMAT_VERSION})",
                version.map_or_else(|| "(none)".to_string(), |v| v.to_string())
            ),
        ));
    }
    Ok(probe)
}

impl<T: Tally> Partial<T> {
    /// A partial of the run `spec` with `plan` covering no chunk yet.
    pub fn empty(
        kind: PartialKind,
        spec: RunSpec,
        plan: &Plan,
        shard: Option<ShardSpec>,
        facts: RunFacts,
        tally: T,
    ) -> Partial<T> {
        Partial {
            format: FORMAT.to_string(),
            format_version: FORMAT_VERSION,
            kind,
            config_sha256: spec.digest(plan),
            spec,
            seed: plan.seed,
            deals: plan.deals,
            chunk_size: plan.chunk_size,
            chunks: plan.chunks(),
            shard,
            chunk_ranges: ChunkSet::default(),
            deals_covered: 0,
            facts,
            tally_sha256: field_digests(&tally),
            tally,
        }
    }

    /// The partial covering `chunk_ranges` with their `tally`.
    pub fn covering(&self, chunk_ranges: ChunkSet, tally: T, facts: RunFacts) -> Partial<T> {
        Partial {
            deals_covered: self.deals_in(&chunk_ranges),
            chunk_ranges,
            tally_sha256: field_digests(&tally),
            tally,
            facts,
            ..self.clone()
        }
    }

    /// The plan of the whole run.
    pub fn plan(&self) -> Result<Plan, String> {
        Plan::new(self.deals, self.chunk_size, self.seed).map_err(|e| e.to_string())
    }

    /// Rounds in the chunks of `set` for this run.
    pub fn deals_in(&self, set: &ChunkSet) -> u64 {
        let plan = Plan {
            deals: self.deals,
            chunk_size: self.chunk_size,
            seed: self.seed,
        };
        set.ranges().iter().map(|r| plan.deals_in(r.clone())).sum()
    }

    /// Parses a partial file's text; `file` names it in errors. Checks it with [`Partial::check`].
    pub fn from_json(text: &str, file: &str) -> Result<Partial<T>, PartialError> {
        let probe = probe(text, file)?;
        let partial: Partial<T> = serde_json::from_value(probe)
            .map_err(|e| PartialError::invalid(file, format!("malformed: {e}")))?;
        partial
            .check()
            .map_err(|m| PartialError::invalid(file, m))?;
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
        let plan = self.plan()?;
        if self.chunks != plan.chunks() {
            return Err(format!(
                "chunks = {} does not match {} deals in chunks of {}",
                self.chunks, self.deals, self.chunk_size
            ));
        }
        self.check_ranges()?;
        let digest = self.spec.digest(&plan);
        if self.config_sha256 != digest {
            return Err(format!(
                "config_sha256 {} does not match its own configuration ({digest}): the file was edited or damaged",
                self.config_sha256
            ));
        }
        let deals = self.deals_in(&self.chunk_ranges);
        if self.deals_covered != deals || self.tally.rounds() != deals {
            return Err(format!(
                "tally has {} rounds and deals_covered is {}, but its chunks hold {deals} deals",
                self.tally.rounds(),
                self.deals_covered
            ));
        }
        self.tally.check()?;
        self.check_tally_digests()
    }

    /// The chunk ranges lie inside the run, and inside the shard's own range.
    fn check_ranges(&self) -> Result<(), String> {
        if let Some(last) = self.chunk_ranges.ranges().last()
            && last.end > self.chunks
        {
            return Err(format!(
                "covers {} but the run has only chunks 0-{}",
                describe_range(last),
                self.chunks.saturating_sub(1)
            ));
        }
        let Some(shard) = self.shard else {
            return Ok(());
        };
        if shard.index == 0 || shard.index > shard.count {
            return Err(format!("shard {shard} is not a shard K/M with 1 <= K <= M"));
        }
        let own = shard.chunks(self.chunks);
        let outside = |r: &Range<u64>| r.start < own.start || r.end > own.end;
        if self.chunk_ranges.ranges().iter().any(outside) {
            return Err(format!(
                "covers chunks outside shard {shard}'s range {}",
                ChunkSet::range(own).describe()
            ));
        }
        Ok(())
    }

    /// Every field of the tally matches its stored digest, naming the first that does not.
    fn check_tally_digests(&self) -> Result<(), String> {
        let actual = field_digests(&self.tally);
        let names: std::collections::BTreeSet<&String> =
            actual.keys().chain(self.tally_sha256.keys()).collect();
        for name in names {
            if actual.get(name) != self.tally_sha256.get(name) {
                return Err(format!(
                    "tally field '{name}' does not match its tally_sha256: the file was edited or damaged"
                ));
            }
        }
        Ok(())
    }
}

/// The fields two partials of one run must share, for messages: (name, value).
fn identity<T>(p: &Partial<T>) -> [(&'static str, String); 6] {
    [
        (
            "tool and version",
            format!("{} {}", p.facts.tool, p.facts.version),
        ),
        ("command", p.spec.command.clone()),
        ("seed", p.seed.to_string()),
        ("deals", p.deals.to_string()),
        ("chunk size", p.chunk_size.to_string()),
        (
            "configuration (SHA-256 of game, ways and options)",
            p.config_sha256.clone(),
        ),
    ]
}

/// The first field in which `b` differs from `a`, as an error naming both files.
pub fn same_run<T>(
    file_a: &str,
    a: &Partial<T>,
    file_b: &str,
    b: &Partial<T>,
) -> Result<(), PartialError> {
    for ((field, value_a), (_, value_b)) in identity(a).into_iter().zip(identity(b)) {
        if value_a != value_b {
            return Err(PartialError::Mismatch {
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
pub fn merge<T: Tally>(partials: &[(String, Partial<T>)]) -> Result<T, PartialError> {
    let (first_file, first) = partials.first().ok_or(PartialError::NoPartials)?;
    for (file, p) in &partials[1..] {
        same_run(first_file, first, file, p)?;
    }
    let mut ranges: Vec<(Range<u64>, &str)> = partials
        .iter()
        .flat_map(|(file, p)| {
            (p.chunk_ranges.ranges().iter()).map(move |r| (r.clone(), file.as_str()))
        })
        .collect();
    ranges.sort_by_key(|(r, _)| (r.start, r.end));
    let mut next = 0u64;
    let mut last_file = "";
    let mut missing = ChunkSet::default();
    for (r, file) in &ranges {
        if r.start < next {
            return Err(PartialError::Overlap {
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
        return Err(PartialError::Missing {
            chunks: missing.describe(),
            total: first.chunks,
            first: gap.start * first.chunk_size,
            last: (gap.end * first.chunk_size).min(first.deals) - 1,
        });
    }
    let mut sum = first.tally.clone();
    for (_, p) in &partials[1..] {
        sum.merge(&p.tally);
    }
    Ok(sum)
}

/// Reads a partial file of a run whose tally is `T`, naming the file in every error.
pub fn read<T: Tally + DeserializeOwned>(
    path: &std::path::Path,
) -> Result<Partial<T>, PartialError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| PartialError::invalid(&file, format!("cannot read: {e}")))?;
    Partial::from_json(&text, &file)
}

/// What a manifest says about a run's checkpoint.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckpointFacts {
    pub file: String,
    /// Chunks the checkpoint already held when this run started (0 for a fresh run).
    pub chunks_resumed: u64,
}

/// One partial result a merged report was made from.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PartialFacts {
    pub file: String,
    pub kind: PartialKind,
    pub shard: Option<String>,
    pub chunks: String,
    pub deals: u64,
    pub git_commit: String,
    pub command_line: String,
    pub threads: usize,
    pub wall_seconds: f64,
}

/// What a manifest adds after the run's own facts: its checkpoint, or the partials merged.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RunExtra {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<CheckpointFacts>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub merged_partials: Vec<PartialFacts>,
}

impl<T> Partial<T> {
    /// This partial as a merged manifest lists it, read from `file`.
    pub fn listing(&self, file: &str) -> PartialFacts {
        PartialFacts {
            file: file.to_string(),
            kind: self.kind,
            shard: self.shard.map(|s| s.to_string()),
            chunks: self.chunk_ranges.describe(),
            deals: self.deals_covered,
            git_commit: self.facts.git_commit.clone(),
            command_line: self.facts.command_line.clone(),
            threads: self.facts.threads,
            wall_seconds: self.facts.wall_seconds,
        }
    }
}
