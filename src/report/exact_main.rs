//! The reports of `paigow exact main`: `returns.csv`, `summary.csv` and what its manifest says of
//! the count ([`MainConfig`]; the run facts are every manifest's, [`crate::report::facts`]).
//!
//! Writers are pure functions of the exact counts: the main wager's rows are the game's one list
//! ([`return_rows`]), counted in pairs of hands; fixed
//! column order, fixed float formatting ([`fixed`]), payouts written exactly from integer bet
//! units ([`units`]). Equal counts give byte-identical CSVs.

use std::io::{self, Write};

use serde::Serialize;

use crate::engine::exact_main::MainExact;
use crate::engine::exact_main::cache::NamedCounts;
use crate::game::wager::{BET_UNITS, Outcome, Qualification, return_rows};
use crate::report::{fixed, units};

/// The wager's name in report rows.
pub const WAGER: &str = "main wager";

/// `returns.csv`: wager, event, pays, combinations, total, probability, return; a total row
/// whose return is the player's EV.
pub fn write_returns<W: Write>(w: W, exact: &MainExact) -> io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record([
        "wager",
        "event",
        "pays",
        "combinations",
        "total",
        "probability",
        "return",
    ])?;
    let total = exact.pairs();
    for row in return_rows(&exact.wager) {
        let pairs: u64 = row.outcomes.iter().map(|&o| exact.get(o)).sum();
        let p = pairs as f64 / total as f64;
        let (pays, ret) = match row.pays {
            Some(u) => (units(u), fixed(p * u as f64 / BET_UNITS as f64)),
            None => ("-".to_string(), "-".to_string()),
        };
        let fields = [WAGER.to_string(), row.event.to_string(), pays];
        out.write_record(fields.into_iter().chain([
            pairs.to_string(),
            total.to_string(),
            fixed(p),
            ret,
        ]))?;
    }
    out.write_record([
        WAGER.to_string(),
        "total".to_string(),
        "-".to_string(),
        total.to_string(),
        total.to_string(),
        fixed(1.0),
        fixed(exact.player_ev()),
    ])?;
    out.flush()
}

/// Checks that the `returns.csv` and `summary.csv` of the `exact main` report directory `dir`
/// are the ones `exact`'s counts (read from its manifest) give, byte for byte: counts edited in
/// the manifest or a figure edited in a file (a file cut short, a flipped byte) is refused,
/// naming the file.
pub fn check_report_files(dir: &std::path::Path, exact: &MainExact) -> Result<(), String> {
    let mut returns = Vec::new();
    let mut summary = Vec::new();
    write_returns(&mut returns, exact).map_err(|e| e.to_string())?;
    write_summary(&mut summary, exact).map_err(|e| e.to_string())?;
    for (name, expected) in [("returns.csv", returns), ("summary.csv", summary)] {
        let path = dir.join(name);
        let found = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        if found != expected {
            return Err(format!(
                "{}: does not hold what the counts in {} give: the report was edited or damaged \
                 (run `paigow exact main` again)",
                path.display(),
                dir.join("manifest.json").display()
            ));
        }
    }
    Ok(())
}

/// `summary.csv`: the player's EV and house edge as decimals and exact fractions, win / push /
/// loss (win includes the overqualifier, push a dealer who does not qualify) and the SD per
/// unit wagered.
pub fn write_summary<W: Write>(w: W, exact: &MainExact) -> io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record([
        "wager",
        "method",
        "combinations",
        "player_ev",
        "house_edge",
        "player_ev_exact",
        "house_edge_exact",
        "win",
        "push",
        "loss",
        "sd",
    ])?;
    let p = |classes: &[Outcome]| classes.iter().map(|&c| exact.probability(c)).sum::<f64>();
    let ev = exact.player_ev_fraction();
    let edge = crate::engine::exact_main::Fraction::new(-ev.numerator, ev.denominator);
    out.write_record([
        WAGER.to_string(),
        "exact: every ordered pair of disjoint player and dealer hands".to_string(),
        exact.pairs().to_string(),
        fixed(ev.to_f64()),
        fixed(edge.to_f64()),
        ev.to_string(),
        edge.to_string(),
        fixed(p(&[Outcome::Win, Outcome::Overqualified])),
        fixed(p(&[Outcome::Push, Outcome::NotQualified])),
        fixed(p(&[Outcome::Loss, Outcome::CopyLoss, Outcome::Foul])),
        fixed(exact.sd()),
    ])?;
    out.flush()
}

/// How long one phase took.
#[derive(Serialize, Debug, Clone)]
pub struct PhaseFacts {
    /// The size of the shared card sets `T`.
    pub shared_cards: usize,
    pub sets: u64,
    pub hands: u64,
    pub seconds: f64,
}

/// What the manifest of an exact main count says of its configuration and its run.
#[derive(Serialize, Debug, Clone)]
pub struct MainConfig {
    pub game: String,
    pub main_wager: String,
    pub player_way: String,
    pub dealer_way: String,
    pub deck_cards: usize,
    pub method: String,
    /// The key of this result in the cache (see `exact_main::cache`).
    pub cache_key: String,
    pub from_cache: bool,
    pub counts: NamedCounts,
    pub shapes: usize,
    pub settings_seconds: f64,
    pub phases: Vec<PhaseFacts>,
}

/// The lines printed on stdout.
pub fn summary_text(exact: &MainExact) -> String {
    let ev = exact.player_ev_fraction();
    let p = |c: Outcome| 100.0 * exact.probability(c);
    let mut text = format!(
        "player EV {:+.6}% (exactly {ev}), house edge {:.6}%, SD {:.4}\n",
        100.0 * ev.to_f64(),
        -100.0 * ev.to_f64(),
        exact.sd()
    );
    text += &format!(
        "win {} ({:.4}%), push {} ({:.4}%), lose {} ({:.4}%, copies {}) of {} pairs\n",
        exact.get(Outcome::Win),
        p(Outcome::Win),
        exact.get(Outcome::Push),
        p(Outcome::Push),
        exact.get(Outcome::Loss) + exact.get(Outcome::CopyLoss),
        p(Outcome::Loss) + p(Outcome::CopyLoss),
        exact.get(Outcome::CopyLoss),
        exact.pairs()
    );
    if exact.wager.overqualifier.is_some() || exact.wager.qualification != Qualification::Always {
        text += &format!(
            "dealer overqualifies {} ({:.4}%), does not qualify {} ({:.4}%)\n",
            exact.get(Outcome::Overqualified),
            p(Outcome::Overqualified),
            exact.get(Outcome::NotQualified),
            p(Outcome::NotQualified)
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::exact_main::PairCounts;
    use crate::game::GameRules;

    fn exact(game: &str, classes: [u64; 7]) -> MainExact {
        MainExact {
            counts: PairCounts { classes },
            wager: GameRules::load(game).unwrap().main_wager,
        }
    }

    #[test]
    fn the_total_return_is_the_ev_and_commission_is_exact() {
        let e = exact("standard", [10, 0, 5, 0, 3, 2, 0]);
        let mut buffer = Vec::new();
        write_returns(&mut buffer, &e).unwrap();
        let text = String::from_utf8(buffer).unwrap();
        assert!(
            text.contains("main wager,win both,0.9500,10,20,0.5000000000,0.4750000000"),
            "{text}"
        );
        assert!(
            text.contains("main wager,lose,-1.0000,5,20,0.2500000000,-0.2500000000"),
            "{text}"
        );
        assert!(
            text.contains("  of which copies,-,2,20,0.1000000000,-"),
            "{text}"
        );
        assert!(!text.contains("overqualifies"), "{text}");
        assert_eq!(
            text.lines().last(),
            Some("main wager,total,-,20,20,1.0000000000,0.2250000000")
        );
        assert_eq!(e.player_ev_fraction().to_string(), "9/40");
    }

    #[test]
    fn the_summary_gives_the_edge_as_a_fraction() {
        let e = exact("double-joker", [3, 1, 2, 1, 2, 1, 0]);
        let mut buffer = Vec::new();
        write_summary(&mut buffer, &e).unwrap();
        let text = String::from_utf8(buffer).unwrap();
        let row: Vec<&str> = text.lines().nth(1).unwrap().split(',').collect();
        // net: 3 wins + 3 x 1 overqualified - 3 losses = 3 units of 10 bets.
        assert_eq!(&row[5..7], ["3/10", "-3/10"]);
        assert_eq!(row[7], "0.4000000000");
        assert_eq!(row[8], "0.3000000000");
    }
}
