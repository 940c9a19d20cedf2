//! `paigow eval` and `paigow splits`.

use std::io::Write;

use clap::{Args, ValueEnum};

use super::help::{Accepts, Help};
use super::{GameArg, parse_cards};
use crate::cards::{Card, Cards};
use crate::eval::split::{SPLIT_COUNT, SplitValues, split_cards};
use crate::eval::{Evaluator, Value};

/// The end of `paigow eval --help`.
const EVAL_HELP: Help = Help {
    examples: &[
        (
            "A five-card hand with the joker (the bug: an ace, or it completes a straight or flush)",
            "paigow eval Kh Kd Kc 7s Jk",
        ),
        (
            "The best five of seven cards",
            "paigow eval As Ad 9h 9c 5s 3d Jk",
        ),
        (
            "The first hand where jokers are wild (four kings, not three with an ace)",
            "paigow eval --game jokers-wild Kh Kd Kc 7s Jk",
        ),
    ],
    accepts: &[Accepts::Games],
    writes: "nothing: the value on stdout.",
};

/// The end of `paigow splits --help`.
const SPLITS_HELP: Help = Help {
    examples: &[
        (
            "The 21 splits of a hand, legal or foul",
            "paigow splits As Ah Kd Qc 9s 5h Jk",
        ),
        (
            "The same as CSV",
            "paigow splits As Ah Kd Qc 9s 5h Jk --format csv",
        ),
    ],
    accepts: &[Accepts::Games],
    writes: "nothing: the splits on stdout.",
};

#[derive(Args, Debug)]
#[command(after_long_help = EVAL_HELP.render())]
pub struct EvalArgs {
    #[command(flatten)]
    game: GameArg,
    /// 2, 5 or 7 cards, e.g. `As Kh Td 9c 2s` (a joker is Jk).
    #[arg(required = true, num_args = 1..)]
    cards: Vec<String>,
}

#[derive(Args, Debug)]
#[command(after_long_help = SPLITS_HELP.render())]
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
    let text = match args.format {
        Format::Csv => splits_csv(&hand, &splits)?,
        Format::Table => splits_table(&hand, &splits),
    };
    super::print_stdout(&text)?;
    Ok(())
}

/// The 21 splits as CSV (descriptions contain commas, so fields are quoted as needed).
fn splits_csv(hand: &[Card; 7], splits: &SplitValues) -> anyhow::Result<String> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record([
        "split",
        "front",
        "back",
        "front_value",
        "back_value",
        "front_hand",
        "back_hand",
        "legal",
    ])?;
    for k in 0..SPLIT_COUNT {
        let (front, back) = split_cards(hand, k);
        let (fv, bv) = (splits.front[k], splits.back[k]);
        writer.write_record([
            k.to_string(),
            front.to_string(),
            back.to_string(),
            fv.0.to_string(),
            bv.0.to_string(),
            fv.describe(),
            bv.describe(),
            splits.is_legal(k).to_string(),
        ])?;
    }
    Ok(String::from_utf8(writer.into_inner()?)?)
}

/// The 21 splits as an aligned table.
fn splits_table(hand: &[Card; 7], splits: &SplitValues) -> String {
    let mut text = String::new();
    for k in 0..SPLIT_COUNT {
        let (front, back) = split_cards(hand, k);
        let legal = if splits.is_legal(k) { "legal" } else { "foul" };
        text.push_str(&format!(
            "{k:>2}  {:<6} {:<15} {:<5} {:<26} {}\n",
            front.to_string(),
            back.to_string(),
            legal,
            splits.front[k].describe(),
            splits.back[k].describe()
        ));
    }
    text
}
