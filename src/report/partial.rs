//! Partial results: what a shard (`--shard K/M`) or a checkpoint (`--checkpoint FILE`) of any
//! Monte Carlo command writes, and the checks `paigow merge` makes before adding partials up.
//!
//! The file is pretty JSON (format [`FORMAT`], version [`FORMAT_VERSION`]) holding: the run's
//! [`RunSpec`] (command, the exact texts of the game, paytables and strategy files, options:
//! merge rebuilds the configuration from it alone), `config_sha256` (the digest of the run's
//! whole identity: the spec, the seed, deals and chunk size, and the tool's version), the plan (seed, deals, chunk size, chunk count), the shard, the chunks
//! covered as sorted disjoint half-open ranges `[start, end)`, the deals they hold, the run facts
//! of the process that wrote it, the command's tally (every integer; 128-bit sums as decimal
//! strings, so every value round-trips exactly) and a SHA-256 of each of the tally's fields,
//! each bound to the run's identity and the chunks covered (the digest of `config_sha256`, the
//! chunk ranges and the field; version 5: a tally pasted from another shard of the run is
//! refused).
//!
//! What the digests protect, and what they do not. They are checksums anyone can recompute, not
//! signatures: they catch accidental damage (a file cut short, a flipped byte, a copy gone wrong)
//! and an edit of one field that leaves the others (a seed or version edited, a tally pasted
//! from another run), never a deliberate forgery that recomputes them. Against tallies edited
//! with their digests recomputed, the checks that stand are the tallies' internal consistency,
//! which no digest is needed for: rounds against the chunks' deals, outcome counts against the
//! hands, and for a simulation the net and the sum of squared nets against the outcome counts
//! ([`crate::engine::simulate::Simulation::check_tally`]); counts moved between outcomes that pay
//! the same, or between categories, pass every check.
//!
//! A file is read in two steps: its [`Header`] (everything but the tally, which stays untyped
//! JSON) and then its tally, as the type of the command the header names. So partials of
//! different runs, or of different commands, are refused by their configuration ([`same_run`])
//! before any tally is read or checked, never blamed on a tally that only looks damaged because
//! it belongs to another run.
//!
//! Invariants: a [`Partial`] that passed [`Partial::check_header`] has ranges inside
//! `0..chunks` (inside its shard's range, for a shard), a configuration digest equal to the one
//! recomputed from its own spec, seed, deals, chunk size and version, and the deals of its
//! chunks as `deals_covered`; one that also
//! passed [`Partial::check_tally`] has a tally whose rounds equal those deals, whose counts agree
//! with each other ([`Tally::check`]) and whose fields match their digests. [`same_run`] accepts
//! two partials only when they agree on tool, version, every field of the run spec (command,
//! game, side bets, strategies, options, paytables), seed, deals and chunk size, and names the
//! first field that differs; [`merge`] adds partials of one run that cover every chunk exactly
//! once, naming the files and chunks of the first problem found.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::engine::run::chunks::{ChunkSet, ShardSpec, describe_range};
use crate::engine::run::spec::{RunSpec, StrategySpec};
use crate::engine::run::{Plan, Tally};
use crate::files::{TextFile, sha256_hex};
use crate::report::facts::RunFacts;

/// The `format` field of every partial file.
pub const FORMAT: &str = "paigow-partial";
/// The version of the partial-file layout this build reads and writes.
pub const FORMAT_VERSION: u32 = 5;

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
    /// SHA-256 of the run's identity: the spec with the seed, deals, chunk size and the tool's
    /// version ([`RunSpec::digest`]).
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
    /// SHA-256 of each field of the tally, as written, bound to `config_sha256`
    /// ([`field_digests`]).
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
        "{file_a} and {file_b} differ in {field} ({value_a} vs {value_b}), so they are not parts of the same run"
    )]
    Mismatch {
        field: String,
        file_a: String,
        value_a: String,
        file_b: String,
        value_b: String,
    },
    #[error("{file_a} and {file_b} both cover {chunks} (overlapping shards)")]
    Overlap {
        chunks: String,
        file_a: String,
        file_b: String,
    },
    #[error(
        "no partial given covers {chunks} of {total} (deals {first}-{last}): a shard is missing"
    )]
    Missing {
        chunks: String,
        total: u64,
        first: u64,
        last: u64,
    },
    #[error("{}", given_twice(file, again))]
    GivenTwice { file: String, again: String },
}

/// The message of [`PartialError::GivenTwice`]: one file named twice, maybe spelled two ways.
fn given_twice(file: &str, again: &str) -> String {
    match file == again {
        true => format!("{file} is given twice"),
        false => format!("{file} and {again} are the same file, given twice"),
    }
}

impl PartialError {
    fn invalid(file: &str, message: impl Into<String>) -> PartialError {
        PartialError::Invalid {
            file: file.to_string(),
            message: message.into(),
        }
    }
}

/// The SHA-256 of each top-level field of a tally's JSON, bound to the run's identity
/// `config_sha256` and to the chunks the tally covers (the digest of both, a newline and the
/// field's JSON), so a tally pasted from another run, or from another shard of the same run,
/// does not match. A checksum against damage, not a signature (see the module docs).
pub fn field_digests<T: Serialize>(
    tally: &T,
    config_sha256: &str,
    chunks: &ChunkSet,
) -> BTreeMap<String, String> {
    let value = serde_json::to_value(tally).expect("a tally serialises");
    let chunks = serde_json::to_string(chunks).expect("chunk ranges serialise");
    let digest =
        |v: &serde_json::Value| sha256_hex(format!("{config_sha256}\n{chunks}\n{v}").as_bytes());
    match value {
        serde_json::Value::Object(fields) => {
            fields.into_iter().map(|(k, v)| (k, digest(&v))).collect()
        }
        other => BTreeMap::from([(String::new(), digest(&other))]),
    }
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

/// A partial whose tally is still untyped JSON: everything but the tally, read and checked
/// ([`Partial::check_header`]) before the tally's type (its command) is known, so that partials
/// of different runs or commands are told apart by their configuration, not by their tallies.
pub type Header = Partial<serde_json::Value>;

/// Parses a partial file's text, all but its tally; `file` names it in errors. Checks it with
/// [`Partial::check_header`].
pub fn parse_header(text: &str, file: &str) -> Result<Header, PartialError> {
    let header: Header = serde_json::from_value(probe(text, file)?)
        .map_err(|e| PartialError::invalid(file, format!("malformed: {e}")))?;
    (header.check_header()).map_err(|m| PartialError::invalid(file, m))?;
    Ok(header)
}

impl Header {
    /// This partial with its tally read as `T` and checked ([`Partial::check_tally`]).
    pub fn with_tally<T: Tally + DeserializeOwned>(
        mut self,
        file: &str,
    ) -> Result<Partial<T>, PartialError> {
        let tally: T = serde_json::from_value(std::mem::take(&mut self.tally))
            .map_err(|e| PartialError::invalid(file, format!("malformed tally: {e}")))?;
        let partial = self.replacing_tally(tally);
        (partial.check_tally()).map_err(|m| PartialError::invalid(file, m))?;
        Ok(partial)
    }
}

impl<T> Partial<T> {
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

    /// Checks everything but the tally is consistent with itself: the chunk count, the chunk
    /// ranges, the configuration digest and the deals covered (see the module invariants).
    pub fn check_header(&self) -> Result<(), String> {
        let plan = self.plan()?;
        if self.chunks != plan.chunks() {
            return Err(format!(
                "chunks = {} does not match {} deals in chunks of {}",
                self.chunks, self.deals, self.chunk_size
            ));
        }
        self.check_ranges()?;
        let digest = self.spec.digest(&plan, &self.facts.version);
        if self.config_sha256 != digest {
            return Err(format!(
                "config_sha256 {} does not match its own configuration ({digest}): the file was edited or damaged",
                self.config_sha256
            ));
        }
        let deals = self.deals_in(&self.chunk_ranges);
        if self.deals_covered != deals {
            return Err(format!(
                "deals_covered is {}, but its chunks hold {deals} deals",
                self.deals_covered
            ));
        }
        Ok(())
    }

    /// The chunk ranges lie inside the run, and inside the shard's own range.
    fn check_ranges(&self) -> Result<(), String> {
        if let Some(last) = self.chunk_ranges.ranges().last()
            && last.end > self.chunks
        {
            return Err(format!(
                "covers {}, but the run has only {}",
                describe_range(last),
                describe_range(&(0..self.chunks))
            ));
        }
        let Some(shard) = self.shard else {
            return Ok(());
        };
        if shard.index == 0 || shard.index > shard.count {
            return Err(format!("shard {shard} is not a shard K/M with 1 <= K <= M"));
        }
        let own = shard.chunks(self.chunks);
        let Some(outside) = (self.chunk_ranges.ranges().iter()).find_map(|r| outside(r, &own))
        else {
            return Ok(());
        };
        Err(match own.is_empty() {
            true => format!(
                "covers {}, but shard {shard} has no chunks (more shards than chunks)",
                describe_range(&outside)
            ),
            false => format!(
                "covers {}, outside shard {shard}'s {}",
                describe_range(&outside),
                describe_range(&own)
            ),
        })
    }

    /// The same partial holding `tally` instead.
    fn replacing_tally<U>(self, tally: U) -> Partial<U> {
        Partial {
            format: self.format,
            format_version: self.format_version,
            kind: self.kind,
            spec: self.spec,
            config_sha256: self.config_sha256,
            seed: self.seed,
            deals: self.deals,
            chunk_size: self.chunk_size,
            chunks: self.chunks,
            shard: self.shard,
            chunk_ranges: self.chunk_ranges,
            deals_covered: self.deals_covered,
            facts: self.facts,
            tally,
            tally_sha256: self.tally_sha256,
        }
    }
}

/// The first part of `range` outside `own`, if any.
fn outside(range: &Range<u64>, own: &Range<u64>) -> Option<Range<u64>> {
    if range.start < own.start {
        Some(range.start..range.end.min(own.start))
    } else if range.end > own.end {
        Some(range.start.max(own.end)..range.end)
    } else {
        None
    }
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
        let spec_digest = spec.digest(plan, &facts.version);
        Partial {
            format: FORMAT.to_string(),
            format_version: FORMAT_VERSION,
            kind,
            config_sha256: spec_digest.clone(),
            spec,
            seed: plan.seed,
            deals: plan.deals,
            chunk_size: plan.chunk_size,
            chunks: plan.chunks(),
            shard,
            chunk_ranges: ChunkSet::default(),
            deals_covered: 0,
            tally_sha256: field_digests(&tally, &spec_digest, &ChunkSet::default()),
            facts,
            tally,
        }
    }

    /// The partial covering `chunk_ranges` with their `tally`.
    pub fn covering(&self, chunk_ranges: ChunkSet, tally: T, facts: RunFacts) -> Partial<T> {
        let tally_sha256 = field_digests(&tally, &self.config_sha256, &chunk_ranges);
        Partial {
            deals_covered: self.deals_in(&chunk_ranges),
            chunk_ranges,
            tally_sha256,
            tally,
            facts,
            ..self.clone()
        }
    }

    /// The file's text: pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("a partial serialises");
        text.push('\n');
        text
    }

    /// Checks the partial is consistent with itself (see the module invariants).
    pub fn check(&self) -> Result<(), String> {
        self.check_header()?;
        self.check_tally()
    }

    /// Checks the tally: its rounds are the deals of its chunks, its counts agree with each other
    /// ([`Tally::check`]) and its fields match their digests.
    pub fn check_tally(&self) -> Result<(), String> {
        let deals = self.deals_in(&self.chunk_ranges);
        if self.tally.rounds() != deals {
            return Err(format!(
                "tally has {} rounds, but its chunks hold {deals} deals",
                self.tally.rounds()
            ));
        }
        self.tally.check()?;
        self.check_tally_digests()
    }

    /// Every field of the tally matches its stored digest, naming the first that does not.
    fn check_tally_digests(&self) -> Result<(), String> {
        let actual = field_digests(&self.tally, &self.config_sha256, &self.chunk_ranges);
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

impl<T: Tally + DeserializeOwned> Partial<T> {
    /// Parses a partial file's text; `file` names it in errors. Checks it with [`Partial::check`],
    /// everything but the tally first.
    pub fn from_json(text: &str, file: &str) -> Result<Partial<T>, PartialError> {
        parse_header(text, file)?.with_tally(file)
    }
}

/// A difference between two partials that keeps them from being parts of one run: the field,
/// and its value in each.
struct Difference {
    field: String,
    a: String,
    b: String,
}

impl Difference {
    fn new(field: &str, a: impl ToString, b: impl ToString) -> Difference {
        Difference {
            field: field.to_string(),
            a: a.to_string(),
            b: b.to_string(),
        }
    }
}

/// The first way in which `a` and `b` are not partials of one run: tool, version and the build's
/// commit (the version has stayed 0.1.0 through changes of results, and a run's pieces from two
/// builds would add up to figures of neither), the run spec field by field ([`spec_difference`]), seed, deals, chunk size, and last the
/// configuration digest (which covers all of them, so it differs alone only in a damaged file).
fn first_difference<A, B>(a: &Partial<A>, b: &Partial<B>) -> Option<Difference> {
    let tool = |p: &RunFacts| format!("{} {} (commit {})", p.tool, p.version, p.git_commit);
    let plan = [
        ("seed", a.seed.to_string(), b.seed.to_string()),
        ("deals", a.deals.to_string(), b.deals.to_string()),
        (
            "chunk size",
            a.chunk_size.to_string(),
            b.chunk_size.to_string(),
        ),
        (
            "configuration (SHA-256 of game, ways and options)",
            a.config_sha256.clone(),
            b.config_sha256.clone(),
        ),
    ];
    let unequal =
        |(field, x, y): (&str, String, String)| (x != y).then(|| Difference::new(field, x, y));
    unequal(("tool, version and commit", tool(&a.facts), tool(&b.facts)))
        .or_else(|| spec_difference(&a.spec, &b.spec))
        .or_else(|| plan.into_iter().find_map(unequal))
}

/// The first field in which two run specs differ (every field of [`RunSpec`] is compared).
fn spec_difference(a: &RunSpec, b: &RunSpec) -> Option<Difference> {
    let RunSpec {
        command,
        game,
        side_bets,
        strategies,
        options,
        paytables,
    } = a;
    (command != &b.command)
        .then(|| Difference::new("command", command, &b.command))
        .or_else(|| file_difference("game", game, &b.game))
        .or_else(|| files_difference("side-bet paytables", side_bets, &b.side_bets))
        .or_else(|| strategies_difference(strategies, &b.strategies))
        .or_else(|| options_difference(options, &b.options))
        .or_else(|| files_difference("paytables", paytables, &b.paytables))
}

/// How two stored files differ: their origins, or (same origin) their texts' digests.
fn file_difference(field: &str, a: &TextFile, b: &TextFile) -> Option<Difference> {
    if a.origin != b.origin {
        return Some(Difference::new(field, &a.origin, &b.origin));
    }
    (a.text != b.text).then(|| {
        let sha = |f: &TextFile| format!("{} with SHA-256 {}", f.origin, &f.sha256()[..12]);
        Difference::new(&format!("{field} (the file's text)"), sha(a), sha(b))
    })
}

/// How two lists of stored files differ: their origins, or the first file whose text differs.
fn files_difference(field: &str, a: &[TextFile], b: &[TextFile]) -> Option<Difference> {
    let origins = |files: &[TextFile]| match files.is_empty() {
        true => "none".to_string(),
        false => files
            .iter()
            .map(|f| f.origin.as_str())
            .collect::<Vec<_>>()
            .join(", "),
    };
    if origins(a) != origins(b) {
        return Some(Difference::new(field, origins(a), origins(b)));
    }
    a.iter()
        .zip(b)
        .find_map(|(x, y)| file_difference(field, x, y))
}

/// How two lists of strategies differ: their roles and names, or the first strategy whose
/// house-way files differ.
fn strategies_difference(a: &[StrategySpec], b: &[StrategySpec]) -> Option<Difference> {
    let roles_differ = a.len() != b.len() || a.iter().zip(b).any(|(x, y)| x.role != y.role);
    if roles_differ {
        let show = |s: &[StrategySpec]| {
            let named: Vec<String> = s.iter().map(|s| format!("{} {}", s.role, s.name)).collect();
            named.join(", ")
        };
        return Some(Difference::new("strategies", show(a), show(b)));
    }
    a.iter().zip(b).find_map(|(x, y)| {
        (x.name != y.name)
            .then(|| Difference::new(&x.role, &x.name, &y.name))
            .or_else(|| {
                files_difference(
                    &format!("{}'s house-way files", x.role),
                    &x.sources,
                    &y.sources,
                )
            })
    })
}

/// The first option set differently (or set in one spec only).
fn options_difference(
    a: &BTreeMap<String, String>,
    b: &BTreeMap<String, String>,
) -> Option<Difference> {
    let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    let show = |o: Option<&String>| o.map_or_else(|| "not set".to_string(), String::clone);
    keys.into_iter().find_map(|key| {
        (a.get(key) != b.get(key))
            .then(|| Difference::new(&format!("option {key}"), show(a.get(key)), show(b.get(key))))
    })
}

/// Checks that `a` (read from `file_a`) and `b` (from `file_b`) are partials of one run: an
/// error names both files and the first difference (`first_difference`). The tallies are not
/// read, so their types may differ.
pub fn same_run<A, B>(
    file_a: &str,
    a: &Partial<A>,
    file_b: &str,
    b: &Partial<B>,
) -> Result<(), PartialError> {
    match first_difference(a, b) {
        None => Ok(()),
        Some(d) => Err(PartialError::Mismatch {
            field: d.field,
            file_a: file_a.to_string(),
            value_a: d.a,
            file_b: file_b.to_string(),
            value_b: d.b,
        }),
    }
}

/// Checks that partials `(file name, partial)` are all of one run, comparing each with the
/// first ([`same_run`]).
pub fn same_runs<T>(partials: &[(String, Partial<T>)]) -> Result<(), PartialError> {
    let (first_file, first) = partials.first().ok_or(PartialError::NoPartials)?;
    (partials[1..].iter()).try_for_each(|(file, p)| same_run(first_file, first, file, p))
}

/// Adds up partials `(file name, partial)` of one run that cover every chunk exactly once.
/// Refuses, naming files and chunks: partials of different runs ([`same_runs`]), chunks in two
/// partials, and chunks in none.
pub fn merge<T: Tally>(partials: &[(String, Partial<T>)]) -> Result<T, PartialError> {
    same_runs(partials)?;
    let (_, first) = &partials[0];
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

/// Refuses a list of partial files that names one file twice (however spelled), before any is
/// read: its chunks would otherwise be reported as overlapping with themselves.
pub fn distinct_files(paths: &[std::path::PathBuf]) -> Result<(), PartialError> {
    match crate::files::first_repeat(paths) {
        Some((earlier, again)) => Err(PartialError::GivenTwice {
            file: earlier.display().to_string(),
            again: again.display().to_string(),
        }),
        None => Ok(()),
    }
}

/// Reads a partial file, all but its tally ([`parse_header`]), naming the file in every
/// error.
pub fn read_header(path: &std::path::Path) -> Result<Header, PartialError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| PartialError::invalid(&file, format!("cannot read: {e}")))?;
    parse_header(&text, &file)
}

/// Reads a partial file of a run whose tally is `T`, naming the file in every error.
pub fn read<T: Tally + DeserializeOwned>(
    path: &std::path::Path,
) -> Result<Partial<T>, PartialError> {
    read_header(path)?.with_tally(&path.display().to_string())
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
    pub profile: String,
    pub binary_sha256: String,
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
            profile: self.facts.profile.clone(),
            binary_sha256: self.facts.binary_sha256.clone(),
            command_line: self.facts.command_line.clone(),
            threads: self.facts.threads,
            wall_seconds: self.facts.wall_seconds,
        }
    }
}
