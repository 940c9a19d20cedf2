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
//! ```
//!
//! Settlement of one hand, first matching line wins:
//! 1. the player's setting is a foul: the bet loses;
//! 2. the dealer does not qualify (best five of seven below one pair; under "not_queen_high", a
//!    queen-high pai gow): push;
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
    /// EZ Pai Gow: a dealer whose best five is a queen-high pai gow (no pair, straight or
    /// flush; queen the highest card) pushes every main wager; any other hand plays.
    NotQueenHigh,
}

impl Qualification {
    /// Whether a dealer whose best five of seven is `best` (category, top rank slot) plays.
    #[inline]
    pub fn qualifies(self, best: Category, best_top_slot: u8) -> bool {
        match self {
            Qualification::Always => true,
            Qualification::Pair => best >= Category::OnePair,
            Qualification::NotQueenHigh => {
                best != Category::HighCard || best_top_slot != QUEEN_SLOT
            }
        }
    }
}

/// A queen's rank slot in a value (rank + 1).
const QUEEN_SLOT: u8 = 11;

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

    /// The player's net in bet units for each outcome (indexed by [`Outcome::index`]), the
    /// flat collection included: [`Outcome::net_units`] as a table, read with no branch on
    /// the outcome.
    pub fn net_by_outcome(&self) -> [i64; OUTCOMES] {
        Outcome::ALL.map(|o| o.net_units(self))
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

/// How one player hand ends: the one outcome list. Every tally keeps one counter per outcome
/// ([`OutcomeCounts`]), and statistics and report rows are computed by iterating it, so a new
/// outcome is a variant here, a line of [`settle_setting`] and a row of [`return_rows`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Outcome {
    /// Both player hands beat the dealer's.
    Win,
    /// The dealer can make four of a kind or better: paid the overqualifier multiple.
    Overqualified,
    /// One hand won, the other lost or copied.
    Push,
    /// The dealer does not qualify: every bet pushes.
    NotQualified,
    /// Neither hand won, and neither copied.
    Loss,
    /// Neither hand won, and at least one copied (a copy goes to the dealer).
    CopyLoss,
    /// The player's setting fouled (its front outranks its back).
    Foul,
}

/// Number of outcomes.
pub const OUTCOMES: usize = 7;

/// What an outcome does to the bet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BetResult {
    Lost,
    Pushed,
    Paid,
}

impl Outcome {
    /// Every outcome, in counter order.
    pub const ALL: [Outcome; OUTCOMES] = [
        Outcome::Win,
        Outcome::Overqualified,
        Outcome::Push,
        Outcome::NotQualified,
        Outcome::Loss,
        Outcome::CopyLoss,
        Outcome::Foul,
    ];

    /// The index of this outcome's counter.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Whether the bet is paid, pushes or is lost.
    #[inline]
    pub fn result(self) -> BetResult {
        match self {
            Outcome::Win | Outcome::Overqualified => BetResult::Paid,
            Outcome::Push | Outcome::NotQualified => BetResult::Pushed,
            Outcome::Loss | Outcome::CopyLoss | Outcome::Foul => BetResult::Lost,
        }
    }

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
pub struct OutcomeCounts(pub [u64; OUTCOMES]);

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

    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &OutcomeCounts) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
    }
}

/// One row of a main wager's returns table: its event, the event in words, what it pays in bet
/// units (`None` for a breakdown of the row above, which is not added into the total), and the
/// outcomes it counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReturnRow {
    pub event: &'static str,
    pub label: &'static str,
    pub pays: Option<i64>,
    pub outcomes: &'static [Outcome],
}

/// The returns rows of `wager`, in report order: each outcome the game can produce, losses
/// broken down, and the collection where there is one. Rows with pays add up to the total.
pub fn return_rows(wager: &MainWager) -> Vec<ReturnRow> {
    use Outcome::*;
    let row = |(event, label), pays, outcomes| ReturnRow {
        event,
        label,
        pays,
        outcomes,
    };
    let win = ("win both", "Player wins both hands");
    let mut rows = vec![row(win, Some(wager.win_units()), &[Win][..])];
    if Overqualified.is_possible(wager) {
        let pays = Some(wager.overqualifier_units());
        let event = (
            "dealer overqualifies",
            "Dealer overqualifies: paid the multiple",
        );
        rows.push(row(event, pays, &[Overqualified]));
    }
    rows.push(row(("push", "Push: one hand each"), Some(0), &[Push]));
    if NotQualified.is_possible(wager) {
        let event = match wager.qualification {
            Qualification::NotQueenHigh => (
                "dealer queen-high pai gow (push)",
                "Dealer holds a queen-high pai gow: push",
            ),
            _ => (
                "dealer not qualified (push)",
                "Dealer does not qualify: push",
            ),
        };
        rows.push(row(event, Some(0), &[NotQualified]));
    }
    let lose = ("lose", "Player loses");
    rows.push(row(lose, Some(-BET_UNITS), &[Loss, CopyLoss, Foul]));
    let copies = (
        "  of which copies",
        "of which copies (a tie goes to the dealer)",
    );
    rows.push(row(copies, None, &[CopyLoss]));
    rows.push(row(("  of which fouls", "of which fouls"), None, &[Foul]));
    if wager.fee_units() > 0 {
        let pays = Some(-wager.fee_units());
        let event = ("collection (every bet)", "Collection, on every bet");
        rows.push(row(event, pays, &Outcome::ALL));
    }
    rows
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
            qualified: wager
                .qualification
                .qualifies(known.best(), known.best_top_slot),
            overqualified: wager.overqualifier.is_some()
                && known.best_at_least(Category::FourOfAKind),
        }
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

/// Settles a legal player setting (`front`, `back` values) against the dealer.
#[inline]
pub fn settle_setting(front: Value, back: Value, dealer: &DealerHand) -> Outcome {
    if !dealer.qualified {
        return Outcome::NotQualified;
    }
    if dealer.overqualified {
        return Outcome::Overqualified;
    }
    // A table read, not branches: which hands win is a coin toss no predictor learns.
    let wins_front = usize::from(front > dealer.setting.front);
    let wins_back = usize::from(back > dealer.setting.back);
    let copies = usize::from(front == dealer.setting.front || back == dealer.setting.back);
    OUTCOME_OF_HANDS[wins_front | wins_back << 1 | copies << 2]
}

/// A qualified dealer's outcome, indexed by "the front wins" (bit 0), "the back wins" (bit 1)
/// and "a hand copies" (bit 2): both win, a win; neither, a loss (a copy loss when one copies);
/// one, a push. A hand that wins does not copy, so bit 2 with both wins never occurs.
const OUTCOME_OF_HANDS: [Outcome; 8] = {
    use Outcome::{CopyLoss, Loss, Push, Win};
    [Loss, Push, Push, Win, CopyLoss, Push, Push, Win]
};

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
        assert_eq!(settle(&splits, 0, &dealer(5, 51)), Outcome::CopyLoss);
        assert_eq!(settle(&splits, 0, &dealer(6, 51)), Outcome::Loss);
        let mut not_qualified = dealer(6, 60);
        not_qualified.qualified = false;
        assert_eq!(settle(&splits, 0, &not_qualified), Outcome::NotQualified);
        splits.front[0] = Value(60);
        assert_eq!(settle(&splits, 0, &not_qualified), Outcome::Foul);
    }

    /// The table read by `settle_setting` against the rules as written, for every order of
    /// the player's and the dealer's front and back values.
    #[test]
    fn the_outcome_table_is_the_rules_as_written() {
        let as_written = |front: u32, back: u32, d_front: u32, d_back: u32| {
            if front > d_front && back > d_back {
                Outcome::Win
            } else if front > d_front || back > d_back {
                Outcome::Push
            } else if front == d_front || back == d_back {
                Outcome::CopyLoss
            } else {
                Outcome::Loss
            }
        };
        for (front, back, d_front, d_back) in (0..27).map(|i| (i % 3, i / 3 % 3, 1, i / 9 % 3)) {
            let dealer = DealerHand {
                setting: DealerSetting {
                    front: Value(d_front),
                    back: Value(d_back),
                },
                qualified: true,
                overqualified: false,
            };
            let settled = settle_setting(Value(front), Value(back), &dealer);
            let expected = as_written(front, back, d_front, d_back);
            assert_eq!(
                settled, expected,
                "{front} {back} against {d_front} {d_back}"
            );
        }
    }

    /// Every outcome a game can produce is in exactly one row that adds into the total (the
    /// collection aside), at its own pay; so the rows' returns add up to the EV.
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
                    .filter(|r| r.pays.is_some() && r.outcomes.len() < OUTCOMES)
                    .filter(|r| r.outcomes.contains(&outcome))
                    .collect();
                if !outcome.is_possible(&wager) {
                    assert!(paying.is_empty(), "{outcome:?} in {text}");
                    continue;
                }
                assert_eq!(paying.len(), 1, "{outcome:?} in {text}");
                assert_eq!(paying[0].pays, Some(outcome.units(&wager)), "{outcome:?}");
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
        assert!(!rule.qualifies(Category::HighCard, QUEEN_SLOT));
        assert!(rule.qualifies(Category::HighCard, QUEEN_SLOT + 1));
        assert!(rule.qualifies(Category::HighCard, QUEEN_SLOT - 1));
        assert!(rule.qualifies(Category::OnePair, QUEEN_SLOT));
        let w = parse("[main_wager]\ndealer_qualifies = \"not_queen_high\"\n").unwrap();
        assert!(Outcome::NotQualified.is_possible(&w));
        let rows = return_rows(&w);
        assert!(
            rows.iter()
                .any(|r| r.event == "dealer queen-high pai gow (push)")
        );
    }
}
