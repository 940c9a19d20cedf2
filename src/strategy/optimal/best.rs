//! The built-in strategy `optimal:D`, the true optimum: every hand set at its shape's best
//! setting in the price table against a dealer who sets by `D` ([`super::prices`]): exact
//! counts against every dealer hand of the cards each hand leaves (card removal included),
//! summed over the shape's hands, so it is the best of every strategy that sets from the hand's
//! shape (every house way does), and `exact main` prices it exactly.
//!
//! The table is built once per game, way and version (a few minutes on two cores) and its best
//! settings kept in the cache ([`super::cache::load_or_build_best`]); `set` reads them there
//! when they are cached, else prices the one shape it is asked about ([`crate::strategy::optimal::pricer::HandPricer::multiset_shape_prices`]).
//!
//! Invariants: ties go to the better back, then the better front ([`ShapePrices::ranked`](super::prices::ShapePrices::ranked)), then
//! the lowest split index with those values; every shape of the deck has a best setting that is
//! a legal setting of its representative (checked when a cached file is read), so `choose`
//! always finds it (hands of one shape share their split values).

use std::path::Path;
use std::sync::Arc;

use super::PREFIX;
use super::cache::{self, BestSettings, DealerWay};
use super::pricer::HandPricer;
use super::prices::{PriceTable, PricingSetup};
use super::table_file::load_or_build_table;
use crate::cards::Card;
use crate::eval::split::SplitValues;
use crate::eval::{Evaluator, Value};
use crate::game::GameRules;
use crate::game::wager::{DealerSetting, MainWager};
use crate::strategy::Strategy;
use crate::strategy::deck_shapes::{Shapes, SuitDeck};
use crate::strategy::shape::ShapeSlot;

/// No setting: a slot the deck deals no hand of.
const NONE: [Value; 2] = [Value(u32::MAX), Value(u32::MAX)];

/// `optimal:D`: each hand at its shape's best setting against `D`.
#[derive(Clone)]
pub struct TableOptimal {
    name: String,
    /// By shape slot: the best setting's front and back values.
    best: Arc<Vec<[Value; 2]>>,
}

impl TableOptimal {
    /// `optimal:D` for `game` against the dealer's way `dealer`, with the default cache folder,
    /// telling stderr what it builds.
    pub fn load_default(dealer: &DealerWay, game: &GameRules) -> TableOptimal {
        let note = |text: &str| eprintln!("{text}");
        TableOptimal::load(dealer, game, cache::default_dir().as_deref(), &note)
    }

    /// `optimal:D` on the hands of `deck`: the game's whole deck as [`TableOptimal::load_default`];
    /// a reduced deck's own optimum from its price table, built here (a reduced deck's table is
    /// small and never cached).
    pub fn load_default_on(dealer: &DealerWay, game: &GameRules, deck: SuitDeck) -> TableOptimal {
        if deck.is_full() {
            return TableOptimal::load_default(dealer, game);
        }
        let (table, _) = load_or_build_table(dealer, game, deck, None, &|_: &str| {});
        let best = TableOptimal::best_of(&table, &game.main_wager);
        TableOptimal::new(format!("{PREFIX}{}", dealer.label), &best)
    }

    /// `optimal:D` from the best settings cached in `cache_dir`, else from the price table
    /// built here (and cached). `note` hears what happens, with the table's progress.
    pub fn load(
        dealer: &DealerWay,
        game: &GameRules,
        cache_dir: Option<&Path>,
        note: &(dyn Fn(&str) + Sync),
    ) -> TableOptimal {
        let ev = Evaluator::new(game.ranking);
        let shapes = Shapes::new(SuitDeck::of(game.deck));
        let valid = |best: &BestSettings| check(&ev, &shapes, best);
        let best = cache::load_or_build_best(dealer, game, cache_dir, note, &valid, || {
            let deck = SuitDeck::of(game.deck);
            let (table, _) = load_or_build_table(dealer, game, deck, cache_dir, note);
            TableOptimal::best_of(&table, &game.main_wager)
        });
        TableOptimal::new(format!("{PREFIX}{}", dealer.label), &best)
    }

    /// The strategy of these best settings.
    pub fn new(name: String, best: &BestSettings) -> TableOptimal {
        let slots = crate::strategy::shape::PLAIN_SLOTS + crate::strategy::shape::FLUSH_SLOTS;
        let mut table = vec![NONE; slots];
        for &(id, front, back) in best {
            table[id as usize] = [front, back];
        }
        TableOptimal {
            name,
            best: Arc::new(table),
        }
    }

    /// The best settings of a price table's shapes.
    pub fn best_of(table: &PriceTable, wager: &MainWager) -> BestSettings {
        (table.shapes.iter())
            .map(|shape| {
                let (best, _) = shape.ranked(wager)[0];
                let front = table.index.fronts[usize::from(best.front)];
                (shape.id, front, table.index.backs[usize::from(best.back)])
            })
            .collect()
    }
}

/// Whether `best` names every shape of the deck once, each at a legal setting of it.
fn check(ev: &Evaluator, shapes: &Shapes, best: &BestSettings) -> Result<(), String> {
    let ids: Vec<usize> = shapes.dealt_ids().collect();
    if ids.len() != best.len() {
        return Err(format!("{} shapes, the deck has {}", best.len(), ids.len()));
    }
    for (&id, &(named, front, back)) in ids.iter().zip(best) {
        if id as u32 != named {
            return Err(format!("shape {named} where shape {id} was expected"));
        }
        let hand = shapes.representative(id).expect("listed");
        if find(&ev.split_values(&hand), [front, back]).is_none() {
            return Err(format!("shape {id}: not a legal setting of it"));
        }
    }
    Ok(())
}

/// The lowest legal split with these front and back values.
fn find(splits: &SplitValues, [front, back]: [Value; 2]) -> Option<usize> {
    (splits.legal_splits()).find(|&k| splits.front[k] == front && splits.back[k] == back)
}

impl Strategy for TableOptimal {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&self, hand: &[Card; 7], splits: &SplitValues, _: Option<DealerSetting>) -> usize {
        let setting = self.best[ShapeSlot::of(hand).index()];
        find(splits, setting).expect("every shape's best setting is one of its legal settings")
    }
}

/// `optimal:D` for one hand at a time, as `set` asks: the hand's shape priced here (a fraction
/// of a second), exactly as the price table prices it, so it chooses as [`TableOptimal`] does.
pub struct ShapeOptimal {
    name: String,
    pricer: HandPricer,
    ev: Evaluator,
    setup: PricingSetup,
    /// The best settings, when the cache holds them for this game and way: the choice is then
    /// read, not priced.
    cached: Option<TableOptimal>,
}

impl ShapeOptimal {
    /// `optimal:D` for `game`, reading the best settings from the default cache folder when
    /// they are there.
    pub fn new(dealer: &DealerWay, game: &GameRules) -> ShapeOptimal {
        let mut way = ShapeOptimal::with_deck(dealer, game, SuitDeck::of(game.deck));
        let valid = |best: &BestSettings| check(&way.ev, way.setup.shapes(), best);
        let best = cache::cached_best(dealer, game, cache::default_dir().as_deref(), &valid);
        way.cached = best.map(|best| TableOptimal::new(way.name.clone(), &best));
        way
    }

    /// `optimal:D` on a deck of the game (its own, or a reduced one).
    pub fn with_deck(dealer: &DealerWay, game: &GameRules, deck: SuitDeck) -> ShapeOptimal {
        let pricer = HandPricer::with_deck(game, deck, &*dealer.strategy);
        ShapeOptimal {
            name: format!("{PREFIX}{}", dealer.label),
            setup: pricer.setup(),
            pricer,
            ev: Evaluator::new(game.ranking),
            cached: None,
        }
    }

    /// The legal settings of `hand` distinct by value, best first, each as its lowest
    /// split with the EV of its shape's hands at it (exact, per unit bet).
    pub fn ranked(&self, hand: &[Card; 7]) -> Vec<(usize, f64)> {
        let id = self.setup.shapes().id_of(hand);
        let prices = (self
            .pricer
            .multiset_shape_prices(&self.ev, &self.setup, hand))
        .into_iter()
        .find(|p| p.id == id)
        .expect("the hand's multiset includes its shape");
        let splits = self.ev.split_values(hand);
        let index = self.pricer.index();
        let per_unit = prices.dealer_hands as f64 * crate::game::wager::BET_UNITS as f64;
        (prices.ranked(self.pricer.wager()).into_iter())
            .map(|(s, net)| {
                let values = [
                    index.fronts[usize::from(s.front)],
                    index.backs[usize::from(s.back)],
                ];
                let k = find(&splits, values).expect("a legal setting of the shape");
                (k, net as f64 / per_unit)
            })
            .collect()
    }

    /// [`ShapeOptimal::ranked`] and the split `optimal:D` chooses, with the hand priced once.
    pub fn ranked_and_chosen(&self, hand: &[Card; 7]) -> (Vec<(usize, f64)>, usize) {
        let ranked = self.ranked(hand);
        let chosen = match &self.cached {
            Some(table) => table.choose(hand, &self.ev.split_values(hand), None),
            None => ranked[0].0,
        };
        (ranked, chosen)
    }
}

impl Strategy for ShapeOptimal {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&self, hand: &[Card; 7], splits: &SplitValues, _: Option<DealerSetting>) -> usize {
        match &self.cached {
            Some(table) => table.choose(hand, splits, None),
            None => self.ranked(hand)[0].0,
        }
    }
}
