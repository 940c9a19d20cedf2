//! Settling side bets: which paytable events a deal makes, and which line pays.
//!
//! [`SevenCardFacts`] are computed once per 7-card hand from its 21 split values (each back is the
//! best reading of those five cards, so the set of back categories is exactly the set of
//! categories that some five of the seven cards make) plus the 7-card facts (jokers, aces, a
//! 7-card straight flush). A hand is paid by the first line of the paytable whose event it makes
//! ([`Paytable::first_line`]). Joker bets look only at the jokers in the two hands.

use crate::cards::{ACE, Card, Cards, JOKER_BITS, LANE_MASK, RANKS};
use crate::eval::Category;
use crate::eval::split::{KnownSetting, SplitValues};
use crate::game::paytable::{BetKind, Event, Paytable};

/// What a 7-card hand makes, for side bets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SevenCardFacts {
    /// Bit `c` set when some five of the seven cards make category `c` exactly.
    made: u16,
    /// The best category and its highest rank slot (for "pai gow" hands).
    best: Category,
    best_top_slot: u8,
    jokers: u8,
    aces: u8,
    seven_card_straight_flush: bool,
}

impl SevenCardFacts {
    /// The facts of `hand` from its split values.
    pub fn of(hand: &[Card; 7], splits: &SplitValues) -> SevenCardFacts {
        let best = splits.best_five();
        let cards = Cards::from_cards(hand);
        let mut facts =
            SevenCardFacts::from_parts(cards, splits.categories_made(), best.category(), true);
        facts.best_top_slot = best.slots()[0];
        facts
    }

    /// The facts of the seven cards `cards` from what a cache knows of them. `flush_suit`: whether
    /// some suit holds five or more of them counting the jokers; without one there is no
    /// seven-card straight flush, and its test is skipped.
    #[inline]
    pub fn of_known(cards: Cards, known: &KnownSetting, flush_suit: bool) -> SevenCardFacts {
        let mut facts = SevenCardFacts::from_parts(cards, known.made, known.best, false);
        facts.best_top_slot = known.best_top_slot;
        facts.seven_card_straight_flush = flush_suit && is_seven_card_straight_flush(cards);
        facts
    }

    /// The facts of `cards`, testing for a seven-card straight flush when `test_straight_flush`.
    #[inline]
    fn from_parts(cards: Cards, made: u16, best: Category, test_straight_flush: bool) -> Self {
        SevenCardFacts {
            made,
            best,
            best_top_slot: 0,
            jokers: cards.jokers() as u8,
            aces: count_aces(cards),
            seven_card_straight_flush: test_straight_flush && is_seven_card_straight_flush(cards),
        }
    }

    /// Whether the hand makes `event` (joker events are never made by seven cards alone).
    pub fn makes(&self, event: Event) -> bool {
        match event {
            Event::SevenCardNaturalStraightFlush => {
                self.seven_card_straight_flush && self.jokers == 0
            }
            Event::SevenCardStraightFlush => self.seven_card_straight_flush,
            Event::SevenCardStraightFlushWithJoker => {
                self.seven_card_straight_flush && self.jokers > 0
            }
            Event::SixAces => self.aces == 4 && self.jokers == 2,
            Event::FiveAces => self.aces + self.jokers >= 5,
            Event::Makes(category) => self.made & (1 << category as u16) != 0,
            Event::PaiGowHigh(rank) => {
                self.best == Category::HighCard && self.best_top_slot == rank + 1
            }
            Event::Jokers { .. } => false,
        }
    }
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
    pub const KEY_BITS: u32 = 18;

    /// Everything that decides which line pays, in [`Self::KEY_BITS`] bits: the categories made
    /// (or, for a pai gow hand, which makes only high card, a flag and the top slot), the
    /// jokers, the aces and the 7-card straight flush. The best category is the highest made.
    #[inline]
    pub fn key(&self) -> usize {
        let made = match self.made {
            1 => 1 << 11 | usize::from(self.best_top_slot),
            m => usize::from(m),
        };
        made | usize::from(self.jokers) << 12
            | usize::from(self.aces) << 14
            | usize::from(self.seven_card_straight_flush) << 17
    }

    /// Facts with this key (a representative: fields no event reads for it are zero).
    fn from_key(key: usize) -> SevenCardFacts {
        let (made, best_top_slot) = match key & 0xFFF {
            k if k >> 11 == 1 => (1, (k & 15) as u8),
            k => (k as u16, 0),
        };
        SevenCardFacts {
            made,
            best: Category::from_u32(15u32.saturating_sub(made.leading_zeros())),
            best_top_slot,
            jokers: ((key >> 12) & 3) as u8,
            aces: ((key >> 14) & 7) as u8,
            seven_card_straight_flush: key >> 17 & 1 == 1,
        }
    }
}

/// A seven-card paytable's paying line for every [`SevenCardFacts::key`]: one byte lookup per
/// hand instead of a walk down the lines (256 KB).
pub struct LineTable {
    lines: Box<[u8]>,
}

impl LineTable {
    /// No line.
    const NONE: u8 = u8::MAX;

    /// The table of `paytable` (fewer than 255 lines).
    pub fn new(paytable: &Paytable) -> LineTable {
        assert!(paytable.lines.len() < usize::from(Self::NONE));
        let lines = (0..1usize << SevenCardFacts::KEY_BITS)
            .map(|key| {
                let facts = SevenCardFacts::from_key(key);
                paytable.first_line(&facts).map_or(Self::NONE, |l| l as u8)
            })
            .collect();
        LineTable { lines }
    }

    /// The line paying a hand with these facts, if any.
    #[inline]
    pub fn line(&self, facts: &SevenCardFacts) -> Option<usize> {
        match self.lines[facts.key()] {
            Self::NONE => None,
            line => Some(usize::from(line)),
        }
    }
}

/// How one side bet is settled in the hot loop: its paytable and each line's net in pay units
/// (`unit` units = one bet, so "X to Y" lines stay integers).
pub struct SideBetPlan {
    pub table: Paytable,
    /// Pay units per unit bet: the least common multiple of the lines' stakes.
    pub unit: i64,
    /// Net per line in pay units; the slot after the last line is a loss (`-unit`).
    pub line_net: Vec<i64>,
    /// The paying line by seven-card facts (seven-card bets).
    lines: Option<LineTable>,
}

impl SideBetPlan {
    /// The plan for one paytable (at most [`crate::game::paytable::MAX_LINES`] lines, checked by the
    /// paytable loader).
    pub fn new(table: &Paytable) -> SideBetPlan {
        let gcd = |mut a: u64, mut b: u64| {
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        };
        let unit = table.lines.iter().fold(1u64, |l, line| {
            l / gcd(l, line.pays.stake) * line.pays.stake
        });
        let mut line_net: Vec<i64> = table
            .lines
            .iter()
            .map(|line| (line.pays.to_win * (unit / line.pays.stake)) as i64)
            .collect();
        line_net.push(-(unit as i64));
        SideBetPlan {
            table: table.clone(),
            unit: unit as i64,
            line_net,
            lines: (table.kind == BetKind::SevenCards).then(|| LineTable::new(table)),
        }
    }

    /// The index of the line paying this hand (the slot after the last line if none).
    #[inline]
    pub fn line(&self, facts: Option<&SevenCardFacts>, jokers: Event) -> usize {
        let paid = match (&self.lines, facts) {
            (Some(lines), Some(facts)) => lines.line(facts),
            (None, _) => self.table.joker_line(jokers),
            (Some(_), None) => unreachable!("facts are computed for seven-card bets"),
        };
        paid.unwrap_or(self.table.lines.len())
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
                        assert_eq!(table.line(&facts), paytable.first_line(&facts), "{hand:?}");
                    }
                }
            }
        }
    }

    use super::*;
    use crate::cards::Deck;
    use crate::eval::{Evaluator, Ranking};

    fn facts(text: &str) -> SevenCardFacts {
        let ev = Evaluator::new(Ranking::default());
        let hand = Deck::with_jokers(2).unwrap().parse_hand7(text).unwrap();
        SevenCardFacts::of(&hand, &ev.split_values(&hand))
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
}
