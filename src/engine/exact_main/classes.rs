//! Sets of cards up to the symmetries of the deck: the 24 permutations of the suits, and the
//! exchange of the two jokers.
//!
//! A set of suited cards is four 13-bit rank masks, one per suit; permuting suits permutes the
//! masks. Its *class representative* has the masks in non-increasing order (as integers) and
//! holds the lowest-numbered jokers. The class of a set with masks `m_0 >= .. >= m_3` has
//! `24 / prod(g!)` members for each choice of its jokers, `g` running over the sizes of the
//! groups of equal masks, and `C(deck jokers, set jokers)` choices of jokers.
//!
//! Invariants: [`for_each_class`] over every root of [`roots`] visits each class of `t`-sets of
//! the deck exactly once, through its representative, with its size as weight, so the weights
//! add up to `C(n, t)` (the tests check this and the representatives against brute force).
//! Anything that depends on a set only through suit-blind and joker-blind facts can be summed
//! over the representatives with these weights.

use std::sync::LazyLock;

use crate::cards::{Card, Cards, LANE_MASK};
use crate::combin::choose;

use crate::strategy::deck_shapes::SuitDeck;

/// A parallel unit of the classes of one size: the joker count and the first two suits' masks
/// (the first suit alone made units too uneven: under a first mask of one high rank lie most of
/// a size's classes, and one thread counted them while the others waited).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Root {
    pub jokers: u8,
    pub first: u16,
    pub second: u16,
}

/// Every rank mask of at most seven bits, by popcount, ascending: built once, shared by every
/// deck (a reduced deck skips the masks of ranks it lacks).
static MASKS_BY_POPCOUNT: LazyLock<[Vec<u16>; 8]> = LazyLock::new(|| {
    let mut by_pop: [Vec<u16>; 8] = Default::default();
    for mask in 0..=LANE_MASK as u16 {
        if let Some(masks) = by_pop.get_mut(mask.count_ones() as usize) {
            masks.push(mask);
        }
    }
    by_pop
});

/// The masks of `deck` with `pop` bits, no greater than `bound`, ascending.
fn masks_up_to(deck: SuitDeck, pop: usize, bound: u16) -> impl Iterator<Item = u16> {
    let masks = &MASKS_BY_POPCOUNT[pop];
    let fitting = masks.partition_point(|&m| m <= bound);
    let ranks = deck.ranks();
    masks[..fitting]
        .iter()
        .copied()
        .filter(move |&m| m & !ranks == 0)
}

/// The roots of the classes of `t`-sets of `deck`.
pub fn roots(deck: SuitDeck, t: usize) -> Vec<Root> {
    let mut out = Vec::new();
    for jokers in 0..=t.min(usize::from(deck.jokers())) {
        let suited = t - jokers;
        for pop in 0..=suited {
            for first in masks_up_to(deck, pop, u16::MAX) {
                for second_pop in 0..=suited - pop {
                    out.extend(masks_up_to(deck, second_pop, first).map(|second| Root {
                        jokers: jokers as u8,
                        first,
                        second,
                    }));
                }
            }
        }
    }
    out
}

/// Calls `visit(representative, class size)` for every class of `t`-sets under `root`.
pub fn for_each_class(deck: SuitDeck, t: usize, root: Root, mut visit: impl FnMut(Cards, u64)) {
    let suited = t - usize::from(root.jokers);
    let rest = suited - (root.first.count_ones() + root.second.count_ones()) as usize;
    let joker_choices = choose(u64::from(deck.jokers()), u64::from(root.jokers));
    let jokers = [Card::JOKER1, Card::JOKER2][..usize::from(root.jokers)]
        .iter()
        .fold(0u64, |bits, c| bits | c.bit());
    let mut masks = [root.first, root.second, 0, 0];
    let mut emit = |masks: &[u16; 4]| {
        let cards = (0..4).fold(jokers, |bits, s| bits | u64::from(masks[s]) << (16 * s));
        visit(Cards(cards), joker_choices * suit_orbit(masks));
    };
    fill(deck, &mut masks, 2, rest, &mut emit);
}

/// Chooses masks `suit..4` in non-increasing order with `rest` bits in all.
fn fill(
    deck: SuitDeck,
    masks: &mut [u16; 4],
    suit: usize,
    rest: usize,
    emit: &mut impl FnMut(&[u16; 4]),
) {
    let bound = masks[suit - 1];
    let pops = if suit == 3 { rest..=rest } else { 0..=rest };
    for pop in pops {
        for mask in masks_up_to(deck, pop, bound) {
            masks[suit] = mask;
            if suit == 3 {
                emit(masks);
            } else {
                fill(deck, masks, suit + 1, rest - pop, emit);
            }
        }
    }
}

/// How many distinct sets the 24 suit permutations make of sorted masks.
fn suit_orbit(masks: &[u16; 4]) -> u64 {
    let factorial = [1, 1, 2, 6, 24];
    let mut stabilizer = 1;
    let mut run = 1;
    for s in 1..4 {
        if masks[s] == masks[s - 1] {
            run += 1;
        } else {
            stabilizer *= factorial[run];
            run = 1;
        }
    }
    24 / (stabilizer * factorial[run])
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// The representative of a set's class, by brute force over the 24 permutations.
    fn representative(cards: Cards) -> Cards {
        let jokers = cards.jokers();
        let suited: Vec<u16> = (0..4).map(|s| cards.suit_mask(s) as u16).collect();
        let mut sorted = suited.clone();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        let joker_bits = [Card::JOKER1, Card::JOKER2][..jokers as usize]
            .iter()
            .fold(0, |b, c| b | c.bit());
        Cards((0..4).fold(joker_bits, |b, s| b | u64::from(sorted[s]) << (16 * s)))
    }

    #[test]
    fn classes_partition_the_sets_of_a_small_deck() {
        for (ranks, jokers) in [
            (0b1_0000_0000_0111u16, 1u8),
            (0b11_0000_0011, 2),
            (0b1111, 0),
        ] {
            let deck = SuitDeck::new(ranks, jokers).unwrap();
            let cards = deck.cards();
            for t in 0..=7 {
                let mut by_brute: HashMap<u64, u64> = HashMap::new();
                crate::combin::for_each_subset(cards.len(), t, |p| {
                    let set = Cards(p.iter().fold(0, |b, &i| b | cards[i].bit()));
                    *by_brute.entry(representative(set).0).or_insert(0) += 1;
                });
                let mut by_classes: HashMap<u64, u64> = HashMap::new();
                for root in roots(deck, t) {
                    for_each_class(deck, t, root, |set, weight| {
                        assert_eq!(set.len(), t);
                        assert!(by_classes.insert(set.0, weight).is_none(), "a class twice");
                    });
                }
                assert_eq!(by_classes, by_brute, "{deck:?}, t = {t}");
            }
        }
    }

    #[test]
    fn class_sizes_add_up_to_the_binomials_of_the_game_decks() {
        for jokers in [1, 2] {
            let deck = SuitDeck::of(crate::cards::Deck::with_jokers(jokers).unwrap());
            for t in 0..=5 {
                let mut total = 0;
                for root in roots(deck, t) {
                    for_each_class(deck, t, root, |_, weight| total += weight);
                }
                assert_eq!(total, choose(deck.size() as u64, t as u64), "t = {t}");
            }
        }
    }
}
