//! Exact enumeration of 7-card hands: how many hands of a deck make each best-5-card category.
//!
//! Two methods, which must agree exactly (the tests hold them to it):
//! - [`Method::Structure`] enumerates the rank structure of the seven cards: every multiset `M` of
//!   seven rank symbols (at most four of a rank, at most the deck's jokers). Without regard to suits,
//!   `M` is dealt in `prod C(4, c_r) * C(jokers, j)` ways and its best non-flush value `V(M)` is the
//!   best of its 21 five-card sub-multisets. Suits matter only through a flush: a suit holding
//!   exactly the ranks `S` (with `|S| + j >= 5`) happens in `4 * prod_{r in S} C(3, c_r - 1) *
//!   prod_{r not in S} C(3, c_r)` ways and scores `max(V(M), best flush of S and the jokers)`. At most
//!   one suit can reach a flush in seven cards, so the counts add without overlap.
//! - [`Method::Brute`] deals every 7-card hand and takes the best back of its 21 splits.
//!
//! Under `five_aces = "equal_royal"` a hand holding five aces has the royal flush's value; it is
//! counted on the five-aces row, which the report names for what the hand holds.
//!
//! Side bets ([`paytable_counts`]) are counted the same two ways. By structure: within one rank
//! multiset and one flush pattern (no suit reaching a flush, or one suit holding exactly the
//! ranks `S`) every hand makes the same side-bet events, because suits matter to an event only
//! through which five-card subsets are flushes and whether all seven cards are one suit; so one
//! representative hand of each class is dealt (suits given round robin, at most two cards a suit
//! outside the flush suit, so no other suit nears a flush), its [`SevenCardFacts`] found, and its
//! class's count added to the line that pays it. By brute force: every hand's facts.
//! The one event that reads suits outside the flush suit, royal match (a royal flush and a
//! suited K-Q as the other two cards), can hold only when exactly two cards lie outside the
//! flush suit; such a class is split by whether those two (of different ranks) share a suit:
//! 3 of their 9 suit pairs do, so a third of the class's hands (both dealt to suit 1) and two
//! thirds (suits 1 and 2). A bet judged on the dealer's seven cards has the same counts (the
//! dealer's hand is as uniform a 7-card hand as the player's).
//!
//! Three-card bets: every 3-card hand of the deck (C(53, 3) = 23,426), each equally likely to be
//! the player's first three cards. Setting bets: every 7-card hand, set by the player's way
//! (`setting`), which must set a hand from its own seven cards ([`countable`]).

mod setting;

use rayon::prelude::*;
use thiserror::Error;

use crate::cards::{ACE, Card, Deck, sorted_hand};
use crate::combin::{choose, for_each_hand_from};
use crate::eval::{Category, Evaluator, JOKER_SYMBOL, JokerRule, RANK_KEYS, symbol_multisets};
use crate::game::events::{SevenCardFacts, three_card_key};
use crate::game::paytable::{BetKind, Event, Paytable};
use crate::strategy::Strategy;
pub use setting::setting_counts_of_shapes;

/// How to enumerate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Method {
    /// Rank structures and suit patterns (milliseconds).
    Structure,
    /// Every 7-card hand, best of its 21 backs (seconds).
    Brute,
}

/// Hand counts per best-5-card category (indexed by `Category as usize`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct CategoryCounts(pub [u64; 11]);

impl CategoryCounts {
    /// The count of one category.
    pub fn get(&self, category: Category) -> u64 {
        self.0[category as usize]
    }

    /// All hands counted.
    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }

    fn add(&mut self, category: Category, count: u64) {
        self.0[category as usize] += count;
    }

    fn merge(mut self, other: CategoryCounts) -> CategoryCounts {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
        self
    }
}

/// The report name of a category row: five of a kind is "five aces" with a bug joker, where no
/// other five of a kind exists.
pub fn row_name(category: Category, joker: JokerRule) -> &'static str {
    match (category, joker) {
        (Category::FiveOfAKind, JokerRule::Bug) => "five aces",
        _ => category.name(),
    }
}

/// The row a 7-card hand counts on, from its best value and whether it holds five aces.
fn row_of(best: crate::eval::Value, holds_five_aces: bool) -> Category {
    if holds_five_aces {
        Category::FiveOfAKind
    } else {
        best.category()
    }
}

/// Counts every 7-card hand of `deck` by best-5-card category.
pub fn category_counts(ev: &Evaluator, deck: Deck, method: Method) -> CategoryCounts {
    match method {
        Method::Structure => by_structure(ev, deck),
        Method::Brute => by_brute_force(ev, deck),
    }
}

fn by_structure(ev: &Evaluator, deck: Deck) -> CategoryCounts {
    let deck_jokers = deck.jokers() as usize;
    symbol_multisets(7)
        .par_iter()
        .filter(|m| m.iter().filter(|&&s| s as usize == JOKER_SYMBOL).count() <= deck_jokers)
        .map(|m| structure_counts(ev, m, deck_jokers as u64))
        .reduce(CategoryCounts::default, CategoryCounts::merge)
}

/// The jokers and the count of each rank of a 7-symbol multiset.
fn rank_counts(symbols: &[u8]) -> (usize, [u64; 13]) {
    let jokers = symbols
        .iter()
        .filter(|&&s| s as usize == JOKER_SYMBOL)
        .count();
    let mut counts_by_rank = [0u64; 13];
    for &s in symbols.iter().filter(|&&s| (s as usize) < JOKER_SYMBOL) {
        counts_by_rank[s as usize] += 1;
    }
    (jokers, counts_by_rank)
}

/// Counts for the hands of one 7-symbol multiset (symbols ascending, jokers last).
fn structure_counts(ev: &Evaluator, symbols: &[u8], deck_jokers: u64) -> CategoryCounts {
    let (jokers, counts_by_rank) = rank_counts(symbols);
    let nonflush = best_nonflush_of_seven(ev, symbols);
    let five_aces = counts_by_rank[ACE as usize] + jokers as u64 >= 5;
    let mut out = CategoryCounts::default();
    for_each_flush_pattern((jokers, &counts_by_rank), deck_jokers, |mask, n| {
        let best = match mask {
            Some(mask) => nonflush.max(best_flush_of(ev, mask, jokers)),
            None => nonflush,
        };
        out.add(row_of(best, five_aces), n);
    });
    out
}

/// The hands of one multiset (`jokers` and its natural cards' counts by rank) split by flush
/// pattern: `visit(Some(mask), n)` for each rank mask `mask` that one suit can hold with five or
/// more cards counting the jokers (`n` hands, every suit), then `visit(None, n)` for the `n > 0`
/// hands with no flush suit. The `n` add up to the multiset's hands.
fn for_each_flush_pattern(
    (jokers, counts_by_rank): (usize, &[u64; 13]),
    deck_jokers: u64,
    mut visit: impl FnMut(Option<u32>, u64),
) {
    let joker_ways = choose(deck_jokers, jokers as u64);
    let ways = counts_by_rank
        .iter()
        .map(|&c| choose(4, c))
        .product::<u64>()
        * joker_ways;
    let ranks: Vec<u8> = (0..13)
        .filter(|&r| counts_by_rank[r as usize] > 0)
        .collect();
    let mut flush_ways = 0;
    for subset in 0u32..1 << ranks.len() {
        if subset.count_ones() as usize + jokers < 5 {
            continue;
        }
        let (mask, suit_ways) = flush_suit_pattern(&ranks, counts_by_rank, subset);
        if suit_ways == 0 {
            continue;
        }
        let n = 4 * suit_ways * joker_ways;
        visit(Some(mask), n);
        flush_ways += n;
    }
    if ways > flush_ways {
        visit(None, ways - flush_ways);
    }
}

/// For the distinct `ranks` selected by `subset` lying in one (given) suit: their rank mask and
/// the number of ways to give every card the suits that make exactly that pattern.
fn flush_suit_pattern(ranks: &[u8], counts: &[u64; 13], subset: u32) -> (u32, u64) {
    let mut mask = 0;
    let mut ways = 1;
    for (i, &r) in ranks.iter().enumerate() {
        let c = counts[r as usize];
        if subset >> i & 1 == 1 {
            mask |= 1 << r;
            ways *= choose(3, c - 1);
        } else {
            ways *= choose(3, c);
        }
    }
    (mask, ways)
}

/// The best non-flush value of five of the seven symbols.
fn best_nonflush_of_seven(ev: &Evaluator, symbols: &[u8]) -> crate::eval::Value {
    let total: u32 = symbols.iter().map(|&s| RANK_KEYS[s as usize]).sum();
    crate::eval::split::FRONT_POSITIONS
        .iter()
        .map(|&(i, j)| {
            let key = total
                - RANK_KEYS[symbols[i as usize] as usize]
                - RANK_KEYS[symbols[j as usize] as usize];
            ev.nonflush_value(key as u64)
        })
        .max()
        .expect("21 splits")
}

/// The best 5-card flush from the suited ranks `mask` and up to `jokers` jokers.
fn best_flush_of(ev: &Evaluator, mask: u32, jokers: usize) -> crate::eval::Value {
    (0..=jokers)
        .flat_map(|used| {
            sub_masks(mask, 5usize.saturating_sub(used)).map(move |m| ev.flush_value(m, used))
        })
        .max()
        .unwrap_or_default()
}

/// The sub-masks of `mask` with exactly `size` bits.
fn sub_masks(mask: u32, size: usize) -> impl Iterator<Item = u32> {
    let mut sub = mask;
    let mut done = false;
    std::iter::from_fn(move || {
        while !done {
            let current = sub;
            if sub == 0 {
                done = true;
            } else {
                sub = (sub - 1) & mask;
            }
            if current.count_ones() as usize == size {
                return Some(current);
            }
        }
        None
    })
}

fn by_brute_force(ev: &Evaluator, deck: Deck) -> CategoryCounts {
    let cards = deck.cards();
    let n = cards.len();
    (0..n)
        .into_par_iter()
        .map(|a| {
            let mut out = CategoryCounts::default();
            for_each_hand_from(&cards, a, |hand| {
                let best = ev.best_five_of_seven(hand);
                let aces = hand
                    .iter()
                    .filter(|c| c.rank() == Some(ACE) || c.is_joker());
                out.add(row_of(best, aces.count() >= 5), 1);
            });
            out
        })
        .reduce(CategoryCounts::default, CategoryCounts::merge)
}

/// Hands (or, for joker bets, deals) counted by the paytable line that pays them; the last entry
/// counts those that no line pays.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LineCounts {
    pub counts: Vec<u64>,
}

impl LineCounts {
    /// Everything counted.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    fn merge(mut self, other: LineCounts) -> LineCounts {
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a += b;
        }
        self
    }
}

/// Why a bet cannot be counted exactly.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NotCountable {
    /// A setting bet, and no player's way to set the hands.
    #[error("it is judged on the player's setting, and no player's way is given")]
    NoPlayerWay,
    /// A setting bet, and a player's way that sets by the dealer's hand (named), so that one
    /// hand's setting varies with the dealer's cards.
    #[error(
        "it is judged on the player's setting, and the player's way '{0}' sets by the dealer's hand"
    )]
    WaySeesDealer(String),
}

/// Whether a bet can be counted exactly with the player's way `player` (if any): every kind
/// but a setting bet can; a setting bet needs a way that sets a hand from its seven cards.
pub fn countable(table: &Paytable, player: Option<&dyn Strategy>) -> Result<(), NotCountable> {
    match (table.kind, player) {
        (BetKind::Setting, None) => Err(NotCountable::NoPlayerWay),
        (BetKind::Setting, Some(way)) if way.needs_dealer() => {
            Err(NotCountable::WaySeesDealer(way.name().to_string()))
        }
        _ => Ok(()),
    }
}

/// Exact counts for every line of each table: seven-card bets over every 7-card hand of the deck
/// (all of them in one pass, by `method`), setting bets over every 7-card hand set by `player`
/// (by hand shape, or with [`Method::Brute`] every hand dealt), joker bets over every (player,
/// dealer) pair of 7-card hands, in closed form. Results are in the order of `tables`; each must
/// be [`countable`] with `player`.
pub fn paytable_counts(
    ev: &Evaluator,
    deck: Deck,
    tables: &[Paytable],
    method: Method,
    player: Option<&dyn Strategy>,
) -> Vec<LineCounts> {
    let of_kind = |kind| -> Vec<&Paytable> { tables.iter().filter(|t| t.kind == kind).collect() };
    let seven = of_kind(BetKind::SevenCards);
    let seven_counts = match method {
        _ if seven.is_empty() => Vec::new(),
        Method::Structure => seven_card_counts_by_structure(ev, deck, &seven),
        Method::Brute => seven_card_line_counts(ev, deck, &seven),
    };
    let setting = of_kind(BetKind::Setting);
    let setting_counts = match player {
        _ if setting.is_empty() => Vec::new(),
        Some(way) => setting::setting_line_counts(ev, deck, &setting, way, method),
        None => panic!("setting bets are counted with a player's way"),
    };
    let mut seven_counts = seven_counts.into_iter();
    let mut setting_counts = setting_counts.into_iter();
    tables
        .iter()
        .map(|t| match t.kind {
            BetKind::SevenCards => seven_counts.next().expect("one count per seven-card table"),
            BetKind::FirstThree => three_card_line_counts(ev, deck, t),
            BetKind::Setting => setting_counts.next().expect("one count per setting table"),
            BetKind::Jokers => joker_line_counts(deck, t),
        })
        .collect()
}

fn empty_counts(tables: &[&Paytable]) -> Vec<LineCounts> {
    tables
        .iter()
        .map(|t| LineCounts {
            counts: vec![0; t.lines.len() + 1],
        })
        .collect()
}

/// Adds `n` hands like `hand` (sorted) to the line of each table that pays them.
fn add_hands(
    ev: &Evaluator,
    hand: &[Card; 7],
    n: u64,
    tables: &[&Paytable],
    out: &mut [LineCounts],
) {
    let facts = SevenCardFacts::of(hand, &ev.split_values(hand));
    for (table, counts) in tables.iter().zip(out.iter_mut()) {
        let line = table.first_line(&facts).unwrap_or(table.lines.len());
        counts.counts[line] += n;
    }
}

/// Seven-card line counts by rank structure and flush pattern (see the module docs).
fn seven_card_counts_by_structure(
    ev: &Evaluator,
    deck: Deck,
    tables: &[&Paytable],
) -> Vec<LineCounts> {
    let deck_jokers = deck.jokers() as usize;
    symbol_multisets(7)
        .par_iter()
        .filter(|m| m.iter().filter(|&&s| s as usize == JOKER_SYMBOL).count() <= deck_jokers)
        .map(|m| structure_line_counts(ev, m, deck_jokers as u64, tables))
        .reduce(
            || empty_counts(tables),
            |a, b| a.into_iter().zip(b).map(|(x, y)| x.merge(y)).collect(),
        )
}

/// Line counts for the hands of one 7-symbol multiset: one representative per flush pattern.
fn structure_line_counts(
    ev: &Evaluator,
    symbols: &[u8],
    deck_jokers: u64,
    tables: &[&Paytable],
) -> Vec<LineCounts> {
    let (jokers, counts_by_rank) = rank_counts(symbols);
    let mut out = empty_counts(tables);
    let mut add = |mask, suited_outside, n| {
        let hand = representative(&counts_by_rank, jokers, mask, suited_outside);
        add_hands(ev, &hand, n, tables, &mut out);
    };
    for_each_flush_pattern((jokers, &counts_by_rank), deck_jokers, |mask, n| {
        let Some(flush) = mask else {
            return add(None, false, n);
        };
        let suited = match outside_pair(&counts_by_rank, flush) {
            true => n / 3,
            false => 0,
        };
        if suited > 0 {
            add(mask, true, suited);
        }
        add(mask, false, n - suited);
    });
    out
}

/// Whether exactly two cards, of different ranks, lie outside the flush suit holding `mask`.
fn outside_pair(counts_by_rank: &[u64; 13], mask: u32) -> bool {
    let outside = (0..13).map(|r| counts_by_rank[r] - u64::from(mask >> r & 1));
    let outside: Vec<u64> = outside.filter(|&c| c > 0).collect();
    outside == [1, 1]
}

/// A hand (sorted) with these rank counts and jokers: with `flush = Some(mask)`, suit 0 holds
/// exactly one card of each rank in `mask` and the other cards go round robin over suits 1 to 3;
/// with `None`, every card goes round robin over the four suits. Either way each rank's cards
/// get distinct suits and no suit outside the flush suit holds more than two cards. With
/// `suited_outside` (exactly two cards of different ranks outside the flush suit) both go to
/// suit 1.
fn representative(
    counts_by_rank: &[u64; 13],
    jokers: usize,
    flush: Option<u32>,
    suited_outside: bool,
) -> [Card; 7] {
    let mut cards = Vec::with_capacity(7);
    let mut next = 0u8;
    let (first_suit, suits) = match (flush, suited_outside) {
        (Some(_), true) => (1, 1),
        (Some(_), false) => (1, 3),
        (None, _) => (0, 4),
    };
    for rank in 0..13u8 {
        let mut count = counts_by_rank[rank as usize];
        if flush.is_some_and(|mask| mask >> rank & 1 == 1) {
            cards.push(Card::new(rank, 0).expect("a rank and a suit"));
            count -= 1;
        }
        for _ in 0..count {
            cards.push(Card::new(rank, first_suit + next % suits).expect("a rank and a suit"));
            next += 1;
        }
    }
    cards.extend([Card::JOKER1, Card::JOKER2].into_iter().take(jokers));
    sorted_hand(&cards)
}

fn seven_card_line_counts(ev: &Evaluator, deck: Deck, tables: &[&Paytable]) -> Vec<LineCounts> {
    line_counts_of_every_hand(deck, tables, |hand, counts| {
        add_hands(ev, hand, 1, tables, counts)
    })
}

/// Line counts of `tables` over every 7-card hand of `deck`, each dealt (sorted by card index)
/// and added by `add`, in parallel by the hand's first card.
pub(crate) fn line_counts_of_every_hand(
    deck: Deck,
    tables: &[&Paytable],
    add: impl Fn(&[Card; 7], &mut [LineCounts]) + Sync,
) -> Vec<LineCounts> {
    let cards = deck.cards();
    (0..cards.len())
        .into_par_iter()
        .map(|first| {
            let mut counts = empty_counts(tables);
            for_each_hand_from(&cards, first, |hand| add(hand, &mut counts));
            counts
        })
        .reduce(|| empty_counts(tables), merge_line_counts)
}

/// Two sets of line counts of the same tables, added.
pub(crate) fn merge_line_counts(a: Vec<LineCounts>, b: Vec<LineCounts>) -> Vec<LineCounts> {
    a.into_iter().zip(b).map(|(x, y)| x.merge(y)).collect()
}

/// Deals (player's 7 cards, then the dealer's 7 from the other 47) with `player` and `dealer`
/// jokers: `C(J, p) C(52, 7 - p) * C(J - p, d) C(45 + p, 7 - d)`.
pub fn joker_deals(deck: Deck, player: u8, dealer: u8) -> u64 {
    let jokers = deck.jokers() as u64;
    let (p, d) = (player as u64, dealer as u64);
    if p + d > jokers {
        return 0;
    }
    choose(jokers, p) * choose(52, 7 - p) * choose(jokers - p, d) * choose(45 + p, 7 - d)
}

/// Every 3-card hand of the deck counted by the line of `table` that pays it.
fn three_card_line_counts(ev: &Evaluator, deck: Deck, table: &Paytable) -> LineCounts {
    let joker = ev.ranking().joker;
    let cards = deck.cards();
    let lines = table.lines.len();
    let plan = crate::game::events::SideBetPlan::new(table, joker);
    let mut counts = vec![0u64; lines + 1];
    for (i, &a) in cards.iter().enumerate() {
        for (j, &b) in cards.iter().enumerate().skip(i + 1) {
            for &c in &cards[j + 1..] {
                let key = three_card_key(&[a, b, c], joker);
                counts[plan.three_card_line(key)] += 1;
            }
        }
    }
    LineCounts { counts }
}

fn joker_line_counts(deck: Deck, table: &Paytable) -> LineCounts {
    let lines = table.lines.len();
    let mut counts = vec![0u64; lines + 1];
    for player in 0..=deck.jokers() {
        for dealer in 0..=deck.jokers() - player {
            let event = Event::Jokers { player, dealer };
            counts[table.joker_line(event).unwrap_or(lines)] += joker_deals(deck, player, dealer);
        }
    }
    LineCounts { counts }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sub_masks_lists_each_subset_of_a_size_once() {
        let subs: Vec<u32> = sub_masks(0b1011, 2).collect();
        assert_eq!(subs.len(), 3);
        assert!(subs.iter().all(|m| m & !0b1011 == 0 && m.count_ones() == 2));
        assert_eq!(sub_masks(0b111, 0).collect::<Vec<_>>(), vec![0]);
    }

    #[test]
    fn joker_deals_cover_every_deal() {
        for jokers in 0..=2 {
            let deck = Deck::with_jokers(jokers).unwrap();
            let n = deck.size() as u64;
            let all: u64 = (0..=jokers)
                .flat_map(|p| (0..=jokers - p).map(move |d| joker_deals(deck, p, d)))
                .sum();
            assert_eq!(all, choose(n, 7) * choose(n - 7, 7));
        }
    }
}
