//! `diff-ways`: every 7-card hand of a game's deck that two house ways set differently, grouped,
//! counted exactly, and (with a dealer's way) priced.
//!
//! Two ways set a hand differently when their settings differ in value: (front value, back value)
//! (two splits the rules cannot tell apart are one setting, as in `compare`). Hands are grouped
//! by their class, the category of the best five of the seven cards under the game's ranking
//! (two pair includes three pair; "five aces" under the bug joker), and by the rule that set the
//! hand in each way.
//!
//! Method: the hands are enumerated by shape (`strategy::way::shapes`): every hand of a shape is
//! set alike by both ways, so each shape is applied once and counted with its number of hands;
//! the counts are exact and the groups' hands add up to the hands set differently. A group's
//! example is its first shape's representative hand in enumeration order (deterministic).
//!
//! EV change (with a dealer's way): the EV of a hand's setting depends on its suits through card
//! removal, so it is priced per hand, exactly, against every dealer hand of the remaining cards
//! (`strategy::optimal::hand::SettingTable`, the dealer's settings of every hand of the deck built
//! once). A group with at most `per_group` hands is priced over all of its hands (exact); a larger
//! group over `per_group` hands drawn uniformly from it with a seeded generator (a shape by its
//! share of the group's hands, then a hand of that shape), reported with a 95% Student-t interval.
//! The change is B's EV less A's, per unit bet, averaged over the group's hands.
//!
//! From the price table (when the dealer's way has one: `strategy::optimal::prices`) every group
//! is priced over every one of its hands at once, exactly: the table holds each shape's settings
//! summed over the shape's hands and every dealer hand of the cards each leaves, and a group is a
//! union of shapes ([`price_from_table`]; `EvMethod::Table`). The shapes here and the table's are
//! one partition of the deck (rank multiset, and the flush suit's ranks): each group shape's hands
//! are checked against its table shape's.

use std::collections::HashMap;

use rayon::prelude::*;
use statrs::distribution::{ContinuousCDF, StudentsT};

use crate::cards::deal::{below, chunk_rng};
use crate::cards::{Card, Deck};
use crate::engine::exact::row_name;
use crate::eval::split::SplitValues;
use crate::eval::{Category, Evaluator, JokerRule};
use crate::game::wager::{BET_UNITS, MainWager};
use crate::strategy::deck_shapes::{Shapes, SuitDeck};
use crate::strategy::optimal::hand::SettingTable;
use crate::strategy::optimal::prices::{PriceTable, ShapePrices};
use crate::strategy::way::HouseWay;
use crate::strategy::way::shapes::{HandShape, every_shape, hand_count};

/// What groups hands set differently: the hand's class and the rule of each way that set it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GroupKey {
    /// The category of the best five of the seven cards.
    pub class: Category,
    /// The rule (0-based) of way A that set the hands.
    pub rule_a: usize,
    /// The rule (0-based) of way B.
    pub rule_b: usize,
}

/// The hands of one group.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    pub key: GroupKey,
    /// How many hands of the deck.
    pub hands: u64,
    /// The shapes (indices into [`WaysDiff::shapes`]) whose hands are in the group.
    pub shapes: Vec<usize>,
    /// A hand of the group (sorted by card index).
    pub example: [Card; 7],
    /// The EV change of the group's hands, once priced.
    pub ev: Option<GroupEv>,
}

/// Every hand two ways set differently, in groups, largest first.
#[derive(Clone, Debug)]
pub struct WaysDiff {
    pub deck: Deck,
    /// Every shape enumerated, with its count.
    pub shapes: Vec<HandShape>,
    /// Every hand of the deck: the sum of the shapes' counts.
    pub total_hands: u64,
    /// Groups by hands (most first), then by key.
    pub groups: Vec<Group>,
}

impl WaysDiff {
    /// Hands the two ways set differently.
    pub fn differing_hands(&self) -> u64 {
        self.groups.iter().map(|g| g.hands).sum()
    }
}

/// The name of a hand class, as the reports write it.
pub fn class_name(class: Category, joker: JokerRule) -> &'static str {
    row_name(class, joker)
}

/// How two ways set one hand, when they differ in value: the group key.
pub fn classify(a: &HouseWay, b: &HouseWay, ev: &Evaluator, hand: &[Card; 7]) -> Option<GroupKey> {
    let splits = ev.split_values(hand);
    let (sa, sb) = (a.set(hand, &splits), b.set(hand, &splits));
    let value = |k: usize| (splits.front[k], splits.back[k]);
    (value(sa.split) != value(sb.split)).then(|| GroupKey {
        class: splits.best_five().category(),
        rule_a: sa.rule,
        rule_b: sb.rule,
    })
}

/// Every hand of `deck` that `a` and `b` set differently, grouped (exact).
pub fn diff_ways(a: &HouseWay, b: &HouseWay, ev: &Evaluator, deck: Deck) -> WaysDiff {
    let diff = diff_shapes(a, b, ev, deck, every_shape(deck));
    debug_assert_eq!(diff.total_hands, hand_count(deck));
    diff
}

/// The same over the hands of the given shapes only (every shape of the deck for a full diff).
pub fn diff_shapes(
    a: &HouseWay,
    b: &HouseWay,
    ev: &Evaluator,
    deck: Deck,
    shapes: Vec<HandShape>,
) -> WaysDiff {
    let found: Vec<(usize, GroupKey)> = (shapes.par_iter().enumerate())
        .filter_map(|(i, s)| classify(a, b, ev, &s.hand).map(|key| (i, key)))
        .collect();
    let mut by_key: HashMap<GroupKey, Group> = HashMap::new();
    for (index, key) in found {
        let shape = &shapes[index];
        let group = by_key.entry(key).or_insert_with(|| Group {
            key,
            hands: 0,
            shapes: Vec::new(),
            example: shape.hand,
            ev: None,
        });
        group.hands += shape.hands;
        group.shapes.push(index);
    }
    let mut groups: Vec<Group> = by_key.into_values().collect();
    groups.sort_by(|x, y| y.hands.cmp(&x.hands).then(x.key.cmp(&y.key)));
    WaysDiff {
        deck,
        total_hands: shapes.iter().map(|s| s.hands).sum(),
        shapes,
        groups,
    }
}

/// How a group's EV change was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvMethod {
    /// Every hand of the group priced.
    Exact,
    /// A seeded uniform sample of the group's hands priced.
    Sampled,
    /// Every hand of the group priced at once from the price table (no spread across hands).
    Table,
}

/// The EV change (B less A, per unit bet) of a group's hands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GroupEv {
    pub method: EvMethod,
    /// Hands priced.
    pub priced: usize,
    /// Mean change per hand of the group.
    pub mean: f64,
    /// Standard deviation of the change across the hands priced.
    pub sd: f64,
    /// 95% interval of the mean (Student t); `(mean, mean)` when exact.
    pub ci95: (f64, f64),
}

/// How groups are priced.
#[derive(Clone, Copy, Debug)]
pub struct EvOptions {
    /// A group with at most this many hands is priced over all of them, a larger one over this
    /// many drawn hands.
    pub per_group: usize,
    /// Seed of the draws (group `i` draws from the stream of chunk `i`).
    pub seed: u64,
}

/// What pricing needs: the two ways, the evaluator, the dealer's settings of every hand of the
/// deck, and the main wager.
pub struct Pricer<'a> {
    pub a: &'a HouseWay,
    pub b: &'a HouseWay,
    pub ev: &'a Evaluator,
    pub table: &'a SettingTable,
    pub wager: &'a MainWager,
}

impl Pricer<'_> {
    /// B's EV less A's on one hand (sorted), exact over every dealer hand of the remaining cards.
    pub fn change(&self, hand: &[Card; 7]) -> f64 {
        let splits = self.ev.split_values(hand);
        let exact = self.table.hand_exact(&splits, hand);
        let net = |way: &HouseWay| {
            let k = way.set(hand, &splits).split;
            let setting = exact.setting(k).expect("a house way sets a legal split");
            exact.net_units(setting, self.wager)
        };
        let units = exact.dealer_hands as f64 * BET_UNITS as f64;
        (net(self.b) - net(self.a)) as f64 / units
    }

    /// Prices every group of `diff` (see the module docs).
    pub fn price(&self, diff: &mut WaysDiff, options: EvOptions) {
        let (deck, shapes) = (diff.deck, &diff.shapes);
        for (i, group) in diff.groups.iter_mut().enumerate() {
            let (hands, method) = group_hands(group, shapes, deck, options, i as u64);
            let changes: Vec<f64> = hands.par_iter().map(|h| self.change(h)).collect();
            group.ev = Some(summarize(&changes, method));
        }
    }
}

/// The hands a group is priced over, and how they were chosen.
fn group_hands(
    group: &Group,
    shapes: &[HandShape],
    deck: Deck,
    options: EvOptions,
    ordinal: u64,
) -> (Vec<[Card; 7]>, EvMethod) {
    if group.hands <= options.per_group as u64 {
        let all = group
            .shapes
            .iter()
            .flat_map(|&s| shapes[s].every_hand(deck));
        return (all.collect(), EvMethod::Exact);
    }
    let mut rng = chunk_rng(options.seed, ordinal);
    let drawn = (0..options.per_group).map(|_| {
        let mut pick = below(&mut rng, group.hands);
        let shape = group.shapes.iter().map(|&s| &shapes[s]).find(|s| {
            let here = pick < s.hands;
            pick = pick.saturating_sub(s.hands);
            here
        });
        shape
            .expect("a draw below the group's hands falls in one of its shapes")
            .random_hand(deck, &mut rng)
    });
    (drawn.collect(), EvMethod::Sampled)
}

/// Prices every group of `diff` from `table`, the price table of `diff`'s deck against the
/// dealer's way: each group's net change over all its hands, exactly. Returns the change over
/// the whole deck as (B's net less A's, in bet units; every pair counted), or why the table does
/// not fit the diff.
pub fn price_from_table(
    diff: &mut WaysDiff,
    (a, b): (&HouseWay, &HouseWay),
    ev: &Evaluator,
    table: &PriceTable,
    wager: &MainWager,
) -> Result<(i128, u128), String> {
    let deck = SuitDeck::of(diff.deck);
    let shapes = Shapes::new(deck);
    let net = |way: &HouseWay, prices: &ShapePrices, hand: &[Card; 7], splits: &SplitValues| {
        let k = way.set(hand, splits).split;
        prices.net_units(
            &prices.settings[table.setting_index(prices, splits, k)],
            wager,
        )
    };
    let mut total = 0i128;
    for group in &mut diff.groups {
        let (mut change, mut pairs) = (0i128, 0u128);
        for &s in &group.shapes {
            let shape = &diff.shapes[s];
            let id = shapes.id_of(&shape.hand);
            let prices = table.shape(id).ok_or_else(|| format!("no shape {id}"))?;
            if prices.hands != shape.hands {
                return Err(format!(
                    "shape {id}: {} hands, the table has {}",
                    shape.hands, prices.hands
                ));
            }
            let splits = ev.split_values(&shape.hand);
            change += net(b, prices, &shape.hand, &splits) - net(a, prices, &shape.hand, &splits);
            pairs += u128::from(prices.dealer_hands);
        }
        total += change;
        let mean = change as f64 / (pairs as f64 * BET_UNITS as f64);
        group.ev = Some(GroupEv {
            method: EvMethod::Table,
            priced: group.hands as usize,
            mean,
            sd: f64::NAN,
            ci95: (mean, mean),
        });
    }
    Ok((total, table.pairs()))
}

/// Mean, spread and interval of the changes priced.
fn summarize(changes: &[f64], method: EvMethod) -> GroupEv {
    let n = changes.len();
    let mean = changes.iter().sum::<f64>() / n.max(1) as f64;
    let sd = if n > 1 {
        let ss: f64 = changes.iter().map(|d| (d - mean).powi(2)).sum();
        (ss / (n - 1) as f64).sqrt()
    } else {
        0.0
    };
    let ci95 = match method {
        EvMethod::Exact | EvMethod::Table => (mean, mean),
        EvMethod::Sampled => {
            let t = StudentsT::new(0.0, 1.0, (n.max(2) - 1) as f64)
                .map(|d| d.inverse_cdf(0.975))
                .unwrap_or(1.96);
            let half = t * sd / (n as f64).sqrt();
            (mean - half, mean + half)
        }
    };
    GroupEv {
        method,
        priced: n,
        mean,
        sd,
        ci95,
    }
}

/// The EV change of B against A over the whole deck (every group's mean weighted by its share
/// of all hands), with a 95% normal interval from the sampled groups' errors.
pub fn total_change(diff: &WaysDiff) -> Option<(f64, f64, f64)> {
    let total = diff.total_hands as f64;
    let mut mean = 0.0;
    let mut variance = 0.0;
    for g in &diff.groups {
        let ev = g.ev?;
        let share = g.hands as f64 / total;
        mean += share * ev.mean;
        if ev.method == EvMethod::Sampled {
            variance += (share * ev.sd).powi(2) / ev.priced as f64;
        }
    }
    let half = 1.96 * variance.sqrt();
    Some((mean, mean - half, mean + half))
}
