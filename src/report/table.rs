//! The reports of a table run: `summary.csv` (one row per seat, then the card room) and
//! `outcomes.csv` (counts with Wilson bounds, and exact probabilities where known). Pure
//! functions of the table and its integer tally.

use std::io::Write;

use super::fixed;
use super::stats::{seat_stats, wilson};
use crate::engine::table::{SEATS, Table, TableTally, action_pile_throws};
use crate::game::wager::{BetResult, Outcome};

/// A seat's role and its bets as written in the reports.
pub fn role(table: &Table, seat: usize) -> (&'static str, String) {
    let bets = &table.layout.bets[seat];
    if seat == table.layout.dealer {
        let bank = table
            .bank
            .map_or("unlimited".to_string(), |b| b.to_string());
        return ("player-dealer", bank);
    }
    let text: Vec<String> = bets.iter().map(u64::to_string).collect();
    match bets.len() {
        0 => ("empty", "-".to_string()),
        1 => ("player", text.join("+")),
        _ => ("player+backline", text.join("+")),
    }
}

/// `summary.csv`: per seat, EV per round and per unit of action, action and collection.
pub fn write_summary<W: Write>(w: W, table: &Table, t: &TableTally) -> std::io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record([
        "seat",
        "role",
        "bets",
        "rounds",
        "action_per_round",
        "ev_per_round",
        "ev_per_round_ci95_low",
        "ev_per_round_ci95_high",
        "ev_per_action",
        "ev_per_action_ci95_low",
        "ev_per_action_ci95_high",
        "ev_per_action_after_collection",
        "collection_per_round",
        "no_action_share",
        "partial_action_share",
    ])?;
    let fees = table.collection_per_round();
    for (seat, &fee) in fees.iter().enumerate() {
        let (role, bets) = role(table, seat);
        let s = seat_stats(&t.seats[seat], t.rounds, fee);
        let n = t.rounds as f64;
        out.write_record([
            (seat + 1).to_string(),
            role.to_string(),
            bets,
            t.rounds.to_string(),
            fixed(s.action_per_round),
            fixed(s.ev_per_round),
            fixed(s.ev_per_round_ci95.0),
            fixed(s.ev_per_round_ci95.1),
            fixed(s.ev_per_action),
            fixed(s.ev_per_action_ci95.0),
            fixed(s.ev_per_action_ci95.1),
            fixed(s.ev_per_action_after_collection),
            fee.to_string(),
            fixed(t.seats[seat].no_action as f64 / n),
            fixed(t.seats[seat].partial as f64 / n),
        ])?;
    }
    let room: u64 = fees.iter().sum();
    let dash = || "-".to_string();
    let mut row = vec!["room".to_string(), "card room".to_string(), dash()];
    row.extend([t.rounds.to_string(), dash(), fixed(room as f64)]);
    row.extend(std::iter::repeat_n(dash(), 6));
    row.extend([room.to_string(), dash(), dash()]);
    out.write_record(row)?;
    out.flush()
}

/// `outcomes.csv`: counts per seat (setter's win/push/loss, fouls, no or partial action, the
/// action pile with its exact dice probability) and the rounds the bank ran out, with Wilson
/// 95% bounds.
pub fn write_outcomes<W: Write>(w: W, table: &Table, t: &TableTally) -> std::io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record([
        "seat",
        "event",
        "count",
        "probability",
        "probability_ci95_low",
        "probability_ci95_high",
        "exact",
    ])?;
    let throws = action_pile_throws();
    let mut row = |seat: String, event: &str, count: u64, exact: Option<f64>| {
        let b = wilson(count, t.rounds, 0.95);
        out.write_record([
            seat,
            event.to_string(),
            count.to_string(),
            fixed(count as f64 / t.rounds as f64),
            fixed(b.low),
            fixed(b.high),
            exact.map_or("-".to_string(), fixed),
        ])
    };
    row("table".into(), "bank ran out", t.bank_ran_out, None)?;
    for (seat, s) in t.seats.iter().enumerate() {
        let offset = (seat + SEATS - table.layout.dealer) % SEATS;
        let name = (seat + 1).to_string();
        row(
            name.clone(),
            "action pile",
            s.action_pile,
            Some(f64::from(throws[offset]) / 216.0),
        )?;
        if seat == table.layout.dealer || table.layout.bets[seat].is_empty() {
            continue;
        }
        let results = |r: BetResult| s.outcomes.with_result(r);
        for (event, count) in [
            ("win", results(BetResult::Paid)),
            ("push", results(BetResult::Pushed)),
            ("loss", results(BetResult::Lost)),
            ("  of which fouls", s.outcomes.get(Outcome::Foul)),
            ("no action", s.no_action),
            ("partial action", s.partial),
        ] {
            row(name.clone(), event, count, None)?;
        }
    }
    out.flush()
}
