//! Run facts: the one record of what made a set of reports, shared by every manifest and by
//! every partial (shard and checkpoint) file.
//!
//! The software's identity is this file's alone: the version, git commit (with `-modified` for
//! a dirty tree, `unknown` outside a checkout), build profile, compiler and target, embedded at
//! compile time by `build.rs` (never read from wherever the binary runs), and the SHA-256 of the
//! executable that made the run ([`binary_sha256`], hashed once per process; `unknown (why)`
//! when it cannot be read, never a failure). Every manifest and partial file records it through
//! [`RunFacts`], and a report records its own through [`Identity`]. Every input file is listed with its SHA-256 (the game, its paytables, each house-way
//! file, and the dealer table of each `optimal:D`), so a lab can check that it holds the files a
//! report was made from; and every manifest embeds the run's [`RunSpec`] (the exact text of each
//! input file, the strategies by name, the options: what a partial file carries and `merge`
//! rebuilds a run from), so a run directory alone is enough to read the rules it ran under and to
//! run it again, with nothing to look up.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::cards::deal::{RNG_NAME, SHUFFLE_NAME};
use crate::engine::run::Plan;
use crate::engine::run::spec::RunSpec;
use crate::files::{TextFile, sha256_hex};
use crate::strategy::optimal::cache::{
    best_file_name_of, best_key, file_name_of, key_of, table_digest,
};
use crate::strategy::resolve::{OptimalKind, optimal_dealer};

/// The tool's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The git commit the binary was built from (`-modified`: from a tree that differed from it;
/// `unknown`: not built from a git checkout).
pub const GIT_COMMIT: &str = env!("PAIGOW_GIT_COMMIT");
/// The cargo profile the binary was built with: `release` (also for benches) or `debug` (also
/// for `cargo test` without `--release`).
pub const PROFILE: &str = env!("PAIGOW_PROFILE");
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
    env!("PAIGOW_PROFILE"),
    " build; ",
    env!("PAIGOW_RUSTC"),
    "; ",
    env!("PAIGOW_TARGET"),
    ")"
);

/// The SHA-256 of the executable running this process, read once per process: on Linux the
/// bytes of `/proc/self/exe` (the file that is running, even if it was replaced or removed
/// since), elsewhere the file [`std::env::current_exe`] names. `unknown (why)` when neither can
/// be read.
pub fn binary_sha256() -> &'static str {
    static DIGEST: OnceLock<String> = OnceLock::new();
    DIGEST.get_or_init(|| {
        let running = std::fs::read("/proc/self/exe");
        let bytes = running.or_else(|_| std::env::current_exe().and_then(std::fs::read));
        match bytes {
            Ok(bytes) => sha256_hex(&bytes),
            Err(e) => format!("unknown ({e})"),
        }
    })
}

/// The identity of the software that made a run or a report, as a report shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Identity {
    pub version: String,
    pub git_commit: String,
    pub profile: String,
    pub rustc: String,
    pub target: String,
    pub binary_sha256: String,
}

impl Identity {
    /// The identity of this binary.
    pub fn of_this_binary() -> Identity {
        Identity {
            version: VERSION.to_string(),
            git_commit: GIT_COMMIT.to_string(),
            profile: PROFILE.to_string(),
            rustc: RUSTC.to_string(),
            target: TARGET.to_string(),
            binary_sha256: binary_sha256().to_string(),
        }
    }
}

/// "unknown": what a partial file written before a field was recorded reads as.
fn unknown() -> String {
    "unknown".to_string()
}

/// What ran, where and how long: the facts every manifest and partial file begins with. The
/// software's identity is [`Identity`]'s fields, flat (a partial file written before `profile`
/// and `binary_sha256` were recorded reads them as `unknown`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunFacts {
    pub tool: String,
    pub version: String,
    pub git_commit: String,
    #[serde(default = "unknown")]
    pub profile: String,
    pub rustc: String,
    pub target: String,
    #[serde(default = "unknown")]
    pub binary_sha256: String,
    pub command_line: String,
    pub threads: usize,
    pub wall_seconds: f64,
}

impl RunFacts {
    /// The facts of this process's run: this build, this command line, `threads` threads,
    /// `wall_seconds` (rounded to milliseconds).
    pub fn of_this_run(threads: usize, wall_seconds: f64) -> RunFacts {
        let Identity {
            version,
            git_commit,
            profile,
            rustc,
            target,
            binary_sha256,
        } = Identity::of_this_binary();
        RunFacts {
            tool: "paigow".to_string(),
            version,
            git_commit,
            profile,
            rustc,
            target,
            binary_sha256,
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
