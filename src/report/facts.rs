//! Run facts: the one record of what made a set of reports, shared by every manifest and by
//! every partial (shard and checkpoint) file.
//!
//! The build's identity (version, git commit with `-modified` for a dirty tree, compiler,
//! target) is embedded at compile time by `build.rs`, never read from wherever the binary
//! runs. Every input file is listed with its SHA-256 (the game, its paytables, each house-way
//! file, and the dealer table of each `optimal:D`), so a lab can check that it holds the files a
//! report was made from; and every manifest embeds the run's [`RunSpec`] (the exact text of each
//! input file, the strategies by name, the options: what a partial file carries and `merge`
//! rebuilds a run from), so a run directory alone is enough to read the rules it ran under and to
//! run it again, with nothing to look up.

use serde::{Deserialize, Serialize};

use crate::cards::deal::{RNG_NAME, SHUFFLE_NAME};
use crate::engine::run::Plan;
use crate::engine::run::spec::RunSpec;
use crate::files::TextFile;
use crate::strategy::optimal::cache::{
    best_file_name_of, best_key, file_name_of, key_of, table_digest,
};
use crate::strategy::resolve::{OptimalKind, optimal_dealer};

/// The tool's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The git commit the binary was built from (`-modified`: from a tree that differed from it;
/// `unknown`: not built from a git checkout).
pub const GIT_COMMIT: &str = env!("PAIGOW_GIT_COMMIT");
/// The compiler that built the binary.
pub const RUSTC: &str = env!("PAIGOW_RUSTC");
/// The target the binary was built for.
pub const TARGET: &str = env!("PAIGOW_TARGET");

/// The build as one line, for `paigow --version`.
pub const LONG_VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("PAIGOW_GIT_COMMIT"),
    "; ",
    env!("PAIGOW_RUSTC"),
    "; ",
    env!("PAIGOW_TARGET"),
    ")"
);

/// What ran, where and how long: the facts every manifest and partial file begins with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunFacts {
    pub tool: String,
    pub version: String,
    pub git_commit: String,
    pub rustc: String,
    pub target: String,
    pub command_line: String,
    pub threads: usize,
    pub wall_seconds: f64,
}

impl RunFacts {
    /// The facts of this process's run: this build, this command line, `threads` threads,
    /// `wall_seconds` (rounded to milliseconds).
    pub fn of_this_run(threads: usize, wall_seconds: f64) -> RunFacts {
        RunFacts {
            tool: "paigow".to_string(),
            version: VERSION.to_string(),
            git_commit: GIT_COMMIT.to_string(),
            rustc: RUSTC.to_string(),
            target: TARGET.to_string(),
            command_line: command_line(),
            threads,
            wall_seconds: (wall_seconds * 1000.0).round() / 1000.0,
        }
    }
}

/// The command line as typed, arguments with spaces or quotes single-quoted.
pub fn command_line() -> String {
    std::env::args()
        .map(|a| {
            let plain = !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:".contains(c));
            if plain {
                a
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// An input file of a run, by its SHA-256.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputFile {
    /// What it configures ("game", "paytable", "player way", ...).
    pub role: String,
    /// Its path as given, or its shipped path; a built-in strategy's name.
    pub origin: String,
    /// SHA-256 of its text; None for a built-in with no file.
    pub sha256: Option<String>,
}

impl InputFile {
    /// The input `file` in `role`.
    pub fn of(role: &str, file: &TextFile) -> InputFile {
        InputFile {
            role: role.to_string(),
            origin: file.origin.clone(),
            sha256: Some(file.sha256()),
        }
    }
}

/// Every input file of a run: the game, its paytables, each strategy's file (or its name, for a
/// built-in), and for an `optimal:D` its dealer table.
pub fn inputs(spec: &RunSpec) -> Vec<InputFile> {
    let mut files = vec![InputFile::of("game", &spec.game)];
    files.extend(spec.side_bets.iter().map(|t| InputFile::of("paytable", t)));
    files.extend(spec.paytables.iter().map(|t| InputFile::of("paytable", t)));
    for s in &spec.strategies {
        match s.sources.as_slice() {
            [] => files.push(InputFile {
                role: s.role.clone(),
                origin: s.name.clone(),
                sha256: None,
            }),
            sources => files.extend(sources.iter().map(|f| InputFile::of(&s.role, f))),
        }
        files.extend(dealer_table(&spec.game, &s.name, &s.sources));
    }
    files
}

/// The table behind the strategy `name` when it is an optimal strategy (`optimal:D`'s best
/// settings, `full-deck-optimal:D`'s dealer table): named by its cache file, with the SHA-256
/// of its text (None if this process never loaded it).
fn dealer_table(game: &TextFile, name: &str, sources: &[TextFile]) -> Option<InputFile> {
    let (kind, label) = optimal_dealer(name)?;
    let way_text = sources.first().map_or(label, |f| f.text.as_str());
    let key = key_of(game, label, way_text);
    Some(match kind {
        OptimalKind::Table => InputFile {
            role: format!("best settings of {name}"),
            origin: format!("cache: {}", best_file_name_of(&game.origin, label, &key)),
            sha256: table_digest(&best_key(&key)),
        },
        OptimalKind::FullDeck => InputFile {
            role: format!("dealer table of {name}"),
            origin: format!("cache: {}", file_name_of(&game.origin, label, &key)),
            sha256: table_digest(&key),
        },
    })
}

/// How a Monte Carlo run dealt: its plan, RNG and shuffle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanFacts {
    pub seed: u64,
    pub deals: u64,
    pub chunk_size: u64,
    pub chunks: u64,
    pub rng: String,
    pub shuffle: String,
}

impl PlanFacts {
    /// The facts of `plan`.
    pub fn of(plan: &Plan) -> PlanFacts {
        PlanFacts {
            seed: plan.seed,
            deals: plan.deals,
            chunk_size: plan.chunk_size,
            chunks: plan.chunks(),
            rng: RNG_NAME.to_string(),
            shuffle: SHUFFLE_NAME.to_string(),
        }
    }
}

/// `manifest.json` of a run: its facts, the command that ran (`simulate`, `exact bonus`, ...),
/// the command's own configuration `C`, how it dealt (for Monte Carlo runs), every input file,
/// the rate, anything the command adds (`extra`: checkpoint, merged partials), and last the
/// run's spec: the texts of its inputs.
#[derive(Clone, Debug, Serialize)]
pub struct Manifest<C: Serialize, E: Serialize> {
    #[serde(flatten)]
    pub facts: RunFacts,
    pub command: String,
    #[serde(flatten)]
    pub config: C,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub plan: Option<PlanFacts>,
    pub config_files: Vec<InputFile>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deals_per_second: Option<f64>,
    #[serde(flatten)]
    pub extra: E,
    pub spec: RunSpec,
}

impl<C: Serialize> Manifest<C, NoExtra> {
    /// The manifest of an exhaustive count of `spec` (no plan, no rate), which ran on
    /// `threads` threads for `wall_seconds`.
    pub fn of_count(config: C, spec: RunSpec, threads: usize, wall_seconds: f64) -> Self {
        Manifest {
            facts: RunFacts::of_this_run(threads, wall_seconds),
            command: spec.command.clone(),
            config,
            plan: None,
            config_files: inputs(&spec),
            deals_per_second: None,
            extra: NoExtra {},
            spec,
        }
    }
}

impl<C: Serialize, E: Serialize> Manifest<C, E> {
    /// The manifest of a Monte Carlo run of `spec` with `plan`, at `rate` deals per second.
    pub fn of_run(
        facts: RunFacts,
        config: C,
        spec: &RunSpec,
        plan: &Plan,
        rate: f64,
        extra: E,
    ) -> Self {
        Manifest {
            facts,
            command: spec.command.clone(),
            config,
            plan: Some(PlanFacts::of(plan)),
            config_files: inputs(spec),
            // A run too quick for the clock has no rate (not an infinite one).
            deals_per_second: rate.is_finite().then_some(rate),
            extra,
            spec: spec.clone(),
        }
    }
}

/// Nothing more.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct NoExtra {}
