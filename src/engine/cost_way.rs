//! `cost-way`: what each rule of a house way costs against the optimum, exactly, from the price
//! table ([`crate::engine::workbench::Bench`]); and with `--both`, the house's side of a change of
//! house way (dealer and house-way players changing together).
//!
//! A way `W` sets every shape of the deck by one of its rules; the optimum (`optimal:D`) sets it
//! at its best setting against the dealer's way `D`. A shape's cost is the optimum's net on its
//! hands less the way's (never negative), and a rule's cost is the sum over the shapes it sets.
//! Invariant (checked in debug builds, and by the tests): the rules' costs add up exactly, in
//! integer bet units, to the optimum's net less the way's, so over [`Bench::pairs`] pairs they
//! add up to EV(optimal:D) - EV(W).
//!
//! A **hand class** is what a house way's rule could name: a conjunction of the language's own
//! features, read with the jokers ([`crate::strategy::way::features`]): the category of the best
//! five, whether the hand holds five aces, the counts of quads, trips and pairs and their ranks
//! (the highest trips, the three highest pairs), the highest single where the hand holds no
//! pair, trips or quads, and whether some five cards make a straight, a flush, and whether the
//! hand holds a joker. Every hand of a shape is in one class (features are shape functions), so
//! a class's hands are a union of shapes; [`HandClass::when`] writes the class as the `when`
//! table that selects exactly its hands. Within each rule the classes are ranked by their cost
//! (ties by class order), each with an example: the class's costliest shape (the first in the
//! table's order on a tie), with the way's split and the optimum's setting of its hand.
//!
//! The house's side ([`house_side`]): the exact main engine counts W against W and D against D
//! (as `paigow exact main` does, its cache read and filled on full decks), and the optimum
//! against W comes from W's own price table, when one is given.

use std::collections::HashMap;

use rayon::prelude::*;

use crate::engine::exact_main::{self, ExactMainError, Fraction, MainExact, Progress, cache};
use crate::engine::workbench::{Bench, Placed};
use crate::game::GameRules;
use crate::game::wager::BET_UNITS;
use crate::strategy::deck_shapes::SuitDeck;
use crate::strategy::resolve::Resolved;
use crate::strategy::way::HouseWay;
use crate::strategy::way::features::{Feature, FeatureSet, Kind, NONE};

/// The features a class is made of, in the order [`HandClass::when`] writes them.
const CLASS_FEATURES: [Feature; 14] = [
    Feature::BestFive,
    Feature::FiveAces,
    Feature::Quads,
    Feature::QuadsRank,
    Feature::Trips,
    Feature::TripsRank,
    Feature::Pairs,
    Feature::HighPair,
    Feature::LowPair,
    Feature::ThirdPair,
    Feature::HighestSingle,
    Feature::Straight,
    Feature::Flush,
    Feature::Joker,
];

/// A hand class (see the module docs): the values of `CLASS_FEATURES`, [`NONE`] where a rank
/// does not exist or is not part of the class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HandClass([u8; CLASS_FEATURES.len()]);

impl HandClass {
    /// The class of a hand with these features.
    pub fn of(features: &FeatureSet) -> HandClass {
        let mut values = CLASS_FEATURES.map(|f| features.get(f, true));
        let grouped = [
            Feature::FiveAces,
            Feature::Quads,
            Feature::Trips,
            Feature::Pairs,
        ]
        .iter()
        .any(|&f| features.get(f, true) > 0);
        if grouped {
            values[Self::at(Feature::HighestSingle)] = NONE;
        }
        HandClass(values)
    }

    fn at(feature: Feature) -> usize {
        (CLASS_FEATURES.iter())
            .position(|&f| f == feature)
            .expect("a class feature")
    }

    fn get(&self, feature: Feature) -> u8 {
        self.0[Self::at(feature)]
    }

    /// The class as a `when` table of the house-way language: every feature of the class, but
    /// absent ranks and a `five_aces` that is false.
    pub fn when(&self) -> String {
        let items: Vec<String> = (CLASS_FEATURES.iter().zip(self.0))
            .filter(|&(&f, v)| v != NONE && !(f == Feature::FiveAces && v == 0))
            .map(|(&f, v)| format!("{} = {}", f.key(), f.kind().show(v)))
            .collect();
        format!("{{ {} }}", items.join(", "))
    }

    /// The category of the best five, as the language names it (`two_pair`).
    pub fn best_five(&self) -> String {
        Kind::Category
            .show(self.get(Feature::BestFive))
            .replace('"', "")
    }

    /// The class in a few words: `two pair: pairs K 7 (straight, joker)`.
    pub fn text(&self) -> String {
        let rank = |f: Feature| Kind::Rank.show(self.get(f)).replace('"', "");
        let mut groups = Vec::new();
        if self.get(Feature::FiveAces) == 1 {
            groups.push("five aces".to_string());
        }
        if self.get(Feature::Quads) > 0 {
            groups.push(format!("quads {}", rank(Feature::QuadsRank)));
        }
        match self.get(Feature::Trips) {
            0 => {}
            1 => groups.push(format!("trips {}", rank(Feature::TripsRank))),
            n => groups.push(format!("{n} trips, {} high", rank(Feature::TripsRank))),
        }
        let pairs: Vec<String> = [Feature::HighPair, Feature::LowPair, Feature::ThirdPair]
            .into_iter()
            .filter(|&f| self.get(f) != NONE)
            .map(rank)
            .collect();
        match pairs.len() {
            0 => {}
            1 => groups.push(format!("pair {}", pairs[0])),
            _ => groups.push(format!("pairs {}", pairs.join(" "))),
        }
        if self.get(Feature::HighestSingle) != NONE {
            groups.push(format!("{} high", rank(Feature::HighestSingle)));
        }
        let category = self.best_five();
        let made = |words: &[&str]| words.iter().any(|w| category == *w);
        let mut extras = Vec::new();
        let straight_made = made(&["straight", "straight_flush", "royal_flush"]);
        if self.get(Feature::Straight) == 1 && !straight_made {
            extras.push("straight");
        }
        if self.get(Feature::Flush) == 1 && !made(&["flush", "straight_flush", "royal_flush"]) {
            extras.push("flush");
        }
        if self.get(Feature::Joker) == 1 {
            extras.push("joker");
        }
        let mut text = format!("{}: {}", category.replace('_', " "), groups.join(", "));
        if !extras.is_empty() {
            text += &format!(" ({})", extras.join(", "));
        }
        text
    }
}

/// Hands, pairs and nets of a set of shapes: the way's and the optimum's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub shapes: usize,
    /// Hands of the deck.
    pub hands: u64,
    /// (player hand, dealer hand) pairs of those hands.
    pub pairs: u128,
    /// The way's net over those pairs, in bet units.
    pub way_net: i128,
    /// The optimum's net over those pairs, in bet units.
    pub best_net: i128,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.shapes += other.shapes;
        self.hands += other.hands;
        self.pairs += other.pairs;
        self.way_net += other.way_net;
        self.best_net += other.best_net;
    }

    /// The optimum's net less the way's, in bet units (never negative).
    pub fn cost_net(&self) -> i128 {
        self.best_net - self.way_net
    }

    /// The way's EV per unit bet on these hands (none without hands).
    pub fn way_ev(&self) -> Option<Fraction> {
        self.ev_here(self.way_net)
    }

    /// The optimum's EV per unit bet on these hands (none without hands).
    pub fn best_ev(&self) -> Option<Fraction> {
        self.ev_here(self.best_net)
    }

    fn ev_here(&self, net: i128) -> Option<Fraction> {
        (self.pairs > 0).then(|| Fraction::new(net, self.pairs as i128 * i128::from(BET_UNITS)))
    }
}

/// A hand of a class where the way loses: its shape, the way's split of the shape's hand
/// ([`Bench::hands`]), the optimum's setting (an index into the shape's settings) and what the
/// way gives up on the shape's hands, in bet units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Example {
    pub shape: usize,
    pub way_split: usize,
    pub best_setting: usize,
    pub cost_net: i128,
}

/// One class of the hands a rule sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassCost {
    pub class: HandClass,
    pub tally: Tally,
    pub example: Example,
}

/// One rule of the way: the hands it sets and what it costs, with its costliest classes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleCost {
    /// The rule's index (0-based) in the way.
    pub rule: usize,
    pub name: String,
    pub tally: Tally,
    /// The classes it costs most on (cost above zero), costliest first.
    pub classes: Vec<ClassCost>,
}

/// A way costed rule by rule against the optimum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WayCost {
    /// Every shape of the deck, by the way and by the optimum.
    pub total: Tally,
    /// Every (player hand, dealer hand) pair of the deck: the denominator of every EV and cost.
    pub pairs: u128,
    /// Each rule, in the way's order (rules that set no hand included).
    pub rules: Vec<RuleCost>,
}

impl WayCost {
    /// A net over every pair of the deck, per unit bet, exactly.
    pub fn over_all(&self, net: i128) -> Fraction {
        Fraction::new(net, self.pairs as i128 * i128::from(BET_UNITS))
    }

    /// The way's EV against the dealer's way.
    pub fn way_ev(&self) -> Fraction {
        self.over_all(self.total.way_net)
    }

    /// The optimum's EV against the dealer's way.
    pub fn best_ev(&self) -> Fraction {
        self.over_all(self.total.best_net)
    }

    /// EV(optimal:D) - EV(W): the sum of the rules' costs.
    pub fn gap(&self) -> Fraction {
        self.over_all(self.total.cost_net())
    }

    /// A rule's share of the gap (none when the way is the optimum).
    pub fn share_of_gap(&self, rule: &RuleCost) -> Option<Fraction> {
        let gap = self.total.cost_net();
        (gap != 0).then(|| Fraction::new(rule.tally.cost_net(), gap))
    }
}

/// One shape as the way sets it: its rule, class and tally.
struct ShapeCost {
    rule: usize,
    class: HandClass,
    tally: Tally,
    example: Example,
}

/// Every rule of `way` costed on `bench` against the optimum, with at most `classes` classes a
/// rule (those it costs most on).
pub fn cost_way(bench: &Bench, way: &HouseWay, classes: usize) -> WayCost {
    let placed = bench.price_way(way);
    let shapes: Vec<ShapeCost> = (0..placed.len())
        .into_par_iter()
        .map(|i| shape_cost(bench, i, &placed[i]))
        .collect();
    let mut rules: Vec<RuleCost> = (0..way.compiled.rules.len())
        .map(|rule| RuleCost {
            rule,
            name: way.rule_name(rule).to_string(),
            tally: Tally::default(),
            classes: Vec::new(),
        })
        .collect();
    let mut by_class: HashMap<(usize, HandClass), ClassCost> = HashMap::new();
    let mut total = Tally::default();
    for s in &shapes {
        rules[s.rule].tally.add(&s.tally);
        total.add(&s.tally);
        let entry = by_class
            .entry((s.rule, s.class))
            .or_insert_with(|| ClassCost {
                class: s.class,
                tally: Tally::default(),
                example: s.example,
            });
        entry.tally.add(&s.tally);
        if s.example.cost_net > entry.example.cost_net {
            entry.example = s.example;
        }
    }
    for ((rule, _), class) in by_class {
        if class.tally.cost_net() > 0 {
            rules[rule].classes.push(class);
        }
    }
    for rule in &mut rules {
        let key = |c: &ClassCost| (std::cmp::Reverse(c.tally.cost_net()), c.class);
        rule.classes.sort_by_key(key);
        rule.classes.truncate(classes);
    }
    debug_assert_eq!(
        rules.iter().map(|r| r.tally.cost_net()).sum::<i128>(),
        bench.optimal_net() - Bench::net(&placed),
        "the rules' costs add up to the gap"
    );
    WayCost {
        total,
        pairs: bench.pairs(),
        rules,
    }
}

/// Shape `i` as the way placed it.
fn shape_cost(bench: &Bench, i: usize, placed: &Placed) -> ShapeCost {
    let features = FeatureSet::of(&bench.hands[i], &bench.splits[i]);
    let (best_setting, best_net) = bench.best[i];
    let prices = &bench.table.shapes[i];
    ShapeCost {
        rule: placed.rule,
        class: HandClass::of(&features),
        tally: Tally {
            shapes: 1,
            hands: prices.hands,
            pairs: u128::from(prices.dealer_hands),
            way_net: placed.net,
            best_net,
        },
        example: Example {
            shape: i,
            way_split: placed.split,
            best_setting,
            cost_net: best_net - placed.net,
        },
    }
}

/// The house's side of changing its way from `D` to `W`: dealer and house-way players together.
pub struct HouseSide {
    /// W against W, by the exact main engine, and whether it came from the cache.
    pub way_vs_way: (MainExact, bool),
    /// D against D, likewise.
    pub dealer_vs_dealer: (MainExact, bool),
    /// The optimum against W: its net over every pair, when W's price table was given.
    pub best_vs_way: Option<i128>,
}

impl HouseSide {
    /// The change of the house-way player's EV: EV(W vs W) - EV(D vs D).
    pub fn way_change(&self) -> Fraction {
        self.way_vs_way.0.player_ev_fraction() - self.dealer_vs_dealer.0.player_ev_fraction()
    }
}

/// The house's side of the change from `dealer` to `way` on `deck`: both exact main counts, read
/// from and stored in the exact-main cache on a full deck; `way_bench` (W's price table, when
/// there is one) gives the optimum against W.
pub fn house_side(
    game: &GameRules,
    deck: SuitDeck,
    way: &Resolved,
    dealer: &Resolved,
    way_bench: Option<&Bench>,
) -> Result<HouseSide, ExactMainError> {
    let way_vs_way = exact_main_of(game, deck, way, way)?;
    let dealer_vs_dealer = exact_main_of(game, deck, dealer, dealer)?;
    let best_vs_way = way_bench.map(|bench| {
        debug_assert_eq!(
            Bench::net(&bench.price_strategy(way.uncached())),
            way_vs_way.0.net_units(),
            "W against W on W's table is exact main's"
        );
        bench.optimal_net()
    });
    Ok(HouseSide {
        way_vs_way,
        dealer_vs_dealer,
        best_vs_way,
    })
}

/// `player` against `dealer` by the exact main engine, as `paigow exact main` counts it: from
/// the cache on a full deck when there, else counted (and stored on a full deck); whether it came
/// from the cache.
pub fn exact_main_of(
    game: &GameRules,
    deck: SuitDeck,
    player: &Resolved,
    dealer: &Resolved,
) -> Result<(MainExact, bool), ExactMainError> {
    let ways = (player.identity(), dealer.identity());
    if deck.is_full()
        && let Some(exact) = cache::lookup(game, &ways.0, &ways.1).found()
    {
        return Ok((exact, true));
    }
    let run = exact_main::count(
        game,
        deck,
        &*player.strategy,
        &*dealer.strategy,
        &Progress::silent(),
    )?;
    if deck.is_full() {
        // A failure to store is not an error: the count is in hand.
        let _ = cache::store(game, &ways.0, &ways.1, &run.exact);
    }
    Ok((run.exact, false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluator;
    use crate::strategy::resolve::{dealer_way, resolve};

    fn bench(ranks: u16) -> (GameRules, Bench) {
        let game = GameRules::load("standard").unwrap();
        let dealer = dealer_way("foxwoods", &game).unwrap().way;
        let deck = SuitDeck::new(ranks, 1).unwrap();
        let bench = Bench::load(&dealer, &game, deck, None, &|_| {});
        (game, bench)
    }

    /// The rules' costs add up to the gap, each rule's tally is the sum of its shapes', and a
    /// class's `when` table is read back by the language as a condition every hand of the class
    /// meets.
    #[test]
    fn rules_add_up_to_the_gap_and_classes_are_conditions() {
        let (game, bench) = bench(0b1_0000_0000_0111);
        let way = resolve("foxwoods", &game).unwrap();
        let way = way.house_way().unwrap();
        let cost = cost_way(&bench, way, 5);
        let sum: i128 = cost.rules.iter().map(|r| r.tally.cost_net()).sum();
        assert_eq!(sum, bench.optimal_net() - Bench::net(&bench.price_way(way)));
        assert!(sum > 0);
        let hands: u64 = cost.rules.iter().map(|r| r.tally.hands).sum();
        assert_eq!(hands, bench.table.hands());
        let ev = Evaluator::new(game.ranking);
        for class in cost.rules.iter().flat_map(|r| &r.classes) {
            let text = format!(
                "name = \"t\"\nsource = \"t\"\n[[rule]]\nname = \"class\"\nwhen = {}\n\
                 set = [ {{ maximize = [\"back\"] }} ]\n[[rule]]\nname = \"rest\"\n\
                 set = [ {{ maximize = [\"back\"] }} ]\n",
                class.class.when()
            );
            let probe = HouseWay::from_toml(&text, "t.toml").unwrap();
            let hand = &bench.hands[class.example.shape];
            assert_eq!(probe.set(hand, &ev.split_values(hand)).rule, 0, "{text}");
            assert!(class.tally.cost_net() > 0 && class.example.cost_net > 0);
        }
    }

    #[test]
    fn a_class_reads_as_a_kind_of_hand() {
        let game = GameRules::load("standard").unwrap();
        let ev = Evaluator::new(game.ranking);
        let class_of = |text: &str| {
            let cards = game.deck.parse_cards(text).unwrap();
            let mut hand: [crate::cards::Card; 7] = cards.try_into().unwrap();
            hand.sort();
            HandClass::of(&FeatureSet::of(&hand, &ev.split_values(&hand)))
        };
        let two_pair = class_of("Ks Kd 7h 7c 8s 9d Jk");
        assert_eq!(two_pair.text(), "two pair: pairs K 7 (joker)");
        assert_eq!(
            two_pair.when(),
            "{ best_five = \"two_pair\", quads = 0, trips = 0, pairs = 2, high_pair = \"K\", \
             low_pair = \"7\", straight = false, flush = false, joker = true }"
        );
        let high = class_of("As Kd 7h 5c 8s 9d 6c");
        assert_eq!(high.text(), "straight: A high");
    }
}
