//! `compare`: house-way variants on common random numbers, on the run engine
//! ([`crate::engine::run`]): every variant plays the same deals.
//!
//! Each round deals fourteen cards off the shoe in one call, the dealer's seven first, then the
//! player's, exactly as `simulate` deals one player; so a variant's outcome counts here are the
//! counts `paigow simulate` makes for the same ways, seed, deals and chunk size. Each deal is
//! played by every *arm*: a compared way on one side. Four modes ([`Vary`]): the player's way
//! varies against a fixed dealer's way; the dealer's way varies against a fixed player's way;
//! each variant plays itself on both sides; or all three at once against a baseline way (what
//! a rule change costs the player alone, what it gains the house alone, and both). Within a deal
//! the cards are the same for every arm; only the settings differ; each way sets each hand at
//! most once a deal, whatever number of arms it plays in. The fast path is
//! `simulate`'s: both hands are located once in the shape caches when dealt (one slot serves
//! every cached way), each way's cache is held apart and read with no virtual call, ways that
//! play alike (the same [`Resolved::identity`]) share one cache, and a cached way settles with
//! no split search; only a way that must see the dealer (`exposed`) or a cache miss searches
//! the splits, once per deal. A deal's settings live in its round buffer, marked set by one
//! bit a way, so a deal clears two words rather than the room for every arm.
//!
//! Invariants:
//! - Tallies hold integers only: per arm the count of each outcome, per pair of arms on the same
//!   side the joint table (outcome under A x outcome under B), hands set differently and deals set
//!   differently; [`CompareTally::merge`] is addition (and, for examples, keeps the first `K` by
//!   deal index), so a run gives the same tally at any thread count.
//! - Every figure (EVs, the variance of a difference, the correlation) is derived once from
//!   those integers (in `report::stats`); a variant compared with itself has a difference of
//!   exactly 0 with SD exactly 0.
//! - "Set differently" compares settings by value (front value, back value): two splits with
//!   equal values are the same setting to every rule and every settlement.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::cards::deal::{ChunkRng, Shoe};
use crate::cards::{Card, Deck, sorted_hand};
use crate::engine::run::spec::RunSpec;
use crate::engine::run::{Job, Plan, Tally};
use crate::engine::simulate::{SimError, check_sides};
use crate::eval::split::{KnownSetting, SplitValues};
use crate::eval::{Evaluator, Value};
use crate::files::ConfigError;
use crate::game::GameRules;
use crate::game::settlement::DealerClass;
use crate::game::wager::{
    BET_UNITS, DealerHand, DealerSetting, MainWager, OUTCOMES, Outcome, OutcomeCounts, settle,
    settle_setting,
};
use crate::strategy::optimal::pricer::HandPricer;
use crate::strategy::resolve::{Resolved, share_caches};
use crate::strategy::shape::{ShapeSlot, ShapeTable};
use crate::strategy::{Strategy, set_dealer_known};

/// The most variants one comparison takes.
pub const MAX_VARIANTS: usize = 12;
/// The rule index recorded for a variant that is not a house way (e.g. `exposed`).
pub const NO_RULE: u16 = u16::MAX;

/// Which side the variants set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Vary {
    /// The player's way varies; the dealer's is fixed.
    Player,
    /// The dealer's way varies; the player's is fixed.
    Dealer,
    /// Each variant sets both hands.
    Both,
    /// The three at once, against a baseline way: each variant as the player's way against
    /// the baseline dealer, as the dealer's way against the baseline player, and on both sides.
    All,
}

impl Vary {
    /// The name used in specs and reports.
    pub fn name(self) -> &'static str {
        match self {
            Vary::Player => "player",
            Vary::Dealer => "dealer",
            Vary::Both => "both",
            Vary::All => "all",
        }
    }
}

impl std::str::FromStr for Vary {
    type Err = String;
    fn from_str(text: &str) -> Result<Vary, String> {
        match text {
            "player" => Ok(Vary::Player),
            "dealer" => Ok(Vary::Dealer),
            "both" => Ok(Vary::Both),
            "all" => Ok(Vary::All),
            other => Err(format!("'{other}': expected player, dealer, both or all")),
        }
    }
}

/// Which side one arm's way sets: the player's hand (against a fixed or baseline dealer), the
/// dealer's (against a fixed or baseline player), or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Player,
    Dealer,
    Both,
}

impl Side {
    /// The three sides, in report order.
    pub const ALL: [Side; 3] = [Side::Player, Side::Dealer, Side::Both];

    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Side::Player => "player",
            Side::Dealer => "dealer",
            Side::Both => "both",
        }
    }

    /// Hands the arm's way sets per deal (1, or 2 when it sets both).
    pub fn hands(self) -> u64 {
        if self == Side::Both { 2 } else { 1 }
    }

    /// Whether the house ranks ways on this side (it chooses the dealer's way) rather than the
    /// player (who chooses the player's).
    pub fn ranks_by_house_edge(self) -> bool {
        self != Side::Player
    }
}

/// One arm of a comparison: a compared way on one side, the dealer's and the player's way it
/// plays (indices of [`Comparison::way`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arm {
    /// The compared way (an index of the variants).
    pub variant: usize,
    pub side: Side,
    pub dealer: usize,
    pub player: usize,
}

/// Why a comparison cannot be configured.
#[derive(Debug, Error)]
pub enum CompareError {
    #[error("a comparison needs 2 to {MAX_VARIANTS} ways, got {0}")]
    Variants(usize),
    #[error(transparent)]
    Sides(#[from] SimError),
    #[error("comparing the {} ways needs a fixed way on the other side", .0.name())]
    NoFixedWay(Vary),
    #[error("comparing both sides takes no fixed way: each way plays both sides")]
    FixedWayWithBoth,
    #[error(
        "comparing the three sides needs a baseline way, one of the compared ways, and no fixed way"
    )]
    AllNeedsBaseline,
    #[error("the baseline way '{0}' is not one of the compared ways")]
    NoSuchBaseline(String),
    #[error(
        "examples are kept only when the player's way varies (the player's hand set differently)"
    )]
    ExamplesNeedPlayer,
    #[error(transparent)]
    Config(#[from] ConfigError),
}

/// The command name in run specs.
pub const COMMAND: &str = "compare";

/// The role of the compared ways in a spec, and of the fixed way on the other side.
const COMPARED: &str = "compared way";

/// The role of the fixed way when `vary` varies the other side.
fn fixed_role(vary: Vary) -> &'static str {
    match vary {
        Vary::Dealer => "player way",
        _ => "dealer way",
    }
}

/// What a comparison compares: which side varies, the fixed way (none when both vary), the
/// ways, and the examples to keep with the dealer hands each is priced over.
pub struct CompareSetup<'a> {
    pub vary: Vary,
    pub fixed: Option<&'a str>,
    pub ways: &'a [String],
    /// The way every other is compared with (one of `ways`), if any.
    pub baseline: Option<&'a str>,
    pub examples: usize,
}

/// The spec of a comparison on `game`.
pub fn spec(game: &GameRules, setup: &CompareSetup) -> Result<RunSpec, ConfigError> {
    let mut spec = RunSpec::new(COMMAND, game)
        .with_option("vary", setup.vary.name())
        .with_option("examples", setup.examples);
    if let Some(baseline) = setup.baseline {
        spec = spec.with_option("baseline", baseline);
    }
    if let Some(fixed) = setup.fixed {
        spec = spec.with_strategy(fixed_role(setup.vary), fixed)?;
    }
    for way in setup.ways {
        spec = spec.with_strategy(COMPARED, way)?;
    }
    Ok(spec)
}

/// Pairs of `n` variants: (0,1), (0,2), .., (1,2), ..
pub fn pair_count(n: usize) -> usize {
    n * n.saturating_sub(1) / 2
}

/// The pairs of `n` variants in report order.
pub fn pairs(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..n).flat_map(move |a| (a + 1..n).map(move |b| (a, b)))
}

/// The deals of one group of rules (the rule of each variant that set the player's hand).
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleGroup {
    pub hands: u64,
    /// Each variant's net over these deals, in bet units (the collection included).
    pub net: Vec<i64>,
    /// Each variant's sum over these deals of its net less the baseline's, squared.
    #[serde(with = "decimal_list")]
    pub gap_squares: Vec<u128>,
}

impl RuleGroup {
    fn add(&mut self, other: &RuleGroup) {
        self.hands += other.hands;
        let n = other.net.len().max(self.net.len());
        self.net.resize(n, 0);
        self.gap_squares.resize(n, 0);
        for (a, b) in self.net.iter_mut().zip(&other.net) {
            *a += b;
        }
        for (a, b) in self.gap_squares.iter_mut().zip(&other.gap_squares) {
            *a += b;
        }
    }
}

/// Serde of a list of `u128` sums as decimal strings.
mod decimal_list {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(values: &[u128], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(values.iter().map(u128::to_string))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u128>, D::Error> {
        (Vec::<String>::deserialize(d)?.iter())
            .map(|t| (t.parse()).map_err(|_| serde::de::Error::custom(format!("'{t}' is no sum"))))
            .collect()
    }
}

/// A hand that the variants set differently, as dealt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Example {
    /// The deal's index in the run (chunk x chunk size + round).
    pub deal: u64,
    pub dealer: [Card; 7],
    pub player: [Card; 7],
    /// The split each variant chose for the player.
    pub splits: Vec<u8>,
    /// The rule of each variant that set it ([`NO_RULE`] for a built-in).
    pub rules: Vec<u16>,
}

/// Integer results of some deals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompareTally {
    pub deals: u64,
    /// Per arm: hands by outcome.
    pub outcomes: Vec<OutcomeCounts>,
    /// Per pair of arms ([`Comparison::pairs`]): deals by (outcome under A, outcome under B).
    pub joint: Vec<[[u64; OUTCOMES]; OUTCOMES]>,
    /// Per pair: hands the compared ways set differently (both hands count when both sides
    /// vary; a fixed way's hand never counts, even one set anew against each dealer), so at most
    /// [`Side::hands`] a deal.
    pub set_differently: Vec<u64>,
    /// Deals where some two variants set a hand differently.
    pub any_set_differently: u64,
    /// Deals set differently, by the rules of each variant (vary player, with examples only).
    #[serde(with = "group_list")]
    pub rule_groups: BTreeMap<Vec<u16>, RuleGroup>,
    /// The first hands set differently, by deal index (at most `keep`).
    pub examples: Vec<Example>,
    /// How many examples a tally keeps.
    pub keep: usize,
}

impl CompareTally {
    /// An empty tally of `arms` arms and `pairs` pairs, keeping up to `keep` examples.
    pub fn new(arms: usize, pairs: usize, keep: usize) -> CompareTally {
        CompareTally {
            deals: 0,
            outcomes: vec![OutcomeCounts::default(); arms],
            joint: vec![[[0; OUTCOMES]; OUTCOMES]; pairs],
            set_differently: vec![0; pairs],
            any_set_differently: 0,
            rule_groups: BTreeMap::new(),
            examples: Vec::new(),
            keep,
        }
    }
}

impl Tally for CompareTally {
    fn merge(&mut self, other: &CompareTally) {
        self.deals += other.deals;
        for (a, b) in self.outcomes.iter_mut().zip(&other.outcomes) {
            a.add(b);
        }
        for (a, b) in self.joint.iter_mut().zip(&other.joint) {
            for (row, other_row) in a.iter_mut().zip(b) {
                add(row, other_row);
            }
        }
        add(&mut self.set_differently, &other.set_differently);
        self.any_set_differently += other.any_set_differently;
        for (key, group) in &other.rule_groups {
            self.rule_groups.entry(key.clone()).or_default().add(group);
        }
        self.examples.extend(other.examples.iter().cloned());
        self.examples.sort_by_key(|e| e.deal);
        self.examples.truncate(self.keep);
    }

    fn rounds(&self) -> u64 {
        self.deals
    }

    /// Every variant's outcomes and every pair's joint table add up to the deals.
    fn check(&self) -> Result<(), String> {
        if self.joint.len() != self.set_differently.len() {
            return Err(format!(
                "{} joint tables but {} pairs set differently",
                self.joint.len(),
                self.set_differently.len()
            ));
        }
        for (i, counts) in self.outcomes.iter().enumerate() {
            if counts.total() != Some(self.deals) {
                return Err(format!(
                    "arm {} has {:?} outcomes for {} deals",
                    i + 1,
                    counts.total(),
                    self.deals
                ));
            }
        }
        for (p, table) in self.joint.iter().enumerate() {
            let total = (table.iter().flatten()).try_fold(0u64, |a, &b| a.checked_add(b));
            if total != Some(self.deals) {
                return Err(format!(
                    "pair {} has {total:?} deals in its joint table, not {}",
                    p + 1,
                    self.deals
                ));
            }
        }
        if self.examples.len() > self.keep {
            return Err(format!(
                "{} examples kept of {}",
                self.examples.len(),
                self.keep
            ));
        }
        Ok(())
    }
}

fn add(a: &mut [u64], b: &[u64]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

/// Serde of the rule groups as a list of `[rules, group]` pairs (JSON maps need string keys).
mod group_list {
    use super::*;

    pub fn serialize<S: serde::Serializer>(
        groups: &BTreeMap<Vec<u16>, RuleGroup>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_seq(groups.iter())
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> Result<BTreeMap<Vec<u16>, RuleGroup>, D::Error> {
        let pairs = Vec::<(Vec<u16>, RuleGroup)>::deserialize(d)?;
        Ok(pairs.into_iter().collect())
    }
}

/// A validated comparison.
pub struct Comparison {
    pub game: GameRules,
    pub vary: Vary,
    /// The fixed side: the dealer's way (vary player) or the player's way (vary dealer).
    pub fixed: Option<Resolved>,
    pub variants: Vec<Resolved>,
    /// The variant every other is compared with, if one was named.
    pub baseline: Option<usize>,
    /// Hands set differently to keep as examples (vary player only), each priced exactly.
    pub examples: usize,
    /// What is played on each deal: each compared way on its side(s).
    pub arms: Vec<Arm>,
    /// The pairs of arms tallied jointly: every two arms of the same side.
    pub pairs: Vec<(usize, usize)>,
    ev: Evaluator,
    /// Each way's shape cache ([`Strategy::shape_table`]) by way index, held apart so that the
    /// hot loop reads it with no virtual call; ways that play alike share one.
    caches: Vec<Option<Arc<ShapeTable>>>,
    /// The distinct caches that set the dealer's hand, and the player's: what a deal prefetches.
    dealer_tables: Vec<Arc<ShapeTable>>,
    player_tables: Vec<Arc<ShapeTable>>,
    /// Whether each way (by way index) sees the dealer's setting ([`Strategy::needs_dealer`]).
    sees_dealer: Vec<bool>,
    /// The distinct ways that set the dealer's hand in some arm, and those that set the
    /// player's without seeing the dealer: each sets once a deal, before any arm is settled.
    dealer_ways: Vec<usize>,
    player_ways: Vec<usize>,
    /// How many times each loop of a deal runs, counted once when built.
    counts: LoopCounts,
}

/// How many times each loop of a deal runs (the lengths of [`Comparison::dealer_tables`],
/// `player_tables`, `dealer_ways`, `player_ways`, [`Comparison::arms`] and
/// [`Comparison::pairs`]). The usual comparison, two ways against one dealer's way, has
/// [`TWO_WAYS`], and a deal of it is dealt and played by code compiled for those counts
/// ([`Comparison::deal_with`], [`Comparison::play_with`]): no loops to keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LoopCounts {
    dealer_tables: usize,
    player_tables: usize,
    dealer_ways: usize,
    player_ways: usize,
    arms: usize,
    pairs: usize,
    /// Whether some arm's player's way sees the dealer's setting (a split search each deal).
    any_sees_dealer: bool,
}

/// The counts of `compare --ways A B --dealer-way D` (two ways with caches of their own).
const TWO_WAYS: LoopCounts = LoopCounts {
    dealer_tables: 1,
    player_tables: 2,
    dealer_ways: 1,
    player_ways: 2,
    arms: 2,
    pairs: 1,
    any_sees_dealer: false,
};

impl Comparison {
    /// Checks the parts fit together and lays out the arms.
    pub fn new(
        game: GameRules,
        vary: Vary,
        fixed: Option<Resolved>,
        variants: Vec<Resolved>,
        baseline: Option<usize>,
        examples: usize,
    ) -> Result<Comparison, CompareError> {
        let mut cmp = Comparison {
            ev: Evaluator::new(game.ranking),
            game,
            vary,
            fixed,
            variants,
            baseline,
            examples,
            arms: Vec::new(),
            pairs: Vec::new(),
            caches: Vec::new(),
            dealer_tables: Vec::new(),
            player_tables: Vec::new(),
            sees_dealer: Vec::new(),
            dealer_ways: Vec::new(),
            player_ways: Vec::new(),
            counts: TWO_WAYS, // counted below, once the lists are laid out
        };
        cmp.validate()?;
        cmp.arms = cmp.lay_out_arms();
        cmp.pairs = (pairs(cmp.arms.len()))
            .filter(|&(a, b)| cmp.arms[a].side == cmp.arms[b].side)
            .collect();
        for arm in &cmp.arms {
            check_sides(&cmp.game, cmp.way(arm.dealer), cmp.way(arm.player))?;
        }
        share_caches(cmp.variants.iter_mut().chain(&mut cmp.fixed).collect());
        cmp.caches = (0..cmp.way_count())
            .map(|w| cmp.way(w).shape_table().cloned())
            .collect();
        cmp.sees_dealer = (0..cmp.way_count())
            .map(|w| cmp.way(w).needs_dealer())
            .collect();
        cmp.dealer_ways = cmp.distinct_ways(|arm| Some(arm.dealer));
        cmp.player_ways =
            cmp.distinct_ways(|arm| (!cmp.sees_dealer[arm.player]).then_some(arm.player));
        cmp.dealer_tables = cmp.distinct_tables(&cmp.dealer_ways);
        cmp.player_tables = cmp.distinct_tables(&cmp.player_ways);
        cmp.counts = cmp.count_loops();
        Ok(cmp)
    }

    /// How many times each loop of a deal runs: the lengths of the lists it walks.
    fn count_loops(&self) -> LoopCounts {
        LoopCounts {
            dealer_tables: self.dealer_tables.len(),
            player_tables: self.player_tables.len(),
            dealer_ways: self.dealer_ways.len(),
            player_ways: self.player_ways.len(),
            arms: self.arms.len(),
            pairs: self.pairs.len(),
            any_sees_dealer: self.arms.iter().any(|arm| self.sees_dealer[arm.player]),
        }
    }

    /// The distinct ways that `side_way` picks from the arms, in the arms' order.
    fn distinct_ways(&self, side_way: impl Fn(&Arm) -> Option<usize>) -> Vec<usize> {
        let mut ways = Vec::new();
        for way in self.arms.iter().filter_map(side_way) {
            if !ways.contains(&way) {
                ways.push(way);
            }
        }
        ways
    }

    /// The compared ways and the fixed one, if any.
    fn way_count(&self) -> usize {
        self.variants.len() + usize::from(self.fixed.is_some())
    }

    /// The distinct caches of `ways` (a way that sees the dealer has none to read).
    fn distinct_tables(&self, ways: &[usize]) -> Vec<Arc<ShapeTable>> {
        let mut tables: Vec<Arc<ShapeTable>> = Vec::new();
        for table in ways.iter().filter_map(|&w| self.caches[w].as_ref()) {
            if !tables.iter().any(|t| Arc::ptr_eq(t, table)) {
                tables.push(Arc::clone(table));
            }
        }
        tables
    }

    /// The setting way `way`'s cache holds at `slot`, if any.
    #[inline(always)]
    fn known_at(&self, way: usize, slot: ShapeSlot) -> Option<KnownSetting> {
        self.caches[way].as_ref()?.known_at(slot)
    }

    /// The comparison a spec describes, rebuilt from its texts alone.
    pub fn from_spec(spec: &RunSpec) -> Result<Comparison, CompareError> {
        let game = spec.game()?;
        let vary: Vary = spec.parsed("vary")?;
        let mut fixed = spec.strategies(fixed_role(vary), &game)?;
        let variants = spec.strategies(COMPARED, &game)?;
        let examples = spec.parsed("examples")?;
        let fixed = (matches!(vary, Vary::Player | Vary::Dealer) && !fixed.is_empty())
            .then(|| fixed.remove(0));
        let baseline = match spec.options.get("baseline") {
            None => None,
            Some(name) => Some(
                (variants.iter().position(|v| &v.label == name))
                    .ok_or_else(|| CompareError::NoSuchBaseline(name.clone()))?,
            ),
        };
        Comparison::new(game, vary, fixed, variants, baseline, examples)
    }

    fn validate(&self) -> Result<(), CompareError> {
        let n = self.variants.len();
        if !(2..=MAX_VARIANTS).contains(&n) {
            return Err(CompareError::Variants(n));
        }
        if self.examples > 0 && self.vary != Vary::Player {
            return Err(CompareError::ExamplesNeedPlayer);
        }
        match (self.vary, &self.fixed, self.baseline) {
            (Vary::All, None, Some(b)) if b < n => Ok(()),
            (Vary::All, _, _) => Err(CompareError::AllNeedsBaseline),
            (Vary::Both, Some(_), _) => Err(CompareError::FixedWayWithBoth),
            (Vary::Both, None, _) => Ok(()),
            (vary, None, _) => Err(CompareError::NoFixedWay(vary)),
            (_, Some(_), _) => Ok(()),
        }
    }

    /// Strategy `index`: a compared way, or (index = the number of variants) the fixed way.
    pub fn way(&self, index: usize) -> &dyn Strategy {
        match self.variants.get(index) {
            Some(v) => &*v.strategy,
            None => &*self.fixed.as_ref().expect("a fixed way").strategy,
        }
    }

    /// The arms of the mode: each variant on the side(s) that vary.
    fn lay_out_arms(&self) -> Vec<Arm> {
        let n = self.variants.len();
        let arm = |variant, side| {
            let other = match self.vary {
                Vary::All => self.baseline.expect("validated"),
                _ => n,
            };
            let (dealer, player) = match side {
                Side::Player => (other, variant),
                Side::Dealer => (variant, other),
                Side::Both => (variant, variant),
            };
            Arm {
                variant,
                side,
                dealer,
                player,
            }
        };
        let sides: &[Side] = match self.vary {
            Vary::Player => &[Side::Player],
            Vary::Dealer => &[Side::Dealer],
            Vary::Both => &[Side::Both],
            Vary::All => &Side::ALL,
        };
        (sides.iter())
            .flat_map(|&side| (0..n).map(move |v| arm(v, side)))
            .collect()
    }

    /// The arm of `variant` on `side`, if the comparison plays it.
    pub fn arm_of(&self, variant: usize, side: Side) -> Option<usize> {
        (self.arms.iter()).position(|a| a.variant == variant && a.side == side)
    }

    /// The index in [`Comparison::pairs`] of the pair of arms `a` and `b` (either order).
    pub fn pair_of(&self, a: usize, b: usize) -> Option<usize> {
        let key = (a.min(b), a.max(b));
        self.pairs.iter().position(|&p| p == key)
    }

    /// The variant rule groups compare with: the baseline, or the first way.
    pub fn reference(&self) -> usize {
        self.baseline.unwrap_or(0)
    }

    fn wager(&self) -> &MainWager {
        &self.game.main_wager
    }
}

/// One dealt deal, and the room to play it in (kept with the round so that a deal clears only
/// the few settings its ways use, not the room for every arm a comparison may have).
pub struct DealtPair {
    dealt: Dealt,
    result: DealResult,
}

/// The dealer's and the player's cards in deal order, and where each hand sits in every shape
/// cache.
struct Dealt {
    cards: [Card; 14],
    dealer_slot: ShapeSlot,
    player_slot: ShapeSlot,
}

impl Dealt {
    fn dealer(&self) -> &[Card; 7] {
        self.cards[..7].try_into().expect("seven cards")
    }

    fn player(&self) -> &[Card; 7] {
        self.cards[7..].try_into().expect("seven cards")
    }
}

/// The player's hand sorted with its split values, computed once per deal when a variant
/// needs them (a cache miss, or a way that sees the dealer).
struct SlowHand<'a> {
    dealt: &'a [Card; 7],
    ev: &'a Evaluator,
    known: Option<([Card; 7], SplitValues)>,
}

impl SlowHand<'_> {
    fn get(&mut self) -> &([Card; 7], SplitValues) {
        self.known.get_or_insert_with(|| {
            let hand = sorted_hand(self.dealt);
            (hand, self.ev.split_values(&hand))
        })
    }
}

/// The most arms one comparison plays: every variant on each of the three sides.
pub const MAX_ARMS: usize = 3 * MAX_VARIANTS;

/// What every arm did on one deal: its outcome and its player's setting's values (the
/// dealer's setting is each way's, in `settings`).
struct DealResult {
    outcome: [Outcome; MAX_ARMS],
    player: [(Value, Value); MAX_ARMS],
    settings: DealSettings,
}

impl DealResult {
    /// Room for any comparison's deal.
    fn new() -> DealResult {
        let setting = DealerSetting {
            front: Value(0),
            back: Value(0),
        };
        let dealer =
            DealerHand::of_class(setting, DealerClass::NotQualified, &MainWager::default());
        let player = PlayerSetting {
            values: (Value(0), Value(0)),
            legal: false,
        };
        DealResult {
            outcome: [Outcome::Push; MAX_ARMS],
            player: [(Value(0), Value(0)); MAX_ARMS],
            settings: DealSettings {
                dealer: [dealer; MAX_VARIANTS + 1],
                player: [player; MAX_VARIANTS + 1],
            },
        }
    }

    /// The dealer's setting in arm `arm` (every arm's dealer has set when the deal is played).
    #[inline]
    fn dealer_setting(&self, arm: &Arm) -> DealerSetting {
        self.settings.dealer[arm.dealer].setting
    }
}

/// One deal's settings, computed once per way: the dealer's hand as each way of
/// `Comparison::dealer_ways` sets it, and the player's setting by each way of
/// `Comparison::player_ways`; the entries of other ways are stale and never read.
struct DealSettings {
    dealer: [DealerHand; MAX_VARIANTS + 1],
    player: [PlayerSetting; MAX_VARIANTS + 1],
}

/// A player's setting: its values, and whether it is legal.
#[derive(Clone, Copy)]
struct PlayerSetting {
    values: (Value, Value),
    legal: bool,
}

impl Comparison {
    /// The dealer's hand as way `way` sets it.
    #[inline]
    fn dealer_of(&self, way: usize, round: &Dealt) -> DealerHand {
        let known = self.known_at(way, round.dealer_slot);
        set_dealer_known(&self.ev, self.way(way), self.wager(), round.dealer(), known)
    }

    /// The player's setting by way `way` (which does not see the dealer): from its cache when
    /// it knows the hand, else by the split search.
    #[inline]
    fn player_of(&self, way: usize, slot: ShapeSlot, slow: &mut SlowHand) -> PlayerSetting {
        if let Some(known) = self.known_at(way, slot) {
            return PlayerSetting {
                values: (known.front, known.back),
                legal: true,
            };
        }
        let (hand, splits) = slow.get();
        let k = self.way(way).choose(hand, splits, None);
        PlayerSetting {
            values: (splits.front[k], splits.back[k]),
            legal: splits.is_legal(k),
        }
    }

    /// The outcome of arm `arm` against its dealer, with the player's setting's values.
    #[inline]
    fn play_arm(
        &self,
        counts: LoopCounts,
        arm: &Arm,
        slow: &mut SlowHand,
        s: &DealSettings,
    ) -> (Outcome, (Value, Value)) {
        let dealer = s.dealer[arm.dealer];
        if counts.any_sees_dealer && self.sees_dealer[arm.player] {
            return self.play_seeing_dealer(arm, slow, &dealer);
        }
        let setting = s.player[arm.player];
        let (front, back) = setting.values;
        let outcome = match setting.legal {
            true => settle_setting(front, back, &dealer),
            false => Outcome::Foul,
        };
        (outcome, setting.values)
    }

    /// [`Comparison::play_arm`] for a player's way that sees the dealer's setting: a split
    /// search every deal, out of line (the search dwarfs the call, and the usual arms' code
    /// stays small).
    #[inline(never)]
    fn play_seeing_dealer(
        &self,
        arm: &Arm,
        slow: &mut SlowHand,
        dealer: &DealerHand,
    ) -> (Outcome, (Value, Value)) {
        let shown = self.wager().dealer_exposed.then_some(dealer.setting);
        let (hand, splits) = slow.get();
        let k = self.way(arm.player).choose(hand, splits, shown);
        let values = (splits.front[k], splits.back[k]);
        (settle(splits, k, dealer), values)
    }

    /// Plays one deal under every arm into `r` (`counts`: `Comparison::counts`, or a constant
    /// equal to it).
    #[inline(always)]
    fn play_deal(
        &self,
        counts: LoopCounts,
        round: &Dealt,
        slow: &mut SlowHand,
        r: &mut DealResult,
    ) {
        for &way in &self.dealer_ways[..counts.dealer_ways] {
            r.settings.dealer[way] = self.dealer_of(way, round);
        }
        for &way in &self.player_ways[..counts.player_ways] {
            r.settings.player[way] = self.player_of(way, round.player_slot, slow);
        }
        for (a, arm) in self.arms[..counts.arms].iter().enumerate() {
            (r.outcome[a], r.player[a]) = self.play_arm(counts, arm, slow, &r.settings);
        }
    }

    /// Counts the rules that set a hand set differently, and keeps it if there is room. Out of
    /// line: it runs only on deals set differently, with examples asked for.
    #[inline(never)]
    fn record_example(
        &self,
        deal: u64,
        round: &Dealt,
        slow: &mut SlowHand,
        r: &DealResult,
        tally: &mut CompareTally,
    ) {
        let (hand, splits) = *slow.get();
        let dealer_hand = sorted_hand(round.dealer());
        // Examples are kept only when the player's way varies: every arm has the fixed dealer.
        let shown = (self.wager().dealer_exposed).then(|| r.dealer_setting(&self.arms[0]));
        let mut splits_chosen = Vec::with_capacity(self.variants.len());
        let mut rules = Vec::with_capacity(self.variants.len());
        for v in &self.variants {
            splits_chosen.push(v.strategy.choose(&hand, &splits, shown) as u8);
            rules.push(match v.house_way() {
                Some(way) => way.set(&hand, &splits).rule as u16,
                None => NO_RULE,
            });
        }
        let n = self.variants.len();
        let net: Vec<i64> = (r.outcome[..n].iter())
            .map(|o| o.net_units(self.wager()))
            .collect();
        let reference = net[self.reference()];
        let group = RuleGroup {
            hands: 1,
            gap_squares: (net.iter())
                .map(|&x| u128::from((x - reference).unsigned_abs()).pow(2))
                .collect(),
            net,
        };
        tally
            .rule_groups
            .entry(rules.clone())
            .or_default()
            .add(&group);
        if tally.examples.len() < tally.keep {
            tally.examples.push(Example {
                deal,
                dealer: dealer_hand,
                player: hand,
                splits: splits_chosen,
                rules,
            });
        }
    }
}

impl Comparison {
    /// [`Job::deal`] with the loop counts `counts`: [`TWO_WAYS`] (a constant, so the loops
    /// unroll) or the comparison's own.
    #[inline(always)]
    fn deal_with(
        &self,
        counts: LoopCounts,
        shoe: &mut Shoe,
        rng: &mut ChunkRng,
        round: &mut DealtPair,
    ) {
        let round = &mut round.dealt;
        shoe.deal_into(rng, &mut round.cards, 14);
        round.dealer_slot = ShapeSlot::of(round.dealer());
        round.player_slot = ShapeSlot::of(round.player());
        for table in &self.dealer_tables[..counts.dealer_tables] {
            table.prefetch(round.dealer_slot);
        }
        for table in &self.player_tables[..counts.player_tables] {
            table.prefetch(round.player_slot);
        }
    }

    /// [`Job::play`] with the loop counts `counts` (see [`Comparison::deal_with`]).
    #[inline(always)]
    fn play_with(
        &self,
        counts: LoopCounts,
        round: &mut DealtPair,
        deal: u64,
        tally: &mut CompareTally,
    ) {
        let DealtPair { dealt, result: r } = round;
        let mut slow = SlowHand {
            dealt: dealt.player(),
            ev: &self.ev,
            known: None,
        };
        self.play_deal(counts, dealt, &mut slow, r);
        tally.deals += 1;
        let outcomes = &mut tally.outcomes[..counts.arms];
        for (counted, &o) in outcomes.iter_mut().zip(&r.outcome[..counts.arms]) {
            counted.record(o);
        }
        let joint = &mut tally.joint[..counts.pairs];
        let set_differently = &mut tally.set_differently[..counts.pairs];
        let mut any = false;
        for (p, &(a, b)) in self.pairs[..counts.pairs].iter().enumerate() {
            joint[p][r.outcome[a].index()][r.outcome[b].index()] += 1;
            let (arm_a, arm_b) = (&self.arms[a], &self.arms[b]);
            // Arms with the same dealer's way (every pair, when the player's way varies) share
            // one dealer setting: no need to look.
            let dealer_differs =
                arm_a.dealer != arm_b.dealer && r.dealer_setting(arm_a) != r.dealer_setting(arm_b);
            // A hand counts where the compared ways set it: a fixed player's way that sees the
            // dealer sets anew against each dealer's way, but is not one of the ways compared.
            let player_differs = arm_a.player != arm_b.player && r.player[a] != r.player[b];
            let differ = u64::from(player_differs) + u64::from(dealer_differs);
            set_differently[p] += differ;
            any |= differ > 0;
        }
        tally.any_set_differently += u64::from(any);
        if any && self.examples > 0 {
            self.record_example(deal, dealt, &mut slow, r, tally);
        }
    }
}

impl Job for Comparison {
    type Tally = CompareTally;
    type Round = DealtPair;

    fn deck(&self) -> Deck {
        self.game.deck
    }

    fn empty_round(&self) -> DealtPair {
        DealtPair {
            dealt: Dealt {
                cards: [Card::JOKER1; 14],
                dealer_slot: ShapeSlot::default(),
                player_slot: ShapeSlot::default(),
            },
            result: DealResult::new(),
        }
    }

    fn empty_tally(&self) -> CompareTally {
        CompareTally::new(self.arms.len(), self.pairs.len(), self.examples)
    }

    /// Deals fourteen cards (the dealer's seven, then the player's) and asks every way's cache
    /// for the two hands' slots (`Comparison::deal_with`).
    #[inline(always)]
    fn deal(&self, shoe: &mut Shoe, rng: &mut ChunkRng, round: &mut DealtPair) {
        match self.counts {
            TWO_WAYS => self.deal_with(TWO_WAYS, shoe, rng, round),
            counts => self.deal_with(counts, shoe, rng, round),
        }
    }

    /// 4 M deals a second a thread for two arms, each further arm a quarter more, and the
    /// examples priced at 20 ms each (no more examples than deals are kept).
    fn estimated_seconds(&self, plan: &Plan) -> f64 {
        let arms = self.arms.len() as f64;
        let deals = plan.deals as f64 * (1.0 + (arms - 2.0) / 4.0) / 4e6;
        deals + (self.examples as u64).min(plan.deals) as f64 * 0.02
    }

    /// Plays one deal under every variant and tallies it (`Comparison::play_with`).
    #[inline(always)]
    fn play(&self, round: &mut DealtPair, deal: u64, tally: &mut CompareTally) {
        match self.counts {
            TWO_WAYS => self.play_with(TWO_WAYS, round, deal, tally),
            counts => self.play_with(counts, round, deal, tally),
        }
    }
}

/// One distinct setting of an example hand, the variants that chose it, and its exact
/// outcomes against every dealer hand of the cards the player does not hold.
#[derive(Clone, Debug, PartialEq)]
pub struct ExampleSetting {
    pub split: usize,
    /// The variants that chose it.
    pub variants: Vec<usize>,
    /// The player's net over every dealer hand, in bet units ([`BET_UNITS`] a bet).
    pub net_units: i128,
    /// Every dealer hand of the remaining cards.
    pub dealer_hands: u64,
    /// (win, push, loss, overqualified) probabilities; a push includes the dealer not qualifying.
    pub probabilities: [f64; 4],
}

impl ExampleSetting {
    /// The setting's exact EV per unit bet.
    pub fn ev(&self) -> f64 {
        self.net_units as f64 / (self.dealer_hands as f64 * BET_UNITS as f64)
    }
}

impl Comparison {
    /// The exact pricer of player hands against the fixed dealer's way (vary player: the way
    /// every example is priced against). Sets every dealer shape once: a fraction of a second.
    pub fn example_pricer(&self) -> HandPricer {
        HandPricer::new(&self.game, self.way(self.arms[0].dealer))
    }

    /// Each distinct setting of `example` with its exact outcomes against every dealer hand of
    /// the cards the player does not hold, set by the fixed dealer's way (card removal
    /// included; milliseconds a hand).
    pub fn price_example(&self, pricer: &HandPricer, example: &Example) -> Vec<ExampleSetting> {
        let splits = self.ev.split_values(&example.player);
        let exact = pricer.hand_exact(&splits, &example.player);
        let mut settings: Vec<ExampleSetting> = Vec::new();
        for (i, &k) in example.splits.iter().enumerate() {
            let split = usize::from(k);
            if let Some(s) = settings.iter_mut().find(|s| s.split == split) {
                s.variants.push(i);
                continue;
            }
            let outcomes = exact.setting(split).expect("a strategy sets a legal split");
            settings.push(ExampleSetting {
                split,
                variants: vec![i],
                net_units: exact.net_units(outcomes, self.wager()),
                dealer_hands: exact.dealer_hands,
                probabilities: exact.probabilities(outcomes, self.wager()),
            });
        }
        settings
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::resolve::resolve;

    fn comparison(game: &str, fixed: &str, ways: &[&str]) -> Comparison {
        let game = GameRules::load(game).unwrap();
        let fixed = resolve(fixed, &game).unwrap();
        let variants = ways.iter().map(|w| resolve(w, &game).unwrap()).collect();
        Comparison::new(game, Vary::Player, Some(fixed), variants, None, 0).unwrap()
    }

    #[test]
    fn ways_that_play_alike_share_one_cache() {
        let cmp = comparison("standard", "foxwoods", &["foxwoods", "ballys-ac"]);
        let cache = |w: usize| cmp.caches[w].clone().expect("a house way has a cache");
        assert!(
            Arc::ptr_eq(&cache(0), &cache(2)),
            "the fixed dealer's way and the same way"
        );
        assert!(!Arc::ptr_eq(&cache(0), &cache(1)));
        assert_eq!((cmp.dealer_tables.len(), cmp.player_tables.len()), (1, 2));
        let file = comparison(
            "standard",
            "strategies/foxwoods.toml",
            &["foxwoods", "max-back"],
        );
        assert!(Arc::ptr_eq(
            file.caches[0].as_ref().unwrap(),
            file.caches[2].as_ref().unwrap()
        ));
    }

    #[test]
    fn a_way_that_sees_the_dealer_is_read_from_no_cache() {
        let cmp = comparison("double-joker", "foxwoods", &["exposed", "foxwoods"]);
        assert_eq!(cmp.sees_dealer, [true, false, false]);
        assert!(cmp.caches[0].is_none());
        assert_eq!(cmp.player_tables.len(), 1);
        // Way 2 is the fixed dealer; the exposed way sets in its arm, against that dealer.
        assert_eq!((cmp.dealer_ways, cmp.player_ways), (vec![2], vec![1]));
    }
}
