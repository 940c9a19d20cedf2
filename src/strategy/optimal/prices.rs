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
//! Sharing. A dealer shape's factor at a rank the player does not hold is the same for every
//! player hand that does not hold it (`C(4, k)`; in a flush count `C(3, k)` out of the flush suit
//! and `C(3, k - 1)` in it). So the player multisets are taken by the set of ranks they hold;
//! for each set, every dealer shape is seen through it once: its *view* (its digits on those
//! ranks and its jokers) and the product of its other ranks' factors. A player shape's count of
//! a dealer shape is then its count of the view (computed once a view, a few thousand of them)
//! times that product: one multiply and one cell a dealer shape in the pass over them, which
//! is the cost of the table (292,253 player shapes x 292,253 dealer shapes for the standard
//! deck). A multiset's flush shapes take their hands from the multiset's own cell as the pass
//! meets them, so a flush shape costs one cell, not two.
//!
//! Invariants: counts are exact integers; a shape's dealer hands add up to its hands times
//! `C(n - 7, 7)`; the result equals the sum of [`HandPricer::hand_exact`] over the shape's hands
//! (the tests check every hand of a reduced deck).

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use rayon::prelude::*;

use super::grid::ValueIndex;
use super::hand::outcome_counts;
use super::pricer::{CutGrid, HandPricer, LIVE, Multiset, NOT_QUALIFIED, OVERQUALIFIED, Point};
use crate::cards::{Card, Cards, RANKS};
use crate::combin::BINOMIAL;
use crate::eval::Evaluator;
use crate::eval::split::SplitValues;
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

/// A rank's digit in a dealer shape: `2k + f` for `k` cards of the rank (0 for none), `f` 1 when
/// the shape's flush suit holds the rank. Four bits a rank.
const DIGITS: usize = 10;

/// The digit of `k` cards of a rank, `in_flush` whether the flush suit holds it.
const fn digit(k: usize, in_flush: bool) -> usize {
    2 * k + in_flush as usize
}

/// `C(n, k)` by digit: the factor of a rank the player does not hold, which is the same for every
/// player hand that does not hold it: `C(4, k)` for a plain shape (any suits), and for a flush
/// shape `C(3, k)` out of the flush suit, `C(3, k - 1)` in it.
fn unheld_factors(flush: bool) -> [u64; DIGITS] {
    std::array::from_fn(|d| {
        let (k, in_flush) = ((d / 2) as i32, d % 2 == 1);
        match (flush, in_flush) {
            (false, false) => binomial(4, k),
            (false, true) => 0,
            (true, false) => binomial(3, k),
            (true, true) => binomial(3, k - 1),
        }
    })
}

/// Every dealer shape as the counting pass reads it: the plain shapes', then the flush shapes',
/// in the pricer's order (a multiset's flush shapes together, in the order of their multisets).
struct DealerShapes {
    plain: Vec<Digits>,
    flush: Vec<Digits>,
    plain_points: Vec<Point>,
    flush_points: Vec<Point>,
    /// By plain shape: where its multiset's flush shapes end in `flush`.
    flush_end: Vec<u32>,
}

/// A dealer shape's ranks, by digit (four bits a rank), and its jokers.
#[derive(Clone, Copy)]
struct Digits {
    digits: u64,
    jokers: u8,
}

impl Digits {
    fn of(m: &Multiset, mask: u16) -> Digits {
        Digits {
            digits: (0..m.len as usize).fold(0, |a, i| {
                let r = m.ranks[i];
                let d = digit(m.counts[i] as usize, mask >> r & 1 == 1);
                a | (d as u64) << (4 * r)
            }),
            jokers: m.jokers,
        }
    }
}

impl DealerShapes {
    fn of(pricer: &HandPricer) -> DealerShapes {
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
        let flush = &pricer.flush;
        DealerShapes {
            plain: pricer.plain.iter().map(|(m, _)| Digits::of(m, 0)).collect(),
            flush: (flush.iter())
                .map(|e| Digits::of(&pricer.plain[e.plain as usize].0, e.mask))
                .collect(),
            plain_points: pricer.plain.iter().map(|&(_, code)| point(code)).collect(),
            flush_points: flush.iter().map(|e| point(e.code)).collect(),
            flush_end: (0..pricer.plain.len() as u32)
                .map(|i| flush.partition_point(|e| e.plain <= i) as u32)
                .collect(),
        }
    }
}

/// Dealer shapes seen through a set of player ranks (`held`): a shape's count against any
/// player hand of exactly those ranks is (a factor of its digits on them and its jokers, its
/// *view*, which depends on the player's hand) x (a factor of its other ranks, the same for every
/// such hand). So the views are priced once for each player context, not once a shape.
struct Seen {
    /// The distinct views: the digits on the held ranks (four bits each, in rank order), then
    /// the jokers.
    views: Vec<u64>,
    /// By dealer shape: its view's position in `views`, and the factor of its other ranks.
    shapes: Vec<(u32, u32)>,
}

impl Seen {
    fn of(shapes: &[Digits], held: &[u8], unheld: &[u64; DIGITS]) -> Seen {
        let held_mask = held.iter().fold(0u64, |a, &r| a | 15 << (4 * r));
        let mut ids: HashMap<u64, u32, BuildHasherDefault<ViewHasher>> = HashMap::default();
        let mut views: Vec<u64> = Vec::new();
        let view_of: Vec<u32> = (shapes.iter())
            .map(|s| {
                let view = Seen::view(s, held);
                *ids.entry(view).or_insert_with(|| {
                    views.push(view);
                    views.len() as u32 - 1
                })
            })
            .collect();
        let shapes = (shapes.iter().zip(view_of))
            .map(|(s, v)| (v, Seen::unheld_factor(s.digits & !held_mask, unheld)))
            .collect();
        Seen { views, shapes }
    }

    fn view(shape: &Digits, held: &[u8]) -> u64 {
        let jokers = u64::from(shape.jokers) << (4 * held.len());
        (held.iter().enumerate()).fold(jokers, |a, (i, &r)| {
            a | (shape.digits >> (4 * r) & 15) << (4 * i)
        })
    }

    fn unheld_factor(mut digits: u64, unheld: &[u64; DIGITS]) -> u32 {
        let mut factor = 1;
        while digits != 0 {
            let at = digits.trailing_zeros() / 4 * 4;
            factor *= unheld[(digits >> at & 15) as usize];
            digits &= !(15 << at);
        }
        factor as u32
    }
}

/// What pricing a deck's shapes needs beside its [`HandPricer`] ([`HandPricer::setup`]).
pub struct PricingSetup {
    shapes: Shapes,
    dealer: DealerShapes,
    /// Each multiset's flush shapes, by the multiset's id.
    flush_of: Vec<Vec<(u32, u16)>>,
}

impl PricingSetup {
    /// The deck's shapes.
    pub fn shapes(&self) -> &Shapes {
        &self.shapes
    }
}

/// Each multiset's flush shapes (id and the flush suit's ranks), by the multiset's id.
fn flush_shapes_by_multiset(shapes: &Shapes) -> Vec<Vec<(u32, u16)>> {
    let mut flush_of: Vec<Vec<(u32, u16)>> = vec![Vec::new(); PLAIN_SLOTS];
    for id in PLAIN_SLOTS..shapes.ids() {
        if let Some(shape) = shapes.flush_shape(id) {
            flush_of[shape.plain as usize].push((id as u32, shape.mask));
        }
    }
    flush_of
}

/// A hasher for views (one `u64` each, distinct keys of a few bits a rank): a multiply and a
/// fold of the high bits down, so that both the table's index (low bits) and tag (high bits) vary.
#[derive(Default)]
struct ViewHasher(u64);

impl Hasher for ViewHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        let mixed = (self.0 ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = mixed ^ mixed >> 29;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// How a context's hands hold one rank in the suit it counts: `held` ways with a card of the rank
/// in that suit, `free` ways without.
#[derive(Clone, Copy, Default)]
struct Spread {
    held: u64,
    free: u64,
}

/// One sum over (player hand, suit) pairs, as factors of a view: by held rank (in rank order)
/// and digit, and by the dealer's jokers, times `weight`.
struct Context {
    factors: Vec<[u64; DIGITS]>,
    jokers: [u64; 3],
    weight: u64,
}

impl Context {
    /// Every dealer hand of a multiset, suits aside: `C(4 - p_r, k)` a rank.
    fn plain(player: &Player) -> Context {
        Context {
            factors: (player.held.iter())
                .map(|&r| std::array::from_fn(|d| player.plain_factor(r, d)))
                .collect(),
            jokers: player.dealer_jokers,
            weight: 1,
        }
    }

    /// The dealer's hands with a flush in the suit counted: a rank in that suit (which the
    /// player's hands hold `held` ways, `free` ways not) taken `C(3 - p_r, k - 1)` ways (only
    /// when free), a rank out of it `C(4 - p_r, k)` ways when the player holds its card of the
    /// suit and `C(3 - p_r, k)` when not.
    fn flush(player: &Player, spreads: &[Spread; 13], weight: u64) -> Context {
        Context {
            factors: (player.held.iter())
                .map(|&r| {
                    let Spread { held, free } = spreads[r as usize];
                    let p = i32::from(player.counts[r as usize]);
                    std::array::from_fn(|d| {
                        let k = (d / 2) as i32;
                        match d % 2 {
                            0 => held * binomial(4 - p, k) + free * binomial(3 - p, k),
                            _ => free * binomial(3 - p, k - 1),
                        }
                    })
                })
                .collect(),
            jokers: player.dealer_jokers,
            weight,
        }
    }

    /// Adds (or, `negate`, takes away) the context's count of each view into `into`.
    fn add_into(&self, views: &[u64], into: &mut [u64], negate: bool) {
        let held = self.factors.len();
        for (&view, out) in views.iter().zip(into.iter_mut()) {
            let start = self.weight * self.jokers[(view >> (4 * held)) as usize];
            let n = (self.factors.iter().enumerate())
                .fold(start, |a, (i, f)| a * f[(view >> (4 * i) & 15) as usize]);
            *out = match negate {
                false => out.wrapping_add(n),
                true => out.wrapping_sub(n),
            };
        }
    }

    fn counts(&self, views: &[u64]) -> Vec<u64> {
        let mut out = vec![0; views.len()];
        self.add_into(views, &mut out, false);
        out
    }
}

/// A player's rank multiset: its counts, its ranks, and the dealer's joker choices it leaves.
struct Player {
    counts: [u8; 13],
    held: Vec<u8>,
    dealer_jokers: [u64; 3],
    /// Choices of the player's jokers from the deck's.
    joker_ways: u64,
}

impl Player {
    fn of(hand: &[Card; 7], deck_jokers: u8) -> Player {
        let cards = Cards::from_cards(hand);
        let counts: [u8; 13] = std::array::from_fn(|r| cards.rank_counts()[r]);
        let jokers = cards.jokers() as u8;
        let (deck_jokers, held_jokers) = (i32::from(deck_jokers), i32::from(jokers));
        Player {
            counts,
            held: (0..RANKS).filter(|&r| counts[r as usize] > 0).collect(),
            dealer_jokers: std::array::from_fn(|k| binomial(deck_jokers - held_jokers, k as i32)),
            joker_ways: binomial(deck_jokers, held_jokers),
        }
    }

    fn held_mask(&self) -> u16 {
        self.held.iter().fold(0, |a, &r| a | 1 << r)
    }

    /// `C(4 - p_r, k)` for digit `2k` (a plain shape has no other digits).
    fn plain_factor(&self, r: u8, d: usize) -> u64 {
        match d % 2 {
            0 => binomial(4 - i32::from(self.counts[r as usize]), (d / 2) as i32),
            _ => 0,
        }
    }
}

impl HandPricer {
    /// What pricing this deck's shapes needs beside the pricer, made once (a fraction of a
    /// second): the deck's shapes, every dealer shape as the pass reads it, and each multiset's
    /// flush shapes.
    pub fn setup(&self) -> PricingSetup {
        let shapes = Shapes::new(self.deck);
        PricingSetup {
            dealer: DealerShapes::of(self),
            flush_of: flush_shapes_by_multiset(&shapes),
            shapes,
        }
    }

    /// Every shape of the deck priced: each legal setting's dealer hands by cell, summed over
    /// the shape's hands (parallel over the sets of ranks the multisets hold; `done` hears how
    /// many shapes each set finished).
    pub fn shape_prices(&self, ev: &Evaluator, done: &(dyn Fn(u64) + Sync)) -> Vec<ShapePrices> {
        let setup = self.setup();
        let shapes = &setup.shapes;
        let mut by_ranks: BTreeMap<u16, Vec<usize>> = BTreeMap::new();
        for id in shapes.dealt_ids().take_while(|&id| id < PLAIN_SLOTS) {
            let player = Player::of(&shapes.representative(id).expect("listed"), 0);
            by_ranks.entry(player.held_mask()).or_default().push(id);
        }
        let groups: Vec<(u16, Vec<usize>)> = by_ranks.into_iter().collect();
        let mut out: Vec<ShapePrices> = groups
            .par_iter()
            .flat_map_iter(|(mask, ids)| {
                let prices = self.held_prices(ev, &setup, *mask, ids);
                done(prices.len() as u64);
                prices
            })
            .collect();
        out.sort_unstable_by_key(|p| p.id);
        out
    }

    /// The prices of the shapes of `hand`'s rank multiset (its flush shapes and the one with no
    /// flush suit), as [`HandPricer::shape_prices`] gives them: milliseconds, given `setup`
    /// ([`HandPricer::setup`]).
    pub fn multiset_shape_prices(
        &self,
        ev: &Evaluator,
        setup: &PricingSetup,
        hand: &[Card; 7],
    ) -> Vec<ShapePrices> {
        let shapes = &setup.shapes;
        let id = match shapes.flush_shape(shapes.id_of(hand) as usize) {
            Some(flush) => flush.plain as usize,
            None => shapes.id_of(hand) as usize,
        };
        let mask = Player::of(hand, 0).held_mask();
        self.held_prices(ev, setup, mask, &[id])
    }

    /// The prices of multisets `ids`, which hold exactly the ranks `mask`.
    fn held_prices(
        &self,
        ev: &Evaluator,
        setup: &PricingSetup,
        mask: u16,
        ids: &[usize],
    ) -> Vec<ShapePrices> {
        let held: Vec<u8> = (0..RANKS).filter(|&r| mask >> r & 1 == 1).collect();
        let dealer = &setup.dealer;
        let seen = [
            Seen::of(&dealer.plain, &held, &unheld_factors(false)),
            Seen::of(&dealer.flush, &held, &unheld_factors(true)),
        ];
        (ids.iter())
            .flat_map(|&id| self.multiset_prices(ev, setup, &seen, id))
            .collect()
    }

    /// The prices of multiset `id`'s shapes: its flush shapes, then its plain shape (all its
    /// hands less the flush shapes').
    fn multiset_prices(
        &self,
        ev: &Evaluator,
        setup: &PricingSetup,
        [plain_seen, flush_seen]: &[Seen; 2],
        id: usize,
    ) -> Vec<ShapePrices> {
        let (shapes, dealer) = (&setup.shapes, &setup.dealer);
        let flush_shapes = &setup.flush_of[id];
        let hand = shapes.representative(id).expect("listed");
        let player = Player::of(&hand, self.deck.jokers());
        let counts = player.counts;
        let dealt = Context::plain(&player).counts(&plain_seen.views);
        let every_suit: [Spread; 13] = std::array::from_fn(|r| Spread {
            held: binomial(3, i32::from(counts[r]) - 1),
            free: binomial(3, i32::from(counts[r])),
        });
        let all_hands = player.joker_ways
            * (0..13)
                .map(|r| binomial(4, i32::from(counts[r])))
                .product::<u64>();
        let total = Context::flush(&player, &every_suit, 4 * player.joker_ways);
        let mut plain_flushes = total.counts(&flush_seen.views);
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
            let hands = player.joker_ways
                * 4
                * (0..13)
                    .map(|r| binomial(3, i32::from(outside[r])))
                    .product::<u64>();
            let mut flushes = Context::flush(&player, &in_suit, hands).counts(&flush_seen.views);
            Context::flush(&player, &other_suits, 12 * player.joker_ways).add_into(
                &flush_seen.views,
                &mut flushes,
                false,
            );
            for (all, &these) in plain_flushes.iter_mut().zip(&flushes) {
                *all = all.wrapping_sub(these);
            }
            let mut grid = self.grid(ev, shapes, flush_id as usize);
            let by_view = Counted {
                plain: dealt.iter().map(|&n| n * hands).collect(),
                flush: flushes,
            };
            by_view.count(dealer, plain_seen, flush_seen, &mut grid);
            plain_hands -= hands;
            out.push(self.prices(flush_id, hands, &grid));
        }
        let mut grid = self.grid(ev, shapes, id);
        let by_view = Counted {
            plain: dealt.iter().map(|&n| n * plain_hands).collect(),
            flush: plain_flushes,
        };
        by_view.count(dealer, plain_seen, flush_seen, &mut grid);
        out.push(self.prices(id as u32, plain_hands, &grid));
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

/// One player shape's dealer hands by view, summed over its hands: of each plain dealer shape's
/// view (every dealer hand of the multiset, suits aside), and of each flush dealer shape's view
/// (the hands whose flush suit holds exactly its ranks, moved from their multiset's point to
/// their own).
struct Counted {
    plain: Vec<u64>,
    flush: Vec<u64>,
}

impl Counted {
    /// Counts every dealer shape into `grid`: its view's count times the factor of its ranks
    /// the player does not hold; a multiset's flush shapes' hands are taken from its own.
    fn count(&self, dealer: &DealerShapes, plain: &Seen, flush: &Seen, grid: &mut CutGrid) {
        let mut f = 0;
        let multisets = (dealer.plain_points.iter())
            .zip(&plain.shapes)
            .zip(&dealer.flush_end);
        for ((&point, &(view, unheld)), &end) in multisets {
            let mut n = self.plain[view as usize] * u64::from(unheld);
            for (&flush_point, &(view, unheld)) in
                (dealer.flush_points[f..end as usize].iter()).zip(&flush.shapes[f..end as usize])
            {
                let moved = self.flush[view as usize].wrapping_mul(u64::from(unheld));
                grid.add(flush_point, moved);
                n = n.wrapping_sub(moved);
            }
            f = end as usize;
            grid.add(point, n);
        }
    }
}

/// The price table of a deck against a dealer's way: every shape's settings, by ascending id.
#[derive(Debug)]
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

    /// The prices of shape `id`, when the deck deals it.
    pub fn shape(&self, id: u32) -> Option<&ShapePrices> {
        let at = self.shapes.binary_search_by_key(&id, |p| p.id);
        at.ok().map(|i| &self.shapes[i])
    }

    /// The index in `prices.settings` of split `k` of a hand of that shape (`splits` its split
    /// values; `k` legal: every legal setting is in the table).
    pub fn setting_index(&self, prices: &ShapePrices, splits: &SplitValues, k: usize) -> usize {
        let [front, back] = self.index.split_point(splits, k);
        (prices.index_of(front, back)).expect("every legal setting is in the table")
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
                let setting = &prices.settings[self.setting_index(prices, &splits, k)];
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
        self.index_of(front, back).map(|i| &self.settings[i])
    }

    /// The index of the setting with these value indices.
    pub fn index_of(&self, front: u16, back: u16) -> Option<usize> {
        (self.settings)
            .binary_search_by_key(&(back, front), |s| (s.back, s.front))
            .ok()
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
