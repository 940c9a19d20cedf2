//! `sweep-way`: a house way and variants of it, each with one edit
//! ([`crate::strategy::way::edit`]), priced exactly against a dealer's way on the workbench
//! ([`super::workbench::Bench`]): every hand of the deck against every dealer hand of the cards
//! it leaves, by one pass over the price table's shapes a variant.
//!
//! Invariants: a variant is the way's file with one edit, loaded afresh by
//! [`HouseWay::from_toml`] (parsed, compiled and validated like any file); one that does not
//! load is kept as an invalid row with the loader's error and is never priced. A valid variant's
//! EV is [`Bench::price_way`]'s exact net, the net `exact main` counts for that way; its change
//! is against the unedited way priced on the same bench, so a variant that sets every hand as
//! the way does has a change of exactly 0 and no hands set differently; hands set differently
//! are the hands of the shapes whose setting differs in value (front value, back value), as
//! `diff-ways` counts them. Each variant's lint is `check-way`'s, over every hand of the game's
//! deck.

use std::time::Instant;

use super::workbench::{Bench, Placed};
use crate::cards::Deck;
use crate::eval::Evaluator;
use crate::strategy::way::HouseWay;
use crate::strategy::way::edit::Sweep;
use crate::strategy::way::lint;

/// What a row says of its way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Priced: the net in bet units over every pair, the hands set differently from the
    /// unedited way, and the lint's warnings.
    Priced {
        net: i128,
        hands_changed: u64,
        lint: Vec<String>,
    },
    /// Not a valid house way: why (the loader's error), never priced.
    Invalid(String),
}

/// One row: the unedited way (sweep 0) or one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The `--vary` it comes from, from 1; 0 for the unedited way.
    pub sweep: usize,
    /// `PATH=VALUE`, or `unedited`.
    pub edit: String,
    /// The value alone (empty for the unedited way).
    pub parameter: String,
    pub outcome: Outcome,
}

impl Row {
    /// The net, where priced.
    pub fn net(&self) -> Option<i128> {
        match self.outcome {
            Outcome::Priced { net, .. } => Some(net),
            Outcome::Invalid(_) => None,
        }
    }
}

/// Every row, the unedited way first, with what the rows are measured against.
#[derive(Clone, Debug)]
pub struct Swept {
    pub rows: Vec<Row>,
    /// The optimum's net (every shape at its best setting).
    pub optimal_net: i128,
    /// The hands of the deck the bench prices.
    pub hands: u64,
    /// Seconds spent pricing the valid variants (not the unedited way), and how many.
    pub pricing_seconds: f64,
    pub priced: usize,
}

impl Swept {
    /// The unedited way's net.
    pub fn base_net(&self) -> i128 {
        self.rows[0].net().expect("the unedited way is priced")
    }

    /// The valid variant of sweep `k` (from 1) with the highest EV (the first on a tie), if any.
    pub fn best(&self, k: usize) -> Option<&Row> {
        let of_k = self.rows.iter().filter(|r| r.sweep == k);
        let variants = of_k.filter_map(|r| Some((r, r.net()?)));
        variants
            .fold(None, |best: Option<(&Row, i128)>, (r, net)| match best {
                Some((_, b)) if b >= net => best,
                _ => Some((r, net)),
            })
            .map(|(r, _)| r)
    }
}

/// What a sweep reads: the bench, the way, its edits, and the game's evaluator and deck for
/// the lint.
pub struct SweepInput<'a> {
    pub bench: &'a Bench,
    pub way: &'a HouseWay,
    pub sweeps: &'a [Sweep],
    pub evaluator: &'a Evaluator,
    pub deck: Deck,
}

/// The unedited way and every variant of every sweep, in the order given.
pub fn sweep(input: &SweepInput) -> Result<Swept, String> {
    let bench = input.bench;
    let base = bench.price_way(input.way);
    let mut rows = vec![Row {
        sweep: 0,
        edit: "unedited".to_string(),
        parameter: String::new(),
        outcome: priced(input, input.way, &base, &base),
    }];
    let (mut pricing_seconds, mut priced_count) = (0.0, 0);
    for (k, sweep) in input.sweeps.iter().enumerate() {
        for variant in sweep.variants(&input.way.text)? {
            let origin = format!("{} with {}", input.way.origin, variant.edit);
            let outcome = match HouseWay::from_toml(&variant.text, &origin) {
                Ok(way) => {
                    let at = Instant::now();
                    let placed = bench.price_way(&way);
                    pricing_seconds += at.elapsed().as_secs_f64();
                    priced_count += 1;
                    priced(input, &way, &placed, &base)
                }
                Err(e) => Outcome::Invalid(e.to_string()),
            };
            rows.push(Row {
                sweep: k + 1,
                edit: variant.edit,
                parameter: variant.parameter,
                outcome,
            });
        }
    }
    Ok(Swept {
        rows,
        optimal_net: bench.optimal_net(),
        hands: (0..bench.hands.len()).map(|i| bench.shape_hands(i)).sum(),
        pricing_seconds,
        priced: priced_count,
    })
}

/// A valid way's row: its net, the hands it sets unlike `base`, its lint.
fn priced(input: &SweepInput, way: &HouseWay, placed: &[Placed], base: &[Placed]) -> Outcome {
    let hands_changed = (placed.iter().zip(base).enumerate())
        .filter(|(_, (a, b))| a.setting != b.setting)
        .map(|(i, _)| input.bench.shape_hands(i))
        .sum();
    Outcome::Priced {
        net: Bench::net(placed),
        hands_changed,
        lint: lint_lines(way, input.evaluator, input.deck),
    }
}

/// `check-way`'s warnings for `way`, one short line each: `rule 11 shadowed (N hands)`.
pub fn lint_lines(way: &HouseWay, evaluator: &Evaluator, deck: Deck) -> Vec<String> {
    let report = lint::check(way, evaluator, deck);
    let mut lines: Vec<String> = (report.warnings())
        .map(|issue| {
            let alternative = issue
                .alternative
                .map_or(String::new(), |a| format!(" alternative {}", a + 1));
            format!(
                "rule {}{alternative} {} ({} hands)",
                issue.rule + 1,
                issue.finding.key(),
                crate::combin::grouped(&issue.hands.to_string())
            )
        })
        .collect();
    lines.extend(
        (report.unused_allowances.iter())
            .map(|(r, finding)| format!("rule {} allows {} but has none", r + 1, finding.key())),
    );
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameRules;
    use crate::strategy::deck_shapes::SuitDeck;
    use crate::strategy::resolve::dealer_way;
    use crate::strategy::way::SHIPPED_WAYS;
    use crate::strategy::way::edit::render;

    /// Every shipped way, written in the edit's layout, sets every shape of a reduced deck as
    /// the shipped file does.
    #[test]
    fn the_unedited_layout_sets_every_shape_alike() {
        let game = GameRules::load("standard").unwrap();
        let dealer = dealer_way("foxwoods", &game).unwrap().way;
        let deck = SuitDeck::new(0b1_1010_0000_1001, 1).unwrap();
        let bench = Bench::load(&dealer, &game, deck, None, &|_| {});
        for (name, origin, text) in SHIPPED_WAYS {
            let shipped = HouseWay::load(name).unwrap();
            let again = render(&text.parse().unwrap());
            let way = HouseWay::from_toml(&again, origin).unwrap();
            assert_eq!(bench.price_way(&way), bench.price_way(&shipped), "{name}");
        }
    }
}
