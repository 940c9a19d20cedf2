//! The main wager: how a player's set hand is settled against the dealer's.
//!
//! Read from the `[main_wager]` table of a game file (every key optional; a game without the table
//! has no commission, no qualification, no overqualifier and a dealer who does not expose):
//!
//! ```toml
//! [main_wager]
//! commission = "percent_of_win"   # "none", "percent_of_win" (casino) or "flat_per_bet" (card room)
//! commission_percent = 5          # percent of a win, or of the bet for a flat collection
//! dealer_qualifies = "always"     # or "pair": a dealer without a pair or better pushes every bet
//! overqualifier = 3               # dealer can make four of a kind or better: pays 1..=4 times the bet
//! dealer_exposed = false          # the dealer sets first, face up (allows the `exposed` strategy)
//! ```
//!
//! Settlement of one hand, first matching line wins:
//! 1. the player's setting is a foul: the bet loses;
//! 2. the dealer does not qualify (best five of seven below one pair): push;
//! 3. the dealer can make four of a kind or better and the game has an overqualifier: the bet is
//!    paid the multiple, whatever the player holds (seed 004: "whether or not the dealer sets his
//!    hand that way");
//! 4. both player hands beat the dealer's: win; both lose or tie (a copy goes to the dealer): loss;
//!    otherwise push.
//!
//! A percent commission is taken from every amount won; a flat collection is taken from every
//! bet, whatever the outcome.
//!
//! Invariants: amounts are integers in [`BET_UNITS`] per bet (1/10,000 of a bet), so a 5%
//! commission is exactly 500 units and tallies stay integers. Commission percents are multiples of
//! 0.01 in (0, 100); an overqualifier multiple is 1..=4.

use serde::Deserialize;

use crate::eval::split::{KnownSetting, SplitValues};
use crate::eval::{Category, Value};

/// Units per bet: every payout is a whole number of these.
pub const BET_UNITS: i64 = 10_000;

/// How the house is paid on the main wager.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Commission {
    /// No commission (Double Joker's main wager).
    #[default]
    None,
    /// A percent of every win, in basis points (500 = 5%).
    PercentOfWin { basis_points: u32 },
    /// A fee per bet whatever the outcome, in basis points of the bet (card-room collection).
    FlatPerBet { basis_points: u32 },
}

/// Whether the dealer must hold something to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Qualification {
    /// The dealer always plays.
    #[default]
    Always,
    /// The dealer needs a pair or better among its seven cards, else every main wager pushes.
    Pair,
}

/// The kind of commission as written in the game file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
enum CommissionKind {
    #[default]
    None,
    PercentOfWin,
    FlatPerBet,
}

/// The `[main_wager]` table as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct MainWagerFile {
    #[serde(default)]
    commission: CommissionKind,
    commission_percent: Option<f64>,
    #[serde(default)]
    dealer_qualifies: Qualification,
    overqualifier: Option<u8>,
    #[serde(default)]
    dealer_exposed: bool,
}

/// The validated main-wager rules of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Deserialize)]
#[serde(try_from = "MainWagerFile")]
pub struct MainWager {
    pub commission: Commission,
    pub qualification: Qualification,
    /// The multiple paid when the dealer can make four of a kind or better, if the game has one.
    pub overqualifier: Option<u8>,
    /// Whether the dealer sets first and face up.
    pub dealer_exposed: bool,
}

impl TryFrom<MainWagerFile> for MainWager {
    type Error = String;

    fn try_from(file: MainWagerFile) -> Result<MainWager, String> {
        let commission = commission(file.commission, file.commission_percent)?;
        if let Some(m) = file.overqualifier
            && !(1..=4).contains(&m)
        {
            return Err(format!(
                "overqualifier = {m}: expected a multiple from 1 to 4"
            ));
        }
        Ok(MainWager {
            commission,
            qualification: file.dealer_qualifies,
            overqualifier: file.overqualifier,
            dealer_exposed: file.dealer_exposed,
        })
    }
}

/// The commission from its kind and percent, checking that they fit together.
fn commission(kind: CommissionKind, percent: Option<f64>) -> Result<Commission, String> {
    match (kind, percent) {
        (CommissionKind::None, None) => Ok(Commission::None),
        (CommissionKind::None, Some(_)) => {
            Err("commission_percent is set but commission = \"none\"".to_string())
        }
        (_, None) => Err("commission_percent is required unless commission = \"none\"".to_string()),
        (CommissionKind::PercentOfWin, Some(p)) => Ok(Commission::PercentOfWin {
            basis_points: basis_points(p)?,
        }),
        (CommissionKind::FlatPerBet, Some(p)) => Ok(Commission::FlatPerBet {
            basis_points: basis_points(p)?,
        }),
    }
}

/// A percent in (0, 100) that is a whole number of hundredths, as basis points.
fn basis_points(percent: f64) -> Result<u32, String> {
    let scaled = percent * 100.0;
    let rounded = scaled.round();
    if !(percent > 0.0 && percent < 100.0) {
        return Err(format!(
            "commission_percent = {percent}: expected a percent above 0 and below 100"
        ));
    }
    if (scaled - rounded).abs() > 1e-6 {
        return Err(format!(
            "commission_percent = {percent}: expected a multiple of 0.01"
        ));
    }
    Ok(rounded as u32)
}

impl MainWager {
    /// Units paid for a won bet (the bet less any percent commission).
    pub fn win_units(&self) -> i64 {
        match self.commission {
            Commission::PercentOfWin { basis_points } => {
                BET_UNITS - i64::from(basis_points) * BET_UNITS / 10_000
            }
            _ => BET_UNITS,
        }
    }

    /// Units paid when the dealer overqualifies (the multiple of a won bet).
    pub fn overqualifier_units(&self) -> i64 {
        i64::from(self.overqualifier.unwrap_or(0)) * self.win_units()
    }

    /// Units collected from every bet whatever the outcome (a card-room collection).
    pub fn fee_units(&self) -> i64 {
        match self.commission {
            Commission::FlatPerBet { basis_points } => i64::from(basis_points) * BET_UNITS / 10_000,
            _ => 0,
        }
    }

    /// A one-line description for summaries.
    pub fn describe(&self) -> String {
        let commission = match self.commission {
            Commission::None => "no commission".to_string(),
            Commission::PercentOfWin { basis_points } => {
                format!("{}% commission on wins", f64::from(basis_points) / 100.0)
            }
            Commission::FlatPerBet { basis_points } => {
                format!("{}% collection per bet", f64::from(basis_points) / 100.0)
            }
        };
        let mut parts = vec![commission];
        if self.qualification == Qualification::Pair {
            parts.push("dealer qualifies with a pair".to_string());
        }
        if let Some(m) = self.overqualifier {
            parts.push(format!("overqualifier {m}x"));
        }
        if self.dealer_exposed {
            parts.push("dealer exposed".to_string());
        }
        parts.join(", ")
    }
}

/// The dealer's set hand, as a player who sees it (an exposed dealer) knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DealerSetting {
    pub front: Value,
    pub back: Value,
}

/// How one player hand ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Overqualified,
    Push,
    NotQualified,
    Loss { copy: bool, foul: bool },
}

impl Outcome {
    /// The player's net in bet units, before any flat collection.
    pub fn units(self, wager: &MainWager) -> i64 {
        match self {
            Outcome::Win => wager.win_units(),
            Outcome::Overqualified => wager.overqualifier_units(),
            Outcome::Push | Outcome::NotQualified => 0,
            Outcome::Loss { .. } => -BET_UNITS,
        }
    }
}

/// The dealer's set hand and what it means for every bet.
#[derive(Clone, Copy, Debug)]
pub struct DealerHand {
    pub setting: DealerSetting,
    pub qualified: bool,
    pub overqualified: bool,
}

impl DealerHand {
    /// The dealer's hand from its setting's values and its best five.
    #[inline]
    pub fn from_known(known: KnownSetting, wager: &MainWager) -> Self {
        DealerHand {
            setting: DealerSetting {
                front: known.front,
                back: known.back,
            },
            qualified: wager.qualification == Qualification::Always
                || known.best >= Category::OnePair,
            overqualified: wager.overqualifier.is_some() && known.best >= Category::FourOfAKind,
        }
    }
}

/// Settles split `k` of a player hand with values `splits` against the dealer.
#[inline]
pub fn settle(splits: &SplitValues, k: usize, dealer: &DealerHand) -> Outcome {
    if !splits.is_legal(k) {
        return Outcome::Loss {
            copy: false,
            foul: true,
        };
    }
    settle_setting(splits.front[k], splits.back[k], dealer)
}

/// Settles a legal player setting (`front`, `back` values) against the dealer.
#[inline]
pub fn settle_setting(front: Value, back: Value, dealer: &DealerHand) -> Outcome {
    if !dealer.qualified {
        return Outcome::NotQualified;
    }
    if dealer.overqualified {
        return Outcome::Overqualified;
    }
    let wins_front = front > dealer.setting.front;
    let wins_back = back > dealer.setting.back;
    match (wins_front, wins_back) {
        (true, true) => Outcome::Win,
        (false, false) => Outcome::Loss {
            copy: front == dealer.setting.front || back == dealer.setting.back,
            foul: false,
        },
        _ => Outcome::Push,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<MainWager, String> {
        #[derive(Deserialize)]
        struct Wrapper {
            main_wager: MainWager,
        }
        toml::from_str::<Wrapper>(text)
            .map(|w| w.main_wager)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn five_percent_commission_is_500_units() {
        let w = parse("[main_wager]\ncommission = \"percent_of_win\"\ncommission_percent = 5\n")
            .unwrap();
        assert_eq!(w.commission, Commission::PercentOfWin { basis_points: 500 });
        assert_eq!(w.win_units(), 9_500);
        assert_eq!(w.fee_units(), 0);
    }

    #[test]
    fn double_joker_rules_read() {
        let w = parse(
            "[main_wager]\ndealer_qualifies = \"pair\"\noverqualifier = 3\ndealer_exposed = true\n",
        )
        .unwrap();
        assert_eq!(w.qualification, Qualification::Pair);
        assert_eq!(w.overqualifier_units(), 30_000);
        assert!(w.dealer_exposed);
    }

    #[test]
    fn flat_collection_is_a_fee() {
        let w = parse("[main_wager]\ncommission = \"flat_per_bet\"\ncommission_percent = 2.5\n")
            .unwrap();
        assert_eq!(w.fee_units(), 250);
        assert_eq!(w.win_units(), BET_UNITS);
    }

    #[test]
    fn out_of_range_rules_are_errors() {
        for bad in [
            "commission = \"percent_of_win\"\ncommission_percent = 150",
            "commission = \"percent_of_win\"\ncommission_percent = -5",
            "commission = \"percent_of_win\"\ncommission_percent = 0",
            "commission = \"percent_of_win\"\ncommission_percent = 5.001",
            "commission = \"percent_of_win\"",
            "commission_percent = 5",
            "overqualifier = 5",
            "overqualifier = 0",
            "dealer_qualifies = \"trips\"",
            "comission = \"none\"",
        ] {
            let err = parse(&format!("[main_wager]\n{bad}\n"));
            assert!(err.is_err(), "{bad}");
        }
    }

    #[test]
    fn settle_follows_the_rules() {
        let dealer = |front, back| DealerHand {
            setting: DealerSetting {
                front: Value(front),
                back: Value(back),
            },
            qualified: true,
            overqualified: false,
        };
        let mut splits = SplitValues {
            front: [Value(5); 21],
            back: [Value(50); 21],
        };
        assert_eq!(settle(&splits, 0, &dealer(4, 49)), Outcome::Win);
        assert_eq!(settle(&splits, 0, &dealer(6, 49)), Outcome::Push);
        let copy = Outcome::Loss {
            copy: true,
            foul: false,
        };
        assert_eq!(settle(&splits, 0, &dealer(5, 51)), copy);
        let mut not_qualified = dealer(6, 60);
        not_qualified.qualified = false;
        assert_eq!(settle(&splits, 0, &not_qualified), Outcome::NotQualified);
        splits.front[0] = Value(60);
        let foul = Outcome::Loss {
            copy: false,
            foul: true,
        };
        assert_eq!(settle(&splits, 0, &not_qualified), foul);
    }
}
