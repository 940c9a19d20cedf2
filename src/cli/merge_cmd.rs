//! `paigow merge PARTIAL... --out DIR`: adds up the partial results of one run's shards (of any
//! Monte Carlo command) and writes the reports the single run would have written.
//!
//! A file named twice is refused first. Then every file is read and checked all but its tally
//! ([`partial::read_header`]: format, configuration digest, chunk ranges) and the files'
//! configurations are compared ([`partial::same_runs`]: tool version, command, game, ways,
//! options, seed, deals, chunk size; each file's `config_sha256` binds all of them, so one
//! edited alone is refused as damaged), so that shards of different runs are refused as such,
//! naming the two files and the field, before any tally is read; and partials of a version
//! other than this binary's are refused. Only then are the tallies read as the
//! command's (their own consistency and the digest of each field checked), the configuration
//! rebuilt from the run spec the first file carries (no other file is read), and each tally
//! checked against it before anything is written. [`partial::merge`] refuses overlapping and
//! missing chunks, naming the files and chunks. The reports come from the same writer as the
//! command itself, with the same tally and configuration, so the CSV files are byte-identical to
//! the single run's. The manifest differs only in run facts: this command line, the threads and
//! wall seconds summed over the partials (deals per second is deals over that sum), and
//! `merged_partials`, one entry per file.

use std::path::PathBuf;

use clap::Args;

use super::help::Help;

use super::run_args::{Finished, Writer};
use crate::engine::compare::{self, Comparison};
use crate::engine::run::spec::RunSpec;
use crate::engine::run::{Job, Tally};
use crate::engine::simulate::{self, Simulation};
use crate::engine::table::{self, Table};
use crate::report::facts::{RunFacts, VERSION};
use crate::report::partial::{self, Header, Partial, PartialError, RunExtra};

/// The end of `paigow merge --help`.
const HELP: Help = Help {
    examples: &[
        (
            "The 100 shards of one simulation into the single run's reports",
            "paigow merge shards/shard-*-of-100.json --out runs/standard-1e9",
        ),
        (
            "A complete checkpoint of a run turned into its reports, quietly",
            "paigow merge run.checkpoint.json --out runs/resumed --quiet",
        ),
    ],
    accepts: &[],
    writes: "the reports the single run would have written (simulate's, compare's or table's, \
             byte-identical CSV files) and manifest.json listing every partial merged, in --out, \
             replaced as a whole.",
};

#[derive(Args, Debug)]
#[command(after_long_help = HELP.render())]
pub struct MergeArgs {
    /// Partial results written by `simulate`, `compare` or `table` with `--shard K/M` (or
    /// complete checkpoints).
    #[arg(required = true, value_name = "PARTIAL")]
    partials: Vec<PathBuf>,
    /// Report directory.
    #[arg(long)]
    out: PathBuf,
    /// No summary on stdout.
    #[arg(long, short = 'q')]
    quiet: bool,
}

pub fn run(args: &MergeArgs) -> anyhow::Result<()> {
    partial::distinct_files(&args.partials)?;
    let headers = read_headers(&args.partials)?;
    partial::same_runs(&headers)?;
    let (first, header) = &headers[0];
    if header.facts.version != VERSION {
        anyhow::bail!(
            "{first}: written by paigow {}, and this is paigow {VERSION}: a partial's tally is \
             that version's, and its reports are written by that version; merge with it",
            header.facts.version
        );
    }
    let summary = match header.spec.command.as_str() {
        simulate::COMMAND => merge_as(
            args,
            headers,
            |spec| Ok(Simulation::from_spec(spec)?),
            match args.quiet {
                true => super::simulate_cmd::write_reports_quietly,
                false => super::simulate_cmd::write_reports,
            },
        )?,
        compare::COMMAND => merge_as(
            args,
            headers,
            |spec| Ok(Comparison::from_spec(spec)?),
            super::compare_cmd::write_reports,
        )?,
        table::COMMAND => merge_as(
            args,
            headers,
            |spec| Ok(Table::from_spec(spec)?),
            super::table_cmd::write_reports,
        )?,
        other => anyhow::bail!("{first}: partial of an unknown command '{other}'"),
    };
    if !args.quiet {
        super::print_stdout(&format!(
            "merged {} partial results\n{summary}",
            args.partials.len()
        ))?;
    }
    Ok(())
}

/// Every partial file, all but its tally, named as given.
fn read_headers(paths: &[PathBuf]) -> Result<Vec<(String, Header)>, PartialError> {
    (paths.iter())
        .map(|path| Ok((path.display().to_string(), partial::read_header(path)?)))
        .collect()
}

/// Reads the tallies of `headers` (partials of one run) as job `J`'s, rebuilds the job from the
/// first one's spec, checks each tally against it, adds them up and writes `J`'s reports;
/// returns the stdout summary.
fn merge_as<J: Job>(
    args: &MergeArgs,
    headers: Vec<(String, Header)>,
    build: impl Fn(&RunSpec) -> anyhow::Result<J>,
    write: Writer<J>,
) -> anyhow::Result<String> {
    let (first_file, first) = &headers[0];
    let job = build(&first.spec).map_err(|e| PartialError::Invalid {
        file: first_file.clone(),
        message: format!("the configuration it carries does not load: {e:#}"),
    })?;
    let mut partials: Vec<(String, Partial<J::Tally>)> = Vec::new();
    for (file, header) in headers {
        let p = header.with_tally::<J::Tally>(&file)?;
        job.check_read_tally(&p.tally)
            .map_err(|message| PartialError::Invalid {
                file: file.clone(),
                message: format!("{message}: the file was edited or damaged"),
            })?;
        partials.push((file, p));
    }
    let tally = partial::merge(&partials)?;
    let first = &partials[0].1;
    let plan = first.plan().map_err(anyhow::Error::msg)?;
    let threads = partials.iter().map(|(_, p)| p.facts.threads).sum();
    let wall: f64 = partials.iter().map(|(_, p)| p.facts.wall_seconds).sum();
    let finished = Finished {
        deals_run: tally.rounds(),
        tally,
        facts: RunFacts::of_this_run(threads, wall),
        checkpoint: None,
    };
    let extra = RunExtra {
        checkpoint: None,
        merged_partials: partials.iter().map(|(file, p)| p.listing(file)).collect(),
    };
    super::run_args::prepare_out(&args.out, false)?;
    write(&args.out, &job, &first.spec, &plan, &finished, extra)
}
