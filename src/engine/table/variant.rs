//! A table's options as text, and the variants they describe.
//!
//! A run plays one or more variants of one table on the same deals: without a varied option,
//! one variant ("base"); with `vary` (`bank=300,600,unlimited`, `seats=D,100,-,-,-,-,-;...`),
//! one variant per value of the varied option, every other option as given. Each variant is
//! checked on its own (seating, bank, collection, rotation and its cycle) before anything runs.
//!
//! Invariants: a [`Variant`] holds a seating, a bank, a collection and a rotation that fit
//! together, and the rotation's [`Cycle`] (a fixed player-dealer is a cycle of one hand); an
//! [`OptionError`] names the option (by its key in the run spec, never a command-line flag),
//! the value and, for a varied value, the variant.

use std::fmt;

use thiserror::Error;

use super::collection::{Collection, Fees, parse_time};
use super::rotation::{Cycle, Rotation, parse_min_bets};
use super::seating::{Layout, SEATS, SeatingError, parse_bank};

/// The most variants one run compares.
pub const MAX_VARIANTS: usize = 8;
/// Hands per hour when none are given.
pub const DEFAULT_HANDS_PER_HOUR: u32 = 30;
/// The most hands per hour.
pub const MAX_HANDS_PER_HOUR: u32 = 1_000;

/// A table's options, as written (the run spec's keys).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableOptions {
    /// Seven seats (None: the varied option gives them).
    pub seats: Option<String>,
    /// The player-dealer's bank (None: the varied option gives it).
    pub bank: Option<String>,
    pub collection: String,
    /// `same` or a schedule.
    pub bank_collection: String,
    pub time_collection: String,
    pub rotation: String,
    pub bets_to_bank: String,
    pub hands_per_hour: String,
    /// `KEY=V1;V2;...` (None: one variant).
    pub vary: Option<String>,
}

impl Default for TableOptions {
    fn default() -> TableOptions {
        TableOptions {
            seats: None,
            bank: None,
            collection: "none".into(),
            bank_collection: "same".into(),
            time_collection: "0".into(),
            rotation: "none".into(),
            bets_to_bank: super::rotation::DEFAULT_MIN_BETS.to_string(),
            hands_per_hour: DEFAULT_HANDS_PER_HOUR.to_string(),
            vary: None,
        }
    }
}

/// The options a run can vary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VaryKey {
    Bank,
    Seats,
    Collection,
    BankCollection,
    TimeCollection,
    Rotation,
    BetsToBank,
}

impl VaryKey {
    const ALL: [VaryKey; 7] = [
        VaryKey::Bank,
        VaryKey::Seats,
        VaryKey::Collection,
        VaryKey::BankCollection,
        VaryKey::TimeCollection,
        VaryKey::Rotation,
        VaryKey::BetsToBank,
    ];

    /// The option's key in a run spec.
    pub fn key(self) -> &'static str {
        match self {
            VaryKey::Bank => "bank",
            VaryKey::Seats => "seats",
            VaryKey::Collection => "collection",
            VaryKey::BankCollection => "bank_collection",
            VaryKey::TimeCollection => "time_collection",
            VaryKey::Rotation => "rotation",
            VaryKey::BetsToBank => "bets_to_bank",
        }
    }

    /// Whether its values never hold a comma (so commas may separate them).
    fn comma_free(self) -> bool {
        matches!(
            self,
            VaryKey::Bank | VaryKey::TimeCollection | VaryKey::BetsToBank
        )
    }
}

impl fmt::Display for VaryKey {
    /// The key as written in a variant's label (`bank`, `bank-collection`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.key().replace('_', "-"))
    }
}

/// A varied option and its values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vary {
    pub key: VaryKey,
    pub values: Vec<String>,
}

impl Vary {
    /// Parses `KEY=V1;V2;...` (`,` also separates the values of bank, time-collection and
    /// bets-to-bank, which hold no comma).
    pub fn parse(text: &str) -> Result<Vary, OptionError> {
        let bad = |why: String| OptionError::new("vary", format!("'{text}': {why}"));
        let keys: Vec<String> = VaryKey::ALL.iter().map(|k| k.to_string()).collect();
        let (name, values) = text.split_once('=').ok_or_else(|| {
            bad(format!(
                "expected KEY=V1;V2;... with KEY one of {}",
                keys.join(", ")
            ))
        })?;
        let name = name.trim().replace('_', "-");
        let key = (VaryKey::ALL.into_iter())
            .find(|k| k.to_string() == name)
            .ok_or_else(|| {
                bad(format!(
                    "'{name}' cannot vary; KEY is one of {}",
                    keys.join(", ")
                ))
            })?;
        let separators: &[char] = if key.comma_free() {
            &[';', ',']
        } else {
            &[';']
        };
        let values: Vec<String> = (values.split(separators))
            .map(|v| v.trim().to_string())
            .collect();
        if values.iter().any(String::is_empty) {
            return Err(bad("a value is empty".into()));
        }
        if !(2..=MAX_VARIANTS).contains(&values.len()) {
            return Err(bad(format!(
                "{} value{}; a run compares 2 to {MAX_VARIANTS} (values of {key} are separated by ';'{})",
                values.len(),
                if values.len() == 1 { "" } else { "s" },
                if key.comma_free() { " or ','" } else { "" }
            )));
        }
        Ok(Vary { key, values })
    }
}

/// An option that cannot be read, or options that do not fit together.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("{}{message}", variant.as_ref().map_or(String::new(), |v| format!("variant '{v}': ")))]
pub struct OptionError {
    /// The option's key in the run spec.
    pub key: &'static str,
    /// The variant whose options these are (a varied run).
    pub variant: Option<String>,
    /// Whether the value at fault is the varied option's.
    pub varied: bool,
    pub message: String,
}

impl OptionError {
    fn new(key: &'static str, message: impl ToString) -> OptionError {
        OptionError {
            key,
            variant: None,
            varied: false,
            message: message.to_string(),
        }
    }

    /// The option to blame: `vary` when the varied value is at fault, else the option itself.
    pub fn blamed_key(&self) -> &'static str {
        match self.varied {
            true => "vary",
            false => self.key,
        }
    }
}

/// One version of the table: a seating, a bank, a collection and who banks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// "base", or the varied option and its value ("bank=300").
    pub label: String,
    pub layout: Layout,
    /// The player-dealer's bank per hand (None: unlimited).
    pub bank: Option<u64>,
    pub fees: Fees,
    pub rotation: Rotation,
    /// Bets in the round a seat needs to be eligible to bank.
    pub bets_to_bank: u32,
    /// Who banks each hand of the rotation's cycle.
    pub cycle: Cycle,
}

impl Variant {
    /// A variant from the options' texts (`seats` and `bank` given).
    pub fn from_texts(label: &str, o: &TableOptions) -> Result<Variant, OptionError> {
        let need = |key: &'static str, value: &Option<String>| {
            value
                .clone()
                .ok_or_else(|| OptionError::new(key, format!("no {key} given")))
        };
        let seats = need("seats", &o.seats)?;
        let bank = need("bank", &o.bank)?;
        let layout = Layout::parse(&seats).map_err(|e| err("seats", &e))?;
        let bank = parse_bank(&bank).map_err(|e| err("bank", &e))?;
        let bets = Collection::parse(&o.collection).map_err(|e| err("collection", &e))?;
        let bank_schedule = match o.bank_collection.trim() {
            "same" => None,
            text => Some(Collection::parse(text).map_err(|e| err("bank_collection", &e))?),
        };
        let time = parse_time(&o.time_collection).map_err(|e| err("time_collection", &e))?;
        let rotation = Rotation::parse(&o.rotation).map_err(|e| err("rotation", &e))?;
        let bets_to_bank = parse_min_bets(&o.bets_to_bank).map_err(|e| err("bets_to_bank", &e))?;
        let cycle = match (&rotation, layout.dealer) {
            (Rotation::Fixed, Some(dealer)) => Cycle::fixed(dealer),
            (Rotation::Fixed, None) => return Err(err("seats", &SeatingError::Dealers(0))),
            (_, Some(_)) => return Err(err("seats", &SeatingError::Dealers(1))),
            (rotation, None) => {
                let policies = (rotation.policies(&layout)).map_err(|e| err("rotation", &e))?;
                Cycle::rotating(&policies, bets_to_bank).map_err(|e| err("rotation", &e))?
            }
        };
        Ok(Variant {
            label: label.to_string(),
            layout,
            bank,
            fees: Fees {
                bets,
                bank: bank_schedule,
                time,
            },
            rotation,
            bets_to_bank,
            cycle,
        })
    }

    /// Each seat's collection, in micro-chips, on a hand banked by `dealer`.
    pub fn fees_when(&self, dealer: usize) -> [u128; SEATS] {
        self.fees.per_seat(&self.layout, dealer, self.bank)
    }

    /// Hands each seat banks per cycle, and the cycle's length: the exact weight of each
    /// player-dealer's seat in a result over whole rotations.
    pub fn weights(&self) -> ([u64; SEATS], u64) {
        (self.cycle.hands(), self.cycle.len())
    }
}

/// An option's error.
fn err(key: &'static str, e: &impl fmt::Display) -> OptionError {
    OptionError::new(key, e)
}

/// The variants `options` describe: one ("base"), or one per value of the varied option.
pub fn variants(options: &TableOptions) -> Result<Vec<Variant>, OptionError> {
    let Some(vary) = &options.vary else {
        return Ok(vec![Variant::from_texts("base", options)?]);
    };
    let vary = Vary::parse(vary)?;
    let mut out = Vec::new();
    for value in &vary.values {
        let mut o = options.clone();
        let v = Some(value.clone());
        match vary.key {
            VaryKey::Bank => o.bank = v,
            VaryKey::Seats => o.seats = v,
            VaryKey::Collection => o.collection = value.clone(),
            VaryKey::BankCollection => o.bank_collection = value.clone(),
            VaryKey::TimeCollection => o.time_collection = value.clone(),
            VaryKey::Rotation => o.rotation = value.clone(),
            VaryKey::BetsToBank => o.bets_to_bank = value.clone(),
        }
        let label = format!("{}={value}", vary.key);
        out.push(Variant::from_texts(&label, &o).map_err(|mut e| {
            e.variant = Some(label.clone());
            e.varied = e.key == vary.key.key();
            e
        })?);
    }
    Ok(out)
}

/// Parses hands per hour (1 to [`MAX_HANDS_PER_HOUR`]).
pub fn parse_hands_per_hour(text: &str) -> Result<u32, OptionError> {
    match text.trim().parse::<u32>() {
        Ok(h) if (1..=MAX_HANDS_PER_HOUR).contains(&h) => Ok(h),
        _ => Err(OptionError::new(
            "hands_per_hour",
            format!("hands per hour must be 1 to {MAX_HANDS_PER_HOUR}, got '{text}'"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(seats: &str, bank: &str) -> TableOptions {
        TableOptions {
            seats: Some(seats.into()),
            bank: Some(bank.into()),
            ..TableOptions::default()
        }
    }

    #[test]
    fn a_varied_option_gives_one_variant_per_value() {
        let mut o = options("D,100,-,-,-,-,-", "300");
        o.vary = Some("bank=300,600;unlimited".into());
        let v = variants(&o).unwrap();
        let labels: Vec<&str> = v.iter().map(|v| v.label.as_str()).collect();
        assert_eq!(labels, ["bank=300", "bank=600", "bank=unlimited"]);
        assert_eq!(v[2].bank, None);
        o.vary = Some("seats=D,100,-,-,-,-,-;D,100,100,-,-,-,-".into());
        assert_eq!(variants(&o).unwrap()[1].layout.total_bets(), 200);
        o.vary = Some("collection=1=1,60=2;none".into());
        assert_eq!(variants(&o).unwrap().len(), 2);
    }

    #[test]
    fn errors_name_the_option_the_value_and_the_variant() {
        let mut o = options("D,100,-,-,-,-,-", "300");
        o.vary = Some("bank=300,lots".into());
        let e = variants(&o).unwrap_err();
        assert_eq!((e.key, e.blamed_key()), ("bank", "vary"));
        assert!(e.to_string().contains("variant 'bank=lots'"), "{e}");
        assert!(e.to_string().contains("'lots'"), "{e}");
        o.vary = Some("dice=1,2".into());
        assert!(
            variants(&o)
                .unwrap_err()
                .to_string()
                .contains("'dice' cannot vary")
        );
        o.vary = Some("bank=300".into());
        assert!(variants(&o).unwrap_err().to_string().contains("2 to 8"));
        let mut o = options("D,100,-,-,-,-,-", "300");
        o.rotation = "2".into();
        let e = variants(&o).unwrap_err();
        assert_eq!(e.blamed_key(), "seats");
        assert!(e.to_string().contains("none when it rotates; got 1"), "{e}");
        // An option that is not varied is blamed, in the variant it failed in.
        o.vary = Some("bank=300,600".into());
        let e = variants(&o).unwrap_err();
        assert_eq!(e.blamed_key(), "seats");
        assert!(
            e.to_string().starts_with("variant 'bank=300': a seating"),
            "{e}"
        );
        let o = options("100,100,100,100,-,-,-", "300");
        let e = variants(&o).unwrap_err();
        assert!(e.to_string().contains("got 0"), "{e}");
        assert!(parse_hands_per_hour("0").is_err());
    }
}
