//! Shapes of 7-card hands, numbered as the simulation's shape cache numbers them, and the decks
//! they are dealt from.
//!
//! Every strategy that sets a hand from its own seven cards reads only split values and
//! suit-blind features, so its setting is a function of the hand's *shape* (see
//! [`crate::strategy::shape`]): the multiset of rank symbols (ranks and jokers) and, when one suit
//! holds five cards counting the jokers (at most one suit can), the rank mask of that suit.
//!
//! Ids are the one numbering of shapes, the slots of the simulation's shape cache
//! ([`ShapeSlot::index`]): a shape with no flush suit is the dense index of its rank multiset
//! ([`dense_index_of_counts`], below [`PLAIN_SLOTS`]); a shape with a flush suit is
//! `PLAIN_SLOTS` plus its [`flush_slot`] (below [`FLUSH_SLOTS`]). [`Shapes`] lists every shape of
//! a [`SuitDeck`] with a representative hand, and reads a hand's id from [`ShapeKey`]s that add
//! up card by card, so an enumeration pays one addition per card and one lookup per hand (for a
//! flush shape, its multiset's first flush slot).
//!
//! Invariants: ids run below `PLAIN_SLOTS + FLUSH_SLOTS` whatever the deck, and a hand's id is
//! `ShapeSlot::of(hand).index()`; every hand of the deck has exactly one id, and the
//! representative of that id has the hand's shape (the tests deal hands and check); ids that no
//! hand of the deck has (shapes of more jokers than the deck holds, of ranks it lacks, or of five
//! cards of a rank) carry no representative, so ids are not compact: a reduced deck deals few.
//!
//! [`ShapeSlot::index`]: crate::strategy::shape::ShapeSlot::index

use std::collections::HashMap;

use crate::cards::{Card, Cards, Deck, LANE_MASK, RANKS};
use crate::eval::{JOKER_SYMBOL, symbol_multisets};
pub use crate::strategy::shape::{FLUSH_SLOTS, PLAIN_SLOTS};
use crate::strategy::shape::{dense_index_of_counts, flush_slot, flush_slot_of_cards};

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

    /// The key of a hand.
    fn of_hand(hand: &[Card]) -> ShapeKey {
        hand.iter()
            .fold(ShapeKey::default(), |k, &c| k.plus(ShapeKey::of(c)))
    }

    /// The suit with five or more cards counting the jokers (seven cards have at most one).
    #[inline]
    fn flush_suit(self) -> Option<u8> {
        let reached = (self.suits + 0x3333) & 0x8888;
        (reached != 0).then(|| (reached.trailing_zeros() / 4) as u8)
    }

    /// The flush shape of seven cards with this key (`None` when no suit can make a flush).
    fn flush_shape(self) -> Option<FlushShape> {
        let suit = self.flush_suit()?;
        Some(FlushShape {
            plain: dense_index_of_counts(self.ranks) as u32,
            mask: Cards(self.cards).suit_mask(suit) as u16,
        })
    }
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
    /// By id: `PLAIN_SLOTS + FLUSH_SLOTS` of them, `None` where the deck deals no hand.
    representatives: Vec<Option<[Card; 7]>>,
}

impl Shapes {
    /// Every shape `deck` can deal, each at its id.
    pub fn new(deck: SuitDeck) -> Shapes {
        let mut representatives = vec![None; PLAIN_SLOTS + FLUSH_SLOTS];
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
                let slot = flush_slot(dense, ranks.into(), mask.into(), jokers as u32);
                representatives[PLAIN_SLOTS + slot as usize] = Some(flush_hand(&counts, mask));
            }
        }
        Shapes {
            deck,
            representatives,
        }
    }

    /// The deck.
    pub fn deck(&self) -> SuitDeck {
        self.deck
    }

    /// The number of ids, `PLAIN_SLOTS + FLUSH_SLOTS` for every deck (ids the deck deals no hand
    /// of have no representative).
    pub fn ids(&self) -> usize {
        self.representatives.len()
    }

    /// The ids of the shapes the deck deals (those with a representative), ascending.
    pub fn dealt_ids(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.ids()).filter(|&id| self.representatives[id].is_some())
    }

    /// A hand of shape `id` (sorted by card index), or `None` when the deck deals no such hand.
    pub fn representative(&self, id: usize) -> Option<[Card; 7]> {
        self.representatives[id]
    }

    /// The flush shape of `id`, read from its representative: `None` for a shape with no flush
    /// suit, or one the deck deals no hand of.
    pub fn flush_shape(&self, id: usize) -> Option<FlushShape> {
        ShapeKey::of_hand(&self.representative(id)?).flush_shape()
    }

    /// The id of the seven cards whose keys add up to `key`.
    #[inline]
    pub fn id(&self, key: ShapeKey) -> u32 {
        let dense = dense_index_of_counts(key.ranks);
        match key.flush_suit() {
            None => dense as u32,
            Some(suit) => flush_id(Cards(key.cards), suit, dense),
        }
    }

    /// The id of a hand.
    pub fn id_of(&self, hand: &[Card]) -> u32 {
        self.id(ShapeKey::of_hand(hand))
    }
}

/// The id of a flush shape: [`flush_slot_of_cards`] out of line, since few hands have a flush
/// suit and the enumeration's hot loop stays smaller without it (inlined, the busiest phases of
/// `exact main` ran 20 to 40% slower).
#[inline(never)]
fn flush_id(cards: Cards, suit: u8, dense: usize) -> u32 {
    PLAIN_SLOTS as u32 + flush_slot_of_cards(cards, suit, dense)
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
            assert_eq!(shapes.ids(), PLAIN_SLOTS + FLUSH_SLOTS);
            for hand in crate::cards::deal::sample_hands(deck, 3).take(50_000) {
                let id = shapes.id_of(&hand) as usize;
                assert_eq!(id, ShapeSlot::of(&hand).index(), "{hand:?}");
                let rep = shapes.representative(id).expect("a dealt shape is listed");
                assert_eq!(shapes.id_of(&rep) as usize, id, "{hand:?}");
                assert_eq!(ShapeSlot::of(&hand), ShapeSlot::of(&rep), "{hand:?}");
                let flush = ShapeKey::of_hand(&hand).flush_shape();
                assert_eq!(flush.is_some(), id >= PLAIN_SLOTS, "{hand:?}");
                assert_eq!(shapes.flush_shape(id), flush, "{hand:?}");
            }
        }
    }

    #[test]
    fn two_jokers_deal_every_flush_slot() {
        let shapes = Shapes::new(SuitDeck::of(Deck::with_jokers(2).unwrap()));
        assert!((PLAIN_SLOTS..shapes.ids()).all(|id| shapes.representative(id).is_some()));
    }

    #[test]
    fn a_reduced_deck_deals_every_listed_shape_and_no_other() {
        let deck = SuitDeck::new(0b1_0000_0000_0111, 1).unwrap();
        assert_eq!(deck.size(), 17);
        let shapes = Shapes::new(deck);
        let dealt = hands_by_id(&shapes);
        let listed: Vec<usize> = shapes.dealt_ids().collect();
        assert_eq!(dealt.len(), listed.len());
        assert!(listed.iter().all(|id| dealt.contains_key(&(*id as u32))));
        assert_eq!(dealt.values().sum::<u64>(), crate::combin::choose(17, 7));
    }
}
