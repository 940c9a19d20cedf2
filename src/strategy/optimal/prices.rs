//! The exact price of every setting of every hand shape against a dealer's way: for each shape
//! (rank multiset, and the flush suit's ranks when a suit can make a flush; [`crate::strategy::deck_shapes`]),
//! every legal setting's dealer hands by relation cell, summed over every hand of the shape and
//! every dealer hand of the cards that hand leaves.
//!
//! Why sums: hands of one shape differ in the suits of their cards outside the flush suit, and
//! those suits change how many flushes the dealer can still make, so two hands of one shape can
//! have (slightly) different prices. Every strategy that sets from its own seven cards sets every
//! hand of a shape alike (the exact engine checks it hand by hand), so its exact counts are these sums at its
//! settings, added over shapes.
//!
//! Method. For a player multiset `p` (with `p_r` cards of rank `r`), a dealer hand of multiset
//! `m` is dealt from the other cards in `prod C(4 - p_r, m_r)` ways (times the jokers'), whatever
//! the player's suits; only the dealer's flush hands depend on them. The dealer hands of `m`
//! whose suit `s` holds exactly the ranks `S` depend on the player's ranks in suit `s` alone,
//! rank by rank ([`super::pricer`]), so their sum over the hands of a shape and the suits is a
//! product over ranks of (the ways the player's cards of rank `r` include suit `s`) x (the
//! dealer's count then) + (the ways they do not) x (the count then):
//! - over every hand of multiset `p` (any suits) and the four suits: `C(3, p_r - 1)` and
//!   `C(3, p_r)` ways;
//! - over the hands whose flush suit `s*` holds exactly the ranks `T`: for `s = s*` the suit holds
//!   `T`, and for each of the three other suits `C(2, q_r - 1)` and `C(2, q_r)` ways, with `q_r`
//!   the player's cards of rank `r` outside `s*`.
//!
//! A multiset's hands with no flush suit are all its hands less its flush shapes' hands.
//!
//! Invariants: counts are exact integers; a shape's dealer hands add up to its hands times
//! `C(n - 7, 7)`; the result equals the sum of [`HandPricer::hand_exact`] over the shape's hands
//! (the tests check every hand of a reduced deck).

use std::sync::Arc;

use rayon::prelude::*;

use super::grid::ValueIndex;
use super::hand::outcome_counts;
use super::pricer::{CutGrid, HandPricer, LIVE, Multiset, NOT_QUALIFIED, OVERQUALIFIED, Point};
use crate::cards::{Card, Cards, RANKS};
use crate::combin::BINOMIAL;
use crate::eval::Evaluator;
use crate::game::settlement::CELLS;
use crate::game::wager::{MainWager, OutcomeCounts};
use crate::strategy::Strategy;
use crate::strategy::deck_shapes::{PLAIN_SLOTS, Shapes};

/// `C(n, k)`, 0 where `n` or `k` is negative (a rank the player holds every card of).
fn binomial(n: i32, k: i32) -> u64 {
    match (u64::try_from(n), u64::try_from(k)) {
        (Ok(n), Ok(k)) => crate::combin::choose(n, k),
        _ => 0,
    }
}

/// One legal setting of a shape (distinct by value) and its dealer hands by relation cell,
/// summed over the shape's hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SettingPrice {
    /// Front and back value indices ([`crate::strategy::optimal::grid::ValueIndex`]).
    pub front: u16,
    pub back: u16,
    pub cells: [u64; CELLS],
}

/// Every legal setting of one shape, summed over its hands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapePrices {
    pub id: u32,
    /// Hands of the shape.
    pub hands: u64,
    /// Dealer hands over all of them (hands x `C(n - 7, 7)`), by class.
    pub dealer_hands: u64,
    pub not_qualified: u64,
    pub overqualified: u64,
    /// Legal settings distinct by (front, back) value, by back then front.
    pub settings: Vec<SettingPrice>,
}

/// How a context's hands hold one rank in the suit it counts: `held` ways with a card of the rank
/// in that suit, `free` ways without.
#[derive(Clone, Copy, Default)]
struct Spread {
    held: u64,
    free: u64,
}

/// The dealer's factors for one player multiset (suits aside).
struct Removal {
    /// `C(4 - p_r, k)`.
    all: [[u64; 5]; 13],
    /// `C(3 - p_r, k - 1)`: rank in the dealer's flush suit, which the player does not hold.
    in_flush: [[u64; 5]; 13],
    /// `C(3 - p_r, k)`: rank outside the dealer's flush suit, which the player does not hold.
    free: [[u64; 5]; 13],
    /// `C(J - j, k)`.
    jokers: [u64; 3],
    /// The player's ranks.
    support: Vec<u8>,
}

impl Removal {
    fn of(counts: &[u8; 13], jokers: u8, deck_jokers: u8) -> Removal {
        let p = |r: usize| i32::from(counts[r]);
        Removal {
            all: std::array::from_fn(|r| std::array::from_fn(|k| binomial(4 - p(r), k as i32))),
            in_flush: std::array::from_fn(|r| {
                std::array::from_fn(|k| binomial(3 - p(r), k as i32 - 1))
            }),
            free: std::array::from_fn(|r| std::array::from_fn(|k| binomial(3 - p(r), k as i32))),
            jokers: std::array::from_fn(|k| {
                binomial(i32::from(deck_jokers) - i32::from(jokers), k as i32)
            }),
            support: (0..RANKS).filter(|&r| counts[r as usize] > 0).collect(),
        }
    }
}

/// One sum over (hand, suit) pairs: per rank, the factor of a dealer rank count in the flush
/// suit (`in_s`), out of it (`out_s`), and absent (`absent`), times `weight`.
struct Context {
    /// By rank and dealer count: the factor out of the flush suit, then in it.
    factor: [[[u64; 2]; 5]; 13],
    absent: [u64; 13],
    weight: u64,
    /// Ranks no flush suit of the dealer's may hold here (its count is then 0).
    excludes: u16,
    jokers: [u64; 3],
    support: Vec<u8>,
}

impl Context {
    fn new(removal: &Removal, spreads: &[Spread; 13], weight: u64) -> Context {
        Context {
            factor: std::array::from_fn(|r| {
                let Spread { held, free } = spreads[r];
                std::array::from_fn(|k| {
                    [
                        held * removal.all[r][k] + free * removal.free[r][k],
                        free * removal.in_flush[r][k],
                    ]
                })
            }),
            absent: std::array::from_fn(|r| spreads[r].held + spreads[r].free),
            weight,
            excludes: (0..13).fold(0, |a, r| {
                a | u16::from(spreads[r].free == 0 && spreads[r].held > 0) << r
            }),
            jokers: removal.jokers,
            support: removal.support.clone(),
        }
    }

    /// The factor of the player's ranks the dealer's multiset lacks, times the weight.
    fn base(&self, m: &Multiset) -> u64 {
        let dealer_ranks = (0..m.len as usize).fold(0u16, |a, i| a | 1 << m.ranks[i]);
        (self.support.iter())
            .filter(|&&r| dealer_ranks >> r & 1 == 0)
            .fold(self.weight * self.jokers[m.jokers as usize], |a, &r| {
                a * self.absent[r as usize]
            })
    }

    /// The dealer's hands of multiset `m` with suit `s` holding exactly the ranks `mask`, summed
    /// over the context's (hand, suit) pairs, given `base`.
    #[inline]
    fn flush(&self, base: u64, m: &Multiset, mask: u16) -> u64 {
        (0..m.len as usize).fold(base, |a, i| {
            let (r, k) = (m.ranks[i] as usize, m.counts[i] as usize);
            a * self.factor[r][k][usize::from(mask >> r & 1)]
        })
    }
}

/// Every dealer shape's point, inline: the plain shapes' and the flush shapes', in the pricer's
/// order, so that counting reads no table of codes.
struct DealerPoints {
    plain: Vec<Point>,
    flush: Vec<Point>,
}

impl DealerPoints {
    fn of(pricer: &HandPricer) -> DealerPoints {
        let (backs, fronts) = (
            pricer.index.backs.len() as u16,
            pricer.index.fronts.len() as u16,
        );
        let point = |code: u32| match code {
            NOT_QUALIFIED => Point::not_qualified(backs, fronts),
            OVERQUALIFIED => Point::overqualified(backs, fronts),
            live => {
                let [back, front] = pricer.points[(live - LIVE) as usize];
                Point { back, front }
            }
        };
        DealerPoints {
            plain: pricer.plain.iter().map(|&(_, code)| point(code)).collect(),
            flush: pricer.flush.iter().map(|e| point(e.code)).collect(),
        }
    }
}

impl HandPricer {
    /// Every shape of the deck priced: each legal setting's dealer hands by cell, summed over
    /// the shape's hands (parallel over rank multisets; `done` hears how many shapes each
    /// multiset finished).
    pub fn shape_prices(&self, ev: &Evaluator, done: &(dyn Fn(u64) + Sync)) -> Vec<ShapePrices> {
        let shapes = Shapes::new(self.deck);
        let dealer = DealerPoints::of(self);
        let mut flush_of: Vec<Vec<(u32, u16)>> = vec![Vec::new(); PLAIN_SLOTS];
        for id in PLAIN_SLOTS..shapes.ids() {
            if let Some(shape) = shapes.flush_shape(id) {
                flush_of[shape.plain as usize].push((id as u32, shape.mask));
            }
        }
        let plain_ids: Vec<usize> = (0..PLAIN_SLOTS)
            .filter(|&id| shapes.representative(id).is_some())
            .collect();
        let mut out: Vec<ShapePrices> = plain_ids
            .par_iter()
            .flat_map_iter(|&id| {
                let prices = self.multiset_prices(ev, &shapes, &dealer, id, &flush_of[id]);
                done(prices.len() as u64);
                prices
            })
            .collect();
        out.sort_unstable_by_key(|p| p.id);
        out
    }

    /// The prices of multiset `id`'s shapes: its flush shapes, then its plain shape (all its
    /// hands less the flush shapes', counted into its grid as they go).
    fn multiset_prices(
        &self,
        ev: &Evaluator,
        shapes: &Shapes,
        dealer: &DealerPoints,
        id: usize,
        flush_shapes: &[(u32, u16)],
    ) -> Vec<ShapePrices> {
        let hand = shapes.representative(id).expect("listed");
        let cards = Cards::from_cards(&hand);
        let counts: [u8; 13] = std::array::from_fn(|r| cards.rank_counts()[r]);
        let jokers = cards.jokers() as u8;
        let removal = Removal::of(&counts, jokers, self.deck.jokers());
        let player_jokers = binomial(i32::from(self.deck.jokers()), i32::from(jokers));
        let every_suit: [Spread; 13] = std::array::from_fn(|r| Spread {
            held: binomial(3, i32::from(counts[r]) - 1),
            free: binomial(3, i32::from(counts[r])),
        });
        let all_hands = player_jokers
            * (0..13)
                .map(|r| binomial(4, i32::from(counts[r])))
                .product::<u64>();
        let dealt = self.dealt(&removal);
        let mut plain = self.grid(ev, shapes, id);
        let total = [Context::new(&removal, &every_suit, 4 * player_jokers)];
        self.count(dealer, &dealt, all_hands, &total, &mut plain, None);
        let mut plain_hands = all_hands;
        let mut out = Vec::with_capacity(flush_shapes.len() + 1);
        for &(flush_id, mask) in flush_shapes {
            let outside: [u8; 13] = std::array::from_fn(|r| counts[r] - (mask >> r & 1) as u8);
            let in_suit: [Spread; 13] = std::array::from_fn(|r| Spread {
                held: u64::from(mask >> r & 1),
                free: 1 - u64::from(mask >> r & 1),
            });
            let other_suits: [Spread; 13] = std::array::from_fn(|r| Spread {
                held: binomial(2, i32::from(outside[r]) - 1),
                free: binomial(2, i32::from(outside[r])),
            });
            let hands = player_jokers
                * 4
                * (0..13)
                    .map(|r| binomial(3, i32::from(outside[r])))
                    .product::<u64>();
            let contexts = [
                Context::new(&removal, &in_suit, hands),
                Context::new(&removal, &other_suits, 12 * player_jokers),
            ];
            let mut grid = self.grid(ev, shapes, flush_id as usize);
            self.count(
                dealer,
                &dealt,
                hands,
                &contexts,
                &mut grid,
                Some(&mut plain),
            );
            plain_hands -= hands;
            out.push(self.prices(flush_id, hands, &grid));
        }
        out.push(self.prices(id as u32, plain_hands, &plain));
        out
    }

    /// The grid of shape `id`'s legal settings, distinct by value, empty.
    fn grid(&self, ev: &Evaluator, shapes: &Shapes, id: usize) -> CutGrid {
        let hand: [Card; 7] = shapes.representative(id).expect("listed");
        let splits = ev.split_values(&hand);
        let settings: Vec<[u16; 2]> = (splits.legal_splits())
            .map(|k| self.index.split_point(&splits, k))
            .collect();
        CutGrid::new(settings, &self.index)
    }

    /// Counts into `grid` the dealer hands of `hands` hands of one multiset (each dealt from
    /// the cards it leaves: `dealt` per plain shape, the flush shapes' dependence on the hands'
    /// suits the sum of `contexts`), and out of `less` the same.
    fn count(
        &self,
        dealer: &DealerPoints,
        dealt: &[u64],
        hands: u64,
        contexts: &[Context],
        grid: &mut CutGrid,
        mut less: Option<&mut CutGrid>,
    ) {
        for (&n, &point) in dealt.iter().zip(&dealer.plain) {
            grid.add(point, n * hands);
            if let Some(less) = less.as_deref_mut() {
                less.add(point, (n * hands).wrapping_neg());
            }
        }
        let mut bases = vec![0u64; contexts.len()];
        let mut last = u32::MAX;
        for (entry, &point) in self.flush.iter().zip(&dealer.flush) {
            let m = &self.plain[entry.plain as usize].0;
            if entry.plain != last {
                last = entry.plain;
                for (b, c) in bases.iter_mut().zip(contexts) {
                    *b = c.base(m);
                }
            }
            let n: u64 = (contexts.iter().zip(&bases))
                .filter(|(c, _)| entry.mask & c.excludes == 0)
                .map(|(c, &b)| c.flush(b, m, entry.mask))
                .sum();
            if n == 0 {
                continue;
            }
            let home = dealer.plain[entry.plain as usize];
            grid.add(point, n);
            grid.add(home, n.wrapping_neg());
            if let Some(less) = less.as_deref_mut() {
                less.add(point, n.wrapping_neg());
                less.add(home, n);
            }
        }
    }

    /// The dealer hands of each plain multiset dealt from the cards one hand of the player's
    /// multiset leaves (suits aside).
    fn dealt(&self, removal: &Removal) -> Vec<u64> {
        (self.plain.iter())
            .map(|(m, _)| {
                (0..m.len as usize).fold(removal.jokers[m.jokers as usize], |a, i| {
                    a * removal.all[m.ranks[i] as usize][m.counts[i] as usize]
                })
            })
            .collect()
    }

    /// A shape's prices from its counted grid.
    fn prices(&self, id: u32, hands: u64, grid: &CutGrid) -> ShapePrices {
        let dealer_hands = grid.total();
        let expected = hands * u64::from(BINOMIAL[self.deck.size() - 7][7]);
        assert_eq!(
            dealer_hands, expected,
            "shape {id}: the dealer hands add up"
        );
        ShapePrices {
            id,
            hands,
            dealer_hands,
            not_qualified: grid.not_qualified(),
            overqualified: grid.overqualified(),
            settings: (grid.settings().iter().zip(grid.quadrants()))
                .map(|(&[front, back], q)| SettingPrice {
                    front,
                    back,
                    cells: q.cells().map(|n| n as u64),
                })
                .collect(),
        }
    }
}

/// The price table of a deck against a dealer's way: every shape's settings, by ascending id.
pub struct PriceTable {
    pub index: Arc<ValueIndex>,
    pub shapes: Vec<ShapePrices>,
}

impl PriceTable {
    /// Every shape of `pricer`'s deck priced ([`HandPricer::shape_prices`]); `done` hears how
    /// many shapes each step finished.
    pub fn build(pricer: &HandPricer, ev: &Evaluator, done: &(dyn Fn(u64) + Sync)) -> PriceTable {
        PriceTable {
            index: pricer.index().clone(),
            shapes: pricer.shape_prices(ev, done),
        }
    }

    /// The players' net over every (player, dealer) pair, in bet units, when every shape is
    /// set at its best setting ([`ShapePrices::ranked`]): the optimum against the dealer's way.
    pub fn optimal_net(&self, wager: &MainWager) -> i128 {
        (self.shapes.par_iter()).map(|s| s.ranked(wager)[0].1).sum()
    }

    /// Every (player, dealer) pair the table counts.
    pub fn pairs(&self) -> u128 {
        self.shapes.iter().map(|s| u128::from(s.dealer_hands)).sum()
    }

    /// Every hand of the deck (the shapes' hands added up).
    pub fn hands(&self) -> u64 {
        self.shapes.iter().map(|s| s.hands).sum()
    }

    /// The exact outcome counts, over every (player hand, dealer hand) pair, of a player who
    /// sets by `way` (from its own seven cards): each shape at the way's setting of its
    /// representative (every legal setting is in the table).
    pub fn price_way(
        &self,
        ev: &Evaluator,
        shapes: &Shapes,
        way: &dyn Strategy,
        wager: &MainWager,
    ) -> OutcomeCounts {
        (self.shapes.par_iter())
            .map(|prices| {
                let hand = shapes.representative(prices.id as usize).expect("priced");
                let splits = ev.split_values(&hand);
                let k = way.choose(&hand, &splits, None);
                let [front, back] = self.index.split_point(&splits, k);
                let setting = prices.setting(front, back).expect("every legal setting");
                prices.outcomes(setting, wager)
            })
            .reduce(OutcomeCounts::default, |mut a, b| {
                a.add(&b);
                a
            })
    }
}

impl ShapePrices {
    /// The setting with these value indices.
    pub fn setting(&self, front: u16, back: u16) -> Option<&SettingPrice> {
        let at = (self.settings).binary_search_by_key(&(back, front), |s| (s.back, s.front));
        at.ok().map(|i| &self.settings[i])
    }

    /// The pairs of (hand of the shape, dealer hand) by outcome when every hand of the shape
    /// is set at `setting`, under `wager`'s table.
    pub fn outcomes(&self, setting: &SettingPrice, wager: &MainWager) -> OutcomeCounts {
        outcome_counts(
            &setting.cells,
            self.not_qualified,
            self.overqualified,
            wager,
        )
    }

    /// The player's total net over those pairs, in bet units.
    pub fn net_units(&self, setting: &SettingPrice, wager: &MainWager) -> i128 {
        self.outcomes(setting, wager).net_units(wager)
    }

    /// The settings by net, best first; ties go to the better back, then the better front.
    pub fn ranked(&self, wager: &MainWager) -> Vec<(&SettingPrice, i128)> {
        let mut ranked: Vec<(&SettingPrice, i128)> = (self.settings.iter())
            .map(|s| (s, self.net_units(s, wager)))
            .collect();
        ranked.sort_by(|(a, na), (b, nb)| {
            (nb.cmp(na))
                .then(b.back.cmp(&a.back))
                .then(b.front.cmp(&a.front))
        });
        ranked
    }
}
