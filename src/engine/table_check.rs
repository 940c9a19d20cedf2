//! The price table's choice checked hand by hand: hands drawn (seeded) from every hand class,
//! each priced exactly against every dealer hand of the cards it leaves (53,524,680 of them on
//! the standard deck), and the table's choice for it (its shape's best setting, the prices summed
//! over the shape's hands) compared with the hand's own best setting.
//!
//! Why they can differ: hands of one shape differ in the suits of their cards outside the flush
//! suit, which changes how many flushes the dealer can still make, so a hand's own prices differ
//! slightly from its shape's average, and on a near tie the shape's best need not be the hand's.
//! `optimal:D` is the best of every strategy that sets from the hand's shape (every house way
//! does); a strategy that also read the off suits could do better on such hands, by the losses
//! this check measures.
//!
//! Drawing: the hands of a class are drawn uniformly among the deck's hands of that class (a shape
//! by its share of the class's hands, then a hand of that shape), from one seeded stream per
//! class ([`chunk_rng`]), so the sample is the same at any thread count.
//!
//! Invariants: every EV is exact (integer nets over the hand's dealer hands); a hand's loss is
//! its own best EV less its own EV at the table's choice, never negative.

use rayon::prelude::*;

use crate::cards::deal::{below, chunk_rng};
use crate::cards::{Card, Deck};
use crate::engine::exact_main::Fraction;
use crate::eval::{Category, Evaluator};
use crate::game::wager::{BET_UNITS, MainWager};
use crate::strategy::deck_shapes::Shapes;
use crate::strategy::optimal::pricer::HandPricer;
use crate::strategy::optimal::prices::PriceTable;
use crate::strategy::way::shapes::{HandShape, every_shape};

/// One drawn hand: the table's choice and the hand's own best, each with the hand's own exact EV.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckedHand {
    pub class: Category,
    /// Sorted by card index.
    pub hand: [Card; 7],
    /// The split the table chooses (its shape's best setting, lowest split with those values).
    pub table_split: usize,
    /// The hand's own best split (ties: better back, then better front, then lowest split).
    pub own_split: usize,
    /// The hand's own EV at each, per unit bet.
    pub table_ev: Fraction,
    pub own_ev: Fraction,
}

impl CheckedHand {
    /// What the table's choice gives up on this hand, per unit bet (0 when it is the hand's best).
    pub fn loss(&self) -> Fraction {
        self.own_ev - self.table_ev
    }
}

/// `per_class` hands of every class the deck deals, each checked; by class (strongest first),
/// then in drawing order.
pub fn check_sample(
    table: &PriceTable,
    pricer: &HandPricer,
    ev: &Evaluator,
    deck: Deck,
    (per_class, seed): (usize, u64),
) -> Vec<CheckedHand> {
    let mut classes: Vec<(Category, Vec<HandShape>)> = Vec::new();
    for shape in every_shape(deck) {
        let class = ev.split_values(&shape.hand).best_five().category();
        match classes.iter_mut().find(|(c, _)| *c == class) {
            Some((_, shapes)) => shapes.push(shape),
            None => classes.push((class, vec![shape])),
        }
    }
    classes.sort_by_key(|c| std::cmp::Reverse(c.0));
    let drawn: Vec<(Category, [Card; 7])> = (classes.iter().enumerate())
        .flat_map(|(i, (class, shapes))| {
            draw(shapes, deck, per_class, chunk_rng(seed, i as u64)).map(move |h| (*class, h))
        })
        .collect();
    let shapes = Shapes::new(crate::strategy::deck_shapes::SuitDeck::of(deck));
    (drawn.par_iter())
        .map(|&(class, hand)| check_hand(table, pricer, ev, &shapes, class, hand))
        .collect()
}

/// `n` hands drawn uniformly from the hands of `shapes`.
fn draw(
    shapes: &[HandShape],
    deck: Deck,
    n: usize,
    mut rng: crate::cards::deal::ChunkRng,
) -> impl Iterator<Item = [Card; 7]> + '_ {
    let total: u64 = shapes.iter().map(|s| s.hands).sum();
    (0..n).map(move |_| {
        let mut pick = below(&mut rng, total);
        let shape = (shapes.iter())
            .find(|s| {
                let here = pick < s.hands;
                pick = pick.saturating_sub(s.hands);
                here
            })
            .expect("a draw below the total falls in a shape");
        shape.random_hand(deck, &mut rng)
    })
}

/// One hand: its own exact prices, its best, and the table's choice.
fn check_hand(
    table: &PriceTable,
    pricer: &HandPricer,
    ev: &Evaluator,
    shapes: &Shapes,
    class: Category,
    hand: [Card; 7],
) -> CheckedHand {
    let wager: &MainWager = pricer.wager();
    let splits = ev.split_values(&hand);
    let own = pricer.hand_exact(&splits, &hand);
    let units = i128::from(own.dealer_hands) * i128::from(BET_UNITS);
    let ev_of = |split: usize| {
        let setting = own.setting(split).expect("a legal split");
        Fraction::new(own.net_units(setting, wager), units)
    };
    let own_split = (own.settings.iter())
        .map(|s| {
            (
                own.net_units(s, wager),
                splits.back[s.split],
                splits.front[s.split],
                s.split,
            )
        })
        .max_by(|a, b| (a.0, a.1, a.2).cmp(&(b.0, b.1, b.2)).then(b.3.cmp(&a.3)))
        .expect("a hand has a legal setting")
        .3;
    let id = shapes.id_of(&hand);
    let prices = table
        .shape(id)
        .expect("the table prices every shape of the deck");
    let (best, _) = prices.ranked(wager)[0];
    let table_split = (splits.legal_splits())
        .find(|&k| table.index.split_point(&splits, k) == [best.front, best.back])
        .expect("the shape's best is a legal setting of each of its hands");
    CheckedHand {
        class,
        hand,
        table_split,
        own_split,
        table_ev: ev_of(table_split),
        own_ev: ev_of(own_split),
    }
}
