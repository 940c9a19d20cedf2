//! Combinatorics: binomial coefficients and the enumeration of card subsets in colex order.
//!
//! Invariants: [`BINOMIAL`] is Pascal's triangle for `n <= 54`, `k <= 7` (every count of 7-card
//! hands of a deck fits a `u32`); the enumerators visit each subset exactly once, positions
//! ascending, and the colex rank of a subset `p_0 < ... < p_{k-1}` is `sum C(p_t, t + 1)`, a
//! bijection onto `0..C(n, k)`. Nothing here knows what a card is worth.

use crate::cards::Card;

/// `BINOMIAL[n][k]` = C(n, k) for `n <= 54`, `k <= 7`: ranks of 7-card hands in colex order.
pub const BINOMIAL: [[u32; 8]; 55] = binomials();

const fn binomials() -> [[u32; 8]; 55] {
    let mut t = [[0u32; 8]; 55];
    let mut n = 0;
    while n < 55 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 8 && n > 0 {
            t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    t
}

/// The greatest common divisor (`gcd(0, 0)` is 0).
pub fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Binomial coefficient for the small arguments used here.
pub fn choose(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// Calls `visit` on every 7-card hand of `cards` whose lowest position is `first` (cards in
/// ascending order give hands sorted by card index).
pub fn for_each_hand_from(cards: &[Card], first: usize, mut visit: impl FnMut(&[Card; 7])) {
    let n = cards.len();
    let mut hand = [cards[first]; 7];
    for b in first + 1..n {
        hand[1] = cards[b];
        for c in b + 1..n {
            hand[2] = cards[c];
            for d in c + 1..n {
                hand[3] = cards[d];
                for e in d + 1..n {
                    hand[4] = cards[e];
                    for f in e + 1..n {
                        hand[5] = cards[f];
                        for &card in &cards[f + 1..] {
                            hand[6] = card;
                            visit(&hand);
                        }
                    }
                }
            }
        }
    }
}

/// Calls `visit` with every `k`-subset of `0..n` as ascending positions.
pub fn for_each_subset(n: usize, k: usize, mut visit: impl FnMut(&[usize])) {
    let mut positions: Vec<usize> = (0..k).collect();
    loop {
        visit(&positions);
        let Some(i) = (0..k).rev().find(|&i| positions[i] < n - k + i) else {
            return;
        };
        positions[i] += 1;
        for j in i + 1..k {
            positions[j] = positions[j - 1] + 1;
        }
    }
}

/// Calls `visit(rank within the block, hand)` for every hand whose highest position is `top`,
/// where the rank is the colex rank of its six lower positions.
pub fn for_each_hand_below(cards: &[Card], top: usize, mut visit: impl FnMut(usize, &[Card; 7])) {
    let b = |n: usize, k: usize| BINOMIAL[n][k] as usize;
    let mut hand = [cards[top]; 7];
    for f in 5..top {
        hand[5] = cards[f];
        for e in 4..f {
            hand[4] = cards[e];
            for d in 3..e {
                hand[3] = cards[d];
                for c in 2..d {
                    hand[2] = cards[c];
                    for bb in 1..c {
                        hand[1] = cards[bb];
                        let upper = b(f, 6) + b(e, 5) + b(d, 4) + b(c, 3) + b(bb, 2);
                        for (a, &card) in cards[..bb].iter().enumerate() {
                            hand[0] = card;
                            visit(upper + a, &hand);
                        }
                    }
                }
            }
        }
    }
}

/// Calls `visit` with the colex rank (in the whole deck) of every 7-subset of `positions`.
pub fn for_each_rank_of(positions: &[usize], mut visit: impl FnMut(usize)) {
    let b = |t: usize, i: usize| BINOMIAL[positions[i]][t] as usize;
    let n = positions.len();
    for g in 6..n {
        let rg = b(7, g);
        for f in 5..g {
            let rf = rg + b(6, f);
            for e in 4..f {
                let re = rf + b(5, e);
                for d in 3..e {
                    let rd = re + b(4, d);
                    for c in 2..d {
                        let rc = rd + b(3, c);
                        for bb in 1..c {
                            let rb = rc + b(2, bb);
                            for &p in &positions[..bb] {
                                visit(rb + p);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A count's digits in groups of three (`1,234,567`), as reports and checks print counts.
pub fn grouped(digits: &str) -> String {
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Deck;

    #[test]
    fn binomials_are_pascal() {
        assert_eq!(BINOMIAL[52][7], 133_784_560);
        assert_eq!(BINOMIAL[54][7], 177_100_560);
        assert_eq!(BINOMIAL[6][6], 1);
        assert_eq!(BINOMIAL[5][6], 0);
    }

    #[test]
    fn choose_matches_pascal() {
        assert_eq!(choose(4, 2), 6);
        assert_eq!(choose(3, 4), 0);
        assert_eq!(choose(52, 7), 133_784_560);
    }

    #[test]
    fn subsets_are_listed_once_each() {
        let mut n = 0;
        for_each_subset(7, 2, |p| {
            assert!(p[0] < p[1]);
            n += 1;
        });
        assert_eq!(n, 21);
    }

    #[test]
    fn block_ranks_are_a_bijection() {
        let cards = Deck::with_jokers(0).unwrap().cards();
        for top in [6, 9, 13] {
            let mut seen = vec![false; BINOMIAL[top][6] as usize];
            for_each_hand_below(&cards[..=top], top, |rank, hand| {
                assert!(hand.windows(2).all(|w| w[0] < w[1]));
                assert!(!std::mem::replace(&mut seen[rank], true));
            });
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn subset_ranks_cover_their_block_structure() {
        let positions: Vec<usize> = (0..10).collect();
        let mut ranks = Vec::new();
        for_each_rank_of(&positions, |r| ranks.push(r));
        ranks.sort_unstable();
        assert_eq!(ranks, (0..BINOMIAL[10][7] as usize).collect::<Vec<_>>());
        let sparse = [0, 2, 3, 5, 8, 9, 11, 13];
        let mut n = 0;
        for_each_rank_of(&sparse, |r| {
            assert!(r < BINOMIAL[14][7] as usize);
            n += 1;
        });
        assert_eq!(n, 8);
    }
}
