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
//! Every event is declared once, in the declaration table [`Event::declaration`]: its name (and
//! aliases), its words, its kind, the jokers a deck needs for it, the events it implies (so a
//! line it always pre-empts is refused) and the cells it lies in (so lines that never share a
//! deal are not warned about). [`Event::all`] lists every event; parsing, printing and the list
//! of valid names read the table, and whether a deal makes an event is its predicate,
//! `game::events::makes`. The tests iterate the table and check each declared fact against the
//! predicate on deals.
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
        "fortune-1",
        "games/paytables/fortune-1.toml",
        include_str!("../../games/paytables/fortune-1.toml"),
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
///
/// Every event's facts (its name, its words, what it is judged on, the jokers it needs, the
/// events it implies and the deals it can never share) are declared once, in
/// [`Event::declaration`], and [`Event::all`] lists every event; whether a deal makes an event
/// is its predicate, `game::events::makes`. Adding an event is one arm there, one in the
/// predicate (both matches have no wildcard, so neither compiles until it is given) and its
/// family in [`Event::all`] (a family missing there cannot be parsed, so no paytable can use it).
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
    /// Three pairs and a single among the seven cards, each joker read as an ace (Fortune's
    /// paytable 1 pushes on it).
    ThreePair,
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
    /// Every three-card event, in pay order.
    pub const ALL: [ThreeCard; 6] = [
        ThreeCard::NaturalStraightFlush,
        ThreeCard::StraightFlushWithJoker,
        ThreeCard::ThreeOfAKind,
        ThreeCard::Straight,
        ThreeCard::Flush,
        ThreeCard::Pair,
    ];

    /// The name in paytable files, after `three_card_`.
    fn name(self) -> &'static str {
        match self {
            ThreeCard::NaturalStraightFlush => "natural_straight_flush",
            ThreeCard::StraightFlushWithJoker => "straight_flush_with_joker",
            ThreeCard::ThreeOfAKind => "three_of_a_kind",
            ThreeCard::Straight => "straight",
            ThreeCard::Flush => "flush",
            ThreeCard::Pair => "pair",
        }
    }
}

/// The kinds of events: what an event is judged on.
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

/// A split of one kind's deals into cells, in which events declare their place
/// ([`Declaration::cells`]): two events in different cells of one partition never share a deal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Partition {
    /// Seven cards: a pai gow hand (cell 0: no five make a pair or better) or not (cell 1).
    PaiGow,
    /// A seven-card straight flush without a joker (cell 0) or with one (cell 1).
    SevenCardStraightFlushJoker,
    /// Three cards: a natural straight flush (cell 0: one reading, which makes nothing else) or
    /// not (cell 1).
    ThreeCardNatural,
    /// The back as set: its category.
    Back,
    /// The jokers in the two hands: the player's times three plus the dealer's.
    Jokers,
}

/// A cell of a [`Partition`].
pub type Cell = (Partition, u8);

/// Everything known of one event but whether a deal makes it: its row of the declaration
/// table, [`Event::declaration`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Declaration {
    /// The name in paytable files (parsed and printed as this).
    pub name: String,
    /// Other spellings a paytable may use (`pai_gow_10_high`, `pai_gow_t_high`).
    pub aliases: Vec<String>,
    /// The event in words, for reports (a line's own `label` replaces it).
    pub label: String,
    /// How the list of valid events shows it (errors, `docs/reference/paytables.md`): its name,
    /// or for a family of many events one member's name and the rest in words, once.
    pub listed_as: String,
    /// What the event is judged on (one paytable judges one kind).
    pub kind: BetKind,
    /// The jokers a deck needs for any deal to make it.
    pub jokers_needed: u8,
    /// Events that every deal making it also makes (a line for one of them placed above a line
    /// for it would leave it unreachable).
    pub implies: Vec<Event>,
    /// Its cells: it never shares a deal with an event in another cell of the same partition
    /// (so their lines' order does not matter).
    pub cells: Vec<Cell>,
}

impl Event {
    /// The declaration table: every fact of every event, one arm a family, each naming every
    /// fact (no wildcard and no defaults, so a new event compiles only once all are given).
    /// The claims (implications, cells, jokers) are checked against the predicate on hands by
    /// `game::events`' tests.
    pub fn declaration(self) -> Declaration {
        use Category::{FourOfAKind, RoyalFlush, StraightFlush};
        use Partition::{Back, PaiGow, SevenCardStraightFlushJoker, ThreeCardNatural};
        let name = self.name_as_written();
        let plain = |label: &str, kind, jokers_needed, implies, cells| Declaration {
            aliases: Vec::new(),
            label: label.to_string(),
            listed_as: name.clone(),
            kind,
            jokers_needed,
            implies,
            cells,
            name: name.clone(),
        };
        const NOT_PAI_GOW: Cell = (PaiGow, 1);
        let seven_card_straight_flush =
            vec![Event::SevenCardStraightFlush, Event::Makes(StraightFlush)];
        match self {
            Event::SevenCardNaturalStraightFlush => plain(
                "7-card straight flush, no joker",
                BetKind::SevenCards,
                0,
                seven_card_straight_flush,
                vec![NOT_PAI_GOW, (SevenCardStraightFlushJoker, 0)],
            ),
            Event::SevenCardStraightFlush => plain(
                "7-card straight flush",
                BetKind::SevenCards,
                0,
                Vec::new(),
                vec![NOT_PAI_GOW],
            ),
            Event::SevenCardStraightFlushWithJoker => plain(
                "7-card straight flush with a joker",
                BetKind::SevenCards,
                1,
                vec![Event::SevenCardStraightFlush],
                vec![NOT_PAI_GOW, (SevenCardStraightFlushJoker, 1)],
            ),
            Event::SixAces => plain(
                "Six aces (four aces and two jokers)",
                BetKind::SevenCards,
                2,
                vec![Event::FiveAces, Event::Makes(FourOfAKind)],
                vec![NOT_PAI_GOW],
            ),
            Event::FiveAces => plain(
                "Five aces",
                BetKind::SevenCards,
                1,
                vec![Event::Makes(FourOfAKind)],
                vec![NOT_PAI_GOW],
            ),
            Event::Makes(category) => plain(
                &capitalized(category.name()),
                BetKind::SevenCards,
                category_jokers(category),
                Vec::new(),
                match category {
                    // Some five of a pai gow hand make high card, and so do some of other hands.
                    Category::HighCard => Vec::new(),
                    _ => vec![NOT_PAI_GOW],
                },
            ),
            Event::PaiGowHigh(rank) => Declaration {
                aliases: pai_gow_aliases(rank),
                listed_as: "pai_gow_9_high (any rank 9..A, or 10)".to_string(),
                ..plain(
                    &format!(
                        "Pai gow (no pair, straight or flush), {} high",
                        rank_word(rank)
                    ),
                    BetKind::SevenCards,
                    0,
                    Vec::new(),
                    vec![(PaiGow, 0)],
                )
            },
            Event::RoyalMatch => plain(
                "Royal flush plus royal match (suited K-Q)",
                BetKind::SevenCards,
                0,
                vec![Event::Makes(RoyalFlush)],
                vec![NOT_PAI_GOW],
            ),
            Event::ThreePair => plain(
                "Three pair (a joker read as an ace)",
                BetKind::SevenCards,
                0,
                vec![Event::Makes(Category::TwoPair)],
                vec![NOT_PAI_GOW],
            ),
            Event::ThreeCard(event) => plain(
                &format!("3-card {}", event.name().replace('_', " ")),
                BetKind::FirstThree,
                u8::from(event == ThreeCard::StraightFlushWithJoker),
                Vec::new(),
                vec![(
                    ThreeCardNatural,
                    u8::from(event != ThreeCard::NaturalStraightFlush),
                )],
            ),
            Event::Setting { back, front_pair } => Declaration {
                listed_as: "full_house_behind and full_house_behind_plus_pair (any category)"
                    .to_string(),
                ..plain(
                    &format!(
                        "{} behind{}",
                        capitalized(back.name()),
                        if front_pair { ", a pair in front" } else { "" }
                    ),
                    BetKind::Setting,
                    category_jokers(back),
                    match front_pair {
                        true => vec![Event::Setting {
                            back,
                            front_pair: false,
                        }],
                        false => Vec::new(),
                    },
                    vec![(Back, back as u8)],
                )
            },
            Event::Jokers { player, dealer } => plain(
                joker_event(player, dealer).map_or("Jokers", |j| j.label),
                BetKind::Jokers,
                player + dealer,
                Vec::new(),
                vec![(Partition::Jokers, 3 * player + dealer)],
            ),
        }
    }

    /// Every event, in the order the list of valid events shows them (a family together).
    pub fn all() -> Vec<Event> {
        let mut all = vec![
            Event::SevenCardNaturalStraightFlush,
            Event::SevenCardStraightFlush,
            Event::SevenCardStraightFlushWithJoker,
            Event::SixAces,
            Event::FiveAces,
            Event::RoyalMatch,
            Event::ThreePair,
        ];
        all.extend(Category::ALL_DESCENDING.map(Event::Makes));
        all.extend((0..RANKS).rev().map(Event::PaiGowHigh));
        all.extend(ThreeCard::ALL.map(Event::ThreeCard));
        for back in Category::ALL_DESCENDING {
            for front_pair in [true, false] {
                all.push(Event::Setting { back, front_pair });
            }
        }
        all.extend(JOKER_EVENTS.map(|j| Event::Jokers {
            player: j.player,
            dealer: j.dealer,
        }));
        all
    }

    /// The kind of bet this event belongs to.
    pub fn kind(self) -> BetKind {
        self.declaration().kind
    }

    /// The jokers a deck needs for any deal to make this event.
    pub fn jokers_needed(self) -> u8 {
        self.declaration().jokers_needed
    }

    /// Whether no deal can make both events (so their lines' order does not matter): they lie
    /// in different cells of some partition.
    pub fn disjoint(self, other: Event) -> bool {
        let theirs = other.declaration().cells;
        (self.declaration().cells.iter())
            .any(|&(p, c)| theirs.iter().any(|&(q, d)| p == q && c != d))
    }

    /// Every event name a paytable accepts, for error messages (pai gow hands and setting
    /// events summarized).
    pub fn valid_names() -> String {
        let mut listed: Vec<String> = Vec::new();
        for event in Event::all() {
            let shown = event.declaration().listed_as;
            if !listed.contains(&shown) {
                listed.push(shown);
            }
        }
        listed.join(", ")
    }

    /// The event's name as written in paytable files.
    pub fn name(self) -> String {
        self.declaration().name
    }

    /// The event in words, for reports (a line's own `label` replaces it).
    pub fn label(self) -> String {
        self.declaration().label
    }

    /// Parses an event name (see [`Event::name`]) or one of its aliases.
    pub fn parse(text: &str) -> Option<Event> {
        Event::all().into_iter().find(|e| {
            let declared = e.declaration();
            declared.name == text || declared.aliases.iter().any(|a| a == text)
        })
    }

    /// Events that every hand making `self` also makes (a line for one of them placed above a
    /// line for `self` would leave `self` unreachable).
    pub fn implied(self) -> Vec<Event> {
        self.declaration().implies
    }

    /// The name, built from the event's parameters (for [`Event::declaration`]).
    fn name_as_written(self) -> String {
        match self {
            Event::SevenCardNaturalStraightFlush => "seven_card_natural_straight_flush".into(),
            Event::SevenCardStraightFlush => "seven_card_straight_flush".into(),
            Event::SevenCardStraightFlushWithJoker => "seven_card_straight_flush_with_joker".into(),
            Event::SixAces => "six_aces".into(),
            Event::FiveAces => "five_aces".into(),
            Event::Makes(c) => category_key(c),
            Event::PaiGowHigh(r) => format!("pai_gow_{}_high", rank_name(r)),
            Event::RoyalMatch => "royal_flush_plus_royal_match".into(),
            Event::ThreePair => "three_pair".into(),
            Event::ThreeCard(e) => format!("three_card_{}", e.name()),
            Event::Setting { back, front_pair } => format!(
                "{}_behind{}",
                category_key(back),
                if front_pair { "_plus_pair" } else { "" }
            ),
            Event::Jokers { player, dealer } => joker_event(player, dealer)
                .map_or("jokers", |j| j.name)
                .to_string(),
        }
    }
}

/// A category as paytable files write it (`four_of_a_kind`).
fn category_key(category: Category) -> String {
    category.name().replace(' ', "_")
}

/// The jokers a deck needs for five cards to make `category` (five of a kind needs one).
fn category_jokers(category: Category) -> u8 {
    u8::from(category == Category::FiveOfAKind)
}

/// A joker event: its name, its words and the jokers in each hand.
struct JokerEvent {
    name: &'static str,
    label: &'static str,
    player: u8,
    dealer: u8,
}

/// Every joker event.
const JOKER_EVENTS: [JokerEvent; 6] = [
    joker("two_jokers_player", "Two jokers in the player's hand", 2, 0),
    joker("two_jokers_dealer", "Two jokers in the dealer's hand", 0, 2),
    joker("one_joker_each", "One joker in each hand", 1, 1),
    joker("one_joker_player", "One joker, in the player's hand", 1, 0),
    joker("one_joker_dealer", "One joker, in the dealer's hand", 0, 1),
    joker("no_jokers", "No joker in either hand", 0, 0),
];

const fn joker(name: &'static str, label: &'static str, player: u8, dealer: u8) -> JokerEvent {
    JokerEvent {
        name,
        label,
        player,
        dealer,
    }
}

/// The joker event with these jokers in each hand.
fn joker_event(player: u8, dealer: u8) -> Option<&'static JokerEvent> {
    JOKER_EVENTS
        .iter()
        .find(|j| (j.player, j.dealer) == (player, dealer))
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

/// A rank as a pai gow event writes it (`9`, `T`, `A`).
fn rank_name(rank: u8) -> char {
    b"23456789TJQKA"[rank as usize] as char
}

/// The other spellings of a pai gow event: a letter in lower case, and `10` for a ten.
fn pai_gow_aliases(rank: u8) -> Vec<String> {
    let letter = rank_name(rank);
    let mut aliases = Vec::new();
    if letter.is_ascii_alphabetic() {
        aliases.push(format!("pai_gow_{}_high", letter.to_ascii_lowercase()));
    }
    if letter == 'T' {
        aliases.push("pai_gow_10_high".to_string());
    }
    aliases
}

/// A pay of `to_win` units for every `stake` units wagered ("X to Y"; "X to 1" when a number),
/// or a push ([`Pays::PUSH`]: 0 to 1, the bet returned).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pays {
    pub to_win: u64,
    pub stake: u64,
}

impl Pays {
    /// A push (`pays = "push"`): the line wins nothing and the bet is returned, so it nets 0
    /// (a hand no line pays loses the bet). Every engine settles it as any line, by its net.
    pub const PUSH: Pays = Pays {
        to_win: 0,
        stake: 1,
    };

    /// Whether the line pushes (nets 0) rather than pays.
    pub fn is_push(self) -> bool {
        self.to_win == 0
    }

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
        if text.trim() == "push" {
            return Some(Pays::PUSH);
        }
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
        match self.is_push() {
            true => f.write_str("push"),
            false => write!(f, "{} to {}", self.to_win, self.stake),
        }
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
const NOT_POSITIVE: &str = "pays = {x}: a line must pay more than 0 (a line that returns the \
     bet is pays = \"push\"; a losing hand is simply not listed)";

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
        if crate::game::wager::names_the_main_wager(&file.name) {
            return Err(ConfigError::at_key(
                origin,
                text,
                &["name"],
                format!(
                    "name = \"{}\": that is the main wager's name in every report (and in --mix): \
                     name the side bet otherwise",
                    file.name
                ),
            ));
        }
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

/// The lowest top card of a pai gow (seven cards of seven ranks, no straight or flush), as a
/// [`Event::PaiGowHigh`] rank index: a 9 (`9 8 7 6 4 3 2`), since 2 to 8 are a straight.
const LOWEST_PAI_GOW_TOP: u8 = 7;

fn parse_line(line: &LineFile) -> Result<Line, String> {
    let event = Event::parse(&line.event).ok_or_else(|| {
        format!(
            "unknown event '{}'; valid events: {}",
            line.event,
            Event::valid_names()
        )
    })?;
    if let Event::PaiGowHigh(top) = event
        && top < LOWEST_PAI_GOW_TOP
    {
        return Err(format!(
            "event '{}': no seven cards make it (a pai gow of seven ranks with no straight \
             holds at least a 9: 9 8 7 6 4 3 2); the lowest is pai_gow_9_high",
            line.event
        ));
    }
    let (pays, written) = match &line.pays {
        PaysFile::ToOne(x) if *x <= 0 => {
            return Err(NOT_POSITIVE.replace("{x}", &x.to_string()));
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
                format!(
                    "pays = \"{t}\": expected a number (X to 1), \"X to Y\" (whole numbers) or \
                     \"push\""
                )
            })?,
            format!("\"{t}\""),
        ),
    };
    if pays.to_win == 0 && !matches!(&line.pays, PaysFile::Text(t) if t.trim() == "push") {
        return Err(NOT_POSITIVE.replace("{x}", &written));
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

    /// A pai gow below 9-high is refused at its line: no seven cards make it (seven ranks of 2
    /// to 8 are a straight). Once such a line was counted as 0 hands, silently.
    #[test]
    fn a_pai_gow_no_hand_makes_is_refused() {
        for (top, refused) in [("2", true), ("8", true), ("9", false), ("a", false)] {
            let text =
                format!("name = \"P\"\n[[line]]\nevent = \"pai_gow_{top}_high\"\npays = 100\n");
            let result = Paytable::from_toml(&text, "p.toml");
            assert_eq!(result.is_err(), refused, "{top}: {result:?}");
            if let Err(e) = result {
                assert!(e.to_string().contains("no seven cards make it"), "{e}");
            }
        }
    }

    /// A side bet named as the main wager is refused at its name: `simulate` once wrote two
    /// `main` rows in summary.csv, which `report` then refused.
    #[test]
    fn a_side_bet_may_not_take_the_main_wagers_name() {
        for name in ["main", "Main Wager", "MAIN-WAGER"] {
            let text = format!("name = \"{name}\"\n[[line]]\nevent = \"flush\"\npays = 3\n");
            let err = Paytable::from_toml(&text, "p.toml")
                .unwrap_err()
                .to_string();
            assert!(err.starts_with("p.toml:1:1:"), "{err}");
            assert!(err.contains("the main wager's name"), "{err}");
        }
        let text = "name = \"Main Street Bonus\"\n[[line]]\nevent = \"flush\"\npays = 3\n";
        assert!(Paytable::from_toml(text, "p.toml").is_ok());
    }

    /// Every event of the declaration table parses from its name and its aliases and prints
    /// back; no two events share a spelling; the list of valid names shows every event.
    #[test]
    fn every_event_name_round_trips() {
        let all = Event::all();
        let mut spellings = std::collections::HashSet::new();
        let valid = Event::valid_names();
        for event in &all {
            let declared = event.declaration();
            assert_eq!(
                Event::parse(&declared.name),
                Some(*event),
                "{}",
                declared.name
            );
            assert_eq!(event.name(), declared.name);
            for alias in &declared.aliases {
                assert_eq!(Event::parse(alias), Some(*event), "{alias}");
            }
            for spelling in std::iter::once(&declared.name).chain(&declared.aliases) {
                assert!(spellings.insert(spelling.clone()), "{spelling} twice");
            }
            assert!(!declared.label.is_empty(), "{}", declared.name);
            assert!(valid.contains(&declared.listed_as), "{}", declared.name);
        }
        // Every family: 7 fixed, 11 categories, 13 pai gow ranks, 6 three-card, 22 setting
        // and 6 joker events.
        assert_eq!(all.len(), 65);
        assert_eq!(Event::parse("pai_gow_10_high"), Some(Event::PaiGowHigh(8)));
        assert_eq!(Event::parse("pai_gow_q_high"), Some(Event::PaiGowHigh(10)));
        assert_eq!(Event::parse("flushh"), None);
        assert_eq!(Event::parse("pai_gow_1_high"), None);
    }

    /// The declared facts that only the table states, pinned (the predicates are checked
    /// against the others in `game::events`).
    #[test]
    fn declared_facts_keep_the_pay_order_rules() {
        use Category::*;
        let jokers = |e: Event| e.jokers_needed();
        assert_eq!(jokers(Event::SixAces), 2);
        assert_eq!(jokers(Event::Makes(FiveOfAKind)), 1);
        assert_eq!(jokers(Event::Makes(RoyalFlush)), 0);
        let (player, dealer) = (1, 1);
        assert_eq!(jokers(Event::Jokers { player, dealer }), 2);
        assert!(Event::PaiGowHigh(7).disjoint(Event::Makes(Straight)));
        assert!(!Event::PaiGowHigh(7).disjoint(Event::Makes(HighCard)));
        assert!(!Event::PaiGowHigh(7).disjoint(Event::PaiGowHigh(8)));
        let natural = Event::ThreeCard(ThreeCard::NaturalStraightFlush);
        assert!(natural.disjoint(Event::ThreeCard(ThreeCard::Pair)));
        let pair = Event::ThreeCard(ThreeCard::Pair);
        assert!(!pair.disjoint(Event::ThreeCard(ThreeCard::Flush)));
        for a in Event::all() {
            for b in Event::all() {
                assert_eq!(a.disjoint(b), b.disjoint(a), "{a:?} {b:?}");
            }
            assert!(!a.disjoint(a), "{a:?}");
            assert!(a.implied().iter().all(|i| i.kind() == a.kind()), "{a:?}");
        }
    }

    /// A seven-card straight flush with a joker need not make a five-card straight flush: the
    /// ten to the ace of one suit and two jokers read as a royal flush, whichever five are taken.
    /// So a `straight_flush` line above it can leave it hands, and the pair is not refused (it
    /// was, as "can never pay"); a natural one always holds a straight flush below the royal.
    #[test]
    fn a_straight_flush_line_above_a_seven_card_one_leaves_it_hands() {
        for seven in [
            "seven_card_straight_flush",
            "seven_card_straight_flush_with_joker",
        ] {
            let table = load(&format!(
                "[[line]]\nevent = \"straight_flush\"\npays = 50\n[[line]]\nevent = \"{seven}\"\npays = 500\n"
            ));
            assert!(table.is_ok(), "{table:?}");
        }
        let natural = load(
            "[[line]]\nevent = \"straight_flush\"\npays = 50\n[[line]]\nevent = \"seven_card_natural_straight_flush\"\npays = 500\n",
        );
        assert!(natural.unwrap_err().contains("can never pay"));
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

    /// `pays = "push"` returns the bet (nets 0, written "push"); a pay of 0 any other way is
    /// refused, pointing at "push".
    #[test]
    fn a_line_may_push() {
        let table = load(
            "[[line]]\nevent = \"flush\"\npays = 4\n[[line]]\nevent = \"two_pair\"\npays = \"push\"\n",
        )
        .unwrap();
        let push = table.lines[1].pays;
        assert_eq!(push, Pays::PUSH);
        assert!(push.is_push() && !table.lines[0].pays.is_push());
        assert_eq!((push.units(), push.ratio()), (0, 0.0));
        assert_eq!(push.to_string(), "push");
        for zero in ["0", "\"0 to 3\""] {
            let error = load(&format!("[[line]]\nevent = \"flush\"\npays = {zero}\n")).unwrap_err();
            assert!(error.contains("pays = \"push\""), "{error}");
        }
        // A line paying more below a push whose hands overlap it is out of pay order.
        let below = load(
            "[[line]]\nevent = \"two_pair\"\npays = \"push\"\n[[line]]\nevent = \"flush\"\npays = 4\n",
        )
        .unwrap();
        assert_eq!(below.warnings.len(), 1, "{:?}", below.warnings);
        assert!(
            below.warnings[0].contains("pays push: a hand making both"),
            "{:?}",
            below.warnings
        );
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
