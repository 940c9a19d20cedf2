//! `paigow exact ...`: exhaustive enumerations.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use super::GameArg;
use crate::eval::{Category, Evaluator};
use crate::exact::{CategoryCounts, Method, category_counts, row_name};
use crate::game::GameRules;

#[derive(Subcommand, Debug)]
pub enum ExactCommand {
    /// Every 7-card hand of the game's deck, counted by best 5-card category (CSV).
    Categories(CategoriesArgs),
}

#[derive(Args, Debug)]
pub struct CategoriesArgs {
    #[command(flatten)]
    game: GameArg,
    /// `structure`: rank structures and suit patterns (milliseconds); `brute`: every hand dealt
    /// and its 21 splits searched (seconds). Both are exact and agree.
    #[arg(long, value_enum, default_value_t = MethodArg::Structure)]
    method: MethodArg,
    /// Write the CSV to this file (atomically) instead of stdout.
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum MethodArg {
    Structure,
    Brute,
}

pub fn run(command: &ExactCommand) -> anyhow::Result<()> {
    match command {
        ExactCommand::Categories(args) => categories(args),
    }
}

fn categories(args: &CategoriesArgs) -> anyhow::Result<()> {
    let game = args.game.load()?;
    let method = match args.method {
        MethodArg::Structure => Method::Structure,
        MethodArg::Brute => Method::Brute,
    };
    let ev = Evaluator::new(game.ranking);
    let spinner = super::progress::spinner(&format!(
        "enumerating every 7-card hand of the {}-card deck",
        game.deck.size()
    ));
    let counts = category_counts(&ev, game.deck, method);
    spinner.finish_and_clear();
    let csv = categories_csv(&game, &counts)?;
    match &args.out {
        Some(path) => crate::output::write_atomic(path, csv.as_bytes())
            .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", path.display()))?,
        None => super::print_stdout(&csv)?,
    }
    Ok(())
}

/// The categories table: `category,combinations,probability`, highest first, then a total row.
pub fn categories_csv(game: &GameRules, counts: &CategoryCounts) -> anyhow::Result<String> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(["category", "combinations", "probability"])?;
    let total = counts.total();
    for category in Category::ALL_DESCENDING {
        let n = counts.get(category);
        writer.write_record([
            row_name(category, game.ranking.joker).to_string(),
            n.to_string(),
            format!("{:.12}", n as f64 / total as f64),
        ])?;
    }
    writer.write_record([
        "total".to_string(),
        total.to_string(),
        format!("{:.12}", 1.0),
    ])?;
    Ok(String::from_utf8(writer.into_inner()?)?)
}
