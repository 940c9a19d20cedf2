//! Shapes of 7-card hands, numbered densely, and the decks they are dealt from.
//!
//! Every strategy that sets a hand from its own seven cards reads only split values and
//! suit-blind features, so its setting is a function of the hand's *shape* (see
//! [`crate::strategy::shape`]): the multiset of rank symbols (ranks and jokers) and, when one suit
//! holds five cards counting the jokers (at most one suit can), the rank mask of that suit.
//!
//! Ids: a shape with no flush suit is the dense index of its rank multiset
//! ([`dense_index_of_counts`], below [`PLAIN_SLOTS`]); a shape with a flush suit is
//! `PLAIN_SLOTS + k`, `k` numbering the (multiset, flush mask) pairs the deck can deal. [`Shapes`]
//! lists every shape of a [`SuitDeck`] with a representative hand, and reads a hand's id from
//! [`ShapeKey`]s that add up card by card, so an enumeration pays one addition per card and one
//! lookup per hand.
//!
//! Invariants: every hand of the deck has exactly one id, and the representative of that id has
//! the hand's shape (the tests deal hands and check); ids that no hand of the deck has carry no
//! representative.

use std::collections::HashMap;

use crate::cards::{Card, Cards, Deck, LANE_MASK, RANKS};
use crate::eval::{JOKER_SYMBOL, symbol_multisets};
pub use crate::strategy::shape::PLAIN_SLOTS;
use crate::strategy::shape::dense_index_of_counts;

/// Four full suits over some ranks, plus 0, 1 or 2 jokers: the game decks (all 13 ranks), and
/// reduced decks (fewer ranks) small enough for brute force.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SuitDeck {
    ranks: u16,
    jokers: u8,
}

impl SuitDeck {
    /// The deck of a game: 52 cards and its jokers.
    pub fn of(deck: Deck) -> SuitDeck {
        SuitDeck {
            ranks: LANE_MASK as u16,
            jokers: deck.jokers(),
        }
    }

    /// The cards of the ranks in `ranks` (bit r = rank r, deuce 0 .. ace 12) in four suits, and
    /// `jokers` jokers; `None` unless the deck holds two disjoint 7-card hands.
    pub fn new(ranks: u16, jokers: u8) -> Option<SuitDeck> {
        let deck = SuitDeck { ranks, jokers };
        let valid = ranks & !(LANE_MASK as u16) == 0 && jokers <= 2 && deck.size() >= 14;
        valid.then_some(deck)
    }

    /// The rank mask.
    pub fn ranks(self) -> u16 {
        self.ranks
    }

    /// The number of jokers.
    pub fn jokers(self) -> u8 {
        self.jokers
    }

    /// The number of cards.
    pub fn size(self) -> usize {
        4 * self.ranks.count_ones() as usize + self.jokers as usize
    }

    /// Whether this is a whole game deck (all 13 ranks).
    pub fn is_full(self) -> bool {
        self.ranks == LANE_MASK as u16
    }

    /// Every card, suited cards by suit then rank, then the jokers (the order of
    /// [`Deck::cards`] for a full deck).
    pub fn cards(self) -> Vec<Card> {
        let full = Deck::with_jokers(self.jokers).expect("at most two jokers");
        full.cards()
            .into_iter()
            .filter(|c| c.rank().is_none_or(|r| self.ranks >> r & 1 == 1))
            .collect()
    }

    /// Every card, as a set.
    pub fn card_set(self) -> Cards {
        Cards::from_cards(&self.cards())
    }
}

/// Rank counts in nibbles (jokers left out), suit counts in nibbles (a joker counts in every
/// suit) and the card set of some cards: one card's key, or the sum of several.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShapeKey {
    ranks: u64,
    suits: u32,
    cards: u64,
}

impl ShapeKey {
    /// The key of one card.
    #[inline]
    pub fn of(card: Card) -> ShapeKey {
        let (ranks, suits) = match (card.rank(), card.suit()) {
            (Some(r), Some(s)) => (1 << (4 * r), 1 << (4 * s)),
            _ => (0, 0x1111),
        };
        ShapeKey {
            ranks,
            suits,
            cards: card.bit(),
        }
    }

    /// The key of two disjoint sets of cards together.
    #[inline]
    pub fn plus(self, other: ShapeKey) -> ShapeKey {
        ShapeKey {
            ranks: self.ranks + other.ranks,
            suits: self.suits + other.suits,
            cards: self.cards | other.cards,
        }
    }

    /// The suit with five or more cards counting the jokers (seven cards have at most one).
    #[inline]
    fn flush_suit(self) -> Option<u32> {
        let reached = (self.suits + 0x3333) & 0x8888;
        (reached != 0).then(|| reached.trailing_zeros() / 4)
    }
}

/// An open-addressing map from (dense index, flush mask) to flush-shape numbers, filled once.
struct FlushIndex {
    /// `(key + 1) << 32 | number`, 0 for an empty slot.
    slots: Vec<u64>,
    bits: u32,
}

impl FlushIndex {
    fn new(keys: &[u32]) -> FlushIndex {
        let bits = (2 * keys.len().max(1)).next_power_of_two().trailing_zeros();
        let mut index = FlushIndex {
            slots: vec![0; 1 << bits],
            bits,
        };
        for (number, &key) in keys.iter().enumerate() {
            let mut slot = index.home(key);
            while index.slots[slot] != 0 {
                slot = (slot + 1) & (index.slots.len() - 1);
            }
            index.slots[slot] = (u64::from(key) + 1) << 32 | number as u64;
        }
        index
    }

    #[inline]
    fn home(&self, key: u32) -> usize {
        (key.wrapping_mul(0x9E37_79B1) >> (32 - self.bits)) as usize
    }

    /// The number of `key`, which must be in the map.
    #[inline]
    fn get(&self, key: u32) -> u32 {
        let wanted = u64::from(key) + 1;
        let mut slot = self.home(key);
        loop {
            let entry = self.slots[slot];
            if entry >> 32 == wanted || entry == 0 {
                debug_assert!(entry != 0, "every flush shape of the deck is listed");
                return entry as u32;
            }
            slot = (slot + 1) & (self.slots.len() - 1);
        }
    }
}

/// The flush key of a multiset's dense index and its flush suit's rank mask.
#[inline]
fn flush_key(dense: usize, mask: u32) -> u32 {
    (dense as u32) << 13 | mask
}

/// One flush shape: its rank multiset's dense index and its flush suit's ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlushShape {
    pub plain: u32,
    pub mask: u16,
}

/// Every shape of a deck: ids, representatives, and the id of any hand.
pub struct Shapes {
    deck: SuitDeck,
    flush_index: FlushIndex,
    flush: Vec<FlushShape>,
    representatives: Vec<Option<[Card; 7]>>,
}

impl Shapes {
    /// Every shape `deck` can deal.
    pub fn new(deck: SuitDeck) -> Shapes {
        let mut representatives = vec![None; PLAIN_SLOTS];
        let mut flush = Vec::new();
        let mut flush_hands = Vec::new();
        for symbols in symbol_multisets(7) {
            let counts = symbol_counts(&symbols);
            let jokers = counts[JOKER_SYMBOL];
            let ranks = (0..RANKS).fold(0u16, |m, r| m | u16::from(counts[r as usize] > 0) << r);
            if jokers > deck.jokers as usize || ranks & !deck.ranks != 0 {
                continue;
            }
            let dense = dense_index_of_counts(rank_nibbles(&counts));
            representatives[dense] = Some(plain_hand(&counts));
            for mask in flush_masks(&counts) {
                flush.push(FlushShape {
                    plain: dense as u32,
                    mask,
                });
                flush_hands.push(Some(flush_hand(&counts, mask)));
            }
        }
        let keys: Vec<u32> = flush
            .iter()
            .map(|f| flush_key(f.plain as usize, u32::from(f.mask)))
            .collect();
        representatives.extend(flush_hands);
        Shapes {
            deck,
            flush_index: FlushIndex::new(&keys),
            flush,
            representatives,
        }
    }

    /// The deck.
    pub fn deck(&self) -> SuitDeck {
        self.deck
    }

    /// The number of ids (some plain ids have no hand in the deck).
    pub fn ids(&self) -> usize {
        self.representatives.len()
    }

    /// A hand of shape `id` (sorted by card index), or `None` when the deck deals no such hand.
    pub fn representative(&self, id: usize) -> Option<[Card; 7]> {
        self.representatives[id]
    }

    /// The flush shapes, by `id - PLAIN_SLOTS`.
    pub fn flush_shapes(&self) -> &[FlushShape] {
        &self.flush
    }

    /// The id of the seven cards whose keys add up to `key`.
    #[inline]
    pub fn id(&self, key: ShapeKey) -> u32 {
        let dense = dense_index_of_counts(key.ranks);
        match key.flush_suit() {
            None => dense as u32,
            Some(suit) => {
                let mask = (key.cards >> (16 * suit)) as u32 & LANE_MASK as u32;
                PLAIN_SLOTS as u32 + self.flush_index.get(flush_key(dense, mask))
            }
        }
    }

    /// The id of a hand.
    pub fn id_of(&self, hand: &[Card]) -> u32 {
        self.id(hand
            .iter()
            .fold(ShapeKey::default(), |k, &c| k.plus(ShapeKey::of(c))))
    }
}

/// How many of each symbol (13 ranks, then the joker).
fn symbol_counts(symbols: &[u8]) -> [usize; 14] {
    let mut counts = [0; 14];
    for &s in symbols {
        counts[s as usize] += 1;
    }
    counts
}

/// Rank counts in nibbles.
fn rank_nibbles(counts: &[usize; 14]) -> u64 {
    (0..RANKS as usize)
        .map(|r| (counts[r] as u64) << (4 * r))
        .sum()
}

/// The rank masks a flush suit can hold in hands of these symbol counts: subsets `S` of the
/// ranks present with `|S| + jokers >= 5`, where no rank outside `S` has all four cards.
fn flush_masks(counts: &[usize; 14]) -> Vec<u16> {
    let present = (0..RANKS).fold(0u16, |m, r| m | u16::from(counts[r as usize] > 0) << r);
    let full = (0..RANKS).fold(0u16, |m, r| m | u16::from(counts[r as usize] == 4) << r);
    let jokers = counts[JOKER_SYMBOL] as u32;
    let mut masks = Vec::new();
    let mut subset = present;
    loop {
        if subset.count_ones() + jokers >= 5 && full & !subset == 0 {
            masks.push(subset);
        }
        if subset == 0 {
            return masks;
        }
        subset = (subset - 1) & present;
    }
}

/// A hand of these symbol counts with no flush suit: suited cards in rank order, suits dealt
/// round the four (so equal ranks get distinct suits and no suit holds more than two).
fn plain_hand(counts: &[usize; 14]) -> [Card; 7] {
    let suited = (0..RANKS).flat_map(|r| std::iter::repeat_n(r, counts[r as usize]));
    let cards = suited
        .enumerate()
        .map(|(i, r)| Card::new(r, (i % 4) as u8).expect("rank and suit in range"));
    sorted(cards.chain(jokers(counts[JOKER_SYMBOL])))
}

/// A hand of these symbol counts whose flush suit (clubs) holds exactly the ranks `mask`: the
/// other suited cards go round diamonds, hearts and spades in rank order.
fn flush_hand(counts: &[usize; 14], mask: u16) -> [Card; 7] {
    let in_flush = |r: u8| usize::from(mask >> r & 1 == 1);
    let flush = (0..RANKS)
        .filter(|&r| in_flush(r) == 1)
        .map(|r| Card::new(r, 0).expect("rank in range"));
    let others = (0..RANKS)
        .flat_map(|r| std::iter::repeat_n(r, counts[r as usize] - in_flush(r)))
        .enumerate()
        .map(|(i, r)| Card::new(r, 1 + (i % 3) as u8).expect("rank and suit in range"));
    sorted(flush.chain(others).chain(jokers(counts[JOKER_SYMBOL])))
}

fn jokers(n: usize) -> impl Iterator<Item = Card> {
    [Card::JOKER1, Card::JOKER2].into_iter().take(n)
}

fn sorted(cards: impl Iterator<Item = Card>) -> [Card; 7] {
    let mut hand: Vec<Card> = cards.collect();
    hand.sort();
    hand.try_into().expect("seven cards")
}

/// Shape ids by hand, for checks: how many hands of the deck have each id.
pub fn hands_by_id(shapes: &Shapes) -> HashMap<u32, u64> {
    let cards = shapes.deck.cards();
    let mut out = HashMap::new();
    crate::combin::for_each_subset(cards.len(), 7, |p| {
        let hand: Vec<Card> = p.iter().map(|&i| cards[i]).collect();
        *out.entry(shapes.id_of(&hand)).or_insert(0) += 1;
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::shape::ShapeSlot;

    #[test]
    fn a_hand_and_its_representative_share_a_shape() {
        for deck in [1, 2].map(|j| Deck::with_jokers(j).unwrap()) {
            let shapes = Shapes::new(SuitDeck::of(deck));
            for hand in crate::cards::deal::sample_hands(deck, 3).take(50_000) {
                let id = shapes.id_of(&hand) as usize;
                let rep = shapes.representative(id).expect("a dealt shape is listed");
                assert_eq!(shapes.id_of(&rep) as usize, id, "{hand:?}");
                assert_eq!(ShapeSlot::of(&hand), ShapeSlot::of(&rep), "{hand:?}");
            }
        }
    }

    #[test]
    fn a_reduced_deck_deals_every_listed_shape_and_no_other() {
        let deck = SuitDeck::new(0b1_0000_0000_0111, 1).unwrap();
        assert_eq!(deck.size(), 17);
        let shapes = Shapes::new(deck);
        let dealt = hands_by_id(&shapes);
        let listed: Vec<usize> = (0..shapes.ids())
            .filter(|&id| shapes.representative(id).is_some())
            .collect();
        assert_eq!(dealt.len(), listed.len());
        assert!(listed.iter().all(|id| dealt.contains_key(&(*id as u32))));
        assert_eq!(dealt.values().sum::<u64>(), crate::combin::choose(17, 7));
    }
}
