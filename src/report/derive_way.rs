//! `derive-way`'s report: the frontier (one row a step of the search: the way's rules after it,
//! the rule it added, as added, and where, how many rules it then re-set to another setting,
//! what the step saved, the way's exact EV and its cost against the optimum) and the manifest's
//! configuration.
//!
//! Every figure is an exact fraction of a unit bet from integer nets, written beside its decimal
//! ([`fixed`]); costs are EV(optimum) - EV(way), never negative, and never rise from row to row.

use std::io::{self, Write};

use serde::Serialize;

use super::exact_prices::ev_fraction;
use super::fixed;
use crate::engine::derive_way::{Step, Vocabulary};

/// The frontier's columns, in order.
pub const FRONTIER_COLUMNS: [&str; 11] = [
    "step",
    "rules",
    "position",
    "rule",
    "resets",
    "saved",
    "saved_exact",
    "ev",
    "ev_exact",
    "cost",
    "cost_exact",
];

/// Writes the frontier of `steps` over `pairs` pairs, against the optimum's net `optimal_net`.
pub fn write_frontier<W: Write>(
    w: W,
    vocab: &Vocabulary,
    steps: &[Step],
    optimal_net: i128,
    pairs: u128,
) -> io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record(FRONTIER_COLUMNS)?;
    for (i, step) in steps.iter().enumerate() {
        let ev = ev_fraction(step.net, pairs);
        let cost = ev_fraction(optimal_net - step.net, pairs);
        let (saved, saved_exact) = match step.saved {
            Some(net) => {
                let saved = ev_fraction(net, pairs);
                (fixed(saved.to_f64()), saved.to_string())
            }
            None => ("-".into(), "-".into()),
        };
        out.write_record([
            (i + 1).to_string(),
            step.rules.to_string(),
            (step.position + 1).to_string(),
            vocab.rule_name(&step.added),
            step.resets.to_string(),
            saved,
            saved_exact,
            fixed(ev.to_f64()),
            ev.to_string(),
            fixed(cost.to_f64()),
            cost.to_string(),
        ])?;
    }
    out.flush()
}

/// `derive-way`'s configuration, as its manifest records it.
#[derive(Clone, Debug, Serialize)]
pub struct DeriveConfig {
    pub game: String,
    pub dealer_way: String,
    pub deck_cards: usize,
    pub max_rules: usize,
    pub rules: usize,
    pub method: String,
    pub way_file: String,
    pub frontier_file: String,
    pub ev: String,
    pub ev_exact: String,
    pub optimal_ev: String,
    pub optimal_ev_exact: String,
    pub cost: String,
    pub cost_exact: String,
    /// Each phase with its wall time.
    pub phases: Vec<(String, f64)>,
}
