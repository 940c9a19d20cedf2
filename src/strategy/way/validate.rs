//! One validation for every command that loads a house way (`set`, `simulate`, `compare`,
//! `check-way`, `diff-ways` all load through [`super::HouseWay::from_toml`]): what no hand can
//! meet is an error at load time, found statically, naming the file, the line and the rule.
//!
//! Errors:
//! - a `when` that no 7-card hand of any deck meets, under any ranking: a condition outside its
//!   feature's values (`pairs = 4`, `trips = 3`, `jokers = 5`), conditions that contradict each
//!   other (`high_pair = { min = "J" }` with `pairs = 0`; a `low_pair` above the `high_pair`),
//!   an `any` member that cannot hold together with the rule's other conditions;
//! - an alternative no split of any hand can satisfy: a front above a pair (a 2-card front is
//!   only high card or a pair: `front = { min = "flush" }`), a pair asked of a front held to high
//!   card, a `second` card above the `top` card, a literal pair rank outside `top`/`second`, a
//!   pair group (`pair = "low_pair"`) that no hand meeting the rule's conditions holds;
//! - `only_if_better_than` on a rule's last alternative (there is nothing to compare with).
//!
//! Method: "no hand meets" is decided exactly, not by sampling. The features of a hand depend on
//! its shape only (`shapes`), so the set of every feature pair (with and without the jokers) any
//! hand can have is finite: it is built once per process from every shape of the 54-card deck
//! (which holds every 52- and 53-card hand), with `best_five` read under each ranking that can
//! change a category (bug joker with five aces above or equal to a royal flush, wild joker), and
//! a condition is met when some member of that set meets it. What depends on a game's deck or on
//! split values (a rule no hand of the 53-card deck reaches, an alternative no reached hand
//! satisfies) is the exact lint's business (`lint`).
//!
//! Building that set costs about 0.2 s of CPU, so a shipped way's text is not validated at load
//! (the answer depends on the text alone and is the same every time): the unit test
//! `every_shipped_way_validates` in `super` validates each one, and any other text, a shipped
//! way's edited copy included, is validated when it is loaded.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use rayon::prelude::*;

use super::apply::{cond_holds, when_holds};
use super::compile::{Alt, CompiledWay, Cond, PairSel, Rule, When, rule_error};
use super::features::{Feature, FeatureSet, HandFacts, NONE, longest_straight};
use super::shapes::{RankMultiset, every_rank_multiset};
use crate::cards::Deck;
use crate::eval::{Category, Evaluator, JokerRule, Ranking, Value};
use crate::files::ConfigError;

/// Checks every rule of `way` (read from `origin`); the first problem is the error.
pub fn validate(way: &CompiledWay, origin: &str) -> Result<(), ConfigError> {
    let universe = universe();
    for (index, rule) in way.rules.iter().enumerate() {
        let error = |line, message: String| rule_error(origin, line, index, &rule.name, &message);
        if let Some(problem) = when_problem(&rule.when, universe) {
            return Err(error(rule.lines.when, problem));
        }
        if let Some(problem) = alternatives_problem(rule, universe) {
            return Err(error(rule.lines.set, problem));
        }
    }
    Ok(())
}

/// Every feature pair some 7-card hand of some deck has, under some ranking (see the module
/// docs); built on first use.
pub fn universe() -> &'static [FeatureSet] {
    static UNIVERSE: OnceLock<Vec<FeatureSet>> = OnceLock::new();
    UNIVERSE.get_or_init(build_universe)
}

fn build_universe() -> Vec<FeatureSet> {
    let wild = Ranking {
        joker: JokerRule::Wild,
        ..Ranking::default()
    };
    let ((bug, wild), multisets) = rayon::join(
        || {
            rayon::join(
                || Evaluator::new(Ranking::default()),
                || Evaluator::new(wild),
            )
        },
        || every_rank_multiset(Deck::with_jokers(2).expect("two jokers")),
    );
    let seen = multisets
        .par_iter()
        .fold(Seen::default, |mut seen, multiset| {
            seen.extend(readings(multiset, &bug, &wild));
            seen
        })
        .reduce(Seen::default, |mut a, b| {
            a.extend(b);
            a
        });
    let mut out: Vec<FeatureSet> = seen.into_iter().collect();
    out.sort_by_key(|a| (a.with, a.without));
    out
}

/// A set of feature pairs, hashed by a fast multiply-rotate hash (the keys are not chosen by
/// anyone who could attack the table).
type Seen = HashSet<FeatureSet, BuildHasherDefault<FeatureHasher>>;

#[derive(Default)]
struct FeatureHasher(u64);

impl Hasher for FeatureHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            let mixed = self.0.rotate_left(5) ^ u64::from_le_bytes(word);
            self.0 = mixed.wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The feature pairs of every hand of one rank multiset, under every ranking that can change a
/// category. Its hands differ only in their flush suit (none, or one of `flush_suits`), which
/// changes only the flush facts and the best five: that is the best of the multiset's best
/// non-flush five (its plain hand's) and the best flush of the suit (under either joker rule a
/// joker in a flush stands for a rank the suit lacks). The rankings: the bug joker with five
/// aces above a royal flush; five aces equal to a royal flush (the best five of a hand holding
/// five aces is then a royal flush: nothing ranks above it); the wild joker (only the best five
/// can differ, and only with a joker).
fn readings(multiset: &RankMultiset, bug: &Evaluator, wild: &Evaluator) -> Vec<FeatureSet> {
    let hand = &multiset.plain;
    let plain = HandFacts::of(hand);
    let jokers = hand.iter().filter(|c| c.is_joker()).count() as u8;
    let mut plain_best = vec![bug.split_values(hand).best_five().category()];
    if jokers > 0 {
        plain_best.push(wild.split_values(hand).best_five().category());
    }
    let variants = std::iter::once((plain, None)).chain(
        (multiset.flush_suits.iter()).map(|&suit| (plain.with_flush_suit(suit), Some(suit))),
    );
    let mut out = Vec::new();
    for (facts, suit) in variants {
        for &best in &plain_best {
            let best = suit.map_or(best, |s| best.max(flush_category(s, jokers)));
            out.push(facts.features(best as u8));
        }
        let five_aces = out
            .last()
            .is_some_and(|f| f.get(Feature::FiveAces, true) == 1);
        if five_aces {
            out.push(facts.features(Category::RoyalFlush as u8));
        }
    }
    out
}

/// The category of the best flush a suit holding the ranks `suit` makes with `jokers` jokers.
fn flush_category(suit: u32, jokers: u8) -> Category {
    const BROADWAY: u32 = 0x1F00;
    if (suit & BROADWAY).count_ones() + jokers as u32 >= 5 {
        Category::RoyalFlush
    } else if longest_straight(suit, jokers) >= 5 {
        Category::StraightFlush
    } else {
        Category::Flush
    }
}

/// Why no hand meets `when`, if none does.
fn when_problem(when: &When, universe: &[FeatureSet]) -> Option<String> {
    if universe.iter().any(|f| when_holds(when, f)) {
        return None;
    }
    if let Some(problem) = single_condition_problem(&when.conds, universe) {
        return Some(problem);
    }
    if let Some(problem) = conflicting_pair(&when.conds, universe) {
        return Some(problem);
    }
    let conds_hold = |f: &FeatureSet| when.conds.iter().all(|c| cond_holds(c, f));
    for (i, member) in when.any.iter().enumerate() {
        if !universe
            .iter()
            .any(|f| conds_hold(f) && when_holds(member, f))
        {
            return Some(format!(
                "`any` alternative {} can never hold together with the rule's other conditions: \
                 no hand of any deck meets them",
                i + 1
            ));
        }
    }
    Some("no hand of any deck meets all of its conditions together".into())
}

/// A condition no hand meets on its own, with the values its feature does take.
fn single_condition_problem(conds: &[Cond], universe: &[FeatureSet]) -> Option<String> {
    let c = conds
        .iter()
        .find(|c| !universe.iter().any(|f| cond_holds(c, f)))?;
    let values = universe
        .iter()
        .map(|f| f.get(c.feature, c.with_joker))
        .filter(|&v| v != NONE);
    let (lo, hi) = values.fold((u8::MAX, 0), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let kind = c.feature.kind();
    Some(format!(
        "`{}` can never hold: in every deck {} is {} to {} ({})",
        c.label,
        c.feature.key(),
        kind.show(lo),
        kind.show(hi),
        c.feature.description()
    ))
}

/// Two conditions that no hand meets together.
fn conflicting_pair(conds: &[Cond], universe: &[FeatureSet]) -> Option<String> {
    for (i, a) in conds.iter().enumerate() {
        for b in &conds[i + 1..] {
            if !universe
                .iter()
                .any(|f| cond_holds(a, f) && cond_holds(b, f))
            {
                return Some(format!(
                    "contradictory conditions: `{}` and `{}` together: no hand of any deck \
                     meets both",
                    a.label, b.label
                ));
            }
        }
    }
    None
}

/// The highest value a 2-card front can have: a pair of aces.
fn best_front() -> u32 {
    Value::new(Category::OnePair, [15, 0, 0, 0, 0]).0
}

/// The lowest value of a pair.
fn lowest_pair() -> u32 {
    Value::new(Category::OnePair, [0; 5]).0
}

/// Why some alternative of `rule` can never be satisfied, or must not be where it is.
fn alternatives_problem(rule: &Rule, universe: &[FeatureSet]) -> Option<String> {
    let last = rule.alts.len() - 1;
    for (i, alt) in rule.alts.iter().enumerate() {
        let at = |problem: String| format!("alternative {}: {problem}", i + 1);
        if alt.only_if_better && i == last {
            return Some(at(
                "`only_if_better_than = \"next\"` on the last alternative: there \
                            is no next alternative to compare with"
                    .into(),
            ));
        }
        if let Some(problem) = front_problem(alt) {
            return Some(at(problem));
        }
        if let Some(problem) = pair_group_problem(alt, &rule.when, universe) {
            return Some(at(problem));
        }
    }
    None
}

/// Constraints on the front that no 2-card hand meets.
fn front_problem(alt: &Alt) -> Option<String> {
    let (lo, hi) = alt.front;
    if lo > best_front() {
        let category = Value(lo).category().name();
        return Some(format!(
            "front: a 2-card front is only high card or a pair, never {category} or better"
        ));
    }
    if alt.pair != PairSel::None && hi < lowest_pair() {
        return Some("front: `pair` asks for a pair but `max` holds the front to high card".into());
    }
    if alt.second.0 > alt.top.1 {
        return Some(
            "front: `second` (the lower card) is asked to be above `top` (the higher card)".into(),
        );
    }
    if let PairSel::Rank(r) = alt.pair {
        let within = |(lo, hi): (u8, u8)| lo <= r && r <= hi;
        if !within(alt.top) || !within(alt.second) {
            return Some(
                "front: the pair's rank is outside the `top` or `second` ranks asked for".into(),
            );
        }
    }
    None
}

/// A front pair group (`pair = "low_pair"`) that no hand meeting `when` holds.
fn pair_group_problem(alt: &Alt, when: &When, universe: &[FeatureSet]) -> Option<String> {
    let PairSel::Group(group) = alt.pair else {
        return None;
    };
    let holds_group = |f: &FeatureSet| f.get(group, true) != NONE;
    if universe
        .iter()
        .any(|f| when_holds(when, f) && holds_group(f))
    {
        return None;
    }
    let name = match group {
        Feature::TripsRank => "trips",
        Feature::QuadsRank => "quads",
        other => other.key(),
    };
    Some(format!(
        "front pair = \"{name}\": no hand meeting the rule's conditions has one ({})",
        group.description()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::strategy::way::shapes::every_shape;

    /// The universe the slow way: every shape of the 54-card deck, its features read from its
    /// cards under each of the three rankings.
    fn universe_from_every_shape() -> Vec<FeatureSet> {
        let rankings = [
            Ranking::default(),
            Ranking {
                five_aces: crate::eval::FiveAces::EqualRoyal,
                ..Ranking::default()
            },
            Ranking {
                joker: JokerRule::Wild,
                ..Ranking::default()
            },
        ];
        let evaluators: Vec<Evaluator> = rankings.into_iter().map(Evaluator::new).collect();
        let mut seen = HashSet::new();
        for shape in every_shape(Deck::with_jokers(2).unwrap()) {
            for ev in &evaluators {
                seen.insert(FeatureSet::of(&shape.hand, &ev.split_values(&shape.hand)));
            }
        }
        let mut out: Vec<FeatureSet> = seen.into_iter().collect();
        out.sort_by_key(|a| (a.with, a.without));
        out
    }

    #[test]
    fn the_universe_equals_reading_every_shape_from_its_cards() {
        assert_eq!(universe(), universe_from_every_shape().as_slice());
        assert_eq!(universe().len(), 31_837);
    }

    #[test]
    fn the_universe_holds_every_reading() {
        let u = universe();
        let has = |feature: Feature, with: bool, value: u8| {
            u.iter().any(|f| f.get(feature, with) == value)
        };
        assert!(has(Feature::Pairs, true, 3));
        assert!(!has(Feature::Pairs, true, 4));
        assert!(has(Feature::Trips, true, 2));
        assert!(!has(Feature::Trips, true, 3));
        assert!(has(Feature::Jokers, true, 2));
        assert!(!has(Feature::Jokers, true, 3));
        assert!(has(Feature::Jokers, false, 0) && !has(Feature::Jokers, false, 1));
        assert!(has(Feature::BestFive, true, Category::FiveOfAKind as u8));
        // No hand has a low pair above its high pair, or five aces with an ace single.
        assert!(!u.iter().any(|f| {
            let (hi, lo) = (
                f.get(Feature::HighPair, true),
                f.get(Feature::LowPair, true),
            );
            lo != NONE && lo >= hi
        }));
        assert!(
            !u.iter().any(
                |f| f.get(Feature::FiveAces, true) == 1 && f.get(Feature::AceSingle, true) == 1
            )
        );
    }
}
