//! The `exposed` built-in: a player who sees the dealer's set hand.
//!
//! Among the legal splits it keeps those with the best result against the dealer's setting
//! (win both > push > lose; a tie on a hand goes to the dealer), and among those takes the one the
//! player's house way would choose (the house way applied to those splits only). Without a dealer
//! setting it is the house way. Invariant: the choice is legal and deterministic.

use crate::cards::Card;
use crate::eval::split::{SPLIT_COUNT, SplitValues};
use crate::game::wager::DealerSetting;
use crate::strategy::Strategy;
use crate::strategy::way::HouseWay;

/// `exposed:WAY`: best result against the dealer's exposed hand, ties by a house way.
pub struct Exposed {
    name: String,
    tie_break: HouseWay,
}

impl Exposed {
    /// The exposed strategy breaking ties by `tie_break`.
    pub fn new(tie_break: HouseWay) -> Exposed {
        Exposed {
            name: format!("exposed:{}", tie_break.name),
            tie_break,
        }
    }
}

/// Result of a split against the dealer: 2 win both, 1 push, 0 lose.
#[inline]
pub fn outcome(splits: &SplitValues, k: usize, dealer: DealerSetting) -> u8 {
    (splits.front[k] > dealer.front) as u8 + (splits.back[k] > dealer.back) as u8
}

/// Bit mask of the legal splits with the best outcome against `dealer`.
pub fn best_outcome_mask(splits: &SplitValues, dealer: DealerSetting) -> u32 {
    let (mut best, mut mask) = (0u8, 0u32);
    for k in (0..SPLIT_COUNT).filter(|&k| splits.is_legal(k)) {
        let o = outcome(splits, k, dealer);
        if o > best {
            best = o;
            mask = 0;
        }
        if o == best {
            mask |= 1 << k;
        }
    }
    mask
}

impl Strategy for Exposed {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(
        &self,
        hand: &[Card; 7],
        splits: &SplitValues,
        dealer: Option<DealerSetting>,
    ) -> usize {
        match dealer {
            None => self.tie_break.set(hand, splits).split,
            Some(d) => {
                let allowed = best_outcome_mask(splits, d);
                self.tie_break.set_within(hand, splits, allowed).split
            }
        }
    }

    fn needs_dealer(&self) -> bool {
        true
    }
}
