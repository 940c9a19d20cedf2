//! Settling side bets: which paytable events a deal makes, and which line pays.
//!
//! [`SevenCardFacts`] are computed once per 7-card hand from its 21 split values (each back is the
//! best reading of those five cards, so the set of back categories is exactly the set of
//! categories that some five of the seven cards make) plus the 7-card facts (jokers, aces, a
//! 7-card straight flush). A hand is paid by the first line of the paytable whose event it makes
//! ([`Paytable::first_line`]). Joker bets look only at the jokers in the two hands.
//!
//! [`makes`] is every event's predicate, one arm each (no wildcard), on what the event's kind is
//! judged on ([`Judged`]); the line tables of each kind of bet are built from it once, so the hot
//! loop reads a byte per hand, never the predicate. Every other fact of an event is declared in
//! [`Event::declaration`], and the tests check each against [`makes`].

use crate::cards::{ACE, Card, Cards, JOKER_BITS, LANE_MASK, RANKS};
use crate::eval::split::{KnownSetting, SplitValues};
use crate::eval::{Category, JokerRule, Value};
use crate::game::MAX_SIDE_BETS;
use crate::game::paytable::{BetKind, Event, JudgedOn, Paytable, ThreeCard};
use crate::game::wager::BET_UNITS;

/// What a 7-card hand makes, for side bets, held as its line-table key ([`Self::key`]): the
/// key keeps everything any seven-card event reads, so a hand is built, keyed and tested in
/// one word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SevenCardFacts(u32);

impl SevenCardFacts {
    /// The facts of `hand` from its split values.
    pub fn of(hand: &[Card; 7], splits: &SplitValues) -> SevenCardFacts {
        let best = splits.best_five();
        let parts = (splits.categories_made(), best.slots()[0]);
        SevenCardFacts::from_parts(hand, parts, true)
    }

    /// The facts of `hand` from what a cache knows of it. `flush_suit`: whether some suit holds
    /// five or more of its cards counting the jokers (a flush shape slot); without one the hand
    /// is neither a seven-card straight flush nor a royal match, and those tests are skipped.
    #[inline]
    pub fn of_known(hand: &[Card; 7], known: &KnownSetting, flush_suit: bool) -> SevenCardFacts {
        SevenCardFacts::from_parts(hand, (known.made, known.best_top_slot), flush_suit)
    }

    /// `(made, best_top_slot)` (the categories some five cards make, and the best five's top
    /// slot) with the facts read from the cards; the suited events only when `flush_suit`
    /// allows them.
    #[inline]
    fn from_parts(hand: &[Card; 7], (made, best_top_slot): (u16, u8), flush_suit: bool) -> Self {
        let cards = Cards::from_cards(hand);
        let royal_match = flush_suit && is_royal_match(cards);
        let made = match (made, royal_match) {
            (1, _) => PAI_GOW_OR_ROYAL_MATCH | u32::from(best_top_slot),
            (m, true) => PAI_GOW_OR_ROYAL_MATCH | u32::from(m),
            (m, false) => u32::from(m),
        };
        let straight_flush = flush_suit && is_seven_card_straight_flush(cards);
        SevenCardFacts(
            made | cards.jokers() << 12
                | u32::from(count_aces(cards)) << 14
                | u32::from(straight_flush) << 17
                | u32::from(is_three_pair(cards)) << 18,
        )
    }

    /// How many jokers the seven cards hold.
    #[inline]
    pub fn jokers(&self) -> u8 {
        ((self.0 >> 12) & 3) as u8
    }

    /// How many (suited) aces the seven cards hold.
    fn aces(&self) -> u8 {
        ((self.0 >> 14) & 7) as u8
    }

    /// Bit `c` set when some five of the seven cards make category `c` exactly.
    fn made(&self) -> u16 {
        match self.pai_gow_top_slot() {
            Some(_) => 1,
            None => (self.0 & 0x7FF) as u16,
        }
    }

    /// The best category some five of the seven cards make (high card for a key no hand has,
    /// with no category made).
    pub fn best_category(&self) -> Category {
        Category::highest_made(self.made())
    }

    fn royal_match(&self) -> bool {
        self.0 & PAI_GOW_OR_ROYAL_MATCH != 0 && self.0 & 0x7FF >= 16
    }

    fn seven_card_straight_flush(&self) -> bool {
        self.0 >> 17 & 1 == 1
    }

    fn three_pair(&self) -> bool {
        self.0 >> 18 & 1 == 1
    }

    /// The best five's top slot, for a pai gow hand (high card only).
    fn pai_gow_top_slot(&self) -> Option<u8> {
        let pai_gow = self.0 & PAI_GOW_OR_ROYAL_MATCH != 0 && self.0 & 0x7FF < 16;
        pai_gow.then_some((self.0 & 15) as u8)
    }

    /// Whether the hand makes `event` (an event of another kind is never made by seven cards).
    pub fn makes(&self, event: Event) -> bool {
        makes(event, Judged::SevenCards(self))
    }
}

/// What a deal shows one kind of event: the input of the events' predicate, [`makes`].
#[derive(Clone, Copy, Debug)]
pub enum Judged<'a> {
    /// Seven cards' facts.
    SevenCards(&'a SevenCardFacts),
    /// Three cards: their [`three_card_made`] bits and whether they hold a joker.
    FirstThree { made: u8, has_joker: bool },
    /// The setting as played: the back's category and whether the front is a pair.
    Setting { back: Category, front_pair: bool },
    /// The jokers in the player's and the dealer's hands.
    Jokers { player: u8, dealer: u8 },
}

/// Whether `judged` makes `event`: every event's predicate, one arm each, with no wildcard (an
/// event is never made by what another kind is judged on). Every other fact of an event is
/// declared in [`Event::declaration`].
pub fn makes(event: Event, judged: Judged) -> bool {
    match event {
        Event::SevenCardNaturalStraightFlush => {
            seven(judged, |f| f.seven_card_straight_flush() && f.jokers() == 0)
        }
        Event::SevenCardStraightFlush => seven(judged, SevenCardFacts::seven_card_straight_flush),
        Event::SevenCardStraightFlushWithJoker => {
            seven(judged, |f| f.seven_card_straight_flush() && f.jokers() > 0)
        }
        Event::SixAces => seven(judged, |f| f.aces() == 4 && f.jokers() == 2),
        Event::FiveAces => seven(judged, |f| f.aces() + f.jokers() >= 5),
        Event::Makes(category) => seven(judged, |f| f.made() & (1 << category as u16) != 0),
        Event::PaiGowHigh(rank) => seven(judged, |f| f.pai_gow_top_slot() == Some(rank + 1)),
        Event::RoyalMatch => seven(judged, SevenCardFacts::royal_match),
        Event::ThreePair => seven(judged, SevenCardFacts::three_pair),
        Event::ThreeCard(e) => matches!(judged, Judged::FirstThree { made, has_joker }
            if three_card_makes(made, has_joker, e)),
        Event::Setting { back, front_pair } => {
            matches!(judged, Judged::Setting { back: b, front_pair: pair }
            if b == back && (pair || !front_pair))
        }
        Event::Jokers { player, dealer } => {
            matches!(judged, Judged::Jokers { player: p, dealer: d }
            if (p, d) == (player, dealer))
        }
    }
}

/// Whether seven cards make what `holds` asks (never, when `judged` is not seven cards).
#[inline]
fn seven(judged: Judged, holds: impl Fn(&SevenCardFacts) -> bool) -> bool {
    match judged {
        Judged::SevenCards(facts) => holds(facts),
        Judged::FirstThree { .. } | Judged::Setting { .. } | Judged::Jokers { .. } => false,
    }
}

/// Bit 11 of a [`SevenCardFacts`] key: a pai gow hand (the low bits then hold its top slot,
/// below 16) or a royal match (the low bits hold the categories made, 512 or more).
const PAI_GOW_OR_ROYAL_MATCH: u32 = 1 << 11;

/// A royal flush plus a royal match: for some suit holding a king and a queen, the other five
/// cards are jokers and cards of one suit, all ten or above (a royal flush, the jokers filling).
pub fn is_royal_match(cards: Cards) -> bool {
    const KING_QUEEN: u32 = 0b11 << (ACE - 2);
    const ROYAL: u32 = 0b11111 << (ACE - 4);
    /// Every rank below ten, in all four suit lanes: a card there rules the hand out (the cheap
    /// test that settles almost every hand, on the hot path of every side bet).
    const BELOW_TEN: u64 = ((LANE_MASK & !(ROYAL as u64)) * 0x0001_0001_0001_0001) & !JOKER_BITS;
    if cards.0 & BELOW_TEN != 0 {
        return false;
    }
    let jokers = cards.jokers();
    (0..4u8).any(|t| {
        if cards.suit_mask(t) & KING_QUEEN != KING_QUEEN {
            return false;
        }
        let (mut suits, mut natural, mut royal) = (0, 0, true);
        for s in 0..4u8 {
            let rest = cards.suit_mask(s) & !if s == t { KING_QUEEN } else { 0 };
            if rest != 0 {
                suits += 1;
                natural += rest.count_ones();
                royal &= rest & !ROYAL == 0;
            }
        }
        suits <= 1 && royal && natural + jokers == 5
    })
}

/// The three-card categories, one bit each, in [`three_card_made`].
const THREE_HIGH: u8 = 0;
const THREE_PAIR: u8 = 1;
const THREE_FLUSH: u8 = 2;
const THREE_STRAIGHT: u8 = 3;
const THREE_TRIPS: u8 = 4;
const THREE_STRAIGHT_FLUSH: u8 = 5;

/// The 3-card category of three natural cards (rank, suit).
fn three_card_category(cards: [(u8, u8); 3]) -> u8 {
    let mut ranks = cards.map(|(r, _)| r);
    ranks.sort_unstable();
    let flush = cards.iter().all(|&(_, s)| s == cards[0].1);
    let distinct = ranks[0] != ranks[1] && ranks[1] != ranks[2];
    let straight = distinct && (ranks[2] - ranks[0] == 2 || ranks == [0, 1, ACE]);
    match (straight, flush) {
        (true, true) => THREE_STRAIGHT_FLUSH,
        _ if ranks[0] == ranks[2] => THREE_TRIPS,
        (true, false) => THREE_STRAIGHT,
        (false, true) => THREE_FLUSH,
        _ if !distinct => THREE_PAIR,
        _ => THREE_HIGH,
    }
}

/// The 3-card categories (bits) some allowed reading of `cards` makes (see the module docs).
pub fn three_card_made(cards: &[Card; 3], joker: JokerRule) -> u8 {
    let mut reading = [(0u8, 0u8); 3];
    let mut natural = 0;
    for card in cards {
        if let (Some(rank), Some(suit)) = (card.rank(), card.suit()) {
            reading[natural] = (rank, suit);
            natural += 1;
        }
    }
    let mut made = 0u8;
    read_jokers(&mut reading, natural, true, joker, &mut made);
    made
}

/// Tries every card for each joker from position `next` on (`all_aces`: the jokers read so far
/// are aces), adding each allowed reading's category to `made`.
fn read_jokers(
    reading: &mut [(u8, u8); 3],
    next: usize,
    all_aces: bool,
    joker: JokerRule,
    made: &mut u8,
) {
    if next == 3 {
        let category = three_card_category(*reading);
        let completes = matches!(
            category,
            THREE_STRAIGHT | THREE_FLUSH | THREE_STRAIGHT_FLUSH
        );
        if joker == JokerRule::Wild || all_aces || completes {
            *made |= 1 << category;
        }
        return;
    }
    for rank in 0..RANKS {
        for suit in 0..4 {
            reading[next] = (rank, suit);
            read_jokers(reading, next + 1, all_aces && rank == ACE, joker, made);
        }
    }
}

/// Whether a three-card hand (its [`three_card_made`] bits, whether it holds a joker) makes
/// `event`.
fn three_card_makes(made: u8, has_joker: bool, event: ThreeCard) -> bool {
    let bit = |c: u8| made & (1 << c) != 0;
    match event {
        ThreeCard::NaturalStraightFlush => !has_joker && bit(THREE_STRAIGHT_FLUSH),
        ThreeCard::StraightFlushWithJoker => has_joker && bit(THREE_STRAIGHT_FLUSH),
        ThreeCard::ThreeOfAKind => bit(THREE_TRIPS),
        ThreeCard::Straight => bit(THREE_STRAIGHT),
        ThreeCard::Flush => bit(THREE_FLUSH),
        ThreeCard::Pair => bit(THREE_PAIR),
    }
}

/// The paying line (or `lines`, none) of a three-card paytable for every (made bits, joker)
/// key: 128 entries.
fn three_card_line_table(paytable: &Paytable) -> Vec<u8> {
    (0..128usize)
        .map(|key| {
            let (made, has_joker) = ((key & 63) as u8, key >> 6 == 1);
            let judged = Judged::FirstThree { made, has_joker };
            let line = paytable.lines.iter().position(|l| makes(l.event, judged));
            line.unwrap_or(paytable.lines.len()) as u8
        })
        .collect()
}

/// The key of a three-card hand in `three_card_line_table`.
#[inline]
pub fn three_card_key(cards: &[Card; 3], joker: JokerRule) -> usize {
    let has_joker = cards.iter().any(|c| c.is_joker());
    usize::from(three_card_made(cards, joker)) | usize::from(has_joker) << 6
}

/// Whether seven cards are three pairs and a single, each joker read as an ace (what a bug
/// joker is outside a straight or flush, and how this event reads a wild joker too): three
/// ranks held exactly twice, none three or more times. Counted per rank by adding the four suit
/// lanes bit-sliced (no popcount: the baseline x86_64 target lacks one), the aces apart.
pub fn is_three_pair(cards: Cards) -> bool {
    const ACE_BIT: u32 = 1 << ACE;
    let [a, b, c, d] = [0, 1, 2, 3].map(|s| cards.suit_mask(s) & !ACE_BIT);
    let (sum_ab, carry_ab, sum_cd, carry_cd) = (a ^ b, a & b, c ^ d, c & d);
    let ones = sum_ab ^ sum_cd;
    let carry = sum_ab & sum_cd;
    let twos = carry_ab ^ carry_cd ^ carry;
    let fours = (carry_ab & carry_cd) | ((carry_ab ^ carry_cd) & carry);
    let aces = u32::from(count_aces(cards)) + cards.jokers();
    let pairs = (twos & !ones & !fours) | if aces == 2 { ACE_BIT } else { 0 };
    let more = ((twos & ones) | fours) != 0 || aces >= 3;
    let without_lowest = |m: u32| m & m.wrapping_sub(1);
    let two_left = without_lowest(pairs);
    !more && without_lowest(two_left) != 0 && without_lowest(without_lowest(two_left)) == 0
}

/// The number of (suited) aces in a set: one bit per suit lane, the four lanes summed by one
/// multiply into the top lane (at most 4, so no lane carries).
fn count_aces(cards: Cards) -> u8 {
    (((cards.0 >> ACE) & LANE_LOW_BITS).wrapping_mul(LANE_LOW_BITS) >> 48) as u8
}

/// The lowest bit of each 16-bit suit lane.
const LANE_LOW_BITS: u64 = 0x0001_0001_0001_0001;

/// Whether all seven cards form a straight flush: the suited cards lie in one suit within a run
/// of seven ranks (the ace high or low), and jokers fill the rest. The first test (no suited card
/// outside the suit) rejects nearly every hand without counting.
pub fn is_seven_card_straight_flush(cards: Cards) -> bool {
    let jokers = cards.jokers();
    let suited = cards.0 & !JOKER_BITS;
    (0..4).any(|suit| {
        let mask = cards.suit_mask(suit);
        suited & !(LANE_MASK << (16 * suit)) == 0
            && mask.count_ones() + jokers == 7
            && fits_seven_run(mask)
    })
}

/// Whether a rank mask fits inside seven consecutive ranks, reading the ace high or low.
fn fits_seven_run(mask: u32) -> bool {
    let ace = 1u32 << ACE;
    let readings = [mask << 1, ((mask & !ace) << 1) | u32::from(mask & ace != 0)];
    readings
        .iter()
        .any(|&m| (0..=(RANKS as u32 + 1 - 7)).any(|start| m & !(0x7F << start) == 0))
}

/// The joker event of a deal: how many jokers each hand holds.
pub fn joker_event(player: &[Card; 7], dealer: &[Card; 7]) -> Event {
    Event::Jokers {
        player: Cards::from_cards(player).jokers() as u8,
        dealer: Cards::from_cards(dealer).jokers() as u8,
    }
}

impl SevenCardFacts {
    /// Bits of [`SevenCardFacts::key`].
    pub const KEY_BITS: u32 = 19;

    /// Everything that decides which line pays, in [`Self::KEY_BITS`] bits: the categories made
    /// (bits 0-10), with bit 11 flagging either a pai gow hand (which makes only high card: the
    /// low bits then hold its top slot, below 16) or a royal match (which always makes a royal
    /// flush: the low bits hold the categories, 512 or more); the jokers, the aces, the 7-card
    /// straight flush (bit 17) and three pair (bit 18). The best category is the highest made.
    #[inline]
    pub fn key(&self) -> usize {
        self.0 as usize
    }

    /// The facts of this key.
    fn from_key(key: usize) -> SevenCardFacts {
        debug_assert!(key < 1 << Self::KEY_BITS);
        SevenCardFacts(key as u32)
    }
}

/// A seven-card paytable's paying line for every [`SevenCardFacts::key`] (the slot after the
/// last line when none pays): one byte lookup per hand instead of a walk down the lines
/// (512 KB).
pub struct LineTable {
    lines: Box<[u8]>,
}

impl LineTable {
    /// The table of `paytable` (at most 255 lines).
    pub fn new(paytable: &Paytable) -> LineTable {
        let none = paytable.lines.len();
        assert!(none <= usize::from(u8::MAX));
        let lines = (0..1usize << SevenCardFacts::KEY_BITS)
            .map(|key| {
                let facts = SevenCardFacts::from_key(key);
                paytable.first_line(&facts).unwrap_or(none) as u8
            })
            .collect();
        LineTable { lines }
    }

    /// The line paying a hand with these facts (the slot after the last line if none).
    #[inline]
    pub fn line(&self, facts: &SevenCardFacts) -> usize {
        usize::from(self.lines[facts.key()])
    }
}

/// What one player's side bets not [`SideBetPlan::settled_by_class`] are settled on in one
/// round.
pub struct BetHand<'a> {
    /// The player's seven cards in deal order (a three-card bet reads the first three).
    pub dealt: &'a [Card; 7],
    /// The dealer's seven-card facts, when a bet judged on the dealer needs them.
    pub dealer_facts: Option<&'a SevenCardFacts>,
    /// The joker event of the deal, when a joker bet reads it.
    pub jokers: Option<Event>,
    /// The player's setting as played: (front, back) values.
    pub setting: (Value, Value),
}

/// The paying line by kind of bet.
enum LineLookup {
    SevenCards(LineTable),
    FirstThree(Vec<u8>),
    /// By the back's category and whether the front is a pair: [`setting_key`].
    Setting(Vec<u8>),
    Jokers,
}

/// The key of a setting in a setting bet's line table: the back's category, twice, plus one
/// when the front is a pair.
#[inline]
fn setting_key((front, back): (Value, Value)) -> usize {
    2 * back.category() as usize + usize::from(front.category() == Category::OnePair)
}

/// The paying line (or `lines`, none) of a setting paytable for every [`setting_key`].
fn setting_line_table(paytable: &Paytable) -> Vec<u8> {
    (0..22usize)
        .map(|key| {
            let back = Category::from_u32((key / 2) as u32);
            let pair = key % 2 == 1;
            let judged = Judged::Setting {
                back,
                front_pair: pair,
            };
            let line = paytable.lines.iter().position(|l| makes(l.event, judged));
            line.unwrap_or(paytable.lines.len()) as u8
        })
        .collect()
}

/// How one side bet is settled in the hot loop: its paytable and each line's net in pay units
/// (`unit` units = one bet, so "X to Y" lines stay integers).
pub struct SideBetPlan {
    pub table: Paytable,
    /// Pay units per unit bet: the least common multiple of the lines' stakes (which divide
    /// [`crate::game::wager::BET_UNITS`], pays being whole units in lowest terms).
    pub unit: i64,
    /// Net per line in pay units, summed over the players a hand's line is paid to (see
    /// [`SideBetPlan::for_players`]); the slot after the last line is a loss (`-unit`), or
    /// nothing for an Envy bonus.
    pub line_net: Vec<i64>,
    lookup: LineLookup,
    joker: JokerRule,
}

impl SideBetPlan {
    /// The plan for one paytable (at most [`crate::game::paytable::MAX_LINES`] lines, checked by the
    /// paytable loader) under the game's joker rule.
    pub fn new(table: &Paytable, joker: JokerRule) -> SideBetPlan {
        use crate::combin::gcd;
        let unit = table.lines.iter().fold(1u64, |l, line| {
            l / gcd(l, line.pays.stake) * line.pays.stake
        });
        let mut line_net: Vec<i64> = table
            .lines
            .iter()
            .map(|line| (line.pays.to_win * (unit / line.pays.stake)) as i64)
            .collect();
        line_net.push(table.no_line_units() * unit as i64 / BET_UNITS);
        let lookup = match table.kind {
            BetKind::SevenCards => LineLookup::SevenCards(LineTable::new(table)),
            BetKind::FirstThree => LineLookup::FirstThree(three_card_line_table(table)),
            BetKind::Setting => LineLookup::Setting(setting_line_table(table)),
            BetKind::Jokers => LineLookup::Jokers,
        };
        SideBetPlan {
            table: table.clone(),
            unit: unit as i64,
            line_net,
            lookup,
            joker,
        }
    }

    /// The plan for rounds of `players` players: each hand's line net is paid to
    /// [`Paytable::payees`] players (every other player for an Envy bonus, so a round's Envy net
    /// is the sum of every hand's line times the other players; with one player it is zero).
    pub fn for_players(mut self, players: u8) -> SideBetPlan {
        let payees = i64::from(self.table.payees(players));
        for net in &mut self.line_net {
            *net *= payees;
        }
        self
    }

    /// Whether this bet is judged on a player's seven cards (the player's own, or each other
    /// player's for an Envy bonus): then it is settled by the hand's class ([`HandClasses`]),
    /// never hand by hand through [`SideBetPlan::line`].
    pub fn settled_by_class(&self) -> bool {
        self.table.kind == BetKind::SevenCards && self.table.judged_on != JudgedOn::Dealer
    }

    /// Whether this bet needs the dealer's seven-card facts.
    pub fn needs_dealer_facts(&self) -> bool {
        self.table.kind == BetKind::SevenCards && self.table.judged_on == JudgedOn::Dealer
    }

    /// The line (or the slot after the last line) of a three-card bet paying a hand with this
    /// [`three_card_key`].
    #[inline]
    pub fn three_card_line(&self, key: usize) -> usize {
        match &self.lookup {
            LineLookup::FirstThree(lines) => usize::from(lines[key]),
            _ => unreachable!("a three-card bet"),
        }
    }

    /// The line (or the slot after the last line) of a setting bet paying a hand set as
    /// `setting`: (front value, back value).
    #[inline]
    pub fn setting_line(&self, setting: (Value, Value)) -> usize {
        match &self.lookup {
            LineLookup::Setting(lines) => usize::from(lines[setting_key(setting)]),
            _ => unreachable!("a setting bet"),
        }
    }

    /// Whether this bet reads the deal's joker event.
    pub fn needs_jokers(&self) -> bool {
        self.table.kind == BetKind::Jokers
    }

    /// The line (or the slot after the last line) of a seven-card bet paying seven cards with
    /// these facts: one byte lookup.
    #[inline]
    pub fn seven_card_line(&self, facts: &SevenCardFacts) -> usize {
        match &self.lookup {
            LineLookup::SevenCards(lines) => lines.line(facts),
            _ => unreachable!("a seven-card bet"),
        }
    }

    /// The index of the line paying this hand (the slot after the last line if none), for a bet
    /// not [`SideBetPlan::settled_by_class`]. A seven-card bet on the dealer is one byte lookup,
    /// inline; the other kinds are kept out of line, so that a hot loop over a game's bets
    /// computes no bet's inputs for a kind the game lacks.
    #[inline]
    pub fn line(&self, hand: &BetHand) -> usize {
        debug_assert!(!self.settled_by_class(), "a bet settled by class");
        match &self.lookup {
            LineLookup::SevenCards(lines) => {
                lines.line((hand.dealer_facts).expect("the dealer's facts for a bet on them"))
            }
            _ => self.line_not_seven_cards(hand),
        }
    }

    /// [`Self::line`] of a bet on three cards, a setting or the jokers.
    #[inline(never)]
    fn line_not_seven_cards(&self, hand: &BetHand) -> usize {
        match &self.lookup {
            LineLookup::SevenCards(_) => unreachable!("seven-card bets are settled inline"),
            LineLookup::FirstThree(_) => {
                let first: &[Card; 3] = hand.dealt[..3].try_into().expect("three cards");
                self.three_card_line(three_card_key(first, self.joker))
            }
            LineLookup::Setting(_) => self.setting_line(hand.setting),
            LineLookup::Jokers => {
                let event = hand
                    .jokers
                    .expect("the joker event is found for joker bets");
                let none = self.table.lines.len();
                self.table.joker_line(event).unwrap_or(none)
            }
        }
    }
}

/// A player's seven-card hands in classes: hands of one class have the same best category and
/// are paid the same line by every bet [`SideBetPlan::settled_by_class`], so a hot loop may
/// count a player's hands by class and read the categories and those bets' lines off the
/// counts. A class is the (category, lines) it stands for, numbered in the order of the first
/// [`SevenCardFacts::key`] that has it; with no such bet there is one class per category.
pub struct HandClasses {
    /// The class of every [`SevenCardFacts::key`] (2 MB, of which a hot loop reads a few lines).
    of_key: Box<[u32]>,
    classes: Vec<HandClass>,
}

/// What the hands of one class share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HandClass {
    pub category: Category,
    /// The line of each bet settled by class, in the game's order (0 for other bets).
    pub lines: [u8; MAX_SIDE_BETS],
}

impl HandClasses {
    /// The classes of a game's side bets (at most [`MAX_SIDE_BETS`] plans).
    pub fn new(plans: &[SideBetPlan]) -> HandClasses {
        let mut numbers = std::collections::HashMap::new();
        let mut classes = Vec::new();
        let of_key = (0..1usize << SevenCardFacts::KEY_BITS)
            .map(|key| {
                let facts = SevenCardFacts::from_key(key);
                let mut lines = [0; MAX_SIDE_BETS];
                for (line, plan) in lines.iter_mut().zip(plans) {
                    if plan.settled_by_class() {
                        *line = plan.seven_card_line(&facts) as u8;
                    }
                }
                let class = HandClass {
                    category: facts.best_category(),
                    lines,
                };
                *numbers.entry(class).or_insert_with(|| {
                    classes.push(class);
                    (classes.len() - 1) as u32
                })
            })
            .collect();
        HandClasses { of_key, classes }
    }

    /// The class of seven cards with these facts.
    #[inline]
    pub fn of(&self, facts: &SevenCardFacts) -> usize {
        self.of_key[facts.key()] as usize
    }

    /// Every class, by number.
    pub fn all(&self) -> &[HandClass] {
        &self.classes
    }
}

impl Paytable {
    /// The index of the line that pays a hand with these facts, if any.
    pub fn first_line(&self, facts: &SevenCardFacts) -> Option<usize> {
        self.lines.iter().position(|line| facts.makes(line.event))
    }

    /// The index of the line that pays a joker event, if any.
    pub fn joker_line(&self, event: Event) -> Option<usize> {
        self.lines.iter().position(|line| line.event == event)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn line_tables_agree_with_walking_the_lines() {
        for (game, jokers) in [("standard", 1), ("double-joker", 2)] {
            let game = crate::game::GameRules::load(game).unwrap();
            let ev = crate::eval::Evaluator::new(game.ranking);
            let deck = crate::cards::Deck::with_jokers(jokers).unwrap();
            let tables: Vec<LineTable> = game.side_bets.iter().map(LineTable::new).collect();
            for hand in crate::cards::deal::sample_hands(deck, 3).take(100_000) {
                let facts = SevenCardFacts::of(&hand, &ev.split_values(&hand));
                assert_eq!(SevenCardFacts::from_key(facts.key()).key(), facts.key());
                for (paytable, table) in game.side_bets.iter().zip(&tables) {
                    if paytable.kind == crate::game::paytable::BetKind::SevenCards {
                        let walked = paytable.first_line(&facts);
                        assert_eq!(
                            table.line(&facts),
                            walked.unwrap_or(paytable.lines.len()),
                            "{hand:?}"
                        );
                    }
                }
            }
        }
    }

    use super::*;
    use crate::cards::Deck;
    use crate::eval::{Evaluator, Ranking};

    /// Every hand's class holds its best category and the line each bet settled by class pays
    /// it (walking the paytable's lines); with no bet there is one class per category.
    #[test]
    fn a_hands_class_holds_its_category_and_its_lines() {
        for game in ["standard", "fortune", "double-joker"] {
            let game = crate::game::GameRules::load(game).unwrap();
            let ev = Evaluator::new(game.ranking);
            let plans: Vec<SideBetPlan> = (game.side_bets.iter())
                .map(|t| SideBetPlan::new(t, game.ranking.joker))
                .collect();
            assert!(plans.iter().any(SideBetPlan::settled_by_class));
            let classes = HandClasses::new(&plans);
            for hand in crate::cards::deal::sample_hands(game.deck, 11).take(50_000) {
                let splits = ev.split_values(&hand);
                let facts = SevenCardFacts::of(&hand, &splits);
                let class = classes.all()[classes.of(&facts)];
                assert_eq!(class.category, splits.best_five().category(), "{hand:?}");
                for (i, (plan, table)) in plans.iter().zip(&game.side_bets).enumerate() {
                    if plan.settled_by_class() {
                        let walked = table.first_line(&facts).unwrap_or(table.lines.len());
                        assert_eq!(usize::from(class.lines[i]), walked, "{hand:?}");
                    }
                }
            }
        }
        assert_eq!(HandClasses::new(&[]).all().len(), 11);
    }

    fn facts(text: &str) -> SevenCardFacts {
        let ev = Evaluator::new(Ranking::default());
        let hand = Deck::with_jokers(2).unwrap().parse_hand7(text).unwrap();
        SevenCardFacts::of(&hand, &ev.split_values(&hand))
    }

    /// Three pair against its counting definition (the ranks of the seven cards, each joker an
    /// ace, are 2 + 2 + 2 + 1) on sampled hands of 54 cards, and named hands.
    #[test]
    fn three_pair_by_counting() {
        let counted = |hand: &[Card; 7]| {
            let mut by_rank = [0u8; RANKS as usize];
            for card in hand {
                by_rank[card.rank().unwrap_or(ACE) as usize] += 1;
            }
            let mut counts: Vec<u8> = by_rank.into_iter().filter(|&n| n > 0).collect();
            counts.sort_unstable();
            counts == [1, 2, 2, 2]
        };
        let ev = Evaluator::new(Ranking::default());
        let mut found = 0;
        for hand in crate::cards::deal::sample_hands(Deck::with_jokers(2).unwrap(), 5).take(20_000)
        {
            let facts = SevenCardFacts::of(&hand, &ev.split_values(&hand));
            assert_eq!(facts.makes(Event::ThreePair), counted(&hand), "{hand:?}");
            found += usize::from(counted(&hand));
        }
        assert!(found > 100, "{found}");
        for (text, three_pair) in [
            ("As Ah Ks Kh Qs Qh 2c", true),
            ("Jk Ah Ks Kh Qs Qh 2c", true),
            ("Jk Jk Ks Kh Qs Qh 2c", true),
            ("Ks Kh Qs Qh Js Jh Jk", true),
            ("As Ah Ad Kh Ks Qh Qs", false),
            ("Jk As Ah Kh Ks Qh Qs", false),
            ("As Ah Ks Kh Qs Jh 2c", false),
            ("As Ah Ks Kh Qs Qh Qc", false),
        ] {
            assert_eq!(facts(text).makes(Event::ThreePair), three_pair, "{text}");
        }
    }

    #[test]
    fn seven_card_straight_flushes() {
        assert!(facts("As 2s 3s 4s 5s 6s 7s").makes(Event::SevenCardNaturalStraightFlush));
        assert!(facts("8h 9h Th Jh Qh Kh Ah").makes(Event::SevenCardNaturalStraightFlush));
        let with_joker = facts("8h 9h Th Jk Qh Kh Ah");
        assert!(with_joker.makes(Event::SevenCardStraightFlushWithJoker));
        assert!(!with_joker.makes(Event::SevenCardNaturalStraightFlush));
        assert!(facts("Jk 2s 3s 4s 5s 6s Jk").makes(Event::SevenCardStraightFlush));
        assert!(!facts("9h Th Jh Qh Kh Ah 2h").makes(Event::SevenCardStraightFlush));
        assert!(!facts("As 2s 3s 4s 5s 6s 7h").makes(Event::SevenCardStraightFlush));
    }

    /// Aces and seven-card straight flushes against their counting definitions: every hand of
    /// one suit and jokers (where the straight flushes are), then sampled hands.
    #[test]
    fn aces_and_seven_card_straight_flushes_by_counting() {
        let aces = |hand: &[Card]| hand.iter().filter(|c| c.rank() == Some(ACE)).count() as u8;
        let straight_flush = |cards: Cards| {
            (0..4).any(|s| {
                let mask = cards.suit_mask(s);
                mask.count_ones() + cards.jokers() == 7 && fits_seven_run(mask)
            })
        };
        let check = |hand: &[Card]| {
            let cards = Cards::from_cards(hand);
            assert_eq!(count_aces(cards), aces(hand), "{hand:?}");
            assert_eq!(
                is_seven_card_straight_flush(cards),
                straight_flush(cards),
                "{hand:?}"
            );
            straight_flush(cards)
        };
        let mut straight_flushes = 0;
        for jokers in 0..=2usize {
            for mask in (0u32..1 << RANKS).filter(|m| m.count_ones() as usize == 7 - jokers) {
                for suit in 0..4 {
                    let mut hand: Vec<Card> = (0..RANKS)
                        .filter(|r| mask & 1 << r != 0)
                        .map(|r| Card::new(r, suit).unwrap())
                        .collect();
                    hand.extend([Card::JOKER1, Card::JOKER2][..jokers].iter().copied());
                    straight_flushes += usize::from(check(&hand));
                }
            }
        }
        assert!(straight_flushes > 4 * 8, "{straight_flushes}");
        for hand in crate::cards::deal::sample_hands(Deck::with_jokers(2).unwrap(), 4).take(100_000)
        {
            check(&hand);
        }
    }

    #[test]
    fn aces_and_categories() {
        let six = facts("As Ah Ad Ac Jk Jk 2c");
        assert!(six.makes(Event::SixAces) && six.makes(Event::FiveAces));
        let trips_and_straight = facts("Ah Ad Jk 5c 6d 7h 8s");
        assert!(trips_and_straight.makes(Event::Makes(Category::Straight)));
        assert!(trips_and_straight.makes(Event::Makes(Category::ThreeOfAKind)));
        assert!(!trips_and_straight.makes(Event::Makes(Category::Flush)));
    }

    #[test]
    fn pai_gow_hands() {
        assert!(facts("9h 8d 7c 5s 4h 3d 2c").makes(Event::PaiGowHigh(7)));
        assert!(!facts("9h 8d 7c 6s 5h 3d 2c").makes(Event::PaiGowHigh(7)));
        assert!(!facts("9h 8d 7c 5s 4h 3d 3c").makes(Event::PaiGowHigh(7)));
        assert!(facts("Jk 8d 7c 5s Th 3d 2c").makes(Event::PaiGowHigh(ACE)));
    }

    #[test]
    fn royal_match_needs_a_natural_suited_king_and_queen_beside_a_royal() {
        assert!(facts("As Ks Qs Js Ts Kh Qh").makes(Event::RoyalMatch));
        for hand in ["As Ks Qs Js Jk Kh Qh", "As Ks Qs Js Ts Kh Qd"] {
            let f = facts(hand);
            let back = SevenCardFacts::from_key(f.key());
            assert_eq!(back.key(), f.key(), "{hand}");
            assert_eq!(
                back.makes(Event::RoyalMatch),
                f.makes(Event::RoyalMatch),
                "{hand}"
            );
            assert!(back.makes(Event::Makes(Category::RoyalFlush)), "{hand}");
        }
        assert!(facts("As Ks Qs Js Jk Kh Qh").makes(Event::RoyalMatch));
        assert!(facts("As Qs Js Ts Jk Kd Qd").makes(Event::RoyalMatch));
        assert!(!facts("As Ks Qs Js Ts Kh Qd").makes(Event::RoyalMatch));
        assert!(!facts("As Ks Qs Js Ts Kh Jk").makes(Event::RoyalMatch));
        assert!(!facts("As Ks Qs Js 9s Kh Qh").makes(Event::RoyalMatch));
        assert!(!facts("Ah Ks Qs Js Ts Kh Qh").makes(Event::RoyalMatch));
    }

    /// `of_known` skips the suited events' tests outside a flush slot: sound only if no hand
    /// without a flush suit makes them. Every hand of the tens to aces and two jokers (where
    /// royal matches live), and 200,000 sampled hands.
    #[test]
    fn suited_events_need_a_flush_suit() {
        let deck = Deck::with_jokers(2).unwrap();
        let rich: Vec<Card> = (deck.cards().into_iter())
            .filter(|c| c.rank().is_none_or(|r| r + 4 >= ACE))
            .collect();
        let mut hands: Vec<[Card; 7]> = crate::cards::deal::sample_hands(deck, 5)
            .take(200_000)
            .collect();
        crate::combin::for_each_subset(rich.len(), 7, |ix| {
            hands.push(std::array::from_fn(|i| rich[ix[i]]));
        });
        let mut royal_matches = 0;
        for hand in hands {
            let cards = Cards::from_cards(&hand);
            royal_matches += u32::from(is_royal_match(cards));
            if crate::eval::flush_suit(&hand).is_none() {
                assert!(!is_royal_match(cards), "{hand:?}");
                assert!(!is_seven_card_straight_flush(cards), "{hand:?}");
            }
        }
        // The tens to aces hold royal matches (at least the 12 natural ones): the test sees
        // the event it guards.
        assert!(royal_matches >= 12, "{royal_matches}");
    }

    /// Seven-card hands where every seven-card event lies: sampled from the 54 cards, and every
    /// hand of small decks holding the rare events (one suit and two jokers: the seven-card
    /// straight flushes; tens to aces of two suits and two jokers: royal matches; queens to aces
    /// and two jokers: five and six aces).
    fn hands_making_every_event() -> Vec<[Card; 7]> {
        let deck = Deck::with_jokers(2).unwrap();
        let mut hands: Vec<[Card; 7]> = crate::cards::deal::sample_hands(deck, 17)
            .take(4_000)
            .collect();
        let small_decks = [
            (0..RANKS)
                .map(|r| Card::new(r, 0).unwrap())
                .collect::<Vec<_>>(),
            (0..2)
                .flat_map(|s| (ACE - 4..=ACE).map(move |r| Card::new(r, s).unwrap()))
                .collect(),
            (0..4)
                .flat_map(|s| (ACE - 2..=ACE).map(move |r| Card::new(r, s).unwrap()))
                .collect(),
        ];
        for mut cards in small_decks {
            cards.extend([Card::JOKER1, Card::JOKER2]);
            crate::combin::for_each_subset(cards.len(), 7, |ix| {
                hands.push(std::array::from_fn(|i| cards[ix[i]]));
            });
        }
        hands
    }

    /// Every event's declared facts ([`Event::declaration`]) agree with its predicate
    /// ([`makes`]) on deals of every kind: a deal making an event makes every event it implies,
    /// no event declared disjoint from it, and holds the jokers it needs; and every family of
    /// the table is made by some deal (so each check sees it). Deals: the seven-card hands of
    /// [`hands_making_every_event`] under both joker rules, the 21 settings of some of them,
    /// every three-card hand of 54 cards under both rules, and every split of two jokers.
    #[test]
    fn every_event_agrees_with_its_declaration() {
        let all = Event::all();
        let declared: Vec<_> = all.iter().map(|e| e.declaration()).collect();
        let disjoint: Vec<Vec<bool>> = (all.iter())
            .map(|a| all.iter().map(|b| a.disjoint(*b)).collect())
            .collect();
        let mut seen = vec![false; all.len()];
        let mut check = |judged: Judged, jokers: u8| {
            let made: Vec<usize> = (0..all.len()).filter(|&i| makes(all[i], judged)).collect();
            for &i in &made {
                let (event, facts) = (all[i], &declared[i]);
                assert!(jokers >= facts.jokers_needed, "{event:?} on {judged:?}");
                for implied in &facts.implies {
                    assert!(
                        makes(*implied, judged),
                        "{event:?} without {implied:?}: {judged:?}"
                    );
                }
                for &j in &made {
                    assert!(!disjoint[i][j], "{event:?} and {:?}: {judged:?}", all[j]);
                }
                assert_eq!(
                    facts.kind,
                    match judged {
                        Judged::SevenCards(_) => BetKind::SevenCards,
                        Judged::FirstThree { .. } => BetKind::FirstThree,
                        Judged::Setting { .. } => BetKind::Setting,
                        Judged::Jokers { .. } => BetKind::Jokers,
                    },
                    "{event:?}"
                );
                seen[i] = true;
            }
        };
        let hands = hands_making_every_event();
        for joker in [JokerRule::Bug, JokerRule::Wild] {
            let ev = Evaluator::new(Ranking {
                joker,
                ..Ranking::default()
            });
            for (n, hand) in hands.iter().enumerate() {
                let jokers = Cards::from_cards(hand).jokers() as u8;
                let splits = ev.split_values(hand);
                check(
                    Judged::SevenCards(&SevenCardFacts::of(hand, &splits)),
                    jokers,
                );
                if n % 4 == 0 {
                    for (front, back) in splits.front.iter().zip(&splits.back) {
                        let front_pair = front.category() == Category::OnePair;
                        let back = back.category();
                        check(Judged::Setting { back, front_pair }, jokers);
                    }
                }
            }
            let deck = Deck::with_jokers(2).unwrap().cards();
            crate::combin::for_each_subset(deck.len(), 3, |ix| {
                let cards: [Card; 3] = std::array::from_fn(|i| deck[ix[i]]);
                let jokers = cards.iter().filter(|c| c.is_joker()).count() as u8;
                let made = three_card_made(&cards, joker);
                let has_joker = jokers > 0;
                check(Judged::FirstThree { made, has_joker }, jokers);
            });
        }
        for player in 0..=2 {
            for dealer in 0..=2 - player {
                check(Judged::Jokers { player, dealer }, player + dealer);
            }
        }
        for (event, _) in all.iter().zip(&seen).filter(|(_, seen)| !**seen) {
            let family = std::mem::discriminant(event);
            let made = |i: usize| std::mem::discriminant(&all[i]) == family && seen[i];
            assert!(
                (0..all.len()).any(made),
                "no deal made an event like {event:?}"
            );
        }
    }

    fn three(text: &str, joker: JokerRule) -> Vec<ThreeCard> {
        let hand = Deck::with_jokers(2).unwrap().parse_hand(text, 3).unwrap();
        let cards: [Card; 3] = hand.try_into().unwrap();
        let made = three_card_made(&cards, joker);
        let has_joker = cards.iter().any(|c| c.is_joker());
        (ThreeCard::ALL.into_iter())
            .filter(|e| three_card_makes(made, has_joker, *e))
            .collect()
    }

    #[test]
    fn three_card_hands_read_the_joker_by_the_rule() {
        use ThreeCard::*;
        let bug = JokerRule::Bug;
        assert_eq!(three("As 2s 3s", bug), [NaturalStraightFlush]);
        assert_eq!(three("Qh Kh Ah", bug), [NaturalStraightFlush]);
        assert_eq!(three("Kh Ah 2h", bug), [Flush]);
        assert_eq!(
            three("Jk As 2s", bug),
            [StraightFlushWithJoker, Straight, Flush, Pair]
        );
        assert_eq!(three("Jk Kd Kh", bug), [Pair]);
        assert_eq!(three("Jk Kd Kh", JokerRule::Wild), [ThreeOfAKind, Pair]);
        assert_eq!(three("Jk Ad Ah", bug), [ThreeOfAKind]);
        assert_eq!(three("Jk 9d 2h", bug), Vec::<ThreeCard>::new());
        assert_eq!(
            three("Jk Jk 5c", bug),
            [StraightFlushWithJoker, Straight, Flush, Pair]
        );
    }

    #[test]
    fn setting_bets_read_the_back_and_the_front_as_set() {
        let text = "name = \"j\"\n[[line]]\nevent = \"full_house_behind_plus_pair\"\npays = 60\n\
                    [[line]]\nevent = \"full_house_behind\"\npays = 30\n[[line]]\nevent = \"straight_behind\"\npays = 10\n";
        let table = Paytable::from_toml(text, "j.toml").unwrap();
        let plan = SideBetPlan::new(&table, JokerRule::Bug);
        let ev = Evaluator::new(Ranking::default());
        let deck = Deck::with_jokers(1).unwrap();
        let line = |text: &str, front: (usize, usize)| {
            let hand = deck.parse_hand7(text).unwrap();
            let splits = ev.split_values(&hand);
            let k = (0..21)
                .find(|&k| crate::eval::split::FRONT_POSITIONS[k] == (front.0 as u8, front.1 as u8))
                .unwrap();
            let bet_hand = BetHand {
                dealt: &hand,
                dealer_facts: None,
                jokers: None,
                setting: (splits.front[k], splits.back[k]),
            };
            plan.line(&bet_hand)
        };
        // Sorted hands: the front is two card positions of the sorted seven.
        let full_house_and_pair = "2c 2d 5h 5s 9c 9d 9h";
        let sorted = crate::cards::sorted_hand(&deck.parse_hand7(full_house_and_pair).unwrap());
        let at = |c: &str| sorted.iter().position(|x| x.to_string() == c).unwrap();
        assert_eq!(line(full_house_and_pair, (at("2c"), at("2d"))), 0);
        assert_eq!(
            line(full_house_and_pair, (at("2c"), at("5h"))),
            3,
            "three nines behind: no line"
        );
        let straight = "4c 5d 6h 7s 8c Kd Ah";
        let sorted = crate::cards::sorted_hand(&deck.parse_hand7(straight).unwrap());
        let at = |c: &str| sorted.iter().position(|x| x.to_string() == c).unwrap();
        assert_eq!(line(straight, (at("Kd"), at("Ah"))), 2);
        assert_eq!(
            line(straight, (at("4c"), at("Ah"))),
            3,
            "no line: the straight is broken"
        );
    }
}
