//! Helpers shared by the integration tests: the rankings worth testing, hand parsing,
//! combination enumeration, and (in [`cli`]) driving the real binary. Each test file uses a
//! different subset, hence the `dead_code` allow.
#![allow(dead_code)]

pub mod cli;
pub mod naive;
pub mod report_rows;
pub mod run_files;

use paigow::cards::{Card, Cards, Deck};
use paigow::eval::{FiveAces, JokerRule, Ranking, Wheel};

/// Every ranking that changes hand values: the bug joker with both wheel and both five-aces
/// options, and the wild joker with both wheel options (five aces equal to a royal flush is a
/// bug-joker rule only; see `game.rs`).
pub fn meaningful_rankings() -> Vec<Ranking> {
    let mut out = Vec::new();
    for wheel in [Wheel::SecondHighest, Wheel::Lowest] {
        for five_aces in [FiveAces::AboveRoyal, FiveAces::EqualRoyal] {
            out.push(Ranking {
                joker: JokerRule::Bug,
                five_aces,
                wheel,
            });
        }
        out.push(Ranking {
            joker: JokerRule::Wild,
            five_aces: FiveAces::AboveRoyal,
            wheel,
        });
    }
    out
}

/// A ranking from its three options.
pub fn ranking(joker: JokerRule, five_aces: FiveAces, wheel: Wheel) -> Ranking {
    Ranking {
        joker,
        five_aces,
        wheel,
    }
}

/// The 54-card deck (every card any game uses).
pub fn full_deck() -> Deck {
    Deck::with_jokers(2).expect("two jokers")
}

/// Cards from text, read against the 54-card deck (a second `Jk` is the second joker).
pub fn cards(text: &str) -> Vec<Card> {
    full_deck()
        .parse_cards(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// A card set from text.
pub fn set(text: &str) -> Cards {
    Cards::from_cards(&cards(text))
}

/// Binomial coefficient, by the multiplicative formula.
pub fn choose(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// Calls `visit` on every `K`-subset of `cards` (in index order) whose first element is
/// `cards[first]`; running `first` over `0..cards.len()` visits every subset exactly once, which
/// is how the tests split the work between rayon threads.
pub fn for_each_subset_from<const K: usize>(
    cards: &[Card],
    first: usize,
    mut visit: impl FnMut(&[Card; K]),
) {
    fn go<const K: usize>(
        cards: &[Card],
        next: usize,
        depth: usize,
        hand: &mut [Card; K],
        visit: &mut dyn FnMut(&[Card; K]),
    ) {
        if depth == K {
            visit(hand);
            return;
        }
        for i in next..cards.len() {
            hand[depth] = cards[i];
            go(cards, i + 1, depth + 1, hand, visit);
        }
    }
    let mut hand = [cards[first]; K];
    go(cards, first + 1, 1, &mut hand, &mut visit);
}
