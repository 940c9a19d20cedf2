//! The pai gow evaluator: 5-card and 2-card hands on one totally ordered scale.
//!
//! A [`Value`] is a `u32`: the [`Category`] in bits 20.. and five 4-bit rank slots below it
//! (most significant first; a rank slot holds rank + 1, and 0 means "no card"). A 2-card hand
//! fills only the first one or two slots, so it always compares below a 5-card hand of the same
//! category and kickers: a split is legal exactly when `front < back`, a tie is a copy
//! (`a == b`), and a showdown is `a.cmp(&b)`.
//!
//! Method. A 5-card hand is either a flush (every non-joker card in one suit) or not.
//! - Not a flush: its value depends only on the multiset of ranks plus the joker count. Each rank
//!   (and the joker) has a key from [`RANK_KEYS`], chosen so that every 5-card multiset has a
//!   distinct key sum; the sum indexes the `rank_table` directly.
//! - A flush: its value depends only on the 13-bit rank mask of the suited cards and the number of
//!   jokers, which index the `flush_table`.
//!
//! Each card's 64-bit key carries its rank key in the low 32 bits and a count of 1 in its suit's
//! nibble in the high 32 bits (a joker counts 1 in every suit's nibble). Adding the keys of a hand
//! to [`SUIT_OFFSET`] (3 in each nibble) makes a nibble reach 8 exactly when all five cards are of
//! that suit or jokers. Keys are additive, so the back hand of a split is the 7-card key minus the
//! two front cards' keys (see `split`).
//!
//! The tables are generated from the rank-level reference functions in this file for a given
//! [`Ranking`] (joker rule, five aces, wheel), and are verified exhaustively by the tests against
//! an independent card-level evaluator. A process builds the tables of a ranking once
//! ([`Evaluator::new`] shares them after the first call).

pub mod split;

use std::sync::{Arc, Mutex, PoisonError};

use crate::cards::{ACE, Card, Cards, RANKS};

/// How the joker plays.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum JokerRule {
    /// The "bug": an ace, or any card that completes a straight, flush or straight flush
    /// (in a flush, the highest card of the suit not already in the hand).
    Bug,
    /// Fully wild: any card; five of a kind becomes possible.
    Wild,
}

/// Where five aces rank.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FiveAces {
    /// Five aces beat a royal flush (the usual casino rule).
    AboveRoyal,
    /// Five aces and a royal flush tie (one reading of a card-room ranking list).
    EqualRoyal,
}

/// Where A-2-3-4-5 ranks among straights (and straight flushes).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Wheel {
    /// Second only to A-K-Q-J-T (the usual casino rule).
    SecondHighest,
    /// The lowest straight.
    Lowest,
}

/// The ranking options that change hand values.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Ranking {
    pub joker: JokerRule,
    pub five_aces: FiveAces,
    pub wheel: Wheel,
}

impl Default for Ranking {
    fn default() -> Self {
        Ranking {
            joker: JokerRule::Bug,
            five_aces: FiveAces::AboveRoyal,
            wheel: Wheel::SecondHighest,
        }
    }
}

/// Hand categories, lowest first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
#[repr(u8)]
pub enum Category {
    HighCard = 0,
    OnePair = 1,
    TwoPair = 2,
    ThreeOfAKind = 3,
    Straight = 4,
    Flush = 5,
    FullHouse = 6,
    FourOfAKind = 7,
    StraightFlush = 8,
    RoyalFlush = 9,
    FiveOfAKind = 10,
}

impl Category {
    /// Every category, highest first.
    pub const ALL_DESCENDING: [Category; 11] = [
        Category::FiveOfAKind,
        Category::RoyalFlush,
        Category::StraightFlush,
        Category::FourOfAKind,
        Category::FullHouse,
        Category::Flush,
        Category::Straight,
        Category::ThreeOfAKind,
        Category::TwoPair,
        Category::OnePair,
        Category::HighCard,
    ];

    /// The category numbered `n` (its discriminant).
    pub(crate) fn from_u32(n: u32) -> Category {
        Category::ALL_DESCENDING[10 - n as usize]
    }

    /// The highest category whose bit (`1 << category`) is set in `made`; high card when none
    /// is. It cannot panic, so a caller that does not use it pays nothing for it.
    #[inline]
    pub fn highest_made(made: u16) -> Category {
        Category::from_u32((15 - (made | 1).leading_zeros()).min(10))
    }

    /// Lower-case name, as used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Category::FiveOfAKind => "five of a kind",
            Category::RoyalFlush => "royal flush",
            Category::StraightFlush => "straight flush",
            Category::FourOfAKind => "four of a kind",
            Category::FullHouse => "full house",
            Category::Flush => "flush",
            Category::Straight => "straight",
            Category::ThreeOfAKind => "three of a kind",
            Category::TwoPair => "two pair",
            Category::OnePair => "one pair",
            Category::HighCard => "high card",
        }
    }
}

/// The value of a 2- or 5-card hand: higher is better, equal is a copy.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Value(pub u32);

impl Value {
    /// A value from its category and up to five rank slots (each rank + 1, 0 for none).
    pub fn new(category: Category, slots: [u8; 5]) -> Value {
        let kickers = slots.iter().fold(0u32, |acc, &s| (acc << 4) | s as u32);
        Value(((category as u32) << 20) | kickers)
    }

    /// The category. Under [`FiveAces::EqualRoyal`] five aces carry the royal flush's value.
    pub fn category(self) -> Category {
        Category::from_u32(self.0 >> 20)
    }

    /// The five rank slots (rank + 1, 0 for none), most significant first.
    pub fn slots(self) -> [u8; 5] {
        std::array::from_fn(|i| ((self.0 >> (16 - 4 * i)) & 0xF) as u8)
    }

    /// A short description such as "one pair: kings; A 9 4" or "straight: 5 high".
    pub fn describe(self) -> String {
        let name =
            |slot: u8| -> String { (b"23456789TJQKA"[(slot - 1) as usize] as char).to_string() };
        let present: Vec<String> = self
            .slots()
            .into_iter()
            .filter(|&s| s > 0)
            .map(name)
            .collect();
        match self.category() {
            Category::Straight | Category::StraightFlush | Category::RoyalFlush => {
                format!("{}, {} high", self.category().name(), name(self.slots()[1]))
            }
            category => format!("{}, {}", category.name(), present.join(" ")),
        }
    }
}

/// Rank keys (ranks 0..13, then the joker at 13): every multiset of five, with at most four of a
/// rank and two jokers, has a distinct sum. Found by a greedy search; checked when tables are built.
pub const RANK_KEYS: [u32; 14] = [
    0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415, 148432,
];
/// Index of the joker among the rank symbols.
pub const JOKER_SYMBOL: usize = 13;
/// Three in each suit nibble: a nibble reaches 8 when five cards are that suit or jokers.
pub const SUIT_OFFSET: u64 = 0x3333 << 32;
/// The bit of each suit nibble that is set when that suit makes a flush.
pub const FLUSH_BITS: u64 = 0x8888 << 32;

/// The additive key of one card (see the module docs).
#[inline]
pub fn card_key(card: Card) -> u64 {
    CARD_KEYS[card.index() as usize]
}

/// Every card's additive key, by card index (0 at indices that are no card).
pub const CARD_KEYS: [u64; 64] = card_keys();

const fn card_keys() -> [u64; 64] {
    let mut keys = [0; 64];
    let mut index = 0;
    while index < 64 {
        keys[index] = match Card::from_index(index as u8) {
            Some(card) if card.is_joker() => RANK_KEYS[JOKER_SYMBOL] as u64 | (0x1111 << 32),
            Some(_) => RANK_KEYS[index % 16] as u64 | (1 << (32 + 4 * (index / 16))),
            None => 0,
        };
        index += 1;
    }
    keys
}

/// The suit whose nibble of a key sum (including [`SUIT_OFFSET`]) reached 8, if any.
#[inline]
fn suit_of_flush_bits(key: u64) -> Option<u8> {
    let flush = key & FLUSH_BITS;
    (flush != 0).then(|| ((flush >> 32).trailing_zeros() / 4) as u8)
}

/// The suit in which `cards` hold five or more cards counting the jokers, if any: the summed
/// keys' suit nibbles, as [`Evaluator::split_values`] tests seven cards. Of seven cards at most
/// one suit can; with more, the lowest such suit.
#[inline]
pub fn flush_suit(cards: &[Card]) -> Option<u8> {
    suit_of_flush_bits(cards.iter().fold(SUIT_OFFSET, |k, &c| k + card_key(c)))
}

/// The 5-card straight (if any) made by a 13-bit mask of five distinct ranks: its order among
/// straights (1 = lowest .. 10 = A-K-Q-J-T) and its top rank.
fn straight_of(mask: u32, wheel: Wheel) -> Option<(u8, u8)> {
    const WHEEL_MASK: u32 = 0b1_0000_0000_1111;
    if mask == WHEEL_MASK {
        let order = match wheel {
            Wheel::SecondHighest => 9,
            Wheel::Lowest => 1,
        };
        return Some((order, 3));
    }
    let top = 31 - mask.leading_zeros();
    if top < 4 || mask != 0x1F << (top - 4) {
        return None;
    }
    let order = match (top as u8, wheel) {
        (ACE, _) => 10,
        (t, Wheel::SecondHighest) => t - 3,
        (t, Wheel::Lowest) => t - 2,
    };
    Some((order, top as u8))
}

/// Rank slots (rank + 1) of a sorted group list, most significant first.
fn group_slots(groups: &[(u8, u8)]) -> [u8; 5] {
    let mut slots = [0u8; 5];
    for (slot, &(_, rank)) in slots.iter_mut().zip(groups) {
        *slot = rank + 1;
    }
    slots
}

/// The value of five concrete ranks (repeats allowed, up to five of one rank), suited or not.
/// This is the reference the tables are generated from.
pub fn plain_value(ranks: [u8; 5], suited: bool, ranking: Ranking) -> Value {
    let mut counts = [0u8; 13];
    for &r in &ranks {
        counts[r as usize] += 1;
    }
    let mask = ranks.iter().fold(0u32, |m, &r| m | 1 << r);
    // (count, rank) groups, biggest count first, then highest rank (at most five: no allocation,
    // as the tables call this some 150,000 times).
    let mut groups = [(0u8, 0u8); 5];
    let mut len = 0;
    for r in (0..RANKS).filter(|&r| counts[r as usize] > 0) {
        groups[len] = (counts[r as usize], r);
        len += 1;
    }
    let groups = &mut groups[..len];
    groups.sort_unstable_by(|a, b| b.cmp(a));
    let slots = group_slots(groups);
    let straight = straight_of(mask, ranking.wheel);
    let mut shape = [0u8; 5];
    for (count, group) in shape.iter_mut().zip(groups.iter()) {
        *count = group.0;
    }
    match (&shape[..len], straight, suited) {
        ([5], _, _) => five_of_a_kind(groups[0].1, ranking),
        (_, Some((_, ACE)), true) => Value::new(Category::RoyalFlush, [10, ACE + 1, 0, 0, 0]),
        (_, Some((order, top)), true) => {
            Value::new(Category::StraightFlush, [order, top + 1, 0, 0, 0])
        }
        ([4, 1], _, _) => Value::new(Category::FourOfAKind, slots),
        ([3, 2], _, _) => Value::new(Category::FullHouse, slots),
        (_, _, true) => Value::new(Category::Flush, slots),
        (_, Some((order, top)), false) => Value::new(Category::Straight, [order, top + 1, 0, 0, 0]),
        ([3, 1, 1], _, _) => Value::new(Category::ThreeOfAKind, slots),
        ([2, 2, 1], _, _) => Value::new(Category::TwoPair, slots),
        ([2, 1, 1, 1], _, _) => Value::new(Category::OnePair, slots),
        _ => Value::new(Category::HighCard, slots),
    }
}

/// Five of a kind; five aces take the royal flush's value under [`FiveAces::EqualRoyal`].
fn five_of_a_kind(rank: u8, ranking: Ranking) -> Value {
    if rank == ACE && ranking.five_aces == FiveAces::EqualRoyal {
        Value::new(Category::RoyalFlush, [10, ACE + 1, 0, 0, 0])
    } else {
        Value::new(Category::FiveOfAKind, [rank + 1, 0, 0, 0, 0])
    }
}

/// Every way to give `jokers` (0 to 2) jokers a rank (0..13 each): the first `jokers` entries of
/// each array.
fn joker_assignments(jokers: usize) -> impl Iterator<Item = [u8; 2]> {
    let ranks = |used: bool| if used { 0..RANKS } else { 0..1 };
    ranks(jokers > 0).flat_map(move |a| ranks(jokers > 1).map(move |b| [a, b]))
}

/// `ranks` and then the first `jokers` of `subs`, as five ranks (`None` unless they are five).
fn five_ranks(ranks: &[u8], subs: &[u8; 2], jokers: usize) -> Option<[u8; 5]> {
    let mut all = [0u8; 5];
    if ranks.len() + jokers != 5 || jokers > 2 {
        return None;
    }
    all[..ranks.len()].copy_from_slice(ranks);
    all[ranks.len()..].copy_from_slice(&subs[..jokers]);
    Some(all)
}

/// The best value of a non-flush 5-card hand: `ranks` (the suited cards) plus jokers.
/// Bug: each joker is an ace unless the hand it makes is a straight. Wild: any rank.
pub fn best_nonflush_value(ranks: &[u8], jokers: usize, ranking: Ranking) -> Value {
    joker_assignments(jokers)
        .filter_map(|subs| {
            let all = five_ranks(ranks, &subs, jokers)?;
            // Five unsuited ranks make a straight exactly when their mask is one (the mask of
            // five distinct ranks): tested before valuing the hand, so that a bug joker's
            // assignments that are neither aces nor a straight are never valued.
            let mask = all.iter().fold(0u32, |m, &r| m | 1 << r);
            let allowed = ranking.joker == JokerRule::Wild
                || subs[..jokers].iter().all(|&r| r == ACE)
                || straight_of(mask, ranking.wheel).is_some();
            allowed.then(|| plain_value(all, false, ranking))
        })
        .max()
        .expect("a hand of five cards has a value")
}

/// The best value of a 5-card flush: the suited ranks of `mask` plus jokers, each joker taking a
/// distinct rank the hand lacks (for both joker rules: a joker completes a straight flush or is the
/// highest missing card of the suit).
pub fn best_flush_value(mask: u32, jokers: usize, ranking: Ranking) -> Value {
    let mut suited = [0u8; RANKS as usize];
    let mut count = 0;
    for r in (0..RANKS).filter(|r| mask >> r & 1 == 1) {
        suited[count] = r;
        count += 1;
    }
    joker_assignments(jokers)
        .filter_map(|subs| {
            let all = five_ranks(&suited[..count], &subs, jokers)?;
            let distinct = all.iter().fold(0u32, |m, &r| m | 1 << r).count_ones() == 5;
            distinct.then(|| plain_value(all, true, ranking))
        })
        .max()
        .expect("a flush always has a joker assignment of distinct ranks")
}

/// The value of a 2-card (front) hand. A bug joker is an ace; a wild joker pairs the other card
/// (two jokers are a pair of aces under either rule).
pub fn front_value(a: Card, b: Card, ranking: Ranking) -> Value {
    let rank_of = |c: Card, other: Card| match (c.rank(), ranking.joker) {
        (Some(r), _) => r,
        (None, JokerRule::Bug) => ACE,
        (None, JokerRule::Wild) => other.rank().unwrap_or(ACE),
    };
    let (ra, rb) = (rank_of(a, b), rank_of(b, a));
    if ra == rb {
        Value::new(Category::OnePair, [ra + 1, 0, 0, 0, 0])
    } else {
        let (hi, lo) = (ra.max(rb), ra.min(rb));
        Value::new(Category::HighCard, [hi + 1, lo + 1, 0, 0, 0])
    }
}

/// Every multiset of `size` rank symbols (0..13 ranks at most four each, 13 = joker at most
/// twice), as symbol lists in ascending order.
pub fn symbol_multisets(size: usize) -> Vec<Vec<u8>> {
    fn extend(symbol: u8, left: usize, prefix: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if left == 0 {
            out.push(prefix.clone());
            return;
        }
        if symbol as usize > JOKER_SYMBOL {
            return;
        }
        let most = if symbol as usize == JOKER_SYMBOL {
            2
        } else {
            4
        };
        for count in (0..=most.min(left)).rev() {
            prefix.extend(std::iter::repeat_n(symbol, count));
            extend(symbol + 1, left - count, prefix, out);
            prefix.truncate(prefix.len() - count);
        }
    }
    let mut out = Vec::new();
    extend(0, size, &mut Vec::new(), &mut out);
    out
}

/// A hand evaluator for one [`Ranking`]: the generated tables (card keys are [`CARD_KEYS`]).
/// The tables of a ranking are built once per process and shared by every evaluator of that
/// ranking (they never change once built).
pub struct Evaluator {
    ranking: Ranking,
    rank_table: Arc<[u32]>,
    flush_table: Arc<[u32]>,
    front_table: Arc<[u32]>,
}

/// The tables of every ranking built so far in this process.
static BUILT: Mutex<Vec<Evaluator>> = Mutex::new(Vec::new());

impl Evaluator {
    /// The evaluator for `ranking`: its tables are built on the first call for that ranking in
    /// the process (a few milliseconds), and shared after that.
    pub fn new(ranking: Ranking) -> Evaluator {
        let mut built = BUILT.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(ev) = built.iter().find(|ev| ev.ranking == ranking) {
            return ev.share();
        }
        let ev = Evaluator {
            ranking,
            rank_table: build_rank_table(ranking).into(),
            flush_table: build_flush_table(ranking).into(),
            front_table: build_front_table(ranking).into(),
        };
        built.push(ev.share());
        ev
    }

    /// Another handle on the same tables.
    fn share(&self) -> Evaluator {
        Evaluator {
            ranking: self.ranking,
            rank_table: Arc::clone(&self.rank_table),
            flush_table: Arc::clone(&self.flush_table),
            front_table: Arc::clone(&self.front_table),
        }
    }

    /// The ranking this evaluator was built for.
    pub fn ranking(&self) -> Ranking {
        self.ranking
    }

    /// The additive key of a card.
    #[inline]
    pub fn key(&self, card: Card) -> u64 {
        card_key(card)
    }

    /// The value of a 5-card hand from its summed key (including [`SUIT_OFFSET`]) and its cards.
    #[inline]
    pub fn value_from_key(&self, key: u64, cards: Cards) -> Value {
        match suit_of_flush_bits(key) {
            None => Value(self.rank_table[(key as u32) as usize]),
            Some(suit) => {
                let index = (cards.jokers() << 13) | cards.suit_mask(suit);
                Value(self.flush_table[index as usize])
            }
        }
    }

    /// The value of a 5-card hand known not to be a flush, from its summed key.
    #[inline]
    pub fn nonflush_value(&self, key: u64) -> Value {
        Value(self.rank_table[(key as u32) as usize])
    }

    /// The value of a 5-card flush made of the suited ranks `mask` and `jokers` jokers
    /// (`mask` must have `5 - jokers` bits).
    #[inline]
    pub fn flush_value(&self, mask: u32, jokers: usize) -> Value {
        debug_assert_eq!(mask.count_ones() as usize + jokers, 5);
        Value(self.flush_table[(jokers << 13) | mask as usize])
    }

    /// The value of exactly five cards.
    #[inline]
    pub fn value5(&self, cards: Cards) -> Value {
        debug_assert_eq!(cards.len(), 5);
        let key = cards.iter().fold(SUIT_OFFSET, |k, c| k + card_key(c));
        self.value_from_key(key, cards)
    }

    /// The value of a 2-card hand.
    #[inline]
    pub fn value2(&self, a: Card, b: Card) -> Value {
        Value(self.front_table[a.index() as usize * 64 + b.index() as usize])
    }
}

/// The non-flush table: every 5-symbol multiset's key sum to its best value.
fn build_rank_table(ranking: Ranking) -> Box<[u32]> {
    let multisets = symbol_multisets(5);
    let key_of = |m: &Vec<u8>| m.iter().map(|&s| RANK_KEYS[s as usize]).sum::<u32>() as usize;
    let size = multisets.iter().map(key_of).max().unwrap_or(0) + 1;
    let mut table = vec![u32::MAX; size];
    for multiset in &multisets {
        let slot = &mut table[key_of(multiset)];
        assert_eq!(*slot, u32::MAX, "RANK_KEYS must give distinct sums");
        let ranks: Vec<u8> = multiset.iter().copied().filter(|&s| s < RANKS).collect();
        *slot = best_nonflush_value(&ranks, 5 - ranks.len(), ranking).0;
    }
    table.into_boxed_slice()
}

/// The flush table: (jokers << 13 | rank mask) to the best flush value, for masks of 5 - jokers.
fn build_flush_table(ranking: Ranking) -> Box<[u32]> {
    let mut table = vec![0u32; 3 << 13];
    for jokers in 0..=2usize {
        for mask in 0u32..1 << 13 {
            if mask.count_ones() as usize == 5 - jokers {
                table[(jokers << 13) | mask as usize] = best_flush_value(mask, jokers, ranking).0;
            }
        }
    }
    table.into_boxed_slice()
}

/// The front table: (card index * 64 + card index) to the 2-card value.
fn build_front_table(ranking: Ranking) -> Box<[u32]> {
    let mut table = vec![0u32; 64 * 64];
    for a in (0..64).filter_map(Card::from_index) {
        for b in (0..64).filter_map(Card::from_index) {
            table[a.index() as usize * 64 + b.index() as usize] = front_value(a, b, ranking).0;
        }
    }
    table.into_boxed_slice()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Deck;

    /// Evaluators of one ranking share its tables; another ranking has its own, and values by it.
    #[test]
    fn evaluators_of_a_ranking_share_its_tables() {
        let wild = Ranking {
            joker: JokerRule::Wild,
            ..Ranking::default()
        };
        let (a, b, c) = (
            Evaluator::new(wild),
            Evaluator::new(Ranking::default()),
            Evaluator::new(wild),
        );
        assert!(Arc::ptr_eq(&a.rank_table, &c.rank_table));
        assert!(Arc::ptr_eq(&a.flush_table, &c.flush_table));
        assert!(Arc::ptr_eq(&a.front_table, &c.front_table));
        assert!(!Arc::ptr_eq(&a.rank_table, &b.rank_table));
        assert_eq!((a.ranking(), b.ranking()), (wild, Ranking::default()));
        // K K 7 4 and a joker: three kings when wild, a pair of kings with an ace when a bug.
        let hand = hand("Kc Kd 7h 4s Jk");
        assert_eq!(a.value5(hand).category(), Category::ThreeOfAKind);
        assert_eq!(b.value5(hand).category(), Category::OnePair);
    }

    #[test]
    fn the_highest_category_made_is_the_highest_bit_set() {
        for made in 0..0x800u16 {
            let highest = (0..11).rev().find(|&c| made & (1 << c) != 0);
            let expected = Category::ALL_DESCENDING[10 - highest.unwrap_or(0)];
            assert_eq!(Category::highest_made(made), expected, "{made:#x}");
        }
    }

    fn hand(text: &str) -> Cards {
        Cards::from_cards(&Deck::with_jokers(2).unwrap().parse_cards(text).unwrap())
    }

    /// The flush suit by key sums against counting each suit's cards with the jokers: every way
    /// seven cards fall into four suits and up to two jokers, then sampled hands.
    #[test]
    fn the_flush_suit_counts_each_suit_with_the_jokers() {
        let by_counting = |hand: &[Card; 7]| {
            let cards = Cards::from_cards(hand);
            (0..4).find(|&s| cards.suit_mask(s).count_ones() + cards.jokers() >= 5)
        };
        let jokers = [Card::JOKER1, Card::JOKER2];
        let mut compositions = 0;
        for j in 0..=2usize {
            let n = 7 - j;
            for (a, b) in (0..=n).flat_map(|a| (0..=n - a).map(move |b| (a, b))) {
                for c in 0..=n - a - b {
                    let counts = [a, b, c, n - a - b - c];
                    let suited = (0..4u8).flat_map(|s| {
                        (0..counts[s as usize] as u8).map(move |r| Card::new(r, s).unwrap())
                    });
                    let cards: Vec<Card> = suited.chain(jokers[..j].iter().copied()).collect();
                    let hand: [Card; 7] = cards.try_into().unwrap();
                    assert_eq!(flush_suit(&hand), by_counting(&hand), "{hand:?}");
                    compositions += 1;
                }
            }
        }
        assert_eq!(
            compositions,
            120 + 84 + 56,
            "C(10,3) + C(9,3) + C(8,3) suit compositions"
        );
        let deck = Deck::with_jokers(2).unwrap();
        for hand in crate::cards::deal::sample_hands(deck, 9).take(100_000) {
            assert_eq!(flush_suit(&hand), by_counting(&hand), "{hand:?}");
        }
    }

    #[test]
    fn symbol_multisets_are_all_five_card_rank_multisets() {
        // C(18,5) = 8568 multisets of 14 symbols, less 13 with five of one rank and those with
        // three (C(14,2) = 91), four (13) or five (1) jokers.
        assert_eq!(symbol_multisets(5).len(), 8568 - 13 - 91 - 13 - 1);
    }

    #[test]
    fn values_order_the_categories() {
        let ev = Evaluator::new(Ranking::default());
        let order = [
            "7c 5d 4h 3s 2c",
            "2c 2d 4h 5s 7c",
            "2c 2d 3h 3s 5c",
            "2c 2d 2h 3s 4c",
            "6c 5d 4h 3s 2c",
            "2c 4c 6c 8c Tc",
            "2c 2d 2h 3s 3c",
            "2c 2d 2h 2s 3c",
            "6c 5c 4c 3c 2c",
            "Ac Kc Qc Jc Tc",
            "As Ac Ad Ah Jk",
        ];
        let values: Vec<Value> = order.iter().map(|h| ev.value5(hand(h))).collect();
        assert!(values.windows(2).all(|w| w[0] < w[1]), "{values:?}");
    }
}
