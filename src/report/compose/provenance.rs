//! The last sections of a report: every audit of a published claim (agreeing or not, with both
//! numbers), how each run computed its figures, and how to reproduce each run (its command, the
//! build that ran it, and the SHA-256 of every input and of every file the report read); then the
//! software that made the report and each run (version, commit, build profile, the binary's
//! SHA-256), and the SHA-256 of the report's own files.
//!
//! A file cannot list its own digest: the figures and tables are written before `report.md` and
//! `report.html`, so the report lists theirs (the digests of the bytes written), and the
//! package's `SHA256SUMS`, written last, lists every file, the two documents included.

use super::format::{count, dash, percent, threads};
use crate::files::sha256_hex;
use crate::report::document::markdown::PLOTS_DIR;
use crate::report::document::{Block, Document, TABLES_DIR, Table, code, text};
use crate::report::facts::Identity;
use crate::report::runs::{RunDir, RunKind};

/// Every published claim the exact runs audit: hit rates, returns and line counts.
pub fn claims_section(doc: &mut Document, runs: &[&RunDir]) {
    let mut t =
        Table::new(&["bet", "claim", "published", "computed", "verdict", "run"]).left(&[1, 4, 5]);
    for run in runs.iter().filter(|r| r.kind == RunKind::ExactBonus) {
        claims_of(&mut t, run);
    }
    if t.rows.is_empty() {
        doc.say("No run audits a published claim (only `exact bonus` runs do, for paytables that state one).");
        return;
    }
    doc.say("Each claim a paytable states is set against the exact figure. A claim agrees when the computed figure rounds to it at the precision it was published with; the engine never adjusts anything toward a claim.");
    doc.push(Block::Table(t));
}

/// The claims of one `exact bonus` run.
fn claims_of(t: &mut Table, run: &RunDir) {
    if let Some(summary) = run.csv.get("summary.csv") {
        for row in &summary.rows {
            let c = |name: &str| summary.get(row, name);
            for (claim, computed, audit, what) in [
                ("claimed_hit_rate", "hit_rate", "hit_rate_audit", "hit rate"),
                ("claimed_return", "player_ev", "return_audit", "return"),
            ] {
                if matches!(c(claim), "" | "-") {
                    continue;
                }
                let verdict = if c(audit).starts_with("agrees") {
                    "agrees"
                } else {
                    "DISAGREES"
                };
                t.row(vec![
                    c("wager").into(),
                    what.into(),
                    c(claim).into(),
                    percent(c(computed), 4),
                    verdict.into(),
                    run.dir.clone(),
                ]);
            }
        }
    }
    if let Some(returns) = run.csv.get("returns.csv") {
        for row in &returns.rows {
            let c = |name: &str| returns.get(row, name);
            if matches!(c("claimed_combinations"), "" | "-") {
                continue;
            }
            let verdict = if c("difference") == "0" {
                "agrees"
            } else {
                "DISAGREES"
            };
            let label = if c("label").is_empty() {
                c("event")
            } else {
                c("label")
            };
            t.row(vec![
                c("wager").into(),
                format!("combinations: {label}"),
                count(c("claimed_combinations")),
                count(c("combinations")),
                verdict.into(),
                run.dir.clone(),
            ]);
        }
    }
}

/// How each run computed its figures.
pub fn method_section(doc: &mut Document, runs: &[&RunDir]) {
    for run in runs {
        doc.heading(4, &format!("{} ({})", run.dir, run.kind.name()));
        doc.push(Block::Bullets(
            method_of(run).into_iter().map(|s| vec![text(s)]).collect(),
        ));
    }
    doc.say("Throughout: \"1 in X\" is the total over the event's count; the range of a player's average result over N hands is the EV plus or minus z x SD / sqrt(N) (normal approximation; z = 1.645, 1.960, 2.576 for 90, 95, 99%).");
}

/// What one run did, in a few sentences from its manifest and summary.
fn method_of(run: &RunDir) -> Vec<String> {
    let plan = || {
        format!(
            "{} deals in {} chunks of {} (chunk i deals from its own stream: {}), seed {}; shuffle: {}; {} (the CSV files do not depend on threads).",
            count(&run.fact("deals")),
            count(&run.fact("chunks")),
            count(&run.fact("chunk_size")),
            run.fact("rng"),
            run.fact("seed"),
            run.fact("shuffle"),
            threads(&run.fact("threads"))
        )
    };
    match run.kind {
        RunKind::ExactBonus | RunKind::ExactMain => {
            let mut lines = vec!["Exhaustive enumeration with integer counts.".to_string()];
            if let Some(summary) = run.csv.get("summary.csv") {
                lines.extend(summary.rows.iter().map(|r| format!("{}: {} ({} combinations).", summary.get(r, "wager"), summary.get(r, "method"), count(&trials(summary, r)))));
            }
            lines.push("EV, variance and SD per unit bet come from the integer counts: the variance is (n sum x^2 - (sum x)^2) / n^2, exact in integers until one division.".into());
            lines
        }
        RunKind::ExactCategories => vec![format!("Every 7-card hand of the deck counted by its best five-card category: {}.", dash(&run.fact("method")))],
        RunKind::Simulate => vec![
            format!("Monte Carlo: {}", plan()),
            "EV per unit bet from integer payouts (1/10,000 of a bet); SD from the exact integer sums of each round's net; 95% and 99% intervals on the EV are normal (EV plus or minus z SD / sqrt(rounds)); probabilities have Wilson score intervals.".into(),
            "Convergence: the net of deals [2^(b-1), 2^b) is tallied in block b, so the EV after the first 1, 2, 4, ... deals is exact for those deals whatever the threads, shards or resumes; its band uses the run's SD.".into(),
        ],
        RunKind::Compare => vec![
            format!("Monte Carlo on common random numbers: every way plays the same deals. {}", plan()),
            "Differences are paired: the variance of each deal's difference of nets comes from the joint table of outcomes, exactly; intervals are normal.".into(),
        ],
        RunKind::Table => vec![
            format!("Monte Carlo of the card-room table: {}", plan()),
            "EV per round has a normal interval; EV per chip of action is a ratio estimator with a delta-method interval; probabilities have Wilson intervals.".into(),
        ],
        RunKind::CostWay | RunKind::SweepWay | RunKind::DeriveWay => vec![
            format!("{}.", super::capital(run.fact("method").trim_end_matches('.'))),
            "Every EV and cost is an exact fraction of integer bet units (each CSV file gives the fraction beside its decimal); the report checked that the fractions add up when it read the run.".into(),
        ],
        RunKind::Other(_) => vec![format!("A run of `{}`; its CSV files are shown as written.", run.kind.name())],
    }
}

/// The bets counted in a summary row: `trials`, or `combinations` (an `exact main` summary).
fn trials(summary: &crate::report::runs::CsvFile, row: &[String]) -> String {
    let t = summary.get(row, "trials");
    if t.is_empty() {
        summary.get(row, "combinations")
    } else {
        t
    }
    .to_string()
}

/// How to reproduce each run: its command, build, inputs and files.
pub fn reproducibility_section(doc: &mut Document, runs: &[&RunDir]) {
    doc.say("Each run below can be repeated with its command line (the same seed and deals give byte-identical CSV files at any thread count). The input files are the ones with these SHA-256 digests; every manifest embeds their texts, so the run directory alone is enough.");
    for run in runs {
        doc.heading(4, &format!("{} ({})", run.dir, run.kind.name()));
        doc.push(Block::Code {
            language: "sh".into(),
            text: run.fact("command_line"),
        });
        doc.paragraph(vec![
            text(format!(
                "{} {}, commit ",
                dash(&run.fact("tool")),
                dash(&run.fact("version"))
            )),
            code(dash(&run.fact("git_commit"))),
            text(format!(
                ", {}, {}; {}, {} s.",
                dash(&run.fact("rustc")),
                dash(&run.fact("target")),
                threads(&run.fact("threads")),
                dash(&run.fact("wall_seconds"))
            )),
        ]);
        if run.fact("git_commit").ends_with("-modified") {
            doc.say(
                "Warning: this run's binary was built from sources that differed from that \
                 commit (`-modified`), so they cannot be checked out exactly; the manifest's \
                 inputs and command still repeat the run on a binary that gives the same \
                 figures (`paigow self-test`).",
            );
        }
        let mut t = Table::new(&["input", "file", "SHA-256"]).left(&[1, 2]);
        for input in &run.inputs {
            t.row(vec![
                input.role.clone(),
                input.origin.clone(),
                input.sha256.clone().unwrap_or_else(|| "(built in)".into()),
            ]);
        }
        t.row(vec![
            "run file".into(),
            "manifest.json".into(),
            run.manifest_sha256.clone(),
        ]);
        for (name, file) in &run.csv {
            t.row(vec!["run file".into(), name.clone(), file.sha256.clone()]);
        }
        doc.push(Block::Table(t));
    }
}

/// The software of a run, as its manifest records it ("" for a field it does not).
fn identity_of(run: &RunDir) -> Identity {
    Identity {
        version: run.fact("version"),
        git_commit: run.fact("git_commit"),
        profile: run.fact("profile"),
        rustc: run.fact("rustc"),
        target: run.fact("target"),
        binary_sha256: run.fact("binary_sha256"),
    }
}

/// The software that made the report (`maker`) and each run: version, commit, build profile,
/// compiler and target, and the SHA-256 of the binary ("-" where a manifest written before it
/// was recorded does not say).
pub fn software_section(doc: &mut Document, runs: &[&RunDir], maker: &Identity) {
    doc.say("The software that made this report and each run it reads. The binary's SHA-256 identifies the executable itself: a lab that builds the same commit with the same compiler and profile for the same target may still get other bytes (paths and build settings enter the binary), so it is checked against the binary the lab runs, with `sha256sum $(which paigow)`; `paigow self-test` reproduces the published figures on that binary.");
    let mut t = Table::new(&[
        "made",
        "version",
        "commit",
        "build",
        "compiler, target",
        "binary SHA-256",
    ])
    .left(&[1, 2, 3, 4, 5]);
    let row = |made: String, id: &Identity| {
        vec![
            made,
            dash(&id.version),
            dash(&id.git_commit),
            dash(&id.profile),
            format!("{}, {}", dash(&id.rustc), dash(&id.target)),
            dash(&id.binary_sha256),
        ]
    };
    t.row(row("this report".into(), maker));
    for run in runs {
        t.row(row(run.dir.clone(), &identity_of(run)));
    }
    doc.push(Block::Table(t));
}

/// The SHA-256 of each figure and table file the report writes, from the bytes written; the
/// documents themselves are in the package's `SHA256SUMS`.
pub fn report_files_section(doc: &mut Document) {
    let mut t = Table::new(&["file", "SHA-256"]).left(&[1]);
    for figure in doc.figures() {
        let name = format!("{PLOTS_DIR}/{}", figure.file);
        t.row(vec![name, sha256_hex(figure.svg.as_bytes())]);
    }
    for data in doc.data_files() {
        let name = format!("{TABLES_DIR}/{}", data.file);
        t.row(vec![name, sha256_hex(data.csv().as_bytes())]);
    }
    doc.say("`SHA256SUMS` in the report's directory lists every file of the package with its SHA-256, `report.md` and `report.html` included (`sha256sum -c SHA256SUMS` there checks them all). A document cannot hold its own digest; the figures and tables, written before it, are these:");
    doc.push(Block::Table(t));
}
