//! The main wager by brute force: every ordered pair of disjoint hands of a small deck dealt
//! and settled as the simulator settles a round (each hand set by its strategy, the dealer's
//! by [`set_dealer`], the pair by [`settle`]). The reference that `exact main`'s
//! inclusion-exclusion ([`super::exact_main`]) is held to on reduced decks, by the tests and by
//! `paigow self-test`; it shares none of that method's steps (no shapes, no sweep).
//!
//! Cost: the square of the deck's 7-card hands (19,448 hands, about 3.8e8 pairs looked at, for
//! four ranks and one joker), spread over the current rayon pool.

use rayon::prelude::*;

use crate::cards::Card;
use crate::combin::for_each_subset;
use crate::engine::exact_main::PairCounts;
use crate::eval::Evaluator;
use crate::eval::split::SplitValues;
use crate::game::GameRules;
use crate::game::wager::{DealerHand, settle};
use crate::strategy::deck_shapes::SuitDeck;
use crate::strategy::{Strategy, set_dealer};

/// One hand as both sides see it.
struct Dealt {
    cards: u64,
    hand: [Card; 7],
    splits: SplitValues,
    dealer: DealerHand,
    /// The player's setting, for a strategy that does not look at the dealer's hand.
    player: Option<usize>,
}

/// Every ordered pair of disjoint hands of `deck` under `game`'s rules, the player's hand set
/// by `player` (shown the dealer's setting where the game exposes it), the dealer's by
/// `dealer`.
pub fn count(
    game: &GameRules,
    deck: SuitDeck,
    player: &dyn Strategy,
    dealer: &dyn Strategy,
) -> PairCounts {
    let ev = Evaluator::new(game.ranking);
    let cards = deck.cards();
    let mut hands = Vec::new();
    for_each_subset(cards.len(), 7, |p| {
        let hand: [Card; 7] = std::array::from_fn(|i| cards[p[i]]);
        let splits = ev.split_values(&hand);
        let own = (!player.needs_dealer()).then(|| player.choose(&hand, &splits, None));
        hands.push(Dealt {
            cards: hand.iter().fold(0, |b, c| b | c.bit()),
            hand,
            dealer: set_dealer(&ev, dealer, &game.main_wager, &hand),
            splits,
            player: own,
        });
    });
    let exposed = game.main_wager.dealer_exposed;
    (hands.par_iter())
        .map(|p| {
            let mut counts = PairCounts::default();
            for d in hands.iter().filter(|d| d.cards & p.cards == 0) {
                let shown = exposed.then_some(d.dealer.setting);
                let k = (p.player).unwrap_or_else(|| player.choose(&p.hand, &p.splits, shown));
                counts.classes[settle(&p.splits, k, &d.dealer).index()] += 1;
            }
            counts
        })
        .reduce(PairCounts::default, |mut a, b| {
            for (x, y) in a.classes.iter_mut().zip(b.classes) {
                *x += y;
            }
            a
        })
}
