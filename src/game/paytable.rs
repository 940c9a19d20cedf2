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
//! Events come in two kinds, and one paytable uses one kind:
//! - seven-card events, judged on the player's seven cards however they are set: a category
//!   event (`flush`, `three_of_a_kind`, ...) holds when some five of the seven cards, read at their
//!   best, make exactly that category (so a hand holding both a straight and three of a kind makes
//!   both, and pays whichever line comes first); plus the 7-card events below;
//! - joker events, judged on how many jokers the player and the dealer hold.
//!
//! A paytable may state the hit rate or return its publisher claims; reports compare them with
//! the computed figures and never adjust to them.

use serde::Deserialize;

use crate::cards::RANKS;
use crate::eval::Category;
use crate::files::{ConfigError, parse_toml, read_named};
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
    /// Joker events: (player's jokers, dealer's jokers) as listed.
    Jokers { player: u8, dealer: u8 },
}

/// The two kinds of events.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BetKind {
    /// Judged on the player's seven cards.
    SevenCards,
    /// Judged on the jokers in the player's and the dealer's hands.
    Jokers,
}

impl Event {
    /// The kind of bet this event belongs to.
    pub fn kind(self) -> BetKind {
        match self {
            Event::Jokers { .. } => BetKind::Jokers,
            _ => BetKind::SevenCards,
        }
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
            _ => None,
        };
        fixed
            .or_else(|| {
                Category::ALL_DESCENDING
                    .into_iter()
                    .find(|c| c.name().replace(' ', "_") == text)
                    .map(Event::Makes)
            })
            .or_else(|| parse_pai_gow(text))
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
            _ => &[],
        }
    }
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

    /// Whether the pay is a whole number of 1/[`BET_UNITS`] of the bet, and not absurdly large.
    fn is_whole_units(self) -> bool {
        let scaled = u128::from(self.to_win) * BET_UNITS as u128;
        scaled.is_multiple_of(u128::from(self.stake))
            && scaled / u128::from(self.stake) <= MAX_PAY_UNITS
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

/// The largest pay a line may have, in bet units (a million to one).
const MAX_PAY_UNITS: u128 = 1_000_000 * BET_UNITS as u128;

/// One line of a paytable.
#[derive(Clone, PartialEq, Debug)]
pub struct Line {
    pub event: Event,
    /// The line in words: the file's `label`, else [`Event::label`].
    pub label: String,
    pub pays: Pays,
    /// The publisher's count of hands for this line, where published.
    pub claimed_combinations: Option<u64>,
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
    pub lines: Vec<Line>,
    /// The publisher's claimed hit rate (any prize), as a percentage.
    pub claimed_hit_rate: Option<Claim>,
    /// The publisher's claimed player return per unit bet (negative: the house edge), as a
    /// percentage.
    pub claimed_return: Option<Claim>,
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
    claimed_hit_rate: Option<String>,
    claimed_return: Option<String>,
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
    ToOne(u64),
    Text(String),
}

impl<'de> Deserialize<'de> for PaysFile {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<PaysFile, D::Error> {
        deserializer.deserialize_any(PaysVisitor)
    }
}

/// Reads `pays` with messages in the file's terms (an untagged enum would name its Rust type).
struct PaysVisitor;

impl serde::de::Visitor<'_> for PaysVisitor {
    type Value = PaysFile;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a whole number (X to 1) or a text \"X to Y\"")
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<PaysFile, E> {
        Ok(PaysFile::ToOne(v))
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<PaysFile, E> {
        u64::try_from(v).map(PaysFile::ToOne).map_err(|_| {
            E::custom(format!(
                "pays = {v}: expected a whole number of 0 or more (X to 1) or a text \"X to Y\""
            ))
        })
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
            let line = parse_line(spanned.get_ref()).map_err(|m| at(span.clone(), m))?;
            check_reachable(&lines, &line).map_err(|m| at(span.clone(), m))?;
            lines.push(line);
        }
        let kind = lines[0].event.kind();
        if let Some(at_fault) = lines.iter().position(|l| l.event.kind() != kind) {
            let other = &lines[at_fault];
            return Err(at(
                file.lines[at_fault].span(),
                format!(
                    "event '{}' is judged on other cards than '{}': one paytable judges either the player's seven cards or the jokers",
                    other.event.name(),
                    lines[0].event.name()
                ),
            ));
        }
        let claim = |name: &str, value: &Option<String>| -> Result<Option<Claim>, ConfigError> {
            value
                .as_deref()
                .map(|t| {
                    Claim::parse(t).ok_or_else(|| {
                        ConfigError::at_key(
                            origin,
                            text,
                            &[name],
                            format!("{name} = \"{t}\": expected a percentage such as \"8.82%\""),
                        )
                    })
                })
                .transpose()
        };
        let claimed_hit_rate = claim("claimed_hit_rate", &file.claimed_hit_rate)?;
        let claimed_return = claim("claimed_return", &file.claimed_return)?;
        Ok(Paytable {
            name: file.name,
            source: file.source,
            origin: origin.to_string(),
            text: text.to_string(),
            kind,
            lines,
            claimed_hit_rate,
            claimed_return,
        })
    }
}

fn parse_line(line: &LineFile) -> Result<Line, String> {
    let event = Event::parse(&line.event).ok_or_else(|| {
        format!(
            "unknown event '{}' (see the README for the event list)",
            line.event
        )
    })?;
    let (pays, written) = match &line.pays {
        PaysFile::ToOne(x) => (
            Pays {
                to_win: *x,
                stake: 1,
            },
            x.to_string(),
        ),
        PaysFile::Text(t) => (
            Pays::parse(t).ok_or_else(|| {
                format!("pays = \"{t}\": expected a number (X to 1) or \"X to Y\"")
            })?,
            format!("\"{t}\""),
        ),
    };
    if !pays.is_whole_units() {
        return Err(format!(
            "pays = {written}: a pay must be a whole number of 1/{BET_UNITS} of the bet (Y must \
             divide X x {BET_UNITS}), at most a million to one, so that reports write it exactly"
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
        pays,
        claimed_combinations: line.claimed_combinations,
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
        assert!(mixed.contains("either"), "{mixed}");
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
}
