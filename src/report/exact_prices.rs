//! The reports of `paigow exact prices`: `shapes.csv` (one row per hand shape: a representative,
//! its hands, its best and second-best settings with their exact EVs and the gap), `summary.csv`
//! (the optimum and each way priced from the table) and what the manifest says of the build
//! ([`PricesConfig`]).
//!
//! Writers are pure functions of the table: rows by ascending shape id, fixed float formatting
//! ([`fixed`]), exact fractions from integer counts. Equal tables give byte-identical CSVs.

use std::io::{self, Write};

use serde::Serialize;

use crate::cards::{Card, Cards};
use crate::engine::exact::row_name;
use crate::engine::exact_main::Fraction;
use crate::engine::table_check::CheckedHand;
use crate::eval::Evaluator;
use crate::eval::JokerRule;
use crate::eval::split::{SplitValues, split_cards};
use crate::game::wager::{BET_UNITS, MainWager};
use crate::report::fixed;
use crate::strategy::deck_shapes::Shapes;
use crate::strategy::optimal::prices::{PriceTable, SettingPrice, ShapePrices};

/// A strategy's exact EV over every (player, dealer) pair, from the table.
pub struct PricedWay {
    pub name: String,
    /// The players' net over every pair, in bet units.
    pub net_units: i128,
}

/// What the manifest of `exact prices` says of the build.
#[derive(Serialize)]
pub struct PricesConfig {
    pub game: String,
    pub main_wager: String,
    pub dealer_way: String,
    pub deck_cards: usize,
    pub method: String,
    pub shapes: usize,
    pub hands: u64,
    pub settings: usize,
    /// Each phase with its wall time.
    pub phases: Vec<(String, f64)>,
    /// The process's peak resident memory, in MB (absent where the system does not say).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_memory_mb: Option<u64>,
    pub tie_break: String,
    /// `--sample-check`: hands drawn per class, and the seed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sample_check: Option<SampleCheck>,
}

/// What `--sample-check` drew.
#[derive(Clone, Debug, Serialize)]
pub struct SampleCheck {
    pub hands_per_class: usize,
    pub seed: u64,
    pub method: String,
    /// Hands checked, and on how many the table's choice is the hand's own exact best.
    pub hands: usize,
    pub table_choice_is_own_best: usize,
    /// The largest loss of the table's choice, per unit bet, with its hand.
    pub worst_loss: f64,
    pub worst_hand: String,
}

impl SampleCheck {
    /// The facts of `checked`, drawn `hands_per_class` a class with `seed`.
    pub fn of(checked: &[CheckedHand], hands_per_class: usize, seed: u64) -> SampleCheck {
        let worst = checked
            .iter()
            .max_by(|a, b| a.loss().to_f64().total_cmp(&b.loss().to_f64()));
        SampleCheck {
            hands_per_class,
            seed,
            method: "hands drawn uniformly within each class (a shape by its share of the \
                     class's hands, then a hand of it), one seeded stream per class; each priced \
                     against every dealer hand of the cards it leaves"
                .to_string(),
            hands: checked.len(),
            table_choice_is_own_best: checked.iter().filter(|c| c.loss().numerator == 0).count(),
            worst_loss: worst.map_or(0.0, |w| w.loss().to_f64()),
            worst_hand: worst.map_or(String::new(), |w| Cards::from_cards(&w.hand).to_string()),
        }
    }
}

/// The EV of `net` units over `pairs` pairs, exactly.
pub fn ev_fraction(net: i128, pairs: u128) -> Fraction {
    Fraction::new(net, pairs as i128 * i128::from(BET_UNITS))
}

/// The cards of a setting of the shape's representative (`splits` its split values), as (front,
/// back) text.
pub fn setting_text(
    hand: &[Card; 7],
    splits: &SplitValues,
    table: &PriceTable,
    s: &SettingPrice,
) -> [String; 2] {
    let k = (splits.legal_splits())
        .find(|&k| table.index.split_point(splits, k) == [s.front, s.back])
        .expect("a priced setting is a legal split of the representative");
    let (front, back) = split_cards(hand, k);
    [front.to_string(), back.to_string()]
}

/// One shape's row.
fn shape_row(
    prices: &ShapePrices,
    hand: &[Card; 7],
    ev: &Evaluator,
    table: &PriceTable,
    wager: &MainWager,
) -> Vec<String> {
    let ranked = prices.ranked(wager);
    let splits = ev.split_values(hand);
    let pairs = u128::from(prices.dealer_hands);
    let ev_of = |net: i128| ev_fraction(net, pairs);
    let (best, best_net) = ranked[0];
    let mut row = vec![
        prices.id.to_string(),
        Cards::from_cards(hand).to_string(),
        prices.hands.to_string(),
        prices.settings.len().to_string(),
    ];
    row.extend(setting_text(hand, &splits, table, best));
    row.push(fixed(ev_of(best_net).to_f64()));
    row.push(ev_of(best_net).to_string());
    match ranked.get(1) {
        Some(&(second, second_net)) => {
            row.extend(setting_text(hand, &splits, table, second));
            row.push(fixed(ev_of(second_net).to_f64()));
            row.push(fixed(ev_of(best_net - second_net).to_f64()));
            row.push(ev_of(best_net - second_net).to_string());
        }
        None => row.extend(["-", "-", "-", "-", "-"].map(String::from)),
    }
    row
}

/// `shapes.csv`: one row per shape, ascending id.
pub fn write_shapes<W: Write>(
    w: W,
    table: &PriceTable,
    shapes: &Shapes,
    ev: &Evaluator,
    wager: &MainWager,
) -> io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record([
        "shape",
        "hand",
        "hands",
        "settings",
        "best_front",
        "best_back",
        "best_ev",
        "best_ev_exact",
        "second_front",
        "second_back",
        "second_ev",
        "gap",
        "gap_exact",
    ])?;
    for prices in &table.shapes {
        let hand = shapes.representative(prices.id as usize).expect("priced");
        out.write_record(shape_row(prices, &hand, ev, table, wager))?;
    }
    out.flush()
}

/// `summary.csv`: each strategy's exact EV over every pair, the optimum first, with the house
/// edge and what it gives up against the optimum.
pub fn write_summary<W: Write>(w: W, pairs: u128, ways: &[PricedWay]) -> io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record([
        "strategy",
        "player_ev",
        "player_ev_exact",
        "house_edge",
        "below_optimal",
        "below_optimal_exact",
    ])?;
    let best = ways.first().map_or(0, |w| w.net_units);
    for way in ways {
        let ev = ev_fraction(way.net_units, pairs);
        let below = ev_fraction(best - way.net_units, pairs);
        out.write_record([
            way.name.clone(),
            fixed(ev.to_f64()),
            ev.to_string(),
            fixed(-ev.to_f64()),
            fixed(below.to_f64()),
            below.to_string(),
        ])?;
    }
    out.flush()
}

/// `sample-check.csv`: each drawn hand, the table's choice and the hand's own best, with the
/// hand's own exact EV at each and what the table's choice gives up.
pub fn write_sample_check<W: Write>(
    w: W,
    checked: &[CheckedHand],
    joker: JokerRule,
) -> io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record([
        "class",
        "hand",
        "table_sets",
        "own_best_sets",
        "table_ev",
        "own_best_ev",
        "loss",
        "loss_exact",
    ])?;
    for c in checked {
        let sets = |k: usize| {
            let (front, back) = split_cards(&c.hand, k);
            format!("{front} | {back}")
        };
        out.write_record([
            row_name(c.class, joker).to_string(),
            Cards::from_cards(&c.hand).to_string(),
            sets(c.table_split),
            sets(c.own_split),
            fixed(c.table_ev.to_f64()),
            fixed(c.own_ev.to_f64()),
            fixed(c.loss().to_f64()),
            c.loss().to_string(),
        ])?;
    }
    out.flush()
}

/// The sample check in a few lines: how often the table's choice is the hand's own best, and
/// the worst loss, with its hand.
pub fn sample_check_text(checked: &[CheckedHand]) -> String {
    let n = checked.len();
    let best = checked.iter().filter(|c| c.loss().numerator == 0).count();
    let mean = checked.iter().map(|c| c.loss().to_f64()).sum::<f64>() / n.max(1) as f64;
    let mut text = format!(
        "sample check: on {best} of {n} drawn hands the table's choice is the hand's own exact \
         best; mean loss {}% of a bet\n",
        fixed(100.0 * mean)
    );
    let worst = checked
        .iter()
        .max_by(|a, b| a.loss().to_f64().total_cmp(&b.loss().to_f64()));
    if let Some(w) = worst.filter(|w| w.loss().numerator > 0) {
        text += &format!(
            "  worst: {} loses {}% (its own best EV {}%, at the table's choice {}%)\n",
            Cards::from_cards(&w.hand),
            fixed(100.0 * w.loss().to_f64()),
            fixed(100.0 * w.own_ev.to_f64()),
            fixed(100.0 * w.table_ev.to_f64())
        );
    }
    text
}
