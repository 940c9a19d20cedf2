//! The main wager: how a player's set hand is settled against the dealer's.
//!
//! Read from the `[main_wager]` table of a game file (every key optional; a game without the table
//! has no commission, no qualification, no overqualifier and a dealer who does not expose):
//!
//! ```toml
//! [main_wager]
//! commission = "percent_of_win"   # "none", "percent_of_win" (casino) or "flat_per_bet" (card room)
//! commission_percent = 5          # percent of a win, or of the bet for a flat collection
//! dealer_qualifies = "always"     # or "pair": a dealer without a pair or better pushes every bet;
//!                                 # or "not_queen_high" (EZ Pai Gow): a queen-high pai gow pushes
//! overqualifier = 3               # dealer can make four of a kind or better: pays 1..=4 times the bet
//! dealer_exposed = false          # the dealer sets first, face up (allows the `exposed` strategy)
//! double_copy = "loss"            # or "push": a tie on both hands pushes instead of losing
//! ```
//!
//! `dealer_qualifies` also takes "not_ace_high" (Face Up: a dealer's ace-high pai gow pushes)
//! and "not_nine_high_front" (Commission Free: a dealer whose two-card hand is 9-high pushes).
//!
//! Settlement of one hand, first matching line wins (the table itself, and how every engine
//! reads it, is [`super::settlement`]):
//! 1. the player's setting is a foul: the bet loses;
//! 2. the dealer does not qualify (best five of seven below one pair; under "not_queen_high" or
//!    "not_ace_high", a queen-high or ace-high pai gow; under "not_nine_high_front", a 9-high
//!    front): push;
//! 3. the dealer can make four of a kind or better and the game has an overqualifier: the bet is
//!    paid the multiple, whatever the player holds (seed 004: "whether or not the dealer sets his
//!    hand that way");
//! 4. both player hands beat the dealer's: win; both lose or tie (a copy goes to the dealer): loss
//!    (under `double_copy = "push"`, a tie on both hands pushes); otherwise push.
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
use crate::game::settlement::{CELLS, DealerClass, DoubleCopy, Settlement, cell_of};

/// Units per bet: every payout is a whole number of these.
pub const BET_UNITS: i64 = 10_000;

/// The main wager's name in simulated reports and in exact ones (so no side bet may take it:
/// [`names_the_main_wager`]).
pub const MAIN_NAMES: [&str; 2] = ["main", "main wager"];

/// Whether a side bet's `name` reads as the main wager's (case, blanks and punctuation aside),
/// which the reports and `--mix` could not tell apart.
pub fn names_the_main_wager(name: &str) -> bool {
    let key = |s: &str| -> String {
        (s.chars().filter(char::is_ascii_alphanumeric))
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    MAIN_NAMES.iter().any(|main| key(main) == key(name))
}

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
    /// EZ Pai Gow: a dealer whose best five is a queen-high pai gow (no pair, straight or
    /// flush; queen the highest card) pushes every main wager; any other hand plays.
    NotQueenHigh,
    /// Face Up Pai Gow: a dealer whose best five is an ace-high pai gow (no pair, straight or
    /// flush; an ace, or the joker, the highest card) pushes every main wager.
    NotAceHigh,
    /// Commission Free (Fortune) Pai Gow: a dealer whose two-card hand is 9-high (no pair, a
    /// nine the higher card) pushes every main wager.
    NotNineHighFront,
}

impl Qualification {
    /// Whether a dealer with setting `known` (its front, and the best five of its seven cards)
    /// plays.
    #[inline]
    pub fn qualifies(self, known: &KnownSetting) -> bool {
        let pai_gow_high = |slot| known.best() != Category::HighCard || known.best_top_slot != slot;
        match self {
            Qualification::Always => true,
            Qualification::Pair => known.best() >= Category::OnePair,
            Qualification::NotQueenHigh => pai_gow_high(QUEEN_SLOT),
            Qualification::NotAceHigh => pai_gow_high(ACE_SLOT),
            Qualification::NotNineHighFront => {
                known.front.category() != Category::HighCard || known.front.slots()[0] != NINE_SLOT
            }
        }
    }
}

/// A nine's, a queen's and an ace's rank slots in a value (rank + 1).
const NINE_SLOT: u8 = 8;
const QUEEN_SLOT: u8 = 11;
const ACE_SLOT: u8 = 13;

/// The kind of commission as written in the game file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
enum CommissionKind {
    #[default]
    None,
    PercentOfWin,
    FlatPerBet,
}

/// The `[main_wager]` table as written; [`MainWager::try_from`] validates it, naming the key at
/// fault.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MainWagerFile {
    #[serde(default)]
    commission: CommissionKind,
    commission_percent: Option<f64>,
    #[serde(default)]
    dealer_qualifies: Qualification,
    /// Read as any whole number, so that one out of range is refused in the key's own words.
    overqualifier: Option<i64>,
    #[serde(default)]
    dealer_exposed: bool,
    #[serde(default)]
    double_copy: DoubleCopy,
}

/// The multiples an overqualifier may pay: a casino offering the game picks one.
pub const OVERQUALIFIER_MULTIPLES: std::ops::RangeInclusive<u8> = 1..=4;

/// The event of the returns row where the dealer overqualifies.
pub const OVERQUALIFIES_EVENT: &str = "dealer overqualifies";

/// The validated main-wager rules of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MainWager {
    pub commission: Commission,
    pub qualification: Qualification,
    /// The multiple paid when the dealer can make four of a kind or better, if the game has one.
    pub overqualifier: Option<u8>,
    /// Whether the dealer sets first and face up.
    pub dealer_exposed: bool,
    /// Whether a tie on both hands loses or pushes.
    pub double_copy: DoubleCopy,
    /// The outcome of every (dealer class, front, back) relation: the one settlement table.
    pub settlement: Settlement,
}

/// The rules of a game that pays even money with no commission, qualification, overqualifier or
/// other dealer rule: what a card room's table pays a bet (its collection is its own).
pub const EVEN_MONEY: MainWager = MainWager {
    commission: Commission::None,
    qualification: Qualification::Always,
    overqualifier: None,
    dealer_exposed: false,
    double_copy: DoubleCopy::Loss,
    settlement: Settlement::new(DoubleCopy::Loss),
};

impl Default for MainWager {
    /// The rules of a game with no `[main_wager]` table.
    fn default() -> MainWager {
        MainWager::try_from(MainWagerFile::default()).expect("the defaults are valid")
    }
}

impl TryFrom<MainWagerFile> for MainWager {
    /// The key at fault (an error is shown at its line) and what is wrong.
    type Error = (&'static str, String);

    fn try_from(file: MainWagerFile) -> Result<MainWager, Self::Error> {
        let commission = commission(file.commission, file.commission_percent)?;
        let overqualifier = file.overqualifier.map(overqualifier).transpose()?;
        if file.dealer_exposed && file.double_copy == DoubleCopy::Push {
            return Err((
                "double_copy",
                "double_copy = \"push\" with dealer_exposed = true: a player who sees the \
                 dealer's hand picks a split by win, push, loss alone, which does not yet know \
                 that a double copy pushes"
                    .to_string(),
            ));
        }
        Ok(MainWager {
            commission,
            qualification: file.dealer_qualifies,
            overqualifier,
            dealer_exposed: file.dealer_exposed,
            double_copy: file.double_copy,
            settlement: Settlement::new(file.double_copy),
        })
    }
}

/// An overqualifier's multiple, one of [`OVERQUALIFIER_MULTIPLES`].
fn overqualifier(multiple: i64) -> Result<u8, (&'static str, String)> {
    u8::try_from(multiple)
        .ok()
        .filter(|m| OVERQUALIFIER_MULTIPLES.contains(m))
        .ok_or_else(|| {
            let (low, high) = OVERQUALIFIER_MULTIPLES.into_inner();
            let message =
                format!("overqualifier = {multiple}: expected a multiple from {low} to {high}");
            ("overqualifier", message)
        })
}

/// The commission from its kind and percent, checking that they fit together; an error names
/// the key to show it at (`commission` when its percent is missing, else `commission_percent`).
fn commission(
    kind: CommissionKind,
    percent: Option<f64>,
) -> Result<Commission, (&'static str, String)> {
    let at_percent = |e: String| ("commission_percent", e);
    match (kind, percent) {
        (CommissionKind::None, None) => Ok(Commission::None),
        (CommissionKind::None, Some(_)) => Err(at_percent(
            "commission_percent is set but commission = \"none\"".to_string(),
        )),
        (_, None) => Err((
            "commission",
            "commission_percent is required unless commission = \"none\"".to_string(),
        )),
        (CommissionKind::PercentOfWin, Some(p)) => Ok(Commission::PercentOfWin {
            basis_points: basis_points(p).map_err(at_percent)?,
        }),
        (CommissionKind::FlatPerBet, Some(p)) => Ok(Commission::FlatPerBet {
            basis_points: basis_points(p).map_err(at_percent)?,
        }),
    }
}

/// A percent in (0, 100) that is a whole number of hundredths, as basis points. The range is
/// checked on the basis points the percent is read as (within 1e-6 of a hundredth, so that
/// 2.4999999999 is 2.5), so a percent that would be read as 0 or 100 (0.000000001,
/// 99.99999999999) is refused, not run as no commission or as the whole win.
fn basis_points(percent: f64) -> Result<u32, String> {
    let scaled = percent * 100.0;
    let rounded = scaled.round();
    if !(1.0..=9_999.0).contains(&rounded) {
        return Err(format!(
            "commission_percent = {percent}: expected a percent from 0.01 to 99.99"
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

    /// The player's net in bet units for each outcome (indexed by [`Outcome::index`]), the
    /// flat collection included: [`Outcome::net_units`] as a table, read with no branch on
    /// the outcome.
    pub fn net_by_outcome(&self) -> [i64; OUTCOMES] {
        Outcome::ALL.map(|o| o.net_units(self))
    }

    /// The class of a dealer whose setting is `known`: it does not qualify, it overqualifies, or
    /// it plays.
    #[inline]
    pub fn dealer_class(&self, known: &KnownSetting) -> DealerClass {
        if !self.qualification.qualifies(known) {
            DealerClass::NotQualified
        } else if self.overqualifier.is_some() && known.best_at_least(Category::FourOfAKind) {
            DealerClass::Overqualified
        } else {
            DealerClass::Plays
        }
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
        if self.qualification == Qualification::NotQueenHigh {
            parts.push("a dealer's queen-high pai gow pushes".to_string());
        }
        if self.qualification == Qualification::NotAceHigh {
            parts.push("a dealer's ace-high pai gow pushes".to_string());
        }
        if self.qualification == Qualification::NotNineHighFront {
            parts.push("a dealer's 9-high front pushes".to_string());
        }
        if self.double_copy == DoubleCopy::Push {
            parts.push("a double copy pushes".to_string());
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

pub use crate::game::settlement::{BetResult, Outcome};

/// Number of outcomes ([`Outcome::COUNT`]).
pub const OUTCOMES: usize = Outcome::COUNT;

/// What each outcome pays under a game's rules (the list itself is [`super::settlement`]'s).
impl Outcome {
    /// The player's net in bet units, before any flat collection.
    #[inline]
    pub fn units(self, wager: &MainWager) -> i64 {
        match self {
            Outcome::Win => wager.win_units(),
            Outcome::Overqualified => wager.overqualifier_units(),
            _ => match self.result() {
                BetResult::Lost => -BET_UNITS,
                _ => 0,
            },
        }
    }

    /// The player's net in bet units, the flat collection included.
    #[inline]
    pub fn net_units(self, wager: &MainWager) -> i64 {
        self.units(wager) - wager.fee_units()
    }

    /// Whether a game with these rules can end a hand this way.
    pub fn is_possible(self, wager: &MainWager) -> bool {
        match self {
            Outcome::Overqualified => wager.overqualifier.is_some(),
            Outcome::NotQualified => wager.qualification != Qualification::Always,
            _ => true,
        }
    }
}

/// Hands counted by outcome (indexed by [`Outcome::index`]); merging is addition.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct OutcomeCounts(pub [u64; Outcome::COUNT]);

impl OutcomeCounts {
    /// Counts one hand.
    #[inline]
    pub fn record(&mut self, outcome: Outcome) {
        self.0[outcome.index()] += 1;
    }

    /// Hands that ended with `outcome`.
    pub fn get(&self, outcome: Outcome) -> u64 {
        self.0[outcome.index()]
    }

    /// Hands whose bet was paid, pushed or lost.
    pub fn with_result(&self, result: BetResult) -> u64 {
        Outcome::ALL
            .iter()
            .filter(|o| o.result() == result)
            .map(|&o| self.get(o))
            .sum()
    }

    /// Every hand counted, or None if the sum overflows (a damaged file).
    pub fn total(&self) -> Option<u64> {
        self.0.iter().try_fold(0u64, |a, &b| a.checked_add(b))
    }

    /// The players' total net in bet units, the flat collection included.
    pub fn net_units(&self, wager: &MainWager) -> i128 {
        Outcome::ALL
            .iter()
            .map(|&o| i128::from(self.get(o)) * i128::from(o.net_units(wager)))
            .sum()
    }

    /// The sum over the hands counted of the square of each hand's net (in bet units squared):
    /// what one player's rounds sum as their squared net, and a bound on a table's.
    pub fn net_units_squared(&self, wager: &MainWager) -> u128 {
        Outcome::ALL
            .iter()
            .map(|&o| {
                let net = o.net_units(wager).unsigned_abs();
                u128::from(self.get(o)) * u128::from(net * net)
            })
            .sum()
    }

    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &OutcomeCounts) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
    }
}

/// One row of a main wager's returns table: its event, the event in words, what it pays in bet
/// units (`None` for a breakdown of the row above, which is not added into the total), and the
/// outcomes it counts. The pay is the player's net for the outcome ([`Outcome::net_units`]): a
/// flat collection is part of every row's pay, not a row of its own, since it is taken on every
/// bet whatever the outcome and so is no outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReturnRow {
    pub event: &'static str,
    pub label: &'static str,
    pub pays: Option<i64>,
    pub outcomes: &'static [Outcome],
}

/// The returns rows of `wager`, in report order: each outcome the game can produce, and losses
/// broken down. Rows with pays count each bet once (their counts add up to the total) and
/// their returns add up to the EV, a flat collection included.
pub fn return_rows(wager: &MainWager) -> Vec<ReturnRow> {
    use Outcome::*;
    let row = |(event, label), pays, outcomes| ReturnRow {
        event,
        label,
        pays,
        outcomes,
    };
    let net = |outcome: Outcome| Some(outcome.net_units(wager));
    let win = ("win both", "Player wins both hands");
    let mut rows = vec![row(win, net(Win), &[Win][..])];
    if Overqualified.is_possible(wager) {
        let pays = net(Overqualified);
        let event = (
            OVERQUALIFIES_EVENT,
            "Dealer overqualifies: paid the multiple",
        );
        rows.push(row(event, pays, &[Overqualified]));
    }
    let push = match wager.double_copy {
        DoubleCopy::Loss => ("push", "Push: one hand each"),
        DoubleCopy::Push => ("push", "Push: one hand each, or a tie on both hands"),
    };
    rows.push(row(push, net(Push), &[Push]));
    if NotQualified.is_possible(wager) {
        let event = match wager.qualification {
            Qualification::NotQueenHigh => (
                "dealer queen-high pai gow (push)",
                "Dealer holds a queen-high pai gow: push",
            ),
            Qualification::NotAceHigh => (
                "dealer ace-high pai gow (push)",
                "Dealer holds an ace-high pai gow: push",
            ),
            Qualification::NotNineHighFront => (
                "dealer 9-high front (push)",
                "Dealer's two-card hand is 9-high: push",
            ),
            _ => (
                "dealer not qualified (push)",
                "Dealer does not qualify: push",
            ),
        };
        rows.push(row(event, net(NotQualified), &[NotQualified]));
    }
    let lose = ("lose", "Player loses");
    rows.push(row(lose, net(Loss), &[Loss, CopyLoss, Foul]));
    let copies = (
        "  of which copies",
        "of which copies (a tie goes to the dealer)",
    );
    rows.push(row(copies, None, &[CopyLoss]));
    rows.push(row(("  of which fouls", "of which fouls"), None, &[Foul]));
    rows
}

/// The dealer's set hand and what it means for every bet: its class, and the outcome of every
/// relation cell against it (its class's row of the game's settlement table).
#[derive(Clone, Copy, Debug)]
pub struct DealerHand {
    pub setting: DealerSetting,
    pub class: DealerClass,
    pub outcomes: [Outcome; CELLS],
}

impl DealerHand {
    /// The dealer's hand from its setting's values and its best five.
    #[inline]
    pub fn from_known(known: KnownSetting, wager: &MainWager) -> Self {
        DealerHand::of_class(
            DealerSetting {
                front: known.front,
                back: known.back,
            },
            wager.dealer_class(&known),
            wager,
        )
    }

    /// A dealer's hand of `class` with setting `setting`, under `wager`'s table.
    #[inline]
    pub fn of_class(setting: DealerSetting, class: DealerClass, wager: &MainWager) -> Self {
        DealerHand {
            setting,
            class,
            outcomes: wager.settlement.row(class),
        }
    }

    /// Whether the hands are compared (the dealer qualifies and does not overqualify).
    #[inline]
    pub fn plays(&self) -> bool {
        self.class == DealerClass::Plays
    }
}

/// Settles split `k` of a player hand with values `splits` against the dealer.
#[inline]
pub fn settle(splits: &SplitValues, k: usize, dealer: &DealerHand) -> Outcome {
    if !splits.is_legal(k) {
        return Outcome::Foul;
    }
    settle_setting(splits.front[k], splits.back[k], dealer)
}

/// Settles a legal player setting (`front`, `back` values) against the dealer: the dealer's row
/// of the table at the setting's relation cell (a table read, not branches: which hands win is a
/// coin toss no predictor learns).
#[inline]
pub fn settle_setting(front: Value, back: Value, dealer: &DealerHand) -> Outcome {
    let d = dealer.setting;
    dealer.outcomes[cell_of(front, back, d.front, d.back)]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<MainWager, String> {
        #[derive(Deserialize)]
        struct Wrapper {
            main_wager: MainWagerFile,
        }
        let file = toml::from_str::<Wrapper>(text).map_err(|e| e.to_string())?;
        MainWager::try_from(file.main_wager).map_err(|(_, e)| e)
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
            "commission = \"percent_of_win\"\ncommission_percent = 99.99999999999",
            "commission = \"flat_per_bet\"\ncommission_percent = 0.000000001",
            "commission = \"percent_of_win\"\ncommission_percent = nan",
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
        let edges = ["0.01", "99.99", "2.4999999999"];
        let points = edges.map(|p| {
            let text = format!(
                "[main_wager]\ncommission = \"percent_of_win\"\ncommission_percent = {p}\n"
            );
            match parse(&text).unwrap().commission {
                Commission::PercentOfWin { basis_points } => basis_points,
                other => panic!("{other:?}"),
            }
        });
        assert_eq!(points, [1, 9_999, 250]);
    }

    #[test]
    fn settle_follows_the_rules() {
        let wager = MainWager::default();
        let dealer = |front, back, class| {
            let setting = DealerSetting {
                front: Value(front),
                back: Value(back),
            };
            DealerHand::of_class(setting, class, &wager)
        };
        let plays = DealerClass::Plays;
        let mut splits = SplitValues {
            front: [Value(5); 21],
            back: [Value(50); 21],
        };
        assert_eq!(settle(&splits, 0, &dealer(4, 49, plays)), Outcome::Win);
        assert_eq!(settle(&splits, 0, &dealer(6, 49, plays)), Outcome::Push);
        assert_eq!(settle(&splits, 0, &dealer(5, 51, plays)), Outcome::CopyLoss);
        assert_eq!(settle(&splits, 0, &dealer(6, 51, plays)), Outcome::Loss);
        let not_qualified = dealer(6, 60, DealerClass::NotQualified);
        assert_eq!(settle(&splits, 0, &not_qualified), Outcome::NotQualified);
        splits.front[0] = Value(60);
        assert_eq!(settle(&splits, 0, &not_qualified), Outcome::Foul);
    }

    /// The table read by `settle_setting` against the rules as written, for every order of
    /// the player's and the dealer's front and back values, with a double copy lost or pushed.
    #[test]
    fn the_outcome_table_is_the_rules_as_written() {
        let as_written = |front: u32, back: u32, d_front: u32, d_back: u32, rule| {
            if front > d_front && back > d_back {
                Outcome::Win
            } else if front > d_front
                || back > d_back
                || (front == d_front && back == d_back && rule == DoubleCopy::Push)
            {
                Outcome::Push
            } else if front == d_front || back == d_back {
                Outcome::CopyLoss
            } else {
                Outcome::Loss
            }
        };
        for (text, rule) in [
            ("", DoubleCopy::Loss),
            ("double_copy = \"push\"", DoubleCopy::Push),
        ] {
            let wager = parse(&format!("[main_wager]\n{text}\n")).unwrap();
            assert_eq!(wager.double_copy, rule);
            for (front, back, d_front, d_back) in (0..27).map(|i| (i % 3, i / 3 % 3, 1, i / 9 % 3))
            {
                let setting = DealerSetting {
                    front: Value(d_front),
                    back: Value(d_back),
                };
                let dealer = DealerHand::of_class(setting, DealerClass::Plays, &wager);
                let settled = settle_setting(Value(front), Value(back), &dealer);
                let expected = as_written(front, back, d_front, d_back, rule);
                assert_eq!(
                    settled, expected,
                    "{front} {back} against {d_front} {d_back}, {rule:?}"
                );
            }
        }
    }

    /// Every outcome a game can produce is in exactly one row that adds into the total, at its
    /// own net pay (a flat collection included); so the rows' counts add up to the bets and
    /// their returns to the EV.
    #[test]
    fn every_possible_outcome_has_one_paying_row() {
        let games = [
            "[main_wager]\ncommission = \"percent_of_win\"\ncommission_percent = 5\n",
            "[main_wager]\ndealer_qualifies = \"pair\"\noverqualifier = 3\n",
            "[main_wager]\ncommission = \"flat_per_bet\"\ncommission_percent = 2.5\n",
        ];
        for text in games {
            let wager = parse(text).unwrap();
            let rows = return_rows(&wager);
            for outcome in Outcome::ALL {
                let paying: Vec<&ReturnRow> = rows
                    .iter()
                    .filter(|r| r.pays.is_some())
                    .filter(|r| r.outcomes.contains(&outcome))
                    .collect();
                if !outcome.is_possible(&wager) {
                    assert!(paying.is_empty(), "{outcome:?} in {text}");
                    continue;
                }
                assert_eq!(paying.len(), 1, "{outcome:?} in {text}");
                assert_eq!(
                    paying[0].pays,
                    Some(outcome.net_units(&wager)),
                    "{outcome:?}"
                );
            }
            let mut counts = OutcomeCounts::default();
            for (i, outcome) in Outcome::ALL.into_iter().enumerate() {
                if outcome.is_possible(&wager) {
                    counts.0[i] = 10 + i as u64;
                }
            }
            let from_rows: i128 = rows
                .iter()
                .filter_map(|r| {
                    let n: u64 = r.outcomes.iter().map(|&o| counts.get(o)).sum();
                    r.pays.map(|p| i128::from(n) * i128::from(p))
                })
                .sum();
            assert_eq!(from_rows, counts.net_units(&wager), "{text}");
        }
    }

    #[test]
    fn a_queen_high_pai_gow_is_the_one_dealer_hand_that_pushes_under_not_queen_high() {
        let rule = Qualification::NotQueenHigh;
        let best = |category: Category, best_top_slot| KnownSetting {
            front: Value(0),
            back: Value(0),
            made: 1 << category as u16,
            best_top_slot,
        };
        assert!(!rule.qualifies(&best(Category::HighCard, QUEEN_SLOT)));
        assert!(rule.qualifies(&best(Category::HighCard, QUEEN_SLOT + 1)));
        assert!(rule.qualifies(&best(Category::HighCard, QUEEN_SLOT - 1)));
        assert!(rule.qualifies(&best(Category::OnePair, QUEEN_SLOT)));
        let w = parse("[main_wager]\ndealer_qualifies = \"not_queen_high\"\n").unwrap();
        assert!(Outcome::NotQualified.is_possible(&w));
        let rows = return_rows(&w);
        assert!(
            rows.iter()
                .any(|r| r.event == "dealer queen-high pai gow (push)")
        );
    }
}
