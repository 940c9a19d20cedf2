//! The counts over one family of hands: every ordered pair (player hand, dealer hand) of hands
//! in the family, disjoint or not, by dealer class and, against a dealer who plays, by relation
//! cell ([`crate::game::settlement`]). The inclusion-exclusion of [`super::core`] adds these up
//! over the families of hands that contain a set of cards, and maps the cells through the game's
//! table.
//!
//! Method: a family is given as hand ids with their multiplicities. Each dealer hand is a point
//! (front index, back index) or a class; each player hand is a setting or, for the `exposed`
//! player, regions of points ([`super::codes`]). Every count is a signed sum of *quadrant
//! counts* `Q(f, b)`, the playing dealer points with front index `< f` and back index `< b`.
//! For a setting `(f, b)`, with `F`, `B` past the last indices, the four dominance queries
//! (strict and non-strict on each axis) `Q(f, b)`, `Q(f + 1, b)`, `Q(f, b + 1)`,
//! `Q(f + 1, b + 1)`, the margins `Q(F, b)`, `Q(F, b + 1)`, `Q(f, B)`, `Q(f + 1, B)` and the
//! playing points `Q(F, B)` give all nine cells ([`Quadrants::cells`]). A union of stairs is
//! `sum Q(f_i, b_i) - sum Q(f_i, b_{i+1})`, and the points at or above `(f, b)` are
//! `Q(F, B) - Q(f, B) - Q(F, b) + Q(f, b)`.
//!
//! Quadrant counts are answered offline: points and queries sorted by back index, a sweep
//! inserting the points into a Fenwick tree over the front indices (about a hundred of them) and
//! reading, for each query once every point below its back has been inserted, `Q(f, b)`,
//! `Q(f + 1, b)` (the same read plus the points at front `f`) and `Q(F, b)` (every point
//! inserted), each times the query's hands, into three consecutive sums. So a setting costs
//! three queries, at backs `b`, `b + 1` and `B`; queries at `B` are read once, after the sweep,
//! unsorted. Tiny families are counted pair by pair ([`family_sums_pairwise`]), which the tests
//! also use as the reference.
//!
//! Invariants: the sums are exact integers, independent of the order of the family.

use super::codes::{Codes, DealerPoint, Player, booked};
use super::fenwick::FrontCounts;
use crate::game::settlement::{CELLS, DealerClass, Quadrants};

/// Pair counts over one family of hands (each both a player and a dealer hand).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FamilySums {
    /// Hands in the family.
    pub hands: u64,
    /// Dealer hands of each class (indexed by [`DealerClass`]).
    pub dealers: [u64; DealerClass::COUNT],
    /// Pairs against a dealer who plays, by relation cell (an exposed player's at the cell its
    /// result is booked at, [`booked`]).
    pub cells: [i128; CELLS],
}

/// Below this many distinct hands a family is counted pair by pair.
const PAIRWISE_BELOW: usize = 12;

/// One quadrant query: reads `hands` times `Q(front, back)`, `Q(front + 1, back)` and
/// `Q(F, back)` into the sums `slot`, `slot + 1`, `slot + 2`.
#[derive(Clone, Copy, Debug)]
struct Query {
    back: u16,
    front: u16,
    slot: u8,
    hands: i64,
}

/// The sums the queries read into, three per kind of query.
mod slot {
    /// A setting's queries at its back `b`, at `b + 1` and on every back.
    pub const BELOW: u8 = 0;
    pub const THROUGH: u8 = 3;
    pub const ALL_BACKS: u8 = 6;
    /// The exposed player's: its stairs, and the corners and margins of its loss and clean
    /// loss regions.
    pub const STAIRS: u8 = 9;
    pub const LOSS: u8 = 12;
    pub const LOSS_ALL_BACKS: u8 = 15;
    pub const CLEAN: u8 = 18;
    pub const CLEAN_ALL_BACKS: u8 = 21;
    /// The number of sums.
    pub const COUNT: usize = 24;
}

/// Reusable buffers of the sweep.
#[derive(Default)]
pub struct Sweep {
    /// Playing dealer points: (back, front, hands).
    points: Vec<(u16, u16, u64)>,
    queries: Vec<Query>,
    /// Queries on every back, read after the sweep.
    on_all_backs: Vec<Query>,
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
    sweep.queries.clear();
    sweep.on_all_backs.clear();
    for &(id, hands) in family {
        player_queries(codes, id, hands as i64, sweep);
    }
    let read = sweep_quadrants(codes, sweep);
    sums.cells = cells_of(&read);
    sums
}

/// The relation cells of the sums read: a setting's from its nine quadrant counts, an exposed
/// player's from its regions.
fn cells_of(q: &[i128; slot::COUNT]) -> [i128; CELLS] {
    let s = |k: u8| q[usize::from(k)];
    let three = |k: u8| [s(k), s(k + 1), s(k + 2)];
    // The settings': each sum is over the family's settings, times their hands.
    let mut cells = Quadrants {
        below: three(slot::BELOW),
        through: three(slot::THROUGH),
        all_backs: three(slot::ALL_BACKS),
    }
    .cells();
    // The exposed player: points at or above a corner, `Q(F, B) - Q(f, B) - Q(F, b) + Q(f, b)`.
    let at_or_above =
        |corner: u8, margin: u8| s(margin + 2) - s(margin) - s(corner + 2) + s(corner);
    let win = s(slot::STAIRS);
    let loss = at_or_above(slot::LOSS, slot::LOSS_ALL_BACKS);
    let clean = at_or_above(slot::CLEAN, slot::CLEAN_ALL_BACKS);
    cells[booked::WIN] += win;
    cells[booked::LOSS] += clean;
    cells[booked::COPY_LOSS] += loss - clean;
    cells[booked::PUSH] += s(slot::LOSS_ALL_BACKS + 2) - win - loss;
    cells
}

/// Hands and dealer classes of a family; its playing dealer points go to `points`.
fn dealer_sums(
    codes: &Codes,
    family: &[(u32, u64)],
    points: &mut Vec<(u16, u16, u64)>,
) -> FamilySums {
    let mut sums = FamilySums::default();
    points.clear();
    for &(id, hands) in family {
        sums.hands += hands;
        let class = match codes.dealer(id) {
            DealerPoint::NotQualified => DealerClass::NotQualified,
            DealerPoint::Overqualified => DealerClass::Overqualified,
            DealerPoint::Live { front, back } => {
                points.push((back, front, hands));
                DealerClass::Plays
            }
        };
        sums.dealers[class as usize] += hands;
    }
    sums
}

/// The quadrant queries of `hands` player hands of id `id`.
fn player_queries(codes: &Codes, id: u32, hands: i64, sweep: &mut Sweep) {
    let all_backs = codes.backs;
    let mut query = |[front, back]: [u16; 2], slot: u8, hands: i64| {
        let q = Query {
            back,
            front,
            slot,
            hands,
        };
        match back == all_backs {
            true => sweep.on_all_backs.push(q),
            false => sweep.queries.push(q),
        }
    };
    match codes.player(id) {
        Player::Absent => {}
        Player::Set([f, b]) => {
            query([f, b], slot::BELOW, hands);
            query([f, b + 1], slot::THROUGH, hands);
            query([f, all_backs], slot::ALL_BACKS, hands);
        }
        Player::Exposed(regions) => {
            let stairs = regions.stairs;
            for (i, &[f, b]) in stairs.iter().enumerate() {
                query([f, b], slot::STAIRS, hands);
                if let Some(&[_, next_back]) = stairs.get(i + 1) {
                    query([f, next_back], slot::STAIRS, -hands);
                }
            }
            let [lf, lb] = regions.loss;
            query([lf, lb], slot::LOSS, hands);
            query([lf, all_backs], slot::LOSS_ALL_BACKS, hands);
            let [cf, cb] = regions.clean;
            query([cf, cb], slot::CLEAN, hands);
            query([cf, all_backs], slot::CLEAN_ALL_BACKS, hands);
        }
    }
}

/// Every query's hands times its three quadrant counts, summed by slot.
fn sweep_quadrants(codes: &Codes, sweep: &mut Sweep) -> [i128; slot::COUNT] {
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
    let mut read = [0i128; slot::COUNT];
    let mut next = 0;
    for q in queries.iter() {
        while next < points.len() && points[next].0 < q.back {
            fenwick.add(points[next].1, points[next].2);
            next += 1;
        }
        read_query(&mut read, q, fenwick);
    }
    for p in &points[next..] {
        fenwick.add(p.1, p.2);
    }
    for q in on_all_backs.iter() {
        read_query(&mut read, q, fenwick);
    }
    read
}

/// Adds a query's three quadrant counts, times its hands, into its slots.
#[inline]
fn read_query(read: &mut [i128; slot::COUNT], q: &Query, fenwick: &FrontCounts) {
    let below = fenwick.below(q.front);
    let through = below + fenwick.at(q.front);
    let hands = i128::from(q.hands);
    let slot = usize::from(q.slot);
    read[slot] += hands * i128::from(below);
    read[slot + 1] += hands * i128::from(through);
    read[slot + 2] += hands * i128::from(fenwick.total());
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

/// [`family_sums`] pair by pair: each player id against each dealer id.
pub fn family_sums_pairwise(codes: &Codes, family: &[(u32, u64)]) -> FamilySums {
    let mut sums = FamilySums::default();
    let mut points = Vec::new();
    for &(dealer, d) in family {
        sums.hands += d;
        let class = match codes.dealer(dealer) {
            DealerPoint::NotQualified => DealerClass::NotQualified,
            DealerPoint::Overqualified => DealerClass::Overqualified,
            DealerPoint::Live { front, back } => {
                points.push((front, back, d));
                DealerClass::Plays
            }
        };
        sums.dealers[class as usize] += d;
    }
    for &(player, p) in family {
        let hand = codes.player(player);
        if hand == Player::Absent {
            continue;
        }
        for &(front, back, d) in &points {
            sums.cells[hand.cell_against(front, back)] += i128::from(p) * i128::from(d);
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
