//! The premium multiples a game offers: an overqualifier may pay any multiple of
//! [`OVERQUALIFIER_MULTIPLES`] (the casino picks one), and an exact main-wager run of one of them
//! gives every other, since no count depends on the pays. One row per multiple: the line's pay,
//! the EV (as a decimal and exactly), the house edge and the SD.
//!
//! Invariant: a row's pay comes from the game's rules with only the multiple changed
//! (`Outcome::net_units`, the one place a pay is made, a commission or collection included), and
//! the table is shown only when the run's own multiple gives the pay its returns file lists.

use num_bigint::BigInt;
use num_rational::BigRational;

use super::format::{pays, percent_of};
use super::game::GameView;
use super::wagers::WagerRun;
use crate::game::wager::{
    BET_UNITS, MainWager, OVERQUALIFIER_MULTIPLES, OVERQUALIFIES_EVENT, Outcome,
};
use crate::report::counted::{Counted, fraction, to_f64};
use crate::report::document::{Block, DataFile, Document, Table, slug, strong, text};
use crate::report::fixed;

/// The pay of the overqualifier line at multiple `m` under `wager`'s rules, per unit bet.
fn pay_at(wager: &MainWager, m: u8) -> BigRational {
    let rules = MainWager {
        overqualifier: Some(m),
        ..*wager
    };
    let units = Outcome::Overqualified.net_units(&rules);
    BigRational::new(BigInt::from(units), BigInt::from(BET_UNITS))
}

/// The table of every multiple, from an exact main-wager run `w` of a game with an
/// overqualifier; nothing for another run.
pub fn multiples(doc: &mut Document, w: &WagerRun) {
    let Some((table, data)) = multiples_table(w) else {
        return;
    };
    doc.paragraph(vec![
        strong("The overqualifier's multiples"),
        text(format!(
            ": a casino offering the game picks a multiple from {} to {}. The counts do not \
             depend on the pay, so each row is this run's counts with the line \"{OVERQUALIFIES_EVENT}\" \
             paid that multiple (SD exact: the square root of the exact variance).",
            OVERQUALIFIER_MULTIPLES.start(),
            OVERQUALIFIER_MULTIPLES.end()
        )),
    ]);
    doc.push(Block::Table(table));
    doc.push(Block::Data(data));
}

fn multiples_table(w: &WagerRun) -> Option<(Table, DataFile)> {
    if !w.is_exact() {
        return None;
    }
    let wager = GameView::of(w.run).rules?.main_wager;
    let own = wager.overqualifier?;
    let counted = w.counted()?;
    let rows = w.paying_rows();
    let line = rows
        .iter()
        .position(|r| w.returns.get(r, "event") == OVERQUALIFIES_EVENT)?;
    if counted.lines[line].pays != pay_at(&wager, own) {
        return None;
    }
    let mut t = Table::new(&[
        "multiple",
        "pays (to 1)",
        "player EV",
        "player EV, exactly",
        "house edge",
        "SD per unit bet",
    ]);
    let mut data = DataFile::new(
        format!("overqualifier-{}.csv", slug(&w.run.dir)),
        &["multiple", "pays", "player_ev", "player_ev_exact", "sd"],
    );
    for m in OVERQUALIFIER_MULTIPLES {
        let at: Counted = counted.with_pays(line, pay_at(&wager, m));
        let ev = at.ev();
        let mark = if m == own { " (this run)" } else { "" };
        t.row(vec![
            format!("{m}x{mark}"),
            pays(&format!("{:.4}", to_f64(&at.lines[line].pays))),
            format!("{:.10}", to_f64(&ev)),
            fraction(&ev),
            percent_of(-to_f64(&ev), 4),
            format!("{:.10}", to_f64(&at.variance()).sqrt()),
        ]);
        data.row(vec![
            m.to_string(),
            format!("{:.4}", to_f64(&at.lines[line].pays)),
            fixed(to_f64(&ev)),
            fraction(&ev),
            fixed(to_f64(&at.variance()).sqrt()),
        ]);
    }
    Some((t, data))
}
