//! Cards, card sets and decks.
//!
//! A [`Card`] is a `u8` laid out in four 16-bit suit lanes: a suited card is `suit * 16 + rank`
//! (rank 0 = deuce .. 12 = ace; suit 0..4 = clubs, diamonds, hearts, spades), and the two jokers
//! sit in the spare bits 61 and 62 of the spades lane. A [`Cards`] set is the `u64` with one bit
//! per card, so `(set >> (16 * suit)) & 0x1FFF` is the rank mask of one suit and the jokers never
//! leak into a suit mask.
//!
//! Invariants: every `Card` value is one of the 54 valid indices (checked by [`Card::new`] and
//! [`Card::from_str`]); a [`Deck`] holds 52 suited cards plus 0, 1 or 2 jokers.
//!
//! Text form: rank `2-9 T J Q K A` (or `10`) then suit `c d h s` (or `♣ ♦ ♥ ♠`), case-insensitive;
//! a joker is `Jk` (a second `Jk` in the same hand is the second joker; `Jk1`/`Jk2` name one).

pub mod deal;

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// Number of ranks, deuce to ace.
pub const RANKS: u8 = 13;
/// Rank index of the ace (the highest rank).
pub const ACE: u8 = 12;
/// Bit index of the first joker.
const JOKER1_INDEX: u8 = 61;
/// Bit index of the second joker (54-card deck only).
const JOKER2_INDEX: u8 = 62;
/// Mask of both joker bits in a [`Cards`] set.
pub const JOKER_BITS: u64 = (1 << JOKER1_INDEX) | (1 << JOKER2_INDEX);
/// Rank mask of one suit lane.
pub const LANE_MASK: u64 = 0x1FFF;

const RANK_CHARS: &[u8; 13] = b"23456789TJQKA";
const SUIT_CHARS: &[u8; 4] = b"cdhs";

/// One playing card: a suited card or one of the two jokers.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Card(u8);

impl Card {
    /// The first joker (the only one in a 53-card deck).
    pub const JOKER1: Card = Card(JOKER1_INDEX);
    /// The second joker of the 54-card deck.
    pub const JOKER2: Card = Card(JOKER2_INDEX);

    /// A suited card from its rank (0 = deuce .. 12 = ace) and suit (0..4 = c, d, h, s).
    pub fn new(rank: u8, suit: u8) -> Option<Card> {
        (rank < RANKS && suit < 4).then_some(Card(suit * 16 + rank))
    }

    /// The card whose bit index is `index`, if that index is a card.
    pub const fn from_index(index: u8) -> Option<Card> {
        let valid =
            index == JOKER1_INDEX || index == JOKER2_INDEX || (index < 64 && index % 16 < RANKS);
        if valid { Some(Card(index)) } else { None }
    }

    /// The bit index of this card in a [`Cards`] set (0..63).
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Whether this card is a joker.
    pub const fn is_joker(self) -> bool {
        self.0 >= JOKER1_INDEX
    }

    /// The rank (0 = deuce .. 12 = ace) of a suited card; `None` for a joker.
    pub fn rank(self) -> Option<u8> {
        (!self.is_joker()).then_some(self.0 % 16)
    }

    /// The suit (0..4 = c, d, h, s) of a suited card; `None` for a joker.
    pub fn suit(self) -> Option<u8> {
        (!self.is_joker()).then_some(self.0 / 16)
    }

    /// The one-card set.
    pub fn bit(self) -> u64 {
        1u64 << self.0
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.rank(), self.suit()) {
            (Some(r), Some(s)) => write!(
                f,
                "{}{}",
                RANK_CHARS[r as usize] as char, SUIT_CHARS[s as usize] as char
            ),
            _ => f.write_str("Jk"),
        }
    }
}

impl serde::Serialize for Card {
    /// The text form, with the jokers told apart (`Jk1`, `Jk2`) so that a card round-trips.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            Card::JOKER1 => s.serialize_str("Jk1"),
            Card::JOKER2 => s.serialize_str("Jk2"),
            card => s.collect_str(&card),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Card {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Why a card or a hand could not be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum CardError {
    #[error(
        "bad card '{}': expected a rank (2-9, T or 10, J, Q, K, A) then a suit (c, d, h, s), or Jk for a joker",
        shown(token)
    )]
    BadToken { token: String },
    #[error("card '{}' appears twice", shown(token))]
    Duplicate { token: String },
    #[error(
        "'{}': one joker more than the {deck_size}-card deck has",
        shown(token)
    )]
    NoSuchJoker { token: String, deck_size: usize },
    #[error("expected {expected} cards, got {got}")]
    WrongCount { expected: String, got: usize },
}

/// A token as an error message shows it: whole when short, else its start and its length.
fn shown(token: &str) -> String {
    const LONGEST: usize = 24;
    match token.char_indices().nth(LONGEST) {
        None => token.to_string(),
        Some((cut, _)) => format!(
            "{}... ({} characters)",
            &token[..cut],
            token.chars().count()
        ),
    }
}

/// A rank character (or `10`) to its index.
fn parse_rank(text: &str) -> Option<u8> {
    if text == "10" {
        return Some(8);
    }
    let mut chars = text.chars();
    let c = chars.next()?.to_ascii_uppercase();
    if chars.next().is_some() {
        return None;
    }
    RANK_CHARS
        .iter()
        .position(|&r| r as char == c)
        .map(|p| p as u8)
}

/// A suit letter or symbol to its index.
fn parse_suit(c: char) -> Option<u8> {
    match c.to_ascii_lowercase() {
        'c' | '♣' | '♧' => Some(0),
        'd' | '♦' | '♢' => Some(1),
        'h' | '♥' | '♡' => Some(2),
        's' | '♠' | '♤' => Some(3),
        _ => None,
    }
}

/// Which joker a joker token names: `None` for a plain `Jk`, else the specific one.
fn parse_joker(text: &str) -> Option<Option<Card>> {
    match text.to_ascii_lowercase().as_str() {
        "jk" | "joker" | "jo" => Some(None),
        "jk1" => Some(Some(Card::JOKER1)),
        "jk2" => Some(Some(Card::JOKER2)),
        _ => None,
    }
}

impl FromStr for Card {
    type Err = CardError;

    /// Parses one card; a plain `Jk` is the first joker.
    fn from_str(token: &str) -> Result<Card, CardError> {
        if let Some(joker) = parse_joker(token) {
            return Ok(joker.unwrap_or(Card::JOKER1));
        }
        let bad = || CardError::BadToken {
            token: token.to_string(),
        };
        let suit_char = token.chars().last().ok_or_else(bad)?;
        let rank_text = &token[..token.len() - suit_char.len_utf8()];
        let rank = parse_rank(rank_text).ok_or_else(bad)?;
        let suit = parse_suit(suit_char).ok_or_else(bad)?;
        Card::new(rank, suit).ok_or_else(bad)
    }
}

/// A set of cards as a bit set over card indices.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Cards(pub u64);

impl Cards {
    /// The empty set.
    pub const EMPTY: Cards = Cards(0);

    /// The set of the given cards.
    pub fn from_cards(cards: &[Card]) -> Cards {
        Cards(cards.iter().fold(0, |acc, c| acc | c.bit()))
    }

    /// Number of cards.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `card` is in the set.
    pub fn contains(self, card: Card) -> bool {
        self.0 & card.bit() != 0
    }

    /// Whether the two sets share no card.
    pub fn is_disjoint(self, other: Cards) -> bool {
        self.0 & other.0 == 0
    }

    /// The set with `card` added.
    pub fn with(self, card: Card) -> Cards {
        Cards(self.0 | card.bit())
    }

    /// Number of jokers in the set.
    pub fn jokers(self) -> u32 {
        // Two bits: shifts, not a popcount (which the baseline x86_64 target lacks).
        ((self.0 >> JOKER1_INDEX) & 1) as u32 + ((self.0 >> JOKER2_INDEX) & 1) as u32
    }

    /// Rank mask (bit r = rank r) of the cards of one suit.
    pub fn suit_mask(self, suit: u8) -> u32 {
        ((self.0 >> (16 * suit as u32)) & LANE_MASK) as u32
    }

    /// Rank mask (bit r = rank r) of the ranks held in any suit (jokers not counted).
    pub fn rank_mask(self) -> u32 {
        (0..4).fold(0, |ranks, suit| ranks | self.suit_mask(suit))
    }

    /// How many cards of each rank (jokers not counted).
    pub fn rank_counts(self) -> [u8; 13] {
        let mut counts = [0u8; 13];
        for suit in 0..4 {
            let mask = self.suit_mask(suit);
            for (rank, count) in counts.iter_mut().enumerate() {
                *count += ((mask >> rank) & 1) as u8;
            }
        }
        counts
    }

    /// The cards in ascending index order.
    pub fn iter(self) -> impl Iterator<Item = Card> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let index = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                Card(index)
            })
        })
    }

    /// The cards in ascending index order, as a vector.
    pub fn to_vec(self) -> Vec<Card> {
        self.iter().collect()
    }
}

impl fmt::Display for Cards {
    /// Cards from the highest rank down, jokers first, separated by spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut cards = self.to_vec();
        cards.sort_by_key(|c| (std::cmp::Reverse(c.rank().unwrap_or(RANKS)), c.suit()));
        let text: Vec<String> = cards.iter().map(Card::to_string).collect();
        f.write_str(&text.join(" "))
    }
}

/// A deck: the 52 suited cards and 0, 1 or 2 jokers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Deck {
    jokers: u8,
}

impl Deck {
    /// A deck with `jokers` jokers (0, 1 or 2).
    pub fn with_jokers(jokers: u8) -> Option<Deck> {
        (jokers <= 2).then_some(Deck { jokers })
    }

    /// Number of jokers.
    pub fn jokers(self) -> u8 {
        self.jokers
    }

    /// Number of cards.
    pub fn size(self) -> usize {
        52 + self.jokers as usize
    }

    /// Every card of the deck, suited cards by suit then rank, then the jokers.
    pub fn cards(self) -> Vec<Card> {
        let suited = (0..4).flat_map(|s| (0..RANKS).map(move |r| Card(s * 16 + r)));
        let jokers = [Card::JOKER1, Card::JOKER2]
            .into_iter()
            .take(self.jokers as usize);
        suited.chain(jokers).collect()
    }

    /// Whether `card` belongs to this deck.
    pub fn contains(self, card: Card) -> bool {
        match card {
            Card::JOKER1 => self.jokers >= 1,
            Card::JOKER2 => self.jokers >= 2,
            _ => true,
        }
    }

    /// Parses whitespace- or comma-separated cards of this deck: no duplicates, each joker at
    /// most once (a second plain `Jk` is the second joker).
    pub fn parse_cards(self, text: &str) -> Result<Vec<Card>, CardError> {
        let mut cards: Vec<Card> = Vec::new();
        let mut seen = Cards::EMPTY;
        for token in text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
        {
            let card = self.resolve_token(token, seen)?;
            seen = seen.with(card);
            cards.push(card);
        }
        Ok(cards)
    }

    /// One token to a card of this deck, given the cards already read.
    fn resolve_token(self, token: &str, seen: Cards) -> Result<Card, CardError> {
        let card = match parse_joker(token) {
            Some(None) if seen.contains(Card::JOKER1) && seen.contains(Card::JOKER2) => {
                return Err(CardError::NoSuchJoker {
                    token: token.to_string(),
                    deck_size: self.size(),
                });
            }
            Some(None) if seen.contains(Card::JOKER1) => Card::JOKER2,
            Some(None) => Card::JOKER1,
            Some(Some(joker)) => joker,
            None => token.parse()?,
        };
        if !self.contains(card) {
            return Err(CardError::NoSuchJoker {
                token: token.to_string(),
                deck_size: self.size(),
            });
        }
        if seen.contains(card) {
            return Err(CardError::Duplicate {
                token: token.to_string(),
            });
        }
        Ok(card)
    }

    /// Parses exactly `count` cards (see [`Deck::parse_cards`]).
    pub fn parse_hand(self, text: &str, count: usize) -> Result<Vec<Card>, CardError> {
        let cards = self.parse_cards(text)?;
        if cards.len() != count {
            return Err(CardError::WrongCount {
                expected: count.to_string(),
                got: cards.len(),
            });
        }
        Ok(cards)
    }
}

/// Seven distinct cards (the first seven of `cards`, in any order) as a hand sorted by card
/// index, the order every strategy and split index assumes: the cards' bit set read back lowest
/// bit first, which is faster than a comparison sort.
#[inline]
pub fn sorted_hand(cards: &[Card]) -> [Card; 7] {
    let mut bits = Cards::from_cards(&cards[..7]).0;
    debug_assert_eq!(bits.count_ones(), 7, "seven distinct cards");
    std::array::from_fn(|_| {
        let index = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        Card(index)
    })
}

impl Deck {
    /// Parses exactly seven cards of this deck into a hand sorted by card index, the order every
    /// strategy and split index assumes.
    pub fn parse_hand7(self, text: &str) -> Result<[Card; 7], CardError> {
        let mut hand: [Card; 7] = self
            .parse_hand(text, 7)?
            .try_into()
            .expect("parse_hand returned seven cards");
        hand.sort();
        Ok(hand)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_round_trips_through_text() {
        for deck in [0, 1, 2].map(|j| Deck::with_jokers(j).unwrap()) {
            let cards = deck.cards();
            assert_eq!(cards.len(), deck.size());
            let text: Vec<String> = cards.iter().map(Card::to_string).collect();
            assert_eq!(deck.parse_cards(&text.join(" ")).unwrap(), cards);
        }
    }

    #[test]
    fn accepts_ten_lower_case_and_symbols() {
        let deck = Deck::with_jokers(1).unwrap();
        let cards = deck.parse_cards("10s td 9H a♠ jk").unwrap();
        assert_eq!(cards[0], Card::new(8, 3).unwrap());
        assert_eq!(cards[1], Card::new(8, 1).unwrap());
        assert_eq!(cards[3], Card::new(ACE, 3).unwrap());
        assert_eq!(cards[4], Card::JOKER1);
    }

    #[test]
    fn second_plain_joker_is_the_second_joker() {
        let deck = Deck::with_jokers(2).unwrap();
        assert_eq!(
            deck.parse_cards("Jk Jk").unwrap(),
            vec![Card::JOKER1, Card::JOKER2]
        );
    }

    #[test]
    fn bad_hands_are_errors_naming_the_token() {
        let one = Deck::with_jokers(1).unwrap();
        assert_eq!(
            one.parse_cards("As Xs"),
            Err(CardError::BadToken { token: "Xs".into() })
        );
        assert_eq!(
            one.parse_cards("As as"),
            Err(CardError::Duplicate { token: "as".into() })
        );
        assert!(matches!(
            one.parse_cards("Jk Jk"),
            Err(CardError::NoSuchJoker { .. })
        ));
        assert!(matches!(
            one.parse_hand("As Ks", 7),
            Err(CardError::WrongCount { got: 2, .. })
        ));
        for bad in ["", "A", "1s", "11s", "Az", "A♠x"] {
            assert!(bad.parse::<Card>().is_err(), "{bad}");
        }
        let long = "X".repeat(100_000);
        let message = one.parse_cards(&long).unwrap_err().to_string();
        assert!(message.len() < 200, "a long token is cut: {message}");
        assert!(message.contains("(100000 characters)"), "{message}");
    }

    #[test]
    fn suit_masks_never_see_jokers() {
        let all = Cards::from_cards(&Deck::with_jokers(2).unwrap().cards());
        assert_eq!(all.jokers(), 2);
        for suit in 0..4 {
            assert_eq!(all.suit_mask(suit), 0x1FFF);
        }
        assert_eq!(all.rank_counts(), [4; 13]);
    }
}
