//! `paigow merge PARTIAL... --out DIR`: adds up the partial results of one run's shards and writes
//! the reports the single run would have written.
//!
//! Every file is read and checked ([`Partial::from_json`]) and checked against the game it
//! carries (its tally's net must equal what its outcome counts pay) before anything is written;
//! [`shard::merge`] then refuses partials of different runs, overlapping chunks and missing
//! chunks, naming the files and chunks. The reports come from the same writer as
//! `paigow simulate` ([`super::simulate_cmd::write_reports`]) with the same tally, game and
//! players, so `summary.csv` and `returns.csv` are byte-identical to the single run's. The
//! manifest differs only in run facts: this command line, the threads and wall seconds summed
//! over the partials (deals per second is deals over that sum), and `merged_partials`, one entry
//! per file.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use super::simulate_cmd::{self, PartialFacts, RunManifest};
use crate::engine::shard::{self, Partial, ShardError};

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Partial results written by `paigow simulate --shard K/M` (or complete checkpoints).
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
    let mut partials = Vec::new();
    for path in &args.partials {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).with_context(|| format!("{file}: cannot read"))?;
        let partial = Partial::from_json(&text, &file)?;
        partials.push((file, partial));
    }
    let tally = shard::merge(&partials)?;
    let (first_file, first) = &partials[0];
    let game = first.game().map_err(|message| ShardError::Invalid {
        file: first_file.clone(),
        message,
    })?;
    for (file, p) in &partials {
        let net = p.tally.net_from_counts(&game.main_wager);
        if net != p.tally.net_units {
            return Err(ShardError::Invalid {
                file: file.clone(),
                message: format!(
                    "tally net {} does not match its outcome counts ({net}): the file was edited or damaged",
                    p.tally.net_units
                ),
            }
            .into());
        }
    }
    let threads = partials.iter().map(|(_, p)| p.setup.threads).sum();
    let wall: f64 = partials.iter().map(|(_, p)| p.setup.wall_seconds).sum();
    let manifest = simulate_cmd::manifest(first, &game, tally.rounds, threads, wall);
    let merged_partials = partials
        .iter()
        .map(|(file, p)| PartialFacts {
            file: file.clone(),
            kind: p.kind,
            shard: p.shard.map(|s| s.to_string()),
            chunks: p.chunk_ranges.describe(),
            deals: p.deals_covered,
            git_commit: p.setup.git_commit.clone(),
            command_line: p.setup.command_line.clone(),
            threads: p.setup.threads,
            wall_seconds: p.setup.wall_seconds,
        })
        .collect();
    let run_manifest = RunManifest {
        base: &manifest,
        checkpoint: None,
        merged_partials,
    };
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("{}: cannot create the report directory", args.out.display()))?;
    let stats =
        simulate_cmd::write_reports(&args.out, &game, first.setup.players, tally, &run_manifest)?;
    if !args.quiet {
        super::print_stdout(&format!(
            "merged {} partial results\n{}",
            partials.len(),
            simulate_cmd::summary_text(&stats, &manifest, &args.out)
        ))?;
    }
    Ok(())
}
