//! A cache of settings keyed by the shape of the hand: the fast path of simulations, for house
//! ways and for any other strategy that reads only split values and suit-blind hand features
//! (`optimal:D`). [`crate::strategy::cached::CachedWay`] puts one in front of a strategy.
//!
//! The shape of a 7-card hand is its multiset of rank symbols (ranks and jokers) plus, when one
//! suit holds enough cards to make a flush with the jokers (at most one suit can), the rank mask
//! of that suit. Two hands of the same shape are the same hand up to a relabelling of cards that
//! keeps every split's front and back values and every hand feature: a house way reads only
//! those (rules never name a suit). A setting is stored as the *descriptor* of its two front
//! cards: each card's rank symbol and whether it belongs to the flush suit.
//!
//! Invariants:
//! - On a hit, the split returned is the lowest-indexed split whose front cards match the
//!   descriptor. All such splits have the same front and back values as the split the house way
//!   chooses for this hand, so settling with it gives the same result, whatever hand filled the
//!   slot. When no suit can make a flush, it is the very split the house way chooses (the way's
//!   last tie-break is the lowest split index, and splits with equal descriptors tie on
//!   everything before it); `tests/suite/way_cache.rs` checks both.
//! - Shapes with no flush suit (most hands) have a dense index below `C(20, 7)` = 77,520: the
//!   colex rank of the rank multiset, reflected, computed from prefix counts with no sort (see
//!   `dense_index`). Shapes with a flush suit have a dense index below [`FLUSH_SLOTS`] =
//!   261,261: their multiset's first flush slot (`FLUSH_BASES`, by its dense index) plus the
//!   rank of the flush suit's ranks among the masks its distinct ranks allow (see
//!   [`flush_slot`]). This is the one numbering of shapes: `exact main` ids its shapes by the
//!   same [`ShapeSlot::index`] ([`crate::strategy::deck_shapes`]). Each shape's entry is
//!   one `AtomicU64` (see `Entry`): the setting's descriptor and what settlement and side bets
//!   need (the setting's front and back values, the best five's category and top slot, the
//!   categories some five cards make: all functions of the shape), so [`ShapeTable::known_at`]
//!   answers a hit with no split search; 2.7 MB a table, small enough that a slot requested a
//!   few rounds ahead is found in a core's cache.
//!   An entry is written once, from empty, with a value that depends only on the shape.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock};

use crate::cards::{Card, Cards};
use crate::combin::BINOMIAL;
use crate::eval::split::{FRONT_POSITIONS, KnownSetting, SPLIT_COUNT, SplitValues};
use crate::eval::{Value, flush_suit};

/// Dense indices of 7-symbol multisets over 14 symbols: C(20, 7).
pub const PLAIN_SLOTS: usize = 77_520;
/// Flush-shape slots: for every rank multiset of at most two jokers and four cards a rank, one
/// per flush-suit rank mask its distinct ranks allow (at least `5 - jokers` of them). The
/// 54-card deck deals every one (a mask of that many ranks holds every rank held four times);
/// a deck of fewer jokers or ranks deals fewer.
pub const FLUSH_SLOTS: usize = 261_261;
/// Symbol of a joker in a descriptor (ranks are 0..13).
const JOKER_SYMBOL: u8 = 13;

/// The split index of each ordered position pair (i < j).
const SPLIT_OF_POSITIONS: [[u8; 7]; 7] = split_of_positions();

const fn split_of_positions() -> [[u8; 7]; 7] {
    let mut table = [[u8::MAX; 7]; 7];
    let mut k = 0;
    while k < SPLIT_COUNT {
        let (i, j) = FRONT_POSITIONS[k];
        table[i as usize][j as usize] = k as u8;
        k += 1;
    }
    table
}

/// Each position's card code of a hand (rank symbol, plus 16 if in the flush suit): what a
/// setting's descriptor is made of.
struct Shape {
    codes: [u8; 7],
}

impl Shape {
    #[inline]
    fn of(hand: &[Card; 7]) -> Shape {
        let flush_suit = flush_suit(hand);
        let codes = hand.map(|card| match (card.rank(), card.suit()) {
            (Some(rank), suit) => rank | (u8::from(suit == flush_suit) << 4),
            _ => JOKER_SYMBOL,
        });
        Shape { codes }
    }

    /// The descriptor of split `k`: its two front codes, the smaller first (5 bits each).
    #[inline]
    fn descriptor(&self, k: usize) -> u64 {
        let (i, j) = FRONT_POSITIONS[k];
        let (a, b) = (self.codes[i as usize], self.codes[j as usize]);
        u64::from(a.min(b)) | u64::from(a.max(b)) << 5
    }

    /// The lowest split whose front cards match `descriptor`.
    #[inline]
    fn split_of(&self, descriptor: u64) -> Option<usize> {
        let (a, b) = ((descriptor & 31) as u8, (descriptor >> 5) as u8);
        let first = self.codes.iter().position(|&c| c == a || c == b)?;
        let wanted = if self.codes[first] == a { b } else { a };
        let second = (first + 1..7).find(|&p| self.codes[p] == wanted)?;
        Some(SPLIT_OF_POSITIONS[first][second] as usize)
    }
}

/// The dense index of a hand's rank multiset, from its cards alone: the slot of its shape when
/// no suit can make a flush.
#[cfg(test)]
fn rank_index(hand: &[Card; 7]) -> usize {
    dense_index_of_prefixes(slot_sum(hand))
}

/// Bits of a [`SLOT_KEYS`] sum below its suit fields: the rank nibbles.
const SUIT_FIELDS_SHIFT: u32 = 52;

/// Each card's slot key, by card index (every byte: a card index past the deck's keys nothing):
/// a suited card of rank `r` adds one to the nibble of every rank from `r` up (rank `k` in bits
/// `4k..4k+4`) and one to its suit's 3-bit field (suit `s` in bits `52+3s..55+3s`); a joker adds
/// one to every suit field and nothing else. Seven cards' sum holds, in rank `k`'s nibble, how
/// many of them rank `k` or below (the prefix counts [`dense_index_of_prefixes`] reads) and, per
/// suit, how many cards could sit in a flush of that suit (at most 7: no field carries).
const SLOT_KEYS: [u64; 256] = slot_keys();

const fn slot_keys() -> [u64; 256] {
    let mut keys = [0; 256];
    let mut index = 0;
    while index < 256 {
        keys[index] = match Card::from_index(index as u8) {
            Some(card) if card.is_joker() => 0b001_001_001_001 << SUIT_FIELDS_SHIFT,
            Some(_) => {
                let ranks_from = (NIBBLE_ONES << (4 * (index % 16))) & RANK_NIBBLES;
                ranks_from | 1 << (SUIT_FIELDS_SHIFT + 3 * (index / 16) as u32)
            }
            None => 0,
        };
        index += 1;
    }
    keys
}

/// The sum of the seven cards' [`SLOT_KEYS`].
#[inline(always)]
fn slot_sum(hand: &[Card; 7]) -> u64 {
    hand.iter()
        .map(|c| SLOT_KEYS[usize::from(c.index())])
        .fold(0, u64::wrapping_add)
}

/// No suit can make a flush, in [`FLUSH_SUIT_OF_FIELDS`].
const NO_FLUSH_SUIT: u8 = 4;

/// The suit whose 3-bit field (see [`SLOT_KEYS`]) is 5 or more, by the 12 bits of the four
/// fields ([`NO_FLUSH_SUIT`] if none; of seven cards at most one suit can): [`flush_suit`] from
/// one lookup. 4 KB.
const FLUSH_SUIT_OF_FIELDS: [u8; 4096] = flush_suit_of_fields();

const fn flush_suit_of_fields() -> [u8; 4096] {
    let mut table = [NO_FLUSH_SUIT; 4096];
    let mut fields = 0;
    while fields < 4096 {
        let mut suit = 4;
        while suit > 0 {
            suit -= 1;
            if (fields >> (3 * suit)) & 7 >= 5 {
                table[fields] = suit as u8;
            }
        }
        fields += 1;
    }
    table
}

/// One in each of the 13 rank nibbles.
const NIBBLE_ONES: u64 = 0x1_1111_1111_1111;
/// The 13 rank nibbles.
const RANK_NIBBLES: u64 = (1 << SUIT_FIELDS_SHIFT) - 1;

/// The dense index of a multiset of seven rank symbols (see the module docs), with no sort.
///
/// Sorted, the symbols `s_0 <= ... <= s_6` have the colex rank `sum C(s_i + i, i + 1)` of the
/// 7-subset `{s_i + i}` of `0..20`. Grouping the terms by symbol and summing each group by the
/// hockey-stick identity gives `C(20, 7) - 1 - sum over r in 1..=13 of C(r - 1 + q_r, q_r - 1)`,
/// where `q_r` is how many symbols are below `r` (a term is 0 when `q_r` is 0). The sum alone
/// is then a bijection onto `0..C(20, 7)` too (the colex rank reflected), and it needs only the
/// prefix counts `q_r`: the rank counts packed in nibbles times [`NIBBLE_ONES`] hold every prefix
/// count at once (each at most 7, so no nibble carries), and three nibbles at a time index
/// [`PREFIX_TERMS`]. Symbols above 12 (jokers) fall in no prefix that is read.
#[inline]
fn dense_index(symbols: [u8; 7]) -> usize {
    dense_index_of_counts(symbols.iter().map(|&s| 1u64 << (4 * s)).sum())
}

/// `dense_index` from the multiset's rank counts packed in nibbles (rank `r` in bits `4r..4r+4`;
/// jokers may be left out or counted above rank 12, and bits from 52 up may hold anything: they
/// change nothing read, as a product's low bits depend only on its factors' low bits).
#[inline]
pub fn dense_index_of_counts(counts: u64) -> usize {
    dense_index_of_prefixes(counts.wrapping_mul(NIBBLE_ONES))
}

/// `dense_index` from the multiset's prefix counts packed in nibbles (rank `k`'s nibble: how
/// many symbols rank `k` or below; bits from 52 up may hold anything).
#[inline]
fn dense_index_of_prefixes(below: u64) -> usize {
    let terms =
        (0..4).map(|t| usize::from(PREFIX_TERMS[t][((below >> (12 * t)) & 0x7FF) as usize]));
    terms.sum::<usize>() + usize::from(PREFIX_TERMS[4][((below >> 48) & 7) as usize])
}

/// `PREFIX_TERMS[t][i]`: the terms of [`dense_index`] for the three prefix counts in bits
/// `12t..12t + 12` (ranks `3t`, `3t + 1` and `3t + 2`, their nibbles holding
/// `q_{3t+1}..q_{3t+3}`); table 4 holds only rank 12. A count is at most 7, so 11 bits index a
/// table; counts that never occur give 0. Each sum of three terms is below 2^16 (at most
/// C(16, 6) + C(17, 6) + C(18, 6) = 38,948). 20 KB.
static PREFIX_TERMS: [[u16; 2048]; 5] = prefix_terms();

const fn prefix_terms() -> [[u16; 2048]; 5] {
    /// The term of the nibble of rank `k` holding the count `q` of symbols at or below `k`.
    const fn term(k: usize, q: usize) -> u32 {
        if q == 0 || q > 7 || k > 12 {
            0
        } else {
            BINOMIAL[k + q][q - 1]
        }
    }
    let mut table = [[0; 2048]; 5];
    let mut t = 0;
    while t < 5 {
        let mut i = 0;
        while i < 2048 {
            let sum =
                term(3 * t, i & 15) + term(3 * t + 1, (i >> 4) & 15) + term(3 * t + 2, i >> 8);
            assert!(sum < 1 << 16);
            table[t][i] = sum as u16;
            i += 1;
        }
        t += 1;
    }
    table
}

/// Where a hand's entry lives in the cache: the dense index of its shape among the shapes with
/// no flush suit (below [`PLAIN_SLOTS`]), else [`PLAIN_SLOTS`] plus its dense index among those
/// with one (below [`FLUSH_SLOTS`]). Found by [`ShapeSlot::of`] from the cards in any order,
/// read by [`ShapeTable::known_at`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ShapeSlot(u32);

impl ShapeSlot {
    /// Where every shape table keeps `hand` (its cards in any order): a function of the hand
    /// alone, so one slot serves the tables of several strategies. One `SLOT_KEYS` sum gives
    /// both the flush suit (if any) and the prefix counts of the dense index.
    #[inline(always)]
    pub fn of(hand: &[Card; 7]) -> ShapeSlot {
        let sum = slot_sum(hand);
        let dense = dense_index_of_prefixes(sum);
        match FLUSH_SUIT_OF_FIELDS[(sum >> SUIT_FIELDS_SHIFT) as usize] {
            NO_FLUSH_SUIT => ShapeSlot(dense as u32),
            suit => ShapeSlot(PLAIN_SLOTS as u32 + flush_slot_of(hand, suit, dense)),
        }
    }

    /// The slot's place in a table of [`PLAIN_SLOTS`] entries for the shapes with no flush
    /// suit followed by [`FLUSH_SLOTS`] for those with one.
    #[inline(always)]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether the shape has a flush suit.
    #[inline(always)]
    pub fn has_flush_suit(self) -> bool {
        self.index() >= PLAIN_SLOTS
    }

    /// The dense index of a shape with no flush suit (`None` for one with a flush suit).
    #[inline(always)]
    fn plain_index(self) -> Option<usize> {
        (!self.has_flush_suit()).then_some(self.index())
    }
}

/// The flush slot of `hand`, whose flush suit is `suit` and whose rank multiset has dense index
/// `dense`. Out of line: few hands have a flush suit, and the hot loop that locates every hand
/// stays smaller without it.
#[inline(never)]
fn flush_slot_of(hand: &[Card; 7], suit: u8, dense: usize) -> u32 {
    flush_slot_of_cards(Cards::from_cards(hand), suit, dense)
}

/// The flush slot of seven cards `cards`, whose flush suit is `suit` and whose rank multiset has
/// dense index `dense`.
#[inline]
pub fn flush_slot_of_cards(cards: Cards, suit: u8, dense: usize) -> u32 {
    let (ranks, jokers) = (cards.rank_mask(), cards.jokers());
    flush_slot(dense, ranks, cards.suit_mask(suit), jokers)
}

/// The flush slot of the shape whose rank multiset has dense index `dense`, distinct ranks
/// `ranks` (bit r: rank r), `jokers` jokers, and flush suit ranks `suit_ranks` (a subset of
/// `ranks` of at least `5 - jokers`): the multiset's first slot plus the number of smaller
/// masks it allows, counted on the suit ranks packed onto the multiset's distinct ranks. The
/// one numbering of flush shapes: the cache's slots, and `exact main`'s shape ids less
/// [`PLAIN_SLOTS`].
#[inline]
pub fn flush_slot(dense: usize, ranks: u32, suit_ranks: u32, jokers: u32) -> u32 {
    let pattern = packed_bits(suit_ranks, ranks);
    FLUSH_BASES.get(dense) + u32::from(MASKS_BELOW[jokers as usize][pattern])
}

/// The bits of `bits` at the set positions of `positions` (a 13-bit rank mask), packed low
/// (bit i: whether the i-th lowest set position is set in `bits`): two lookups in
/// [`PACKED_7`], one for the low seven positions and one for the high six, joined with no
/// branch (a loop over the set positions cost a mispredicted exit on every flush hand).
#[inline]
fn packed_bits(bits: u32, positions: u32) -> usize {
    let (low, high) = (
        (positions & 0x7F) as usize,
        (positions >> 7 & 0x7F) as usize,
    );
    let packed_low = usize::from(PACKED_7[low][(bits & 0x7F) as usize]);
    let packed_high = usize::from(PACKED_7[high][(bits >> 7 & 0x7F) as usize]);
    // The low positions packed onto themselves are their count's all-ones: plus one, the
    // factor that shifts the high part past them.
    let shift_factor = usize::from(PACKED_7[low][low]) + 1;
    packed_low + packed_high * shift_factor
}

/// `PACKED_7[positions][bits]`: the bits of `bits` at the set positions of `positions`, packed
/// low (both 7-bit). 16 KB.
static PACKED_7: [[u8; 128]; 128] = packed_7();

const fn packed_7() -> [[u8; 128]; 128] {
    let mut table = [[0; 128]; 128];
    let mut positions = 0;
    while positions < 128 {
        let mut bits = 0;
        while bits < 128 {
            let (mut packed, mut next, mut at) = (0u8, 0, 0);
            while at < 7 {
                if positions >> at & 1 == 1 {
                    packed |= ((bits >> at & 1) << next) as u8;
                    next += 1;
                }
                at += 1;
            }
            table[positions][bits] = packed;
            bits += 1;
        }
        positions += 1;
    }
    table
}

/// `MASKS_BELOW[j][p]`: how many 7-bit patterns below `p` have at least `5 - j` bits set, the
/// flush-suit masks a hand with `j` jokers can hold (`p` up to 128, so `[j][1 << d]` counts the
/// masks of `d` distinct ranks).
const MASKS_BELOW: [[u8; 129]; 3] = masks_below();

const fn masks_below() -> [[u8; 129]; 3] {
    let mut table = [[0; 129]; 3];
    let mut jokers = 0;
    while jokers < 3 {
        let mut pattern = 0;
        while pattern < 128 {
            let allowed = (pattern as u32).count_ones() + jokers as u32 >= 5;
            table[jokers][pattern + 1] = table[jokers][pattern] + allowed as u8;
            pattern += 1;
        }
        jokers += 1;
    }
    table
}

/// The first flush slot of each rank multiset, by its dense index: the sums, in dense-index
/// order, of how many masks each multiset allows (0 for multisets no deck deals), kept as a
/// block base a [`FLUSH_BLOCK`] of multisets plus a 16-bit offset each (155 KB rather than
/// 310 KB, so that more of it stays in a core's cache: a flush hand reads it at random).
/// Built once.
static FLUSH_BASES: LazyLock<FlushBases> = LazyLock::new(FlushBases::new);

/// Multisets per block of [`FLUSH_BASES`]: a multiset allows at most 29 masks (five of seven
/// distinct ranks or more), so a block's offsets stay below 2048 x 29 = 59,392.
const FLUSH_BLOCK: usize = 2048;

struct FlushBases {
    blocks: Box<[u32]>,
    offsets: Box<[u16]>,
}

impl FlushBases {
    fn new() -> FlushBases {
        let mut masks = vec![0u32; PLAIN_SLOTS];
        for symbols in crate::eval::symbol_multisets(7) {
            let ranked = symbols.iter().filter(|&&s| s != JOKER_SYMBOL);
            let jokers = symbols.len() - ranked.clone().count();
            let ranks = ranked.fold(0u32, |ranks, &s| ranks | 1 << s);
            let dense = dense_index(symbols.try_into().expect("seven symbols"));
            masks[dense] = u32::from(MASKS_BELOW[jokers][1 << ranks.count_ones()]);
        }
        let (mut blocks, mut offsets, mut next) = (Vec::new(), Vec::new(), 0u32);
        for (dense, &count) in masks.iter().enumerate() {
            if dense % FLUSH_BLOCK == 0 {
                blocks.push(next);
            }
            let offset = next - blocks[dense / FLUSH_BLOCK];
            offsets.push(u16::try_from(offset).expect("a block's offsets fit 16 bits"));
            next += count;
        }
        assert_eq!(next as usize, FLUSH_SLOTS);
        FlushBases {
            blocks: blocks.into(),
            offsets: offsets.into(),
        }
    }

    /// The first flush slot of the multiset of dense index `dense`.
    #[inline]
    fn get(&self, dense: usize) -> u32 {
        self.blocks[dense / FLUSH_BLOCK] + u32::from(self.offsets[dense])
    }
}

/// A hint to bring the cache line holding `value` closer to the core. It never faults and
/// changes nothing but timing; a no-op where there is no prefetch instruction we can name.
#[inline(always)]
fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` needs SSE, which every x86_64 CPU has; it reads no memory (a prefetch
    // of any address, valid or not, is only a hint), and here the address is a live reference.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// A shape's entry: bit 63 set when filled; the setting's descriptor (bits 53..63), its front
/// value without its always-zero low 12 bits (41..53), its back value (17..41), the best five's
/// top slot (13..17) and the categories some five cards make (0..11). The best five's category
/// is the highest category made. An entry is written once, from zero, with a value that depends
/// only on the shape, so a reader sees it whole or not at all.
#[derive(Clone, Copy)]
struct Entry(u64);

impl Entry {
    const FILLED: u64 = 1 << 63;

    fn new(descriptor: u64, known: KnownSetting) -> Entry {
        debug_assert_eq!(known.front.0 & 0xFFF, 0, "a front value has two rank slots");
        Entry(
            Self::FILLED
                | descriptor << 53
                | u64::from(known.front.0 >> 12) << 41
                | u64::from(known.back.0) << 17
                | u64::from(known.best_top_slot) << 13
                | u64::from(known.made),
        )
    }

    fn descriptor(self) -> u64 {
        (self.0 >> 53) & 0x3FF
    }

    fn known(self) -> KnownSetting {
        let made = (self.0 & 0x7FF) as u16;
        KnownSetting {
            front: Value(((self.0 >> 41) as u32 & 0xFFF) << 12),
            back: Value((self.0 >> 17) as u32 & 0xFF_FFFF),
            made,
            best_top_slot: ((self.0 >> 13) & 15) as u8,
        }
    }
}

/// The cache: one entry a shape, the [`PLAIN_SLOTS`] shapes with no flush suit first, then the
/// [`FLUSH_SLOTS`] with one ([`ShapeSlot::index`]).
pub struct ShapeTable {
    entries: Box<[AtomicU64]>,
}

impl Default for ShapeTable {
    fn default() -> Self {
        ShapeTable {
            entries: (0..PLAIN_SLOTS + FLUSH_SLOTS)
                .map(|_| AtomicU64::new(0))
                .collect(),
        }
    }
}

impl ShapeTable {
    /// The split cached for `hand`'s shape (sorted by card index), else `choose()`'s split,
    /// which is then cached with its facts (`splits` are the hand's split values).
    #[inline]
    pub fn split_or_insert(
        &self,
        hand: &[Card; 7],
        splits: &SplitValues,
        choose: impl FnOnce() -> usize,
    ) -> usize {
        let (slot, shape) = (ShapeSlot::of(hand), Shape::of(hand));
        let cached = self.entry(slot).map(Entry::descriptor);
        if let Some(k) = cached.and_then(|d| shape.split_of(d)) {
            return k;
        }
        let k = choose();
        let entry = Entry::new(shape.descriptor(k), KnownSetting::of_split(splits, k));
        let relaxed = Ordering::Relaxed;
        let stored = &self.entries[slot.index()];
        let _ = stored.compare_exchange(0, entry.0, relaxed, relaxed);
        k
    }

    /// Where this table keeps `hand` (its cards in any order), with that slot's cache line
    /// requested (see [`ShapeTable::prefetch`]).
    #[inline(always)]
    pub fn locate(&self, hand: &[Card; 7]) -> ShapeSlot {
        let slot = ShapeSlot::of(hand);
        self.prefetch(slot);
        slot
    }

    /// On a hit: the cached setting's values and the seven cards' side-bet facts.
    #[inline]
    pub fn known_at(&self, slot: ShapeSlot) -> Option<KnownSetting> {
        self.entry(slot).map(Entry::known)
    }

    /// Asks the memory system for the cache line of `slot`'s entry, so that a lookup a little
    /// later finds it in cache.
    #[inline]
    pub fn prefetch(&self, slot: ShapeSlot) {
        prefetch(&self.entries[slot.index()]);
    }

    /// The entry at `slot`, when filled.
    #[inline]
    fn entry(&self, slot: ShapeSlot) -> Option<Entry> {
        let stored = self.entries[slot.index()].load(Ordering::Relaxed);
        (stored & Entry::FILLED != 0).then_some(Entry(stored))
    }
}

/// A number per shape with no flush suit, computed at most once a shape and shared by every
/// thread: for what is a function of the plain shape alone (a simulation keeps each player
/// shape's side-bet class here). A slot holds the number plus one (0: not yet known), written
/// once from 0 with a value that depends only on the shape; numbers above 254, and shapes with
/// a flush suit, are computed every time. 76 KB.
pub struct PlainMemo {
    numbers: Box<[AtomicU8]>,
}

impl Default for PlainMemo {
    fn default() -> Self {
        PlainMemo {
            numbers: (0..PLAIN_SLOTS).map(|_| AtomicU8::new(0)).collect(),
        }
    }
}

impl PlainMemo {
    /// The number kept for the shape at `slot`, else `number()`, kept when the slot is plain.
    #[inline(always)]
    pub fn get_or_insert(&self, slot: Option<ShapeSlot>, number: impl FnOnce() -> usize) -> usize {
        let Some(index) = slot.and_then(ShapeSlot::plain_index) else {
            return number();
        };
        let memo = &self.numbers[index];
        match memo.load(Ordering::Relaxed) {
            0 => {
                let n = number();
                if let Ok(kept) = u8::try_from(n + 1) {
                    memo.store(kept, Ordering::Relaxed);
                }
                n
            }
            kept => usize::from(kept - 1),
        }
    }

    /// Asks the memory system for the cache line of the number at `slot` (when plain).
    #[inline(always)]
    pub fn prefetch(&self, slot: Option<ShapeSlot>) {
        if let Some(index) = slot.and_then(ShapeSlot::plain_index) {
            prefetch(&self.numbers[index]);
        }
    }
}

/// Where `cache` (a way's [`Strategy::shape_table`], held apart from the way; `None`: the way
/// has no cache) keeps `hand`, its memory requested ([`ShapeTable::locate`]).
///
/// [`Strategy::shape_table`]: crate::strategy::Strategy::shape_table
#[inline(always)]
pub fn locate(cache: &Option<Arc<ShapeTable>>, hand: &[Card; 7]) -> Option<ShapeSlot> {
    cache.as_ref().map(|table| table.locate(hand))
}

/// The setting `cache` holds at `slot`, if any ([`ShapeTable::known_at`]).
#[inline(always)]
pub fn known_at(cache: &Option<Arc<ShapeTable>>, slot: Option<ShapeSlot>) -> Option<KnownSetting> {
    cache.as_ref()?.known_at(slot?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Deck;

    fn slot(text: &str) -> ShapeSlot {
        ShapeSlot::of(&Deck::with_jokers(2).unwrap().parse_hand7(text).unwrap())
    }

    #[test]
    fn packed_bits_are_the_bits_at_the_positions_in_order() {
        let naive = |bits: u32, positions: u32| {
            let set = (0..13).filter(|&r| positions >> r & 1 == 1);
            set.enumerate()
                .map(|(i, r)| ((bits >> r & 1) as usize) << i)
                .sum::<usize>()
        };
        let mut checked = 0;
        for positions in 0u32..1 << 13 {
            // Every subset of the positions, walked as a submask.
            let mut bits = positions;
            loop {
                assert_eq!(packed_bits(bits, positions), naive(bits, positions));
                checked += 1;
                if bits == 0 {
                    break;
                }
                bits = (bits - 1) & positions;
            }
        }
        assert_eq!(checked, 3usize.pow(13));
    }

    #[test]
    fn suits_matter_only_through_a_flush() {
        assert_eq!(slot("As Ad Kc 7h 5s 3d 2c"), slot("Ac Ah Kd 7s 5h 3c 2d"));
        assert_ne!(slot("As Ks 9s 5s 2s Ad 3c"), slot("As Ks 9s 5s 2d Ad 3c"));
        assert_eq!(slot("As Ks 9s 5s 2s Ad 3c"), slot("Ah Kh 9h 5h 2h Ad 3c"));
        assert_ne!(slot("As Ks 9s 5s 2s Ad 3c"), slot("As Ks 9s 5s 3s Ad 2c"));
        assert_ne!(slot("Jk As Kd 7h 5s 3d 2c"), slot("Ah As Kd 7h 5s 3d 2c"));
        assert!(slot("Jk As Ks 7s 5s 3d 2c").has_flush_suit());
        assert!(!slot("Jk As Ks 7s 5d 3d 2c").has_flush_suit());
    }

    /// Every (multiset, flush-suit mask) pair a hand of at most two jokers can hold, with the
    /// multiset's dense index, its distinct ranks and its jokers.
    fn flush_shapes() -> Vec<(usize, u32, u32, u32)> {
        let mut out = Vec::new();
        for symbols in crate::eval::symbol_multisets(7) {
            let jokers = symbols.iter().filter(|&&s| s == JOKER_SYMBOL).count() as u32;
            let ranks = (symbols.iter().filter(|&&s| s != JOKER_SYMBOL))
                .fold(0u32, |ranks, &s| ranks | 1 << s);
            let dense = dense_index(symbols.try_into().unwrap());
            for mask in (0..1u32 << 13).filter(|m| m & !ranks == 0) {
                if mask.count_ones() + jokers >= 5 {
                    out.push((dense, ranks, mask, jokers));
                }
            }
        }
        out
    }

    #[test]
    fn flush_slots_number_every_flush_shape_once() {
        let mut slots: Vec<u32> = flush_shapes()
            .into_iter()
            .map(|(dense, ranks, mask, jokers)| flush_slot(dense, ranks, mask, jokers))
            .collect();
        slots.sort_unstable();
        let expected: Vec<u32> = (0..FLUSH_SLOTS as u32).collect();
        assert_eq!(slots, expected);
    }

    #[test]
    fn a_hands_flush_slot_is_its_shapes() {
        let deck = Deck::with_jokers(2).unwrap();
        for hand in crate::cards::deal::sample_hands(deck, 9).take(200_000) {
            let Some(suit) = flush_suit(&hand) else {
                continue;
            };
            let cards = Cards::from_cards(&hand);
            let (mask, jokers) = (cards.suit_mask(suit), cards.jokers());
            let expected = flush_slot(rank_index(&hand), cards.rank_mask(), mask, jokers);
            let slot = ShapeSlot::of(&hand);
            assert_eq!(slot.index(), PLAIN_SLOTS + expected as usize, "{hand:?}");
        }
    }

    #[test]
    fn a_plain_memo_keeps_each_plain_shapes_number_once() {
        let memo = PlainMemo::default();
        let calls = std::cell::Cell::new(0);
        let number = |n: usize| {
            let calls = &calls;
            move || {
                calls.set(calls.get() + 1);
                n
            }
        };
        let plain = Some(ShapeSlot(7));
        assert_eq!(memo.get_or_insert(plain, number(254)), 254);
        assert_eq!(memo.get_or_insert(plain, number(3)), 254, "kept");
        assert_eq!(calls.get(), 1);
        let too_big = Some(ShapeSlot(8));
        assert_eq!(memo.get_or_insert(too_big, number(255)), 255);
        assert_eq!(memo.get_or_insert(too_big, number(0)), 0, "255 is not kept");
        for slot in [Some(ShapeSlot(PLAIN_SLOTS as u32 + 7)), None] {
            assert_eq!(memo.get_or_insert(slot, number(5)), 5);
            assert_eq!(
                memo.get_or_insert(slot, number(6)),
                6,
                "{slot:?} is not kept"
            );
        }
        assert_eq!(calls.get(), 7);
    }

    #[test]
    fn the_index_from_cards_is_the_shapes() {
        let deck = Deck::with_jokers(2).unwrap();
        for hand in crate::cards::deal::sample_hands(deck, 5).take(50_000) {
            let symbols = Shape::of(&hand).codes.map(|c| c & 15);
            assert_eq!(rank_index(&hand), dense_index(symbols), "{hand:?}");
        }
    }

    #[test]
    fn slots_find_the_flush_suit_as_the_evaluator_does() {
        let deck = Deck::with_jokers(2).unwrap();
        for hand in crate::cards::deal::sample_hands(deck, 8).take(100_000) {
            let slot = ShapeSlot::of(&hand);
            match flush_suit(&hand) {
                None => assert_eq!(slot, ShapeSlot(rank_index(&hand) as u32)),
                Some(_) => assert!(slot.has_flush_suit(), "{hand:?}"),
            }
        }
    }

    #[test]
    fn plain_indices_are_distinct_and_in_range() {
        let mut seen = std::collections::HashSet::new();
        for symbols in crate::eval::symbol_multisets(7) {
            let index = dense_index(symbols.clone().try_into().unwrap());
            assert!(index < PLAIN_SLOTS);
            assert!(seen.insert(index), "{symbols:?}");
        }
        assert_eq!(BINOMIAL[20][7], PLAIN_SLOTS as u32);
    }

    #[test]
    fn descriptors_map_back_to_the_lowest_matching_split() {
        let s = Shape::of(
            &Deck::with_jokers(2)
                .unwrap()
                .parse_hand7("As Ad Kc 7h 5s 3d 2c")
                .unwrap(),
        );
        for k in 0..SPLIT_COUNT {
            let back = s.split_of(s.descriptor(k)).unwrap();
            assert_eq!(s.descriptor(back), s.descriptor(k));
            assert!(back <= k);
        }
    }
}
