//! `paigow set` (set hands by a house way) and `paigow check-way` (validate and lint).

use std::io::{BufRead, Write};

use clap::{Args, ValueEnum};

use super::{GameArg, parse_cards};
use crate::card::Card;
use crate::eval::Evaluator;
use crate::game::GameRules;
use crate::split::split_cards;
use crate::way::{HouseWay, lint};

#[derive(Args, Debug)]
pub struct SetArgs {
    #[command(flatten)]
    game: GameArg,
    /// A shipped house way (foxwoods, ballys-ac, canterbury-park, double-joker-dealer, max-back,
    /// max-front) or a house-way TOML file.
    #[arg(long, short = 'w')]
    way: String,
    /// Show every rule tried and why it did or did not apply.
    #[arg(long)]
    explain: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// 7 cards, e.g. `As Ah Kd Qc 9s 5h Jk`; without them, one hand per line from stdin.
    cards: Vec<String>,
}

#[derive(Args, Debug)]
pub struct CheckWayArgs {
    #[command(flatten)]
    game: GameArg,
    /// Hands in the seeded coverage sample.
    #[arg(long, default_value_t = 200_000)]
    hands: u64,
    /// Seed of the coverage sample.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// House-way TOML files (or shipped names).
    #[arg(required = true, num_args = 1..)]
    files: Vec<String>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    Table,
    Csv,
}

const CSV_HEADER: &str =
    "hand,front,back,front_value,back_value,front_hand,back_hand,rule,rule_name";

/// One hand set by the way, as a line of the chosen format.
fn set_line(way: &HouseWay, ev: &Evaluator, hand: &[Card; 7], format: Format) -> String {
    let splits = ev.split_values(hand);
    let s = way.set(hand, &splits);
    let (front, back) = split_cards(hand, s.split);
    let (fv, bv) = (splits.front[s.split], splits.back[s.split]);
    let all = crate::card::Cards::from_cards(hand);
    match format {
        Format::Csv => format!(
            "{all},{front},{back},{},{},{},{},{},\"{}\"",
            fv.0,
            bv.0,
            fv.describe(),
            bv.describe(),
            s.rule + 1,
            way.rule_name(s.rule).replace('"', "\"\"")
        ),
        Format::Table => format!(
            "front {front} ({}) | back {back} ({}) | rule {}: {}",
            fv.describe(),
            bv.describe(),
            s.rule + 1,
            way.rule_name(s.rule)
        ),
    }
}

fn seven(game: &GameRules, words: &[String]) -> anyhow::Result<[Card; 7]> {
    let cards = parse_cards(game, words, &[7])?;
    let mut hand: [Card; 7] = cards.try_into().expect("seven cards checked");
    hand.sort();
    Ok(hand)
}

fn write_hand(
    out: &mut impl Write,
    args: &SetArgs,
    way: &HouseWay,
    ev: &Evaluator,
    hand: &[Card; 7],
) -> anyhow::Result<()> {
    writeln!(out, "{}", set_line(way, ev, hand, args.format))?;
    if args.explain {
        let splits = ev.split_values(hand);
        for line in way.explain(hand, &splits) {
            writeln!(out, "  {line}")?;
        }
    }
    Ok(())
}

pub fn set(args: &SetArgs) -> anyhow::Result<()> {
    let game = args.game.load()?;
    let way = HouseWay::load(&args.way)?;
    let ev = Evaluator::new(game.ranking);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if let Format::Csv = args.format {
        writeln!(out, "{CSV_HEADER}")?;
    }
    if !args.cards.is_empty() {
        let hand = seven(&game, &args.cards)?;
        write_hand(&mut out, args, &way, &ev, &hand)?;
        return Ok(out.flush()?);
    }
    for (n, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let hand = seven(&game, &[text.to_string()])
            .map_err(|e| anyhow::anyhow!("stdin:{}: {e}", n + 1))?;
        write_hand(&mut out, args, &way, &ev, &hand)?;
    }
    Ok(out.flush()?)
}

pub fn check_way(args: &CheckWayArgs) -> anyhow::Result<()> {
    let game = args.game.load()?;
    let ev = Evaluator::new(game.ranking);
    let mut failed = 0;
    let mut out = std::io::stdout().lock();
    for file in &args.files {
        let way = match HouseWay::load(file) {
            Ok(way) => way,
            Err(e) => {
                eprintln!("error: {e}");
                failed += 1;
                continue;
            }
        };
        let report = lint::check(&way, &ev, game.deck, args.hands, args.seed);
        for e in &report.errors {
            eprintln!("error: {e}");
        }
        for w in &report.warnings {
            eprintln!("warning: {w}");
        }
        failed += !report.errors.is_empty() as usize;
        write_coverage(&mut out, &way, &report, args.seed)?;
    }
    if failed > 0 {
        anyhow::bail!("{failed} of {} house way(s) have errors", args.files.len());
    }
    Ok(())
}

fn write_coverage(
    out: &mut impl Write,
    way: &HouseWay,
    report: &lint::Report,
    seed: u64,
) -> anyhow::Result<()> {
    writeln!(
        out,
        "{} ({}): {} rules; coverage over {} hands (seed {seed}):",
        way.origin,
        way.name,
        way.compiled.rules.len(),
        report.hands
    )?;
    for (i, (rule, c)) in way.compiled.rules.iter().zip(&report.coverage).enumerate() {
        let pct = 100.0 * c.set as f64 / report.hands.max(1) as f64;
        writeln!(
            out,
            "  rule {:>2} {:>9} {:>8.4}%  {}",
            i + 1,
            c.set,
            pct,
            rule.name
        )?;
    }
    Ok(())
}
