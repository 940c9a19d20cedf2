//! `paigow eval` and `paigow splits`.

use std::io::Write;

use clap::{Args, ValueEnum};

use super::{GameArg, parse_cards};
use crate::card::{Card, Cards};
use crate::eval::{Evaluator, Value};
use crate::split::{SPLIT_COUNT, split_cards};

#[derive(Args, Debug)]
pub struct EvalArgs {
    #[command(flatten)]
    game: GameArg,
    /// 2, 5 or 7 cards, e.g. `As Kh Td 9c 2s` (a joker is Jk).
    #[arg(required = true, num_args = 1..)]
    cards: Vec<String>,
}

#[derive(Args, Debug)]
pub struct SplitsArgs {
    #[command(flatten)]
    game: GameArg,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// 7 cards, e.g. `As Ah Kd Qc 9s 5h Jk`.
    #[arg(required = true, num_args = 1..)]
    cards: Vec<String>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    Table,
    Csv,
}

fn seven(cards: &[Card]) -> [Card; 7] {
    let mut hand: [Card; 7] = cards.try_into().expect("seven cards checked by the caller");
    hand.sort();
    hand
}

fn value_line(cards: Cards, value: Value) -> String {
    format!("{cards}: {} [value {}]", value.describe(), value.0)
}

pub fn eval(args: &EvalArgs) -> anyhow::Result<()> {
    let game = args.game.load()?;
    let cards = parse_cards(&game, &args.cards, &[2, 5, 7])?;
    let ev = Evaluator::new(game.ranking);
    let mut out = std::io::stdout().lock();
    match cards.len() {
        2 => writeln!(
            out,
            "{}",
            value_line(Cards::from_cards(&cards), ev.value2(cards[0], cards[1]))
        )?,
        5 => {
            let set = Cards::from_cards(&cards);
            writeln!(out, "{}", value_line(set, ev.value5(set)))?
        }
        _ => {
            let hand = seven(&cards);
            let splits = ev.split_values(&hand);
            let best = (0..SPLIT_COUNT).max_by_key(|&k| (splits.back[k], std::cmp::Reverse(k)));
            let (rest, five) = split_cards(&hand, best.expect("21 splits"));
            writeln!(out, "best five: {}", value_line(five, splits.best_five()))?;
            writeln!(out, "other two: {rest}")?;
        }
    }
    Ok(())
}

pub fn splits(args: &SplitsArgs) -> anyhow::Result<()> {
    let game = args.game.load()?;
    let cards = parse_cards(&game, &args.cards, &[7])?;
    let ev = Evaluator::new(game.ranking);
    let hand = seven(&cards);
    let splits = ev.split_values(&hand);
    let mut out = std::io::stdout().lock();
    if let Format::Csv = args.format {
        writeln!(
            out,
            "split,front,back,front_value,back_value,front_hand,back_hand,legal"
        )?;
    }
    for k in 0..SPLIT_COUNT {
        let (front, back) = split_cards(&hand, k);
        let (fv, bv) = (splits.front[k], splits.back[k]);
        let legal = if splits.is_legal(k) { "legal" } else { "foul" };
        match args.format {
            Format::Csv => writeln!(
                out,
                "{k},{front},{back},{},{},{},{},{}",
                fv.0,
                bv.0,
                fv.describe(),
                bv.describe(),
                splits.is_legal(k)
            )?,
            Format::Table => writeln!(
                out,
                "{k:>2}  {:<6} {:<15} {:<5} {:<26} {}",
                front.to_string(),
                back.to_string(),
                legal,
                fv.describe(),
                bv.describe()
            )?,
        }
    }
    Ok(())
}
