//! The words `derive-way` builds rules from, each piece once as house-way TOML and once in plain
//! English: hand classes (a `when` on the numbers of pairs, three and four of a kinds, and
//! whether some five cards make a straight or flush), a bound on one rank feature of the class
//! (`high_pair = { min = "7", max = "T" }`), and settings (lists of the alternatives the shipped
//! ways use, each ending with one that every hand satisfies).
//!
//! Invariants: a rule's TOML and its name are put together from the same pieces, so the name
//! says what the rule tests and how it sets; every condition reads a count, a flag or the rank of
//! a group (never a list of cards); every setting's last alternative is unconstrained, so a rule
//! never lets a hand fall through. The pieces are compiled by the language's own compiler
//! ([`Vocabulary::compiled`]), so the search applies exactly what the written file will say.

use crate::files::parse_toml;
use crate::strategy::way::compile::{Alt, When, compile};
use crate::strategy::way::features::{Feature, FeatureSet, NONE};
use crate::strategy::way::language::WayFile;

/// A hand class: the `when` of a rule before any bound.
#[derive(Clone, Debug)]
pub struct Class {
    /// The conditions as written inside `when = { ... }`.
    pub when: String,
    /// The class in words ("two pair").
    pub name: String,
    /// The rank features a rule of this class may bound.
    pub bounds: Vec<Feature>,
}

/// A bound on one rank feature: its value lies in `lo..=hi` (0 = deuce .. 12 = ace).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    pub feature: Feature,
    pub lo: u8,
    pub hi: u8,
}

/// One alternative of a rule's `set`.
#[derive(Clone, Debug)]
pub struct Alternative {
    /// The alternative as written inside `set = [ ... ]`.
    pub toml: String,
    /// What it does, in words.
    pub words: String,
    /// Whether every legal split satisfies it.
    pub unconstrained: bool,
}

/// A rule as the search holds it: a class (none: every hand), an optional bound, and its
/// alternatives (indices into [`Vocabulary::alternatives`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleSpec {
    pub class: Option<usize>,
    pub bound: Option<Bound>,
    pub alts: Vec<usize>,
}

/// Every piece the search may use.
#[derive(Clone, Debug)]
pub struct Vocabulary {
    pub classes: Vec<Class>,
    pub alternatives: Vec<Alternative>,
    /// The settings: lists of alternatives, the last unconstrained.
    pub sets: Vec<Vec<usize>>,
}

const RANKS: &[u8; 13] = b"23456789TJQKA";

/// A rank as the language writes it (`"T"`).
fn rank_toml(rank: u8) -> String {
    format!("\"{}\"", RANKS[rank as usize] as char)
}

/// A rank in the plural ("10s", "jacks").
fn rank_plural(rank: u8) -> String {
    match rank {
        0..=8 => format!("{}s", rank + 2),
        9 => "jacks".into(),
        10 => "queens".into(),
        11 => "kings".into(),
        _ => "aces".into(),
    }
}

/// One card of a rank, with its article ("a 9", "an 8", "an ace").
fn rank_single(rank: u8) -> String {
    match rank {
        6 => "an 8".into(),
        0..=8 => format!("a {}", rank + 2),
        9 => "a jack".into(),
        10 => "a queen".into(),
        11 => "a king".into(),
        _ => "an ace".into(),
    }
}

/// The categories a setting may keep behind: TOML name and words.
const BEHIND: [(&str, &str); 7] = [
    ("pair", "a pair"),
    ("two_pair", "two pair"),
    ("three_of_a_kind", "three of a kind"),
    ("straight", "a straight"),
    ("flush", "a flush"),
    ("full_house", "a full house"),
    ("four_of_a_kind", "four of a kind"),
];

/// The categories kept behind with a high card in front (`BEHIND` indices).
const BEHIND_WITH_TOP: [usize; 5] = [0, 1, 2, 3, 6];

/// The lowest front top card asked for with a category behind (10 to ace).
const TOPS: [u8; 5] = [8, 9, 10, 11, 12];

/// The pair groups a setting may put in front: TOML name and words.
const FRONT_PAIRS: [(&str, &str); 4] = [
    ("high_pair", "the high pair in front"),
    ("low_pair", "the low pair in front"),
    ("trips", "a pair from the three of a kind in front"),
    ("quads", "a pair from the four of a kind in front"),
];

/// The categories kept behind with the highest pair in front (`BEHIND` indices).
const BEHIND_WITH_PAIR: [usize; 4] = [1, 2, 3, 6];

impl Bound {
    /// Whether a hand with features `f` meets the bound (a feature the hand lacks does not).
    #[inline]
    pub fn holds(&self, f: &FeatureSet) -> bool {
        let v = f.get(self.feature, true);
        v != NONE && self.lo <= v && v <= self.hi
    }

    /// The condition as written in a `when`.
    pub fn toml(&self) -> String {
        let key = self.feature.key();
        let (lo, hi) = (rank_toml(self.lo), rank_toml(self.hi));
        match (self.lo, self.hi) {
            (a, b) if a == b => format!("{key} = {lo}"),
            (_, 12) => format!("{key} = {{ min = {lo} }}"),
            (0, _) => format!("{key} = {{ max = {hi} }}"),
            _ => format!("{key} = {{ min = {lo}, max = {hi} }}"),
        }
    }

    /// The bound in words ("high pair 7s to 10s", "highest single card a king or better").
    pub fn words(&self) -> String {
        let (noun, single) = match self.feature {
            Feature::HighPair => ("high pair", false),
            Feature::LowPair => ("low pair", false),
            Feature::TripsRank => ("three of a kind", false),
            Feature::QuadsRank => ("four of a kind", false),
            Feature::HighestSingle => ("highest single card", true),
            other => (other.key(), false),
        };
        let word = |r: u8| match single {
            true => rank_single(r),
            false => rank_plural(r),
        };
        let range = match (self.lo, self.hi) {
            (a, b) if a == b => word(a),
            (a, 12) => format!("{} or better", word(a)),
            (0, b) => format!("{} or lower", word(b)),
            (a, b) => format!("{} to {}", word(a), word(b)),
        };
        format!("{noun} {range}")
    }
}

impl Vocabulary {
    /// The classes, alternatives and settings the search uses for the standard deck and its
    /// variants (jokers group with the aces, as the language reads them).
    pub fn standard() -> Vocabulary {
        let classes = classes();
        let (alternatives, sets) = settings();
        Vocabulary {
            classes,
            alternatives,
            sets,
        }
    }

    /// Each class's `when` and each alternative compiled by the language's compiler.
    pub fn compiled(&self) -> (Vec<When>, Vec<Alt>) {
        let mut text = String::from("name = \"vocabulary\"\nsource = \"derive-way\"\n");
        for (i, class) in self.classes.iter().enumerate() {
            text += &format!(
                "[[rule]]\nname = \"class {i}\"\nwhen = {{ {} }}\nset = [ {{}} ]\n",
                class.when
            );
        }
        for (i, alt) in self.alternatives.iter().enumerate() {
            text += &format!(
                "[[rule]]\nname = \"alternative {i}\"\nset = [ {} ]\n",
                alt.toml
            );
        }
        text += "[[rule]]\nname = \"every hand\"\nset = [ {} ]\n";
        let file: WayFile = parse_toml(&text, "derive-way vocabulary").expect("valid TOML");
        let way = compile(&file, &text, "derive-way vocabulary").expect("a valid vocabulary");
        let mut rules = way.rules.into_iter();
        let whens = (rules.by_ref().take(self.classes.len()))
            .map(|r| r.when)
            .collect();
        let alts = (rules.take(self.alternatives.len()))
            .map(|mut r| r.alts.remove(0))
            .collect();
        (whens, alts)
    }

    /// A rule's `when` as written (empty for every hand).
    pub fn when_toml(&self, rule: &RuleSpec) -> String {
        let mut parts = Vec::new();
        if let Some(c) = rule.class {
            parts.push(self.classes[c].when.clone());
        }
        if let Some(b) = rule.bound {
            parts.push(b.toml());
        }
        parts.join(", ")
    }

    /// A rule's `set` as written.
    pub fn set_toml(&self, alts: &[usize]) -> String {
        let alts: Vec<&str> = (alts.iter())
            .map(|&a| self.alternatives[a].toml.as_str())
            .collect();
        format!("[ {} ]", alts.join(", "))
    }

    /// A rule in words: the hands it takes, then how it sets them.
    pub fn rule_name(&self, rule: &RuleSpec) -> String {
        let mut hands = match rule.class {
            Some(c) => self.classes[c].name.clone(),
            None => "every other hand".into(),
        };
        if let Some(b) = rule.bound {
            hands += &format!(", {}", b.words());
        }
        let setting: Vec<&str> = (rule.alts.iter())
            .map(|&a| self.alternatives[a].words.as_str())
            .collect();
        format!("{hands}: {}", setting.join(", else "))
    }
}

/// The hand classes: each signature of pairs, trips and quads, and the commoner ones also split
/// by whether some five cards make a straight or flush.
fn classes() -> Vec<Class> {
    use Feature::*;
    let base: [(&str, &str, &[Feature], bool); 11] = [
        (
            "pairs = 0, trips = 0, quads = 0, five_aces = false",
            "no pair",
            &[HighestSingle],
            true,
        ),
        (
            "pairs = 1, trips = 0, quads = 0, five_aces = false",
            "one pair",
            &[HighPair, HighestSingle],
            true,
        ),
        (
            "pairs = 2, trips = 0",
            "two pair",
            &[HighPair, LowPair, HighestSingle],
            true,
        ),
        (
            "pairs = 3",
            "three pair",
            &[HighPair, LowPair, HighestSingle],
            false,
        ),
        (
            "trips = 1, pairs = 0, quads = 0",
            "three of a kind",
            &[TripsRank, HighestSingle],
            true,
        ),
        (
            "trips = 1, pairs = { min = 1 }",
            "full house",
            &[TripsRank, HighPair],
            false,
        ),
        ("trips = 2", "two three of a kinds", &[TripsRank], false),
        (
            "quads = 1, pairs = 0, trips = 0",
            "four of a kind",
            &[QuadsRank, HighestSingle],
            false,
        ),
        (
            "quads = 1, pairs = 1",
            "four of a kind with a pair",
            &[QuadsRank],
            false,
        ),
        (
            "quads = 1, trips = 1",
            "four of a kind with three of a kind",
            &[QuadsRank],
            false,
        ),
        ("five_aces = true", "five aces", &[], false),
    ];
    let mut out = Vec::new();
    for (when, name, bounds, by_straight) in base {
        let class = |when: String, name: String| Class {
            when,
            name,
            bounds: bounds.to_vec(),
        };
        out.push(class(when.into(), name.into()));
        if by_straight {
            out.push(class(
                format!("{when}, straight_or_flush = true"),
                format!("{name} with a straight or flush"),
            ));
            out.push(class(
                format!("{when}, straight_or_flush = false"),
                format!("{name}, no straight or flush"),
            ));
        }
    }
    out
}

/// The alternatives and the settings made of them.
fn settings() -> (Vec<Alternative>, Vec<Vec<usize>>) {
    let mut alts = Vec::new();
    let mut add = |toml: String, words: String, unconstrained: bool| {
        alts.push(Alternative {
            toml,
            words,
            unconstrained,
        });
        alts.len() - 1
    };
    let max_front = add(
        "{ maximize = [\"front\"] }".into(),
        "the highest front".into(),
        true,
    );
    let max_back = add(
        "{ maximize = [\"back\"] }".into(),
        "the highest back".into(),
        true,
    );
    let behind: Vec<usize> = (BEHIND.iter())
        .map(|(c, words)| {
            add(
                format!("{{ back = {{ min = \"{c}\" }}, maximize = [\"front\"] }}"),
                format!("the highest front that leaves {words} or better behind"),
                false,
            )
        })
        .collect();
    let mut behind_with_top = Vec::new();
    for &c in &BEHIND_WITH_TOP {
        let (category, words) = BEHIND[c];
        for &top in &TOPS {
            let in_front = match top {
                12 => "an ace in front".to_string(),
                t => format!("{} or better in front", rank_single(t)),
            };
            behind_with_top.push(add(
                format!(
                    "{{ back = {{ min = \"{category}\" }}, front = {{ top = {{ min = {} }} }}, \
                     maximize = [\"front\"] }}",
                    rank_toml(top)
                ),
                format!("{words} or better behind with {in_front}"),
                false,
            ));
        }
    }
    let front_pairs: Vec<usize> = (FRONT_PAIRS.iter())
        .map(|(group, words)| {
            add(
                format!("{{ front = {{ pair = \"{group}\" }}, maximize = [\"back\"] }}"),
                words.to_string(),
                false,
            )
        })
        .collect();
    let best_pair = add(
        "{ front = { min = \"pair\" }, maximize = [\"front\"] }".into(),
        "the highest pair that plays in front".into(),
        false,
    );
    let behind_with_pair: Vec<usize> = (BEHIND_WITH_PAIR.iter())
        .map(|&c| {
            let (category, words) = BEHIND[c];
            add(
                format!(
                    "{{ back = {{ min = \"{category}\" }}, front = {{ min = \"pair\" }}, \
                     maximize = [\"front\"] }}"
                ),
                format!("the highest pair in front that leaves {words} or better behind"),
                false,
            )
        })
        .collect();
    let ace_front = add(
        "{ front = { max = \"high_card\", top = \"A\" }, back = { min = \"pair\" }, \
         maximize = [\"front\"] }"
            .into(),
        "an ace and the next highest card in front, a pair behind".into(),
        false,
    );
    let finals = [max_front, max_back];
    let mut sets: Vec<Vec<usize>> = finals.iter().map(|&f| vec![f]).collect();
    let primaries = (behind.iter().chain(&behind_with_top).chain(&front_pairs))
        .chain(&behind_with_pair)
        .chain([&best_pair, &ace_front]);
    for &p in primaries {
        sets.extend(finals.iter().map(|&f| vec![p, f]));
    }
    let seconds: Vec<usize> = (front_pairs[..3].iter().copied())
        .chain([best_pair, behind[0]])
        .collect();
    for &p in behind_with_top.iter().chain(&behind) {
        for &s in seconds.iter().filter(|&&s| s != p) {
            sets.extend(finals.iter().map(|&f| vec![p, s, f]));
        }
    }
    (alts, sets)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_compiles_and_every_setting_ends_unconstrained() {
        let vocab = Vocabulary::standard();
        let (whens, alts) = vocab.compiled();
        assert_eq!(whens.len(), vocab.classes.len());
        assert_eq!(alts.len(), vocab.alternatives.len());
        for (alt, spec) in alts.iter().zip(&vocab.alternatives) {
            assert_eq!(alt.is_unconstrained(), spec.unconstrained, "{}", spec.toml);
        }
        for set in &vocab.sets {
            assert!(vocab.alternatives[*set.last().unwrap()].unconstrained);
        }
    }

    #[test]
    fn a_bound_reads_as_written() {
        let bound = Bound {
            feature: Feature::HighPair,
            lo: 5,
            hi: 8,
        };
        assert_eq!(bound.toml(), "high_pair = { min = \"7\", max = \"T\" }");
        assert_eq!(bound.words(), "high pair 7s to 10s");
        let single = Bound {
            feature: Feature::HighestSingle,
            lo: 11,
            hi: 12,
        };
        assert_eq!(single.toml(), "highest_single = { min = \"K\" }");
        assert_eq!(single.words(), "highest single card a king or better");
    }
}
