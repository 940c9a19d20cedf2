//! The counting core: every ordered pair of disjoint 7-card hands of a deck, by outcome class,
//! by inclusion-exclusion over the cards the two hands share.
//!
//! For hands `P` and `D`, `[P and D are disjoint] = sum over T subset of (P cap D) of (-1)^|T|`.
//! Summed over all pairs, any count over disjoint pairs is `sum over card sets T (|T| <= 7) of
//! (-1)^|T|` times the same count over the pairs of hands that both contain `T` (disjoint or
//! not). Those hands form the *family* of `T`: its `C(n - |T|, 7 - |T|)` hands are enumerated
//! (seven cards as `T` plus the others in colex order, hand keys added card by card), grouped by
//! hand id, and counted by [`super::sweep`]. With [`Plan::SuitClasses`] only one set per class
//! of the deck's symmetries is counted, weighted by the class size ([`super::classes`]): valid
//! when hand ids, and so settings, are suit-blind and joker-blind, as shapes are.
//!
//! Checks built in: the same sum over `|family|^2` must equal the number of ordered disjoint
//! pairs `C(n, 7) C(n - 7, 7)`, and every class count must come out non-negative.
//!
//! Invariants: counts are exact integers (i128 while summing), so the result does not depend on
//! the number of threads or the order of the work; each phase (one `|T|`) is timed.

use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use rayon::prelude::*;

use super::classes::{self, Root};
use super::codes::Codes;
use super::sweep::{FamilySums, Sweep, family_sums};
use crate::cards::{Card, Cards};
use crate::combin::choose;
use crate::game::settlement::{CELLS, DealerClass, Settlement};
use crate::game::wager::Outcome;
use crate::strategy::deck_shapes::{ShapeKey, Shapes, SuitDeck};

/// How hands become ids: keys that add up card by card, then one id per 7-card key.
pub trait HandKeys: Sync {
    type Key: Copy + Send + Sync + Default;
    /// The key of one card.
    fn key(&self, card: Card) -> Self::Key;
    /// The key of two disjoint sets of cards together.
    fn plus(&self, a: Self::Key, b: Self::Key) -> Self::Key;
    /// The id of seven cards from their key.
    fn id(&self, key: Self::Key) -> u32;
    /// Ids run `0..ids()`.
    fn ids(&self) -> usize;
}

impl HandKeys for Shapes {
    type Key = ShapeKey;

    #[inline]
    fn key(&self, card: Card) -> ShapeKey {
        ShapeKey::of(card)
    }

    #[inline]
    fn plus(&self, a: ShapeKey, b: ShapeKey) -> ShapeKey {
        a.plus(b)
    }

    #[inline]
    fn id(&self, key: ShapeKey) -> u32 {
        Shapes::id(self, key)
    }

    fn ids(&self) -> usize {
        Shapes::ids(self)
    }
}

/// Which card sets `T` are counted.
#[derive(Clone, Copy, Debug)]
pub enum Plan {
    /// Every subset of the cards, each once (for settings that are not suit-blind).
    AllSubsets,
    /// One representative per class of the deck's symmetries, weighted by the class size.
    SuitClasses(SuitDeck),
}

/// Integer outcome counts over ordered (player, dealer) pairs of disjoint hands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PairCounts {
    /// Pairs by [`Outcome`] (indexed by [`Outcome::index`]).
    pub classes: [u64; Outcome::COUNT],
}

impl PairCounts {
    /// The pairs of one class.
    pub fn get(&self, class: Outcome) -> u64 {
        self.classes[class as usize]
    }

    /// Every pair counted.
    pub fn pairs(&self) -> u64 {
        self.classes.iter().sum()
    }
}

/// The time and size of one phase: the sets `T` of one size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Phase {
    pub shared: usize,
    /// Sets counted (class representatives with [`Plan::SuitClasses`]).
    pub sets: u64,
    /// Hands enumerated over all their families.
    pub hands: u64,
    pub seconds: f64,
}

/// The signed sums of the inclusion-exclusion.
#[derive(Clone, Copy, Debug, Default)]
struct Sums {
    pairs: i128,
    /// Pairs against a dealer of each class.
    by_class: [i128; DealerClass::COUNT],
    /// Pairs against a dealer who plays, by relation cell.
    cells: [i128; CELLS],
}

impl Sums {
    fn add(&mut self, family: &FamilySums, factor: i128) {
        let hands = i128::from(family.hands);
        self.pairs += factor * hands * hands;
        for (sum, &dealers) in self.by_class.iter_mut().zip(&family.dealers) {
            *sum += factor * hands * i128::from(dealers);
        }
        for (sum, &cell) in self.cells.iter_mut().zip(&family.cells) {
            *sum += factor * cell;
        }
    }

    fn merge(mut self, other: Sums) -> Sums {
        self.pairs += other.pairs;
        for (a, b) in self.by_class.iter_mut().zip(other.by_class) {
            *a += b;
        }
        for (a, b) in self.cells.iter_mut().zip(other.cells) {
            *a += b;
        }
        self
    }

    /// The outcome counts, through the game's table: a playing dealer's pairs by cell, every
    /// other class's pairs at its one outcome; checked against the number of disjoint pairs of
    /// an `n`-card deck.
    fn counts(&self, n: usize, table: &Settlement) -> Result<PairCounts, String> {
        let expected = i128::from(choose(n as u64, 7)) * i128::from(choose(n as u64 - 7, 7));
        if self.pairs != expected {
            return Err(format!(
                "internal check failed: the inclusion-exclusion counts {} pairs, the deck has {expected}",
                self.pairs
            ));
        }
        let plays = self.by_class[DealerClass::Plays as usize];
        if self.cells.iter().sum::<i128>() != plays {
            return Err(format!(
                "internal check failed: the relation cells count {} pairs against a dealer who plays, not {plays}",
                self.cells.iter().sum::<i128>()
            ));
        }
        let mut by_outcome = table.by_outcome(DealerClass::Plays, &self.cells);
        for class in DealerClass::ALL
            .into_iter()
            .filter(|&c| c != DealerClass::Plays)
        {
            let outcome = table.uniform(class).ok_or_else(|| {
                format!("internal check failed: the table's {class:?} row compares hands")
            })?;
            by_outcome[outcome.index()] += self.by_class[class as usize];
        }
        let mut counts = PairCounts::default();
        for (class, n) in Outcome::ALL.into_iter().zip(by_outcome) {
            counts.classes[class.index()] = u64::try_from(n)
                .map_err(|_| format!("internal check failed: {class:?} counts {n} pairs"))?;
        }
        Ok(counts)
    }
}

/// Hands of one family grouped by id: counts, and the ids touched.
struct Tally {
    counts: Vec<u32>,
    touched: Vec<u32>,
    family: Vec<(u32, u64)>,
    sweep: Sweep,
}

impl Tally {
    fn new(ids: usize) -> Tally {
        Tally {
            counts: vec![0; ids],
            touched: Vec::new(),
            family: Vec::new(),
            sweep: Sweep::default(),
        }
    }

    /// A tally from `spare` (all counts zero, as [`Tally::take_family`] leaves them), or a new
    /// one: a tally holds a count for every id, so zeroing one per task would cost more than
    /// counting a small family.
    fn spare(spare: &Mutex<Vec<Tally>>, ids: usize) -> Tally {
        let reused = spare.lock().unwrap_or_else(PoisonError::into_inner).pop();
        reused.unwrap_or_else(|| Tally::new(ids))
    }

    /// Returns this tally, its counts all zero, to `spare`.
    fn give_back(self, spare: &Mutex<Vec<Tally>>) {
        debug_assert!(
            self.touched.is_empty(),
            "a tally goes back with its counts taken"
        );
        spare
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(self);
    }

    #[inline]
    fn add(&mut self, id: u32) {
        let count = &mut self.counts[id as usize];
        if *count == 0 {
            self.touched.push(id);
        }
        *count += 1;
    }

    /// The family tallied so far (its ids in the order first met), and a fresh tally: the
    /// sweep counts a family in any order.
    fn take_family(&mut self) {
        self.family.clear();
        for &id in &self.touched {
            let count = std::mem::take(&mut self.counts[id as usize]);
            self.family.push((id, u64::from(count)));
        }
        self.touched.clear();
    }

    /// [`Tally::take_family`] with the ids ascending, as [`merge_families`] needs them.
    fn take_family_ascending(&mut self) {
        self.touched.sort_unstable();
        self.take_family();
    }
}

/// One family from two that may share ids (each with its ids ascending): the counts of each id
/// added up, ids ascending. Linear, so the parts of a family merge pairwise in parallel.
fn merge_families(a: Vec<(u32, u64)>, b: Vec<(u32, u64)>) -> Vec<(u32, u64)> {
    if a.is_empty() || b.is_empty() {
        return if a.is_empty() { b } else { a };
    }
    let mut family = Vec::with_capacity(a.len() + b.len());
    let (mut a, mut b) = (a.into_iter().peekable(), b.into_iter().peekable());
    while let (Some(&(x, m)), Some(&(y, n))) = (a.peek(), b.peek()) {
        match x.cmp(&y) {
            std::cmp::Ordering::Less => family.extend(a.next()),
            std::cmp::Ordering::Greater => family.extend(b.next()),
            std::cmp::Ordering::Equal => {
                family.push((x, m + n));
                a.next();
                b.next();
            }
        }
    }
    family.extend(a.chain(b));
    family
}

/// Calls `visit(id)` for every hand made of `base`'s cards and `k` of `rest`.
fn extend<K: HandKeys>(
    keys: &K,
    rest: &[K::Key],
    k: usize,
    base: K::Key,
    visit: &mut impl FnMut(u32),
) {
    match k {
        0 => visit(keys.id(base)),
        1 => rest
            .iter()
            .for_each(|&c| visit(keys.id(keys.plus(base, c)))),
        _ => {
            for i in 0..=rest.len() - k {
                extend(keys, &rest[i + 1..], k - 1, keys.plus(base, rest[i]), visit);
            }
        }
    }
}

/// The key of `set`, with the keys of the cards outside it in `rest` (a buffer reused from set
/// to set: there are millions of sets).
fn split_keys<K: HandKeys>(keys: &K, cards: &[Card], set: Cards, rest: &mut Vec<K::Key>) -> K::Key {
    rest.clear();
    rest.extend(
        (cards.iter())
            .filter(|&&c| !set.contains(c))
            .map(|&c| keys.key(c)),
    );
    set.iter()
        .fold(K::Key::default(), |k, c| keys.plus(k, keys.key(c)))
}

/// What a count needs: the deck's cards, how hands become ids, what ids mean, and the table
/// that settles them.
pub struct Counter<'a, K: HandKeys> {
    pub cards: &'a [Card],
    pub keys: &'a K,
    pub codes: &'a Codes,
    pub table: &'a Settlement,
    pub plan: Plan,
}

impl<K: HandKeys> Counter<'_, K> {
    /// The pair counts, and each phase's time; `progress(hands)` hears hands enumerated.
    pub fn count(
        &self,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<(PairCounts, Vec<Phase>), String> {
        let mut sums = Sums::default();
        let mut phases = Vec::new();
        for shared in 0..=7 {
            let started = Instant::now();
            let sets = self.sets(shared);
            let (phase_sums, counted) = if sets.len() < 64 {
                self.count_deep(shared, &sets, progress)
            } else {
                self.count_wide(shared, &sets, progress)
            };
            sums = sums.merge(phase_sums);
            phases.push(Phase {
                shared,
                sets: counted,
                hands: counted * choose((self.cards.len() - shared) as u64, 7 - shared as u64),
                seconds: started.elapsed().as_secs_f64(),
            });
        }
        Ok((sums.counts(self.cards.len(), self.table)?, phases))
    }

    /// The total of hands every phase enumerates (for a progress bar).
    pub fn hands_to_enumerate(&self) -> u64 {
        (0..=7)
            .map(|shared| {
                let per_set = choose((self.cards.len() - shared) as u64, 7 - shared as u64);
                let sets: u64 = self
                    .sets(shared)
                    .iter()
                    .map(|g| g.count(self, shared))
                    .sum();
                sets * per_set
            })
            .sum()
    }

    /// The parallel groups of the sets of one size.
    fn sets(&self, shared: usize) -> Vec<SetGroup> {
        match self.plan {
            Plan::AllSubsets => (0..self.cards.len().max(1))
                .map(SetGroup::LowestCard)
                .collect(),
            Plan::SuitClasses(deck) => classes::roots(deck, shared)
                .into_iter()
                .map(SetGroup::Classes)
                .collect(),
        }
    }

    /// Calls `visit(set, weight)` for each set of a group.
    fn for_each_set(&self, shared: usize, group: SetGroup, mut visit: impl FnMut(Cards, u64)) {
        match (group, self.plan) {
            (SetGroup::Classes(root), Plan::SuitClasses(deck)) => {
                classes::for_each_class(deck, shared, root, visit)
            }
            (SetGroup::LowestCard(lowest), _) => {
                let cards = self.cards;
                if shared == 0 {
                    if lowest == 0 {
                        visit(Cards::EMPTY, 1);
                    }
                    return;
                }
                if lowest + shared > cards.len() {
                    return;
                }
                let rest = cards.len() - lowest - 1;
                crate::combin::for_each_subset(rest, shared - 1, |p| {
                    let set = p
                        .iter()
                        .fold(cards[lowest].bit(), |b, &i| b | cards[lowest + 1 + i].bit());
                    visit(Cards(set), 1);
                });
            }
            _ => unreachable!("groups come from the plan"),
        }
    }

    /// Few sets, many hands each: each family is enumerated in parallel by its first other
    /// card, and swept while the next set's family is enumerated (the sweep is serial; a
    /// pipeline of two keeps at most two large families in memory at any thread count).
    fn count_deep(
        &self,
        shared: usize,
        groups: &[SetGroup],
        progress: &(dyn Fn(u64) + Sync),
    ) -> (Sums, u64) {
        let mut sets = Vec::new();
        for &group in groups {
            self.for_each_set(shared, group, |set, weight| sets.push((set, weight)));
        }
        let spare = Mutex::new(Vec::new());
        let mut sums = Sums::default();
        let mut to_sweep: Option<(Vec<(u32, u64)>, u64)> = None;
        for next in sets.iter().map(Some).chain([None]) {
            let (swept, enumerated) = rayon::join(
                || {
                    let (family, weight) = to_sweep.take()?;
                    Some((
                        family_sums(self.codes, &family, &mut Sweep::default()),
                        weight,
                    ))
                },
                || {
                    next.map(|&(set, weight)| {
                        (self.deep_family(shared, set, &spare, progress), weight)
                    })
                },
            );
            if let Some((family_sums, weight)) = swept {
                sums.add(&family_sums, sign(shared) * i128::from(weight));
            }
            to_sweep = enumerated;
        }
        (sums, sets.len() as u64)
    }

    /// The family of `set` (its ids ascending), enumerated in parallel by its first other
    /// card; `spare` lends the tasks their tallies.
    fn deep_family(
        &self,
        shared: usize,
        set: Cards,
        spare: &Mutex<Vec<Tally>>,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Vec<(u32, u64)> {
        let mut rest = Vec::new();
        let base = split_keys(self.keys, self.cards, set, &mut rest);
        let k = 7 - shared;
        if k == 0 {
            return vec![(self.keys.id(base), 1)];
        }
        (0..=rest.len() - k)
            .into_par_iter()
            .map(|i| {
                let mut tally = Tally::spare(spare, self.keys.ids());
                let first = self.keys.plus(base, rest[i]);
                extend(self.keys, &rest[i + 1..], k - 1, first, &mut |id| {
                    tally.add(id)
                });
                progress(choose((rest.len() - i - 1) as u64, k as u64 - 1));
                tally.take_family_ascending();
                let family = std::mem::take(&mut tally.family);
                tally.give_back(spare);
                family
            })
            .reduce(Vec::new, merge_families)
    }

    /// Many sets: the groups are counted in parallel, each family by one thread.
    fn count_wide(
        &self,
        shared: usize,
        groups: &[SetGroup],
        progress: &(dyn Fn(u64) + Sync),
    ) -> (Sums, u64) {
        let ids = self.keys.ids();
        let k = 7 - shared;
        let per_set = choose((self.cards.len() - shared) as u64, k as u64);
        groups
            .par_iter()
            .fold(
                || (Tally::new(ids), Vec::new(), Sums::default(), 0u64),
                |(mut tally, mut rest, mut sums, mut sets), &group| {
                    let mut in_group = 0;
                    self.for_each_set(shared, group, |set, weight| {
                        let base = split_keys(self.keys, self.cards, set, &mut rest);
                        extend(self.keys, &rest, k, base, &mut |id| tally.add(id));
                        tally.take_family();
                        let family = family_sums(self.codes, &tally.family, &mut tally.sweep);
                        sums.add(&family, sign(shared) * i128::from(weight));
                        in_group += 1;
                    });
                    progress(in_group * per_set);
                    sets += in_group;
                    (tally, rest, sums, sets)
                },
            )
            .map(|(_, _, sums, sets)| (sums, sets))
            .reduce(|| (Sums::default(), 0), |a, b| (a.0.merge(b.0), a.1 + b.1))
    }
}

/// A parallel group of sets of one size.
#[derive(Clone, Copy, Debug)]
enum SetGroup {
    /// All subsets whose lowest card is at this position ([`Plan::AllSubsets`]).
    LowestCard(usize),
    /// The classes under one root ([`Plan::SuitClasses`]).
    Classes(Root),
}

impl SetGroup {
    /// How many sets the group holds.
    fn count<K: HandKeys>(self, counter: &Counter<K>, shared: usize) -> u64 {
        let mut n = 0;
        counter.for_each_set(shared, self, |_, _| n += 1);
        n
    }
}

/// `(-1)^shared`.
fn sign(shared: usize) -> i128 {
    if shared.is_multiple_of(2) { 1 } else { -1 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::exact_main::sweep::tests::random_codes;
    use crate::game::settlement::DoubleCopy;

    /// Hands of a small deck by colex rank of their positions.
    struct ColexKeys {
        positions: [u8; 64],
        ids: usize,
    }

    impl ColexKeys {
        fn new(cards: &[Card]) -> ColexKeys {
            let mut positions = [u8::MAX; 64];
            for (p, c) in cards.iter().enumerate() {
                positions[c.index() as usize] = p as u8;
            }
            ColexKeys {
                positions,
                ids: choose(cards.len() as u64, 7) as usize,
            }
        }

        fn rank(&self, set: u64) -> u32 {
            let mut held: Vec<u64> = Cards(set)
                .iter()
                .map(|c| u64::from(self.positions[c.index() as usize]))
                .collect();
            held.sort_unstable();
            held.iter()
                .enumerate()
                .map(|(i, &p)| choose(p, i as u64 + 1) as u32)
                .sum()
        }
    }

    impl HandKeys for ColexKeys {
        type Key = u64;
        fn key(&self, card: Card) -> u64 {
            card.bit()
        }
        fn plus(&self, a: u64, b: u64) -> u64 {
            a | b
        }
        fn id(&self, key: u64) -> u32 {
            self.rank(key)
        }
        fn ids(&self) -> usize {
            self.ids
        }
    }

    /// Every ordered pair of disjoint hands, by class.
    fn brute_force(
        cards: &[Card],
        keys: &ColexKeys,
        codes: &Codes,
        table: &Settlement,
    ) -> PairCounts {
        let mut hands = Vec::new();
        crate::combin::for_each_subset(cards.len(), 7, |p| {
            hands.push(p.iter().fold(0u64, |b, &i| b | cards[i].bit()))
        });
        let mut counts = PairCounts::default();
        for &p in &hands {
            let player = codes.player(keys.rank(p));
            for &d in hands.iter().filter(|&&d| d & p == 0) {
                let outcome = player.against(codes.dealer(keys.rank(d)), table);
                counts.classes[outcome.index()] += 1;
            }
        }
        counts
    }

    #[test]
    fn random_settings_on_small_decks_count_as_brute_force_does() {
        let full = crate::cards::Deck::with_jokers(2).unwrap().cards();
        let tables = [DoubleCopy::Loss, DoubleCopy::Push].map(Settlement::new);
        for (size, seed) in [(14, 1), (15, 2), (16, 3), (17, 4)] {
            let cards: Vec<Card> = full.iter().copied().skip(40).take(size).collect();
            let keys = ColexKeys::new(&cards);
            let codes = random_codes(keys.ids, seed);
            let table = &tables[seed as usize % 2];
            let counter = Counter {
                cards: &cards,
                keys: &keys,
                codes: &codes,
                table,
                plan: Plan::AllSubsets,
            };
            let (counts, phases) = counter.count(&|_| {}).unwrap();
            let brute = brute_force(&cards, &keys, &codes, table);
            assert_eq!(counts, brute, "{size} cards");
            assert_eq!(phases.len(), 8);
            assert_eq!(phases[7].sets, keys.ids as u64);
        }
    }
}
