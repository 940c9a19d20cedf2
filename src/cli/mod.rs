//! The command line: clap definitions and dispatch. Only this module knows clap; each subcommand
//! turns its arguments into validated library values (cards, `GameRules`, house ways) and calls
//! the library.

use clap::{Args, Parser, Subcommand};

use crate::cards::Card;
use crate::game::GameRules;

mod compare_cmd;
mod cost_way_cmd;
mod derive_way_cmd;
mod diff_ways_cmd;
mod eval_cmd;
mod exact_cmd;
pub mod help;
mod merge_cmd;
pub mod progress;
mod report_cmd;
pub mod run_args;
mod self_test_cmd;
mod simulate_cmd;
mod sweep_way_cmd;
mod table_cmd;
mod way_cmd;

/// Pai Gow Poker mathematics: hand values, house ways, exact counts and simulations.
#[derive(Parser, Debug)]
#[command(name = "paigow", version = crate::report::facts::LONG_VERSION, about, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Value of a 2- or 5-card hand, or the best 5 of 7 cards.
    Eval(eval_cmd::EvalArgs),
    /// All 21 splits of a 7-card hand: front, back, both values, legal or foul.
    Splits(eval_cmd::SplitsArgs),
    /// Exhaustive enumeration.
    #[command(subcommand)]
    Exact(exact_cmd::ExactCommand),
    /// Monte Carlo of the main wager: edge, push rate, intervals, reports to CSV.
    Simulate(simulate_cmd::SimulateArgs),
    /// Add up the partial results of `simulate`, `compare` or `table` shards (`--shard K/M`)
    /// into the single run's reports.
    Merge(merge_cmd::MergeArgs),
    /// House-way variants on the same deals, ranked with paired intervals.
    Compare(compare_cmd::CompareArgs),
    /// The California table: a player-dealer banks seven seats with a limited bank.
    Table(table_cmd::TableArgs),
    /// A lab-ready report (Markdown, and HTML with SVG figures) from run directories, or of a
    /// whole game package with --game G --all.
    Report(report_cmd::ReportArgs),
    /// Set 7-card hands by a house way: the setting and the rule that chose it.
    Set(way_cmd::SetArgs),
    /// Validate and lint house-way files, exactly over every hand of the game's deck.
    CheckWay(way_cmd::CheckWayArgs),
    /// Every hand two house ways set differently, grouped by hand class and rule.
    DiffWays(diff_ways_cmd::DiffWaysArgs),
    /// What each rule of a house way costs against the optimum, exactly, from the price table.
    CostWay(cost_way_cmd::CostWayArgs),
    /// A house way's rule swept over values (a bound, its position, an alternative), each
    /// variant priced exactly against a dealer's way.
    SweepWay(sweep_way_cmd::SweepWayArgs),
    /// A short house way derived from the optimum against a dealer's way, with the exact cost
    /// of each length (the frontier).
    DeriveWay(derive_way_cmd::DeriveWayArgs),
    /// Reproduce the published figures on this machine (category counts, Emperor's Challenge
    /// and Pai Gow Mania, exact main): PASS or FAIL per check, non-zero exit on any FAIL.
    SelfTest(self_test_cmd::SelfTestArgs),
}

/// The game option every command shares.
#[derive(Args, Debug, Clone)]
pub struct GameArg {
    #[arg(long, short = 'g', default_value = "standard", help = help::game_option())]
    game: String,
}

impl GameArg {
    /// Loads and validates the game.
    pub fn load(&self) -> anyhow::Result<GameRules> {
        Ok(GameRules::load(&self.game)?)
    }

    /// The game as given: a shipped name or a file.
    pub fn name(&self) -> &str {
        &self.game
    }
}

/// Reads cards given as one or several arguments, checking the count against `allowed`.
pub fn parse_cards(
    game: &GameRules,
    words: &[String],
    allowed: &[usize],
) -> anyhow::Result<Vec<Card>> {
    let cards = game.deck.parse_cards(&words.join(" "))?;
    if !allowed.contains(&cards.len()) {
        let expected: Vec<String> = allowed.iter().map(usize::to_string).collect();
        anyhow::bail!(
            "expected {} cards, got {}",
            expected.join(" or "),
            cards.len()
        );
    }
    Ok(cards)
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Eval(args) => eval_cmd::eval(&args),
        Command::Splits(args) => eval_cmd::splits(&args),
        Command::Exact(command) => exact_cmd::run(&command),
        Command::Simulate(args) => simulate_cmd::run(&args),
        Command::Merge(args) => merge_cmd::run(&args),
        Command::Compare(args) => compare_cmd::run(&args),
        Command::Table(args) => table_cmd::run(&args),
        Command::Report(args) => report_cmd::run(&args),
        Command::Set(args) => way_cmd::set(&args),
        Command::CheckWay(args) => way_cmd::check_way(&args),
        Command::DiffWays(args) => diff_ways_cmd::run(&args),
        Command::CostWay(args) => cost_way_cmd::run(&args),
        Command::SweepWay(args) => sweep_way_cmd::run(&args),
        Command::DeriveWay(args) => derive_way_cmd::run(&args),
        Command::SelfTest(args) => self_test_cmd::run(&args),
    }
}

/// One CSV record (quoted where a field needs it), without the line end.
pub fn csv_line<I, S>(fields: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<[u8]>,
{
    let mut writer = csv::Writer::from_writer(Vec::new());
    let written = writer.write_record(fields);
    debug_assert!(written.is_ok(), "writing to memory cannot fail");
    let bytes = writer.into_inner().unwrap_or_default();
    String::from_utf8_lossy(&bytes).trim_end().to_string()
}

/// Prints to stdout; a closed pipe (`paigow ... | head`) is not an error.
pub fn print_stdout(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// Every leaf subcommand with its path of names (`["exact", "main"]`).
    fn leaves(
        command: &clap::Command,
        path: Vec<String>,
        out: &mut Vec<(Vec<String>, clap::Command)>,
    ) {
        if command.get_subcommands().next().is_none() {
            out.push((path, command.clone()));
            return;
        }
        for sub in command.get_subcommands() {
            let mut path = path.clone();
            path.push(sub.get_name().to_string());
            leaves(sub, path, out);
        }
    }

    /// The example command lines of a rendered `--help`: the lines under `Examples:` that start
    /// with `paigow `.
    fn examples(help: &str) -> Vec<String> {
        let section = help.split_once("Examples:").map_or("", |(_, rest)| rest);
        let section = section.split("\nAccepts:").next().unwrap_or(section);
        let section = section.split("\nWrites:").next().unwrap_or(section);
        (section.lines())
            .map(str::trim)
            .filter(|line| line.starts_with("paigow "))
            .map(str::to_string)
            .collect()
    }

    /// Every subcommand's `--help` ends with worked examples, what it accepts and what it
    /// writes; every example parses, as a command line of that same subcommand, and every
    /// shipped name it gives for a game loads.
    #[test]
    fn every_subcommand_help_has_examples_that_parse() {
        let mut all = Vec::new();
        leaves(&Cli::command(), Vec::new(), &mut all);
        assert!(all.len() >= 13, "{} subcommands", all.len());
        for (path, mut command) in all {
            let name = path.join(" ");
            let help = command.render_long_help().to_string();
            assert!(
                help.contains("Examples:"),
                "paigow {name} --help: no examples\n{help}"
            );
            assert!(
                help.contains("Writes:"),
                "paigow {name} --help: no files written\n{help}"
            );
            let lines = examples(&help);
            assert!(
                (2..=3).contains(&lines.len()),
                "paigow {name} --help: {} examples\n{help}",
                lines.len()
            );
            for line in lines {
                let words = help::shell_words(&line);
                assert_eq!(words[1..=path.len()], path[..], "{line}");
                let parsed = Cli::try_parse_from(&words).unwrap_or_else(|e| {
                    panic!("paigow {name} --help: `{line}` does not parse: {e}")
                });
                drop(parsed);
                if let Some(at) = words.iter().position(|w| w == "--game") {
                    let game = &words[at + 1];
                    GameRules::load(game).unwrap_or_else(|e| panic!("`{line}`: {e}"));
                }
            }
        }
    }
}
