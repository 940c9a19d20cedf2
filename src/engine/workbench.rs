//! The house-way workbench's common ground (`cost-way`, sweeps, `derive-way`): a price table
//! ([`crate::strategy::optimal::prices`]) with each shape's representative hand, split values
//! and best setting, so that a way that sets from its own seven cards is priced exactly, over
//! every hand of the deck against every dealer hand of the cards each leaves, by one pass over
//! the shapes: no dealing, no sampling.
//!
//! Invariants: nets are exact integers in bet units ([`BET_UNITS`] a unit bet), over
//! [`Bench::pairs`] (player hand, dealer hand) pairs; a way's net is the sum of its shapes' nets at
//! its settings, which is `exact main`'s count for it (the hands of a shape share their split
//! values, and a way that sets from its own cards sets them alike); the optimum's net is the sum
//! of each shape's best, so a way's gap to it is a sum of non-negative terms, one a shape.

use std::path::Path;

use rayon::prelude::*;

use crate::cards::Card;
use crate::engine::exact_main::Fraction;
use crate::eval::Evaluator;
use crate::eval::split::SplitValues;
use crate::game::GameRules;
use crate::game::wager::{BET_UNITS, MainWager};
use crate::strategy::Strategy;
use crate::strategy::deck_shapes::{Shapes, SuitDeck};
use crate::strategy::optimal::cache::DealerWay;
use crate::strategy::optimal::prices::PriceTable;
use crate::strategy::optimal::table_file::load_or_build_table;
use crate::strategy::way::HouseWay;

/// A price table ready to price ways.
pub struct Bench {
    pub table: PriceTable,
    pub wager: MainWager,
    /// By shape (the table's order): a hand of the shape (sorted by card index).
    pub hands: Vec<[Card; 7]>,
    /// By shape: the split values of that hand (every hand of the shape has them).
    pub splits: Vec<SplitValues>,
    /// By shape: its best setting (an index into its settings; ties as `optimal:D` breaks them)
    /// and that setting's net.
    pub best: Vec<(usize, i128)>,
}

/// How a way sets one shape: the rule that set it (0 for a way without rules), the split, the
/// setting (an index into the shape's settings) and its net.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub rule: usize,
    pub split: usize,
    pub setting: usize,
    pub net: i128,
}

impl Bench {
    /// The bench of `table`, the table of `deck` under `game`'s rules.
    pub fn new(table: PriceTable, game: &GameRules, deck: SuitDeck) -> Bench {
        let ev = Evaluator::new(game.ranking);
        let shapes = Shapes::new(deck);
        let hands: Vec<[Card; 7]> = (table.shapes.iter())
            .map(|s| {
                shapes
                    .representative(s.id as usize)
                    .expect("a priced shape")
            })
            .collect();
        let splits = hands.par_iter().map(|h| ev.split_values(h)).collect();
        let wager = game.main_wager;
        let best = (table.shapes.par_iter())
            .map(|shape| {
                let ranked = shape.ranked(&wager);
                let (setting, net) = ranked[0];
                let at = (shape.settings.iter()).position(|s| std::ptr::eq(s, setting));
                (at.expect("a setting of the shape"), net)
            })
            .collect();
        Bench {
            table,
            wager,
            hands,
            splits,
            best,
        }
    }

    /// The bench of `deck` against `dealer`: its price table read from the cache folder `dir`,
    /// else built (`note` hears the progress) and cached.
    pub fn load(
        dealer: &DealerWay,
        game: &GameRules,
        deck: SuitDeck,
        dir: Option<&Path>,
        note: &(dyn Fn(&str) + Sync),
    ) -> Bench {
        Bench::new(
            load_or_build_table(dealer, game, deck, dir, note).0,
            game,
            deck,
        )
    }

    /// Every (player hand, dealer hand) pair the table counts.
    pub fn pairs(&self) -> u128 {
        self.table.pairs()
    }

    /// A net over every pair as an exact EV per unit bet.
    pub fn ev(&self, net: i128) -> Fraction {
        Fraction::new(net, self.pairs() as i128 * i128::from(BET_UNITS))
    }

    /// The optimum's net: every shape at its best setting.
    pub fn optimal_net(&self) -> i128 {
        self.best.iter().map(|&(_, net)| net).sum()
    }

    /// Shape `shape` set at split `split` (a legal split of its hand): the setting and its net.
    pub fn place(&self, shape: usize, split: usize, rule: usize) -> Placed {
        let prices = &self.table.shapes[shape];
        let setting = self.table.setting_index(prices, &self.splits[shape], split);
        let net = prices.net_units(&prices.settings[setting], &self.wager);
        Placed {
            rule,
            split,
            setting,
            net,
        }
    }

    /// Every shape as the house way `way` sets it, with the rule that set it.
    pub fn price_way(&self, way: &HouseWay) -> Vec<Placed> {
        (0..self.hands.len())
            .into_par_iter()
            .map(|i| {
                let set = way.set(&self.hands[i], &self.splits[i]);
                self.place(i, set.split, set.rule)
            })
            .collect()
    }

    /// Every shape as `strategy` (one that sets from its own seven cards) sets it (rule 0).
    pub fn price_strategy(&self, strategy: &dyn Strategy) -> Vec<Placed> {
        (0..self.hands.len())
            .into_par_iter()
            .map(|i| self.place(i, strategy.choose(&self.hands[i], &self.splits[i], None), 0))
            .collect()
    }

    /// The net of a way that sets each shape as `placed` says.
    pub fn net(placed: &[Placed]) -> i128 {
        placed.iter().map(|p| p.net).sum()
    }

    /// The hands of shape `shape`.
    pub fn shape_hands(&self, shape: usize) -> u64 {
        self.table.shapes[shape].hands
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::resolve::{dealer_way, resolve};

    /// On a reduced deck, Foxwoods priced on the bench is the table's own pricing of it, and no
    /// shape's setting beats its best.
    #[test]
    fn a_way_on_the_bench_is_the_tables_price_of_it() {
        let game = GameRules::load("standard").unwrap();
        let dealer = dealer_way("foxwoods", &game).unwrap().way;
        let deck = SuitDeck::new(0b1_0000_0000_0111, 1).unwrap();
        let bench = Bench::load(&dealer, &game, deck, None, &|_| {});
        let foxwoods = resolve("foxwoods", &game).unwrap();
        let way = foxwoods.house_way().unwrap();
        let placed = bench.price_way(way);
        let ev = Evaluator::new(game.ranking);
        let shapes = Shapes::new(deck);
        let table = (bench.table).price_way(&ev, &shapes, foxwoods.uncached(), &game.main_wager);
        assert_eq!(Bench::net(&placed), table.net_units(&game.main_wager));
        assert!(placed.iter().zip(&bench.best).all(|(p, b)| p.net <= b.1));
        assert!(Bench::net(&placed) < bench.optimal_net());
        assert_eq!(
            Bench::net(&bench.price_strategy(foxwoods.uncached())),
            Bench::net(&placed)
        );
    }
}
