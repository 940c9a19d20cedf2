//! The counts over one family of hands: every ordered pair (player hand, dealer hand) of hands
//! in the family, disjoint or not, by outcome class. The inclusion-exclusion of
//! [`super::core`] adds these up over the families of hands that contain a set of cards.
//!
//! Method: a family is given as hand ids with their multiplicities. Each dealer hand is a point
//! (front index, back index) or a class; each player hand is regions of points
//! ([`super::codes`]). A region is a signed sum of *quadrant counts* `Q(f, b)`, the live dealer
//! points with front index `< f` and back index `< b`: a union of stairs is `sum Q(f_i, b_i) -
//! sum Q(f_i, b_{i+1})`, and the points at or above `(f, b)` are `live - Q(f, B) - Q(F, b) + Q(f,
//! b)`. Quadrant counts are answered offline: points and queries sorted by back index, a sweep
//! inserting the points into a Fenwick tree over the front indices (about a hundred of them) and
//! reading a prefix sum for each query once every point below its back has been inserted.
//! Queries on all backs (`b = B`) are read once, after the sweep. Tiny families are counted
//! pair by pair ([`family_sums_pairwise`]), which the tests also use as the reference.
//!
//! Invariants: the sums are exact integers, independent of the order of the family.

use super::codes::{Codes, DealerPoint};
use super::fenwick::FrontCounts;
use crate::game::wager::Outcome;

/// Pair counts over one family of hands (each both a player and a dealer hand).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FamilySums {
    /// Hands in the family.
    pub hands: u64,
    /// Dealer hands that do not qualify.
    pub not_qualified: u64,
    /// Dealer hands that overqualify.
    pub overqualified: u64,
    /// Pairs the player wins.
    pub win: i128,
    /// Pairs the player loses (copies included).
    pub loss: i128,
    /// Pairs the player loses with no copy.
    pub clean_loss: i128,
}

/// Below this many distinct hands a family is counted pair by pair.
const PAIRWISE_BELOW: usize = 12;

/// One quadrant query: `weights` (win, loss, clean loss) times `Q(front, back)`.
#[derive(Clone, Copy, Debug)]
struct Query {
    back: u16,
    front: u16,
    weights: [i64; 3],
}

/// Reusable buffers of the sweep.
#[derive(Default)]
pub struct Sweep {
    /// Live dealer points: (back, front, hands).
    points: Vec<(u16, u16, u64)>,
    queries: Vec<Query>,
    /// Queries on every back, by front: summed weights.
    on_all_backs: Vec<[i64; 3]>,
    fenwick: FrontCounts,
    /// Room for sorting `points` and `queries` by back.
    sorted_points: Vec<(u16, u16, u64)>,
    sorted_queries: Vec<Query>,
}

/// The pair counts of a family: `(id, hands)` with distinct ids.
pub fn family_sums(codes: &Codes, family: &[(u32, u64)], sweep: &mut Sweep) -> FamilySums {
    if family.len() < PAIRWISE_BELOW {
        return family_sums_pairwise(codes, family);
    }
    let mut sums = dealer_sums(codes, family, &mut sweep.points);
    let live: u64 = sweep.points.iter().map(|p| p.2).sum();
    sweep.on_all_backs.clear();
    sweep
        .on_all_backs
        .resize(usize::from(codes.fronts) + 1, [0; 3]);
    sweep.queries.clear();
    for &(id, hands) in family {
        player_queries(codes, id, hands as i64, sweep);
    }
    let read = sweep_quadrants(codes, sweep);
    let base = i128::from(sums.hands) * i128::from(live);
    sums.win = read[0];
    sums.loss = base + read[1];
    sums.clean_loss = base + read[2];
    sums
}

/// Hands and dealer classes of a family; its live dealer points go to `points`.
fn dealer_sums(
    codes: &Codes,
    family: &[(u32, u64)],
    points: &mut Vec<(u16, u16, u64)>,
) -> FamilySums {
    let mut sums = FamilySums::default();
    points.clear();
    for &(id, hands) in family {
        sums.hands += hands;
        match codes.dealer(id) {
            DealerPoint::NotQualified => sums.not_qualified += hands,
            DealerPoint::Overqualified => sums.overqualified += hands,
            DealerPoint::Live { front, back } => points.push((back, front, hands)),
        }
    }
    sums
}

/// The quadrant queries of `hands` player hands of id `id`.
fn player_queries(codes: &Codes, id: u32, hands: i64, sweep: &mut Sweep) {
    let regions = codes.player(id);
    let all = [codes.fronts, codes.backs];
    let mut query = |[front, back]: [u16; 2], weights: [i64; 3]| {
        if back == all[1] {
            let w = &mut sweep.on_all_backs[usize::from(front)];
            (0..3).for_each(|k| w[k] += weights[k]);
        } else {
            sweep.queries.push(Query {
                back,
                front,
                weights,
            });
        }
    };
    let stairs = regions.stairs;
    for (i, &[f, b]) in stairs.iter().enumerate() {
        let also_loss = if [f, b] == regions.loss { hands } else { 0 };
        query([f, b], [hands, also_loss, 0]);
        if let Some(&[_, next_back]) = stairs.get(i + 1) {
            query([f, next_back], [-hands, 0, 0]);
        }
    }
    for (target, [f, b]) in [(1, regions.loss), (2, regions.clean)] {
        let mut w = [0; 3];
        w[target] = -hands;
        query([f, all[1]], w);
        query([all[0], b], w);
        let counted_with_a_stair = target == 1 && stairs.contains(&[f, b]);
        if !counted_with_a_stair {
            w[target] = hands;
            query([f, b], w);
        }
    }
}

/// Every query's weights times its quadrant count, summed: (win, loss, clean loss) less the
/// `live x hands` terms.
fn sweep_quadrants(codes: &Codes, sweep: &mut Sweep) -> [i128; 3] {
    let Sweep {
        points,
        queries,
        on_all_backs,
        fenwick,
        sorted_points,
        sorted_queries,
    } = sweep;
    sort_by_back(points, sorted_points, |p| p.0);
    sort_by_back(queries, sorted_queries, |q| q.back);
    fenwick.reset(usize::from(codes.fronts));
    let mut read = [0i128; 3];
    let mut next = 0;
    for q in queries.iter() {
        while next < points.len() && points[next].0 < q.back {
            fenwick.add(points[next].1, points[next].2);
            next += 1;
        }
        add_weighted(&mut read, q.weights, fenwick.below(q.front));
    }
    for p in &points[next..] {
        fenwick.add(p.1, p.2);
    }
    for (front, &weights) in on_all_backs.iter().enumerate() {
        if weights != [0; 3] {
            add_weighted(&mut read, weights, fenwick.below(front as u16));
        }
    }
    read
}

/// Sorts `items` by their back index, stably, through `sorted`: a short list by a comparison
/// sort; a list of at least a quarter as many items as back indices by one counting pass over
/// those indices (`O(items + backs)`); a list in between by a radix sort on the index's low
/// byte, then its high byte (`O(items + 256)` a pass). A comparison sort of every family's
/// queries was a fifth of `exact main`'s time.
fn sort_by_back<T: Copy>(items: &mut [T], sorted: &mut Vec<T>, back: impl Fn(&T) -> u16) {
    if items.len() < COUNTING_SORT_FROM {
        items.sort_by_key(back);
        return;
    }
    let backs = items.iter().map(&back).max().map_or(0, usize::from) + 1;
    if items.len() >= backs / 4 {
        counting_pass(items, sorted, backs, |item| usize::from(back(item)));
    } else {
        for shift in [0, 8] {
            counting_pass(items, sorted, 256, |item| {
                usize::from(back(item) >> shift) & 0xff
            });
        }
    }
}

/// Sorts `items` stably by `bucket` (below `buckets`), scattering a copy of them (in `sorted`)
/// back into place.
fn counting_pass<T: Copy>(
    items: &mut [T],
    sorted: &mut Vec<T>,
    buckets: usize,
    bucket: impl Fn(&T) -> usize,
) {
    let mut starts = vec![0u32; buckets + 1];
    for item in items.iter() {
        starts[bucket(item) + 1] += 1;
    }
    for b in 1..starts.len() {
        starts[b] += starts[b - 1];
    }
    sorted.clear();
    sorted.extend_from_slice(items);
    for item in sorted.iter() {
        let start = &mut starts[bucket(item)];
        items[*start as usize] = *item;
        *start += 1;
    }
}

/// The shortest list [`sort_by_back`] sorts by counting passes (a shorter one: by comparison).
const COUNTING_SORT_FROM: usize = 64;

#[inline]
fn add_weighted(read: &mut [i128; 3], weights: [i64; 3], count: u64) {
    for k in 0..3 {
        read[k] += i128::from(weights[k]) * i128::from(count);
    }
}

/// [`family_sums`] pair by pair: each player id against each dealer id.
pub fn family_sums_pairwise(codes: &Codes, family: &[(u32, u64)]) -> FamilySums {
    let mut sums = FamilySums::default();
    for &(dealer, d) in family {
        sums.hands += d;
        match codes.dealer(dealer) {
            DealerPoint::NotQualified => sums.not_qualified += d,
            DealerPoint::Overqualified => sums.overqualified += d,
            DealerPoint::Live { .. } => {}
        }
    }
    for &(player, p) in family {
        let regions = codes.player(player);
        for &(dealer, d) in family {
            let pairs = i128::from(p) * i128::from(d);
            match regions.against(codes.dealer(dealer)) {
                Outcome::Win => sums.win += pairs,
                Outcome::Loss => {
                    sums.loss += pairs;
                    sums.clean_loss += pairs;
                }
                Outcome::CopyLoss => sums.loss += pairs,
                _ => {}
            }
        }
    }
    sums
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::engine::exact_main::codes::PlayerHand;

    /// A small random grid of codes: dealer points of every kind, settings and exposed hands.
    pub(crate) fn random_codes(ids: usize, seed: u64) -> Codes {
        let mut state = seed;
        let mut next = move |n: u64| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 33) % n) as u16
        };
        let (fronts, backs) = (7, 9);
        let mut codes = Codes::new(fronts, backs);
        for _ in 0..ids {
            let dealer = match next(8) {
                0 => DealerPoint::NotQualified,
                1 => DealerPoint::Overqualified,
                _ => DealerPoint::Live {
                    front: next(7),
                    back: next(9),
                },
            };
            let player = if next(3) == 0 {
                let legal: Vec<[u16; 2]> = (0..1 + next(5)).map(|_| [next(7), next(9)]).collect();
                let on_loss = legal[usize::from(next(legal.len() as u64))];
                PlayerHand::Exposed { legal, on_loss }
            } else {
                PlayerHand::Set([next(7), next(9)])
            };
            codes.push(dealer, Some(&player));
        }
        codes
    }

    #[test]
    fn the_sweep_counts_what_pairs_count() {
        for seed in 0..40 {
            let codes = random_codes(60, seed);
            let family: Vec<(u32, u64)> = (0..60)
                .map(|id| (id, 1 + (id as u64 * 7 + seed) % 5))
                .collect();
            let mut sweep = Sweep::default();
            assert_eq!(
                family_sums(&codes, &family, &mut sweep),
                family_sums_pairwise(&codes, &family),
                "seed {seed}"
            );
        }
    }

    #[test]
    fn sorting_by_back_orders_as_a_stable_sort_does() {
        let mut sorted = Vec::new();
        for (len, backs) in [
            (0, 5),
            (3, 40),
            (63, 40),
            (64, 40),
            (1000, 7),
            (5000, 9000),
            (100, 9000),
            (300, 65000),
        ] {
            let items: Vec<(u16, u32)> = (0..len)
                .map(|i| (((i * 7919 + len) % backs) as u16, i as u32))
                .collect();
            let mut expected = items.clone();
            expected.sort_by_key(|item| item.0);
            let mut got = items;
            sort_by_back(&mut got, &mut sorted, |item| item.0);
            assert_eq!(got, expected, "{len} items below back {backs}");
        }
    }
}
