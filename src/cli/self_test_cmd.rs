//! `paigow self-test [--threads N]`: reproduces the published anchors on this machine
//! ([`crate::engine::self_test`]) and prints the software's identity, one line per check (PASS
//! or FAIL, the figure expected and the figure got) under each section's title and the source of
//! its expected figures, and a summary line; exits non-zero when any check fails. `--only`
//! runs some sections. Writes no file and reads no cache.

use std::time::Instant;

use clap::Args;

use super::help::Help;
use super::run_args::parse_threads;
use crate::engine::run::thread_pool;
use crate::engine::self_test::{Check, SECTIONS};
use crate::report::facts::{LONG_VERSION, binary_sha256};

/// The end of `paigow self-test --help`.
const HELP: Help = Help {
    examples: &[
        (
            "Every check on every core (20 to 30 s on two cores)",
            "paigow self-test",
        ),
        (
            "The same on one thread: the figures do not depend on threads",
            "paigow self-test --threads 1",
        ),
        (
            "Only the side bets and the reduced decks (sections 2 and 4), in a few seconds",
            "paigow self-test --only 2,4",
        ),
    ],
    accepts: &[],
    writes: "no file: one line per check on stdout (PASS or FAIL, expected, got) and a summary \
             line; the exit status is non-zero when any check fails.",
};

#[derive(Args, Debug)]
#[command(after_long_help = HELP.render())]
pub struct SelfTestArgs {
    /// Worker threads, 1 to 1024 (default: one per core). The figures do not depend on it.
    #[arg(long, short = 't', value_parser = parse_threads)]
    threads: Option<usize>,
    /// Run only these sections, by their number in the output (1 to 4), comma-separated: to
    /// repeat one that failed.
    #[arg(long, value_name = "N,...", value_delimiter = ',', value_parser = parse_section)]
    only: Vec<usize>,
}

/// A section's number, 1 to the sections there are.
fn parse_section(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=SECTIONS.len()).contains(&n) => Ok(n),
        _ => Err(format!(
            "'{text}': a section is a number from 1 to {}",
            SECTIONS.len()
        )),
    }
}

/// A check as one line: its verdict, what it is, the figure expected and the figure got.
pub fn line(check: &Check) -> String {
    let verdict = if check.passed { "PASS" } else { "FAIL" };
    format!(
        "{verdict}  {}: expected {}, got {}\n",
        check.name, check.expected, check.got
    )
}

pub fn run(args: &SelfTestArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let threads = args.threads.unwrap_or_else(rayon::current_num_threads);
    let pool = thread_pool(threads)?;
    let on = format!("{threads} thread{}", if threads == 1 { "" } else { "s" });
    super::print_stdout(&format!(
        "paigow {LONG_VERSION}\nbinary SHA-256 {}\n{on}\n",
        binary_sha256()
    ))?;
    let (mut checks, mut failed) = (0, 0);
    let chosen = |n: usize| args.only.is_empty() || args.only.contains(&n);
    for (n, section) in (1..).zip(&SECTIONS).filter(|(n, _)| chosen(*n)) {
        super::print_stdout(&format!(
            "\n[{n}/{}] {} ({}).\nexpected: {}\n",
            SECTIONS.len(),
            section.title,
            section.takes,
            section.expected
        ))?;
        let section_started = Instant::now();
        for check in pool.install(section.run) {
            checks += 1;
            failed += usize::from(!check.passed);
            super::print_stdout(&line(&check))?;
        }
        super::print_stdout(&format!(
            "  {:.1} s\n",
            section_started.elapsed().as_secs_f64()
        ))?;
    }
    let seconds = started.elapsed().as_secs_f64();
    super::print_stdout(&format!(
        "\nself-test: {checks} checks, {} PASS, {failed} FAIL, in {seconds:.1} s on {on}\n",
        checks - failed
    ))?;
    if failed > 0 {
        anyhow::bail!("self-test: {failed} of {checks} checks FAILED (the lines marked FAIL)");
    }
    Ok(())
}
