//! Every 7-card hand of a deck, grouped by shape: what exact house-way checks (`check-way`'s
//! lint, the load-time validation, `diff-ways`) enumerate instead of 154 million hands.
//!
//! The shape of a hand is the one the shape cache keys on ([`crate::strategy::shape`]): its
//! multiset of rank symbols (ranks and jokers) plus, when one suit holds enough cards to make a
//! flush with the jokers (at most one suit can, among seven cards), the exact ranks that suit
//! holds. Two hands of one shape are one hand up to a relabelling of suits and of the jokers
//! that keeps every split's front and back values, every hand feature (features never name a
//! suit: `way::features`) and which splits put a joker in front; so a house way sets them alike
//! (the same rule, alternative and setting values), and whatever a check finds on one hand of a
//! shape holds for all [`HandShape::hands`] of them.
//!
//! Counting, for a multiset with `c_r` cards of rank `r` and `j` jokers, from a deck of `J`
//! jokers: it is dealt in `prod C(4, c_r) * C(J, j)` ways; one suit holds exactly the ranks `S`
//! (with `|S| + j >= 5`) in `4 * prod_{r in S} C(3, c_r - 1) * prod_{r not in S} C(3, c_r) *
//! C(J, j)` of them; the rest can make no flush. Invariant (tested against dealing every hand of
//! the 53-card deck): the shapes partition the deck's hands, so their counts add up to
//! `C(deck size, 7)`.

use rand::Rng;

use crate::cards::deal::below;
use crate::cards::{Card, Cards, Deck};
use crate::combin::choose;
use crate::eval::{JOKER_SYMBOL, flush_suit, symbol_multisets};

/// The suit a representative hand's flush (if any) is in: clubs.
const FLUSH_SUIT: u8 = 0;

/// One shape: a representative hand and how many hands of the deck have that shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandShape {
    /// A hand of the shape, sorted by card index (a flush, if any, in clubs; the first joker
    /// before the second).
    pub hand: [Card; 7],
    /// How many hands of the deck have this shape.
    pub hands: u64,
}

impl HandShape {
    /// The ranks the flush suit holds, if the shape has one.
    pub fn flush_ranks(&self) -> Option<u32> {
        flush_ranks(&self.hand)
    }

    /// Every hand of `deck` with this shape, sorted by card index (there are
    /// [`HandShape::hands`] of them).
    pub fn every_hand(&self, deck: Deck) -> Vec<[Card; 7]> {
        let (counts, jokers) = rank_counts(&self.hand);
        let flush = self.flush_ranks();
        let mut out = Vec::new();
        let mut cards = Vec::with_capacity(7);
        for joker_set in joker_choices(deck, jokers) {
            cards.clear();
            cards.extend(joker_set);
            extend_suits(&counts, 0, &mut cards, &mut |hand: &[Card]| {
                let mut hand: [Card; 7] = hand.try_into().expect("seven cards");
                hand.sort();
                if flush_ranks(&hand) == flush {
                    out.push(hand);
                }
            });
        }
        out
    }

    /// A hand drawn uniformly from the hands of `deck` with this shape.
    pub fn random_hand<R: Rng>(&self, deck: Deck, rng: &mut R) -> [Card; 7] {
        let (counts, jokers) = rank_counts(&self.hand);
        let flush = self.flush_ranks();
        loop {
            let mut cards = random_jokers(deck, jokers, rng);
            let flush_suit = below(rng, 4) as u8;
            for (rank, &count) in counts.iter().enumerate() {
                let in_flush = flush.is_some_and(|m| m >> rank & 1 == 1);
                let mut suits: Vec<u8> = match flush {
                    Some(_) => (0..4).filter(|&s| s != flush_suit).collect(),
                    None => (0..4).collect(),
                };
                let others = count as usize - in_flush as usize;
                if in_flush {
                    cards.push(Card::new(rank as u8, flush_suit).expect("a card"));
                }
                for _ in 0..others {
                    let pick = below(rng, suits.len() as u64) as usize;
                    cards.push(Card::new(rank as u8, suits.swap_remove(pick)).expect("a card"));
                }
            }
            let mut hand: [Card; 7] = cards.try_into().expect("seven cards");
            hand.sort();
            // A hand drawn for a shape with no flush may make one: draw again.
            if flush_ranks(&hand) == flush {
                return hand;
            }
        }
    }
}

/// The ranks of the suit that makes a flush with the jokers, if one does.
fn flush_ranks(hand: &[Card; 7]) -> Option<u32> {
    flush_suit(hand).map(|s| Cards::from_cards(hand).suit_mask(s))
}

/// Cards per rank and jokers of a hand.
fn rank_counts(hand: &[Card; 7]) -> ([u8; 13], u8) {
    let cards = Cards::from_cards(hand);
    (cards.rank_counts(), cards.jokers() as u8)
}

/// Every choice of `jokers` of the deck's jokers.
fn joker_choices(deck: Deck, jokers: u8) -> Vec<Vec<Card>> {
    let all: Vec<Card> = (deck.cards().into_iter())
        .filter(|c| c.is_joker())
        .collect();
    match jokers {
        0 => vec![Vec::new()],
        1 => all.iter().map(|&j| vec![j]).collect(),
        _ => vec![all],
    }
}

/// `jokers` of the deck's jokers, chosen uniformly.
fn random_jokers<R: Rng>(deck: Deck, jokers: u8, rng: &mut R) -> Vec<Card> {
    let mut choices = joker_choices(deck, jokers);
    let pick = below(rng, choices.len() as u64) as usize;
    choices.swap_remove(pick)
}

/// Calls `visit` with every way to give each rank from `rank` on its count of distinct suits.
fn extend_suits(
    counts: &[u8; 13],
    rank: usize,
    cards: &mut Vec<Card>,
    visit: &mut dyn FnMut(&[Card]),
) {
    if rank == 13 {
        visit(cards);
        return;
    }
    let count = counts[rank] as u32;
    for suits in (0u8..16).filter(|m| m.count_ones() == count) {
        let before = cards.len();
        let picked = (0..4u8).filter(|s| suits >> s & 1 == 1);
        cards.extend(picked.map(|s| Card::new(rank as u8, s).expect("a card")));
        extend_suits(counts, rank + 1, cards, visit);
        cards.truncate(before);
    }
}

/// Every shape of `deck`'s 7-card hands, each with its count; the counts add up to
/// `C(deck.size(), 7)`. The order is fixed: rank multisets in [`symbol_multisets`] order, then
/// the shape with no flush, then flush suits by rank set.
pub fn every_shape(deck: Deck) -> Vec<HandShape> {
    symbol_multisets(7)
        .iter()
        .filter_map(|symbols| Multiset::of(symbols, deck))
        .flat_map(|m| m.shapes())
        .collect()
}

/// The hands of one rank multiset (jokers included): a representative that can make no flush
/// (every multiset has hands that cannot) and every rank set a flush suit can hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankMultiset {
    /// A hand of the multiset with no flush, sorted by card index.
    pub plain: [Card; 7],
    /// The rank sets (13-bit masks) a suit making a flush can hold, ascending.
    pub flush_suits: Vec<u32>,
}

/// Every rank multiset of `deck`'s 7-card hands, in [`symbol_multisets`] order: the shapes of
/// [`every_shape`] grouped by their ranks, without their counts.
pub fn every_rank_multiset(deck: Deck) -> Vec<RankMultiset> {
    symbol_multisets(7)
        .iter()
        .filter_map(|symbols| Multiset::of(symbols, deck))
        .map(|m| RankMultiset {
            plain: m.hand(None),
            flush_suits: m.flush_suits(),
        })
        .collect()
}

/// The number of 7-card hands of `deck`.
pub fn hand_count(deck: Deck) -> u64 {
    choose(deck.size() as u64, 7)
}

/// A multiset of seven rank symbols dealable from a deck.
struct Multiset {
    counts: [u8; 13],
    jokers: u8,
    /// `C(J, j)`: which jokers of the deck.
    joker_ways: u64,
}

impl Multiset {
    fn of(symbols: &[u8], deck: Deck) -> Option<Multiset> {
        let jokers = symbols
            .iter()
            .filter(|&&s| s as usize == JOKER_SYMBOL)
            .count() as u8;
        if jokers > deck.jokers() {
            return None;
        }
        let mut counts = [0u8; 13];
        for &s in symbols.iter().filter(|&&s| (s as usize) < JOKER_SYMBOL) {
            counts[s as usize] += 1;
        }
        Some(Multiset {
            counts,
            jokers,
            joker_ways: choose(deck.jokers() as u64, jokers as u64),
        })
    }

    /// Hands of the multiset, whatever their suits.
    fn ways(&self) -> u64 {
        let suits: u64 = self.counts.iter().map(|&c| choose(4, c as u64)).product();
        suits * self.joker_ways
    }

    /// The ranks present, as a 13-bit mask.
    fn present(&self) -> u32 {
        (0..13)
            .filter(|&r| self.counts[r] > 0)
            .fold(0, |m, r| m | 1 << r)
    }

    /// Hands in which one suit holds exactly the ranks of `mask` (a subset of the present ranks).
    fn flush_ways(&self, mask: u32) -> u64 {
        let per_rank = (0..13).map(|r| {
            let c = self.counts[r] as u64;
            match (c, mask >> r & 1) {
                (0, _) => 1,
                (c, 1) => choose(3, c - 1),
                (c, _) => choose(3, c),
            }
        });
        4 * per_rank.product::<u64>() * self.joker_ways
    }

    /// The rank sets a flush suit can hold (some hand of the multiset has it), ascending.
    fn flush_suits(&self) -> Vec<u32> {
        let present = self.present();
        let mut out = Vec::new();
        let mut subset = present;
        loop {
            let big_enough = subset.count_ones() + self.jokers as u32 >= 5;
            if big_enough && self.flush_ways(subset) > 0 {
                out.push(subset);
            }
            if subset == 0 {
                break;
            }
            subset = (subset - 1) & present;
        }
        out.reverse();
        out
    }

    /// The shapes of the multiset: the hands with no flush, then its flush suits.
    fn shapes(&self) -> Vec<HandShape> {
        let mut out = Vec::new();
        let mut flush_total = 0;
        for subset in self.flush_suits() {
            let hands = self.flush_ways(subset);
            out.push(HandShape {
                hand: self.hand(Some(subset)),
                hands,
            });
            flush_total += hands;
        }
        let plain = self.ways() - flush_total;
        if plain > 0 {
            out.insert(
                0,
                HandShape {
                    hand: self.hand(None),
                    hands: plain,
                },
            );
        }
        out
    }

    /// A hand of the multiset: with `flush`, the flush suit holds exactly those ranks and the
    /// other copies take the other suits in order; without, each rank's copies take suits in
    /// turn from a pointer that goes round the four suits, so no suit holds more than two cards
    /// and no flush is possible.
    fn hand(&self, flush: Option<u32>) -> [Card; 7] {
        let mut cards = Vec::with_capacity(7);
        let mut next_suit = 0u8;
        for rank in 0..13u8 {
            let count = self.counts[rank as usize];
            match flush {
                Some(mask) => {
                    let in_flush = mask >> rank & 1 == 1;
                    let others = (1..4u8).take((count - in_flush as u8) as usize);
                    let suits = (in_flush.then_some(FLUSH_SUIT)).into_iter().chain(others);
                    cards.extend(suits.map(|s| Card::new(rank, s).expect("a rank and a suit")));
                }
                None => {
                    for _ in 0..count {
                        cards.push(Card::new(rank, next_suit).expect("a rank and a suit"));
                        next_suit = (next_suit + 1) % 4;
                    }
                }
            }
        }
        cards.extend(
            [Card::JOKER1, Card::JOKER2]
                .into_iter()
                .take(self.jokers as usize),
        );
        let mut hand: [Card; 7] = cards.try_into().expect("seven cards");
        hand.sort();
        hand
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Cards;
    use crate::eval::flush_suit;

    #[test]
    fn shapes_partition_every_deck() {
        for jokers in 0..=2 {
            let deck = Deck::with_jokers(jokers).unwrap();
            let shapes = every_shape(deck);
            let total: u64 = shapes.iter().map(|s| s.hands).sum();
            assert_eq!(total, hand_count(deck), "{jokers} jokers");
            for s in &shapes {
                assert_eq!(Cards::from_cards(&s.hand).len(), 7, "{:?}", s.hand);
                assert!(s.hand.iter().all(|&c| deck.contains(c)));
            }
        }
    }

    #[test]
    fn every_hand_of_a_shape_is_listed_once_and_sampled_fairly() {
        use rand::SeedableRng;
        let deck = Deck::with_jokers(1).unwrap();
        let shapes = every_shape(deck);
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        for shape in shapes.iter().step_by(997) {
            let hands = shape.every_hand(deck);
            assert_eq!(hands.len() as u64, shape.hands, "{:?}", shape.hand);
            assert!(hands.contains(&shape.hand));
            let mut distinct = hands.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), hands.len());
            for _ in 0..20 {
                let drawn = shape.random_hand(deck, &mut rng);
                assert!(distinct.binary_search(&drawn).is_ok(), "{drawn:?}");
            }
        }
    }

    #[test]
    fn representatives_have_their_shape() {
        let deck = Deck::with_jokers(1).unwrap();
        for s in every_shape(deck) {
            let cards = Cards::from_cards(&s.hand);
            match flush_suit(&s.hand) {
                Some(suit) => assert_eq!(suit, FLUSH_SUIT, "{cards}"),
                None => assert!((0..4).all(|suit| cards.suit_mask(suit).count_ones() <= 2)),
            }
        }
    }
}
