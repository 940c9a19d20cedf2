//! Shuffling and dealing, reproducibly: one RNG stream per chunk of deals.
//!
//! Chunk `i` of a run seeded `s` draws from Xoshiro256++ whose 256-bit state is four SplitMix64
//! outputs started from `s` mixed with `i` (see [`chunk_rng`]), so a chunk's deals depend only on
//! (seed, chunk index), never on which thread runs it or in which order.
//!
//! Dealing is a partial Fisher-Yates shuffle: to deal `n` cards, position `p` in `0..n` swaps with
//! a uniformly drawn position in `p..len`. The shoe keeps its order between deals (any
//! arrangement shuffled this way yields a uniform deal), so nothing is reset or allocated per
//! deal. The bounded draw is our own (Lemire's multiply-and-reject on `next_u64`), so results do
//! not change when a dependency changes its helpers; only `next_u64` of Xoshiro256++ and the raw
//! state layout of `from_seed` are relied on, and both are fixed by the algorithm's definition.
//!
//! Invariants: every draw is exactly uniform; the shoe always holds each card of the deck once.

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use crate::cards::{Card, Deck};

/// The RNG's name, for manifests.
pub const RNG_NAME: &str = "Xoshiro256++ (state: SplitMix64 of seed and chunk index)";
/// The shuffle's name, for manifests.
pub const SHUFFLE_NAME: &str =
    "partial Fisher-Yates, Lemire multiply-and-reject bounded draws on next_u64";

/// One step of SplitMix64 (Steele, Lea, Flood 2014): advances `state` and returns a mixed word.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The RNG every chunk of a run draws from.
pub type ChunkRng = Xoshiro256PlusPlus;

/// The RNG of chunk `chunk` of a run seeded `seed`.
pub fn chunk_rng(seed: u64, chunk: u64) -> ChunkRng {
    let mut mix = chunk;
    let mut state = seed ^ splitmix64(&mut mix);
    let mut bytes = [0u8; 32];
    for word in bytes.chunks_exact_mut(8) {
        word.copy_from_slice(&splitmix64(&mut state).to_le_bytes());
    }
    Xoshiro256PlusPlus::from_seed(bytes)
}

/// A uniform integer in `0..n` (`n > 0`): Lemire's multiply-and-reject, exactly unbiased.
///
/// The rejection is marked as the cold path ([`std::hint::cold_path`]), so the deal loops that
/// inline this are laid out for the common case: a layout that put it in a loop's fall-through
/// path cost the floor benchmark a quarter of its rate (a `#[cold]` function call instead made
/// the loops keep the RNG state on the stack).
#[inline]
pub fn below<R: Rng>(rng: &mut R, n: u64) -> u64 {
    debug_assert!(n > 0);
    let mut m = u128::from(rng.next_u64()) * u128::from(n);
    if (m as u64) < n {
        std::hint::cold_path();
        let threshold = n.wrapping_neg() % n;
        while (m as u64) < threshold {
            m = u128::from(rng.next_u64()) * u128::from(n);
        }
    }
    (m >> 64) as u64
}

/// The cards of one deck in some order; deals come off the front.
#[derive(Clone, Debug)]
pub struct Shoe {
    cards: [Card; 54],
    len: usize,
}

impl Shoe {
    /// A shoe holding `deck` in its canonical order.
    pub fn new(deck: Deck) -> Shoe {
        let all = deck.cards();
        let mut cards = [Card::JOKER1; 54];
        cards[..all.len()].copy_from_slice(&all);
        Shoe {
            cards,
            len: all.len(),
        }
    }

    /// Number of cards in the shoe.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the shoe is empty (never, for a real deck).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Shuffles the first `n` positions (`n <= len`) into a uniform random deal and returns them.
    #[inline]
    pub fn deal<R: Rng>(&mut self, rng: &mut R, n: usize) -> &[Card] {
        debug_assert!(n <= self.len);
        for p in 0..n {
            self.deal_at(rng, p);
        }
        &self.cards[..n]
    }

    /// Swaps position `p` with a uniformly drawn position in `p..len` and returns the card
    /// now at `p`: one step of the partial shuffle. That card is the one at `q` before the swap
    /// (also when `q == p`), returned as read rather than read back from the byte the swap has
    /// just stored (a load that would wait on that store: 6% of simulate's rate).
    #[inline(always)]
    fn deal_at<R: Rng>(&mut self, rng: &mut R, p: usize) -> Card {
        let q = p + below(rng, (self.len - p) as u64) as usize;
        let card = self.cards[q];
        self.cards.swap(p, q);
        card
    }

    /// Deals `n` cards as [`Shoe::deal`] does into `out[..n]` (`n <= out.len()`; the rest of
    /// `out` is left as it was), each card written as it is dealt. Copying the dealt cards
    /// after the shuffle would read, in wide loads, bytes the swaps had just stored one at a
    /// time, which stalls the core until those stores land (a failed store-to-load forward);
    /// writing each card as it is dealt stores only bytes.
    #[inline(never)]
    pub fn deal_into<R: Rng>(&mut self, rng: &mut R, out: &mut [Card], n: usize) {
        debug_assert!(n <= self.len && n <= out.len());
        for (p, dealt) in out[..n].iter_mut().enumerate() {
            *dealt = self.deal_at(rng, p);
        }
    }
}

/// A fixed-seed stream of random 7-card hands from `deck`, each sorted by card index
/// (`splitmix64` and a partial Fisher-Yates shuffle: reproducible on every platform), for
/// tests, lints and benches.
pub fn sample_hands(deck: Deck, seed: u64) -> impl Iterator<Item = [Card; 7]> {
    let cards = deck.cards();
    let mut state = seed;
    std::iter::repeat_with(move || {
        let mut pool = cards.clone();
        let mut hand = [pool[0]; 7];
        for (i, slot) in hand.iter_mut().enumerate() {
            let z = splitmix64(&mut state);
            let j = i + (z % (pool.len() - i) as u64) as usize;
            pool.swap(i, j);
            *slot = pool[i];
        }
        hand.sort();
        hand
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunk_streams_are_fixed_and_distinct() {
        let mut a = chunk_rng(42, 0);
        let mut b = chunk_rng(42, 1);
        let mut c = chunk_rng(43, 0);
        let (x, y, z) = (a.next_u64(), b.next_u64(), c.next_u64());
        assert!(x != y && x != z && y != z);
        assert_eq!(chunk_rng(42, 0).next_u64(), x);
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut rng = chunk_rng(1, 0);
        let mut seen = [0u32; 53];
        for _ in 0..53_000 {
            seen[below(&mut rng, 53) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800 && n < 1200), "{seen:?}");
    }

    #[test]
    fn a_deal_is_distinct_cards_of_the_deck() {
        let deck = Deck::with_jokers(2).unwrap();
        let mut shoe = Shoe::new(deck);
        let mut rng = chunk_rng(7, 3);
        for _ in 0..1000 {
            let cards = shoe.deal(&mut rng, 49).to_vec();
            let set = crate::cards::Cards::from_cards(&cards);
            assert_eq!(set.len(), 49);
            assert!(cards.iter().all(|&c| deck.contains(c)));
        }
        assert_eq!(shoe.len(), 54);
    }
}
