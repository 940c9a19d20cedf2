//! Every shape of a deck set by the player's and the dealer's strategies: the [`Codes`] the
//! counting core reads.
//!
//! Each shape's representative hand is split, set by the dealer's way (a point of the value
//! grid, or a class when the dealer does not qualify or overqualifies: both are read from the
//! best five of its seven cards, [`crate::game::wager::DealerHand::from_known`]) and by the player's strategy (its
//! setting; for a strategy that sees the dealer's hand, every legal split and the split it sets
//! when all of them lose).
//!
//! Invariant: a strategy counted here reads only split values and suit-blind features of the
//! hand, so the representative's setting is the setting of every hand of its shape (the tests
//! deal hands and check, way by way).

use rayon::prelude::*;

use super::codes::{Codes, DealerPoint, PlayerHand};
use crate::cards::Card;
use crate::eval::split::SplitValues;
use crate::eval::{Evaluator, Value};
use crate::game::wager::{DealerSetting, MainWager};
use crate::strategy::Strategy;
use crate::strategy::deck_shapes::Shapes;
use crate::strategy::optimal::grid::ValueIndex;
use crate::strategy::optimal::grid::dealer_point;

/// What sets the hands, and the rules and values they are read by.
pub struct Setters<'a> {
    pub ev: &'a Evaluator,
    pub index: &'a ValueIndex,
    pub wager: &'a MainWager,
    pub player: &'a dyn Strategy,
    pub dealer: &'a dyn Strategy,
}

/// A dealer setting no split ties or beats: shown to a player who sees the dealer, it makes
/// every split lose, so the player sets the hand as it does when it loses.
const BEATS_EVERY_SPLIT: DealerSetting = DealerSetting {
    front: Value(u32::MAX),
    back: Value(u32::MAX),
};

impl Setters<'_> {
    /// The (front, back) indices of split `k`.
    fn indices(&self, splits: &SplitValues, k: usize) -> [u16; 2] {
        self.index.split_point(splits, k)
    }

    /// The dealer's point for a hand.
    pub fn dealer_point(&self, hand: &[Card; 7], splits: &SplitValues) -> DealerPoint {
        dealer_point(self.index, self.wager, self.dealer, hand, splits)
    }

    /// The player's hand for a hand.
    pub fn player_hand(&self, hand: &[Card; 7], splits: &SplitValues) -> PlayerHand {
        if self.player.needs_dealer() {
            let mut legal: Vec<[u16; 2]> = splits
                .legal_splits()
                .map(|k| self.indices(splits, k))
                .collect();
            legal.sort_unstable();
            legal.dedup();
            let on_loss = self.player.choose(hand, splits, Some(BEATS_EVERY_SPLIT));
            PlayerHand::Exposed {
                legal,
                on_loss: self.indices(splits, on_loss),
            }
        } else {
            PlayerHand::Set(self.indices(splits, self.player.choose(hand, splits, None)))
        }
    }

    /// The codes of every id of `shapes` (parallel over shapes).
    pub fn codes(&self, shapes: &Shapes) -> Codes {
        let set: Vec<(DealerPoint, Option<PlayerHand>)> = (0..shapes.ids())
            .into_par_iter()
            .map(|id| match shapes.representative(id) {
                None => (DealerPoint::NotQualified, None),
                Some(hand) => {
                    let splits = self.ev.split_values(&hand);
                    (
                        self.dealer_point(&hand, &splits),
                        Some(self.player_hand(&hand, &splits)),
                    )
                }
            })
            .collect();
        let mut codes = Codes::new(
            self.index.fronts.len() as u16,
            self.index.backs.len() as u16,
        );
        for (dealer, player) in &set {
            codes.push(*dealer, player.as_ref());
        }
        codes
    }
}
