//! The reports of `paigow sweep-way`: `sweep.csv` (one row per way: the unedited way, then each
//! variant in the order its `--vary` gives it), a plot of EV against the parameter per `--vary`
//! (`sweep-K.svg`), and what the manifest says of the sweep ([`SweepConfig`]).
//!
//! Writers are pure functions of the rows: fixed float formatting ([`fixed`]), exact fractions
//! from integer nets, `-` where an invalid variant has no figure. Equal sweeps give
//! byte-identical files.

use std::io::{self, Write};

use serde::Serialize;

use crate::engine::sweep_way::{Outcome, Row, Swept};
use crate::report::document::svg::{ProfilePoint, profile};
use crate::report::exact_prices::ev_fraction;
use crate::report::fixed;

/// What the manifest of `sweep-way` says of the sweep.
#[derive(Serialize)]
pub struct SweepConfig {
    pub game: String,
    pub main_wager: String,
    pub player_way: String,
    pub dealer_way: String,
    pub deck_cards: usize,
    pub method: String,
    /// Each `--vary` as given.
    pub vary: Vec<String>,
    /// Variants in all, and how many are not valid house ways (not priced).
    pub variants: usize,
    pub invalid: usize,
    /// The exact EVs of the unedited way and of the optimum against the dealer.
    pub player_ev: String,
    pub optimal_player_ev: String,
    /// Each phase with its wall time.
    pub phases: Vec<(String, f64)>,
}

/// The columns of `sweep.csv`, in order (the lab report's run check requires them all).
pub const SWEEP_COLUMNS: [&str; 13] = [
    "sweep",
    "edit",
    "parameter",
    "valid",
    "player_ev",
    "player_ev_exact",
    "change",
    "change_exact",
    "below_optimal",
    "below_optimal_exact",
    "hands_changed",
    "hands_changed_share",
    "lint",
];

/// `sweep.csv`: each row's EV, its change on the unedited way, its gap to the optimum, the
/// hands it sets differently and its lint warnings (or, for an invalid variant, why).
pub fn write_sweep<W: Write>(w: W, swept: &Swept, pairs: u128) -> io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record(SWEEP_COLUMNS)?;
    let base = swept.base_net();
    for row in &swept.rows {
        let mut fields = vec![
            row.sweep.to_string(),
            row.edit.clone(),
            row.parameter.clone(),
        ];
        match &row.outcome {
            Outcome::Priced {
                net,
                hands_changed,
                lint,
            } => {
                let ev = ev_fraction(*net, pairs);
                let change = ev_fraction(net - base, pairs);
                let below = ev_fraction(swept.optimal_net - net, pairs);
                fields.push("true".to_string());
                for f in [ev, change, below] {
                    fields.extend([fixed(f.to_f64()), f.to_string()]);
                }
                fields.push(hands_changed.to_string());
                fields.push(fixed(*hands_changed as f64 / swept.hands.max(1) as f64));
                fields.push(lint.join("; "));
            }
            Outcome::Invalid(why) => {
                fields.push("false".to_string());
                fields.extend(std::iter::repeat_n("-".to_string(), 8));
                fields.push(why.clone());
            }
        }
        out.write_record(fields)?;
    }
    out.flush()
}

/// The plot of sweep `k` (from 1): EV against the parameter, the unedited way's EV dashed.
pub fn sweep_plot(swept: &Swept, k: usize, path: &str, pairs: u128) -> String {
    let rows: Vec<&Row> = swept.rows.iter().filter(|r| r.sweep == k).collect();
    let points: Vec<ProfilePoint> = (rows.iter())
        .map(|r| ProfilePoint {
            label: r.parameter.clone(),
            value: r.net().map(|net| ev_fraction(net, pairs).to_f64()),
        })
        .collect();
    let base = ev_fraction(swept.base_net(), pairs).to_f64();
    ev_profile(path, &points, Some(base))
}

/// The plot of one sweep: each value's player EV against the parameter `path`, the unedited
/// way's EV dashed. `sweep-way` draws it from its rows, the lab report from `sweep.csv`.
pub fn ev_profile(path: &str, points: &[ProfilePoint], unedited: Option<f64>) -> String {
    profile(
        &format!("Player EV against {path}"),
        points,
        unedited.map(|ev| ("unedited way", ev)),
        (path, "player EV per unit bet"),
    )
}
