//! The card room's collection (seed 000 rules 14, 16 and 63): the room is never a party to a
//! bet; it takes fees, in advance, whatever the hand does. Three parts:
//!
//! - **bets**: every bet pays a fee by its size, from a schedule of steps (`1=1,60=2,200=3`); a
//!   step's fee is a number of chips (fractions allowed: `6.18`) or a percent of the bet
//!   (`1.25%`);
//! - **bank**: the player-dealer pays a fee by its bank in action, from its own schedule or the
//!   bets' (`same`). The bank in action is the bank, but at most the bets it faces: money the
//!   player-dealer puts up beyond every bet at the table can never get action (rule 13) and an
//!   unlimited bank puts up exactly the bets it faces;
//! - **time**: every seated player (a seat with bets, and the player-dealer's seat) pays a
//!   fixed amount per hand, as rooms that charge by the half hour do (a charge of C per half
//!   hour at H hands an hour is 2C/H a hand).
//!
//! Units: fees are integers in micro-chips ([`MICROS`] to a chip): a flat fee is written with
//! up to six decimals, a percent with up to four, so a percent of a whole-chip bet is a whole
//! number of micro-chips. Fees never depend on the cards, only on who banks and the seating, so
//! a run's tallies hold the nets before collection and every after-collection figure is the
//! exact integer `net x MICROS - fees` made in the report; one run can thus be reported (and
//! solved) under any collection.
//!
//! Invariants: a [`Collection`]'s steps have strictly increasing minimums; a fee is at most
//! [`MAX_CHIPS`] chips and a percent at most 100%; every fee is linear in each [`Unknown`] the
//! solver frees, with the coefficients of [`Unknown::line`] (read off the fees the options would
//! set, so that a break-even value put back as an option charges exactly what was solved for).

use std::fmt;

use thiserror::Error;

use super::seating::{Layout, MAX_CHIPS, SEATS};

/// Micro-chips in a chip: the unit of every fee.
pub const MICROS: u64 = 1_000_000;
/// Decimals of a flat fee in chips.
const FEE_DECIMALS: usize = 6;
/// Decimals of a percent fee.
const PERCENT_DECIMALS: usize = 4;

/// Why a collection option cannot be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum CollectionError {
    #[error(
        "collection schedule '{0}': expected 'none', one fee, or MIN=FEE steps with increasing MIN; a FEE is chips (up to 6 decimals) or a percent of the amount (up to 4 decimals, at most 100%), e.g. '1=1,60=2.5,200=1.5%'"
    )]
    Schedule(String),
    #[error(
        "time collection '{0}': expected chips per seated player per hand, 0 to {MAX_CHIPS} with up to 6 decimals, e.g. '0.5'"
    )]
    Time(String),
}

/// One step's fee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fee {
    /// A number of micro-chips.
    Flat(u64),
    /// Micro-chips per chip of the amount (parts per million: 1% is 10,000).
    PerChip(u64),
}

impl Fee {
    /// The fee in micro-chips on an amount of `chips` (u128: a per-chip fee on an unlimited
    /// bank facing many bets of up to [`MAX_CHIPS`] passes u64).
    pub fn on(self, chips: u64) -> u128 {
        match self {
            Fee::Flat(micros) => u128::from(micros),
            Fee::PerChip(ppm) => u128::from(chips) * u128::from(ppm),
        }
    }

    fn parse(text: &str) -> Option<Fee> {
        match text.strip_suffix('%') {
            Some(percent) => {
                // A percent with d decimals is ppm = value x 10^4.
                let ppm = parse_decimal(percent.trim(), PERCENT_DECIMALS)?;
                (ppm <= 100 * 10_000).then_some(Fee::PerChip(ppm))
            }
            None => {
                let micros = parse_decimal(text, FEE_DECIMALS)?;
                (micros <= MAX_CHIPS * MICROS).then_some(Fee::Flat(micros))
            }
        }
    }
}

impl fmt::Display for Fee {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Fee::Flat(micros) => write!(f, "{}", decimal_text(micros, FEE_DECIMALS)),
            Fee::PerChip(ppm) => write!(f, "{}%", decimal_text(ppm, PERCENT_DECIMALS)),
        }
    }
}

/// A non-negative decimal with at most `decimals` decimals, as an integer of 10^-decimals.
fn parse_decimal(text: &str, decimals: usize) -> Option<u64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(fraction) || fraction.len() > decimals {
        return None;
    }
    let scale = 10u64.pow(decimals as u32);
    let whole: u64 = whole.parse().ok()?;
    let fraction: u64 = format!("{fraction:0<decimals$}").parse().ok()?;
    whole.checked_mul(scale)?.checked_add(fraction)
}

/// An integer of 10^-decimals as the shortest decimal ("2", "6.18", "0.000001").
fn decimal_text(value: u64, decimals: usize) -> String {
    let scale = 10u64.pow(decimals as u32);
    let (whole, fraction) = (value / scale, value % scale);
    if fraction == 0 {
        return whole.to_string();
    }
    let text = format!("{whole}.{fraction:0decimals$}");
    text.trim_end_matches('0').to_string()
}

/// Micro-chips as chips with six decimals ("6.180000", "-0.500000").
pub fn micros_text(micros: i128) -> String {
    let sign = if micros < 0 { "-" } else { "" };
    let m = micros.unsigned_abs();
    let scale = u128::from(MICROS);
    format!("{sign}{}.{:06}", m / scale, m % scale)
}

/// A fee schedule by amount: an amount of at least `min` chips (and below the next step) pays
/// that step's fee; an amount below the first step pays nothing. The default is no fee.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Collection {
    /// `(min, fee)` steps, `min` strictly increasing.
    pub steps: Vec<(u64, Fee)>,
}

impl Collection {
    /// Parses `none`, one fee (paid on every amount of at least 1 chip), or `MIN=FEE,...` with
    /// increasing MIN; a FEE is chips (`2`, `6.18`) or a percent of the amount (`1.5%`).
    pub fn parse(text: &str) -> Result<Collection, CollectionError> {
        let trimmed = text.trim();
        if trimmed.eq_ignore_ascii_case("none") {
            return Ok(Collection::default());
        }
        let bad = || CollectionError::Schedule(text.to_string());
        if !trimmed.contains('=') {
            let fee = Fee::parse(trimmed).ok_or_else(bad)?;
            return Ok(Collection {
                steps: vec![(1, fee)],
            });
        }
        let mut steps: Vec<(u64, Fee)> = Vec::new();
        for pair in trimmed.split(',') {
            let (min, fee) = pair.split_once('=').ok_or_else(bad)?;
            let min: u64 = min.trim().parse().map_err(|_| bad())?;
            let fee = Fee::parse(fee.trim()).ok_or_else(bad)?;
            if steps.last().is_some_and(|&(m, _)| m >= min) {
                return Err(bad());
            }
            steps.push((min, fee));
        }
        Ok(Collection { steps })
    }

    /// The fee in micro-chips on an amount of `chips`.
    pub fn fee_micros(&self, chips: u64) -> u128 {
        self.steps
            .iter()
            .rev()
            .find(|&&(min, _)| chips >= min)
            .map_or(0, |&(_, fee)| fee.on(chips))
    }
}

impl fmt::Display for Collection {
    /// The canonical text: `none`, or `MIN=FEE` steps.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.steps.is_empty() {
            return write!(f, "none");
        }
        let steps: Vec<String> = (self.steps.iter())
            .map(|(min, fee)| format!("{min}={fee}"))
            .collect();
        write!(f, "{}", steps.join(","))
    }
}

/// Parses a time collection: chips per seated player per hand (`0`, `0.5`), in micro-chips.
pub fn parse_time(text: &str) -> Result<u64, CollectionError> {
    (parse_decimal(text.trim(), FEE_DECIMALS))
        .filter(|&m| m <= MAX_CHIPS * MICROS)
        .ok_or_else(|| CollectionError::Time(text.to_string()))
}

/// The three parts of a collection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Bets,
    Bank,
    Time,
}

/// Everything the card room collects.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fees {
    /// The fee on each bet.
    pub bets: Collection,
    /// The player-dealer's fee on its bank in action (None: the bets' schedule).
    pub bank: Option<Collection>,
    /// Micro-chips per seated player per hand.
    pub time: u64,
}

impl Fees {
    /// The schedule the player-dealer's bank pays by.
    pub fn bank_schedule(&self) -> &Collection {
        self.bank.as_ref().unwrap_or(&self.bets)
    }

    /// What each seat pays for one hand banked by `dealer` with `bank` (None: unlimited), in
    /// micro-chips: the player-dealer its bank's fee and the time fee, a seat with bets each
    /// bet's fee and the time fee, an empty seat nothing.
    pub fn per_seat(&self, layout: &Layout, dealer: usize, bank: Option<u64>) -> [u128; SEATS] {
        std::array::from_fn(|s| {
            let time = u128::from(self.time);
            if s == dealer {
                let in_action = bank_in_action(layout, dealer, bank);
                self.bank_schedule().fee_micros(in_action) + time
            } else if layout.has_bets(s) {
                let bets = layout.bets[s].iter().map(|&b| self.bets.fee_micros(b));
                bets.sum::<u128>() + time
            } else {
                0
            }
        })
    }
}

/// The bank the player-dealer on `dealer` can have in action: its bank, but at most the bets
/// it faces (an unlimited bank: exactly those).
pub fn bank_in_action(layout: &Layout, dealer: usize, bank: Option<u64>) -> u64 {
    let facing = layout.bets_facing(dealer);
    bank.map_or(facing, |b| b.min(facing))
}

/// A part of the collection the break-even solver leaves free: the value that, with the rest of
/// the collection as given, brings a target's EV after collection to zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unknown {
    /// Every bet pays the same number of chips (replacing the bets' schedule).
    BetFee,
    /// Every bet pays a fraction of itself.
    BetFeePerChip,
    /// The player-dealer pays the same number of chips on every hand it banks (replacing the
    /// bank's schedule).
    BankFee,
    /// The player-dealer pays a fraction of its bank in action.
    BankFeePerChip,
    /// Every seated player pays the same number of chips per hand.
    TimeFee,
}

impl Unknown {
    pub const ALL: [Unknown; 5] = [
        Unknown::BetFee,
        Unknown::BetFeePerChip,
        Unknown::BankFee,
        Unknown::BankFeePerChip,
        Unknown::TimeFee,
    ];

    /// The part of the collection it replaces.
    pub fn part(self) -> Part {
        match self {
            Unknown::BetFee | Unknown::BetFeePerChip => Part::Bets,
            Unknown::BankFee | Unknown::BankFeePerChip => Part::Bank,
            Unknown::TimeFee => Part::Time,
        }
    }

    /// Whether its value is a fraction of an amount (else chips).
    pub fn is_per_chip(self) -> bool {
        matches!(self, Unknown::BetFeePerChip | Unknown::BankFeePerChip)
    }

    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Unknown::BetFee => "bet fee",
            Unknown::BetFeePerChip => "bet fee per chip bet",
            Unknown::BankFee => "bank fee",
            Unknown::BankFeePerChip => "bank fee per chip of bank in action",
            Unknown::TimeFee => "time fee",
        }
    }

    /// The unit of its value in reports.
    pub fn unit(self) -> &'static str {
        match self {
            Unknown::BetFee => "chips per bet",
            Unknown::BetFeePerChip => "chips per chip bet",
            Unknown::BankFee => "chips per hand banked",
            Unknown::BankFeePerChip => "chips per chip of bank in action",
            Unknown::TimeFee => "chips per seated player per hand",
        }
    }

    /// The collection with this part replaced by one fee of `micros` (micro-chips, or parts
    /// per million of the amount for a per-chip unknown) on every amount of at least one chip,
    /// as `--collection`, `--bank-collection` or `--time-collection` would set it. With no
    /// schedule of its own (`same`) the bank pays by the bets' schedule, so freeing the bet fee
    /// frees the player-dealer's fee with it: the value put back moves both.
    fn with_value(self, fees: &Fees, micros: u64) -> Fees {
        let fee = match self.is_per_chip() {
            true => Fee::PerChip(micros),
            false => Fee::Flat(micros),
        };
        let schedule = Collection {
            steps: vec![(1, fee)],
        };
        let mut fees = fees.clone();
        match self.part() {
            Part::Bets => fees.bets = schedule,
            Part::Bank => fees.bank = Some(schedule),
            Part::Time => fees.time = micros,
        }
        fees
    }

    /// What each seat pays for one hand banked by `dealer`, as a line in this unknown's value:
    /// `(units, others)`, the fee being `others + value x units` micro-chips. `units` counts
    /// bets (with `same`, and 1 for the player-dealer), chips bet (with `same`, and its bank in
    /// action), 1 for the player-dealer, its bank in action, or 1 per seated player; `others` is
    /// what the parts left as given charge. Both are read off the fees the options would set at
    /// values 0 and 1, so they are the coefficients of the fee the options charge.
    pub fn line(
        self,
        fees: &Fees,
        layout: &Layout,
        dealer: usize,
        bank: Option<u64>,
    ) -> ([u128; SEATS], [u128; SEATS]) {
        let paid = |micros| (self.with_value(fees, micros)).per_seat(layout, dealer, bank);
        let (one, zero) = (paid(MICROS), paid(0));
        (
            std::array::from_fn(|s| (one[s] - zero[s]) / u128::from(MICROS)),
            zero,
        )
    }

    /// The value as collection text, when it is one a schedule can hold (a fee of at least 0,
    /// rounded to six decimals of a chip or four of a percent); None below 0.
    pub fn schedule_text(self, value: f64) -> Option<String> {
        if value.is_nan() || value < 0.0 || !value.is_finite() {
            return None;
        }
        Some(match self.is_per_chip() {
            true => {
                let ppm = (value * 1e6).round() as u64;
                (ppm <= 1_000_000).then(|| Fee::PerChip(ppm).to_string())?
            }
            false => Fee::Flat((value * MICROS as f64).round() as u64).to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fees_parse_exactly_into_micro_chips() {
        let c = Collection::parse("1=1, 60=2.5, 200=6.18, 1000=1.25%").unwrap();
        let fee = |b| c.fee_micros(b);
        assert_eq!(
            [fee(0), fee(1), fee(60), fee(200), fee(1000)],
            [0, 1_000_000, 2_500_000, 6_180_000, 12_500_000]
        );
        assert_eq!(c.to_string(), "1=1,60=2.5,200=6.18,1000=1.25%");
        assert_eq!(Collection::parse("0.000001").unwrap().fee_micros(7), 1);
        assert_eq!(Collection::parse("0.0001%").unwrap().fee_micros(7), 7);
        for bad in [
            "60=2,1=1",
            "60=",
            "1=-1",
            "1=0.0000001",
            "1=101%",
            "1=1.00001%",
            "2%x",
            "1=,",
        ] {
            assert!(Collection::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Collection::parse("none").unwrap().fee_micros(MAX_CHIPS), 0);
        assert_eq!(parse_time("0.5"), Ok(500_000));
        assert!(parse_time("-1").is_err());
    }

    /// A seat of 20 bets of the largest size against an unlimited bank: the bank has 2 x 10^13
    /// chips in action, and a per-chip unknown prices them at 100% (10^6 micro-chips a chip),
    /// 2 x 10^19 micro-chips, past u64 (once wrapped: a break-even of 20.6% for about 1.6%).
    #[test]
    fn fees_on_the_largest_seating_do_not_wrap() {
        let seat = vec![MAX_CHIPS.to_string(); 20].join("+");
        let layout = Layout::parse(&format!("D,{seat},-,-,-,-,-")).unwrap();
        let fees = Fees {
            bets: Collection::parse("1=1%").unwrap(),
            bank: Some(Collection::parse("1=1%").unwrap()),
            time: 0,
        };
        let chips = 20 * u128::from(MAX_CHIPS);
        let (units, _) = Unknown::BankFeePerChip.line(&fees, &layout, 0, None);
        assert_eq!(units[0], chips);
        let (units, _) = Unknown::BetFeePerChip.line(&fees, &layout, 0, None);
        assert_eq!(units[1], chips);
        // 1% of every chip: 10^4 micro-chips a chip, on each side.
        assert_eq!(fees.per_seat(&layout, 0, None)[..2], [chips * 10_000; 2]);
    }

    #[test]
    fn the_bank_pays_on_what_can_get_action() {
        let layout = Layout::parse("D,100,-,50+20,40,-,200").unwrap();
        assert_eq!(bank_in_action(&layout, 0, Some(300)), 300);
        assert_eq!(bank_in_action(&layout, 0, Some(1_000)), 410);
        assert_eq!(bank_in_action(&layout, 0, None), 410);
        let fees = Fees {
            bets: Collection::parse("1=1,60=2,200=3").unwrap(),
            bank: Some(Collection::parse("1=0.5%").unwrap()),
            time: 250_000,
        };
        let paid = fees.per_seat(&layout, 0, Some(300));
        let m = u128::from(MICROS);
        assert_eq!(
            paid,
            [
                m * 3 / 2 + m / 4,
                2 * m + m / 4,
                0,
                2 * m + m / 4,
                m + m / 4,
                0,
                3 * m + m / 4
            ]
        );
        // Each unknown's units times its value, plus the other parts, give the same fees.
        let flat = Fees {
            bank: Some(Collection::parse("1=1.5").unwrap()),
            ..fees.clone()
        };
        let (units, others) = Unknown::BankFee.line(&flat, &layout, 0, Some(300));
        let whole = flat.per_seat(&layout, 0, Some(300));
        for s in 0..SEATS {
            assert_eq!(whole[s], others[s] + units[s] * 3 * m / 2);
        }
    }

    /// What the solver assumes (the other parts plus units times the value) is what the value
    /// put back as its option charges, for every unknown, every seat and either bank schedule
    /// (with `same`, a bet fee put back is the player-dealer's fee too).
    #[test]
    fn a_value_put_back_as_its_option_charges_what_was_solved_for() {
        let layout = Layout::parse("D,100,-,50+20,40,-,200").unwrap();
        let bets = Collection::parse("1=1,60=2,200=3").unwrap();
        let own_bank = Some(Collection::parse("1=0.5%").unwrap());
        for bank_schedule in [None, own_bank] {
            let fees = Fees {
                bets: bets.clone(),
                bank: bank_schedule,
                time: 250_000,
            };
            for unknown in Unknown::ALL {
                let value = if unknown.is_per_chip() { 0.0123 } else { 2.75 };
                let text = unknown.schedule_text(value).unwrap();
                let mut put_back = fees.clone();
                match unknown.part() {
                    Part::Bets => put_back.bets = Collection::parse(&text).unwrap(),
                    Part::Bank => put_back.bank = Some(Collection::parse(&text).unwrap()),
                    Part::Time => put_back.time = parse_time(&text).unwrap(),
                }
                for (dealer, bank) in [(0, Some(300)), (0, None), (6, Some(1_000))] {
                    let (units, others) = unknown.line(&fees, &layout, dealer, bank);
                    let charged = put_back.per_seat(&layout, dealer, bank);
                    for s in 0..SEATS {
                        let solved = others[s] as f64 + units[s] as f64 * value * MICROS as f64;
                        assert!(
                            (charged[s] as f64 - solved).abs() < 1e-6,
                            "{unknown:?}, bank {:?}, dealer {dealer}, seat {s}: {} charged, {solved} solved",
                            fees.bank,
                            charged[s]
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn solved_values_become_schedules() {
        assert_eq!(
            Unknown::BankFee.schedule_text(6.1755704),
            Some("6.17557".into())
        );
        assert_eq!(
            Unknown::BankFeePerChip.schedule_text(0.0168654),
            Some("1.6865%".into())
        );
        assert_eq!(Unknown::BetFee.schedule_text(-0.2), None);
    }
}
