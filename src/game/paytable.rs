//! Side-bet paytables, read from TOML.
//!
//! A paytable is an ordered list of lines, each an [`Event`] with its pay ("X to 1", or "X to Y")
//! and an optional human `label` (reports use [`Event::label`] when none is given). A pay is a
//! whole number of 1/[`BET_UNITS`] of the bet, so every report writes it exactly, in one format
//! ([`Pays::units`]: the net per unit bet, a losing bet -1).
//! A hand is paid by the FIRST line whose event it makes, so order matters where events overlap:
//! a line that can never pay because every hand making its event also makes the event of a line
//! above it is an error (list lines in pay order). Duplicated events are errors too.
//!
//! Events come in four kinds, and one paytable uses one kind:
//! - seven-card events, judged on the player's seven cards however they are set (or, with
//!   `judged_on = "dealer"`, on the dealer's; with `judged_on = "other_players"`, an Envy bonus,
//!   on each other player's hand at the table, every such hand paying its line to each player
//!   holding the bonus, which has no stake of its own: "$50 on a $5 bet" is `pays = "50 to 5"`,
//!   and a hand no line pays nets 0, not -1): a category event (`flush`, `three_of_a_kind`, ...)
//!   holds when some five of the seven cards, read at their best, make exactly that category (so a
//!   hand holding both a straight and three of a kind makes both, and pays whichever line comes
//!   first); plus the 7-card events below (royal match: a royal flush and a natural suited K-Q as
//!   the other two cards);
//! - three-card events, judged on the first three cards dealt to the player (Pai Gow Mania's
//!   3-card bet): a 3-card poker hand, the joker read every way the game's joker rule allows;
//! - setting events, judged on the player's hand as its way sets it (`full_house_behind`,
//!   `full_house_behind_plus_pair`: Jackpot Pai Gow's "+ pair" lines); which hands pay depends
//!   on the way, so an exact count takes the player's way (`exact bonus --player-way`);
//! - joker events, judged on how many jokers the player and the dealer hold.
//!
//! Guardrails, every error naming the file and the line: an unknown event lists the valid names;
//! `pays` is a whole number of 1/[`BET_UNITS`] of the bet, above 0 and at most [`MAX_PAYS`] to 1
//! (so every exact sum of counts times pays fits 128 bits: see [`MAX_PAY_UNITS`]); a claimed
//! hit rate lies in 0..=100% and a claimed return in -100%..; a line paying more than a line
//! above it whose hands can overlap gets a warning ([`Paytable::warnings`]), as does a bet whose
//! computed return is positive (found where the return is counted: `exact bonus`, `simulate`).
//! Whether the game's deck can make every event is checked when a game loads its bets.
//!
//! A paytable may state the hit rate or return its publisher claims; reports compare them with
//! the computed figures and never adjust to them.

use serde::Deserialize;

use crate::cards::RANKS;
use crate::eval::Category;
use crate::files::{ConfigError, check_name, line_column, parse_toml, read_named};
use crate::game::wager::BET_UNITS;

/// Shipped paytables: (name, origin, TOML text).
pub const SHIPPED_PAYTABLES: &[(&str, &str, &str)] = &[
    (
        "big-hand-bonus",
        "games/paytables/big-hand-bonus.toml",
        include_str!("../../games/paytables/big-hand-bonus.toml"),
    ),
    (
        "joker-bonus",
        "games/paytables/joker-bonus.toml",
        include_str!("../../games/paytables/joker-bonus.toml"),
    ),
    (
        "emperors-challenge",
        "games/paytables/emperors-challenge.toml",
        include_str!("../../games/paytables/emperors-challenge.toml"),
    ),
    (
        "pai-gow-mania-seven",
        "games/paytables/pai-gow-mania-seven.toml",
        include_str!("../../games/paytables/pai-gow-mania-seven.toml"),
    ),
    (
        "pai-gow-mania-three",
        "games/paytables/pai-gow-mania-three.toml",
        include_str!("../../games/paytables/pai-gow-mania-three.toml"),
    ),
    (
        "fortune",
        "games/paytables/fortune.toml",
        include_str!("../../games/paytables/fortune.toml"),
    ),
    (
        "fortune-envy",
        "games/paytables/fortune-envy.toml",
        include_str!("../../games/paytables/fortune-envy.toml"),
    ),
    (
        "queens-dragon",
        "games/paytables/queens-dragon.toml",
        include_str!("../../games/paytables/queens-dragon.toml"),
    ),
];

/// The most lines one paytable may have.
pub const MAX_LINES: usize = 16;

/// What a paytable line pays on.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Event {
    /// Seven suited cards in sequence, no joker (A-2-3-4-5-6-7 up to 8-9-T-J-Q-K-A).
    SevenCardNaturalStraightFlush,
    /// Seven cards in sequence in one suit, jokers filling gaps or not.
    SevenCardStraightFlush,
    /// A seven-card straight flush that uses a joker.
    SevenCardStraightFlushWithJoker,
    /// Four aces and two jokers.
    SixAces,
    /// Five aces among the seven cards (aces and jokers together at least five).
    FiveAces,
    /// Some five of the seven cards make exactly this category.
    Makes(Category),
    /// No five cards make a pair or better, and the highest card (a bug joker is an ace) is this
    /// rank (0 = deuce .. 12 = ace): a "pai gow" hand.
    PaiGowHigh(u8),
    /// A royal flush (natural or with a joker) and, as the other two cards, a natural suited
    /// king and queen (Fortune's "royal flush plus royal match").
    RoyalMatch,
    /// A three-card event (the first three cards dealt to the player).
    ThreeCard(ThreeCard),
    /// Judged on the player's hand as set by its way: the back makes exactly `back` and, with
    /// `front_pair`, the front is a pair (Jackpot Pai Gow's "+ pair" lines).
    Setting { back: Category, front_pair: bool },
    /// Joker events: (player's jokers, dealer's jokers) as listed.
    Jokers { player: u8, dealer: u8 },
}

/// Three-card poker events: some reading of the three cards (a joker read as the game's joker
/// rule allows) makes exactly this hand.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum ThreeCard {
    /// Three suited cards in sequence, no joker (A-2-3 to Q-K-A).
    NaturalStraightFlush,
    /// A three-card straight flush that uses a joker.
    StraightFlushWithJoker,
    /// Three of a kind.
    ThreeOfAKind,
    /// Three cards in sequence, not all one suit.
    Straight,
    /// Three cards of one suit, not in sequence.
    Flush,
    /// Exactly two cards of one rank.
    Pair,
}

impl ThreeCard {
    /// Every three-card event, with its name in paytable files (after `three_card_`).
    pub const ALL: [(ThreeCard, &'static str); 6] = [
        (ThreeCard::NaturalStraightFlush, "natural_straight_flush"),
        (
            ThreeCard::StraightFlushWithJoker,
            "straight_flush_with_joker",
        ),
        (ThreeCard::ThreeOfAKind, "three_of_a_kind"),
        (ThreeCard::Straight, "straight"),
        (ThreeCard::Flush, "flush"),
        (ThreeCard::Pair, "pair"),
    ];

    fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(e, _)| *e == self)
            .map_or("", |(_, n)| n)
    }
}

/// The three kinds of events.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BetKind {
    /// Judged on seven cards (the player's, or with `judged_on = "dealer"` the dealer's).
    SevenCards,
    /// Judged on the first three cards dealt to the player.
    FirstThree,
    /// Judged on the player's setting (its front and back as set by the player's way): the
    /// count depends on the way, so an exact count needs one.
    Setting,
    /// Judged on the jokers in the player's and the dealer's hands.
    Jokers,
}

impl Event {
    /// The kind of bet this event belongs to.
    pub fn kind(self) -> BetKind {
        match self {
            Event::Jokers { .. } => BetKind::Jokers,
            Event::ThreeCard(_) => BetKind::FirstThree,
            Event::Setting { .. } => BetKind::Setting,
            _ => BetKind::SevenCards,
        }
    }

    /// The jokers a deck needs for any deal to make this event.
    pub fn jokers_needed(self) -> u8 {
        use ThreeCard::StraightFlushWithJoker;
        match self {
            Event::SixAces => 2,
            Event::Jokers { player, dealer } => player + dealer,
            Event::SevenCardStraightFlushWithJoker
            | Event::FiveAces
            | Event::Makes(Category::FiveOfAKind)
            | Event::ThreeCard(StraightFlushWithJoker)
            | Event::Setting {
                back: Category::FiveOfAKind,
                ..
            } => 1,
            _ => 0,
        }
    }

    /// Whether no deal can make both events (so their lines' order does not matter).
    fn disjoint(self, other: Event) -> bool {
        use Event::*;
        let pai_gow_apart = |e: Event| !matches!(e, PaiGowHigh(_) | Makes(Category::HighCard));
        match (self, other) {
            (PaiGowHigh(_), e) | (e, PaiGowHigh(_)) => pai_gow_apart(e),
            (Jokers { .. }, Jokers { .. }) => self != other,
            (Setting { back: a, .. }, Setting { back: b, .. }) => a != b,
            (SevenCardNaturalStraightFlush, SevenCardStraightFlushWithJoker)
            | (SevenCardStraightFlushWithJoker, SevenCardNaturalStraightFlush) => true,
            // A natural straight flush has one reading, which makes nothing else.
            (ThreeCard(a), ThreeCard(b)) => {
                let natural = self::ThreeCard::NaturalStraightFlush;
                (a == natural || b == natural) && a != b
            }
            _ => false,
        }
    }

    /// Every event name a paytable accepts, for error messages (pai gow hands and the
    /// categories summarized).
    pub fn valid_names() -> String {
        let mut names: Vec<String> = [
            "seven_card_natural_straight_flush",
            "seven_card_straight_flush",
            "seven_card_straight_flush_with_joker",
            "six_aces",
            "five_aces",
            "royal_flush_plus_royal_match",
        ]
        .map(String::from)
        .to_vec();
        names.extend(Category::ALL_DESCENDING.map(|c| Event::Makes(c).name()));
        names.push("pai_gow_9_high (any rank 2..A, or 10)".to_string());
        names.extend(ThreeCard::ALL.map(|(e, _)| Event::ThreeCard(e).name()));
        names.push("full_house_behind and full_house_behind_plus_pair (any category)".to_string());
        names.extend(JOKER_EVENTS.map(|(n, _, _)| n.to_string()));
        names.join(", ")
    }

    /// The event's name as written in paytable files.
    pub fn name(self) -> String {
        match self {
            Event::SevenCardNaturalStraightFlush => "seven_card_natural_straight_flush".into(),
            Event::SevenCardStraightFlush => "seven_card_straight_flush".into(),
            Event::SevenCardStraightFlushWithJoker => "seven_card_straight_flush_with_joker".into(),
            Event::SixAces => "six_aces".into(),
            Event::FiveAces => "five_aces".into(),
            Event::Makes(c) => c.name().replace(' ', "_"),
            Event::PaiGowHigh(r) => format!("pai_gow_{}_high", rank_name(r)),
            Event::RoyalMatch => "royal_flush_plus_royal_match".into(),
            Event::ThreeCard(e) => format!("three_card_{}", e.name()),
            Event::Setting { back, front_pair } => format!(
                "{}_behind{}",
                back.name().replace(' ', "_"),
                if front_pair { "_plus_pair" } else { "" }
            ),
            Event::Jokers { player, dealer } => joker_event_name(player, dealer).to_string(),
        }
    }

    /// The event in words, for reports (a line's own `label` replaces it).
    pub fn label(self) -> String {
        match self {
            Event::SevenCardNaturalStraightFlush => "7-card straight flush, no joker".into(),
            Event::SevenCardStraightFlush => "7-card straight flush".into(),
            Event::SevenCardStraightFlushWithJoker => "7-card straight flush with a joker".into(),
            Event::SixAces => "Six aces (four aces and two jokers)".into(),
            Event::FiveAces => "Five aces".into(),
            Event::Makes(c) => capitalized(c.name()),
            Event::PaiGowHigh(r) => format!(
                "Pai gow (no pair, straight or flush), {} high",
                rank_word(r)
            ),
            Event::RoyalMatch => "Royal flush plus royal match (suited K-Q)".into(),
            Event::ThreeCard(e) => format!("3-card {}", e.name().replace('_', " ")),
            Event::Setting { back, front_pair } => format!(
                "{} behind{}",
                capitalized(back.name()),
                if front_pair { ", a pair in front" } else { "" }
            ),
            Event::Jokers { player, dealer } => joker_event_label(player, dealer).to_string(),
        }
    }

    /// Parses an event name (see [`Event::name`]).
    pub fn parse(text: &str) -> Option<Event> {
        let fixed = match text {
            "seven_card_natural_straight_flush" => Some(Event::SevenCardNaturalStraightFlush),
            "seven_card_straight_flush" => Some(Event::SevenCardStraightFlush),
            "seven_card_straight_flush_with_joker" => Some(Event::SevenCardStraightFlushWithJoker),
            "six_aces" => Some(Event::SixAces),
            "five_aces" => Some(Event::FiveAces),
            "royal_flush_plus_royal_match" => Some(Event::RoyalMatch),
            _ => None,
        };
        let three_card = || {
            let name = text.strip_prefix("three_card_")?;
            let found = ThreeCard::ALL.iter().find(|(_, n)| *n == name);
            found.map(|&(e, _)| Event::ThreeCard(e))
        };
        fixed
            .or_else(|| {
                Category::ALL_DESCENDING
                    .into_iter()
                    .find(|c| c.name().replace(' ', "_") == text)
                    .map(Event::Makes)
            })
            .or_else(|| parse_pai_gow(text))
            .or_else(three_card)
            .or_else(|| parse_setting_event(text))
            .or_else(|| parse_joker_event(text))
    }

    /// Events that every hand making `self` also makes (a line for one of them placed above a
    /// line for `self` would leave `self` unreachable).
    fn implied(self) -> &'static [Event] {
        use Category::*;
        const SEVEN_SF: &[Event] = &[Event::SevenCardStraightFlush, Event::Makes(StraightFlush)];
        match self {
            Event::SevenCardNaturalStraightFlush | Event::SevenCardStraightFlushWithJoker => {
                SEVEN_SF
            }
            Event::SevenCardStraightFlush => &[Event::Makes(StraightFlush)],
            Event::SixAces => &[Event::FiveAces, Event::Makes(FourOfAKind)],
            Event::FiveAces => &[Event::Makes(FourOfAKind)],
            Event::RoyalMatch => &[Event::Makes(RoyalFlush)],
            Event::Setting {
                back,
                front_pair: true,
            } => std::slice::from_ref(setting_behind(back)),
            _ => &[],
        }
    }
}

/// `<back>_behind` without the pair, for [`Event::implied`].
fn setting_behind(back: Category) -> &'static Event {
    const BEHIND: [Event; 11] = {
        let mut all = [Event::FiveAces; 11];
        let mut i = 0;
        while i < 11 {
            all[i] = Event::Setting {
                back: Category::ALL_DESCENDING[10 - i],
                front_pair: false,
            };
            i += 1;
        }
        all
    };
    &BEHIND[back as usize]
}

const JOKER_EVENTS: [(&str, u8, u8); 6] = [
    ("two_jokers_player", 2, 0),
    ("two_jokers_dealer", 0, 2),
    ("one_joker_each", 1, 1),
    ("one_joker_player", 1, 0),
    ("one_joker_dealer", 0, 1),
    ("no_jokers", 0, 0),
];

/// A joker event in words.
fn joker_event_label(player: u8, dealer: u8) -> &'static str {
    match (player, dealer) {
        (2, 0) => "Two jokers in the player's hand",
        (0, 2) => "Two jokers in the dealer's hand",
        (1, 1) => "One joker in each hand",
        (1, 0) => "One joker, in the player's hand",
        (0, 1) => "One joker, in the dealer's hand",
        (0, 0) => "No joker in either hand",
        _ => "Jokers",
    }
}

/// The text with its first letter upper case.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// A rank in words for labels ("9", "10", "jack", "ace").
fn rank_word(rank: u8) -> &'static str {
    [
        "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace",
    ][rank as usize]
}

fn joker_event_name(player: u8, dealer: u8) -> &'static str {
    JOKER_EVENTS
        .iter()
        .find(|(_, p, d)| (*p, *d) == (player, dealer))
        .map_or("jokers", |(n, _, _)| n)
}

fn parse_joker_event(text: &str) -> Option<Event> {
    JOKER_EVENTS
        .iter()
        .find(|(n, _, _)| *n == text)
        .map(|&(_, player, dealer)| Event::Jokers { player, dealer })
}

fn rank_name(rank: u8) -> char {
    b"23456789TJQKA"[rank as usize] as char
}

/// `<category>_behind` or `<category>_behind_plus_pair`.
fn parse_setting_event(text: &str) -> Option<Event> {
    let (back, front_pair) = match text.strip_suffix("_behind_plus_pair") {
        Some(back) => (back, true),
        None => (text.strip_suffix("_behind")?, false),
    };
    let back =
        (Category::ALL_DESCENDING.into_iter()).find(|c| c.name().replace(' ', "_") == back)?;
    Some(Event::Setting { back, front_pair })
}

fn parse_pai_gow(text: &str) -> Option<Event> {
    let rank = text.strip_prefix("pai_gow_")?.strip_suffix("_high")?;
    let rank = match rank {
        "10" => 8,
        r if r.len() == 1 => {
            let upper = r.to_ascii_uppercase();
            b"23456789TJQKA"
                .iter()
                .position(|&c| upper.as_bytes()[0] == c)? as u8
        }
        _ => return None,
    };
    (rank < RANKS).then_some(Event::PaiGowHigh(rank))
}

/// A pay of `to_win` units for every `stake` units wagered ("X to Y"; "X to 1" when a number).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pays {
    pub to_win: u64,
    pub stake: u64,
}

impl Pays {
    /// The pay as a multiple of the stake.
    pub fn ratio(self) -> f64 {
        self.to_win as f64 / self.stake as f64
    }

    /// What a winning bet nets, in [`BET_UNITS`] per unit bet (exact: checked at load).
    pub fn units(self) -> i64 {
        (u128::from(self.to_win) * BET_UNITS as u128 / u128::from(self.stake)) as i64
    }

    /// Whether the pay is a whole number of 1/[`BET_UNITS`] of the bet.
    fn is_whole_units(self) -> bool {
        let scaled = u128::from(self.to_win) * BET_UNITS as u128;
        scaled.is_multiple_of(u128::from(self.stake))
    }

    /// Whether the pay is at most [`MAX_PAYS`] to 1.
    fn is_bounded(self) -> bool {
        u128::from(self.to_win) * BET_UNITS as u128 / u128::from(self.stake) <= MAX_PAY_UNITS
    }

    /// The same pay in lowest terms (a whole-unit pay's stake then divides [`BET_UNITS`], so
    /// the least common multiple of a paytable's stakes does too).
    fn reduced(self) -> Pays {
        let g = crate::combin::gcd(self.to_win, self.stake).max(1);
        Pays {
            to_win: self.to_win / g,
            stake: self.stake / g,
        }
    }

    fn parse(text: &str) -> Option<Pays> {
        let (x, y) = text.split_once(" to ")?;
        let pays = Pays {
            to_win: x.trim().replace(',', "").parse().ok()?,
            stake: y.trim().replace(',', "").parse().ok()?,
        };
        (pays.stake > 0).then_some(pays)
    }
}

impl std::fmt::Display for Pays {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} to {}", self.to_win, self.stake)
    }
}

/// The largest pay a line may have, "X to 1" (a million to one).
pub const MAX_PAYS: u64 = 1_000_000;

/// The largest pay a line may have, in bet units. Why this bound: the largest exact count is
/// every (player, dealer) pair of 7-card hands of 54 cards, about 1.1 x 10^16 deals, and
/// `count x net^2` at `net` = 10^10 units is about 1.1 x 10^36, within `u128` (3.4 x 10^38), so
/// exact moments never overflow; at 10^9 to 1 (10^13 units) it would not fit.
pub const MAX_PAY_UNITS: u128 = MAX_PAYS as u128 * BET_UNITS as u128;

/// One line of a paytable.
#[derive(Clone, PartialEq, Debug)]
pub struct Line {
    pub event: Event,
    /// The line in words: the file's `label`, else [`Event::label`].
    pub label: String,
    pub pays: Pays,
    /// The publisher's count of hands for this line, where published.
    pub claimed_combinations: Option<u64>,
    /// The line of the file where this `[[line]]` starts (for errors).
    pub at: usize,
}

/// Where a seven-card bet looks.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JudgedOn {
    /// The player's own cards.
    #[default]
    Player,
    /// The dealer's seven cards (EZ Pai Gow's Queen's Dragon).
    Dealer,
    /// Every other player's seven cards at the table (Fortune's Envy bonus): a line pays for
    /// each other player's hand that makes it, and the bonus has no stake of its own (a round
    /// where no other hand makes a line costs nothing). Seven-card events only.
    OtherPlayers,
}

/// A validated paytable.
#[derive(Clone, PartialEq, Debug)]
pub struct Paytable {
    pub name: String,
    pub source: String,
    pub origin: String,
    /// The exact text read, for hashing into manifests.
    pub text: String,
    pub kind: BetKind,
    /// Whose seven cards a seven-card bet is judged on.
    pub judged_on: JudgedOn,
    pub lines: Vec<Line>,
    /// The publisher's claimed hit rate (any prize), as a percentage.
    pub claimed_hit_rate: Option<Claim>,
    /// The publisher's claimed player return per unit bet (negative: the house edge), as a
    /// percentage.
    pub claimed_return: Option<Claim>,
    /// What loads but looks wrong (lines out of pay order), each naming the file and line:
    /// printed by the commands that use the bet and written to their manifests.
    pub warnings: Vec<String>,
}

/// A published percentage and the precision it was published to.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Claim {
    /// The figure, in percent.
    pub percent: f64,
    /// Digits after the decimal point as published.
    pub decimals: u32,
}

impl Claim {
    /// The most digits after the point a claim may be published to.
    pub const MAX_DECIMALS: u32 = 12;

    /// Parses "8.82%" (the % sign is required, so a fraction is never mistaken for a percent).
    pub fn parse(text: &str) -> Option<Claim> {
        let number = text.trim().strip_suffix('%')?.trim();
        let percent: f64 = number.parse().ok()?;
        let decimals = number.split_once('.').map_or(0, |(_, d)| d.len() as u32);
        percent.is_finite().then_some(Claim { percent, decimals })
    }

    /// Whether `computed_percent` rounds to the claim at the claim's published precision.
    pub fn agrees_with(&self, computed_percent: f64) -> bool {
        let scale = 10f64.powi(self.decimals as i32);
        (computed_percent * scale).round() == (self.percent * scale).round()
    }
}

impl std::fmt::Display for Claim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:.*}%", self.decimals as usize, self.percent)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PaytableFile {
    name: String,
    #[serde(default)]
    source: String,
    #[serde(default)]
    notes: String,
    claimed_hit_rate: Option<toml::Spanned<String>>,
    claimed_return: Option<toml::Spanned<String>>,
    judged_on: Option<toml::Spanned<JudgedOn>>,
    #[serde(rename = "line")]
    lines: Vec<toml::Spanned<LineFile>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LineFile {
    event: String,
    /// The line in words, for reports (default: the event's own words).
    label: Option<String>,
    pays: PaysFile,
    /// The publisher's count of hands for this line, where published.
    claimed_combinations: Option<u64>,
}

/// `pays`: a number (X to 1) or a text "X to Y".
enum PaysFile {
    ToOne(i64),
    Text(String),
}

impl<'de> Deserialize<'de> for PaysFile {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<PaysFile, D::Error> {
        deserializer.deserialize_any(PaysVisitor)
    }
}

/// The refusal of a pay of zero or less (`{x}`: the pay as written), reported at the value.
const NOT_POSITIVE: &str =
    "pays = {x}: a line must pay more than 0 (a losing hand is simply not listed)";

/// Reads `pays` with messages in the file's terms (an untagged enum would name its Rust type).
struct PaysVisitor;

impl serde::de::Visitor<'_> for PaysVisitor {
    type Value = PaysFile;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a whole number (X to 1) or a text \"X to Y\"")
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<PaysFile, E> {
        match i64::try_from(v) {
            Ok(0) => Err(E::custom(NOT_POSITIVE.replace("{x}", "0"))),
            Ok(x) => Ok(PaysFile::ToOne(x)),
            Err(_) => Err(E::custom(format!("pays = {v}: at most {MAX_PAYS} to 1"))),
        }
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<PaysFile, E> {
        match v {
            ..=0 => Err(E::custom(NOT_POSITIVE.replace("{x}", &v.to_string()))),
            x => Ok(PaysFile::ToOne(x)),
        }
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<PaysFile, E> {
        Ok(PaysFile::Text(v.to_string()))
    }
}

impl Paytable {
    /// Loads a shipped paytable by name, or a paytable file by path.
    pub fn load(name_or_path: &str) -> Result<Paytable, ConfigError> {
        let (text, origin) = read_named(name_or_path, SHIPPED_PAYTABLES, "paytable")?;
        Paytable::from_toml(&text, &origin)
    }

    /// Parses and validates a paytable.
    pub fn from_toml(text: &str, origin: &str) -> Result<Paytable, ConfigError> {
        let file: PaytableFile = parse_toml(text, origin)?;
        check_name(origin, text, &file.name)?;
        let _ = &file.notes;
        let at = |span: std::ops::Range<usize>, message: String| {
            ConfigError::at(origin, text, span.start, message)
        };
        if file.lines.is_empty() {
            return Err(ConfigError::at_key(
                origin,
                text,
                &["line"],
                "a paytable needs at least one [[line]]",
            ));
        }
        let mut lines: Vec<Line> = Vec::new();
        for spanned in &file.lines {
            let span = spanned.span();
            let mut line = parse_line(spanned.get_ref()).map_err(|m| at(span.clone(), m))?;
            line.at = line_column(text, span.start).0;
            check_reachable(&lines, &line).map_err(|m| at(span.clone(), m))?;
            lines.push(line);
        }
        let kind = lines[0].event.kind();
        if let Some(at_fault) = lines.iter().position(|l| l.event.kind() != kind) {
            let other = &lines[at_fault];
            return Err(at(
                file.lines[at_fault].span(),
                format!(
                    "event '{}' is judged on other cards than '{}': one paytable judges the seven cards, the first three cards, or the jokers",
                    other.event.name(),
                    lines[0].event.name()
                ),
            ));
        }
        let judged_on = file
            .judged_on
            .as_ref()
            .map_or(JudgedOn::Player, |j| *j.get_ref());
        if let Some(spanned) = &file.judged_on {
            check_judged_on(judged_on, kind).map_err(|m| at(spanned.span(), m))?;
        }
        let claim = |name: &str, spanned: &Option<toml::Spanned<String>>, range: (f64, f64)| {
            spanned
                .as_ref()
                .map(|t| parse_claim(name, t.get_ref(), range).map_err(|m| at(t.span(), m)))
                .transpose()
        };
        let claimed_hit_rate = claim("claimed_hit_rate", &file.claimed_hit_rate, (0.0, 100.0))?;
        let claimed_return = claim("claimed_return", &file.claimed_return, (-100.0, f64::MAX))?;
        let warnings = pay_order_warnings(&lines, origin);
        Ok(Paytable {
            name: file.name,
            source: file.source,
            origin: origin.to_string(),
            text: text.to_string(),
            kind,
            judged_on,
            lines,
            claimed_hit_rate,
            claimed_return,
            warnings,
        })
    }

    /// Refuses a bet that `deck` cannot pay: an event needing more jokers than it holds (the
    /// error names the bet, the event and the file's line).
    pub fn check_deck(&self, deck_jokers: u8, deck_cards: usize) -> Result<(), ConfigError> {
        match self
            .lines
            .iter()
            .find(|l| l.event.jokers_needed() > deck_jokers)
        {
            None => Ok(()),
            Some(line) => Err(ConfigError::At {
                origin: self.origin.clone(),
                line: line.at,
                column: 1,
                message: format!(
                    "side bet '{}': event '{}' needs {} joker(s), and the game's deck ({} cards) has {}: no deal can make it",
                    self.name,
                    line.event.name(),
                    line.event.jokers_needed(),
                    deck_cards,
                    deck_jokers
                ),
            }),
        }
    }

    /// Whether this is an Envy bonus: paid on other players' hands, with no stake of its own.
    pub fn is_envy(&self) -> bool {
        self.judged_on == JudgedOn::OtherPlayers
    }

    /// What a hand no line pays nets, in [`BET_UNITS`] per unit bet: the bet is lost (-1), but
    /// an Envy bonus has no stake to lose (0).
    pub fn no_line_units(&self) -> i64 {
        if self.is_envy() { 0 } else { -BET_UNITS }
    }

    /// How many players one hand's line is paid to in a round of `players` players: every other
    /// player for an Envy bonus, else the hand's own player.
    pub fn payees(&self, players: u8) -> u8 {
        if self.is_envy() {
            players.saturating_sub(1)
        } else {
            1
        }
    }

    /// A warning when a bet pays back more than it takes (`player_ev` per unit bet, counted by
    /// the caller), naming the file. An Envy bonus takes nothing, so it never gets one.
    pub fn return_warning(&self, player_ev: f64) -> Option<String> {
        (player_ev > 0.0 && !self.is_envy()).then(|| {
            format!(
                "{}: side bet '{}' has a positive player return ({:+.4}%): the house loses on it",
                self.origin,
                self.name,
                100.0 * player_ev
            )
        })
    }
}

/// Parses a claimed percentage within `range` (inclusive, in percent).
fn parse_claim(name: &str, text: &str, (low, high): (f64, f64)) -> Result<Claim, String> {
    let claim = Claim::parse(text)
        .ok_or_else(|| format!("{name} = \"{text}\": expected a percentage such as \"8.82%\""))?;
    if claim.decimals > Claim::MAX_DECIMALS {
        return Err(format!(
            "{name} = \"{text}\": at most {} digits after the point (a claim is compared at its \
             published precision, and a 64-bit float holds about 16 digits)",
            Claim::MAX_DECIMALS
        ));
    }
    if !(low..=high).contains(&claim.percent) {
        let bound = match high {
            h if h < f64::MAX => format!("{low}% to {h}%"),
            _ => format!("at least {low}%"),
        };
        return Err(format!("{name} = \"{text}\": must be {bound}"));
    }
    Ok(claim)
}

/// Refuses a `judged_on` that the bet's kind or this tool cannot settle.
fn check_judged_on(judged_on: JudgedOn, kind: BetKind) -> Result<(), String> {
    match (judged_on, kind) {
        (JudgedOn::Player, _) | (_, BetKind::SevenCards) => Ok(()),
        (JudgedOn::Dealer, _) => {
            Err("judged_on = \"dealer\" applies only to seven-card events".to_string())
        }
        (JudgedOn::OtherPlayers, _) => Err(
            "judged_on = \"other_players\" (an Envy bonus) applies only to seven-card events"
                .to_string(),
        ),
    }
}

/// Warnings for lines that pay more than a line above them whose hands can overlap (a hand
/// making both is paid the smaller amount): usually lines out of pay order.
fn pay_order_warnings(lines: &[Line], origin: &str) -> Vec<String> {
    let mut warnings = Vec::new();
    for (j, line) in lines.iter().enumerate() {
        let above = lines[..j].iter().find(|a| {
            u128::from(a.pays.to_win) * u128::from(line.pays.stake)
                < u128::from(line.pays.to_win) * u128::from(a.pays.stake)
                && !a.event.disjoint(line.event)
        });
        if let Some(a) = above {
            warnings.push(format!(
                "{origin}:{}: line '{}' pays {} but '{}' above it (line {}) pays {}: a hand making both is paid the smaller; list lines in pay order",
                line.at,
                line.event.name(),
                line.pays,
                a.event.name(),
                a.at,
                a.pays
            ));
        }
    }
    warnings
}

fn parse_line(line: &LineFile) -> Result<Line, String> {
    let event = Event::parse(&line.event).ok_or_else(|| {
        format!(
            "unknown event '{}'; valid events: {}",
            line.event,
            Event::valid_names()
        )
    })?;
    let (pays, written) = match &line.pays {
        PaysFile::ToOne(x) if *x <= 0 => {
            return Err(format!(
                "pays = {x}: a line must pay more than 0 (a losing hand is simply not listed)"
            ));
        }
        PaysFile::ToOne(x) => (
            Pays {
                to_win: x.unsigned_abs(),
                stake: 1,
            },
            x.to_string(),
        ),
        PaysFile::Text(t) => (
            Pays::parse(t).ok_or_else(|| {
                format!("pays = \"{t}\": expected a number (X to 1) or \"X to Y\" (whole numbers)")
            })?,
            format!("\"{t}\""),
        ),
    };
    if pays.to_win == 0 {
        return Err(format!(
            "pays = {written}: a line must pay more than 0 (a losing hand is simply not listed)"
        ));
    }
    if !pays.is_bounded() {
        return Err(format!(
            "pays = {written}: at most {MAX_PAYS} to 1 (so that every exact sum of counts times pays fits)"
        ));
    }
    if !pays.is_whole_units() {
        return Err(format!(
            "pays = {written}: a pay must be a whole number of 1/{BET_UNITS} of the bet (Y must \
             divide X x {BET_UNITS}), so that reports write it exactly"
        ));
    }
    let label = match &line.label {
        Some(text) if text.trim().is_empty() => {
            return Err("label = \"\": a label needs words".into());
        }
        Some(text) => text.trim().to_string(),
        None => event.label(),
    };
    Ok(Line {
        event,
        label,
        pays: pays.reduced(),
        claimed_combinations: line.claimed_combinations,
        at: 0,
    })
}

/// Refuses a duplicated event, and a line that a line above it would always pre-empt.
fn check_reachable(above: &[Line], line: &Line) -> Result<(), String> {
    for (i, earlier) in above.iter().enumerate() {
        if earlier.event == line.event {
            return Err(format!(
                "event '{}' is already on line {} of the paytable",
                line.event.name(),
                i + 1
            ));
        }
        if line.event.implied().contains(&earlier.event) {
            return Err(format!(
                "'{}' can never pay: every such hand also makes '{}', listed above it (line {}); list lines in pay order",
                line.event.name(),
                earlier.event.name(),
                i + 1
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_name_round_trips() {
        let mut events = vec![
            Event::SevenCardNaturalStraightFlush,
            Event::SevenCardStraightFlush,
            Event::SevenCardStraightFlushWithJoker,
            Event::SixAces,
            Event::FiveAces,
        ];
        events.extend(Category::ALL_DESCENDING.map(Event::Makes));
        events.extend((0..13).map(Event::PaiGowHigh));
        events.extend(JOKER_EVENTS.map(|(_, player, dealer)| Event::Jokers { player, dealer }));
        for event in events {
            assert_eq!(Event::parse(&event.name()), Some(event), "{}", event.name());
        }
        assert_eq!(Event::parse("pai_gow_10_high"), Some(Event::PaiGowHigh(8)));
        assert_eq!(Event::parse("flushh"), None);
    }

    #[test]
    fn every_shipped_paytable_loads() {
        for (name, _, _) in SHIPPED_PAYTABLES {
            Paytable::load(name).unwrap();
        }
    }

    fn load(lines: &str) -> Result<Paytable, String> {
        Paytable::from_toml(&format!("name = \"t\"\n{lines}"), "t.toml").map_err(|e| e.to_string())
    }

    #[test]
    fn bad_paytables_name_file_and_line() {
        let unknown =
            load("[[line]]\nevent = \"flush\"\npays = 4\n[[line]]\nevent = \"flushh\"\npays = 1\n");
        assert!(
            unknown.as_ref().unwrap_err().starts_with("t.toml:5:"),
            "{unknown:?}"
        );
        let bad_pays = load("[[line]]\nevent = \"flush\"\npays = \"four\"\n").unwrap_err();
        assert!(bad_pays.contains("expected a number"), "{bad_pays}");
        let duplicate =
            load("[[line]]\nevent = \"flush\"\npays = 4\n[[line]]\nevent = \"flush\"\npays = 3\n")
                .unwrap_err();
        assert!(duplicate.contains("already on line 1"), "{duplicate}");
        let order = load(
            "[[line]]\nevent = \"five_aces\"\npays = 4\n[[line]]\nevent = \"six_aces\"\npays = 9\n",
        )
        .unwrap_err();
        assert!(order.contains("can never pay"), "{order}");
        let mixed = load(
            "[[line]]\nevent = \"flush\"\npays = 4\n[[line]]\nevent = \"one_joker_each\"\npays = 3\n",
        )
        .unwrap_err();
        assert!(mixed.contains("one paytable judges"), "{mixed}");
        assert!(mixed.starts_with("t.toml:5:"), "{mixed}");
        assert!(load("line = []\n").is_err());
        assert!(load("[[line]]\nevent = \"flush\"\npays = 4\nextra = 1\n").is_err());
    }

    #[test]
    fn claims_keep_their_published_precision() {
        let claim = Claim::parse("8.82%").unwrap();
        assert_eq!(claim.decimals, 2);
        assert!(claim.agrees_with(8.8249));
        assert!(!claim.agrees_with(8.5994));
        assert_eq!(claim.to_string(), "8.82%");
        assert!(Claim::parse("0.0882").is_none());
        let too_fine = "claimed_return = \"-4.17140000000000000000001%\"\n[[line]]\nevent = \"flush\"\npays = 4\n";
        let error = load(too_fine).unwrap_err().to_string();
        assert!(
            error.contains("at most 12 digits after the point"),
            "{error}"
        );
        assert!(
            load("claimed_hit_rate = \"lots\"\n[[line]]\nevent = \"flush\"\npays = 4\n").is_err()
        );
    }

    #[test]
    fn pays_accepts_x_to_y() {
        let table = load("[[line]]\nevent = \"flush\"\npays = \"3 to 2\"\n").unwrap();
        assert_eq!(
            table.lines[0].pays,
            Pays {
                to_win: 3,
                stake: 2
            }
        );
        assert_eq!(table.lines[0].pays.units(), 15_000);
        let thirds = load("[[line]]\nevent = \"flush\"\npays = \"1 to 3\"\n").unwrap_err();
        assert!(thirds.contains("whole number of 1/10000"), "{thirds}");
        assert!(load("[[line]]\nevent = \"flush\"\npays = 2000000\n").is_err());
    }

    #[test]
    fn lines_take_a_label_or_the_event_in_words() {
        let table = load(
            "[[line]]\nevent = \"seven_card_natural_straight_flush\"\nlabel = \"Natural 7-card straight flush\"\npays = 8888\n\
             [[line]]\nevent = \"pai_gow_T_high\"\npays = 5\n[[line]]\nevent = \"full_house\"\npays = 5\n",
        )
        .unwrap();
        let labels: Vec<&str> = table.lines.iter().map(|l| l.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "Natural 7-card straight flush",
                "Pai gow (no pair, straight or flush), 10 high",
                "Full house"
            ]
        );
        assert_eq!(
            Event::Jokers {
                player: 1,
                dealer: 1
            }
            .label(),
            "One joker in each hand"
        );
        assert!(load("[[line]]\nevent = \"flush\"\nlabel = \" \"\npays = 4\n").is_err());
    }

    #[test]
    fn unknown_events_list_the_valid_ones() {
        let error = load("[[line]]\nevent = \"royal\"\npays = 4\n").unwrap_err();
        assert!(error.starts_with("t.toml:2:"), "{error}");
        for name in [
            "valid events: ",
            "royal_flush_plus_royal_match",
            "three_card_pair",
            "no_jokers",
        ] {
            assert!(error.contains(name), "{error}");
        }
        for name in Event::valid_names()
            .split(", ")
            .filter(|n| !n.contains(' '))
        {
            assert!(Event::parse(name).is_some(), "{name}");
        }
    }

    #[test]
    fn pays_are_positive_bounded_and_kept_in_lowest_terms() {
        let line = |pays: &str| load(&format!("[[line]]\nevent = \"flush\"\npays = {pays}\n"));
        for bad in [
            "0",
            "-3",
            "\"0 to 5\"",
            "1000001",
            "\"9223372036854775807 to 1\"",
            "9223372036854775808",
        ] {
            let error = line(bad).unwrap_err();
            assert!(error.starts_with("t.toml:"), "{bad}: {error}");
        }
        assert!(line("0").unwrap_err().contains("more than 0"));
        assert!(
            line("1000001")
                .unwrap_err()
                .contains("at most 1000000 to 1")
        );
        assert!(line("1000000").is_ok());
        let six_to_four = line("\"6 to 4\"").unwrap().lines[0].pays;
        assert_eq!((six_to_four.to_win, six_to_four.stake), (3, 2));
        // The bound keeps the largest exact sum (every pair of 54-card hands at the top pay,
        // squared) within 128 bits.
        let deals = 177_100_560u128 * 62_891_499;
        assert!(deals.checked_mul(MAX_PAY_UNITS * MAX_PAY_UNITS).is_some());
    }

    #[test]
    fn claims_must_be_possible() {
        let with = |claim: &str| load(&format!("{claim}\n[[line]]\nevent = \"flush\"\npays = 4\n"));
        assert!(
            with("claimed_hit_rate = \"250%\"")
                .unwrap_err()
                .starts_with("t.toml:2:")
        );
        assert!(with("claimed_hit_rate = \"-1%\"").is_err());
        assert!(with("claimed_hit_rate = \"100%\"").is_ok());
        assert!(with("claimed_return = \"-150%\"").is_err());
        assert!(with("claimed_return = \"25%\"").is_ok());
    }

    #[test]
    fn lines_out_of_pay_order_warn_unless_no_hand_makes_both() {
        let table = load(
            "[[line]]\nevent = \"three_of_a_kind\"\npays = 2\n[[line]]\nevent = \"straight\"\npays = 3\n\
             [[line]]\nevent = \"pai_gow_9_high\"\npays = 40\n",
        )
        .unwrap();
        assert_eq!(table.warnings.len(), 1, "{:?}", table.warnings);
        assert!(table.warnings[0].starts_with("t.toml:5: line 'straight'"));
        for (name, _, _) in SHIPPED_PAYTABLES {
            assert_eq!(
                Paytable::load(name).unwrap().warnings,
                Vec::<String>::new(),
                "{name}"
            );
        }
        assert!(table.return_warning(0.01).is_some() && table.return_warning(-0.01).is_none());
    }

    #[test]
    fn bets_the_deck_cannot_make_are_refused_with_the_bet_event_and_line() {
        let table = Paytable::load("joker-bonus").unwrap();
        let error = table.check_deck(0, 52).unwrap_err().to_string();
        assert!(
            error.contains("joker-bonus.toml:") && error.contains("'Joker Bonus'"),
            "{error}"
        );
        assert!(table.check_deck(1, 53).is_err());
        assert!(table.check_deck(2, 54).is_ok());
        let big_hand = Paytable::load("big-hand-bonus").unwrap();
        let error = big_hand.check_deck(1, 53).unwrap_err().to_string();
        assert!(error.contains("'six_aces' needs 2 joker(s)"), "{error}");
        assert!(
            Paytable::load("fortune")
                .unwrap()
                .check_deck(0, 52)
                .is_err()
        );
        assert!(
            Paytable::load("pai-gow-mania-three")
                .unwrap()
                .check_deck(1, 53)
                .is_ok()
        );
    }

    #[test]
    fn judged_on_the_dealer_or_other_players() {
        let three = "[[line]]\nevent = \"three_card_pair\"\npays = 1\n";
        assert!(load(&format!("judged_on = \"dealer\"\n{three}")).is_err());
        let seven = "[[line]]\nevent = \"pai_gow_Q_high\"\npays = 50\n";
        let dealer = load(&format!("judged_on = \"dealer\"\n{seven}")).unwrap();
        assert_eq!(dealer.judged_on, JudgedOn::Dealer);
        let envy = load(&format!("judged_on = \"other_players\"\n{seven}")).unwrap();
        assert!(envy.is_envy() && envy.no_line_units() == 0);
        assert_eq!((envy.payees(6), envy.payees(1)), (5, 0));
        assert!(
            envy.return_warning(0.01).is_none(),
            "an Envy bonus takes no stake"
        );
        assert_eq!((dealer.no_line_units(), dealer.payees(6)), (-BET_UNITS, 1));
        let envy = load(&format!("judged_on = \"other_players\"\n{three}")).unwrap_err();
        assert!(envy.starts_with("t.toml:2:"), "{envy}");
        assert!(envy.contains("only to seven-card events"), "{envy}");
    }

    #[test]
    fn setting_events_parse_and_keep_pay_order() {
        let plus = Event::parse("full_house_behind_plus_pair").unwrap();
        assert_eq!(
            plus,
            Event::Setting {
                back: Category::FullHouse,
                front_pair: true
            }
        );
        assert_eq!(Event::parse(&plus.name()), Some(plus));
        assert_eq!(plus.kind(), BetKind::Setting);
        let order = load(
            "[[line]]\nevent = \"flush_behind\"\npays = 4\n[[line]]\nevent = \"flush_behind_plus_pair\"\npays = 9\n",
        )
        .unwrap_err();
        assert!(order.contains("can never pay"), "{order}");
        assert!(load("[[line]]\nevent = \"flush_behind\"\npays = 4\n[[line]]\nevent = \"flush\"\npays = 4\n").is_err());
    }
}
