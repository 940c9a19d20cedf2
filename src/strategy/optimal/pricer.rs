//! One player hand priced exactly: every dealer hand of the other cards, counted by shape with
//! card removal in closed form, set once per shape by the dealer's way (`set --exact`, and the
//! examples of `compare`).
//!
//! Method. A dealer hand's setting depends only on its shape ([`crate::strategy::deck_shapes`]), so it is
//! enough to know how many dealer hands of each shape avoid the player's seven cards `P`. With
//! `p_r` of `P`'s cards of rank `r`, a rank multiset `M` (counts `m_r`, `m_J` jokers) is dealt
//! from the other cards in `prod C(4 - p_r, m_r) * C(J - p_J, m_J)` ways. Of those, the ones whose
//! suit `s` holds exactly the ranks `S` (a flush suit: `|S| + m_J >= 5`) number 0 when `P` holds
//! a card of `S` in suit `s`, else `prod_{r in S} C(3 - p_r, m_r - 1) * prod_{r not in S}
//! C(3 - p_r + [P holds r in suit s], m_r) * C(J - p_J, m_J)` (the other cards of a rank come
//! from the other three suits). At most one suit can be a flush suit, so the flush shapes
//! `(M, S)` take these counts summed over the four suits, and `M` itself keeps the rest. The
//! counts, added into the dealer grid by each shape's setting, price every legal setting of the
//! hand in four lookups ([`DealerGrid`](crate::strategy::optimal::grid::DealerGrid)).
//!
//! Invariants: the counts are exact and add up to `C(n - 7, 7)`; the result equals
//! [`crate::strategy::optimal::hand::by_enumeration`] integer for integer (the tests check), in a
//! few milliseconds a hand once the shapes are set (a fraction of a second).

use std::sync::Arc;

use rayon::prelude::*;

use super::grid::{DealerPoint, dealer_point};
use crate::cards::{Card, Cards, RANKS};
use crate::eval::Evaluator;
use crate::eval::split::SplitValues;
use crate::game::GameRules;
use crate::game::settlement::Quadrants;
use crate::game::wager::MainWager;
use crate::strategy::Strategy;
use crate::strategy::deck_shapes::{PLAIN_SLOTS, Shapes, SuitDeck};
use crate::strategy::optimal::grid::{DealerCounts, ValueIndex};
use crate::strategy::optimal::hand::{HandExact, SettingOutcomes};

/// `C(n, k)` for `n, k <= 4`.
const SMALL_BINOMIAL: [[u64; 5]; 5] = [
    [1, 0, 0, 0, 0],
    [1, 1, 0, 0, 0],
    [1, 2, 1, 0, 0],
    [1, 3, 3, 1, 0],
    [1, 4, 6, 4, 1],
];

/// The ranks of a shape's multiset with their counts.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Multiset {
    pub(super) len: u8,
    pub(super) ranks: [u8; 7],
    pub(super) counts: [u8; 7],
    pub(super) jokers: u8,
}

impl Multiset {
    pub(super) fn of(hand: &[Card; 7]) -> Multiset {
        let mut m = Multiset::default();
        let counts = Cards::from_cards(hand).rank_counts();
        for r in (0..RANKS).filter(|&r| counts[r as usize] > 0) {
            m.ranks[m.len as usize] = r;
            m.counts[m.len as usize] = counts[r as usize];
            m.len += 1;
        }
        m.jokers = Cards::from_cards(hand).jokers() as u8;
        m
    }
}

/// A flush shape: its multiset (by position in the plain list), the flush suit's ranks, and
/// the code of the dealer's setting.
pub(super) struct FlushEntry {
    pub(super) plain: u32,
    pub(super) mask: u16,
    pub(super) code: u32,
}

/// Codes of what a dealer hand means: these two, or `LIVE + i` for the `i`-th live point.
pub(super) const NOT_QUALIFIED: u32 = 0;
pub(super) const OVERQUALIFIED: u32 = 1;
pub(super) const LIVE: u32 = 2;

/// What the player's seven cards take from the deck, as the factors of the counts.
struct Removed {
    /// `C(4 - p_r, k)`: the ways to deal `k` cards of rank `r` from those left.
    all: [[u32; 5]; 13],
    /// `C(3 - p_r, k - 1)`, by `k`: with rank `r` in the flush suit (whose card of rank `r` the
    /// player does not hold), the other `k - 1` cards from the other three suits.
    in_flush: [[u32; 5]; 13],
    /// `C(3 - p_r + [the player holds rank r in suit s], k)` for each suit `s`: rank `r` kept out
    /// of suit `s`, all `k` cards from the other three.
    out_of_flush: [[[u32; 4]; 5]; 13],
    /// The player's rank mask in each suit.
    suits: [u16; 4],
    /// The dealer's joker choices by joker count.
    joker_ways: [u32; 3],
}

impl Removed {
    fn of(hand: &[Card; 7], deck_jokers: u8) -> Removed {
        let cards = Cards::from_cards(hand);
        let held = cards.rank_counts();
        let suits: [u16; 4] = std::array::from_fn(|s| cards.suit_mask(s as u8) as u16);
        let jokers_left = usize::from(deck_jokers) - cards.jokers() as usize;
        let c = |n: usize, k: usize| SMALL_BINOMIAL[n][k] as u32;
        let left = |r: usize| 4 - held[r] as usize;
        Removed {
            all: std::array::from_fn(|r| std::array::from_fn(|k| c(left(r), k))),
            in_flush: std::array::from_fn(|r| {
                std::array::from_fn(|k| match (k, left(r)) {
                    (0, _) | (_, 0) => 0,
                    (k, l) => c(l - 1, k - 1),
                })
            }),
            out_of_flush: std::array::from_fn(|r| {
                std::array::from_fn(|k| {
                    std::array::from_fn(|s| match left(r) + (suits[s] >> r & 1) as usize {
                        0 => u32::from(k == 0),
                        l => c(l - 1, k),
                    })
                })
            }),
            suits,
            joker_ways: std::array::from_fn(|k| c(jokers_left, k)),
        }
    }

    /// Dealer hands of multiset `m` from the cards left.
    #[inline]
    fn all(&self, m: &Multiset) -> u64 {
        (0..m.len as usize).fold(u64::from(self.joker_ways[m.jokers as usize]), |ways, i| {
            ways * u64::from(self.all[m.ranks[i] as usize][m.counts[i] as usize])
        })
    }

    /// Dealer hands of multiset `m` whose flush suit holds exactly the ranks `mask`, over the
    /// four suits (one lane each).
    #[inline]
    fn with_flush(&self, m: &Multiset, mask: u16) -> u64 {
        let mut lanes = [self.joker_ways[m.jokers as usize]; 4];
        for i in 0..m.len as usize {
            let (r, k) = (m.ranks[i] as usize, m.counts[i] as usize);
            let factors = match mask >> r & 1 {
                1 => [self.in_flush[r][k]; 4],
                _ => self.out_of_flush[r][k],
            };
            for s in 0..4 {
                lanes[s] *= factors[s];
            }
        }
        (0..4)
            .filter(|&s| mask & self.suits[s] == 0)
            .map(|s| u64::from(lanes[s]))
            .sum()
    }
}

/// Every dealer shape of a deck, set once by the dealer's way: prices player hands.
pub struct HandPricer {
    pub(super) deck: SuitDeck,
    pub(super) index: Arc<ValueIndex>,
    wager: MainWager,
    /// The distinct live dealer points, by back then front: `[back, front]`.
    pub(super) points: Vec<[u16; 2]>,
    /// Plain shapes: the multiset and the code of its setting.
    pub(super) plain: Vec<(Multiset, u32)>,
    /// Flush shapes, in the order of their multisets in `plain`.
    pub(super) flush: Vec<FlushEntry>,
}

/// Dealer hands by code ([`NOT_QUALIFIED`], [`OVERQUALIFIED`], `LIVE + point`).
struct ByCode(Vec<u64>);

impl HandPricer {
    /// The pricer of `game`'s deck against the dealer's way `dealer` (sets every shape: a
    /// fraction of a second).
    pub fn new(game: &GameRules, dealer: &dyn Strategy) -> HandPricer {
        HandPricer::with_deck(game, SuitDeck::of(game.deck), dealer)
    }

    /// The pricer of a deck (the game's, or a reduced one) under `game`'s rules.
    pub fn with_deck(game: &GameRules, deck: SuitDeck, dealer: &dyn Strategy) -> HandPricer {
        let ev = Evaluator::new(game.ranking);
        let index = Arc::new(ValueIndex::of(&ev, game.deck));
        let shapes = Shapes::new(deck);
        let ids: Vec<usize> = shapes.dealt_ids().collect();
        let set: Vec<(Multiset, DealerPoint)> = ids
            .par_iter()
            .map(|&id| {
                let hand = shapes.representative(id).expect("listed ids have a hand");
                let splits = ev.split_values(&hand);
                let point = dealer_point(&index, &game.main_wager, dealer, &hand, &splits);
                (Multiset::of(&hand), point)
            })
            .collect();
        let mut points: Vec<[u16; 2]> = (set.iter())
            .filter_map(|(_, p)| match *p {
                DealerPoint::Live { front, back } => Some([back, front]),
                _ => None,
            })
            .collect();
        points.sort_unstable();
        points.dedup();
        let code = |point: DealerPoint| match point {
            DealerPoint::NotQualified => NOT_QUALIFIED,
            DealerPoint::Overqualified => OVERQUALIFIED,
            DealerPoint::Live { front, back } => {
                LIVE + points.binary_search(&[back, front]).expect("listed") as u32
            }
        };
        let mut plain = Vec::new();
        let mut position = vec![u32::MAX; PLAIN_SLOTS];
        let mut flush = Vec::new();
        // Ids ascend and plain ids come first, so a flush shape's multiset has its position.
        for (&id, &(multiset, point)) in ids.iter().zip(&set) {
            match shapes.flush_shape(id) {
                None => {
                    position[id] = plain.len() as u32;
                    plain.push((multiset, code(point)));
                }
                Some(shape) => flush.push(FlushEntry {
                    plain: position[shape.plain as usize],
                    mask: shape.mask,
                    code: code(point),
                }),
            }
        }
        flush.sort_by_key(|entry| entry.plain);
        HandPricer {
            deck,
            index,
            wager: game.main_wager,
            points,
            plain,
            flush,
        }
    }

    /// The values the dealer grid is over.
    pub fn index(&self) -> &Arc<ValueIndex> {
        &self.index
    }

    /// The dealer hands of the cards `hand` leaves, by code.
    fn by_code(&self, hand: &[Card; 7]) -> ByCode {
        let removed = Removed::of(hand, self.deck.jokers());
        let mut plain: Vec<u64> = self.plain.iter().map(|(m, _)| removed.all(m)).collect();
        let mut by_code = vec![0u64; LIVE as usize + self.points.len()];
        for entry in &self.flush {
            let m = &self.plain[entry.plain as usize].0;
            let n = removed.with_flush(m, entry.mask);
            plain[entry.plain as usize] -= n;
            by_code[entry.code as usize] += n;
        }
        for ((_, code), &n) in self.plain.iter().zip(&plain) {
            by_code[*code as usize] += n;
        }
        ByCode(by_code)
    }

    /// The dealer hands of the cards `hand` leaves, counted by what they mean for the bet.
    pub fn dealer_counts(&self, hand: &[Card; 7]) -> DealerCounts {
        let ByCode(by_code) = self.by_code(hand);
        let mut counts = DealerCounts::new(&self.index);
        counts.not_qualified = by_code[NOT_QUALIFIED as usize];
        counts.overqualified = by_code[OVERQUALIFIED as usize];
        for (&[back, front], &n) in self.points.iter().zip(&by_code[LIVE as usize..]) {
            let cell = usize::from(front) * self.index.backs.len() + usize::from(back);
            counts.cells[cell] += n as u32;
        }
        counts
    }

    /// Exact outcomes of every legal setting of `hand` (sorted by card index, `splits` its split
    /// values) against every dealer hand of the other cards.
    pub fn hand_exact(&self, splits: &SplitValues, hand: &[Card; 7]) -> HandExact {
        let ByCode(by_code) = self.by_code(hand);
        let live_counts = &by_code[LIVE as usize..];
        let settings: Vec<(usize, [u16; 2])> = (splits.legal_splits())
            .map(|k| (k, self.index.split_point(splits, k)))
            .collect();
        let quadrants = self.quadrants(live_counts, &settings);
        let live: u64 = live_counts.iter().sum();
        let (not_qualified, overqualified) = (
            by_code[NOT_QUALIFIED as usize],
            by_code[OVERQUALIFIED as usize],
        );
        HandExact {
            dealer_hands: live + not_qualified + overqualified,
            not_qualified,
            overqualified,
            settings: (settings.iter().zip(quadrants))
                .map(|(&(split, _), quadrants)| SettingOutcomes {
                    split,
                    cells: quadrants.cells().map(|n| n as u64),
                })
                .collect(),
        }
    }

    /// For each setting `(f, b)`: the quadrant counts of the live dealer hands that give its
    /// relation cells ([`Quadrants`]), read from a [`CutGrid`].
    fn quadrants(
        &self,
        live_counts: &[u64],
        settings: &[(usize, [u16; 2])],
    ) -> Vec<Quadrants<i64>> {
        let points: Vec<[u16; 2]> = settings.iter().map(|&(_, point)| point).collect();
        let mut grid = CutGrid::new(points.clone(), &self.index);
        for (&[back, front], &n) in self.points.iter().zip(live_counts) {
            grid.add(Point { back, front }, n);
        }
        let quadrants = grid.quadrants();
        let sorted = grid.settings();
        (points.iter())
            .map(|&[f, b]| {
                let at = sorted.binary_search_by_key(&(b, f), |&[f, b]| (b, f));
                quadrants[at.expect("every setting is in the grid")]
            })
            .collect()
    }

    /// The rules the prices are settled by.
    pub fn wager(&self) -> &MainWager {
        &self.wager
    }
}

/// For each value `0..values`, the number of `cuts` (ascending) at or below it, times `scale`.
fn cuts_at_or_below(cuts: &[u16], values: usize, scale: u32) -> impl Iterator<Item = u32> + '_ {
    let mut below = 0;
    (0..values).map(move |v| {
        while below < cuts.len() && usize::from(cuts[below]) <= v {
            below += 1;
        }
        below as u32 * scale
    })
}

/// A dealer's point: the (back, front) value indices of a live setting, or past both axes for a
/// dealer who does not qualify (front `F`) or overqualifies (front `F + 1`), `F` and `B` the
/// numbers of fronts and backs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    pub back: u16,
    pub front: u16,
}

impl Point {
    pub fn not_qualified(backs: u16, fronts: u16) -> Point {
        Point {
            back: backs,
            front: fronts,
        }
    }

    pub fn overqualified(backs: u16, fronts: u16) -> Point {
        Point {
            back: backs,
            front: fronts + 1,
        }
    }
}

/// Dealer hands counted in a small grid cut by a few settings: their fronts `f` and `f + 1` cut
/// the fronts into buckets and their backs `b` and `b + 1` the backs into segments, so every
/// dominance count a setting's relation cells need ([`Quadrants`]) is a 2-D prefix sum of the
/// grid; two cells past it count the dealers who do not qualify and who overqualify.
///
/// Invariant: a point's cell is `segment_base[back] + bucket[front]`, one lookup each (the
/// points of the two classes have back `B`, whose base is 0, and fronts `F`, `F + 1`, whose
/// buckets are the two cells past the grid). Counts add modulo 2^64, so that a count may go
/// below zero on the way to a total that does not.
pub struct CutGrid {
    /// The settings, as `[front, back]`, sorted by back then front, distinct.
    settings: Vec<[u16; 2]>,
    front_cuts: Vec<u16>,
    back_cuts: Vec<u16>,
    bucket: Vec<u32>,
    segment_base: Vec<u32>,
    cells: Vec<u64>,
}

impl CutGrid {
    /// An empty grid for `settings` (`[front, back]` value indices into `index`).
    pub fn new(mut settings: Vec<[u16; 2]>, index: &ValueIndex) -> CutGrid {
        settings.sort_unstable_by_key(|&[f, b]| (b, f));
        settings.dedup();
        let cuts = |axis: usize| -> Vec<u16> {
            let mut cuts: Vec<u16> = (settings.iter())
                .flat_map(|point| [point[axis], point[axis] + 1])
                .collect();
            cuts.sort_unstable();
            cuts.dedup();
            cuts
        };
        let (front_cuts, back_cuts) = (cuts(0), cuts(1));
        let buckets = front_cuts.len() + 1;
        let size = buckets * (back_cuts.len() + 1);
        let bucket = cuts_at_or_below(&front_cuts, index.fronts.len(), 1)
            .chain([size as u32, size as u32 + 1])
            .collect();
        let segment_base = cuts_at_or_below(&back_cuts, index.backs.len(), buckets as u32)
            .chain([0])
            .collect();
        CutGrid {
            settings,
            front_cuts,
            back_cuts,
            bucket,
            segment_base,
            cells: vec![0; size + 2],
        }
    }

    /// Adds `n` dealer hands at `point` (modulo 2^64).
    #[inline]
    pub fn add(&mut self, point: Point, n: u64) {
        let cell = (self.segment_base[usize::from(point.back)]
            + self.bucket[usize::from(point.front)]) as usize;
        self.cells[cell] = self.cells[cell].wrapping_add(n);
    }

    /// The settings, `[front, back]`, by back then front.
    pub fn settings(&self) -> &[[u16; 2]] {
        &self.settings
    }

    /// Every dealer hand counted.
    pub fn total(&self) -> u64 {
        self.cells.iter().fold(0, |a, &n| a.wrapping_add(n))
    }

    /// The dealer hands that do not qualify.
    pub fn not_qualified(&self) -> u64 {
        self.cells[self.cells.len() - 2]
    }

    /// The dealer hands that overqualify.
    pub fn overqualified(&self) -> u64 {
        self.cells[self.cells.len() - 1]
    }

    /// Each setting's quadrant counts, in the order of [`CutGrid::settings`].
    pub fn quadrants(&self) -> Vec<Quadrants<i64>> {
        let buckets = self.front_cuts.len() + 1;
        let mut grid = self.cells[..self.cells.len() - 2].to_vec();
        for i in 1..grid.len() {
            if i % buckets != 0 {
                grid[i] = grid[i].wrapping_add(grid[i - 1]);
            }
        }
        for i in buckets..grid.len() {
            grid[i] = grid[i].wrapping_add(grid[i - buckets]);
        }
        // Q(x, y): live hands with front below x and back below y, for a cut or past the last.
        let at = |cuts: &[u16], v: u16| cuts.binary_search(&v).unwrap_or(cuts.len());
        let q = |x: Option<u16>, y: Option<u16>| {
            let i = x.map_or(buckets - 1, |x| at(&self.front_cuts, x));
            let j = y.map_or(self.back_cuts.len(), |y| at(&self.back_cuts, y));
            grid[j * buckets + i] as i64
        };
        (self.settings.iter())
            .map(|&[f, b]| {
                let row = |y: Option<u16>| [q(Some(f), y), q(Some(f + 1), y), q(None, y)];
                Quadrants {
                    below: row(Some(b)),
                    through: row(Some(b + 1)),
                    all_backs: row(None),
                }
            })
            .collect()
    }
}
