//! The reports of a table run, pure functions of the table and its integer tally:
//!
//! - `summary.csv`: per variant, one row per seat (with a rotating player-dealer: as a player,
//!   as the player-dealer, and over whole rotations), the player-dealer position (whoever
//!   banks), and the card room. Every EV is labelled before or after collection, with its unit
//!   in the column name (chips per round, per chip of action, chips per hour).
//! - `outcomes.csv`: counts with Wilson bounds, their denominators, and exact probabilities
//!   where known.
//! - `rotation.csv`: each seat's offers, declines, ineligible offers and hands banked per cycle
//!   of the rotation, and the rounds it banked in the run.
//! - `breakeven.csv`: the solver: for each target (the player-dealer position, each seat) and
//!   each free part of the collection, the value that brings the target's EV after collection
//!   to zero, with its interval.
//! - `paired.csv` (varied runs only): each pair of variants' differences on the same deals,
//!   with paired intervals.
//!
//! Results over whole rotations are stratified by the player-dealer's seat, each stratum
//! weighted by its exact share of the rotation's cycle (`report::stats::role_stats`), so they
//! describe whole cycles whatever the number of rounds.

use std::io::Write;

use super::fixed;
use super::stats::{
    Interval, RoleStats, SeatStratum, StratumSums, breakeven, paired_correlation, role_stats,
    stratified_mean, wilson, z,
};
use crate::engine::table::{
    MICROS, PairStratum, SEATS, Table, TableTally, Unknown, Variant, VariantTally,
    action_pile_throws, bank_text, joint_weights,
};
use crate::game::wager::{BetResult, Outcome};

/// Which of a seat's results a row holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Every round (a fixed player-dealer, or over whole rotations).
    Whole,
    /// The rounds the seat played against another seat's bank.
    AsPlayer,
    /// The rounds the seat banked.
    AsDealer,
}

/// One row of `summary.csv` (before the room's).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// "1" to "7", or "dealer" for the player-dealer position.
    pub seat: String,
    pub role: String,
    pub bets: String,
    pub bank: String,
    pub role_kind: Option<Role>,
    /// The exact share of the rounds this row covers.
    pub share: f64,
    pub stats: Option<RoleStats>,
}

/// Chips a round from micro-chips.
fn chips(micros: f64) -> f64 {
    micros / MICROS as f64
}

/// A seat's strata in `role`, each rounds-banked-by-one-seat stratum weighted by its share of
/// the cycle (within the role).
pub fn seat_strata<'a>(
    v: &Variant,
    t: &'a VariantTally,
    seat: usize,
    role: Role,
) -> Vec<SeatStratum<'a>> {
    let (hands, length) = v.weights();
    let banked = hands[seat];
    (0..SEATS)
        .filter_map(|d| {
            let weight = match role {
                Role::Whole => hands[d] as f64 / length as f64,
                Role::AsDealer if d == seat => 1.0,
                Role::AsPlayer if d != seat && length > banked => {
                    hands[d] as f64 / (length - banked) as f64
                }
                _ => 0.0,
            };
            (weight > 0.0).then(|| SeatStratum {
                weight,
                rounds: t.by_dealer[d].rounds,
                seat: &t.by_dealer[d].seats[seat],
                fee_micros: v.fees_when(d)[seat],
            })
        })
        .collect()
}

/// The player-dealer position's strata: in each, the banking seat.
pub fn position_strata<'a>(v: &Variant, t: &'a VariantTally) -> Vec<SeatStratum<'a>> {
    let (hands, length) = v.weights();
    (0..SEATS)
        .filter(|&d| hands[d] > 0)
        .map(|d| SeatStratum {
            weight: hands[d] as f64 / length as f64,
            rounds: t.by_dealer[d].rounds,
            seat: &t.by_dealer[d].seats[d],
            fee_micros: v.fees_when(d)[d],
        })
        .collect()
}

/// The card room's collection, chips per round, over whole cycles.
pub fn room_collection(v: &Variant) -> f64 {
    let (hands, length) = v.weights();
    let micros: f64 = (0..SEATS)
        .map(|d| hands[d] as f64 * v.fees_when(d).iter().sum::<u128>() as f64)
        .sum();
    chips(micros) / length as f64
}

/// The summary rows of variant `i`.
pub fn rows(table: &Table, i: usize, t: &TableTally) -> Vec<Row> {
    let v = &table.variants[i];
    let vt = &t.variants[i];
    let stats = |strata: Vec<SeatStratum>| role_stats(&strata, MICROS);
    let (hands, length) = v.weights();
    let bank = bank_text(v.bank);
    let mut rows = Vec::new();
    for (seat, &banked_hands) in hands.iter().enumerate() {
        let name = (seat + 1).to_string();
        let bets = v.layout.bets_text(seat);
        let kind = match v.layout.bets[seat].len() {
            0 => "empty",
            1 => "player",
            _ => "player+backline",
        };
        let row = |role: String, kind: Option<Role>, bank: String, share: f64| Row {
            seat: name.clone(),
            role,
            bets: bets.clone(),
            bank,
            role_kind: kind,
            share,
            stats: stats(seat_strata(v, vt, seat, kind.unwrap_or(Role::Whole))),
        };
        if !v.rotation.rotates() {
            let is_dealer = v.layout.dealer == Some(seat);
            let role = if is_dealer { "player-dealer" } else { kind };
            let bank = if is_dealer { bank.clone() } else { "-".into() };
            rows.push(row(role.into(), Some(Role::Whole), bank, 1.0));
            continue;
        }
        if !v.layout.has_bets(seat) {
            rows.push(row("empty".into(), Some(Role::Whole), "-".into(), 1.0));
            continue;
        }
        let banked = banked_hands as f64 / length as f64;
        let own_bank = if banked_hands > 0 {
            bank.clone()
        } else {
            "-".into()
        };
        rows.push(row(
            "as player".to_string(),
            Some(Role::AsPlayer),
            "-".into(),
            1.0 - banked,
        ));
        rows.push(row(
            "as player-dealer".to_string(),
            Some(Role::AsDealer),
            own_bank.clone(),
            banked,
        ));
        rows.push(row(
            "whole rotation".to_string(),
            Some(Role::Whole),
            own_bank,
            1.0,
        ));
    }
    rows.push(Row {
        seat: "dealer".into(),
        role: "player-dealer position".into(),
        bets: "-".into(),
        bank,
        role_kind: None,
        share: 1.0,
        stats: stats(position_strata(v, vt)),
    });
    rows
}

fn opt(x: Option<f64>) -> String {
    x.map_or("-".to_string(), fixed)
}

/// The columns of `summary.csv`.
pub const SUMMARY_COLUMNS: [&str; 24] = [
    "variant",
    "seat",
    "role",
    "bets",
    "bank",
    "rounds",
    "share_of_rounds",
    "action_chips_per_round",
    "ev_before_collection_chips_per_round",
    "ev_before_collection_chips_per_round_ci95_low",
    "ev_before_collection_chips_per_round_ci95_high",
    "ev_before_collection_per_chip_of_action",
    "ev_before_collection_per_chip_of_action_ci95_low",
    "ev_before_collection_per_chip_of_action_ci95_high",
    "collection_chips_per_round",
    "ev_after_collection_chips_per_round",
    "ev_after_collection_chips_per_round_ci95_low",
    "ev_after_collection_chips_per_round_ci95_high",
    "ev_after_collection_per_chip_of_action",
    "ev_after_collection_chips_per_hour",
    "collection_chips_per_hour",
    "no_action_share",
    "partial_action_share",
    "standard_error_chips_per_round",
];

/// `summary.csv`: per variant, each seat's rows, the player-dealer position and the card room.
pub fn write_summary<W: Write>(w: W, table: &Table, t: &TableTally) -> std::io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record(SUMMARY_COLUMNS)?;
    let hour = f64::from(table.hands_per_hour);
    for (i, v) in table.variants.iter().enumerate() {
        for row in rows(table, i, t) {
            let per_hour =
                row.role_kind != Some(Role::AsPlayer) && row.role_kind != Some(Role::AsDealer);
            let hourly = |x: f64| {
                if per_hour {
                    fixed(x * hour)
                } else {
                    "-".into()
                }
            };
            let mut fields = vec![v.label.clone(), row.seat, row.role, row.bets, row.bank];
            match row.stats {
                Some(s) => fields.extend([
                    s.rounds.to_string(),
                    fixed(row.share),
                    fixed(s.action_per_round),
                    fixed(s.ev_before),
                    fixed(s.ev_before_ci95.low),
                    fixed(s.ev_before_ci95.high),
                    opt(s.ev_before_per_action),
                    opt(s.ev_before_per_action_ci95.map(|i| i.low)),
                    opt(s.ev_before_per_action_ci95.map(|i| i.high)),
                    fixed(s.collection),
                    fixed(s.ev_after),
                    fixed(s.ev_after_ci95.low),
                    fixed(s.ev_after_ci95.high),
                    opt(s.ev_after_per_action),
                    hourly(s.ev_after),
                    hourly(s.collection),
                    fixed(s.no_action_share),
                    fixed(s.partial_share),
                    fixed(s.se),
                ]),
                None => {
                    fields.extend(["0".to_string(), fixed(row.share)]);
                    fields.extend(std::iter::repeat_n("-".to_string(), 17));
                }
            }
            out.write_record(fields)?;
        }
        let room = room_collection(v);
        let dash = || "-".to_string();
        let mut row = vec![
            v.label.clone(),
            "room".into(),
            "card room".into(),
            dash(),
            dash(),
        ];
        row.extend([t.rounds.to_string(), fixed(1.0)]);
        row.extend(std::iter::repeat_n(dash(), 7));
        row.push(fixed(room));
        row.extend(std::iter::repeat_n(dash(), 5));
        row.push(fixed(room * hour));
        row.extend(std::iter::repeat_n(dash(), 3));
        out.write_record(row)?;
    }
    out.flush()
}

/// `outcomes.csv`: per variant, the rounds the bank ran out, each seat's action pile (with its
/// exact probability given the rounds each seat banked), and each seat's results in the rounds
/// it played: the setter's win, push, loss and fouls, no action and partial action. Wilson 95%
/// bounds; `out_of` is each count's denominator.
pub fn write_outcomes<W: Write>(w: W, table: &Table, t: &TableTally) -> std::io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record([
        "variant",
        "seat",
        "event",
        "count",
        "out_of",
        "probability",
        "probability_ci95_low",
        "probability_ci95_high",
        "exact",
    ])?;
    let throws = action_pile_throws();
    for (v, vt) in table.variants.iter().zip(&t.variants) {
        let mut row = |seat: String, event: &str, count: u64, n: u64, exact: Option<f64>| {
            let (p, b) = match n {
                0 => ("-".to_string(), None),
                n => (fixed(count as f64 / n as f64), Some(wilson(count, n, 0.95))),
            };
            out.write_record([
                v.label.clone(),
                seat,
                event.to_string(),
                count.to_string(),
                n.to_string(),
                p,
                opt(b.map(|b| b.low)),
                opt(b.map(|b| b.high)),
                opt(exact),
            ])
        };
        let ran_out: u64 = vt.by_dealer.iter().map(|s| s.bank_ran_out).sum();
        row("table".into(), "bank ran out", ran_out, t.rounds, None)?;
        for seat in 0..SEATS {
            let name = (seat + 1).to_string();
            let total = vt.seat_total(seat);
            let exact: f64 = (0..SEATS)
                .map(|d| {
                    let share = vt.by_dealer[d].rounds as f64 / t.rounds as f64;
                    share * f64::from(throws[(seat + SEATS - d) % SEATS]) / 216.0
                })
                .sum();
            row(
                name.clone(),
                "action pile",
                total.action_pile,
                t.rounds,
                Some(exact),
            )?;
            if !v.layout.has_bets(seat) {
                continue;
            }
            let played = t.rounds - vt.by_dealer[seat].rounds;
            let results = |r: BetResult| total.outcomes.with_result(r);
            for (event, count) in [
                ("win", results(BetResult::Paid)),
                ("push", results(BetResult::Pushed)),
                ("loss", results(BetResult::Lost)),
                ("  of which fouls", total.outcomes.get(Outcome::Foul)),
                ("no action", total.no_action),
                ("partial action", total.partial),
            ] {
                row(name.clone(), event, count, played, None)?;
            }
        }
    }
    out.flush()
}

/// `rotation.csv`: per variant and seat, the rotation's policy and what one cycle of it gives
/// (offers, accepted, declined, ineligible, hands banked), and the rounds banked in this run.
pub fn write_rotation<W: Write>(w: W, table: &Table, t: &TableTally) -> std::io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record([
        "variant",
        "seat",
        "policy",
        "bets_to_bank",
        "offers_per_cycle",
        "accepted_per_cycle",
        "declined_per_cycle",
        "ineligible_per_cycle",
        "hands_banked_per_cycle",
        "cycle_hands",
        "cycle_orbits",
        "share_of_hands_banked",
        "rounds_banked",
    ])?;
    for (v, vt) in table.variants.iter().zip(&t.variants) {
        let (hands, length) = v.weights();
        for (seat, &banked) in hands.iter().enumerate() {
            let o = v.cycle.offers[seat];
            let (policy, bets_to_bank) = match v.rotation.rotates() {
                true => (
                    v.rotation.seat_text(&v.layout, seat),
                    v.bets_to_bank.to_string(),
                ),
                false if v.layout.dealer == Some(seat) => ("fixed".into(), "-".into()),
                false => ("-".into(), "-".into()),
            };
            out.write_record([
                v.label.clone(),
                (seat + 1).to_string(),
                policy,
                bets_to_bank,
                o.offers.to_string(),
                o.accepted.to_string(),
                o.declined.to_string(),
                o.ineligible.to_string(),
                banked.to_string(),
                length.to_string(),
                v.cycle.orbits.to_string(),
                fixed(banked as f64 / length as f64),
                vt.by_dealer[seat].rounds.to_string(),
            ])?;
        }
    }
    out.flush()
}

/// One break-even solution.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    pub target: String,
    pub unknown: Unknown,
    pub value: f64,
    pub ci95: Interval,
    /// The target's EV before collection, chips per round.
    pub ev_before: f64,
    /// The collection the target pays per round from the parts left as given.
    pub others: f64,
    /// Units of the unknown the target pays per round.
    pub units: f64,
}

/// The break-even solutions of variant `i`: for the player-dealer position, each seat with bets
/// (over the whole run or rotation) and, with a rotation, each seat as the player-dealer; for
/// each part of the collection it pays.
pub fn solutions(table: &Table, i: usize, t: &TableTally) -> Vec<Solution> {
    let v = &table.variants[i];
    let vt = &t.variants[i];
    let (hands, length) = v.weights();
    /// A target: its name, its strata, and its seat (None: the player-dealer position, the
    /// banking seat of each stratum); `as_dealer`: only the rounds it banks.
    struct Target<'a> {
        name: String,
        strata: Vec<SeatStratum<'a>>,
        seat: Option<usize>,
        as_dealer: bool,
    }
    let mut targets = vec![Target {
        name: "player-dealer position".into(),
        strata: position_strata(v, vt),
        seat: None,
        as_dealer: false,
    }];
    for seat in (0..SEATS).filter(|&s| v.layout.has_bets(s)) {
        let name = format!("seat {}", seat + 1);
        targets.push(Target {
            name: name.clone(),
            strata: seat_strata(v, vt, seat, Role::Whole),
            seat: Some(seat),
            as_dealer: false,
        });
        if v.rotation.rotates() && hands[seat] > 0 {
            targets.push(Target {
                name: format!("{name} as player-dealer"),
                strata: seat_strata(v, vt, seat, Role::AsDealer),
                seat: Some(seat),
                as_dealer: true,
            });
        }
    }
    let mut out = Vec::new();
    for target in targets {
        let Some(s) = role_stats(&target.strata, MICROS) else {
            continue;
        };
        // The weight of each player-dealer's seat within this target's rounds.
        let weights: Vec<(usize, f64)> = match (target.as_dealer, target.seat) {
            (true, Some(seat)) => vec![(seat, 1.0)],
            _ => (0..SEATS)
                .filter(|&d| hands[d] > 0)
                .map(|d| (d, hands[d] as f64 / length as f64))
                .collect(),
        };
        for unknown in Unknown::ALL {
            let (mut units, mut others) = (0.0, 0.0);
            for &(d, w) in &weights {
                let seat = target.seat.unwrap_or(d);
                let (seat_units, seat_others) = unknown.line(&v.fees, &v.layout, d, v.bank);
                units += w * seat_units[seat] as f64;
                others += w * seat_others[seat] as f64;
            }
            let others = chips(others);
            if let Some((value, ci95)) = breakeven(s.ev_before, s.ev_before_ci95, others, units) {
                out.push(Solution {
                    target: target.name.clone(),
                    unknown,
                    value,
                    ci95,
                    ev_before: s.ev_before,
                    others,
                    units,
                });
            }
        }
    }
    out
}

/// `breakeven.csv`: per variant, each solution with its interval and, when it is a fee a
/// schedule can hold, the schedule text that puts it back into a run.
pub fn write_breakeven<W: Write>(w: W, table: &Table, t: &TableTally) -> std::io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record([
        "variant",
        "target",
        "solve_for",
        "unit",
        "breakeven",
        "breakeven_ci95_low",
        "breakeven_ci95_high",
        "ev_before_collection_chips_per_round",
        "other_collection_chips_per_round",
        "fee_units_per_round",
        "as_schedule",
    ])?;
    for (i, v) in table.variants.iter().enumerate() {
        for s in solutions(table, i, t) {
            out.write_record([
                v.label.clone(),
                s.target,
                s.unknown.name().to_string(),
                s.unknown.unit().to_string(),
                fixed(s.value),
                fixed(s.ci95.low),
                fixed(s.ci95.high),
                fixed(s.ev_before),
                fixed(s.others),
                fixed(s.units),
                (s.unknown.schedule_text(s.value)).unwrap_or_else(|| "-".into()),
            ])?;
        }
    }
    out.flush()
}

/// A paired difference of one subject between two variants on the same deals (a minus b).
#[derive(Clone, Debug, PartialEq)]
pub struct Paired {
    pub a: usize,
    pub b: usize,
    pub subject: String,
    /// Net before collection, chips per round, its paired standard error and 95% interval.
    pub before: f64,
    pub se: f64,
    pub before_ci95: Interval,
    /// The standard error two independent runs of this size would give (None for the room).
    pub independent_se: Option<f64>,
    pub correlation: Option<f64>,
    /// Collection paid in a minus in b, chips per round (exact: no sampling error).
    pub collection_paid: f64,
    /// After collection: `before - collection_paid`, same standard error.
    pub after: f64,
    pub after_ci95: Interval,
}

/// Every pair's paired differences: each seat with bets or a bank in either variant, the
/// player-dealer position, and the card room (its collection; no sampling error).
pub fn paired(table: &Table, t: &TableTally) -> Vec<Paired> {
    let mut out = Vec::new();
    let z95 = z(0.95);
    let around = |m: f64, se: f64| Interval {
        low: m - z95 * se,
        high: m + z95 * se,
    };
    for (p, (a, b)) in table.pairs().into_iter().enumerate() {
        let (va, vb) = (&table.variants[a], &table.variants[b]);
        let (ta, tb) = (&t.variants[a], &t.variants[b]);
        let pair = &t.pairs[p];
        let (joint, length) = joint_weights(&va.cycle, &vb.cycle);
        let stratum = |key: [u8; 2]| pair.strata.iter().find(|s| s.dealers == key);
        let fee_difference = |seat_a: &dyn Fn(usize) -> usize, seat_b: &dyn Fn(usize) -> usize| {
            let micros: f64 = (joint.iter())
                .map(|&([da, db], c)| {
                    let (da, db) = (usize::from(da), usize::from(db));
                    let fa = va.fees_when(da)[seat_a(da)] as f64;
                    let fb = vb.fees_when(db)[seat_b(db)] as f64;
                    c as f64 * (fa - fb)
                })
                .sum();
            chips(micros) / length as f64
        };
        let mut push = |subject: String,
                        sums: &dyn Fn(&PairStratum) -> (i128, u128),
                        se_pair: (Option<RoleStats>, Option<RoleStats>),
                        pooled: ((i128, u128), (i128, u128)),
                        collection_paid: f64| {
            let strata: Option<Vec<StratumSums>> = (joint.iter())
                .map(|&(key, c)| {
                    let s = stratum(key)?;
                    let (sum, squares) = sums(s);
                    Some(StratumSums {
                        weight: c as f64 / length as f64,
                        n: s.rounds,
                        sum,
                        squares,
                    })
                })
                .collect();
            let Some((before, se)) = strata.and_then(|s| stratified_mean(&s)) else {
                return;
            };
            let independent_se = match se_pair {
                (Some(x), Some(y)) => Some((x.se * x.se + y.se * y.se).sqrt()),
                _ => None,
            };
            let squares_difference: u128 = pair.strata.iter().map(|s| sums(s).1).sum();
            let correlation = paired_correlation(t.rounds, pooled.0, pooled.1, squares_difference);
            let after = before - collection_paid;
            out.push(Paired {
                a,
                b,
                subject,
                before,
                se,
                before_ci95: around(before, se),
                independent_se,
                correlation,
                collection_paid,
                after,
                after_ci95: around(after, se),
            });
        };
        for seat in 0..SEATS {
            let takes_part = |v: &Variant| v.layout.has_bets(seat) || v.cycle.hands()[seat] > 0;
            if !takes_part(va) && !takes_part(vb) {
                continue;
            }
            let whole = |v: &Variant, vt: &VariantTally| {
                role_stats(&seat_strata(v, vt, seat, Role::Whole), MICROS)
            };
            let pooled = |vt: &VariantTally| {
                let s = vt.seat_total(seat);
                (s.net, s.net_squared)
            };
            push(
                format!("seat {}", seat + 1),
                &|s| (s.seats[seat].sum, s.seats[seat].squares),
                (whole(va, ta), whole(vb, tb)),
                (pooled(ta), pooled(tb)),
                fee_difference(&|_| seat, &|_| seat),
            );
        }
        let position = |v: &Variant, vt: &VariantTally| role_stats(&position_strata(v, vt), MICROS);
        let pooled = |vt: &VariantTally| {
            let squares: u128 = (vt.by_dealer.iter().enumerate())
                .map(|(d, s)| s.seats[d].net_squared)
                .sum();
            (vt.bank_net(), squares)
        };
        push(
            "player-dealer position".into(),
            &|s| (s.player_dealer.sum, s.player_dealer.squares),
            (position(va, ta), position(vb, tb)),
            (pooled(ta), pooled(tb)),
            fee_difference(&|d| d, &|d| d),
        );
        let income = room_collection(va) - room_collection(vb);
        out.push(Paired {
            a,
            b,
            subject: "card room".into(),
            before: 0.0,
            se: 0.0,
            before_ci95: around(0.0, 0.0),
            independent_se: None,
            correlation: None,
            collection_paid: -income,
            after: income,
            after_ci95: around(income, 0.0),
        });
    }
    out
}

/// `paired.csv`: every pair of variants' differences (a minus b) on the same deals.
pub fn write_paired<W: Write>(w: W, table: &Table, t: &TableTally) -> std::io::Result<()> {
    let mut out = csv::Writer::from_writer(w);
    out.write_record([
        "variant_a",
        "variant_b",
        "subject",
        "difference_before_collection_chips_per_round",
        "difference_before_collection_se",
        "difference_before_collection_ci95_low",
        "difference_before_collection_ci95_high",
        "independent_runs_se",
        "correlation",
        "collection_paid_difference_chips_per_round",
        "difference_after_collection_chips_per_round",
        "difference_after_collection_ci95_low",
        "difference_after_collection_ci95_high",
        "significant_after_collection",
    ])?;
    for p in paired(table, t) {
        let significant = p.after_ci95.low > 0.0 || p.after_ci95.high < 0.0;
        out.write_record([
            table.variants[p.a].label.clone(),
            table.variants[p.b].label.clone(),
            p.subject,
            fixed(p.before),
            fixed(p.se),
            fixed(p.before_ci95.low),
            fixed(p.before_ci95.high),
            opt(p.independent_se),
            opt(p.correlation),
            fixed(p.collection_paid),
            fixed(p.after),
            fixed(p.after_ci95.low),
            fixed(p.after_ci95.high),
            (if significant { "yes" } else { "no" }).to_string(),
        ])?;
    }
    out.flush()
}
