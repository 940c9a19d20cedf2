//! The reports of `paigow cost-way` ([`crate::engine::cost_way`]): `rules.csv` (one row a rule of
//! the way, in the way's order), `classes.csv` (one row a rule and one of its costliest hand
//! classes), `summary.csv` (the way's EV, the optimum's, the gap and, with `--both`, the house's
//! side), what the manifest says of the run ([`CostWayConfig`]) and the summary on stdout.
//!
//! Writers are pure functions of the engine's tallies: every EV and cost is written as a decimal
//! ([`fixed`]) and as the exact fraction of integer bet units it comes from; a setting is written
//! as its cards, front then back (the way's own split; the optimum's as
//! [`setting_text`] writes a table setting). Equal inputs give byte-identical files.

use std::io::{self, Write};

use serde::Serialize;

use crate::cards::Cards;
use crate::engine::cost_way::{ClassCost, HouseSide, RuleCost, WayCost};
use crate::engine::exact_main::Fraction;
use crate::engine::workbench::Bench;
use crate::eval::split::split_cards;
use crate::report::exact_prices::setting_text;
use crate::report::fixed;

/// What the manifest of `cost-way` says of the run.
#[derive(Serialize)]
pub struct CostWayConfig {
    pub game: String,
    pub main_wager: String,
    pub way: String,
    pub dealer_way: String,
    pub deck_cards: usize,
    pub method: String,
    pub shapes: usize,
    pub hands: u64,
    pub pairs: String,
    pub rules: usize,
    pub classes_per_rule: usize,
    pub both: bool,
    /// Each phase with its wall time.
    pub phases: Vec<(String, f64)>,
}

/// The columns of `rules.csv`, in order (the lab report's run check requires them all).
pub const RULES_COLUMNS: [&str; 18] = [
    "rule",
    "name",
    "shapes",
    "hands",
    "hands_share",
    "hands_share_exact",
    "way_ev",
    "way_ev_exact",
    "optimal_ev",
    "optimal_ev_exact",
    "way_contribution",
    "way_contribution_exact",
    "optimal_contribution",
    "optimal_contribution_exact",
    "cost",
    "cost_exact",
    "share_of_gap",
    "share_of_gap_exact",
];

/// The columns of `classes.csv`, in order.
pub const CLASSES_COLUMNS: [&str; 22] = [
    "rule",
    "rule_name",
    "rank",
    "class",
    "when",
    "best_five",
    "shapes",
    "hands",
    "way_ev",
    "way_ev_exact",
    "optimal_ev",
    "optimal_ev_exact",
    "cost",
    "cost_exact",
    "share_of_rule",
    "example_hand",
    "way_front",
    "way_back",
    "optimal_front",
    "optimal_back",
    "example_loss",
    "example_loss_exact",
];

/// The columns of `summary.csv`: one figure a row.
pub const SUMMARY_COLUMNS: [&str; 4] = ["figure", "description", "value", "exact"];

/// A fraction's decimal and exact columns; "-" for none.
fn columns(value: Option<Fraction>) -> [String; 2] {
    match value {
        Some(f) => [fixed(f.to_f64()), f.to_string()],
        None => ["-".to_string(), "-".to_string()],
    }
}

/// `rules.csv`: every rule, in the way's order.
pub fn write_rules<W: Write>(w: W, cost: &WayCost) -> io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record(RULES_COLUMNS)?;
    for rule in &cost.rules {
        let t = &rule.tally;
        let share = Fraction::new(i128::from(t.hands), i128::from(cost.total.hands));
        let mut row = vec![
            (rule.rule + 1).to_string(),
            rule.name.clone(),
            t.shapes.to_string(),
            t.hands.to_string(),
        ];
        row.extend(columns(Some(share)));
        row.extend(columns(t.way_ev()));
        row.extend(columns(t.best_ev()));
        row.extend(columns(Some(cost.over_all(t.way_net))));
        row.extend(columns(Some(cost.over_all(t.best_net))));
        row.extend(columns(Some(cost.over_all(t.cost_net()))));
        row.extend(columns(cost.share_of_gap(rule)));
        out.write_record(row)?;
    }
    out.flush()
}

/// The example of a class: the hand, the way's setting and the optimum's, as cards.
fn example_cards(bench: &Bench, class: &ClassCost) -> [String; 5] {
    let e = &class.example;
    let (hand, splits) = (&bench.hands[e.shape], &bench.splits[e.shape]);
    let (front, back) = split_cards(hand, e.way_split);
    let best = &bench.table.shapes[e.shape].settings[e.best_setting];
    let [best_front, best_back] = setting_text(hand, splits, &bench.table, best);
    [
        Cards::from_cards(hand).to_string(),
        front.to_string(),
        back.to_string(),
        best_front,
        best_back,
    ]
}

/// `classes.csv`: for each rule, the classes it costs most on, costliest first.
pub fn write_classes<W: Write>(w: W, cost: &WayCost, bench: &Bench) -> io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record(CLASSES_COLUMNS)?;
    for rule in &cost.rules {
        for (rank, class) in rule.classes.iter().enumerate() {
            let t = &class.tally;
            let share = Fraction::new(t.cost_net(), rule.tally.cost_net());
            let mut row = vec![
                (rule.rule + 1).to_string(),
                rule.name.clone(),
                (rank + 1).to_string(),
                class.class.text(),
                class.class.when(),
                class.class.best_five(),
                t.shapes.to_string(),
                t.hands.to_string(),
            ];
            row.extend(columns(t.way_ev()));
            row.extend(columns(t.best_ev()));
            row.extend(columns(Some(cost.over_all(t.cost_net()))));
            row.push(fixed(share.to_f64()));
            row.extend(example_cards(bench, class));
            row.extend(columns(Some(example_loss(bench, class))));
            out.write_record(row)?;
        }
    }
    out.flush()
}

/// What the way gives up on the example's hands, per unit bet on them.
fn example_loss(bench: &Bench, class: &ClassCost) -> Fraction {
    let pairs = bench.table.shapes[class.example.shape].dealer_hands;
    let units = i128::from(crate::game::wager::BET_UNITS);
    Fraction::new(class.example.cost_net, i128::from(pairs) * units)
}

/// The names `summary.csv` and the stdout summary give the ways.
pub struct Names<'a> {
    /// The house way costed (`W`).
    pub way: &'a str,
    /// The dealer's way (`D`).
    pub dealer: &'a str,
    /// Why the optimum against W is not given, when it is not.
    pub best_vs_way_missing: &'a str,
}

/// One line of `summary.csv`: its key, what it is, and its value (a count, or an exact EV).
struct Figure {
    key: &'static str,
    description: String,
    value: Value,
}

enum Value {
    Count(u128),
    Exact(Fraction),
    Missing,
}

/// Every figure of the summary, in order.
fn figures(cost: &WayCost, side: Option<&HouseSide>, names: &Names) -> Vec<Figure> {
    let (w, d) = (names.way, names.dealer);
    let figure = |key, description: String, value| Figure {
        key,
        description,
        value,
    };
    let mut rows = vec![
        figure(
            "pairs",
            "(player hand, dealer hand) pairs counted".into(),
            Value::Count(cost.pairs),
        ),
        figure(
            "hands",
            "player hands".into(),
            Value::Count(u128::from(cost.total.hands)),
        ),
        figure(
            "way_ev",
            format!("player EV of {w} against {d}"),
            Value::Exact(cost.way_ev()),
        ),
        figure(
            "optimal_ev",
            format!("player EV of optimal:{d} against {d}"),
            Value::Exact(cost.best_ev()),
        ),
        figure(
            "gap",
            format!("EV(optimal:{d}) - EV({w}): the sum of the rules' costs"),
            Value::Exact(cost.gap()),
        ),
    ];
    let Some(side) = side else {
        return rows;
    };
    let best_vs_way = (side.best_vs_way).map(|net| cost.over_all(net));
    let missing = |value: Option<Fraction>| value.map_or(Value::Missing, Value::Exact);
    rows.extend([
        figure(
            "way_vs_way_ev",
            format!("player EV of {w} against {w} (exact main)"),
            Value::Exact(side.way_vs_way.0.player_ev_fraction()),
        ),
        figure(
            "dealer_vs_dealer_ev",
            format!("player EV of {d} against {d} (exact main)"),
            Value::Exact(side.dealer_vs_dealer.0.player_ev_fraction()),
        ),
        figure(
            "house_way_change",
            format!(
                "change of the house-way player's EV when the house changes from {d} to {w}: \
                 EV({w} vs {w}) - EV({d} vs {d})"
            ),
            Value::Exact(side.way_change()),
        ),
        figure(
            "optimal_vs_way_ev",
            match best_vs_way {
                Some(_) => format!("player EV of optimal:{w} against {w}"),
                None => format!(
                    "player EV of optimal:{w} against {w}: {}",
                    names.best_vs_way_missing
                ),
            },
            missing(best_vs_way),
        ),
        figure(
            "optimal_change",
            format!(
                "change of the optimal player's EV: EV(optimal:{w} vs {w}) - EV(optimal:{d} vs {d})"
            ),
            missing(best_vs_way.map(|b| b - cost.best_ev())),
        ),
    ]);
    rows
}

/// `summary.csv`: `figure,description,value,exact`, one figure a row.
pub fn write_summary<W: Write>(
    w: W,
    cost: &WayCost,
    side: Option<&HouseSide>,
    names: &Names,
) -> io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record(SUMMARY_COLUMNS)?;
    for f in figures(cost, side, names) {
        let [value, exact] = match f.value {
            Value::Count(n) => [n.to_string(), n.to_string()],
            Value::Exact(x) => columns(Some(x)),
            Value::Missing => columns(None),
        };
        out.write_record([f.key.to_string(), f.description, value, exact])?;
    }
    out.flush()
}

/// A fraction as a percentage with six decimals.
fn percent(f: Fraction) -> String {
    format!("{:.6}%", 100.0 * f.to_f64())
}

/// The figures on stdout, one a line.
pub fn summary_text(cost: &WayCost, side: Option<&HouseSide>, names: &Names) -> String {
    let mut text = String::new();
    for f in figures(cost, side, names) {
        let value = match f.value {
            Value::Count(n) => crate::combin::grouped(&n.to_string()),
            Value::Exact(x) => format!("{} ({x})", percent(x)),
            Value::Missing => "-".to_string(),
        };
        text += &format!("  {}: {value}\n", f.description);
    }
    text
}

/// The `top` costliest rules on stdout, each with its costliest class and that class's example.
pub fn rules_text(cost: &WayCost, bench: &Bench, top: usize) -> String {
    let mut rules: Vec<&RuleCost> = (cost.rules.iter())
        .filter(|r| r.tally.cost_net() > 0)
        .collect();
    rules.sort_by_key(|r| (std::cmp::Reverse(r.tally.cost_net()), r.rule));
    let mut text = format!(
        "The costliest rules ({} of the {} that cost anything):\n",
        rules.len().min(top),
        rules.len()
    );
    for rule in rules.iter().take(top) {
        let share = cost.share_of_gap(rule).map_or(0.0, |s| s.to_f64());
        let hands = Fraction::new(i128::from(rule.tally.hands), i128::from(cost.total.hands));
        text += &format!(
            "  rule {:>2} costs {:>9} ({:>5.1}% of the gap) on {:>8} of hands: {}\n",
            rule.rule + 1,
            percent(cost.over_all(rule.tally.cost_net())),
            100.0 * share,
            percent(hands),
            rule.name
        );
        if let Some(class) = rule.classes.first() {
            let [hand, front, back, best_front, best_back] = example_cards(bench, class);
            text += &format!(
                "          most on {} ({}), e.g. {hand}: {front} / {back}, best {best_front} / {best_back}\n",
                class.class.text(),
                percent(cost.over_all(class.tally.cost_net())),
            );
        }
    }
    text
}
